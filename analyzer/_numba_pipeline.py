"""The compiler of Pedro's and Rook's serial chunk kernels: numba's nopython pipeline plus one
round of its copy propagation and dead-code removal.

Inlining a function (``inline="always"``) assigns each argument to a new variable, and
in numba's plain pipeline every such alias of an array costs a reference-count increment
and decrement each time it runs (an atomic operation in a call numba cannot elide): Pedro's
deal kernel had 125 decrements in its code, and ran 18-20% slower than with the parallel
pipeline (``parallel=True``), whose parfor passes propagate copies and remove dead
variables (66 decrements) although there is no loop to spread. This pipeline runs that one
simplification, ``numba.core.ir_utils.simplify``, after typing and numba's rewrites: the same
66 decrements and the same speed as the parallel pipeline, without its parfor passes
(Pedro's chunk kernel: about 22 s to compile instead of 27 s, 2026-12-03).

May import: numba and the standard library only.
"""

from __future__ import annotations

from numba.core import ir_utils
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.typed_passes import NopythonRewrites


@register_pass(mutates_CFG=True, analysis_only=False)
class PropagateCopies(FunctionPass):
    """Copy propagation, then dead-code removal and CFG simplification, on typed IR."""

    _name = "bidlab_propagate_copies"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        ir_utils.simplify(state.func_ir, state.typemap, state.calltypes, metadata={})
        return True


class CopyPropagatingCompiler(CompilerBase):
    """numba's nopython pipeline with :class:`PropagateCopies` after its rewrites: pass as
    ``njit(..., pipeline_class=CopyPropagatingCompiler)``."""

    def define_pipelines(self):
        pipeline = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pipeline.add_pass_after(PropagateCopies, NopythonRewrites)
        pipeline.finalize()
        return [pipeline]
