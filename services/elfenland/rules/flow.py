"""The automatic part of a round: dealing, drawing, phase changes and the end of a round.

After a move's own events, ``settle`` keeps asking ``next_events`` what follows by itself until
a player must act again.  Everything happens on a scratch copy of the state through a
``Recorder``, which folds each event as it is emitted, so a draw always sees the deck as the
previous event left it.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from shared.game.engine import Event, event

from services.elfenland.rules.components import (
    CARD_PICKS, COUNTER_PICKS, ELFENLAND_HAND, FACE_UP_CARDS, FACE_UP_COUNTERS, GOLD_CARD, INCOME)
from services.elfenland.rules.events import fold
from services.elfenland.rules.multiset import draw, size
from services.elfenland.rules.scoring import Ending, final_result, game_ends_now
from services.elfenland.rules.state import State, rules_of, seats_to_keep


class Recorder:
    """Emits events and folds them at once into its (scratch) state."""

    def __init__(self, state: State | None, ending: Ending) -> None:
        # None only before setup's first event, which evolve starts a state from.
        self.state: State = cast(State, state)
        self.events: list[Event] = []
        self.ending = ending        # the engine version's end of the game

    def __call__(self, type_: str, **data: Any) -> None:
        e = event(type_, **data)
        self.state = fold(self.state, e, self.ending)
        self.events.append(e)


def in_turn_order(state: State) -> list[int]:
    n = state["players"]
    return [(state["first"] + i) % n for i in range(n)]


def draw_card(rec: Recorder, rng: random.Random) -> str | None:
    """One card off the deck, the discard pile reshuffled into it when it runs out."""
    s = rec.state
    if size(s["deck"]) == 0:
        if size(s["discard"]) == 0:
            return None
        rec("deck_reshuffled")
    return draw(rec.state["deck"], 1, rng)[0]


def _draw_past_gold(rec: Recorder, rng: random.Random) -> str | None:
    """A card for a hand or the face-up row: gold cards turned up go to the gold pile instead."""
    card = draw_card(rec, rng)
    while card == GOLD_CARD:
        rec("gold_card_found")
        card = draw_card(rec, rng)
    return card


def draw_to_hand(rec: Recorder, seat: int, count: int, rng: random.Random) -> None:
    """Cards drawn face down (Elfengold's two cards instead of gold)."""
    for _ in range(count):
        card = _draw_past_gold(rec, rng)
        if card is None:
            return
        rec("card_drawn", seat=seat, card=card, draft=False)


def refill_face_up_cards(rec: Recorder, rng: random.Random) -> None:
    while len(rec.state["face_up_cards"]) < FACE_UP_CARDS:
        card = _draw_past_gold(rec, rng)
        if card is None:
            return
        rec("face_up_card_added", card=card)


def _deal_elfenland(rec: Recorder, rng: random.Random) -> None:
    s = rec.state
    for seat in in_turn_order(s):
        hand = size(s["seats"][seat]["hand"])
        # Author's rules: 8 new cards each round; German rules: the hand is topped up to 8.
        count = ELFENLAND_HAND if s["options"]["lake_rules"] == "author" else max(0, ELFENLAND_HAND - hand)
        rec("cards_dealt", seat=seat, cards=sorted(draw(rec.state["deck"], count, rng)))
    for seat in in_turn_order(s):
        counter = draw(rec.state["bag"], 1, rng)
        if counter:
            rec("secret_counter_drawn", seat=seat, counter=counter[0])
    rec("phase_started", phase="secret_counter")


def _start_gold_round(rec: Recorder, rng: random.Random) -> None:
    s = rec.state
    if s["round"] == 1:
        # 5 cards each and 3 face up from the travel cards; only then the gold cards join the deck.
        for seat in in_turn_order(s):
            rec("cards_dealt", seat=seat, cards=sorted(draw(rec.state["deck"], rules_of(s).start_cards, rng)))
        refill_face_up_cards(rec, rng)
        rec("gold_cards_added", count=rules_of(s).gold_cards)
        _draw_two_counters(rec, rng)
    else:
        rec("phase_started", phase="draft_cards")


def _draw_two_counters(rec: Recorder, rng: random.Random) -> None:
    for seat in in_turn_order(rec.state):
        rec("counters_drawn", seat=seat, counters=sorted(draw(rec.state["bag"], 2, rng)))
    rec("phase_started", phase="reveal_counter")


def _cards_to_draft(s: State) -> bool:
    """Hoarded hands can empty deck and discard: the draft then ends early."""
    return bool(s["face_up_cards"] or s["gold_pile"] or size(s["deck"]) or size(s["discard"]))


def _end_round(rec: Recorder) -> None:
    rec("round_ended")
    s = rec.state
    if game_ends_now(s):
        rec("game_ended", result=final_result(s, rec.ending))
    else:
        rec("round_started", round=s["round"] + 1, first=(s["first"] + 1) % s["players"])


def _lot_outcome(rec: Recorder) -> bool:
    """Closes the current lot once nobody else may bid; True if it did."""
    s = rec.state
    auction = s["auction"]
    bidder, n = auction["bidder"], s["players"]
    still_bidding = [p for p in range(n) if p not in auction["passed"] and p != bidder]
    if still_bidding:
        return False
    lot = auction["lots"][0]
    if bidder is None:
        rec("lot_unsold", counter=lot)
    elif auction["high"] > s["seats"][bidder]["coins"]:
        rec("lot_overbid", seat=bidder, amount=auction["high"], paid=s["seats"][bidder]["coins"])
    else:
        rec("lot_sold", seat=bidder, counter=lot, price=auction["high"])
    return True


def next_events(rec: Recorder, rng: random.Random) -> bool:
    """Emit what happens next by itself, if anything; True if something was emitted."""
    follow = _NEXT.get(rec.state["phase"])
    return follow is not None and follow(rec, rng)


# What follows by itself in each phase once its condition holds: each emits and answers True,
# or answers False (the phase waits for the players).

def _after_setup(rec: Recorder, rng: random.Random) -> bool:
    rec("round_started", round=1, first=0)
    return True


def _at_round_start(rec: Recorder, rng: random.Random) -> bool:
    (_start_gold_round if rules_of(rec.state).gold_economy else _deal_elfenland)(rec, rng)
    return True


def _after_secret_counters(rec: Recorder, rng: random.Random) -> bool:
    s = rec.state
    if s["step"] != s["players"]:
        return False
    rec("counters_revealed", counters=sorted(draw(s["bag"], FACE_UP_COUNTERS, rng)))
    rec("phase_started", phase="draft_counters")
    return True


def _after_counter_draft(rec: Recorder, rng: random.Random) -> bool:
    s = rec.state
    if s["step"] != s["players"] * COUNTER_PICKS:
        return False
    rec("phase_started", phase="placement")
    return True


def _after_card_draft(rec: Recorder, rng: random.Random) -> bool:
    s = rec.state
    if not (s["step"] == s["players"] * CARD_PICKS or not _cards_to_draft(s)):
        return False
    rec("income", coins=INCOME)
    _draw_two_counters(rec, rng)
    return True


def _after_counters_revealed(rec: Recorder, rng: random.Random) -> bool:
    s = rec.state
    n = s["players"]
    if s["step"] != n:
        return False
    rec("auction_opened", lots=draw(s["bag"], 2 * n, rng))   # auctioned in drawn order
    rec("phase_started", phase="auction")
    return True


def _in_auction(rec: Recorder, rng: random.Random) -> bool:
    if rec.state["auction"]["lots"]:
        return _lot_outcome(rec)
    rec("auction_closed")
    rec("phase_started", phase="placement")
    return True


def _after_placement(rec: Recorder, rng: random.Random) -> bool:
    s = rec.state
    if s["passes"] != s["players"]:
        return False
    # Elfenland: the 1-counter limit applies when placement ends (none in the last round,
    # where a kept counter has no use); Elfengold keeps 2 at the end of the round.
    if not rules_of(s).gold_economy and s["round"] < s["rounds"] and seats_to_keep(s):
        rec("phase_started", phase="keep")
    else:
        rec("phase_started", phase="movement")
    return True


def _after_movement(rec: Recorder, rng: random.Random) -> bool:
    s = rec.state
    if s["step"] != s["players"]:
        return False
    # No counter choice when the game ends with this round: it could not change anything.
    if rules_of(s).gold_economy and seats_to_keep(s) and not game_ends_now(s):
        rec("phase_started", phase="keep")
    else:
        _end_round(rec)
    return True


def _after_keeping(rec: Recorder, rng: random.Random) -> bool:
    s = rec.state
    if seats_to_keep(s):
        return False
    if rules_of(s).gold_economy:
        _end_round(rec)
    else:
        rec("phase_started", phase="movement")
    return True


_NEXT: dict[str, Callable[[Recorder, random.Random], bool]] = {
    "setup": _after_setup,
    "round_start": _at_round_start,
    "secret_counter": _after_secret_counters,
    "draft_counters": _after_counter_draft,
    "draft_cards": _after_card_draft,
    "reveal_counter": _after_counters_revealed,
    "auction": _in_auction,
    "placement": _after_placement,
    "movement": _after_movement,
    "keep": _after_keeping,
}


def settle(rec: Recorder, rng: random.Random) -> list[Event]:
    while next_events(rec, rng):
        pass
    return rec.events
