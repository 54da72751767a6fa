"""The pure Catan rules engine: no Flask, no Redis, no marshmallow.

``board`` (topology and layouts), ``state`` (state shape and queries), ``moves`` (decide),
``legal`` (legal moves), ``events`` (evolve), ``views`` (view/redact), ``view_types`` (the view's
shape), ``game`` (CatanGame).
"""
from services.catan.rules.game import ENGINES, CatanGame

__all__ = ["ENGINES", "CatanGame"]
