"""Optimisation and lowering passes over the IR.

Every pass has the signature ``pass(shader, **options) -> bool`` (True when it
changed something) and keeps the IR valid. ``run_pass`` runs one and validates
afterwards in debug mode; ``optimize`` is the optimisation loop."""

from __future__ import annotations

from ..core import Shader
from ..validate import debug_validate, validate_shader
from .algebraic import opt_algebraic
from .basic import opt_constant_folding, opt_copy_prop, opt_cse, opt_dce, opt_dead_cf
from .control import (
    loop_trip_count, opt_loop_unroll, opt_peephole_select, opt_remove_continues, opt_remove_once_loops,
)
from .vars import lower_indirect_derefs, lower_vars_to_ssa
from .scalar import lower_alu_to_scalar
from .tex import lower_tex_lod
from .inline import inline_functions
from .io import lower_io
from .pipeline import OPT_LOOP, optimize, preprocess

__all__ = [
    "run_pass", "opt_algebraic", "opt_constant_folding", "opt_copy_prop", "opt_cse", "opt_dce", "opt_dead_cf",
    "lower_vars_to_ssa", "lower_indirect_derefs", "opt_peephole_select", "opt_loop_unroll",
    "loop_trip_count", "lower_alu_to_scalar", "inline_functions", "optimize", "preprocess", "OPT_LOOP",
    "lower_io", "opt_remove_once_loops", "opt_remove_continues", "lower_tex_lod",
]


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
