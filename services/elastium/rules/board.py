"""Board geometry: pegs, printed lines, segments and every band shape, precomputed once.

The boards are data (``boards.json``, the normative maps of the research note): 80 pegs
``cXrY`` on a triangular lattice, the lines printed on each scenario's face and the unit
triangles ("segments") with their items.  Everything the engine asks repeatedly (which bands
exist, which bands touch a peg, which triangle lies across a line) is computed here once per
(scenario, player count) and cached.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache, cache
from pathlib import Path
from typing import Any

COLOURS: tuple[str, ...] = ("gris", "bleu", "vert", "rouge", "jaune")
SCENARIOS: tuple[str, ...] = (
    "jungle-temples", "volcano", "archipelago", "engraved-plateau",
    "fragile-ruins", "cursed-triangle", "two-deities", "labyrinth",
)

LINE = "line"          # 2 pegs joined by a printed line: explores nothing
TRIANGLE = "triangle"  # 3 pegs of one segment: explores it
RHOMBUS = "rhombus"    # 4 pegs of two segments sharing a line: explores both
BARRIER = "barrier"    # Fragile Ruins' long barrier a-b-c around the middle peg: explores nothing


@lru_cache(maxsize=1)
def raw_boards() -> dict[str, Any]:
    with open(Path(__file__).with_name("boards.json"), encoding="utf-8") as handle:
        return json.load(handle)


def peg_row_col(peg: str) -> tuple[int, int]:
    col, row = peg[1:].split("r")
    return int(row), int(col)


def line_key(a: str, b: str) -> str:
    """Canonical id of the line between two pegs: 'cArB-cCrD', sorted by row then column."""
    first, second = sorted((a, b), key=peg_row_col)
    return f"{first}-{second}"


@dataclass(frozen=True)
class Band:
    """One band shape the board allows (for any player)."""

    key: str                       # sorted pegs joined by '+': the band's identity
    kind: str
    pegs: tuple[str, ...]          # sorted; a barrier's middle is ``middle``
    walls: frozenset[str]          # line keys the band's strands lie on (enclosure walls)
    explores: tuple[str, ...]      # segment ids inside the band
    lines: tuple[str, ...]         # line keys the band covers (line items: bridges, maze)
    middle: str | None = None


@dataclass
class Board:
    scenario: str
    players: int
    rules: dict[str, Any]
    colours: dict[str, str]                       # peg -> colour
    pegs: tuple[str, ...]                         # playable pegs
    segments: dict[str, dict[str, Any]]           # every lattice triangle with its items
    playable: frozenset[str]                      # segments a band may explore
    bands: dict[str, Band]
    bands_by_peg: dict[str, tuple[Band, ...]]
    # enclosure lattice: triangle -> [(line key, triangle across or None at the border)]
    triangle_sides: dict[str, tuple[tuple[str, str | None], ...]]
    border_triangles: tuple[tuple[str, tuple[str, ...]], ...]   # (triangle, its border lines)
    start_rule: str
    start_pegs: dict[str, tuple[str, ...]]        # side -> pegs ('*' for pegs open to all)
    sides: tuple[str, ...]                        # seat -> side
    edge_pegs: dict[str, frozenset[str]]
    opposite: dict[str, str]
    band_sizes: tuple[int, ...] = ()                # peg counts of the allowed bands
    line_items: dict[str, dict[str, Any]] = field(default_factory=dict)
    images: dict[str, dict[str, Any]] = field(default_factory=dict)

    def start_pegs_for(self, seat: int) -> tuple[str, ...]:
        return self.start_pegs.get(self.sides[seat], self.start_pegs.get("*", ()))

    def band_for(self, pegs: list[str] | tuple[str, ...]) -> Band | None:
        return self.bands.get("+".join(sorted(set(pegs), key=peg_row_col)))


def _band(kind: str, pegs: set[str], walls: set[str], explores: tuple[str, ...],
          lines: tuple[str, ...] = (), middle: str | None = None) -> Band:
    ordered = tuple(sorted(pegs, key=peg_row_col))
    return Band("+".join(ordered), kind, ordered, frozenset(walls), explores, lines, middle)


def _triangle_lines(pegs: list[str]) -> list[str]:
    a, b, c = pegs
    return [line_key(a, b), line_key(b, c), line_key(a, c)]


def _face_segments(face: dict[str, Any], players: int) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The images printed on this player count's face, and the segments (a segment whose image is
    not printed on it is empty)."""
    images: dict[str, dict[str, Any]] = {}
    if "images" in face:
        used = set(face["images_by_players"][str(players)])
        images = {name: img for name, img in face["images"].items() if name in used}
    segments: dict[str, dict[str, Any]] = {}
    for seg_id, seg in face["segments"].items():
        seg = dict(seg)
        if "image" in seg and seg["image"] not in images:
            # that image is not printed on this player count's face: an empty segment
            seg.pop("image")
            seg["energy"] = 0
        segments[seg_id] = seg
    return images, segments


def _segments_by_line(lattice: dict[str, Any]) -> dict[str, list[str]]:
    by_line: dict[str, list[str]] = {}
    for seg_id, seg in lattice["segments"].items():
        for key in _triangle_lines(seg):
            by_line.setdefault(key, []).append(seg_id)
    return by_line


def _add_rhombi(bands: dict[str, Band], by_line: dict[str, list[str]], segments: dict[str, dict[str, Any]],
                playable: frozenset[str]) -> None:
    for key, pair in by_line.items():
        if len(pair) == 2 and all(s in playable for s in pair):
            first, second = (set(segments[s]["pegs"]) for s in pair)
            outer = set(_triangle_lines(sorted(first))) | set(_triangle_lines(sorted(second)))
            band = _band(RHOMBUS, first | second, outer - {key}, tuple(sorted(pair)))
            bands[band.key] = band


def _add_barriers(bands: dict[str, Band], printed: set[str], adjacent: set[str]) -> None:
    neighbours: dict[str, set[str]] = {}
    for key in printed:
        a, b = key.split("-")
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    for mid, around in neighbours.items():
        for a in around:
            for c in around:
                if a < c and line_key(a, c) not in adjacent:
                    band = _band(BARRIER, {a, mid, c}, {line_key(a, mid), line_key(mid, c)}, (), (), middle=mid)
                    bands[band.key] = band


def _bands(face: dict[str, Any], lattice: dict[str, Any], printed: set[str], segments: dict[str, dict[str, Any]],
           playable: frozenset[str], by_line: dict[str, list[str]]) -> dict[str, Band]:
    """Every band of the face's sizes: lines, triangles, rhombi, and long barriers where the face
    allows them."""
    sizes = set(face["band_sizes"])
    bands: dict[str, Band] = {}
    if 2 in sizes:
        for key in printed:
            a, b = key.split("-")
            band = _band(LINE, {a, b}, {key}, (), (key,))
            bands[band.key] = band
    if 3 in sizes:
        for seg_id in playable:
            seg_pegs = segments[seg_id]["pegs"]
            band = _band(TRIANGLE, set(seg_pegs), set(_triangle_lines(seg_pegs)), (seg_id,))
            bands[band.key] = band
    if 4 in sizes:
        _add_rhombi(bands, by_line, segments, playable)
    if face["rules"].get("long_barrier"):
        _add_barriers(bands, printed, {line_key(a, b) for a, b in lattice["lines"]})
    return bands


def _triangle_neighbours(lattice: dict[str, Any], by_line: dict[str, list[str]]
                         ) -> tuple[dict[str, tuple[tuple[str, str | None], ...]], list[tuple[str, tuple[str, ...]]]]:
    """Each triangle's sides with the triangle across each (None: none), and the triangles with
    sides on the border."""
    border = set(line_key(a, b) for a, b in lattice["border_lines"])
    triangle_sides: dict[str, tuple[tuple[str, str | None], ...]] = {}
    border_triangles: list[tuple[str, tuple[str, ...]]] = []
    for seg_id, seg in lattice["segments"].items():
        sides = []
        for key in _triangle_lines(seg):
            across = [s for s in by_line[key] if s != seg_id]
            sides.append((key, across[0] if across else None))
        triangle_sides[seg_id] = tuple(sides)
        on_border = tuple(key for key, across in sides if across is None and key in border)
        if on_border:
            border_triangles.append((seg_id, on_border))
    return triangle_sides, border_triangles


@cache
def board(scenario: str, players: int) -> Board:
    data = raw_boards()
    face = data["scenarios"][scenario]
    lattice = data["lattice"]
    unplayable = set(face["unplayable_pegs"])
    pegs = tuple(p for p in data["pegs"] if p not in unplayable)
    printed = {line_key(a, b) for a, b in face["lines"] if a not in unplayable and b not in unplayable}
    images, segments = _face_segments(face, players)
    playable = frozenset(s for s, seg in segments.items() if seg["playable"])
    by_line = _segments_by_line(lattice)
    bands = _bands(face, lattice, printed, segments, playable, by_line)
    bands_by_peg: dict[str, list[Band]] = {p: [] for p in pegs}
    for band in sorted(bands.values(), key=lambda b: b.key):
        for peg in band.pegs:
            bands_by_peg[peg].append(band)
    triangle_sides, border_triangles = _triangle_neighbours(lattice, by_line)

    start = face["start_pegs"]
    start_pegs = ({side: tuple(p) for side, p in start.items()} if isinstance(start, dict)
                  else {"*": tuple(start)})
    return Board(
        scenario=scenario,
        players=players,
        rules=face["rules"],
        colours=dict(face["peg_colours"]),
        pegs=pegs,
        segments=segments,
        playable=playable,
        bands=bands,
        bands_by_peg={p: tuple(b) for p, b in bands_by_peg.items()},
        triangle_sides=triangle_sides,
        border_triangles=tuple(border_triangles),
        start_rule=face["start_rule"],
        start_pegs=start_pegs,
        sides=tuple(data["seats"][str(players)]),
        edge_pegs={side: frozenset(p) for side, p in data["edge_pegs"].items()},
        opposite=dict(data["opposite_side"]),
        band_sizes=tuple(sorted({len(band.pegs) for band in bands.values()})),
        line_items=_line_items(face),
        images=images,
    )


def _line_items(face: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Items printed on lines: the Labyrinth's treasures and artefacts, the Archipelago's bridges."""
    items = {line_key(*key.split("-")): dict(item) for key, item in face.get("line_items", {}).items()}
    for bridge in face.get("bridges", []):
        items[line_key(*bridge["line"])] = {"treasure": 0, "energy": bridge["energy"], "bridge": True}
    return items


def enclosed_segments(b: Board, walls: set[str] | frozenset[str]) -> set[str]:
    """Triangles that one player's walls cut off from the board's outside.

    A flood fill from every triangle with a border side that is not walled (the board edge is
    no wall); whatever the fill cannot reach is enclosed.  Other players' bands are ignored.
    """
    if not walls:
        return set()
    reached: set[str] = set()
    frontier: list[str] = []
    for seg_id, border_lines in b.border_triangles:
        if any(key not in walls for key in border_lines):
            reached.add(seg_id)
            frontier.append(seg_id)
    while frontier:
        seg_id = frontier.pop()
        for key, across in b.triangle_sides[seg_id]:
            if across is not None and across not in reached and key not in walls:
                reached.add(across)
                frontier.append(across)
    return set(b.triangle_sides) - reached


def faces(b: Board, region: set[str], walls: set[str] | frozenset[str]) -> list[set[str]]:
    """Split ``region`` into its pieces separated by ``walls`` (sites, territories)."""
    left = set(region)
    pieces: list[set[str]] = []
    while left:
        seed = left.pop()
        piece = {seed}
        frontier = [seed]
        while frontier:
            seg_id = frontier.pop()
            for key, across in b.triangle_sides[seg_id]:
                if across in left and key not in walls:
                    left.discard(across)
                    piece.add(across)
                    frontier.append(across)
        pieces.append(piece)
    return pieces
