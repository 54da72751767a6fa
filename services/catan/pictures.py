"""The Catan board as SVG, drawn from the spectator's view (see shared.game.pictures).

The island uses the rules' own lattice (``rules/board.py``): a hex centre sits at
``(2*col + |row-2|, 3*row)`` and its corners at ``(0,-2) (1,-1) (1,1) (0,2) (-1,1) (-1,-1)``
from it.  Scaling x by ``SIZE*sqrt(3)/2`` and y by ``SIZE/2`` turns that lattice into regular
pointy-top hexes of corner radius ``SIZE``, so node and edge ids map straight to pixels.

Layers, bottom to top: sea, hexes (``data-kind="hex"``), number tokens, harbours, roads,
buildings, robber, then the clickable edges and nodes (invisible, on top so a click on a road
or a building still names its edge or node).  Decorations ignore the pointer.

Every word is in the language in use (``shared.text.i18n``, Catan's catalog): the memoised layers
take the language as part of their key.
"""
from __future__ import annotations

import math
from functools import lru_cache
from collections.abc import Sequence
from typing import Any

from services.catan.rules.board import EDGE_NODES, HEX_NODES, NODE_COUNT, ROW_LENGTHS
from services.catan.rules.view_types import Board, CatanView, HarbourKind, Level, SeatView, Terrain
from shared.game.pictures import Place, place_field, seat_colour, svg_document, text
from shared.text.i18n import language, translator

Point = tuple[float, float]

# The move fields each kind of clickable place fills (GamePlugin.places).
PLACE_FIELDS: dict[str, tuple[Place, ...]] = {
    "node": (place_field("node"),),      # build_settlement, build_city
    "edge": (place_field("edge"),),      # build_road
    "hex": (place_field("hex"),),        # move_robber
}
# The island's layers are memoised on the view's terrains and numbers, as tuples.
Terrains = tuple[Terrain, ...]
Numbers = tuple[int | None, ...]
Harbours = tuple[tuple[HarbourKind, tuple[int, int]], ...]

# Catan's words, in French from locale/fr/LC_MESSAGES/messages.po.
_ = translator(__file__)

SIZE = 60.0                          # hex corner radius, px
X_UNIT = SIZE * math.sqrt(3) / 2     # one lattice step across
Y_UNIT = SIZE / 2                    # one lattice step down
MARGIN = 62.0                        # sea around the island (room for the harbours)
STATUS_HEIGHT = 40.0                 # the line above the board
LEGEND_ROW = 52.0

# The lattice spans x -1..9 and y -2..14 (corners included).
BOARD_WIDTH = 2 * MARGIN + 10 * X_UNIT
BOARD_HEIGHT = 2 * MARGIN + 16 * Y_UNIT
_ORIGIN = (MARGIN + 1 * X_UNIT, STATUS_HEIGHT + MARGIN + 2 * Y_UNIT)

# Same order as HEX_NODES (clockwise from the top corner), mirrored from rules/board.py.
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))

TERRAIN_COLOURS = {
    "hills": "#c0603a", "forest": "#2f7a3b", "pasture": "#a3cf62", "fields": "#edc860",
    "mountains": "#8d939b", "desert": "#e6d5a8",
}
RESOURCE_TERRAIN = {"brick": "hills", "lumber": "forest", "wool": "pasture", "grain": "fields",
                    "ore": "mountains"}
SEA = "#5b9bd5"
INK = "#222"
RED_NUMBERS = (6, 8)
NAME_LIMIT = 24                      # characters of a player's name shown in the legend


@lru_cache(maxsize=4096)
def _escaped(value: str) -> str:
    # shared.game.pictures.text looks at every character; a board repeats the same few hundred values.
    return text(value)


def attrs(**values: Any) -> str:
    """shared.game.pictures.attrs, with the escaping memoised (a picture has ~500 elements)."""
    return " ".join(f'{key.replace("_", "-")}="{_escaped(str(value))}"' for key, value in values.items()
                    if value is not None)


def _to_px(lx: float, ly: float) -> Point:
    return (_ORIGIN[0] + lx * X_UNIT, _ORIGIN[1] + ly * Y_UNIT)


def _lattice_centres() -> list[tuple[int, int]]:
    return [(2 * col + abs(row - 2), 3 * row)
            for row, length in enumerate(ROW_LENGTHS) for col in range(length)]


def _node_points() -> list[Point]:
    points: dict[int, Point] = {}
    for (cx, cy), corners in zip(_lattice_centres(), HEX_NODES):
        for (dx, dy), node in zip(_CORNER_OFFSETS, corners):
            points[node] = _to_px(cx + dx, cy + dy)   # a shared corner gets the same point each time
    return [points[node] for node in range(NODE_COUNT)]


_HEX_POINTS: list[Point] = [_to_px(cx, cy) for cx, cy in _lattice_centres()]
_NODE_POINTS: list[Point] = _node_points()
# A coastal edge belongs to one hex only; the harbour is drawn outwards from that hex.
_EDGE_HEXES: list[list[int]] = [[h for h, corners in enumerate(HEX_NODES) if a in corners and b in corners]
                                for a, b in EDGE_NODES]


def hex_xy(hex_id: int) -> Point:
    """Pixel centre of a hex."""
    return _HEX_POINTS[hex_id]


def node_xy(node: int) -> Point:
    """Pixel position of an intersection (where settlements and cities stand)."""
    return _NODE_POINTS[node]


def road_path(edge: int) -> tuple[Point, Point]:
    """The two pixel ends of a path (where a road lies)."""
    a, b = EDGE_NODES[edge]
    return node_xy(a), node_xy(b)


def hex_corners(hex_id: int) -> list[Point]:
    return [node_xy(node) for node in HEX_NODES[hex_id]]


def harbour_xy(nodes: Sequence[int]) -> Point:
    """Where a harbour's marker stands: out at sea, facing the coastal side between its nodes."""
    (ax, ay), (bx, by) = node_xy(nodes[0]), node_xy(nodes[1])
    mx, my = (ax + bx) / 2, (ay + by) / 2
    edge = next((e for e, pair in enumerate(EDGE_NODES) if set(pair) == set(nodes)), None)
    land = _EDGE_HEXES[edge] if edge is not None else []
    cx, cy = hex_xy(land[0]) if len(land) == 1 else _to_px(4, 6)   # else: away from the island's centre
    dx, dy = mx - cx, my - cy
    length = math.hypot(dx, dy) or 1.0
    reach = 34.0
    return (mx + dx / length * reach, my + dy / length * reach)


def _f(value: float) -> str:
    return f"{value:.1f}"


def _points(points: list[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _pips(number: int) -> int:
    """The dots under a number token: in how many of the 36 rolls of two dice it comes up."""
    return 6 - abs(7 - number)


# --- layers -----------------------------------------------------------------------------------

# The island's layers change only from game to game, not from move to move: they are memoised
# on the (hashable) terrains, numbers and harbours, which keeps a redraw after a move cheap.

@lru_cache(maxsize=64)
def _hexes(terrains: Terrains, numbers: Numbers, lang: str) -> str:
    out = []
    for hex_id, (terrain, number) in enumerate(zip(terrains, numbers)):
        label = _("hex {id}: {terrain}").format(id=hex_id, terrain=_(terrain)) + (f" {number}" if number else "")
        out.append(f'<polygon {attrs(points=_points(hex_corners(hex_id)), fill=TERRAIN_COLOURS[terrain], stroke="#f4ecd8", stroke_width=3, data_kind="hex", data_id=hex_id)}>'
                   f'<title>{text(label)}</title></polygon>')
    return "".join(out)


@lru_cache(maxsize=64)
def _tokens(terrains: Terrains, numbers: Numbers, lang: str) -> str:
    out = []
    for hex_id, (terrain, number) in enumerate(zip(terrains, numbers)):
        x, y = hex_xy(hex_id)
        out.append(f'<text {attrs(x=_f(x), y=_f(y + 38), font_size=12, text_anchor="middle", fill=INK, opacity=0.75)}>{text(_(terrain))}</text>')
        if number is None:      # the desert
            continue
        colour = "#c62828" if number in RED_NUMBERS else INK
        out.append(f'<circle {attrs(cx=_f(x), cy=_f(y), r=19, fill="#fbf3dc", stroke=INK, stroke_width=1)}/>')
        out.append(f'<text {attrs(x=_f(x), y=_f(y + 5), font_size=19, font_weight="bold" if number in RED_NUMBERS else None, text_anchor="middle", fill=colour, **{"class": "token"}, data_hex=hex_id)}>{number}</text>')
        pips = _pips(number)
        for i in range(pips):
            px = x + (i - (pips - 1) / 2) * 4
            out.append(f'<circle {attrs(cx=_f(px), cy=_f(y + 11), r=1.3, fill=colour)}/>')
    return "".join(out)


def _harbour_list(board: Board) -> Harbours:
    """The view's harbours as ``((kind, (node, node)), ...)``, hashable (the memo key of their layer)."""
    return tuple((harbour["kind"], (harbour["nodes"][0], harbour["nodes"][1])) for harbour in board["harbours"])


@lru_cache(maxsize=64)
def _harbours(harbours: Harbours, lang: str) -> str:
    out = []
    for kind, nodes in harbours:
        x, y = harbour_xy(nodes)
        ring = TERRAIN_COLOURS.get(RESOURCE_TERRAIN.get(kind, ""), "#ffffff")
        title = _("harbour {kind} at nodes {a}-{b}").format(kind=_(kind), a=nodes[0], b=nodes[1])
        group = [f'<g {attrs(**{"class": "harbour"}, data_harbour=kind, data_nodes=f"{nodes[0]} {nodes[1]}")}>',
                 f'<title>{text(title)}</title>']
        for node in nodes:
            nx, ny = node_xy(node)
            group.append(f'<line {attrs(x1=_f(x), y1=_f(y), x2=_f(nx), y2=_f(ny), stroke="#7a5a3a", stroke_width=4, stroke_linecap="round")}/>')
        group.append(f'<circle {attrs(cx=_f(x), cy=_f(y), r=25, fill="#fffaf0", stroke=ring if kind != "3:1" else INK, stroke_width=4 if kind != "3:1" else 1.5)}/>')
        if kind == "3:1":
            group.append(f'<text {attrs(x=_f(x), y=_f(y + 5), font_size=14, font_weight="bold", text_anchor="middle", fill=INK)}>3:1</text>')
        else:
            group.append(f'<text {attrs(x=_f(x), y=_f(y - 2), font_size=13, font_weight="bold", text_anchor="middle", fill=INK)}>2:1</text>')
            group.append(f'<text {attrs(x=_f(x), y=_f(y + 12), font_size=11, text_anchor="middle", fill=INK)}>{text(_(kind))}</text>')
        out.append("".join(group) + "</g>")
    return "".join(out)


# A piece's drawing depends only on its place, seat and level: memoised like the island's layers.

@lru_cache(maxsize=1024)
def _road(edge: int, seat: int) -> str:
    (x1, y1), (x2, y2) = road_path(edge)
    # Shortened a little so the buildings at both ends stay visible.
    sx, sy = (x2 - x1) * 0.14, (y2 - y1) * 0.14
    ends = dict(x1=_f(x1 + sx), y1=_f(y1 + sy), x2=_f(x2 - sx), y2=_f(y2 - sy))
    return (f'<g {attrs(**{"class": "road"}, data_seat=seat, data_edge=edge)}>'
            f'<line {attrs(**ends, stroke=INK, stroke_width=11, stroke_linecap="round")}/>'
            f'<line {attrs(**ends, stroke=seat_colour(seat), stroke_width=7, stroke_linecap="round")}/></g>')


def _roads(edge_owner: list[int]) -> list[str]:
    return [_road(edge, seat) for edge, seat in enumerate(edge_owner) if seat >= 0]


def _building_shape(level: int, x: float, y: float) -> list[Point]:
    if level >= 2:   # a city: a house with a tower
        return [(x - 14, y + 10), (x - 14, y - 4), (x - 6, y - 12), (x + 2, y - 4), (x + 2, y - 2),
                (x + 14, y - 2), (x + 14, y + 10)]
    return [(x - 9, y + 8), (x - 9, y - 3), (x, y - 11), (x + 9, y - 3), (x + 9, y + 8)]


@lru_cache(maxsize=1024)
def _building(node: int, seat: int, level: int, lang: str) -> str:
    x, y = node_xy(node)
    kind = "city" if level >= 2 else "settlement"
    title = (_("city at node {node}") if level >= 2 else _("settlement at node {node}")).format(node=node)
    return (f'<polygon {attrs(points=_points(_building_shape(level, x, y)), fill=seat_colour(seat), stroke=INK, stroke_width=2, stroke_linejoin="round", **{"class": kind}, data_seat=seat, data_node=node)}>'
            f'<title>{text(title)}</title></polygon>')


def _buildings(node_owner: list[int], node_level: list[Level]) -> list[str]:
    lang = language()
    return [_building(node, seat, level, lang) for node, (seat, level) in enumerate(zip(node_owner, node_level))
            if seat >= 0]


def _robber(robber: int) -> list[str]:
    x, y = hex_xy(robber)
    x -= 32   # beside the number token, not over it
    title = _("robber")
    return [f'<g {attrs(**{"class": "robber"}, data_hex=robber)}><title>{text(title)}</title>'
            f'<path {attrs(d=f"M{_f(x - 9)},{_f(y + 16)} Q{_f(x - 10)},{_f(y - 2)} {_f(x)},{_f(y - 4)} Q{_f(x + 10)},{_f(y - 2)} {_f(x + 9)},{_f(y + 16)} Z", fill="#333", stroke="#eee", stroke_width=1.5)}/>'
            f'<circle {attrs(cx=_f(x), cy=_f(y - 10), r=7, fill="#333", stroke="#eee", stroke_width=1.5)}/></g>']


# The hexes each node touches (for its accessible name), in the hexes' order.
_NODE_HEXES: dict[int, list[int]] = {}
for _hex, _corners in enumerate(HEX_NODES):
    for _node in _corners:
        _NODE_HEXES.setdefault(_node, []).append(_hex)


@lru_cache(maxsize=64)
def _places(terrains: Terrains, numbers: Numbers, lang: str) -> str:
    """The invisible, clickable edges and nodes, one each, with the ids the moves use; each is
    named for assistive technology by its ends or by the hexes it touches."""
    out = []
    for edge in range(len(EDGE_NODES)):
        (x1, y1), (x2, y2) = road_path(edge)
        a, b = EDGE_NODES[edge]
        title = _("edge {edge}: between nodes {a} and {b}").format(edge=edge, a=a, b=b)
        out.append(f'<line {attrs(x1=_f(x1), y1=_f(y1), x2=_f(x2), y2=_f(y2), stroke="#fff", stroke_opacity=0, stroke_width=12, data_kind="edge", data_id=edge)}>'
                   f'<title>{text(title)}</title></line>')
    for node in range(NODE_COUNT):
        x, y = node_xy(node)
        touches = ", ".join(_(terrains[h]) + (f" {numbers[h]}" if numbers[h] else "") for h in _NODE_HEXES[node])
        title = _("node {node}: by {hexes}").format(node=node, hexes=touches) if touches \
            else _("node {node}").format(node=node)
        out.append(f'<circle {attrs(cx=_f(x), cy=_f(y), r=11, fill="#fff", fill_opacity=0, data_kind="node", data_id=node)}>'
                   f'<title>{text(title)}</title></circle>')
    return "".join(out)


# --- words ------------------------------------------------------------------------------------

def _player(players: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """The seat's player as the platform lists them (not the view: a seat may have none yet)."""
    return players[seat] if 0 <= seat < len(players) and isinstance(players[seat], dict) else {}


def _name(players: list[dict[str, Any]], seat: int) -> str:
    name = _player(players, seat).get("name")
    name = str(name) if name not in (None, "") else _("Seat {n}").format(n=seat + 1)
    return name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"


def _count(number: int, one: str, many: str) -> str:
    """``one`` or ``many`` (both with ``{n}``, already in the language in use) for ``number``."""
    return (one if number == 1 else many).format(n=number)


def _status(view: CatanView, players: list[dict[str, Any]]) -> str:
    if view["winner"] is not None:
        line = _("{name} wins (turn {turn})").format(name=_name(players, view["winner"]), turn=view["turn"])
    else:
        line = _("Turn {turn}: {phase}").format(turn=view["turn"], phase=_(view["phase"])) \
            + _(", {name} to play").format(name=_name(players, view["current"]))
        dice = view["dice"]
        if dice is not None:
            line += _(", dice {a}+{b}={sum}").format(a=dice[0], b=dice[1], sum=dice[0] + dice[1])
    return (f'<text {attrs(x=_f(BOARD_WIDTH / 2), y=26, font_size=20, text_anchor="middle", fill=INK)}>'
            f'{text(line)}</text>')


def _marks(view: CatanView, info: SeatView) -> list[str]:
    """A seat's public counts, then the awards it holds."""
    seat = info["seat"]
    marks = [_count(info["resource_count"], _("{n} card"), _("{n} cards")),
             _count(info["dev_card_count"], _("{n} development card"), _("{n} development cards")),
             _count(info["knights_played"], _("{n} knight"), _("{n} knights")),
             _("road {n}").format(n=info["road_length"])]
    if view["longest_road"] == seat:
        marks.append(_("Longest road"))
    if view["largest_army"] == seat:
        marks.append(_("Largest army"))
    return marks


def _marker(view: CatanView, seat: int) -> str:
    """A star for the winner; while the game goes on, an arrow for the seat to play."""
    if view["winner"] is not None:
        return "★ " if view["winner"] == seat else ""
    return "▶ " if view["current"] == seat else ""


def _legend_entry(view: CatanView, info: SeatView, players: list[dict[str, Any]], y: float) -> str:
    """Two lines for a seat: colour, name and points; then the public counts and awards."""
    seat = info["seat"]
    # ``points`` (with victory point cards) is only in the view once the game is over.
    points = info["points"] if info["points"] is not None else info["public_points"]
    bot = _(" (bot)") if _player(players, seat).get("bot") else ""
    score = _("{n} VP").format(n=points)
    return (f'<g {attrs(**{"class": "legend"}, data_seat=seat)}>'
            f'<rect {attrs(x=14, y=_f(y - 17), width=22, height=22, rx=4, fill=seat_colour(seat), stroke=INK)}/>'
            f'<text {attrs(x=46, y=_f(y), font_size=19, fill=INK)}>'
            f'<tspan font-weight="bold">{text(_marker(view, seat) + _name(players, seat))}</tspan>'
            f'{text(bot)}: {text(score)}</text>'
            f'<text {attrs(x=46, y=_f(y + 22), font_size=15, fill="#444")}>{text(", ".join(_marks(view, info)))}</text></g>')


def _legend(view: CatanView, players: list[dict[str, Any]], top: float) -> list[str]:
    return [_legend_entry(view, info, players, top + row * LEGEND_ROW) for row, info in enumerate(view["seats"])]


def board_svg(spectators: CatanView, players: list[dict[str, Any]]) -> str:
    """The whole board as an SVG document: a pure function of the spectator's view and the seats."""
    board = spectators["board"]
    terrains, numbers = tuple(board["terrains"]), tuple(board["numbers"])
    lang = language()
    height = STATUS_HEIGHT + BOARD_HEIGHT + len(spectators["seats"]) * LEGEND_ROW + 12
    body = [f'<g {attrs(font_family="sans-serif")}>',
            f'<rect {attrs(x=0, y=0, width=_f(BOARD_WIDTH), height=_f(height), fill="#f7f3ea")}/>',
            f'<rect {attrs(x=4, y=_f(STATUS_HEIGHT), width=_f(BOARD_WIDTH - 8), height=_f(BOARD_HEIGHT), rx=24, fill=SEA)}/>',
            _status(spectators, players),
            _hexes(terrains, numbers, lang),
            '<g pointer-events="none">',
            _tokens(terrains, numbers, lang),
            _harbours(_harbour_list(board), lang),
            *_roads(spectators["edge_owner"]),
            *_buildings(spectators["node_owner"], spectators["node_level"]),
            *_robber(board["robber"]),
            '</g>',
            _places(terrains, numbers, lang),
            *_legend(spectators, players, STATUS_HEIGHT + BOARD_HEIGHT + 22),
            '</g>']
    return svg_document(BOARD_WIDTH, height, body, _("Catan board"))
