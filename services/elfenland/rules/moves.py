"""``decide``: checks a move against the rules and emits its events on a scratch state.

Each handler raises ``IllegalMove`` with the broken rule's reason, or records the move's events
through the ``Recorder``; ``flow.settle`` then adds whatever follows by itself.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NoReturn

from shared.game.engine import IllegalMove, Move

from services.elfenland.rules.board import ROADS, Road, canonical_town
from services.elfenland.rules.components import (
    GOLD_CARD, GOLD_CARD_COINS, GOLD_FINISH_CARDS, HAND_CARDS, WIZARD, WIZARD_FLIGHT_COINS)
from services.elfenland.rules.flow import Recorder, draw_card, draw_to_hand, refill_face_up_cards
from services.elfenland.rules.multiset import contains, draw
from services.elfenland.rules.placement import double_error, exchange_error, placement_error
from services.elfenland.rules.state import (
    held_counters, over_card_limit, over_counter_limit, road_slot, rules_of)
from services.elfenland.rules.travel import payment_coins, payments

Handler = Callable[[Recorder, int, Move, random.Random], None]

# Which moves each phase accepts.
PHASE_MOVES: dict[str, tuple[str, ...]] = {
    "secret_counter": ("secret_counter",),
    "draft_counters": ("take_counter", "draw_counter"),
    "draft_cards": ("take_card", "draw_card", "take_gold"),
    "reveal_counter": ("reveal_counter",),
    "auction": ("bid", "pass"),
    "placement": ("place_counter", "place_double", "exchange", "pass"),
    "movement": ("travel", "fly", "finish_travel", "keep_cards"),
    "keep": ("keep_counters",),
}


def _fail(reason: str, detail: str, **extra: Any) -> NoReturn:
    raise IllegalMove(reason, detail, **extra)


def _road(move: Move, field: str = "road") -> Road:
    road_id = move.get(field)
    if not isinstance(road_id, int) or isinstance(road_id, bool) or not 0 <= road_id < len(ROADS):
        _fail("unknown-road", f"There is no road {road_id!r}.")
    return ROADS[road_id]


def _check(error: str | None, detail: str) -> None:
    if error:
        _fail(error, detail)


# -- Elfenland: counters ---------------------------------------------------------------------

def secret_counter(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    counters = rec.state["seats"][seat]["counters"]
    secret = next((c["kind"] for c in reversed(counters) if c["hidden"]), None)
    reveal = bool(move.get("reveal"))
    if reveal and secret is None:
        _fail("no-secret-counter", "There is no hidden counter to reveal.")
    rec("secret_counter_chosen", seat=seat, reveal=reveal, counter=secret if reveal else None)


def take_counter(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    kind = move.get("counter")
    if kind not in rec.state["face_up_counters"]:
        _fail("counter-not-face-up", f"No face-up {kind} counter to take.")
    rec("counter_taken", seat=seat, counter=kind, source="face_up")
    # Five counters always lie face up: the taken one is replaced from the pile.
    refill = draw(rec.state["bag"], 1, rng)
    if refill:
        rec("face_up_counter_added", counter=refill[0])


def draw_counter(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    drawn = draw(rec.state["bag"], 1, rng)
    if not drawn:
        _fail("counter-pile-empty", "The counter pile is empty.")
    rec("counter_taken", seat=seat, counter=drawn[0], source="pile")


# -- Elfengold: cards, counters and auctions ---------------------------------------------------

def take_card(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    card = move.get("card")
    if rec.state["redraw"]:
        _fail("must-draw-or-take-gold", "After a gold card drawn blind: draw again or take the gold pile.")
    if card not in rec.state["face_up_cards"]:
        _fail("card-not-face-up", f"No face-up {card} card to take.")
    rec("card_taken", seat=seat, card=card)
    refill_face_up_cards(rec, rng)


def draw_card_move(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    card = draw_card(rec, rng)
    if card is None:
        _fail("deck-empty", "No card is left to draw.")
    if card == GOLD_CARD:
        # The gold card joins the gold pile; the player then draws again or takes the pile.
        rec("gold_card_found", seat=seat)
    else:
        rec("card_drawn", seat=seat, card=card, draft=True)


def take_gold(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    cards = rec.state["gold_pile"]
    if not cards:
        _fail("gold-pile-empty", "The gold pile is empty.")
    rec("gold_taken", seat=seat, cards=cards, coins=cards * GOLD_CARD_COINS)


def reveal_counter(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    kind = move.get("counter")
    if kind not in rec.state["seats"][seat]["pending"]:
        _fail("counter-not-drawn", f"You did not draw a {kind} counter.")
    rec("counter_revealed", seat=seat, counter=kind)


def bid(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    amount, auction = move.get("amount"), rec.state["auction"]
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= auction["high"]:
        _fail("bid-too-low", f"A bid must exceed {auction['high']}.", high=auction["high"])
    if rec.state["seats"][seat]["coins"] == 0:
        # Over-bidding costs all one's gold: with none it would stall the auction for free.
        _fail("no-coins", "A player without gold cannot bid.")
    rec("bid_placed", seat=seat, amount=amount)


def pass_move(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    rec("bid_passed" if rec.state["phase"] == "auction" else "passed", seat=seat)


# -- placement ---------------------------------------------------------------------------------

def place_counter(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    road, kind = _road(move), str(move.get("counter"))
    _check(placement_error(rec.state, seat, kind, road), f"A {kind} counter may not go on road {road.id}.")
    rec("counter_placed", seat=seat, counter=kind, road=road.id)


def place_double(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    road, second = _road(move), str(move.get("counter"))
    _check(double_error(rec.state, seat, road, second), f"No double transport with {second} on road {road.id}.")
    rec("double_placed", seat=seat, road=road.id, counter=second)


def exchange(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    road, other = _road(move), _road(move, "other_road")
    _check(exchange_error(rec.state, seat, road, other), f"Roads {road.id} and {other.id} cannot swap counters.")
    rec("exchange_played", seat=seat, road=road.id, other_road=other.id)


# -- movement ----------------------------------------------------------------------------------

def travel(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    s, road = rec.state, _road(move)
    seat_state = s["seats"][seat]
    cards = move.get("cards")
    if not isinstance(cards, list) or not all(c in HAND_CARDS for c in cards):
        _fail("unknown-card", "Cards must be travel card kinds.")
    if not road.touches(seat_state["town"]):
        _fail("road-not-adjacent", f"Road {road.id} does not leave {seat_state['town']}.")
    if not contains(seat_state["hand"], cards):
        _fail("cards-not-in-hand", "You do not hold these cards.")
    if road.is_land and not road_slot(s, road.id)["transports"]:
        _fail("no-transport-counter", f"Road {road.id} has no transport counter.")
    if seat_state["coins"] < payment_coins(cards):
        _fail("not-enough-coins", "A wizard passes an obstacle for one coin.")
    if tuple(sorted(cards)) not in payments(s, seat, road):
        _fail("wrong-cards", f"These cards do not pay for road {road.id}.",
              options=[list(p) for p in payments(s, seat, road)])
    destination = road.other_end(seat_state["town"])
    earned = 0
    if rules_of(s).gold_economy:
        # A gold counter doubles the value of the town reached by its road, at each passage.
        earned = s["gold_values"].get(destination, 0) * (2 if road_slot(s, road.id)["gold"] else 1)
    rec("travelled", seat=seat, road=road.id, to=destination, cards=sorted(cards),
        coins=payment_coins(cards), earned=earned)


def fly(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    seat_state = rec.state["seats"][seat]
    town = canonical_town(str(move.get("town")))
    if town is None:
        _fail("unknown-town", f"There is no town {move.get('town')!r}.")
    if seat_state["hand"].get(WIZARD, 0) == 0:
        _fail("no-wizard-card", "Flying takes a wizard card.")
    if town == seat_state["town"]:
        _fail("already-there", f"Your elf is already in {town}.")
    if seat_state["coins"] < WIZARD_FLIGHT_COINS:
        _fail("not-enough-coins", "The flying carpet costs three coins.")
    # No gold for a town reached by flying carpet, but its marker is collected.
    rec("flew", seat=seat, town=town, card=WIZARD, coins=WIZARD_FLIGHT_COINS)


def finish_travel(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    seat_state = rec.state["seats"][seat]
    take = move.get("take")
    if not rules_of(rec.state).gold_economy:
        if take is not None:
            _fail("no-gold-economy", "Elfenland pays no gold: finish without 'take'.")
        rec("travel_finished", seat=seat, take=None, coins=0)
        return
    if take not in ("gold", "cards"):
        _fail("take-required", "Choose 'gold' (the towns' value) or 'cards' (two cards).")
    if take == "gold" and not seat_state["moved"]:
        _fail("did-not-move", "An elf that did not move draws two cards.")
    rec("travel_finished", seat=seat, take=take, coins=seat_state["earned"] if take == "gold" else 0)
    if take == "cards":
        draw_to_hand(rec, seat, GOLD_FINISH_CARDS, rng)


# -- end of round ------------------------------------------------------------------------------

def _check_keep(over_limit: bool, chosen: Any, limit: int, held: dict[str, int], not_held: str) -> None:
    if not over_limit:
        _fail("nothing-to-keep", "You hold no more than you may keep.")
    if not isinstance(chosen, list) or len(chosen) != limit:
        _fail("wrong-count", f"Keep exactly {limit}.")
    if not all(isinstance(kind, str) for kind in chosen):
        _fail(not_held, "Name the kinds kept.")
    if not contains(held, chosen):
        _fail(not_held, "You do not hold these.")


def keep_counters(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    s = rec.state
    kinds: Any = move.get("counters")          # as sent: _check_keep checks it
    _check_keep(over_counter_limit(s, seat), kinds, rules_of(s).counters_kept,
                held_counters(s["seats"][seat]), "counter-not-held")
    # Keep hidden counters first: a secret kept stays a secret.
    remaining = sorted(s["seats"][seat]["counters"], key=lambda c: not c["hidden"])
    kept = []
    for kind in kinds:
        chosen = next(c for c in remaining if c["kind"] == kind)
        remaining.remove(chosen)
        kept.append(chosen)
    rec("counters_kept", seat=seat, kept=kept, discarded=remaining)


def keep_cards(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    s = rec.state
    cards: Any = move.get("cards")             # as sent: _check_keep checks it
    hand = s["seats"][seat]["hand"]
    _check_keep(over_card_limit(s, seat), cards, rules_of(s).cards_kept or 0, hand, "cards-not-in-hand")
    discarded = dict(hand)
    for card in cards:
        discarded[card] -= 1
    rec("cards_kept", seat=seat, kept=sorted(cards),
        discarded=sorted(k for k, n in discarded.items() for _ in range(n)))


HANDLERS: dict[str, Handler] = {
    "secret_counter": secret_counter, "take_counter": take_counter, "draw_counter": draw_counter,
    "take_card": take_card, "draw_card": draw_card_move, "take_gold": take_gold,
    "reveal_counter": reveal_counter, "bid": bid, "pass": pass_move,
    "place_counter": place_counter, "place_double": place_double, "exchange": exchange,
    "travel": travel, "fly": fly, "finish_travel": finish_travel,
    "keep_counters": keep_counters, "keep_cards": keep_cards,
}


def apply_move(rec: Recorder, seat: int, move: Move, rng: random.Random) -> None:
    move_type = move.get("type")
    if not isinstance(move_type, str) or move_type not in HANDLERS:
        _fail("unknown-move", f"Unknown move type {move_type!r}.")
    phase = rec.state["phase"]
    if move_type not in PHASE_MOVES.get(phase, ()):
        _fail("wrong-phase", f"{move_type!r} is not a move of phase {phase!r}.", phase=phase)
    if phase == "movement":
        # Elfenland: after his move a player over 4 cards discards before anything else happens.
        discarding = rec.state["discarding"]
        if discarding and move_type != "keep_cards":
            _fail("must-keep-cards", "Choose the 4 cards you keep before the next player moves.")
        if move_type == "keep_cards" and not discarding:
            _fail("wrong-phase", "Cards are cut to 4 only after your move (finish_travel).", phase=phase)
    HANDLERS[move_type](rec, seat, move, rng)

