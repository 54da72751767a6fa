"""Helpers every text renderer shares: the viewer's context and compact formatting."""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from shared.text.i18n import N_, _

# Translates one word of a game's data (a resource, a move's type): the game's own domain's ``_``.
Term = Callable[[str], str]

WIDTH = 100

# Characters a terminal may act on (ESC starts a control sequence; bidi overrides reorder the line):
# category C* and the Unicode line/paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def terminal_safe(text: str, keep_newlines: bool = True) -> str:
    """``text`` with every character a terminal could act on shown as an escape (``\\x1b``).

    The service refuses such names, but text from a server is never trusted to be clean: every
    renderer's answer goes through this (defence in depth).  Newlines separate our own lines.
    """
    if text.isascii() and text.isprintable():
        return text
    out = []
    for char in text:
        if (char == "\n" and keep_newlines) or unicodedata.category(char) not in _UNSAFE_CATEGORIES:
            out.append(char)
        else:
            out.append(char.encode("unicode_escape").decode("ascii") if ord(char) < 0x10000
                       else f"\\U{ord(char):08x}")
    return "".join(out)


@dataclass
class Context:
    """What a renderer knows besides the game's own ``state``: who is who, who acts, the result."""

    players: list[dict[str, Any]] = field(default_factory=list)
    you: int | None = None
    to_act: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None
    # False where a picture shows the board (the web table): the text then leaves out its own drawing.
    board: bool = True

    def name(self, seat: Any) -> str:
        """``"seat 1 (greedy)"``, ``"seat 0 (me, you)"``; tolerant of unknown seats."""
        if not isinstance(seat, int):
            return str(seat)
        label = _("seat {n}").format(n=seat)
        player = next((p for p in self.players if isinstance(p, dict) and p.get("seat") == seat), None)
        extras = []
        if player and player.get("name"):
            extras.append(terminal_safe(str(player["name"]), keep_newlines=False))
        if player and player.get("bot"):
            extras.append(_("bot:{name}").format(name=player["bot"]))
        if seat == self.you and _("you") not in extras:
            extras.append(_("you"))
        return label + (f" ({', '.join(extras)})" if extras else "")

    def names(self) -> list[str]:
        """One plain name per seat (``"seat N"`` for a seat without one), as describe_event takes."""
        known = {p.get("seat"): p.get("name") for p in self.players if isinstance(p, dict)}
        count = max([s + 1 for s in known if isinstance(s, int)], default=0)
        return [str(known.get(s) or _("seat {n}").format(n=s)) for s in range(count)]

    def marker(self, seat: Any) -> str:
        """``>`` for a seat to act, else a blank."""
        return ">" if seat in self.to_act else " "


def counts(value: Any, empty: str | None = None, term: Term | None = None) -> str:
    """``{"brick": 2, "ore": 0, "wool": 1}`` -> ``"2 brick, 1 wool"``; lists -> ``"a, b"``
    (``term`` translates the names: the game's own ``_``)."""
    term = term or _
    empty = _("none") if empty is None else empty
    if isinstance(value, dict):
        parts = [f"{n} {term(str(k))}" if isinstance(n, (int, float)) and not isinstance(n, bool)
                 else f"{term(str(k))}={compact(n)}" for k, n in value.items() if n not in (0, None, [], {})]
        return ", ".join(parts) or empty
    if isinstance(value, (list, tuple)):
        return ", ".join(compact(term(v)) if isinstance(v, str) else compact(v) for v in value) or empty
    if value is None:
        return empty
    return str(value)


def compact(value: Any, limit: int = WIDTH) -> str:
    """One-line JSON-ish text, cut at ``limit`` characters."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def generic_state(state: Any, indent: str = "  ") -> str:
    """Any view as ``key: value`` lines, nested dicts one level deep, long values cut."""
    if not isinstance(state, dict):
        return indent + compact(state)
    lines = []
    for key, value in state.items():
        if isinstance(value, dict) and value and len(compact(value)) > WIDTH - len(str(key)):
            lines.append(f"{indent}{key}:")
            for sub, item in value.items():
                lines.append(f"{indent}  {sub}: {compact(item, WIDTH - len(indent) - len(str(sub)) - 4)}")
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value) \
                and len(compact(value)) > WIDTH - len(str(key)):
            lines.append(f"{indent}{key}:")
            for i, item in enumerate(value):
                lines.append(f"{indent}  [{i}] {compact(item, WIDTH - len(indent) - 8)}")
        else:
            lines.append(f"{indent}{key}: {compact(value, WIDTH - len(indent) - len(str(key)) - 2)}")
    return "\n".join(lines)


def words(name: Any) -> str:
    """``"build_city"`` -> ``"build city"``."""
    return str(name).replace("_", " ").replace("-", " ")


def _words(term: Term | None) -> Term:
    """A word of a game's data in the language in use: its translation, else the word with spaces."""
    def say(name: Any) -> str:
        translated = (term or _)(str(name))
        return words(name) if translated == str(name) else translated
    return say


def describe_generic(move: dict[str, Any], term: Term | None = None) -> str:
    """``{"type": "bank_trade", "give": "wool", "get": "ore"}`` -> ``"bank trade: give wool, get ore"``."""
    if not isinstance(move, dict):
        return compact(move)
    say = _words(term)
    args = []
    for key, value in move.items():
        if key == "type":
            continue
        if isinstance(value, bool):
            text = _("yes") if value else _("no")
        elif isinstance(value, dict):
            text = counts(value, term=term)
        elif isinstance(value, list):
            text = "[" + counts(value, empty="", term=term) + "]"
        else:
            text = "-" if value is None else say(value) if isinstance(value, str) else str(value)
        args.append(f"{say(key)} {text}")
    head = say(move.get("type", "?"))
    return head + (": " + ", ".join(args) if args else "")


def seat_name(names: Any, seat: Any) -> str:
    """The name of ``seat`` from ``names`` (one per seat), or ``"seat N"`` when there is none."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return _("nobody") if seat is None else str(seat)
    if isinstance(names, (list, tuple)) and 0 <= seat < len(names) and str(names[seat]).strip():
        return str(names[seat])
    return _("seat {n}").format(n=seat)


def event_data(event: Any) -> dict[str, Any]:
    """An event's ``data`` as a dict (empty when missing or odd)."""
    data = event.get("data") if isinstance(event, dict) else None
    return data if isinstance(data, dict) else {}


def event_actor(event: Any, names: Any) -> str:
    """Who an event is about: its ``data.seat``, else the seat whose move caused it, else ''."""
    data = event_data(event)
    if isinstance(data.get("seat"), int) and not isinstance(data.get("seat"), bool):
        return seat_name(names, data["seat"])
    cause = event.get("cause") if isinstance(event, dict) else None
    if isinstance(cause, dict) and cause.get("kind") == "move" and isinstance(cause.get("seat"), int):
        return seat_name(names, cause["seat"])
    return ""


# The platform's events (shared/log/platform_events.py) and their data, in the generic words below.
PLATFORM_TERMS = (N_("seat_joined"), N_("seat_left"), N_("game_started"), N_("game_cancelled"), N_("seat_resigned"),
                  N_("rematch"), N_("seed_revealed"), N_("game_abandoned"), N_("name"), N_("bot"), N_("game_id"),
                  N_("seed"), N_("salt"), N_("status"), N_("result"), N_("last_move_at"), N_("idle_seconds"),
                  N_("abandoned"))


def describe_event_generic(event: Any, names: Any, term: Term | None = None) -> str:
    """``"bob: dice rolled, dice 3, 4"``: who, the type in words, the other data in short."""
    if not isinstance(event, dict):
        return compact(event)
    say = _words(term)
    who = event_actor(event, names)
    kind = str(event.get("type", "?"))
    if kind.startswith("platform."):
        kind = kind[len("platform."):]
    parts = []
    for key, value in event_data(event).items():
        if key == "seat" or value in (None, [], {}):
            continue
        text = counts(value, term=term) if isinstance(value, (dict, list)) else (
            _("yes") if value is True else _("no") if value is False else say(value) if isinstance(value, str)
            else str(value))
        parts.append(f"{say(key)} {compact(text, 60)}")
    return (f"{who}: " if who else "") + say(kind) + (", " + "; ".join(parts) if parts else "")


def describe_with(handlers: dict[str, Any], event: Any, names: Any, term: Term | None = None) -> str:
    """A game's ``describe_event``: its handler for the event's type (given the data and the actor's
    name), else the generic words.  A handler that trips on odd data falls back too."""
    if not isinstance(event, dict):
        return compact(event)
    handler = handlers.get(str(event.get("type")))
    if handler is not None:
        try:
            return str(handler(event_data(event), event_actor(event, names) or _("someone"), names))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass
    return describe_event_generic(event, names, term)


def game_end_words(scores: Any, winners: Any, names: Any) -> str:
    """``"the game ends: ann 9, bob 23; winner bob"``."""
    return _("the game ends: {scores}; winner {winners}").format(
        scores=", ".join(f"{seat_name(names, s)} {p}" for s, p in enumerate(scores or [])),
        winners=_(" and ").join(seat_name(names, s) for s in winners or []))
