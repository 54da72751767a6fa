"""Two languages in a real Chromium: a browser that asks for French (Accept-Language fr) gets the
lobby, a table and its log in French, and the page's switch turns them to English (kept for the
pages that follow); under the pages' own Content-Security-Policy."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import test_browser
from tests.e2e.browsing import WIDE, shot, watched_page
from tests.e2e.test_browser import human_and_bots
from tests.wait import wait_until

pytestmark = pytest.mark.e2e
# The browser and the games' stacks, as the other browser tests have them (one of each for this module).
browser = test_browser.browser
stacks = test_browser.stacks


@pytest.fixture()
def french(browser: Any) -> Iterator[Any]:
    """A page whose browser speaks French first (its Accept-Language says fr-FR, fr, then en)."""
    with watched_page(browser, viewport={"width": 1280, "height": 900}, locale="fr-FR") as page:
        yield page


def test_catan_in_french_then_switched_to_english(stacks: Any, french: Any) -> None:
    base = stacks("catan")
    page = french
    page.goto(base + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.get_by_role("heading", name="Nouvelle partie").wait_for()
    page.get_by_role("button", name="Créer la partie").wait_for()
    assert page.locator("#seat-1-kind option").first.inner_text() == "humain"
    shot(page, "i18n-catan-lobby-fr")

    game_id, token = human_and_bots(base, "greedy", 3)
    page.goto(f"{base}/table/{game_id}#token={token}")
    page.get_by_text("Vous êtes à la place 0").wait_for()
    page.get_by_role("heading", name="Vos coups").wait_for()
    # The log, the moves and the panels in Catan's French words (services/catan/locale).
    page.locator("#log > li", has_text="la partie commence avec 3 joueurs").wait_for()
    page.locator("#moves", has_text="construire une colonie").wait_for()
    page.locator('#panels [data-panel="hand"] h2', has_text="Votre main").wait_for()
    assert "Ressources" in page.locator('#panels [data-panel="bank"]').inner_text()
    assert "construire une colonie" in page.locator("#moves").inner_text()
    shot(page, "i18n-catan-table-fr")

    # The switch: English, for this page (its seat's link kept) and the ones that follow.
    page.locator("#lang-switch").click()
    page.get_by_text("You are seat 0").wait_for()
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("heading", name="Your moves").wait_for()
    page.locator("#log > li", has_text="the game starts with 3 players").wait_for()
    page.locator("#moves", has_text="build settlement").wait_for()
    page.locator('#panels [data-panel="hand"] h2', has_text="Your hand").wait_for()
    assert "Resources" in page.locator('#panels [data-panel="bank"]').inner_text()
    assert page.locator("#lang-switch").inner_text() == "Français"
    shot(page, "i18n-catan-table-en")
    page.goto(f"{base}/replay/{game_id}")
    page.get_by_role("heading", name="Log up to this version").wait_for()
    page.goto(base + "/")
    page.get_by_role("heading", name="New game").wait_for()
    # And back to French.
    page.locator("#lang-switch").click()
    page.get_by_role("heading", name="Nouvelle partie").wait_for()


def test_elfenland_lobby_options_table_and_log_in_french(stacks: Any, french: Any) -> None:
    base = stacks("elfenland")
    page = french
    page.goto(base + "/")
    # The options form in the game's own French words; its choices too.
    page.get_by_label("Édition").wait_for()
    page.locator("#option-edition").select_option("elfengold")
    assert page.locator("#option-edition-meaning").inner_text() == "6 manches avec or, enchères, sorts et monstres marins"
    game_id, token = human_and_bots(base, "random", 3, {"edition": "elfengold"})
    page.goto(f"{base}/table/{game_id}#token={token}")
    page.get_by_role("heading", name="Vos coups").wait_for()
    page.locator("#log > li", has_text="une partie d’Elfengold à 3 joueurs").wait_for()
    page.locator('#panels [data-panel="players"] h2', has_text="Elfes").wait_for()
    assert "Pièces d’or" in page.locator('#panels [data-panel="players"]').inner_text()
    shot(page, "i18n-elfengold-table-fr")


def test_the_table_asks_for_its_picture_in_french(stacks: Any, french: Any) -> None:
    base = stacks("catan")
    game_id, token = human_and_bots(base, "greedy", 3)
    asked: list[str] = []
    french.on("request", lambda request: asked.append(request.url) if "board.svg" in request.url else None)
    french.goto(f"{base}/table/{game_id}#token={token}")
    board = french.locator("#board svg")
    board.wait_for()
    assert board.get_attribute("aria-label") == "Plateau de Catan"
    assert "Tour 0 : mise en place" in board.inner_html() and "Catan board" not in board.inner_html()
    assert asked and all("lang=fr" in url for url in asked)


def test_statuses_and_refusals_in_french_at_the_table(
        stacks: Any, french: Any, redis_url: str) -> None:
    """A waiting, a cancelled and an abandoned game each say so in words at the table; a refusal the
    page meets (here: cancelling a game that has started meanwhile) is in the page's language."""
    import time

    import redis as redis_lib
    import requests

    from shared.log.eventstore import EventStore
    from shared.play.runtime import GameRuntime
    from shared.play.seats import abandon_if_idle
    from tests.shared.toygame import PLUGIN as plugin
    base = stacks("race")
    page = french
    turn = page.locator("#turn")

    waiting = requests.post(f"{base}/games", json={"players": [{"name": "hôte"}, {"open": True}]}, timeout=5).json()
    host = waiting["host_token"]
    # The page follows no feed here, so the game can start behind its back, as it may between two refreshes.
    page.route("**/events*", lambda route: route.abort())
    page.goto(f"{base}/table/{waiting['id']}#token={waiting['players'][0]['token']}&host={host}")
    expect(turn).to_have_text("On attend des joueurs pour les places libres.")
    joined = requests.post(f"{base}/games/{waiting['id']}/seats/1", json={"name": "invité"}, timeout=5)
    assert joined.status_code in (200, 201), joined.text
    page.locator("#controls").get_by_role("button", name="Annuler la partie").click()
    page.get_by_role("dialog").get_by_role("button", name="Le jouer").click()
    expect(page.locator("#message")).to_have_text("La partie a commencé.")
    page.unroute("**/events*")

    cancelled = requests.post(f"{base}/games", json={"players": [{"name": "hôte"}, {"open": True}]}, timeout=5).json()
    gone = requests.post(f"{base}/games/{cancelled['id']}/cancel", timeout=5,
                         headers={"Authorization": f"Bearer {cancelled['host_token']}"})
    assert gone.status_code == 200, gone.text
    page.goto(f"{base}/table/{cancelled['id']}")
    expect(turn).to_have_text("Cette partie a été annulée.")

    created = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"name": "b"}]}, timeout=5).json()
    runtime = GameRuntime(plugin.newest_rules(), EventStore(redis_lib.Redis.from_url(redis_url)), engines=plugin.rules)
    assert abandon_if_idle(runtime, created["id"], 1, now_ms=int(time.time() * 1000) + 5_000) is not None
    page.goto(f"{base}/table/{created['id']}#token={created['players'][0]['token']}")
    expect(turn).to_have_text("Cette partie a été abandonnée : personne n’a joué depuis trop longtemps.")
    expect(page.locator("#moves")).to_have_text("La partie est terminée.")



# Words that betray an English message left on a French page; none of them is also French (so not
# "on", "a", "date", "points", "score", "version"...).  Each line of a page's text is read as words.
ENGLISH = {"the", "and", "your", "you", "move", "moves", "turn", "turns", "waiting", "players", "player", "seat",
           "seats", "bot", "bots", "with", "from", "of", "to", "for", "is", "are", "has", "have", "none", "nobody",
           "card", "cards", "road", "roads", "town", "build", "take", "takes", "pass", "round", "gold", "game",
           "games", "new", "open", "hand", "bank", "wall", "walls", "peg", "pegs", "band", "bands", "energy",
           "counter", "counters", "settlement", "city", "resources", "rolls", "dice", "log", "replay",
           "end", "ends", "back", "next", "first", "last", "play", "plays", "waits", "left", "joined", "seed"}
# The French names of the seats (as a French family would name them) and the games' proper nouns.
NAMES = ["Léa", "Hugo", "Zoé"]
# Seat 0's moves through the API before the page is looked at (the bots answer meanwhile): a game
# well into its play, with hands, a log and a board worth reading.
MID_GAME_MOVES = 25


def english_words(text: str, proper: list[str]) -> list[str]:
    """The English words of ``text`` (a page's innerText), each with its line, once the names and
    proper nouns are left out."""
    import re
    for name in sorted(proper, key=len, reverse=True):
        text = text.replace(name, " ")
    return sorted({f"{word}: {line.strip()[:100]}" for line in text.splitlines()
                   for word in re.findall(r"[^\W\d_]+", line.lower()) if word in ENGLISH})


def test_the_english_word_check_catches_english_and_passes_french() -> None:
    assert english_words("Vos coups : construire une route\nWaiting for Hugo", ["Hugo"]) == [
        "for: Waiting for", "waiting: Waiting for"]
    assert english_words("À Léa de jouer : 3 cartes, 2 jetons", ["Léa"]) == []


def mid_game(base: str, game: str, players: int, options: dict[str, Any]) -> tuple[str, str]:
    """A game of seat 0 (a person) against random bots, seat 0 having made MID_GAME_MOVES moves."""
    import requests

    from tests.e2e.test_browser import my_moves
    seats = [{"name": NAMES[0]}, *({"name": NAMES[i], "bot": "random"} for i in range(1, players))]
    created = requests.post(f"{base}/games", json={"players": seats, "options": options}, timeout=10).json()
    game_id, token = created["id"], created["players"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for step in range(MID_GAME_MOVES):
        moves = my_moves(base, game_id, headers)
        if not moves:
            break
        legal = requests.get(f"{base}/games/{game_id}/legal-moves", headers=headers, timeout=5).json()
        if not legal["moves"]:
            continue
        # Not the move that ends one's turn when another is there: the game moves on, and the hand grows.
        move = next((m for m in legal["moves"][step % 3:] + legal["moves"] if m["type"] not in ("end_turn",)),
                    legal["moves"][0])
        requests.post(f"{base}/games/{game_id}/moves", json=move, timeout=5,
                      headers={**headers, "If-Match": f'"{legal["version"]}"'})
    # The bots done: seat 0 to act again, so the table the test reads stands still.
    my_moves(base, game_id, headers)
    return game_id, token


def shown(page: Any, selector: str, nth: int = 0) -> None:
    """Wait until the page shows ``selector``'s ``nth`` match, by asking it again and again: on Elastium's
    large board Playwright's own waiting (wait_for, wait_for_function) sometimes never sees a match
    that a direct query finds at once."""
    wait_until(lambda: page.locator(selector).nth(nth).is_visible(), f"the page to show {selector}", timeout=20)


@pytest.mark.parametrize(("game", "players", "options", "proper"), [
    ("catan", 3, {}, ["Catan"]),
    ("elasund", 3, {}, ["Elasund"]),
    ("elfenland", 3, {"edition": "elfengold"}, ["Elfengold", "Elfenland", "Elvenhold"]),
    ("elastium", 3, {}, ["Elastium"]),
])
def test_french_pages_at_1280_show_no_english(
        stacks: Any, browser: Any, game: str, players: int, options: dict[str, Any], proper: list[str]) -> None:
    """The lobby, a table in mid-game and its replay in French at 1280x800, screenshotted
    (.screenshots/fr-<game>-*.png); the table's and the replay's visible text holds none of the
    English words above once the seats' names and the game's proper nouns are left out."""
    base = stacks(game)
    if game == "elfenland":
        from services.elfenland.rules.board import TOWNS
        proper = proper + sorted(TOWNS)
    with watched_page(browser, viewport=WIDE, locale="fr-FR") as page:
        page.goto(base + "/")
        page.get_by_role("heading", name="Nouvelle partie").wait_for()
        shot(page, f"fr-{game}-lobby")
        lobby = page.locator("body").inner_text()

        game_id, token = mid_game(base, game, players, options)
        page.goto(f"{base}/table/{game_id}#token={token}")
        page.get_by_role("heading", name="Vos coups").wait_for()
        shown(page, "#board > svg")
        shown(page, '#panels [data-panel="players"]')
        shown(page, "#log > li", nth=3)
        shot(page, f"fr-{game}-table")
        table = page.evaluate("document.body.innerText")

        page.goto(f"{base}/replay/{game_id}")
        shown(page, "#log > li", nth=3)
        shown(page, "#board > svg")
        shot(page, f"fr-{game}-replay")
        replay = page.evaluate("document.body.innerText")
    # The lobby lists the games of the module's other tests too: their players' names are names.
    import requests
    listed = requests.get(f"{base}/games?limit=100", timeout=5).json()["games"]
    names = NAMES + proper + [str(p["name"]) for g in listed for p in g.get("players") or [] if p.get("name")]
    assert {"lobby": english_words(lobby, names), "table": english_words(table, names),
            "replay": english_words(replay, names)} == {"lobby": [], "table": [], "replay": []}
