"""The end of the game: when it comes and who wins."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.elfenland.rules.board import DISTANCES, MARKER_TOWNS
from services.elfenland.rules.multiset import size
from services.elfenland.rules.state import State, rules_of

EARLY_WIN_ROUND = 3      # Elfenland: the exceptional victory is checked from the end of round 3


@dataclass(frozen=True)
class Ending:
    """How one released engine version ends a game (``ElfenlandGame(version)``)."""
    version: str
    # Engine 3 cut a hand to 4 cards after the game's last movement too (``events.fold``);
    # from engine 4 there is no cut then, as no round follows.
    cut_after_last_movement: bool
    # Engine 5: "Si dès la fin du troisième tour, un joueur a visité les 20 cités, il est
    # gagnant": from the end of round 3 on, the last round (4) included, whoever saw all 20
    # towns wins (ties: most cards in hand), home towns or not.  Engine 4 applied it only to a
    # round before the last, and scored the last round as usual (towns minus the distance home).
    twenty_towns_win_last_round: bool


ENDINGS: dict[str, Ending] = {
    "3": Ending("3", cut_after_last_movement=True, twenty_towns_win_last_round=False),
    "4": Ending("4", cut_after_last_movement=False, twenty_towns_win_last_round=False),
    "5": Ending("5", cut_after_last_movement=False, twenty_towns_win_last_round=True),
}


def someone_visited_all(state: State) -> bool:
    return any(len(s["visited"]) == len(MARKER_TOWNS) for s in state["seats"])


def game_ends_now(state: State) -> bool:
    """Asked at the end of each round.

    Elfenland: after the last round, or from the end of round 3 when an elf has seen all 20
    towns ("des la fin du troisieme tour": not before).  Elfengold: the round in which an elf
    completes the 20 towns is the last.
    """
    if state["round"] >= state["rounds"]:
        return True
    earliest = 1 if rules_of(state).gold_economy else EARLY_WIN_ROUND
    return state["round"] >= earliest and someone_visited_all(state)


def final_result(state: State, ending: Ending) -> dict[str, Any]:
    gold = rules_of(state).gold_economy
    home_towns = state["options"]["home_towns"]
    seats = state["seats"]
    towns = [len(s["visited"]) for s in seats]
    distances = [DISTANCES[s["town"]][s["home"]] if home_towns and s["home"] else 0 for s in seats]
    scores = [t - d for t, d in zip(towns, distances)]
    # Ties: most travel cards in hand (Elfenland), the richest (Elfengold).
    tiebreak = [s["coins"] if gold else size(s["hand"]) for s in seats]
    early = state["round"] < state["rounds"] and someone_visited_all(state)
    if early or ((gold or ending.twenty_towns_win_last_round) and someone_visited_all(state)):
        # Whoever saw all 20 towns wins; among several, the tie-break decides.
        candidates = [i for i, t in enumerate(towns) if t == len(MARKER_TOWNS)]
        key = {i: (0, tiebreak[i]) for i in candidates}
    else:
        key = {i: (scores[i], tiebreak[i]) for i in range(len(seats))}
    best = max(key.values())
    return {
        "winners": [i for i, k in key.items() if k == best],
        "scores": scores,
        "towns": towns,
        "home_towns": [s["home"] for s in seats],
        "home_distances": distances,
        "tiebreak": "coins" if gold else "cards",
        "tiebreak_values": tiebreak,
        "ended_early": early,
    }
