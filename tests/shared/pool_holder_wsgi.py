"""gunicorn 'tests.shared.pool_holder_wsgi:app': the toy game as a real service, plus a route that
takes one of the process's pooled Redis connections and holds it for a while, as a burst of
requests keeping the pool busy would (for the feed's tests of an exhausted pool)."""
import threading
import time

from flask import request

from shared.http.service import create_app
from tests.shared.toygame import PLUGIN

app = create_app(PLUGIN)


@app.post("/test/hold-pool")
def hold_pool() -> tuple[str, int]:
    """Hold a pooled connection for ``?seconds`` (answered once it is held)."""
    pool = app.extensions["runtime"].store.redis.connection_pool
    connection = pool.get_connection("PING")
    seconds = float(request.args.get("seconds", "3"))

    def release_later() -> None:
        time.sleep(seconds)
        pool.release(connection)

    threading.Thread(target=release_later, daemon=True).start()     # a greenlet under gevent
    return "", 204
