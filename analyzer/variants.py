"""Rule variants: frozen dataclasses of flags and their canonical strings.

Each game declares its flags once, as fields of a frozen ``Rules`` dataclass
made with :func:`flag` (default, allowed values, one-line comment). From that
single declaration come the parser, the formatter, validation with clear
errors and the ``bidlab rules`` listing. A variant string names the preset and
the flags that differ from it, in declaration order::

    pedro                      the preset
    pedro(low_to=holder,scoring=2)

``parse`` and ``str`` round-trip: ``str(parse(s)) == s`` for canonical ``s``.

May import: :mod:`.parsing`.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, ClassVar

from .parsing import NumberError, parse_int, plain_ascii, quoted

_VARIANT = re.compile(r"^\s*([a-z][a-z0-9_]*)\s*(?:\(([^()]*)\))?\s*$", re.IGNORECASE)


class RuleError(ValueError):
    """A rule flag or variant string that the game does not accept."""


class VariantRules:
    """What every game's frozen ``Rules`` dataclass inherits: the check of its preset name and
    flags, its canonical string, and parsing by preset. A game declares its flags as fields
    and its presets once, with :func:`define_presets`."""

    PRESETS: ClassVar[dict] = {}  # preset name -> Rules, filled by define_presets
    # what a preset plays otherwise than its family's first beyond its flags, in words
    PRESET_NOTES: ClassVar[dict[str, str]] = {}
    _defining: ClassVar[tuple[str, ...]] = ()  # the preset names while they are being made

    def __post_init__(self) -> None:
        names = self.PRESETS or self._defining
        if self.game not in names:
            raise RuleError(f"unknown game {self.game!r}; games: {', '.join(names)}")
        validate(self)

    def __str__(self) -> str:
        return format_variant(self, self.PRESETS[self.game])

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def parse(cls, text: str, overrides: dict[str, str] | None = None) -> Any:
        """``Rules.parse("pedro(flag=value)")``; extra ``flag=value`` pairs apply on top."""
        return parse_preset(cls.PRESETS, text, overrides)

    @classmethod
    def one_flag_variants(cls, int_values: tuple[int, ...]) -> list:
        """Each preset, and each preset with one flag changed to each allowed value (integer
        flags: ``int_values``)."""
        return single_flag_variants(cls.PRESETS, int_values)


def define_presets(rules_cls: type, **presets: dict) -> dict:
    """The presets of a game, ``name={flag: value, ...}`` for each (what differs from the
    field defaults), made once and kept on ``rules_cls``."""
    rules_cls._defining = tuple(presets)
    rules_cls.PRESETS = {name: rules_cls(game=name, **diffs) for name, diffs in presets.items()}
    return rules_cls.PRESETS


def flag(default: Any, allowed: tuple | range, doc: str, scope: str = "deal") -> Any:
    """A Rules field: ``allowed`` is a tuple of values, or a range of integers; ``scope``
    "game" for a flag that acts only on whole games (the target), which a deal alone never
    shows."""
    return dataclasses.field(default=default, metadata={"allowed": allowed, "doc": doc,
                                                        "scope": scope})


def rule_changes(a: Any, b: Any) -> list[str]:
    """What ``b`` sets otherwise than ``a`` (two Rules of one game), in words: the preset
    first, then each flag as "flag a → b", in declaration order.

    >>> from analyzer.games.pedro.rules import parse_rules
    >>> rule_changes(parse_rules("pedro"), parse_rules("cinch(min_bid=7)"))
    ['preset pedro → cinch', 'min_bid 1 → 7', 'scoring 1 → 2']
    """
    out = [f"preset {a.game} → {b.game}"] if a.game != b.game else []
    return out + [f"{f.name} {getattr(a, f.name)} → {getattr(b, f.name)}"
                  for f in flag_fields(type(a)) if getattr(a, f.name) != getattr(b, f.name)]


def game_only_changes(a: Any, b: Any) -> list[str]:
    """The flags ``a`` and ``b`` set otherwise that act only on whole games."""
    return [f.name for f in flag_fields(type(a))
            if f.metadata.get("scope") == "game" and getattr(a, f.name) != getattr(b, f.name)]


def flag_fields(rules_cls: type) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(rules_cls) if f.name != "game"]


def allowed_values(f: dataclasses.Field, game: str | None = None,
                   rules_cls: type | None = None) -> tuple | range:
    """The values flag ``f`` takes in preset ``game``: its declared ones, narrowed where the
    Rules class's ``PRESET_ALLOWED`` says a preset accepts fewer (Cinch's Low always goes
    to the winner)."""
    narrowed = getattr(rules_cls, "PRESET_ALLOWED", {}).get(game, {})
    return narrowed.get(f.name, f.metadata["allowed"])


def describe_allowed(f: dataclasses.Field, game: str | None = None,
                     rules_cls: type | None = None) -> str:
    allowed = allowed_values(f, game, rules_cls)
    if isinstance(allowed, range):
        return f"an integer from {allowed.start:,} to {allowed.stop - 1:,}"
    return ", ".join(str(v) for v in allowed)


def allowed_json(f: dataclasses.Field, game: str | None = None,
                 rules_cls: type | None = None) -> list | dict:
    """What :func:`describe_allowed` says, for a program: the list of values, or
    ``{"min": a, "max": b}`` for a range of integers (both ends allowed)."""
    allowed = allowed_values(f, game, rules_cls)
    if isinstance(allowed, range):
        return {"min": allowed.start, "max": allowed.stop - 1}
    return list(allowed)


def coerce(rules_cls: type, name: str, text: str, game: str | None = None) -> Any:
    """Typed value of flag ``name`` given as text; RuleError names the values allowed (in
    preset ``game``, where it accepts fewer than the flag declares)."""
    fields = {f.name: f for f in flag_fields(rules_cls)}
    key = name.strip().lower()
    if key not in fields:
        raise RuleError(f"unknown rule flag {name!r}; flags: {', '.join(fields)}")
    f = fields[key]
    allowed = f.metadata["allowed"]
    raw = str(text).strip().lower()  # from Python, {"min_bid": 7} means what "7" does
    if isinstance(allowed, range):
        try:
            return parse_int(raw, allowed.start, allowed.stop - 1, f"value for rule {key}")
        except NumberError:
            pass
    else:
        # a rank in a value may be written 10, as bidlab's cards take it: above_10 is above_T
        spellings = {raw, re.sub(r"(?<![0-9])10(?![0-9])", "t", raw)}
        for v in allowed:
            if str(v).lower() in spellings:
                return v
    narrowed = allowed_values(f, game, rules_cls) != allowed
    raise RuleError(f"bad value {quoted(text)} for rule {key}{f' in {game}' if narrowed else ''}"
                    f"; allowed: {describe_allowed(f, game, rules_cls)}")


def validate(rules: Any) -> None:
    """RuleError unless every flag holds a value its preset accepts."""
    for f in flag_fields(type(rules)):
        v = getattr(rules, f.name)
        allowed = allowed_values(f, rules.game, type(rules))
        number = isinstance(v, int) and not isinstance(v, bool)
        if v not in allowed or (isinstance(allowed, range) and not number):
            where = ("" if allowed == f.metadata["allowed"] else f" in {rules.game}")
            raise RuleError(f"bad value {v!r} for rule {f.name}{where}; allowed: "
                            f"{describe_allowed(f, rules.game, type(rules))}")


def split_variant(text: str) -> tuple[str, dict[str, str]]:
    """``"pedro(low_to=holder)"`` -> ``("pedro", {"low_to": "holder"})``."""
    m = _VARIANT.match(text) if isinstance(text, str) and plain_ascii(text) else None
    if not m:
        raise RuleError(f"bad variant string {quoted(text)}; expected name or "
                        f"name(flag=value,...) in plain ASCII on one line")
    name, body = m.group(1).lower(), m.group(2)
    items = []
    for item in (body or "").split(","):
        if not item.strip():
            continue
        if "=" not in item:
            raise RuleError(f"bad rule {item.strip()!r} in {text!r}; expected flag=value")
        k, v = item.split("=", 1)
        items.append((k.strip().lower(), v.strip()))
    return name, pairs_once(items, f"in {text!r}")


def pairs_once(items, where: str) -> dict[str, str]:
    """``(flag, value)`` pairs as a dict; a flag given twice with two values is a RuleError,
    since which was meant cannot be told."""
    pairs: dict[str, str] = {}
    for k, v in items:
        if k in pairs and pairs[k] != v:
            raise RuleError(f"rule {k} given twice {where} ({pairs[k]!r} and {v!r}); give it once")
        pairs[k] = v
    return pairs


def flag_pairs(pairs: dict[str, str], where: str) -> dict[str, str]:
    """``pairs`` keyed by flag names as the Rules spell them (stripped, lower case), since
    flag names are case-blind everywhere a user types them; RuleError if two spellings
    of one flag carry two values."""
    return pairs_once(((k.strip().lower(), v) for k, v in pairs.items()), where)


def with_overrides(rules: Any, pairs: dict[str, str]) -> Any:
    """A copy of ``rules`` with flags given as text replaced (validated)."""
    cls = type(rules)
    pairs = flag_pairs(pairs, "among the rule flags")
    new = dataclasses.replace(rules, **{k: coerce(cls, k, v, rules.game)
                                        for k, v in pairs.items()})
    validate(new)
    return new


def format_variant(rules: Any, preset: Any) -> str:
    """Canonical string: the preset name and, in declaration order, what differs from it."""
    diffs = [
        f"{f.name}={getattr(rules, f.name)}"
        for f in flag_fields(type(rules))
        if getattr(rules, f.name) != getattr(preset, f.name)
    ]
    return f"{rules.game}({','.join(diffs)})" if diffs else rules.game


def parse_rule_option(text: str) -> tuple[str, str]:
    """One ``--rule flag=value`` option."""
    if "=" not in text:
        raise RuleError(f"bad --rule {text!r}; expected flag=value, e.g. low_to=holder")
    k, v = text.split("=", 1)
    return k.strip().lower(), v.strip()


def parse_preset(presets: dict, text: str, overrides: dict[str, str] | None = None) -> Any:
    """The Rules named by variant string ``text`` among ``presets``, with extra ``flag=value``
    pairs applied on top; RuleError names the known presets or the bad flag."""
    name, pairs = split_variant(text)
    if name not in presets:
        raise RuleError(f"unknown game {name!r} here; games: {', '.join(presets)}")
    extra = flag_pairs(overrides or {}, "among the extra rule flags")
    return with_overrides(presets[name], {**pairs, **extra})  # the extra flags win


def single_flag_variants(presets: dict, int_values: tuple[int, ...]) -> list:
    """Each preset, and each preset with one flag changed to each allowed value.

    Integer flags take ``int_values``; combinations a Rules class rejects are left
    out. Tests and variant sweeps iterate this list.
    """
    out: dict[str, Any] = {}
    for base in presets.values():
        out[str(base)] = base
        for f in flag_fields(type(base)):
            allowed = f.metadata["allowed"]
            for v in int_values if isinstance(allowed, range) else allowed:
                try:
                    rules = dataclasses.replace(base, **{f.name: v})
                except RuleError:
                    continue
                out[str(rules)] = rules
    return list(out.values())


def flag_index(rules: Any, name: str) -> int:
    """Position of flag ``name``'s value in its allowed tuple: how kernels read an enum flag."""
    allowed = next(f for f in dataclasses.fields(rules) if f.name == name).metadata["allowed"]
    return allowed.index(getattr(rules, name))
