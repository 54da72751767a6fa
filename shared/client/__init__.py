"""The HTTP client and the ``boardgames`` command line (play in a terminal, verify a log offline).
"""
