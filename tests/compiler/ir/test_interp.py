"""The interpreter: divergent control flow, phis, memory, system values."""

import numpy as np

from compiler.ir.interp import run_function
from compiler.ir.parser import parse_shader
from compiler.ir.validate import validate_shader

from . import programs
from .irtest import program


def f32(a):
    return np.asarray(a, np.float32).view(np.uint32)


def test_divergent_loop_with_break_and_continue():
    # n = lane; i counts to n, skipping odd i in the sum via continue.
    s = parse_shader(program("""
        block b0:
          32x1 %lane = intrinsic load_vertex_id () ()
          32x1 %z = load_const (0)
          32x1 %one = load_const (1)
        loop {
          block b1:
            32x1 %i = phi b0: %z, b4: %i1, b7: %i1
            32x1 %sum = phi b0: %z, b4: %sum, b7: %s1
            1x1 %done = ige %i, %lane
          if %done {
            block b2:
              break
          } else {
            block b3:
              32x1 %i1 = iadd %i, %one
              32x1 %odd = iand %i, %one
              1x1 %isodd = ine %odd, %z
            if %isodd {
              block b4:
                continue
            } else {
              block b5:
                32x1 %s1 = iadd %sum, %i
            }
            block b6:
          }
          block b7:
        }
        block b8:
          intrinsic store_output (%sum, %z) (base=0, slot=VAR0, write_mask=x)
    """))
    validate_shader(s)
    it, _ = run_function(s, lanes=8)
    expected = [sum(i for i in range(n) if i % 2 == 0) for n in range(8)]
    assert list(it.outputs["VAR0"][0]) == expected


def test_discard_stops_lanes():
    s = parse_shader(program("""
        block b0:
          32x1 %lane = intrinsic load_vertex_id () ()
          32x1 %z = load_const (0)
          32x1 %three = load_const (3)
          1x1 %c = ilt %lane, %three
          intrinsic discard_if (%c) ()
          intrinsic store_output (%lane, %z) (base=0, slot=VAR0, write_mask=x)
    """))
    it, _ = run_function(s, lanes=6)
    assert list(it.outputs["VAR0"][0]) == [0, 0, 0, 3, 4, 5]
    assert list(it.alive) == [False] * 3 + [True] * 3


def test_derivatives_over_quads():
    s = parse_shader(program("""
        block b0:
          32x1 %z = load_const (0)
          32x4 %fc = intrinsic load_frag_coord () ()
          32x1 %x2 = fmul %fc.x, %fc.x
          32x1 %dx = fddx %x2
          32x1 %dy = fddy %fc.y
          32x2 %r = vec2 %dx, %dy
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=xy)
    """))
    it, _ = run_function(s, lanes=8)
    out = it.outputs["VAR0"].view(np.float32)
    assert list(out[0]) == [2.0] * 4 + [6.0] * 4          # (1.5^2 - 0.5^2), (3.5^2 - 2.5^2)
    assert list(out[1]) == [1.0] * 8


def test_memory_and_atomics():
    s = parse_shader(program("""
        block b0:
          32x1 %lane = intrinsic load_vertex_id () ()
          32x1 %z = load_const (0)
          32x1 %four = load_const (4)
          32x1 %one = load_const (1)
          32x1 %off = imul %lane, %four
          32x1 %u = intrinsic load_uniform (%z) (base=4, range=8)
          32x1 %v = intrinsic load_ubo (%z, %off) (align=4)
          32x1 %w = iadd %u, %v
          intrinsic store_ssbo (%w, %z, %off) (write_mask=x)
          32x1 %old = intrinsic ssbo_atomic (%one, %z, %one) (atomic_op=add)
          intrinsic store_shared (%lane, %off) (base=0, write_mask=x)
          intrinsic barrier () (execution_scope=2, memory_scope=2)
          32x1 %n = intrinsic load_shared (%z) (base=4)
          intrinsic store_scratch (%w, %z) (base=8, write_mask=x)
          32x1 %sc = intrinsic load_scratch (%z) (base=8)
          32x3 %r = vec3 %old, %n, %sc
          intrinsic store_output (%r, %z) (base=0, slot=VAR0, write_mask=xyz)
    """, stage="compute"))
    ubo = np.arange(4, dtype=np.uint32) * 10
    ssbo0 = np.zeros(16, np.uint8)
    ssbo1 = np.zeros(4, np.uint8)
    it, _ = run_function(s, lanes=4, uniforms=np.array([0, 5], np.uint32), ubos={0: ubo.view(np.uint8)},
                         ssbos={0: ssbo0, 1: ssbo1})
    assert list(ssbo0.view(np.uint32)) == [5, 15, 25, 35]
    assert ssbo1.view(np.uint32)[0] == 4
    assert list(it.outputs["VAR0"][0]) == [0, 1, 2, 3]        # atomics return the old value, lane order
    assert list(it.outputs["VAR0"][1]) == [1] * 4
    assert list(it.outputs["VAR0"][2]) == [5, 15, 25, 35]


def test_texture_callback_and_variables():
    s, b = programs.new_shader()
    uv = b.swizzle(programs.load_in(b), "xy")
    t = b.tex("txl", coord=uv, lod=b.fimm(0.0), texture=2, sampler=2)
    programs.store_out(b, t)
    seen = {}

    def sample(instr, srcs):
        seen["tex"] = (instr.op, instr.texture, sorted(srcs))
        c = srcs["coord"].view(np.float32)
        return f32(np.stack([c[0] * 2, c[1] * 2, c[0] * 0, c[0] * 0 + 1]))

    inp = np.random.default_rng(0).random((4, 4)).astype(np.float32)
    it, _ = run_function(s, lanes=4, inputs={"VAR0": inp}, sample=sample)
    assert seen["tex"] == ("txl", 2, ["coord", "lod"])
    np.testing.assert_array_equal(it.outputs["VAR0"].view(np.float32)[:2], inp[:2] * 2)
