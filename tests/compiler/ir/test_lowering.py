"""Scalarising, inlining and the optimisation loop."""

import numpy as np
import pytest

from compiler.ir.builder import Builder
from compiler.ir.core import Alu, Call, Function, If, Loop, walk_cf, walk_instrs
from compiler.ir.parser import parse_shader
from compiler.ir.passes import (
    inline_functions, lower_alu_to_scalar, optimize, preprocess, run_pass,
)
from compiler.ir.printer import print_shader
from compiler.ir.types import ArrayType, VecType

from . import programs
from .irtest import CASE, NEGCASE, assert_same_outputs, program


def test_scalarize_per_component_op():
    CASE(lower_alu_to_scalar, """
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x2 %r = fadd %i.xy, %i.wz
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=xy)
    """, """
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %a = fadd %i.x, %i.w
          32x1 %b = fadd %i.y, %i.z
          32x2 %r = vec2 %a, %b
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=xy)
    """)


def test_scalarize_dot_product():
    CASE(lower_alu_to_scalar, """
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %r = fdot3 %i.xyz, %i.yzw
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=x)
    """, """
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %a = fmul %i.x, %i.y
          32x1 %b = fmul %i.y, %i.z
          32x1 %c = fmul %i.z, %i.w
          32x1 %ab = fadd %a, %b
          32x1 %r = fadd %ab, %c
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=x)
    """)


def test_scalarize_leaves_scalars_vectors_and_filtered():
    NEGCASE(lower_alu_to_scalar, """
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %a = fadd %i.x, %i.y
          32x2 %v = vec2 %a, %a
          32x4 %w = fmul %i, %i
          intrinsic store_output (%w, %z) (base=0, slot=VAR0, write_mask=xyzw)
    """, filter=lambda instr: instr.op != "fmul")


def test_scalarize_keeps_meaning():
    before = programs.indirect_array()
    after = programs.indirect_array()
    assert run_pass(after, lower_alu_to_scalar)
    assert all(i.dest.num_components == 1 or i.op.startswith("vec") or i.op == "mov"
               for i in walk_instrs(after.main.body) if isinstance(i, Alu))
    assert_same_outputs(before, after, inputs=programs.random_inputs(np.random.default_rng(3)))


CALLS = """
shader fragment

function square(32x4) -> 32x4 {
  var function_temp f32x4 tmp
  block b0:
    32x4 %p = intrinsic load_param () (param_idx=0)
    32x1 %d = deref_var tmp
    32x4 %q = fmul %p, %p
    intrinsic store_deref (%d, %q) (write_mask=xyzw)
    32x4 %r = intrinsic load_deref (%d) ()
    intrinsic return_value (%r) ()
}

function twice(32x4) -> 32x4 {
  block b0:
    32x4 %p = intrinsic load_param () (param_idx=0)
    1x1 %c = intrinsic load_front_face () ()
  if %c {
    block b1:
      32x4 %a = call square(%p)
  } else {
    block b2:
      32x4 %b = fneg %p
  }
  block b3:
    32x4 %m = phi b1: %a, b2: %b
    32x4 %r = fadd %m, %m
    intrinsic return_value (%r) ()
}

function main {
  block b0:
    32x1 %z = load_const (0)
    32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
    32x4 %s = call twice(%i)
    32x4 %t = call square(%s)
    intrinsic store_output (%t, %z) (base=0, slot=VAR0, write_mask=xyzw)
}
"""


def test_inline_nested_calls_with_control_flow():
    before = parse_shader(CALLS)
    after = parse_shader(CALLS)
    assert run_pass(after, inline_functions)
    assert [f.name for f in after.functions] == ["main"]
    assert not any(isinstance(i, Call) for i in walk_instrs(after.main.body))
    assert len(after.main.locals) == 2          # one copy of square's tmp per inlined call
    inputs = programs.random_inputs(np.random.default_rng(0))
    front = {"load_front_face": (np.arange(16) % 3 == 0)[None]}
    assert_same_outputs(before, after, inputs=inputs, sysvals=front)


def test_inline_text():
    CASE(inline_functions, """
        shader fragment
        function f(32x1) -> 32x1 {
          block b0:
            32x1 %p = intrinsic load_param () (param_idx=0)
            32x1 %r = fadd %p, %p
            intrinsic return_value (%r) ()
        }
        function main {
          block b0:
            32x1 %z = load_const (0)
            32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
            32x1 %x = mov %i.x
            32x1 %y = call f(%x)
            intrinsic store_output (%y, %z) (base=0, slot=VAR0, write_mask=x)
        }
    """, """
        shader fragment
        function main {
          block b0:
            32x1 %z = load_const (0)
            32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
            32x1 %x = mov %i.x
            32x1 %r = fadd %x, %x
            intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=x)
        }
    """)


def test_recursion_is_an_error():
    s = parse_shader("""
        shader fragment
        function f(32x1) -> 32x1 {
          block b0:
            32x1 %p = intrinsic load_param () (param_idx=0)
            32x1 %r = call f(%p)
            intrinsic return_value (%r) ()
        }
        function main {
          block b0:
            32x1 %z = load_const (0)
            32x1 %y = call f(%z)
        }
    """)
    with pytest.raises(ValueError, match="recursive"):
        inline_functions(s)


def test_optimize_reduces_loop_program_to_straight_line():
    before = programs.sum_of_positive()
    after = programs.sum_of_positive()
    rounds = optimize(after)
    assert rounds < 32
    assert not any(isinstance(n, (If, Loop)) for n in walk_cf(after.main.body))
    assert after.main.locals == []
    for seed in range(4):
        assert_same_outputs(before, after, inputs=programs.random_inputs(np.random.default_rng(seed)))
    # Idempotent: a second run changes nothing.
    text = print_shader(after)
    optimize(after)
    assert print_shader(after) == text


@pytest.mark.parametrize("scalarize", [False, True])
def test_preprocess_keeps_meaning(scalarize):
    for make in (programs.indirect_array, programs.sum_of_positive):
        before, after = make(), make()
        preprocess(after, scalarize=scalarize)
        assert after.main.locals == []
        for seed in range(2):
            assert_same_outputs(before, after, inputs=programs.random_inputs(np.random.default_rng(seed)))
