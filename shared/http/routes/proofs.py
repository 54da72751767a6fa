"""Proofs a third party can check without the server: the log as a portable file, and the keys
that verify its signed head (``boardgames verify``, shared.log.verify)."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from shared.http.openapi import OPTIONAL_BEARER, problems
from shared.http.routes.context import Service
from shared.http.schemas import KeySetSchema
from shared.log.signing import KEYSET_PATH
from shared.log.replay import log_is_public
from shared.log.verify import JSONL, log_file


def blueprint(service: Service) -> Blueprint:
    game, runtime, store = service.game, service.runtime, service.store
    proofs = Blueprint("proofs", __name__, description="Portable logs, signed heads and the keys that verify them.")

    @proofs.route(KEYSET_PATH)
    @proofs.response(200, KeySetSchema)
    def log_keys() -> dict[str, Any]:
        """The Ed25519 public keys whose signatures over log heads this service stands by (a JSON Web
        Key Set, each `kid` the key's RFC 7638 thumbprint): the current key first, then older ones."""
        return service.signer.keyset() if service.signer is not None else {"keys": []}

    @proofs.route("/games/<game_id>/log")
    @proofs.doc(security=OPTIONAL_BEARER, responses={
        **problems(401, 403, 404),
        200: {"description": "The log as JSON Lines: first a header {format, game, game_id, engine_version, "
                             "options, players, seeded_by_client, seed_commitment, status, complete, viewer, "
                             "version, head, signature}, then one event a line as `/events` serves them to the "
                             "same caller (the whole log once the game is finished or abandoned, `complete` "
                             "true). "
                             "`boardgames verify FILE` checks it with no server.",
              "content": {JSONL: {"schema": {"type": "string"}}}}})
    def download_log(game_id: str) -> Response:
        """The game's log as a file to keep and verify offline: whole once the game is over,
        before that as the caller may see it (a seat's token, or a spectator without one)."""
        meta = runtime.meta(game_id)
        seat = service.authenticate(game_id, meta, required=False)
        version = int(meta["version"])
        finished = log_is_public(meta.get("status"))
        # Up to the meta's version: the status read with it holds for exactly these records.
        records = [r for r in store.read(game_id) if r["seq"] <= version]
        rules = runtime.rules_for(meta)             # the rules the game keeps
        body = log_file(rules, game_id, meta, records, seat, finished, service.signer)
        return Response(body, mimetype=JSONL, headers={
            "Content-Disposition": f'attachment; filename="{game.name}-{game_id}.jsonl"',
            "Cache-Control": "no-store"})

    return proofs
