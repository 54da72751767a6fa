"""Signed heads: the service's Ed25519 signature over a game log's head hash.

A log's head hash chains every record before it (shared.log.eventstore), so a signature over it binds
the service to the whole log: a record changed, dropped, added or moved gives another head.

What is signed is the UTF-8 text ``boardgames-log-head/1\\n`` followed by the canonical JSON
(sorted keys, no spaces) of ``{"game", "game_id", "engine_version", "version", "head", "finished"}``:
the title, the game's id, the rules engine version it is played under, the seq of the last record,
that record's hash, and whether the game was over (a running game's head is signed on request, and
says so).  The signature travels as
``{"alg": "EdDSA", "kid", "signed": {the payload}, "value": base64url}``.

Keys: ``SIGNING_KEY_FILE`` is the service's Ed25519 private key (PEM, PKCS#8); ``VERIFY_KEYS_FILE``
names older public keys (a PEM file holding one or more, or a directory of ``*.pem`` files), which
stay listed after a rotation so that what they signed still verifies.  Every key is published at
``/.well-known/game-log-keys.json`` as a JSON Web Key Set (RFC 7517, ``kty`` ``OKP``, ``crv``
``Ed25519``), each key's ``kid`` its RFC 7638 thumbprint.  Without ``SIGNING_KEY_FILE`` nothing is
signed and the key set is empty.
"""
from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from shared.log.eventstore import canonical

CONTEXT = b"boardgames-log-head/1\n"
KEYSET_PATH = "/.well-known/game-log-keys.json"


class SignatureRefused(Exception):
    """A signature that does not prove what it claims (unknown key, bad value, other payload)."""


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: Ed25519PublicKey) -> str:
    """The key's RFC 7638 thumbprint: SHA-256 of its canonical JWK members, base64url."""
    members = json.dumps({"crv": "Ed25519", "kty": "OKP", "x": _b64(_raw(public))}, separators=(",", ":"),
                         sort_keys=True)
    return _b64(hashlib.sha256(members.encode()).digest())


def jwk(public: Ed25519PublicKey) -> dict[str, str]:
    return {"kty": "OKP", "crv": "Ed25519", "x": _b64(_raw(public)), "kid": key_id(public), "use": "sig",
            "alg": "EdDSA"}


def head_payload(game: str, game_id: str, engine_version: str, version: int, head: str,
                 finished: bool) -> dict[str, Any]:
    return {"game": game, "game_id": game_id, "engine_version": engine_version, "version": version, "head": head,
            "finished": finished}


def _message(payload: dict[str, Any]) -> bytes:
    return CONTEXT + canonical(payload).encode()


def new_private_key_pem() -> bytes:
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def public_key_pem(private_pem: bytes) -> bytes:
    """The public half of a private key PEM, as PEM (what VERIFY_KEYS_FILE takes after a rotation)."""
    key = serialization.load_pem_private_key(private_pem, password=None)
    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def _pem_blocks(text: str) -> list[bytes]:
    blocks, current = [], []
    for line in text.splitlines():
        if line.startswith("-----BEGIN"):
            current = [line]
        elif current:
            current.append(line)
            if line.startswith("-----END"):
                blocks.append("\n".join(current).encode() + b"\n")
                current = []
    return blocks


def load_public_keys(path: str | Path) -> list[Ed25519PublicKey]:
    """Every Ed25519 public key in a PEM file (several blocks allowed) or a directory of ``*.pem``;
    a private key there counts as its public half."""
    path = Path(path)
    files = sorted(path.glob("*.pem")) if path.is_dir() else [path]
    keys: list[Ed25519PublicKey] = []
    for file in files:
        for block in _pem_blocks(file.read_text()):
            if b"PRIVATE KEY" in block.split(b"\n", 1)[0]:
                loaded: Any = serialization.load_pem_private_key(block, password=None).public_key()
            else:
                loaded = serialization.load_pem_public_key(block)
            if not isinstance(loaded, Ed25519PublicKey):
                raise ValueError(f"{file}: not an Ed25519 key")
            keys.append(loaded)
    return keys


@dataclass(frozen=True)
class Signer:
    """The service's current signing key and every public key it publishes (current first)."""

    private: Ed25519PrivateKey
    older: tuple[Ed25519PublicKey, ...] = ()

    @property
    def kid(self) -> str:
        return key_id(self.private.public_key())

    def sign(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {"alg": "EdDSA", "kid": self.kid, "signed": payload, "value": _b64(self.private.sign(_message(payload)))}

    def keyset(self) -> dict[str, Any]:
        keys, seen = [], set()
        for public in (self.private.public_key(), *self.older):
            entry = jwk(public)
            if entry["kid"] not in seen:
                seen.add(entry["kid"])
                keys.append(entry)
        return {"keys": keys}

    @classmethod
    def from_files(cls, signing_key_file: str, verify_keys_file: str = "") -> Signer | None:
        """The signer configured (None without a signing key); a key that does not load stops the service."""
        if not signing_key_file:
            return None
        private = serialization.load_pem_private_key(Path(signing_key_file).read_bytes(), password=None)
        if not isinstance(private, Ed25519PrivateKey):
            raise ValueError(f"SIGNING_KEY_FILE {signing_key_file}: not an Ed25519 private key")
        older = tuple(load_public_keys(verify_keys_file)) if verify_keys_file else ()
        return cls(private, older)


def keys_from_keyset(keyset: dict[str, Any]) -> dict[str, Ed25519PublicKey]:
    """kid -> public key, from a key set as served at ``/.well-known/game-log-keys.json``.  Each kid
    is recomputed from the key itself, so a key set cannot list a key under another's id."""
    keys: dict[str, Ed25519PublicKey] = {}
    for entry in keyset.get("keys", []):
        if not isinstance(entry, dict) or entry.get("kty") != "OKP" or entry.get("crv") != "Ed25519":
            continue
        public = Ed25519PublicKey.from_public_bytes(_unb64(str(entry.get("x", ""))))
        keys[key_id(public)] = public
    return keys


def verify(payload: dict[str, Any], signature: Any, keys: dict[str, Ed25519PublicKey]) -> str:
    """Check ``signature`` over ``payload`` (the caller builds it from the log it holds, never from
    the signature's own copy); returns the key id, or raises :class:`SignatureRefused`."""
    if not isinstance(signature, dict) or signature.get("alg") != "EdDSA":
        raise SignatureRefused("not an EdDSA signature")
    kid = str(signature.get("kid"))
    public = keys.get(kid)
    if public is None:
        raise SignatureRefused(f"signed by key {kid!r}, which the key set does not list")
    try:
        public.verify(_unb64(str(signature.get("value", ""))), _message(payload))
    except (InvalidSignature, ValueError):
        raise SignatureRefused(f"the signature by key {kid} is not over this log's head "
                               f"(version {payload['version']}, head {payload['head']})") from None
    return kid
