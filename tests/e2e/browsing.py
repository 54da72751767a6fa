"""What every browser test module shares: Debian's headless Chromium driven by playwright, pages
under their own Content-Security-Policy that fail a test when they break it, and the games' stacks
started on first use.

Each module makes its own fixtures from these (one browser and one stack per game per module), so
a module's choices stay visible where its tests are: which processes its stacks run, the size of
its pages, the language its browser speaks."""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ROOT, Stack

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = ROOT / ".screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
WIDE, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def launch() -> Iterator[Any]:
    """Chromium, for a module-scoped fixture: CI must run the browser tests, a developer's machine
    without chromium skips them (``make test`` installs it)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: CI must run the browser tests (apt-get install chromium)")
        pytest.skip("chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@contextmanager
def watched_page(browser: Any, **context: Any) -> Iterator[Any]:
    """A page in a fresh profile (``context``: playwright's new_context options, e.g. the viewport
    or the locale) under the pages' own policy: breaking it, missing a file or throwing fails the
    test once the page closes."""
    profile = browser.new_context(**context)
    page = profile.new_page()
    page.set_default_timeout(15_000)
    broken: list[str] = []
    page.on("console", lambda message: broken.append(message.text) if message.type == "error" and (
        "Content Security Policy" in message.text or "status of 404" in message.text) else None)
    page.on("pageerror", lambda error: broken.append(f"uncaught: {error}"))
    yield page
    profile.close()
    assert not broken, broken


@contextmanager
def game_stacks(redis_url: str, *, workers: bool = True, thinkers: bool = False,
                **env: str) -> Iterator[Callable[[str], str]]:
    """``stack(game)``: the base URL of that game's gunicorn, started on first use (with a bot
    worker, and a worker for its search bots when asked), all stopped at the end.  The module's
    games never need an empty database, so none of this flushes it."""
    shared_env = {**os.environ, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "ACCESS_LOG": "",
                  "WEB_CONCURRENCY": "1", "BOT_STUCK_SECONDS": "3", "CREATE_RATE_LIMIT": "", **env}
    started: dict[str, Stack] = {}

    def stack(game: str) -> str:
        if game not in started:
            started[game] = Stack(game, dict(shared_env))
            started[game].start_web()
            if workers:
                started[game].start_worker()
            if thinkers:
                started[game].start_thinker()
        return started[game].base_url

    try:
        yield stack
    finally:
        for one in started.values():
            one.stop()


def shot(page: Any, name: str) -> None:
    """The whole page as ``.screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
