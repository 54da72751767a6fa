"""gunicorn settings for every game service (``gunicorn -c deploy/gunicorn.conf.py services.<game>.wsgi:app``).

Evented workers (gevent): each client connection is a greenlet, not a thread.  A client waiting
on the feed (a long-poll ``/events?wait=S`` or a Server-Sent Events stream) parks its greenlet
until its game moves (shared/log/news.py: one Redis subscription per process wakes it), so a
thousand waiting clients, slow clients or connections that never send their headers cost
memory, never a request thread that moves and probes need.  WEB_CONNECTIONS bounds the
connections one process holds (beyond it, new ones wait in the listen backlog).
WEB_WORKER_CLASS=gthread restores the threaded model (WEB_THREADS threads per process), in which
every waiting client holds a thread.

One process per instance by default: each process keeps its own copy of the games it serves,
and a move decided on a warm copy costs one Redis round trip (a copy that is behind costs a
retry, never a wrong answer).  Scale out by instances, ideally routing by game id (consistent
hashing on the ``/games/{id}`` path) so each game's moves meet a warm copy.
"""
import copy
import os
import shutil
import signal

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
worker_class = os.environ.get("WEB_WORKER_CLASS", "gevent")
worker_connections = int(os.environ.get("WEB_CONNECTIONS", "4000"))
threads = int(os.environ.get("WEB_THREADS", "16"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
# SIGTERM (a rolling restart, a scale-in): stop accepting, finish the requests in flight, end open
# feeds with a reconnect hint (post_worker_init below); what is still running after this many
# seconds is cut.  The Kubernetes manifests give the pod more than this (shared/ops/manifests.py).
graceful_timeout = 10
keepalive = 5
# ACCESS_LOG: "-" (default) stdout, a file path, or empty for none (make run and the tests).  The logging
# config below owns the gunicorn.access logger, so the choice is made there, not only in `accesslog`.
_access = os.environ.get("ACCESS_LOG", "-")
accesslog = _access or None
logconfig_dict = copy.deepcopy(__import__("shared.http.logs", fromlist=["LOGGING"]).LOGGING)  # JSON lines with request ids
if not _access:
    logconfig_dict["loggers"]["gunicorn.access"].update(level="WARNING", handlers=[])
elif _access != "-":
    logconfig_dict["handlers"]["access"] = {"class": "logging.FileHandler", "formatter": "access", "filename": _access}
# One JSON object per request (t, req, status, ms, request_id), escaped by json.dumps.
logger_class = __import__("shared.http.logs", fromlist=["access_logger_class"]).access_logger_class()


def on_starting(server):  # noqa: ANN001 - gunicorn's hook signature
    """Start with an empty metrics directory: files a previous run of this container left behind
    (a restart keeps its emptyDir) would add the dead processes' counts to the new ones'.

    METRICS_PORT: listen there too, on the first bind's host, and serve /metrics there only
    (shared/http/metrics.py).  Added here rather than in ``bind`` above, so that it holds with a
    ``--bind`` on the command line as well; the sockets are opened after this hook."""
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if path:
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path, exist_ok=True)
    metrics_port = os.environ.get("METRICS_PORT")
    if metrics_port:
        host = server.cfg.bind[0].rsplit(":", 1)[0]
        server.cfg.set("bind", [*server.cfg.bind, f"{host}:{metrics_port}"])


def post_worker_init(worker):  # noqa: ANN001 - gunicorn's hook signature
    """On SIGTERM, besides gunicorn's own graceful stop, wake every feed client parked here so
    each stream ends with a reconnect hint and each long-poll answers now (shared.log.news).
    First, the app being loaded, the garbage collector is tuned for a server (shared.http.gc_tuning)."""
    from shared.http.gc_tuning import tune_garbage_collector
    tune_garbage_collector()
    from shared.log.news import begin_draining
    graceful = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame):  # noqa: ANN001
        graceful(signum, frame)
        # Not from the signal handler itself: under gevent it may run in the hub, which must not block.
        import threading
        from gevent import monkey
        if monkey.is_module_patched("threading"):
            import gevent
            gevent.spawn(begin_draining)
        else:
            threading.Thread(target=begin_draining, daemon=True).start()

    signal.signal(signal.SIGTERM, on_sigterm)


def child_exit(server, worker):  # noqa: ANN001 - gunicorn's hook signature
    """Drop a dead worker's metric files (prometheus multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(worker.pid)

# gunicorn's control socket defaults to one path per user (~/.gunicorn/gunicorn.ctl): several services
# on one machine (make run starts four) would share it, and the first to stop removes it for the rest.
# Nothing here uses it; operators who want it set GUNICORN_CONTROL_SOCKET to a path per service.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True
