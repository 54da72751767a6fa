"""The pages in a real headless Chromium (Debian's, driven by playwright) against gunicorn and a bot
worker: a person creates a game in the lobby, plays at the table, sees the bot answer live, sees a
refused move's detail, and replays the finished game with the browser's own audit of the hash chain.

Every game, edition and scenario is created from the lobby, one move is made by clicking (a place
on the board, or a move's button or form), and its replay steps; a bots-only game of each plays to
its end meanwhile, whose last board is screenshotted too.  One stack per game and one browser
serve the whole module."""
from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.browsing import PHONE, game_stacks, launch, shot, watched_page
from tests.e2e.conftest import wait_until
from tests.e2e.test_browser_a11y import serious_violations
from tests.e2e.test_browser_lobby import fill_options
from tests.shared.variants import VARIANTS

pytestmark = pytest.mark.e2e

@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def stacks(redis_url: str) -> Iterator[Any]:
    """One gunicorn and two bot workers per game (one for its search bots), started on first use,
    shared by the module."""
    with game_stacks(redis_url, thinkers=True, GAME_SERVICES_EXTRA="race=tests.shared.toygame") as stack:
        yield stack


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A phone's width (every test also checks that the pages work there), under the pages' own
    Content-Security-Policy: a test fails if the page breaks it, misses a file or throws."""
    with watched_page(browser, viewport=PHONE) as page:
        yield page


def create_in_lobby(page: Any, base: str, bots: list[str], options: str | None = None,
                    bot_budget_ms: int | None = None) -> tuple[str, str]:
    """Fill the lobby's form (seat 0 human, the others the given bots); the game id and seat 0's link."""
    page.goto(base + "/")
    while page.locator("#seats > li").count() < len(bots) + 1:
        page.get_by_role("button", name="Add a seat").click()
    for i, bot in enumerate(bots, start=1):
        page.locator(f"#seat-{i}-kind").select_option(bot)
    if options is not None:
        fill_options(page, json.loads(options))
    if bot_budget_ms is not None:
        page.get_by_label(re.compile("Hard bots think")).fill(str(bot_budget_ms))
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


def test_race_from_lobby_to_audited_replay(stacks: Any, page: Any) -> None:
    base = stacks("race")
    # A far target: the game must still run while the table and the first replay are looked at.
    game_id, href = create_in_lobby(page, base, ["roller"], options='{"target": 40}')

    page.goto(base + href)
    page.get_by_text("You are seat 0").wait_for()
    assert page.locator("#board").inner_text() == "No picture of this board."   # race draws none
    # The icons the page links load under its own policy (img-src 'self').
    for icon in ("/favicon.ico", "/web/favicon.svg"):
        width = page.evaluate("""(src) => new Promise((done) => {
            const image = new Image(); image.onload = () => done(image.naturalWidth); image.onerror = () => done(0);
            image.src = src; })""", icon)
        assert width > 0, icon
    hold = page.get_by_role("button", name="hold")
    # game_started and both cards, from the live feed, in words
    page.locator("#log > li").nth(2).wait_for()
    before = log_lines(page)
    hold.click()
    # The bot (always rolls) answers: the log grows past our own move's event, without a reload.
    page.locator("#log > li").nth(before + 1).wait_for()
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
    # The refusal in the page's words for its reason (the API's detail is written for integrators).
    assert problem["reason"] == "stale-version"
    assert alert.inner_text() == "The game moved on meanwhile: look at the board again and play."
    page.unroute(re.compile(r".*/events$"))

    # The replay of a running game shows the server's audit; it steps.
    page.goto(f"{base}/replay/{game_id}")
    expect(page.locator("#audit")).not_to_have_text("Checking…")
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
    expect(page.locator("#audit")).not_to_have_text("Checking…")
    assert "Audit passed" in page.locator("#audit").inner_text()
    assert int(page.locator("#last").inner_text()) > last
    page.get_by_role("slider").fill("2")
    assert page.locator("#at").inner_text() == "2"
    shot(page, "race-replay")
    # A version has its own link; the arrow keys step, Home and End jump, a log line shows its version.
    page.goto(f"{base}/replay/{game_id}?version=3")
    expect(page.locator("#at")).to_have_text("3")
    assert log_lines(page) == 3
    page.keyboard.press("ArrowRight")
    expect(page.locator("#at")).to_have_text("4")
    assert page.locator("#version-link").get_attribute("href") == "?version=4"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#at")).to_have_text("2")
    page.keyboard.press("End")
    expect(page.locator("#at")).to_have_text(str(view["version"]))
    page.locator("#log > li").nth(4).get_by_role("link").click()
    expect(page.locator("#at")).to_have_text("5")
    assert page.url.endswith("?version=5")
    page.keyboard.press("Home")
    expect(page.locator("#at")).to_have_text("1")


# -- every game, edition and scenario ---------------------------------------------------------

def variant_id(game: str, options: dict[str, Any]) -> str:
    return "-".join([game, *(str(v) for k, v in options.items() if k in ("edition", "lake_rules", "scenario"))])


# Elfenland's editions (with both lake rules of plain Elfenland), Elastium's scenarios, Elasund.
EDITIONS = [("elasund", 2, {}),
            ("elfenland", 2, {"edition": "elfenland", "lake_rules": "author"}),
            ("elfenland", 2, {"edition": "elfenland", "lake_rules": "german"}),
            ("elfenland", 3, {"edition": "elfengold"}),
            ("elfenland", 2, {"edition": "elfenroads"}),
            *(("elastium", players, options) for players, options in VARIANTS["elastium"])]
ALL = [("catan", 3, {}), *EDITIONS]
BEST_BOT = {"catan": "greedy", "elasund": "heuristic", "elfenland": "planner", "elastium": "greedy"}


@pytest.fixture(scope="module")
def finished_games(stacks: Any) -> dict[str, tuple[str, str]]:
    """A bots-only game of every edition, created through the API at the start of the module so
    that they play to their ends while the tests click; {variant: (base url, game id)}."""
    games = {}
    for game, players, options in ALL:
        base = stacks(game)
        seats = [{"name": f"bot {i}", "bot": BEST_BOT[game]} for i in range(players)]
        created = requests.post(f"{base}/games", json={"players": seats, "options": options}, timeout=10)
        assert created.status_code == 201, created.text
        games[variant_id(game, options)] = (base, created.json()["id"])
    return games


def wait_finished(base: str, game_id: str, timeout: float = 120) -> dict[str, Any]:
    wait_until(lambda: requests.get(f"{base}/games/{game_id}", timeout=5).json()["status"] == "finished",
               f"game {game_id} to finish", timeout=timeout)
    return dict(requests.get(f"{base}/games/{game_id}", timeout=5).json())


def auth(href: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {requests.utils.unquote(href.split('#token=')[1])}"}


def my_moves(base: str, game_id: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """Seat 0's legal moves, once it is to act (a bot may begin)."""
    moves: list[dict[str, Any]] = []

    def ready() -> bool:
        moves[:] = requests.get(f"{base}/games/{game_id}/legal-moves", headers=headers, timeout=5).json()["moves"]
        return bool(moves)
    wait_until(ready, "seat 0's turn")
    return moves


def click_one_move(page: Any, base: str, game_id: str, href: str) -> str:
    """Make one legal move of seat 0 with the mouse: on the board where a move names a place, else
    with its button or form.  Returns how ("board" or "list")."""
    headers = auth(href)
    my_moves(base, game_id, headers)
    before = requests.get(f"{base}/games/{game_id}/legal-moves", headers=headers, timeout=5).json()["version"]
    page.locator("#moves button, #moves form").first.wait_for()
    how = "list"
    places = page.locator("#board .playable")
    if places.count():
        how = "board"
        places.first.dispatch_event("click")       # a level line's box is empty: playwright calls it hidden
        # A place more than one move names (a peg of many bands...) offers them: take the first.
        choice = page.locator("#choice-list button").first
        try:
            choice.wait_for(timeout=2000)
            choice.click()
        except PlaywrightTimeout:
            pass                                          # one move named it: already played
    elif page.locator("#moves button").count():
        page.locator("#moves button").first.click()
    else:
        page.locator("#moves form button[type=submit]").first.click()
    wait_until(lambda: requests.get(f"{base}/games/{game_id}", timeout=5).json()["version"] > before,
               "the clicked move to land", timeout=10)
    assert page.locator("#message").inner_text() == ""
    return how


def version_of(base: str, game_id: str) -> int:
    return int(requests.get(f"{base}/games/{game_id}", timeout=5).json()["version"])


def misclick(page: Any, base: str, game_id: str, kind: str, place_id: Any = None) -> None:
    """Click a place of ``kind`` that no legal move names as that kind (``place_id``, else the first
    that does not glow): the page says so and plays nothing."""
    places = page.locator(f'#board [data-kind="{kind}"]')
    place = (places.and_(page.locator(f'[data-id="{place_id}"]')) if place_id is not None
             else places.and_(page.locator(":not(.playable)"))).first
    name = place.get_attribute("data-id")
    assert "playable" not in (place.get_attribute("class") or ""), (kind, name)
    before = version_of(base, game_id)
    place.dispatch_event("click")        # at its own element, whatever lies above it
    page.locator("#message").filter(has_text=f"No move of yours names {kind} {name} now.").wait_for()
    assert version_of(base, game_id) == before


def click_a_glowing(page: Any, base: str, game_id: str, kind: str) -> tuple[str, list[dict[str, Any]]]:
    """Click the first glowing place of ``kind`` (and the first move offered, if it names several):
    its id and the events the move made."""
    before = version_of(base, game_id)
    place = page.locator(f'#board [data-kind="{kind}"].playable').first
    name = str(place.get_attribute("data-id"))
    place.dispatch_event("click")
    choice = page.locator("#choice-list button").first
    try:
        choice.wait_for(timeout=2000)
        choice.click()
    except PlaywrightTimeout:
        pass                                          # one move named it: already played
    wait_until(lambda: version_of(base, game_id) > before, f"the move at {kind} {name}", timeout=10)
    events = requests.get(f"{base}/games/{game_id}/events?after={before}", timeout=5).json()["events"]
    return name, events


def seat_zero_until(base: str, game_id: str, headers: dict[str, str], wanted: set[str],
                    prefer: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Play seat 0 through the API (moves of ``prefer`` types first, else its first legal move)
    until one of its legal moves is of a ``wanted`` type; those legal moves."""
    for _ in range(400):
        legal = requests.get(f"{base}/games/{game_id}/legal-moves", headers=headers, timeout=5).json()
        if {m["type"] for m in legal["moves"]} & wanted:
            return list(legal["moves"])
        if legal["moves"]:
            move = next((m for t in prefer for m in legal["moves"] if m["type"] == t), legal["moves"][0])
            requests.post(f"{base}/games/{game_id}/moves", json=move, timeout=5,
                          headers={**headers, "If-Match": f'"{legal["version"]}"'})
        else:
            requests.get(f"{base}/games/{game_id}/events?after={legal['version']}&wait=2", timeout=10)
    raise AssertionError(f"seat 0 never had a move of {wanted}")


def human_and_bots(base: str, bot: str, players: int, options: dict[str, Any] | None = None) -> tuple[str, str]:
    seats = [{"name": "player 1"}, *({"name": f"bot {i}", "bot": bot} for i in range(1, players))]
    created = requests.post(f"{base}/games", json={"players": seats, "options": options or {}}, timeout=10).json()
    return created["id"], created["players"][0]["token"]


def test_elasund_clicks_play_only_moves_naming_the_place_as_its_kind(stacks: Any, page: Any) -> None:
    """A city square, a wall or a row of the sea plays only a move that names it as that kind: the
    sea's row 5 never places a permit in the city's row 5."""
    base = stacks("elasund")
    game_id, token = human_and_bots(base, "heuristic", 2)
    headers = {"Authorization": f"Bearer {token}"}
    moves = seat_zero_until(base, game_id, headers, {"place_permit"}, prefer=("roll", "end_building"))
    page.goto(f"{base}/table/{game_id}#token={token}")
    page.locator("#board .playable").first.wait_for(state="attached")
    assert page.locator('#board .playable:not([data-kind="plot"])').count() == 0
    misclick(page, base, game_id, "row", next(m["row"] for m in moves if m["type"] == "place_permit"))
    misclick(page, base, game_id, "wall")
    name, events = click_a_glowing(page, base, game_id, "plot")
    assert any(e["type"] == "permit_placed" and f'{e["data"]["col"]},{e["data"]["row"]}' == name
               for e in events), events
    shot(page, "elasund-kinds")


def test_elfengold_auction_ignores_the_board_and_roads_take_counters(stacks: Any, page: Any) -> None:
    """In Elfengold's auction no place glows: road 13 is not a bid of 13 gold (nor is a town), and
    an over-bid asks before it risks all one's gold.  In the placement a road takes a counter, and a
    town (a witch's flight only) plays nothing."""
    base = stacks("elfenland")
    game_id, token = human_and_bots(base, "planner", 3, {"edition": "elfengold"})
    headers = {"Authorization": f"Bearer {token}"}
    moves = seat_zero_until(base, game_id, headers, {"bid"})
    page.goto(f"{base}/table/{game_id}#token={token}")
    page.locator("#form-bid").wait_for()
    page.locator("#board svg").wait_for()
    assert page.locator("#board .playable").count() == 0
    over = max(m["amount"] for m in moves if m["type"] == "bid")
    misclick(page, base, game_id, "road", over)
    misclick(page, base, game_id, "town")
    # An over-bid asks first and says what it costs: cancelled, nothing is played; confirmed, it is.
    view = requests.get(f"{base}/games/{game_id}", headers=headers, timeout=5).json()
    coins = view["state"]["seats"][0]["coins"]
    assert over > coins
    # A bid within one's gold asks nothing (the page's words, as the table asks them).
    words = requests.post(f"{base}/web/words", timeout=5, json={"view": view, "moves": [
        {"type": "bid", "amount": coins}, {"type": "bid", "amount": coins + 1}]}).json()
    assert words["warnings"][0] is None and "forfeit" in words["warnings"][1]
    before = version_of(base, game_id)
    page.locator("#form-bid-amount").select_option(str(over))
    page.locator("#form-bid").get_by_role("button", name="bid").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(f"you forfeit all {coins} gold")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert version_of(base, game_id) == before
    page.locator("#form-bid").get_by_role("button", name="bid").click()
    dialog.get_by_role("button", name="Play it").click()
    wait_until(lambda: version_of(base, game_id) > before, "the confirmed over-bid", timeout=10)
    events = requests.get(f"{base}/games/{game_id}/events?after={before}", timeout=5).json()["events"]
    assert events[0]["type"] == "bid_placed" and events[0]["data"]["amount"] == over, events
    seat_zero_until(base, game_id, headers, {"place_counter"}, prefer=("pass",))
    page.reload()
    page.locator('#board [data-kind="road"].playable').first.wait_for(state="attached")
    assert page.locator('#board .playable:not([data-kind="road"])').count() == 0
    misclick(page, base, game_id, "town")
    name, events = click_a_glowing(page, base, game_id, "road")
    assert any(e["type"] == "counter_placed" and str(e["data"]["road"]) == name for e in events), events
    shot(page, "elfengold-kinds")


def test_elastium_pegs_lines_and_segments_each_name_their_own_bands(stacks: Any, page: Any) -> None:
    """A peg offers the bands on it; a printed line plays the band on its two pegs, a segment the
    band on its three; a line or segment no legal band covers plays nothing."""
    base = stacks("elastium")
    game_id, token = human_and_bots(base, "greedy", 2, {"scenario": "jungle-temples"})
    headers = {"Authorization": f"Bearer {token}"}
    moves = seat_zero_until(base, game_id, headers, {"place_band"})
    bands = {" ".join(sorted(m["pegs"])) for m in moves if m["type"] == "place_band"}
    page.goto(f"{base}/table/{game_id}#token={token}")
    page.locator("#board .playable").first.wait_for(state="attached")
    # Exactly the lines and segments whose pegs are a legal band glow: a line for a band on two
    # pegs, a segment for one on three (the game's deal decides whether any is legal now).
    for kind, size in (("line", 2), ("segment", 3)):
        glowing = page.locator(f'#board [data-kind="{kind}"].playable')
        pegs = {" ".join(sorted(str(glowing.nth(i).get_attribute("data-pegs")).split()))
                for i in range(glowing.count())}
        drawn = {" ".join(sorted(str(pegs_of).split())) for pegs_of in page.locator(
            f'#board [data-kind="{kind}"]').evaluate_all("places => places.map(p => p.getAttribute('data-pegs'))")}
        printed = {band for band in bands if len(band.split()) == size} & drawn
        assert pegs <= bands and pegs == printed, (kind, pegs, bands)
        misclick(page, base, game_id, kind)
    assert page.locator('#board [data-kind="line"].playable').count(), bands
    kind = "segment" if page.locator('#board [data-kind="segment"].playable').count() else "line"
    pegs = sorted(str(page.locator(f'#board [data-kind="{kind}"].playable').first.get_attribute("data-pegs")).split())
    _, events = click_a_glowing(page, base, game_id, kind)
    assert any(e["type"] == "band_placed" and sorted(e["data"]["pegs"]) == pegs for e in events), events
    shot(page, "elastium-kinds")


def replay_steps(page: Any, base: str, game_id: str) -> None:
    """The replay's step buttons and slider move through the versions and change the board."""
    page.goto(f"{base}/replay/{game_id}")
    page.locator("#board svg").wait_for()
    expect(page.locator("#audit")).not_to_have_text("Checking…")
    last = int(page.locator("#last").inner_text())
    assert last > 2
    page.get_by_role("button", name="First version").click()
    page.locator('#board[data-version="1"] svg').wait_for()
    first_board = page.locator("#board").inner_html()
    assert log_lines(page) == 1
    page.get_by_role("button", name="Last version").click()
    page.locator(f'#board[data-version="{last}"] svg').wait_for()
    assert page.locator("#board").inner_html() != first_board
    assert log_lines(page) == last
    page.get_by_role("button", name="Previous version").click()
    assert page.locator("#at").inner_text() == str(last - 1)


@pytest.mark.parametrize("game,players,options", EDITIONS, ids=[variant_id(g, o) for g, _, o in EDITIONS])
def test_every_edition_is_created_in_the_lobby_played_by_a_click_and_replayed(
        stacks: Any, finished_games: Any, page: Any, game: str, players: int, options: dict[str, Any]) -> None:
    base = stacks(game)
    name = variant_id(game, options)
    bot = BEST_BOT[game]
    game_id, href = create_in_lobby(page, base, [bot] * (players - 1), options=json.dumps(options))
    page.goto(base + href)
    page.get_by_text("You are seat 0").wait_for()
    page.locator("#board svg").wait_for()
    page.locator('#panels [data-panel="players"]').filter(has_text=re.compile(r"\w")).wait_for()   # the game's own words
    shot(page, f"{name}-start")
    click_one_move(page, base, game_id, href)
    # The log shows the move in the game's words, with the seat's name (not a JSON dump).
    page.locator("#log > li", has_text="player 1").first.wait_for()
    assert "{" not in page.locator("#log").inner_text()
    replay_steps(page, base, game_id)

    end_base, end_id = finished_games[name]
    wait_finished(end_base, end_id)
    page.goto(f"{end_base}/replay/{end_id}")
    page.get_by_text("Audit passed").wait_for()
    assert not serious_violations(page)          # a whole game's replay, at a phone's width
    shot(page, f"{name}-end")


# Seat 0's moves through the API, most useful first: enough to end a Catan game against two bots.
CATAN_ORDER = ["build_city", "build_settlement", "play_knight", "buy_dev_card", "build_road", "roll", "discard",
               "move_robber", "play_year_of_plenty", "play_monopoly", "play_road_building", "bank_trade", "end_turn"]


def play_to_the_end(base: str, game_id: str, headers: dict[str, str], order: list[str]) -> dict[str, Any]:
    for _ in range(3000):
        view = requests.get(f"{base}/games/{game_id}", headers=headers, timeout=5).json()
        if view["status"] == "finished":
            return dict(view)
        legal = requests.get(f"{base}/games/{game_id}/legal-moves", headers=headers, timeout=5).json()
        if legal["moves"]:
            move = min(legal["moves"], key=lambda m: order.index(m["type"]) if m["type"] in order else len(order))
            requests.post(f"{base}/games/{game_id}/moves", json=move, timeout=5,
                          headers={**headers, "If-Match": f'"{legal["version"]}"'})
        else:
            requests.get(f"{base}/games/{game_id}/events?after={view['version']}&wait=2", timeout=10)
    raise AssertionError("the game did not end")


def test_catan_played_by_clicking_then_to_its_end_and_audited_in_the_browser(stacks: Any, page: Any) -> None:
    base = stacks("catan")
    game_id, href = create_in_lobby(page, base, ["greedy", "greedy"])
    page.goto(base + href)
    page.get_by_text("You are seat 0").wait_for()
    page.locator("#board svg").wait_for()          # Catan's own picture, inlined
    shot(page, "catan-start")
    # Only nodes glow for the first settlement; a hex or an edge with a legal node's number plays nothing.
    nodes = {m["node"] for m in my_moves(base, game_id, auth(href))}
    page.locator("#board .playable").first.wait_for(state="attached")
    assert page.locator('#board .playable:not([data-kind="node"])').count() == 0
    node = min(nodes)
    misclick(page, base, game_id, "hex", node)
    misclick(page, base, game_id, "edge", node)
    # Click the place a legal move names: the first settlement's node, on the board.
    page.locator(f'#board [data-kind="node"][data-id="{node}"]').click()
    page.locator("#log > li", has_text=f"player 1 builds a settlement at node {node}").first.wait_for()
    assert page.locator("#message").inner_text() == ""
    # The settlement stands on the board, in seat 0's colour, where it was clicked.
    page.locator(f'#board [data-seat="0"][data-node="{node}"]').wait_for()
    # The road: the edges next to it are the only playable places now; a node of an edge's number is not.
    page.locator('#board [data-kind="edge"].playable').first.wait_for(state="attached")
    assert page.locator('#board .playable:not([data-kind="edge"])').count() == 0
    edges = [m["edge"] for m in my_moves(base, game_id, auth(href))]
    misclick(page, base, game_id, "node", min(edges))
    misclick(page, base, game_id, "hex", next((e for e in edges if e < 19), 0))
    page.locator('#board [data-kind="edge"].playable').first.dispatch_event("click")
    page.locator("#log > li", has_text="player 1 builds a road").first.wait_for()
    # The bots answer live: their settlements appear in the log without a reload.
    page.locator("#log > li", has_text="greedy").or_(page.locator("#log > li").nth(6)).first.wait_for()
    shot(page, "catan-table")

    final = play_to_the_end(base, game_id, auth(href), CATAN_ORDER)
    assert final["result"]["winners"]
    page.goto(base + href)
    page.locator("#turn").filter(has_text="The game is over. Winner:").wait_for()
    shot(page, "catan-end-table")
    page.goto(f"{base}/replay/{game_id}")
    page.get_by_text("Audit passed").wait_for()
    assert int(page.locator("#last").inner_text()) == final["version"]
    assert not serious_violations(page)
    shot(page, "catan-end")


def test_the_lobby_offers_the_bots_by_level_and_seats_a_thinking_expert(stacks: Any, page: Any) -> None:
    """The lobby lists each bot with its level (easy, medium, hard), and a game created there with an
    expert and a thinking time is played by that expert, on a worker, within its budget."""
    base = stacks("catan")
    page.goto(base + "/")
    options = page.locator("#seat-1-kind option").all_inner_texts()
    assert options[1:4] == ["bot: random (easy)", "bot: greedy (medium)", "bot: expert (hard)"], options
    assert page.locator("#seat-1-kind").input_value() == "greedy"      # a fair default that answers at once
    game_id, href = create_in_lobby(page, base, ["expert", "greedy"], bot_budget_ms=60)
    headers = auth(href)
    view = requests.get(f"{base}/games/{game_id}", headers=headers, timeout=5).json()
    assert view["bot_budget_ms"] == 60
    assert [p.get("bot") for p in view["players"]] == [None, "expert", "greedy"]
    # Seat 0 places its first settlement and road; the expert (seat 1) then places its own.
    for _ in range(2):
        move = my_moves(base, game_id, headers)[0]
        assert requests.post(f"{base}/games/{game_id}/moves", json=move, headers=headers, timeout=5).status_code == 201
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = requests.get(f"{base}/games/{game_id}", headers=headers, timeout=5).json()["state"]
        if 1 in state["node_owner"]:
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the expert did not play its set-up")


def test_a_trade_offer_is_made_with_the_games_own_form(stacks: Any, page: Any) -> None:
    """A move without a place that legal-moves cannot list: Catan's open trade offer, from the game's
    own widget; a refused offer shows the problem's detail."""
    base = stacks("catan")
    players = [{"name": "player 1"}, {"name": "bob", "bot": "greedy"}, {"name": "cy", "bot": "greedy"}]
    created = requests.post(f"{base}/games", json={"players": players, "seed": 11}, timeout=5).json()
    token = created["players"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    # Through the set-up and into seat 0's own turn, where it may trade.
    for _ in range(200):
        legal = requests.get(f"{base}/games/{created['id']}/legal-moves", headers=headers, timeout=5).json()
        types = {m["type"] for m in legal["moves"]}
        if "end_turn" in types:
            break
        if legal["moves"]:
            move = min(legal["moves"], key=lambda m: CATAN_ORDER.index(m["type"]) if m["type"] in CATAN_ORDER else 99)
            requests.post(f"{base}/games/{created['id']}/moves", json=move, headers=headers, timeout=5)
        else:
            requests.get(f"{base}/games/{created['id']}/events?after={legal['version']}&wait=2", timeout=10)
    assert "end_turn" in types
    page.goto(f"{base}/table/{created['id']}#token={token}")
    form = page.locator("#form-offer_trade")
    form.wait_for()
    # Asking for nothing is a gift, which the rules refuse: the page shows the detail.
    view = requests.get(f"{base}/games/{created['id']}", headers=headers, timeout=5).json()
    hand = view["state"]["seats"][0]["resources"]
    have = next(r for r, n in hand.items() if n > 0)
    form.get_by_label(have).first.fill("1")
    form.get_by_role("button", name="offer trade").click()
    page.locator("#message").filter(has_text=re.compile("gift|both sides", re.I)).wait_for()
    want = next(r for r in ("brick", "lumber", "wool", "grain", "ore") if r != have)
    page.locator(f"#offer-get-{want}").fill("1")
    form.get_by_role("button", name="offer trade").click()
    page.locator("#log > li", has_text="player 1 offers").first.wait_for()
    shot(page, "catan-trade-offer")


def test_a_choice_of_cards_is_made_with_a_form_built_from_the_legal_moves(stacks: Any, page: Any) -> None:
    """Elastium's "take cards" (which market cards to take) has many legal moves: the table offers a
    form with a control per kind of card, and submitting it plays the legal move it describes."""
    base = stacks("elastium")
    players = [{"name": "player 1"}, {"name": "bot", "bot": "greedy"}]
    created = requests.post(f"{base}/games", json={"players": players, "seed": 5}, timeout=5).json()
    token = created["players"][0]["token"]
    moves = my_moves(base, created["id"], {"Authorization": f"Bearer {token}"})
    takes = [m for m in moves if m["type"] == "take_cards"]
    assert len(takes) >= 7, takes                         # enough to be a form, not a row of buttons
    wanted = max(takes, key=lambda m: len(m["market"]))
    page.goto(f"{base}/table/{created['id']}#token={token}")
    form = page.locator("#form-take_cards")
    form.wait_for()
    for card in sorted(set(wanted["market"])):
        box = form.locator(f"#form-take_cards-market-{card}")
        if box.get_attribute("type") == "checkbox":
            box.check()
        else:
            box.fill(str(wanted["market"].count(card)))
    form.get_by_role("button", name="take cards").click()
    first = wanted["market"][0]
    page.locator("#log > li", has_text=f"player 1 takes {first} from the market").first.wait_for()
    assert page.locator("#message").inner_text() == ""


def test_a_game_seeded_by_its_creator_is_flagged_in_the_lobby_and_at_the_table(stacks: Any, page: Any) -> None:
    base = stacks("race")
    seats = [{"name": "host"}, {"open": True}]
    seeded = requests.post(f"{base}/games", json={"players": seats, "seed": 7}, timeout=5).json()["id"]
    drawn = requests.post(f"{base}/games", json={"players": seats}, timeout=5).json()["id"]
    page.goto(base + "/")
    assert "seeded by its creator" in page.locator(f"#game-list > tr[data-id='{seeded}']").inner_text()
    assert "seeded" not in page.locator(f"#game-list > tr[data-id='{drawn}']").inner_text()
    page.goto(f"{base}/table/{seeded}")
    page.locator("#seeded").wait_for(state="visible")
    assert "predict every roll" in page.locator("#seeded").inner_text()
    page.goto(f"{base}/table/{drawn}")
    page.locator("#players > li").first.wait_for()          # the view is shown
    assert page.locator("#seeded").is_hidden()


def test_lobby_lists_the_servers_games_and_joins_an_open_seat(stacks: Any, page: Any) -> None:
    base = stacks("race")
    gid = requests.post(f"{base}/games", json={"players": [{"name": "host"}, {"open": True}]}, timeout=5).json()["id"]
    page.goto(base + "/")
    row = page.locator(f"#game-list > tr[data-id='{gid}']")
    assert "Waiting for players" in row.inner_text() and "Seat 1: open" in row.inner_text()
    assert row.get_by_role("link", name="Replay").get_attribute("href") == f"/replay/{gid}"
    page.get_by_label("Your name (to join)").fill("Bea")
    row.get_by_role("button", name="Join seat 1").click()
    page.wait_for_url(re.compile(rf"/table/{gid}#token={gid}\..+"))
    view = requests.get(f"{base}/games/{gid}", timeout=5).json()
    assert view["status"] == "active" and view["players"][1]["name"] == "Bea"
    page.goto(base + "/")
    page.get_by_label("Show").select_option("running")
    assert "Seat 1: Bea" in page.locator(f"#game-list > tr[data-id='{gid}']").inner_text()
    shot(page, "lobby-list")


def test_the_table_offers_leave_cancel_resign_and_rematch_where_each_applies(stacks: Any, page: Any) -> None:
    """While a game waits its seated player may leave and its host cancel; while it runs a player may
    resign; once it is over a player asks for a rematch and sits at its table.  Each asks first."""
    base = stacks("race")
    controls, dialog = page.locator("#controls"), page.get_by_role("dialog")

    def status(game_id: str) -> str:
        return str(requests.get(f"{base}/games/{game_id}", timeout=5).json()["status"])

    waiting = requests.post(f"{base}/games", json={"players": [{"name": "host"}, {"open": True}]}, timeout=5).json()
    page.goto(f"{base}/table/{waiting['id']}#token={waiting['players'][0]['token']}&host={waiting['host_token']}")
    expect(controls.get_by_role("button")).to_have_text(["Leave this seat", "Cancel the game"])
    controls.get_by_role("button", name="Cancel the game").click()
    expect(dialog).to_contain_text("Nobody can join or play it afterwards.")
    dialog.get_by_role("button", name="Cancel", exact=True).click()
    expect(dialog).to_be_hidden()
    assert status(waiting["id"]) == "waiting"
    controls.get_by_role("button", name="Cancel the game").click()
    dialog.get_by_role("button", name="Play it").click()
    wait_until(lambda: status(waiting["id"]) == "cancelled", "the game to be cancelled")
    expect(controls.get_by_role("button")).to_have_count(0)

    waiting = requests.post(f"{base}/games", json={"players": [{"name": "host"}, {"open": True}]}, timeout=5).json()
    page.goto(f"{base}/table/{waiting['id']}#token={waiting['players'][0]['token']}")
    expect(controls.get_by_role("button")).to_have_text(["Leave this seat"])       # no host token here
    controls.get_by_role("button", name="Leave this seat").click()
    dialog.get_by_role("button", name="Play it").click()
    page.wait_for_url(f"{base}/table/{waiting['id']}")                              # a spectator now
    assert requests.get(f"{base}/games/{waiting['id']}", timeout=5).json()["players"][0].get("open")
    page.get_by_text("You are watching").wait_for()

    # Running: resign, and the bot plays the seat on.
    game_id, token = human_and_bots(base, "roller", 2, {"target": 40})
    page.goto(f"{base}/table/{game_id}#token={token}")
    expect(controls.get_by_role("button")).to_have_text(["Resign"])
    controls.get_by_role("button", name="Resign").click()
    expect(dialog).to_contain_text("bot plays your seat")
    dialog.get_by_role("button", name="Play it").click()
    page.locator("#players li", has_text="resigned").wait_for()
    expect(controls.get_by_role("button")).to_have_count(0)

    # Over: a rematch, whose table opens with the player's new seat.
    game_id, token = human_and_bots(base, "roller", 2, {"target": 3})
    final = play_to_the_end(base, game_id, {"Authorization": f"Bearer {token}"}, ["roll"])
    assert final["status"] == "finished"
    page.goto(f"{base}/table/{game_id}#token={token}")
    controls.get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"/table/(?!" + game_id + r")\w+#token=.+&host="))
    next_id = page.url.split("/table/")[1].split("#")[0]
    again = requests.get(f"{base}/games/{next_id}", timeout=5).json()
    assert again["rematch_of"] == game_id and again["status"] == "active"
    page.get_by_text("You are seat 0").wait_for()
    expect(controls.get_by_role("button")).to_have_text(["Resign"])


def test_a_seat_with_a_deadline_shows_its_countdown_and_is_warned_before_the_bot_acts(stacks: Any, page: Any) -> None:
    base = stacks("race")
    seats = [{"name": "player 1"}, {"name": "bot", "bot": "roller"}]
    created = requests.post(f"{base}/games", json={"players": seats, "turn_seconds": 4}, timeout=5).json()
    game_id, token = created["id"], created["players"][0]["token"]
    my_moves(base, game_id, {"Authorization": f"Bearer {token}"})
    page.goto(f"{base}/table/{game_id}#token={token}")
    expect(page.locator("#players li.seat-0 .clock")).to_have_text(re.compile(r"0:0[0-4] left"))
    warning = page.locator("#clock-warning")
    expect(warning).to_contain_text("a bot plays for you", timeout=10_000)
    shot(page, "race-clock")


def test_the_replay_of_an_abandoned_game_audits_its_whole_log_in_the_browser(
        stacks: Any, page: Any, redis_url: str) -> None:
    """An abandoned game's log is public in full, its seed revealed: the replay checks the chain in
    the browser as it does a finished game's, instead of calling the game running."""
    import redis as redis_lib

    from shared.log.eventstore import EventStore
    from shared.play.runtime import GameRuntime
    from shared.play.seats import abandon_if_idle
    from tests.shared.toygame import PLUGIN as plugin
    base = stacks("race")
    created = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"name": "b"}]}, timeout=5).json()
    game_id, tokens = created["id"], [p["token"] for p in created["players"]]
    for seat in (0, 1):
        moved = requests.post(f"{base}/games/{game_id}/moves", json={"type": "hold"}, timeout=5,
                              headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert moved.status_code == 201, moved.text
    runtime = GameRuntime(plugin.newest_rules(), EventStore(redis_lib.Redis.from_url(redis_url)), engines=plugin.rules)
    assert abandon_if_idle(runtime, game_id, 1, now_ms=int(time.time() * 1000) + 5_000) is not None
    assert requests.get(f"{base}/games/{game_id}", timeout=5).json()["status"] == "abandoned"
    page.goto(f"{base}/replay/{game_id}")
    expect(page.locator("#audit")).not_to_have_text("Checking…")
    assert "Audit passed" in page.locator("#audit").inner_text(), page.locator("#audit").inner_text()
