"""The table for people, in real Chromium under the pages' own policy: each game's panels say in
words (English or French) whose turn it is, one's hand as counts with colours, the bank or market
and the others' public counts; the board and one's moves are seen together without scrolling on a
wide screen and on a phone; on a touch screen the board zooms and pans until its smallest places
are big enough for a finger, and a tap still plays."""
from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from shared.game import registry
from shared.play.runtime import derive_seed
from tests.wait import wait_until
from tests.e2e.browsing import PHONE, WIDE, game_stacks, launch, shot, watched_page

pytestmark = pytest.mark.e2e

# Each game's table: its options, the panel holding its bank or market, and its board's smallest places.
GAMES = {"catan": ({}, "bank", "node"), "elasund": ({}, "bank", "plot"),
         "elfenland": ({"edition": "elfengold"}, "market", "town"),
         "elastium": ({"scenario": "jungle-temples"}, "market", "peg")}
# What no person should read: JSON, field names, and (in English) the French rules' colour names.
UNWRITTEN = re.compile(r"[{}\[\]\"_]|\b(?:face up|null|None|true|false)\b")
# What "Your moves" shows first: a move's button or form, or why there is none now.
MOVES = "#moves :is(button, select, input, p)"
FRENCH_COLOURS = re.compile(r"\b(?:bleu|rouge|vert|jaune|gris)\b")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def stacks(redis_url: str) -> Iterator[Any]:
    # Client seeds: a test reaches a position worked out offline by playing the moves it accepts.
    with game_stacks(redis_url, ALLOW_CLIENT_SEED="1") as stack:
        yield stack


def human_and_bot(base: str, options: dict[str, Any]) -> tuple[str, str]:
    """A game of seat 0 (a person) against two random bots: its id and seat 0's token."""
    seats = [{"name": "ann"}, {"name": "bob", "bot": "random"}, {"name": "cy", "bot": "random"}]
    created = requests.post(f"{base}/games", json={"players": seats, "options": options}, timeout=10).json()
    return created["id"], created["players"][0]["token"]


def open_table(page: Any, base: str, game_id: str, token: str, lang: str = "en") -> None:
    page.goto(f"{base}/table/{game_id}?lang={lang}#token={token}")
    page.locator("#board svg").wait_for()
    page.locator('#panels [data-panel="players"]').wait_for()
    page.locator(MOVES).first.wait_for()


def panel_text(page: Any, key: str) -> str:
    return str(page.locator(f'#panels [data-panel="{key}"]').inner_text())


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_shows_its_panels_in_words_for_people(stacks: Any, browser: Any, game: str) -> None:
    options, bank, _ = GAMES[game]
    base = stacks(game)
    game_id, token = human_and_bot(base, options)
    with watched_page(browser, viewport=WIDE) as page:
        open_table(page, base, game_id, token)
        keys = page.locator("#panels [data-panel]").evaluate_all("boxes => boxes.map(b => b.dataset.panel)")
        assert {"turn", "hand", bank, "players"} <= set(keys), keys
        assert page.locator("#summary, #view").count() == 0            # no text dump, no JSON
        # One's hand: things counted, each with its colour.
        chips = page.locator('#panels [data-panel="hand"] .chip:has(.swatch)')
        assert chips.count() > 0
        assert all(re.fullmatch(r"\D+\s*\d+", chips.nth(i).inner_text().strip()) for i in range(chips.count()))
        # The players' rows: both seats by name, the one to act marked.
        players = page.locator('#panels [data-panel="players"] dt')
        assert [players.nth(i).inner_text().strip() for i in range(players.count())] == ["ann", "bob", "cy"]
        every = str(page.locator("#panels").inner_text())
        assert not UNWRITTEN.search(every), UNWRITTEN.search(every)
        assert not FRENCH_COLOURS.search(every), every
        if game != "elfenland":       # (Elfenland's counters on the table are public, and named as in a hand)
            mine = {chips.nth(i).locator(".chip-label").inner_text() for i in range(chips.count())}
            others = panel_text(page, "players")
            assert not any(re.search(rf"\b{re.escape(word)}\b", others) for word in mine), (mine, others)
        shot(page, f"panels-{game}-en")
        # The same table in French: the panels' words come from the French catalogs.
        open_table(page, base, game_id, token, "fr")
        assert page.locator('#panels [data-panel="hand"] h2').inner_text() == "Votre main"
        french = str(page.locator("#panels").inner_text())
        assert not UNWRITTEN.search(french), UNWRITTEN.search(french)
        assert not re.search(r"\b(?:Your hand|Players|Bank|Market|Cards|This turn|none)\b", french), french
        shot(page, f"panels-{game}-fr")


def visible_on_load(page: Any, selector: str) -> Any:
    """Does the element's box meet the viewport, the page not scrolled?  True, or what was seen."""
    # Asked in one go in the page: the bots' moves redraw the board meanwhile.
    return page.evaluate("""selector => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return (window.scrollY === 0 && r.width > 0 && r.height > 0 && r.top < innerHeight && r.bottom > 0
            && r.left < innerWidth && r.right > 0) || [scrollY, r.left, r.top, r.width, r.height]; }""", selector)


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["1280x800", "390x844"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_board_and_ones_moves_are_seen_without_scrolling(stacks: Any, browser: Any, game: str,
                                                             size: dict[str, int]) -> None:
    base = stacks(game)
    game_id, token = human_and_bot(base, GAMES[game][0])
    with watched_page(browser, viewport=size) as page:
        open_table(page, base, game_id, token)
        assert visible_on_load(page, "#board svg") is True, visible_on_load(page, "#board svg")
        assert visible_on_load(page, "#moves-title") is True, visible_on_load(page, "#moves-title")
        assert visible_on_load(page, MOVES) is True, visible_on_load(page, MOVES)
        # The top of the board and of the moves both in view, not a sliver of each.
        boxes = page.evaluate("""() => ['#board svg', '#moves-title'].map(s => {
            const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom]; })""")
        assert boxes[0][0] >= 0 and boxes[1][1] <= size["height"], boxes
        shot(page, f"no-scroll-{game}-{size['width']}")


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """One finger dragged from ``start`` to ``end`` (Chromium's own touch events)."""
    cdp = page.context.new_cdp_session(page)
    steps = 8
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def transform_of(page: Any) -> str:
    return str(page.locator("#board svg").evaluate("s => s.style.transform"))


def smallest_side(page: Any, kind: str) -> float:
    """The smaller side of the smallest place of ``kind`` on the board, in CSS pixels on screen."""
    return float(page.locator(f'#board [data-kind="{kind}"]').evaluate_all(
        "ps => Math.min(...ps.map(p => { const r = p.getBoundingClientRect(); return Math.min(r.width, r.height); }))"))


@pytest.mark.parametrize("game", ["elastium", "elfenland"])
def test_on_a_touch_screen_the_board_zooms_and_pans_to_targets_a_finger_can_hit(stacks: Any, browser: Any,
                                                                                  game: str) -> None:
    options, _, kind = GAMES[game]
    base = stacks(game)
    game_id, token = human_and_bot(base, options)
    with watched_page(browser, viewport=PHONE, has_touch=True) as page:
        open_table(page, base, game_id, token)
        # Measured once every place is laid out (a place not laid out yet measures 0).
        before = wait_until(lambda: smallest_side(page, kind), f"every {kind} on the board to be laid out")
        assert before < 44, before                  # too small for a finger at first
        taps = 0
        while smallest_side(page, kind) < 44:
            assert page.locator("#zoom-in").is_enabled() and taps < 6, smallest_side(page, kind)
            was = transform_of(page)
            page.locator("#zoom-in").tap()
            page.wait_for_function("was => document.querySelector('#board svg').style.transform !== was", arg=was)
            taps += 1
        frame = page.locator("#board").bounding_box()
        assert frame is not None
        # Still in its frame: the zoomed board covers no more of the page than before.
        assert frame["width"] <= PHONE["width"] and frame["height"] <= PHONE["height"] / 2 + 1
        # Back to the whole board, and in again.
        page.locator("#zoom-fit").tap()
        page.wait_for_function("() => document.querySelector('#board svg').style.transform === ''")
        assert abs(smallest_side(page, kind) - before) < 1
        page.locator("#zoom-in").tap()
        page.wait_for_function("() => document.querySelector('#board svg').style.transform.includes('scale')")
        transform = transform_of(page)
        # A finger pans it.
        centre = (frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
        touch_drag(page, centre, (centre[0] - 80, centre[1] - 60))
        moved = transform_of(page)
        assert moved != transform and "scale" in moved, (transform, moved)
        # A pan is no tap: nothing was played or offered.
        assert page.locator("#choice").is_hidden()
        shot(page, f"touch-zoom-{game}")


def elfenland_road_with_many_ways(max_seed: int = 30) -> tuple[int, list[tuple[int, dict[str, Any]]], int, int]:
    """A seed of a 2-player Elfenland game and the moves from its start to a turn where the seat to act
    can travel one road in more than 40 ways (hands of cards), worked out with the engine as the
    server seeds it: (seed, moves as (seat, move), that seat, the road)."""
    game = registry.plugin("elfenland").game
    options = game.default_options()
    for seed in range(1, max_seed):
        setup = game.setup(2, options, random.Random(derive_seed(seed, 0)))
        state, version, script = game.replay(setup), len(setup), []
        rng = random.Random(seed)
        while game.result(state) is None and len(script) < 300:
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            ways = Counter(m["road"] for m in legal if m["type"] == "travel")
            if ways and max(ways.values()) > 40:
                return seed, script, seat, ways.most_common(1)[0][0]
            # Hands grow while nobody travels: take cards, keep them, pass the counters.
            rank = {"take_card": 0, "keep_cards": 1, "keep_counters": 1, "pass": 2}
            move = min([m for m in legal if m["type"] != "travel"] or legal,
                       key=lambda m: (rank.get(m["type"], 3), rng.random()))
            for event in game.decide(state, seat, move, random.Random(derive_seed(seed, version, seat))):
                state = game.evolve(state, event)
                version += 1
            script.append((seat, move))
    raise AssertionError(f"no seed below {max_seed} reaches a road with more than 40 ways to travel it")


def test_a_choice_that_no_other_place_narrows_lists_every_move(stacks: Any, browser: Any) -> None:
    """Clicking a road one can travel with many hands of cards lists every way, not the first 40 with a
    plea to click another place: no other place names a travel, so no click could narrow them."""
    base = stacks("elfenland")
    seed, script, seat, road = elfenland_road_with_many_ways()
    created = requests.post(f"{base}/games", timeout=10, json={
        "seed": seed, "players": [{"name": "ann"}, {"name": "bob"}]}).json()
    game_id, tokens = created["id"], [p["token"] for p in created["players"]]
    for who, move in script:
        answer = requests.post(f"{base}/games/{game_id}/moves", json=move, timeout=10,
                               headers={"Authorization": f"Bearer {tokens[who]}"})
        assert answer.status_code == 201, (move, answer.text)
    mine = {"Authorization": f"Bearer {tokens[seat]}"}
    legal = requests.get(f"{base}/games/{game_id}/legal-moves", params={"limit": 5000}, headers=mine,
                         timeout=10).json()
    ways = [m for m in legal["moves"] if m["type"] == "travel" and m["road"] == road]
    assert len(ways) > 40
    with watched_page(browser, viewport=WIDE) as page:
        open_table(page, base, game_id, tokens[seat])
        page.wait_for_function("v => Number(document.getElementById('moves').dataset.version) >= v",
                               arg=legal["version"])
        page.locator(f'#board [data-kind="road"][data-id="{road}"]').first.dispatch_event("click")
        choice = page.locator("#choice:not([hidden]) #choice-list button")
        choice.first.wait_for()
        assert choice.count() == len(ways)
        # What every way starts with is said once; each button shows its cards, named by its whole label.
        prompt = page.locator("#choice p").inner_text()
        assert prompt.startswith(f"Which move? travel along road {road} (") and "narrow" not in prompt, prompt
        texts = choice.all_inner_texts()
        names = [choice.nth(i).get_attribute("aria-label") for i in range(choice.count())]
        assert all(name and name.endswith(" " + text) and len(text) < len(name) for text, name in zip(texts, names))
        assert len(set(names)) == len(ways)
        shot(page, "choice-every-way-elfenland")
        # The last way, which a list of the first 40 left out, plays.
        choice.last.click()
        if page.locator("#confirm[open]").count():
            page.get_by_role("dialog").get_by_role("button", name="Play it").click()
        wait_until(lambda: requests.get(f"{base}/games/{game_id}", headers=mine, timeout=10).json()["version"]
                   > legal["version"], "the travel to land", timeout=15)
        assert not page.locator("#message").inner_text()
    records = requests.get(f"{base}/games/{game_id}/events", params={"after": legal["version"]}, headers=mine,
                           timeout=10).json()["events"]
    assert records[0]["cause"]["move"] == ways[-1], records[0]
