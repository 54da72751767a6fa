"""gunicorn 'tests.shared.gc_probe_wsgi:app': answers with its worker's garbage-collector settings."""
import gc
import json
from typing import Any
from collections.abc import Callable, Iterable


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    body = json.dumps({"thresholds": gc.get_threshold(), "frozen": gc.get_freeze_count()}).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
