"""Random front-end-style programs (variables, ifs, counted and do-while loops,
breaks out of once-loops, indirectly indexed arrays in registers or scratch),
compiled and run on the shader core: the outputs equal the IR interpreter's,
with the full register file and with a budget so small that values spill."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from compiler.ir.core import clone_shader
from compiler.ir.interp import run_function
from compiler.ir.validate import ValidationError, validate_shader

from ..ir import programs
from ..ir.test_random_programs import PIPELINES, Gen
from .harness import Run, frag_context, retarget_inputs, tile_words

CF = {"VAR0": 2, "VAR1": 6}
LANES = 32


def _check(data, pipeline: str, max_regs: int):
    gen = Gen(data)
    gen.stmts(0)
    shader = gen.finish()
    try:
        PIPELINES[pipeline](shader)
        validate_shader(shader)
    except ValidationError:
        # Reported: preprocess(scalarize=True) leaving a use its definition does not
        # dominate (not reproduced by the generator in a fuzzing run after the
        # opt_dead_cf phi repair; kept until a reproducer shows it fixed). The
        # backend is not its subject.
        if pipeline != "preprocess_scalar":
            raise
        reject()
    retarget_inputs(shader, CF)
    validate_shader(shader)
    inputs = programs.random_inputs(np.random.default_rng(data.draw(st.integers(0, 1000))), lanes=LANES)
    it, _ = run_function(clone_shader(shader), lanes=LANES, inputs={k: v.copy() for k, v in inputs.items()})
    run = Run(shader, max_regs=max_regs)
    ctx, _ = run.core(LANES, ctx=frag_context(LANES, inputs, CF))
    np.testing.assert_array_equal(tile_words(ctx).view(np.float32), it.outputs["VAR0"].view(np.float32))
    return run


@pytest.mark.parametrize("pipeline", ["preprocess", "preprocess_scalar", "preprocess_scratch"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_program_runs_like_the_interpreter(pipeline, data):
    _check(data, pipeline, 128)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_program_with_a_tiny_register_budget(data):
    _check(data, "preprocess", 8)


@pytest.mark.slow
@pytest.mark.parametrize("max_regs", [128, 8])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_many_random_programs(max_regs, data):
    _check(data, data.draw(st.sampled_from(["preprocess", "preprocess_scalar", "preprocess_scratch"])), max_regs)
