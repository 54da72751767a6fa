"""Elasund's board as SVG: a pure function of the spectator's view (see shared.game.pictures).

The picture follows the printed board, seen from above with north up:

* on the far left the trade track (spaces 0 at the bottom to 11 at the top, each seat's disk,
  the cube boxes beside spaces 3/5/7/9/11 and the cubes in them);
* then the sea with the ship track: the printed row labels (2..12, no 7), the ship in its row
  (with the pirates' black flag when they sail), and the ship's row shaded across the city;
* the city: columns 0..2n for n players (windmills on the trade fields, the church foundation,
  permits, buildings by owner and size with their victory cubes, church tiles);
* the wall lanes around it: north and south (2 gold), east (4 gold) and the two gate tiles;
* below, a legend: each seat's colour, name, victory cubes (the score), trade points, cards in
  hand and permits left, then the turn, phase, dice, stock and church stack.

Clickable places: ``plot`` (``data-id="col,row"``, also ``data-col``/``data-row``) for every city
square a build or permit move names, ``wall`` (the wall space id) and ``row`` (a row label, as
``move_ship``/``move_pirates`` name it).  Pieces carry ``data-seat``.
"""
from __future__ import annotations

from functools import lru_cache, cache
from typing import Any

from services.elasund.rules import board
from services.elasund.rules.view_types import ElasundView
from shared.game.pictures import Place, place_field, seat_colour, svg_document, text
from shared.text.i18n import N_, language, translator

# Elasund's words, in French from locale/fr/LC_MESSAGES/messages.po (drawn in the language in use;
# the memoised parts take the language as part of their key).
_ = translator(__file__)

# The move fields each kind of clickable place fills (GamePlugin.places): a city square by its
# column and row (where a building or permit goes, or where a moved permit comes from), a wall
# space by its id, and a row of the sea by its label (the ship's and the pirates' moves only:
# a building's row is a square's, not a click on the sea).
PLACE_FIELDS: dict[str, tuple[Place, ...]] = {
    "plot": (Place((("col", "col"), ("row", "row"))),
             Place((("from_col", "col"), ("from_row", "row")), ("move_permit",))),
    "wall": (place_field("space", "build_wall"),),
    "row": (place_field("row", "move_ship", "move_pirates"),),
}

SQUARE = 40          # a city square
LANE = 18            # depth of a wall lane
PAD = 8
TRACK_W = 88         # the trade track column
SEA_W = 40           # the sea with the ship track and the row labels
TOP = PAD + 22       # room for the title line
FONT = 'font-family="sans-serif"'
STONE = "#b8b2a7"
GROUND = "#f3ead7"
SEA = "#9cc9e6"
LABELS = {"worker_hut_small": N_("hut"), "worker_hut_large": N_("huts"), "house": N_("house"),
          "workshop": N_("workshop"), "well": N_("well"), "market": N_("market"), "tavern": N_("tavern"),
          "shop": N_("shop"), "large": N_("office")}
NARROW_LABELS = {"workshop": N_("wksp")}   # a one-square-wide tile has room for about five letters


# -- geometry (the drawing and the tests both use these) ------------------------------------------
def grid_origin() -> tuple[float, float]:
    """Top-left corner of square (0, row 2)."""
    return PAD + TRACK_W + SEA_W, TOP + LANE


def square_xy(col: int, row: int) -> tuple[float, float]:
    """Top-left corner of a city square (``row`` is the printed label)."""
    x0, y0 = grid_origin()
    return x0 + col * SQUARE, y0 + board.ROW_INDEX[row] * SQUARE


def square_centre(col: int, row: int) -> tuple[float, float]:
    x, y = square_xy(col, row)
    return x + SQUARE / 2, y + SQUARE / 2


def building_rect(kind: str, col: int, row: int) -> tuple[float, float, float, float]:
    """x, y, width, height of a building's tile (it covers ``w`` x ``h`` squares from its NW square)."""
    spec = board.BUILDINGS[kind]
    x, y = square_xy(col, row)
    return x, y, spec["w"] * SQUARE, spec["h"] * SQUARE


def wall_rect(players: int, space: dict[str, Any]) -> tuple[float, float, float, float]:
    """x, y, width, height of a wall space: ``T<col>``/``B<col>`` above/below the city, ``R<row>`` east of it."""
    x0, y0 = grid_origin()
    if space["lane"] == "right":
        x, y = square_xy(board.columns(players), space["row"])
        return x, y, LANE, SQUARE
    col = int(space["id"][1:])
    y = y0 - LANE if space["lane"] == "top" else y0 + len(board.ROWS) * SQUARE
    return x0 + col * SQUARE, y, SQUARE, LANE


def row_label_xy(row: int) -> tuple[float, float]:
    """Centre of a row's label in the sea (where the ship sails)."""
    _left, y = square_xy(0, row)
    return PAD + TRACK_W + SEA_W / 2, y + SQUARE / 2


def track_xy(space: int) -> tuple[float, float]:
    """Top-left of trade-track space ``space`` (0 at the bottom, 11 at the top)."""
    _left, y0 = grid_origin()
    height = (len(board.ROWS) * SQUARE + 2 * LANE) / (board.TRACK_MAX + 1)
    return PAD, y0 - LANE + (board.TRACK_MAX - space) * height


def track_space_height() -> float:
    return (len(board.ROWS) * SQUARE + 2 * LANE) / (board.TRACK_MAX + 1)


def board_size(players: int) -> tuple[float, float]:
    """Width and height of the board part (without the legend)."""
    x0, y0 = grid_origin()
    return x0 + board.columns(players) * SQUARE + LANE + PAD, y0 + len(board.ROWS) * SQUARE + LANE + PAD


# -- drawing --------------------------------------------------------------------------------------
@lru_cache(maxsize=1024)
def _escaped(value: str) -> str:
    # The picture repeats a few hundred short strings (colours, labels): escape each once.
    return text(value)


def _attrs(cls: str | None = None, **values: Any) -> str:
    """Like ``shared.game.pictures.attrs`` (escaped, ``_`` -> ``-``, None left out), plus a ``class``
    (a Python keyword, so it comes in as ``cls``); numbers are written as they are, quickly."""
    parts = [f'class="{_escaped(cls)}"'] if cls else []
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f'{name.replace("_", "-")}="{value:g}"')
        else:
            parts.append(f'{name.replace("_", "-")}="{_escaped(str(value))}"')
    return " ".join(parts)


def _rect(x: float, y: float, w: float, h: float, **extra: Any) -> str:
    return f'<rect {_attrs(x=x, y=y, width=w, height=h, **extra)}/>'


def _label(x: float, y: float, value: Any, size: float = 11, **extra: Any) -> str:
    extra.setdefault("text_anchor", "middle")
    return (f'<text {_attrs(x=x, y=y, font_size=size, **extra)} {FONT}>'
            f'{_escaped(str(value))}</text>')


def _cube(cx: float, cy: float, seat: int, size: float = 9) -> str:
    """A victory cube of ``seat``."""
    return _rect(cx - size / 2, cy - size / 2, size, size, fill=seat_colour(seat), stroke="#222",
                 stroke_width="1", cls="cube", data_seat=seat)


# The board itself (track, sea, squares, lanes, gates, empty wall spaces) depends only on the
# player count: drawn once per count.  The pieces are drawn over it from the view.
@cache
def _background(players: int, lang: str) -> str:
    return "".join(_track_spaces() + _sea() + _squares(players) + _lanes(players))


def _track_spaces() -> list[str]:
    height = track_space_height()
    x, top = track_xy(board.TRACK_MAX)
    parts = ['<g class="trade-track">',
             _rect(x, top, TRACK_W - 6, height * (board.TRACK_MAX + 1), fill="#e9dfc6", stroke="#8a7a5a", rx=4)]
    for space in range(board.TRACK_MAX + 1):
        x, y = track_xy(space)
        vp = board.VP_SPACES.get(space)
        parts.append(_rect(x, y, TRACK_W - 6, height, fill="#f7efd9" if vp else "none", stroke="#8a7a5a",
                           stroke_width=0.5, cls="track-space", data_space=space))
        parts.append(_label(x + 9, y + height / 2 + 4, space, 11, font_weight="bold" if vp else None))
        for box in range(vp or 0):  # the cube boxes printed beside the space
            parts.append(_rect(*_track_box(space, box), fill="white", stroke="#8a7a5a", stroke_width=0.8))
    parts.append("</g>")
    return parts


def _track_box(space: int, box: int) -> tuple[float, float, float, float]:
    x, y = track_xy(space)
    return x + 22 + box * 11, y + 3, 9, 9


def _track_pieces(view: ElasundView) -> list[str]:
    parts = ['<g class="trade-pieces">']
    for space, seats in sorted(view["track_cubes"].items(), key=lambda item: int(item[0])):
        for box, seat in enumerate(seats):
            bx, by, w, h = _track_box(int(space), box)
            parts.append(_cube(bx + w / 2, by + h / 2, seat))
    height = track_space_height()
    for seat, total in enumerate(view["trade"]):
        x, y = track_xy(min(total, board.TRACK_MAX))
        parts.append(f'<circle {_attrs(cx=x + 28 + seat * 13, cy=y + height - 7, r=5.5, fill=seat_colour(seat), stroke="#222", cls="trade-disk", data_seat=seat, data_total=total)}/>')
    parts.append("</g>")
    return parts


def _sea() -> list[str]:
    _left, y0 = grid_origin()
    x = PAD + TRACK_W
    parts = ['<g class="sea">', _rect(x, y0 - LANE, SEA_W, len(board.ROWS) * SQUARE + 2 * LANE, fill=SEA)]
    for row in board.ROWS:
        cx, cy = row_label_xy(row)
        title = _("row {row} of the sea").format(row=row)
        parts.append(f'<g {_attrs(data_kind="row", data_id=row)}><title>{_escaped(title)}</title>'
                     + _rect(cx - SEA_W / 2, cy - SQUARE / 2, SEA_W, SQUARE, fill="none", stroke="#6b9fc2",
                             stroke_width=0.5)
                     + _label(cx, cy - 5, row, 13, font_weight="bold", fill="#16405e") + "</g>")
    parts.append("</g>")
    return parts


def _ship(view: ElasundView, players: int) -> list[str]:
    """The ship in its row of the sea; that row produces, so it is shaded across the city."""
    ship = view["ship"]
    if ship is None:          # before the first roll
        return []
    x, y = square_xy(0, ship)
    parts = [_rect(x, y, board.columns(players) * SQUARE, SQUARE, fill="#ffd23f", opacity=0.3, cls="ship-row")]
    cx, cy = row_label_xy(ship)
    # below the row's label: a hull and a sail; the pirates' flag flies left of the mast
    hull = f"{cx - 15:g},{cy + 12:g} {cx + 15:g},{cy + 12:g} {cx + 10:g},{cy + 19:g} {cx - 10:g},{cy + 19:g}"
    sail = f"{cx + 8:g},{cy + 11:g} {cx + 8:g},{cy - 6:g} {cx + 18:g},{cy + 11:g}"
    parts.append(f'<g {_attrs(cls="ship", data_row=ship)}>'
                 f'<polygon points="{hull}" fill="#7a4a21" stroke="#3d250f"/>'
                 f'<polygon points="{sail}" fill="white" stroke="#555"/>')
    if view["pirates"]:
        flag = f"{cx - 6:g},{cy + 11:g} {cx - 6:g},{cy + 1:g} {cx - 17:g},{cy + 4:g} {cx - 6:g},{cy + 7:g}"
        parts.append(f'<polygon class="pirates" points="{flag}" fill="black"/>')
    parts.append("</g>")
    return parts


def _windmills(cx: float, cy: float, points: int) -> str:
    """Little windmill sails, one per trade point, in the square's lower-left corner."""
    out = []
    for n in range(points):
        x, y = cx - SQUARE / 2 + 7 + n * 10, cy + SQUARE / 2 - 7
        out.append(f'<path d="M{x - 4:g},{y - 4:g}L{x + 4:g},{y + 4:g}M{x - 4:g},{y + 4:g}L{x + 4:g},{y - 4:g}" '
                   f'stroke="#8a6d3b" stroke-width="1.5" class="windmill"/>')
    return "".join(out)


def _squares(players: int) -> list[str]:
    fields = board.trade_fields(players)
    parts = ['<g class="city">']
    for col, row in board.city_squares(players):
        x, y = square_xy(col, row)
        cx, cy = square_centre(col, row)
        foundation = (col, row) == board.FOUNDATION
        title = _("column {col}, row {row}").format(col=col, row=row) + (_(" (the church)") if foundation else "")
        parts.append(f'<g {_attrs(data_kind="plot", data_id=board.key(col, row), data_col=col, data_row=row)}>'
                     f'<title>{_escaped(title)}</title>'
                     + _rect(x, y, SQUARE, SQUARE, fill="#cfc6b5" if foundation else GROUND, stroke="#c2b597",
                             stroke_width=1)
                     + (_windmills(cx, cy, fields[(col, row)]) if (col, row) in fields else "")
                     + (_label(cx, cy + 4, "✝", 14, fill="#8b8070") if foundation else "")
                     + "</g>")
    parts.append("</g>")
    return parts


def _church_area(view: ElasundView) -> list[str]:
    origin = view["church"]["origin"]
    if origin is None:        # no church tile built yet
        return []
    # the church's 3x3 area, fixed by its first tile
    x, y = square_xy(origin[0], origin[1])
    return [_rect(x + 1, y + 1, 3 * SQUARE - 2, 3 * SQUARE - 2, fill="none", stroke="#6d6357",
                  stroke_width=1.5, stroke_dasharray="4 3", cls="church-area")]


def _lanes(players: int) -> list[str]:
    """The wall lanes, the two L-shaped gate tiles and every wall space (its cost printed)."""
    n = board.columns(players) - 1         # the gates cover lane column n = 2 x players and the corner
    x0, y0 = grid_origin()
    bottom = y0 + len(board.ROWS) * SQUARE
    parts = ['<g class="lanes">']
    for y in (y0 - LANE, bottom):
        parts.append(_rect(x0, y, n * SQUARE, LANE, fill="#ddd6c8"))
    parts.append(_rect(x0 + (n + 1) * SQUARE, y0, LANE, len(board.ROWS) * SQUARE, fill="#ddd6c8"))
    for y_lane, y_row in ((y0 - LANE, y0), (bottom, bottom - SQUARE)):
        parts.append(_rect(x0 + n * SQUARE, y_lane, SQUARE + LANE, LANE, fill="#6d6357", cls="gate"))
        parts.append(_rect(x0 + (n + 1) * SQUARE, y_row, LANE, SQUARE, fill="#6d6357", cls="gate"))
    for space_id, space in board.wall_spaces(players).items():
        x, y, w, h = wall_rect(players, space)
        title = _("wall {space}: costs {gold}").format(space=space_id, gold=space["cost"])
        parts.append(f'<g {_attrs(data_kind="wall", data_id=space_id)}>'
                     f'<title>{_escaped(title)}</title>'
                     + _rect(x + 1, y + 1, w - 2, h - 2, fill="none", stroke="#8f877a", stroke_width=1,
                             stroke_dasharray="3 2")
                     + _label(x + w / 2, y + h / 2 + 3, space["cost"], 8, fill="#8f877a") + "</g>")
    parts.append("</g>")
    return parts


# Pieces: each drawn by a small cached function of its own (hashable) facts, since consecutive
# states share almost all of them (a replay draws hundreds of pictures of the same pieces).
def _permits(view: ElasundView) -> list[str]:
    return [_permit(seat, value, *board.unkey(where)) for where, (seat, value) in sorted(view["permits"].items())]


@lru_cache(maxsize=4096)
def _permit(seat: int, value: int, col: int, row: int) -> str:
    cx, cy = square_centre(col, row)
    return (f'<g {_attrs(cls="permit", data_seat=seat, data_col=col, data_row=row)}>'
            + _rect(cx - 11, cy - 11, 22, 22, rx=3, fill="white", stroke=seat_colour(seat), stroke_width=3)
            + _label(cx, cy + 5, value, 13, font_weight="bold") + "</g>")


def _buildings(view: ElasundView) -> list[str]:
    # Bigger tiles first, so a smaller one (never overlapping in a real state) stays visible.
    ordered = sorted(view["buildings"], key=lambda b: (-board.size(b["kind"]), b["id"]))
    lang = language()
    return [_building(b["kind"], b["seat"], b["col"], b["row"], tuple(b["cubes"]), lang) for b in ordered]


@lru_cache(maxsize=4096)
def _building(kind: str, seat: int, col: int, row: int, cubes: tuple[int, ...], lang: str) -> str:
    """A building tile; its victory cubes stand on its flags (the rows they count in)."""
    x, y, w, h = building_rect(kind, col, row)
    neutral = board.BUILDINGS[kind]["owner"] == "neutral"
    colour = seat_colour(seat)
    # A seat's own buildings are filled with its colour; neutral ones it built are white with
    # a thick border in its colour (the builder owns their cubes and income).
    body = _rect(x + 3, y + 3, w - 6, h - 6, rx=4, fill="white" if neutral else colour,
                 fill_opacity=None if neutral else 0.8, stroke=colour, stroke_width=4 if neutral else 2)
    name = _(LABELS.get(kind, kind) if w > SQUARE else NARROW_LABELS.get(kind, LABELS.get(kind, kind)))
    label = _label(x + w / 2, y + h - 7, name, 9 if w == SQUARE else 10, fill="#222", font_weight="bold")
    drawn = []
    for n, cube_row in enumerate(cubes):
        cy = square_centre(col, cube_row)[1] - 6 if cube_row in board.ROW_INDEX else y + 10 + 12 * n
        drawn.append(_cube(x + w - 11, cy, seat, 10))
    return (f'<g {_attrs(cls="building", data_building=kind, data_seat=seat, data_col=col, data_row=row)}>'
            + body + label + "".join(drawn) + "</g>")


def _church_tiles(view: ElasundView) -> list[str]:
    # seat None: the builder had no cube left to put on the tile
    return [_church_tile(tile["seat"], tile["tile"], *board.unkey(where))
            for where, tile in sorted(view["church"]["tiles"].items())]


@lru_cache(maxsize=1024)
def _church_tile(seat: int | None, tile: int, col: int, row: int) -> str:
    x, y = square_xy(col, row)
    cx, cy = square_centre(col, row)
    return (f'<g {_attrs(cls="church-tile", data_seat=seat, data_col=col, data_row=row, data_tile=tile)}>'
            + _rect(x + 1, y + 1, SQUARE - 2, SQUARE - 2, fill="#9d968c", stroke="#5b554d")
            + _label(cx - 6, cy + 6, "✝", 16, fill="white")
            + (_cube(x + SQUARE - 10, y + 10, seat, 10) if seat is not None else "") + "</g>")


def _walls(view: ElasundView, players: int) -> list[str]:
    return [_wall(players, space_id, wall["seat"], wall["tile"], wall["tower"])
            for space_id, wall in sorted(view["walls"].items())]


@lru_cache(maxsize=4096)
def _wall(players: int, space_id: str, seat: int, tile: int, tower: bool) -> str:
    """A wall tile in the seat's colour; a watch tower carries a victory cube."""
    x, y, w, h = wall_rect(players, board.wall_spaces(players)[space_id])
    return (f'<g {_attrs(cls="wall", data_seat=seat, data_space=space_id, data_tile=tile)}>'
            + _rect(x + 1, y + 1, w - 2, h - 2, fill=seat_colour(seat), stroke="#333", stroke_width=1)
            + (_cube(x + w / 2, y + h / 2, seat, 10) if tower else "") + "</g>")


def _legend(view: ElasundView, players: list[dict[str, Any]], y: float) -> tuple[list[str], float]:
    """Seats (colour, name, score and counts) and the table's state, from ``y`` down; returns the bottom."""
    parts = ['<g class="legend">']
    for seat in range(view["players"]):
        parts.append(_seat_legend(view, seat, players[seat] if seat < len(players) else {}, y))
        y += 34
    for line in _status_lines(view):
        parts.append(_label(PAD, y, line, 11, text_anchor="start", fill="#333"))
        y += 15
    parts.append("</g>")
    return parts, y


def _seat_legend(view: ElasundView, seat: int, info: dict[str, Any], y: float) -> str:
    """A seat's swatch, its name (marked as the winner or to act, and as a bot) and its counts."""
    name = str(info.get("name") or _("Seat {n}").format(n=seat + 1))
    name = name if len(name) <= 22 else name[:21] + "…"
    mark = "★ " if view["winner"] == seat else ("▶ " if seat in view["to_act"] else "")
    score = view["cubes_on_board"][seat]
    bot = _(" (bot)") if info.get("bot") else ""
    return (f'<g {_attrs(cls="seat", data_seat=seat, data_score=score)}>'
            + _rect(PAD, y - 11, 14, 14, rx="3", fill=seat_colour(seat), stroke="#222")
            + _label(PAD + 20, y, f"{mark}{name}{bot}", 12, text_anchor="start", font_weight="bold")
            + _label(PAD + 20, y + 14, ", ".join(_seat_details(view, seat)), 11, text_anchor="start", fill="#333")
            + "</g>")


def _seat_details(view: ElasundView, seat: int) -> list[str]:
    """Victory cubes out of all, trade points, cards in a hidden hand, and the permits left."""
    details = [_("{n}/{total} cubes").format(n=view["cubes_on_board"][seat], total=board.CUBES_PER_PLAYER),
               _("trade {n}").format(n=view["trade"][seat])]
    hand = view["hands"][seat]
    if "cards" in hand:
        details.append(_("{n} cards").format(n=hand["cards"]))
    permits = " ".join(map(str, view["supply"][seat]["permits"])) or "-"
    details.append(_("permits left {permits}").format(permits=permits))
    return details


def _status_lines(view: ElasundView) -> list[str]:
    """The turn, phase, dice and pirates; the building stock; the church stack and the bank."""
    dice = view["dice"]
    status = [_("Turn {n}").format(n=view["turn"]), _("{phase} phase").format(phase=_(view["phase"]))]
    if dice:
        status.append(_("dice {dice}={sum}").format(dice="+".join(map(str, dice)), sum=sum(dice)))
    if view["pirates"]:
        status.append(_("pirates!"))
    stock = view["stock"]
    return [", ".join(status),
            _("Stock: {buildings}").format(buildings=", ".join(f"{_(LABELS.get(k, k))} {v}" for k, v in stock.items())),
            ", ".join([_("church stack {n}").format(n=view["church"]["stack"]),
                       _("gold bank {n}").format(n=view["gold_bank"]),
                       _("influence deck {n}").format(n=view["influence_deck"])])]


def board_svg(view: ElasundView, players: list[dict[str, Any]]) -> str:
    """The whole picture of ``view`` (the spectator's view); ``players`` are the seats' {name, bot}."""
    return _picture(view, players)


def _picture(view: ElasundView, players: list[dict[str, Any]]) -> str:
    count = view["players"]
    width, height = board_size(count)
    width = max(width, 360)
    body = [_rect(0, 0, width, height, fill="#fbf8f1"),
            _label(PAD, PAD + 12, _("Elasund, {n} players").format(n=count), 14, text_anchor="start",
                   font_weight="bold")]
    body.append(_background(count, language()))
    # The pieces lie on the places (the plots, walls and rows drawn in the background): a click on
    # one goes through to the place beneath, as it looks.
    body.append('<g pointer-events="none">')
    body += _ship(view, count)
    body += _church_area(view)
    body += _track_pieces(view)
    body += _walls(view, count)
    body += _permits(view)
    body += _buildings(view)
    body += _church_tiles(view)
    body.append("</g>")
    legend, bottom = _legend(view, players, height + 14)
    body[0] = _rect(0, 0, width, bottom + PAD, fill="#fbf8f1")
    body += legend
    return svg_document(width, bottom + PAD, body, _("Elasund board"))
