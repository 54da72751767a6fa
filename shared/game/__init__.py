"""The game protocol every engine implements (``engine``), how a game joins the platform (``plugin``,
``registry``), and what a game declares of itself: its board's places, its value features, strict mode
and the rule tests' helpers. It imports nothing else of the platform.
"""
