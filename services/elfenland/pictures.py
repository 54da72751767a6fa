"""The Elfenland board as SVG, drawn from the spectator's view (``board_svg``).

The rules give no coordinates, so the map is a schematic of our own (``TOWN_XY``), placed
roughly as on the printed board (NOTES.md, "Board picture"): the two lakes west and east, the
desert of Al'Baran in the middle, Kihromah a dead end west of Dag'Amura.  Every road is a
quadratic curve between its towns (``road_curve``); the seven pairs of towns joined twice (a
land road and a waterway) bend apart, and lake crossings bend into their lake.  Counters sit
on their road's curve (``counter_points``), elves on a ring round their town (``elf_xy``).

Clickable places: ``data-kind="town"`` (``data-id`` = the board's name, as ``fly`` names it)
and ``data-kind="road"`` (``data-id`` = the road id moves use).  Pieces carry ``data-seat``.
"""
from __future__ import annotations

import math
import textwrap
from functools import cache
from typing import Any

from services.elfenland.rules.board import ROADS, START_TOWN, TOWNS, Road
from services.elfenland.rules.view_types import Auction, ElfenlandView, RoadSlot, SeatView
from services.elfenland.render import PHASE_WORDS, words
from shared.game.pictures import Place, attrs, place_field, seat_colour, svg_document, text
from shared.text.i18n import N_, language, translator

# Elfenland's words, in French from locale/fr/LC_MESSAGES/messages.po: the picture is drawn in the
# language in use, and the parts drawn once are drawn once per language.  Towns and lakes are names.
_ = translator(__file__)

Point = tuple[float, float]

# The move fields each kind of clickable place fills (GamePlugin.places): a road is where a
# counter goes, a spell acts or an elf travels; a town is where an elf flies (Elfengold's witch).
PLACE_FIELDS: dict[str, tuple[Place, ...]] = {
    "road": (place_field("road"), place_field("other_road", "exchange")),
    "town": (place_field("town", "fly"),),
}

WIDTH = 1000
MAP_HEIGHT = 740
ROW = 34                  # height of one legend line

# A proposed layout (x east, y south), not the printed board's coordinates.
TOWN_XY: dict[str, Point] = {
    "Usselen": (120, 110),
    "Wylhien": (330, 95),
    "Jaccaranda": (560, 70),
    "Tichih": (790, 120),
    "Erg'Eren": (935, 260),
    "Yttar": (60, 300),
    "Parundia": (235, 285),
    "Al'Baran": (405, 265),
    "Throtmanni": (600, 225),
    "Rivinia": (760, 330),
    "Feodor": (560, 385),
    "Kihromah": (255, 470),
    "Grangor": (95, 505),
    "Dag'Amura": (410, 480),
    "Lapphalya": (640, 500),
    "Elvenhold": (830, 470),
    "Beata": (945, 470),
    "Mah'Davikia": (245, 650),
    "Jxara": (470, 655),
    "Virst": (700, 665),
    "Strykhaven": (905, 640),
}

TERRAIN_STYLE: dict[str, dict[str, Any]] = {
    "plain": {"stroke": "#b5cc3e", "stroke_width": 9},
    "forest": {"stroke": "#2e7d32", "stroke_width": 9},
    "mountain": {"stroke": "#8d6e63", "stroke_width": 9},
    "desert": {"stroke": "#e0a030", "stroke_width": 9},
    "river": {"stroke": "#1e88e5", "stroke_width": 7},
    "lake": {"stroke": "#0d47a1", "stroke_width": 5, "stroke_dasharray": "12 7"},
}
LAKE_FILL = "#9fd3f5"

# Counter kind -> (fill, short label, label colour).
COUNTER_STYLE: dict[str, tuple[str, str, str]] = {
    "giant_pig": ("#f48fb1", N_("Pig"), "#000"),
    "elfcycle": ("#bdbdbd", N_("Cyc"), "#000"),
    "magic_cloud": ("#e3f2fd", N_("Cld"), "#000"),
    "unicorn": ("#ce93d8", N_("Uni"), "#000"),
    "troll_wagon": ("#a1887f", N_("Trl"), "#000"),
    "dragon": ("#e53935", N_("Drg"), "#fff"),
    "obstacle": ("#3e2723", N_("Tree"), "#fff"),
    "sea_monster": ("#00695c", N_("Mon"), "#fff"),
    "gold": ("#ffd54f", N_("Gold"), "#000"),
    "double": ("#ffffff", "x2", "#000"),
    "exchange": ("#ffffff", N_("Exc"), "#000"),
}
UNKNOWN_COUNTER = ("#ffffff", "?", "#000")
COUNTER_W, COUNTER_H, COUNTER_GAP = 40, 22, 42

TWIN_BEND = 30            # how far apart the two roads of a doubly joined pair bend
LAKE_BEND = 34            # how far a lone lake crossing bends into its lake


def _pair_key(road: Road) -> tuple[str, str]:
    a, b = sorted((road.a, road.b))
    return a, b


_TWINS: dict[tuple[str, str], list[Road]] = {}
for _road in ROADS:
    _TWINS.setdefault(_pair_key(_road), []).append(_road)


def lake_centre(lake: str) -> Point:
    """The middle of a lake: the mean of its shore towns."""
    shore = sorted({t for r in ROADS if r.lake == lake for t in (r.a, r.b)})
    return (sum(TOWN_XY[t][0] for t in shore) / len(shore), sum(TOWN_XY[t][1] for t in shore) / len(shore))


def _normal(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return -dy / length, dx / length


def _bend(road: Road) -> float:
    """Signed offset of the road's control point along the normal of its sorted town pair."""
    a, b = _pair_key(road)
    pa, pb = TOWN_XY[a], TOWN_XY[b]
    nx, ny = _normal(pa, pb)
    lake_road = next((r for r in _TWINS[(a, b)] if r.lake), None)
    if lake_road is not None:
        # Bend the crossing into its lake; a land road beside it bends the other way.
        cx, cy = lake_centre(lake_road.lake or "")
        mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
        inward = 1.0 if (cx - mx) * nx + (cy - my) * ny > 0 else -1.0
        return inward * LAKE_BEND if road.lake else -inward * TWIN_BEND
    if len(_TWINS[(a, b)]) > 1:
        return TWIN_BEND if road.terrain == "river" else -TWIN_BEND
    return 0.0


def _curve(road: Road) -> tuple[Point, Point, Point]:
    pa, pb = TOWN_XY[road.a], TOWN_XY[road.b]
    # The normal of the sorted pair, so both roads of a twin pair agree on which side is which.
    first, second = _pair_key(road)
    nx, ny = _normal(TOWN_XY[first], TOWN_XY[second])
    bend = _bend(road)
    # A quadratic curve passes half-way to its control point: double the bend to get it.
    control = ((pa[0] + pb[0]) / 2 + 2 * bend * nx, (pa[1] + pb[1]) / 2 + 2 * bend * ny)
    return pa, control, pb


_CURVES = {road.id: _curve(road) for road in ROADS}


def road_curve(road_id: int) -> tuple[Point, Point, Point]:
    """Start (town ``a``), control point and end (town ``b``) of the road's quadratic curve."""
    return _CURVES[road_id]


def road_point(road_id: int, t: float) -> Point:
    """The point at parameter ``t`` (0 = town ``a``, 1 = town ``b``) on the road's curve."""
    p0, p1, p2 = road_curve(road_id)
    u = 1 - t
    return (u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
            u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1])


def _road_tangent(road_id: int, t: float) -> Point:
    p0, p1, p2 = road_curve(road_id)
    dx = 2 * (1 - t) * (p1[0] - p0[0]) + 2 * t * (p2[0] - p1[0])
    dy = 2 * (1 - t) * (p1[1] - p0[1]) + 2 * t * (p2[1] - p1[1])
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def road_path(road_id: int) -> str:
    """The SVG path data of a road."""
    p0, p1, p2 = road_curve(road_id)
    return f"M{p0[0]:.1f} {p0[1]:.1f} Q{p1[0]:.1f} {p1[1]:.1f} {p2[0]:.1f} {p2[1]:.1f}"


def _length(road_id: int) -> float:
    points = [road_point(road_id, i / 20) for i in range(21)]
    return sum(math.dist(p, q) for p, q in zip(points, points[1:]))


_LENGTHS = {road.id: _length(road.id) for road in ROADS}


def counter_points(road_id: int, count: int) -> list[Point]:
    """Where ``count`` counters lie on a road: centred on its middle, a counter's width apart."""
    if count <= 0:
        return []
    step = COUNTER_GAP / max(_LENGTHS[road_id], 1.0)
    first = 0.5 - step * (count - 1) / 2
    return [road_point(road_id, min(0.95, max(0.05, first + i * step))) for i in range(count)]


def elf_xy(town: str, seat: int, players: int) -> Point:
    """An elf's place: on a ring round its town, one spot per seat (elves never hide each other)."""
    x, y = TOWN_XY.get(town, TOWN_XY[START_TOWN])
    angle = 2 * math.pi * seat / max(players, 1) - math.pi / 2
    return x + 21 * math.cos(angle), y + 21 * math.sin(angle)


def visited_xy(town: str, seat: int, players: int) -> Point:
    """A seat's visit marker: a row of small squares above the town, in seat order."""
    x, y = TOWN_XY[town]
    return x + (seat - (players - 1) / 2) * 12, y - 50


# --- drawing ---------------------------------------------------------------------------------

def _f(value: float) -> str:
    return f"{value:.1f}"


def _lakes() -> list[str]:
    out = []
    for lake in sorted({r.lake for r in ROADS if r.lake}):
        cx, cy = lake_centre(lake)
        shore = sorted({t for r in ROADS if r.lake == lake for t in (r.a, r.b)})
        # The triangle of its shores, shrunk towards the middle and rounded by a thick stroke.
        points = " ".join(f"{_f(cx + 0.72 * (TOWN_XY[t][0] - cx))},{_f(cy + 0.72 * (TOWN_XY[t][1] - cy))}"
                          for t in shore)
        out.append(f'<polygon {attrs(points=points, fill=LAKE_FILL, stroke=LAKE_FILL, stroke_width=46, stroke_linejoin="round", data_lake=lake)}/>')
        name = "Mare Nebulae" if lake == "mare_nebulae" else "Mare Magnum" if lake == "mare_magnum" else lake
        out.append(f'<text {attrs(x=_f(cx), y=_f(cy + 5), font_size=15, font_style="italic", text_anchor="middle", fill="#0d47a1")}>{text(name)}</text>')
    return out


def _arrow(road_id: int, t: float, colour: str) -> str:
    """A chevron pointing downstream at ``t`` on a river."""
    road = ROADS[road_id]
    x, y = road_point(road_id, t)
    dx, dy = _road_tangent(road_id, t)
    if road.flows_to == road.a:
        dx, dy = -dx, -dy
    nx, ny = -dy, dx
    tip = (x + 9 * dx, y + 9 * dy)
    left = (x - 7 * dx + 8 * nx, y - 7 * dy + 8 * ny)
    right = (x - 7 * dx - 8 * nx, y - 7 * dy - 8 * ny)
    points = " ".join(f"{_f(px)},{_f(py)}" for px, py in (left, tip, right))
    return (f'<polyline {attrs(points=points, fill="none", stroke=colour, stroke_width=4, stroke_linecap="round", stroke_linejoin="round", data_flows_to=road.flows_to)}/>')


def _roads() -> list[str]:
    out = []
    for road in ROADS:
        style = TERRAIN_STYLE.get(road.terrain, TERRAIN_STYLE["plain"])
        if road.flows_to:
            label = _("road {id}: {a} - {b} ({terrain}, flows to {town})").format(
                id=road.id, a=road.a, b=road.b, terrain=words(road.terrain), town=road.flows_to)
        else:
            label = _("road {id}: {a} - {b} ({terrain})").format(id=road.id, a=road.a, b=road.b,
                                                                  terrain=words(road.terrain))
        # A wide invisible stroke under the drawn one: a finger finds the road on a phone.
        out.append(f'<g {attrs(data_kind="road", data_id=road.id, data_terrain=road.terrain)}>'
                   f'<title>{text(label)}</title>'
                   f'<path {attrs(d=road_path(road.id), fill="none", stroke="#000", stroke_opacity=0, stroke_width=26)}/>'
                   f'<path {attrs(d=road_path(road.id), fill="none", stroke_linecap="round", **style)}/>')
        if road.flows_to:
            out += [_arrow(road.id, t, style["stroke"]) for t in (0.22, 0.78)]
        out.append("</g>")
    return out


@cache
def _map(lang: str) -> str:
    """Lakes and roads never change: drawn once (in each language, for the roads' names)."""
    return "".join(_lakes() + _roads())


def _slot_items(slot: RoadSlot) -> list[str]:
    """The counters lying on a road, in drawing order (transports, then obstacle, gold, double)."""
    items: list[str] = list(slot["transports"])
    if slot["obstacle"] is not None:
        items.append(slot["obstacle"])
    if slot["gold"]:
        items.append("gold")
    if slot["double"]:
        items.append("double")
    return items


def _counter_face(style: tuple[str, str, str]) -> str:
    fill, label, ink = style
    label = _(label)
    return (f'<rect {attrs(x=-COUNTER_W / 2, y=-COUNTER_H / 2, width=COUNTER_W, height=COUNTER_H, rx=5, fill=fill, stroke="#000", stroke_width=1.5)}/>'
            f'<text {attrs(y=5, font_size=13, font_weight="bold", text_anchor="middle", fill=ink)}>{text(label)}</text>')


@cache
def _faces(lang: str) -> dict[str, str]:
    """Faces drawn once per language (a busy board holds dozens of counters)."""
    return {kind: _counter_face(style) for kind, style in COUNTER_STYLE.items()}


_UNKNOWN_FACE = _counter_face(UNKNOWN_COUNTER)


def _counter(kind: str, x: float, y: float, **extra: Any) -> str:
    return (f'<g {attrs(transform=f"translate({_f(x)},{_f(y)})", data_counter=kind, **extra)}>'
            f'{_faces(language()).get(kind, _UNKNOWN_FACE)}</g>')


def _counters(board: dict[str, RoadSlot]) -> list[str]:
    out: list[str] = []
    for road in sorted(board, key=int):
        items = _slot_items(board[road])
        for kind, (x, y) in zip(items, counter_points(int(road), len(items))):
            out.append(_counter(kind, x, y, **{"class": "counter", "data_road": int(road)}))
    return out


@cache
def _town_places(lang: str) -> str:
    """The towns never change: drawn once in each language."""
    out = []
    for town in TOWNS:
        x, y = TOWN_XY[town]
        capital = town == START_TOWN
        title = _("town {town}").format(town=town)
        out.append(f'<g {attrs(data_kind="town", data_id=town)}>'
                   f'<circle {attrs(cx=x, cy=y, r=24 if capital else 19, fill="#fff8e1" if not capital else "#ffe082", stroke="#4e342e", stroke_width=3)}/>'
                   # The name twice: a halo in the background colour keeps it readable over roads.
                   f'<text {attrs(x=x, y=y + 48, font_size=21, font_weight="bold", text_anchor="middle", fill="none", stroke="#f4ecd8", stroke_width=5, stroke_linejoin="round", aria_hidden="true")}>{text(town)}</text>'
                   f'<text {attrs(x=x, y=y + 48, font_size=21, font_weight="bold", text_anchor="middle", fill="#3e2723")}>{text(town)}</text>'
                   f'<title>{text(title)}</title></g>')
    return "".join(out)


def _town_marks(view: ElfenlandView) -> list[str]:
    """What the view adds to the towns: gold values, home towns once shown, and each seat's visits."""
    gold_values = view["gold_values"]
    out = []
    for town in TOWNS:
        x, y = TOWN_XY[town]
        if town in gold_values:
            out.append(f'<g {attrs(data_gold=gold_values[town])}>'
                       f'<circle {attrs(cx=x + 34, cy=y - 30, r=11, fill="#ffca28", stroke="#8d6e00", stroke_width=2)}/>'
                       f'<text {attrs(x=x + 34, y=y - 25, font_size=14, font_weight="bold", text_anchor="middle")}>{text(gold_values[town])}</text></g>')
    players = len(view["seats"])
    for seat, info in enumerate(view["seats"]):
        home = info["home"]
        if home is not None:
            # Home towns are shown once the game is over (the view turns them up then).
            hx, hy = TOWN_XY[home]
            out.append(f'<circle {attrs(cx=hx, cy=hy, r=30, fill="none", stroke=seat_colour(seat), stroke_width=4, stroke_dasharray="7 4", data_seat=seat, data_home=home)}/>')
        for town in info["visited"]:
            vx, vy = visited_xy(town, seat, players)
            out.append(f'<rect {attrs(x=_f(vx - 5), y=_f(vy - 5), width=10, height=10, fill=seat_colour(seat), stroke="#000", stroke_width=1, data_seat=seat, data_visited=town)}/>')
    return out


def _elves(seats: list[SeatView]) -> list[str]:
    out = []
    for seat, info in enumerate(seats):
        town = info["town"]
        x, y = elf_xy(town, seat, len(seats))
        out.append(f'<circle {attrs(cx=_f(x), cy=_f(y), r=10, fill=seat_colour(seat), stroke="#000", stroke_width=2.5, data_seat=seat, data_town=town, **{"class": "elf"})}/>')
    return out


# --- legend ----------------------------------------------------------------------------------

NAME_CHARS = 24           # longer names are cut in the legend (the map must stay readable)


def _player(players: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """The seat's public entry ({name, bot}); empty for a seat the list lacks."""
    return players[seat] if seat < len(players) else {}


def _name(player: dict[str, Any], seat: int) -> str:
    """The player's name, cut to ``NAME_CHARS`` (the map must stay readable), else "seat N"."""
    if player.get("name") is None:
        return _("seat {n}").format(n=seat)
    name = str(player["name"])
    return name[:NAME_CHARS - 1] + "\u2026" if len(name) > NAME_CHARS else name


def _counter_summary(info: SeatView) -> str:
    shown = [words(c["kind"]) for c in info["counters"] if c["kind"] is not None]
    hidden = sum(1 for c in info["counters"] if c["kind"] is None)
    parts = shown + ([_("{n} hidden").format(n=hidden)] if hidden else [])
    return ", ".join(parts) or _("none")


def _seat_lines(view: ElfenlandView, players: list[dict[str, Any]], seat: int, info: SeatView) -> tuple[str, str]:
    """A seat's two legend lines: name, towns and score; then its cards, coins and counters."""
    player = _player(players, seat)
    robot = _(" (bot)") if player.get("bot") else ""
    return _name(player, seat) + robot + ": " + ", ".join(_standing(view, seat, info)), ", ".join(_holdings(view, info))


def _standing(view: ElfenlandView, seat: int, info: SeatView) -> list[str]:
    """The towns a seat's elf visited; at the end, its score and whether it won."""
    visited = len(info["visited"])
    facts = [(_("{n} town") if visited == 1 else _("{n} towns")).format(n=visited)]
    result = view["result"]
    if result is not None:
        facts.append(_("score {n}").format(n=result["scores"][seat]))
        if seat in result["winners"]:
            facts.append(_("WINNER"))
    return facts


def _holdings(view: ElfenlandView, info: SeatView) -> list[str]:
    """Where a seat's elf stands and what it holds: cards, coins (where towns pay), counters,
    its own obstacle (Elfenland) and its home town once shown."""
    facts = [_("at {town}").format(town=info["town"]), _("{n} cards").format(n=info["hand_size"])]
    if view["gold_values"]:
        facts.append(_("{n} coins").format(n=info["coins"]))
    facts.append(_("counters: {counters}").format(counters=_counter_summary(info)))
    if info["obstacles"]:
        facts.append(_("{n} tree").format(n=info["obstacles"]))
    if info["home"] is not None:
        facts.append(_("home {town}").format(town=info["home"]))
    return facts


def _legend(view: ElfenlandView, players: list[dict[str, Any]], top: float) -> tuple[list[str], float]:
    """The legend under the map, from ``top`` down: the round, each seat, the face-up piles and
    the auction, then the key; and its bottom."""
    out = [f'<text {attrs(x=16, y=top, font_size=22, font_weight="bold")}>{text(_legend_header(view))}</text>']
    y = top + ROW
    for seat, info in enumerate(view["seats"]):
        out.append(_legend_seat(view, players, seat, info, y))
        y += ROW + 24
    for line in (part for extra in _legend_extras(view) for part in textwrap.wrap(extra, 88)):
        out.append(f'<text {attrs(x=16, y=y, font_size=18)}>{text(line)}</text>')
        y += ROW
    key, height = _key(language())
    out.append(f'<g transform="translate(0,{y:g})">{key}</g>')
    return out, y + height


def _legend_header(view: ElfenlandView) -> str:
    return _("{edition}: round {round}/{rounds}, {phase}").format(
        edition=words(view["edition"]).title(), round=view["round"], rounds=view["rounds"],
        phase=_(PHASE_WORDS[view["phase"]]))


def _legend_seat(view: ElfenlandView, players: list[dict[str, Any]], seat: int, info: SeatView, y: float) -> str:
    """A seat's swatch and two lines, the first in bold with a mark when the seat is to act."""
    first, second = _seat_lines(view, players, seat, info)
    acting = seat in view["to_act"]
    return (f'<g {attrs(data_seat=seat, **{"class": "legend-seat"})}>'
            f'<rect {attrs(x=16, y=y - 17, width=22, height=22, rx=4, fill=seat_colour(seat), stroke="#000")}/>'
            f'<text {attrs(x=46, y=y, font_size=20, font_weight="bold" if acting else None)}>'
            f'{"&#9654; " if acting else ""}{text(first)}</text>'
            f'<text {attrs(x=46, y=y + 24, font_size=17, fill="#4e342e")}>{text(second)}</text></g>')


def _legend_extras(view: ElfenlandView) -> list[str]:
    """The face-up counters and cards, the gold pile and the auction's lots, each as a sentence."""
    extras = []
    if view["face_up_counters"]:
        extras.append(_("face-up counters: {counters}").format(
            counters=", ".join(words(k) for k in view["face_up_counters"])))
    if view["face_up_cards"]:
        extras.append(_("face-up cards: {cards}").format(cards=", ".join(words(k) for k in view["face_up_cards"])))
    if view["gold_pile"]:
        extras.append(_("gold pile {n}").format(n=view["gold_pile"]))
    if view["auction"] is not None and view["auction"]["lots"]:
        extras.append(_auction_words(view["auction"]))
    return extras


def _auction_words(auction: Auction) -> str:
    return _("auction: {lots} (bid {n})").format(lots=", ".join(words(k) for k in auction["lots"]), n=auction["high"])


@cache
def _key(lang: str) -> tuple[str, float]:
    """The key, from y = 0 down: the terrains, then the counters' colours; and its height."""
    out = []
    y = 0.0
    x = 16.0
    for terrain, style in TERRAIN_STYLE.items():
        name = words(terrain)
        out.append(f'<line {attrs(x1=x, y1=y - 6, x2=x + 36, y2=y - 6, **style)}/>'
                   f'<text {attrs(x=x + 42, y=y, font_size=17)}>{text(name)}</text>')
        x += 42 + 11 * len(name) + 20
    y += ROW
    x = 16.0 + COUNTER_W / 2
    for kind in COUNTER_STYLE:
        if kind == "exchange":
            continue
        out.append(_counter(kind, x, y - 6))
        name = words(kind)
        out.append(f'<text {attrs(x=x + COUNTER_W / 2 + 4, y=y, font_size=15)}>{text(name)}</text>')
        x += COUNTER_W + 10 + 9 * len(name) + 10
        if x > WIDTH - 120:
            y += ROW
            x = 16.0 + COUNTER_W / 2
    return "".join(out), y + ROW


def board_svg(view: ElfenlandView, players: list[dict[str, Any]]) -> str:
    """The board as a complete SVG document: a pure function of the spectator's view."""
    body = [f'<rect {attrs(x=0, y=0, width=WIDTH, height="100%", fill="#f4ecd8")}/>',
            '<g font-family="sans-serif">']
    lang = language()
    body.append(_map(lang))
    # The counters lie on the roads: a click on one goes through to the road beneath, as it looks.
    body.append('<g pointer-events="none">')
    body += _counters(view["board"])
    body.append("</g>")
    body.append(_town_places(lang))
    body += _town_marks(view)
    body += _elves(view["seats"])
    legend, bottom = _legend(view, players, MAP_HEIGHT + 24)
    body += legend
    body.append("</g>")
    title = _("Elfenland board, round {n}").format(n=view["round"])
    return svg_document(WIDTH, bottom, body, title)
