"""Building specific positions: a real set-up, then crafted events folded on top of it."""
from __future__ import annotations

import random
from typing import Any

from shared.game.engine import IllegalMove, event

from services.elfenland.rules import ElfenlandGame
from services.elfenland.rules.board import ROADS, Road

GAME = ElfenlandGame()


def new_game(players: int = 3, seed: int = 1, **options: Any) -> dict:
    return GAME.replay(GAME.setup(players, {**GAME.default_options(), **options}, random.Random(seed)))


def fold(state: dict, type_: str, **data: Any) -> dict:
    return GAME.evolve(state, event(type_, **data))


def set_hand(state: dict, seat: int, cards: list[str]) -> dict:
    """Replace a seat's hand: its cards go to the discard pile, the new ones come off the deck."""
    hand = state["seats"][seat]["hand"]
    old = sorted(k for k, n in hand.items() for _ in range(n))
    fold(state, "cards_kept", seat=seat, kept=[], discarded=old)
    # The deck may lack a kind (dealt out): put the discard back first.
    fold(state, "deck_reshuffled")
    return fold(state, "cards_dealt", seat=seat, cards=cards)


def clear_counters(state: dict, seat: int) -> dict:
    return fold(state, "counters_kept", seat=seat, kept=[], discarded=state["seats"][seat]["counters"])


def give_counter(state: dict, seat: int, kind: str) -> dict:
    if state["bag"].get(kind, 0) == 0:
        state["bag"][kind] = 1      # the test needs one more than the box holds at this point
    step = state["step"]
    fold(state, "counter_taken", seat=seat, counter=kind, source="pile")
    state["step"] = step            # a gift, not a draft pick: the turn does not move on
    return state


def place(state: dict, seat: int, kind: str, road: int) -> dict:
    """Put a counter on a road as if ``seat`` had placed it (step bookkeeping restored)."""
    if kind != "obstacle" or state["seats"][seat]["obstacles"] == 0:
        give_counter(state, seat, kind)
    step, passes = state["step"], state["passes"]
    fold(state, "counter_placed", seat=seat, counter=kind, road=road)
    state["step"], state["passes"] = step, passes
    return state


def in_round(state: dict, number: int, first: int = 0) -> dict:
    """Round ``number`` begun (its ``round_started`` as the engine records it), before any phase."""
    return fold(state, "round_started", round=number, first=first)


def start_phase(state: dict, phase: str, first: int | None = None) -> dict:
    if first is not None:
        state["first"] = first
    return fold(state, "phase_started", phase=phase)


def move_elf(state: dict, seat: int, town: str) -> dict:
    state["seats"][seat]["town"] = town
    return state


def road_between(a: str, b: str, terrain: str | None = None) -> Road:
    return next(r for r in ROADS if {r.a, r.b} == {a, b} and (terrain is None or r.terrain == terrain))


def lay_pig_path(state: dict) -> tuple[Road, Road]:
    """Giant pigs on Elvenhold-Lapphalya (plain) and Lapphalya-Rivinia (forest)."""
    plain = road_between("Elvenhold", "Lapphalya")
    forest = road_between("Lapphalya", "Rivinia")
    place(state, 1, "giant_pig", plain.id)
    place(state, 1, "giant_pig", forest.id)
    return plain, forest


def play(state: dict, seat: int, move: dict, seed: int = 0) -> tuple[dict, list[dict]]:
    """Decide then fold: the new state and the events."""
    events = GAME.decide(state, seat, move, random.Random(seed))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def rejection(state: dict, seat: int, move: dict) -> str:
    """The reason code ``decide`` gives; fails the test if the move is accepted."""
    try:
        GAME.decide(state, seat, move, random.Random(0))
    except IllegalMove as error:
        return error.reason
    raise AssertionError(f"{move} was accepted")


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
