"""bidlab's fixes to numba's compile time, each in place and each leaving the results alone:
the inliner's copies (``_numba_inliner``), one specialisation per type (``_numba_literals``)
and copy propagation in the serial kernels' pipeline (``_numba_pipeline``)."""

import copy
import io
import re

import numpy as np
from numba import njit
from numba.core import inline_closurecall as inliner
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


# ---- _numba_literals: one specialisation per argument type --------------------------------

def _scale(x, k):
    return x * k


def _loop_of_constants(scaled):
    def run(n):
        total = 0  # starts as the literal 0: numba would compile ``scaled`` for Literal[int](0)
        for i in range(n):
            total = scaled(total, 3) + scaled(i, 7)
        return total + scaled(5, 2)

    return run


def _as_if_defined_in(module, fn):
    clone = type(fn)(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    clone.__module__ = module
    return clone


def test_our_functions_compile_once_per_type_not_per_constant():
    ours = njit(_as_if_defined_in("analyzer.probe", _scale))
    theirs = njit(_scale)
    for scaled in (ours, theirs):
        assert njit(_loop_of_constants(scaled))(6) == _loop_of_constants(_scale)(6)
    assert [str(sig) for sig in ours.signatures] == ["(int64, int64)"]
    # numba's own behaviour, kept for everyone else's functions: a compile per constant
    assert any("Literal" in str(sig) for sig in theirs.signatures)


# ---- _numba_pipeline: copy propagation in a serial kernel --------------------------------

def _aliases(a, out):
    b = a  # an alias of an array: a reference count each time it runs, unless propagated
    c = b
    for i in range(c.shape[0]):
        out[i] = _inlined_step(c[i], 1)


def _typed_lines(dispatcher):
    text = io.StringIO()
    dispatcher.inspect_types(file=text)
    return [line.strip() for line in text.getvalue().splitlines()]


def test_the_serial_pipeline_keeps_results_and_drops_array_aliases():
    from analyzer._numba_pipeline import CopyPropagatingCompiler

    plain = njit(_aliases)
    propagated = njit(pipeline_class=CopyPropagatingCompiler)(_aliases)
    a = np.arange(-20, 20)
    want, got = np.zeros_like(a), np.zeros_like(a)
    plain(a, want)
    propagated(a, got)
    assert got.tolist() == want.tolist() == [_inlined_step.py_func(int(x), 1) for x in a]
    alias = re.compile(r"^#\s+[bc] = [ab]\s+:: array")
    assert sum(map(bool, map(alias.match, _typed_lines(plain)))) == 2
    assert sum(map(bool, map(alias.match, _typed_lines(propagated)))) == 0
