"""The event log: the Redis event store and its append script, group commit, the news subscriber that wakes
readers, replay and audit, the platform's own events, seed proofs, signed heads and the offline
verifier.
"""
