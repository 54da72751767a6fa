"""Elfenland as text: round and phase, counters on the roads, each elf's town and visits, your hand."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.text.i18n import N_, translator
from shared.text.render.common import (Context, counts, describe_generic, describe_with, game_end_words,
                                       seat_name)
from shared.text.render.common import words as plain_words
from shared.text.render.panels import Item, Panel, Row, counted, seat_label

from services.elfenland.rules.view_types import Auction, Counter, ElfenlandView, RoadSlot, SeatView

# Elfenland's words, in French from locale/fr/LC_MESSAGES/messages.po (the French rules' terms).
_ = translator(__file__)
# What the platform hands render_state (shared.text.render checks a value's keys against it).
VIEW_TYPE = ElfenlandView
# The game's title as the pages head it (its Game.title, in the rules' language in French).
TITLE = N_("Elfenland (with Elfengold and Elfenroads)")
# The words of Elfenland's data: transports, counters, cards, terrains, phases, move types and fields.
TERMS = (N_("giant_pig"), N_("elfcycle"), N_("magic_cloud"), N_("unicorn"), N_("troll_wagon"), N_("dragon"),
         N_("raft"), N_("wizard"), N_("gold"), N_("obstacle"), N_("sea_monster"), N_("double"), N_("exchange"),
         N_("plain"), N_("forest"), N_("mountain"), N_("desert"), N_("river"), N_("lake"),
         N_("secret_counter"), N_("draft_counters"), N_("draft_cards"), N_("reveal_counter"), N_("placement"),
         N_("movement"), N_("auction"), N_("keep"), N_("setup"), N_("round_start"), N_("over"),
         N_("elfenland"), N_("elfengold"), N_("elfenroads"), N_("pile"), N_("face_up"),
         N_("place_counter"), N_("travel"), N_("pass"), N_("draw_card"), N_("draw_counter"), N_("take_gold"),
         N_("bid"), N_("keep_cards"), N_("keep_counters"), N_("fly"), N_("finish_travel"), N_("play_exchange"),
         N_("counter"), N_("road"), N_("cards"), N_("amount"), N_("reveal"), N_("town"), N_("kept"),
         N_("other_road"), N_("index"), N_("take"), N_("counters"), N_("card"), N_("take_card"),
         N_("take_counter"), N_("place_double"))


def words(name: Any) -> str:
    """A counter's, card's or phase's name in the language in use (``giant_pig`` -> ``giant pig``)."""
    translated = _(str(name))
    return translated if translated != str(name) else plain_words(name)


def _counts(value: Any, empty: str | None = None) -> str:
    return counts(value, empty, term=words)


def _roads() -> dict[int, Any]:
    """Road id -> the rules' road (towns, terrain); empty when the rules are not installed."""
    try:
        from services.elfenland.rules.board import ROADS
        return {road.id: road for road in ROADS}
    except Exception:  # noqa: BLE001 - the client may run without the rules installed
        return {}


ROADS = _roads()


def road_label(road: Any) -> str:
    """``"road 0 (Beata-Elvenhold, plain)"``; just ``"road 0"`` when the map is unknown."""
    known = ROADS.get(road) if isinstance(road, int) else ROADS.get(int(road)) if str(road).isdigit() else None
    if known is None:
        return _("road {road}").format(road=road)
    return _("road {road} ({a}-{b}, {terrain})").format(road=road, a=known.a, b=known.b, terrain=_(known.terrain))


def render_state(view: ElfenlandView, ctx: Context) -> str:
    you = ctx.you if ctx.you is not None else view["viewer"]
    lines = [_heading(view), _piles(view), *_face_up_lines(view), *_road_lines(view["board"])]
    if view["auction"] is not None:
        lines.append(_("Auction: {auction}").format(auction=_auction_words(view["auction"], ctx)))
    lines.append(_("Elves:"))
    for seat, info in enumerate(view["seats"]):
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: " + ", ".join(_elf_facts(view, info)))
        if seat == you:
            lines += _your_lines(info)
    return "\n".join(lines)


def _heading(view: ElfenlandView) -> str:
    return _("Elfenland ({edition}): round {round}/{rounds}, phase {phase}, step {step}").format(
        edition=view["edition"], round=view["round"], rounds=view["rounds"], phase=words(view["phase"]),
        step=view["step"])


def _piles(view: ElfenlandView) -> str:
    """The sizes of the face-down piles and the gold pile."""
    sizes = ((N_("deck size"), view["deck_size"]), (N_("bag size"), view["bag_size"]),
             (N_("discard size"), view["discard_size"]), (N_("gold pile"), view["gold_pile"]))
    return ", ".join(f"{_(label)} {size}" for label, size in sizes)


def _auction_words(auction: Auction, ctx: Context) -> str:
    """Elfengold's auction: the lots left, the highest bid and its bidder, whose bid it is."""
    lots = _named(auction["lots"])
    if auction["bidder"] is None:
        return _("{lots}; no bid yet, {name} to bid").format(lots=lots, name=ctx.name(auction["turn"]))
    return _("{lots}; {name} bids {high} gold, {next} to bid").format(
        lots=lots, name=ctx.name(auction["bidder"]), high=auction["high"], next=ctx.name(auction["turn"]))


def _face_up_lines(view: ElfenlandView) -> list[str]:
    """The face-up counters and cards, and Elfengold's town values."""
    lines = []
    if view["face_up_counters"]:
        lines.append(_("Face-up counters: {counters}").format(counters=_named(view["face_up_counters"])))
    if view["face_up_cards"]:
        lines.append(_("Face-up cards: {cards}").format(cards=_named(view["face_up_cards"])))
    if view["gold_values"]:
        lines.append(_("Gold values: {values}").format(
            values=", ".join(f"{town} {gold}" for town, gold in view["gold_values"].items())))
    return lines


def _road_lines(board: dict[str, RoadSlot]) -> list[str]:
    """Each road that holds a counter, in road order, with what lies on it."""
    if not board:
        return []
    return [_("Roads with counters:")] + [f"  {road_label(road)}: {_road_marks(board[road])}"
                                          for road in sorted(board, key=int)]


def _road_marks(slot: RoadSlot) -> str:
    marks = "+".join(words(transport) for transport in slot["transports"]) or "-"
    if slot["obstacle"] is not None:
        marks += f" [{words(slot['obstacle'])}]"
    if slot["gold"]:
        marks += _(" (gold)")
    return marks


def _elf_facts(view: ElfenlandView, info: SeatView) -> list[str]:
    """An elf's town, visits, cards and counters; coins where gold is in play, its home town once shown."""
    counters = [words(c["kind"]) if c["kind"] is not None else _("hidden") for c in info["counters"]]
    facts = [_("at {town}").format(town=info["town"]), _("{n} towns visited").format(n=len(info["visited"])),
             _("{n} cards").format(n=info["hand_size"]),
             _("counters: {counters}").format(counters=", ".join(counters) or "-")]
    if info["coins"] or view["edition"] != "elfenland":
        facts.append(_("{n} coins").format(n=info["coins"]))   # Elfengold and Elfenroads: 0 coins is news too
    if info["home"] is not None:
        facts.append(_("home {town}").format(town=info["home"]))
    return facts


def _your_lines(info: SeatView) -> list[str]:
    # ``hand`` is null only when the context names a seat the view is not for: shown as empty.
    lines = [_("Your hand: {cards}").format(cards=_counts(info["hand"], _("empty")))]
    if info["visited"]:
        lines.append(_("You visited: {towns}").format(towns=", ".join(info["visited"])))
    return lines


def describe_move(move: dict[str, Any], view: ElfenlandView | None = None) -> str:
    kind = move.get("type")
    if kind == "place_counter":
        return _("place {counter} on {road}").format(counter=words(move.get("counter")), road=road_label(move.get("road")))
    if kind == "travel":
        return _("travel along {road} using {cards}").format(road=road_label(move.get("road")),
                                                            cards=_named(move.get("cards")))
    if kind in ("keep_cards", "keep_counters"):
        kept = move.get("cards" if kind == "keep_cards" else "counters")
        if isinstance(kept, list):
            return _("keep {cards}").format(cards=_named(kept)) if kept else _("keep nothing")
    if kind == "secret_counter":
        return _("take the secret counter and reveal it") if move.get("reveal") \
            else _("take the secret counter (keep it hidden)")
    if kind in ("pass", "draw_card", "draw_counter", "take_gold") and len(move) == 1:
        return words(kind)
    if kind == "reveal_counter":
        return _("reveal {counter} for auction").format(counter=words(move.get("counter")))
    if kind == "bid" and isinstance(move.get("amount"), int):
        return _("bid {n} gold").format(n=move["amount"])
    if kind == "take_card" and move.get("card"):
        return _("take the face-up card {card}").format(card=words(move["card"]))
    if kind == "take_counter" and move.get("counter"):
        return _("take the face-up counter {counter}").format(counter=words(move["counter"]))
    if kind == "place_double":
        return _("place a second {counter} on {road}").format(counter=words(move.get("counter")),
                                                             road=road_label(move.get("road")))
    if kind == "exchange":
        return _("swap the counters of {road} and {other}").format(road=road_label(move.get("road")),
                                                                  other=road_label(move.get("other_road")))
    if kind == "finish_travel":
        return {"gold": _("end the journey and take the gold"), "cards": _("end the journey and draw two cards")
                }.get(str(move.get("take")), _("end the journey"))
    return describe_generic(move, _)


def _named(cards: Any) -> str:
    """A move's cards or counters one by one, in its order ("dragon, giant pig, giant pig"): a label
    names each card a player picks, with no count to put in the plural."""
    if not isinstance(cards, list):
        return _counts(cards)
    return ", ".join(words(card) for card in cards) or _("nothing")


def _cards(cards: Any, noun: str = "cards") -> str:
    """Cards or counters by name; hidden ones (null in another seat's view) as a count."""
    if isinstance(cards, list):
        if cards and all(isinstance(c, str) for c in cards):
            return counts(_tally(cards), term=_)
        hidden = _("{n} hidden counters") if noun == "counters" else _("{n} hidden cards")
        return hidden.format(n=len(cards)) if cards else _("nothing")
    return words(cards) if cards else _("a hidden one")


def _tally(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards:
        out[words(card)] = out.get(words(card), 0) + 1
    return out


def _travelled(d: dict[str, Any], who: str, names: Any) -> str:
    paid = _(", earning {n} gold").format(n=d["earned"]) if d.get("earned") else ""
    return _("{who} travels to {town} along {road} with {cards}").format(
        who=who, town=d["to"], road=road_label(d["road"]), cards=_cards(d.get("cards"))) + paid


def _ended(d: dict[str, Any], who: str, names: Any) -> str:
    result = d.get("result") or {}
    return game_end_words(result.get("scores"), result.get("winners"), names)


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_set_up": lambda d, who, names: _("a game of {edition} for {n} players").format(
        edition=words(d["edition"]), n=d["players"]),
    "home_town_dealt": lambda d, who, names: _("{who}'s home town is {town}").format(who=who, town=d["town"])
                                             if d.get("town") else _("{who} is dealt a secret home town").format(who=who),
    "round_started": lambda d, who, names: _("round {round} begins; {first} starts").format(
        round=d["round"], first=seat_name(names, d["first"])),
    "cards_dealt": lambda d, who, names: _("{who} is dealt {cards}").format(who=who, cards=_cards(d.get("cards"))),
    "secret_counter_drawn": lambda d, who, names: _("{who} draws a secret counter ({counter})").format(
        who=who, counter=_cards(d.get("counter"))),
    "phase_started": lambda d, who, names: _("phase: {phase}").format(phase=words(d["phase"])),
    "secret_counter_chosen": lambda d, who, names: (
        _("{who} reveals the secret counter {counter}").format(who=who, counter=words(d["counter"]))
        if d.get("reveal") else _("{who} keeps the secret counter hidden").format(who=who)),
    "counters_revealed": lambda d, who, names: _("face-up counters: {counters}").format(counters=_cards(d["counters"])),
    "counter_taken": lambda d, who, names: (
        _("{who} takes {counter} from the face-up counters") if d.get("source") == "face_up"
        else _("{who} takes {counter} from the pile")).format(who=who, counter=_cards(d.get("counter"))),
    "face_up_counter_added": lambda d, who, names: _("{counter} is turned face up").format(counter=words(d["counter"])),
    "counter_placed": lambda d, who, names: _("{who} places {counter} on {road}").format(
        who=who, counter=_cards(d.get("counter")), road=road_label(d["road"])),
    "passed": lambda d, who, names: _("{who} passes").format(who=who),
    "travelled": _travelled,
    "flew": lambda d, who, names: _("{who} flies to {town}").format(who=who, town=d.get("to", "?")),
    "travel_finished": lambda d, who, names: _("{who} ends the journey").format(who=who)
                                             + (_(", takes {what}").format(what=_(str(d["take"]))) if d.get("take") else ""),
    "round_ended": lambda d, who, names: _("the round ends"),
    "cards_kept": lambda d, who, names: _("{who} keeps {cards}").format(who=who, cards=_cards(d.get("kept"))),
    "counters_kept": lambda d, who, names: _("{who} keeps {cards}").format(who=who, cards=_cards(d.get("kept"), "counters")),
    "game_ended": _ended,
    "face_up_card_added": lambda d, who, names: _("{card} is turned face up").format(card=words(d["card"])),
    "gold_cards_added": lambda d, who, names: _("{n} gold cards are shuffled in").format(n=d["count"]),
    "counters_drawn": lambda d, who, names: _("{who} draws {cards}").format(who=who, cards=_cards(d.get("counters"), "counters")),
    "counter_revealed": lambda d, who, names: _("{who} reveals {counter}").format(who=who, counter=words(d["counter"])),
    "auction_opened": lambda d, who, names: _("the auction opens: {lots}").format(lots=_cards(d["lots"])),
    "bid_placed": lambda d, who, names: _("{who} bids {n} gold").format(who=who, n=d["amount"]),
    "bid_passed": lambda d, who, names: _("{who} passes on the lot").format(who=who),
    "lot_overbid": lambda d, who, names: _("{who} bids {n} gold").format(who=who, n=d["amount"]),
    "lot_sold": lambda d, who, names: _("{who} buys {counter} for {n} gold").format(
        who=who, counter=words(d["counter"]), n=d["price"]),
    "lot_unsold": lambda d, who, names: _("nobody buys {counter}").format(counter=words(d["counter"])),
    "auction_closed": lambda d, who, names: _("the auction closes"),
    "double_placed": lambda d, who, names: _("{who} places a second {counter} on {road}").format(
        who=who, counter=_cards(d.get("counter")), road=road_label(d["road"])),
    "exchange_played": lambda d, who, names: _("{who} swaps the counters of {road} and {other}").format(
        who=who, road=road_label(d["road"]), other=road_label(d["other_road"])),
    "card_drawn": lambda d, who, names: _("{who} draws {cards}").format(who=who, cards=_cards(d.get("card"))),
    "card_taken": lambda d, who, names: _("{who} takes {card}").format(who=who, card=words(d["card"])),
    "gold_card_found": lambda d, who, names: _("a gold card turns up"),
    "gold_taken": lambda d, who, names: _("{who} takes {n} gold").format(who=who, n=d["coins"]),
    "income": lambda d, who, names: _("everyone earns {n} gold").format(n=d["coins"]),
    "deck_reshuffled": lambda d, who, names: _("the deck is reshuffled"),
}


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob travels to Virst along road 43 (...) with 2 unicorn"``."""
    return describe_with(EVENTS, event, names, _)


def scores(view: ElfenlandView) -> list[str]:
    """Each seat's score as the table shows it: the towns its elf has visited."""
    return [towns(len(info["visited"])) for info in view["seats"]]


def towns(n: int) -> str:
    """``n`` towns visited, as a score: "1 town", "5 towns" (French says "1 ville" too)."""
    return (_("{n} town") if n == 1 else _("{n} towns")).format(n=n)


def warn_move(move: dict[str, Any], view: ElfenlandView, you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    an over-bid in Elfengold's auction."""
    if move.get("type") == "bid":
        coins, amount = view["seats"][you]["coins"], move["amount"]
        if amount > coins:
            return _("You have {coins} gold: a bid of {amount} is an over-bid. If it still stands when the lot "
                     "closes, you forfeit all {coins} gold, get nothing, and the counter is auctioned again.").format(
                coins=coins, amount=amount)
    return None


# The transports' swatches: the colours of their counters on the board picture (the raft has none: blue).
TRANSPORT_COLOURS = {"giant_pig": "#f48fb1", "elfcycle": "#bdbdbd", "magic_cloud": "#e3f2fd", "unicorn": "#ce93d8",
                     "troll_wagon": "#a1887f", "dragon": "#e53935", "raft": "#1e88e5", "obstacle": "#3e2723",
                     "sea_monster": "#00695c", "gold": "#ffd54f", "double": "#ffffff", "exchange": "#ffffff",
                     "wizard": "#7e57c2"}
# What each phase asks of the players, in words.
PHASE_WORDS = {"setup": N_("setting up"), "round_start": N_("starting the round"),
               "secret_counter": N_("taking a secret counter"), "draft_cards": N_("drawing travel cards"),
               "draft_counters": N_("drawing transport counters"), "reveal_counter": N_("revealing a counter"),
               "placement": N_("placing counters on roads"), "auction": N_("bidding for counters"),
               "keep": N_("choosing what to keep"), "movement": N_("travelling"), "over": N_("the game is over")}


def _transport(name: str) -> str:
    return words(name)


def _counter_items(counters: list[Counter]) -> tuple[Item, ...]:
    """A seat's counters as the view shows them: a kind, else "hidden"."""
    shown: dict[str, int] = {}
    for c in counters:
        kind = c["kind"] if c["kind"] is not None else "hidden"
        shown[kind] = shown.get(kind, 0) + 1
    return tuple(Item(_("hidden") if k == "hidden" else words(k), n, TRANSPORT_COLOURS.get(k)) for k, n in shown.items())


def panels(view: ElfenlandView, ctx: Context) -> list[Panel]:
    """The round and phase, one's hand of cards and counters, the face-up piles (and Elfengold's
    auction), each elf's town, visits, cards and counters."""
    you = ctx.you if ctx.you is not None else view["viewer"]
    gold = view["edition"] != "elfenland"
    out = [_turn_panel(view, ctx)]
    if you is not None and 0 <= you < len(view["seats"]):
        out.append(_hand_panel(view["seats"][you], gold))
    out.append(_market_panel(view, gold))
    if view["auction"] is not None:
        out.append(_auction_panel(view["auction"], ctx))
    out.append(_players_panel(view["seats"], ctx, gold))
    return out


def _turn_panel(view: ElfenlandView, ctx: Context) -> Panel:
    rows = [Row(_("Round"), _("{n} of {total}").format(n=view["round"], total=view["rounds"])),
            Row(_("Phase"), _(PHASE_WORDS[view["phase"]]))]
    rows += [Row(seat_label(ctx, s), _("to play"), seat=s, current=True) for s in ctx.to_act]
    return Panel("turn", _("This round"), tuple(rows))


def _hand_panel(mine: SeatView, gold: bool) -> Panel:
    # ``hand`` is null only when the context names a seat the view is not for: shown as none.
    rows = [Row(_("Travel cards"), "" if mine["hand"] else _("none"), counted(mine["hand"], _transport, TRANSPORT_COLOURS)),
            Row(_("Transport counters"), "" if mine["counters"] else _("none"), _counter_items(mine["counters"]))]
    if gold:
        rows.append(Row(_("Gold coins"), str(mine["coins"])))
    if mine["home"] is not None:
        rows.append(Row(_("Home town"), mine["home"]))
    return Panel("hand", _("Your hand"), tuple(rows))


def _market_panel(view: ElfenlandView, gold: bool) -> Panel:
    """The face-up cards and counters, and the piles' sizes."""
    rows = []
    if view["face_up_cards"]:
        rows.append(Row(_("Face-up cards"), "", counted(_kinds(view["face_up_cards"]), _transport, TRANSPORT_COLOURS)))
    if view["face_up_counters"]:
        rows.append(Row(_("Face-up counters"), "", counted(_kinds(view["face_up_counters"]), _transport,
                                                           TRANSPORT_COLOURS)))
    piles = [Item(_("Card deck"), view["deck_size"]), Item(_("Counters in the bag"), view["bag_size"]),
             Item(_("Discarded cards"), view["discard_size"])]
    if gold:
        piles.append(Item(_("Gold pile"), view["gold_pile"]))
    rows.append(Row(_("Piles"), "", tuple(piles)))
    return Panel("market", _("Face up and piles"), tuple(rows))


def _auction_panel(auction: Auction, ctx: Context) -> Panel:
    bidder = auction["bidder"]
    high = (_("{n} gold by {name}").format(n=auction["high"], name=seat_label(ctx, bidder)) if bidder is not None
            else _("no bid yet"))
    rows = (Row(_("Lots"), ", ".join(words(lot) for lot in auction["lots"]) or _("none")),
            Row(_("Highest bid"), high, seat=bidder))
    return Panel("auction", _("Auction"), rows)


def _players_panel(seats: list[SeatView], ctx: Context, gold: bool) -> Panel:
    rows = []
    for seat, info in enumerate(seats):
        facts = [Item(_("Towns visited"), len(info["visited"])), Item(_("Cards"), info["hand_size"]),
                 *_counter_items(info["counters"])]
        if gold:
            facts.append(Item(_("Gold coins"), info["coins"]))
        rows.append(Row(seat_label(ctx, seat), _("in {town}").format(town=info["town"]), tuple(facts),
                        seat=seat, current=seat in ctx.to_act))
    return Panel("players", _("Elves"), tuple(rows))


def _kinds(values: Sequence[str]) -> dict[str, int]:
    """How many of each kind a list of kinds holds."""
    tally: dict[str, int] = {}
    for value in values:
        tally[value] = tally.get(value, 0) + 1
    return tally


# The pages' words for each rule a move can break, by the problem's ``reason`` (the API's own
# detail stays in English for integrators; problems.json lists every reason with an example of it).
REFUSALS: dict[str, str] = {
    "already-there": N_("Your elf is already there."),
    "bid-too-low": N_("A bid must be higher than the one before."),
    "card-not-face-up": N_("That card is not face up."),
    "cards-not-in-hand": N_("You do not hold these cards."),
    "counter-not-drawn": N_("You did not draw that counter."),
    "counter-not-face-up": N_("That counter is not face up."),
    "counter-not-held": N_("You do not hold that counter."),
    "counter-pile-empty": N_("The counter pile is empty."),
    "deck-empty": N_("No card is left to draw."),
    "did-not-move": N_("An elf that did not move draws two cards."),
    "exchange-needs-single-transport":
        N_("An exchange swaps the counters of two roads that each hold exactly one transport counter."),
    "gold-pile-empty": N_("The gold pile is empty."),
    "must-draw-or-take-gold": N_("After a gold card drawn blind: draw again or take the gold pile."),
    "must-keep-cards": N_("Choose the cards you keep before the next player moves."),
    "needs-transport-counter": N_("That counter may only go on a road that holds a transport counter."),
    "no-coins": N_("A player without gold cannot bid."),
    "no-gold-economy": N_("Elfenland pays no gold: finish without taking."),
    "no-secret-counter": N_("There is no hidden counter to reveal."),
    "no-transport-counter": N_("That road has no transport counter."),
    "no-wizard-card": N_("Flying takes a wizard card."),
    "not-enough-coins": N_("You do not have enough gold for that."),
    "nothing-to-keep": N_("You hold no more than you may keep."),
    "road-has-double": N_("That road already holds a doubling spell."),
    "road-has-gold": N_("A gold counter already lies on that road."),
    "road-has-obstacle": N_("That road already holds an obstacle."),
    "road-has-transport": N_("That road already holds a transport counter."),
    "road-not-adjacent": N_("That road does not leave your elf's town."),
    "same-road": N_("Choose two different roads to swap their counters."),
    "sea-monster-needs-water": N_("A sea monster counter goes on a river or a lake only."),
    "spell-needs-own-move": N_("A spell counter may only be played on your own move."),
    "take-required": N_("Choose gold (the towns' value) or two cards."),
    "terrain-forbids-transport": N_("That transport may not go on this kind of road."),
    "unknown-card": N_("Cards must be travel cards."),
    "unknown-counter": N_("There is no such counter."),
    "unknown-move": N_("This game has no such move."),
    "unknown-road": N_("There is no such road."),
    "unknown-town": N_("There is no such town."),
    "wrong-cards": N_("These cards do not pay for that road."),
    "wrong-count": N_("Keep exactly the number of cards asked."),
    "wrong-phase": N_("That move is not allowed in this phase."),
}
