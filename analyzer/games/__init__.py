"""Game engines, one module per game, and the registry that resolves variant strings.

A variant string starts with a preset name (``pedro``, ``cinch``, ``rook``, ``king``); the
preset decides the game family, whose module parses the flags. Every family
module offers the same face: ``PRESETS``, ``PRESET_NAMES``, ``Rules``,
``parse_rules``, ``simulate``, ``play_logged`` and ``run_batch``.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ..variants import RuleError, split_variant

FAMILIES = {"pedro": "pedro", "cinch": "pedro", "rook": "rook", "king": "king"}  # preset -> module
PRESET_NAMES = tuple(FAMILIES)


def family(game) -> ModuleType:
    """The engine module of a preset name, a variant string or a Rules object."""
    name = split_variant(game)[0] if isinstance(game, str) else game.game
    if name not in FAMILIES:
        raise RuleError(f"unknown game {name!r}; games: {', '.join(PRESET_NAMES)}")
    return import_module(f"{__name__}.{FAMILIES[name]}")


def parse_game(text: str, overrides: dict[str, str] | None = None):
    """Rules of any game from its variant string, with extra ``flag=value`` pairs on top."""
    return family(text).parse_rules(text, overrides)


def presets() -> dict:
    """Every preset's Rules, by name, in registry order."""
    return {name: family(name).PRESETS[name] for name in PRESET_NAMES}
