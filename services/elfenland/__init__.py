"""Elfenland rules server: Elfenland, Elfengold and Elfenroads on the Elfenland board (port 8003)."""
