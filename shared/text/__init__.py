"""Words for people: the message catalogs (English and French) and the generic renderers that describe
states, moves and events for the pages and the command line; each game's own words live in its package.
"""
