"""The Elfenland engine: Elfenland, Elfengold and Elfenroads on the Elfenland board."""
from __future__ import annotations

import random
from typing import Any

from shared.game.engine import Event, Game, GameOver, InvalidOptions, Move, NotYourTurn

from services.elfenland.rules import conceal, legal, views
from services.elfenland.rules.board import GOLD_VALUES, HOME_TOWN_CARDS, MARKER_TOWNS, START_TOWN
from services.elfenland.rules.components import EDITION_RULES, EDITIONS, WIZARD, WIZARD_CARDS
from services.elfenland.rules.events import fold
from services.elfenland.rules.flow import Recorder, in_turn_order, settle
from services.elfenland.rules.moves import apply_move
from services.elfenland.rules.scoring import ENDINGS
from services.elfenland.rules.state import State, to_act
from services.elfenland.rules.view_types import ElfenlandView

DEFAULT_OPTIONS: dict[str, Any] = {
    "edition": "elfenland",
    "lake_rules": "author",
    "home_towns": True,
    "caravan_cards": 3,
    "wizards": False,
    "random_gold_values": False,
}


def check_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    opts = {**DEFAULT_OPTIONS, **options}
    unknown = set(opts) - set(DEFAULT_OPTIONS)
    if unknown:
        raise InvalidOptions(f"Unknown options: {sorted(unknown)}.")
    if opts["edition"] not in EDITIONS:
        raise InvalidOptions(f"edition must be one of {list(EDITIONS)}.")
    if opts["lake_rules"] not in ("author", "german"):
        raise InvalidOptions("lake_rules must be 'author' or 'german'.")
    if opts["caravan_cards"] not in (3, 5):
        raise InvalidOptions("caravan_cards must be 3 or 5.")
    if opts["caravan_cards"] != DEFAULT_OPTIONS["caravan_cards"] and not EDITION_RULES[opts["edition"]].caravans:
        # Asking for the stricter caravans in an edition without caravans is a client's mistake
        # worth saying, not an option to ignore silently.
        raise InvalidOptions("Elfenroads has no caravans: caravan_cards does not apply.")
    if opts["wizards"] and opts["edition"] != "elfengold":
        raise InvalidOptions("The wizards are an Elfengold variant.")
    if opts["random_gold_values"] and not EDITION_RULES[opts["edition"]].gold_economy:
        raise InvalidOptions("Town values exist only in Elfengold and Elfenroads.")
    if not 2 <= players <= 6:
        raise InvalidOptions("Elfenland is played by 2 to 6 players.")
    return opts


class ElfenlandGame(Game):
    name = "elfenland"
    title = "Elfenland (with Elfengold and Elfenroads)"
    min_players = 2
    max_players = 6
    # 4: no card cut after the game's last movement (engine 3 cut hands to 4 there, so its logs
    # of such a game hold a keep_cards move engine 4's rules refuse, so they audit only under engine 3).
    # 5: the 20-town victory applies at the end of the last round too (scoring.Ending).  One
    # engine serves 4 and 5: the end of the game is their only difference.
    engine_version = "5"
    max_moves = 5000
    simultaneous_moves = True      # every seat chooses the cards it keeps at once

    def __init__(self, version: str = "5") -> None:
        if version not in ENDINGS:
            raise ValueError(f"Elfenland has no engine version {version!r}")
        self.engine_version = version
        self.ending = ENDINGS[version]

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def setup(self, players: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        opts = check_options(options, players)
        edition = EDITION_RULES[opts["edition"]]
        gold_values = {t: v for t, v in GOLD_VALUES.items() if t != START_TOWN} if edition.gold_economy else {}
        if opts["random_gold_values"]:
            # The 20 value discs shuffled over the 20 towns; Elvenhold still pays nothing.
            values = list(gold_values.values())   # draw-order: GOLD_VALUES's, built just above
            rng.shuffle(values)
            gold_values = dict(zip(MARKER_TOWNS, values))
        deck = dict(edition.cards)
        if opts["wizards"]:
            deck[WIZARD] = WIZARD_CARDS
        rec = Recorder(None, self.ending)
        rec("game_set_up", edition=edition.name, options=opts, players=players,
            gold_values=gold_values, deck=deck, bag=dict(edition.counters))
        if opts["home_towns"]:
            for seat, town in zip(in_turn_order(rec.state), rng.sample(HOME_TOWN_CARDS, players)):
                rec("home_town_dealt", seat=seat, town=town)
        return settle(rec, rng)

    def decide(self, state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
        if state["result"] is not None:
            raise GameOver()
        if seat not in to_act(state):
            raise NotYourTurn()
        rec = Recorder(self.copy(state), self.ending)
        apply_move(rec, seat, move, rng)
        return settle(rec, rng)

    def evolve(self, state: State | None, event: Event) -> State:
        return fold(state, event, self.ending)

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return legal.legal_moves(state, seat)

    def result(self, state: State) -> dict[str, Any] | None:
        return state["result"]

    def view(self, state: State, seat: int | None) -> ElfenlandView:
        return views.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return views.redact(event, seat)

    def copy(self, state: State) -> State:
        # The state is plain JSON (dicts, lists, strings, numbers, None): copying just those
        # takes half the time of a JSON round trip, and the bots' search copies every world.
        return _plain_copy(state)

    def conceal(self, state: State, seat: int, rng: random.Random) -> State:
        return conceal.conceal(self.copy(state), seat, rng)


def _plain_copy(value: Any) -> Any:
    if type(value) is dict:
        return {key: _plain_copy(item) for key, item in value.items()}
    if type(value) is list:
        return [_plain_copy(item) for item in value]
    return value


ENGINES: dict[str, ElfenlandGame] = {version: ElfenlandGame(version) for version in ENDINGS}
