"""The pages in a real headless Chromium (Debian's, driven by playwright) against gunicorn and a bot
worker: a person creates a game in the lobby, plays at the table, sees the bot answer live, sees a
refused move's detail, and replays the finished game with the browser's own audit of the hash chain."""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.e2e.conftest import ROOT, Stack

pytestmark = pytest.mark.e2e

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = ROOT / ".screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: CI must run the browser tests (apt-get install chromium)")
        pytest.skip("chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright    # the dev extra: a missing one fails, never skips
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    # A phone's width: every test also checks that the pages work there.
    # bypass_csp: playwright's wait_for_function evaluates strings, which the pages' policy forbids.
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def create_in_lobby(page: Any, base: str, bots: list[str], options: str | None = None) -> tuple[str, str]:
    """Fill the lobby's form (seat 0 human, the others the given bots); the game id and seat 0's link."""
    page.goto(base + "/")
    while page.locator("#seats > li").count() < len(bots) + 1:
        page.get_by_role("button", name="Add a seat").click()
    for i, bot in enumerate(bots, start=1):
        page.locator(f"#seat-{i}-kind").select_option(bot)
    if options is not None:
        page.get_by_label("Options (JSON)").fill(options)
    page.get_by_role("button", name="Create the game").click()
    link = page.locator("#created-links").get_by_role("link", name=re.compile(r"Seat 0 .*your table"))
    href = link.get_attribute("href")
    assert href is not None and "#token=" in href and "?" not in href   # the token only in the fragment
    game_id = href.split("/table/")[1].split("#")[0]
    # The browser remembers the game it created.
    page.reload()
    assert game_id in page.locator("#my-games").inner_text()
    return game_id, href


def log_lines(page: Any) -> int:
    return int(page.locator("#log > li").count())


def test_race_from_lobby_to_audited_replay(make_stack: Any, page: Any) -> None:
    stack: Stack = make_stack("race")
    base = stack.start_web()
    stack.start_worker()
    # A far target: the game must still run while the table and the first replay are looked at.
    game_id, href = create_in_lobby(page, base, ["roller"], options='{"target": 40}')

    page.goto(base + href)
    page.get_by_text("You are seat 0").wait_for()
    assert page.locator("#board").inner_text() == "No picture of this board."   # race draws none
    hold = page.get_by_role("button", name="hold")
    before = log_lines(page)
    assert before >= 3                      # game_started and both cards, from the live feed
    hold.click()
    # The bot (always rolls) answers: the log grows past our own move's event, without a reload.
    page.wait_for_function(f"document.querySelectorAll('#log > li').length > {before + 1}")
    assert "rolled" in page.locator("#log").inner_text()
    shot(page, "race-table")

    # A stale move: the page's legal moves say version V; another move lands first (through the API,
    # as another tab of the same seat would), and the page must show the refusal's detail.
    token = href.split("#token=")[1]
    page.route(re.compile(r".*/events$"), lambda route: route.abort())   # no live news from here on
    page.reload()
    page.get_by_text("You are seat 0").wait_for()
    stale = page.locator("#moves button").first
    stale.wait_for()                       # our turn again: hold, roll, or ack a 6
    stale_type = stale.inner_text()
    headers = {"Authorization": f"Bearer {requests.utils.unquote(token)}"}
    legal = requests.get(f"{base}/games/{game_id}/legal-moves", headers=headers, timeout=5).json()
    moved = requests.post(f"{base}/games/{game_id}/moves", json=legal["moves"][0], headers=headers, timeout=5)
    assert moved.status_code == 201, moved.text
    stale.click()
    alert = page.locator("#message")
    alert.wait_for(state="visible")
    problem = requests.post(f"{base}/games/{game_id}/moves", json={"type": stale_type}, timeout=5,
                            headers={**headers, "If-Match": f'"{legal["version"]}"'}).json()
    assert alert.inner_text() == problem["detail"]
    page.unroute(re.compile(r".*/events$"))

    # The replay of a running game shows the server's audit; it steps.
    page.goto(f"{base}/replay/{game_id}")
    page.wait_for_function("document.getElementById('audit').textContent !== 'Checking…'")
    assert "The game is running" in page.locator("#audit").inner_text()
    last = int(page.locator("#last").inner_text())
    page.get_by_role("button", name="First version").click()
    assert page.locator("#at").inner_text() == "1"
    assert log_lines(page) == 1
    page.get_by_role("button", name="Next version").click()
    assert page.locator("#at").inner_text() == "2" and log_lines(page) == 2

    # Play the game to its end through the API; the replay then audits the chain in the browser.
    for _ in range(200):
        view = requests.get(f"{base}/games/{game_id}", headers=headers, timeout=5).json()
        if view["status"] == "finished":
            break
        legal = requests.get(f"{base}/games/{game_id}/legal-moves", headers=headers, timeout=5).json()
        if legal["moves"]:
            move = {"type": "roll"} if {"type": "roll"} in legal["moves"] else legal["moves"][0]
            requests.post(f"{base}/games/{game_id}/moves", json=move, headers=headers, timeout=5)
        else:
            requests.get(f"{base}/games/{game_id}/events?after={view['version']}&wait=2", timeout=10)
    assert view["status"] == "finished"
    page.goto(f"{base}/replay/{game_id}")
    page.wait_for_function("document.getElementById('audit').textContent !== 'Checking…'")
    assert "Audit passed" in page.locator("#audit").inner_text()
    assert int(page.locator("#last").inner_text()) > last
    page.get_by_role("slider").fill("2")
    assert page.locator("#at").inner_text() == "2"
    shot(page, "race-replay")


def test_catan_table_shows_the_board_and_plays_by_clicking_it(make_stack: Any, page: Any) -> None:
    stack: Stack = make_stack("catan")
    base = stack.start_web()
    stack.start_worker()
    game_id, href = create_in_lobby(page, base, ["random", "random"])
    page.goto(base + href)
    page.get_by_text("You are seat 0").wait_for()
    page.locator("#board svg").wait_for()          # Catan's own picture, inlined
    # Click the place a legal move names: the first settlement's node, on the board.
    legal = page.locator("#moves button").first.inner_text()
    node = re.search(r"node=(\d+)", legal)
    assert node, legal
    page.locator(f'#board [data-kind="node"][data-id="{node.group(1)}"]').click()
    page.wait_for_function("document.querySelectorAll('#log > li').length > 0 && "
                           "[...document.querySelectorAll('#log > li')].some(li => li.textContent.includes('seat 0'))")
    assert page.locator("#message").inner_text() == ""
    # The settlement stands on the board, in seat 0's colour, where it was clicked.
    page.locator(f'#board [data-seat="0"][data-node="{node.group(1)}"]').wait_for()
    shot(page, "catan-table")
    page.goto(f"{base}/replay/{game_id}")
    page.get_by_text("The game is running").wait_for()
    page.get_by_role("button", name="Previous version").click()
    shot(page, "catan-replay")


def test_lobby_lists_the_servers_games_and_joins_an_open_seat(make_stack: Any, page: Any) -> None:
    stack: Stack = make_stack("race")
    base = stack.start_web()
    gid = requests.post(f"{base}/games", json={"players": [{"name": "host"}, {"open": True}]}, timeout=5).json()["id"]
    page.goto(base + "/")
    row = page.locator(f"#game-list > li[data-id='{gid}']")
    assert "waiting" in row.inner_text() and "seat 1: open" in row.inner_text()
    assert row.get_by_role("link", name="Replay").get_attribute("href") == f"/replay/{gid}"
    page.get_by_label("Your name (to join)").fill("Bea")
    row.get_by_role("button", name="Join seat 1").click()
    page.wait_for_url(re.compile(rf"/table/{gid}#token={gid}\..+"))
    view = requests.get(f"{base}/games/{gid}", timeout=5).json()
    assert view["status"] == "active" and view["players"][1]["name"] == "Bea"
    page.goto(base + "/")
    page.get_by_label("Show").select_option("running")
    assert "seat 1: Bea" in page.locator(f"#game-list > li[data-id='{gid}']").inner_text()
    shot(page, "lobby-list")
