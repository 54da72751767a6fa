"""What Elfenland (with Elfengold and Elfenroads) sends, for the OpenAPI contract: the view (``View``,
a seat's and a spectator's, hidden information redacted), each event type's ``data``
(``EVENT_SCHEMAS``, as ``redact`` serves it and as the full log holds it) and the ``Result``. The
platform prefixes every name here with the game's (``View`` is ``ElfenlandView``) and builds the
event envelopes and unions around them.

The answers are built without these schemas (they only document them); tests/shared/
test_contract_reality.py checks random games' answers against the spec they make.
"""
from __future__ import annotations

from marshmallow import Schema, fields


class OptionsInForce(Schema):
    """The options of this game, defaults filled in."""

    edition = fields.Str(required=True)
    lake_rules = fields.Str(required=True)
    home_towns = fields.Bool(required=True)
    caravan_cards = fields.Int(strict=True, required=True)
    wizards = fields.Bool(required=True)
    random_gold_values = fields.Bool(required=True)


class ViewBoardValue(Schema):
    transports = fields.List(fields.Str(), required=True)
    obstacle = fields.Str(required=True, allow_none=True)
    gold = fields.Bool(required=True)
    double = fields.Bool(required=True)


class ViewAuction(Schema):
    lots = fields.List(fields.Str(), required=True)
    high = fields.Int(strict=True, required=True)
    bidder = fields.Int(strict=True, required=True, allow_none=True)
    passed = fields.List(fields.Int(strict=True), required=True)
    turn = fields.Int(strict=True, required=True)


class Counter(Schema):
    """A transport counter; a hidden one another seat holds is masked (``kind`` null)."""

    kind = fields.Str(required=True, allow_none=True)
    hidden = fields.Bool(required=True)


class ViewSeat(Schema):
    hand = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True, allow_none=True,
                       metadata={"description": "Travel cards by kind; null for another seat's hand (hand_size shows its size)."})
    counters = fields.List(fields.Nested(Counter), required=True)
    obstacles = fields.Int(strict=True, required=True)
    town = fields.Str(required=True)
    visited = fields.List(fields.Str(), required=True)
    home = fields.Str(required=True, allow_none=True)
    coins = fields.Int(strict=True, required=True)
    pending = fields.List(fields.Str(), required=True, allow_none=True,
                          metadata={"description": "null for another seat."})
    earned = fields.Int(strict=True, required=True)
    moved = fields.Bool(required=True)
    hand_size = fields.Int(strict=True, required=True)
    pending_size = fields.Int(strict=True, required=True)


class Result(Schema):
    winners = fields.List(fields.Int(strict=True), required=True)
    scores = fields.List(fields.Int(strict=True), required=True)
    towns = fields.List(fields.Int(strict=True), required=True)
    home_towns = fields.List(fields.Str(allow_none=True), required=True)
    home_distances = fields.List(fields.Int(strict=True), required=True)
    tiebreak = fields.Str(required=True)
    tiebreak_values = fields.List(fields.Int(strict=True), required=True)
    ended_early = fields.Bool(required=True)


class View(Schema):
    edition = fields.Str(required=True)
    options = fields.Nested(OptionsInForce, required=True)
    players = fields.Int(strict=True, required=True)
    rounds = fields.Int(strict=True, required=True)
    round = fields.Int(strict=True, required=True)
    first = fields.Int(strict=True, required=True)
    phase = fields.Str(required=True)
    step = fields.Int(strict=True, required=True)
    passes = fields.Int(strict=True, required=True)
    discarding = fields.Bool(required=True)
    redraw = fields.Bool(required=True)
    gold_values = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True)
    face_up_cards = fields.List(fields.Str(), required=True)
    gold_pile = fields.Int(strict=True, required=True)
    face_up_counters = fields.List(fields.Str(), required=True)
    board = fields.Dict(keys=fields.Str(), values=fields.Nested(ViewBoardValue), required=True)
    auction = fields.Nested(ViewAuction, required=True, allow_none=True)
    seats = fields.List(fields.Nested(ViewSeat), required=True)
    result = fields.Nested(Result, required=True, allow_none=True)
    deck_size = fields.Int(strict=True, required=True)
    bag_size = fields.Int(strict=True, required=True)
    discard_size = fields.Int(strict=True, required=True)
    viewer = fields.Int(strict=True, required=True, allow_none=True)
    to_act = fields.List(fields.Int(strict=True), required=True)
    discard = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True))


class AuctionClosed(Schema):
    pass


class AuctionOpened(Schema):
    lots = fields.List(fields.Str(), required=True)


class BidPassed(Schema):
    seat = fields.Int(strict=True, required=True)


class BidPlaced(Schema):
    seat = fields.Int(strict=True, required=True)
    amount = fields.Int(strict=True, required=True)


class CardDrawn(Schema):
    seat = fields.Int(strict=True, required=True)
    card = fields.Str(required=True, allow_none=True,
                      metadata={"description": "null to the other seats for a face-down draw."})
    draft = fields.Bool(required=True)


class CardTaken(Schema):
    seat = fields.Int(strict=True, required=True)
    card = fields.Str(required=True)


class CardsDealt(Schema):
    seat = fields.Int(strict=True, required=True)
    cards = fields.List(fields.Str(allow_none=True), required=True,
                        metadata={"description": "One null per card to the other seats while the game runs."})


class CardsKept(Schema):
    seat = fields.Int(strict=True, required=True)
    kept = fields.List(fields.Str(allow_none=True), required=True,
                       metadata={"description": "One null per card to the other seats while the game runs."})
    discarded = fields.List(fields.Str(allow_none=True), required=True,
                            metadata={"description": "One null per card to the other seats while the game runs."})


class CounterPlaced(Schema):
    seat = fields.Int(strict=True, required=True)
    counter = fields.Str(required=True)
    road = fields.Int(strict=True, required=True)


class CounterRevealed(Schema):
    seat = fields.Int(strict=True, required=True)
    counter = fields.Str(required=True)


class CounterTaken(Schema):
    seat = fields.Int(strict=True, required=True)
    counter = fields.Str(required=True)
    source = fields.Str(required=True)


class CountersDrawn(Schema):
    seat = fields.Int(strict=True, required=True)
    counters = fields.List(fields.Str(allow_none=True), required=True,
                           metadata={"description": "One null per counter to the other seats while the game runs."})


class CountersRevealed(Schema):
    counters = fields.List(fields.Str(), required=True)


class DeckReshuffled(Schema):
    pass


class DoublePlaced(Schema):
    seat = fields.Int(strict=True, required=True)
    road = fields.Int(strict=True, required=True)
    counter = fields.Str(required=True)


class ExchangePlayed(Schema):
    seat = fields.Int(strict=True, required=True)
    road = fields.Int(strict=True, required=True)
    other_road = fields.Int(strict=True, required=True)


class FaceUpCardAdded(Schema):
    card = fields.Str(required=True)


class FaceUpCounterAdded(Schema):
    counter = fields.Str(required=True)


class GameEnded(Schema):
    result = fields.Nested(Result, required=True)


class GameSetUp(Schema):
    edition = fields.Str(required=True)
    options = fields.Nested(OptionsInForce, required=True)
    players = fields.Int(strict=True, required=True)
    gold_values = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True)
    deck = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True)
    bag = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True)


class GoldCardFound(Schema):
    seat = fields.Int(strict=True)


class GoldCardsAdded(Schema):
    count = fields.Int(strict=True, required=True)


class GoldTaken(Schema):
    seat = fields.Int(strict=True, required=True)
    cards = fields.Int(strict=True, required=True)
    coins = fields.Int(strict=True, required=True)


class HomeTownDealt(Schema):
    seat = fields.Int(strict=True, required=True)
    town = fields.Str(required=True, allow_none=True,
                      metadata={"description": "null to the other seats while the game runs."})


class Income(Schema):
    coins = fields.Int(strict=True, required=True)


class LotOverbid(Schema):
    seat = fields.Int(strict=True, required=True)
    amount = fields.Int(strict=True, required=True)
    paid = fields.Int(strict=True, required=True)


class LotSold(Schema):
    seat = fields.Int(strict=True, required=True)
    counter = fields.Str(required=True)
    price = fields.Int(strict=True, required=True)


class LotUnsold(Schema):
    counter = fields.Str(required=True)


class Passed(Schema):
    seat = fields.Int(strict=True, required=True)


class PhaseStarted(Schema):
    phase = fields.Str(required=True)


class RoundEnded(Schema):
    pass


class RoundStarted(Schema):
    round = fields.Int(strict=True, required=True)
    first = fields.Int(strict=True, required=True)


class SecretCounterChosen(Schema):
    seat = fields.Int(strict=True, required=True)
    reveal = fields.Bool(required=True)
    counter = fields.Str(required=True, allow_none=True)


class SecretCounterDrawn(Schema):
    seat = fields.Int(strict=True, required=True)
    counter = fields.Str(required=True, allow_none=True,
                         metadata={"description": "null to the other seats while the game runs."})


class TravelFinished(Schema):
    seat = fields.Int(strict=True, required=True)
    take = fields.Str(required=True, allow_none=True)
    coins = fields.Int(strict=True, required=True)


class Flew(Schema):
    """Elfengold's wizard: a flight by magic carpet to any town."""

    seat = fields.Int(strict=True, required=True)
    town = fields.Str(required=True)
    card = fields.Str(required=True)
    coins = fields.Int(strict=True, required=True)


class CountersKept(Schema):
    """Counters kept at the end of a round; another seat sees hidden ones masked, in public order."""

    seat = fields.Int(strict=True, required=True)
    kept = fields.List(fields.Nested(Counter), required=True)
    discarded = fields.List(fields.Nested(Counter), required=True)


class Travelled(Schema):
    seat = fields.Int(strict=True, required=True)
    road = fields.Int(strict=True, required=True)
    to = fields.Str(required=True)
    cards = fields.List(fields.Str(), required=True)
    coins = fields.Int(strict=True, required=True)
    earned = fields.Int(strict=True, required=True)


EVENT_SCHEMAS: dict[str, type[Schema]] = {
    "auction_closed": AuctionClosed,
    "auction_opened": AuctionOpened,
    "bid_passed": BidPassed,
    "bid_placed": BidPlaced,
    "card_drawn": CardDrawn,
    "card_taken": CardTaken,
    "cards_dealt": CardsDealt,
    "cards_kept": CardsKept,
    "counter_placed": CounterPlaced,
    "counter_revealed": CounterRevealed,
    "counter_taken": CounterTaken,
    "counters_drawn": CountersDrawn,
    "counters_revealed": CountersRevealed,
    "deck_reshuffled": DeckReshuffled,
    "double_placed": DoublePlaced,
    "exchange_played": ExchangePlayed,
    "face_up_card_added": FaceUpCardAdded,
    "face_up_counter_added": FaceUpCounterAdded,
    "game_ended": GameEnded,
    "game_set_up": GameSetUp,
    "gold_card_found": GoldCardFound,
    "gold_cards_added": GoldCardsAdded,
    "gold_taken": GoldTaken,
    "home_town_dealt": HomeTownDealt,
    "income": Income,
    "lot_overbid": LotOverbid,
    "lot_sold": LotSold,
    "lot_unsold": LotUnsold,
    "passed": Passed,
    "phase_started": PhaseStarted,
    "round_ended": RoundEnded,
    "round_started": RoundStarted,
    "secret_counter_chosen": SecretCounterChosen,
    "secret_counter_drawn": SecretCounterDrawn,
    "travel_finished": TravelFinished,
    "travelled": Travelled,
    "flew": Flew,
    "counters_kept": CountersKept,
}
