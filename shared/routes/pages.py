"""The pages a person uses in a browser: the lobby (``/``), a table (``/table/{id}``) and a replay
(``/replay/{id}``), plain HTML with ES modules and CSS from ``shared/web/``.

The pages know no game: they show what the API gives (the view, the legal moves, the log, the
board picture) and post moves as the API takes them.  A seat's token stays in the page (the URL
fragment, never a query string), so it reaches the server only in an Authorization header.
This is a plain Flask blueprint, not a flask-smorest one: the pages are not part of the API document.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from flask import Blueprint, Response, send_from_directory

from shared.routes.context import Service

WEB = Path(__file__).resolve().parent.parent / "web"
PAGES = ("lobby", "table", "replay")


def blueprint(service: Service) -> Blueprint:
    game, plugin = service.game, service.plugin
    # What the lobby needs to offer a game: given to every page in a JSON script element.
    config = {"game": game.name, "title": game.title or game.name, "min_players": game.min_players,
              "max_players": game.max_players, "strategies": sorted(plugin.strategies),
              "default_options": game.default_options(), "has_picture": plugin.board_svg is not None}
    # "</" could end the script element early; JSON allows "<\/" for it.
    config_json = json.dumps(config).replace("</", "<\\/")
    documents = {name: (WEB / f"{name}.html").read_text(encoding="utf-8")
                 .replace("{{title}}", html.escape(str(config["title"]))).replace("{{config}}", config_json)
                 for name in PAGES}
    pages = Blueprint("pages", __name__)

    def page(name: str) -> Response:
        response = Response(documents[name], mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache"
        # No third-party anything: scripts, styles and pictures come from this service only.
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'")
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

    @pages.get("/web/<path:filename>")
    def web_file(filename: str) -> Response:
        response = send_from_directory(WEB, filename, max_age=0)
        if filename.endswith(".js"):
            response.mimetype = "text/javascript"
        return response

    return pages

