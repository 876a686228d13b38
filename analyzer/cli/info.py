"""Commands that describe rather than simulate: ``games``, ``rules`` and ``cards``.

May import: :mod:`.group`, :mod:`.options`, the games' registry and protocol, cards,
variants, documents and text; never another command module.
"""

from __future__ import annotations

import re

import click

from ..cards import JOKER, RANKS, SUIT_NAMES, CardSet
from ..documents import dumps, provenance
from ..games import common, family, presets
from ..games import game as game_of
from ..text import render_table
from ..variants import allowed_json, describe_allowed, flag_fields
from .group import main
from .options import card_set, game_argument, json_listing, resolve_rules, rule_option


def echo_json(facts: dict, **fields) -> None:
    """One JSON document: the provenance of ``facts``, then ``fields``."""
    click.echo(dumps({"provenance": provenance(facts), **fields}))


@main.command()
@json_listing("the games, presets and rules strings")
def games(as_json) -> None:
    """List the games and presets with their canonical rules strings.

    \b
    Examples:
      bidlab games
      bidlab games --json
    """
    rows, docs = [], []
    for name, rules in presets().items():
        engine = family(rules)
        base = engine.PRESETS[engine.PRESET_NAMES[0]]  # the family's first preset
        diffs = {f.name: getattr(rules, f.name) for f in flag_fields(type(rules))
                 if getattr(rules, f.name) != getattr(base, f.name)}
        note = type(rules).PRESET_NOTES.get(name)  # what it plays otherwise beyond its flags
        shown = ", ".join(f"{k}={v}" for k, v in diffs.items()) or "-"
        row = [name, engine.__name__.rsplit(".", 1)[-1], str(rules),
               shown + (f"; and {note}" if note else ""), game_of(rules).sources.get(name, "")]
        rows.append(row)
        docs.append({"game": row[0], "engine": row[1], "rules": row[2],
                     "flags_unlike_engine_first": diffs, "unlike_engine_first_beyond_flags": note,
                     "source": row[4]})
    if as_json:
        echo_json({}, games=docs, policies=list(common.POLICY_NAMES))
        return
    click.echo(render_table(["game", "engine", "rules string", "unlike the engine's first",
                             "source"], rows))
    click.echo("")
    click.echo(f"policies: {', '.join(common.POLICY_NAMES)}")
    click.echo('variants: name(flag=value,...), e.g. "pedro(low_to=holder)"; '
               "flags: `bidlab rules GAME`")


@main.command("rules")
@game_argument
@rule_option
@json_listing("every flag with its value, default, allowed values and meaning")
def rules_cmd(game, rule_pairs, as_json) -> None:
    """Every rule flag of GAME: value, preset default, allowed values and meaning.

    \b
    Examples:
      bidlab rules pedro
      bidlab rules "pedro(low_to=holder)"
      bidlab rules cinch --rule scoring=1
      bidlab rules rook
      bidlab rules king --json
    """
    rules = resolve_rules(game, rule_pairs)
    preset = family(rules).PRESETS[rules.game]
    rows, flags = [], []
    for f in flag_fields(type(rules)):
        value, default = getattr(rules, f.name), getattr(preset, f.name)
        mark = " *" if value != default else ""
        allowed = describe_allowed(f, rules.game, type(rules))
        rows.append([f.name, f"{value}{mark}", default, allowed, f.metadata["doc"]])
        flags.append({"flag": f.name, "value": value, "default": default,
                      "differs": value != default,
                      "allowed": allowed_json(f, rules.game, type(rules)),
                      "meaning": f.metadata["doc"]})
    if as_json:
        echo_json({"game": rules.game, "rules": str(rules),
                   "rule": ",".join(f"{k}={v}" for k, v in rule_pairs)},
                  preset=rules.game, flags=flags, in_words=rules_in_words(rules))
        return
    click.echo(f"{rules}   (preset {rules.game}; * marks a value that differs from it)")
    click.echo(render_table(["flag", "value", "default", "allowed", "meaning"], rows, "lllll"))
    click.echo("")
    click.echo(rules_in_words(rules))


def rules_in_words(rules) -> str:
    """Where the rules of ``rules``' preset are written out for players: the section of
    docs/rules.md its game's ``sources`` names."""
    found = re.search(r"docs/rules\.md §[0-9.]*[0-9]", game_of(rules).sources.get(rules.game, ""))
    where = found.group(0) if found else "docs/rules.md"
    return f"The rules in words: {where} ({rules.game.capitalize()}) in the bidlab source."


@main.command()
@click.argument("hand", nargs=-1, required=True, callback=card_set)
@json_listing("the cards as bidlab reads them")
def cards(hand: CardSet, as_json) -> None:
    """Read a hand string the way bidlab does and print it sorted, by suit.

    Cards are a rank (2-9, 10 or T, J, Q, K, A) and a suit (C, D, H, S), any
    case, separated by spaces or commas; JK, JOKER or ROOK is the joker. The
    hand may be one quoted argument or several.

    \b
    Examples:
      bidlab cards "AS KS 10H TD 5C 2h"
      bidlab cards AS,KS,QS
      bidlab cards "AS KS 10H TD 5C 2h" --json
    """
    suits = []
    for s in (3, 2, 1, 0):
        held = [RANKS[c % 16] for c in hand.suit(s)]
        suits.append({"suit": SUIT_NAMES[s], "n": len(held), "cards": held})
    if JOKER in hand:
        suits.append({"suit": "joker", "n": 1, "cards": ["JK"]})
    if as_json:
        echo_json({}, hand=str(hand), count=len(hand), mask=f"0x{hand.mask:016x}", suits=suits)
        return
    click.echo(f"hand:  {hand}")
    click.echo(f"count: {len(hand)}")
    click.echo(f"mask:  0x{hand.mask:016x}")
    rows = [[r["suit"], r["n"], " ".join(r["cards"]) or "-"] for r in suits]
    click.echo(render_table(["suit", "n", "cards"], rows, "lrl"))
