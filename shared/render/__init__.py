"""Text renderers for the terminal: a game's view, its moves and its events as readable lines.

    from shared.render import render_view, describe_move
    print(render_view(client.game(gid)))          # header, board, scores, your hand, whose turn
    print(describe_move({"type": "build_city", "node": 12}, "catan"))

One module per game (``shared.render.catan`` ...) exposes ``render_state(state, ctx)`` and
optionally ``describe_move(move, state)`` / ``describe_event(event, ctx)``.  Views of engines
still being written may lack keys: a renderer that fails falls back to :func:`generic_state`,
so rendering never raises.  Every answer is :func:`terminal_safe`: text from the server (player
names above all) never carries a control character to the terminal.
"""
from __future__ import annotations

import importlib
import logging
from types import ModuleType
from typing import Any

from shared.render.common import Context, compact, describe_generic, generic_state, terminal_safe, words

__all__ = ["Context", "render_state", "render_view", "render_replay", "describe_move",
           "describe_event", "generic_state", "GAMES"]

GAMES = ("catan", "elasund", "elfenland", "elastium")
log = logging.getLogger("render")


def _module(game: str | None) -> ModuleType | None:
    if game not in GAMES:
        return None
    try:
        return importlib.import_module(f"shared.render.{game}")
    except ImportError:  # pragma: no cover - a renderer module is part of this package
        return None


def render_state(game: str | None, state: Any, ctx: Context | None = None) -> str:
    """The game's own ``state`` (a view) as text; the generic layout if no renderer fits."""
    ctx = ctx or Context()
    module = _module(game)
    if module is not None and isinstance(state, dict):
        try:
            return terminal_safe(str(module.render_state(state, ctx)))
        except Exception:  # noqa: BLE001 - a half-built view must not break the terminal
            log.debug("renderer for %s failed; generic fallback", game, exc_info=True)
    return terminal_safe(generic_state(state))


def _header(title: str, status: Any, to_act: list[int], result: Any, ctx: Context) -> list[str]:
    lines = [title]
    if result:
        winners = result.get("winners") if isinstance(result, dict) else None
        if isinstance(winners, list) and winners:
            lines.append("Game over. Winner: " + " and ".join(ctx.name(w) for w in winners))
        else:
            lines.append("Game over.")
        scores = result.get("scores") if isinstance(result, dict) else None
        if isinstance(scores, list):
            lines.append("Scores: " + ", ".join(f"{ctx.name(i)} {s}" for i, s in enumerate(scores)))
    elif to_act:
        lines.append("To act: " + ", ".join(ctx.name(s) for s in to_act)
                     + ("  <- your turn" if ctx.you in to_act else ""))
    elif status:
        lines.append(f"Status: {status}")
    return lines


def render_view(view: dict[str, Any]) -> str:
    """A whole ``GET /games/{id}`` answer: header (game, version, whose turn, result) + state."""
    if not isinstance(view, dict):
        return terminal_safe(generic_state(view))
    to_act = view["to_act"] if isinstance(view.get("to_act"), list) else []
    ctx = Context(players=view.get("players") or [], you=view.get("you"), to_act=to_act,
                  result=view.get("result"))
    title = f"{view.get('game', 'game')} {view.get('id', '')}  version {view.get('version', '?')}"
    lines = _header(title.strip(), view.get("status"), to_act, view.get("result"), ctx)
    if view.get("seeded_by_client"):
        lines.append("Seeded by its creator: whoever chose the seed can predict every roll and hidden card.")
    lines.append(render_state(view.get("game"), view.get("state"), ctx))
    return terminal_safe("\n".join(lines))


def render_replay(game: str | None, replay: dict[str, Any], players: list[dict[str, Any]] | None = None) -> str:
    """A ``GET /games/{id}/replay`` answer (a spectator's state at one version)."""
    to_act = replay["to_act"] if isinstance(replay.get("to_act"), list) else []
    ctx = Context(players=players or [], you=None, to_act=to_act, result=replay.get("result"))
    lines = _header(f"{game or 'game'} at version {replay.get('version', '?')}", replay.get("status"),
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
        except Exception:  # noqa: BLE001
            log.debug("describe_move for %s failed", game, exc_info=True)
    return describe_generic(move) if isinstance(move, dict) else compact(move)


def describe_event(event: dict[str, Any], game: str | None = None, ctx: Context | None = None) -> str:
    """One served event as ``#seq  who: what`` (the move when the log shows it, else the event)."""
    return terminal_safe(_describe_event(event, game, ctx), keep_newlines=False)


def _describe_event(event: dict[str, Any], game: str | None, ctx: Context | None) -> str:
    ctx = ctx or Context()
    if not isinstance(event, dict):
        return compact(event)
    module = _module(game)
    seq = event.get("seq", "?")
    cause = event["cause"] if isinstance(event.get("cause"), dict) else {}
    prefix = f"#{seq:<4}" if isinstance(seq, int) else f"#{seq} "
    who = ""
    if cause.get("kind") == "move" and "seat" in cause:
        who = ctx.name(cause["seat"]) + ": "
        if isinstance(cause.get("move"), dict):
            who += describe_move(cause["move"], game) + " -> "
    custom = getattr(module, "describe_event", None)
    if custom is not None:
        try:
            return prefix + " " + who + str(custom(event, ctx))
        except Exception:  # noqa: BLE001
            log.debug("describe_event for %s failed", game, exc_info=True)
    data = event.get("data")
    detail = compact(data, 80) if data else ""
    return f"{prefix} {who}{words(event.get('type', '?'))}" + (f" {detail}" if detail else "")
