"""Strict mode: ``BOARDGAMES_STRICT=1`` (the test suite sets it) turns the errors that bots and
renderers swallow to keep a game or a page going into errors raised.

A bot whose strategy fails plays a random legal move; a search whose playout or policy fails
scores the world as it stands; a renderer that fails falls back to the generic layout.  That keeps
a service up, but would hide an engine bug from the tests behind weaker play or a plainer page.
"""
from __future__ import annotations

import os

VARIABLE = "BOARDGAMES_STRICT"


def strict() -> bool:
    """Whether a swallowed error must be raised instead (read at each use: tests switch it)."""
    return os.environ.get(VARIABLE, "").strip() not in ("", "0")
