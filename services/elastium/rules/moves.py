"""decide: validates a move and returns its events (setup too).

Every move is worked out on a scratch copy of the state: each event is folded into the copy as
soon as it is emitted, so later steps (refilling the market, ending the turn) see its effect.
The state handed to ``decide`` is never touched.
"""
from __future__ import annotations

import json
import random
from typing import Any

from shared.game.engine import GameOver, IllegalMove, InvalidOptions, NotYourTurn, event
from services.elastium.rules.board import COLOURS, SCENARIOS, Band, board
from services.elastium.rules.events import Event, evolve
from services.elastium.rules.placement import check_band, check_payment
from services.elastium.rules.scoring import band_outcome, final_breakdown, winners
from services.elastium.rules.state import (
    ACTIONS, BONUS, CARDS_PER_COLOUR, CURSED_DRAW, EXTRA, MARKET_SIZE, OPENING_HAND, TAKE_CARDS,
    State, bands_left, board_of, can_buy_action, is_cursed, phase,
)

DEFAULT_MAX_ROUNDS = 30


class Emitter:
    """Collects events and folds each into a private copy of the state."""

    def __init__(self, state: State | None) -> None:
        self.state: Any = json.loads(json.dumps(state)) if state is not None else None
        self.events: list[Event] = []

    def __call__(self, type_: str, **data: Any) -> None:
        e = event(type_, **data)
        self.events.append(e)
        self.state = evolve(self.state, e)


# -- setup ------------------------------------------------------------------------------------

def setup(players: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
    scenario = options.get("scenario", "jungle-temples")
    max_rounds = options.get("max_rounds", DEFAULT_MAX_ROUNDS)
    if scenario not in SCENARIOS:
        raise InvalidOptions(f"Unknown scenario {scenario!r}.", scenarios=list(SCENARIOS))
    if not 2 <= players <= 4:
        raise InvalidOptions("Elastium is played by 2 to 4 players.")
    if not isinstance(max_rounds, int) or max_rounds < 1:
        raise InvalidOptions("max_rounds must be a positive integer.")
    emit = Emitter(None)
    emit("game_started", scenario=scenario, players=players, max_rounds=max_rounds,
         sides=list(board(scenario, players).sides))
    cards = [colour for colour in COLOURS for _ in range(CARDS_PER_COLOUR)]
    rng.shuffle(cards)
    if scenario == "cursed-triangle":
        per_deck = board(scenario, players).rules["private_deck_cards"]
        emit("private_decks_dealt", decks=[cards[i * per_deck:(i + 1) * per_deck] for i in range(players)])
    else:
        emit("deck_shuffled", deck=cards)
    for seat in range(players):
        pile = emit.state["own_decks"][seat] if scenario == "cursed-triangle" else emit.state["deck"]
        count = OPENING_HAND[seat]
        emit("cards_dealt", seat=seat, cards=pile[-count:][::-1])
    if scenario != "cursed-triangle":
        _refill_market(emit, rng)
    return emit.events


# -- cards ------------------------------------------------------------------------------------

def _ensure_pile(emit: Emitter, seat: int, rng: random.Random) -> list[str] | None:
    """The pile ``seat`` draws from, reshuffling the discards into it when it is empty."""
    state = emit.state
    cursed = is_cursed(state)
    pile = state["own_decks"][seat] if cursed else state["deck"]
    if pile:
        return pile
    discard = state["own_discards"][seat] if cursed else state["discard"]
    if not discard:
        return None
    deck = sorted(discard)
    rng.shuffle(deck)
    emit("discards_reshuffled", seat=seat if cursed else None, deck=deck)
    return emit.state["own_decks"][seat] if cursed else emit.state["deck"]


def _draw(emit: Emitter, seat: int, rng: random.Random, bonus: bool = False) -> bool:
    pile = _ensure_pile(emit, seat, rng)
    if pile is None:
        return False
    data: dict[str, Any] = {"seat": seat, "card": pile[-1]}
    if bonus:
        data["bonus"] = True
    emit("card_drawn", **data)
    return True


def _refill_market(emit: Emitter, rng: random.Random) -> None:
    while len(emit.state["market"]) < MARKET_SIZE:
        pile = _ensure_pile(emit, emit.state["turn_seat"], rng)
        if pile is None:
            return
        emit("market_card_revealed", card=pile[-1])


def _take_cards(emit: Emitter, seat: int, move: dict[str, Any], rng: random.Random) -> None:
    state = emit.state
    wanted = list(move.get("market") or [])
    if is_cursed(state):
        if wanted:
            raise IllegalMove("no-market", "The Cursed Triangle has no market: draw from your own deck.")
    elif len(wanted) > TAKE_CARDS:
        raise IllegalMove("too-many-cards", f"Take {TAKE_CARDS} cards in all.")
    market = list(state["market"])
    for card in wanted:
        if card not in market:
            raise IllegalMove("card-not-in-market", f"No {card} card is left in the market.", card=card)
        market.remove(card)
    emit("action_started", seat=seat, action="take_cards")
    for card in wanted:
        emit("market_card_taken", seat=seat, card=card)
    for _ in range((CURSED_DRAW if is_cursed(state) else TAKE_CARDS) - len(wanted)):
        if not _draw(emit, seat, rng):
            break      # no card left anywhere: the action takes what there is
    if not is_cursed(state):
        _refill_market(emit, rng)


def _take_bonus_card(emit: Emitter, seat: int, move: dict[str, Any], rng: random.Random) -> None:
    if move.get("source") == "market":
        card = move.get("card")
        if card not in emit.state["market"]:
            raise IllegalMove("card-not-in-market", f"No {card} card is in the market.", card=card)
        emit("market_card_taken", seat=seat, card=card, bonus=True)
    elif move.get("source") == "deck":
        if not _draw(emit, seat, rng, bonus=True):
            raise IllegalMove("deck-empty", "No card is left to draw; take one from the market.")
    else:
        raise IllegalMove("unknown-source", "A bonus card comes from the 'market' or the 'deck'.")
    _refill_market(emit, rng)


# -- bands ------------------------------------------------------------------------------------

def _place_band(emit: Emitter, seat: int, move: dict[str, Any], rng: random.Random) -> None:
    state = emit.state
    band = check_band(state, seat, list(move.get("pegs") or []))
    payment = check_payment(state, seat, band, list(move.get("payment") or []))
    emit("action_started", seat=seat, action="place_band")
    emit_band(emit, seat, band, payment)


def emit_band(emit: Emitter, seat: int, band: Band, payment: list[dict[str, Any]]) -> None:
    """The events of a band already checked: the band, what it collects, bonuses, the end."""
    out = band_outcome(emit.state, seat, band)
    placed: dict[str, Any] = {"seat": seat, "key": band.key, "kind": band.kind, "pegs": list(band.pegs),
                              "payment": payment, "explored": out.explored, "enclosed": out.enclosed}
    if out.chain is not None:
        placed["chain"], placed["chain_heads"] = out.chain, out.chain_heads
    emit("band_placed", **placed)
    if out.items:
        emit("items_collected", seat=seat, items=out.items, treasure=out.treasure, energy=out.energy,
             artefacts=out.artefacts, bonus_cards=out.bonus_cards)
    for points in out.points:
        emit("points_scored", **points)
    for image in out.images_completed:
        emit("image_completed", image=image, seat=seat)
    reason = _end_reason(emit.state)
    if reason and not emit.state["end_triggered"]:
        emit("end_triggered", reason=reason, seat=seat)


def _end_reason(state: State) -> str | None:
    """The scenario's end condition, checked after every band (the round is then finished)."""
    rules = board_of(state).rules
    threshold = rules.get("end_score")
    if threshold is not None and max(state["score"]) >= threshold:
        return "score-reached"
    images = rules.get("completed_images_to_end")
    if images and len(state["images_completed"]) >= images[str(state["players"])]:
        return "images-completed"
    if rules.get("bands_per_player") and any(bands_left(state, s) == 0 for s in range(state["players"])):
        return "bands-exhausted"
    if rules.get("chain") and all(chain_blocked(state, s) for s in range(state["players"])):
        return "chains-blocked"
    return None


def chain_blocked(state: State, seat: int) -> bool:
    """Labyrinth: no line leaves the chain's head except the player's own, for good.

    The player's own lines only grow, so a blocked chain never moves again.  When every chain is
    blocked nobody can place a band (nor score) any more and the printed end (a player out of
    bands) can never come: our addition ends the game then, after the round.
    """
    heads = state["chain_heads"][seat]
    if not heads:
        return False                  # no band yet: the start pegs are open
    own = set(state["walls"][seat])
    b = board_of(state)
    return not any(band.lines[0] not in own for head in heads for band in b.bands_by_peg.get(head, ()))


# -- turns ------------------------------------------------------------------------------------

def _after_action(emit: Emitter, seat: int) -> None:
    state = emit.state
    if phase(state) == BONUS or state["actions_left"] > 0 or can_buy_action(state, seat):
        return
    _end_turn(emit, seat)


def _end_turn(emit: Emitter, seat: int) -> None:
    players = emit.state["players"]
    next_seat = (seat + 1) % players
    emit("turn_ended", seat=seat, next_seat=next_seat)
    if next_seat != 0:
        return
    finished_round = emit.state["round"]
    emit("round_ended", round=finished_round)
    state = emit.state
    rounds = board_of(state).rules.get("rounds")
    if state["end_triggered"] or (rounds and finished_round >= rounds) or finished_round >= state["max_rounds"]:
        rows = final_breakdown(state)
        emit("game_ended", winners=winners(state, rows), scores=[r["total"] for r in rows],
             breakdown=rows, bands_used=list(state["bands_used"]))


def decide(state: State, seat: int, move: dict[str, Any], rng: random.Random) -> list[Event]:
    if state["result"] is not None:
        raise GameOver()
    if seat != state["turn_seat"]:
        raise NotYourTurn()
    kind = move.get("type")
    current = phase(state)
    allowed = {BONUS: {"take_bonus_card"}, EXTRA: {"buy_action", "end_turn"},
               ACTIONS: {"take_cards", "place_band"}}[current]
    if kind not in allowed:
        raise IllegalMove(f"not-allowed-in-{current}-phase",
                          f"Now this seat may only play: {', '.join(sorted(allowed))}.", allowed=sorted(allowed))
    emit = Emitter(state)
    if kind == "end_turn":
        _end_turn(emit, seat)
        return emit.events
    if kind == "buy_action":
        if not can_buy_action(state, seat):
            raise IllegalMove("extra-action-unavailable", "A third action costs 3 energy, once a turn.")
        emit("action_bought", seat=seat)
        return emit.events
    handler = {"take_cards": _take_cards, "place_band": _place_band, "take_bonus_card": _take_bonus_card}[kind]
    handler(emit, seat, move, rng)
    _after_action(emit, seat)
    return emit.events
