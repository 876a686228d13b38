"""``python -m analyzer``: the ``bidlab`` command line.

May import: :mod:`.entry` only.
"""

from .entry import main

if __name__ == "__main__":
    main(prog_name="bidlab")
