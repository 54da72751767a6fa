"""Elasund: The First City (Klaus Teuber): the rules engine and its HTTP plugin."""
