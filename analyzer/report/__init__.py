"""Strategy reports: one document per game, built by ``bidlab report`` from a scenario
file (``simulations/*.toml``).

:mod:`.scenario` reads and checks the file; :mod:`.sections` runs each section (bid
levels, seat positions, the bid guide, example hands, variants, the ladder, whole games)
into titled tables and figures; :mod:`.render` writes them as one self-contained HTML page
and as Markdown; :mod:`.build` puts the folder together atomically with its manifest.

May import: its own modules only.
"""
