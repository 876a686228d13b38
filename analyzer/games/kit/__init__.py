"""Kernels every game uses: dealing, random choices, suit lanes, a trick's bookkeeping,
chunk scratch, and the threads that run chunks.

May import: the foundations; never a game, nor ``games.search``.
"""
