"""The HTTP service: the Flask app factory, one blueprint per resource (games, moves, feed, seats, pages,
ops, ...), OpenAPI schemas and examples, problem answers, rate limits, metrics, the feed's fan-out and
the browser pages' static files.
"""
