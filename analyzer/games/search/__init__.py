"""The double-dummy search (dd_moves, dd) and the pimc players (pimc) that every game's
searching seats use, with their layout (params) and workspace (setup).

May import: the foundations and ``games.kit``; never a game.
"""
