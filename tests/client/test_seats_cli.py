"""``boardgames list/join/leave/cancel/resign/rematch`` and the client's seat routes, against real
gunicorn + RQ (the toy game: its rule-of-thumb bot takes over the resigned seat)."""
from __future__ import annotations

import re
from typing import Any

import pytest

from shared.client.client import GameClient, ProblemError
from tests.client.test_cli import run

pytestmark = pytest.mark.e2e


def test_list_join_resign_rematch_leave_and_cancel_from_the_terminal(make_stack: Any) -> None:
    stack = make_stack("race")
    stack.env["SLOW_BOT_SECONDS"] = "0"
    base = stack.start_web()
    stack.start_worker()
    lobby = GameClient(base)
    created = lobby.create_game([{"name": "host"}, {"open": True}])
    gid, host = created["id"], created["players"][0]["token"]
    lobby.create_game([{"name": "hidden"}, {"open": True}], listed=False)
    seeded = lobby.create_game([{"name": "seeder"}, {"open": True}], seed=7)["id"]

    code, out = run(["list", "race", "--url", base, "--status", "waiting"])
    assert code == 0 and gid in out and "1: open" in out and "hidden" not in out
    lines = {line.split()[0]: line for line in out.splitlines() if line and not line.startswith(" ")}
    assert "SEEDED by its creator" in lines[seeded] and "SEEDED" not in lines[gid]
    code, out = run(["join", "race", gid, "1", "--name", "Bea", "--url", base])
    assert code == 0 and "the game has started" in out
    bea = re.search(r"token \(shown once\): (\S+)", out).group(1)
    code, out = run(["join", "race", gid, "1", "--name", "Cy", "--url", base])
    assert code == 1 and "409 seat-taken" in out

    code, out = run(["resign", "race", gid, "--token", host, "--url", base])
    assert code == 0 and "bot plays seat 0" in out
    me = lobby.with_token(bea)
    for _ in range(300):                          # Bea holds; seat 0's bot rolls until it wins
        view = me.game(gid)
        if view["status"] == "finished":
            break
        if 1 in view["to_act"]:
            me.post_move(gid, {"type": "ack"} if view["state"]["pending"] else {"type": "hold"})
        else:
            me.events(gid, after=view["version"], wait=5)
    assert me.game(gid)["status"] == "finished"

    code, out = run(["rematch", "race", gid, "--token", bea, "--url", base])
    assert code == 0
    new = re.search(r"The rematch is game (\S+)\.", out).group(1)
    assert lobby.with_token(host).rematch(gid)["id"] == new          # the same game, asked again
    code, out = run(["join", "race", new, "1", "--token", bea, "--url", base])
    assert code == 0 and "waits for its other seats" in out
    again = re.search(r"token \(shown once\): (\S+)", out).group(1)
    assert lobby.game(new)["players"][1] == {"seat": 1, "name": "Bea", "bot": None}
    assert run(["leave", "race", new, "1", "--token", again, "--url", base])[0] == 0
    with pytest.raises(ProblemError) as refused:
        lobby.with_token(again).cancel(new)
    assert (refused.value.status, refused.value.reason) == (403, "not-host")
    code, out = run(["cancel", "race", new, "--token", bea, "--url", base])   # the asker is the host
    assert code == 0 and lobby.game(new)["status"] == "cancelled"
