import json
import logging

from flask import Flask

from shared.http.logs import JsonFormatter, RequestIdFilter
from shared.http.middleware import REQUEST_ID_KEY


def test_log_lines_are_json_with_the_request_id() -> None:
    app = Flask("t")
    record = logging.LogRecord("service", logging.WARNING, __file__, 1, "slow move %s", ("x",), None)
    with app.test_request_context(environ_overrides={REQUEST_ID_KEY: "abc123"}):
        RequestIdFilter().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "abc123" and line["msg"] == "slow move x" and line["level"] == "warning"
