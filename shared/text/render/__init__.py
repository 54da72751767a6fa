"""Text renderers for the terminal: a game's view, its moves and its events as readable lines.

    from shared.text.render import render_view, describe_move
    print(render_view(client.game(gid)))          # header, board, scores, your hand, whose turn
    print(describe_move({"type": "build_city", "node": 12}, "catan"))

Each game brings its own module, ``services/<game>/render.py`` (the platform knows no game), with
``render_state(state, ctx)``, and optionally ``describe_move(move, state)`` and
``describe_event(event, names)`` (one event in words; the same words the web table's log shows,
see shared/http/routes/pages.py).  A module that names its view's type (``VIEW_TYPE``, the game's
``TypedDict``) is handed only a value with that type's keys, and reads it without checking; any
other value gets :func:`generic_state`.  A renderer that fails falls back to it too, so rendering
never raises.  Every answer is :func:`terminal_safe`: text from the server (player
names above all) never carries a control character to the terminal.
"""
from __future__ import annotations

import logging
import re
from types import ModuleType
from typing import Any
from collections.abc import Callable

from shared.text.i18n import _
from shared.text.render.common import (Context, compact, describe_event_generic, describe_generic, generic_state,
                                       terminal_safe)
from shared.text.render.panels import as_json
from shared.game import registry
from shared.game.strict import strict
from shared.game.typed_view import holds_keys_of

__all__ = ["Context", "render_state", "render_view", "render_replay", "describe_move",
           "describe_event", "event_words", "move_warning", "seat_scores", "game_panels", "generic_state", "game_terms",
           "game_translator", "option_words", "game_refusals"]

log = logging.getLogger("render")
_GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,40}")


def _module(game: str | None) -> ModuleType | None:
    """The game's own renderers (its plugin's ``renderer``), or None (an unknown or odd name)."""
    if not isinstance(game, str) or not _GAME_NAME.fullmatch(game):
        return None
    try:
        return registry.plugin(game).renderer
    except (KeyError, ImportError):
        return None


def render_state(game: str | None, state: Any, ctx: Context | None = None) -> str:
    """The game's own ``state`` (a view) as text; the generic layout if no renderer fits."""
    ctx = ctx or Context()
    module = _module(game)
    if module is not None and _is_its_view(module, state):
        try:
            return terminal_safe(str(module.render_state(state, ctx)))
        except Exception:  # a half-built view must not break the terminal
            if strict():
                raise
            log.debug("renderer for %s failed; generic fallback", game, exc_info=True)
    return terminal_safe(generic_state(state))


def _is_its_view(module: ModuleType, state: Any) -> bool:
    """Whether ``state`` has the keys of the view the game's renderer reads (its ``VIEW_TYPE``)."""
    view_type = getattr(module, "VIEW_TYPE", None)
    return holds_keys_of(state, view_type) if view_type is not None else isinstance(state, dict)


def _header(title: str, status: Any, to_act: list[int], result: Any, ctx: Context) -> list[str]:
    lines = [title]
    if result:
        winners = result.get("winners") if isinstance(result, dict) else None
        if isinstance(winners, list) and winners:
            lines.append(_("Game over. Winner: {names}").format(names=_(" and ").join(ctx.name(w) for w in winners)))
        else:
            lines.append(_("Game over."))
        scores = result.get("scores") if isinstance(result, dict) else None
        if isinstance(scores, list):
            shown = ", ".join(f"{ctx.name(i)} {s}" for i, s in enumerate(scores))
            lines.append(_("Scores: {scores}").format(scores=shown))
    elif to_act:
        lines.append(_("To act: {names}").format(names=", ".join(ctx.name(s) for s in to_act))
                     + (_("  <- your turn") if ctx.you in to_act else ""))
    elif status:
        lines.append(_("Status: {status}").format(status=status))
    return lines


def render_view(view: dict[str, Any]) -> str:
    """A whole ``GET /games/{id}`` answer: header (game, version, whose turn, result) + state."""
    if not isinstance(view, dict):
        return terminal_safe(generic_state(view))
    to_act = view["to_act"] if isinstance(view.get("to_act"), list) else []
    ctx = Context(players=view.get("players") or [], you=view.get("you"), to_act=to_act,
                  result=view.get("result"))
    title = _("{game} {id}  version {version}").format(game=view.get("game", "game"), id=view.get("id", ""),
                                                        version=view.get("version", "?"))
    lines = _header(title.strip(), view.get("status"), to_act, view.get("result"), ctx)
    if view.get("seeded_by_client"):
        lines.append(_("Seeded by its creator: whoever chose the seed can predict every roll and hidden card."))
    lines.append(render_state(view.get("game"), view.get("state"), ctx))
    return terminal_safe("\n".join(lines))


def render_replay(game: str | None, replay: dict[str, Any], players: list[dict[str, Any]] | None = None) -> str:
    """A ``GET /games/{id}/replay`` answer (a spectator's state at one version)."""
    to_act = replay["to_act"] if isinstance(replay.get("to_act"), list) else []
    ctx = Context(players=players or [], you=None, to_act=to_act, result=replay.get("result"))
    lines = _header(_("{game} at version {version}").format(game=game or "game", version=replay.get("version", "?")),
                    replay.get("status"),
                    to_act, replay.get("result"), ctx)
    lines.append(render_state(game, replay.get("state"), ctx))
    return terminal_safe("\n".join(lines))


def describe_move(move: Any, game: str | None = None, state: Any = None) -> str:
    """A move dict as one short readable line (``state``, a view, adds board detail where known)."""
    return terminal_safe(_describe_move(move, game, state), keep_newlines=False)


def _describe_move(move: Any, game: str | None, state: Any) -> str:
    module = _module(game)
    describe = getattr(module, "describe_move", None)
    if describe is not None and isinstance(move, dict):
        try:
            return str(describe(move, state if isinstance(state, dict) else None))
        except Exception:
            if strict():
                raise
            log.debug("describe_move for %s failed", game, exc_info=True)
    return describe_generic(move, getattr(module, "_", None)) if isinstance(move, dict) else compact(move)


def move_warning(move: Any, game: str | None, state: Any, you: Any) -> str | None:
    """What ``move`` costs seat ``you`` that a player may not expect (the game's ``warn_move(move,
    state, you)``, from its view ``state``), for a table to confirm before playing it; None when
    nothing needs saying, or the game says nothing of such moves."""
    warn = getattr(_module(game), "warn_move", None)
    if warn is None or not isinstance(move, dict) or not isinstance(state, dict) or not isinstance(you, int):
        return None
    try:
        text = warn(move, state, you)
    except Exception:  # the page sends the view: an odd one gets no warning, not a 500
        log.debug("warn_move for %s failed", game, exc_info=True)
        return None
    return terminal_safe(str(text), keep_newlines=False) if text else None


def seat_scores(game: str | None, state: Any) -> list[str] | None:
    """Each seat's score in short words from the game's ``scores(state)`` (None without one)."""
    scores = getattr(_module(game), "scores", None)
    if scores is None or not isinstance(state, dict):
        return None
    try:
        return [terminal_safe(str(s), keep_newlines=False) for s in scores(state)]
    except Exception:  # a half-built view must not break the page
        if strict():
            raise
        log.debug("scores for %s failed", game, exc_info=True)
        return None


def game_panels(game: str | None, state: Any, ctx: Context) -> list[dict[str, Any]] | None:
    """The game's panels for the web table (its ``panels(state, ctx)``, see shared.render.panels)
    as JSON, every word :func:`terminal_safe`; None when the game has none or its view is odd."""
    panels = getattr(_module(game), "panels", None)
    if panels is None or not isinstance(state, dict):
        return None
    try:
        drawn = as_json(panels(state, ctx))
    except Exception:  # a half-built view must not break the page
        if strict():
            raise
        log.debug("panels for %s failed", game, exc_info=True)
        return None
    for panel in drawn:
        panel["title"] = terminal_safe(panel["title"], keep_newlines=False)
        for row in panel["rows"]:
            row["label"] = terminal_safe(row["label"], keep_newlines=False)
            row["text"] = terminal_safe(row["text"], keep_newlines=False)
            for item in row["items"]:
                item["label"] = terminal_safe(item["label"], keep_newlines=False)
    return drawn


def event_words(game: str | None, event: Any, names: list[str]) -> str:
    """One event in words, from the game's ``describe_event`` (generic words when it has none or
    it fails): the text of a CLI event line and of a line of the web table's log."""
    module = _module(game)
    describe = getattr(module, "describe_event", None)
    if describe is not None and isinstance(event, dict):
        try:
            return str(describe(event, names))
        except Exception:  # a log line must never break the page or the terminal
            if strict():
                raise
            log.debug("describe_event for %s failed", game, exc_info=True)
    return describe_event_generic(event, names, getattr(module, "_", None))


def game_translator(game: str | None) -> Callable[[str], str]:
    """The game's ``_`` (its renderer's: its own catalog, then the platform's), else the platform's."""
    translate = getattr(_module(game), "_", None)
    return translate if callable(translate) else _


def game_terms(game: str | None) -> dict[str, str]:
    """The game's words for its data (``TERMS`` in its renderer: move types, field names,
    resources) in the language in use, for the pages' forms; only those its catalog translates."""
    translate = game_translator(game)
    found = {str(word): str(translate(word)) for word in getattr(_module(game), "TERMS", ())}
    return {word: text for word, text in found.items() if text != word}


def game_refusals(game: str | None) -> dict[str, str]:
    """Each rule of the game a move can break (``REFUSALS`` in its renderer: the problem's ``reason``
    -> a sentence) in the language in use, for the pages to say why a move was refused."""
    translate = game_translator(game)
    refusals = getattr(_module(game), "REFUSALS", None)
    return {str(reason): str(translate(text)) for reason, text in (refusals or {}).items()}


def option_words(game: str | None, fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's option fields (shared.http.options_form) with their words in the language in use."""
    translate = game_translator(game)
    out = []
    for field in fields:
        field = {**field, "label": translate(field["label"])}
        if field.get("hint"):
            field["hint"] = translate(field["hint"])
        if field.get("choices"):
            field["choices"] = [{**c, "label": translate(c["label"])} for c in field["choices"]]
        out.append(field)
    return out


def describe_event(event: dict[str, Any], game: str | None = None, ctx: Context | None = None) -> str:
    """One served event as ``#seq  words`` (see :func:`event_words`)."""
    ctx = ctx or Context()
    if not isinstance(event, dict):
        return terminal_safe(compact(event), keep_newlines=False)
    seq = event.get("seq", "?")
    prefix = f"#{seq:<4}" if isinstance(seq, int) else f"#{seq} "
    return terminal_safe(f"{prefix} {event_words(game, event, ctx.names())}", keep_newlines=False)
