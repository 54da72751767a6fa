"""JSON log lines with the request id, for the services and workers (``deploy/gunicorn.conf.py``)."""
from __future__ import annotations

import json
import logging
import time


class RequestIdFilter(logging.Filter):
    """Stamp every record with the id of the request being served (``-`` outside requests)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            from shared.http.middleware import current_request_id
            record.request_id = current_request_id() or "-"
        except ImportError:  # pragma: no cover - flask is always installed with the services
            record.request_id = "-"
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "t": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line)


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "shared.http.logs.RequestIdFilter"}},
    "formatters": {"json": {"()": "shared.http.logs.JsonFormatter"},
                   "access": {"format": "%(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "json", "filters": ["request_id"],
                    "stream": "ext://sys.stderr"},
        "access": {"class": "logging.StreamHandler", "formatter": "access", "stream": "ext://sys.stdout"},
    },
    "root": {"level": "INFO", "handlers": ["console"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["access"], "propagate": False},
    },
}


def access_logger_class() -> type:
    """gunicorn's logger with an access line built by ``json.dumps``: a request line holding
    quotes or backslashes cannot break the JSON (a ``%``-template cannot escape them)."""
    from gunicorn.glogging import Logger

    class JsonAccessLogger(Logger):
        def access(self, resp, req, environ, request_time):  # gunicorn's signature
            if not self.access_log_enabled or not self.access_log.isEnabledFor(logging.INFO):
                return      # access logging is off (ACCESS_LOG=""): build nothing
            atoms = self.atoms(resp, req, environ, request_time)
            line = {"t": atoms.get("t"), "req": atoms.get("r"), "status": atoms.get("s"),
                    "ms": atoms.get("M"), "request_id": atoms.get("{x-request-id}o", "-")}
            try:
                self.access_log.info(json.dumps(line))
            except Exception:  # noqa: BLE001 - a log line must never fail a request
                self.error("could not write an access log line")

    return JsonAccessLogger
