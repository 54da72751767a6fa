"""One package per game service."""
