"""The end-to-end harness itself: a failed test shows its processes' output, and nothing a test
started outlives it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import ROOT, kill_group
from tests.wait import wait_until

HOOKS = "from tests.e2e.conftest import _logs_of_this_test, pytest_runtest_makereport  # noqa: F401\n"
FAILING_TEST = '''
import sys
from pathlib import Path
from tests.e2e.conftest import Stack


def test_fails_after_its_process_spoke():
    stack = Stack("race", {}, log_dir=Path.cwd())
    proc = stack.start("talker", [sys.executable, "-c", "print('the talker was here', flush=True)"])
    proc.wait(30)
    assert False, "on purpose"
'''


def test_a_failed_test_shows_the_last_lines_of_its_processes_logs(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(HOOKS)
    (tmp_path / "test_failing.py").write_text(FAILING_TEST)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
                          str(tmp_path / "test_failing.py")],
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "process logs" in run.stdout and "the talker was here" in run.stdout, run.stdout


def test_kill_group_ends_what_a_process_started_even_when_it_ignores_signals(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    parent = subprocess.Popen(["sh", "-c", f"trap '' INT TERM; sleep 300 & echo $! > {pids}; wait"],
                              start_new_session=True)
    wait_until(lambda: pids.exists() and pids.read_text().strip(), "the child to start")
    child = int(pids.read_text())
    kill_group(parent)
    assert parent.returncode is not None

    def gone() -> bool:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return True
        # A zombie until init reaps it: dead all the same.
        return Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    wait_until(gone, "the child to be killed", timeout=10)
