"""``legal_moves``: every move a seat may make now, each exactly as ``decide`` accepts it.

Each list is built from the same ``check_*`` validators ``decide`` uses, so the two cannot drift.
"""
from __future__ import annotations

from typing import Any

from shared.game.engine import IllegalMove

from services.elasund.rules import board, cards, construction, flow, permits
from services.elasund.rules.state import (
    BUILD, CHURCH_CHOICE, DISCARD, HUT_REBUILD, PERMIT, PIRATE_ROW, ROLL, SHIP_CHOICE, SPECIAL, State,
    empty_squares, occupancy, to_act,
)

Move = dict[str, Any]


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    pending = state["pending"]
    if phase == ROLL:
        return [{"type": "roll"}]
    if phase in (SHIP_CHOICE, PIRATE_ROW):
        move_type = "move_ship" if phase == SHIP_CHOICE else "move_pirates"
        return [{"type": move_type, "row": row} for row in pending["rows"]]
    if phase == DISCARD:
        return [{"type": "discard", **option} for option in flow.discard_options_for(state, seat)]
    if phase == BUILD:
        return build_moves(state, seat)
    if phase == CHURCH_CHOICE:
        return [{"type": "choose_church_tile", "tile": tile} for tile in state["church"]["drawn"] or []]
    if phase == HUT_REBUILD:
        kind = pending["queue"][0]["kind"]
        return [{"type": "rebuild_hut", "col": c, "row": r} for c, r in construction.hut_spots(state, seat, kind)]
    if phase == PERMIT:
        return [{"type": "take_gold"}, *phase3_permit_moves(state, seat)]
    if phase == SPECIAL:
        return special_moves(state, seat)
    return []


def _accepted(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except IllegalMove:
        return False
    return True


def build_moves(state: State, seat: int) -> list[Move]:
    moves: list[Move] = []
    occ = occupancy(state)
    for kind in construction.available_kinds(state, seat):
        for col, row in sorted(construction.legal_anchor_candidates(state, seat, kind)):
            move = {"type": "build", "building": kind, "col": col, "row": row}
            try:
                construction.check_build(state, seat, kind, col, row, None, occ)
                moves.append(move)
            except IllegalMove as refusal:
                if refusal.reason != "same-size-needs-influence":
                    continue
                for colour in cards.colours_with(state, seat, 3):
                    if _accepted(construction.check_build, state, seat, kind, col, row, colour, occ):
                        moves.append({**move, "pay_colour": colour})
    for space in board.wall_spaces(state["players"]):
        if _accepted(construction.check_wall, state, seat, space):
            moves.append({"type": "build_wall", "space": space})
    if _accepted(construction.check_church, state, seat):
        moves.append({"type": "build_church"})
    moves.append({"type": "end_building"})
    return moves


def _affordable_values(state: State, seat: int) -> list[int]:
    gold = state["hands"][seat]["gold"]
    return sorted(v for v in set(state["supply"][seat]["permits"]) if v <= gold)


def phase3_permit_moves(state: State, seat: int) -> list[Move]:
    moves: list[Move] = []
    open_rows = permits.free_rows(state)
    colours = cards.colours_with(state, seat, 2)
    empties = empty_squares(state)
    for value in _affordable_values(state, seat):
        for col, row in empties:
            move = {"type": "place_permit", "value": value, "col": col, "row": row}
            if row in open_rows:
                moves.append(move)
            else:
                moves.extend({**move, "pay_colour": colour} for colour in colours)
    return moves


def special_moves(state: State, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "end_turn"}]
    empties = empty_squares(state)
    own = [(board.unkey(k), value) for k, (owner, value) in sorted(state["permits"].items()) if owner == seat]
    gold = state["hands"][seat]["gold"]
    for colour in cards.colours_with(state, seat, 2):
        for (col, row), value in own:
            for to_col, to_row in empties:
                moves.append({"type": "move_permit", "from_col": col, "from_row": row,
                              "col": to_col, "row": to_row, "pay_colour": colour})
            for higher in sorted(set(state["supply"][seat]["permits"])):
                if higher > value and higher - value <= gold:
                    moves.append({"type": "upgrade_permit", "col": col, "row": row, "value": higher,
                                  "pay_colour": colour})
    if cards.has_all_colours(state, seat):
        moves.append({"type": "special_gold"})
        for value in _affordable_values(state, seat):
            moves.extend({"type": "place_permit_anywhere", "value": value, "col": c, "row": r} for c, r in empties)
    return moves
