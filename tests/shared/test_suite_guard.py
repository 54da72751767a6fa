"""The suite guard (tests/suite_guard.py) in a real pytest run of its own: a thread a test forgets
fails that test and cannot hold the run open, a thread left from outside any test ends the run with
its own status, and a thread that winds down in time is no error."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

LEAKY_TESTS = '''
import threading, time
from concurrent.futures import ThreadPoolExecutor

stop_at_import = threading.Event()
if {leak_at_import}:
    threading.Thread(target=stop_at_import.wait, name="started-at-import").start()

def test_a_thread_that_ends_in_time():
    threading.Thread(target=time.sleep, args=(1,), name="short-lived").start()

pool = ThreadPoolExecutor(2, thread_name_prefix="idle-pool")   # as asyncio's default executor

def test_an_idle_pool_worker_is_no_leak():
    assert pool.submit(lambda: 1).result() == 1
    if {busy_pool}:
        pool.submit(threading.Event().wait)                          # a task that never ends

def test_a_follower_nobody_stops():
    if {leak_in_test}:
        never = threading.Event()
        threading.Thread(target=never.wait, name="forgotten-follower").start()
'''


def run_suite(tmp_path: Path, leak_in_test: bool, leak_at_import: bool,
              busy_pool: bool = False) -> tuple[int, str, float]:
    (tmp_path / "test_leaky.py").write_text(textwrap.dedent(LEAKY_TESTS.format(
        leak_in_test=leak_in_test, leak_at_import=leak_at_import, busy_pool=busy_pool)))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.suite_guard", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), "-c", "/dev/null", str(tmp_path / "test_leaky.py")],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr, time.monotonic() - started


def test_a_thread_left_running_by_a_test_fails_that_test_and_the_run_still_ends(tmp_path: Path) -> None:
    status, output, seconds = run_suite(tmp_path, leak_in_test=True, leak_at_import=False)
    assert status == 1, output                                   # pytest's "tests failed"
    assert "3 passed, 1 error" in output, output          # the error is the teardown's
    assert "forgotten-follower" in output and "Event.wait" in output, output
    assert "short-lived" not in output and "idle-pool" not in output, output
    assert "ending without them" in output, output
    assert seconds < 60, f"the run took {seconds:.0f} s to end"


def test_a_thread_left_outside_any_test_ends_a_green_run_with_its_own_status(tmp_path: Path) -> None:
    status, output, _ = run_suite(tmp_path, leak_in_test=False, leak_at_import=True)
    assert "3 passed" in output, output
    assert status == 7, output
    assert "started-at-import" in output, output


def test_threads_that_wind_down_in_time_are_no_error(tmp_path: Path) -> None:
    status, output, _ = run_suite(tmp_path, leak_in_test=False, leak_at_import=False)
    assert status == 0, output
    assert "3 passed" in output and "suite guard" not in output, output


def test_a_pool_worker_busy_with_a_task_that_never_ends_is_a_leak(tmp_path: Path) -> None:
    status, output, _ = run_suite(tmp_path, leak_in_test=False, leak_at_import=False, busy_pool=True)
    assert status == 1, output
    assert "idle-pool_0" in output and "work_item.run()" in output, output          # busy, with its task
