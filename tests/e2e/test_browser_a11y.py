"""Accessibility in a real headless Chromium, under the pages' own Content-Security-Policy.

axe-core (the npm package, installed by name into a cache outside the repository when missing)
checks the lobby, a table where seat 0 has moves, and the replay of each game: no serious or
critical violation.  The pages allow scripts from 'self' only, so the test serves axe.min.js at a
same-origin path through playwright's routing (the server never has it).  Then a few moves of
Catan and of Elfenland are made with the keyboard alone: Tab to a place or a button, Enter or Space.

One browser and one stack per game (gunicorn and a bot worker) serve the module."""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.e2e.browsing import PHONE, WIDE, game_stacks, launch, watched_page
from tests.e2e.conftest import wait_until

pytestmark = pytest.mark.e2e

GAMES = ["catan", "elasund", "elfenland", "elastium"]
PLAYERS = {"catan": 3, "elasund": 2, "elfenland": 2, "elastium": 2}
# Outside the repository, kept between runs: the first run on a machine installs it.
AXE_CACHE = Path(os.environ.get("AXE_CACHE_DIR") or Path.home() / ".cache" / "boardgames-tests" / "axe")
AXE_PATH = "/__test__/axe.min.js"


@functools.cache
def axe_source() -> str:
    """axe-core's axe.min.js, installed with the machine's npm when the cache lacks it."""
    script = AXE_CACHE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            if os.environ.get("CI"):
                pytest.fail("npm is missing: CI must run the accessibility checks (apt-get install npm)")
            pytest.skip("npm is not installed (make test installs it): axe-core cannot be fetched")
        AXE_CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(AXE_CACHE), "--no-audit", "--no-fund", "--no-save",
                        "axe-core@4"], check=True, timeout=300, stdout=subprocess.DEVNULL)
    return script.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def stacks(redis_url: str) -> Iterator[Any]:
    """One gunicorn and one bot worker per game, started on first use (the bots here never search)."""
    with game_stacks(redis_url) as stack:
        yield stack


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A fresh profile under the pages' CSP: a test fails if the page breaks its policy or throws."""
    with watched_page(browser, viewport=WIDE) as page:
        yield page


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, one line per rule.

    axe.min.js comes from a same-origin path that only this browser answers (the server never
    serves it), so the page's own CSP (scripts from 'self') lets it run."""
    source = axe_source()
    page.route(f"**{AXE_PATH}", lambda route: route.fulfill(
        status=200, body=source, headers={"Content-Type": "text/javascript; charset=utf-8"}))
    page.add_script_tag(url=AXE_PATH)
    page.unroute(f"**{AXE_PATH}")
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 5).map((n) => n.target.join(" ")).join(", ")}`);
    }""")
    return list(found)


def check(page: Any, where: str) -> None:
    for size in (WIDE, PHONE):
        page.set_viewport_size(size)
        found = serious_violations(page)
        assert not found, (where, size["width"], found)


def seat_zero_game(base: str, game: str) -> tuple[str, str]:
    """A game of seat 0 (a person) and random bots, once seat 0 has a move: its id and seat 0's token."""
    seats = [{"name": "player 1"}, *({"name": f"bot {i}", "bot": "random"} for i in range(1, PLAYERS[game]))]
    created = requests.post(f"{base}/games", json={"players": seats}, timeout=10)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["players"][0]["token"]
    wait_until(lambda: my_moves(base, game_id, token), "seat 0's turn", timeout=30)
    return game_id, token


def my_moves(base: str, game_id: str, token: str) -> list[dict[str, Any]]:
    answer = requests.get(f"{base}/games/{game_id}/legal-moves", headers={"Authorization": f"Bearer {token}"}, timeout=5)
    return list(answer.json()["moves"])


def events_of(base: str, game_id: str) -> list[dict[str, Any]]:
    return list(requests.get(f"{base}/games/{game_id}/events?limit=500", timeout=5).json()["events"])


def mine(base: str, game_id: str, kind: str) -> list[dict[str, Any]]:
    """Seat 0's events of type ``kind`` so far."""
    return [e for e in events_of(base, game_id)
            if e["type"] == kind and 0 in (e["data"].get("seat"), (e.get("cause") or {}).get("seat"))]


@pytest.mark.parametrize("game", GAMES)
def test_no_serious_violation_in_the_lobby_the_table_or_the_replay(stacks: Any, page: Any, game: str) -> None:
    base = stacks(game)
    game_id, token = seat_zero_game(base, game)
    page.goto(base + "/")
    page.locator("#seats > li").first.wait_for()
    page.locator(f"#game-list > tr[data-id='{game_id}']").wait_for()      # the form and the games' table
    check(page, f"{game} lobby")

    page.goto(f"{base}/table/{game_id}#token={token}")
    page.locator("#board svg").wait_for()
    page.locator("#moves button, #moves form").first.wait_for()
    check(page, f"{game} table")

    page.goto(f"{base}/replay/{game_id}")
    page.locator("#board svg").wait_for()
    page.locator("#audit").filter(has_text="running").wait_for()
    check(page, f"{game} replay")


def tab_to(page: Any, wanted: str, words: str = "", limit: int = 250) -> dict[str, Any]:
    """Press Tab until the focused element matches the CSS selector ``wanted`` (and its text holds
    ``words``); what it is."""
    for _ in range(limit):
        focused = page.evaluate("""([wanted, words]) => {
            const el = document.activeElement;
            return el && el.matches(wanted) && el.textContent.includes(words)
              ? { name: el.getAttribute("aria-label") || el.textContent.trim(), kind: el.getAttribute("data-kind"),
                  id: el.getAttribute("data-id"), role: el.getAttribute("role") } : null;
        }""", [wanted, words])
        if focused:
            return dict(focused)
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {wanted}")


def focused_is(page: Any, wanted: str) -> bool:
    return bool(page.evaluate("(wanted) => !!document.activeElement && document.activeElement.matches(wanted)", wanted))


def test_catan_is_played_with_the_keyboard_alone(stacks: Any, page: Any) -> None:
    """Both settlements and roads of the set-up, then the first roll: Tab and Enter or Space only."""
    base = stacks("catan")
    game_id, token = seat_zero_game(base, "catan")
    page.goto(f"{base}/table/{game_id}#token={token}")
    page.locator("#board .playable").first.wait_for(state="attached")
    for round_ in (1, 2):
        wait_until(lambda: any(m["type"] == "build_settlement" for m in my_moves(base, game_id, token)),
                   "seat 0's settlement", timeout=60)
        page.locator('#board [data-kind="node"].playable').first.wait_for(state="attached")
        node = tab_to(page, '#board [data-kind="node"].playable')
        # The place is a named button: its name says which node and what it touches.
        assert node["role"] == "button" and node["name"].startswith(f"node {node['id']}: by "), node
        page.keyboard.press("Enter")
        wait_until(lambda: len(mine(base, game_id, "settlement_built")) == round_, "the settlement", timeout=10)
        assert mine(base, game_id, "settlement_built")[-1]["data"]["node"] == int(node["id"])
        # The focus stays on the board, on a place where the road may now go.
        page.locator('#board [data-kind="edge"].playable').first.wait_for(state="attached")
        wait_until(lambda: focused_is(page, '#board [data-kind="edge"].playable'), "the focus on a road's place",
                   timeout=10)
        edge = tab_to(page, '#board [data-kind="edge"].playable')
        assert edge["name"].startswith(f"edge {edge['id']}: between nodes "), edge
        page.keyboard.press(" ")
        wait_until(lambda: len(mine(base, game_id, "road_built")) == round_, "the road", timeout=10)
        assert mine(base, game_id, "road_built")[-1]["data"]["edge"] == int(edge["id"])
    # The first turn: the roll is a button of the moves' list.
    wait_until(lambda: any(m["type"] == "roll" for m in my_moves(base, game_id, token)), "seat 0's roll", timeout=60)
    page.locator("#moves button", has_text="roll").first.wait_for()
    tab_to(page, "#moves button", "roll")
    page.keyboard.press("Enter")
    wait_until(lambda: mine(base, game_id, "dice_rolled"), "the roll", timeout=10)


def test_elfenland_is_played_with_the_keyboard_alone(stacks: Any, page: Any) -> None:
    """Counters drawn from the list's buttons, then one placed on a road of the board (a road that
    takes any of several counters offers them; Enter takes the first): Tab, Enter only."""
    base = stacks("elfenland")
    game_id, token = seat_zero_game(base, "elfenland")
    page.goto(f"{base}/table/{game_id}#token={token}")
    page.locator("#moves button").first.wait_for()
    deadline = time.monotonic() + 90
    while not any(m["type"] == "place_counter" for m in my_moves(base, game_id, token)):
        assert time.monotonic() < deadline, "seat 0 never came to place a counter"
        moves = my_moves(base, game_id, token)
        if not moves:
            time.sleep(0.2)
            continue
        before = len(events_of(base, game_id))
        page.locator("#moves button").first.wait_for()
        tab_to(page, "#moves button")
        page.keyboard.press("Enter")
        wait_until(lambda: len(events_of(base, game_id)) > before, "the move", timeout=10)
        # The list is drawn again for the next version, and the keyboard waits on its heading.
        wait_until(lambda: focused_is(page, "#moves-title"), "the focus on the moves' heading", timeout=10)
    page.locator('#board [data-kind="road"].playable').first.wait_for(state="attached")
    # A road where more than one of seat 0's counters may go (every hand has three or more).
    counters: dict[str, set[str]] = {}
    for move in my_moves(base, game_id, token):
        if move["type"] == "place_counter":
            counters.setdefault(str(move["road"]), set()).add(move["counter"])
    several = ", ".join(f'#board [data-kind="road"][data-id="{r}"].playable' for r, c in counters.items() if len(c) > 1)
    assert several, counters
    road = tab_to(page, f":is({several})")
    assert road["role"] == "button" and road["name"].startswith(f"road {road['id']}: "), road
    page.keyboard.press("Enter")
    # Several counters may go there: the list of them takes the focus; Escape closes it and
    # goes back to the road, and there Enter opens it again, where Enter plays the first.
    page.locator("#choice-list button").first.wait_for()
    assert focused_is(page, "#choice-list button")
    page.keyboard.press("Escape")
    page.locator("#choice").wait_for(state="hidden")
    assert focused_is(page, f'#board [data-kind="road"][data-id="{road["id"]}"]')
    page.keyboard.press("Enter")
    page.locator("#choice-list button").first.wait_for()
    assert focused_is(page, "#choice-list button")
    page.keyboard.press("Enter")
    wait_until(lambda: mine(base, game_id, "counter_placed"), "the counter", timeout=10)
    assert str(mine(base, game_id, "counter_placed")[0]["data"]["road"]) == road["id"]
