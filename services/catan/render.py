"""Catan as text: the 19 hexes in their 3-4-5-4-3 rows, bank, players, your hand and the offer.

Every function reads Catan's view as its type declares it (``rules/view_types.CatanView``; the
engine's tests hold every view to it).  ``render_state`` is handed only a value with a view's keys
(``shared.text.render`` checks them against ``VIEW_TYPE``); ``describe_move``, whose position is
optional, uses it only when it is a whole view.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from services.catan.rules.board import EDGE_NODES, HEX_NODES
from services.catan.rules.view_types import RESOURCE_NAMES, Board, CatanView, Harbour, Offer, SeatView
from shared.game.typed_view import holds_keys_of
from shared.text.i18n import N_, translator
from shared.text.render.common import Context, counts, describe_generic, describe_with, seat_name
from shared.text.render.panels import Item, Panel, Row, counted, seat_label

# Catan's words, in French from locale/fr/LC_MESSAGES/messages.po (the French rules' terms).
_ = translator(__file__)

ROWS = (3, 4, 5, 4, 3)
SHORT = {"hills": N_("Hil"), "forest": N_("For"), "pasture": N_("Pas"), "fields": N_("Fie"), "mountains": N_("Mou"),
         "desert": N_("Des"), "sea": N_("Sea")}
# The phases of a turn (services/catan/rules/state.py), as the text view names them.
PHASES = (N_("setup"), N_("roll"), N_("discard"), N_("robber"), N_("main"), N_("road_building"), N_("trade"),
          N_("over"))
PRODUCES = {"hills": "brick", "forest": "lumber", "pasture": "wool", "fields": "grain", "mountains": "ore"}
LEVEL = {1: "settlement", 2: "city"}
# The game's title as the pages head it (its Game.title, in the rules' language in French).
TITLE = N_("The Settlers of Catan")
# The words of Catan's data the pages show in their forms (shared.text.render.game_terms).
TERMS = (N_("brick"), N_("lumber"), N_("wool"), N_("grain"), N_("ore"),
         N_("hills"), N_("forest"), N_("pasture"), N_("fields"), N_("mountains"), N_("desert"), N_("sea"),
         N_("knight"), N_("monopoly"), N_("road_building"), N_("year_of_plenty"), N_("victory_point"),
         N_("offer_trade"), N_("bank_trade"), N_("counter_trade"), N_("discard"), N_("play_monopoly"),
         N_("play_year_of_plenty"), N_("give"), N_("get"), N_("resources"), N_("resource"), N_("node"),
         N_("edge"), N_("hex"), N_("victim"), N_("accept"), N_("seat"), N_("build_settlement"), N_("build_road"),
         N_("build_city"), N_("move_robber"), N_("answer_trade"), N_("confirm_trade"), N_("cancel_trade"),
         N_("play_knight"), N_("play_road_building"), N_("buy_dev_card"), N_("end_turn"), N_("roll"))

# What the platform hands render_state (shared.text.render checks a value's keys against it).
VIEW_TYPE = CatanView


def _whole_view(state: Mapping[str, Any] | None) -> CatanView | None:
    """``state`` as Catan's view if it has every key of one (a newer server's extra keys are
    welcome), else None: a move is described with or without its position."""
    return cast(CatanView, state) if holds_keys_of(state, CatanView) else None


def _counts(value: Any, empty: str | None = None) -> str:
    """Counts of Catan's cards in the language in use: ``"2 argile, 1 laine"``."""
    return counts(value, empty, term=_)


def hex_label(board: Board, hex_id: int) -> str:
    number = board["numbers"][hex_id]
    return _(board["terrains"][hex_id]) + (f" {number}" if number else "")


def node_hexes(board: Board, node: int) -> str:
    """``"forest 9, hills 6"``: the hexes around a corner."""
    return ", ".join(hex_label(board, h) for h, corners in enumerate(HEX_NODES) if node in corners)


# --- the state as text ------------------------------------------------------------------------

def render_board(board: Board) -> list[str]:
    """The hexes in their rows (``R`` marks the robber), then the harbours."""
    lines, hex_id, cell = [_("Board (hex: terrain number, R = robber):")], 0, 12
    for length in ROWS:
        cells = []
        for _column in range(length):
            number, mark = board["numbers"][hex_id], _("R") if hex_id == board["robber"] else " "
            text = f"{hex_id:>2}:{_(SHORT[board['terrains'][hex_id]])} {number or '':>2}{mark}"
            cells.append(text.ljust(cell))
            hex_id += 1
        lines.append("  " + " " * ((5 - length) * cell // 2) + "".join(cells).rstrip())
    if board["harbours"]:
        lines.append(_("Harbours: {harbours}").format(harbours="; ".join(map(_harbour, board["harbours"]))))
    return lines


def _harbour(harbour: Harbour) -> str:
    kind = harbour["kind"]
    return _("{kind} at nodes {nodes}").format(kind=_(kind) + ("" if kind == "3:1" else " 2:1"),
                                               nodes="-".join(str(n) for n in harbour["nodes"]))


def buildings_of(view: CatanView, seat: int) -> tuple[list[int], list[int], int]:
    """The seat's settlements' and cities' nodes, and how many roads it has."""
    levels = view["node_level"]
    settlements = [n for n, owner in enumerate(view["node_owner"]) if owner == seat and levels[n] == 1]
    cities = [n for n, owner in enumerate(view["node_owner"]) if owner == seat and levels[n] == 2]
    return settlements, cities, view["edge_owner"].count(seat)


def render_state(view: CatanView, ctx: Context) -> str:
    lines = [_heading(view, ctx)]
    if ctx.board:
        lines += render_board(view["board"])
    lines.append(_("Bank: {cards}; development cards left: {left}").format(
        cards=_counts(view["bank"]), left=view["dev_deck_size"]))
    awards = [f"{label}: {ctx.name(holder)}" for holder, label in ((view["longest_road"], _("Longest road")),
                                                                 (view["largest_army"], _("Largest army")))
              if holder is not None]
    if awards:
        lines.append("; ".join(awards))
    lines.append(_("Players:"))
    you = ctx.you if ctx.you is not None else view["you"]
    for info in view["seats"]:
        lines += _seat_lines(view, info, ctx)
        if info["seat"] == you:
            lines += _hand_lines(info)
    if view["offer"] is not None:
        lines.append(_offer_line(view["offer"], ctx))
    return "\n".join(lines)


def _heading(view: CatanView, ctx: Context) -> str:
    dice = view["dice"]
    dice_text = "" if dice is None else _(", dice {a}+{b}={sum}").format(a=dice[0], b=dice[1], sum=dice[0] + dice[1])
    return (_("Catan: turn {turn}, phase {phase}").format(turn=view["turn"], phase=_(view["phase"])) + dice_text
            + _(", current {name}").format(name=ctx.name(view["current"])))


def _seat_lines(view: CatanView, info: SeatView, ctx: Context) -> list[str]:
    """A seat's points and public counts, then where its pieces stand."""
    seat, points = info["seat"], info["points"]
    vp = _("{n} VP").format(n=points) if points is not None else _("{n} VP shown").format(n=info["public_points"])
    settlements, cities, roads = buildings_of(view, seat)
    counted_line = _("{vp}, {cards} cards, {dev} dev cards, {knights} knights, road length {length}").format(
        vp=vp, cards=info["resource_count"], dev=info["dev_card_count"], knights=info["knights_played"],
        length=info["road_length"])
    discard = _(", must discard {n}").format(n=info["must_discard"]) if info["must_discard"] else ""
    return [f" {ctx.marker(seat)} {ctx.name(seat)}: " + counted_line + discard,
            "     " + _("settlements at {settlements}; cities at {cities}; {roads} roads").format(
                settlements=", ".join(map(str, settlements)) or "-", cities=", ".join(map(str, cities)) or "-",
                roads=roads)]


def _hand_lines(info: SeatView) -> list[str]:
    """The viewer's own cards and better trade rates (its hands are null in another's view)."""
    new = counts(info["dev_cards_new"] or {}, "", term=_dev_card_term)
    lines = [_("Your hand: {cards}").format(cards=_counts(info["resources"], _("empty"))),
             _("Your development cards: {cards}").format(cards=counts(info["dev_cards"] or {}, term=_dev_card_term))
             + (_(" (bought this turn: {cards})").format(cards=new) if new else "")]
    rates = _better_rates(info)
    if rates:
        lines.append(_("Your better trade rates: {rates}").format(rates=rates))
    return lines


def _better_rates(info: SeatView) -> str:
    """``"brick 2:1, ore 3:1"``: the rates better than the bank's 4:1 (from harbours)."""
    return ", ".join(f"{_(k)} {v}:1" for k, v in info["trade_rates"].items() if v != 4)


def _offer_line(offer: Offer, ctx: Context) -> str:
    """The open offer and what the others said to it (a counter-offer from the countering seat's side)."""
    def answer(seat: int, accepted: bool) -> str:
        counter = offer["counters"][seat]
        if counter is not None:
            return _("{name} counters: gives {give} for {get}").format(
                name=ctx.name(seat), give=_counts(counter["give"]), get=_counts(counter["get"]))
        return (_("{name} accepts") if accepted else _("{name} declines")).format(name=ctx.name(seat))
    said = ", ".join(answer(seat, accepted) for seat, accepted in enumerate(offer["answers"])
                     if accepted is not None and seat != offer["seat"])
    return _("Trade offer from {name}: gives {give} for {get}; ").format(
        name=ctx.name(offer["seat"]), give=_counts(offer["give"]), get=_counts(offer["get"])) \
        + (said or _("no answer yet"))


# --- moves ------------------------------------------------------------------------------------

# The moves' own fields are not the view: a move may come from anywhere, so its fields are checked.
MoveWords = Callable[[dict[str, Any], CatanView | None], str | None]


def _build_on_node(move: dict[str, Any], view: CatanView | None) -> str | None:
    node = move.get("node")
    if not isinstance(node, int):
        return None
    where = node_hexes(view["board"], node) if view is not None else ""
    text = _("build a city at node {node}") if move["type"] == "build_city" else _("build a settlement at node {node}")
    return text.format(node=node) + (f" ({where})" if where else "")


def _build_road(move: dict[str, Any], view: CatanView | None) -> str | None:
    edge = move.get("edge")
    if not isinstance(edge, int):
        return None
    nodes = _(" (nodes {a}-{b})").format(a=EDGE_NODES[edge][0], b=EDGE_NODES[edge][1]) if edge < len(EDGE_NODES) else ""
    return _("build a road on edge {edge}").format(edge=edge) + nodes


def _move_robber(move: dict[str, Any], view: CatanView | None) -> str:
    hex_id, victim = move.get("hex"), move.get("victim")
    where = f" ({hex_label(view['board'], hex_id)})" \
        if view is not None and isinstance(hex_id, int) and 0 <= hex_id < len(HEX_NODES) else ""
    return _("move the robber to hex {hex}").format(hex=hex_id) + where \
        + (_(", steal from seat {n}").format(n=victim) if victim is not None else "")


def _answer_trade(move: dict[str, Any], view: CatanView | None) -> str | None:
    if not isinstance(move.get("accept"), bool):
        return None
    offer = view["offer"] if view is not None else None
    terms = "" if offer is None else _(" (you give {give}, get {get})").format(
        give=_counts(offer["get"]), get=_counts(offer["give"]))
    return (_("accept the trade offer") if move["accept"] else _("decline the trade offer")) + terms


def _confirm_trade(move: dict[str, Any], view: CatanView | None) -> str | None:
    seat = move.get("seat")
    if not isinstance(seat, int):
        return None
    offer = view["offer"] if view is not None else None
    counter = offer["counters"][seat] if offer is not None and 0 <= seat < len(offer["counters"]) else None
    if counter is not None:
        return _("accept seat {n}'s counter-offer (you give {give}, get {get})").format(
            n=seat, give=_counts(counter["get"]), get=_counts(counter["give"]))
    return _("trade with seat {n}, who accepted").format(n=seat)


def _counter_trade(move: dict[str, Any], view: CatanView | None) -> str:
    return _("counter-offer: you give {give}, get {get}").format(give=_counts(move.get("give")),
                                                                 get=_counts(move.get("get")))


def _bank_trade(move: dict[str, Any], view: CatanView | None) -> str:
    return _("trade with the bank: give {give}, get {get}").format(give=_counts(move.get("give")),
                                                                   get=_counts(move.get("get")))


def _play_year_of_plenty(move: dict[str, Any], view: CatanView | None) -> str | None:
    if not isinstance(move.get("resources"), list):
        return None
    return _("play year of plenty for {cards}").format(cards=_counts(move["resources"]))


def _play_monopoly(move: dict[str, Any], view: CatanView | None) -> str | None:
    if not isinstance(move.get("resource"), str):
        return None
    return _("play monopoly on {resource}").format(resource=_(move["resource"]))


MOVE_WORDS: dict[str, MoveWords] = {
    "build_settlement": _build_on_node, "build_city": _build_on_node, "build_road": _build_road,
    "move_robber": _move_robber, "answer_trade": _answer_trade, "confirm_trade": _confirm_trade,
    "counter_trade": _counter_trade, "bank_trade": _bank_trade,
    "play_year_of_plenty": _play_year_of_plenty, "play_monopoly": _play_monopoly,
}
# The moves with no field but their type.
SIMPLE_MOVES = {"roll": N_("roll the dice"), "end_turn": N_("end your turn"),
                "buy_dev_card": N_("buy a development card"), "play_knight": N_("play a knight"),
                "play_road_building": N_("play road building"), "cancel_trade": N_("cancel your trade offer")}


def describe_move(move: dict[str, Any], state: Mapping[str, Any] | None = None) -> str:
    kind = move.get("type")
    if not isinstance(kind, str):
        return describe_generic(move, _)
    words = MOVE_WORDS[kind](move, _whole_view(state)) if kind in MOVE_WORDS else None
    if words is not None:
        return words
    if kind in SIMPLE_MOVES and len(move) == 1:
        return _(SIMPLE_MOVES[kind])
    return describe_generic(move, _)


# --- events -----------------------------------------------------------------------------------

def _dice(d: dict[str, Any]) -> str:
    a, b = d["dice"]
    return f"{a}+{b} = {a + b}"


def _robber(d: dict[str, Any], who: str, names: Any) -> str:
    victim = d.get("victim")
    return _("{who} moves the robber to hex {hex}").format(who=who, hex=d["hex"]) \
        + (_(" and robs {name}").format(name=seat_name(names, victim)) if victim is not None else "")


def _produced(d: dict[str, Any], who: str, names: Any) -> str:
    gains = [_("{name} gets {cards}").format(name=seat_name(names, seat), cards=_counts(g))
             for seat, g in enumerate(d.get("gains") or []) if _counts(g, "")]
    short = _(" (the bank is short of {cards})").format(cards=_counts(d["shortages"])) if d.get("shortages") else ""
    return ("; ".join(gains) or _("nobody produces anything")) + short


def _free(d: dict[str, Any]) -> str:
    return _(" (free)") if d.get("free") else ""


def _stolen(d: dict[str, Any], who: str, names: Any) -> str:
    victim = seat_name(names, d["victim"])
    if d.get("resource"):
        return _("{who} steals {resource} from {victim}").format(who=who, resource=_(d["resource"]), victim=victim)
    return _("{who} steals a card from {victim}").format(who=who, victim=victim)


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_started": lambda d, who, names: _("the game starts with {n} players").format(n=d["players"]),
    "settlement_built": lambda d, who, names: _("{who} builds a settlement at node {node}").format(who=who, node=d["node"])
                                              + _free(d),
    "city_built": lambda d, who, names: _("{who} builds a city at node {node}").format(who=who, node=d["node"]),
    "road_built": lambda d, who, names: _("{who} builds a road on edge {edge}").format(who=who, edge=d["edge"]) + _free(d),
    "starting_resources": lambda d, who, names: _("{who} takes the starting resources {cards}").format(
        who=who, cards=_counts(d["resources"])),
    "dice_rolled": lambda d, who, names: _("{who} rolls {dice}").format(who=who, dice=_dice(d)),
    "resources_produced": _produced,
    "turn_ended": lambda d, who, names: _("{who} ends the turn").format(who=who),
    "robber_moved": _robber,
    "card_stolen": _stolen,
    "cards_discarded": lambda d, who, names: _("{who} discards {cards}").format(who=who, cards=_counts(d["resources"])),
    "bank_traded": lambda d, who, names: _("{who} trades {count} {give} with the bank for 1 {get}").format(
        who=who, count=d["count"], give=_(d["give"]), get=_(d["get"])),
    "dev_card_bought": lambda d, who, names: _("{who} buys a development card").format(who=who)
                                             + (f" ({_(d['card']).replace('_', ' ')})" if d.get("card") else ""),
    "knight_played": lambda d, who, names: _("{who} plays a knight").format(who=who),
    "monopoly_played": lambda d, who, names: _("{who} plays monopoly on {resource} and takes {n}").format(
        who=who, resource=_(d["resource"]), n=sum(d.get("taken") or [])),
    "road_building_played": lambda d, who, names: _("{who} plays road building").format(who=who),
    "year_of_plenty_played": lambda d, who, names: _("{who} plays year of plenty for {cards}").format(
        who=who, cards=_counts(d["resources"])),
    "trade_offered": lambda d, who, names: _("{who} offers {give} for {get}").format(
        who=who, give=_counts(d["give"]), get=_counts(d["get"])),
    "trade_answered": lambda d, who, names: (_("{who} accepts the offer") if d["accept"]
                                             else _("{who} declines the offer")).format(who=who),
    "trade_countered": lambda d, who, names: _("{who} makes a counter-offer: gives {give} for {get}").format(
        who=who, give=_counts(d["give"]), get=_counts(d["get"])),
    "trade_cancelled": lambda d, who, names: _("{who} withdraws the trade offer").format(who=who),
    "trade_confirmed": lambda d, who, names: _("{who} trades with {partner}").format(
        who=who, partner=seat_name(names, d["partner"])),
    "road_building_ended": lambda d, who, names: _("{who} has built the free roads").format(who=who),
}


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob rolls 3+4 = 7"``; ``names`` has one name per seat."""
    return describe_with(EVENTS, event, names, _)


def _points(info: SeatView) -> int:
    """A seat's victory points as the viewer may know them: with its hidden cards if shown."""
    return info["points"] if info["points"] is not None else info["public_points"]


def scores(view: CatanView) -> list[str]:
    """Each seat's score as the table shows it: its victory points (the public ones for others)."""
    return [_("{n} VP").format(n=_points(info)) for info in view["seats"]]


def warn_move(move: dict[str, Any], view: CatanView, you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    the robber on a hex of one's own buildings, and ending a turn with more than 7 cards."""
    if move.get("type") == "move_robber":
        return _robber_on_own_building(move["hex"], view, you)
    if move.get("type") == "end_turn":
        return _big_hand(view, you)
    return None


def _robber_on_own_building(hex_id: int, view: CatanView, you: int) -> str | None:
    if not any(view["node_owner"][node] == you for node in HEX_NODES[hex_id]):
        return None
    return _("The robber would block your own building on {hex}: "
             "that hex produces nothing for you while it stays there.").format(hex=hex_label(view["board"], hex_id))


def _big_hand(view: CatanView, you: int) -> str | None:
    held = sum((view["seats"][you]["resources"] or {}).values())
    if held <= 7:
        return None
    return _("You end your turn holding {held} resource cards: if anyone rolls a 7 before your next turn, "
             "you discard {half} of them.").format(held=held, half=held // 2)


# --- the table's panels -----------------------------------------------------------------------

# The resources' swatches: the colours of the terrains that produce them on the board picture.
RESOURCE_COLOURS = {"brick": "#c0603a", "lumber": "#2f7a3b", "wool": "#a3cf62", "grain": "#edc860", "ore": "#8d939b"}
# What each phase asks of the player whose turn it is, in words.
PHASE_WORDS = {"setup": N_("placing the first settlements and roads"), "roll": N_("rolling the dice"),
               "discard": N_("discarding half of a big hand"), "robber": N_("moving the robber"),
               "main": N_("building and trading"), "road_building": N_("building two free roads"),
               "trade": N_("answering a trade offer"), "over": N_("the game is over")}
DEV_CARDS = {"knight": N_("knight"), "monopoly": N_("monopoly"), "road_building": N_("road building"),
             "year_of_plenty": N_("year of plenty"), "victory_point": N_("victory point")}


def _resource(word: str) -> str:
    return _(word)


def _dev_card(word: str) -> str:
    return _(DEV_CARDS[word])


def _dev_card_term(word: str) -> str:
    """A development card's name in words (``victory_point`` -> "victory point"); an unknown one as sent."""
    return _dev_card(word) if word in DEV_CARDS else _(word)


def panels(view: CatanView, ctx: Context) -> list[Panel]:
    """Whose turn and the dice, one's hand and development cards, the bank, each seat's public counts."""
    out = [_turn_panel(view, ctx)]
    mine = next((info for info in view["seats"] if info["seat"] == ctx.you), None)
    if mine is not None:
        out.append(_hand_panel(mine))
    out += [_bank_panel(view), _players_panel(view, ctx)]
    if view["offer"] is not None:
        out.append(_offer_panel(view["offer"], ctx))
    return out


def _turn_panel(view: CatanView, ctx: Context) -> Panel:
    current, dice = view["current"], view["dice"]
    rows = [Row(_("Turn"), str(view["turn"])),
            Row(seat_label(ctx, current), _(PHASE_WORDS[view["phase"]]), seat=current, current=True)]
    if dice is not None:
        rows.append(Row(_("Dice"), f"{dice[0]} + {dice[1]} = {dice[0] + dice[1]}"))
    for holder, label in ((view["longest_road"], N_("Longest road")), (view["largest_army"], N_("Largest army"))):
        rows.append(Row(_(label), _("nobody yet") if holder is None else seat_label(ctx, holder), seat=holder))
    return Panel("turn", _("This turn"), tuple(rows))


def _hand_panel(mine: SeatView) -> Panel:
    hand = mine["resources"] or {}
    held = {name: hand.get(name, 0) for name in RESOURCE_NAMES}      # a zero for each resource it lacks
    dev = mine["dev_cards"] or {}      # those bought this turn included (``dev_cards_new`` is their part)
    rows = [Row(_("Resources"), "", counted(held, _resource, RESOURCE_COLOURS, keep_zero=True)),
            Row(_("Development cards"), "" if any(dev.values()) else _("none"), counted(dev, _dev_card))]
    rates = _better_rates(mine)
    if rates:
        rows.append(Row(_("Harbours"), rates))
    return Panel("hand", _("Your hand"), tuple(rows))


def _bank_panel(view: CatanView) -> Panel:
    return Panel("bank", _("Bank"), (
        Row(_("Resources"), "", counted(dict(view["bank"]), _resource, RESOURCE_COLOURS, keep_zero=True)),
        Row(_("Development cards"), _("{n} left").format(n=view["dev_deck_size"]))))


def _players_panel(view: CatanView, ctx: Context) -> Panel:
    rows = []
    for info in view["seats"]:
        seat = info["seat"]
        settlements, cities, roads = buildings_of(view, seat)
        facts = [Item(_("Victory points"), _points(info)), Item(_("Cards"), info["resource_count"]),
                 Item(_("Development cards"), info["dev_card_count"]), Item(_("Settlements"), len(settlements)),
                 Item(_("Cities"), len(cities)), Item(_("Roads"), roads),
                 Item(_("Knights played"), info["knights_played"])]
        if info["must_discard"]:
            facts.append(Item(_("Must discard"), info["must_discard"]))
        rows.append(Row(seat_label(ctx, seat), "", tuple(facts), seat=seat, current=seat in ctx.to_act))
    return Panel("players", _("Players"), tuple(rows))


def _offer_panel(offer: Offer, ctx: Context) -> Panel:
    return Panel("offer", _("Trade offer"), (
        Row(seat_label(ctx, offer["seat"]),
            _("gives {give} for {get}").format(give=_counts(offer["give"]), get=_counts(offer["get"])),
            seat=offer["seat"]),))

# The pages' words for each rule a move can break, by the problem's ``reason`` (the API's own
# detail stays in English for integrators; problems.json lists every reason with an example of it).
REFUSALS: dict[str, str] = {
    "already-answered": N_("You have already answered this trade offer."),
    "already-rolled": N_("The dice have already been rolled this turn."),
    "answer-the-offer": N_("Answer the open trade offer first: accept or decline it."),
    "bank-empty": N_("The bank does not have those resources."),
    "card-bought-this-turn": N_("A development card cannot be played in the turn it was bought."),
    "discard-pending": N_("Players with more than 7 cards must discard half of them first."),
    "edge-occupied": N_("There is already a road there."),
    "invalid-answer": N_("Answer the offer with yes or no."),
    "invalid-discard": N_("Discard exactly half of your cards, rounded down, from those you hold."),
    "invalid-edge": N_("There is no such side on the board."),
    "invalid-hex": N_("There is no such land hex on the board."),
    "invalid-node": N_("There is no such intersection on the board."),
    "invalid-resource": N_("That is not a resource: brick, lumber, wool, grain or ore."),
    "invalid-trade": N_("Both parties to a trade must give cards: no gifts."),
    "invalid-victim": N_("Rob an opponent who has a building on that hex and cards in hand."),
    "must-place-road": N_("Place the free roads of the Road Building card first."),
    "must-place-settlement": N_("Place a settlement first, then its road."),
    "must-roll-first": N_("Roll the dice first (only a development card may be played before)."),
    "no-dev-cards-left": N_("The development card deck is empty."),
    "no-discard-needed": N_("You do not have to discard."),
    "no-open-offer": N_("There is no open trade offer."),
    "no-pieces-left": N_("You have no more pieces of that kind in your supply."),
    "no-road-location": N_("There is nowhere left to build a road."),
    "no-such-card": N_("You do not have that development card."),
    "node-occupied": N_("That intersection is already built on."),
    "not-accepted": N_("Confirm the trade with a player who accepted it."),
    "not-connected": N_("It must touch one of your own roads or buildings."),
    "not-enough-resources": N_("You do not have the resources to pay for that."),
    "not-now": N_("That move is not allowed at this moment of the turn."),
    "not-your-settlement": N_("A city replaces one of your own settlements."),
    "offer-open": N_("Confirm or withdraw the open trade offer first."),
    "one-card-per-turn": N_("Only one development card may be played per turn."),
    "own-offer": N_("You cannot answer your own offer."),
    "road-not-at-settlement": N_("The set-up road must touch the settlement just placed."),
    "robber-must-move": N_("Move the robber first."),
    "robber-same-hex": N_("The robber must move to another land hex."),
    "same-resource": N_("Trade a resource for a different one."),
    "settlement-too-close": N_("The distance rule: the neighbouring intersections must be free."),
    "setup-in-progress": N_("During set-up only settlements and their roads are placed."),
    "trading-over": N_("Trading comes before building: you have already built or bought this turn."),
    "unknown-move": N_("This game has no such move."),
    "victim-required": N_("Choose a player to rob."),
}
