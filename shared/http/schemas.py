"""Schemas of the HTTP contract every game service shares (documented in the OpenAPI spec)."""
from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from shared.text.i18n import LANGUAGES

# A player's name is shown in other players' terminals: no control or format characters (ESC
# and the rest of category C*, bidi overrides), nor the Unicode line and paragraph separators.
NAME_MAX_LENGTH = 40
_FORBIDDEN_IN_TEXT = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
# A name needs one character a reader sees: a letter, digit, punctuation or symbol, not a space, not a
# combining mark with no base, and not one of the letters and symbols drawn as blank (the Hangul
# fillers, the Khmer inherent vowels, the blank Braille pattern).
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")
_DRAWN_BLANK = frozenset("ᅟᅠ឴឵⠀ㅤﾠ")


def strict_int(minimum: int, maximum: int, *validators: validate.Validator, **kwargs: Any) -> fields.Integer:
    """An integer field that refuses ``"3"``, ``3.0`` and ``true`` rather than coercing them, and
    whose range is part of the schema (and so of the OpenAPI document).  Every integer a client
    sends in a move, an option or a new game goes through this."""
    return fields.Integer(strict=True, validate=[validate.Range(min=minimum, max=maximum), *validators], **kwargs)


def printable_name(value: str) -> None:
    """Validator: ``value`` holds no character a terminal could act on (see _FORBIDDEN_IN_TEXT),
    and something to read: a name of only spaces, fillers or marks would show as a blank seat."""
    for char in value:
        if unicodedata.category(char) in _FORBIDDEN_IN_TEXT:
            raise ValidationError(f"Names may not hold control or format characters "
                                  f"(found U+{ord(char):04X}).")
    if value and not any(visible(char) for char in value):   # (the empty name is the length check's)
        raise ValidationError("Names must hold a visible character (not only spaces, fillers or marks).")


def visible(char: str) -> bool:
    return unicodedata.category(char)[0] in _VISIBLE_CATEGORIES and char not in _DRAWN_BLANK


class ProblemSchema(Schema):
    """RFC 9457 problem details, with a machine ``reason`` and optional extensions."""

    class Meta:
        unknown = "include"

    type = fields.Str(required=True, metadata={"description": "Stable URI naming the kind of problem."})
    title = fields.Str(required=True)
    status = fields.Int(required=True)
    detail = fields.Str(required=True, metadata={"description": "What went wrong, for people."})
    reason = fields.Str(required=True, metadata={"description": "Stable machine code, e.g. settlement-too-close."})
    current_version = fields.Int(metadata={"description": "On stale-version: the game's version now."})
    expected_version = fields.Int()
    to_act = fields.List(fields.Int(), metadata={"description": "On not-your-turn: who may act now."})
    errors = fields.List(fields.Dict(), metadata={"description": "Schema errors as {detail, pointer}."})
    game_id = fields.Str()
    instance = fields.Str()


def player_name(description: str) -> fields.Str:
    """A seat's name as a client sends it (see printable_name)."""
    return fields.Str(validate=[validate.Length(min=1, max=NAME_MAX_LENGTH), printable_name],
                      metadata={"description": description + " 1-40 characters, no control or format "
                                "characters (Unicode categories C*, line separators), at least one visible "
                                "(a letter, digit, punctuation or symbol that is not drawn blank)."})


class PlayerInSchema(Schema):
    name = player_name("Shown to every seat (required unless the seat is open).")
    bot = fields.Str(load_default=None, allow_none=True,
                     metadata={"description": "null for a human seat, or a bot strategy name."})
    open = fields.Bool(load_default=False, metadata={
        "description": "Leave the seat for whoever takes it (POST /games/{id}/seats/{seat}); the game "
                       "waits (status waiting) until every open seat is taken."})

    @validates_schema
    def _named_or_open(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("open"):
            if data.get("bot"):
                raise ValidationError("An open seat is for a human: no bot.", "bot")
        elif not data.get("name"):
            raise ValidationError("Missing data for required field.", "name")


class PlayerOutSchema(Schema):
    seat = fields.Int(required=True)
    name = fields.Str(required=True, allow_none=True, metadata={"description": "null for an open seat."})
    bot = fields.Str(allow_none=True, metadata={"description": "The strategy playing this seat (also after a resignation)."})
    open = fields.Bool(metadata={"description": "Nobody holds the seat yet: take it with POST /games/{id}/seats/{seat}."})
    reserved = fields.Bool(metadata={"description": "Open, but kept for its player of the previous game (a rematch)."})
    resigned = fields.Bool(metadata={"description": "Its player resigned; a bot plays it."})


class SeatTokenSchema(PlayerOutSchema):
    token = fields.Str(allow_none=True, metadata={
        "description": "Bearer token of a human seat, shown once; null for bots."})


class GameCreatedSchema(Schema):
    id = fields.Str(required=True)
    version = fields.Int(required=True)
    players = fields.List(fields.Nested(SeatTokenSchema), required=True)
    host_token = fields.Str(metadata={"description": "With open seats: the token that may cancel the game "
                                      "while it waits (POST /games/{id}/cancel), shown once."})


GAME_STATUSES = ["waiting", "active", "finished", "cancelled", "abandoned"]


def deadlines_field() -> fields.Dict:
    return fields.Dict(keys=fields.Str(), values=fields.DateTime(), required=True, metadata={
        "description": "Turn clocks: each human seat to act (its number as a string) -> its deadline, "
                       "ISO 8601 UTC with milliseconds (2026-11-25T14:30:00.250Z). A seat's clock "
                       "starts when it becomes to act and again after each of its moves; seats acting "
                       "at once each have their own. Empty without a clock, or when no human is to act."})


class GameViewSchema(Schema):
    id = fields.Str(required=True)
    game = fields.Str(required=True)
    version = fields.Int(required=True)
    status = fields.Str(required=True, validate=validate.OneOf(GAME_STATUSES), metadata={
        "description": "waiting (open seats), active, finished, cancelled (while waiting), or abandoned "
                       "(nobody moved for ABANDON_AFTER_SECONDS: ended by the platform, with no result)."})
    rematch = fields.Str(allow_none=True, metadata={"description": "The next game's id (POST /rematch)."})
    rematch_of = fields.Str(allow_none=True, metadata={"description": "The previous game's id."})
    seeded_by_client = fields.Bool(required=True, metadata={
        "description": "The creator chose the seed (POST /games `seed`), so they can predict every roll "
                       "and hidden card of this game."})
    to_act = fields.List(fields.Int(), required=True)
    result = fields.Dict(allow_none=True, required=True)
    you = fields.Int(allow_none=True, required=True, metadata={"description": "Your seat, or null for a spectator."})
    players = fields.List(fields.Nested(PlayerOutSchema), required=True)
    state = fields.Dict(required=True, metadata={"description": "The game's own view for this viewer."})
    turn_seconds = fields.Int(allow_none=True, required=True, metadata={
        "description": "The game's turn clock in seconds (POST /games `turn_seconds`), or null for none."})
    deadlines = deadlines_field()
    bot_budget_ms = fields.Int(allow_none=True, required=True, metadata={
        "description": "How long a search bot (`expert`) may think per move (POST /games `bot_budget_ms`), "
                       "or null for the default (200 ms)."})


class LegalMovesSchema(Schema):
    version = fields.Int(required=True)
    seat = fields.Int(required=True)
    moves = fields.List(fields.Dict(), required=True, metadata={
        "description": "Every move this seat may make now, each postable as-is to /moves."})
    total = fields.Int(required=True, metadata={
        "description": "How many moves this seat may make now, over every page."})
    next = fields.Str(required=True, allow_none=True, metadata={
        "description": "The `cursor` of the next page of moves; null on the last page."})
    deadlines = deadlines_field()


LEGAL_MOVES_PAGE = 500      # moves per page by default: every move of almost every position


class LegalMovesQuerySchema(Schema):
    limit = fields.Int(load_default=LEGAL_MOVES_PAGE, validate=validate.Range(min=1, max=5000), metadata={
        "description": "Moves per page. A position rarely has more than the default; one that does "
                       "(a seat hoarding cards) is listed a page at a time, following `next`."})
    cursor = fields.Str(load_default=None, validate=validate.Regexp(r"^[0-9]{1,15}\.[0-9]{1,9}$"), metadata={
        "description": "The `next` of the previous page. A cursor from an older version of the game "
                       "answers 409 `stale-version`: the moves changed."})


class ClockSettingsSchema(Schema):
    """A game's turn clock, as its setup recorded it (shared.play.clocks)."""

    turn_seconds = fields.Int(required=True, metadata={"description": "Seconds a seat has to act."})
    fallback_bot = fields.Str(required=True, metadata={"description": "The bot that plays when time runs out."})


class EventCauseSchema(Schema):
    """Why an event happened: on a game's first event, its setup; on a move's first, the move; on a
    platform event (``platform.*``), the seat it concerns."""

    kind = fields.Str(required=True, validate=validate.OneOf(["setup", "move", "platform"]))
    clock = fields.Nested(ClockSettingsSchema, metadata={"description": "Setup: the turn clock, when the game has one."})
    players = fields.Int(metadata={"description": "Setup: how many seats."})
    options = fields.Dict(metadata={"description": "Setup: the options in force."})
    seeded_by_client = fields.Bool(metadata={"description": "Setup: the creator chose the seed."})
    seed_commitment = fields.Str(metadata={
        "description": "Setup: SHA-256 (hex) of `<seed>:<salt>`, the game's secret seed (decimal) and a random "
                       "salt (hex), shown to every seat from the start; `platform.seed_revealed` {seed, salt} opens "
                       "it when the game ends, and every recorded seed is then derived from it "
                       "(docs/contract.md, \"Provably fair dice\"). Absent on games recorded before commitments."})
    bot_budget_ms = fields.Int(metadata={"description": "Setup: the search bots' time per move, when the "
                                         "creator set it (POST /games `bot_budget_ms`)."})
    seat = fields.Int(allow_none=True, metadata={"description": "Move: who moved; platform: the seat concerned "
                                                 "(null: none, e.g. the host cancelling)."})
    move = fields.Dict(metadata={"description": "Move: the move, to its own seat, to all if public "
                                 "and once the game is over."})
    seed = fields.Int(metadata={"description": "The seed of the move or setup, once the game is over."})


class EventSchema(Schema):
    seq = fields.Int(required=True)
    type = fields.Str(required=True)
    data = fields.Dict(required=True)
    at = fields.Int(required=True, metadata={"description": "Milliseconds since the epoch."})
    hash = fields.Str(required=True)
    # A field of any kind: the typed documents narrow it (a game's cause schema, the platform's).
    cause: fields.Field = fields.Dict(metadata={"description": "On the first event of a move: who moved (and, once visible, "
                                  "the move and seed). On the game's first event: kind setup, players, options, "
                                  "seeded_by_client (the creator chose the seed), seed_commitment and, with a "
                                  "turn clock, clock {turn_seconds, fallback_bot}. On a platform event (type "
                                  "platform.*, e.g. platform.clock_expired {seat, deadline, bot}, followed by the "
                                  "bot's move for that seat, or platform.seed_revealed {seed, salt} with the events "
                                  "that end the game): kind platform."})
    salt = fields.Str(metadata={"description": "Hash salt, public once the game is over."})


class MoveAcceptedSchema(Schema):
    version = fields.Int(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class EventsPageSchema(Schema):
    version = fields.Int(required=True)
    status = fields.Str(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class EventsQuerySchema(Schema):
    after = fields.Int(load_default=0, validate=validate.Range(min=0, max=2**53),
                       metadata={"description": "Only events with seq greater than this."})
    limit = fields.Int(load_default=200, validate=validate.Range(min=1, max=1000))
    wait = fields.Float(load_default=0, validate=validate.Range(min=0, max=3600), metadata={
        "description": "Hold the request up to this many seconds (capped by the server) until an event after `after` exists "
                       "(not at all once the game is finished or cancelled: no event will come)."})


class ReplayQuerySchema(Schema):
    version = fields.Int(required=True, validate=validate.Range(min=1, max=2**53))


class BoardQuerySchema(Schema):
    version = fields.Int(validate=validate.Range(min=1, max=2**53), metadata={
        "description": "The picture right after this event (default: now)."})
    lang = fields.Str(validate=validate.OneOf(LANGUAGES), metadata={
        "description": "The language of the picture's words (default: the `lang` cookie, else "
                       "Accept-Language, else English), as the pages choose theirs."})


class ReplaySchema(Schema):
    version = fields.Int(required=True)
    status = fields.Str(required=True, validate=validate.OneOf(GAME_STATUSES), metadata={
        "description": "The game's status right after that event, as the view would have said it "
                       "(`waiting` for players, then `active`, `finished`; or `cancelled`, `abandoned`)."})
    to_act = fields.List(fields.Int(), required=True)
    result = fields.Dict(allow_none=True, required=True)
    state = fields.Dict(required=True)


class HeadSignatureSchema(Schema):
    """The service's Ed25519 signature over a log's head (shared.log.signing)."""

    alg = fields.Str(required=True, validate=validate.OneOf(["EdDSA"]))
    kid = fields.Str(required=True, metadata={"description": "The signing key's id in "
                                             "`/.well-known/game-log-keys.json`."})
    signed = fields.Dict(required=True, metadata={
        "description": "What was signed: {game, game_id, engine_version, version, head, finished}. The signed bytes are "
                       "`boardgames-log-head/1\\n` then this object's canonical JSON (sorted keys, no spaces)."})
    value = fields.Str(required=True, metadata={"description": "The signature, base64url without padding."})


class PublicKeySchema(Schema):
    kty = fields.Str(required=True, validate=validate.OneOf(["OKP"]))
    crv = fields.Str(required=True, validate=validate.OneOf(["Ed25519"]))
    x = fields.Str(required=True, metadata={"description": "The public key, base64url."})
    kid = fields.Str(required=True, metadata={"description": "The key's RFC 7638 thumbprint."})
    use = fields.Str(required=True, validate=validate.OneOf(["sig"]))
    alg = fields.Str(required=True, validate=validate.OneOf(["EdDSA"]))


class KeySetSchema(Schema):
    keys = fields.List(fields.Nested(PublicKeySchema), required=True, metadata={
        "description": "The current signing key first, then older keys kept for what they signed; "
                       "empty when the service signs nothing."})


class AuditSchema(Schema):
    ok = fields.Bool(required=True)
    version = fields.Int(required=True)
    head_hash = fields.Str(required=True)
    first_bad_event = fields.Int()
    problem = fields.Str()
    played_engine_version = fields.Str(
        required=True, metadata={"description": "The rules engine's version the game was created under."})
    audit_engine_version = fields.Str(
        required=True, metadata={"description": "The rules engine's version this audit replayed the log with; when "
                                                "it differs, a failure may be a rules change rather than a forged log."})
    seeds = fields.Str(required=True, validate=validate.OneOf(["verified", "committed", "uncommitted"]), metadata={
        "description": "verified: the setup committed to the game's secret seed, the end revealed it, and every "
                       "recorded seed is its derivation; committed: the game runs, the seed is revealed when it "
                       "ends (or it was abandoned before abandonment revealed seeds); uncommitted: a game recorded before seed commitments (its seeds are the log's)."})
    seeded_by_client = fields.Bool(required=True, metadata={
        "description": "The creator chose the seed, so they could predict every roll and hidden card."})
    signature = fields.Nested(HeadSignatureSchema, required=True, allow_none=True, metadata={
        "description": "The service's signature over the audited head (null when it has no signing key)."})


class PoolUsageSchema(Schema):
    size = fields.Int(required=True, metadata={"description": "Pooled Redis connections of this process (REDIS_POOL_SIZE)."})
    in_use = fields.Int(required=True, metadata={"description": "Connections in use now."})
    waiting = fields.Int(required=True, metadata={"description": "Requests queued for a connection now."})
    refused = fields.Int(required=True, metadata={
        "description": "Requests answered 503 since the process started because no connection came free in time."})


class HealthSchema(Schema):
    status = fields.Str(required=True)
    pool = fields.Nested(PoolUsageSchema, metadata={
        "description": "/readyz under gevent workers: how busy this process's shared Redis connections are "
                       "(a busy pool is load on this instance, not a Redis outage)."})


class LivenessSchema(HealthSchema):
    engine_versions = fields.List(fields.Str(), required=True, metadata={
        "description": "The rules engine versions this instance serves, oldest first: a game keeps the "
                       "version it was created with, and an instance that does not serve it answers 503 "
                       "engine-unavailable (with Retry-After) instead of playing it by other rules. New "
                       "games get the last one.",
        "example": ["2", "3"]})


# -- seats, the game list (shared.http.routes.seats, shared.http.routes.games) ------------------------------

class TakeSeatSchema(Schema):
    name = player_name("Shown to every seat; may be left out for a seat kept for you (a rematch: send "
                       "your previous game's token as Bearer).")


class SeatTakenSchema(SeatTokenSchema):
    id = fields.Str(required=True)
    version = fields.Int(required=True)
    started = fields.Bool(required=True, metadata={"description": "This was the last open seat: the game started."})


class VersionSchema(Schema):
    version = fields.Int(required=True)
    status = fields.Str(metadata={"description": "The game's status afterwards."})


class ResignedSchema(Schema):
    version = fields.Int(required=True)
    seat = fields.Int(required=True)
    bot = fields.Str(required=True, metadata={"description": "The bot playing the seat from now on."})


class RematchSchema(Schema):
    id = fields.Str(required=True, metadata={"description": "The next game; each human takes their seat "
                                             "in it with their token of this game."})
    rematch_of = fields.Str(required=True)


class GamesQuerySchema(Schema):
    status = fields.Str(validate=validate.OneOf(["waiting", "running", "active", "finished"]), metadata={
        "description": "Only games in this status (running = active); default: all."})
    limit = fields.Int(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.Str(validate=validate.Regexp(r"^[0-9]{1,16}\.[A-Za-z0-9_\-]{1,64}$"), metadata={
        "description": "`next` of the previous page."})


class ListedGameSchema(Schema):
    id = fields.Str(required=True)
    status = fields.Str(required=True, validate=validate.OneOf(GAME_STATUSES))
    version = fields.Int(required=True)
    options = fields.Dict(required=True)
    players = fields.List(fields.Nested(PlayerOutSchema), required=True)
    to_act = fields.List(fields.Int(), required=True, metadata={"description": "Who is to act now."})
    created_at = fields.Int(required=True, metadata={"description": "Milliseconds since the epoch."})
    moved_at = fields.Int(allow_none=True, required=True, metadata={"description": "The last move's time (ms), null before the first."})
    rematch_of = fields.Str(allow_none=True)
    seeded_by_client = fields.Bool(required=True, metadata={
        "description": "The creator chose the seed, so they can predict every roll and hidden card."})
    turn_seconds = fields.Int(allow_none=True, required=True, metadata={
        "description": "The game's turn clock in seconds (POST /games `turn_seconds`), or null for none: "
                       "whoever joins knows how long each turn may take."})


class GamesPageSchema(Schema):
    games = fields.List(fields.Nested(ListedGameSchema), required=True)
    next = fields.Str(allow_none=True, required=True, metadata={"description": "The cursor of the next page; null on the last."})
