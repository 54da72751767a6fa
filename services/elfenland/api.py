"""HTTP face of the Elfenland engine: option and move schemas (marshmallow) and the ``PLUGIN``.

Roads are ids 0..47 (``services/elfenland/rules/board.json``); towns are named as on the board
(``Jxara``, ``Lapphalya``...).  Card kinds: ``giant_pig``, ``elfcycle``, ``magic_cloud``,
``unicorn``, ``troll_wagon``, ``dragon``, ``raft``, ``wizard``.  Counter kinds: the six
transports plus ``obstacle``, ``sea_monster``, ``gold``, ``double``, ``exchange``.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.elfenland import render
from services.elfenland.bots import STRATEGIES
from services.elfenland.value import FEATURES as VALUE_FEATURES
from services.elfenland.pictures import PLACE_FIELDS, board_svg
from services.elfenland.rules import ENGINES
from services.elfenland.rules.board import ROADS, TOWNS
from services.elfenland.rules.components import COUNTER_KINDS, EDITIONS, HAND_CARDS, TRANSPORTS
from services.elfenland.schemas import EVENT_SCHEMAS, Result, View
from shared.text.i18n import N_
from shared.game.plugin import GamePlugin
from shared.http.schemas import strict_int

_card = validate.OneOf(HAND_CARDS)
_counter = validate.OneOf(COUNTER_KINDS)


# A bid may exceed the bidder's coins (it then costs them all), so the bound is not the purse: it
# is far above anything a game reaches (12 coins at the start, a few per town visited).
MAX_BID = 999


def _road_field(description: str) -> fields.Integer:
    return strict_int(0, len(ROADS) - 1, required=True, metadata={"description": description})


def _cards_field(description: str) -> fields.List:
    return fields.List(fields.Str(validate=_card), required=True, metadata={"description": description})


class OptionsSchema(Schema):
    edition = fields.Str(
        load_default="elfenland", validate=validate.OneOf(EDITIONS),
        metadata={"description": "`elfenland` (default): 4 rounds of 6 phases, 72 cards, 48 "
                  "counters, one obstacle each. `elfengold`: 6 rounds of 7 phases with coins, "
                  "card draft, auctions, gold counters, spells and sea monsters. `elfenroads`: "
                  "Elfenroads on the Elfenland board, Elfengold's procedure with 70 cards (7 "
                  "gold), 42 counters (2 gold, 2 obstacles), no spells, caravans or boatmen.",
                  "label": N_("Edition"), "choices": {
                      "elfenland": N_("Elfenland: 4 rounds of travel cards and transport counters"),
                      "elfengold": N_("Elfengold: 6 rounds with gold, auctions, spells and sea monsters"),
                      "elfenroads": N_("Elfenroads: Elfengold's rounds on the Elfenland board, no spells")}})
    lake_rules = fields.Str(
        load_default="author", validate=validate.OneOf(["author", "german"]),
        metadata={"description": "`author` (default): Mare Nebulae costs 1 raft (or 3 cards "
                  "with the boatmen), Mare Magnum 2 rafts; 8 new cards each Elfenland round. "
                  "`german`: both lakes 2 rafts, no boatmen, hands topped up to 8.",
                  "label": N_("Lakes"), "choices": {
                      "author": N_("The author's: 1 raft across Mare Nebulae, 2 across Mare Magnum"),
                      "german": N_("The German edition's: 2 rafts across either lake, no boatmen")}})
    home_towns = fields.Bool(
        load_default=True,
        metadata={"description": "Home-town cards (default on): the score loses one point per "
                  "road between the elf and its secret home town at the end.",
                  "label": N_("Secret home towns"),
                  "hint": N_("At the end, you lose a point for each road between your elf and its home town.")})
    caravan_cards = strict_int(
        3, 5, validate.OneOf([3, 5]), load_default=3,
        metadata={"description": "Cards a caravan costs: 3 (default) or the translator's "
                  "stricter 5 (one more past an obstacle).",
                  "label": N_("A caravan costs"), "choices": {
                      3: N_("3 travel cards"), 5: N_("5 travel cards (the translator's stricter reading)")},
                  "applies_when": {"edition": ["elfenland", "elfengold"]}})
    wizards = fields.Bool(
        load_default=False,
        metadata={"description": "Elfengold only (default off): 6 wizard cards in the deck; a "
                  "wizard passes an obstacle for 1 coin or flies anywhere for 3 coins.",
                  "label": N_("Wizards"),
                  "hint": N_("6 wizard cards: a wizard passes an obstacle for 1 coin or flies anywhere for 3."),
                  "applies_when": {"edition": ["elfengold"]}})
    random_gold_values = fields.Bool(
        load_default=False,
        metadata={"description": "Elfengold/Elfenroads only (default off): the 20 town-value "
                  "discs are shuffled over the towns.",
                  "label": N_("Shuffled gold values"),
                  "hint": N_("The towns' gold values are shuffled over the board."),
                  "applies_when": {"edition": ["elfengold", "elfenroads"]}})


class NoFields(Schema):
    """draw_counter, draw_card, take_gold, pass."""


class SecretCounterMove(Schema):
    reveal = fields.Bool(required=True, metadata={"description": "Show the secret counter just "
                                                  "drawn (true) or keep it face down (false)."})


class CounterMove(Schema):
    counter = fields.Str(required=True, validate=_counter,
                         metadata={"description": "Counter kind (a face-up one to take, or a "
                                   "drawn one to reveal)."})


class TakeCardMove(Schema):
    card = fields.Str(required=True, validate=_card, metadata={"description": "A face-up card kind."})


class BidMove(Schema):
    amount = strict_int(1, MAX_BID, required=True,
                        metadata={"description": "Coins offered; above the current bid. Bidding "
                                  "more than you own costs all your coins and reopens the lot."})


class PlaceCounterMove(Schema):
    counter = fields.Str(required=True, validate=_counter,
                         metadata={"description": "Transport, obstacle, sea_monster or gold."})
    road = _road_field("Road id.")


class PlaceDoubleMove(Schema):
    road = _road_field("Road already holding a transport counter.")
    counter = fields.Str(required=True, validate=validate.OneOf(TRANSPORTS),
                         metadata={"description": "The second transport counter placed there."})


class ExchangeMove(Schema):
    road = _road_field("One road holding a single transport counter.")
    other_road = _road_field("The other road whose transport counter is swapped.")


class TravelMove(Schema):
    road = _road_field("Road leaving the elf's town.")
    cards = _cards_field("Cards played: the counter's kind (2 if slow, +1 past an obstacle), "
                         "rafts on water, any cards for a caravan or the boatmen; a wizard "
                         "(plus 1 coin) may replace the obstacle's extra card.")


class FlyMove(Schema):
    town = fields.Str(required=True, validate=validate.OneOf(TOWNS),
                      metadata={"description": "Destination of the flying carpet (wizard + 3 coins)."})


class FinishTravelMove(Schema):
    take = fields.Str(load_default=None, allow_none=True, validate=validate.OneOf(["gold", "cards"]),
                      metadata={"description": "Elfengold/Elfenroads: `gold` (the towns' value) "
                                "or `cards` (two cards); omit in Elfenland."})


class KeepCountersMove(Schema):
    counters = fields.List(fields.Str(validate=_counter), required=True,
                           metadata={"description": "Counters kept for next round: 1 (Elfenland, "
                                     "chosen when placement ends) or 2 (Elfengold, at the end of "
                                     "the round); the others go back to the pile."})


class KeepCardsMove(Schema):
    cards = _cards_field("Elfenland: the 4 cards kept for the next round, chosen right after "
                         "your own move (finish_travel) when you hold more than 4.")


PLUGIN = GamePlugin(
    renderer=render,
    game=ENGINES["5"],
    engines=dict(ENGINES),
    options_schema=OptionsSchema,
    move_schemas={
        "secret_counter": SecretCounterMove,
        "take_counter": CounterMove,
        "draw_counter": NoFields,
        "take_card": TakeCardMove,
        "draw_card": NoFields,
        "take_gold": NoFields,
        "reveal_counter": CounterMove,
        "bid": BidMove,
        "pass": NoFields,
        "place_counter": PlaceCounterMove,
        "place_double": PlaceDoubleMove,
        "exchange": ExchangeMove,
        "travel": TravelMove,
        "fly": FlyMove,
        "finish_travel": FinishTravelMove,
        "keep_counters": KeepCountersMove,
        "keep_cards": KeepCardsMove,
    },
    strategies=STRATEGIES,
    value_features=VALUE_FEATURES,
    board_svg=board_svg,
    places=PLACE_FIELDS,
    view_schema=View,
    result_schema=Result,
    event_schemas=EVENT_SCHEMAS,
    port=8003,
    description="Elfenland, Elfengold and Elfenroads on the Elfenland board: travel cards, "
                "transport counters, auctions and gold; one road per travel move.",
)
