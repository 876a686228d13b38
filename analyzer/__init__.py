"""bidlab: Monte Carlo strategy analyzer for trick-taking card games."""

from ._jit_cache import ensure_fresh_cache

__version__ = "0.1.0"

ensure_fresh_cache()
