"""The game state (a JSON-compatible dict) and small questions about it.

Shape::

    {"edition", "options", "players", "rounds", "round", "first",
     "phase": one of PHASES, "step": actions taken in the phase (sequential phases),
     "passes": consecutive passes (placement),
     "discarding": True while the movement phase's current seat cuts its hand (Elfenland),
     "redraw": True after a gold card drawn blind in the card draft (draw again or take the gold),
     "gold_values": {town: coins}, "deck": multiset, "discard": multiset,
     "face_up_cards": [kind], "gold_pile": int, "bag": multiset, "face_up_counters": [kind],
     "board": {road id as str: {"transports": [kind], "obstacle": kind|None, "gold": bool,
                                "double": bool}},
     "auction": None | {"lots": [kind], "high": int, "bidder": seat|None, "passed": [seat],
                        "turn": seat},
     "seats": [{"hand": multiset, "counters": [{"kind", "hidden"}], "obstacles": int,
                "town": str, "visited": [town], "home": town|None, "coins": int,
                "pending": [kind] (Elfengold: the two counters drawn, not yet revealed),
                "earned": int, "moved": bool}],
     "result": None | {...}}
"""
from __future__ import annotations

from typing import Any

from services.elfenland.rules.board import START_TOWN
from services.elfenland.rules.components import EDITION_RULES, Edition
from services.elfenland.rules.multiset import Multiset, size

State = dict[str, Any]

# Sequential phases: the seat to act is (first + step) % players.
SEQUENTIAL_PHASES = ("secret_counter", "draft_counters", "draft_cards", "reveal_counter",
                     "placement", "movement")
# "keep": every seat over a limit chooses at once; "auction": state["auction"]["turn"] acts.
PHASES = (*SEQUENTIAL_PHASES, "auction", "keep", "setup", "round_start", "over")


def new_state(data: dict[str, Any]) -> State:
    edition = EDITION_RULES[data["edition"]]
    players = data["players"]
    return {
        "edition": edition.name,
        "options": data["options"],
        "players": players,
        "rounds": edition.rounds,
        "round": 0,
        "first": 0,
        "phase": "setup",
        "step": 0,
        "passes": 0,
        "discarding": False,
        "redraw": False,
        "gold_values": data["gold_values"],
        "deck": dict(data["deck"]),
        "discard": {},
        "face_up_cards": [],
        "gold_pile": 0,
        "bag": dict(data["bag"]),
        "face_up_counters": [],
        "board": {},
        "auction": None,
        "seats": [
            {"hand": {}, "counters": [], "obstacles": 1 if edition.personal_obstacles else 0,
             "town": START_TOWN, "visited": [], "home": None, "coins": edition.start_coins,
             "pending": [], "earned": 0, "moved": False}
            for _ in range(players)
        ],
        "result": None,
    }


def rules_of(state: State) -> Edition:
    return EDITION_RULES[state["edition"]]


def sequential_seat(state: State) -> int:
    return (state["first"] + state["step"]) % state["players"]


def held_counters(seat_state: dict[str, Any]) -> Multiset:
    """The kinds of counters a seat holds, as a multiset."""
    held: Multiset = {}
    for counter in seat_state["counters"]:
        held[counter["kind"]] = held.get(counter["kind"], 0) + 1
    return held


def over_counter_limit(state: State, seat: int) -> bool:
    return len(state["seats"][seat]["counters"]) > rules_of(state).counters_kept


def over_card_limit(state: State, seat: int) -> bool:
    limit = rules_of(state).cards_kept
    return limit is not None and size(state["seats"][seat]["hand"]) > limit


def seats_to_keep(state: State) -> list[int]:
    """Seats that must still choose the counters they keep (phase "keep").

    Elfenland: when placement ends ("a la fin du placement des jetons"); Elfengold: at the end
    of the round.  The Elfenland card limit is applied to each player right after his own
    move, inside the movement phase (``state["discarding"]``).
    """
    return [s for s in range(state["players"]) if over_counter_limit(state, s)]


def to_act(state: State) -> list[int]:
    phase = state["phase"]
    if phase in SEQUENTIAL_PHASES:
        return [sequential_seat(state)]
    if phase == "auction":
        # Right after ``auction_closed`` (a state /replay can show) the phase has not moved on yet.
        return [state["auction"]["turn"]] if state["auction"] is not None else []
    if phase == "keep":
        return seats_to_keep(state)
    return []


def road_slot(state: State, road_id: int) -> dict[str, Any]:
    """What lies on a road (an empty slot when nothing does); read-only use."""
    return state["board"].get(str(road_id)) or {"transports": [], "obstacle": None,
                                                 "gold": False, "double": False}
