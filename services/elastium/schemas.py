"""What Elastium (Kauchuk) sends, for the OpenAPI contract: the view (``View``, a seat's and a
spectator's, hidden information redacted), each event type's ``data`` (``EVENT_SCHEMAS``, as
``redact`` serves it and as the full log holds it) and the ``Result``. The platform prefixes every
name here with the game's (``View`` is ``ElastiumView``) and builds the event envelopes and unions
around them.

The answers are built without these schemas (they only document them); tests/shared/
test_contract_reality.py checks random games' answers against the spec they make.
"""
from __future__ import annotations

from marshmallow import Schema, fields


class ViewBand(Schema):
    seat = fields.Int(strict=True, required=True)
    key = fields.Str(required=True)


class ScoreBreakdown(Schema):
    """One seat's final score, part by part (the parts its scenario counts)."""

    seat = fields.Int(strict=True, required=True)
    score = fields.Int(strict=True, required=True)
    energy_points = fields.Int(strict=True, required=True)
    total = fields.Int(strict=True, required=True)
    escaped = fields.Bool()
    territories = fields.Int(strict=True)
    territory_points = fields.Int(strict=True)
    idol_points = fields.Int(strict=True)
    artefact_sets = fields.Int(strict=True)
    artefact_points = fields.Int(strict=True)


class Result(Schema):
    winners = fields.List(fields.Int(strict=True), required=True)
    scores = fields.List(fields.Int(strict=True), required=True)
    breakdown = fields.List(fields.Nested(ScoreBreakdown), required=True)
    bands_used = fields.List(fields.Int(strict=True), required=True)


class ViewHand(Schema):
    gris = fields.Int(strict=True, required=True)
    bleu = fields.Int(strict=True, required=True)
    vert = fields.Int(strict=True, required=True)
    rouge = fields.Int(strict=True, required=True)
    jaune = fields.Int(strict=True, required=True)


class View(Schema):
    scenario = fields.Str(required=True)
    players = fields.Int(strict=True, required=True)
    max_rounds = fields.Int(strict=True, required=True)
    round = fields.Int(strict=True, required=True)
    turn_seat = fields.Int(strict=True, required=True)
    actions_left = fields.Int(strict=True, required=True)
    extra_used = fields.Bool(required=True)
    pending_bonus_cards = fields.Int(strict=True, required=True)
    market = fields.List(fields.Str(), required=True)
    discard = fields.List(fields.Str(), required=True)
    own_discards = fields.List(fields.List(fields.Str()), required=True)
    score = fields.List(fields.Int(strict=True), required=True)
    energy = fields.List(fields.Int(strict=True), required=True)
    energy_supply = fields.Int(strict=True, required=True)
    bands = fields.List(fields.Nested(ViewBand), required=True)
    bands_used = fields.List(fields.Int(strict=True), required=True)
    peg_owners = fields.Dict(keys=fields.Str(), values=fields.List(fields.Int(strict=True)), required=True)
    explored = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True)
    enclosed = fields.List(fields.List(fields.Str()), required=True)
    collected = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True)
    penalised = fields.List(fields.List(fields.Str()), required=True)
    images_completed = fields.List(fields.Str(), required=True)
    edge_reached = fields.List(fields.Int(strict=True), required=True,
                               metadata={"description": "Jungle: seats in order of arrival."})
    artefacts = fields.List(fields.Dict(keys=fields.Str(), values=fields.Int(strict=True)), required=True)
    chains = fields.List(fields.List(fields.Str()), required=True)
    chain_heads = fields.List(fields.List(fields.Str()), required=True)
    end_triggered = fields.Str(required=True, allow_none=True)
    result = fields.Nested(Result, required=True, allow_none=True)
    phase = fields.Str(required=True)
    deck_count = fields.Int(strict=True, required=True)
    own_deck_counts = fields.List(fields.Int(strict=True), required=True)
    hand_counts = fields.List(fields.Int(strict=True), required=True)
    seat = fields.Int(strict=True)
    hand = fields.Nested(ViewHand, metadata={"description": "Your hand (a seat's view)."})
    hands = fields.List(fields.Nested(ViewHand), metadata={"description": "Every hand, once the game is over."})


class ActionBought(Schema):
    seat = fields.Int(strict=True, required=True)


class ActionStarted(Schema):
    seat = fields.Int(strict=True, required=True)
    action = fields.Str(required=True)


class EventBandPlacedPaymentItem(Schema):
    peg = fields.Str(required=True)
    cards = fields.List(fields.Str(), required=True)
    to = fields.Int(strict=True, required=True, allow_none=True)
    second_to = fields.Int(strict=True, required=True, allow_none=True)
    energy = fields.Bool(required=True)


class BandPlaced(Schema):
    seat = fields.Int(strict=True, required=True)
    key = fields.Str(required=True)
    kind = fields.Str(required=True)
    pegs = fields.List(fields.Str(), required=True)
    payment = fields.List(fields.Nested(EventBandPlacedPaymentItem), required=True)
    explored = fields.List(fields.Str(), required=True)
    enclosed = fields.List(fields.Str(), required=True)
    chain = fields.List(fields.Str())
    chain_heads = fields.List(fields.Str())


class CardDrawn(Schema):
    seat = fields.Int(strict=True, required=True)
    card = fields.Str(required=True, allow_none=True,
                      metadata={"description": "null to the other seats while the game runs."})
    bonus = fields.Bool()


class CardsDealt(Schema):
    seat = fields.Int(strict=True, required=True)
    cards = fields.List(fields.Str(allow_none=True), required=True,
                        metadata={"description": "One null per card to the other seats while the game runs."})


class DeckShuffled(Schema):
    count = fields.Int(strict=True, metadata={"description": "While the game runs: how many cards were shuffled."})
    deck = fields.List(fields.Str(),
                       metadata={"description": "The new order: in the full log only (once the game is over)."})


class DiscardsReshuffled(Schema):
    seat = fields.Int(strict=True, required=True, allow_none=True)
    count = fields.Int(strict=True, metadata={"description": "While the game runs: how many cards were shuffled."})
    deck = fields.List(fields.Str(),
                       metadata={"description": "The new order: in the full log only (once the game is over)."})


class EndTriggered(Schema):
    reason = fields.Str(required=True)
    seat = fields.Int(strict=True, required=True)


class GameStarted(Schema):
    scenario = fields.Str(required=True)
    players = fields.Int(strict=True, required=True)
    max_rounds = fields.Int(strict=True, required=True)
    sides = fields.List(fields.Str(), required=True)


class ImageCompleted(Schema):
    image = fields.Str(required=True)
    seat = fields.Int(strict=True, required=True)


class ItemsCollected(Schema):
    seat = fields.Int(strict=True, required=True)
    items = fields.List(fields.Str(), required=True)
    treasure = fields.Int(strict=True, required=True)
    energy = fields.Int(strict=True, required=True)
    artefacts = fields.List(fields.Str(), required=True)
    bonus_cards = fields.Int(strict=True, required=True)


class MarketCardRevealed(Schema):
    card = fields.Str(required=True)


class MarketCardTaken(Schema):
    seat = fields.Int(strict=True, required=True)
    card = fields.Str(required=True)
    bonus = fields.Bool()


class PointsScored(Schema):
    seat = fields.Int(strict=True, required=True)
    points = fields.Int(strict=True, required=True)
    reason = fields.Str(required=True)
    segments = fields.List(fields.Str())
    image = fields.Str()


class PrivateDecksDealt(Schema):
    counts = fields.List(fields.Int(strict=True),
                         metadata={"description": "While the game runs: each seat's deck size."})
    decks = fields.List(fields.List(fields.Str()),
                        metadata={"description": "Each seat's deck in order: in the full log only."})


class RoundEnded(Schema):
    round = fields.Int(strict=True, required=True)


class TurnEnded(Schema):
    seat = fields.Int(strict=True, required=True)
    next_seat = fields.Int(strict=True, required=True)


EVENT_SCHEMAS: dict[str, type[Schema]] = {
    "action_bought": ActionBought,
    "action_started": ActionStarted,
    "band_placed": BandPlaced,
    "card_drawn": CardDrawn,
    "cards_dealt": CardsDealt,
    "deck_shuffled": DeckShuffled,
    "discards_reshuffled": DiscardsReshuffled,
    "end_triggered": EndTriggered,
    "game_ended": Result,
    "game_started": GameStarted,
    "image_completed": ImageCompleted,
    "items_collected": ItemsCollected,
    "market_card_revealed": MarketCardRevealed,
    "market_card_taken": MarketCardTaken,
    "points_scored": PointsScored,
    "private_decks_dealt": PrivateDecksDealt,
    "round_ended": RoundEnded,
    "turn_ended": TurnEnded,
}
