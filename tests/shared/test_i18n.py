"""Two languages: every message the code says has its French, with the same placeholders, and the
catalogs hold nothing no code says (English is the source language: a message is its English text).

The messages are extracted as a maintainer's ``python -m shared.text.i18n update`` does: Babel's
extractor over each domain's Python sources (``_`` and ``N_``), a plain one over the pages
(``t("...")`` in the scripts, ``[[...]]`` in the templates)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from shared.text import i18n
from shared.text.render import describe_move, event_words

DOMAINS = i18n.domains()


def catalog(domain: str) -> dict[str, tuple[str, bool]]:
    """A domain's French catalog: msgid -> (msgstr, fuzzy); empty when it has none yet."""
    path = i18n.catalog_path(i18n.locale_dir(domain), "fr")
    if not path.is_file():
        return {}
    with path.open("rb") as po:
        return {m.id: (m.string, m.fuzzy) for m in read_po(po, locale="fr") if m.id and isinstance(m.id, str)}


def check(said: dict[str, list[str]], french: dict[str, tuple[str, bool]]) -> list[str]:
    problems = []
    for message, where in sorted(said.items()):
        if not message.strip():
            problems.append(f"{where[0]}: an empty English message")
        text, fuzzy = french.get(message, ("", False))
        if not text or fuzzy:
            problems.append(f"{where[0]}: no French for {message!r}")
        elif i18n.placeholders(text) != i18n.placeholders(message):
            problems.append(f"{where[0]}: placeholders differ: {message!r} -> {text!r}")
    problems += [f"stale (no code says it): {m!r}" for m in sorted(set(french) - set(said))]
    return problems


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_python_message_has_its_french(domain: str) -> None:
    assert check(i18n.python_messages(DOMAINS[domain]), catalog(domain)) == []


def test_every_word_of_the_pages_has_its_french() -> None:
    said = i18n.web_messages()
    assert len(said) > 100          # the extractor finds the pages' words at all
    web = json.loads((i18n.SHARED_LOCALE / "fr" / "web.json").read_text(encoding="utf-8"))
    assert check(said, {k: (v, False) for k, v in web.items()}) == []


def test_the_checker_catches_a_missing_translation_and_a_wrong_placeholder() -> None:
    said = {"Waiting for {names}.": ["x.js:1"], "Your turn.": ["x.js:2"]}
    assert check(said, {"Waiting for {names}.": ("On attend {noms}.", False)}) == [
        "x.js:1: placeholders differ: 'Waiting for {names}.' -> 'On attend {noms}.'",
        "x.js:2: no French for 'Your turn.'"]
    assert check({}, {"gone": ("parti", False)}) == ["stale (no code says it): 'gone'"]


def test_the_language_follows_the_context_and_english_stays_the_source() -> None:
    move = {"type": "build_city", "node": 12}
    assert describe_move(move, "catan") == "build a city at node 12"
    with i18n.use_language("fr"):
        assert describe_move(move, "catan") == "construire une ville à l’intersection 12"
    assert describe_move(move, "catan") == "build a city at node 12"


def test_catan_events_in_french_use_the_rules_terms() -> None:
    event = {"type": "starting_resources", "data": {"seat": 1, "resources": {"brick": 1, "wool": 2, "ore": 0}}}
    with i18n.use_language("fr"):
        assert event_words("catan", event, ["ann", "bob"]) == "bob reçoit les ressources de départ 1 argile, 2 laine"


def test_pick_reads_accept_language_and_locale_names() -> None:
    assert i18n.pick("fr-CA") == "fr"
    assert i18n.pick(None, "de", "fr_FR.UTF-8") == "fr"
    assert i18n.pick("de-DE") == "en"
    assert i18n.pick("") == "en"


def test_no_binary_catalog_is_checked_in() -> None:
    root = Path(i18n.ROOT)
    assert not [p for p in root.glob("shared/text/locale/**/*.mo")] + [p for p in root.glob("services/*/locale/**/*.mo")]


def test_the_pages_speak_the_language_asked_for(settings: Any) -> None:
    """Accept-Language chooses, ?lang= and the lang cookie choose over it; <html lang> says which;
    the page's config carries its words and the game's terms; /web/words answers in the page's language."""
    from services.catan.api import PLUGIN as CATAN
    from shared.http.service import create_app

    client = create_app(CATAN, settings).test_client()
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).get_data(as_text=True)
    shown = re.sub(r"<script.*?</script>", "", french, flags=re.S)
    assert '<html lang="fr">' in shown and "Nouvelle partie" in shown and "New game" not in shown
    assert "<h1>Les Colonisateurs de Catan</h1>" in shown and "Settlers" not in shown
    assert "[[" not in shown
    assert 'id="join-name" value="moi"' in shown                 # an attribute's word too
    config = json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>', french, re.S)[1])
    assert config["lang"] == "fr" and config["words"]["Your moves"] == "Vos coups"
    assert config["terms"]["brick"] == "argile" and config["terms"]["build_settlement"] == "construire une colonie"
    assert config["options"][0]["label"] == "Plateau"         # the lobby's form, in the game's catalog
    assert config["refusals"]["settlement-too-close"] == \
        "La règle de distance : les intersections voisines doivent être libres."
    english = client.get("/table/x", headers={"Accept-Language": "de, en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="en">' in english and "Your moves" in english
    assert client.get("/replay/x", headers={"Accept-Language": "en"}).headers["Vary"] == "Accept-Language, Cookie"

    chosen = client.get("/?lang=fr", headers={"Accept-Language": "en"})
    assert '<html lang="fr">' in chosen.get_data(as_text=True) and "lang=fr" in chosen.headers["Set-Cookie"]
    # The cookie (set by that link, or by the page's switch) holds for the pages that follow.
    assert '<html lang="fr">' in client.get("/table/x", headers={"Accept-Language": "en"}).get_data(as_text=True)
    client.set_cookie("lang", "en")
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)

    body = {"names": ["ann", "bob"], "events": [{"seq": 3, "type": "dice_rolled", "data": {"seat": 1, "dice": [2, 6]}}],
            "moves": [{"type": "build_settlement", "node": 4}, {"type": "bank_trade", "give": {"wool": 4}, "get": {"ore": 1}}]}
    words = client.post("/web/words", json={**body, "lang": "fr"}).get_json()
    assert words["events"] == ["bob lance les dés : 2+6 = 8"]
    assert words["moves"] == ["construire une colonie à l’intersection 4",
                              "échanger avec la banque : donner 4 laine, recevoir 1 minerai"]
    assert client.post("/web/words", json=body, headers={"Accept-Language": "fr"}).get_json()["events"] == \
        ["bob lance les dés : 2+6 = 8"]
    assert client.post("/web/words", json={**body, "lang": "en"}).get_json()["events"] == ["bob rolls 2+6 = 8"]


GAMES = sorted(domain for domain in DOMAINS if domain != "shared")


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_a_move_can_break_has_its_sentence_in_both_languages(name: str) -> None:
    """Each reason of the game's problems.json (kept complete against its rules by test_examples)
    has a sentence for the pages (REFUSALS in its renderer), and the French one is French."""
    import importlib

    from shared.text.render import game_refusals

    reasons = json.loads((i18n.ROOT / "services" / name / "problems.json").read_text(encoding="utf-8"))
    assert sorted(importlib.import_module(f"services.{name}.render").REFUSALS) == sorted(reasons)
    english = game_refusals(name)
    with i18n.use_language("fr"):
        french = game_refusals(name)
    assert sorted(english) == sorted(french) == sorted(reasons)
    assert [reason for reason in reasons if not english[reason].strip() or french[reason] == english[reason]] == []


@pytest.mark.parametrize("name", GAMES)
def test_every_event_and_move_type_of_a_game_has_its_words_in_both_languages(name: str) -> None:
    """Every event type the game documents (its event schemas, kept equal to what its engine folds
    by test_contract_reality) has its own words in the log (a handler in the renderer's EVENTS),
    and every move type its own name in both languages (TERMS, which the pages' forms and the
    generic words use), so neither the log nor the moves fall back to the type's raw name."""
    import importlib

    from shared.game import registry
    from shared.text.render import game_terms

    plugin = registry.plugin(name)
    module = importlib.import_module(f"services.{name}.render")
    assert sorted(set(plugin.event_schemas) - set(module.EVENTS)) == []
    assert getattr(module, "TITLE", plugin.game.title) == plugin.game.title      # the page's heading, translated
    assert sorted(set(plugin.move_schemas) - set(module.TERMS)) == []
    with i18n.use_language("fr"):
        french = game_terms(name)
    assert sorted(set(plugin.move_schemas) - set(french)) == []


# One French word per concept of each game, the French rules' own (a message naming the concept in
# English names it with this word in French): English pattern -> the French word's pattern.
GLOSSARY: dict[str, dict[str, str]] = {
    "catan": {r"\bsettlements?\b": "colonie", r"\brobber\b": "voleur", r"\bcit(y|ies)\b": "ville",
              r"\broads?\b": "route", r"\bdevelopment cards?\b": "carte(s)? développement", r"\bbrick\b": "argile",
              r"\bgrain\b": "blé", r"\bore\b": "minerai", r"\bwool\b": "laine", r"\blumber\b": "bois",
              r"\bnodes?\b": "intersection", r"\bhex(es)?\b": "hexagone", r"\bknights?\b": "chevalier"},
    "elasund": {r"\bpermits?\b": "permis", r"\bwalls?\b": "mur", r"\bchurch\b": "église", r"\bhuts?\b": "hutte",
                r"\brows?\b": "rangée", r"\bship\b": "bateau", r"\binfluence cards?\b": "cartes? d’influence"},
    "elfenland": {r"\bcounters?\b": "jeton", r"\broads?\b": "route", r"\btowns?\b": "ville", r"\belf\b|\belves\b": "elfe",
                  r"\bwizard\b": "sorcier", r"\bbids?\b": "enchère|enchér"},
    "elastium": {r"\bpegs?\b": "picot", r"\bbands?\b": "élastique", r"\benergy\b": "énergie", r"\bmarket\b": "marché",
                 r"\bdeck\b": "pioche"},
}


@pytest.mark.parametrize("name", GAMES)
def test_each_game_concept_has_one_french_word(name: str) -> None:
    """"Pegs" is not "Pions" where "peg" is "picot": every message of the game's catalog that names
    a concept of its glossary (outside its placeholders) says it with the rules' French word."""
    placeholder = re.compile(r"\{[^{}]*\}")
    found = []
    for english, (french, _fuzzy) in sorted(catalog(name).items()):
        for concept, word in GLOSSARY[name].items():
            if re.search(concept, placeholder.sub("", english), re.I) and not re.search(word, french, re.I):
                found.append(f"{english!r} -> {french!r}: not {word!r}")
    assert found == []


TRANSLATED = [domain for domain in DOMAINS if domain != "shared" and catalog(domain)]


@pytest.mark.parametrize("name", TRANSLATED)
def test_a_random_game_reads_in_french_without_falling_back(name: str) -> None:
    """Every event of a random game through the game's own French words (a handler that trips
    would silently fall back to the generic words: here it fails), and its views and moves too."""
    import importlib
    import random

    from shared.game.engine import random_strategy
    from shared.text.render import Context, render_state

    game = importlib.import_module(f"services.{name}.api").PLUGIN.game
    module = importlib.import_module(f"services.{name}.render")
    rng = random.Random(5)
    state = game.replay(game.setup(3, game.default_options(), rng))
    names, seen = ["ann", "bob", "cy"], set()
    with i18n.use_language("fr"):
        for step in range(1500):
            if game.result(state) is not None:
                break
            seat = game.to_act(state)[0]
            if step % 40 == 0:
                view = game.view(state, seat)
                text = render_state(name, view, Context(you=seat, to_act=[seat]))
                assert text.lower().startswith(name) and "Players:" not in text, text
                for move in game.legal_moves(state, seat)[:20]:
                    assert describe_move(move, name, view)
            for event in game.decide(state, seat, random_strategy(game, state, seat, rng), rng):
                handler = module.EVENTS.get(event["type"])
                if handler is not None:
                    data = event.get("data") or {}
                    who = names[data["seat"]] if isinstance(data.get("seat"), int) else "ann"
                    assert handler(data, who, names)
                    seen.add(event["type"])
                state = game.evolve(state, event)
    assert len(seen) >= 5, seen


# What a person should never read in a move's label or a line of the log: an identifier as the code
# spells it (giant_pig, face_up), JSON's brackets, braces and quotes, or a JSON literal.
RAW = re.compile(r"[{}\[\]\"_]|\b(?:null|None|true|false)\b")
# An identifier as the code spells it, in the text summary (whose own notation uses brackets: a road's
# obstacle, a building's cubes).
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:null|None|true|false)\b")
# Each game's option sets whose moves and events differ (Elfenland's editions).
EDITIONS = {"elfenland": [{"edition": edition} for edition in ("elfenland", "elfengold", "elfenroads")]}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name", GAMES)
def test_moves_and_events_read_as_words_not_identifiers(name: str, lang: str) -> None:
    """Random games, each move a seat may make and each event, in both languages: no label or log line
    shows a raw identifier or JSON (an English label once read "using dragon, giant_pig"); nor does the
    seat's text summary (English once showed "victory_point" and "worker_hut_large") or its panels."""
    import random

    from shared.game import registry
    from shared.game.engine import random_strategy
    from shared.text.render import Context, game_panels, render_state

    game = registry.plugin(name).game
    found: dict[str, str] = {}
    for options in EDITIONS.get(name, [{}]):
        rng = random.Random(7)
        players = 3 if name == "catan" else 2
        state = game.replay(game.setup(players, {**game.default_options(), **options}, rng))
        names = ["ann", "bob", "cy"][:players]
        with i18n.use_language(lang):
            for _step in range(300):
                if game.result(state) is not None:
                    break
                seat = game.to_act(state)[0]
                view = game.view(state, seat)
                if _step % 10 == 0:
                    ctx = Context(players=[{"seat": i, "name": n} for i, n in enumerate(names)], you=seat,
                                  to_act=[seat], board=False)
                    for line in render_state(name, view, ctx).splitlines():
                        if IDENTIFIER.search(line):
                            found.setdefault("summary", line)
                    shown = [text for panel in game_panels(name, view, ctx) or []
                             for text in (panel["title"], *(part for row in panel["rows"]
                                                             for part in (row["label"], row["text"],
                                                                          *(item["label"] for item in row["items"]))))]
                    for text in shown:
                        if RAW.search(text):
                            found.setdefault("panels", text)
                for move in game.legal_moves(state, seat)[:150]:
                    label = describe_move(move, name, view)
                    if RAW.search(label):
                        found.setdefault(f"move {move['type']}", label)
                for event in game.decide(state, seat, random_strategy(game, state, seat, rng), rng):
                    line = event_words(name, event, names)
                    if line and RAW.search(line):
                        found.setdefault(f"event {event['type']}", line)
                    state = game.evolve(state, event)
    assert found == {}
