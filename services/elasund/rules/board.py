"""Static components: the board geometry and the component catalogue, loaded from JSON.

Coordinates: ``col`` 0.. from the sea eastwards; ``row`` is the *printed* row label
(2, 3, 4, 5, 6, 8, 9, 10, 11, 12: there is no row 7).  Internally geometry works on the row
*index* 0..9 so that rows 6 and 8 are neighbours.  Buildings are never rotated: ``w`` columns by
``h`` rows, anchored at their north-west square.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).parent
BOARD: dict[str, Any] = json.loads((_HERE / "board.json").read_text())
COMPONENTS: dict[str, Any] = json.loads((_HERE / "components.json").read_text())

ROWS: list[int] = BOARD["rows"]
ROW_INDEX: dict[int, int] = {row: i for i, row in enumerate(ROWS)}
SEAT_COLOURS: list[str] = BOARD["seat_colours"]
INFLUENCE_COLOURS: list[str] = list(COMPONENTS["cards"]["influence"])
BUILDINGS: dict[str, dict[str, Any]] = COMPONENTS["buildings"]
STARTERS = [kind for kind, spec in BUILDINGS.items() if spec["starter"]]
PLAYER_BUILDINGS = [k for k, s in BUILDINGS.items() if s["owner"] == "player" and not s["starter"]]
NEUTRAL_BUILDINGS = [k for k, s in BUILDINGS.items() if s["owner"] == "neutral"]
WALL_TILES: list[dict[str, Any]] = COMPONENTS["wall_tiles"]
CHURCH_COST: int = COMPONENTS["church"]["cost"]
CHURCH_TILES: int = COMPONENTS["church"]["tiles"]
GOLD_CARDS: int = COMPONENTS["cards"]["gold"]
PERMIT_VALUES: list[int] = COMPONENTS["permit_values"]
CUBES_PER_PLAYER: int = COMPONENTS["cubes_per_player"]
TRACK_MAX: int = COMPONENTS["trade_track"]["max"]
# Trade-track space -> number of cube boxes printed beside it.
VP_SPACES: dict[int, int] = {int(k): v for k, v in COMPONENTS["trade_track"]["vp_spaces"].items()}
FOUNDATION: tuple[int, int] = (BOARD["church_foundation"][0], BOARD["church_foundation"][1])

Square = tuple[int, int]  # (col, row label)


def key(col: int, row: int) -> str:
    """JSON-safe dict key for a square."""
    return f"{col},{row}"


def unkey(text: str) -> Square:
    col, row = text.split(",")
    return int(col), int(row)


def columns(players: int) -> int:
    """Number of building columns (0..2n)."""
    return BOARD["building_columns"][str(players)]


@cache
def city_squares(players: int) -> tuple[Square, ...]:
    return tuple((col, row) for row in ROWS for col in range(columns(players)))


def in_city(players: int, col: int, row: int) -> bool:
    return 0 <= col < columns(players) and row in ROW_INDEX


@cache
def footprint(kind: str, col: int, row: int) -> tuple[Square, ...] | None:
    """Squares a building of ``kind`` covers with its north-west corner at (col, row); None if
    it would run off the bottom of the row track.  Cached: legal-move listing asks it a lot."""
    spec = BUILDINGS[kind]
    top = ROW_INDEX.get(row)
    if top is None or top + spec["h"] > len(ROWS):
        return None
    return tuple((col + dx, ROWS[top + dy]) for dy in range(spec["h"]) for dx in range(spec["w"]))


def size(kind: str) -> int:
    spec = BUILDINGS[kind]
    return spec["w"] * spec["h"]


def shift_row(row: int, steps: int) -> int | None:
    """The row ``steps`` positions down (negative: up) the ship track, or None off the board."""
    index = ROW_INDEX[row] + steps
    return ROWS[index] if 0 <= index < len(ROWS) else None


@cache
def trade_fields(players: int) -> dict[Square, int]:
    """Windmill squares active for this player count -> trade points."""
    return {(t["col"], t["row"]): t["points"] for t in BOARD["trade_fields"] if players in t["players"]}


@cache
def wall_spaces(players: int) -> dict[str, dict[str, Any]]:
    return {space["id"]: space for space in BOARD["wall_spaces"][str(players)]}


def starter_square(seat: int, kind: str) -> Square:
    col, row = BOARD["starter_squares"][SEAT_COLOURS[seat]][kind]
    return col, row


def church_square(origin: Square, tile: int) -> Square:
    """Where church tile ``tile`` (1..9, row-major in the 3x3) goes once the area is fixed."""
    col, row = origin
    dx, dy = (tile - 1) % 3, (tile - 1) // 3
    return col + dx, ROWS[ROW_INDEX[row] + dy]


def church_origin(first_tile: int) -> Square:
    """North-west square of the 3x3 church when ``first_tile`` lies on the foundation."""
    dx, dy = (first_tile - 1) % 3, (first_tile - 1) // 3
    return FOUNDATION[0] - dx, ROWS[ROW_INDEX[FOUNDATION[1]] - dy]
