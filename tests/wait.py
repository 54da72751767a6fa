"""Waiting on a condition, never on a fixed sleep: a busy machine makes any fixed time too short."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import requests

T = TypeVar("T")


def wait_until(check: Callable[[], T], what: str, timeout: float = 20, interval: float = 0.1) -> T:
    """Ask ``check`` until it answers something true, and return that answer; after ``timeout``
    seconds fail, naming ``what`` was awaited.  A refused or failed request (a server still
    starting, or restarting) counts as a "not yet"."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            answer = check()
            if answer:
                return answer
        except requests.RequestException:
            pass
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)
