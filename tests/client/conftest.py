"""The client tests run real gunicorn and RQ worker processes: reuse the end-to-end fixtures."""
from tests.e2e.conftest import make_stack, stack_env  # noqa: F401 - pytest fixtures

__all__ = ["make_stack", "stack_env"]
