"""Elasund as text: phase and dice, the ship, each player's buildings, supply and (your) hand."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from shared.text.i18n import N_, translator
from shared.text.render.common import Context, compact, counts, describe_generic, describe_with, seat_name
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


def render_state(state: dict[str, Any], ctx: Context) -> str:
    you = ctx.you
    dice = state.get("dice")
    dice_text = _(", dice {dice}").format(dice="+".join(map(str, dice))) if isinstance(dice, list) and dice else ""
    lines = [_("Elasund: turn {turn}, phase {phase}").format(turn=state.get("turn", "?"),
                                                            phase=_(str(state.get("phase", "?")))) + dice_text
             + (_(", current {name}").format(name=ctx.name(state["current"]))
                if isinstance(state.get("current"), int) else "")]
    extras = []
    if "ship" in state:
        extras.append(_("ship at row {row}").format(row=state["ship"] if state["ship"] is not None else "-"))
    if state.get("pirates"):
        extras.append(_("pirates!"))
    if "gold_bank" in state:
        extras.append(_("gold bank {n}").format(n=state["gold_bank"]))
    if "influence_deck" in state:
        extras.append(_("influence deck {n}").format(n=state["influence_deck"]))
    if extras:
        lines.append(", ".join(extras))
    if isinstance(state.get("stock"), dict):
        lines.append(_("Building stock: {buildings}").format(buildings=_counts(state["stock"])))
    if isinstance(state.get("church"), dict):
        church = state["church"]
        lines.append(_("Church: {built} tiles built, {left} left").format(built=len(church.get("tiles") or {}),
                                                                          left=church.get("stack", "?")))
    by_seat: dict[Any, list[str]] = defaultdict(list)
    for b in state.get("buildings") or []:
        if isinstance(b, dict):
            tp = _(" {n}tp").format(n=b["trade_points"]) if b.get("trade_points") else ""
            cubes = _(" cubes {n}").format(n=b["cubes"]) if b.get("cubes") else ""
            by_seat[b.get("seat")].append(f"{_(str(b.get('kind', '?')))}@{b.get('col', '?')},{b.get('row', '?')}{tp}{cubes}")
    walls_by: dict[Any, list[str]] = defaultdict(list)
    for space, wall in (state.get("walls") or {}).items():
        if isinstance(wall, dict):
            walls_by[wall.get("seat")].append(space + (_("(tower)") if wall.get("tower") else ""))
    permits_by: dict[Any, list[str]] = defaultdict(list)
    for where, permit in (state.get("permits") or {}).items():
        if isinstance(permit, list) and len(permit) == 2:
            permits_by[permit[0]].append(f"{permit[1]}@{where}")
    hands, supply = state.get("hands") or [], state.get("supply") or []
    trade, on_board = state.get("trade") or [], state.get("cubes_on_board") or []
    lines.append(_("Players:"))
    players = state.get("players")
    for seat in range(players if isinstance(players, int) and players > 0 else len(hands)):
        info = []
        if seat < len(trade):
            info.append(_("trade {n}").format(n=trade[seat]))
        if seat < len(on_board):
            info.append(_("{n} cubes on board").format(n=on_board[seat]))
        hand = hands[seat] if seat < len(hands) and isinstance(hands[seat], dict) else {}
        if "cards" in hand:
            info.append(_("{n} cards in hand").format(n=hand["cards"]))
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: " + ", ".join(info))
        lines.append("     " + _("buildings: {buildings}").format(buildings="; ".join(by_seat.get(seat, [])) or "-"))
        if walls_by.get(seat) or permits_by.get(seat):
            lines.append("     " + _("walls: {walls}; permits on board: {permits}").format(
                walls=", ".join(walls_by.get(seat, [])) or "-", permits=", ".join(permits_by.get(seat, [])) or "-"))
        if seat < len(supply) and isinstance(supply[seat], dict):
            s = supply[seat]
            lines.append("     " + _("supply: permits {permits}; buildings {buildings}; walls built {walls}").format(
                permits=_counts(s.get("permits")), buildings=_counts(s.get("buildings")), walls=s.get("walls_built", 0)))
        if seat == you or "gold" in hand:
            if "gold" in hand or "influence" in hand:
                lines.append(_("Your hand: {gold} gold; influence {influence}").format(
                    gold=hand.get("gold", 0), influence=_counts(hand.get("influence"))))
    if state.get("pending"):
        lines.append(_("Pending: {what}").format(what=compact(state["pending"])))
    return "\n".join(lines)


def describe_move(move: dict[str, Any], state: dict[str, Any] | None = None) -> str:
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


def _at(d: dict[str, Any]) -> str:
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


def scores(state: dict[str, Any]) -> list[str]:
    """Each seat's score as the table shows it: its victory cubes on the board."""
    return [_("{n} cubes").format(n=n) for n in state.get("cubes_on_board") or []]


def warn_move(move: dict[str, Any], state: dict[str, Any], you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    a building that pays the other permits in its area, or that removes one's own building."""
    if move.get("type") != "build":
        return None
    from services.elasund.rules.board import footprint, key

    squares = set(footprint(move["building"], move["col"], move["row"]) or ())
    warnings = []
    owed: dict[int, int] = defaultdict(int)
    for square in squares:
        owner, value = (state.get("permits") or {}).get(key(*square), (you, 0))
        if owner != you and value:
            owed[owner] += value
    if owed:
        warnings.append(_("This also costs you {gold} gold for the other players' permits there ({owed}).").format(
            gold=sum(owed.values()),
            owed=", ".join(_("seat {n}: {gold}").format(n=seat, gold=gold) for seat, gold in sorted(owed.items()))))
    for building in state.get("buildings") or []:
        covered = set(footprint(building["kind"], building["col"], building["row"]) or ()) & squares
        if building.get("seat") == you and covered:
            warnings.append(_("Your {building} at {at} is removed, with its victory cubes and trade points.").format(
                building=words_of(building["kind"]), at=_at(building)))
    return " ".join(warnings) or None


# The influence cards' swatches, as the colours are printed.
INFLUENCE_COLOURS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "yellow": "#f9a825"}
# What each phase asks of the player whose turn it is, in words.
PHASE_WORDS = {"roll": N_("rolling the dice"), "ship_choice": N_("choosing where the ship goes"),
               "pirate_row": N_("choosing the pirates' row"), "discard": N_("discarding influence cards"),
               "build": N_("building"), "church_choice": N_("choosing a church tile"),
               "hut_rebuild": N_("rebuilding a worker hut"), "permit": N_("placing a building permit"),
               "special": N_("taking a special action"), "over": N_("the game is over")}


def _word(name: str) -> str:
    translated = _(name)
    return translated if translated != name else plain_words(name)


def panels(state: dict[str, Any], ctx: Context) -> list[Panel]:
    """The turn, phase and dice, one's gold and influence cards, the bank and the building stock,
    each seat's victory cubes, trade, cards and buildings."""
    you = ctx.you
    rows = [Row(_("Turn"), str(state.get("turn", "?")))]
    current = state.get("current")
    if isinstance(current, int):
        rows.append(Row(seat_label(ctx, current), _(PHASE_WORDS.get(str(state.get("phase")), str(state.get("phase")))),
                        seat=current, current=True))
    dice = state.get("dice")
    if isinstance(dice, list) and dice:
        rows.append(Row(_("Dice"), " + ".join(map(str, dice)) + f" = {sum(dice)}"))
    if state.get("ship") is not None:
        rows.append(Row(_("Ship"), _("row {n}").format(n=state["ship"]) + (_(", pirates!") if state.get("pirates") else "")))
    out = [Panel("turn", _("This turn"), tuple(rows))]
    hands: list[Any] = state["hands"] if isinstance(state.get("hands"), list) else []
    hand = hands[you] if isinstance(you, int) and 0 <= you < len(hands) and isinstance(hands[you], dict) else None
    if hand is not None and "gold" in hand:
        out.append(Panel("hand", _("Your hand"), (
            Row(_("Gold"), str(hand.get("gold", 0))),
            Row(_("Influence cards"), "", counted(hand.get("influence"), _word, INFLUENCE_COLOURS, keep_zero=True)))))
    rows = []
    if isinstance(state.get("gold_bank"), int):
        rows.append(Row(_("Gold in the bank"), str(state["gold_bank"])))
    if isinstance(state.get("influence_deck"), int):
        rows.append(Row(_("Influence cards in the deck"), str(state["influence_deck"])))
    if isinstance(state.get("stock"), dict):
        rows.append(Row(_("Buildings left"), "", counted(state["stock"], _word)))
    church = state.get("church")
    if isinstance(church, dict):
        rows.append(Row(_("Church"), _("{built} tiles built, {left} left").format(
            built=len(church.get("tiles") or {}), left=church.get("stack", "?"))))
    out.append(Panel("bank", _("Bank"), tuple(rows)))
    trade, on_board = state.get("trade") or [], state.get("cubes_on_board") or []
    built: dict[int, int] = defaultdict(int)
    for b in state.get("buildings") or []:
        if isinstance(b, dict) and isinstance(b.get("seat"), int):
            built[b["seat"]] += 1
    players = state.get("players")
    rows = []
    for seat in range(players if isinstance(players, int) and players > 0 else len(hands)):
        facts = []
        if seat < len(on_board):
            facts.append(Item(_("Victory cubes"), on_board[seat]))
        if seat < len(trade):
            facts.append(Item(_("Trade"), trade[seat]))
        seat_hand = hands[seat] if seat < len(hands) and isinstance(hands[seat], dict) else {}
        cards = seat_hand.get("cards") if "cards" in seat_hand else sum((seat_hand.get("influence") or {}).values())
        facts.append(Item(_("Influence cards"), cards))
        facts.append(Item(_("Buildings"), built.get(seat, 0)))
        rows.append(Row(seat_label(ctx, seat), "", tuple(facts), seat=seat, current=seat in ctx.to_act))
    out.append(Panel("players", _("Players"), tuple(rows)))
    return out

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
