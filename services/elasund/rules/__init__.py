"""The pure Elasund rules engine (no Flask, no Redis, no marshmallow)."""
