"""vars->SSA and indirect array lowering."""

import numpy as np
import pytest

from compiler.ir.core import Deref, Intrinsic, Phi, walk_instrs
from compiler.ir.passes import run_pass
from compiler.ir.passes.vars import lower_indirect_derefs, lower_vars_to_ssa
from compiler.ir.printer import print_shader

from . import programs
from .irtest import CASE, NEGCASE, assert_same_outputs


def test_diamond_gets_a_phi():
    CASE(lower_vars_to_ssa, """
        var function_temp f32 t
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          1x1 %c = intrinsic load_front_face () ()
          32x1 %d0 = deref_var t
          32x1 %one = load_const (1.0)
          intrinsic store_deref (%d0, %one) (write_mask=x)
        if %c {
          block b1:
            32x1 %d1 = deref_var t
            32x1 %x = mov %i.x
            intrinsic store_deref (%d1, %x) (write_mask=x)
        } else {
          block b2:
        }
        block b3:
          32x1 %d2 = deref_var t
          32x1 %v = intrinsic load_deref (%d2) ()
          intrinsic store_output (%v, %z) (base=0, slot=VAR0, write_mask=x)
    """, """
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          1x1 %c = intrinsic load_front_face () ()
          32x1 %one = load_const (1.0)
        if %c {
          block b1:
            32x1 %x = mov %i.x
        } else {
          block b2:
        }
        block b3:
          32x1 %p = phi b1: %x, b2: %one
          intrinsic store_output (%p, %z) (base=0, slot=VAR0, write_mask=x)
    """)


def test_partial_write_mask_merges_components():
    CASE(lower_vars_to_ssa, """
        var function_temp f32x2 t
        block b0:
          32x1 %z = load_const (0)
          32x2 %a = load_const (1.0, 2.0)
          32x2 %b = load_const (3.0, 4.0)
          32x1 %d = deref_var t
          intrinsic store_deref (%d, %a) (write_mask=xy)
          intrinsic store_deref (%d, %b) (write_mask=y)
          32x2 %v = intrinsic load_deref (%d) ()
          intrinsic store_output (%v, %z) (base=0, slot=VAR0, write_mask=xy)
    """, """
        block b0:
          32x1 %z = load_const (0)
          32x2 %a = load_const (1.0, 2.0)
          32x2 %b = load_const (3.0, 4.0)
          32x2 %m = vec2 %a.x, %b.y
          intrinsic store_output (%m, %z) (base=0, slot=VAR0, write_mask=xy)
    """)


def test_indirectly_indexed_variable_is_left_alone():
    NEGCASE(lower_vars_to_ssa, """
        var function_temp f32[2] t
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %k = f2i32 %i.x
          32x1 %d = deref_var t
          32x1 %e = deref_array %d[%k]
          32x1 %v = intrinsic load_deref (%e) ()
          intrinsic store_output (%v, %z) (base=0, slot=VAR0, write_mask=x)
    """)


def test_loop_with_variables_matches_interpreter():
    before = programs.sum_of_positive()
    after = programs.sum_of_positive()
    assert run_pass(after, lower_vars_to_ssa)
    assert any(isinstance(i, Phi) for i in walk_instrs(after.main.body))
    # ``arr`` is indexed by the loop counter, so it stays until the loop is unrolled.
    assert [v.name for v in after.main.locals] == ["arr"]
    inputs = programs.random_inputs(np.random.default_rng(1))
    assert_same_outputs(before, after, inputs=inputs)


@pytest.mark.parametrize("length,ladder", [(4, 16), (4, 2)])
def test_indirect_arrays_lowered_keep_meaning(length, ladder):
    before = programs.indirect_array(length)
    after = programs.indirect_array(length)
    assert run_pass(after, lower_indirect_derefs, max_ladder_length=ladder)
    if ladder >= length:
        assert run_pass(after, lower_vars_to_ssa)
        assert not any(isinstance(i, Deref) for i in walk_instrs(after.main.body))
    else:
        names = {i.name for i in walk_instrs(after.main.body) if isinstance(i, Intrinsic)}
        assert {"load_scratch", "store_scratch"} <= names
        assert after.info["scratch_size_B"] == 16 * length
    for seed in range(3):
        inputs = programs.random_inputs(np.random.default_rng(seed))
        assert_same_outputs(before, after, inputs=inputs)


def test_ladder_text():
    CASE(lower_indirect_derefs, """
        var function_temp f32[2] t
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %k = f2i32 %i.x
          32x1 %d = deref_var t
          32x1 %e = deref_array %d[%k]
          32x1 %v = intrinsic load_deref (%e) ()
          intrinsic store_output (%v, %z) (base=0, slot=VAR0, write_mask=x)
    """, """
        var function_temp f32[2] t
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %k = f2i32 %i.x
          32x1 %c0 = load_const (0)
          32x1 %d0 = deref_var t
          32x1 %e0 = deref_array %d0[%c0]
          32x1 %v0 = intrinsic load_deref (%e0) ()
          32x1 %c1 = load_const (1)
          32x1 %d1 = deref_var t
          32x1 %e1 = deref_array %d1[%c1]
          32x1 %v1 = intrinsic load_deref (%e1) ()
          32x1 %zero = load_const (0)
          1x1 %eq = ieq %k, %zero
          32x1 %r = bcsel %eq, %v0, %v1
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=x)
    """)
