"""HTTP face of the Elasund engine: option and move schemas (marshmallow) and the ``PLUGIN``.

Squares are ``col`` (0 at the harbour, eastwards; 0..2n-ish by player count) and ``row`` (the
printed row label 2, 3, 4, 5, 6, 8, 9, 10, 11, 12: there is no row 7).  A building's square is
its north-west corner; tiles are never rotated.  Influence colours are red, blue and green.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.elasund import render
from services.elasund.bots import STRATEGIES
from services.elasund.value import FEATURES as VALUE_FEATURES
from services.elasund.pictures import PLACE_FIELDS, board_svg
from services.elasund.rules import board
from services.elasund.rules.game import ENGINES, GAME
from services.elasund.rules.options import OPTIONS
from services.elasund.schemas import EVENT_SCHEMAS, Result, View
from shared.text.i18n import N_
from shared.game.plugin import GamePlugin
from shared.http.schemas import strict_int

_row = validate.OneOf(board.ROWS)
_colour = validate.OneOf(board.INFLUENCE_COLOURS)
_permit_value = validate.OneOf(board.PERMIT_VALUES)


_MAX_COL = max(board.columns(players) for players in (2, 3, 4)) - 1   # 0..8 with 4 players


def _col(description: str = "Column, 0 at the harbour.") -> fields.Integer:
    return strict_int(0, _MAX_COL, required=True, metadata={"description": description})


def _row_field(description: str = "Printed row label (no row 7).") -> fields.Integer:
    return strict_int(min(board.ROWS), max(board.ROWS), _row, required=True, metadata={"description": description})


def _permit_field(description: str) -> fields.Integer:
    return strict_int(min(board.PERMIT_VALUES), max(board.PERMIT_VALUES), _permit_value, required=True,
                      metadata={"description": description})


def _pay_colour(required: bool, description: str) -> fields.Str:
    if required:
        return fields.Str(required=True, validate=_colour, metadata={"description": description})
    return fields.Str(load_default=None, allow_none=True, validate=_colour, metadata={"description": description})


def _option(name: str, description: str, label: str, hint: str = "",
            choices: dict[str, str] | None = None) -> fields.Field:
    """An option of rules/options.py: ``label``, ``hint`` and ``choices`` are the lobby's words
    (shared.http.options_form)."""
    default, allowed = OPTIONS[name]
    metadata: dict[str, object] = {"description": description, "label": label}
    if hint:
        metadata["hint"] = hint
    if choices:
        metadata["choices"] = choices
    if isinstance(default, bool):
        return fields.Bool(load_default=default, metadata=metadata)
    return fields.Str(load_default=default, validate=validate.OneOf(allowed), metadata=metadata)


class OptionsSchema(Schema):
    walls_blue_first = _option(
        "walls_blue_first", "Default true (proposed, official portal summary): the 4-gold east wall lane "
        "opens only once every 2-gold lane space is walled. false: any space next to a gate or a wall.",
        N_("Wall lanes in order"), N_("The 4-gold east lane opens once every 2-gold space is walled (the official "
                                      "summary); otherwise any space next to a gate or a wall."))
    trade_track_capacity = _option(
        "trade_track_capacity", "Default true (proposed): the cube boxes beside trade-track spaces "
        "3/5/7/9/11 (4/3/2/2/1 boxes) limit how many cubes go there, first come first served.",
        N_("Trade track boxes limit the cubes"), N_("The boxes beside spaces 3, 5, 7, 9 and 11 hold 4, 3, 2, 2 and 1 "
                                                    "cubes, first come first served."))
    shortage_payout = _option(
        "shortage_payout", "Card shortage at income. `none` (default, English rules): nobody gets that "
        "card type this roll and everyone discards half of it. `after_discard` (French rules): after "
        "the half-discard refills the bank the income is paid.",
        N_("When the bank runs short of a card at income"), choices={
            "none": N_("Nobody gets that card this roll (English rules)"),
            "after_discard": N_("Paid once everyone has discarded half of it (French rules)")})
    hut_on_own_permit = _option(
        "hut_on_own_permit", "Default false: a displaced starter hut is rebuilt on a square with no "
        "permit at all (French text). true: own permits allowed (English 'other players' permits'); "
        "the permit returns to its owner.",
        N_("Huts on their owner's permits"), N_("A displaced starter hut may be rebuilt on its owner's own permit, "
                                                "which goes back to its owner (English rules); otherwise only where "
                                                "there is no permit (French rules)."))


class NoFields(Schema):
    """roll, end_building, build_church, take_gold, special_gold, end_turn."""


class RowMove(Schema):
    row = _row_field("Row for the ship (same-number roll) or the pirates (a 7); see legal moves.")


class DiscardMove(Schema):
    gold = strict_int(0, board.GOLD_CARDS, load_default=0, metadata={"description": "Gold cards."})
    influence = fields.Dict(keys=fields.Str(validate=_colour),
                            values=strict_int(0, max(board.COMPONENTS["cards"]["influence"].values())),
                            load_default=dict, metadata={"description": "Influence cards by colour."})


class BuildMove(Schema):
    building = fields.Str(required=True, validate=validate.OneOf(board.PLAYER_BUILDINGS + board.NEUTRAL_BUILDINGS),
                          metadata={"description": "Building type (own: house, workshop; neutral: well, "
                                                   "market, tavern, shop, large)."})
    col = _col("North-west column of the building.")
    row = _row_field("North-west row of the building.")
    pay_colour = _pay_colour(False, "Colour of the 3 influence cards paid to cover same-size buildings.")


class WallMove(Schema):
    space = fields.Str(required=True, metadata={"description": "Wall space id: T<col>/B<col> (2 gold), "
                                                              "R<row> (4 gold, east lane)."})


class ChurchTileMove(Schema):
    tile = strict_int(1, board.CHURCH_TILES, required=True,
                      metadata={"description": "Which of the two drawn church tiles goes on the foundation."})


class SquareMove(Schema):
    col = _col()
    row = _row_field()


class PlaceAnywhereMove(Schema):
    value = _permit_field("Permit value (costs as much gold).")
    col = _col()
    row = _row_field()


class PlacePermitMove(PlaceAnywhereMove):
    pay_colour = _pay_colour(False, "2 influence cards of this colour: any row instead of the ship's.")


class MovePermitMove(Schema):
    from_col = _col("Column of your permit.")
    from_row = _row_field("Row of your permit.")
    col = _col("Empty destination column.")
    row = _row_field("Empty destination row.")
    pay_colour = _pay_colour(True, "Colour of the 2 matching influence cards paid.")


class UpgradePermitMove(Schema):
    col = _col("Column of your permit.")
    row = _row_field("Row of your permit.")
    value = _permit_field("Higher permit from your supply.")
    pay_colour = _pay_colour(True, "Colour of the 2 matching influence cards paid.")


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "roll": NoFields,
    "move_ship": RowMove,
    "move_pirates": RowMove,
    "discard": DiscardMove,
    "build": BuildMove,
    "build_wall": WallMove,
    "build_church": NoFields,
    "end_building": NoFields,
    "choose_church_tile": ChurchTileMove,
    "rebuild_hut": SquareMove,
    "place_permit": PlacePermitMove,
    "take_gold": NoFields,
    "move_permit": MovePermitMove,
    "upgrade_permit": UpgradePermitMove,
    "place_permit_anywhere": PlaceAnywhereMove,
    "special_gold": NoFields,
    "end_turn": NoFields,
}

PLUGIN = GamePlugin(
    renderer=render,
    game=GAME,
    engines=dict(ENGINES),
    options_schema=OptionsSchema,
    move_schemas=MOVE_SCHEMAS,
    strategies=STRATEGIES,
    value_features=VALUE_FEATURES,
    board_svg=board_svg,
    places=PLACE_FIELDS,
    view_schema=View,
    result_schema=Result,
    event_schemas=EVENT_SCHEMAS,
    port=8002,
    description="Elasund: The First City (Klaus Teuber), 2-4 players: build the city, first to place "
                "all 10 victory cubes wins.",
)
