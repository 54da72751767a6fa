"""HTTP face of the Catan engine: option and move schemas (marshmallow) and the ``PLUGIN``.

Resources are named ``brick``, ``lumber``, ``wool``, ``grain``, ``ore``.  Intersections (nodes)
are ids 0..53 and paths (edges) 0..71, numbered from the board topology (see
``services/catan/NOTES.md``); hexes are 0..18 in reading order.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from marshmallow import Schema, fields, validate

from services.catan import render
from services.catan.bots import STRATEGIES
from services.catan.value import FEATURES as VALUE_FEATURES
from services.catan.pictures import PLACE_FIELDS, board_svg
from services.catan.rules import ENGINES
from services.catan.rules.board import EDGE_COUNT, HEX_COUNT, NODE_COUNT, RESOURCES
from services.catan.rules.state import RESOURCES_PER_TYPE
from services.catan.schemas import EVENT_SCHEMAS, Result, View
from shared.text.i18n import N_
from shared.game.plugin import GamePlugin
from shared.http.schemas import strict_int

_resource = validate.OneOf(RESOURCES)


def _resource_counts(description: str) -> fields.Dict:
    return fields.Dict(keys=fields.Str(validate=_resource),
                       values=strict_int(0, RESOURCES_PER_TYPE),   # no hand holds more than the bank's 19
                       required=True, metadata={"description": description})


class OptionsSchema(Schema):
    board = fields.Str(load_default="beginner", validate=validate.OneOf(["beginner", "variable"]),
                       metadata={"description": "Island layout. `beginner` (default): the fixed "
                                 "beginner board. `variable`: random hexes, number tokens laid "
                                 "along the A-R spiral skipping the desert, redrawn until no 6 or 8 "
                                 "touch.",
                                 "label": N_("Board"), "choices": {
                                     "beginner": N_("Beginner board: the printed starting layout"),
                                     "variable": N_("Variable board: shuffled land and numbers, no two 6s or 8s "
                                                    "side by side")}})
    bank_shortage = fields.Str(load_default="nobody",
                               validate=validate.OneOf(["nobody", "single-gets-rest"]),
                               metadata={"description": "When the bank cannot pay everybody a "
                                         "resource: `nobody` (default, the rule text) gets it; "
                                         "`single-gets-rest`: if only one player is owed it, "
                                         "they take what is left.",
                                         "label": N_("When the bank runs short of a resource"), "choices": {
                                             "nobody": N_("Nobody gets it (the rule book)"),
                                             "single-gets-rest": N_("If only one player is owed it, they take "
                                                                    "what is left")}})
    combined_trade_build = fields.Bool(
        load_default=False,
        metadata={"description": "Default false (the rule text: \"après qu'il ait terminé tous "
                  "ses échanges, ce joueur peut maintenant construire\"): the first road, "
                  "settlement, city or development card bought ends the turn's trading "
                  "(domestic and maritime; playing a development card does not). true: the "
                  "later editions' rule, trade and build in any order.",
                  "label": N_("Trade and build in any order"),
                  "hint": N_("The later editions' rule. Otherwise your first build ends your trading for the turn.")})


class NoFields(Schema):
    """roll, end_turn, buy_dev_card, play_knight, play_road_building, cancel_trade."""


class NodeMove(Schema):
    node = strict_int(0, NODE_COUNT - 1, required=True,
                      metadata={"description": "Intersection id."})


class EdgeMove(Schema):
    edge = strict_int(0, EDGE_COUNT - 1, required=True,
                      metadata={"description": "Path id (free during set-up and Road Building)."})


class DiscardMove(Schema):
    resources = _resource_counts("Cards to discard after a 7: exactly half the hand, rounded down.")


class MoveRobberMove(Schema):
    hex = strict_int(0, HEX_COUNT - 1, required=True,
                     metadata={"description": "Land hex to move the robber to (not its current one)."})
    victim = strict_int(0, 3, load_default=None, allow_none=True,
                        metadata={"description": "Opponent with a building there and cards to rob, "
                                  "or null: the steal is optional (\"peut dérober\")."})


class YearOfPlentyMove(Schema):
    resources = fields.List(fields.Str(validate=_resource), required=True,
                            validate=validate.Length(equal=2),
                            metadata={"description": "The two resources to take from the bank."})


class MonopolyMove(Schema):
    resource = fields.Str(required=True, validate=_resource,
                          metadata={"description": "Every opponent hands over all cards of it."})


class BankTradeMove(Schema):
    give = fields.Str(required=True, validate=_resource,
                      metadata={"description": "Resource given at your best rate (4:1, 3:1 or 2:1 harbour)."})
    get = fields.Str(required=True, validate=_resource, metadata={"description": "Resource received (1 card)."})


class OfferTradeMove(Schema):
    """Free-form domestic offer by the player on turn; not listed in legal moves."""

    give = _resource_counts("Cards offered to the other players.")
    get = _resource_counts("Cards asked for in return (no gifts: both sides non-empty).")


class AnswerTradeMove(Schema):
    accept = fields.Bool(required=True, metadata={"description": "Accept or reject the open offer."})


class CounterTradeMove(Schema):
    """Another seat answers the open offer with its own terms; not listed in legal moves.

    The almanac's example: Hans offers 1 ore for 1 brick, Gabi answers "je te donnerai 1 brique
    pour 1 bois de charpente et un minerai": Gabi's move is ``{"give": {"brick": 1}, "get":
    {"lumber": 1, "ore": 1}}``.  The player on turn may then confirm it (``confirm_trade``).
    """

    give = _resource_counts("Cards the answering seat gives the player on turn (it must hold them).")
    get = _resource_counts("Cards it asks back from the player on turn (both sides non-empty).")


class ConfirmTradeMove(Schema):
    seat = strict_int(0, 3, required=True,
                      metadata={"description": "The player to trade with: one who accepted the "
                                "offer (its terms), or one who countered (their terms)."})


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "build_settlement": NodeMove,
    "build_city": NodeMove,
    "build_road": EdgeMove,
    "roll": NoFields,
    "end_turn": NoFields,
    "discard": DiscardMove,
    "move_robber": MoveRobberMove,
    "buy_dev_card": NoFields,
    "play_knight": NoFields,
    "play_road_building": NoFields,
    "play_year_of_plenty": YearOfPlentyMove,
    "play_monopoly": MonopolyMove,
    "bank_trade": BankTradeMove,
    "offer_trade": OfferTradeMove,
    "answer_trade": AnswerTradeMove,
    "counter_trade": CounterTradeMove,
    "confirm_trade": ConfirmTradeMove,
    "cancel_trade": NoFields,
}

def catanatron_match(games: int) -> dict[str, Any]:
    """Our expert (200 ms a move) against catanatron's players in catanatron's engine (``make bench``)."""
    from services.catan import catanatron_bridge     # late: catanatron is a bench-only dependency
    return catanatron_bridge.run_match(games, "expert", 1, 200)


PLUGIN = GamePlugin(
    renderer=render,
    game=ENGINES["3"],
    engines=dict(ENGINES),
    options_schema=OptionsSchema,
    move_schemas=MOVE_SCHEMAS,
    strategies=STRATEGIES,
    value_features=VALUE_FEATURES,
    expert_goal_win_rate=0.6,
    port=8001,
    board_svg=board_svg,
    places=PLACE_FIELDS,
    web_dir=Path(__file__).resolve().parent / "web",
    view_schema=View,
    result_schema=Result,
    event_schemas=EVENT_SCHEMAS,
    reference_match=catanatron_match,
    description="The Settlers of Catan (base game, 3-4 players): set-up, production, robber, "
                "bank and domestic trade, building, development cards, Longest Road and Largest Army.",
)
