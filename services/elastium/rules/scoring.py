"""What a band earns, scenario by scenario, and the final count.

``band_outcome`` answers "what happens if ``seat`` places ``band`` now" without touching the
state; ``decide`` turns the answer into events and the greedy bot ranks moves with it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from services.elastium.rules.board import Band, Board, enclosed_segments, faces
from services.elastium.rules.state import ENERGY_PER_POINT, State, board_of

ARTEFACTS = ("épée", "casque", "bouclier")


@dataclass
class Outcome:
    explored: list[str]
    enclosed: list[str]                       # newly enclosed segments
    items: list[str] = field(default_factory=list)    # segments/lines collected now
    treasure: int = 0
    energy: int = 0
    artefacts: list[str] = field(default_factory=list)
    bonus_cards: int = 0
    points: list[dict[str, Any]] = field(default_factory=list)   # points_scored data, in order
    images_completed: list[str] = field(default_factory=list)
    chain: list[str] | None = None
    chain_heads: list[str] | None = None

    def total_points(self) -> int:
        return self.treasure + sum(p["points"] for p in self.points)


def band_outcome(state: State, seat: int, band: Band) -> Outcome:
    b = board_of(state)
    explored = list(band.explores)
    enclosed: list[str] = []
    walls_after = set(state["walls"][seat]) | band.walls
    if b.rules.get("enclosures", True) and closes_a_loop(state["walls"][seat], band):
        before = set(state["enclosed"][seat])
        # a band always surrounds what it explores: report only what it closes beyond that
        enclosed = sorted(enclosed_segments(b, walls_after) - before - set(band.explores))
    out = Outcome(explored=explored, enclosed=enclosed)
    _collect(state, seat, b, band, out)
    score = state["score"][seat] + out.treasure
    if b.scenario == "jungle-temples":
        score += _opposite_edge(state, seat, b, band, out)
    elif b.scenario == "engraved-plateau":
        score += _images(state, seat, b, out)
        _empty_segments(state, seat, b, out, score)
    elif b.scenario == "fragile-ruins":
        _sites(state, seat, b, walls_after, out)
    elif b.scenario == "labyrinth":
        _chain(state, seat, b, band, out, score)
    return out


def closes_a_loop(walls: list[str], band: Band) -> bool:
    """Whether the band adds walls that join two pegs already linked by the player's walls.

    Only such a band can close anything beyond what it explores itself, so the flood fill is
    skipped for every other band (most of them).
    """
    if band.walls <= set(walls):
        return False
    component = _wall_components(tuple(walls))
    roots = [component[peg] for peg in band.pegs if peg in component]
    return len(roots) != len(set(roots))


@lru_cache(maxsize=256)
def _wall_components(walls: tuple[str, ...]) -> dict[str, str]:
    """peg -> a representative of its connected piece of the wall network."""
    parent: dict[str, str] = {}

    def root(peg: str) -> str:
        while parent[peg] != peg:
            parent[peg] = parent[parent[peg]]
            peg = parent[peg]
        return peg

    for key in walls:
        a, c = key.split("-")
        parent.setdefault(a, a)
        parent.setdefault(c, c)
        parent[root(a)] = root(c)
    return {peg: root(peg) for peg in parent}


def _collect(state: State, seat: int, b: Board, band: Band, out: Outcome) -> None:
    collected = state["collected"]
    for seg in [*out.explored, *out.enclosed]:
        if seg in collected or seg in out.items:
            continue
        out.items.append(seg)
        item = b.segments[seg]
        out.treasure += item["treasure"] + (1 if "image" in item else 0)
        out.energy += item["energy"]
    for key in band.lines:
        line_item = b.line_items.get(key)
        if line_item and key not in collected:
            out.items.append(key)
            out.treasure += line_item.get("treasure", 0)
            out.energy += line_item.get("energy", 0)
            if line_item.get("artefact"):
                out.artefacts.append(line_item["artefact"])
    out.energy = min(out.energy, state["energy_supply"])
    if out.artefacts:
        # a bonus card per artefact, as long as there is a card left to take
        reachable = len(state["market"]) + len(state["deck"]) + len(state["discard"])
        out.bonus_cards = min(len(out.artefacts), reachable)


def _opposite_edge(state: State, seat: int, b: Board, band: Band, out: Outcome) -> int:
    """Jungle Temples: the first to reach the side opposite their own gets 8, the second 6."""
    bonuses = b.rules["opposite_side_bonus"]
    reached = state["edge_reached"]
    if seat in reached or len(reached) >= len(bonuses):
        return 0
    target = b.edge_pegs[b.opposite[b.sides[seat]]]
    if not any(peg in target for peg in band.pegs):
        return 0
    points = bonuses[len(reached)]
    out.points.append({"seat": seat, "points": points, "reason": "opposite-edge"})
    return points


def _images(state: State, seat: int, b: Board, out: Outcome) -> int:
    """Engraved Plateau: an image is complete once every segment of it is explored."""
    explored = dict(state["explored"])
    for seg in out.explored:
        explored.setdefault(seg, seat)
    gained = 0
    for name, image in b.images.items():
        if name in state["images_completed"] or not any(s in image["segments"] for s in out.explored):
            continue
        if not all(s in explored for s in image["segments"]):
            continue
        out.images_completed.append(name)
        out.points.append({"seat": seat, "points": b.rules["final_segment_bonus"],
                           "reason": "final-image-segment", "image": name})
        gained += b.rules["final_segment_bonus"]
        counts = [sum(1 for s in image["segments"] if explored[s] == p) for p in range(state["players"])]
        bonus = b.rules["image_majority_bonus_by_size"][str(image["size"])]
        for player, count in enumerate(counts):
            if count == max(counts):
                out.points.append({"seat": player, "points": bonus, "reason": "image-majority",
                                   "image": name})
                if player == seat:
                    gained += bonus
    return gained


def _empty_segments(state: State, seat: int, b: Board, out: Outcome, score: int) -> None:
    """Engraved Plateau: -3 per empty segment explored or enclosed, once per segment and player."""
    charged = set(state["penalised"][seat])
    empty = sorted({s for s in [*out.explored, *out.enclosed]
                    if s not in charged and "image" not in b.segments[s] and b.segments[s]["playable"]})
    if empty:
        loss = min(score, b.rules["empty_segment_penalty"] * len(empty))
        out.points.append({"seat": seat, "points": -loss, "reason": "empty-segment", "segments": empty})


def _sites(state: State, seat: int, b: Board, walls: set[str], out: Outcome) -> None:
    """Fragile Ruins: a newly enclosed piece keeping 4+ unexplored segments pays 1 VP each."""
    explored = set(state["explored"]) | set(out.explored)
    for piece in faces(b, set(out.enclosed), walls):
        site = sorted(s for s in piece if s not in explored and b.segments[s]["playable"])
        if len(site) >= b.rules["site_min_segments"]:
            out.points.append({"seat": seat, "points": b.rules["site_bonus_per_segment"] * len(site),
                               "reason": "excavation-site", "segments": site})


def _chain(state: State, seat: int, b: Board, band: Band, out: Outcome, score: int) -> None:
    """Labyrinth: the chain grows from its head; reaching one's own chain again costs 5."""
    chain = list(state["chains"][seat])
    heads = state["chain_heads"][seat]
    if not chain:
        starts = set(b.start_pegs_for(seat))
        first, second = band.pegs
        if first in starts and second in starts:
            out.chain, out.chain_heads = [first, second], [first, second]   # direction chosen later
        else:
            tail = first if first in starts else second
            head = second if tail == first else first
            out.chain, out.chain_heads = [tail, head], [head]
        return
    head = next(p for p in band.pegs if p in heads)
    new = band.pegs[0] if band.pegs[1] == head else band.pegs[1]
    if chain[0] == head:          # the first band's direction is chosen now, for good
        chain.reverse()
    if new in chain:
        penalty = b.rules["self_cross_penalty"]
        out.points.append({"seat": seat, "points": -min(score, penalty), "reason": "own-chain-crossed"})
    out.chain, out.chain_heads = [*chain, new], [new]


# -- end of the game --------------------------------------------------------------------------

def final_breakdown(state: State) -> list[dict[str, Any]]:
    b = board_of(state)
    rows = []
    for seat in range(state["players"]):
        row: dict[str, Any] = {"seat": seat, "score": state["score"][seat]}
        energy = state["energy"][seat]
        if b.scenario == "volcano":
            row["escaped"] = energy >= b.rules["min_energy_at_end"]
            energy = energy - b.rules["min_energy_at_end"] if row["escaped"] else 0
        row["energy_points"] = energy // ENERGY_PER_POINT
        if b.scenario == "cursed-triangle":
            row["territories"] = territories(state, seat)
            row["territory_points"] = row["territories"] * b.rules["territory_bonus"]
        if b.scenario == "labyrinth":
            owned = state["artefacts"][seat]
            row["artefact_sets"] = min(owned.get(a, 0) for a in ARTEFACTS)
            row["artefact_points"] = row["artefact_sets"] * b.rules["artefact_set_bonus"]
        rows.append(row)
    if b.scenario == "two-deities":
        for seat, points in idol_majorities(state).items():
            rows[seat]["idol_points"] = points
    for row in rows:
        row["total"] = (row["score"] + row["energy_points"] + row.get("territory_points", 0)
                        + row.get("artefact_points", 0) + row.get("idol_points", 0))
    return rows


def winners(state: State, rows: list[dict[str, Any]]) -> list[int]:
    """Most points; ties go to fewer bands used, then the tied players share the win."""
    alive = [r for r in rows if r.get("escaped", True)]
    if not alive:
        return []      # Volcano: nobody escaped, so nobody wins
    best = max(r["total"] for r in alive)
    tied = [r["seat"] for r in alive if r["total"] == best]
    fewest = min(state["bands_used"][s] for s in tied)
    return [s for s in tied if state["bands_used"][s] == fewest]


def idol_majorities(state: State) -> dict[int, int]:
    """Two Deities: +6 per idol type to the player controlling most, split and rounded up."""
    b = board_of(state)
    points: dict[int, int] = {}
    for kind in ("orange", "blue"):
        counts = [0] * state["players"]
        for seg, seat in state["collected"].items():
            if b.segments.get(seg, {}).get("idol") == kind:
                counts[seat] += 1
        best = max(counts)
        if best == 0:
            continue
        holders = [s for s, c in enumerate(counts) if c == best]
        share = math.ceil(b.rules["idol_majority_bonus"] / len(holders))
        for seat in holders:
            points[seat] = points.get(seat, 0) + share
    return points


def territories(state: State, seat: int) -> int:
    """Cursed Triangle: explored sections and enclosed pieces, merged when they share a peg."""
    b = board_of(state)
    groups: list[set[str]] = [set(b.bands[band["key"]].pegs) for band in state["bands"]
                              if band["seat"] == seat and b.bands[band["key"]].explores]
    for piece in faces(b, set(state["enclosed"][seat]), set(state["walls"][seat])):
        groups.append({peg for seg in piece for peg in b.segments[seg]["pegs"]})
    merged: list[set[str]] = []
    for group in groups:
        touching = [m for m in merged if m & group]
        for m in touching:
            merged.remove(m)
            group |= m
        merged.append(group)
    return len(merged)
