"""The lobby in a real headless Chromium (Debian's, driven by playwright) against gunicorn, under the
pages' own Content-Security-Policy: a person creates a game of each title through the form, choosing
rules, a turn clock and an unlisted game without typing JSON, and the API shows the game has exactly
those; the games' table filters by status and pages through the list; quick match takes the open
seat that waited longest, or starts a game that waits for players.

One browser and one gunicorn per game serve the module (no bot worker: no test here needs a bot to move)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from shared.game.registry import plugin
from tests.e2e.browsing import PHONE, WIDE, game_stacks, launch, shot, watched_page

pytestmark = pytest.mark.e2e

@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def stacks(redis_url: str) -> Iterator[Any]:
    """One gunicorn per game, started on first use.  Seeds allowed: quick match must pass over a
    seeded game, whose creator can foresee it."""
    with game_stacks(redis_url, workers=False, ALLOW_CLIENT_SEED="1") as stack:
        yield stack


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser profile at a laptop's size, the pages' CSP in force (no bypass_csp)."""
    with watched_page(browser, viewport=WIDE) as page:
        yield page


def shots(page: Any, name: str) -> None:
    """The page at a laptop's size and at a phone's."""
    shot(page, f"{name}-1280")
    page.set_viewport_size(PHONE)
    shot(page, f"{name}-390")
    page.set_viewport_size(WIDE)


def get(base: str, path: str, **params: Any) -> Any:
    resp = requests.get(base + path, params=params, timeout=10)
    assert resp.ok, resp.text
    return resp.json()


def create(base: str, players: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    resp = requests.post(f"{base}/games", json={"players": players, **extra}, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()


def listed(base: str, status: str | None = None) -> list[dict[str, Any]]:
    """Every listed game (of ``status``), newest first, as the API pages them."""
    games: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = get(base, "/games", limit=100, **({"status": status} if status else {}),
                   **({"cursor": cursor} if cursor else {}))
        games += page["games"]
        cursor = page["next"]
        if not cursor:
            return games


def fill_open_seats(base: str) -> None:
    """Take every open seat of the listed waiting games, so that none is left for a quick match."""
    for game in listed(base, "waiting"):
        for seat in game["players"]:
            if seat.get("open") and not seat.get("reserved"):
                requests.post(f"{base}/games/{game['id']}/seats/{seat['seat']}", json={"name": "filler"}, timeout=10)
    assert not any(p.get("open") and not p.get("reserved") for g in listed(base, "waiting") for p in g["players"])


def seat_names(base: str, game_id: str) -> list[str | None]:
    return [p["name"] if not p.get("open") else None for p in get(base, f"/games/{game_id}")["players"]]


def quick_match(page: Any, name: str) -> str:
    """Click quick match as ``name``; the id of the table it opens (whose link holds the seat's token)."""
    page.get_by_label("Your name (to join)").fill(name)
    page.get_by_role("button", name="Quick match").click()
    page.wait_for_url(re.compile(r"/table/[^#]+#token="))
    return page.url.split("/table/")[1].split("#")[0]


# -- quick match ------------------------------------------------------------------------------------

def test_quick_match_starts_a_game_that_waits_when_no_seat_is_open(stacks: Any, page: Any) -> None:
    base = stacks("catan")
    fill_open_seats(base)
    page.goto(base + "/")
    game_id = quick_match(page, "Quinn")
    game = get(base, f"/games/{game_id}")
    # Catan needs three: Quinn and two open seats for the next players to quick-match.
    assert game["status"] == "waiting"
    assert [(p["name"], bool(p.get("open"))) for p in game["players"]] == [("Quinn", False), (None, True), (None, True)]
    assert game_id in [g["id"] for g in listed(base, "waiting")]
    page.get_by_text("You are seat 0").wait_for()

    # Back in the lobby, its host (this browser) may cancel it while it waits.
    page.goto(base + "/")
    row = page.locator(f"#game-list tr[data-id='{game_id}']")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Cancel this game").click()
    row.wait_for(state="detached")
    assert get(base, f"/games/{game_id}")["status"] == "cancelled"


def test_quick_match_takes_the_open_seat_that_waited_longest(stacks: Any, page: Any) -> None:
    base = stacks("catan")
    fill_open_seats(base)
    seeded = create(base, [{"name": "Sly"}, {"open": True}, {"open": True}], seed=7)["id"]
    oldest = create(base, [{"name": "Ann"}, {"open": True}, {"open": True}])["id"]
    newer = create(base, [{"name": "Bob"}, {"open": True}, {"name": "Cy", "bot": "greedy"}])["id"]
    created = {g["id"]: g["created_at"] for g in listed(base, "waiting")}
    assert created[seeded] <= created[oldest] < created[newer]

    page.goto(base + "/")
    # Only the host's browser may cancel a game.  (The list is filled after the page loads: the row
    # first, as all_inner_texts does not wait.)
    row = page.locator(f"#game-list tr[data-id='{oldest}']")
    row.wait_for()
    assert row.get_by_role("button").all_inner_texts() == ["Join seat 1", "Join seat 2"]
    # Not the seeded game, though older: its creator can foresee every roll.
    assert quick_match(page, "Rosa") == oldest
    assert seat_names(base, oldest) == ["Ann", "Rosa", None]
    assert seat_names(base, seeded) == ["Sly", None, None] and seat_names(base, newer) == ["Bob", None, "Cy"]

    # The same browser again: not the game it already sits in, but the next one; its last seat starts it.
    page.goto(base + "/")
    assert quick_match(page, "Rosa") == newer
    assert seat_names(base, newer) == ["Bob", "Rosa", "Cy"]
    assert get(base, f"/games/{newer}")["status"] == "active"


# -- the form ---------------------------------------------------------------------------------------

# Per game: the rules a person picks (option -> value), each other than the usual one.
CHOICES: dict[str, dict[str, Any]] = {
    "catan": {"board": "variable", "combined_trade_build": True},
    "elfenland": {"edition": "elfengold", "wizards": True, "caravan_cards": 5},
    "elastium": {"scenario": "cursed-triangle", "max_rounds": 40},
    "elasund": {"shortage_payout": "after_discard", "walls_blue_first": False},
}


def fill_options(page: Any, options: dict[str, Any]) -> None:
    """Set the lobby form's rules to ``options`` (as POST /games takes them)."""
    for option, value in options.items():
        choose(page, option, value)


def choose(page: Any, option: str, value: Any) -> None:
    control = page.locator(f"#option-{option}")
    kind = control.get_attribute("type")       # a select has none
    if kind == "checkbox":
        control.set_checked(bool(value))
    elif kind == "number":
        control.fill(str(value))
    else:
        control.select_option(str(value))


@pytest.mark.parametrize("game", list(CHOICES))
def test_a_game_created_through_the_form_has_exactly_the_chosen_rules_clock_and_listing(
        stacks: Any, page: Any, game: str) -> None:
    base = stacks(game)
    page.goto(base + "/")
    form = page.locator("#create")
    # No JSON anywhere in the form: its words are the game's own, for people.
    assert form.locator("textarea").count() == 0
    defaults = plugin(game).game.default_options()
    for option in defaults:
        assert page.locator(f"#option-{option}").count() == 1
    if game == "elfenland":
        # The wizards are an Elfengold variant: the field shows once Elfengold is chosen.
        assert not page.locator("#option-wizards").is_visible()
        choose(page, "edition", "elfengold")
        assert page.get_by_label("Wizards").is_visible()
        assert page.locator("#option-edition").locator("option:checked").inner_text() == "Elfengold"
        assert page.locator("#option-edition-meaning").inner_text().startswith("6 rounds with gold")
    fill_options(page, CHOICES[game])
    page.get_by_label("Time for each turn").select_option(label="2 minutes")
    page.get_by_label("The bot that plays a turn whose time ran out").select_option("random")
    page.get_by_label(re.compile("Hard bots think")).fill("100")
    page.get_by_label("List the game on this page").uncheck()
    shots(page, f"lobby-{game}-form")
    page.get_by_role("button", name="Create the game").click()
    link = page.locator("#created-links").get_by_role("link", name=re.compile(r"Seat 0 .*your table"))
    href = link.get_attribute("href")
    assert href is not None and "#token=" in href
    game_id = href.split("/table/")[1].split("#")[0]

    view = get(base, f"/games/{game_id}")
    assert (view["turn_seconds"], view["bot_budget_ms"]) == (120, 100)
    setup = get(base, f"/games/{game_id}/events", limit=1)["events"][0]["cause"]
    assert setup["options"] == {**defaults, **CHOICES[game]}
    assert setup["clock"] == {"turn_seconds": 120, "fallback_bot": "random"}
    assert game_id not in [g["id"] for g in listed(base)]          # unlisted
    # The browser remembers it.
    page.reload()
    assert page.locator("#my-games").get_by_role("link", name=re.compile(r"Seat 0 ")).count() >= 1


# -- the games' table -------------------------------------------------------------------------------

def rows(page: Any) -> list[str]:
    """The ids of the table's rows, once the last page asked for has come."""
    page.locator(".lobby-table[aria-busy='false']").wait_for()
    return [r.get_attribute("data-id") for r in page.locator("#game-list tr[data-id]").all()]


def test_the_table_filters_by_status_pages_and_joins_an_open_seat(stacks: Any, page: Any) -> None:
    base = stacks("elfenland")
    waiting = [create(base, [{"name": f"w{i}"}, {"open": True}])["id"] for i in range(7)]
    running = [create(base, [{"name": f"r{i}"}, {"name": "bot", "bot": "planner"}])["id"] for i in range(2)]
    hidden = create(base, [{"name": "h"}, {"open": True}], listed=False)["id"]
    timed = create(base, [{"name": "t"}, {"open": True}], turn_seconds=300,
                   options={"edition": "elfengold"})["id"]

    page.goto(base + "/")
    page.get_by_label("Show").select_option("waiting")
    page.get_by_label("Games per page").select_option("5")
    expected = [g["id"] for g in listed(base, "waiting")]
    assert hidden not in expected and set(waiting) | {timed} <= set(expected)
    seen: list[list[str]] = []
    older = page.get_by_role("button", name="Older games")
    while True:
        seen.append(rows(page))
        assert page.locator("#list-page").inner_text() == f"Page {len(seen)}"
        if older.is_disabled():
            break
        older.click()
    assert [gid for one in seen for gid in one] == expected           # newest first, each once
    assert all(len(one) == 5 for one in seen[:-1]) and 1 <= len(seen[-1]) <= 5
    assert page.get_by_role("button", name="Newer games").is_enabled()
    page.get_by_role("button", name="Newer games").click()
    assert rows(page) == seen[-2]

    # The rules and the clock in words.
    page.get_by_label("Games per page").select_option("50")
    rows(page)
    row = page.locator(f"#game-list tr[data-id='{timed}']")
    assert "Edition: Elfengold" in row.inner_text() and "5 minutes" in row.inner_text()
    assert "Usual rules" in page.locator(f"#game-list tr[data-id='{waiting[0]}']").inner_text()
    shots(page, "lobby-games")

    page.get_by_label("Show").select_option("running")
    shown = rows(page)
    assert set(running) <= set(shown) and not set(waiting) & set(shown)
    assert shown == [g["id"] for g in listed(base, "running")][:50]
    assert "w0" not in page.locator("#game-list").inner_text()

    # A game created meanwhile shows without a reload (the pointer is off the table).
    page.get_by_label("Show").select_option("waiting")
    rows(page)
    page.mouse.move(0, 0)
    late = create(base, [{"name": "late"}, {"open": True}])["id"]
    page.locator(f"#game-list tr[data-id='{late}']").wait_for(timeout=40_000)

    # Join an open seat from the table: the seat's table opens with its token in the link.
    page.get_by_label("Your name (to join)").fill("Bea")
    page.locator(f"#game-list tr[data-id='{waiting[0]}']").get_by_role("button", name="Join seat 1").click()
    page.wait_for_url(re.compile(rf"/table/{waiting[0]}#token="))
    assert seat_names(base, waiting[0]) == ["w0", "Bea"]
    assert get(base, f"/games/{waiting[0]}")["status"] == "active"
