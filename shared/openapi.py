"""OpenAPI documentation helpers: per-game schemas, documented problems, links, operationIds."""
from __future__ import annotations

import copy
import re
from typing import Any

from apispec import BasePlugin
from marshmallow import Schema, fields, validate

from shared.clocks import MAX_TURN_SECONDS, default_fallback
from shared.plugin import GamePlugin
from shared.problems import PROBLEM_MEDIA_TYPE
from shared.schemas import PlayerInSchema, strict_int


def move_component_schemas(plugin: GamePlugin) -> dict[str, type[Schema]]:
    """One documented schema per move type: its fields plus the ``type`` discriminator."""
    title = "".join(part.capitalize() for part in plugin.game.name.split("-"))
    out: dict[str, type[Schema]] = {}
    for move_type, schema_cls in plugin.move_schemas.items():
        name = title + "Move" + "".join(p.capitalize() for p in re.split(r"[_\-]", move_type))
        out[move_type] = type(name + "Schema", (schema_cls,), {
            "type": fields.Str(required=True, validate=validate.OneOf([move_type])),
            "Meta": type("Meta", (), {"title": name}),
        })
    return out


def create_game_schema(plugin: GamePlugin) -> type[Schema]:
    game = plugin.game
    bots = sorted(plugin.strategies)

    class Player(PlayerInSchema):
        bot = fields.Str(load_default=None, allow_none=True, validate=validate.OneOf(bots),
                         metadata={"description": "null for a human seat, or a bot strategy: "
                                   + ", ".join(bots)})

    name = "".join(p.capitalize() for p in game.name.split("-"))
    return type(name + "CreateGameSchema", (Schema,), {
        "turn_seconds": strict_int(1, MAX_TURN_SECONDS, load_default=None, allow_none=True, metadata={
            "description": "A turn clock: each human seat to act has this many seconds (1 to 604800, "
                           "7 days) from when it became to act, or from its own last move; then the "
                           "fallback bot plays for it. None by default."}),
        "fallback_bot": fields.Str(load_default=None, allow_none=True, validate=validate.OneOf(bots), metadata={
            "description": "The bot that plays for a seat whose clock ran out (default: "
                           f"{default_fallback(plugin)}, this game's strongest): " + ", ".join(bots)}),
        "players": fields.List(fields.Nested(type(name + "PlayerSchema", (Player,), {})), required=True,
                               validate=validate.Length(min=game.min_players, max=game.max_players)),
        "options": fields.Nested(plugin.options_schema, load_default=dict),
        "seed": strict_int(0, 2**63 - 1, load_default=None, allow_none=True,
                           metadata={"description": "Makes the game's randomness reproducible; "
                                     "whoever knows it can predict the game."}),
   
        "listed": fields.Bool(load_default=True, metadata={
            "description": "false: the game stays out of GET /games (whoever has its id may still join "
                           "or watch it)."}),
    })


PROBLEM_RESPONSE = {"description": "A problem (RFC 9457)",
                    "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}


def problems(*codes: int) -> dict[Any, Any]:
    """Document these problem statuses, and 503 (the event store is down), on an operation."""
    return {str(code): PROBLEM_RESPONSE for code in (*codes, 503)}


# A read that a client may revalidate: it sends back the ETag it holds and gets 304 while the
# game stands still.  The answer is the caller's own (a seat's hand), hence Vary: Authorization.
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                 "description": 'The ETag of the answer you hold (e.g. "12"): 304 without a body while the '
                                "game is still at that version."}
CACHE_HEADERS = {
    "ETag": {"schema": {"type": "string"}, "description": 'The version, quoted ("12"): send it back in '
             "If-None-Match to revalidate, or in If-Match to pin a move to it."},
    "Vary": {"schema": {"type": "string"}, "description": "Authorization: each seat sees its own answer."},
}
NOT_MODIFIED = {"304": {"description": "If-None-Match named the current version: the answer you hold is "
                        "still the one (no body).", "headers": CACHE_HEADERS}}
REPLAYED_HEADER = {"Idempotent-Replayed": {
    "schema": {"type": "string", "enum": ["true"]}, "required": False,
    "description": "Present (`true`) when this is the stored answer to an earlier request with the same "
                   "Idempotency-Key and move: nothing was played again."}}


# OpenAPI links: a created game's id feeds every operation on it (clients and schemathesis's
# stateful tests follow them from create to view, legal moves, moves, events, replay and audit).
CREATED_LINKS = {
    name: {"operationId": operation, "parameters": {"game_id": "$response.body#/id"}}
    for name, operation in [("GetGame", "get_game"), ("GetLegalMoves", "legal_moves"),
                            ("PostMove", "post_move"), ("GetEvents", "events"),
                            ("GetReplay", "replay"), ("GetAudit", "audit")]
}


class ContractPlugin(BasePlugin):
    """Give every operation a stable operationId (its view's name), link created games, and put
    the examples of :mod:`shared.examples` on every operation and problem answer."""

    def __init__(self, examples: dict[str, dict[str, Any]] | None = None,
                 problem_examples: dict[str, tuple[dict[str, Any], tuple[str, ...] | None]] | None = None) -> None:
        self.examples = examples or {}
        self.problem_examples = problem_examples or {}

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        for name, (example, _) in self.problem_examples.items():
            spec.components.example(name, example)

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None,
                         **kwargs: Any) -> None:
        rule = kwargs.get("rule")
        for method, operation in (operations or {}).items():
            if rule is not None:
                operation.setdefault("operationId", rule.endpoint.rsplit(".", 1)[-1])
            if path == "/games" and method == "post":
                operation["responses"][201]["links"] = CREATED_LINKS
            self._add_examples(operation)

    def _add_examples(self, operation: dict[str, Any]) -> None:
        examples = self.examples.get(operation.get("operationId", ""), {})
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None and "request" in examples:
            body["example"] = examples["request"]
        responses = operation.get("responses", {})
        for status in list(responses):
            if not str(status).isdigit():
                continue
            response = responses[status]
            if isinstance(response, str) and int(status) >= 400:
                response = PROBLEM_RESPONSE      # flask-smorest's named response: said here, with examples
            # Response objects may be shared between operations (PROBLEM_RESPONSE): copy, then add.
            response = responses[status] = copy.deepcopy(response)
            if not isinstance(response, dict):
                continue
            for media_type, content in response.get("content", {}).items():
                if media_type == PROBLEM_MEDIA_TYPE:
                    content["examples"] = self._problems_for(operation.get("operationId"), int(status))
                else:
                    key = next((k for k in (f"{status} {media_type}", str(status)) if k in examples), None)
                    if key is not None:
                        content["example"] = examples[key]

    def _problems_for(self, operation_id: str | None, status: int) -> dict[str, Any]:
        return {name: {"$ref": f"#/components/examples/{name}"}
                for name, (example, operations) in self.problem_examples.items()
                if example["value"]["status"] == status and (operations is None or operation_id in operations)}


BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]
