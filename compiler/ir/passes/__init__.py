"""Optimisation and lowering passes over the IR.

Every pass has the signature ``pass(shader, **options) -> bool`` (True when it
changed something) and keeps the IR valid. ``run_pass`` runs one and validates
afterwards in debug mode; ``optimize`` is the optimisation loop (both in pipeline.py)."""

from __future__ import annotations

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
from .pipeline import OPT_LOOP, optimize, preprocess, run_pass

__all__ = [
    "run_pass", "opt_algebraic", "opt_constant_folding", "opt_copy_prop", "opt_cse", "opt_dce", "opt_dead_cf",
    "lower_vars_to_ssa", "lower_indirect_derefs", "opt_peephole_select", "opt_loop_unroll",
    "loop_trip_count", "lower_alu_to_scalar", "inline_functions", "optimize", "preprocess", "OPT_LOOP",
    "lower_io", "opt_remove_once_loops", "opt_remove_continues", "lower_tex_lod",
]
