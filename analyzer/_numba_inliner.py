"""A compile-time fix to numba's inliner: copy an inlined function's IR once, not per block.

numba inlines an ``inline="always"`` function by deep-copying the function's IR block by
block, each block with a ``copy.deepcopy`` of its own (``InlineWorker.inline_ir`` in
``numba/core/inline_closurecall.py``, numba 0.68). Every variable refers to the function's
scope and the scope lists every variable, so each block's copy copies the whole scope
again: the work grows as blocks times variables, twice per call site (numba issues #8989
and #9204, numba-cuda #688). Pedro's deal kernel inlines its helpers into one large
function, and that copying was over half of its 45 s compile.

:func:`install` gives the blocks of one inlining one shared memo, so the scope and anything
else the blocks share is copied once, shared in the copy as it is in the original. The code
numba generates is the same (the golden digests and the reference cross-checks run on it);
only numba's own work drops. Where numba's inliner is not laid out as this expects (another
numba version), it is left alone: kernels compile as before, only more slowly.

May import: numba and the standard library only.
"""

from __future__ import annotations

import contextvars
import copy
import functools
import types

_BLOCK_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "bidlab_inline_memo", default=None)


def _deepcopy_sharing_blocks(x, memo=None):
    """``copy.deepcopy``, except that IR blocks copied during one inlining share a memo."""
    from numba.core import ir

    shared = _BLOCK_MEMO.get()
    if memo is None and shared is not None and isinstance(x, ir.Block):
        memo = shared
    return copy.deepcopy(x, memo)


def _one_memo_per_inlining(inline_ir):
    @functools.wraps(inline_ir)
    def wrapper(*args, **kwargs):
        token = _BLOCK_MEMO.set({})
        try:
            return inline_ir(*args, **kwargs)
        finally:
            _BLOCK_MEMO.reset(token)

    wrapper.bidlab_shares_scope = True
    return wrapper


def install() -> bool:
    """Make numba's inliner copy each inlined function's scope once; True when in place.
    Idempotent; called when the kernels' foundation module (``bits``) is imported."""
    from numba.core import inline_closurecall as inliner

    worker = getattr(inliner, "InlineWorker", None)
    inline_ir = getattr(worker, "inline_ir", None)
    if inline_ir is None or not hasattr(inliner, "copy"):
        return False
    if getattr(inline_ir, "bidlab_shares_scope", False):
        return True
    if inliner.copy is not copy:  # someone else's replacement: keep theirs
        return False
    inliner.copy = types.SimpleNamespace(deepcopy=_deepcopy_sharing_blocks, copy=copy.copy)
    worker.inline_ir = _one_memo_per_inlining(inline_ir)
    return True
