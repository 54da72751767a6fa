"""``make run``'s supervision: a child that dies is started again, one that keeps dying stops it all."""
from __future__ import annotations

import os
import sys

import pytest

from shared.game import registry
from shared.ops import runner


def test_a_child_that_keeps_dying_stops_the_runner_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    crashing = runner.Child("catan worker", [sys.executable, "-c", "import sys; sys.exit(3)"], dict(os.environ))
    crashing.start()
    assert runner.supervise([crashing]) == 1
    err = capsys.readouterr().err
    assert err.count("make run: catan worker exited (exit code 3); starting it again") == runner.MAX_RESTARTS_PER_MINUTE
    assert f"catan worker died {runner.MAX_RESTARTS_PER_MINUTE} times within a minute (last: exit code 3)" in err


def test_exits_are_described_by_code_or_signal() -> None:
    assert runner.describe_exit(-9) == "killed by SIGKILL"
    assert runner.describe_exit(1) == "exit code 1"
    child = runner.Child("x", [], {})
    assert all(child.may_restart(100.0 + i) for i in range(runner.MAX_RESTARTS_PER_MINUTE))
    assert not child.may_restart(110.0)
    assert child.may_restart(170.0)          # a minute later it may again


def test_every_game_gets_workers_for_its_search_bots_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_WORKERS", "2")
    monkeypatch.setenv("THINKING_WORKERS", "1")
    kids = runner.children(dict(os.environ), "/tmp/prom-unused")
    for game in registry.available():
        workers = [kid.argv[2:] for kid in kids if kid.name.startswith(f"{game} ") and "shared.play.worker" in kid.argv]
        assert sorted(workers) == [["shared.play.worker", "--quiet", "--thinking", game],
                                   ["shared.play.worker", "--quiet", game], ["shared.play.worker", "--quiet", game]]
