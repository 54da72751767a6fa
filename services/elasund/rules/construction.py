"""Phase 2: buildings, city walls and church tiles, and the starter huts they displace."""
from __future__ import annotations

from typing import Any

from shared.game.engine import IllegalMove

from services.elasund.rules import board, cards, flow
from services.elasund.rules.board import Square, key
from services.elasund.rules.context import Ctx
from services.elasund.rules.state import (
    CHURCH_CHOICE, HUT_REBUILD, State, clockwise_from, cubes_left, find_building,
    is_blocked_for_building, occupancy,
)
from services.elasund.rules.trade import move_disk, trade_points


# -- buildings ---------------------------------------------------------------------------------------
def available_kinds(state: State, seat: int) -> list[str]:
    own = list(dict.fromkeys(state["supply"][seat]["buildings"]))
    # In the components' order, never the state dict's (a snapshot lists it sorted).
    return own + [kind for kind in board.NEUTRAL_BUILDINGS if state["stock"].get(kind, 0) > 0]


def check_build(state: State, seat: int, kind: Any, col: int, row: int, pay_colour: Any,
                occ: dict[Square, int] | None = None) -> dict[str, Any]:
    """Validate a building; returns the plan (squares, covered buildings, compensation)."""
    if kind not in board.BUILDINGS:
        raise IllegalMove("unknown-building", f"No building called {kind!r}.")
    if kind not in available_kinds(state, seat):
        raise IllegalMove("building-not-available", f"You have no {kind} to build.")
    spec = board.BUILDINGS[kind]
    squares = board.footprint(kind, col, row)
    if squares is None or not all(board.in_city(state["players"], *sq) for sq in squares):
        raise IllegalMove("outside-city", "Buildings go inside the city walls.")
    if any(is_blocked_for_building(state, sq) for sq in squares):
        raise IllegalMove("church-site", "No building may cover the church foundation or a church tile.")
    permits = _permits_with_majority(state, seat, kind, spec, squares)
    occ = occupancy(state) if occ is None else occ
    covered = sorted({occ[sq] for sq in squares if sq in occ})
    same_size = _covers_same_size(state, seat, kind, covered, pay_colour)
    compensation: dict[int, int] = {}
    for _, (owner, value) in permits:
        if owner != seat and value:
            compensation[owner] = compensation.get(owner, 0) + value
    cards.require_gold(state, seat, spec["cost"] + sum(compensation.values()))
    return {"kind": kind, "col": col, "row": row, "squares": squares, "covered": covered,
            "permits": [list(sq) for sq, _ in permits], "compensation": compensation,
            "pay_colour": pay_colour if same_size else None}


def _permits_with_majority(state: State, seat: int, kind: str, spec: dict[str, Any],
                           squares: tuple[Square, ...]) -> list[tuple[Square, Any]]:
    """The permits in the building's area: as many as it needs, with ``seat`` alone holding the
    highest total."""
    permits = [(sq, state["permits"][key(*sq)]) for sq in squares if key(*sq) in state["permits"]]
    if len(permits) < spec["permits"]:
        raise IllegalMove("not-enough-permits", f"A {kind} needs {spec['permits']} permit(s) in its area.")
    totals: dict[int, int] = {}
    for _, (owner, value) in permits:
        totals[owner] = totals.get(owner, 0) + value
    best = max(totals.values())
    if seat not in totals or totals[seat] < best:
        raise IllegalMove("no-permit-majority", "Another player has the highest permit total there.")
    if list(totals.values()).count(best) > 1:
        raise IllegalMove("permit-tie", "Permit totals there are tied: nobody may build.")
    return permits


def _covers_same_size(state: State, seat: int, kind: str, covered: list[int], pay_colour: Any) -> bool:
    """Whether the building covers one of its own size (paid with 3 influence cards of
    ``pay_colour``); it never covers a bigger one."""
    new_size = board.size(kind)
    covered_sizes = [board.size(find_building(state, bid)["kind"]) for bid in covered]
    if any(s > new_size for s in covered_sizes):
        raise IllegalMove("cannot-cover-larger", "A building cannot cover a bigger building.")
    same_size = new_size in covered_sizes
    if same_size and pay_colour is None:
        raise IllegalMove("same-size-needs-influence",
                          "Covering a building of the same size costs 3 influence cards of one colour.")
    if same_size:
        cards.matching_colour(state, seat, pay_colour, 3)
    elif pay_colour is not None:
        raise IllegalMove("payment-not-needed", "No building of the same size is covered.")
    return same_size


def build(ctx: Ctx, seat: int, plan: dict[str, Any]) -> None:
    kind = plan["kind"]
    spec = board.BUILDINGS[kind]
    cards.pay_gold(ctx, seat, spec["cost"])
    for owner, amount in sorted(plan["compensation"].items()):
        cards.pay_gold(ctx, seat, amount, to=owner)
    if plan["pay_colour"]:
        cards.pay_matching(ctx, seat, plan["pay_colour"], 3)
    if plan["permits"]:
        ctx.emit("permits_returned", squares=plan["permits"])
    huts: list[dict[str, Any]] = []
    for building_id in plan["covered"]:
        remove_building(ctx, building_id, huts)
    flags = [board.ROWS[board.ROW_INDEX[plan["row"]] + dy] for dy in spec["flag_row_offsets"]]
    points = trade_points(ctx.state["players"], plan["squares"])
    ctx.emit("building_built", id=ctx.state["next_building_id"], kind=kind, seat=seat, col=plan["col"],
             row=plan["row"], cubes=flags[:cubes_left(ctx.state, seat)], trade_points=points,
             build_number=ctx.state["builds"] + 1)
    if points:
        move_disk(ctx, seat, points)
    rebuild_huts_or_resume(ctx, seat, huts)


def remove_building(ctx: Ctx, building_id: int, huts: list[dict[str, Any]]) -> None:
    """Take a building off the board with its consequences: cubes go home with it, its trade
    points are lost, and a starter hut joins the rebuild queue."""
    building = find_building(ctx.state, building_id)
    ctx.emit("building_removed", id=building_id, seat=building["seat"], kind=building["kind"])
    if building["trade_points"]:
        move_disk(ctx, building["seat"], -building["trade_points"])
    if board.BUILDINGS[building["kind"]]["starter"]:
        huts.append({"seat": building["seat"], "kind": building["kind"]})


# -- starter huts ------------------------------------------------------------------------------------
def rebuild_huts_or_resume(ctx: Ctx, builder: int, huts: list[dict[str, Any]]) -> None:
    # The builder rebuilds first, then the others clockwise from the builder.
    order = clockwise_from(ctx.state, builder)
    queue = sorted(huts, key=lambda hut: order.index(hut["seat"]))
    next_hut(ctx, queue)


def next_hut(ctx: Ctx, queue: list[dict[str, Any]]) -> None:
    """Ask the next displaced hut's owner where to rebuild it; huts with no room are lost."""
    while queue:
        if hut_spots(ctx.state, queue[0]["seat"], queue[0]["kind"]):
            ctx.emit("phase_entered", phase=HUT_REBUILD, pending={"queue": queue})
            return
        ctx.emit("hut_lost", **queue.pop(0))
    flow.after_build(ctx)


def hut_spots(state: State, seat: int, kind: str) -> list[Square]:
    """Anchors where a displaced hut may stand: free squares, not trade fields, not permits
    (own permits allowed with the ``hut_on_own_permit`` option)."""
    occ = occupancy(state)
    fields = board.trade_fields(state["players"])
    own_ok = state["options"]["hut_on_own_permit"]

    def free(square: Square) -> bool:
        if square in occ or square in fields or is_blocked_for_building(state, square):
            return False
        permit = state["permits"].get(key(*square))
        return permit is None or (own_ok and permit[0] == seat)

    spots = []
    for col, row in board.city_squares(state["players"]):
        squares = board.footprint(kind, col, row)
        if squares and all(board.in_city(state["players"], *sq) and free(sq) for sq in squares):
            spots.append((col, row))
    return spots


def rebuild_hut(ctx: Ctx, seat: int, col: int, row: int) -> None:
    queue = list(ctx.state["pending"]["queue"])
    hut = queue.pop(0)
    if (col, row) not in hut_spots(ctx.state, seat, hut["kind"]):
        raise IllegalMove("hut-spot-not-free", "A hut goes on a free square: no trade field, no permit.")
    squares = board.footprint(hut["kind"], col, row) or ()
    own_permits = [list(sq) for sq in squares if key(*sq) in ctx.state["permits"]]
    if own_permits:
        ctx.emit("permits_returned", squares=own_permits)
    ctx.emit("building_built", id=ctx.state["next_building_id"], kind=hut["kind"], seat=seat, col=col,
             row=row, cubes=[], trade_points=0)
    next_hut(ctx, queue)


# -- city walls --------------------------------------------------------------------------------------
def check_wall(state: State, seat: int, space_id: Any) -> dict[str, Any]:
    spaces = board.wall_spaces(state["players"])
    if space_id not in spaces:
        raise IllegalMove("unknown-wall-space", f"No wall space {space_id!r} with this many players.")
    if space_id in state["walls"]:
        raise IllegalMove("wall-space-taken", "A wall tile already stands there.")
    if state["supply"][seat]["walls_built"] >= len(board.WALL_TILES):
        raise IllegalMove("no-wall-tiles", "Your wall stack is empty.")
    space = spaces[space_id]
    if not any(n.startswith("GATE") or n in state["walls"] for n in space["adjacent"]):
        raise IllegalMove("wall-not-connected", "A wall tile goes next to a gate or another wall tile.")
    if state["options"]["walls_blue_first"] and space["cost"] > min(s["cost"] for s in spaces.values()):
        if any(s["cost"] < space["cost"] and sid not in state["walls"] for sid, s in spaces.items()):
            raise IllegalMove("blue-walls-first", "The 4-gold lane opens once every 2-gold space is walled.")
    cards.require_gold(state, seat, space["cost"])
    return space


def build_wall(ctx: Ctx, seat: int, space_id: str) -> None:
    space = check_wall(ctx.state, seat, space_id)
    tile = board.WALL_TILES[ctx.state["supply"][seat]["walls_built"]]
    cards.pay_gold(ctx, seat, space["cost"])
    tower = tile["tower"] and cubes_left(ctx.state, seat) > 0
    ctx.emit("wall_built", seat=seat, space=space_id, tile=tile["n"], tower=tower,
             build_number=ctx.state["builds"] + 1)
    cards.draw(ctx, seat, influence=tile["influence"], reason="wall")
    flow.after_build(ctx)


# -- church --------------------------------------------------------------------------------------------
def check_church(state: State, seat: int) -> None:
    if not state["church"]["pool"]:
        raise IllegalMove("church-complete", "All church tiles are built.")
    cards.require_gold(state, seat, board.CHURCH_COST)


def build_church(ctx: Ctx, seat: int) -> None:
    check_church(ctx.state, seat)
    church = ctx.state["church"]
    cards.pay_gold(ctx, seat, board.CHURCH_COST)
    if church["origin"] is None:
        # The first builder draws two, keeps one for the foundation, the other goes under the stack.
        ctx.emit("church_drawn", seat=seat, tiles=ctx.rng.sample(sorted(church["pool"]), 2))
        ctx.emit("phase_entered", phase=CHURCH_CHOICE)
        return
    above_bottom = [t for t in sorted(church["pool"]) if t != church["bottom"]]
    tile = ctx.rng.choice(above_bottom) if above_bottom else church["bottom"]
    place_church_tile(ctx, seat, tile, board.church_square(tuple(church["origin"]), tile))


def choose_church_tile(ctx: Ctx, seat: int, tile: Any) -> None:
    drawn = ctx.state["church"]["drawn"]
    if tile not in drawn:
        raise IllegalMove("tile-not-drawn", f"Choose one of the tiles you drew: {drawn}.")
    other = next(t for t in drawn if t != tile)
    place_church_tile(ctx, seat, tile, board.FOUNDATION, bottom=other)


def place_church_tile(ctx: Ctx, seat: int, tile: int, square: Square, bottom: int | None = None) -> None:
    """A church tile removes any permit (no compensation) and any building on its square."""
    if key(*square) in ctx.state["permits"]:
        ctx.emit("permits_returned", squares=[list(square)])
    huts: list[dict[str, Any]] = []
    building_id = occupancy(ctx.state).get(square)
    if building_id is not None:
        remove_building(ctx, building_id, huts)
    has_cube = cubes_left(ctx.state, seat) > 0
    ctx.emit("church_tile_placed", seat=seat if has_cube else None, builder=seat, tile=tile,
             col=square[0], row=square[1], build_number=ctx.state["builds"] + 1)
    if bottom is not None:
        ctx.emit("church_tile_bottomed", seat=seat, tile=bottom)
    rebuild_huts_or_resume(ctx, seat, huts)


def legal_anchor_candidates(state: State, seat: int, kind: str) -> set[Square]:
    """North-west corners of every footprint of ``kind`` that contains one of ``seat``'s permits
    (a build needs the majority, so it needs at least one own permit in the area)."""
    spec = board.BUILDINGS[kind]
    anchors: set[Square] = set()
    for text, (owner, _) in sorted(state["permits"].items()):
        if owner != seat:
            continue
        col, row = board.unkey(text)
        index = board.ROW_INDEX[row]
        for dy in range(spec["h"]):
            if index - dy < 0:
                continue
            for dx in range(spec["w"]):
                anchors.add((col - dx, board.ROWS[index - dy]))
    return anchors

