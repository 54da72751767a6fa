"""Catan (base game, 3-4 players): rules engine in ``rules/``, HTTP plugin in ``api.py``."""
