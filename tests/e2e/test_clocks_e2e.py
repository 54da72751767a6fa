"""A turn clock through real processes: gunicorn serving the toy game, a real RQ worker whose
scheduler keeps the deadlines."""
from __future__ import annotations

from typing import Any

import pytest
import requests

from shared.clocks import EXPIRED
from tests.e2e.conftest import Stack, wait_until
from tests.e2e.test_reliability import assert_log_is_whole

pytestmark = [pytest.mark.e2e]


def test_the_fallback_bot_plays_for_a_human_who_walked_away(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    base = stack.start_web()
    players = [{"name": "walked away"}, {"name": "bot", "bot": "roller"}]
    game = requests.post(f"{base}/games", json={"players": players, "turn_seconds": 1,
                                                "options": {"target": 30}}, timeout=5).json()
    gid, token = game["id"], game["players"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    stack.start_worker()

    def human_deadline() -> dict[str, Any] | None:
        view = requests.get(f"{base}/games/{gid}", headers=headers, timeout=5).json()
        return view if "0" in view["deadlines"] else None

    wait_until(human_deadline, "the human seat to act, with a deadline")
    view = human_deadline()
    assert view is not None and view["turn_seconds"] == 1
    # The seat's own feed (a long-poll page) shows the clock running out and the bot's move for it.
    seen: list[dict[str, Any]] = []

    def expired_in_feed() -> bool:
        page = requests.get(f"{base}/games/{gid}/events", params={"after": len(seen), "wait": 2},
                            headers=headers, timeout=10).json()
        seen.extend(page["events"])
        return any(e["type"] == EXPIRED for e in seen)

    wait_until(expired_in_feed, "the clock of seat 0 to run out", timeout=15)
    expired = next(e for e in seen if e["type"] == EXPIRED)
    assert expired["data"]["seat"] == 0 and expired["data"]["bot"] == "roller"
    events = assert_log_is_whole(base, gid)
    played = events[expired["seq"]]              # the record right after it (seqs start at 1)
    assert played["cause"]["kind"] == "move" and played["cause"]["seat"] == 0
    # The view shows whose clock runs now.
    after = requests.get(f"{base}/games/{gid}", timeout=5).json()
    assert after["version"] >= played["seq"]
    assert all(after["players"][int(seat)]["bot"] is None for seat in after["deadlines"])
