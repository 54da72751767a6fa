"""The boards hold what the research note states: its totals, per scenario and player count.

``boards.json`` carries ``stated_totals`` copied from the note (shared/research/elastium.md, section 4);
here they are checked against the note's sentences and recomputed from the boards the engine builds.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from services.elastium.rules.board import LINE, SCENARIOS, board, raw_boards

# The note's words, scenario by scenario.
NOTE: dict[str, dict[str, Any]] = {
    "jungle-temples": {"treasure": 116, "energy": 24},                      # "Totals: 116 VP, 24 energy."
    "volcano": {"treasure": 110, "energy": 42},                             # "Totals: 110 VP, 42 energy"
    # "Totals: 100 VP + 2 energy on land, and 16 energy on bridges."  "Lines (180; ...)"
    "archipelago": {"treasure": 100, "energy": 2, "bridge_energy": 16, "lines": 180},
    # "Each image has 1 energy"; "4p uses images A-L (12), 3p A-J (10), 2p A-H (8)"; no treasure.
    "engraved-plateau": {"treasure": 0, "energy_by_players": {"2": 8, "3": 10, "4": 12}},
    "fragile-ruins": {"treasure": 144, "energy": 24},                       # "Totals: 144 VP, 24 energy."
    "cursed-triangle": {"treasure": 82, "energy": 20},                      # "Totals: 82 VP, 20 energy."
    # "7 orange idols (O1-O7) and 7 blue idols"; "Totals on normal segments: 78 VP, 12 energy."
    "two-deities": {"treasure": 78, "energy": 12, "idols": {"orange": 7, "blue": 7}},
    # "95 lines"; "Totals: 30 VP, 32 energy, 12 artefacts."
    "labyrinth": {"treasure": 30, "energy": 32, "artefacts": 12, "lines": 95},
}


def measured(scenario: str, players: int) -> dict[str, Any]:
    """What the engine's board for ``scenario`` at ``players`` really holds, in the note's terms."""
    b = board(scenario, players)
    on_segments = [b.segments[s] for s in b.playable]
    on_lines = [item for item in b.line_items.values() if not item.get("bridge")]
    bridges = [item for item in b.line_items.values() if item.get("bridge")]
    got: dict[str, Any] = {
        "treasure": sum(s["treasure"] for s in on_segments) + sum(i.get("treasure", 0) for i in on_lines),
        "energy": sum(s["energy"] for s in on_segments) + sum(i.get("energy", 0) for i in on_lines),
        "bridge_energy": sum(i["energy"] for i in bridges),
        "lines": sum(1 for band in b.bands.values() if band.kind == LINE),
        "idols": dict(Counter(s["idol"] for s in b.segments.values() if "idol" in s)),
        "artefacts": sum(1 for i in on_lines if i.get("artefact")),
    }
    # Nothing lies on a segment no band may explore (crater, canals, the maze's faces).
    assert not any(seg["treasure"] or seg["energy"] for name, seg in b.segments.items() if name not in b.playable)
    return got


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_data_states_the_notes_totals(scenario: str) -> None:
    assert raw_boards()["scenarios"][scenario]["stated_totals"] == NOTE[scenario]


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_board_holds_its_stated_totals(scenario: str, players: int) -> None:
    stated = dict(raw_boards()["scenarios"][scenario]["stated_totals"])
    by_players = stated.pop("energy_by_players", None)
    if by_players is not None:
        stated["energy"] = by_players[str(players)]
    got = measured(scenario, players)
    assert {key: got[key] for key in stated} == stated
    if "bridge_energy" not in stated:
        assert got["bridge_energy"] == 0


def test_the_labyrinths_artefacts_are_four_of_each_kind() -> None:
    kinds = Counter(item["artefact"] for item in board("labyrinth", 2).line_items.values() if "artefact" in item)
    assert sorted(kinds.values()) == [4, 4, 4] and len(kinds) == 3
