"""Offline tools that make and measure bots: self-play, fitting value functions, the ladder and its
statistics. Nothing here serves a request.
"""
