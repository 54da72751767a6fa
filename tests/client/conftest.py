"""The client tests run real gunicorn and RQ worker processes: reuse the end-to-end fixtures."""
from __future__ import annotations

from typing import Any

import pytest

# The e2e stacks, and their logs shown when a test fails.
from tests.e2e.conftest import _logs_of_this_test, make_stack, pytest_runtest_makereport, stack_env

__all__ = ["make_stack", "stack_env", "serve", "_logs_of_this_test", "pytest_runtest_makereport"]


def serve(make_stack: Any, game: str) -> str:
    """gunicorn serving ``game`` plus RQ workers playing its bots (and its search bots); returns the base URL."""
    stack = make_stack(game)
    base = stack.start_web()
    stack.start_worker()
    stack.start_thinker()
    return base


@pytest.fixture()
def catan(make_stack: Any) -> str:
    """A Catan service with its bot worker."""
    return serve(make_stack, "catan")
