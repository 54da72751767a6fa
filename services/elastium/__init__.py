"""Elastium (Kauchuk): stretch rubber bands over a peg board to explore and enclose treasure.

``rules/`` is the pure engine (all eight scenarios), ``api.py`` the plugin (schemas, bots),
``bots.py`` the strategies and ``selfplay.py`` an in-process benchmark.
"""
