"""The pages a person uses in a browser: the lobby (``/``), a table (``/table/{id}``) and a replay
(``/replay/{id}``), plain HTML with ES modules and CSS from ``shared/http/web/``.

The pages know no game: they show what the API gives (the view, the legal moves, the log, the
board picture) and post moves as the API takes them.  A seat's token stays in the page (the URL
fragment, never a query string), so it reaches the server only in an Authorization header.
This is a plain Flask blueprint, not a flask-smorest one: the pages are not part of the API document.

Each page comes in English or French (shared/text/i18n.py): its template's ``[[words]]`` filled from the
pages' catalog, the catalog itself and the game's terms in its config for the scripts.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from typing import Any

from flask import Blueprint, Response, request, send_from_directory

from shared.play.turn_clock import MAX_TURN_SECONDS, default_fallback
from shared.http.plumbing import json_response, read_json_body
from shared.text.i18n import LANGUAGES, pick, use_language, web_words
from shared.http.options_form import option_fields
from shared.play.problems import Problem
from shared.text.render import (Context, describe_move, event_words, game_panels, game_refusals, game_terms,
                                game_translator, move_warning, option_words, render_state, seat_scores)
from shared.http.routes.context import Service
from shared.play.search import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, MIN_BUDGET_MS

WEB = Path(__file__).resolve().parent.parent / "web"
PAGES = ("lobby", "table", "replay")
# What one call to /web/words describes at most: the pages send a long log in pieces.
MAX_WORDS = 500
# A word of a page's template to translate: [[English text]] (see shared/text/i18n.py).
TEMPLATE_WORD = re.compile(r"\[\[(.+?)\]\]", re.S)


def page_language() -> str:
    """The page's language: ``?lang=`` (a link), else the ``lang`` cookie (the page's switch), else
    the browser's Accept-Language, else English."""
    best = request.accept_languages.best_match(LANGUAGES)
    return pick(request.args.get("lang"), request.cookies.get("lang"), best)


def fill(template: str, title: str, config: dict[str, Any], lang: str, game: str) -> str:
    """A page's template in ``lang``: its words translated, the title (from the game's catalog) and the
    config put in (with the pages' words, the game's terms and its refusals in that language, for the scripts)."""
    words = web_words(lang)
    with use_language(lang):
        terms = game_terms(game)
        options = option_words(game, config["options"])
        refusals = game_refusals(game)
        title = game_translator(game)(title)
    # "</" could end the script element early; JSON allows "<\/" for it.
    config_json = json.dumps({**config, "options": options, "lang": lang, "words": words, "terms": terms,
                              "refusals": refusals}) \
        .replace("</", "<\\/")
    text = TEMPLATE_WORD.sub(lambda m: html.escape(words.get(m.group(1), m.group(1))), template)
    return (text.replace("{{lang}}", lang).replace("{{title}}", html.escape(title))
            .replace("{{config}}", config_json))


def blueprint(service: Service) -> Blueprint:
    game, plugin = service.game, service.plugin
    # What the lobby needs to offer a game: given to every page in a JSON script element.
    config = {"game": game.name, "title": game.title or game.name, "min_players": game.min_players,
              "max_players": game.max_players, "bots": plugin.bot_levels(),
              "default_options": game.default_options(), "has_picture": plugin.board_svg is not None,
              "has_widgets": plugin.web_dir is not None and (plugin.web_dir / "moves.js").is_file(),
              # The lobby's form: the game's options as fields, the turn clock's and the bots' bounds.
              "options": option_fields(plugin.options_schema),
              "clock": {"max_seconds": MAX_TURN_SECONDS, "fallback_bot": default_fallback(plugin)},
              "budget_ms": {"min": MIN_BUDGET_MS, "max": MAX_BUDGET_MS, "default": DEFAULT_BUDGET_MS},
              # Which move fields each kind of place on the board fills (shared.game.pictures.Place).
              "places": {kind: [way.as_json() for way in ways] for kind, ways in plugin.places.items()}}
    # Each page in each language, filled once.
    documents = {(name, lang): fill((WEB / f"{name}.html").read_text(encoding="utf-8"), str(config["title"]),
                                    config, lang, game.name)
                 for name in PAGES for lang in LANGUAGES}
    pages = Blueprint("pages", __name__)

    def page(name: str) -> Response:
        lang = page_language()
        response = Response(documents[(name, lang)], mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Vary"] = "Accept-Language, Cookie"
        if request.args.get("lang") in LANGUAGES:
            # A link with ?lang= chooses for the pages that follow, as the page's switch does.
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="Lax")
        # No third-party anything: scripts, styles and pictures come from this service only, and no
        # other site may frame a page (a hidden table under a decoy would play its clicks).
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @pages.get("/")
    def lobby() -> Response:
        return page("lobby")

    @pages.get("/table/<game_id>")
    def table(game_id: str) -> Response:
        return page("table")

    @pages.get("/replay/<game_id>")
    def replay(game_id: str) -> Response:
        return page("replay")

    @pages.get("/favicon.ico")
    def favicon() -> Response:
        """The icon browsers ask for by this name (the pages also link the SVG one)."""
        return send_from_directory(WEB, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=86400)

    @pages.post("/web/words")
    def words() -> Response:
        """The game's own words for what a page already holds: ``{"lang", "names", "events", "moves", "view"}``
        in (``lang``: the page's language, else Accept-Language's), ``{"events": [line...],
        "moves": [label...], "warnings": [text | null per move], "summary": text,
        "scores": [text per seat] | null, "panels": [panel...] | null}`` out (a warning: what the move costs the
        view's seat that it
        may not expect, for the table to confirm first).

        A pure function of the body (it reads no game, so it can show nothing the page was not
        given): the log's lines and the moves' labels come from the game's package
        (``services/<game>/render.py``), the same words as the CLI's.  Pages only, not the API."""
        body = read_json_body()
        if not isinstance(body, dict):
            raise Problem("validation-error", "Send a JSON object.")
        with use_language(pick(body.get("lang") if isinstance(body.get("lang"), str) else None,
                               request.accept_languages.best_match(LANGUAGES))):
            return json_response(describe(body))

    def describe(body: dict[str, Any]) -> dict[str, Any]:
        events, moves = body.get("events") or [], body.get("moves") or []
        if not isinstance(events, list) or not isinstance(moves, list) or len(events) + len(moves) > MAX_WORDS:
            raise Problem("validation-error", f"events and moves are lists of at most {MAX_WORDS} in all.")
        names = [str(n) for n in body.get("names") or []] if isinstance(body.get("names"), list) else []
        view = body.get("view") if isinstance(body.get("view"), dict) else None
        state = view.get("state") if view else None
        you = view.get("you") if view else None
        answer: dict[str, Any] = {
            "events": [event_words(game.name, e, names) for e in events],
            "moves": [describe_move(m, game.name, state) for m in moves],
            # What a move costs that its player may not expect: the table asks before playing it.
            "warnings": [move_warning(m, game.name, state, you) for m in moves]}
        if view is not None:
            ctx = Context(players=[p for p in view.get("players") or [] if isinstance(p, dict)],
                          you=view.get("you") if isinstance(view.get("you"), int) else None,
                          to_act=[s for s in view.get("to_act") or [] if isinstance(s, int)],
                          result=view.get("result") if isinstance(view.get("result"), dict) else None,
                          board=False)
            answer["summary"] = render_state(game.name, state, ctx)
            answer["scores"] = seat_scores(game.name, state)
            answer["panels"] = game_panels(game.name, state, ctx)
        return answer

    @pages.get("/web/game/<path:filename>")
    def game_web_file(filename: str) -> Response:
        """The game's own web files (``plugin.web_dir``): its move widgets."""
        if plugin.web_dir is None:
            raise Problem("not-found", "This game brings no web files.")
        response = send_from_directory(plugin.web_dir, filename, max_age=0)
        if filename.endswith(".js"):
            response.mimetype = "text/javascript"
        return response

    @pages.get("/web/<path:filename>")
    def web_file(filename: str) -> Response:
        if filename.endswith(".html"):
            # The pages' templates: served filled in, with their headers, at /, /table/ and /replay/ only.
            raise Problem("not-found", "The pages are at /, /table/{id} and /replay/{id}.")
        response = send_from_directory(WEB, filename, max_age=0)
        if filename.endswith(".js"):
            response.mimetype = "text/javascript"
        return response

    return pages

