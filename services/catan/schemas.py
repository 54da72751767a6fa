"""What The Settlers of Catan sends, for the OpenAPI contract: the view (``View``, a seat's and a
spectator's: another seat's hand is only its counts), each event type's ``data`` (``EVENT_SCHEMAS``,
as ``redact`` serves it and as the full log holds it) and the ``Result``.  The platform prefixes
every name here with the game's (``View`` is ``CatanView``) and builds the event envelopes and
unions around them.

The answers are built without these schemas (they only document them); tests/shared/
test_contract_reality.py checks random games' answers against the spec they make.
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from services.catan.rules.board import RESOURCES
from services.catan.rules.state import (DEV_CARDS, DISCARD, MAIN, OVER, ROAD_BUILDING, ROBBER, ROLL, SETUP,
                                        TRADE)

_resource = validate.OneOf(RESOURCES)


def _int(**kwargs: Any) -> fields.Integer:
    return fields.Int(strict=True, required=True, **kwargs)


def _seat(description: str = "The seat that acted.", **kwargs: Any) -> fields.Integer:
    return fields.Int(strict=True, required=True, metadata={"description": description}, **kwargs)


def _counts(description: str, keys: validate.Validator = _resource, **kwargs: Any) -> fields.Dict:
    """Cards by name; a name with none is left out."""
    return fields.Dict(keys=fields.Str(validate=keys), values=fields.Int(strict=True), required=True,
                       metadata={"description": description}, **kwargs)


class ByResource(Schema):
    brick = fields.Int(strict=True, required=True)
    lumber = fields.Int(strict=True, required=True)
    wool = fields.Int(strict=True, required=True)
    grain = fields.Int(strict=True, required=True)
    ore = fields.Int(strict=True, required=True)


def _by_resource(description: str) -> fields.Nested:
    return fields.Nested(ByResource, required=True, metadata={"description": description})


class OptionsInForce(Schema):
    board = fields.Str(required=True)
    bank_shortage = fields.Str(required=True)
    combined_trade_build = fields.Bool(metadata={"description": "Trading and building may mix (absent in "
                                                                "games of engine 2: false)."})


class Harbour(Schema):
    kind = fields.Str(required=True, validate=validate.OneOf(["3:1", *RESOURCES]),
                      metadata={"description": "`3:1`, or the resource traded 2:1."})
    nodes = fields.List(fields.Int(strict=True), required=True)


class Board(Schema):
    terrains = fields.List(fields.Str(), required=True, metadata={"description": "By hex, 0..18."})
    numbers = fields.List(fields.Int(strict=True, allow_none=True), required=True,
                          metadata={"description": "Number token by hex (null: the desert)."})
    harbours = fields.List(fields.Nested(Harbour), required=True)
    robber = _int(metadata={"description": "The hex the robber is on."})
    hex_nodes = fields.List(fields.List(fields.Int(strict=True)), required=True,
                            metadata={"description": "The six corner nodes of each hex."})
    edge_nodes = fields.List(fields.List(fields.Int(strict=True)), required=True,
                             metadata={"description": "The two nodes of each edge."})


class Pieces(Schema):
    roads = _int()
    settlements = _int()
    cities = _int()


class Counter(Schema):
    give = _counts("Cards the countering seat gives.")
    get = _counts("Cards it asks for.")


class Offer(Schema):
    seat = _seat("The offering seat.")
    give = _counts("Cards offered.")
    get = _counts("Cards asked for.")
    answers = fields.List(fields.Bool(allow_none=True), required=True,
                          metadata={"description": "By seat: accepted, refused, or null (not yet)."})
    counters = fields.List(fields.Nested(Counter, allow_none=True), required=True,
                           metadata={"description": "By seat: its counter-offer (from its own side), or null."})


class SeatView(Schema):
    """One seat as the viewer sees it: hands are null but for the viewer's own (and once over)."""

    seat = _int()
    resource_count = _int()
    resources = _counts("The hand (null: hidden from this viewer).", allow_none=True)
    dev_card_count = _int()
    dev_cards = _counts("Development cards in hand (null: hidden).", validate.OneOf(DEV_CARDS), allow_none=True)
    dev_cards_new = _counts("Bought this turn, not playable yet (null: hidden).", validate.OneOf(DEV_CARDS),
                            allow_none=True)
    knights_played = _int()
    road_length = _int()
    public_points = _int()
    points = _int(allow_none=True, metadata={"description": "With hidden victory point cards (null: hidden)."})
    pieces_left = fields.Nested(Pieces, required=True)
    pieces_placed = fields.Nested(Pieces, required=True)
    trade_rates = _by_resource("Cards given per card in a bank trade.")
    must_discard = _int()


class View(Schema):
    players = _int()
    options = fields.Nested(OptionsInForce, required=True)
    you = _int(allow_none=True, metadata={"description": "The viewer's seat, null for a spectator."})
    board = fields.Nested(Board, required=True)
    node_owner = fields.List(fields.Int(strict=True), required=True, metadata={"description": "-1: nobody."})
    node_level = fields.List(fields.Int(strict=True), required=True,
                             metadata={"description": "0 empty, 1 settlement, 2 city."})
    edge_owner = fields.List(fields.Int(strict=True), required=True, metadata={"description": "-1: nobody."})
    phase = fields.Str(required=True, validate=validate.OneOf(
        [SETUP, ROLL, DISCARD, ROBBER, MAIN, ROAD_BUILDING, TRADE, OVER]))
    to_act = fields.List(fields.Int(strict=True), required=True)
    current = _int()
    turn = _int()
    first_player = _int()
    setup_node = _int()
    dice = fields.List(fields.Int(strict=True), required=True, allow_none=True)
    rolled = fields.Bool(required=True)
    dev_card_played = fields.Bool(required=True)
    free_roads = _int()
    bank = _by_resource("Resource cards left in the bank.")
    dev_deck_size = _int()
    longest_road = _int(allow_none=True)
    largest_army = _int(allow_none=True)
    offer = fields.Nested(Offer, required=True, allow_none=True)
    offers_this_turn = _int()
    trading_open = fields.Bool(required=True, metadata={"description": "The player on turn may trade now: "
                                                        "after the roll (main phase, or an offer open) until they "
                                                        "build or buy; false before the roll and while a 7 or a "
                                                        "card is being resolved."})
    winner = _int(allow_none=True)
    seats = fields.List(fields.Nested(SeatView), required=True)


# -- events ----------------------------------------------------------------------------------------

class SeatOnly(Schema):
    seat = _seat()


class BankTraded(Schema):
    seat = _seat()
    give = fields.Str(required=True, validate=_resource)
    count = _int()
    get = fields.Str(required=True, validate=_resource)


class CardStolen(Schema):
    seat = _seat()
    victim = _int()
    resource = fields.Str(required=True, allow_none=True, validate=_resource,
                          metadata={"description": "null but for the thief and the victim."})


class CardsDiscarded(Schema):
    seat = _seat()
    resources = _counts("The cards discarded.")


class NodeBuilt(Schema):
    seat = _seat()
    node = _int()


class SettlementBuilt(NodeBuilt):
    free = fields.Bool(required=True)


class DevCardBought(Schema):
    seat = _seat()
    card = fields.Str(required=True, allow_none=True, validate=validate.OneOf(DEV_CARDS),
                      metadata={"description": "null but for the buyer."})


class DiceRolled(Schema):
    seat = _seat()
    dice = fields.List(fields.Int(strict=True), required=True)


class GameStarted(Schema):
    players = _int()
    options = fields.Nested(OptionsInForce, required=True)
    terrains = fields.List(fields.Str(), required=True)
    numbers = fields.List(fields.Int(strict=True, allow_none=True), required=True)
    harbours = fields.List(fields.Nested(Harbour), required=True)
    robber = _int()
    start_rolls = fields.List(fields.List(fields.Int(strict=True)), required=True,
                              metadata={"description": "The rolls for the first player, round by round."})
    first_player = _int()
    spiral_corner = fields.Int(strict=True, metadata={"description": "Variable board: where the spiral began."})
    attempts = fields.Int(strict=True, metadata={"description": "Variable board: layouts drawn."})


class MonopolyPlayed(Schema):
    seat = _seat()
    resource = fields.Str(required=True, validate=_resource)
    taken = fields.List(fields.Int(strict=True), required=True, metadata={"description": "Cards taken, by seat."})


class ResourcesProduced(Schema):
    gains = fields.List(_counts("Cards gained."), required=True, metadata={"description": "By seat."})
    shortages = fields.List(fields.Str(validate=_resource), required=True,
                            metadata={"description": "Resources the bank could not pay."})


class RoadBuildingPlayed(Schema):
    seat = _seat()
    roads = _int()


class RoadBuilt(Schema):
    seat = _seat()
    edge = _int()
    free = fields.Bool(required=True)


class RobberMoved(Schema):
    seat = _seat()
    hex = _int()
    victim = _int(allow_none=True)


class StartingResources(Schema):
    seat = _seat()
    resources = _counts("Cards from the second settlement's hexes.")


class YearOfPlentyPlayed(Schema):
    seat = _seat()
    resources = fields.List(fields.Str(validate=_resource), required=True)


class TradeOffered(Schema):
    seat = _seat()
    give = _counts("Cards offered.")
    get = _counts("Cards asked for.")


class TradeAnswered(Schema):
    seat = _seat()
    accept = fields.Bool(required=True)


class TradeCountered(Schema):
    seat = _seat("The countering seat.")
    give = _counts("Cards it gives.")
    get = _counts("Cards it asks for.")


class TradeConfirmed(Schema):
    seat = _seat()
    partner = _int()


class Result(Schema):
    winners = fields.List(fields.Int(strict=True), required=True)
    scores = fields.List(fields.Int(strict=True), required=True, metadata={"description": "Points by seat."})
    turns = _int()


EVENT_SCHEMAS: dict[str, type[Schema]] = {
    "game_started": GameStarted,
    "starting_resources": StartingResources,
    "dice_rolled": DiceRolled,
    "resources_produced": ResourcesProduced,
    "cards_discarded": CardsDiscarded,
    "robber_moved": RobberMoved,
    "card_stolen": CardStolen,
    "settlement_built": SettlementBuilt,
    "city_built": NodeBuilt,
    "road_built": RoadBuilt,
    "bank_traded": BankTraded,
    "dev_card_bought": DevCardBought,
    "knight_played": SeatOnly,
    "road_building_played": RoadBuildingPlayed,
    "road_building_ended": SeatOnly,
    "year_of_plenty_played": YearOfPlentyPlayed,
    "monopoly_played": MonopolyPlayed,
    "trade_offered": TradeOffered,
    "trade_answered": TradeAnswered,
    "trade_countered": TradeCountered,
    "trade_confirmed": TradeConfirmed,
    "trade_cancelled": SeatOnly,
    "turn_ended": SeatOnly,
}
