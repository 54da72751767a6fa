"""Elastium as text: scenario and round, the market, scores and energy, bands, your hand."""
from __future__ import annotations

from collections import Counter
from typing import Any

from shared.text.i18n import N_, translator
from shared.text.render.common import Context, counts, describe_generic, describe_with, game_end_words
from shared.text.render.common import words as plain_words
from shared.text.render.panels import Item, Panel, Row, counted, seat_label

from services.elastium.rules.view_types import ElastiumView, ViewHand

# Elastium's words, in French from locale/fr/LC_MESSAGES/messages.po (the French rules' terms).
_ = translator(__file__)
# What the platform hands render_state (shared.text.render checks a value's keys against it).
VIEW_TYPE = ElastiumView
# The words of Elastium's data: scenarios, phases, reasons, move types and fields (also the pages' forms).
# Its colours are the French rules' own names (gris, bleu...), data in both languages.
TERMS = (N_("jungle-temples"), N_("volcano"), N_("archipelago"), N_("engraved-plateau"), N_("fragile-ruins"),
         N_("cursed-triangle"), N_("two-deities"), N_("labyrinth"),
         N_("actions"), N_("extra"), N_("bonus"), N_("over"),
         N_("opposite-edge"), N_("final-image-segment"), N_("image-majority"), N_("empty-segment"),
         N_("excavation-site"), N_("own-chain-crossed"), N_("bands-exhausted"), N_("chains-blocked"),
         N_("images-completed"), N_("score-reached"),
         N_("take_cards"), N_("place_band"), N_("buy_action"), N_("end_turn"), N_("take_bonus_card"),
         N_("market"), N_("pegs"), N_("payment"), N_("peg"), N_("cards"), N_("energy"), N_("card"), N_("to"),
         N_("line"), N_("segment"))


def words(name: Any) -> str:
    """A scenario's, action's or reason's name in the language in use (``take_cards`` -> ``take cards``)."""
    translated = _(str(name))
    return translated if translated != str(name) else plain_words(name)


COLOUR = {"gris": "g", "bleu": "b", "vert": "v", "rouge": "r", "jaune": "j"}


def _scenario_board(scenario: str) -> dict[str, Any]:
    """The printed board of a scenario (peg colours...) from the rules' data; empty if unavailable."""
    try:
        from services.elastium.rules.board import raw_boards
        return dict(raw_boards()["scenarios"][scenario])
    except Exception:  # noqa: BLE001 - the client may run without the rules installed
        return {}


def render_pegs(view: ElastiumView, columns: int = 8, rows: int = 10) -> list[str]:
    """The peg grid, north (row 9) at the top; odd rows sit half a step east, as on the board."""
    board = _scenario_board(view["scenario"])
    colours = board.get("peg_colours") or {}
    if not colours:
        return []
    unplayable = set(board.get("unplayable_pegs") or [])
    lines = [_("Pegs (cXrY; colour g=gris b=bleu v=vert r=rouge j=jaune, then the seats whose bands hold it; "
               "x = no band):"),
             "       " + "".join(f"c{c:<5}" for c in range(columns)).rstrip()]
    for row in reversed(range(rows)):
        cells = [_peg_cell(f"c{col}r{row}", colours, unplayable, view["peg_owners"]) for col in range(columns)]
        lines.append(f"  r{row:<2} " + ("   " if row % 2 else "") + "".join(c.ljust(6) for c in cells).rstrip())
    return lines


def _peg_cell(peg: str, colours: dict[str, str], unplayable: set[str], owners: dict[str, list[int]]) -> str:
    """A peg's colour initial then the seats on it; ``x`` where no band may go."""
    if peg in unplayable:
        return "x"
    return COLOUR.get(colours.get(peg, ""), "?") + "".join(map(str, owners.get(peg, [])))


def _bands_by_seat(view: ElastiumView) -> Counter[int]:
    return Counter(band["seat"] for band in view["bands"])


def _pegs_by_seat(view: ElastiumView) -> Counter[int]:
    """How many pegs hold each seat's bands."""
    return Counter(seat for owners in view["peg_owners"].values() for seat in owners)


def _running(view: ElastiumView, ctx: Context) -> bool:
    """Whether the game goes on (a seat is to act)."""
    return not (ctx.result or view["result"])


def render_state(view: ElastiumView, ctx: Context) -> str:
    you = ctx.you if ctx.you is not None else view.get("seat")
    lines = [_heading(view, ctx), _market_line(view)]
    if ctx.board:
        lines += render_pegs(view)
    if view["end_triggered"] is not None:
        lines.append(_("End triggered: {reason}").format(reason=_(view["end_triggered"])))
    lines.append(_("Players:"))
    lines += _player_lines(view, ctx, you)
    if view["pending_bonus_cards"]:
        lines.append(_("Bonus cards to take: {n}").format(n=view["pending_bonus_cards"]))
    return "\n".join(lines)


def _heading(view: ElastiumView, ctx: Context) -> str:
    """Scenario, round and phase; while the game goes on, who acts and how many actions are left."""
    heading = _("Elastium ({scenario}): round {round}/{rounds}, phase {phase}").format(
        scenario=view["scenario"], round=view["round"], rounds=view["max_rounds"], phase=_(view["phase"]))
    if _running(view, ctx):
        heading += _(", {name} has {n} actions left").format(name=ctx.name(view["turn_seat"]), n=view["actions_left"])
    return heading


def _market_line(view: ElastiumView) -> str:
    return _("Market: {cards}; deck {deck}, energy supply {energy}").format(
        cards=counts(view["market"], _("empty")), deck=view["deck_count"], energy=view["energy_supply"])


def _player_lines(view: ElastiumView, ctx: Context, you: int | None) -> list[str]:
    """Each seat's score, energy, cards, bands, pegs and enclosed segments; the viewer's hand under its seat."""
    bands, pegs = _bands_by_seat(view), _pegs_by_seat(view)
    hand = view.get("hand")
    lines = []
    for seat in range(view["players"]):
        facts = [_("score {n}").format(n=view["score"][seat]), _("energy {n}").format(n=view["energy"][seat]),
                 _("{n} cards").format(n=view["hand_counts"][seat]),
                 _("{n} bands on the board").format(n=bands[seat]), _("{n} pegs").format(n=pegs[seat]),
                 _("{n} segments inside own bands").format(n=len(view["enclosed"][seat]))]
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: " + ", ".join(facts))
        if seat == you and hand is not None:
            lines.append(_("Your hand: {cards}").format(cards=counts(hand, _("empty"))))
    return lines


def payment(value: Any) -> str:
    """``[{"peg": "c6r0", "cards": ["bleu"], "energy": false, "to": null}, ...]`` -> ``"c6r0: bleu; ..."``."""
    if not isinstance(value, list):
        return counts(value)
    parts = []
    for item in value:
        if not isinstance(item, dict):
            parts.append(str(item))
            continue
        paid = "+".join(map(str, item.get("cards") or []))
        if item.get("energy"):
            paid = (paid + "+" if paid else "") + _("energy")
        to = _(" to seat {n}").format(n=item["to"]) if item.get("to") is not None else ""
        parts.append(f"{item.get('peg', '?')}: {paid or _('nothing')}{to}")
    return "; ".join(parts) or _("nothing")


def describe_move(move: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    kind = move.get("type")
    if kind == "take_cards":
        market = move.get("market") or []
        return _("take cards: {cards} from the market").format(cards=", ".join(map(str, market))) if market \
            else _("take cards: from the deck")
    if kind == "place_band":
        return _("place a band on {pegs}, pay {payment}").format(pegs="+".join(map(str, move.get("pegs") or [])),
                                                                payment=payment(move.get("payment")))
    if kind in ("buy_action", "end_turn") and len(move) == 1:
        return _({"buy_action": N_("buy an extra action"), "end_turn": N_("end your turn")}[kind])
    return describe_generic(move, _)


def _hidden(cards: Any) -> str:
    """Cards by colour; hidden ones (another seat's draw) as a count."""
    if isinstance(cards, list):
        return counts(dict(Counter(map(str, cards)))) if cards and all(cards) else _("{n} cards").format(n=len(cards))
    return str(cards) if cards else _("a card")


def _band(d: dict[str, Any], who: str, names: Any) -> str:
    pegs = d.get("pegs") or []
    bits = [_("{who} stretches a band over {n} pegs ({pegs})").format(who=who, n=len(pegs), pegs=", ".join(map(str, pegs)))]
    if d.get("explored"):
        bits.append(_("exploring {n}").format(n=len(d["explored"])))
    if d.get("enclosed"):
        bits.append(_("enclosing {n}").format(n=len(d["enclosed"])))
    return ", ".join(bits)


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_started": lambda d, who, names: _("a game of {scenario} for {n} players, at most {rounds} rounds").format(
        scenario=words(d["scenario"]), n=d["players"], rounds=d["max_rounds"]),
    "deck_shuffled": lambda d, who, names: _("the deck of {n} cards is shuffled").format(n=len(d["deck"]))
                                           if d.get("deck") else _("the deck is shuffled"),
    "private_decks_dealt": lambda d, who, names: _("each player gets a private deck"),
    "cards_dealt": lambda d, who, names: _("{who} is dealt {cards}").format(who=who, cards=_hidden(d.get("cards"))),
    "market_card_revealed": lambda d, who, names: _("{card} is turned up in the market").format(card=d["card"]),
    "action_started": lambda d, who, names: f"{who}: {words(d['action'])}",
    "market_card_taken": lambda d, who, names: _("{who} takes {card} from the market").format(who=who, card=d["card"]),
    "card_drawn": lambda d, who, names: _("{who} draws {cards}").format(who=who, cards=_hidden(d.get("card"))),
    "band_placed": _band,
    "items_collected": lambda d, who, names: (
        _("{who} collects {n} items worth {treasure} treasure") if d.get("treasure") else _("{who} collects {n} items"))
        .format(who=who, n=len(d.get("items") or []), treasure=d.get("treasure")),
    "points_scored": lambda d, who, names: _("{who} scores {n} points ({reason})").format(
        who=who, n=d["points"], reason=words(d["reason"])),
    "image_completed": lambda d, who, names: _("{who} completes image {image}").format(who=who, image=d["image"]),
    "turn_ended": lambda d, who, names: _("{who} ends the turn").format(who=who),
    "round_ended": lambda d, who, names: _("round {n} ends").format(n=d["round"]),
    "action_bought": lambda d, who, names: _("{who} buys an extra action").format(who=who),
    "discards_reshuffled": lambda d, who, names: _("the discards are reshuffled into the deck"),
    "end_triggered": lambda d, who, names: _("the end is near ({reason}, by {who})").format(
        reason=words(d["reason"]), who=who),
    "game_ended": lambda d, who, names: game_end_words(d.get("scores"), d.get("winners"), names),
}


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob stretches a band over 3 pegs (c0r0, c1r0, c0r1)"``."""
    return describe_with(EVENTS, event, names, _)


def scores(view: ElastiumView) -> list[str]:
    """Each seat's score as the table shows it: its points."""
    return [_("{n} points").format(n=n) for n in view["score"]]


def warn_move(move: dict[str, Any], view: ElastiumView, you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    in the Volcano, spending the energy one needs to escape at the end."""
    if view["scenario"] != "volcano":
        return None
    spent = 3 if move.get("type") == "buy_action" else 0
    if move.get("type") == "place_band":
        spent = sum(1 for pay in move.get("payment") or [] if pay.get("energy"))
    energy = view["energy"][you]
    if spent and energy - spent < 7:
        return _("This spends {spent} energy and leaves you {left}: in the Volcano a player with fewer "
                 "than 7 energy at the end does not escape and loses.").format(spent=spent, left=energy - spent)
    return None


# The cards' colours: the French rules name them (data in both languages); a person reads them in
# the page's language, with a swatch of the peg colour on the board picture.
CARD_WORDS = {"gris": N_("grey"), "bleu": N_("blue"), "vert": N_("green"), "rouge": N_("red"), "jaune": N_("yellow")}
CARD_COLOURS = {"gris": "#8f8f8f", "bleu": "#3d6fd1", "vert": "#3c9a48", "rouge": "#cc3434", "jaune": "#f0c419"}
PHASE_WORDS = {"actions": N_("taking actions"), "extra": N_("an extra action"), "bonus": N_("taking bonus cards"),
               "over": N_("the game is over")}


def _card(colour: str) -> str:
    return _(CARD_WORDS.get(colour, colour))


def panels(view: ElastiumView, ctx: Context) -> list[Panel]:
    """The scenario, round and actions left, one's hand by colour, the market, each seat's points,
    energy, cards and bands."""
    you = ctx.you if ctx.you is not None else view.get("seat")
    hand = view.get("hand")
    out = [_turn_panel(view, ctx)]
    if you is not None and hand is not None:
        out.append(_hand_panel(view, hand, you))
    out += [_market_panel(view), _players_panel(view, ctx)]
    return out


def _turn_panel(view: ElastiumView, ctx: Context) -> Panel:
    rows = [Row(_("Scenario"), words(view["scenario"])),
            Row(_("Round"), _("{n} of {total}").format(n=view["round"], total=view["max_rounds"]))]
    if _running(view, ctx):
        seat = view["turn_seat"]
        rows.append(Row(seat_label(ctx, seat), _("{phase}, {n} actions left").format(
            phase=_(PHASE_WORDS[view["phase"]]), n=view["actions_left"]), seat=seat, current=True))
    if view["end_triggered"] is not None:
        rows.append(Row(_("The end is near"), words(view["end_triggered"])))
    return Panel("turn", _("This turn"), tuple(rows))


def _hand_panel(view: ElastiumView, hand: ViewHand, you: int) -> Panel:
    rows = [Row(_("Cards"), "", counted(hand, _card, CARD_COLOURS, keep_zero=True)),
            Row(_("Energy"), str(view["energy"][you]))]
    if view["pending_bonus_cards"]:
        rows.append(Row(_("Bonus cards to take"), str(view["pending_bonus_cards"])))
    return Panel("hand", _("Your hand"), tuple(rows))


def _market_panel(view: ElastiumView) -> Panel:
    market = dict(Counter(view["market"]))
    return Panel("market", _("Market"), (
        Row(_("Face up"), "" if market else _("empty"), counted(market, _card, CARD_COLOURS)),
        Row(_("Deck"), _("{n} cards").format(n=view["deck_count"])),
        Row(_("Energy supply"), str(view["energy_supply"]))))


def _players_panel(view: ElastiumView, ctx: Context) -> Panel:
    bands, pegs = _bands_by_seat(view), _pegs_by_seat(view)
    rows = [Row(seat_label(ctx, s), "", (
                Item(_("Points"), view["score"][s]), Item(_("Energy"), view["energy"][s]),
                Item(_("Cards"), view["hand_counts"][s]), Item(_("Bands"), bands[s]), Item(_("Pegs"), pegs[s]),
                Item(_("Segments enclosed"), len(view["enclosed"][s]))), seat=s, current=s in ctx.to_act)
            for s in range(view["players"])]
    return Panel("players", _("Players"), tuple(rows))


# The pages' words for each rule a move can break, by the problem's ``reason`` (the API's own
# detail stays in English for integrators; problems.json lists every reason with an example of it).
REFUSALS: dict[str, str] = {
    "band-already-placed": N_("You already have a band on exactly these pegs."),
    "band-not-connected": N_("Each band after the first must share a peg with your bands."),
    "band-not-from-chain-head": N_("In the Labyrinth each band continues the chain from its head."),
    "band-not-on-lines":
        N_("The band's sides must follow printed lines: a line, a triangle or a rhombus of two triangles."),
    "band-size-not-allowed": N_("This scenario does not allow a band over that many pegs."),
    "card-not-in-market": N_("That card is not in the market."),
    "cards-not-in-hand": N_("The payment uses cards you do not hold."),
    "deck-empty": N_("No card is left to draw; take one from the market."),
    "energy-payment-not-allowed":
        N_("Only in the Cursed Triangle, and only for another player's peg, may energy be given instead of the card."),
    "extra-action-unavailable": N_("A third action costs 3 energy, once a turn."),
    "first-band-not-on-start-peg": N_("Your first band must use a start peg allowed to you."),
    "mixed-idol-band": N_("A band may not explore an idol together with normal ground; explore the idol alone."),
    "no-bands-left": N_("You have placed all of your bands."),
    "no-market": N_("The Cursed Triangle has no market: draw from your own deck."),
    "not-allowed-in-actions-phase": N_("Now you may only place a band or take cards."),
    "not-allowed-in-bonus-phase": N_("Now you may only take bonus cards."),
    "not-allowed-in-extra-phase": N_("Now you may only buy an extra action or end your turn."),
    "not-enough-energy": N_("You do not have enough energy to give."),
    "payment-mismatch": N_("Pay exactly once for each peg of the band that does not already hold one of your bands."),
    "too-many-cards": N_("Take 2 cards in all."),
    "unknown-peg": N_("Every peg must be a distinct, playable peg of this board."),
    "unknown-source": N_("A bonus card comes from the market or the deck."),
    "wrong-card-colour": N_("Each peg takes one card of its colour, or two cards of one colour as a joker."),
    "wrong-recipient":
        N_("Cards for an empty peg are discarded; cards for another player's peg go to one of the players on it."),
}
