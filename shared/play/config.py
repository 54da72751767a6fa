"""Settings from the environment, read once per process (documented in deploy/README.md, "Environment")."""
from __future__ import annotations

import os
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


def _rate(name: str, default: str) -> str:
    """A rate such as ``30/minute``; empty or ``0``: no limit."""
    raw = os.environ.get(name, default).strip()
    return "" if raw in ("", "0") else raw


@dataclass(frozen=True)
class Settings:
    redis_url: str            # the event store (may be a Redis Cluster node: see REDIS_CLUSTER)
    redis_cluster: bool       # connect with redis.cluster.RedisCluster
    rq_redis_url: str         # the bot queue: always a standalone Redis (RQ has no Cluster support)
    snapshot_every: int       # write a snapshot cache entry every N events
    enqueue_bots: bool        # enqueue bot turns after accepted moves
    max_body_bytes: int       # larger request bodies answer 413
    max_wait_seconds: int     # upper bound of ?wait= on the events endpoint
    sse_heartbeat_seconds: float  # a comment line on a quiet event stream this often
    sse_max_seconds: float    # an event stream is closed after this long (the client resumes)
    redis_pool_size: int      # gevent workers: Redis connections one process shares among its clients
    redis_timeout: float      # seconds a Redis call may take before it fails (a hung Redis frees threads)
    readyz_timeout: float     # seconds /readyz waits for Redis's PONG before it answers 503
    problem_base: str         # prefix of problem ``type`` URIs
    # Abuse limits (shared/http/limits.py)
    create_rate_limit: str = "30/minute"   # POST /games per client address ("" = no limit)
    ratelimit_storage_url: str = ""        # the limiter's Redis ("" = RQ_REDIS_URL: always standalone)
    trusted_proxy_count: int = 0           # proxies whose X-Forwarded-For is trusted (0 = the socket peer)
    max_active_games: int = 10_000         # unfinished games per service (0 = no cap)
    max_games_per_address: int = 100       # unfinished games one client address created (0 = no cap)
    abandon_after_seconds: int = 14 * 86_400   # a game without a move this long is ended as abandoned (0 = never)
    idle_game_ttl: int = 86_400            # seconds a game without a move lives (0 = forever)
    finished_game_ttl: int = 0             # seconds a finished game is kept (0 = forever)
    feed_connections_per_address: int = 64  # SSE streams and waiting long-polls per client address (0 = no cap)
    read_rate_limit_per_address: str = "6000/minute"   # GETs under /games per client address and process
    read_rate_limit_per_token: str = "3000/minute"     # the same per bearer token
    audit_rate_limit: str = "60/minute"                # GET /games/{id}/audit per client address and process
    # POST /games may carry a ``seed``: whoever chose it can predict every roll and hidden card, so
    # it is off unless asked for (the tests turn it on; make run and deploy/ leave it off).
    allow_client_seed: bool = False
    # Origins whose browsers may call the API (CORS), e.g. ("https://play.example",); none by default.
    cors_origins: tuple[str, ...] = ()
    # /metrics (shared/http/metrics.py): open by default; with a token, only to `Authorization: Bearer <it>`;
    # with a port, only on that port (gunicorn listens there too: deploy/gunicorn.conf.py).
    metrics_token: str = ""
    metrics_port: int = 0
    # Signed heads (shared.log.signing): the Ed25519 private key (PEM) and older public keys still listed.
    signing_key_file: str = ""
    verify_keys_file: str = ""

    @classmethod
    def from_env(cls) -> Settings:
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        return cls(
            redis_url=redis_url,
            redis_cluster=os.environ.get("REDIS_CLUSTER", "") in ("1", "true", "yes"),
            rq_redis_url=os.environ.get("RQ_REDIS_URL", redis_url),
            snapshot_every=_int("SNAPSHOT_EVERY", 50),
            enqueue_bots=os.environ.get("ENQUEUE_BOTS", "1") not in ("0", "false", "no"),
            max_body_bytes=_int("MAX_BODY_BYTES", 64 * 1024),
            max_wait_seconds=_int("MAX_WAIT_SECONDS", 30),
            sse_heartbeat_seconds=float(os.environ.get("SSE_HEARTBEAT_SECONDS", "15")),
            sse_max_seconds=float(os.environ.get("SSE_MAX_SECONDS", "600")),
            redis_pool_size=_int("REDIS_POOL_SIZE", 32),
            redis_timeout=float(os.environ.get("REDIS_TIMEOUT_SECONDS", "5")),
            readyz_timeout=float(os.environ.get("READYZ_TIMEOUT_SECONDS", "2")),
            problem_base=os.environ.get("PROBLEM_BASE", "https://boardgames.example/problems/"),
            create_rate_limit=_rate("CREATE_RATE_LIMIT", "30/minute"),
            ratelimit_storage_url=os.environ.get("RATELIMIT_STORAGE_URL", ""),
            trusted_proxy_count=_int("TRUSTED_PROXY_COUNT", 0),
            max_active_games=_int("MAX_ACTIVE_GAMES", 10_000),
            max_games_per_address=_int("MAX_GAMES_PER_ADDRESS", 100),
            abandon_after_seconds=_int("ABANDON_AFTER_SECONDS", 14 * 86_400),
            idle_game_ttl=_int("IDLE_GAME_TTL_SECONDS", 86_400),
            finished_game_ttl=_int("FINISHED_GAME_TTL_SECONDS", 0),
            feed_connections_per_address=_int("FEED_CONNECTIONS_PER_ADDRESS", 64),
            read_rate_limit_per_address=_rate("READ_RATE_LIMIT_PER_ADDRESS", "6000/minute"),
            read_rate_limit_per_token=_rate("READ_RATE_LIMIT_PER_TOKEN", "3000/minute"),
            audit_rate_limit=_rate("AUDIT_RATE_LIMIT", "60/minute"),
            allow_client_seed=os.environ.get("ALLOW_CLIENT_SEED", "") in ("1", "true", "yes"),
            cors_origins=tuple(o.strip() for o in os.environ.get("CORS_ORIGINS", "").split(",") if o.strip()),
            metrics_token=os.environ.get("METRICS_TOKEN", ""),
            metrics_port=_int("METRICS_PORT", 0),
            signing_key_file=os.environ.get("SIGNING_KEY_FILE", ""),
            verify_keys_file=os.environ.get("VERIFY_KEYS_FILE", ""),
        )
