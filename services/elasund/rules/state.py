"""The state's shape and the read-only questions every other module asks of it.

The state is a JSON-compatible dict (see :func:`new_state`).  Nothing here mutates it.
"""
from __future__ import annotations

from typing import Any

from services.elasund.rules import board
from services.elasund.rules.board import Square, key

State = dict[str, Any]

# Phases of a turn.  The first four are the rule book's phases; the others are pauses in which
# a decision (possibly by another seat) is needed before the turn resumes.
ROLL = "roll"
SHIP_CHOICE = "ship_choice"          # rolled the ship's own number: 2 rows up or down
PIRATE_ROW = "pirate_row"            # rolled a 7: send the pirates to another row
DISCARD = "discard"                  # pirates or a card shortage: owing seats discard
BUILD = "build"
CHURCH_CHOICE = "church_choice"      # the first church builder keeps one of two tiles
HUT_REBUILD = "hut_rebuild"          # displaced starter huts are rebuilt before the turn goes on
PERMIT = "permit"
SPECIAL = "special"
OVER = "over"


def new_state(players: int, options: dict[str, Any], first_player: int) -> State:
    """The state right after ``game_started``: an empty city before starters and hands."""
    return {
        "players": players,
        "options": dict(options),
        "current": first_player,
        "turn": 0,
        "phase": ROLL,
        "ship": None,                 # row label; None until the first roll
        "pirates": False,
        "dice": None,
        "builds": 0,                  # builds made this turn (at most two)
        "pending": {},                # data of the current pause (choices, owed discards, queue)
        "hands": [{"gold": 0, "influence": {c: 0 for c in board.INFLUENCE_COLOURS}} for _ in range(players)],
        "supply": [{"permits": list(board.PERMIT_VALUES), "buildings": list(board.PLAYER_BUILDINGS),
                    "walls_built": 0} for _ in range(players)],
        "stock": {kind: board.BUILDINGS[kind]["count"] for kind in board.NEUTRAL_BUILDINGS},
        "buildings": [],
        "next_building_id": 1,
        "permits": {},                # "col,row" -> [seat, value]
        "walls": {},                  # wall space id -> {"seat", "tile", "tower"}
        "church": {"pool": list(range(1, board.CHURCH_TILES + 1)), "bottom": None, "bottom_seat": None,
                   "origin": None, "tiles": {}, "drawn": None},
        "trade": [0] * players,       # the disk on the trade track, 0..11 (it stops at 11)
        "track_cubes": {str(space): [] for space in board.VP_SPACES},
        "influence_deck": {c: 0 for c in board.INFLUENCE_COLOURS},
        "influence_discard": {c: 0 for c in board.INFLUENCE_COLOURS},
        "winner": None,
    }


# -- cards ------------------------------------------------------------------------------------
def influence_total(counts: dict[str, int]) -> int:
    return sum(counts.values())


def hand_size(state: State, seat: int) -> int:
    hand = state["hands"][seat]
    return hand["gold"] + influence_total(hand["influence"])


def gold_in_bank(state: State) -> int:
    held = sum(hand["gold"] for hand in state["hands"])
    pool = state["pending"].get("pool", {}).get("gold", 0)
    return board.GOLD_CARDS - held - pool


def influence_available(state: State) -> int:
    """Influence cards the bank can hand out: the deck plus the discard pile reshuffled."""
    return influence_total(state["influence_deck"]) + influence_total(state["influence_discard"])


# -- the city ---------------------------------------------------------------------------------
def building_squares(building: dict[str, Any]) -> tuple[Square, ...]:
    return board.footprint(building["kind"], building["col"], building["row"]) or ()


def occupancy(state: State) -> dict[Square, int]:
    """Square -> id of the building on it."""
    cells: dict[Square, int] = {}
    for building in state["buildings"]:
        for square in building_squares(building):
            cells[square] = building["id"]
    return cells


def church_squares(state: State) -> set[Square]:
    return {board.unkey(k) for k in state["church"]["tiles"]}


def is_blocked_for_building(state: State, square: Square) -> bool:
    """Squares no building may cover: the church foundation and church tiles."""
    return square == board.FOUNDATION or key(*square) in state["church"]["tiles"]


def empty_squares(state: State) -> list[Square]:
    """Squares with no building, church tile or permit (the foundation is never empty)."""
    taken = occupancy(state)
    return [sq for sq in board.city_squares(state["players"])
            if sq not in taken and not is_blocked_for_building(state, sq) and key(*sq) not in state["permits"]]


def find_building(state: State, building_id: int) -> dict[str, Any]:
    return next(b for b in state["buildings"] if b["id"] == building_id)


# -- victory cubes ----------------------------------------------------------------------------
def cubes_on_board(state: State, seat: int) -> int:
    on_buildings = sum(len(b["cubes"]) for b in state["buildings"] if b["seat"] == seat)
    on_church = sum(1 for tile in state["church"]["tiles"].values() if tile["seat"] == seat)
    on_walls = sum(1 for wall in state["walls"].values() if wall["seat"] == seat and wall["tower"])
    on_track = sum(seats.count(seat) for seats in state["track_cubes"].values())
    return on_buildings + on_church + on_walls + on_track


def cubes_left(state: State, seat: int) -> int:
    return board.CUBES_PER_PLAYER - cubes_on_board(state, seat)


def cubes_in_row(state: State, seat: int, row: int) -> int:
    """The seat's victory cubes standing in ``row`` (what pirates there cost it)."""
    count = sum(b["cubes"].count(row) for b in state["buildings"] if b["seat"] == seat)
    count += sum(1 for k, tile in state["church"]["tiles"].items() if tile["seat"] == seat and board.unkey(k)[1] == row)
    spaces = board.wall_spaces(state["players"])
    count += sum(1 for space, wall in state["walls"].items()
                 if wall["seat"] == seat and wall["tower"] and spaces[space]["row"] == row)
    return count


def towers(state: State, seat: int) -> int:
    return sum(1 for wall in state["walls"].values() if wall["seat"] == seat and wall["tower"])


def next_seat(state: State, seat: int) -> int:
    return (seat + 1) % state["players"]


def clockwise_from(state: State, seat: int) -> list[int]:
    return [(seat + i) % state["players"] for i in range(state["players"])]


def to_act(state: State) -> list[int]:
    if state["winner"] is not None:
        return []
    if state["phase"] == DISCARD:
        return sorted(int(seat) for seat in state["pending"]["owed"])
    if state["phase"] == HUT_REBUILD:
        return [state["pending"]["queue"][0]["seat"]]
    return [state["current"]]
