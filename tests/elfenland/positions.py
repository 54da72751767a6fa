"""Building specific positions: a real set-up, then events folded on top of it as the engine
records them, and moves decided by the engine (journeys are travelled, never teleported).

Nothing here writes into a state: a counter given or placed, cards dealt, a phase or a round
begun are each the engine's own event with the data it would record.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Any

from shared.game.engine import IllegalMove, event

from services.elfenland.rules import ElfenlandGame
from services.elfenland.rules.board import ROADS, ROADS_AT, START_TOWN, Road
from services.elfenland.rules.components import RAFT, TRANSPORT_COST, TRANSPORTS
from services.elfenland.rules.multiset import contains
from services.elfenland.rules.state import road_slot
from services.elfenland.rules.travel import lake_rafts, river_rafts

GAME = ElfenlandGame()


def new_game(players: int = 3, seed: int = 1, **options: Any) -> dict:
    return GAME.replay(GAME.setup(players, {**GAME.default_options(), **options}, random.Random(seed)))


def fold(state: dict, type_: str, **data: Any) -> dict:
    return GAME.evolve(state, event(type_, **data))


def deal(state: dict, seat: int, cards: list[str]) -> dict:
    """Deal ``cards`` to a seat off the deck, the discard pile shuffled back first if need be."""
    if not contains(state["deck"], cards) and state["discard"]:
        fold(state, "deck_reshuffled")
    assert contains(state["deck"], cards), f"the deck and discard pile lack {cards}"
    return fold(state, "cards_dealt", seat=seat, cards=sorted(cards))


def set_hand(state: dict, seat: int, cards: list[str]) -> dict:
    """Replace a seat's hand: its cards go to the discard pile, the new ones come off the deck."""
    hand = state["seats"][seat]["hand"]
    old = sorted(k for k, n in hand.items() for _ in range(n))
    fold(state, "cards_kept", seat=seat, kept=[], discarded=old)
    # The deck may lack a kind (dealt out): put the discard back first.
    fold(state, "deck_reshuffled")
    assert contains(state["deck"], cards), f"the deck lacks {cards}"
    return fold(state, "cards_dealt", seat=seat, cards=sorted(cards))


def clear_counters(state: dict, seat: int) -> dict:
    return fold(state, "counters_kept", seat=seat, kept=[], discarded=state["seats"][seat]["counters"])


def _before_the_phase(state: dict, *events: dict) -> dict:
    """``events`` folded as if they came just before the current phase began: the phase begins
    again after them (``phase_started`` as the engine records it).  Only a phase nobody has acted
    in yet begins again unchanged, so that is asserted first."""
    assert (state["step"], state["passes"], state["discarding"], state["redraw"]) == (0, 0, False, False), \
        "counters are given before anybody acts in the phase"
    for e in events:
        state = GAME.evolve(state, e)
    return fold(state, "phase_started", phase=state["phase"])


def give_counter(state: dict, seat: int, kind: str) -> dict:
    """``seat`` draws a ``kind`` counter from the pile, as if before the current phase began."""
    assert state["bag"].get(kind, 0) > 0, f"no {kind} counter left in the pile"
    return _before_the_phase(state, event("counter_taken", seat=seat, counter=kind, source="pile"))


def place(state: dict, seat: int, kind: str, road: int) -> dict:
    """``seat`` draws a ``kind`` counter (Elfenland: lays its own obstacle) and lays it on a road,
    as if before the current phase began."""
    if kind != "obstacle" or state["seats"][seat]["obstacles"] == 0:
        give_counter(state, seat, kind)
    return _before_the_phase(state, event("counter_placed", seat=seat, counter=kind, road=road))


def in_round(state: dict, number: int, first: int = 0) -> dict:
    """Round ``number`` begun (``round_ended`` then ``round_started``, as the engine records
    them), before any phase."""
    fold(state, "round_ended")
    return fold(state, "round_started", round=number, first=first)


def start_phase(state: dict, phase: str, first: int | None = None) -> dict:
    """``phase`` begun; ``first`` is the seat the test expects to begin it (the round's
    ``round_started`` chose it: see ``in_round``)."""
    assert first is None or state["first"] == first, (state["first"], first)
    return fold(state, "phase_started", phase=phase)


def road_between(a: str, b: str, terrain: str | None = None) -> Road:
    return next(r for r in ROADS if {r.a, r.b} == {a, b} and (terrain is None or r.terrain == terrain))


def lay_pig_path(state: dict) -> tuple[Road, Road]:
    """Giant pigs on Elvenhold-Lapphalya (plain) and Lapphalya-Rivinia (forest)."""
    plain = road_between("Elvenhold", "Lapphalya")
    forest = road_between("Lapphalya", "Rivinia")
    place(state, 1, "giant_pig", plain.id)
    place(state, 1, "giant_pig", forest.id)
    return plain, forest


# -- journeys: the elf travels, by the engine's own travel moves ------------------------------

def _path(start: str, end: str, through: set[str] | None = None) -> list[str]:
    """The towns after ``start`` on a shortest way to ``end`` (through ``through`` only, if given)."""
    previous: dict[str, str] = {start: start}
    queue = deque([start])
    while queue and end not in previous:
        town = queue.popleft()
        for road in ROADS_AT[town]:
            nxt = road.other_end(town)
            if nxt not in previous and (through is None or nxt in through or nxt == end):
                previous[nxt] = town
                queue.append(nxt)
    assert end in previous, f"no way from {start} to {end}"
    way = [end]
    while way[-1] != start:
        way.append(previous[way[-1]])
    return way[-2::-1]


def tour(start: str, towns: Iterable[str], end: str | None = None) -> list[str]:
    """The towns an elf passes from ``start`` to see each of ``towns`` (the nearest one next) and
    then reach ``end``, going only through those towns and Elvenhold: it sees no other town."""
    left = list(towns)
    through = {*left, START_TOWN, start}
    walked: list[str] = []
    here = start
    while left:
        way = min((_path(here, town, through) for town in left), key=len)
        walked += way
        here = way[-1]
        left = [town for town in left if town not in way]
    if end is not None and end != here:
        walked += _path(here, end, through)
    return walked


def _road(here: str, there: str) -> Road:
    """The road an elf takes from ``here`` to the next town: the waterway where there is one (no
    counter needed), else the land road."""
    roads = [r for r in ROADS_AT[here] if r.other_end(here) == there]
    assert roads, f"no road from {here} to {there}"
    return min(roads, key=lambda r: r.is_land)


def _transport_for(state: dict, road: Road) -> str:
    """The cheapest transport counter still in the pile that crosses the road's terrain."""
    kinds = [k for k in TRANSPORTS if road.terrain in TRANSPORT_COST[k] and state["bag"].get(k, 0)]
    assert kinds, f"no counter left in the pile for {road.terrain}"
    return min(kinds, key=lambda k: TRANSPORT_COST[k][road.terrain])


def lay_counters(state: dict, seat: int, towns: list[str]) -> dict:
    """``seat`` lays a transport on each land road of its way through ``towns`` that has none (as
    if before the current phase began)."""
    here = state["seats"][seat]["town"]
    for there in towns:
        road = _road(here, there)
        if road.is_land and not road_slot(state, road.id)["transports"]:
            place(state, seat, _transport_for(state, road), road.id)
        here = there
    return state


def _fare(state: dict, road: Road, there: str) -> list[str]:
    slot = road_slot(state, road.id)
    if road.is_land:
        kind = slot["transports"][0]
        count = TRANSPORT_COST[kind][road.terrain]
    else:
        kind = RAFT
        count = river_rafts(road, there) if road.terrain == "river" else lake_rafts(state, road)
    return [kind] * (count + (1 if slot["obstacle"] else 0))


def walk(state: dict, seat: int, towns: list[str], game: ElfenlandGame = GAME) -> dict:
    """``seat``'s elf travels through ``towns`` in turn, each a road away from the one before: the
    counters its way lacks are laid first (``lay_counters``), the cards of each road dealt to it
    just before, and each journey is the engine's own ``travel`` move."""
    lay_counters(state, seat, towns)
    for there in towns:
        road = _road(state["seats"][seat]["town"], there)
        cards = _fare(state, road, there)
        deal(state, seat, cards)
        state, _ = play(state, seat, {"type": "travel", "road": road.id, "cards": cards}, game=game)
    return state


def journey(state: dict, seat: int, town: str) -> dict:
    """``seat``'s elf travels to ``town`` along a shortest way (``walk``)."""
    return walk(state, seat, _path(state["seats"][seat]["town"], town))


def play(state: dict, seat: int, move: dict, seed: int = 0, game: ElfenlandGame = GAME) -> tuple[dict, list[dict]]:
    """Decide then fold: the new state and the events."""
    events = game.decide(state, seat, move, random.Random(seed))
    for e in events:
        state = game.evolve(state, e)
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
