"""The ``expert`` bots: Monte Carlo search over determinizations, with common random worlds.

Every game's ``expert`` is an :class:`ExpertBot` built from three parts the game supplies:

* ``policy``: the game's rule-of-thumb bot.  It plays every seat inside the search (the opponent
  model and the playout), and its own choice is the *favourite*: the move the search keeps unless
  the evidence says another is better.
* ``evaluate(state) -> [float per seat]``: a value in "points" for each seat where a playout stops
  before the end; ``sharpness`` turns the differences into a win chance (a softmax).
* ``extra_moves``: moves ``legal_moves`` leaves out (Catan's trade offers and counter-offers).
* ``endgame(state) -> bool``: optional; near the end (say a seat close to winning) playouts go
  on to the end of the game, or ``endgame_horizon`` plies, so the reward is who really wins.
* ``same_kind``: only moves of the favourite's type compete with it (which wall, which row, which
  building, not whether to build at all): for a game whose value function does not see what an
  investment will bring (Elasund's permits and walls), so that it cannot talk the bot out of one.
* ``rank``: optional, orders the other moves best first when there are more than
  ``max_candidates`` (without it, a random sample of them joins the favourite).

How one decision goes (information-set Monte Carlo, the search at the root of an ISMCTS):

1. The bot is handed ``game.conceal(state, seat, ...)`` (see :func:`shared.game.engine.play_fair`).  Each
   round conceals that again with the bot's own rng, which deals every hidden card, counter and
   deck order anew, consistently with what the seat sees: a *determinization*, with a fresh seed
   for the dice and draws to come.
2. In that world every candidate move still in the race is played, then the policy plays all seats
   for ``horizon`` plies (or to the end); the outcome (1 shared among the winners, else the softmax
   of ``evaluate``) is the candidate's reward.  Every candidate meets the *same* worlds and the
   same dice, so the differences between candidates are not drowned by the luck of the deal
   (common random numbers: a pairwise comparison needs far fewer playouts than independent ones).
3. A candidate clearly worse than the favourite (its mean difference two standard errors below
   zero after a few rounds) leaves the race, so the budget goes to the close calls.
4. When the budget runs out (wall clock: 200 ms unless ``bot_budget_ms`` says otherwise; or a
   fixed number of playouts, which makes the move depend only on the state and the rng), the bot
   plays the candidate with the best mean difference over the favourite if that difference is
   more than two standard errors above zero, and the favourite otherwise.

Why flat and paired rather than a deeper tree: a tree over the seat's own decisions (UCB1, progressive
widening, availability counts, a fresh world per iteration) was tried first and, at 100 ms, lost to the
rule-of-thumb bot it was built on: each node saw too few worlds for a move's effect to show through the
luck of the dice.  Comparing all candidates in the same worlds is what made the differences visible.

The search never reads anything its seat could not see: everything it knows comes from the state
it is handed, which the platform has already concealed.
"""
from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared.game.engine import Game, IllegalMove, Move, Seat, State, Strategy
from shared.game.strict import strict

DEFAULT_BUDGET_MS = 200     # a search bot's time per move unless the game says otherwise
MIN_BUDGET_MS = 20
MAX_BUDGET_MS = 2000
MIN_ROUNDS_TO_PRUNE = 4     # rounds before a candidate may be dropped as clearly worse
PRUNE_Z = 2.0               # "clearly worse": this many standard errors below the favourite
CHOOSE_Z = 2.0              # a challenger replaces the favourite this many standard errors above it
MIN_ROUNDS_TO_CHOOSE = 3    # a challenger needs at least this many worlds to replace the favourite
# A prior on the spread of reward differences (a tenth of a win chance, two pseudo-observations):
# a few worlds in which two moves happened to score alike must not read as certainty.
PRIOR_SPREAD, PRIOR_WEIGHT = 0.1, 2.0

Evaluate = Callable[[State], Sequence[float]]
ExtraMoves = Callable[[Game, State, Seat], list[Move]]
Rank = Callable[[Game, State, Seat, list[Move]], list[Move]]


def move_key(move: Move) -> str:
    """A move's identity (moves are JSON objects; key order must not matter)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


class _Race:
    """Each candidate's rewards, as differences to the favourite's in the same worlds."""

    def __init__(self, count: int) -> None:
        self.alive = list(range(count))
        self.rounds = 0
        self.diff_sum = [0.0] * count
        self.diff_sq = [0.0] * count
        self.seen = [0] * count

    def record(self, rewards: dict[int, float]) -> None:
        self.rounds += 1
        favourite = rewards[0]
        for index, reward in rewards.items():
            diff = reward - favourite
            self.diff_sum[index] += diff
            self.diff_sq[index] += diff * diff
            self.seen[index] += 1

    def mean_and_error(self, index: int) -> tuple[float, float]:
        n = self.seen[index]
        if n == 0:
            return 0.0, math.inf
        mean = self.diff_sum[index] / n
        spread = max(self.diff_sq[index] - n * mean * mean, 0.0)
        variance = (spread + PRIOR_WEIGHT * PRIOR_SPREAD ** 2) / (n - 1 + PRIOR_WEIGHT)
        return mean, math.sqrt(variance / n)

    def prune(self) -> None:
        if self.rounds < MIN_ROUNDS_TO_PRUNE:
            return
        kept = [0]
        for index in self.alive[1:]:
            mean, error = self.mean_and_error(index)
            if mean + PRUNE_Z * error >= 0:
                kept.append(index)
        self.alive = kept

    def winner(self) -> int:
        best, best_margin = 0, 0.0
        for index in range(1, len(self.seen)):
            if self.seen[index] < MIN_ROUNDS_TO_CHOOSE:
                continue
            mean, error = self.mean_and_error(index)
            if mean > CHOOSE_Z * error and mean > best_margin:
                best, best_margin = index, mean
        return best


@dataclass(frozen=True)
class SearchReport:
    """What one decision cost and found (benchmarks and tests read it)."""

    move: Move
    playouts: int
    rounds: int
    seconds: float
    candidates: int


class ExpertBot:
    """A Strategy (``bot(game, state, seat, rng)``) that searches; see the module's docstring.

    Extra keyword arguments: ``budget_ms`` (wall-clock budget; default 200, at most 2,000),
    ``iterations`` (a fixed number of playouts instead: the move then depends only on the state
    and the rng), ``allowed`` (a predicate on moves: only those may be chosen, e.g. in an engine
    with fewer moves, as the catanatron bench does).
    """

    takes_budget = True

    def __init__(self, policy: Strategy, evaluate: Evaluate, *, horizon: int, sharpness: float,
                 extra_moves: ExtraMoves | None = None, rank: Rank | None = None,
                 max_candidates: int = 12, same_kind: bool = False,
                 endgame: Callable[[State], bool] | None = None,
                 endgame_horizon: int = 400) -> None:
        self.policy = policy
        self.evaluate = evaluate
        self.horizon = horizon
        self.sharpness = sharpness
        self.extra_moves = extra_moves
        self.rank = rank
        self.same_kind = same_kind
        self.endgame = endgame
        self.endgame_horizon = endgame_horizon
        self.max_candidates = max_candidates
        self.last_report: SearchReport | None = None

    # -- the Strategy ------------------------------------------------------------------------
    def __call__(self, game: Game, state: State, seat: Seat, rng: random.Random, *,
                 budget_ms: int | None = None, iterations: int | None = None,
                 allowed: Callable[[Move], bool] | None = None) -> Move:
        started = time.perf_counter()
        candidates = self.candidates(game, state, seat, rng, allowed)
        if len(candidates) == 1:
            self.last_report = SearchReport(candidates[0], 0, 0, time.perf_counter() - started, 1)
            return candidates[0]
        budget = min(budget_ms if budget_ms is not None else DEFAULT_BUDGET_MS, MAX_BUDGET_MS) / 1000.0
        deadline = started + budget
        race = _Race(len(candidates))
        playouts = 0
        horizon = self.endgame_horizon if self.endgame is not None and self.endgame(state) else self.horizon

        def more() -> bool:
            if iterations is not None:
                return playouts < iterations
            return race.rounds == 0 or time.perf_counter() < deadline

        while more():
            world = game.conceal(state, seat, rng)             # a determinization
            seed = rng.getrandbits(64)                         # the dice and draws to come
            rewards = {}
            for index in race.alive:
                rewards[index] = self.playout(game, game.copy(world), seat, candidates[index],
                                              random.Random(seed), horizon)
                playouts += 1
            race.record(rewards)
            race.prune()
        best = candidates[race.winner()]
        self.last_report = SearchReport(best, playouts, race.rounds, time.perf_counter() - started,
                                        len(candidates))
        return best

    # -- the parts -------------------------------------------------------------------------------
    def candidates(self, game: Game, state: State, seat: Seat, rng: random.Random,
                   allowed: Callable[[Move], bool] | None = None) -> list[Move]:
        """The favourite first (a move of the policy's that ``legal_moves`` leaves out, such as a
        trade offer, included), then the other legal moves and the game's extra moves: when there
        are more than ``max_candidates``, the best of them by ``rank``, or a random sample."""
        favourite = self._policy_move(game, state, seat, rng)
        others = list(game.legal_moves(state, seat))
        if self.extra_moves is not None:
            others += self.extra_moves(game, state, seat)
        if self.same_kind and favourite is not None:
            others = [move for move in others if move.get("type") == favourite.get("type")]
        ordered: dict[str, Move] = {}
        for move in ([favourite] if favourite is not None else []) + others:
            if allowed is None or allowed(move):
                ordered.setdefault(move_key(move), move)
        if not ordered:
            raise IllegalMove("no-move", "The search found no move it may make here.")
        moves = list(ordered.values())
        if len(moves) > self.max_candidates:
            head, rest = moves[:1], moves[1:]
            keep = self.max_candidates - 1
            moves = head + (self.rank(game, state, seat, rest)[:keep] if self.rank is not None
                            else rng.sample(rest, keep))
        return moves

    def _policy_move(self, game: Game, state: State, seat: Seat, rng: random.Random) -> Move | None:
        try:
            return self.policy(game, state, seat, rng)
        except IllegalMove:
            return None
        except Exception:  # a policy that fails on a strange position: no favourite
            if strict():
                raise
            return None

    def playout(self, game: Game, world: State, seat: Seat, move: Move, rng: random.Random,
                horizon: int) -> float:
        """``seat`` plays ``move`` in ``world``, then the policy plays every seat for ``horizon``
        plies; the seat's reward in [0, 1]."""
        actor, plies = seat, 0
        try:
            while True:
                for event in game.decide(world, actor, move, rng):
                    world = game.evolve(world, event)
                plies += 1
                if plies >= horizon or game.result(world) is not None:
                    break
                acting = game.to_act(world)
                actor = acting[0] if len(acting) == 1 else acting[rng.randrange(len(acting))]
                chosen = self._policy_move(game, world, actor, rng)
                if chosen is None:
                    legal = game.legal_moves(world, actor)
                    if not legal:
                        break
                    chosen = rng.choice(legal)
                move = chosen
        except Exception as exc:  # see below
            # A move the seat's information allowed but this determinization does not, or a world
            # the dealing made inconsistent with what the seat could deduce (another seat accepted
            # an offer of cards it was then dealt away; a seat to act with no move): the world
            # ends here, scored as it stands.  In strict mode only a refused move does: anything
            # else is a bug of the engine's.
            if strict() and not isinstance(exc, IllegalMove):
                raise
        return self._reward(game, world, seat)

    def _reward(self, game: Game, world: State, seat: Seat) -> float:
        shares = game.returns(world)
        if shares is not None:
            return shares[seat]
        values = self.evaluate(world)
        top = max(values)
        weights = [math.exp(self.sharpness * (v - top)) for v in values]
        return weights[seat] / sum(weights)


def bot_budget_ms(meta: dict[str, str]) -> int | None:
    """The game's ``bot_budget_ms`` (POST /games), or None for the default."""
    raw = meta.get("bot_budget_ms")
    return int(raw) if raw else None
