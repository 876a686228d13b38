"""Shared fixtures: the reference lives in tests/reference and is imported as a package."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
