"""Proofs a third party can check without trusting the server: the keys that sign log heads."""
from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from shared.routes.context import Service
from shared.schemas import KeySetSchema
from shared.signing import KEYSET_PATH


def blueprint(service: Service) -> Blueprint:
    proofs = Blueprint("proofs", __name__, description="Signed log heads and the keys that verify them.")

    @proofs.route(KEYSET_PATH)
    @proofs.response(200, KeySetSchema)
    def log_keys() -> dict[str, Any]:
        """The Ed25519 public keys whose signatures over log heads this service stands by (a JSON Web
        Key Set, each `kid` the key's RFC 7638 thumbprint): the current key first, then older ones."""
        return service.signer.keyset() if service.signer is not None else {"keys": []}

    return proofs
