"""The yardsticks for the HTTP benchmark, under the same gunicorn settings as the services.

``app``: a bare Flask endpoint.  ``app_with_redis``: the same endpoint making one Redis call,
as a move does: on a threaded worker the wait for the answer hands the GIL to other request
threads and back, and that handover is a cost of any design that stores each move before
answering.
"""
from __future__ import annotations

import os

import redis
from flask import Flask, request

app = Flask("bare")


@app.post("/moves")
def moves() -> tuple[dict[str, object], int]:
    body = request.get_json()
    return {"version": 1, "events": [{"seq": 1, "type": body.get("type", "x"), "data": {}}]}, 201


app_with_redis = Flask("bare_with_redis")
_redis = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))


@app_with_redis.post("/moves")
def moves_with_redis() -> tuple[dict[str, object], int]:
    body = request.get_json()
    _redis.ping()
    return {"version": 1, "events": [{"seq": 1, "type": body.get("type", "x"), "data": {}}]}, 201
