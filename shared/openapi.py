"""OpenAPI documentation helpers: per-game schemas, documented problems, links, operationIds."""
from __future__ import annotations

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
    })


PROBLEM_RESPONSE = {"description": "A problem (RFC 9457)",
                    "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}


def problems(*codes: int) -> dict[str, Any]:
    """Document these problem statuses, and 503 (the event store is down), on an operation."""
    return {str(code): PROBLEM_RESPONSE for code in (*codes, 503)}


# OpenAPI links: a created game's id feeds every operation on it (clients and schemathesis's
# stateful tests follow them from create to view, legal moves, moves, events, replay and audit).
CREATED_LINKS = {
    name: {"operationId": operation, "parameters": {"game_id": "$response.body#/id"}}
    for name, operation in [("GetGame", "get_game"), ("GetLegalMoves", "legal_moves"),
                            ("PostMove", "post_move"), ("GetEvents", "events"),
                            ("GetReplay", "replay"), ("GetAudit", "audit")]
}


class ContractPlugin(BasePlugin):
    """Give every operation a stable operationId (its view's name) and link created games."""

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None,
                         **kwargs: Any) -> None:
        rule = kwargs.get("rule")
        for method, operation in (operations or {}).items():
            if rule is not None:
                operation.setdefault("operationId", rule.endpoint.rsplit(".", 1)[-1])
            if path == "/games" and method == "post":
                operation["responses"][201]["links"] = CREATED_LINKS


BEARER = [{"bearerAuth": []}]
OPTIONAL_BEARER = [{}, {"bearerAuth": []}]
