"""The island's fixed topology (hexes, intersections, paths) and the two board layouts.

Geometry: 19 pointy-top land hexes in rows of 3-4-5-4-3, numbered 0..18 in reading order.
Corners are placed on an integer lattice (hex centre ``(2*col + |row-2|, 3*row)``, corners at
``(0,-2), (1,-1), (1,1), (0,2), (-1,1), (-1,-1)`` from the centre), so shared corners coincide
exactly.  Node ids 0..53 are the corners sorted top to bottom then left to right; edge ids
0..71 are the hex sides sorted by their (smaller, larger) node ids.  Everything is computed once
at import: the engine only ever handles small integers and looks up these tables.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

RESOURCES: tuple[str, ...] = ("brick", "lumber", "wool", "grain", "ore")
RESOURCE_INDEX: dict[str, int] = {name: i for i, name in enumerate(RESOURCES)}
TERRAIN_RESOURCE: dict[str, int] = {
    "hills": 0, "forest": 1, "pasture": 2, "fields": 3, "mountains": 4, "desert": -1,
}
GENERIC_HARBOUR = 5          # node_harbour value for a 3:1 harbour; 0..4 is a 2:1 resource harbour
NO_HARBOUR = -1

ROW_LENGTHS = (3, 4, 5, 4, 3)
SIDES = ("NE", "E", "SE", "SW", "W", "NW")
# Corner offsets from a hex centre, clockwise from the top: N, NE, SE, S, SW, NW.
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
# A side joins two consecutive corners: NE = N-NE, E = NE-SE, ... NW = NW-N.
_SIDE_CORNERS = {side: (i, (i + 1) % 6) for i, side in enumerate(SIDES)}

# The official letter spiral runs counter-clockwise from a corner hex inwards.  The outer ring
# and the inner ring are listed counter-clockwise from hex 0 / hex 4; starting at the k-th
# corner rotates the outer ring by 2k and the inner ring by k (tested for adjacency).
OUTER_RING_CCW = (0, 3, 7, 12, 16, 17, 18, 15, 11, 6, 2, 1)
INNER_RING_CCW = (4, 8, 13, 14, 10, 5)
CENTRE_HEX = 9

DATA: dict[str, Any] = json.loads((Path(__file__).with_name("board.json")).read_text())


def _hex_centres() -> list[tuple[int, int]]:
    return [(2 * col + abs(row - 2), 3 * row)
            for row, length in enumerate(ROW_LENGTHS) for col in range(length)]


def _build_topology() -> tuple[list[list[int]], list[tuple[int, int]]]:
    centres = _hex_centres()
    points = sorted({(cx + dx, cy + dy) for cx, cy in centres for dx, dy in _CORNER_OFFSETS},
                    key=lambda p: (p[1], p[0]))
    node_of = {p: i for i, p in enumerate(points)}
    hex_corners = [[node_of[(cx + dx, cy + dy)] for dx, dy in _CORNER_OFFSETS]
                   for cx, cy in centres]
    edges = sorted({tuple(sorted((corners[i], corners[(i + 1) % 6])))
                    for corners in hex_corners for i in range(6)})
    return hex_corners, edges  # type: ignore[return-value]


HEX_COUNT = 19
HEX_NODES: list[list[int]]          # hex -> its 6 corners, clockwise from N
EDGE_NODES: list[tuple[int, int]]   # edge -> its two nodes
HEX_NODES, EDGE_NODES = _build_topology()
NODE_COUNT = 1 + max(max(corners) for corners in HEX_NODES)
EDGE_COUNT = len(EDGE_NODES)

NODE_HEXES: list[list[int]] = [[] for _ in range(NODE_COUNT)]
for _hex, _corners in enumerate(HEX_NODES):
    for _node in _corners:
        NODE_HEXES[_node].append(_hex)

NODE_EDGES: list[list[int]] = [[] for _ in range(NODE_COUNT)]
NODE_NODES: list[list[int]] = [[] for _ in range(NODE_COUNT)]
EDGE_ID: dict[tuple[int, int], int] = {}
for _edge, (_a, _b) in enumerate(EDGE_NODES):
    NODE_EDGES[_a].append(_edge)
    NODE_EDGES[_b].append(_edge)
    NODE_NODES[_a].append(_b)
    NODE_NODES[_b].append(_a)
    EDGE_ID[(_a, _b)] = EDGE_ID[(_b, _a)] = _edge
# node -> [(edge, node at its other end)], the walk the road code does most.
NODE_LINKS: list[list[tuple[int, int]]] = [
    [(e, EDGE_NODES[e][0] if EDGE_NODES[e][1] == n else EDGE_NODES[e][1]) for e in NODE_EDGES[n]]
    for n in range(NODE_COUNT)
]

_CENTRES = _hex_centres()
HEX_NEIGHBOURS: list[list[int]] = [
    [j for j, (x2, y2) in enumerate(_CENTRES)
     if (abs(x2 - x1), abs(y2 - y1)) in ((2, 0), (1, 3))]
    for x1, y1 in _CENTRES
]


def side_edge(hex_id: int, side: str) -> int:
    """The edge id of one side (``"NE"``, ``"E"``, ...) of a hex."""
    i, j = _SIDE_CORNERS[side]
    return EDGE_ID[(HEX_NODES[hex_id][i], HEX_NODES[hex_id][j])]


def spiral_order(corner: int) -> list[int]:
    """Hex ids along the letter spiral starting at corner hex ``corner`` (0..5)."""
    outer = OUTER_RING_CCW[2 * corner:] + OUTER_RING_CCW[:2 * corner]
    inner = INNER_RING_CCW[corner:] + INNER_RING_CCW[:corner]
    return [*outer, *inner, CENTRE_HEX]


def harbour_layout() -> list[dict[str, Any]]:
    """The 9 harbours with their two nodes: ``{"kind": "3:1"|resource, "nodes": [a, b]}``."""
    return [{"kind": h["kind"], "nodes": list(EDGE_NODES[side_edge(h["hex"], h["side"])])}
            for h in DATA["harbours"]]


def beginner_board() -> dict[str, Any]:
    """Terrains and numbers of the beginner set-up (numbers ``None`` on the desert)."""
    return {"terrains": [h["terrain"] for h in DATA["hexes"]],
            "numbers": [h["number"] for h in DATA["hexes"]]}


def _red_numbers_touch(numbers: list[int | None]) -> bool:
    return any(numbers[h] in (6, 8) and any(numbers[n] in (6, 8) for n in HEX_NEIGHBOURS[h])
               for h in range(HEX_COUNT))


def variable_board(rng: random.Random) -> dict[str, Any]:
    """Random terrains, then number tokens A-R along the spiral (skipping the desert).

    If a 6 or an 8 ends up next to another 6 or 8 the whole layout is drawn again; the number
    of draws is returned as ``attempts`` so the set-up event records it.
    """
    terrains = [t for t, count in DATA["terrain_counts"].items() for _ in range(count)]
    attempts = 0
    while True:
        attempts += 1
        rng.shuffle(terrains)
        corner = rng.randrange(6)
        tokens = iter(DATA["token_spiral"])
        numbers: list[int | None] = [None] * HEX_COUNT
        for hex_id in spiral_order(corner):
            if terrains[hex_id] != "desert":
                numbers[hex_id] = next(tokens)
        if not _red_numbers_touch(numbers):
            return {"terrains": list(terrains), "numbers": numbers,
                    "spiral_corner": corner, "attempts": attempts}
