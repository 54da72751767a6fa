"""The board as a picture: ``GET /games/{id}/board.svg`` (``?version=N``: right after event N).

Drawn by the game's own package (``plugin.board_svg``, a pure function of the spectator's view),
so the platform knows no game.  Always the spectator's picture: a seat's hand is never in it,
and no token goes in a URL, so any page can show it with a plain ``<img src=...>``.

Its words (titles, legend, status) are in the language asked for: ``?lang=`` (what the pages
send), else the ``lang`` cookie or Accept-Language as for the pages themselves.  The language is
part of the ETag (``"12"`` in English, ``"12.fr"`` in French), and an answer chosen by the
headers says ``Vary: Accept-Language, Cookie``, so no cache hands one language's picture to the other.
"""
from __future__ import annotations


from flask import Response
from flask_smorest import Blueprint

from shared.http import limits
from shared.http.plumbing import entity_tag, not_modified
from shared.http.openapi import problems
from shared.http.routes.context import Service
from shared.http.routes.history import check_version
from shared.http.routes.pages import page_language
from shared.http.schemas import BoardQuerySchema
from shared.play import meta as gm
from shared.text.i18n import DEFAULT, use_language

SVG = "image/svg+xml"


def blueprint(service: Service) -> Blueprint:
    game, runtime, draw = service.game, service.runtime, service.plugin.board_svg
    assert draw is not None
    pictures = Blueprint("pictures", __name__, description=f"{game.title} boards as pictures.")

    @pictures.route("/games/<game_id>/board.svg")
    @pictures.doc(responses={
        **problems(404, 422), **limits.READ_RESPONSES,
        200: {"description": "The board as the spectators see it (SVG). Places a move names carry "
                             "`data-kind` and `data-id`; pieces carry `data-seat`.",
              "content": {SVG: {"schema": {"type": "string"}}},
              "headers": {"ETag": {"schema": {"type": "string"},
                                             "description": "The version, quoted; then `.` and the language "
                                                            "if not English (`\"12.fr\"`)."}}},
        304: {"description": "If-None-Match named this very picture."}})
    @pictures.arguments(BoardQuerySchema(), location="query", as_kwargs=True)
    def board(game_id: str, version: int | None = None, lang: str | None = None) -> Response:
        """The board right now, or right after event ``version``, as an SVG picture."""
        if version is None:
            loaded = runtime.load(game_id)
            state, at, players = loaded.state, loaded.version, loaded.players
            rules = runtime.rules_for(loaded.meta)
        else:
            meta = runtime.meta(game_id)
            check_version(meta, version)
            rules = runtime.rules_for(meta)
            state, at = runtime.state_at(game_id, version, rules), version
            players = gm.players_of(meta)
        chosen = lang or page_language()
        etag = entity_tag(at) if chosen == DEFAULT else f'"{at}.{chosen}"'
        vary = {} if lang else {"Vary": "Accept-Language, Cookie"}
        unchanged = not_modified(etag)
        if unchanged is not None:
            unchanged.headers.update(vary)
            return unchanged
        with use_language(chosen):
            picture = draw(rules.view(state, None), players)
        response = Response(picture, mimetype=SVG, headers={"ETag": etag, **vary})
        # A picture of a past version never changes; the current one does with every move.
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if version else "no-cache"
        return response

    return pictures
