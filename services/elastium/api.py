"""HTTP face of the Elastium engine: option and move schemas (marshmallow) and the ``PLUGIN``.

Pegs are named ``cXrY`` (column X 0..7 west to east, row Y 0..9 south to north, odd rows half a
step east); card and peg colours are ``gris``, ``bleu``, ``vert``, ``rouge``, ``jaune``.
See ``services/elastium/NOTES.md`` for the boards and the rules decisions.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.elastium import render
from services.elastium.bots import STRATEGIES
from services.elastium.value import FEATURES as VALUE_FEATURES
from services.elastium.pictures import PLACE_FIELDS, board_svg
from services.elastium.rules.board import COLOURS, SCENARIOS
from services.elastium.rules.game import Elastium
from services.elastium.rules.moves import DEFAULT_MAX_ROUNDS
from services.elastium.schemas import EVENT_SCHEMAS, Result, View
from shared.text.i18n import N_
from shared.game.plugin import GamePlugin
from shared.http.schemas import strict_int

_colour = validate.OneOf(COLOURS)
_peg = validate.Regexp(r"^c[0-7]r[0-9]$")


class OptionsSchema(Schema):
    scenario = fields.Str(
        load_default="jungle-temples", validate=validate.OneOf(SCENARIOS),
        metadata={"description": "The board and its rules: `jungle-temples` (default; opposite-edge "
                  "bonus 8/6, ends at 18 VP), `volcano` (crater start, 6 rounds, keep 7 energy to "
                  "escape), `archipelago` (bridges worth 2 energy, no enclosures, 18 VP), "
                  "`engraved-plateau` (complete images, -3 per empty segment, ends after 5/7/9 "
                  "images), `fragile-ruins` (long barriers, excavation sites, 6 rounds), "
                  "`cursed-triangle` (private 12-card decks, 3-4 peg bands, +4 per distinct "
                  "territory, 15 VP), `two-deities` (idols explored alone, majority +6 per type, "
                  "18 VP), `labyrinth` (2-peg chains, -5 for crossing your own chain, artefact "
                  "sets +5, ends when a player has used 18 bands).",
                  "label": N_("Scenario"), "choices": {
                      "jungle-temples": N_("Jungle Temples: a bonus for joining opposite edges, first to 18 points"),
                      "volcano": N_("Volcano: start in the crater, 6 rounds, keep 7 energy to escape"),
                      "archipelago": N_("Archipelago: bridges worth 2 energy, no enclosures, first to 18 points"),
                      "engraved-plateau": N_("Engraved Plateau: complete the images, 3 points lost per empty segment"),
                      "fragile-ruins": N_("Fragile Ruins: long barriers and excavation sites, 6 rounds"),
                      "cursed-triangle": N_("Cursed Triangle: a deck of your own, bands of 3 or 4 pegs, first to "
                                            "15 points"),
                      "two-deities": N_("Two Deities: idols explored alone, 6 points a majority, first to 18 points"),
                      "labyrinth": N_("Labyrinth: chains of bands, 5 points lost for crossing your own chain")}})
    max_rounds = strict_int(
        1, 200, load_default=DEFAULT_MAX_ROUNDS,
        metadata={"description": f"Safety cap, not in the printed rules (default {DEFAULT_MAX_ROUNDS}): "
                  "the game ends after this round even if the scenario's end was not reached.",
                  "label": N_("Rounds at most"),
                  "hint": N_("A safety limit: the scenario's own end usually comes first.")})


class NoFields(Schema):
    """buy_action (3 energy for a third action, once a turn, after the two actions) and end_turn."""


class TakeCardsMove(Schema):
    market = fields.List(fields.Str(validate=_colour), load_default=list, validate=validate.Length(max=2),
                         metadata={"description": "Colours taken from the face-up market (0-2); the rest "
                                   "of the 2 cards come from the deck.  Cursed Triangle: always [] "
                                   "(draws 3 from your own deck)."})


class PaymentSchema(Schema):
    peg = fields.Str(required=True, validate=_peg, metadata={"description": "A peg of the band you "
                     "do not already hold."})
    cards = fields.List(fields.Str(validate=_colour), required=True, validate=validate.Length(min=1, max=2),
                        metadata={"description": "One card of the peg's colour, or two cards of one "
                                  "colour (a joker)."})
    to = strict_int(0, 3, load_default=None, allow_none=True,
                    metadata={"description": "null for an empty peg (cards discarded); else the seat of "
                              "a player whose band is on the peg, who receives the cards."})
    second_to = strict_int(0, 3, load_default=None, allow_none=True,
                           metadata={"description": "Joker only: the seat of a second player on the peg "
                                     "who receives the second card (null: both cards go to `to`)."})
    energy = fields.Bool(load_default=False, metadata={"description": "Cursed Triangle only: give `to` "
                         "1 energy and discard the cards instead of giving them."})


class PlaceBandMove(Schema):
    pegs = fields.List(fields.Str(validate=_peg), required=True, validate=validate.Length(min=2, max=4),
                       metadata={"description": "2 pegs on a printed line, 3 pegs of a triangle, 4 of a "
                                 "rhombus, or (Fragile Ruins) a long barrier a-b-c; any order."})
    payment = fields.List(fields.Nested(PaymentSchema), load_default=list,
                          metadata={"description": "One entry per peg of the band that does not hold "
                                    "your band yet."})


class TakeBonusCardMove(Schema):
    source = fields.Str(required=True, validate=validate.OneOf(["market", "deck"]),
                        metadata={"description": "Labyrinth artefact bonus: a market card or the top card."})
    card = fields.Str(load_default=None, allow_none=True, validate=_colour,
                      metadata={"description": "The market colour taken (null for the deck)."})


PLUGIN = GamePlugin(
    renderer=render,
    game=Elastium(),
    options_schema=OptionsSchema,
    move_schemas={
        "take_cards": TakeCardsMove,
        "place_band": PlaceBandMove,
        "buy_action": NoFields,
        "end_turn": NoFields,
        "take_bonus_card": TakeBonusCardMove,
    },
    strategies=STRATEGIES,
    value_features=VALUE_FEATURES,
    # It takes the typed view (rules/view_types.py), which mypy will not take for the dict[str, Any] the plugin names.
    board_svg=board_svg,  # type: ignore[arg-type]
    places=PLACE_FIELDS,
    view_schema=View,
    result_schema=Result,
    event_schemas=EVENT_SCHEMAS,
    bench_variants=[{"scenario": scenario} for scenario in SCENARIOS],
    port=8004,
    description="Elastium (Kauchuk): rubber bands on a peg board, eight scenarios for 2-4 players.",
)
