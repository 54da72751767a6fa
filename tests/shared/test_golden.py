"""A compatibility suite that never forgets: every golden log replays and audits with the engine
the registry gives for its version, to the recorded head hash and final state.

The golden logs (tests/golden/<game>/<version>/) were recorded by the engine of that version
(older ones from a checkout of its commit, see each header's note), so a change that alters how
any released version decides or folds fails here.  New versions add theirs with ``make golden``.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from shared.ops import golden
from shared.game import registry
from shared.game.engine import IllegalMove
from shared.log.replay import audit_log

FILES = golden.golden_files()


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(golden.GOLDEN_ROOT)) for p in FILES])
def test_a_golden_log_replays_and_audits_with_its_own_engine(path: Path) -> None:
    verdict = golden.check(path)
    assert verdict.ok, verdict.problems


def test_every_served_engine_version_has_golden_logs() -> None:
    for name in registry.available():
        for version in registry.plugin(name).engine_versions:
            assert list((golden.GOLDEN_ROOT / name / version).glob("*.jsonl")), f"{name} {version}: no golden log"


def test_the_check_fails_a_log_whose_events_another_engine_would_decide(tmp_path: Path) -> None:
    """The check is no formality: an engine-2 Elasund log checked with engine 3 fails (its draws
    differ), and so does a log whose final state no longer matches its digest."""
    source = sorted((golden.GOLDEN_ROOT / "elasund" / "2").glob("*.jsonl"))[0]
    verdict = golden.check(source, registry.plugin("elasund").rules("3"))
    assert not verdict.ok and any("audit fails" in p for p in verdict.problems)
    header, records = golden.read(source)
    header["state_digests"] = {fmt: "0" * 64 for fmt in header["state_digests"]}
    copy = tmp_path / source.name
    copy.write_text("\n".join(json.dumps(x) for x in [header, *records]) + "\n")
    assert golden.check(copy).problems == ["the final state folds differently (format '2')"]


def _moves(path: Path) -> list[tuple[dict, list[dict]]]:
    """Each move's record and the events it caused."""
    _, records = golden.read(path)
    out: list[tuple[dict, list[dict]]] = []
    for record in records:
        if "cause" in record:
            out.append((record, []))
        out[-1][1].append({"type": record["type"], "data": record["data"]})
    return out


def test_catan_engine_2_logs_trade_after_building_which_engine_3_refuses() -> None:
    """The rule that changed from Catan engine 2 to 3, exercised by an engine-2 golden log: each
    trade made after building in that turn is refused by engine 3 (trading-over) on the same state."""
    plugin = registry.plugin("catan")
    v2, v3 = plugin.rules("2"), plugin.rules("3")
    refused = 0
    for path in sorted((golden.GOLDEN_ROOT / "catan" / "2").glob("*.jsonl")):
        state = None
        for record, events in _moves(path):
            cause = record["cause"]
            if cause["kind"] == "move" and cause["move"]["type"] in ("bank_trade", "offer_trade") and state["built"]:
                with pytest.raises(IllegalMove) as refusal:
                    v3.decide(state, cause["seat"], cause["move"], random.Random(cause["seed"]))
                assert refusal.value.reason == "trading-over"
                refused += 1
            state = v2.replay(events, state)
    assert refused >= 1


def test_elasund_engine_2_logs_draw_what_engine_3_would_not() -> None:
    """The rule that changed from Elasund engine 2 to 3: the order draws pick in.  Every engine-2
    golden log holds a draw that engine 3 decides differently from the same seed."""
    v3 = registry.plugin("elasund").rules("3")
    for path in sorted((golden.GOLDEN_ROOT / "elasund" / "2").glob("*.jsonl")):
        _, records = golden.read(path)
        report = audit_log(v3, records)
        assert not report.ok and "not what the rules decide" in (report.problem or "")


def test_elfenland_engine_3_logs_cut_hands_after_the_last_movement_which_engine_4_does_not() -> None:
    """The rule that changed from Elfenland engine 3 to 4, exercised by engine-3 golden logs:
    a hand over the limit after the game's last movement was cut (a keep_cards move follows),
    which engine 4 no longer asks for, so those logs do not audit under engine 4."""
    plugin = registry.plugin("elfenland")
    cut = [path for path in sorted((golden.GOLDEN_ROOT / "elfenland" / "3").glob("*.jsonl"))
           if not audit_log(plugin.rules("4"), golden.read(path)[1]).ok]
    assert cut
    for path in cut:
        assert audit_log(plugin.rules("3"), golden.read(path)[1]).ok
