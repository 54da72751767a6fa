"""The ``boardgames`` command line, driven with scripted input against real gunicorn + RQ."""
from __future__ import annotations

import io
import re
import subprocess
import sys
from typing import Any

import pytest

from shared.client.cli import (all_events, check_chain, filter_moves, main, moves_menu, numbered_moves, parse_choice,
                               service_url)
from shared.client.client import GameClient, ProblemError
from tests.client.conftest import serve

pytestmark = pytest.mark.e2e


def run(argv: list[str], lines: list[str] | None = None, env: dict[str, str] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO("".join(line + "\n" for line in lines or [])), stdout=out, env=env or {})
    return code, out.getvalue()


def test_play_a_few_turns_against_bots(catan: str) -> None:
    code, out = run(["play", "catan", "--players", "3", "--bot", "greedy,random", "--seed", "5", "--name", "ann"],
                    ["h", "0", "{not json", "1", "1", "1", "1", "1", "1", "1", "1", "q"], env={"CATAN_URL": catan})
    assert code == 0, out
    assert "Created catan game" in out and "you are seat 0" in out
    assert out.count("Your hand:") >= 4 and out.count("Your legal moves:") >= 4
    assert "  1) build a settlement at node 0" in out and "<- your turn" in out
    assert "seat 1 (greedy-1, bot:greedy)" in out and "seat 2 (random-2, bot:random)" in out
    assert "Type the number of a move" in out                # the help
    assert "Pick a number from 1 to" in out                  # "0" is out of range
    assert "That is not valid JSON" in out
    assert "You: build a settlement at node" in out and "You: build a road" in out
    assert "You: roll the dice" in out                       # past the set-up, into the game
    assert "Leaving; the game waits for your seat. Resume with: boardgames play catan --game" in out
    # The bots' moves between ours are shown as they came.
    # Catan moves are public: the bot's moves show in the game's own words (those of the web log).
    assert re.search(r"#\d+ +greedy-1 builds a settlement at node \d+ \(free\)", out), out
    assert re.search(r"#\d+ +random-2 builds a road on edge \d+", out), out

    # Resume the seat with the printed command; a rejected JSON move is explained, then quit at EOF.
    resume = out.rsplit("Resume with: ", 1)[1].split()
    gid, token = resume[resume.index("--game") + 1], resume[resume.index("--token") + 1]
    code, out = run(["play", "catan", "--url", catan, "--game", gid, "--token", token],
                    ['{"type": "build_city", "node": 53}', '{"type": "nope"}'])
    assert code == 0, out
    assert "Rejected (" in out and "Rejected (unknown-move-type)" in out
    assert "Leaving; the game waits for your seat" in out

    code, out = run(["play", "catan", "--url", catan, "--bot", "nobody"])
    assert code == 1 and "error: 422 validation-error" in out and "/players/1/bot: Must be one of" in out, out


def test_play_against_a_thinking_expert(catan: str) -> None:
    code, out = run(["play", "catan", "--bot", "expert,greedy", "--bot-budget-ms", "30", "--seed", "6"],
                    ["1", "1", "1", "q"], env={"CATAN_URL": catan})
    assert code == 0, out
    assert "seat 1 (expert-1, bot:expert)" in out and "seat 2 (greedy-2, bot:greedy)" in out
    # The expert played its set-up between ours, on a worker, and the game records its thinking time.
    assert re.search(r"#\d+ +expert-1 builds a settlement at node \d+ \(free\)", out), out
    code, out = run(["play", "catan", "--url", catan, "--bot", "expert", "--bot-budget-ms", "5000"])
    assert code == 1 and "error: 422 validation-error" in out and "/bot_budget_ms" in out, out


def test_a_stale_move_shows_the_game_again(catan: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real_post = GameClient.post_move
    calls: list[int] = []

    def stale_once(self: GameClient, gid: str, move: dict[str, Any], expected_version: int | None = None,
                   idempotency_key: str | None = None) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            raise ProblemError(409, "stale-version", "moved on", {"current_version": 99})
        return real_post(self, gid, move, expected_version, idempotency_key)

    monkeypatch.setattr(GameClient, "post_move", stale_once)
    code, out = run(["play", "catan", "--seed", "5", "--url", catan], ["1", "1", "q"])
    assert code == 0, out
    assert "The game moved on while you chose" in out and "Rejected (stale-version)" not in out
    assert out.count("Your legal moves:") >= 2 and "You: build a settlement at node" in out


def test_watch_live_then_replay_and_audit_a_bots_only_game(catan: str) -> None:
    client = GameClient(catan)
    gid = client.create_game([{"name": n, "bot": "greedy"} for n in ("a", "b", "c")], seed=3)["id"]
    # watch follows the running game with long-polls until it ends.
    code, out = run(["watch", "catan", gid, "--url", catan, "--wait", "5"])
    assert code == 0, out
    assert "Following catan game" in out and "Game over. Winner" in out
    final = client.game(gid)
    assert final["status"] == "finished"
    assert f"#{final['version']} " in out
    assert re.search(r"#\d+ +[abc] rolls \d\+\d = \d+", out), out

    code, out = run(["replay", "catan", gid, "--url", catan, "--step"], ["", "", "q"])
    assert code == 0, out
    assert out.count("-- step ") == 3 and out.count("[Enter] next move") == 3
    assert "catan at version 1" in out and "Board (hex: terrain number, R = robber):" in out
    assert re.search(r"#\d+ +a builds a settlement at node \d+", out), out     # moves are public once over

    code, out = run(["replay", "catan", gid, "--quiet", "--from", str(final["version"] - 5)], env={"CATAN_URL": catan})
    assert code == 0, out
    assert "Game over. Winner: seat" in out and out.count("Board (hex") == 1
    # The games' words in the terminal's language.
    code, out = run(["replay", "catan", gid, "--quiet", "--from", str(final["version"] - 5)],
                    env={"CATAN_URL": catan, "LANG": "fr_FR.UTF-8"})
    assert code == 0, out
    assert "Partie terminée. Vainqueur : place" in out and out.count("Plateau (hexagone") == 1
    assert "Game over" not in out

    code, out = run(["watch", "catan", gid, "--url", catan])
    assert code == 0 and "Game over. Winner" in out and "Following" not in out

    code, out = run(["audit", "catan", gid, "--url", catan])
    assert code == 0 and out.startswith(f"OK: catan game {gid} replays to the same {final['version']} events")
    assert f"OK: the {final['version']} events of the public log hash to the same head here." in out
    events, _ = all_events(client, gid)
    assert check_chain(events) == (events[-1]["hash"], None)
    events[3]["data"] = {**events[3]["data"], "forged": True}
    assert check_chain(events)[1] == events[3]["seq"]

    code, out = run(["audit", "catan", "no-such-game", "--url", catan])
    assert code == 1 and "error: 404 game-not-found" in out


def test_usage_errors_and_unreachable_service() -> None:
    code, out = run(["play", "nosuchgame"])
    assert code == 2 and "unknown game 'nosuchgame'" in out
    code, out = run(["play", "catan", "--options", "[1"], env={"CATAN_URL": "http://127.0.0.1:9"})
    assert code == 2 and "--options is not valid JSON" in out
    code, out = run(["audit", "catan", "x"], env={"CATAN_URL": "http://127.0.0.1:9"})
    assert code == 2 and "cannot reach http://127.0.0.1:9" in out
    code, out = run([])
    assert code == 2 and "usage: boardgames" in out
    code, out = run(["--help"])
    assert code == 0 and "play" in out and "replay" in out
    assert service_url("elfenland", None, {}) == "http://127.0.0.1:8003"
    assert service_url("elastium", None, {"ELASTIUM_PORT": "9004"}) == "http://127.0.0.1:9004"
    assert service_url("catan", "http://x", {"CATAN_URL": "http://y"}) == "http://x"


def test_choosing_moves() -> None:
    moves = [{"type": "roll"}, {"type": "build_road", "edge": 1}, {"type": "build_road", "edge": 2}]
    assert parse_choice("2", moves) == moves[1]
    assert parse_choice(" roll ", moves) == moves[0]
    assert "pick one by its number" in str(parse_choice("build road", moves))
    assert "No 'end_turn' move is legal now" in str(parse_choice("end_turn", moves))
    assert parse_choice('{"type": "offer_trade", "give": {"ore": 1}, "get": {"wool": 1}}', moves)["type"] == "offer_trade"
    assert "JSON object" in str(parse_choice("[1]", moves))
    many = [{"type": "build_road", "edge": e} for e in range(40)]
    table = numbered_moves(many, "catan", None)
    assert len(table.splitlines()) == 20 and " 40) build a road on edge 39" in table
    assert moves_menu(many, "catan", None) == table
    lots = [{"type": "roll"}] + many * 2
    menu = moves_menu(lots, "catan", None)
    assert menu.splitlines()[:3] == ["81 moves:", "  roll: 1) roll the dice",
                                     "  build_road: 80 moves, 2-81, e.g. 2) build a road on edge 0 (nodes 0-3)"]
    assert filter_moves(lots, "edge 39 ", "catan", None).splitlines() == [
        " 41) build a road on edge 39 (nodes 27-33)", " 81) build a road on edge 39 (nodes 27-33)"]
    assert filter_moves(lots, "nothing like it", "catan", None) == "No move matches 'nothing like it'."


def test_module_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "shared.client.cli", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "usage: boardgames" in done.stdout


@pytest.mark.parametrize("game", ["elasund", "elfenland", "elastium"])
def test_play_other_games_for_a_few_moves(make_stack: Any, game: str) -> None:
    url = serve(make_stack, game)
    code, out = run(["play", game, "--players", "3", "--seed", "2"], ["1"] * 6 + ["*", "/e", "q"],
                    env={f"{game.upper()}_URL": url})
    assert code == 0, out
    assert out.count("Your legal moves:") >= 3 and out.count("You: ") >= 3, out
    assert "Your hand:" in out and "<- your turn" in out
    assert "Leaving; the game waits for your seat" in out
