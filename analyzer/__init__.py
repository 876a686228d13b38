"""bidlab: Monte Carlo strategy analyzer for trick-taking card games.

The notebook API returns DataFrames::

    import analyzer
    ev = analyzer.evaluate_hand("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", seat="eldest")
    chart = analyzer.bid_chart("cinch", deals=200_000)
    change = analyzer.compare_variants("pedro", "pedro(low_to=holder)", deals=200_000)

They are imported on first use, so ``import analyzer`` stays cheap.

May import: any module of the package: it is the public Python API.
"""

import sys as _sys

__version__ = "0.1.0"
__all__ = ["evaluate_hand", "bid_chart", "compare_variants", "solve", "__version__"]

try:
    from importlib import import_module as _import_module
    from importlib import util as _import_util

    from ._jit_cache import ensure_fresh_cache as _ensure_fresh_cache

    _ensure_fresh_cache()
except KeyboardInterrupt:
    # Ctrl-C while ``bidlab`` (or ``python -m analyzer``) is starting: the command's own
    # handler is not in place yet, and a traceback is no answer to a user who pressed it
    if _sys.argv and (_sys.argv[0] == "-m" or _sys.argv[0].endswith("bidlab")):
        _sys.stderr.write("\nAborted!\n")
        raise SystemExit(130) from None  # 128 + SIGINT, as the command line
    raise


def __getattr__(name: str):
    """The API functions, and any submodule (``analyzer.plotting``), on first use."""
    if name == "evaluate_hand":
        from .rollout import evaluate_hand

        return evaluate_hand
    if name == "bid_chart":
        from .bidchart import bid_chart

        return bid_chart
    if name == "compare_variants":
        from .compare import compare_variants

        return compare_variants
    if name == "solve":
        from .solver import solve

        return solve
    if not name.startswith("_") and _import_util.find_spec(f"{__name__}.{name}") is not None:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


# the submodules the README's notebook example reaches through ``analyzer.``
_DOCUMENTED_SUBMODULES = ("games", "plotting")


def __dir__() -> list[str]:
    """The API functions and the documented submodules too, loaded on first use: what a
    notebook's completion offers."""
    return sorted({*__all__, *_DOCUMENTED_SUBMODULES,
                   *(n for n in globals() if not n.startswith("_"))})
