"""Bit helpers for uint64 card masks, written once and shared by every kernel.

`popcount`, `lsb` and `msb` compile to single machine instructions (LLVM's
ctpop/cttz/ctlz intrinsics) inside numba code, and fall back to plain Python
when called from the interpreter or with ``NUMBA_DISABLE_JIT=1``.

Keep masks unsigned: mixing int64 and uint64 in one expression makes numba
silently produce float64, so every literal below is wrapped in ``np.uint64``.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic, overload

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


def popcount(m):
    """Number of set bits."""
    return int(m).bit_count()


def lsb(m):
    """Index of the lowest set bit (64 when m == 0)."""
    m = int(m)
    return (m & -m).bit_length() - 1 if m else 64


def msb(m):
    """Index of the highest set bit (-1 when m == 0)."""
    return int(m).bit_length() - 1


# Inside numba code the three helpers above become single instructions.
@overload(popcount, inline="always")
def _popcount_jit(m):
    return lambda m: np.int64(_ctpop(np.uint64(m)))


@overload(lsb, inline="always")
def _lsb_jit(m):
    return lambda m: np.int64(_cttz(np.uint64(m)))


@overload(msb, inline="always")
def _msb_jit(m):
    return lambda m: np.int64(63) - np.int64(_ctlz(np.uint64(m)))


@njit(types.uint64(types.int64), cache=True, inline="always")
def bit(i):
    """The mask with only bit i set."""
    return ONE << np.uint64(i)


@njit(types.uint64(types.uint64, types.int64), cache=True, inline="always")
def nth_bit(m, k):
    """The mask of the k-th lowest set bit of m (k counts from 0)."""
    for _ in range(k):
        m &= m - ONE
    return m & (~m + ONE)
