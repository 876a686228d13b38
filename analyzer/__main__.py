"""``python -m analyzer``: the ``bidlab`` command line.

May import: :mod:`.entry` only.
"""

import sys

try:
    from .entry import main
except KeyboardInterrupt:  # Ctrl-C between the package's start and entry's own handler
    sys.stderr.write("\nAborted!\n")
    raise SystemExit(130) from None  # 128 + SIGINT, as the command line

if __name__ == "__main__":
    main(prog_name="bidlab")
