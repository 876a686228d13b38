"""The ``bidlab`` command that prints what a report's text block shows: a reader can run it
again, and the options that text names (``--json``, ``--csv``, ``--out-dir``) are that
command's, whose tables the report keeps in its own data/ folder.

May import: the standard library and :mod:`.scenario`.
"""

from __future__ import annotations

import shlex

from .scenario import Scenario


def section_command(command: str, s: Scenario, cfg: dict, *args: str, **options) -> str:
    """``bidlab command RULES args...`` with the section's deals, the scenario's seed,
    policy and (two-level) base, then ``options`` (``None``: left out; a tuple: joined by
    commas), as one line a shell reads back.

    >>> from pathlib import Path
    >>> s = Scenario(Path("x.toml"), "x", "", "", "pedro(low_to=holder)", 7, "dd")
    >>> section_command("hand", s, {"deals": 500}, "AS KS", seat="dealer", contract=None)
    "bidlab hand 'pedro(low_to=holder)' 'AS KS' --deals 500 --seed 7 --policy dd --seat dealer"
    """
    words = ["bidlab", command, str(s.rules), *args, "--deals", str(cfg["deals"]),
             "--seed", str(s.seed), "--policy", s.policy]
    if s.base is not None:
        words += ["--base", s.base, "--base-deals", str(cfg["base_deals"])]
    for key, value in options.items():
        if value is not None:
            words += [f"--{key.replace('_', '-')}",
                      ",".join(value) if isinstance(value, tuple) else str(value)]
    return shlex.join(words)
