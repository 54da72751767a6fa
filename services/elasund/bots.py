"""Elasund bots: ``random`` (uniform over legal moves) and ``heuristic``.

The heuristic bot scores each legal move with a hand-written value and plays the best one.  It
reads only what its own view shows (the board, its own hand, public supplies).  Its plan is the
one the rule book's tips suggest: income first (own house and workshop, taverns and shops),
permits next to its own so that two-permit buildings fit, victory cubes from neutral buildings
and the trade track, church tiles and towered walls when gold piles up.
"""
from __future__ import annotations

import random
from typing import Any, cast
from collections.abc import Callable

from shared.game.engine import Game, Move, random_strategy
from shared.play.search import ExpertBot
from shared.game.value import load
from services.elasund.rules import board
from services.elasund.rules.board import key
from services.elasund.rules.state import State, find_building, occupancy
from services.elasund.rules.trade import trade_points
from services.elasund.value import FEATURES, ROLL_WAYS

CUBE = 10.0          # a victory cube on the board
INCOME = 4.0         # a building that produces (early in the game)
GOLD = 1.0
INFLUENCE_CARD = 1.2


def _rows_weight(row: int) -> float:
    """How often the ship visits ``row`` (2d6 odds; 7 is the pirates)."""
    return ROLL_WAYS[row] / 5.0


def _building_value(state: State, seat: int, move: Move, occ: dict[Any, int]) -> float:
    kind = move["building"]
    spec = board.BUILDINGS[kind]
    squares = board.footprint(kind, move["col"], move["row"]) or ()
    rows = {row for _, row in squares}
    value = CUBE * len(spec["flag_row_offsets"])
    if spec["income"]:
        value += INCOME * sum(_rows_weight(r) for r in rows) / max(1, len(rows)) ** 0.5
    points = trade_points(state["players"], squares)
    track = state["trade"][seat]
    value += 3.0 * points + sum(CUBE for space in board.VP_SPACES if track < space <= track + points)
    compensation = sum(v for sq in squares
                       for owner, v in [state["permits"].get(key(*sq), (seat, 0))] if owner != seat)
    value -= GOLD * (spec["cost"] + compensation)
    for building_id in {occ[sq] for sq in squares if sq in occ}:
        covered = find_building(state, building_id)
        lost = CUBE * len(covered["cubes"]) + INCOME + 3.0 * covered["trade_points"]
        value += -lost if covered["seat"] == seat else 0.3 * lost
    if move.get("pay_colour"):
        value -= 3 * INFLUENCE_CARD
    return value


def _wall_value(state: State, seat: int, move: Move) -> float:
    tile = board.WALL_TILES[state["supply"][seat]["walls_built"]]
    cost = board.wall_spaces(state["players"])[move["space"]]["cost"]
    # Every third tile is a tower: a plain tile is also a third of the way to the next cube.
    reward = CUBE if tile["tower"] else CUBE / 3 + INFLUENCE_CARD * tile["influence"]
    return reward - GOLD * cost - 1.0


def _church_value(state: State, seat: int) -> float:
    gold = state["hands"][seat]["gold"]
    return CUBE - GOLD * board.CHURCH_COST + (2.0 if gold >= 10 else -2.0)


def _neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """The eight squares around (col, row) that exist on the row track."""
    index = board.ROW_INDEX[row]
    return [(col + dc, board.ROWS[index + di]) for dc in (-1, 0, 1) for di in (-1, 0, 1)
            if (dc or di) and 0 <= index + di < len(board.ROWS)]


def _neighbour_permits(state: State, seat: int, col: int, row: int) -> tuple[int, int]:
    """(own, others') permits around (col, row)."""
    owners = [state["permits"][key(*sq)][0] for sq in _neighbours(col, row) if key(*sq) in state["permits"]]
    return owners.count(seat), len(owners) - owners.count(seat)


def _permit_value(state: State, seat: int, move: Move, occ: dict[Any, int]) -> float:
    """A permit is worth what it lets us build: room around it, own permits nearby, good rows."""
    col, row = move["col"], move["row"]
    value = 2.0 + _rows_weight(row) - 0.6 * move["value"]
    if move.get("pay_colour") or move["type"] == "place_permit_anywhere":
        value -= 2.5 * INFLUENCE_CARD
    own, others = _neighbour_permits(state, seat, col, row)
    value += 1.5 * own - 0.5 * others
    value += 0.3 * sum(1 for sq in _neighbours(col, row)
                       if board.in_city(state["players"], *sq) and sq not in occ and key(*sq) not in state["permits"])
    if col == 0:
        value += 1.0   # harbour trade fields
    if occ.get((col, row)) is None and (col, row) in board.trade_fields(state["players"]):
        value += 0.5
    return value


def score_move(state: State, seat: int, move: Move, occ: dict[Any, int]) -> float:
    kind = move["type"]
    hand = state["hands"][seat]
    if kind == "build":
        return _building_value(state, seat, move, occ)
    if kind == "build_wall":
        return _wall_value(state, seat, move)
    if kind == "build_church":
        return _church_value(state, seat)
    if kind in ("place_permit", "place_permit_anywhere"):
        base = _permit_value(state, seat, move, occ)
        # Permits already waiting on the board are unused capital: more of them are worth less.
        waiting = sum(1 for owner, _ in state["permits"].values() if owner == seat)
        return base - (2.0 if kind == "place_permit_anywhere" else 0.0) - max(0, waiting - 2)
    if kind == "take_gold":
        return 2.0 * GOLD + (1.0 if hand["gold"] < 3 else 0.0)
    if kind == "special_gold":
        return 2.0 * GOLD - 3 * INFLUENCE_CARD + 0.5
    if kind == "upgrade_permit":
        # Only worth it where another seat's permit contests the area.
        contested = _neighbour_permits(state, seat, move["col"], move["row"])[1] > 0
        gain = move["value"] - state["permits"][key(move["col"], move["row"])][1]
        return (1.5 * gain if contested else 0.0) - 2 * INFLUENCE_CARD - GOLD * gain
    if kind == "move_permit":
        return -5.0
    if kind in ("move_ship", "move_pirates"):
        return _row_choice(state, seat, move["row"], pirates=kind == "move_pirates")
    if kind == "discard":
        # Keep the colour we hold most of (matching sets pay for actions); give gold last.
        return -sum(n * (1 + hand["influence"][c] * 0.1) for c, n in move["influence"].items()) \
            - 1.3 * move["gold"]
    if kind == "choose_church_tile":
        return 0.0
    if kind == "rebuild_hut":
        return _rows_weight(move["row"])
    return 0.0   # roll, end_building, end_turn


def _row_choice(state: State, seat: int, row: int, pirates: bool) -> float:
    mine = others = 0.0
    for building in state["buildings"]:
        squares = board.footprint(building["kind"], building["col"], building["row"]) or ()
        if not any(r == row for _, r in squares):
            continue
        amount = building["cubes"].count(row) if pirates else bool(board.BUILDINGS[building["kind"]]["income"])
        if building["seat"] == seat:
            mine += amount
        else:
            others += amount
    return (others - 2 * mine) if pirates else (mine - 0.3 * others)


def move_scores(game: Game, state: State, seat: int, moves: list[Move]) -> list[float]:
    """The heuristic's score of each move, from what this seat may see (own hand, public board)."""
    # Read as a state: the view holds the board as the state does (a cast, no copy on the bot's path).
    seen = cast(State, game.view(state, seat))
    occ = occupancy(seen)
    return [score_move(seen, seat, move, occ) for move in moves]


def heuristic_strategy(game: Game, state: State, seat: int, rng: random.Random) -> Move:
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    scored = [(score + rng.random() * 0.01, i) for i, score in enumerate(move_scores(game, state, seat, moves))]
    best = max(scored)[1]
    return moves[best]


STRATEGIES: dict[str, Callable[[Game, State, int, random.Random], Move]] = {
    "random": random_strategy,
    "heuristic": heuristic_strategy,
}


# -- expert: search on top of heuristic ---------------------------------------------------------

def rank_moves(game: Game, state: State, seat: int, moves: list[Move]) -> list[Move]:
    """The heuristic bot's own scores, best first: the search plays out its next choices."""
    scores = move_scores(game, state, seat, moves)
    return [move for _, move in sorted(zip(scores, moves), key=lambda pair: -pair[0])]


# A heuristic decision costs about a millisecond: short playouts, few candidates, more worlds.  The
# value function is fit to heuristic self-play (services/elasund/value.py; its scores are log-odds).
# The search only chooses among moves of the heuristic's kind (where, which): with the first,
# hand-weighted value function, choosing across kinds talked the bot out of its investments.
expert_strategy = ExpertBot(heuristic_strategy, load(FEATURES), horizon=10, sharpness=1.0, rank=rank_moves,
                            max_candidates=6, same_kind=True)

STRATEGIES["expert"] = expert_strategy
