"""``evolve``: folds one event into the state.

Every handler only records what the event says (all choices and random outcomes were made by
``decide``), so replay never draws randomness and never fails.
"""
from __future__ import annotations

import copy
from typing import Any
from collections.abc import Callable

from services.elasund.rules import board
from services.elasund.rules.board import key
from services.elasund.rules.state import State, new_state

Handler = Callable[[State, dict[str, Any]], None]
_HANDLERS: dict[str, Handler] = {}


def handles(event_type: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _HANDLERS[event_type] = fn
        return fn
    return register


def evolve(state: State | None, event: dict[str, Any]) -> State:
    data = event["data"]
    if event["type"] == "game_started":
        return new_state(data["players"], data["options"], data["first_player"])
    assert state is not None
    handler = _HANDLERS.get(event["type"])
    if handler is not None:
        handler(state, data)
    return state


def _add_counts(target: dict[str, int], counts: dict[str, int], sign: int = 1) -> None:
    for colour, n in counts.items():
        target[colour] = target.get(colour, 0) + sign * n


def colour_counts(colours: list[str]) -> dict[str, int]:
    counts = {c: 0 for c in board.INFLUENCE_COLOURS}
    for colour in colours:
        counts[colour] += 1
    return counts


# -- turn flow -------------------------------------------------------------------------------------
@handles("influence_deck_formed")
def _deck(state: State, data: dict[str, Any]) -> None:
    state["influence_deck"] = dict(data["counts"])


@handles("turn_started")
def _turn(state: State, data: dict[str, Any]) -> None:
    state["current"] = data["seat"]
    state["turn"] = data["turn"]
    state["phase"] = "roll"
    state["pending"] = {}
    state["builds"] = 0
    state["dice"] = None
    state["pirates"] = False


@handles("phase_entered")
def _phase(state: State, data: dict[str, Any]) -> None:
    state["phase"] = data["phase"]
    # Deep copy: the pending data is mutated later (discard pool) and must not alias the event.
    state["pending"] = copy.deepcopy(data.get("pending", {}))


@handles("dice_rolled")
def _dice(state: State, data: dict[str, Any]) -> None:
    state["dice"] = list(data["dice"])


@handles("ship_moved")
def _ship(state: State, data: dict[str, Any]) -> None:
    state["ship"] = data["row"]
    state["pirates"] = data["pirates"]


@handles("game_won")
def _won(state: State, data: dict[str, Any]) -> None:
    state["winner"] = data["seat"]
    state["phase"] = "over"
    state["pending"] = {}


# -- cards -------------------------------------------------------------------------------------------
@handles("cards_drawn")
def _drawn(state: State, data: dict[str, Any]) -> None:
    hand = state["hands"][data["seat"]]
    hand["gold"] += data["gold"]
    drawn = colour_counts(data["influence"])
    _add_counts(hand["influence"], drawn)
    _add_counts(state["influence_deck"], drawn, -1)


@handles("influence_reshuffled")
def _reshuffled(state: State, data: dict[str, Any]) -> None:
    _add_counts(state["influence_deck"], state["influence_discard"])
    state["influence_discard"] = {c: 0 for c in board.INFLUENCE_COLOURS}


@handles("cards_discarded")
def _discarded(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    hand = state["hands"][seat]
    hand["gold"] -= data["gold"]
    _add_counts(hand["influence"], data["influence"], -1)
    pending = state["pending"]
    pending.get("owed", {}).pop(str(seat), None)
    if "pool" in pending:
        # Pirate discards wait in a pool the roller loots from; the rest settles afterwards.
        pending["pool"]["gold"] += data["gold"]
        _add_counts(pending["pool"]["influence"], data["influence"])
    else:
        _add_counts(state["influence_discard"], data["influence"])


@handles("loot_taken")
def _loot(state: State, data: dict[str, Any]) -> None:
    pool = state["pending"]["pool"]
    hand = state["hands"][data["seat"]]
    pool["gold"] -= data["gold"]
    hand["gold"] += data["gold"]
    _add_counts(pool["influence"], data["influence"], -1)
    _add_counts(hand["influence"], data["influence"])


@handles("pool_settled")
def _settled(state: State, data: dict[str, Any]) -> None:
    pool = state["pending"].pop("pool", None)
    if pool:
        _add_counts(state["influence_discard"], pool["influence"])


@handles("gold_paid")
def _gold_paid(state: State, data: dict[str, Any]) -> None:
    state["hands"][data["seat"]]["gold"] -= data["amount"]
    if data["to"] is not None:
        state["hands"][data["to"]]["gold"] += data["amount"]


@handles("influence_paid")
def _influence_paid(state: State, data: dict[str, Any]) -> None:
    _add_counts(state["hands"][data["seat"]]["influence"], data["colours"], -1)
    _add_counts(state["influence_discard"], data["colours"])


# -- permits -----------------------------------------------------------------------------------------
@handles("permit_placed")
def _permit_placed(state: State, data: dict[str, Any]) -> None:
    state["supply"][data["seat"]]["permits"].remove(data["value"])
    state["permits"][key(data["col"], data["row"])] = [data["seat"], data["value"]]


@handles("permits_returned")
def _permits_returned(state: State, data: dict[str, Any]) -> None:
    for col, row in data["squares"]:
        seat, value = state["permits"].pop(key(col, row))
        state["supply"][seat]["permits"].append(value)
        state["supply"][seat]["permits"].sort()


@handles("permit_moved")
def _permit_moved(state: State, data: dict[str, Any]) -> None:
    permit = state["permits"].pop(key(*data["from"]))
    state["permits"][key(*data["to"])] = permit


@handles("permit_upgraded")
def _permit_upgraded(state: State, data: dict[str, Any]) -> None:
    square = key(data["col"], data["row"])
    seat, old = state["permits"][square]
    permits = state["supply"][seat]["permits"]
    permits.remove(data["value"])
    permits.append(old)
    permits.sort()
    state["permits"][square] = [seat, data["value"]]


def _count_build(state: State, data: dict[str, Any]) -> None:
    """Phase-2 builds carry their number (1 or 2); starters and rebuilt huts are not builds."""
    if data.get("build_number"):
        state["builds"] = data["build_number"]


# -- buildings ---------------------------------------------------------------------------------------
@handles("building_built")
def _built(state: State, data: dict[str, Any]) -> None:
    kind, seat = data["kind"], data["seat"]
    spec = board.BUILDINGS[kind]
    if spec["owner"] == "neutral":
        state["stock"][kind] -= 1
    elif not spec["starter"]:
        state["supply"][seat]["buildings"].remove(kind)
    state["buildings"].append({"id": data["id"], "kind": kind, "seat": seat, "col": data["col"],
                               "row": data["row"], "cubes": list(data["cubes"]),
                               "trade_points": data["trade_points"]})
    state["next_building_id"] = max(state["next_building_id"], data["id"] + 1)
    _count_build(state, data)


@handles("building_removed")
def _removed(state: State, data: dict[str, Any]) -> None:
    building = next(b for b in state["buildings"] if b["id"] == data["id"])
    state["buildings"].remove(building)
    spec = board.BUILDINGS[building["kind"]]
    if spec["owner"] == "neutral":
        state["stock"][building["kind"]] += 1
    elif not spec["starter"]:
        state["supply"][building["seat"]]["buildings"].append(building["kind"])
    # A displaced starter hut waits in the rebuild queue (see ``phase_entered``) or is lost.


@handles("trade_moved")
def _trade(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    # The disk never passes the track's last space; logs of engine 1 recorded totals beyond it.
    state["trade"][seat] = min(data["total"], board.TRACK_MAX)
    for space in data["removed"]:
        state["track_cubes"][str(space)].remove(seat)
    for space in data["placed"]:
        state["track_cubes"][str(space)].append(seat)


@handles("wall_built")
def _wall(state: State, data: dict[str, Any]) -> None:
    state["walls"][data["space"]] = {"seat": data["seat"], "tile": data["tile"], "tower": data["tower"]}
    state["supply"][data["seat"]]["walls_built"] += 1
    _count_build(state, data)


# -- church --------------------------------------------------------------------------------------------
@handles("church_drawn")
def _church_drawn(state: State, data: dict[str, Any]) -> None:
    church = state["church"]
    for tile in data["tiles"]:
        church["pool"].remove(tile)
    church["drawn"] = list(data["tiles"])


@handles("church_tile_placed")
def _church_placed(state: State, data: dict[str, Any]) -> None:
    church = state["church"]
    tile = data["tile"]
    if church["drawn"]:
        church["drawn"].remove(tile)
    else:
        church["pool"].remove(tile)
        if church["bottom"] == tile:
            church["bottom"] = None
    if church["origin"] is None:
        church["origin"] = list(board.church_origin(tile))
    church["tiles"][key(data["col"], data["row"])] = {"tile": tile, "seat": data["seat"]}
    _count_build(state, data)


@handles("church_tile_bottomed")
def _church_bottomed(state: State, data: dict[str, Any]) -> None:
    church = state["church"]
    tile = church["drawn"].pop()
    church["pool"].append(tile)
    church["bottom"] = tile
    church["bottom_seat"] = data["seat"]
    church["drawn"] = None


@handles("hut_lost")
def _hut_lost(state: State, data: dict[str, Any]) -> None:
    pass  # the hut leaves the game; nothing on the board changes
