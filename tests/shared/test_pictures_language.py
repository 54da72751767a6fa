"""Board pictures speak the page's language: every word drawn or named in a picture comes from the
game's catalog, so the French picture holds no word of the English one and the other way round
(names stay: players', towns', lakes' and the games' own).

The words are extracted from the pictures themselves: every text and title, and the
accessible name.  A word untranslated in either language shows in both pictures; the few words
French and English write alike are listed here, each one checked to be said by the picture."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from services.elfenland.rules.board import TOWNS
from shared.game import registry
from shared.play.config import Settings
from shared.text.i18n import use_language
from tests.shared.variants import VARIANTS

CASES = [(name, players, options) for name in ("catan", "elasund", "elfenland", "elastium")
         for players, options in VARIANTS[name]]
PLAYERS = [{"name": "Ann", "bot": None}, {"name": "Bob", "bot": "greedy"}, {"name": "Cy", "bot": None},
           {"name": "Dee", "bot": "random"}]
WORD = re.compile(r"[^\W\d_]{2,}")
# Names, not words: the players', the games' and editions' own, Elfenland's towns and lakes (Latin on
# the printed board).
NAMES = {"ann", "bob", "cy", "dee", "catan", "elasund", "elfenland", "elfengold", "elfenroads", "elastium",
         "mare", "nebulae", "magnum"} | {word.lower() for town in TOWNS for word in WORD.findall(town)}
# Words French and English write alike, as these pictures use them.
SAME = {
    "catan": set(),
    "elasund": {"influence", "cubes", "phase"},
    "elfenland": {"dragon", "score", "obstacle", "troll", "secret", "pile"},
    "elastium": {"segment", "segments", "images", "orange", "actions", "jungle", "temples",
                 "plateau", "triangle"},
}


def said(svg: str) -> set[str]:
    """Every word the picture shows or names (lower case), but for the games' proper names."""
    root = ET.fromstring(svg)
    texts = list(root.itertext()) + [str(e.get("aria-label")) for e in root.iter() if e.get("aria-label")]
    return {w.lower() for chunk in texts for w in WORD.findall(chunk)} - NAMES


def pictures(name: str, players: int, options: dict[str, Any]) -> list[tuple[str, str]]:
    """(English, French) pictures of a random game's start, a few states on, and its end if it comes."""
    plugin = registry.plugin(name)
    game, draw = plugin.game, plugin.board_svg
    assert draw is not None
    seats = PLAYERS[:players]
    rng = random.Random(11)
    state = game.replay(game.setup(players, {**game.default_options(), **options}, rng))
    out = []
    for step in range(601):
        over = game.result(state) is not None
        if step % 150 == 0 or over:
            view = game.view(state, None)
            with use_language("fr"):
                french = draw(view, seats)
            out.append((draw(view, seats), french))
        if over:
            break
        seat = game.to_act(state)[0]
        for event in game.decide(state, seat, rng.choice(game.legal_moves(state, seat)), rng):
            state = game.evolve(state, event)
    return out


@pytest.mark.parametrize("name,players,options", CASES, ids=[f"{n}-{p}-{i}" for i, (n, p, _) in enumerate(CASES)])
def test_the_french_picture_has_no_english_word_and_the_english_none_of_the_french(
        name: str, players: int, options: dict[str, Any]) -> None:
    for english, french in pictures(name, players, options):
        english_words, french_words = said(english), said(french)
        assert len(english_words) > 10 and len(french_words) > 10
        assert english_words & french_words <= SAME[name], sorted(english_words & french_words - SAME[name])


def test_the_words_written_alike_are_said_by_the_pictures() -> None:
    """Each word listed as written alike is in some picture of its game: the list holds no stale excuse."""
    seen: dict[str, set[str]] = {name: set() for name in SAME}
    for name, players, options in CASES:
        for english, french in pictures(name, players, options):
            seen[name] |= said(english) & said(french)
    assert {name: SAME[name] - seen[name] for name in SAME} == {name: set() for name in SAME}


def test_the_picture_route_speaks_the_language_asked_for(settings: Settings) -> None:
    """``?lang=`` chooses, else the lang cookie, else Accept-Language; the ETag names the language and
    an answer chosen by the headers varies on them, so no cache serves one language for the other."""
    from shared.http.service import create_app

    client = create_app(registry.plugin("catan"), settings).test_client()
    created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "seed": 3})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    url, version = f"/games/{game['id']}/board.svg", game["version"]

    english = client.get(url, query_string={"lang": "en"}, headers={"Accept-Language": "fr"})
    french = client.get(url, query_string={"lang": "fr"})
    assert english.headers["ETag"] == f'"{version}"' and french.headers["ETag"] == f'"{version}.fr"'
    assert "Vary" not in french.headers             # the URL says the language
    assert "Plateau de Catan" in french.get_data(as_text=True) and "Catan board" in english.get_data(as_text=True)
    assert said(english.get_data(as_text=True)) & said(french.get_data(as_text=True)) == set()

    chosen = client.get(url, headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert chosen.get_data() == french.get_data() and chosen.headers["ETag"] == f'"{version}.fr"'
    assert chosen.headers["Vary"] == "Accept-Language, Cookie"
    assert client.get(url).headers["ETag"] == f'"{version}"'
    # A cached French picture is not the English one: If-None-Match with the French tag gets it afresh.
    assert client.get(url, headers={"If-None-Match": french.headers["ETag"]}).status_code == 200
    assert client.get(url, query_string={"lang": "fr"},
                      headers={"If-None-Match": french.headers["ETag"]}).status_code == 304
    past = client.get(url, query_string={"lang": "fr", "version": version})
    assert past.headers["ETag"] == f'"{version}.fr"' and "immutable" in past.headers["Cache-Control"]
    client.set_cookie("lang", "fr")
    assert client.get(url, headers={"Accept-Language": "en"}).headers["ETag"] == f'"{version}.fr"'
    refused = client.get(url, query_string={"lang": "de"})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
