"""Two languages in a real Chromium: a browser that asks for French (Accept-Language fr) gets the
lobby, a table and its log in French, and the page's switch turns them to English (kept for the
pages that follow); under the pages' own Content-Security-Policy."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e import test_browser
from tests.e2e.browsing import shot, watched_page
from tests.e2e.test_browser import human_and_bots

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
