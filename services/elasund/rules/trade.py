"""The trade track: trade points from windmills, and the victory cubes beside spaces 3..11."""
from __future__ import annotations

from collections.abc import Iterable

from services.elasund.rules import board
from services.elasund.rules.board import Square
from services.elasund.rules.context import Ctx
from services.elasund.rules.state import cubes_left


def trade_points(players: int, squares: Iterable[Square]) -> int:
    fields = board.trade_fields(players)
    return sum(fields.get(square, 0) for square in squares)


def move_disk(ctx: Ctx, seat: int, delta: int) -> None:
    """Move ``seat``'s disk by ``delta``: a cube on each VP space reached or passed (if a box is
    free), and cubes above the disk come back when it moves down.

    "Each Trade Point moves your disk one space on the track", and the track's last space is 11:
    points beyond it are not banked, so the disk stops at 11 and a later loss counts back from
    the space where the disk stands (11), not from a hidden total above it.
    """
    state = ctx.state
    old = state["trade"][seat]
    total = max(0, old + delta)
    if ctx.engine.disk_stops_at_track_end:
        total = min(board.TRACK_MAX, total)
    # In the track's order (the order the fold gives ``track_cubes``), never the state dict's: a
    # snapshot lists its keys sorted as text ("11" first), and the event records this order.
    removed = [str(space) for space in board.VP_SPACES
               if seat in state["track_cubes"][str(space)] and space > total]
    spare = cubes_left(state, seat) + len(removed)
    placed = []
    for space, boxes in sorted(board.VP_SPACES.items()):
        if not old < space <= total or spare == 0:
            continue
        if state["options"]["trade_track_capacity"] and len(state["track_cubes"][str(space)]) >= boxes:
            continue
        placed.append(space)
        spare -= 1
    ctx.emit("trade_moved", seat=seat, total=total, removed=[int(s) for s in removed], placed=placed)
