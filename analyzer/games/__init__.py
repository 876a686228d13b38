"""The games, one package each, and the registry that resolves variant strings.

A variant string starts with a preset name (``pedro``, ``cinch``, ``rook``, ``king``); the
preset decides the game, whose package parses the flags. Every game package offers the
same face: ``PRESETS``, ``PRESET_NAMES``, ``Rules``, ``parse_rules``, ``simulate``,
``play_logged``, ``run_batch``, and ``GAME``, its :class:`~analyzer.games.protocol.Game`:
the interface the generic code uses. Adding a game is one package and one line below.

Layout: ``kit/`` (kernels every game uses: the deal, random choices, suit lanes, a
trick's bookkeeping, chunk scratch, the threads that run chunks), ``search/`` (the
double-dummy search and pimc), ``common.py`` (policies, scenarios, the batch driver, the
rows of a batch), ``protocol.py`` (the interface), and one package per game. See
``docs/architecture.md``.

May import: :mod:`analyzer.variants`; a game package only when asked for it.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ..variants import RuleError, split_variant

FAMILIES = {"pedro": "pedro", "cinch": "pedro", "rook": "rook", "king": "king"}  # preset -> package
PRESET_NAMES = tuple(FAMILIES)


def __getattr__(name: str) -> ModuleType:
    """A game package on first use: after ``import analyzer``, ``analyzer.games.pedro`` (a
    notebook's completion offers ``analyzer.games``) is what ``from analyzer.games import
    pedro`` loads, not an AttributeError."""
    if name in FAMILIES.values():
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def lazy_member(package: str, name: str):
    """What a game package's ``__getattr__`` answers for a ``name`` its ``__init__`` lacks:
    that name of its ``deals`` module (the engine's face), else its submodule ``name``, each
    imported now; so the package's rules and ``GAME`` load without numba and pandas."""
    if name.startswith("__"):  # probes of copy, pickle, doctest: never a reason to load
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    deals = import_module(f"{package}.deals")
    if hasattr(deals, name):
        return getattr(deals, name)
    try:
        return import_module(f"{package}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.{name}":
            raise
    raise AttributeError(f"module {package!r} has no attribute {name!r}")


def family(game) -> ModuleType:
    """The package of a preset name, a variant string or a Rules object."""
    name = split_variant(game)[0] if isinstance(game, str) else getattr(game, "game", None)
    if not isinstance(name, str):  # None, a number: not a game a user could have meant
        raise RuleError(f"a game is a preset name or variant string ({', '.join(PRESET_NAMES)}, "
                        f"or e.g. \"pedro(low_to=holder)\") or a game's Rules; got {game!r}")
    if name not in FAMILIES:
        raise RuleError(f"unknown game {name!r}; games: {', '.join(PRESET_NAMES)}")
    return import_module(f"{__name__}.{FAMILIES[name]}")


def game(x):
    """The :class:`~analyzer.games.protocol.Game` of a preset name, a variant string or a
    Rules object."""
    return family(x).GAME


def offering(capability: str) -> list[str]:
    """The presets whose game has ``capability`` (a :class:`Game` attribute), for the
    messages that refuse it elsewhere."""
    return [name for name in PRESET_NAMES if getattr(game(name), capability)]


def parse_game(text: str, overrides: dict[str, str] | None = None):
    """Rules of any game from its variant string, with extra ``flag=value`` pairs on top."""
    return family(text).parse_rules(text, overrides)


def as_rules(x):
    """``x`` as a game's Rules: parsed where it is a preset name or variant string, as it
    is where it is Rules already (every analysis takes either)."""
    return parse_game(x) if isinstance(x, str) else x


def presets() -> dict:
    """Every preset's Rules, by name, in registry order."""
    return {name: family(name).PRESETS[name] for name in PRESET_NAMES}
