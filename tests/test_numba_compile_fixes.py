"""The fix to numba's inliner (``analyzer._numba_inliner``): in place, one scope per copy, and
inlined code that still computes what it did."""

import copy

import numpy as np
from numba import njit
from numba.core import inline_closurecall as inliner
from numba.core import ir
from numba.core.compiler import run_frontend

import analyzer.bits  # noqa: F401  (installs the fix)
from analyzer import _numba_inliner


def _branchy(x):
    total = 0
    for i in range(x):
        if i % 3 == 0:
            total += i
        elif i % 3 == 1:
            total -= 1
        else:
            total ^= i
    return total


def test_the_fix_is_installed_once_bits_is_imported():
    assert getattr(inliner.InlineWorker.inline_ir, "bidlab_shares_scope", False)
    assert _numba_inliner.install() is True  # idempotent: wraps once
    assert not getattr(inliner.InlineWorker.inline_ir.__wrapped__, "bidlab_shares_scope", False)


def test_blocks_copied_in_one_inlining_share_one_copied_scope():
    func_ir = run_frontend(_branchy)
    assert len(func_ir.blocks) > 3
    token = _numba_inliner._BLOCK_MEMO.set({})
    try:
        copies = [inliner.copy.deepcopy(block) for block in func_ir.blocks.values()]
    finally:
        _numba_inliner._BLOCK_MEMO.reset(token)
    scopes = {id(block.scope) for block in copies}
    assert len(scopes) == 1
    assert copies[0].scope is not func_ir.blocks[min(func_ir.blocks)].scope
    # outside an inlining it is plain deepcopy: each block on its own
    alone = [inliner.copy.deepcopy(block) for block in func_ir.blocks.values()]
    assert len({id(block.scope) for block in alone}) == len(alone)
    assert [str(b) for b in alone] == [str(b) for b in copies]


@njit(inline="always")
def _inlined_step(x, k):
    if x & 1:
        return x * 3 + k
    return x // 2 + k


@njit
def _three_inlined_sites(x):
    a = _inlined_step(x, 1)
    b = _inlined_step(a, 2)
    return _inlined_step(b, 3) + _inlined_step(x + 1, 0)


def test_inlined_functions_compute_what_the_python_does():
    xs = np.arange(-50, 200)
    expected = [_three_inlined_sites.py_func(int(x)) for x in xs]
    assert [_three_inlined_sites(int(x)) for x in xs] == expected


def test_a_plain_deepcopy_is_left_for_everything_else():
    data = {"a": [1, 2, {"b": 3}]}
    out = inliner.copy.deepcopy(data)
    assert out == data and out["a"] is not data["a"]
    assert inliner.copy.copy is copy.copy
