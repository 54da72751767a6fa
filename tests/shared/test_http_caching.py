"""HTTP caching and retries as clients expect them: 304 on a revalidated read, answers that vary
by Authorization, and a replayed idempotent move that answers as the first time and says so."""
from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.shared.conftest import auth, new_game
from tests.shared.test_service import assert_problem, whose_turn


def play_until_over(client: FlaskClient, game: dict[str, Any]) -> None:
    for _ in range(200):
        view = client.get(f"/games/{game['id']}").get_json()
        if view["status"] == "finished":
            return
        seat = view["to_act"][0]
        move = client.get(f"/games/{game['id']}/legal-moves",
                          headers=auth(game["players"][seat]["token"])).get_json()["moves"][0]
        assert client.post(f"/games/{game['id']}/moves", json=move,
                           headers=auth(game["players"][seat]["token"])).status_code == 201
    raise AssertionError("the game did not end")


def test_view_and_legal_moves_answer_304_while_the_game_stands_still(client: FlaskClient) -> None:
    game = new_game(client)
    seat, token = whose_turn(client, game)
    for path, headers in [(f"/games/{game['id']}", {}), (f"/games/{game['id']}", auth(token)),
                          (f"/games/{game['id']}/legal-moves", auth(token))]:
        first = client.get(path, headers=headers)
        etag = first.headers["ETag"]
        assert first.status_code == 200 and etag == f'"{first.get_json()["version"]}"'
        assert "Authorization" in first.headers["Vary"]
        for sent in (etag, "W/" + etag, f'"nope", {etag}', "*"):
            again = client.get(path, headers={**headers, "If-None-Match": sent})
            assert again.status_code == 304, (path, sent)
            assert again.get_data() == b"" and again.headers["ETag"] == etag
            assert "Authorization" in again.headers["Vary"]
        assert client.get(path, headers={**headers, "If-None-Match": '"0"'}).status_code == 200

    old = client.get(f"/games/{game['id']}").headers["ETag"]
    assert client.post(f"/games/{game['id']}/moves", json={"type": "hold"}, headers=auth(token)).status_code == 201
    moved = client.get(f"/games/{game['id']}", headers={"If-None-Match": old})
    assert moved.status_code == 200 and moved.headers["ETag"] != old


def test_a_304_is_only_for_a_caller_who_may_read(client: FlaskClient) -> None:
    game = new_game(client)
    etag = client.get(f"/games/{game['id']}").headers["ETag"]
    assert_problem(client.get(f"/games/{game['id']}/legal-moves", headers={"If-None-Match": etag}),
                   401, "unauthenticated")
    assert_problem(client.get(f"/games/{game['id']}", headers={"If-None-Match": etag, **auth("x.y")}),
                   401, "unauthenticated")


def test_a_replayed_move_answers_as_the_first_time_and_says_so(client: FlaskClient) -> None:
    game = new_game(client, seed=11)
    seat, token = whose_turn(client, game)
    url = f"/games/{game['id']}/moves"
    headers = {**auth(token), "Idempotency-Key": "turn-1"}
    first = client.post(url, json={"type": "hold"}, headers=headers)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = client.post(url, json={"type": "hold"}, headers=headers)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    # Another move under the same key is refused, and changes nothing.
    assert_problem(client.post(url, json={"type": "roll"}, headers=headers), 422, "idempotency-key-reused")
    # Once later moves ended the game (and made the log public), a retry still gets the first answer.
    play_until_over(client, game)
    late = client.post(url, json={"type": "hold"}, headers=headers)
    assert late.status_code == 201 and late.headers["Idempotent-Replayed"] == "true"
    assert late.get_json() == first.get_json()
    assert "salt" not in late.get_json()["events"][0]
