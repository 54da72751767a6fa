"""Building positions for the Elastium engine tests: play from a seeded setup, then fold moves.

``place`` and ``ready`` reach a seat's turn and the cards for a band by play (cards taken, turns
ended); ``put`` folds the events the engine's own ``emit_band`` writes for a band, free of charge
and of the connection rule, where only the board's shapes matter to the rule under test."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from services.elastium.rules.board import Band, Board, board, line_key
from services.elastium.rules.game import Elastium
from services.elastium.rules.placement import affordable, candidate_bands, payments, pegs_to_pay
from services.elastium.rules.scoring import band_outcome
from services.elastium.rules.state import ACTIONS, BONUS, EXTRA, State, is_cursed, phase
from shared.game.testing import Given, given

GAME = Elastium()


def new_game(scenario: str = "jungle-temples", players: int = 2, seed: int = 1, **options: Any) -> State:
    state = None
    for e in GAME.setup(players, {"scenario": scenario, **options}, random.Random(seed)):
        state = GAME.evolve(state, e)
    return state


def play(state: State, seat: int, move: dict[str, Any], seed: int = 0) -> tuple[State, list[dict[str, Any]]]:
    events = GAME.decide(state, seat, move, random.Random(seed))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def ready(state: State, seat: int, pegs: list[str] | None = None, until: Callable[[State], bool] | None = None,
          cards: dict[str, int] | None = None, limit: int = 200) -> State:
    """Play on until ``seat`` is to act with an action left, holds the cards to pay for ``pegs``
    and at least ``cards`` (colour: count), and ``until`` holds.

    Every seat takes cards (``seat`` the market colours it lacks), ends its turn rather than buy a
    third action and takes a bonus card from the market when owed: nothing else changes."""
    band = board(state["scenario"], state["players"]).band_for(pegs) if pegs else None
    wanted = dict(cards or {})
    for number in range(limit):
        acting = state["turn_seat"]
        if (acting == seat and phase(state) == ACTIONS and not _lacking(state, seat, band, wanted)
                and (until is None or until(state))):
            return state
        assert state["result"] is None, "the game ended before the position was reached"
        lacking = _lacking(state, seat, band, wanted) if acting == seat else []
        state, _ = play(state, acting, _filler(state, lacking), seed=number)
    raise AssertionError(f"position not reached in {limit} moves")


def _lacking(state: State, seat: int, band: Band | None, cards: dict[str, int]) -> list[str]:
    """The cards ``seat`` still needs: ``cards`` it lacks, then one per peg of ``band`` to pay
    (none once it can pay for the band)."""
    hand = state["hands"][seat]
    lacking = [c for c, n in cards.items() for _ in range(n - hand[c])]
    if band is not None and not affordable(state, seat, band):
        colours = board(state["scenario"], state["players"]).colours
        missing = [colours[peg] for peg, _owners in pegs_to_pay(state, seat, band) if not hand[colours[peg]]]
        lacking += missing or ["any"]        # short of a second card of a colour held: any card will do
    return lacking


def _filler(state: State, lacking: list[str]) -> dict[str, Any]:
    """The move that changes nothing but cards and turns: see ``ready``."""
    now = phase(state)
    if now == BONUS:
        return {"type": "take_bonus_card", "source": "market", "card": state["market"][0]} if state["market"] \
            else {"type": "take_bonus_card", "source": "deck", "card": None}
    if now == EXTRA:
        return {"type": "end_turn"}
    market, picks = list(state["market"]), []
    for colour in lacking:
        if colour in market and len(picks) < 2 and not is_cursed(state):
            market.remove(colour)
            picks.append(colour)
    return {"type": "take_cards", "market": picks}


def place(state: State, seat: int, pegs: list[str],
          payment: list[dict[str, Any]] | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Place a band for ``seat`` once play has brought it its turn and the cards (``ready``),
    paying the first listed way by default (a given ``payment`` waits for the turn only)."""
    state = ready(state, seat, pegs if payment is None else None)
    if payment is None:
        band = board(state["scenario"], state["players"]).band_for(pegs)
        assert band is not None, pegs
        payment = payments(state, seat, band, limit=1)[0]
    return play(state, seat, {"type": "place_band", "pegs": pegs, "payment": payment})


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["type"] == kind]


def ring_lines(b: Board, centre: str) -> list[list[str]]:
    """The 6 lines around ``centre``: 2-peg bands along them enclose its 6 triangles."""
    around = sorted({p for seg in b.triangle_sides for p in b.segments[seg]["pegs"]
                     if centre in b.segments[seg]["pegs"]} - {centre})
    lattice = {key for key in _lattice_lines()}
    return [[a, c] for i, a in enumerate(around) for c in around[i + 1:] if line_key(a, c) in lattice]


def _lattice_lines() -> set[str]:
    from services.elastium.rules.board import raw_boards
    return {line_key(a, b) for a, b in raw_boards()["lattice"]["lines"]}


def triangles_at(b: Board, centre: str) -> set[str]:
    return {seg for seg in b.triangle_sides if centre in b.segments[seg]["pegs"]}


def put(state: State, seat: int, pegs: list[str]) -> tuple[State, list[dict[str, Any]]]:
    """Fold a band for ``seat`` free of charge and of the connection rule (position building)."""
    from services.elastium.rules.moves import Emitter, emit_band
    band = board(state["scenario"], state["players"]).band_for(pegs)
    assert band is not None, pegs
    emit = Emitter(state)
    emit_band(emit, seat, band, [])
    return emit.state, emit.events


# -- positions reached by legal moves (for shared.game.testing.given) ----------------------------

TAKE: dict[str, Any] = {"type": "take_cards", "market": []}
Policy = Callable[[State, int], "dict[str, Any] | None"]


def start(scenario: str = "jungle-temples", players: int = 2, seed: int = 1, **options: Any) -> Given:
    return given(GAME).setup(players, {"scenario": scenario, **options}, seed=seed)


def takes(state: State, seat: int) -> dict[str, Any] | None:
    """Every seat takes cards from the deck: nothing else changes but hands, deck and turn."""
    return None


def first_band(state: State, seat: int) -> dict[str, Any] | None:
    """Every seat places the first band it can pay for (its cards go to the discards)."""
    for band in candidate_bands(state, seat):
        pay = payments(state, seat, band, limit=1)
        if pay:
            return {"type": "place_band", "pegs": list(band.pegs), "payment": pay[0]}
    return None


def energy_for_seat_0(state: State, seat: int) -> dict[str, Any] | None:
    """Seat 0 places the band that collects the most energy, if any does; the others take cards."""
    best, most = None, 0
    for band in candidate_bands(state, seat) if seat == 0 else []:
        pay = payments(state, seat, band, limit=1)
        if pay and (energy := band_outcome(state, seat, band).energy) > most:
            best, most = {"type": "place_band", "pegs": list(band.pegs), "payment": pay[0]}, energy
    return best


def drive(pos: Given, until: Callable[[State], bool], policy: Policy = takes, limit: int = 400) -> Given:
    """Play legal moves by ``policy`` (taking cards when it has no band, ending a turn rather than
    buying a third action, taking an owed bonus card from the market) until ``until`` holds."""
    for number in range(limit):
        state = pos.state
        if until(state):
            return pos
        assert state["result"] is None, "the game ended before the position was reached"
        seat = state["turn_seat"]
        move = (policy(state, seat) or TAKE) if phase(state) == ACTIONS else _filler(state, [])
        pos.after(seat, move, seed=number)
    raise AssertionError(f"position not reached in {limit} moves")


def turn_start(seat: int) -> Callable[[State], bool]:
    return lambda state: state["turn_seat"] == seat and state["actions_left"] == 2 and not state["extra_used"]


def reaching(state: State, seat: int, threshold: int) -> dict[str, Any] | None:
    """A band ``seat`` may place and pay for now that brings its score from below ``threshold``
    to it or more, the end not being triggered yet (the first such, in the engine's band order)."""
    if state["turn_seat"] != seat or phase(state) != ACTIONS:
        return None
    if state["end_triggered"] or max(state["score"]) >= threshold:
        return None
    for band in candidate_bands(state, seat):
        if state["score"][seat] + band_outcome(state, seat, band).total_points() >= threshold:
            pay = payments(state, seat, band, limit=1)
            if pay:
                return {"type": "place_band", "pegs": list(band.pegs), "payment": pay[0]}
    return None
