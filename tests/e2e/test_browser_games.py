"""Whole games played by one person's clicks, in real Chromium, against bots on real gunicorn and RQ
workers: Catan, Elasund, Elfenland, Elfengold and two Elastium scenarios, one of them at a phone's
width with touch.  The test reads the API only to decide what to click (a player who knows what they
want); every move is made on the page: a place on the board (and a choice in the list it offers),
a move's button, or a move's form, and "Play it" where the page asks first.

It also counts what a Catan game takes the person at the table, with the setting that declines the
bots' trade offers on and off (printed, and written to ``.screenshots/clicks.json``), and takes a
screenshot of every page (lobby, table, replay, the API's docs) of every game at both widths."""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.browsing import PHONE, SCREENSHOTS, WIDE, game_stacks, launch, shot, watched_page
from tests.e2e.conftest import wait_until
from tests.e2e.test_browser import create_in_lobby

pytestmark = pytest.mark.e2e

Move = dict[str, Any]
# Which move to make among the legal ones: (the seat's view, its legal moves, a random source).
Policy = Callable[[dict[str, Any], list[Move], random.Random], Move]

# The places of the board that name a move, as the table decides it (its ``config.places``): each
# as [index among the board's places, how many legal moves name it], the most specific first.
NAMING = """([move, moves]) => {
  const config = JSON.parse(document.getElementById("config").textContent);
  const holds = (value, attribute) => {
    if (value === undefined || value === null || attribute === null) return false;
    const wanted = attribute.split(" ");
    if (!Array.isArray(value)) return wanted.length === 1 && String(value) === attribute;
    const have = value.map(String);
    if (wanted.length === 1) return have.includes(attribute);
    return have.length === wanted.length && wanted.every((x) => have.includes(x)) && have.every((x) => wanted.includes(x));
  };
  const names = (m, place) => ((config.places || {})[place.getAttribute("data-kind")] || []).some((way) =>
    (!way.types.length || way.types.includes(m.type))
    && Object.entries(way.fields).every(([f, a]) => holds(m[f], place.getAttribute(`data-${a}`))));
  const places = [...document.querySelectorAll("#board [data-kind][data-id]")];
  const out = [];
  places.forEach((p, i) => { if (names(move, p)) out.push([i, moves.filter((m) => names(m, p)).length]); });
  return out.sort((a, b) => a[1] - b[1]);
}"""

# Where a person clicks a place: the middle of its box, else (a curved road, whose box's middle
# is off the road) the middle of its outline; else what lies on top there, in words.
CLICK_POINT = """(place) => {
  place.scrollIntoView({ block: "center", inline: "center" });
  const box = place.getBoundingClientRect();
  const points = [[box.x + box.width / 2, box.y + box.height / 2]];
  for (const shape of [place, ...place.querySelectorAll("*")]) {
    if (typeof shape.getTotalLength !== "function" || !shape.getScreenCTM()) continue;
    try {
      const at = shape.getPointAtLength(shape.getTotalLength() / 2).matrixTransform(shape.getScreenCTM());
      points.push([at.x, at.y]);
      break;
    } catch { /* not drawn (in a clip path...) */ }
  }
  const reached = points.find(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return hit && place.contains(hit);
  });
  if (reached) return reached;
  const hit = document.elementFromPoint(...points[points.length - 1]);
  const owner = hit && hit.closest("[data-kind]");
  return `under ${owner ? owner.getAttribute("data-kind") : hit ? hit.tagName : "nothing"}`;
}"""


def option_value(value: Any) -> str:
    """A select's option value as the table writes it (JSON.stringify)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Person:
    """One seat's player at the table: decides through the API, acts only through the page."""

    page: Any
    base: str
    game_id: str
    token: str
    policy: Policy
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    declines_bot_offers: bool = False
    touch: bool = False              # taps, on a phone
    clicks: int = 0                  # clicks on places, buttons and the dialog's "Play it"
    entries: int = 0                 # a form's fields set (a select chosen, a count typed, a box ticked)
    moves: Counter[str] = field(default_factory=Counter)
    answers_to_bots: int = 0         # trade offers of bots the person answered by hand
    # Places the mouse could not click (something else lies on top, or they are out of reach), by
    # kind: clicked at their element instead.
    dispatched: Counter[str] = field(default_factory=Counter)
    dead_taps: Counter[str] = field(default_factory=Counter)     # taps on a place that did nothing
    truncated_choices: int = 0       # board choices that offered only the first of too many moves

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, path: str, **params: Any) -> Any:
        resp = requests.get(f"{self.base}/games/{self.game_id}{path}", headers=self.headers, params=params, timeout=15)
        resp.raise_for_status()
        return resp.json()

    def legal(self) -> dict[str, Any]:
        first = self.get("/legal-moves", limit=5000)
        moves, page = list(first["moves"]), first
        while page.get("next"):
            page = self.get("/legal-moves", limit=5000, cursor=page["next"])
            moves += page["moves"]
        return {**first, "moves": moves}

    def click(self, locator: Any) -> None:
        self.clicks += 1
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def page_version(self) -> int:
        return int(self.page.locator("#moves").get_attribute("data-version") or -1)

    def play(self, max_moves: int = 600, timeout: float = 600) -> dict[str, Any]:
        """Play to the end of the game; the final view."""
        deadline = time.monotonic() + timeout
        made = 0
        asked_at: dict[int, float] = {}
        while time.monotonic() < deadline:
            view = self.get("")
            if view["status"] == "finished":
                return dict(view)
            legal = self.legal()
            if legal["version"] != view["version"]:
                continue
            moves = legal["moves"]
            if self.auto_declined(view, moves):
                # The page answers it; nothing to click, and it must not sit there.
                if asked_at.setdefault(view["version"], time.monotonic()) < time.monotonic() - 20:
                    raise AssertionError(f"the page left a bot's offer unanswered at version {view['version']}")
                self.get("/events", after=view["version"], wait=2)
                continue
            if not moves:
                self.get("/events", after=view["version"], wait=2)
                continue
            # The page shows this version's moves and board before anything is clicked.
            try:
                self.page.wait_for_function(
                    "v => Number(document.getElementById('moves').dataset.version) >= v", arg=legal["version"],
                    timeout=15_000)
            except PlaywrightTimeout:
                raise AssertionError(f"the table never showed version {legal['version']}") from None
            if self.page_version() != legal["version"]:
                continue
            move = self.policy(view, moves, self.rng)
            if move["type"] == "answer_trade":
                self.answers_to_bots += 1
            self.make(move, view, moves, legal["version"])
            self.moves[move["type"]] += 1
            made += 1
            assert made <= max_moves, f"{made} moves and the game goes on"
        raise AssertionError(f"the game did not end in {timeout} s: {dict(self.moves)}")

    def auto_declined(self, view: dict[str, Any], moves: list[Move]) -> bool:
        """A bot's trade offer the page answers by itself (the person said so): nothing to click."""
        offer = (view.get("state") or {}).get("offer")
        return bool(self.declines_bot_offers and offer and view["players"][offer["seat"]].get("bot")
                    and any(m["type"] == "answer_trade" for m in moves))

    def label(self, view: dict[str, Any], move: Move, moves: list[Move]) -> tuple[str, str | None]:
        """The move's label and warning in the page's words (as the page asks for them)."""
        if len(moves) > 300:                      # the page labels so many moves by their type
            return move["type"].replace("_", " "), None
        names = [p.get("name") or f"seat {p['seat']}" for p in view["players"]]
        words = requests.post(f"{self.base}/web/words", timeout=10, json={
            "lang": "en", "names": names, "view": view, "moves": [move]}).json()
        return words["moves"][0], (words.get("warnings") or [None])[0]

    def make(self, move: Move, view: dict[str, Any], moves: list[Move], version: int) -> None:
        """Make ``move`` on the page as a person would: on the board where a place names it, else with
        its button, else with its type's form; confirm where the page asks; wait for it to land."""
        label, warning = self.label(view, move, moves)
        places = self.page.evaluate(NAMING, [move, moves])
        if places and self.on_the_board(move, label, places, version):
            pass
        elif (button := self.page.locator("#moves ul.moves button", has_text=label)).count():
            self.click(button.filter(has_text=label).first)
        elif self.page.locator(f"#form-{move['type']}").count():
            self.fill_form(move)
        else:
            raise AssertionError(f"no place, button or form plays {move} ({label!r}) at version {version}: "
                                 f"the page shows version {self.page_version()}, "
                                 f"{self.page.locator('#moves').inner_text()!r}")
        if warning:
            dialog = self.page.get_by_role("dialog")
            dialog.wait_for()
            self.click(dialog.get_by_role("button", name="Play it"))
        wait_until(lambda: self.get("")["version"] > version or bool(self.page.locator("#message").inner_text()),
                   f"{move} to land", timeout=15)
        message = self.page.locator("#message").inner_text()
        assert not message, (move, message)

    def on_the_board(self, move: Move, label: str, places: list[list[int]], version: int) -> bool:
        """Click the places that name the move, the most specific first, until it is played or
        the list of moves the places offer holds it.  False where, after the four most specific
        places, the page still offers only the first 40 of the moves they name and asks for another
        click: a person then takes the move's button or form.  (A choice no click could narrow, a road
        travelled with many hands of cards, lists every move: test_browser_table checks it.)"""
        truncated = False
        board = self.page.locator("#board [data-kind][data-id]")
        for index, _ in places[:4]:
            place = board.nth(index)
            self.clicks += 1
            point = place.evaluate(CLICK_POINT)
            if isinstance(point, str):
                self.dispatched[f"{place.get_attribute('data-kind')} {point}"] += 1
                place.dispatch_event("click")
            elif self.touch:
                self.page.touchscreen.tap(*point)
            else:
                self.page.mouse.click(*point)
            # The move lands (one move named the place), or the page offers the moves that do
            # (their words come from the server first), or it says why not.
            choice = self.page.locator("#choice:not([hidden]) #choice-list button")

            def answered() -> bool:        # or it asks first ("Play it"), which make() answers
                return bool(choice.count()) or self.page.locator("#confirm[open]").count() > 0 \
                    or self.get("")["version"] > version or bool(self.page.locator("#message").inner_text())
            if self.touch and not isinstance(point, str):
                try:
                    wait_until(answered, "the tap", timeout=5)
                except AssertionError:
                    # A tap that did nothing: counted, and the place clicked with the mouse there.
                    self.dead_taps[str(place.get_attribute("data-kind"))] += 1
                    self.page.mouse.click(*point)
            wait_until(answered, f"the click on {move}", timeout=15)
            if not choice.count():
                return True
            # A button's name is its move's whole label (the words all of them start with are said
            # once, above them).
            names = choice.evaluate_all("buttons => buttons.map(b => b.getAttribute('aria-label') || b.textContent)")
            exact = [i for i, name in enumerate(names) if name == label]
            if exact:
                self.click(choice.nth(exact[0]))
                return True
            truncated = "click another place to narrow" in self.page.locator("#choice p").inner_text()
        if truncated:
            self.truncated_choices += 1
            return False
        raise AssertionError(f"the board's places never offered {move} ({label!r})")

    def fill_form(self, move: Move) -> None:
        form = self.page.locator(f"#form-{move['type']}")
        prefix = f"form-{move['type']}"
        for name, value in move.items():
            if name == "type":
                continue
            select = form.locator(f"select#{prefix}-{name}")
            if select.count():
                self.entries += 1
                select.select_option(value=option_value(value))
                continue
            counts = value if isinstance(value, dict) else Counter(value)
            for box in form.locator(f"[id^='{prefix}-{name}-']").all():
                key = str(box.get_attribute("name"))
                want = int(counts.get(key, 0))
                if box.get_attribute("type") == "checkbox":
                    if box.is_checked() != bool(want):
                        self.entries += 1
                        box.set_checked(bool(want))
                elif box.input_value() != str(want):
                    self.entries += 1
                    box.fill(str(want))
        self.click(form.locator("button[type=submit]"))


def by_order(order: list[str], prefer: Callable[[Move], Any] = lambda m: 0) -> Policy:
    """The first legal type in ``order`` (others after), then ``prefer``'s smallest, else at random."""
    def choose(view: dict[str, Any], moves: list[Move], rng: random.Random) -> Move:
        rank = {t: i for i, t in enumerate(order)}
        return min(moves, key=lambda m: (rank.get(m["type"], len(order)), prefer(m), rng.random()))
    return choose


# Enough to end a game against the bots in a reasonable number of moves; a bot's trade offer is declined.
CATAN = by_order(["build_city", "build_settlement", "play_knight", "buy_dev_card", "build_road", "roll", "discard",
                  "move_robber", "play_year_of_plenty", "play_monopoly", "play_road_building", "bank_trade",
                  "answer_trade", "end_turn"], prefer=lambda m: m.get("accept") is True)
ELASUND = by_order([])
ELFENLAND = by_order(["keep_counters", "keep_cards", "travel", "place_counter", "take_counter", "take_card"],
                     prefer=lambda m: m["type"] == "pass")
ELASTIUM = by_order(["place_band", "take_bonus_card", "take_cards", "buy_action", "end_turn"],
                    prefer=lambda m: -len(m.get("pegs", ())))

# (name, game, players, options, bot, policy): the games played whole.
GAMES = [
    ("elasund", "elasund", 2, {}, "heuristic", ELASUND),
    ("elfenland", "elfenland", 2, {"edition": "elfenland"}, "planner", ELFENLAND),
    ("elfengold", "elfenland", 2, {"edition": "elfengold"}, "planner", ELFENLAND),
    ("elastium-jungle-temples", "elastium", 2, {"scenario": "jungle-temples"}, "greedy", ELASTIUM),
]
PHONE_GAME = ("elastium-archipelago", "elastium", 2, {"scenario": "archipelago"}, "greedy", ELASTIUM)
FIGURES: dict[str, Any] = {}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def stacks(redis_url: str) -> Iterator[Any]:
    """One gunicorn and one bot worker per game, started on first use (fast bots only)."""
    with game_stacks(redis_url) as stack:
        yield stack


def every_page(browser: Any, base: str, name: str, href: str, game_id: str) -> None:
    """The lobby, the finished game's table and replay, and the API's docs, at both widths."""
    for width, size in (("wide", WIDE), ("phone", PHONE)):
        touch = {"is_mobile": True, "has_touch": True} if size is PHONE else {}
        with watched_page(browser, viewport=size, **touch) as page:
            page.goto(base + "/")
            page.locator("#game-list > tr").first.wait_for()
            shot(page, f"{name}-lobby-{width}")
            page.goto(base + href)
            page.locator("#turn").filter(has_text="The game is over").wait_for()
            page.locator("#board svg").wait_for()
            shot(page, f"{name}-table-{width}")
            page.goto(f"{base}/replay/{game_id}")
            page.get_by_text("Audit passed").wait_for()
            shot(page, f"{name}-replay-{width}")
        # Swagger UI is not one of the pages: no policy of theirs to hold it to.
        docs = browser.new_context(viewport=size, **touch)
        page = docs.new_page()
        page.goto(base + "/docs")
        page.locator(".swagger-ui .info").wait_for(timeout=15_000)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-docs-{width}.png"))     # its top: the page is long
        docs.close()


def play_whole_game(browser: Any, stacks: Any, spec: tuple[str, str, int, dict[str, Any], str, Policy],
                    phone: bool = False, decline: bool | None = None) -> Person:
    name, game, players, options, bot, policy = spec
    base = stacks(game)
    context: dict[str, Any] = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if phone else {"viewport": WIDE}
    width = "phone" if phone else "wide"
    with watched_page(browser, **context) as page:
        game_id, href = create_in_lobby(page, base, [bot] * (players - 1), options=json.dumps(options))
        page.goto(base + href)
        page.get_by_text("You are seat 0").wait_for()
        page.locator("#board svg").wait_for()
        token = requests.utils.unquote(href.split("#token=")[1])
        person = Person(page, base, game_id, token, policy, touch=phone)
        if decline is not None:
            setting = page.get_by_label("Decline the bots' trade offers without asking")
            if setting.is_checked() != decline:
                person.click(setting)
            person.declines_bot_offers = decline
        page.locator("#moves[data-version]").wait_for(state="attached")
        shot(page, f"{name}-play-{width}")
        started = time.monotonic()
        final = person.play()
        seconds = time.monotonic() - started
        page.locator("#turn").filter(has_text="The game is over").wait_for()
        shot(page, f"{name}-over-{width}")
    assert final["result"]["winners"], final["result"]
    figures = {"game": name, "width": width, "clicks": person.clicks, "form_entries": person.entries,
               "answers_to_bot_offers": person.answers_to_bots, "moves": sum(person.moves.values()),
               "by_type": dict(person.moves), "places_clicked_at_their_element": dict(person.dispatched), "taps_that_did_nothing": dict(person.dead_taps),
               "board_choices_cut_short": person.truncated_choices,
               "version": final["version"], "seconds": round(seconds, 1)}
    if decline is not None:
        figures["decline_bot_offers"] = decline
    print(json.dumps(figures))
    FIGURES[f"{name}-{width}" + ("" if decline is None else f"-decline-{'on' if decline else 'off'}")] = figures
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / "clicks.json").write_text(json.dumps(FIGURES, indent=1) + "\n")
    every_page(browser, base, name, href, game_id)
    return person


@pytest.mark.parametrize("decline", [True, False], ids=["declining", "answering"])
def test_a_catan_game_by_clicks_with_the_bots_offers_declined_or_answered(
        browser: Any, stacks: Any, decline: bool) -> None:
    person = play_whole_game(browser, stacks, ("catan", "catan", 3, {}, "greedy", CATAN), decline=decline)
    # The bots' offers to seat 0 that the page said no to, by itself or at the person's click.
    events = person.get("/events", limit=1000)["events"]
    answered = [e for e in events if e["type"] == "trade_answered" and e["data"]["seat"] == 0]
    if decline:
        assert person.answers_to_bots == 0 and "answer_trade" not in person.moves
        assert answered and not any(e["data"]["accept"] for e in answered), answered
    else:
        assert len(answered) == person.answers_to_bots


@pytest.mark.parametrize("spec", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_by_clicks(browser: Any, stacks: Any, spec: Any) -> None:
    play_whole_game(browser, stacks, spec)


def test_a_whole_game_by_taps_at_a_phones_width(browser: Any, stacks: Any) -> None:
    play_whole_game(browser, stacks, PHONE_GAME, phone=True)
