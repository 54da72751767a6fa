"""Elastium's board as SVG: the peg lattice, its printed lines and segments, the bands by seat.

``board_svg(view, players)`` is a pure function of the spectator's view (``views.view(state,
None)``) and the seats' names; the printed face (peg colours, lines, items) comes from the
scenario's data in ``rules/boards.json``, so the view only has to say what happened on it.

North (row 9) is at the top, as in the pegs' names; odd rows sit half a step east.  Layers,
bottom to top: segments (items, tint of the seat that collected them, hatching of the seats
that enclosed them), printed lines, line items and bridges, bands, pegs, side labels, legend.

Clickable places (see ``shared/game/pictures.py``): every playable peg (``data-kind="peg"``,
``data-id="c3r4"``), every printed line between playable pegs (``line``, ``"c3r4-c4r4"``, the
two pegs of a 2-peg band) and every playable segment (``segment``, ``"s4i6"``, the three pegs
of a triangle band; none in the Labyrinth, which has 2-peg bands only).  Bands, chain heads and collected marks carry ``data-seat``.
"""
from __future__ import annotations

import colorsys
import math
from typing import Any

from services.elastium.rules.board import BARRIER, Board, board, line_key, peg_row_col, raw_boards
from services.elastium.rules.view_types import ElastiumView
from services.elastium.render import CARD_WORDS, PHASE_WORDS, words
from shared.game.pictures import Place, attrs, place_field, seat_colour, svg_document, text
from shared.text.i18n import N_, translator

# Elastium's words, in French from locale/fr/LC_MESSAGES/messages.po: the picture is drawn in the
# language in use.  The pegs' letters are the printed board's (the French colours' initials).
_ = translator(__file__)

# The move fields each kind of clickable place fills (GamePlugin.places): a peg is one of a
# band's pegs; a printed line is a 2-peg band on its two pegs, a segment a triangle band on its
# three (``data-pegs``).
PLACE_FIELDS: dict[str, tuple[Place, ...]] = {
    "peg": (place_field("pegs", "place_band"),),
    "line": (place_field("pegs", "place_band", attribute="pegs"),),
    "segment": (place_field("pegs", "place_band", attribute="pegs"),),
}

STEP = 56.0                              # distance between neighbouring pegs
ROW = STEP * math.sqrt(3) / 2            # distance between rows
MARGIN = 40.0
COLUMNS, ROWS = 8, 10
BOARD_WIDTH = MARGIN * 2 + STEP * (COLUMNS - 0.5)
BOARD_HEIGHT = MARGIN * 2 + ROW * (ROWS - 1)
PEG_RADIUS = 9.5
LEGEND_LINE = 20.0

# Peg colours of the printed boards (the card colours), with their initials for colour-blind readers.
PEG_FILL = {"gris": "#8f8f8f", "bleu": "#3d6fd1", "vert": "#3c9a48", "rouge": "#cc3434", "jaune": "#f0c419"}
PEG_LETTER = {"gris": "g", "bleu": "b", "vert": "v", "rouge": "r", "jaune": "j"}
IDOL_FILL = {"orange": "#f08a24", "blue": "#2f6db5"}
ARTEFACT_LETTER = {"épée": "É", "casque": "C", "bouclier": "B"}
ARTEFACT_WORDS = {"épée": N_("sword"), "casque": N_("helmet"), "bouclier": N_("shield")}
IDOL_WORDS = {"orange": N_("orange idol {id}"), "blue": N_("blue idol {id}")}
# The sides of the board as the legend names them (a compass point's initial).
SIDE_WORDS = {"N": N_("N"), "S": N_("S"), "E": N_("E"), "W": N_("W")}
GROUND = "#f3ead2"
CANAL = "#9fc9e8"
CRATER = "#7a2e1b"
# Engraved Plateau: one pale hue per image letter, so its segments read as one picture.
IMAGE_FILL = {letter: "#{:02x}{:02x}{:02x}".format(*(round(255 * c) for c in colorsys.hls_to_rgb(hue / 360, 0.82, 0.55)))
              for letter, hue in zip("ABCDEFGHIJKL", range(0, 360, 30))}


def peg_xy(peg: str) -> tuple[float, float]:
    """Where a peg ``cXrY`` is drawn (north up, odd rows half a step east)."""
    row, col = peg_row_col(peg)
    return (MARGIN + STEP * (col + 0.5 * (row % 2)), MARGIN + ROW * (ROWS - 1 - row))


def centroid(pegs: list[str] | tuple[str, ...]) -> tuple[float, float]:
    points = [peg_xy(p) for p in pegs]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def band_points(b: Board, key: str, seat: int) -> list[tuple[float, float]]:
    """The points of a band's strand, drawn slightly inside its pegs so that bands of several
    seats on the same pegs stay apart: a polygon (triangle, rhombus) shrunk toward its centre, a
    line or a long barrier (a-middle-c, open) shifted sideways by seat."""
    pegs = key.split("+")
    band = b.bands.get(key)
    if len(pegs) == 2 or (band is not None and band.kind == BARRIER):
        if band is not None and band.middle is not None:
            ends = [p for p in pegs if p != band.middle]
            pegs = [ends[0], band.middle, ends[-1]]
        (x0, y0), (x1, y1) = peg_xy(pegs[0]), peg_xy(pegs[-1])
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        shift = 3.5 * (seat - 1.5)
        dx, dy = -(y1 - y0) / length * shift, (x1 - x0) / length * shift
        return [(x + dx, y + dy) for x, y in (peg_xy(p) for p in pegs)]
    cx, cy = centroid(pegs)
    inset = 5.0 + 2.5 * seat
    points = sorted((peg_xy(p) for p in pegs), key=lambda xy: math.atan2(xy[1] - cy, xy[0] - cx))
    shrunk = []
    for x, y in points:
        distance = math.hypot(x - cx, y - cy) or 1.0
        shrunk.append((x - (x - cx) / distance * inset, y - (y - cy) / distance * inset))
    return shrunk


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _at(values: Any, index: int, default: Any = None) -> Any:
    return values[index] if isinstance(values, list) and 0 <= index < len(values) else default


def _seat_name(players: list[dict[str, Any]], seat: int) -> str:
    player = _at(players, seat)
    name = player.get("name") if isinstance(player, dict) else None
    return str(name) if name not in (None, "") else _("Seat {n}").format(n=seat + 1)


def _short(name: str, most: int) -> str:
    """Long names are cut (the picture has a fixed width); the legend keeps the start."""
    return name if len(name) <= most else name[:most - 1] + "…"


def _segment_fill(seg: dict[str, Any]) -> str:
    if seg.get("canal"):
        return CANAL
    if seg.get("crater"):
        return CRATER
    if seg.get("image") in IMAGE_FILL:
        return IMAGE_FILL[seg["image"]]
    return GROUND


def _defs(players: int) -> str:
    """One hatching per seat (its colour, its own angle) for the segments it enclosed."""
    patterns = "".join(
        f'<pattern id="enclosed-{seat}" width="7" height="7" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate({45 + 40 * seat})"><line x1="0" y1="0" x2="0" y2="7" '
        f'{attrs(stroke=seat_colour(seat))} stroke-width="2.5"/></pattern>'
        for seat in range(players))
    return f"<defs>{patterns}</defs>"


def _energy(x: float, y: float, faded: bool, energy: int = 1) -> str:
    opacity = ' opacity="0.3"' if faded else ""
    title = _("{n} energy").format(n=energy)
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#ffd21f" stroke="#7a5c00" '
            f'stroke-width="1"{opacity}><title>{text(title)}</title></circle>')


def _segments(b: Board, view: ElastiumView) -> list[str]:
    collected = view["collected"]
    completed = set(view["images_completed"])
    enclosers: dict[str, list[int]] = {}
    for seat, enclosed in enumerate(view["enclosed"]):
        for seg_id in enclosed:
            enclosers.setdefault(seg_id, []).append(seat)
    # a segment is a place where a band may cover it (the Labyrinth only has 2-peg bands)
    clickable = b.playable if max(b.band_sizes, default=2) >= 3 else frozenset()
    out = ['<g class="segments">']
    for seg_id, seg in b.segments.items():
        pegs = seg["pegs"]
        corners = _points([peg_xy(p) for p in pegs])
        place = attrs(data_kind="segment", data_id=seg_id, data_pegs=" ".join(pegs)) if seg_id in clickable else ""
        fill = _segment_fill(seg)
        title = _("segment {id}: pegs {pegs}").format(id=seg_id, pegs=", ".join(pegs))
        out.append(f'<polygon points="{corners}" fill="{fill}" stroke="{fill}" stroke-width="0.8" {place}>'
                   f"<title>{text(title)}</title></polygon>")
        owner = collected.get(seg_id)
        if owner is not None:
            out.append(f'<polygon points="{corners}" {attrs(fill=seat_colour(owner), data_seat=owner)} '
                       f'class="collected" fill-opacity="0.35" pointer-events="none"/>')
        for seat in enclosers.get(seg_id, []):
            out.append(f'<polygon points="{corners}" fill="url(#enclosed-{seat})" class="enclosed" '
                       f'{attrs(data_seat=seat)} fill-opacity="0.6" pointer-events="none"/>')
        out.extend(_segment_items(seg_id, seg, owner is not None, completed))
    out.append("</g>")
    return out


def _segment_items(seg_id: str, seg: dict[str, Any], taken: bool,
                   completed: set[str]) -> list[str]:
    """Treasure (VP), energy, idol or image letter at the segment's centre; items fade once
    taken (an idol does not: it stays with whoever controls it, the segment's tint)."""
    x, y = centroid(seg["pegs"])
    out = []
    fade = ' opacity="0.35"' if taken else ""
    if seg.get("idol") in IDOL_FILL:
        size = 7.0
        title = _(IDOL_WORDS[seg["idol"]]).format(id=seg.get("idol_id", ""))
        out.append(f'<polygon points="{_points([(x, y - size), (x + size, y), (x, y + size), (x - size, y)])}" '
                   f'class="idol" {attrs(fill=IDOL_FILL[seg["idol"]], data_idol=seg.get("idol_id"))} '
                   f'stroke="#222" stroke-width="0.8"><title>{text(title)}</title></polygon>')
        return out
    if seg.get("image"):
        weight = "bold" if seg["image"] in completed else "normal"
        out.append(f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="9" text-anchor="middle" fill="#555" '
                   f'font-weight="{weight}" pointer-events="none">{text(seg["image"])}</text>')
    treasure = seg.get("treasure") or 0
    energy = seg.get("energy") or 0
    if treasure:
        shift = -5 if energy else 0
        out.append(f'<text x="{x + shift:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle" '
                   f'font-weight="bold" fill="#4a3b12" pointer-events="none"{fade}>{treasure}</text>')
    if energy:
        beside = treasure or seg.get("image")     # the energy sits right of a number or letter
        out.append(_energy(x + (7 if beside else 0), y + (0 if beside else -1), taken))
    return out


def _lines(b: Board) -> list[str]:
    face = raw_boards()["scenarios"][b.scenario]
    playable = set(b.pegs)
    maze = b.rules.get("chain", False)
    out = ['<g class="lines">']
    for a, c in face["lines"]:
        if a not in playable or c not in playable:
            continue
        (x1, y1), (x2, y2) = peg_xy(a), peg_xy(c)
        colour, width = ("#5b4a2e", 3) if maze else ("#a89f8a", 1.5)
        title = _("line from peg {a} to peg {b}").format(a=a, b=c)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                   f'stroke-width="{width}" stroke-linecap="round" '
                   f'{attrs(data_kind="line", data_id=line_key(a, c), data_pegs=f"{a} {c}")}>'
                   f'<title>{text(title)}</title></line>')
    out.append("</g>")
    return out


def _line_items(b: Board, view: ElastiumView) -> list[str]:
    """Bridges (Archipelago) and the Labyrinth's treasures and artefacts, at the line's middle."""
    out = ['<g class="line-items">']
    for key, item in sorted(b.line_items.items()):
        a, c = key.split("-")
        (x1, y1), (x2, y2) = peg_xy(a), peg_xy(c)
        x, y = (x1 + x2) / 2, (y1 + y2) / 2
        owner = view["collected"].get(key)
        taken = owner is not None
        if item.get("bridge"):
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#8a5a2b" '
                       f'stroke-width="7" stroke-linecap="butt" class="bridge" pointer-events="none"/>')
        if owner is not None:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" {attrs(fill=seat_colour(owner), data_seat=owner)} '
                       f'class="collected" fill-opacity="0.45" pointer-events="none"/>')
        artefact = item.get("artefact")
        if artefact:
            out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle" font-weight="bold" '
                       f'fill="#6b1f7a" class="artefact" pointer-events="none"><title>{text(_(ARTEFACT_WORDS.get(artefact, artefact)))}</title>'
                       f'{text(ARTEFACT_LETTER.get(artefact, artefact[:1].upper()))}</text>')
        elif item.get("treasure"):
            out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle" font-weight="bold" '
                       f'fill="#4a3b12" pointer-events="none">{item["treasure"]}</text>')
        energy = item.get("energy") or 0
        for index in range(energy):
            out.append(_energy(x - 4 * (energy - 1) + 8 * index, y + (0 if item.get("bridge") else -8),
                               taken, energy))
    out.append("</g>")
    return out


def _bands(b: Board, view: ElastiumView) -> list[str]:
    out = ['<g class="bands" fill="none" stroke-linejoin="round" stroke-linecap="round">']
    for band in view["bands"]:
        seat, key = band["seat"], band["key"]
        points = _points(band_points(b, key, seat))
        shape = "polyline" if len(key.split("+")) == 2 or b.bands[key].kind == BARRIER else "polygon"
        out.append(f'<{shape} points="{points}" class="band" {attrs(stroke=seat_colour(seat), data_seat=seat, data_band=key)} '
                   f'stroke-width="4" stroke-opacity="0.9"/>')
    # Labyrinth: the head(s) of each chain, where its next band must start
    for seat, heads in enumerate(view["chain_heads"]):
        for peg in heads:
            x, y = peg_xy(peg)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PEG_RADIUS + 4 + 2 * seat:.1f}" class="chain-head" '
                       f'{attrs(stroke=seat_colour(seat), data_seat=seat)} stroke-width="2.5" '
                       f'stroke-dasharray="4 2"/>')
    out.append("</g>")
    return out


def _pegs(b: Board) -> list[str]:
    bright = {p for pegs in b.start_pegs.values() for p in pegs}
    out = ['<g class="pegs">']
    for peg, colour in sorted(b.colours.items(), key=lambda item: peg_row_col(item[0])):
        x, y = peg_xy(peg)
        if peg not in b.pegs:      # the Volcano's crater: no band may use it
            title = _("{peg} (crater)").format(peg=peg)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PEG_RADIUS:.1f}" fill="#3a1a10" class="unplayable">'
                       f'<title>{text(title)}</title></circle>')
            continue
        if peg in bright:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PEG_RADIUS + 3:.1f}" fill="#fffbe0" '
                       f'stroke="#222" stroke-width="1" class="start" pointer-events="none"/>')
        title = _("peg {peg} ({colour})").format(peg=peg, colour=_(CARD_WORDS.get(colour, colour)))
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PEG_RADIUS:.1f}" '
                   f'{attrs(fill=PEG_FILL.get(colour, "#cccccc"), data_kind="peg", data_id=peg, data_colour=colour)} '
                   f'stroke="#222" stroke-width="1"><title>{text(title)}</title></circle>')
        out.append(f'<text x="{x:.1f}" y="{y + 3.5:.1f}" font-size="10" text-anchor="middle" fill="#fff" '
                   f'font-weight="bold" pointer-events="none">{PEG_LETTER.get(colour, "?")}</text>')
    out.append("</g>")
    return out


SIDE_XY = {"S": (BOARD_WIDTH / 2, BOARD_HEIGHT - 12), "N": (BOARD_WIDTH / 2, 22),
           "W": (14, BOARD_HEIGHT / 2), "E": (BOARD_WIDTH - 14, BOARD_HEIGHT / 2)}


def _sides(b: Board, players: list[dict[str, Any]]) -> list[str]:
    """Each seat's name on its side of the board (its start side, and Jungle's target opposite)."""
    out = []
    for seat, side in enumerate(b.sides):
        x, y = SIDE_XY[side]
        rotate = {"W": -90, "E": 90}.get(side, 0)
        name = _short(_seat_name(players, seat), 24)
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="12" text-anchor="middle" font-weight="bold" '
                   f'transform="rotate({rotate} {x:.1f} {y:.1f})" {attrs(fill=seat_colour(seat), data_seat=seat)}>'
                   f'{text(name)}</text>')
    return out


def _scenario_name(scenario: str) -> str:
    """The scenario's name in the language in use, as a title."""
    name = words(scenario)
    return name[:1].upper() + name[1:]


def _legend(b: Board, view: ElastiumView, players: list[dict[str, Any]]) -> list[str]:
    """Under the board: the round and who plays (or who won), two lines per seat, the supply, the
    news (images completed, the end coming) and the key to the pegs and segments."""
    scores = view["score"] if view["result"] is None else view["result"]["scores"]
    lines = [[f'<tspan font-weight="bold">{text(_status(b, view, players))}</tspan>']]
    for seat in range(view["players"]):
        lines += _seat_lines(b, view, players, seat, scores[seat])
    lines.append([text(_supply(b, view))])
    news = _news(view)
    if news:
        lines.append([text(news)])
    lines.append([text(_("Pegs: g grey, b blue, v green, r red, j yellow; pale ring: start peg."))])
    lines.append([text(_("Segments: tint = explored first by, hatching = enclosed by."))])
    out = []
    for index, parts in enumerate(lines):
        y = BOARD_HEIGHT + 14 + LEGEND_LINE * index
        out.append(f'<text x="{MARGIN / 2:.1f}" y="{y:.1f}" font-size="12" fill="#222" class="legend">'
                   + "".join(parts) + "</text>")
    return out


def _status(b: Board, view: ElastiumView, players: list[dict[str, Any]]) -> str:
    """The scenario and round; who won once the game is over, else who plays and in which phase."""
    status = _("{scenario} — round {round}/{rounds}").format(
        scenario=_scenario_name(b.scenario), round=view["round"], rounds=view["max_rounds"])
    result = view["result"]
    if result is None:
        return status + _(", {name} to play ({phase})").format(
            name=_short(_seat_name(players, view["turn_seat"]), 20), phase=_(PHASE_WORDS[view["phase"]]))
    if not result["winners"]:
        return status + _(", over: nobody won")
    return status + _(", over: {names} won").format(
        names=", ".join(_short(_seat_name(players, w), 20) for w in result["winners"]))


def _seat_lines(b: Board, view: ElastiumView, players: list[dict[str, Any]], seat: int, score: int) -> list[list[str]]:
    """A seat's name, side, points and energy; under it, its cards, bands and what else it holds."""
    player = _at(players, seat)
    bot = _(" (bot)") if isinstance(player, dict) and player.get("bot") else ""
    facts = _seat_facts(b, view, seat, score)
    return [[f'<tspan {attrs(fill=seat_colour(seat), data_seat=seat)} font-weight="bold">●</tspan> '
             f'{text(_short(_seat_name(players, seat), 28) + bot)} ({text(_(SIDE_WORDS[b.sides[seat]]))}): '
             f'{text(", ".join(facts[:2]))}'],
            [f'<tspan dx="14">{text(", ".join(facts[2:]))}</tspan>']]


def _seat_facts(b: Board, view: ElastiumView, seat: int, score: int) -> list[str]:
    limit = b.rules.get("bands_per_player")        # the Labyrinth's 18
    bands = f"{view['bands_used'][seat]}" + (f"/{limit}" if limit else "")
    facts = [_("{n} VP").format(n=score), _("{n} energy").format(n=view["energy"][seat]),
             _("{n} in hand").format(n=view["hand_counts"][seat]), _("{n} bands").format(n=bands)]
    if b.scenario == "cursed-triangle":      # each seat draws from its own deck
        facts.append(_("{n} in own deck").format(n=view["own_deck_counts"][seat]))
    artefacts = view["artefacts"][seat]
    if artefacts:
        facts.append(" ".join(f"{_(ARTEFACT_WORDS[name])}×{n}" for name, n in sorted(artefacts.items())))
    if seat in view["edge_reached"]:
        facts.append(_("reached the far edge"))
    return facts


def _supply(b: Board, view: ElastiumView) -> str:
    """The market and the deck (the Cursed Triangle has neither: each seat its own deck), the energy supply."""
    market = view["market"]
    extra = []
    if market or b.scenario != "cursed-triangle":
        extra.append(_("market {cards}").format(cards=" ".join(PEG_LETTER[c] for c in market) or _("empty")))
    if b.scenario != "cursed-triangle":
        extra.append(_("deck {n}").format(n=view["deck_count"]))
    extra.append(_("energy supply {n}").format(n=view["energy_supply"]))
    return ", ".join(extra)


def _news(view: ElastiumView) -> str:
    """The images completed, and while the game goes on, why it ends after this round; empty if neither."""
    news = []
    if view["images_completed"]:
        news.append(_("images completed: {images}").format(images=" ".join(view["images_completed"])))
    if view["end_triggered"] is not None and view["result"] is None:
        news.append(_("ending after this round: {reason}").format(reason=words(view["end_triggered"])))
    return "; ".join(news)


def board_svg(view: ElastiumView, players: list[dict[str, Any]]) -> str:
    """The spectator's picture of an Elastium board (see the module docstring)."""
    players = players if isinstance(players, list) else []
    b = board(view["scenario"], view["players"])
    legend = _legend(b, view, players)
    height = BOARD_HEIGHT + 14 + LEGEND_LINE * len(legend)
    body = [_defs(view["players"]),
            f'<rect x="0" y="0" width="{BOARD_WIDTH:g}" height="{height:g}" fill="#fffdf6"/>',
            '<g font-family="sans-serif">']
    body += _segments(b, view)
    body += _lines(b)
    body += _line_items(b, view)
    body += _bands(b, view)
    body += _pegs(b)
    body += _sides(b, players)
    body += legend
    body.append("</g>")
    title = _("Elastium board: {scenario}").format(scenario=_scenario_name(b.scenario))
    return svg_document(BOARD_WIDTH, height, body, title)
