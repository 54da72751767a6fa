"""Schemas of the HTTP contract every game service shares (documented in the OpenAPI spec)."""
from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

# A player's name is shown in other players' terminals: no control or format characters (ESC
# and the rest of category C*, bidi overrides), nor the Unicode line and paragraph separators.
NAME_MAX_LENGTH = 40
_FORBIDDEN_IN_TEXT = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def strict_int(minimum: int, maximum: int, *validators: validate.Validator, **kwargs: Any) -> fields.Integer:
    """An integer field that refuses ``"3"``, ``3.0`` and ``true`` rather than coercing them, and
    whose range is part of the schema (and so of the OpenAPI document).  Every integer a client
    sends in a move, an option or a new game goes through this."""
    return fields.Integer(strict=True, validate=[validate.Range(min=minimum, max=maximum), *validators], **kwargs)


def printable_name(value: str) -> None:
    """Validator: ``value`` holds no character a terminal could act on (see _FORBIDDEN_IN_TEXT)."""
    for char in value:
        if unicodedata.category(char) in _FORBIDDEN_IN_TEXT:
            raise ValidationError(f"Names may not hold control or format characters "
                                  f"(found U+{ord(char):04X}).")


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


class PlayerInSchema(Schema):
    name = fields.Str(required=True, validate=[validate.Length(min=1, max=NAME_MAX_LENGTH), printable_name],
                      metadata={"description": "Shown to every seat: 1-40 characters, no control or "
                                "format characters (Unicode categories C*, line separators)."})
    bot = fields.Str(load_default=None, allow_none=True,
                     metadata={"description": "null for a human seat, or a bot strategy name."})


class PlayerOutSchema(Schema):
    seat = fields.Int(required=True)
    name = fields.Str(required=True)
    bot = fields.Str(allow_none=True)


class SeatTokenSchema(PlayerOutSchema):
    token = fields.Str(allow_none=True, metadata={
        "description": "Bearer token of a human seat, shown once; null for bots."})


class GameCreatedSchema(Schema):
    id = fields.Str(required=True)
    version = fields.Int(required=True)
    players = fields.List(fields.Nested(SeatTokenSchema), required=True)


class GameViewSchema(Schema):
    id = fields.Str(required=True)
    game = fields.Str(required=True)
    version = fields.Int(required=True)
    status = fields.Str(required=True, validate=validate.OneOf(["active", "finished"]))
    seeded_by_client = fields.Bool(required=True, metadata={
        "description": "The creator chose the seed (POST /games `seed`), so they can predict every roll "
                       "and hidden card of this game."})
    to_act = fields.List(fields.Int(), required=True)
    result = fields.Dict(allow_none=True, required=True)
    you = fields.Int(allow_none=True, required=True, metadata={"description": "Your seat, or null for a spectator."})
    players = fields.List(fields.Nested(PlayerOutSchema), required=True)
    state = fields.Dict(required=True, metadata={"description": "The game's own view for this viewer."})


class LegalMovesSchema(Schema):
    version = fields.Int(required=True)
    seat = fields.Int(required=True)
    moves = fields.List(fields.Dict(), required=True, metadata={
        "description": "Every move this seat may make now, each postable as-is to /moves."})


class EventCauseSchema(Schema):
    """Why an event happened: on a game's first event, its setup; on a move's first, the move."""

    kind = fields.Str(required=True, validate=validate.OneOf(["setup", "move"]))
    players = fields.Int(metadata={"description": "Setup: how many seats."})
    options = fields.Dict(metadata={"description": "Setup: the options in force."})
    seeded_by_client = fields.Bool(metadata={"description": "Setup: the creator chose the seed."})
    seat = fields.Int(metadata={"description": "Move: who moved."})
    move = fields.Dict(metadata={"description": "Move: the move, to its own seat, to all if public "
                                 "and once the game is over."})
    seed = fields.Int(metadata={"description": "The seed of the move or setup, once the game is over."})


class EventSchema(Schema):
    seq = fields.Int(required=True)
    type = fields.Str(required=True)
    data = fields.Dict(required=True)
    at = fields.Int(required=True, metadata={"description": "Milliseconds since the epoch."})
    hash = fields.Str(required=True)
    cause = fields.Dict(metadata={"description": "On the first event of a move: who moved (and, once visible, "
                                  "the move and seed). On the game's first event: kind setup, players, options "
                                  "and seeded_by_client (the creator chose the seed)."})
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
        "description": "Hold the request up to this many seconds (capped by the server) until an event after `after` exists."})


class ReplayQuerySchema(Schema):
    version = fields.Int(required=True, validate=validate.Range(min=1, max=2**53))


class BoardQuerySchema(Schema):
    version = fields.Int(validate=validate.Range(min=1, max=2**53), metadata={
        "description": "The picture right after this event (default: now)."})


class ReplaySchema(Schema):
    version = fields.Int(required=True)
    status = fields.Str(required=True)
    to_act = fields.List(fields.Int(), required=True)
    result = fields.Dict(allow_none=True, required=True)
    state = fields.Dict(required=True)


class AuditSchema(Schema):
    ok = fields.Bool(required=True)
    version = fields.Int(required=True)
    head_hash = fields.Str(required=True)
    first_bad_event = fields.Int()
    problem = fields.Str()


class HealthSchema(Schema):
    status = fields.Str(required=True)
