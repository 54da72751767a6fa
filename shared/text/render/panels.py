"""The table's panels: what a game shows beside its board, as a small typed structure of words.

A game's renderer (``services/<game>/render.py``) may offer ``panels(state, ctx) -> list[Panel]``:
whose turn and the round, one's own hand as counts, the bank or market, the other seats' public
counts.  The web table draws every game's panels with one generic renderer (``shared/web/table.js``),
so the platform knows no game and the game writes every word, in the language in use, from its
catalog.  Panels are built from the view the page holds (a seat's or a spectator's), so they can
show nothing that view hides.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# A colour the page may paint a swatch with: hex digits only, so no CSS reaches the page from data.
_COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")


@dataclass(frozen=True)
class Item:
    """One thing counted: ``3 × brick`` with a brick-red swatch, or a word alone (``count`` None)."""

    label: str
    count: int | None = None
    colour: str | None = None

    def __post_init__(self) -> None:
        if self.colour is not None and not _COLOUR.fullmatch(self.colour):
            raise ValueError(f"not a hex colour: {self.colour!r}")


@dataclass(frozen=True)
class Row:
    """A line of a panel: a label (a seat's name, "Bank"), a short text, and things counted.

    ``seat`` paints the row in that seat's colour; ``current`` marks the seat whose turn it is."""

    label: str
    text: str = ""
    items: tuple[Item, ...] = ()
    seat: int | None = None
    current: bool = False


@dataclass(frozen=True)
class Panel:
    """A titled box of rows.  ``key`` is a stable name for the page and its tests
    (``turn``, ``hand``, ``bank``, ``market``, ``players``...), never shown."""

    key: str
    title: str
    rows: tuple[Row, ...] = field(default_factory=tuple)


def as_json(panels: list[Panel]) -> list[dict[str, Any]]:
    """Panels as the page takes them (``/web/words``'s ``panels``)."""
    return [{"key": p.key, "title": p.title,
             "rows": [{"label": r.label, "text": r.text, "seat": r.seat, "current": r.current,
                       "items": [{"label": i.label, "count": i.count, "colour": i.colour} for i in r.items]}
                      for r in p.rows]}
            for p in panels]


def counted(values: Any, say: Any, colours: dict[str, str] | None = None, keep_zero: bool = False) -> tuple[Item, ...]:
    """``{"brick": 2, "ore": 0}`` -> items ``2 × brick`` (``say`` gives each word in the language
    in use, ``colours`` its swatch); zeros are left out unless ``keep_zero``."""
    if not isinstance(values, dict):
        return ()
    colours = colours or {}
    return tuple(Item(say(str(k)), int(n), colours.get(str(k))) for k, n in values.items()
                 if isinstance(n, int) and not isinstance(n, bool) and (n or keep_zero))


def seat_label(ctx: Any, seat: int) -> str:
    """A seat's name for a panel's row: the player's name, else "seat N" (ctx: a render Context)."""
    names = ctx.names()
    return names[seat] if 0 <= seat < len(names) else ctx.name(seat)
