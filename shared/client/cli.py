"""``boardgames``: play, watch, replay and audit games from a terminal.

    boardgames play catan                       # you in seat 0, two random bots
    boardgames play catan --players 4 --bot greedy --seed 7
    boardgames play catan --bot expert --bot-budget-ms 500   # two hard bots that think 0.5 s a move
    boardgames play elasund --options '{"shortage_payout": "none"}'
    boardgames play catan --game ID --token TOKEN   # resume a seat
    boardgames watch catan ID                   # follow a game live
    boardgames replay catan ID --step           # step through a game (Enter: next, q: quit)
    boardgames audit catan ID                   # replay the log through the rules, check the chain
    boardgames list catan --status waiting      # the server's game list, newest first
    boardgames join catan ID SEAT --name NAME   # take an open seat (then play it with --token)
    boardgames leave catan ID SEAT --token T    # give the seat up before the game starts
    boardgames cancel catan ID --token HOST     # the host cancels a game still waiting
    boardgames resign catan ID --token T        # a bot plays your seat from now on
    boardgames rematch catan ID --token T       # the next game, same seats: join it with --token T
    boardgames verify catan-ID.jsonl --keys URL # check a downloaded log with no server (shared.log.verify)

Services are found at http://127.0.0.1:8001..8004 (catan, elasund, elfenland, elastium, as
under ``make run``); ``--url`` or ``<GAME>_URL`` (e.g. ``CATAN_URL``) point elsewhere.  Also
runnable as ``python -m shared.client.cli``.  :func:`main` takes its input and output streams as
arguments, so tests drive it with scripted input.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Mapping
from typing import IO, Any, NoReturn

import requests

from shared.game import registry
from shared.log import verify
from shared.client.client import GameClient, ProblemError
from shared.text.i18n import from_environment, use_language
from shared.text.render import Context, describe_event, describe_move, render_replay, render_view
from shared.text.render.common import terminal_safe



def default_port(game: str) -> int | None:
    """The port ``make run`` serves a game on: its plugin's (None for a game this install does not know)."""
    return registry.plugin(game).port if game in registry.available() else None
WIDTH = 100
MENU_LIMIT = 60           # beyond this many legal moves, play shows a summary (* lists them all)


class _Parser(argparse.ArgumentParser):
    """argparse writing to the injected stream and raising instead of exiting the process."""

    out: IO[str] = sys.stdout

    # Only argparse's documented methods are overridden (print_usage, print_help, error, exit):
    # every message they print goes to ``out``, whatever stream argparse would have chosen.
    def print_usage(self, file: Any = None) -> None:
        self.out.write(self.format_usage())

    def print_help(self, file: Any = None) -> None:
        self.out.write(self.format_help())

    def error(self, message: str) -> NoReturn:
        self.print_usage()
        self.exit(2, f"{self.prog}: error: {message}\n")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self.out.write(message)
        raise _Exit(status)


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def build_parser(out: IO[str]) -> argparse.ArgumentParser:
    _Parser.out = out
    parser = _Parser(prog="boardgames", description="Play, watch, replay and audit board games served over HTTP.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def game_command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("game", help="catan, elasund, elfenland or elastium")
        p.add_argument("--url", help="the service's base URL (default: $<GAME>_URL or http://127.0.0.1:800N)")
        p.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
        return p

    play = game_command("play", "Create a game with you in seat 0 and bots elsewhere, and play it here.")
    play.add_argument("--players", type=int, default=3, help="number of seats, you included (default 3)")
    play.add_argument("--bot", default="random", help="bot strategy, or a comma-separated list cycled over the "
                      "bot seats (default random). Levels: random (easy); the game's rule-of-thumb bot (medium: "
                      "catan and elastium greedy, elasund heuristic, elfenland planner); expert (hard: searches "
                      "for --bot-budget-ms a move)")
    play.add_argument("--bot-budget-ms", type=int, default=None, help="how long expert bots think a move, in "
                      "milliseconds (20 to 2000; default 200)")
    play.add_argument("--options", default=None, help='game options as JSON, e.g. \'{"board": "variable"}\'')
    play.add_argument("--seed", type=int, default=None, help="make the game reproducible (where the service "
                      "allows a client seed: ALLOW_CLIENT_SEED=1, also for make run)")
    play.add_argument("--turn-seconds", type=int, default=None, help="a turn clock: a seat that lets it run "
                      "out is played by the game's rule-of-thumb bot (1 to 604800; default none)")
    play.add_argument("--name", default=None, help="your name at the table (default $USER)")
    play.add_argument("--game", dest="game_id", default=None, help="resume this game (with --token)")
    play.add_argument("--token", default=None, help="your seat's token, to resume a game")
    play.add_argument("--wait", type=float, default=20.0, help="long-poll seconds while bots play (default 20)")

    watch = game_command("watch", "Follow a game live, event by event, until it ends.")
    watch.add_argument("game_id")
    watch.add_argument("--token", default=None, help="watch as this seat (default: as a spectator)")
    watch.add_argument("--wait", type=float, default=20.0, help="long-poll seconds (default 20)")

    replay = game_command("replay", "Replay a game move by move, with the board after each move.")
    replay.add_argument("game_id")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each move (q quits)")
    replay.add_argument("--quiet", action="store_true", help="only the events, and the board at the end")
    replay.add_argument("--from", dest="start", type=int, default=1, help="start at this version")

    audit = game_command("audit", "Replay the game's log through the rules and check its hash chain.")
    audit.add_argument("game_id")

    listing = game_command("list", "The server's game list, newest first.")
    listing.add_argument("--status", choices=["waiting", "running", "finished"], default=None)
    listing.add_argument("--limit", type=int, default=20, help="games per page (default 20)")
    listing.add_argument("--cursor", default=None, help="the page after this one (printed under the list)")

    join = game_command("join", "Take an open seat; prints its token (shown once) and how to play it.")
    join.add_argument("game_id")
    join.add_argument("seat", type=int)
    join.add_argument("--name", default=None, help="your name at the table (default $USER)")
    join.add_argument("--token", default=None, help="a rematch: your token of the previous game")
    for name, help_text in [("leave", "Give your seat up before the game starts."),
                            ("cancel", "Cancel a game waiting for players (with the host token)."),
                            ("resign", "Resign: a bot plays your seat to the end; your token then only reads."),
                            ("rematch", "Ask for the next game of a finished one (the same game however often "
                                         "asked).")]:
        p = game_command(name, help_text)
        p.add_argument("game_id")
        if name == "leave":
            p.add_argument("seat", type=int)
        p.add_argument("--token", required=True, help="your seat's token (cancel: the host token)")
    verify = sub.add_parser("verify", help="Check a downloaded log (GET /games/ID/log) with no server: hash chain, "
                            "signature, seeds and rules.", description="Check a downloaded log (GET /games/ID/log) "
                            "with no server: its hash chain, the signature over its head, its seeds and every event "
                            "through the rules engine of the version it names. Exit 0 verified, 1 a bad record, "
                            "2 cannot verify, 3 a running game's view (not verifiable in full).")
    verify.add_argument("file", help="the JSON Lines file")
    verify.add_argument("--keys", default=None, help="the service's key set: its URL "
                        "(https://HOST/.well-known/game-log-keys.json), a saved copy, or PEM public keys")
    return parser


def service_url(game: str, url: str | None, env: Mapping[str, str]) -> str:
    """``--url``, else ``$<GAME>_URL``, else ``http://127.0.0.1:<$<GAME>_PORT or the default port>``."""
    if url:
        return url
    key = game.upper().replace("-", "_")
    if env.get(f"{key}_URL"):
        return env[f"{key}_URL"]
    port = env.get(f"{key}_PORT") or default_port(game)
    if port is None:
        raise _Usage(f"unknown game {game!r}: give --url or ${key}_URL "
                     f"(known: {', '.join(registry.available())})")
    return f"http://127.0.0.1:{port}"


class _Usage(Exception):
    """A mistake in the command line, reported without a traceback."""


class Terminal:
    """The injected streams, with the few operations the commands need."""

    def __init__(self, stdin: IO[str], stdout: IO[str]) -> None:
        self.stdin = stdin
        self.stdout = stdout

    def say(self, text: str = "") -> None:
        # Server text (names, problem details) must not drive the terminal: escape control characters.
        self.stdout.write(terminal_safe(text) + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str | None:
        """One line of input without its newline; None at end of input."""
        self.stdout.write(terminal_safe(prompt))
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            return None
        return line.rstrip("\r\n")


def client_for(url: str, args: argparse.Namespace) -> GameClient:
    """A person is waiting: retry a little (moves stay safe: they carry an idempotency key)."""
    return GameClient(url, timeout=args.timeout, retries=2, backoff=0.25)


# -- play -------------------------------------------------------------------------------------

def numbered_moves(moves: list[dict[str, Any]], game: str, state: Any, width: int = WIDTH) -> str:
    """``  1) roll the dice`` lines; many moves are laid out in columns."""
    items = [f"{i:>3}) {describe_move(m, game, state)}" for i, m in enumerate(moves, 1)]
    if len(items) <= 12:
        return "\n".join(items)
    cell = min(max(len(s) for s in items) + 2, width)
    columns = max(1, width // cell)
    rows = (len(items) + columns - 1) // columns
    return "\n".join("".join(items[r + c * rows].ljust(cell)
                             for c in range(columns) if r + c * rows < len(items)).rstrip()
                     for r in range(rows))


def moves_menu(moves: list[dict[str, Any]], game: str, state: Any, limit: int = MENU_LIMIT) -> str:
    """All the numbered moves, or (beyond ``limit``) a summary by move type and how to list them."""
    if not moves:
        return "  (none listed: type a JSON move)"
    if len(moves) <= limit:
        return numbered_moves(moves, game, state)
    first: dict[str, list[int]] = {}
    for i, move in enumerate(moves, 1):
        first.setdefault(str(move.get("type")), []).append(i)
    lines = [f"{len(moves)} moves:"]
    for kind, numbers in first.items():
        example = f"{numbers[0]}) {describe_move(moves[numbers[0] - 1], game, state)}"
        if len(numbers) == 1:
            lines.append(f"  {kind}: {example}")
            continue
        span = f"{numbers[0]}-{numbers[-1]}" if numbers[-1] - numbers[0] + 1 == len(numbers) \
            else f"between {numbers[0]} and {numbers[-1]}"
        lines.append(f"  {kind}: {len(numbers)} moves, {span}, e.g. {example}")
    lines.append("Type * to list them all, or /text to list the moves whose description contains text.")
    return "\n".join(lines)


def filter_moves(moves: list[dict[str, Any]], text: str, game: str, state: Any) -> str:
    """The numbered moves whose description contains ``text`` (numbers as in the full list)."""
    needle = text.strip().lower()
    lines = [f"{i:>3}) {line}" for i, line in enumerate((describe_move(m, game, state) for m in moves), 1)
             if needle in line.lower()]
    return "\n".join(lines) if lines else f"No move matches {text.strip()!r}."


def parse_choice(text: str, moves: list[dict[str, Any]]) -> dict[str, Any] | str:
    """A move from what the player typed, or a message saying what is wrong with it."""
    text = text.strip()
    if text.isdigit():
        index = int(text)
        if 1 <= index <= len(moves):
            return moves[index - 1]
        return f"Pick a number from 1 to {len(moves)}." if moves else "There is no listed move; type a JSON move."
    if text.startswith(("{", "[")):
        try:
            move = json.loads(text)
        except ValueError as exc:
            return f"That is not valid JSON: {exc}."
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            return 'A move is a JSON object with a "type", e.g. {"type": "end_turn"}.'
        return move
    same_type = [m for m in moves if m.get("type") == text.replace(" ", "_")]
    if len(same_type) == 1:
        return same_type[0]
    if same_type:
        return f"{len(same_type)} moves are {text!r}: pick one by its number."
    if len(text) >= 3 and text.replace("_", "").isalpha():
        return f"No {text!r} move is legal now: pick a listed move by its number (h for help)."
    return "Type a move's number, a JSON move, r to redraw or q to quit (h for help)."


HELP = """\
Type the number of a move and Enter.  Also:
  {"type": ..., ...}  a raw JSON move (for free-form moves such as trade offers)
  <move type>         the move of that type, when there is only one (e.g. roll, end_turn)
  *                   list every legal move
  /text               list only the moves whose description contains text
  r or Enter          draw the game again
  q                   leave: the game waits for your seat; resume with the command shown"""


def cmd_play(args: argparse.Namespace, term: Terminal, url: str, env: Mapping[str, str]) -> int:
    lobby = client_for(url, args)
    gid, token = _game_to_play(args, term, lobby, env)
    resume = f"boardgames play {args.game} --game {gid} --token {token}" + (f" --url {args.url}" if args.url else "")
    term.say(f"To come back later: {resume}")
    me = lobby.with_token(token)
    view = me.game(gid)
    seen = view["version"]
    ctx = Context(players=view["players"], you=view["you"])
    while True:
        view = me.game(gid)
        ctx.to_act = view["to_act"]
        if view["version"] > seen:
            seen = show_events(me, args.game, gid, seen, view["version"], ctx, term, skip_seat=view["you"])
        ended = _ended_words(view)
        if ended is not None:
            if view["status"] == "finished":
                term.say(render_view(view))
            term.say(ended)
            return 0
        waiting_for = _waiting_words(view, ctx)
        if waiting_for is not None:
            term.say(waiting_for)
            me.events(gid, after=view["version"], limit=1, wait=args.wait)
            continue
        version = _play_a_move(args, term, me, gid, view, ctx, resume)
        if version is None:
            return 0
        seen = max(seen, version)


def _game_to_play(args: argparse.Namespace, term: Terminal, lobby: GameClient,
                  env: Mapping[str, str]) -> tuple[str, str]:
    """The game and token of ``--game``/``--token``, or of a game created from the flags."""
    if args.game_id or args.token:
        if not (args.game_id and args.token):
            raise _Usage("resuming needs both --game and --token")
        return args.game_id, args.token
    if not 1 <= args.players <= 8:
        raise _Usage("--players takes 1 to 8 seats")
    try:
        options = json.loads(args.options) if args.options else {}
    except ValueError as exc:
        raise _Usage(f"--options is not valid JSON: {exc}") from None
    if not isinstance(options, dict):
        raise _Usage('--options takes a JSON object, e.g. \'{"board": "variable"}\'')
    bots = [b.strip() for b in args.bot.split(",") if b.strip()] or ["random"]
    players = [{"name": args.name or env.get("USER") or "player", "bot": None}]
    players += [{"name": f"{bots[i % len(bots)]}-{i + 1}", "bot": bots[i % len(bots)]} for i in range(args.players - 1)]
    created = lobby.create_game(players, options, args.seed, turn_seconds=args.turn_seconds,
                                bot_budget_ms=args.bot_budget_ms)
    term.say(f"Created {args.game} game {created['id']}; you are seat 0.")
    return created["id"], created["players"][0]["token"]


def _ended_words(view: dict[str, Any]) -> str | None:
    """What the player is told of a game that ended (None: it goes on)."""
    if view["status"] == "cancelled":
        return "The game was cancelled."
    if view["status"] == "abandoned":
        return "Nobody moved for too long: the game ended as abandoned."
    if view["status"] == "finished":
        winners = (view.get("result") or {}).get("winners") or []
        return "You won!" if view["you"] in winners else "The game is over."
    return None


def _waiting_words(view: dict[str, Any], ctx: Context) -> str | None:
    """Whom the player waits for (None: it is the player's turn)."""
    if view["status"] == "waiting":
        open_seats = [str(p["seat"]) for p in view["players"] if p.get("open")]
        return f"Waiting for players to take seat(s) {', '.join(open_seats)}..."
    if view["you"] not in view["to_act"]:
        return f"Waiting for {', '.join(ctx.name(s) for s in view['to_act'])}..."
    return None


def _play_a_move(args: argparse.Namespace, term: Terminal, me: GameClient, gid: str, view: dict[str, Any],
                 ctx: Context, resume: str) -> int | None:
    """Show the game and the legal moves, and ask until a move is sent or the game is to be drawn
    again: the version seen after it (0: none), or None when the player leaves."""
    legal = me.legal_moves(gid)
    term.say("")
    term.say(render_view(view))
    term.say("Your legal moves:")
    term.say(moves_menu(legal["moves"], args.game, view["state"]))
    while True:
        numbers = f"1-{len(legal['moves'])}, " if legal["moves"] else ""
        answer = term.ask(f"Your move [{numbers}JSON, h=help, q=quit]: ")
        if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
            term.say(f"Leaving; the game waits for your seat. Resume with: {resume}")
            return None
        if answer.strip().lower() in ("", "r"):
            return 0
        shown = _answer_words(answer, legal["moves"], args.game, view["state"])
        if shown is not None:
            term.say(shown)
            continue
        choice = parse_choice(answer, legal["moves"])
        if isinstance(choice, str):
            term.say(choice)
            continue
        try:
            accepted = me.post_move(gid, choice, expected_version=legal["version"])
        except ProblemError as exc:
            if exc.reason == "stale-version":
                term.say("The game moved on while you chose (another seat acted); "
                         "here it is again: choose anew.")
                return 0
            term.say(f"Rejected ({exc.reason}): {explain(exc)}")
            if exc.status == 409:      # not your turn, over: look at the game again
                return 0
            continue
        term.say(f"You: {describe_move(choice, args.game, view['state'])}")
        for event in accepted["events"]:
            term.say("   " + describe_event({**event, "cause": None}, args.game, ctx))
        return int(accepted["version"])


def _answer_words(answer: str, moves: list[dict[str, Any]], game: str, state: dict[str, Any]) -> str | None:
    """The text an answer asks to see (help, every move, the moves that match), or None for a move."""
    if answer.strip().lower() in ("h", "help", "?"):
        return HELP
    if answer.strip() == "*":
        return numbered_moves(moves, game, state)
    if answer.startswith("/"):
        return filter_moves(moves, answer[1:], game, state)
    return None


def show_events(client: GameClient, game: str, gid: str, after: int, until: int, ctx: Context,
                term: Terminal, skip_seat: int | None = None) -> int:
    """Print the events ``after < seq <= until`` (but ``skip_seat``'s own moves); returns the last seq shown."""
    mover = None
    while after < until:
        page = client.events(gid, after=after, limit=min(1000, until - after))
        for event in page["events"]:
            cause = event.get("cause") or {}
            mover = cause.get("seat") if cause else mover
            if skip_seat is None or mover != skip_seat:
                term.say(describe_event(event, game, ctx))
            after = event["seq"]
        if not page["events"]:
            break
    return after


# -- watch, replay, audit ---------------------------------------------------------------------

def cmd_watch(args: argparse.Namespace, term: Terminal, url: str) -> int:
    client = client_for(url, args).with_token(args.token)
    view = client.game(args.game_id)
    term.say(render_view(view))
    if view["status"] == "finished":
        return 0
    ctx = Context(players=view["players"], you=view["you"])
    term.say(f"Following {args.game} game {args.game_id} from version {view['version']} (Ctrl-C to stop)...")
    for event in client.follow(args.game_id, after=view["version"], wait=args.wait):
        term.say(describe_event(event, args.game, ctx))
    term.say(render_view(client.game(args.game_id)))
    return 0


def all_events(client: GameClient, gid: str) -> tuple[list[dict[str, Any]], str]:
    events: list[dict[str, Any]] = []
    while True:
        page = client.events(gid, after=events[-1]["seq"] if events else 0, limit=1000)
        events += page["events"]
        if not page["events"] or events[-1]["seq"] >= page["version"]:
            return events, page["status"]


def steps_of(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Events grouped by what caused them: set-up, then one group per move."""
    steps: list[list[dict[str, Any]]] = []
    for event in events:
        if event.get("cause") or not steps:
            steps.append([])
        steps[-1].append(event)
    return steps


def cmd_replay(args: argparse.Namespace, term: Terminal, url: str) -> int:
    client = client_for(url, args)
    view = client.game(args.game_id)
    events, status = all_events(client, args.game_id)
    if status != "finished":
        term.say("(The game is still running: you see it as a spectator, hidden information hidden.)")
    ctx = Context(players=view["players"])
    steps = [s for s in steps_of(events) if s[-1]["seq"] >= args.start]
    term.say(f"Replaying {args.game} game {args.game_id}: {len(events)} events, {len(steps)} steps.")
    for number, step in enumerate(steps, 1):
        term.say(f"-- step {number}/{len(steps)} --")
        for event in step:
            term.say(describe_event(event, args.game, ctx))
        last = step[-1]["seq"]
        if args.quiet and number < len(steps):
            continue
        term.say(render_replay(args.game, client.replay(args.game_id, last), view["players"]))
        if args.step and number < len(steps):
            answer = term.ask("[Enter] next move, q to quit: ")
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return 0
    return 0


GENESIS_HASH = "0" * 64


def check_chain(events: list[dict[str, Any]]) -> tuple[str, int | None]:
    """Recompute the hash chain of a public (finished) log: ``(head hash, first bad seq or None)``.

    Each event's ``hash`` is SHA-256 over the previous hash (64 zeros before the first event)
    and the canonical JSON of the event without ``hash`` (sorted keys, no spaces, UTF-8).
    """
    head = GENESIS_HASH
    for event in events:
        body = {k: v for k, v in event.items() if k != "hash"}
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        head = hashlib.sha256((head + text).encode("utf-8")).hexdigest()
        if head != event.get("hash"):
            return head, event.get("seq")
    return head, None


def cmd_audit(args: argparse.Namespace, term: Terminal, url: str) -> int:
    client = client_for(url, args)
    report = client.audit(args.game_id)
    if not report.get("ok"):
        term.say(f"FAILED: {args.game} game {args.game_id}: event {report.get('first_bad_event', '?')} of "
                 f"{report.get('version', '?')}: {report.get('problem', 'unknown problem')}")
        return 1
    term.say(f"OK: {args.game} game {args.game_id} replays to the same {report['version']} events "
             f"and its hash chain holds (head {report['head_hash']}).")
    # Don't take the server's word for the chain: once the game is over the log is public.
    events, status = all_events(client, args.game_id)
    if status != "finished":
        term.say("(The game is still running: its log is redacted, so the chain is checked by the server only.)")
        return 0
    head, bad = check_chain(events)
    if bad is not None:
        term.say(f"FAILED: the public log's hash chain breaks at event {bad}.")
        return 1
    if head != report["head_hash"] or len(events) != report["version"]:
        term.say(f"FAILED: the public log ({len(events)} events, head {head}) is not the one the server audited.")
        return 1
    term.say(f"OK: the {len(events)} events of the public log hash to the same head here.")
    return 0


def explain(problem: ProblemError) -> str:
    """The problem's detail, with the schema errors it lists (``/players/1/bot: Must be one of...``)."""
    errors = problem.body.get("errors")
    if not isinstance(errors, list) or not errors:
        return problem.detail
    listed = "; ".join(f"{e.get('pointer') or '/'}: {e.get('detail')}" for e in errors[:5] if isinstance(e, dict))
    return f"{problem.detail} {listed}".strip()


# -- seats: list, join, leave, cancel, resign, rematch -----------------------------------------

def seat_summary(player: dict[str, Any]) -> str:
    if player.get("open"):
        return f"{player['seat']}: open" + (f" (kept for {player.get('name')})" if player.get("reserved") else "")
    kind = f" [{player['bot']}{', resigned' if player.get('resigned') else ''}]" if player.get("bot") else ""
    return f"{player['seat']}: {player.get('name')}{kind}"


def cmd_list(args: argparse.Namespace, term: Terminal, url: str) -> int:
    page = client_for(url, args).list_games(args.status, args.limit, args.cursor)
    if not page["games"]:
        term.say("No games.")
    for listed in page["games"]:
        moved = f", last move {time.strftime('%H:%M:%S', time.localtime(listed['moved_at'] / 1000))}" \
            if listed.get("moved_at") else ""
        # A seed chosen by the creator lets them foresee every roll and hidden card: said before anyone joins.
        seeded = "  SEEDED by its creator (predictable)" if listed.get("seeded_by_client") else ""
        term.say(terminal_safe(f"{listed['id']}  {listed['status']:<8} v{listed['version']}  to act: "
                               f"{listed['to_act'] or '-'}{moved}{seeded}", keep_newlines=False))
        term.say(terminal_safe("    " + "; ".join(seat_summary(p) for p in listed["players"]), keep_newlines=False))
    if page.get("next"):
        term.say(f"More: boardgames list {args.game} --cursor {page['next']}")
    return 0


def cmd_seat(args: argparse.Namespace, term: Terminal, url: str, env: Mapping[str, str]) -> int:
    """join, leave, cancel, resign and rematch: one request each."""
    client = client_for(url, args).with_token(args.token)
    gid = args.game_id
    where = f" --url {args.url}" if args.url else ""
    if args.command == "join":
        name = args.name or (None if args.token else env.get("USER") or "player")
        taken = client.take_seat(gid, args.seat, name)
        term.say(f"You hold seat {taken['seat']} of {args.game} game {gid}"
                 + (": the game has started." if taken["started"] else "; the game waits for its other seats."))
        term.say(f"Your token (shown once): {taken['token']}")
        term.say(f"Play it: boardgames play {args.game} --game {gid} --token {taken['token']}{where}")
    elif args.command == "leave":
        client.leave_seat(gid, args.seat)
        term.say(f"You left seat {args.seat}; it is open again.")
    elif args.command == "cancel":
        client.cancel(gid)
        term.say(f"Game {gid} is cancelled.")
    elif args.command == "resign":
        resigned = client.resign(gid)
        term.say(f"You resigned: the {resigned['bot']} bot plays seat {resigned['seat']} from now on.")
    else:
        new = client.rematch(gid)["id"]
        term.say(f"The rematch is game {new}. Take your seat in it with your token of this game:")
        term.say(f"  boardgames join {args.game} {new} SEAT --token {args.token}{where}")
    return 0


# -- entry point ----------------------------------------------------------------------------

def main(argv: list[str] | None = None, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
         env: Mapping[str, str] | None = None) -> int:
    """Run one command; returns the exit status (0 ok, 1 refused or failed audit, 2 usage or network).
    The games' words are in the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES or LANG: French
    for ``fr_FR.UTF-8``, else English)."""
    with use_language(from_environment(os.environ if env is None else env)):
        return _main(argv, stdin=stdin, stdout=stdout, env=env)


def _main(argv: list[str] | None, *, stdin: IO[str] | None, stdout: IO[str] | None,
          env: Mapping[str, str] | None) -> int:
    term = Terminal(stdin or sys.stdin, stdout or sys.stdout)
    env = os.environ if env is None else env
    parser = build_parser(term.stdout)
    try:
        args = parser.parse_args(argv)
    except _Exit as exc:
        return exc.status
    if args.command == "verify":
        return verify.main(args.file, args.keys, term.stdout)
    url = ""
    try:
        url = service_url(args.game, args.url, env)
        if args.command == "play":
            return cmd_play(args, term, url, env)
        if args.command == "watch":
            return cmd_watch(args, term, url)
        if args.command == "replay":
            return cmd_replay(args, term, url)
        if args.command == "list":
            return cmd_list(args, term, url)
        if args.command in ("join", "leave", "cancel", "resign", "rematch"):
            return cmd_seat(args, term, url, env)
        return cmd_audit(args, term, url)
    except _Usage as exc:
        term.say(f"boardgames: {exc}")
        return 2
    except ProblemError as exc:
        term.say(f"error: {exc.status} {exc.reason}: {explain(exc)}")
        return 1
    except requests.RequestException as exc:
        term.say(f"error: cannot reach {url or 'the service'} ({type(exc).__name__}); "
                 "is it running (make run)? --url or $<GAME>_URL point elsewhere.")
        return 2
    except KeyboardInterrupt:
        term.say("\ninterrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
