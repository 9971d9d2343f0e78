"""If-flattening and loop unrolling."""

import numpy as np
import pytest

from compiler.ir.core import Block, If, Jump, Loop, walk_cf, walk_instrs
from compiler.ir.parser import parse_shader
from compiler.ir.validate import validate_shader
from compiler.ir.passes import opt_copy_prop, opt_dce, run_pass
from compiler.ir.passes.control import loop_trip_count, opt_loop_unroll, opt_peephole_select
from compiler.ir.passes.vars import lower_vars_to_ssa

from . import programs
from .irtest import CASE, NEGCASE, assert_same_outputs, program

DIAMOND = """
    block b0:
      32x1 %z = load_const (0)
      32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
      32x1 %h = load_const (0.5)
      1x1 %c = flt %i.x, %h
    if %c {{
      block b1:
        {then}
    }} else {{
      block b2:
        {else_}
    }}
    block b3:
      32x4 %p = phi b1: %t, b2: %e
      intrinsic store_output (%p, %z) (base=0, slot=VAR0, write_mask=xyzw)
"""


def test_small_diamond_becomes_bcsel():
    CASE(opt_peephole_select, DIAMOND.format(then="32x4 %t = fadd %i, %i", else_="32x4 %e = fmul %i, %i"), """
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %h = load_const (0.5)
          1x1 %c = flt %i.x, %h
          32x4 %t = fadd %i, %i
          32x4 %e = fmul %i, %i
          32x4 %p = bcsel %c.xxxx, %t, %e
          intrinsic store_output (%p, %z) (base=0, slot=VAR0, write_mask=xyzw)
    """)


def test_side_effects_are_not_flattened():
    NEGCASE(opt_peephole_select, DIAMOND.format(
        then="32x4 %t = fadd %i, %i\n        intrinsic store_ssbo (%t, %z, %z) (write_mask=xyzw)",
        else_="32x4 %e = fmul %i, %i"))


def test_big_sides_are_not_flattened():
    NEGCASE(opt_peephole_select, DIAMOND.format(then="32x4 %t = fadd %i, %i", else_="32x4 %e = fmul %i, %i"),
            max_instrs=1)


def test_nested_ifs_flatten_bottom_up():
    s = programs.sum_of_positive()
    run_pass(s, lower_vars_to_ssa)
    # Unroll first (the loop has an if inside), then flatten what is left.
    run_pass(s, opt_copy_prop)
    run_pass(s, opt_dce)
    reference = programs.sum_of_positive()
    assert run_pass(s, opt_loop_unroll)
    assert run_pass(s, opt_peephole_select)
    assert not any(isinstance(n, (If, Loop)) for n in walk_cf(s.main.body))
    for seed in range(3):
        assert_same_outputs(reference, s, inputs=programs.random_inputs(np.random.default_rng(seed)))


COUNTED = """
    block b0:
      32x1 %z = load_const (0)
      32x1 %one = load_const (1)
      32x1 %n = load_const ({n})
      32x1 %f0 = load_const (0.0)
    loop {{
      block b1:
        32x1 %i = phi b0: %z, b4: %j
        32x1 %acc = phi b0: %f0, b4: %acc2
        1x1 %c = ige %i, %n
      if %c {{
        block b2:
          break
      }} else {{
        block b3:
      }}
      block b4:
        32x1 %fi = i2f32 %i
        32x1 %acc2 = fadd %acc, %fi
        32x1 %j = iadd %i, %one
    }}
    block b5:
      intrinsic store_output (%acc, %z) (base=0, slot=VAR0, write_mask=x)
"""


@pytest.mark.parametrize("n", [0, 1, 3, 7])
def test_trip_count(n):
    s = parse_shader(program(COUNTED.format(n=n)))
    loop = next(x for x in walk_cf(s.main.body) if isinstance(x, Loop))
    assert loop_trip_count(s.main, loop) == n


def test_unknown_trip_count_is_not_unrolled():
    text = COUNTED.format(n=3).replace("32x1 %n = load_const (3)",
                                       "32x4 %in = intrinsic load_input (%z) (base=0, slot=VAR0)\n"
                                       "      32x1 %n = f2i32 %in.x")
    NEGCASE(opt_loop_unroll, text)


def test_unroll_two_iterations_text():
    CASE(opt_loop_unroll, COUNTED.format(n=2), """
        block b0:
          32x1 %z = load_const (0)
          32x1 %one = load_const (1)
          32x1 %n = load_const (2)
          32x1 %f0 = load_const (0.0)
          1x1 %c0 = ige %z, %n
          32x1 %fi0 = i2f32 %z
          32x1 %a1 = fadd %f0, %fi0
          32x1 %j0 = iadd %z, %one
          1x1 %c1 = ige %j0, %n
          32x1 %fi1 = i2f32 %j0
          32x1 %a2 = fadd %a1, %fi1
          32x1 %j1 = iadd %j0, %one
          1x1 %c2 = ige %j1, %n
          intrinsic store_output (%a2, %z) (base=0, slot=VAR0, write_mask=x)
    """)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_unrolled_loop_keeps_meaning(n):
    before = parse_shader(program(COUNTED.format(n=n)))
    after = parse_shader(program(COUNTED.format(n=n)))
    assert run_pass(after, opt_loop_unroll)
    assert not any(isinstance(x, Loop) for x in walk_cf(after.main.body))
    assert_same_outputs(before, after)


def test_too_long_loops_stay():
    NEGCASE(opt_loop_unroll, COUNTED.format(n=100))


DO_WHILE = """
    block b0:
      32x1 %z = load_const (0)
      32x1 %one = load_const (1)
      32x1 %n = load_const ({n})
      32x4 %in = intrinsic load_input (%z) (base=0, slot=VAR0)
    loop {{
      block b1:
        32x1 %i = phi b0: %z, b7: %j
        32x4 %acc = phi b0: %in, b7: %acc3
        32x1 %fi = i2f32 %i
        1x1 %big = flt %in.x, %fi
      if %big {{
        block b2:
          32x4 %acc1 = fmul %acc, %acc
      }} else {{
        block b3:
          32x4 %acc2 = fadd %acc, %fi.xxxx
      }}
      block b4:
        32x4 %acc3 = phi b2: %acc1, b3: %acc2
        32x1 %j = iadd %i, %one
        1x1 %more = ilt %j, %n
      if %more {{
        block b5:
      }} else {{
        block b6:
          break
      }}
      block b7:
    }}
    block b8:
      intrinsic store_output (%acc3, %z) (base=0, slot=VAR0, write_mask=xyzw)
"""


@pytest.mark.parametrize("n", [1, 2, 4])
def test_do_while_loop_unrolls_and_keeps_meaning(n):
    text = program(DO_WHILE.format(n=n))
    before, after = parse_shader(text), parse_shader(text)
    validate_shader(before)
    loop = next(x for x in walk_cf(after.main.body) if isinstance(x, Loop))
    assert loop_trip_count(after.main, loop) == n - 1
    assert run_pass(after, opt_loop_unroll)
    assert not any(isinstance(x, Loop) for x in walk_cf(after.main.body))
    assert sum(isinstance(x, If) for x in walk_cf(after.main.body)) == n
    for seed in range(3):
        assert_same_outputs(before, after, inputs=programs.random_inputs(np.random.default_rng(seed)))


def test_once_loop_from_early_returns_is_removed():
    from compiler.ir.passes.control import opt_remove_once_loops
    before, after = programs.early_return(), programs.early_return()
    assert run_pass(after, opt_remove_once_loops)
    assert not any(isinstance(x, Loop) for x in walk_cf(after.main.body))
    for seed in range(3):
        assert_same_outputs(before, after, inputs=programs.random_inputs(np.random.default_rng(seed)))


def test_once_loop_text():
    from compiler.ir.passes.control import opt_remove_once_loops
    CASE(opt_remove_once_loops, """
        block b0:
          32x1 %z = load_const (0)
          1x1 %c = intrinsic load_front_face () ()
        loop {
          block b1:
          if %c {
            block b2:
              intrinsic store_output (%z, %z) (base=0, slot=VAR0, write_mask=x)
              break
          } else {
            block b3:
          }
          block b4:
            32x1 %one = load_const (1)
            intrinsic store_output (%one, %z) (base=0, slot=VAR0, write_mask=x)
            break
        }
        block b5:
    """, """
        block b0:
          32x1 %z = load_const (0)
          1x1 %c = intrinsic load_front_face () ()
        if %c {
          block b2:
            intrinsic store_output (%z, %z) (base=0, slot=VAR0, write_mask=x)
        } else {
          block b3:
            32x1 %one = load_const (1)
            intrinsic store_output (%one, %z) (base=0, slot=VAR0, write_mask=x)
        }
        block b4:
    """)


def test_real_loops_are_not_once_loops():
    from compiler.ir.passes.control import opt_remove_once_loops
    NEGCASE(opt_remove_once_loops, COUNTED.format(n=3))


def test_continue_removed_then_loop_unrolls():
    from compiler.ir.builder import Builder
    from compiler.ir.passes import optimize
    from compiler.ir.passes.control import opt_remove_continues

    def make():
        s, b = programs.new_shader()
        x = programs.load_in(b)
        acc = b.local_var("acc", programs.VEC4)
        i = b.local_var("i", programs.I32)
        b.store_var(acc, x)
        b.store_var(i, b.iimm(0))
        loop = b.push_loop()
        nif = b.push_if(b.ilt(b.load_var(i), 4))
        b.push_else(nif)
        b.break_()
        b.pop_if(nif)
        skip = b.push_if(b.flt(b.channel(b.load_var(acc), 0), b.i2f32(b.load_var(i))))
        b.store_var(i, b.iadd(b.load_var(i), 1))          # the step, then continue
        b.continue_()
        b.pop_if(skip)
        b.store_var(acc, b.fadd(b.load_var(acc), 0.75))
        b.store_var(i, b.iadd(b.load_var(i), 1))
        b.pop_loop(loop)
        programs.store_out(b, b.load_var(acc))
        return s

    before, after = make(), make()
    assert run_pass(after, opt_remove_continues)
    assert not any(isinstance(i, Jump) and i.kind == "continue" for i in walk_instrs(after.main.body))
    optimize(after)
    assert not any(isinstance(x, Loop) for x in walk_cf(after.main.body))
    for seed in range(3):
        assert_same_outputs(before, after, inputs=programs.random_inputs(np.random.default_rng(seed)))


def test_unroll_maps_inner_loop_values_used_after_the_outer_loop():
    # Found by the random-program test: the outer loop runs 0 complete iterations and
    # contains an inner loop that cannot be unrolled; a value of the inner loop's
    # header is used after both loops.
    text = program("""
        block b0:
          32x1 %z = load_const (0)
          32x4 %in = intrinsic load_input (%z) (base=0, slot=VAR0)
        loop {
          block b1:
            32x1 %i = phi b0: %z, b9: %i1
            1x1 %c = flt %in.x, %in.y
          loop {
            block b2:
              32x1 %j = phi b1: %z, b5: %j1
              32x4 %v = phi b1: %in, b5: %v1
              32x1 %one = load_const (1)
              1x1 %more = ilt %j, %one
            if %more {
              block b3:
                32x1 %k = iadd %j, %one
                32x1 %j1 = bcsel %c, %k, %k
                32x4 %v1 = bcsel %c.xxxx, %in, %v
            } else {
              block b4:
                break
            }
            block b5:
          }
          block b6:
            32x1 %i1 = iadd %i, %one
            1x1 %again = ilt %i1, %z
          if %again {
            block b7:
          } else {
            block b8:
              break
          }
          block b9:
        }
        block b10:
          32x4 %r = fadd %v, %in
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=xyzw)
    """)
    before, after = parse_shader(text), parse_shader(text)
    validate_shader(before)
    assert run_pass(after, opt_loop_unroll)
    assert_same_outputs(before, after, inputs=programs.random_inputs(np.random.default_rng(0)))


def test_trip_count_through_a_chain_deeper_than_the_recursion_limit():
    # The random programs of tests/compiler/backend hit a RecursionError here: the
    # induction value reached the exit test through a long chain of ALU ops.
    import sys
    depth = sys.getrecursionlimit() + 500
    chain = "\n        ".join(["32x1 %k0 = iadd %i, %one"] +
                              [f"32x1 %k{k} = iadd %k{k - 1}, %z" for k in range(1, depth)] +
                              [f"32x1 %j = mov %k{depth - 1}"])
    text = COUNTED.format(n=5).replace("32x1 %j = iadd %i, %one", chain)
    s = parse_shader(program(text))
    loop = next(x for x in walk_cf(s.main.body) if isinstance(x, Loop))
    assert loop_trip_count(s.main, loop) == 5


def test_trip_count_evaluation_stops_on_a_value_that_depends_on_itself():
    # In code no path reaches, copy propagation can fold a loop phi into its own
    # increment (%j = iadd %j, 1): evaluating it must give "unknown", not recurse
    # (or loop) forever. Such cycles cannot be parsed, so they are made by hand.
    from compiler.ir.core import AluSrc
    from compiler.ir.passes.control import _eval_const
    s = parse_shader(program("""
        block b0:
          32x1 %one = load_const (1)
          32x1 %a = iadd %one, %one
          32x1 %b = iadd %a, %one
          32x1 %j = iadd %one, %one
    """))
    one, a, b, j = [i for i in walk_instrs(s.main.body)]
    a.srcs[0] = AluSrc(b.dest, (0,))          # %a = iadd %b, 1; %b = iadd %a, 1
    j.srcs[0] = AluSrc(j.dest, (0,))          # %j = iadd %j, 1
    for instr in (a, b, j):
        assert _eval_const(instr.dest, {}, {}) is None
    assert _eval_const(one.dest, {}, {}) == (1,)
