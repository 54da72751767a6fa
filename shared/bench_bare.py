"""The yardstick for the HTTP benchmark: a bare Flask endpoint under the same gunicorn settings."""
from __future__ import annotations

from flask import Flask, request

app = Flask("bare")


@app.post("/moves")
def moves() -> tuple[dict[str, object], int]:
    body = request.get_json()
    return {"version": 1, "events": [{"seq": 1, "type": body.get("type", "x"), "data": {}}]}, 201
