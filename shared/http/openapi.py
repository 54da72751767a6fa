"""OpenAPI documentation helpers: per-game schemas, documented problems, links, operationIds."""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow import resolver as default_resolver
from marshmallow import Schema, fields, validate

from shared.play.turn_clock import MAX_TURN_SECONDS, default_fallback
from shared.play.search import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, MIN_BUDGET_MS
from shared.game.plugin import GamePlugin
from shared.play.problems import PROBLEM_MEDIA_TYPE
from shared.http.schemas import (EventCauseSchema, EventSchema, EventsPageSchema, GamesPageSchema, GameViewSchema,
                                 LegalMovesSchema, ListedGameSchema,
                                 MoveAcceptedSchema, PlayerInSchema, ReplaySchema, strict_int)


# OpenAPI 3.1: null is a type, as JSON Schema writes it, which client generators read with their
# defaults.  Swagger UI 4 (swagger-ui-bundle, what /docs serves) renders 3.0 only: /docs reads
# the document in 3.0's words (:func:`openapi_30`).
OPENAPI_VERSION = "3.1.0"
DOCS_OPENAPI_VERSION = "3.0.3"


def game_prefix(plugin: GamePlugin) -> str:
    """``catan`` -> ``Catan``: the start of every component name the game's contract adds."""
    return "".join(part.capitalize() for part in plugin.game.name.split("-"))


def camel(name: str) -> str:
    """``build_road`` -> ``BuildRoad``: a move or event type as part of a component name."""
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[_\-.]", name) if p)


def name_resolver(plugin: GamePlugin) -> Callable[[type[Schema]], str]:
    """Component names: a schema defined in the game's package gets the game's prefix
    (``services.catan.schemas.ViewSeat`` -> ``CatanViewSeat``), so that clients generated
    from several games' specs never hold two classes of one name, and nobody has to spell the
    prefix out.  The platform's own schemas keep their names (``Problem``, ``CatanMoveRoll``)."""
    prefix = game_prefix(plugin)

    def resolve(schema: type[Schema]) -> str:
        name = default_resolver(schema)
        cls = schema if isinstance(schema, type) else type(schema)
        if cls.__module__.startswith("services.") and not name.startswith(prefix):
            return prefix + name
        return name
    return resolve


def marshmallow_plugin(plugin: GamePlugin) -> MarshmallowPlugin:
    """apispec's marshmallow plugin with the game's names and :class:`Ref` fields."""
    ma_plugin = MarshmallowPlugin(schema_name_resolver=name_resolver(plugin))

    def init_spec(spec: Any) -> None:
        MarshmallowPlugin.init_spec(ma_plugin, spec)
        ma_plugin.converter.add_attribute_function(_contract_property)   # type: ignore[union-attr]
    ma_plugin.init_spec = init_spec   # type: ignore[method-assign]
    return ma_plugin


class Ref(fields.Raw):
    """A value documented as a named component the platform builds as a plain dict (the move
    and event unions, which marshmallow cannot express): answers are built without dumping,
    so this field only documents."""

    def __init__(self, component: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component


NULL = {"type": "null"}
# Keywords that say what a value is, not which values it takes: they stay beside a reference.
_ANNOTATIONS = ("description", "default", "example", "title", "readOnly", "writeOnly", "deprecated")


def _contract_property(self: Any, field: fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A :class:`Ref` is its component; a string enum is a named component; a nullable inline
    object is an ``anyOf`` of the object, titled after its field, and null.

    Null is written as OpenAPI 3.1 writes it (a ``null`` type beside the others), which both
    generators read with their defaults: OpenAPI 3.0's ``nullable`` on a required field is
    ignored by ``datamodel-codegen`` unless ``--strict-nullable``, and its models then refuse
    the null a real answer holds."""
    if isinstance(field, Ref):
        return {"$ref": f"#/components/schemas/{field.component}"}
    types = _types(ret)
    if "enum" in ret and types == ["string"]:
        return _named_enum(self, field, ret)
    if field.allow_none and types == ["object"]:
        return _titled_object_or_null(field, ret)
    return {}


def _types(ret: dict[str, Any]) -> list[str]:
    """The JSON types a property takes, null aside."""
    written = ret.get("type", [])
    return [t for t in ([written] if isinstance(written, str) else written) if t != "null"]


def _owner(field: fields.Field) -> tuple[Schema | None, str | None, str]:
    """The schema a field belongs to, the name it has there, and ``Item`` for each list or dict
    between them (a list's items, a dict's values)."""
    owner: Any = field.parent
    suffix = ""
    while owner is not None and not isinstance(owner, Schema):
        suffix, owner = "Item" + suffix, owner.parent
    name = field.name if isinstance(field.parent, Schema) else getattr(field.parent, "name", None)
    return owner, name, suffix


def _named_enum(converter: Any, field: fields.Field, ret: dict[str, Any]) -> dict[str, Any]:
    """A string enum becomes a component named after its schema and field (``CatanViewPhase``,
    ``CatanEventCardStolenType``): generators name an inline enum after its field alone, and
    number the second ``type`` or ``resource`` they meet (``Type1``...)."""
    owner, name, suffix = _owner(field)
    if owner is None or name is None:
        return {}
    component = converter.schema_name_resolver(type(owner)) + camel(name) + suffix
    enum = {"type": "string", "enum": [value for value in ret.pop("enum") if value is not None]}
    nullable = ret.pop("type") != "string"          # ["string", "null"]
    known = converter.spec.components.schemas.get(component)
    if known is None:
        converter.spec.components.schema(component, enum)
    elif known != enum:
        raise ValueError(f"two enums would be named {component}: {known['enum']} and {enum['enum']}")
    ref = {"$ref": f"#/components/schemas/{component}"}
    return {"anyOf": [ref, NULL]} if nullable else ref


def _titled_object_or_null(field: fields.Field, ret: dict[str, Any]) -> dict[str, Any]:
    """``type: [object, null]`` becomes ``anyOf: [object, null]``, the object titled after its
    field: ``openapi-python-client`` names an untitled member of a union ``...Type0``, a titled
    one ``<Schema><Title>`` as it names a field's object (``CatanSeatViewResources``)."""
    _, name, suffix = _owner(field)
    member = {key: ret.pop(key) for key in list(ret) if key not in _ANNOTATIONS}
    member["type"] = "object"
    if name is not None:
        member["title"] = camel(name) + suffix
    return {"anyOf": [member, NULL]}


def _union(refs: dict[str, str]) -> dict[str, Any]:
    """A ``oneOf`` of named schemas told apart by their ``type`` (generators build a
    discriminated union from it)."""
    return {"oneOf": [{"$ref": ref} for ref in refs.values()],
            "discriminator": {"propertyName": "type", "mapping": dict(refs)}}


class PlatformEventCauseSchema(Schema):
    kind = fields.Str(required=True, validate=validate.OneOf(["platform"]))
    seat = fields.Int(required=True, allow_none=True, metadata={
        "description": "The seat the record concerns; null for none (the host cancelling, the seed revealed)."})


class PlatformEventSchema(EventSchema):
    """A record the platform adds to the game's log (seats joined, clocks, resignations, the seed
    revealed at the end...): public, never redacted, and unknown to the game's rules."""

    type = fields.Str(required=True, validate=validate.Regexp(r"^platform\."),
                      metadata={"description": "Begins with `platform.`."})
    data = fields.Dict(required=True)
    cause = fields.Nested(PlatformEventCauseSchema, metadata={
        "description": "On the first record of a platform append (a record without one follows the one before)."})


@dataclass(frozen=True)
class ReadSchemas:
    """The game's typed answers, one marshmallow schema per route (named ``CatanGameView``...)."""

    game_view: type[Schema]
    legal_moves: type[Schema]
    move_accepted: type[Schema]
    events_page: type[Schema]
    replay: type[Schema]
    games_page: type[Schema]
    move_ref: str                 # $ref of the move union (what a client posts, and legal moves list)
    move_refs: dict[str, str]     # move type -> its schema's $ref


def _schema(name: str, base: type[Schema], attrs: dict[str, Any]) -> type[Schema]:
    return type(name + "Schema", (base,), attrs)


def register_contract(plugin: GamePlugin, spec: Any) -> ReadSchemas:
    """Name every schema a client touches in ``spec``: one per move type and the move union
    ``<Game>Move``; one envelope per event type ``<Game>Event<Type>`` (its ``data``
    ``<Game>Event<Type>Data``), their union ``<Game>GameEvent`` and, with platform records,
    ``<Game>Event``; the view ``<Game>View`` and ``<Game>Result``; and the answers that carry
    them.  Names come from the game and the move or event type alone, so a type added later is
    named without anyone writing its name."""
    prefix = game_prefix(plugin)
    moves = move_component_schemas(plugin)
    # marshmallow types Meta without a title: getattr keeps mypy from asking for one.
    for move_schema in moves.values():
        spec.components.schema(getattr(move_schema.Meta, "title"), schema=move_schema)  # noqa: B009
    move_refs = {t: f"#/components/schemas/{getattr(s.Meta, 'title')}" for t, s in moves.items()}  # noqa: B009
    spec.components.schema(prefix + "Move", _union(move_refs))
    move_ref = f"#/components/schemas/{prefix}Move"

    cause = fields.Nested(_schema(prefix + "EventCause", EventCauseSchema, {
        "options": fields.Nested(plugin.options_schema, metadata={"description": "Setup: the options in force."}),
        "move": Ref(prefix + "Move")}), metadata=EventSchema._declared_fields["cause"].metadata)
    event_refs = {}
    for event_type, data_schema in plugin.event_schemas.items():
        name = prefix + "Event" + camel(event_type)
        data = _schema(name + "Data", data_schema, {})
        envelope = _schema(name, EventSchema, {
            "type": fields.Str(required=True, validate=validate.OneOf([event_type])),
            "data": fields.Nested(data, required=True), "cause": cause})
        spec.components.schema(name, schema=envelope)
        event_refs[event_type] = f"#/components/schemas/{name}"
    events: Ref | fields.Nested = fields.Nested(EventSchema)
    if event_refs:
        spec.components.schema("PlatformEvent", schema=PlatformEventSchema)
        spec.components.schema(prefix + "GameEvent", _union(event_refs))
        spec.components.schema(prefix + "Event", {"oneOf": [
            {"$ref": f"#/components/schemas/{prefix}GameEvent"}, {"$ref": "#/components/schemas/PlatformEvent"}]})
        events = Ref(prefix + "Event")

    def state() -> fields.Field:
        if plugin.view_schema is None:
            return fields.Dict(required=True)
        return fields.Nested(plugin.view_schema, required=True,
                             metadata={"description": "The game's own view for this viewer."})

    def result() -> fields.Field:
        if plugin.result_schema is None:
            return fields.Dict(allow_none=True, required=True)
        return fields.Nested(plugin.result_schema, allow_none=True, required=True,
                             metadata={"description": "null while the game goes on."})

    return ReadSchemas(
        game_view=_schema(prefix + "GameView", GameViewSchema, {"state": state(), "result": result()}),
        legal_moves=_schema(prefix + "LegalMoves", LegalMovesSchema, {"moves": fields.List(
            Ref(prefix + "Move"), required=True, metadata={
                "description": "Every move this seat may make now, each postable as-is to /moves."})}),
        move_accepted=_schema(prefix + "MoveAccepted", MoveAcceptedSchema,
                              {"events": fields.List(events, required=True)}),
        events_page=_schema(prefix + "EventsPage", EventsPageSchema, {"events": fields.List(events, required=True)}),
        replay=_schema(prefix + "Replay", ReplaySchema, {"state": state(), "result": result()}),
        games_page=_schema(prefix + "GamesPage", GamesPageSchema, {"games": fields.List(fields.Nested(
            _schema(prefix + "ListedGame", ListedGameSchema, {"options": fields.Nested(
                plugin.options_schema, required=True, metadata={"description": "The options in force."})})),
            required=True)}),
        move_ref=move_ref,
        move_refs=move_refs,
    )


def move_component_schemas(plugin: GamePlugin) -> dict[str, type[Schema]]:
    """One documented schema per move type: its fields plus the ``type`` discriminator."""
    title = game_prefix(plugin)
    out: dict[str, type[Schema]] = {}
    for move_type, schema_cls in plugin.move_schemas.items():
        name = title + "Move" + camel(move_type)
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
                         metadata={"description": "null for a human seat, or a bot, easiest first: "
                                   + ", ".join(f"{bot['name']} ({bot['level']}"
                                               + ("; thinks bot_budget_ms a move)" if bot["level"] == "hard" else ")")
                                               for bot in plugin.bot_levels())})

    name = "".join(p.capitalize() for p in game.name.split("-"))
    return type(name + "CreateGameSchema", (Schema,), {
        "turn_seconds": strict_int(1, MAX_TURN_SECONDS, load_default=None, allow_none=True, metadata={
            "description": "A turn clock: each human seat to act has this many seconds (1 to 604800, "
                           "7 days) from when it became to act, or from its own last move; then the "
                           "fallback bot plays for it. None by default."}),
        "fallback_bot": fields.Str(load_default=None, allow_none=True, validate=validate.OneOf(bots), metadata={
            "description": "The bot that plays for a seat whose clock ran out (default: "
                           f"{default_fallback(plugin)}, this game's rule-of-thumb bot): " + ", ".join(bots)}),
        "bot_budget_ms": strict_int(MIN_BUDGET_MS, MAX_BUDGET_MS, load_default=None, allow_none=True, metadata={
            "description": f"How long a search bot (`expert`) may think per move, in milliseconds "
                           f"({MIN_BUDGET_MS} to {MAX_BUDGET_MS}); default {DEFAULT_BUDGET_MS}. The simple bots "
                           "answer at once whatever it says."}),
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


PICTURE_EXAMPLE_PREFIX = "picture."
DOWNLOAD_EXAMPLE_PREFIX = "download."
# Answers that code generators leave out of their clients (they parse JSON and text only): their
# examples go by reference, so the warning that names what was skipped stays short.
SKIPPED_BY_GENERATORS = ("application/jsonl",)
PROBLEM_RESPONSE = {"description": "A problem (RFC 9457)",
                    "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}


def problems(*codes: int) -> dict[Any, Any]:
    """Document these problem statuses, and 503 (the event store is down), on an operation."""
    return {str(code): PROBLEM_RESPONSE for code in (*codes, 503)}


# A read that a client may revalidate: it sends back the ETag it holds and gets 304 while the
# game stands still.  The answer is the caller's own (a seat's hand), hence Vary: Authorization.
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                 "description": 'The ETag of the answer you hold (e.g. "12"): 304 without a body while the '
                                "game is still at that version (and its turn clocks' deadlines unchanged)."}
CACHE_HEADERS = {
    "ETag": {"schema": {"type": "string"}, "description": 'The version, quoted ("12"); when the answer shows '
             'turn-clock deadlines, a dot and a hash of them follow ("12.3f9a0c1d"). Send it back in '
             "If-None-Match to revalidate, or in If-Match to pin a move to its version."},
    "Vary": {"schema": {"type": "string"}, "description": "Authorization: each seat sees its own answer."},
}
NOT_MODIFIED = {"304": {"description": "If-None-Match named the current tag: the answer you hold is "
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
    the examples of :mod:`shared.http.examples` on every operation and problem answer."""

    def __init__(self, examples: dict[str, dict[str, Any]] | None = None,
                 problem_examples: dict[str, tuple[dict[str, Any], tuple[str, ...] | None]] | None = None) -> None:
        self.examples = examples or {}
        self.problem_examples = problem_examples or {}

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        self.spec = spec
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
                    if key is not None and (media_type in SKIPPED_BY_GENERATORS or media_type.startswith("image/")):
                        name = operation["operationId"]
                        content["examples"] = {name: self._by_reference(name, media_type, examples[key])}
                    elif key is not None:
                        content["example"] = examples[key]

    def _by_reference(self, operation_id: str, media_type: str, value: str) -> dict[str, str]:
        """A picture's or a download's example, as a reference to ``components/examples``: a
        generator that skips a media type it does not know prints the answer it skips, and a
        reference is short."""
        picture = media_type.startswith("image/")
        name = (PICTURE_EXAMPLE_PREFIX if picture else DOWNLOAD_EXAMPLE_PREFIX) + operation_id
        if name not in self.spec.components.examples:
            summary = "The example game's board" if picture else "The example game's log"
            self.spec.components.example(name, {"summary": summary, "value": value})
        return {"$ref": f"#/components/examples/{name}"}

    def _problems_for(self, operation_id: str | None, status: int) -> dict[str, Any]:
        return {name: {"$ref": f"#/components/examples/{name}"}
                for name, (example, operations) in self.problem_examples.items()
                if example["value"]["status"] == status and (operations is None or operation_id in operations)}


BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]

_NOT_SCHEMAS = ("example", "examples", "default", "enum", "const", "discriminator", "required")
_NAMED_SCHEMAS = ("properties", "patternProperties", "$defs", "schemas")     # name -> schema


def openapi_30(document: dict[str, Any]) -> dict[str, Any]:
    """The document in OpenAPI 3.0's words, for /docs: a ``null`` type becomes ``nullable``, and
    a ``$ref`` beside other keywords an ``allOf`` (3.0 ignores a reference's siblings)."""

    def schema(node: Any) -> Any:
        if isinstance(node, list):
            return [schema(item) for item in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {key: value if key in _NOT_SCHEMAS else named(value) if key in _NAMED_SCHEMAS
                               else schema(value) for key, value in node.items()}
        nullable = False
        if isinstance(out.get("type"), list):
            types = [t for t in out["type"] if t != "null"]
            nullable = len(types) < len(out["type"])
            out["type"] = types[0] if len(types) == 1 else types
        if NULL in out.get("anyOf", []):
            members = [m for m in out.pop("anyOf") if m != NULL]
            nullable = True
            if len(members) > 1:
                out["anyOf"] = members
            else:
                out = {**members[0], **out}
        if nullable:
            out["nullable"] = True
        if "$ref" in out and len(out) > 1:
            out["allOf"] = [{"$ref": out.pop("$ref")}]
        return out

    def named(schemas: dict[str, Any]) -> dict[str, Any]:
        return {name: schema(value) for name, value in schemas.items()}

    def walk(node: Any) -> Any:
        """Outside schemas: find them (``schema`` of parameters and media types, components)."""
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        return {key: schema(value) if key == "schema" else named(value) if key == "schemas"
                else value if key in ("example", "examples") else walk(value) for key, value in node.items()}

    return {**walk(document), "openapi": DOCS_OPENAPI_VERSION}
