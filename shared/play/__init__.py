"""A game's life cycle around the log: the runtime that decides and appends moves, seats and tokens, turn
clocks, the bot queue, its RQ worker and sweeper, the bots' search, settings and Redis connections, and
the problems (errors) they raise.
"""
