"""The optimisation loop and the standard pass pipeline."""

from __future__ import annotations

from ..core import Shader
from ..validate import debug_validate, validate_shader
from .algebraic import opt_algebraic
from .basic import opt_constant_folding, opt_copy_prop, opt_cse, opt_dce, opt_dead_cf
from .control import opt_loop_unroll, opt_peephole_select, opt_remove_continues, opt_remove_once_loops
from .inline import inline_functions
from .scalar import lower_alu_to_scalar
from .tex import lower_tex_lod
from .vars import lower_indirect_derefs, lower_vars_to_ssa

__all__ = ["run_pass", "optimize", "preprocess", "OPT_LOOP"]


def run_pass(shader: Shader, pass_fn, *args, validate: bool | None = None, **kwargs) -> bool:
    """Run ``pass_fn`` and, in debug mode (``SHIMGL_DEBUG=validate``), validate after it.

    A pass that reports no progress promises it changed nothing (the NEGCASE tests
    check that promise), so the IR is only validated after passes that made progress."""
    progress = pass_fn(shader, *args, **kwargs)
    if (validate or (validate is None and debug_validate())) and (progress or validate):
        try:
            validate_shader(shader)
        except Exception as e:
            raise type(e)(f"after {pass_fn.__name__}: {e}") from None
    return progress


# The passes of one round of the loop, in order.
OPT_LOOP = (
    opt_remove_once_loops, opt_remove_continues, lower_vars_to_ssa, opt_copy_prop, opt_dce, opt_dead_cf, opt_constant_folding, opt_algebraic,
    opt_cse, opt_peephole_select, opt_loop_unroll,
)


def optimize(shader: Shader, max_rounds: int = 32, passes=OPT_LOOP) -> int:
    """Run ``passes`` in rounds until a round makes no progress. Returns the number
    of rounds. Validates after every pass in debug mode."""
    for rounds in range(1, max_rounds + 1):
        progress = False
        for p in passes:
            progress |= run_pass(shader, p)
        if not progress:
            return rounds
    return max_rounds


def preprocess(shader: Shader, *, scalarize: bool = False, max_ladder_length: int = 16) -> None:
    """The key-independent pipeline (Mesa's ``agx_preprocess_nir`` in spirit):
    inline, vars->SSA, optimise, lower remaining indirect arrays, optimise again,
    and scalarise if the backend asks for scalars."""
    run_pass(shader, inline_functions)
    run_pass(shader, lower_tex_lod)
    optimize(shader)
    if run_pass(shader, lower_indirect_derefs, max_ladder_length=max_ladder_length):
        optimize(shader)
    if scalarize and run_pass(shader, lower_alu_to_scalar):
        optimize(shader)
