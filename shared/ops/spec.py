"""Generate or check ``api-spec/<game>.yaml`` from the code: ``python -m shared.ops.spec write|check``."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from shared.game import registry
from shared.play.config import Settings
from shared.log.eventstore import EventStore

SPEC_DIR = Path(__file__).resolve().parents[2] / "api-spec"


def generated_spec(game_name: str) -> dict[str, Any]:
    """The OpenAPI document the service builds (no Redis connection is opened)."""
    import redis

    from shared.http.service import create_app
    settings = Settings.from_env()
    store = EventStore(redis.Redis.from_url("redis://127.0.0.1:1/0"))   # never used: nothing is requested
    app = create_app(registry.plugin(game_name), settings, store=store, notify_bots=lambda *a: None)
    with app.app_context():
        spec = app.extensions["openapi"].spec.to_dict()
    return json.loads(json.dumps(spec))


def spec_path(game_name: str) -> Path:
    return SPEC_DIR / f"{game_name}.yaml"


def write(game_name: str) -> Path:
    path = spec_path(game_name)
    path.parent.mkdir(exist_ok=True)
    path.write_text(yaml.safe_dump(generated_spec(game_name), sort_keys=True, allow_unicode=True))
    return path


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "write"
    games = argv[1:] or registry.available()
    drift = []
    for name in games:
        if command == "write":
            print(f"wrote {write(name)}")
        elif yaml.safe_load(spec_path(name).read_text()) != generated_spec(name):
            drift.append(name)
    if drift:
        print(f"api-spec drifted for {', '.join(drift)}: run `make spec`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
