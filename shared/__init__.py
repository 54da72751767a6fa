"""The platform every game service stands on: it knows no game.

Engines (``services/<game>/rules``) implement :class:`shared.game.engine.Game`; the rest of this
package turns such an engine into an HTTP service with an event log in Redis and RQ bots.
"""
