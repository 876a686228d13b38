"""Bit helpers for uint64 card masks, written once and shared by every kernel.

`popcount`, `lsb` and `msb` compile to single machine instructions (LLVM's
ctpop/cttz/ctlz intrinsics) inside numba code, and fall back to plain Python
when called from the interpreter or with ``NUMBA_DISABLE_JIT=1``. `pext`
and `nth_bit` (picking the k-th remaining card when dealing) are BMI2's PEXT
and PDEP where numba compiles for a CPU with fast ones, else loops over the
mask's bits; `pext_planned` (the double-dummy search's relative-rank keys, six
under one mask) is PEXT or a branch-free compress.

The overloads are not ``inline="always"``: numba runs its front end and type inference over
an inlined overload's body every time it types a call to it, which cost the double-dummy
search's recursive node 5 s of its 10 s compile; as small functions of their own, LLVM
inlines them all the same (no call to them is left in the kernels' machine code).

Keep masks unsigned: mixing int64 and uint64 in one expression makes numba
silently produce float64, so every literal below is wrapped in ``np.uint64``.

Every kernel module imports this one, so importing it also installs the two fixes to
numba's compile time (``_numba_inliner``, ``_numba_literals``) before anything compiles,
and the one-line notice of a first compilation (``_jit_cache.announce_compiling``).

May import: numpy, numba, ``_numba_inliner``, ``_numba_literals`` and ``_jit_cache``.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from ._jit_cache import announce_compiling
from ._numba_inliner import install as _install_inliner_fix
from ._numba_literals import install as _install_literals_fix

_install_inliner_fix()
_install_literals_fix()
announce_compiling()

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
@overload(popcount)
def _popcount_jit(m):
    return lambda m: np.int64(_ctpop(np.uint64(m)))


@overload(lsb)
def _lsb_jit(m):
    return lambda m: np.int64(_cttz(np.uint64(m)))


@overload(msb)
def _msb_jit(m):
    return lambda m: np.int64(63) - np.int64(_ctlz(np.uint64(m)))


def pext(x, m):
    """The bits of ``x`` at the set positions of ``m``, packed into the low bits in order
    (BMI2's PEXT): with ``m`` the cards still out, a hand in ranks relative to them."""
    x, m = int(x), int(m)
    out = k = 0
    while m:
        low = m & -m
        if x & low:
            out |= 1 << k
        k += 1
        m ^= low
    return out


def _fast_pext() -> bool:
    """Whether numba compiles for this very CPU and its PEXT is a fast instruction: BMI2,
    and not AMD before Zen 3, where PEXT is microcode slower than the loop."""
    from llvmlite import binding
    from numba.core import config

    if config.CPU_NAME not in (None, "host"):  # a portable build (NUMBA_CPU_NAME=generic)
        return False
    try:
        name = binding.get_host_cpu_name()
        has = bool(binding.get_host_cpu_features().get("bmi2", False))
    except Exception:  # features unknown: the portable loop
        return False
    return has and not name.startswith(("znver1", "znver2", "bdver", "btver"))


FAST_PEXT = _fast_pext()


def _bmi2(op):
    """A numba intrinsic for BMI2's ``op`` (pext or pdep) on two uint64s."""

    def call(typingctx, x, m):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.x86.bmi.{op}.64")
            return builder.call(fn, args)

        return sig, codegen

    call.__name__ = f"_{op}_bmi2"
    return intrinsic(call)


_pext_bmi2 = _bmi2("pext")
_pdep_bmi2 = _bmi2("pdep")


@overload(pext)
def _pext_jit(x, m):
    if FAST_PEXT:
        return lambda x, m: _pext_bmi2(np.uint64(x), np.uint64(m))

    def loop(x, m):
        x = np.uint64(x)
        m = np.uint64(m)
        out = ZERO
        k = ONE
        while m != ZERO:
            low = m & (~m + ONE)
            if x & low:
                out |= k
            k <<= ONE
            m ^= low
        return out

    return loop


def pext_plan(m):
    """What :func:`pext_planned` needs of the mask ``m``, worked out once for several pexts
    under one mask (the search's table key takes six).

    Without a fast PEXT, the branch-free compress of Hacker's Delight (section 7-4): the six
    masks of the bits each shift stage moves. Each pext under ``m`` is then 24 operations
    without a branch, instead of the loop's branch a set bit of ``m``, about half of them
    mispredicted on cards (six under 24 cards out: 37 ns against 161 here). With a fast
    PEXT there is nothing to plan."""
    m = int(m)
    full = 2**64 - 1
    mk = (~m << 1) & full
    plan = []
    for i in range(6):
        mp = mk ^ ((mk << 1) & full)
        for s in (2, 4, 8, 16, 32):
            mp ^= (mp << s) & full
        mv = mp & m
        m = (m ^ mv) | (mv >> (1 << i))
        mk &= ~mp
        plan.append(mv)
    return tuple(plan)


def pext_planned(x, m, plan):
    """``pext(x, m)``, with ``plan = pext_plan(m)``."""
    x = int(x) & int(m)
    for i, mv in enumerate(plan):
        t = x & mv
        x = (x ^ t) | (t >> (1 << i))
    return x


@njit(types.uint64(types.int64), cache=True, inline="always")
def bit(i):
    """The mask with only bit i set."""
    return ONE << np.uint64(i)


@njit(cache=True, inline="always")
def _plan_stage(m, mk, shift):
    """One stage of :func:`pext_plan`: (the mask compressed by it, the zeros still to count,
    the bits it moves)."""
    mp = mk ^ (mk << ONE)
    for s in range(1, 6):
        mp ^= mp << np.uint64(1 << s)
    mv = mp & m
    return (m ^ mv) | (mv >> shift), mk & ~mp, mv


@overload(pext_plan)
def _pext_plan_jit(m):
    if FAST_PEXT:
        return lambda m: (ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)

    def stages(m):
        m = np.uint64(m)
        mk = ~m << ONE
        m, mk, v0 = _plan_stage(m, mk, np.uint64(1))
        m, mk, v1 = _plan_stage(m, mk, np.uint64(2))
        m, mk, v2 = _plan_stage(m, mk, np.uint64(4))
        m, mk, v3 = _plan_stage(m, mk, np.uint64(8))
        m, mk, v4 = _plan_stage(m, mk, np.uint64(16))
        m, mk, v5 = _plan_stage(m, mk, np.uint64(32))
        return v0, v1, v2, v3, v4, v5

    return stages


@njit(cache=True, inline="always")
def _shift_moved(x, mv, shift):
    t = x & mv
    return (x ^ t) | (t >> shift)


@overload(pext_planned)
def _pext_planned_jit(x, m, plan):
    if FAST_PEXT:
        return lambda x, m, plan: _pext_bmi2(np.uint64(x), np.uint64(m))

    def compress(x, m, plan):
        x = np.uint64(x) & np.uint64(m)
        x = _shift_moved(x, plan[0], np.uint64(1))
        x = _shift_moved(x, plan[1], np.uint64(2))
        x = _shift_moved(x, plan[2], np.uint64(4))
        x = _shift_moved(x, plan[3], np.uint64(8))
        x = _shift_moved(x, plan[4], np.uint64(16))
        return _shift_moved(x, plan[5], np.uint64(32))

    return compress


def nth_bit(m, k):
    """The mask of the k-th lowest set bit of m (0 <= k < 64, counting from 0; 0 if m has
    no such bit).

    In numba code this is BMI2's PDEP of bit k into m where PEXT is fast (the
    two share their hardware), else a loop clearing the k lowest bits."""
    m = int(m)
    for _ in range(k):
        m &= m - 1
    return m & -m


@overload(nth_bit)
def _nth_bit_jit(m, k):
    if FAST_PEXT:
        return lambda m, k: _pdep_bmi2(ONE << np.uint64(k), np.uint64(m))

    def loop(m, k):
        m = np.uint64(m)
        for _ in range(k):
            m &= m - ONE
        return m & (~m + ONE)

    return loop


# ---- raw memory words ----------------------------------------------------------------------
# The recursive double-dummy search takes only scalars (numba increments and decrements a
# reference count for every array passed to a call, and the search makes one a card
# played), so it reaches its transposition table by address. ``addr`` is an array's
# ``.ctypes.data``; the caller keeps the array alive for the call.
def load_word(addr, i):
    """The uint64 word ``i`` of the memory at ``addr``."""
    import ctypes

    return np.uint64(ctypes.c_uint64.from_address(int(addr) + 8 * int(i)).value)


def store_word(addr, i, value):
    """Write ``value`` into the uint64 word ``i`` of the memory at ``addr``."""
    import ctypes

    ctypes.c_uint64.from_address(int(addr) + 8 * int(i)).value = int(value) & (2**64 - 1)


def word(src, i):
    """Word ``i`` of ``src``: a uint64 array, or an address as for :func:`load_word`. Rules
    written with it read a game's parameters from an array or from the search's block."""
    if isinstance(src, np.ndarray):
        return src[i]
    return load_word(src, i)


def _word_pointer(builder, addr, i):
    base = builder.inttoptr(addr, ir.IntType(64).as_pointer())
    return builder.gep(base, [i])


@intrinsic
def _load_word(typingctx, addr, i):
    def codegen(context, builder, signature, args):
        return builder.load(_word_pointer(builder, *args))

    return types.uint64(types.uint64, types.int64), codegen


@intrinsic
def _store_word(typingctx, addr, i, value):
    def codegen(context, builder, signature, args):
        builder.store(args[2], _word_pointer(builder, args[0], args[1]))
        return context.get_dummy_value()

    return types.void(types.uint64, types.int64, types.uint64), codegen


@overload(load_word)
def _load_word_jit(addr, i):
    return lambda addr, i: _load_word(np.uint64(addr), np.int64(i))


@overload(store_word)
def _store_word_jit(addr, i, value):
    return lambda addr, i, value: _store_word(np.uint64(addr), np.int64(i), np.uint64(value))


@overload(word)
def _word_jit(src, i):
    if isinstance(src, types.Array):
        return lambda src, i: src[i]
    return lambda src, i: _load_word(np.uint64(src), np.int64(i))
