"""Keep numba's on-disk cache honest across edits and upgrades.

numba invalidates a cached kernel only when the file *defining* it changes, not
when a helper it calls from another module changes, so an edit to
``_pedro_core.py`` would silently keep running the old compiled engine. Before
any kernel is imported we hash every numba-using source file of the package and, when the
hash differs from the one recorded beside the cache, delete the package's
cached kernels so that they recompile from the current sources.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_STAMP = _PACKAGE / "__pycache__" / "jit-sources.sha256"


def sources_digest() -> str:
    h = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text:  # only modules that hold or feed kernels
            h.update(str(path.relative_to(_PACKAGE)).encode())
            h.update(text)
    return h.hexdigest()


def ensure_fresh_cache() -> None:
    digest = sources_digest()
    try:
        if _STAMP.read_text() == digest:
            return
    except OSError:
        pass
    try:
        for pattern in ("*.nbi", "*.nbc"):
            for f in _PACKAGE.rglob(pattern):
                f.unlink(missing_ok=True)
        _STAMP.parent.mkdir(exist_ok=True)
        tmp = _STAMP.with_suffix(".tmp")
        tmp.write_text(digest)
        tmp.replace(_STAMP)
    except OSError:  # read-only install: numba then caches elsewhere, per file
        pass
