"""Settings from the environment, read once per process (documented in deploy/README.md, "Environment")."""
from __future__ import annotations

import os
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


@dataclass(frozen=True)
class Settings:
    redis_url: str            # the event store (may be a Redis Cluster node: see REDIS_CLUSTER)
    redis_cluster: bool       # connect with redis.cluster.RedisCluster
    rq_redis_url: str         # the bot queue: always a standalone Redis (RQ has no Cluster support)
    snapshot_every: int       # write a snapshot cache entry every N events
    enqueue_bots: bool        # enqueue bot turns after accepted moves
    max_body_bytes: int       # larger request bodies answer 413
    max_wait_seconds: int     # upper bound of ?wait= on the events endpoint
    redis_timeout: float      # seconds a Redis call may take before it fails (a hung Redis frees threads)
    problem_base: str         # prefix of problem ``type`` URIs
    # POST /games may carry a ``seed``: whoever chose it can predict every roll and hidden card, so
    # it is off unless asked for (make run and the tests turn it on; deploy/ leaves it off).
    allow_client_seed: bool = False

    @classmethod
    def from_env(cls) -> "Settings":
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        return cls(
            redis_url=redis_url,
            redis_cluster=os.environ.get("REDIS_CLUSTER", "") in ("1", "true", "yes"),
            rq_redis_url=os.environ.get("RQ_REDIS_URL", redis_url),
            snapshot_every=_int("SNAPSHOT_EVERY", 50),
            enqueue_bots=os.environ.get("ENQUEUE_BOTS", "1") not in ("0", "false", "no"),
            max_body_bytes=_int("MAX_BODY_BYTES", 64 * 1024),
            max_wait_seconds=_int("MAX_WAIT_SECONDS", 30),
            redis_timeout=float(os.environ.get("REDIS_TIMEOUT_SECONDS", "5")),
            problem_base=os.environ.get("PROBLEM_BASE", "https://boardgames.example/problems/"),
            allow_client_seed=os.environ.get("ALLOW_CLIENT_SEED", "") in ("1", "true", "yes"),
        )
