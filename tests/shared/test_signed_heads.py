"""Signed heads (shared.log.signing): the service signs the head of a game's log with Ed25519, and
publishes every key it stands by, old ones included, at /.well-known/game-log-keys.json."""
from __future__ import annotations

import dataclasses
import stat
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from shared.log import signing
from shared.play.config import Settings
from shared.ops.runner import development_signing_key
from shared.http.service import create_app
from shared.log.signing import SignatureRefused, Signer, head_payload, keys_from_keyset
from tests.shared.conftest import auth, new_game
from tests.shared.toygame import PLUGIN


def key_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(signing.new_private_key_pem())
    return path


def play_out(client: FlaskClient, game: dict[str, Any]) -> None:
    """Every seat holds until somebody wins (the toy game: a roll a turn, 10 wins)."""
    tokens = [p["token"] for p in game["players"]]
    for _ in range(500):
        view = client.get(f"/games/{game['id']}").get_json()
        if view["status"] == "finished":
            return
        seat = view["to_act"][0]
        legal = client.get(f"/games/{game['id']}/legal-moves", headers=auth(tokens[seat])).get_json()["moves"]
        move = next((m for m in legal if m["type"] != "hold"), legal[0])
        assert client.post(f"/games/{game['id']}/moves", json=move, headers=auth(tokens[seat])).status_code == 201
    raise AssertionError("the toy game did not end")


@pytest.fixture()
def signed_client(settings: Settings, tmp_path: Path) -> tuple[FlaskClient, Path]:
    current = key_file(tmp_path, "current.pem")
    app = create_app(PLUGIN, dataclasses.replace(settings, signing_key_file=str(current)))
    return app.test_client(), current


def test_rotation_keeps_the_old_key_listed_and_what_it_signed_verifies(tmp_path: Path) -> None:
    old_key = key_file(tmp_path, "old.pem")
    before = Signer.from_files(str(old_key))
    assert before is not None
    payload = head_payload("race", "g1", "1", 12, "ab" * 32, True)
    signed_before = before.sign(payload)

    (tmp_path / "retired").mkdir()
    (tmp_path / "retired" / "old.pub.pem").write_bytes(signing.public_key_pem(old_key.read_bytes()))
    after = Signer.from_files(str(key_file(tmp_path, "new.pem")), str(tmp_path / "retired"))
    assert after is not None and after.kid != before.kid
    keyset = after.keyset()
    assert [k["kid"] for k in keyset["keys"]] == [after.kid, before.kid]
    keys = keys_from_keyset(keyset)
    assert signing.verify(payload, signed_before, keys) == before.kid
    assert signing.verify(payload, after.sign(payload), keys) == after.kid
    assert after.sign(payload)["kid"] == after.kid      # new heads are signed with the new key only


def test_a_signature_from_a_key_the_set_does_not_list_is_refused(tmp_path: Path) -> None:
    listed = Signer.from_files(str(key_file(tmp_path, "listed.pem")))
    stranger = Signer.from_files(str(key_file(tmp_path, "stranger.pem")))
    assert listed is not None and stranger is not None
    payload = head_payload("race", "g1", "1", 12, "ab" * 32, True)
    forged = stranger.sign(payload)
    with pytest.raises(SignatureRefused, match="does not list"):
        signing.verify(payload, forged, keys_from_keyset(listed.keyset()))
    # Claiming the listed key's id does not help: the value is checked with that key.
    with pytest.raises(SignatureRefused, match="not over this log's head"):
        signing.verify(payload, {**forged, "kid": listed.kid}, keys_from_keyset(listed.keyset()))


def test_a_signature_holds_for_its_head_only(tmp_path: Path) -> None:
    """A truncated log has another head (and version); a re-ordered one too: the signature fails."""
    signer = Signer.from_files(str(key_file(tmp_path, "k.pem")))
    assert signer is not None
    keys = keys_from_keyset(signer.keyset())
    signature = signer.sign(head_payload("race", "g1", "1", 12, "ab" * 32, True))
    for other in (head_payload("race", "g1", "1", 11, "cd" * 32, True), head_payload("race", "g1", "1", 12, "cd" * 32, True),
                  head_payload("race", "g2", "1", 12, "ab" * 32, True), head_payload("race", "g1", "2", 12, "ab" * 32, True),
                  head_payload("race", "g1", "1", 12, "ab" * 32, False)):
        with pytest.raises(SignatureRefused):
            signing.verify(other, signature, keys)


def test_the_service_publishes_its_keys_and_signs_the_audited_head(signed_client: Any) -> None:
    client, current = signed_client
    keyset = client.get("/.well-known/game-log-keys.json").get_json()
    kid = Signer.from_files(str(current)).kid     # type: ignore[union-attr]
    assert [k["kid"] for k in keyset["keys"]] == [kid] and keyset["keys"][0]["crv"] == "Ed25519"
    game = new_game(client)
    running = client.get(f"/games/{game['id']}/audit").get_json()
    payload = head_payload("race", game["id"], "1", running["version"], running["head_hash"], False)
    assert running["signature"]["signed"] == payload
    assert signing.verify(payload, running["signature"], keys_from_keyset(keyset)) == kid

    play_out(client, game)
    finished = client.get(f"/games/{game['id']}/audit").get_json()
    assert finished["ok"] and finished["seeds"] == "verified"
    payload = head_payload("race", game["id"], "1", finished["version"], finished["head_hash"], True)
    assert signing.verify(payload, finished["signature"], keys_from_keyset(keyset)) == kid


def test_without_a_key_nothing_is_signed_and_the_key_set_is_empty(client: FlaskClient) -> None:
    assert client.get("/.well-known/game-log-keys.json").get_json() == {"keys": []}
    game = new_game(client)
    assert client.get(f"/games/{game['id']}/audit").get_json()["signature"] is None


def test_a_key_that_does_not_load_stops_the_service(settings: Settings, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key")
    with pytest.raises(ValueError):
        create_app(PLUGIN, dataclasses.replace(settings, signing_key_file=str(bad)))


def test_make_run_makes_a_development_key_once_and_keeps_it(tmp_path: Path) -> None:
    path = development_signing_key(tmp_path / ".run" / "signing-key.pem")
    first = path.read_bytes()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Signer.from_files(str(path)) is not None
    assert development_signing_key(path).read_bytes() == first
