"""The suite never hangs on a thread a test left behind.

Python waits at exit for every non-daemon thread.  A test that starts one and fails before it
tells the thread to stop (an assertion between `start()` and `stop.set()`) would leave pytest
printing its summary and then waiting for ever: CI sees no end, only its own time running out.

Two guards, so that a leak is both named where it happens and never able to stall the run:
- after each test, a non-daemon thread the test started and that is still running a few seconds
  later is an error of that test, with the thread's stack;
- after the summary, any non-daemon thread still running is printed with its stack, and the
  process ends at once with a failing status (a leaked thread is a bug even when every test passed).
"""
from __future__ import annotations

import concurrent.futures.thread
import os
import sys
import threading
import traceback
from collections.abc import Iterator

import pytest

from tests.wait import wait_until

# How long a test's threads may take to wind down after it: a stream reader's socket timeout or
# a poller's sleep ends within this, a loop that nobody stops does not.
TEST_GRACE_SECONDS = 5.0
# How long the threads still running after the summary get before the process ends without them.
EXIT_GRACE_SECONDS = 5.0
# The status of a run whose tests passed but which left a thread running (pytest's own statuses
# are 0 to 5; this one says the run itself was faulty).
LEAKED_THREAD_STATUS = 7


def idle_pool_worker(thread: threading.Thread) -> bool:
    """A worker of a thread pool waiting for work (asyncio's default executor keeps some).  Python's
    exit tells its pools to shut down before it joins their workers, so an idle one ends at once; a
    worker busy with a task is not idle, and counts."""
    frame = sys._current_frames().get(thread.ident or -1)
    if frame is None or frame.f_code is not concurrent.futures.thread._worker.__code__:
        return False
    work_queue = frame.f_locals.get("work_queue")      # a task queued but not yet taken is work
    return work_queue is not None and work_queue.empty()


def running_foreground_threads() -> list[threading.Thread]:
    """The threads Python would wait for at exit: alive, not daemons, not this one."""
    current = threading.current_thread()
    return [t for t in threading.enumerate() if t.is_alive() and not t.daemon and t is not current
            and t is not threading.main_thread()]


def wait_for_end(threads: list[threading.Thread], grace: float) -> list[threading.Thread]:
    """The threads still running, and not idle pool workers, after at most the grace period."""
    def still_running() -> list[threading.Thread]:
        return [t for t in threads if t.is_alive() and not idle_pool_worker(t)]
    try:
        wait_until(lambda: not still_running(), "the threads to end", timeout=grace, interval=0.05)
    except AssertionError:
        pass                    # the caller reports the ones left
    return still_running()


def describe(threads: list[threading.Thread]) -> str:
    """Each thread's name, target and where it is now, for the reader of a CI log."""
    frames = sys._current_frames()
    parts = []
    for thread in threads:
        target = getattr(thread, "_target", None)
        where = "".join(traceback.format_stack(frames[thread.ident])) if thread.ident in frames else "(no frame)\n"
        parts.append(f"thread {thread.name!r} (target {getattr(target, '__qualname__', target)!r}), now at:\n{where}")
    return "\n".join(parts)


@pytest.fixture(autouse=True)
def _no_thread_outlives_its_test() -> Iterator[None]:
    before = set(running_foreground_threads())
    yield
    started = [t for t in running_foreground_threads() if t not in before]
    left = wait_for_end(started, TEST_GRACE_SECONDS)
    if left:
        pytest.fail("the test left non-daemon threads running; the run would wait for them at exit:\n"
                    + describe(left), pytrace=False)


EXIT_STATUS = pytest.StashKey[int]()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[EXIT_STATUS] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    left = wait_for_end(running_foreground_threads(), EXIT_GRACE_SECONDS)
    if not left:
        return
    sys.stderr.write("\nsuite guard: non-daemon threads still running after the run; ending without them:\n"
                     + describe(left))
    sys.stderr.flush()
    sys.stdout.flush()
    status = config.stash.get(EXIT_STATUS, 0) or LEAKED_THREAD_STATUS
    os._exit(status)
