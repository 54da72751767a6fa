"""Elasund as text: phase and dice, the ship, each player's buildings, supply and (your) hand."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.elasund.rules.board import footprint, key
from services.elasund.rules.view_types import Building, ElasundView, Hand, OwnHand, Phase
from shared.text.i18n import N_, translator
from shared.text.render.common import (
    Context, compact, counts, describe_generic, describe_with, seat_name,
)
from shared.text.render.common import words as plain_words
from shared.text.render.panels import Item, Panel, Row, counted, seat_label

# Elasund's words, in French from locale/fr/LC_MESSAGES/messages.po.
_ = translator(__file__)
# The game's title as the pages head it (its Game.title, in the rules' language in French).
TITLE = N_("Elasund: The First City")
# The words of Elasund's data: buildings, phases, colours, move types and fields (also the pages' forms).
TERMS = (N_("worker_hut_small"), N_("worker_hut_large"), N_("house"), N_("workshop"), N_("well"), N_("market"),
         N_("tavern"), N_("shop"), N_("large"), N_("church"),
         N_("roll"), N_("ship_choice"), N_("pirate_row"), N_("discard"), N_("build"), N_("church_choice"),
         N_("hut_rebuild"), N_("permit"), N_("special"), N_("over"),
         N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("gold"), N_("influence"),
         N_("build_church"), N_("build_wall"), N_("choose_church_tile"), N_("end_building"), N_("end_turn"),
         N_("move_permit"), N_("move_pirates"), N_("move_ship"), N_("place_permit"), N_("place_permit_anywhere"),
         N_("rebuild_hut"), N_("special_gold"), N_("take_gold"), N_("upgrade_permit"),
         N_("col"), N_("row"), N_("value"), N_("building"), N_("pay_colour"), N_("space"), N_("tower"), N_("tile"),
         N_("colours"), N_("from"), N_("to"), N_("direction"), N_("cards"), N_("plot"), N_("wall"))


def _counts(value: Any, empty: str | None = None) -> str:
    return counts(value, empty, term=_)


# What the platform hands render_state (shared.text.render checks a value's keys against it;
# tests/elasund/test_view_types.py holds the engine's views to it throughout).
VIEW_TYPE = ElasundView


def render_state(state: ElasundView, ctx: Context) -> str:
    """The view as text: the turn, the table, and each seat's pieces, counts and (one's own) hand."""
    lines = [_heading(state, ctx), *_table_lines(state), _("Players:")]
    pieces = _SeatPieces.of(state)
    for seat in range(state["players"]):
        lines += _seat_lines(state, seat, pieces, ctx)
    if state["pending"]:
        lines.append(_("Pending: {what}").format(what=_pending_words(state["pending"], ctx)))
    return "\n".join(lines)


def _pending_words(pending: Mapping[str, Any], ctx: Context) -> str:
    """The decision the game waits for, in words: the rows to choose from, the cards each seat
    still owes, or the worker huts to rebuild (anything else as it comes)."""
    if "rows" in pending:
        return _("a row to choose: {rows}").format(rows=", ".join(map(str, pending["rows"])))
    if "owed" in pending:
        owed = ", ".join(f"{ctx.name(int(seat))} {n}" for seat, n in pending["owed"].items() if n)
        return _("cards still to discard: {owed}").format(owed=owed or "-")
    if "queue" in pending:
        huts = ", ".join(f"{words_of(hut['kind'])} ({ctx.name(hut['seat'])})" for hut in pending["queue"])
        return _("worker huts to rebuild: {huts}").format(huts=huts)
    return compact(pending)


def _heading(view: ElasundView, ctx: Context) -> str:
    dice = view["dice"]
    dice_text = _(", dice {dice}").format(dice="+".join(map(str, dice))) if dice else ""
    return (_("Elasund: turn {turn}, phase {phase}").format(turn=view["turn"], phase=words_of(view["phase"])) + dice_text
            + _(", current {name}").format(name=ctx.name(view["current"])))


def _table_lines(view: ElasundView) -> list[str]:
    """The ship, the bank, the building stock and the church."""
    ship = view["ship"]
    extras = [_("ship at row {row}").format(row=ship if ship is not None else "-")]
    if view["pirates"]:
        extras.append(_("pirates!"))
    extras.append(_("gold bank {n}").format(n=view["gold_bank"]))
    extras.append(_("influence deck {n}").format(n=view["influence_deck"]))
    church = view["church"]
    return [", ".join(extras),
            _("Building stock: {buildings}").format(buildings=_counts(view["stock"])),
            _("Church: {built} tiles built, {left} left").format(built=len(church["tiles"]), left=church["stack"])]


@dataclass(frozen=True)
class _SeatPieces:
    """Each seat's buildings, walls and permits on the board, as the text lists them."""

    buildings: dict[int, list[str]]
    walls: dict[int, list[str]]
    permits: dict[int, list[str]]

    @classmethod
    def of(cls, view: ElasundView) -> _SeatPieces:
        buildings: dict[int, list[str]] = defaultdict(list)
        for b in view["buildings"]:
            buildings[b["seat"]].append(_building_words(b))
        walls: dict[int, list[str]] = defaultdict(list)
        for space, wall in view["walls"].items():
            walls[wall["seat"]].append(space + (_("(tower)") if wall["tower"] else ""))
        permits: dict[int, list[str]] = defaultdict(list)
        for where, (owner, value) in view["permits"].items():
            permits[owner].append(f"{value}@{where}")
        return cls(buildings, walls, permits)


def _building_words(b: Building) -> str:
    """``tavern@5,9 1tp cubes [9]``: the kind, its square, its trade points and cubes' rows."""
    tp = _(" {n}tp").format(n=b["trade_points"]) if b["trade_points"] else ""
    cubes = _(" cubes {n}").format(n=b["cubes"]) if b["cubes"] else ""
    return f"{words_of(b['kind'])}@{b['col']},{b['row']}{tp}{cubes}"


def _seat_lines(view: ElasundView, seat: int, pieces: _SeatPieces, ctx: Context) -> list[str]:
    """A seat's line (trade, cubes, hand size), its pieces, its supply, and its hand if shown."""
    hand = view["hands"][seat]
    info = [_("trade {n}").format(n=view["trade"][seat]),
            _("{n} cubes on board").format(n=view["cubes_on_board"][seat])]
    if "cards" in hand:
        info.append(_("{n} cards in hand").format(n=hand["cards"]))
    lines = [f" {ctx.marker(seat)} {ctx.name(seat)}: " + ", ".join(info),
             "     " + _("buildings: {buildings}").format(buildings="; ".join(pieces.buildings.get(seat, [])) or "-")]
    walls, permits = pieces.walls.get(seat, []), pieces.permits.get(seat, [])
    if walls or permits:
        lines.append("     " + _("walls: {walls}; permits on board: {permits}").format(
            walls=", ".join(walls) or "-", permits=", ".join(permits) or "-"))
    supply = view["supply"][seat]
    lines.append("     " + _("supply: permits {permits}; buildings {buildings}; walls built {walls}").format(
        permits=_counts(supply["permits"]), buildings=_counts(supply["buildings"]), walls=supply["walls_built"]))
    if "gold" in hand:
        lines.append(_("Your hand: {gold} gold; influence {influence}").format(
            gold=hand["gold"], influence=_counts(hand["influence"])))
    return lines


def describe_move(move: dict[str, Any], state: ElasundView | None = None) -> str:
    kind = move.get("type")
    if kind in ("build", "place_permit", "place_permit_anywhere", "rebuild_hut") and "col" in move:
        what = _(move["building"]) if move.get("building") else (
            _("permit {value}").format(value=move["value"]) if "value" in move else _("worker hut"))
        pay = _(", pay with {colour}").format(colour=_(move["pay_colour"])) if move.get("pay_colour") else ""
        verb = _("build {what} at column {col}, row {row}") if kind in ("build", "rebuild_hut") \
            else _("place {what} at column {col}, row {row}")
        return verb.format(what=what, col=move["col"], row=move["row"]) + pay
    simple = {"roll": N_("roll the dice"), "end_turn": N_("end your turn"), "end_building": N_("stop building"),
              "take_gold": N_("take gold"), "build_church": N_("build a church tile"),
              "special_gold": N_("take special gold")}
    if kind in simple and len(move) == 1:
        return _(simple[kind])
    return describe_generic(move, _)


def _cards(d: dict[str, Any]) -> str:
    """Gold and influence cards as words; hidden ones (others' draws) as a count."""
    parts = []
    if d.get("gold"):
        parts.append(_("{n} gold").format(n=d["gold"]))
    influence = d.get("influence")
    if isinstance(influence, list) and influence:
        parts.append(_("{n} influence ({colours})").format(n=len(influence), colours=", ".join(_(str(c)) for c in influence))
                     if all(influence) else _("{n} influence").format(n=len(influence)))
    elif isinstance(influence, dict) and _counts(influence, ""):
        parts.append(_("influence {cards}").format(cards=_counts(influence)))
    elif isinstance(influence, int) and influence:
        parts.append(_("{n} influence").format(n=influence))
    return _(" and ").join(parts) or _("nothing")


def _at(d: Mapping[str, Any]) -> str:
    return _("column {col}, row {row}").format(col=d["col"], row=d["row"])


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_started": lambda d, who, names: _("the game starts with {n} players; {first} begins").format(
        n=d["players"], first=seat_name(names, d["first_player"])),
    "influence_deck_formed": lambda d, who, names: _("the influence deck is formed ({cards})").format(
        cards=_counts(d["counts"])),
    "building_built": lambda d, who, names: _("{who} builds a {building} at {at}").format(
        who=who, building=words_of(d["kind"]), at=_at(d)),
    "building_removed": lambda d, who, names: _("{who}'s {building} is removed").format(
        who=who, building=words_of(d["kind"])),
    "cards_drawn": lambda d, who, names: _("{who} draws {cards}").format(who=who, cards=_cards(d)),
    "cards_discarded": lambda d, who, names: _("{who} discards {cards}").format(who=who, cards=_cards(d)),
    "turn_started": lambda d, who, names: _("turn {turn}: {who} to play").format(turn=d["turn"], who=who),
    "dice_rolled": lambda d, who, names: _("{who} rolls {a}+{b} = {total}").format(
        who=who, a=d["dice"][0], b=d["dice"][1], total=d["total"]),
    "phase_entered": lambda d, who, names: _("{phase} phase").format(phase=words_of(d["phase"])),
    "ship_moved": lambda d, who, names: (_("the ship moves to row {row} with the pirates") if d.get("pirates")
                                         else _("the ship moves to row {row}")).format(row=d["row"]),
    "pool_settled": lambda d, who, names: _("the pool is paid out"),
    "gold_paid": lambda d, who, names: (_("{who} pays {n} gold to {to}") if d.get("to") is not None
                                        else _("{who} pays {n} gold")).format(
        who=who, n=d["amount"], to=seat_name(names, d.get("to"))),
    "influence_paid": lambda d, who, names: _("{who} pays influence {cards}").format(who=who, cards=_counts(d["colours"])),
    "wall_built": lambda d, who, names: (_("{who} builds a wall tower on {space}") if d.get("tower")
                                         else _("{who} builds a wall on {space}")).format(who=who, space=d["space"]),
    "permit_placed": lambda d, who, names: _("{who} places a permit of value {value} at {at}").format(
        who=who, value=d["value"], at=_at(d)),
    "permit_moved": lambda d, who, names: _("{who} moves a permit from column {c1}, row {r1} to column {c2}, row {r2}")
        .format(who=who, c1=d["from"][0], r1=d["from"][1], c2=d["to"][0], r2=d["to"][1]),
    "permit_upgraded": lambda d, who, names: _("{who} raises the permit at {at} to {value}").format(
        who=who, at=_at(d), value=d["value"]),
    "permits_returned": lambda d, who, names: _("{n} permits go back to their owners").format(n=len(d["squares"])),
    "trade_moved": lambda d, who, names: _("{who} moves up the trade track to {total}").format(who=who, total=d["total"]),
    "hut_lost": lambda d, who, names: _("{who} loses a {building}").format(who=who, building=words_of(d["kind"])),
    "loot_taken": lambda d, who, names: _("{who} takes loot: {cards}").format(who=who, cards=_cards(d)),
    "influence_reshuffled": lambda d, who, names: _("the influence cards are reshuffled"),
    "church_drawn": lambda d, who, names: _("{who} draws church tiles").format(who=who),
    "church_tile_placed": lambda d, who, names: _("{who} places church tile {tile} at {at}").format(
        who=who, tile=d["tile"], at=_at(d)),
    "church_tile_bottomed": lambda d, who, names: _("{who} puts a church tile at the bottom").format(who=who),
    "supply_short": lambda d, who, names: _("the {kind} supply runs short").format(kind=_(str(d["kind"]))),
    "game_won": lambda d, who, names: _("{who} wins the game").format(who=who),
}


def words_of(name: Any) -> str:
    """A building's or a phase's name in the language in use (``worker_hut_small`` -> ``worker hut small``)."""
    translated = _(str(name))
    return translated if translated != str(name) else str(name).replace("_", " ")


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob builds a house at column 2, row 11"``."""
    return describe_with(EVENTS, event, names, _)


def scores(state: ElasundView) -> list[str]:
    """Each seat's score as the table shows it: its victory cubes on the board."""
    return [_("{n} cubes").format(n=n) for n in state["cubes_on_board"]]


def warn_move(move: dict[str, Any], state: ElasundView, you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    a building that pays the other permits in its area, or that removes one's own building."""
    if move.get("type") != "build":
        return None
    squares = set(footprint(move["building"], move["col"], move["row"]) or ())
    warnings = [*_permits_owed(state, squares, you), *_own_buildings_removed(state, squares, you)]
    return " ".join(warnings) or None


def _permits_owed(view: ElasundView, squares: set[tuple[int, int]], you: int) -> list[str]:
    """The gold a building on ``squares`` pays the other seats' permits there, in words (or none)."""
    owed: dict[int, int] = defaultdict(int)
    for square in squares:
        owner, value = view["permits"].get(key(*square), (you, 0))
        if owner != you and value:
            owed[owner] += value
    if not owed:
        return []
    return [_("This also costs you {gold} gold for the other players' permits there ({owed}).").format(
        gold=sum(owed.values()),
        owed=", ".join(_("seat {n}: {gold}").format(n=seat, gold=gold) for seat, gold in sorted(owed.items())))]


def _own_buildings_removed(view: ElasundView, squares: set[tuple[int, int]], you: int) -> list[str]:
    """One's own buildings a building on ``squares`` covers (and so removes), in words."""
    return [_("Your {building} at {at} is removed, with its victory cubes and trade points.").format(
                building=words_of(b["kind"]), at=_at(b))
            for b in view["buildings"]
            if b["seat"] == you and set(footprint(b["kind"], b["col"], b["row"]) or ()) & squares]


# The influence cards' swatches, as the colours are printed.
INFLUENCE_COLOURS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "yellow": "#f9a825"}
# What each phase asks of the player whose turn it is, in words.
PHASE_WORDS: dict[Phase, str] = {
    "roll": N_("rolling the dice"), "ship_choice": N_("choosing where the ship goes"),
    "pirate_row": N_("choosing the pirates' row"), "discard": N_("discarding influence cards"),
    "build": N_("building"), "church_choice": N_("choosing a church tile"),
    "hut_rebuild": N_("rebuilding a worker hut"), "permit": N_("placing a building permit"),
    "special": N_("taking a special action"), "over": N_("the game is over")}


def _word(name: str) -> str:
    translated = _(name)
    return translated if translated != name else plain_words(name)


def panels(state: ElasundView, ctx: Context) -> list[Panel]:
    """The turn, phase and dice, one's gold and influence cards, the bank and the building stock,
    each seat's victory cubes, trade, cards and buildings."""
    hand = _own_hand(state, ctx.you)
    return [_turn_panel(state, ctx),
            *([_hand_panel(hand)] if hand is not None else []),
            _bank_panel(state),
            _players_panel(state, ctx)]


def _turn_panel(view: ElasundView, ctx: Context) -> Panel:
    current = view["current"]
    rows = [Row(_("Turn"), str(view["turn"])),
            Row(seat_label(ctx, current), _(PHASE_WORDS[view["phase"]]), seat=current, current=True)]
    dice = view["dice"]
    if dice:
        rows.append(Row(_("Dice"), " + ".join(map(str, dice)) + f" = {sum(dice)}"))
    if view["ship"] is not None:
        rows.append(Row(_("Ship"), _("row {n}").format(n=view["ship"]) + (_(", pirates!") if view["pirates"] else "")))
    return Panel("turn", _("This turn"), tuple(rows))


def _own_hand(view: ElasundView, you: int | None) -> OwnHand | None:
    """The viewer's hand, when the view shows it in full (a seat's own view; never a spectator's)."""
    if you is None or not 0 <= you < view["players"]:
        return None
    hand = view["hands"][you]
    return hand if "gold" in hand else None


def _hand_panel(hand: OwnHand) -> Panel:
    return Panel("hand", _("Your hand"), (
        Row(_("Gold"), str(hand["gold"])),
        Row(_("Influence cards"), "", counted(hand["influence"], _word, INFLUENCE_COLOURS, keep_zero=True))))


def _bank_panel(view: ElasundView) -> Panel:
    church = view["church"]
    return Panel("bank", _("Bank"), (
        Row(_("Gold in the bank"), str(view["gold_bank"])),
        Row(_("Influence cards in the deck"), str(view["influence_deck"])),
        Row(_("Buildings left"), "", counted(view["stock"], _word)),
        Row(_("Church"), _("{built} tiles built, {left} left").format(built=len(church["tiles"]),
                                                                      left=church["stack"]))))


def _players_panel(view: ElasundView, ctx: Context) -> Panel:
    built: dict[int, int] = defaultdict(int)
    for b in view["buildings"]:
        built[b["seat"]] += 1
    rows = tuple(Row(seat_label(ctx, seat), "", (Item(_("Victory cubes"), view["cubes_on_board"][seat]),
                                                 Item(_("Trade"), view["trade"][seat]),
                                                 Item(_("Influence cards"), _influence_cards(view["hands"][seat])),
                                                 Item(_("Buildings"), built.get(seat, 0))),
                     seat=seat, current=seat in ctx.to_act)
                 for seat in range(view["players"]))
    return Panel("players", _("Players"), rows)


def _influence_cards(hand: Hand) -> int:
    """How many cards a seat holds as the players panel counts them: a hidden hand's size, or
    one's own influence cards."""
    if "cards" in hand:
        return hand["cards"]
    influence = hand["influence"]
    return influence["red"] + influence["blue"] + influence["green"]


# The pages' words for each rule a move can break, by the problem's ``reason`` (the API's own
# detail stays in English for integrators; problems.json lists every reason with an example of it).
REFUSALS: dict[str, str] = {
    "blue-walls-first": N_("The 4-gold wall spaces open once every 2-gold space holds a wall."),
    "building-not-available": N_("You have no such building left to build."),
    "cannot-cover-larger": N_("A building cannot cover a bigger building."),
    "church-complete": N_("Every church tile is already built."),
    "church-site": N_("No building may cover the church's foundation or a church tile."),
    "hut-spot-not-free": N_("A hut goes on a free square: no trade field, no permit."),
    "invalid-colour": N_("That is not an influence colour: red, blue, green or yellow."),
    "invalid-field": N_("A value of the move is missing or wrong."),
    "no-permit-majority": N_("Another player has the highest permit total there."),
    "no-wall-tiles": N_("Your wall stack is empty."),
    "not-enough-gold": N_("You do not have enough gold."),
    "not-enough-influence": N_("You do not have enough influence cards of that colour."),
    "not-enough-permits": N_("That building needs more of your permits in its area."),
    "not-your-permit": N_("There is no permit of yours on that square."),
    "outside-city": N_("Buildings go inside the city walls."),
    "payment-not-needed": N_("No building of the same size is covered: there is nothing to pay."),
    "permit-not-higher": N_("An upgrade puts a higher permit in place of the old one."),
    "permit-not-in-supply": N_("You have no such permit left in your supply."),
    "permit-tie": N_("Permit totals there are tied: nobody may build."),
    "row-not-allowed": N_("Choose one of the rows offered."),
    "row-not-open":
        N_("Permits go in the ship's row (or next to it when it is full); 2 influence cards of one colour open any row."),
    "same-size-needs-influence": N_("Covering a building of the same size costs 3 influence cards of one colour."),
    "square-not-empty": N_("Permits go on empty squares of the city."),
    "tile-not-drawn": N_("Choose one of the tiles you drew."),
    "unknown-building": N_("There is no such building."),
    "unknown-move": N_("This game has no such move."),
    "unknown-wall-space": N_("There is no such wall space with this many players."),
    "wall-not-connected": N_("A wall tile goes next to a gate or another wall tile."),
    "wall-space-taken": N_("A wall tile already stands there."),
    "wrong-discard": N_("Discard exactly the number of influence cards asked, from those you hold."),
    "wrong-phase": N_("That move is not allowed in this phase of the turn."),
}
