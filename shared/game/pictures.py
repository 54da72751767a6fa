"""What every game's board picture shares: seat colours and safe SVG building blocks.

Each game draws its own board (``services/<game>/pictures.py``: ``board_svg(view, players)``,
a pure function of the spectator's view); the platform only serves it (``GET
/games/{id}/board.svg``).  Text from players (names) goes through :func:`text`, which escapes
markup and drops control characters, so a name can neither break the picture nor script it.

Conventions every picture follows, so a browser table can make the board clickable without
knowing the game: each place a move can name carries ``data-kind`` (``node``, ``edge``, ``hex``,
``plot``, ``road``, ``town``, ``peg`` ...) and ``data-id`` (the id the move uses), and each piece
carries ``data-seat``.  Each game declares which move fields each kind fills (:class:`Place`,
``GamePlugin.places``), so that a click on a place plays only a move that names it as that kind.
"""
from __future__ import annotations

import html
import unicodedata
from dataclasses import dataclass
from typing import Any

# Colour-blind-friendly (Okabe-Ito), in seat order; six seats at most (Elfenland).
SEAT_COLOURS = ("#d55e00", "#0072b2", "#e6b800", "#009e73", "#cc79a7", "#56b4e9")
SEAT_NAMES = ("orange", "blue", "yellow", "green", "pink", "sky")


@dataclass(frozen=True)
class Place:
    """One way a move names a place of the board picture (a ``data-kind``).

    ``fields`` pairs each move field with the place's ``data-`` attribute whose value it holds:
    a plain field equals it, a list field holds it, and a place whose attribute is a
    space-separated list (``data-pegs="c3r4 c4r4"``) is named by a list field holding exactly
    those.  Only moves of ``types`` name it that way (any type that has the fields when empty)."""
    fields: tuple[tuple[str, str], ...]
    types: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"fields": dict(self.fields), "types": list(self.types)}


def place_field(name: str, *types: str, attribute: str = "id") -> Place:
    """A place whose ``data-<attribute>`` is the value of the move field ``name``."""
    return Place(((name, attribute),), types)


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def text(value: Any) -> str:
    """Player-supplied or engine text, safe inside SVG (escaped, no control characters)."""
    raw = str(value)
    if raw.isascii() and raw.isprintable():        # the common case, without a look at each character
        return html.escape(raw, quote=True)
    cleaned = "".join(ch for ch in raw if not unicodedata.category(ch).startswith("C"))
    return html.escape(cleaned, quote=True)


def attrs(**values: Any) -> str:
    """``key="value"`` pairs, escaped; ``data_kind`` becomes ``data-kind`` and ``class_`` ``class``;
    None values are left out."""
    return " ".join(f'{key.rstrip("_").replace("_", "-")}="{text(value)}"' for key, value in values.items()
                    if value is not None)


def svg_document(width: float, height: float, body: list[str], title: str) -> str:
    """A whole SVG document with a viewBox (it scales to any width) and an accessible title."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
            f'role="img" aria-label="{text(title)}"><title>{text(title)}</title>'
            + "".join(body) + "</svg>")
