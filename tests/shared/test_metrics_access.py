"""Who may read /metrics: anyone by default (make run, on loopback); with METRICS_TOKEN only its
bearer; with METRICS_PORT only requests to that port."""
from __future__ import annotations

import dataclasses
from typing import Any

from shared.play.config import Settings
from shared.http.service import create_app
from tests.shared.toygame import PLUGIN


def test_metrics_are_open_by_default(client: Any) -> None:
    assert client.get("/metrics").status_code == 200


def test_a_metrics_token_is_asked_for_and_checked(settings: Settings, monkeypatch: Any) -> None:
    monkeypatch.setenv("METRICS_TOKEN", "s3cret")
    assert Settings.from_env().metrics_token == "s3cret"
    app = create_app(PLUGIN, dataclasses.replace(settings, metrics_token="s3cret"))
    with app.test_client() as client:
        for headers in [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"}]:
            refused = client.get("/metrics", headers=headers)
            assert (refused.status_code, refused.mimetype) == (401, "application/problem+json")
            assert "moves_total" not in refused.get_data(as_text=True)
        granted = client.get("/metrics", headers={"Authorization": "Bearer s3cret"})
        assert granted.status_code == 200 and "http_requests_total" in granted.get_data(as_text=True)
        assert client.get("/healthz").status_code == 200          # nothing else asks for it


def test_a_metrics_port_serves_them_there_only(settings: Settings, monkeypatch: Any) -> None:
    monkeypatch.setenv("METRICS_PORT", "9100")
    assert Settings.from_env().metrics_port == 9100
    app = create_app(PLUGIN, dataclasses.replace(settings, metrics_port=9100))
    with app.test_client() as client:
        public = client.get("/metrics", environ_overrides={"SERVER_PORT": "8000"}, headers={"Host": "x:9100"})
        assert (public.status_code, public.mimetype) == (404, "application/problem+json")
        internal = client.get("/metrics", environ_overrides={"SERVER_PORT": "9100"})
        assert internal.status_code == 200 and "http_requests_total" in internal.get_data(as_text=True)


def test_the_manifests_keep_the_metrics_off_the_public_port() -> None:
    from shared.ops import manifests
    docs = manifests.k8s_documents("catan")
    web = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "catan-web")
    (container,) = web["spec"]["template"]["spec"]["containers"]
    port = {e["name"]: e["value"] for e in container["env"]}["METRICS_PORT"]
    assert web["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"] == port
    service = next(d for d in docs if d["kind"] == "Service")
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["http"]
    compose = manifests.compose_document(["catan"])["services"]["catan-web"]
    assert compose["environment"]["METRICS_PORT"] == port and port not in " ".join(compose["ports"])


def test_the_queue_depth_counts_both_bot_queues_each_under_its_name(client: Any, redis_client: Any) -> None:
    """Search bots' turns wait on a queue of their own: a scaler watching the fast queue only would
    never see experts piling up."""
    from prometheus_client.parser import text_string_to_metric_families

    from shared.play.bots import BotQueue
    bot_queue = BotQueue(redis_client, "race", thinkers=["deep"])
    for version in range(2):
        assert bot_queue.enqueue_turn("g1", version, 0, bot="random")
    for version in range(3):
        assert bot_queue.enqueue_turn("g2", version, 1, bot="deep")
    text = client.get("/metrics").get_data(as_text=True)
    depth = {sample.labels["queue"]: sample.value for family in text_string_to_metric_families(text)
             if family.name == "bot_queue_depth" for sample in family.samples if sample.labels["game"] == "race"}
    assert depth == {"bots-race": 2, "bots-race-thinking": 3}, depth
