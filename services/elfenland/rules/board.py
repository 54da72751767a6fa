"""The Elfenland map: towns, the 48 road segments, adjacency and road distances.

Loaded once from ``board.json``.  Roads are identified by their integer id (the map is a
multigraph: a pair of towns does not identify a segment).
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path

LAND_TERRAINS = ("plain", "forest", "mountain", "desert")
WATER_TERRAINS = ("river", "lake")


@dataclass(frozen=True)
class Road:
    id: int
    a: str
    b: str
    terrain: str
    flows_to: str | None      # rivers only: the downstream town
    lake: str | None          # lakes only: "mare_nebulae" or "mare_magnum"

    @property
    def is_land(self) -> bool:
        return self.terrain in LAND_TERRAINS

    def other_end(self, town: str) -> str:
        return self.b if town == self.a else self.a

    def touches(self, town: str) -> bool:
        return town in (self.a, self.b)


_DATA = json.loads((Path(__file__).with_name("board.json")).read_text(encoding="utf-8"))

START_TOWN: str = _DATA["start_town"]
TOWNS: list[str] = [t["name"] for t in _DATA["towns"]]
# The 20 towns holding a marker: Elvenhold, the capital, holds none.
MARKER_TOWNS: list[str] = [t for t in TOWNS if t != START_TOWN]
GOLD_VALUES: dict[str, int] = {t["name"]: t["gold_value"] for t in _DATA["towns"]}
TOWN_ALIASES: dict[str, str] = _DATA["aliases"]
HOME_TOWN_CARDS: list[str] = _DATA["home_town_cards"]
ROADS: list[Road] = [Road(**r) for r in _DATA["roads"]]
ROADS_AT: dict[str, list[Road]] = {t: [r for r in ROADS if r.touches(t)] for t in TOWNS}


def canonical_town(name: str) -> str | None:
    """The board's spelling of a town (accepting the aliases seen in the rules texts), or None."""
    name = TOWN_ALIASES.get(name, name)
    return name if name in GOLD_VALUES else None


def _distances_from(start: str) -> dict[str, int]:
    """Breadth-first search: the home-town rule counts roads, whatever their terrain."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        town = queue.popleft()
        for road in ROADS_AT[town]:
            nxt = road.other_end(town)
            if nxt not in dist:
                dist[nxt] = dist[town] + 1
                queue.append(nxt)
    return dist


DISTANCES: dict[str, dict[str, int]] = {t: _distances_from(t) for t in TOWNS}
