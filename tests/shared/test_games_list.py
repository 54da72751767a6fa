"""GET /games as the lobby reads it: each listed game says its turn clock, so whoever joins knows
how long a turn may take."""
from __future__ import annotations

from typing import Any


def test_each_listed_game_says_its_turn_clock(client: Any) -> None:
    seats = [{"name": "ann"}, {"open": True}]
    timed = client.post("/games", json={"players": seats, "turn_seconds": 90}).get_json()["id"]
    untimed = client.post("/games", json={"players": seats}).get_json()["id"]
    listed = {g["id"]: g["turn_seconds"] for g in client.get("/games?status=waiting").get_json()["games"]}
    assert listed == {timed: 90, untimed: None}
