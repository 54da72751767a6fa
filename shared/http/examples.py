"""Examples in the OpenAPI document, taken from a real game so that they stay true.

Every operation's request and answer examples come from a game played here, at spec-build time,
by the game's own engine from a fixed seed (no Redis: the records are built as the runtime
builds them, with a fixed clock and salts).  Every problem ``reason`` a client can meet has an
example answer: the platform's are listed below, each game's rule violations are in
``services/<game>/problems.json`` (reason -> detail), which a test keeps complete against the
``IllegalMove`` reasons in the game's rules (tests/shared/test_examples.py).
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from shared.log import jsonout
from shared.play.turn_clock import default_fallback
from shared.log.eventstore import GENESIS_HASH, event_hash
from shared.game.plugin import GamePlugin
from shared.play.problems import Problem
from shared.log.proofs import seed_commitment
from shared.log.replay import served_record
from shared.play.runtime import derive_seed
from shared.log.signing import Signer, head_payload
from shared.log.verify import log_file

SEED = 20261125
SEED_SALT = "5a17" * 8         # the example game's seed commitment salt
GAME_ID = "x7Kq2RmV9pLa"
# The examples' signing key: fixed, so the documents do not change from one build to the next.
EXAMPLE_SIGNER = Signer(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"boardgames example key").digest()))
AT_MS = 1764000000000          # every example record's clock
PROBLEM_EXAMPLE_PREFIX = "problem."
ILLEGAL_EXAMPLE_PREFIX = "illegal-move."
PROBLEMS_FILE = "problems.json"   # beside each game's api.py

# The platform's problems: reason -> (kind, detail, extensions, operations).  ``operations`` None:
# every operation that documents the status; () only in components/examples (a client meets it
# on no documented operation: an unknown path or method, a server fault).
PLATFORM_PROBLEMS: dict[str, tuple[str, str, dict[str, Any], tuple[str, ...] | None]] = {
    "malformed-request": ("malformed-request", "The body is not valid JSON: Expecting value: line 1 column 1 "
                          "(char 0).", {}, None),
    "unauthenticated": ("unauthenticated", "Send a seat's token: Authorization: Bearer <token>.", {}, None),
    "not-your-seat": ("not-your-seat", "This token belongs to a seat of another game.", {}, None),
    "not-found": ("not-found", "The requested URL was not found on the server.", {}, ()),
    "game-not-found": ("game-not-found", f"There is no such game {GAME_ID!r}.", {"game_id": GAME_ID}, None),
    "method-not-allowed": ("method-not-allowed", "The method is not allowed for the requested URL.", {}, ()),
    "not-acceptable": ("not-acceptable", "The resource cannot answer in a format the Accept header names.",
                       {}, ()),
    "stale-version": ("stale-version", "The move was based on version 8 but the game is at 9; fetch the game "
                      "again and decide anew.", {"current_version": 9, "expected_version": 8}, ("post_move",)),
    "not-your-turn": ("not-your-turn", "Seat 0 is not expected to act now.", {"to_act": [1]}, ("post_move",)),
    "game-over": ("game-over", "The game is over; no more moves are accepted.", {}, ("post_move",)),
    "payload-too-large": ("payload-too-large", "The body is larger than 65536 bytes.", {}, None),
    "unsupported-media-type": ("unsupported-media-type", "Send the body as application/json, not text/plain.",
                               {}, None),
    "validation-error": ("validation-error", "The request does not match the schema.",
                         {"errors": [{"detail": "Must be greater than or equal to 1 and less than or equal to "
                                                "1000.", "pointer": "/query/limit"}]}, None),
    "idempotency-key-reused": ("idempotency-key-reused", "This Idempotency-Key was already used for a "
                               "different move.", {}, ("post_move",)),
    "player-count": ("invalid-options", "This game takes another number of players.", {}, ("create_game",)),
    "seed-not-allowed": ("seed-not-allowed", "This service draws every game's seed itself (whoever chooses "
                         "it can predict the game): leave out \"seed\".",
                         {"errors": [{"detail": "Not allowed here.", "pointer": "/seed"}]}, ("create_game",)),
    "unknown-move-type": ("unknown-move-type", "This game has no move 'fly'.", {}, ("post_move",)),
    "precondition-required": ("precondition-required", "This request must be conditional.", {}, ()),
    "rate-limited": ("rate-limited", "At most 10 new games per client address; retry in 42 seconds.", {},
                     ("create_game",)),
    "too-many-games": ("too-many-games", "This address already has 100 unfinished games, its cap; finish or "
                       "leave some first (a game nobody moves in ends as abandoned).", {}, ("create_game", "rematch")),
    "too-many-streams": ("rate-limited", "At most 64 open streams and waiting long-polls per client address; "
                         "close one, or retry after the time in Retry-After.", {}, ("events",)),
    "too-many-reads": ("rate-limited", "At most 6000/minute reads per client address; retry after the time in "
                       "Retry-After.", {}, ("get_game", "legal_moves", "list_games", "events", "replay", "audit",
                                           "board")),
    "too-many-audits": ("rate-limited", "At most 60/minute audits per client address; retry after the time in "
                        "Retry-After.", {}, ("audit",)),
    "capacity": ("capacity", "This service already runs 10000 unfinished games, its limit; retry later.", {},
                 ("create_game", "rematch")),
    "not-ready": ("not-ready", "The event store is unavailable; retry shortly (a move with an Idempotency-Key "
                  "is safe to retry).", {}, None),
    "engine-unavailable": ("engine-unavailable", "This game is played under catan rules engine version 4, which "
                           "this instance does not serve (it serves 2, 3); retry shortly.",
                           {"engine_version": "4", "served_engine_versions": ["2", "3"]}, None),
    # Seats (shared.play.seats)
    "game-waiting": ("game-waiting", "The game waits for players: seats 1 are open.", {}, ("post_move",)),
    "game-cancelled": ("game-cancelled", "The game was cancelled by its host.", {}, None),
    "game-abandoned": ("game-abandoned", "Nobody moved in this game for 14 days: it ended as abandoned.", {},
                       ("post_move",)),
    "game-not-waiting": ("game-not-waiting", "The game has started: seats can no longer be left, nor the game "
                         "cancelled.", {}, ("leave_seat", "cancel_game")),
    "game-not-finished": ("game-not-finished", "A rematch follows a finished game; this one is still being "
                          "played.", {}, ("rematch",)),
    "seat-taken": ("seat-taken", "Seat 1 was taken by someone else.", {}, ("take_seat",)),
    "seat-open": ("seat-open", "Nobody holds seat 1.", {}, ("leave_seat",)),
    "seat-not-found": ("seat-not-found", "This game has seats 0 to 2, not 5.", {}, ("take_seat", "leave_seat")),
    "seat-reserved": ("seat-reserved", "Seat 1 is kept for its player of the previous game: take it with "
                      "that game's token.", {}, ("take_seat",)),
    "seat-resigned": ("seat-resigned", "Seat 0 resigned: its bot plays, and its token only reads.", {},
                      ("post_move", "resign")),
    "not-host": ("not-host", "Only the game's host (the host_token answered at creation) may cancel it.", {},
                 ("cancel_game",)),
    "internal-error": ("internal-error", "Something went wrong on our side; the request id in 'instance' "
                       "helps us find it.", {"instance": "urn:request:5f0c2a9e"}, ()),
}


def engine_problems(plugin: GamePlugin) -> dict[str, str]:
    """The game's rule violations: reason -> an example detail (``services/<game>/problems.json``)."""
    package = Path(__file__).resolve().parents[2] / "services" / plugin.game.name.replace("-", "_")
    path = package / PROBLEMS_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def problem_examples(plugin: GamePlugin, base_uri: str) -> dict[str, tuple[dict[str, Any], tuple[str, ...] | None]]:
    """Example name -> (an OpenAPI example object, the operations it belongs on)."""
    out: dict[str, tuple[dict[str, Any], tuple[str, ...] | None]] = {}
    for reason, (kind, detail, extensions, operations) in PLATFORM_PROBLEMS.items():
        body = Problem(kind, detail, reason=reason, **extensions).body(base_uri)
        out[PROBLEM_EXAMPLE_PREFIX + reason] = ({"summary": f"{body['status']} {reason}", "value": body},
                                                operations)
    for reason, detail in sorted(engine_problems(plugin).items()):
        body = Problem("illegal-move", detail, reason=reason).body(base_uri)
        out[ILLEGAL_EXAMPLE_PREFIX + reason] = ({"summary": f"{body['status']} {reason} (a rule)", "value": body},
                                                ("post_move",))
    return out


def _json(value: Any) -> Any:
    """As the service sends it (tuples become lists, integer keys strings)."""
    return json.loads(jsonout.dumps(value))


def _records(events: list[dict[str, Any]], version: int, head: str, cause: dict[str, Any]) -> list[dict[str, Any]]:
    """Stored records as the runtime writes them, with a fixed clock and salts."""
    out = []
    for i, e in enumerate(events):
        seq = version + i + 1
        record: dict[str, Any] = {"seq": seq, "type": e["type"], "data": e["data"], "at": AT_MS,
                                  "salt": hashlib.sha256(f"salt{seq}".encode()).hexdigest()[:16]}
        if i == 0:
            record["cause"] = cause
        record["hash"] = head = event_hash(head, record)
        out.append(record)
    return _json(out)


def operation_examples(plugin: GamePlugin) -> dict[str, dict[str, Any]]:
    """operationId -> {"request": body, status or "status media/type": answer}: a seeded game,
    created and one move played."""
    game = plugin.game
    names = ["Ada", "Brook", "Cy", "Dee", "Eli", "Fay"][:game.min_players]
    players = [{"seat": s, "name": name, "bot": None if s < 2 else "random"} for s, name in enumerate(names)]
    tokens = [None if p["bot"] else f"{GAME_ID}.tok{p['seat']}-{'x' * 20}" for p in players]
    options = game.default_options()
    setup_seed = derive_seed(SEED, 0)
    setup = game.setup(len(players), options, random.Random(setup_seed))
    records = _records(setup, 0, GENESIS_HASH, {"kind": "setup", "players": len(players), "options": options,
                                                 "seed": setup_seed, "seeded_by_client": False,
                                                 "seed_commitment": seed_commitment(SEED, SEED_SALT)})
    state = game.replay(setup)
    version, head = records[-1]["seq"], records[-1]["hash"]
    seat = game.to_act(state)[0]
    legal = _json(game.legal_moves(state, seat))
    move = legal[0]
    view = {"id": GAME_ID, "game": game.name, "version": version, "status": "active", "seeded_by_client": False,
            "to_act": game.to_act(state), "result": None, "you": seat, "players": players,
            "turn_seconds": None, "deadlines": {}, "bot_budget_ms": None,
            "state": _json(game.view(state, seat))}
    replay = {"version": version, "status": "active", "to_act": game.to_act(state), "result": None,
              "state": _json(game.view(state, None))}
    move_seed = derive_seed(SEED, version, seat)
    events = game.decide(game.copy(state), seat, move, random.Random(move_seed))
    played = _records(events, version, head, {"kind": "move", "seat": seat, "move": move, "seed": move_seed})
    log = records + played
    examples: dict[str, dict[str, Any]] = {
        "healthz": {"200": {"status": "ok", "engine_versions": list(plugin.engine_versions)}},
        "readyz": {"200": {"status": "ready"}},
        "create_game": {"request": {"players": [{"name": p["name"], "bot": p["bot"]} for p in players],
                                    "options": options},
                        "201": {"id": GAME_ID, "version": version,
                                "players": [{**p, "token": t} for p, t in zip(players, tokens)]}},
        "get_game": {"200": view},
        "legal_moves": {"200": {"version": version, "seat": seat, "moves": legal[:6], "total": len(legal[:6]),
                                "next": None, "deadlines": {}}},
        "post_move": {"request": move,
                      "201": {"version": log[-1]["seq"],
                              "events": [served_record(game, r, seat, False) for r in played]}},
        "events": {"200": {"version": log[-1]["seq"], "status": "active",
                           "events": [served_record(game, r, None, False) for r in log]}},
        "replay": {"200": replay},
        "audit": {"200": {"ok": True, "version": log[-1]["seq"], "head_hash": log[-1]["hash"],
                          "played_engine_version": game.engine_version, "audit_engine_version": game.engine_version,
                          "seeds": "committed", "seeded_by_client": False,
                          "signature": EXAMPLE_SIGNER.sign(head_payload(
                              game.name, GAME_ID, game.engine_version, log[-1]["seq"], log[-1]["hash"], False))}},
        "log_keys": {"200": EXAMPLE_SIGNER.keyset()},
    }
    listed = {"id": GAME_ID, "status": "active", "version": log[-1]["seq"], "options": options,
              "players": players, "to_act": game.to_act(state), "created_at": AT_MS, "moved_at": AT_MS,
              "rematch_of": None, "seeded_by_client": False, "turn_seconds": None}
    examples.update({
        "list_games": {"200": {"games": [listed], "next": f"{AT_MS}.{GAME_ID}"}},
        "take_seat": {"request": {"name": "Brook"},
                      "201": {"id": GAME_ID, "version": version + 1, "seat": 1, "name": "Brook", "bot": None,
                              "token": tokens[1], "started": True}},
        "leave_seat": {"200": {"version": version + 2, "status": "waiting"}},
        "cancel_game": {"200": {"version": version + 1, "status": "cancelled"}},
        "resign": {"200": {"version": log[-1]["seq"] + 1, "seat": seat, "bot": default_fallback(plugin)}},
        "rematch": {"201": {"id": "N3xtGameId42", "rematch_of": GAME_ID},
                    "200": {"id": "N3xtGameId42", "rematch_of": GAME_ID}},
    })
    examples["events"]["200 text/event-stream"] = "".join(
        f"id: {e['seq']}\ndata: {json.dumps(e, separators=(',', ':'))}\n\n"
        for e in examples["events"]["200"]["events"][-2:])
    # The spectator's file of the running example game: the header, then the events as /events gives them.
    meta = {"engine_version": game.engine_version, "options": json.dumps(options), "players": json.dumps(players),
            "seeded_by_client": "0", "status": "active"}
    examples["download_log"] = {"200": log_file(game, GAME_ID, meta, log, None, False, EXAMPLE_SIGNER).decode()}
    if plugin.board_svg is not None:
        examples["board"] = {"200": plugin.board_svg(replay["state"], [{"name": p["name"], "bot": p["bot"]}
                                                                        for p in players])}
    return examples
