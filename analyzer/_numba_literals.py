"""A compile-time fix to numba's typing: compile bidlab's functions once per argument type,
not once more per constant value they are called with.

When numba types a call to a jitted function it tries the arguments' literal types first
(``Literal[int](52)`` for a constant, or for a variable that starts as one before a loop
changes it), and the function's dispatcher compiles a specialisation for exactly those
values. So ``_owner(N_JACK, ...)``, ``_owner(N_TEN, ...)`` and ``_owner(hi, ...)`` compiled
Pedro's scoring helper six times, and a loop variable that starts at 0 compiles its callee
twice. 16 of the 59 specialisations in Pedro's deal kernel were such literal ones.

:func:`install` makes the dispatchers of functions in this package compile for the
arguments' plain types (``int64``); a constant argument then converts to it, as any int
does. None of bidlab's jitted functions asks for a literal (``numba.literally``) or
indexes a mixed tuple by an argument, which would need one; numba's own functions and
overloads are left as they are. The compiled code differs only where a literal let numba
drop a branch before LLVM did.

May import: numba and the standard library only.
"""

from __future__ import annotations

import functools

_PACKAGE = __name__.partition(".")[0] + "."


def _plain_types_for_our_functions(get_call_template):
    @functools.wraps(get_call_template)
    def wrapper(self, args, kws):
        if getattr(self.py_func, "__module__", "").startswith(_PACKAGE):
            from numba.core import types

            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return get_call_template(self, args, kws)

    wrapper.bidlab_unliteral = True
    return wrapper


def install() -> bool:
    """Compile this package's jitted functions for plain argument types; True when in
    place. Idempotent; called when the kernels' foundation module (``bits``) is imported."""
    from numba.core.dispatcher import Dispatcher

    current = getattr(Dispatcher, "get_call_template", None)
    if current is None:
        return False
    if not getattr(current, "bidlab_unliteral", False):
        Dispatcher.get_call_template = _plain_types_for_our_functions(current)
    return True
