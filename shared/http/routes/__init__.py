"""The HTTP contract every game shares, one blueprint module per resource.

Each module has ``blueprint(service) -> Blueprint``, building its routes over one
:class:`shared.http.routes.context.Service` (the game, its runtime, settings and helpers): a
blueprint per app, as ``create_app`` is called once per game (and per test).

=============  ==================================================================
``ops``        ``/healthz``, ``/readyz``
``games``      create a game, a seat's or a spectator's view, legal moves
``moves``      play a move
``feed``       the log as a page, a long-poll or a Server-Sent Events stream
``history``    time travel (``/replay``) and the audit
``pictures``   the board as SVG (``/board.svg``), drawn by the game's own package
``proofs``     the key set that verifies signed log heads
=============  ==================================================================
"""
