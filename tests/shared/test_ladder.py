"""The ladder (shared.ai.ladder) end to end on a few games: its series, their figures and the Elo line."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from typing import Any

import pytest

from shared.ai import ladder
from shared.game import registry


@pytest.mark.slow
def test_the_ladder_prints_each_series_and_the_elo_of_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder.main(["--games", "3", "--mirror-games", "3", "--budget-ms", "20", "--only", "elastium",
                        "--processes", "2"]) == 0
    lines: list[dict[str, Any]] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["bench"], line.get("bot"), line.get("against")) for line in lines] == [
        ("elastium-ladder", "greedy", "2x random"), ("elastium-ladder", "expert", "2x greedy"),
        ("elastium-ladder", "expert", "2x expert"), ("elastium-elo", None, None)]
    for series in lines[:3]:
        assert series["games"] == 3 and series["unfinished"] == 0
        assert 0 <= series["wins"] <= 3 and series["win_rate"] == round(series["wins"] / 3, 3)
        low, high = series["interval_95"]
        assert 0 <= low <= series["win_rate"] <= high <= 1
    # The expert's series time its searches; the simple bots' do not search.
    assert "think_p50_ms" not in lines[0] and lines[1]["searched_decisions"] > 0 and lines[1]["budget_ms"] == 20
    elo = lines[3]["elo"]
    assert elo["greedy"] == 1500
    assert elo["expert"] == 1500 + lines[1]["elo_gap"] and elo["random"] == 1500 - lines[0]["elo_gap"]


def test_each_game_names_its_rule_of_thumb_bot() -> None:
    assert {name: registry.plugin(name).rule_of_thumb_bot() for name in ("catan", "elasund", "elfenland", "elastium")} == {
        "catan": "greedy", "elasund": "heuristic", "elfenland": "planner", "elastium": "greedy"}


class CountingPool:
    """Counts the series asked of it, and answers each table with a finished game the focus seat
    won without playing it: the test above plays real tables; this one is about their order."""

    def __init__(self) -> None:
        self.series = 0

    def imap(self, function: Any, tables: list[ladder.Table]) -> Any:
        assert function is ladder.play_table
        self.series += 1
        return ({"share": 1.0, "finished": True, "moves": 1, "think": []} for _ in tables)


def test_each_series_is_given_as_soon_as_it_is_played() -> None:
    """The whole ladder takes over an hour: a series' figure must not wait for the game's other series."""
    pool = CountingPool()
    figures = ladder.ladder("elastium", 2, 2, 1, 20, 20, pool)
    first = next(figures)
    assert (first["bot"], first["against"], pool.series) == ("greedy", "2x random", 1)   # the expert has not played
    assert [next(figures)["against"], pool.series] == ["2x greedy", 2]
    assert [f["bench"] for f in figures] == ["elastium-ladder", "elastium-elo"] and pool.series == 3


# A parent with a handler like an RQ worker's (what an in-process worker leaves behind): a SIGTERM
# asks for a warm shutdown and the process goes on.  The ladder's pool must still end when terminated.
WARM_SHUTDOWN_PARENT = """
import signal, sys, time
from shared.ai import ladder
signal.signal(signal.SIGTERM, lambda signum, frame: print("warm shut down requested", flush=True))
pool = ladder.worker_pool(2)
busy = [pool.apply_async(time.sleep, (120,)) for _ in range(2)]
time.sleep(0.5)
pool.terminate()
pool.join()
print("terminated", flush=True)
"""


def test_the_ladders_pool_ends_when_terminated_whatever_handlers_its_parent_left() -> None:
    # Its own session, so that a hung pool's workers are killed with it and never outlive the test.
    proc = subprocess.Popen([sys.executable, "-c", WARM_SHUTDOWN_PARENT], stdout=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("Pool.terminate() hung: its workers took SIGTERM as a warm shutdown")
    assert proc.returncode == 0 and out.splitlines()[-1] == "terminated"
