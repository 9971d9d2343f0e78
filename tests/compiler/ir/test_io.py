"""Lowering interface variables to I/O intrinsics (std140/std430 layouts)."""

import numpy as np
import pytest

from compiler.ir.core import Deref, Intrinsic, Variable, walk_instrs
from compiler.ir.interp import Interpreter
from compiler.ir.passes import run_pass
from compiler.ir.passes.io import lower_io, member_offset_B, type_layout
from compiler.ir.types import ArrayType, StructType, VecType, parse_type

from . import programs
from .irtest import CASE


@pytest.mark.parametrize("text,packing,size,align", [
    ("f32", "std430", 4, 4), ("f32x3", "std430", 12, 16), ("f32x2[3]", "std430", 24, 8),
    ("f32x2[3]", "std140", 48, 16), ("f32[4]", "std140", 64, 16), ("{f32x3 a; f32 b}", "std430", 16, 16),
    ("{f32 a; f32x2 b}", "std140", 16, 16), ("f64x3", "std430", 24, 32), ("b1x2", "std430", 8, 8),
])
def test_layout_rules(text, packing, size, align):
    assert type_layout(parse_type(text), packing) == (size, align)


def test_member_offsets():
    t = parse_type("{f32 a; f32x3 b; f32 c; f32[2] d}")
    assert [member_offset_B(t, i, "std430") for i in range(4)] == [0, 16, 28, 32]
    assert [member_offset_B(t, i, "std140") for i in range(4)] == [0, 16, 28, 32]
    assert type_layout(t, "std140") == (64, 16)


def test_input_and_output_text():
    CASE(lower_io, """
        shader fragment
        var shader_in f32x4 color (location=3, slot=VAR3, interp=flat)
        var shader_out f32x4[2] result (location=0, slot=FRAG_RESULT_DATA0)
        function main {
          block b0:
            32x1 %d = deref_var color
            32x4 %c = intrinsic load_deref (%d) ()
            32x1 %o = deref_var result
            32x1 %one = load_const (1)
            32x1 %e = deref_array %o[%one]
            intrinsic store_deref (%e, %c) (write_mask=xyzw)
        }
    """, """
        shader fragment
        var shader_in f32x4 color (location=3, slot=VAR3, interp=flat, driver_location=3)
        var shader_out f32x4[2] result (location=0, slot=FRAG_RESULT_DATA0, driver_location=0)
        function main {
          block b0:
            32x1 %z = load_const (0)
            32x4 %c = intrinsic load_input (%z) (base=3, component=0, slot=VAR3, interp=flat)
            32x1 %one = load_const (1)
            32x1 %off = load_const (1)
            intrinsic store_output (%c, %off) (base=0, component=0, slot=FRAG_RESULT_DATA0, write_mask=xyzw)
        }
    """)


def _serialise(t, values, packing, out: bytearray, offset=0):
    """Write the slot values of a variable of type ``t`` at ``offset`` with the layout."""
    if isinstance(t, VecType):
        n = 4 if t.bit_size == 1 else t.bit_size // 8
        for c in range(t.components):
            out[offset + c * n: offset + (c + 1) * n] = int(values.pop(0)).to_bytes(n, "little")
        return
    if isinstance(t, ArrayType):
        size, align = type_layout(t.element, packing)
        stride = -(-size // align) * align
        for i in range(t.length):
            _serialise(t.element, values, packing, out, offset + i * stride)
        return
    for i, (_n, ft) in enumerate(t.fields):
        _serialise(ft, values, packing, out, offset + member_offset_B(t, i, packing))


def test_memory_variables_keep_meaning():
    U = StructType((("a", VecType("float", 32, 3)), ("b", VecType("float", 32)),
                    ("c", ArrayType(VecType("float", 32, 2), 2))))
    BLK = StructType((("scale", VecType("float", 32)), ("m", ArrayType(VecType("float", 32, 4), 2))))
    BUF = StructType((("n", VecType("uint", 32)), ("data", ArrayType(VecType("float", 32, 4), 8))))

    def make():
        s, b = programs.new_shader("fragment")
        color = Variable("color", programs.VEC4, "shader_in", {"slot": "VAR0"})
        out = Variable("out", programs.VEC4, "shader_out", {"slot": "VAR0"})
        u = Variable("u", U, "uniform")
        blk = Variable("blk", BLK, "ubo", {"binding": 1})
        buf = Variable("buf", BUF, "ssbo", {"binding": 0})
        sh = Variable("sh", ArrayType(programs.VEC4, 8), "shared")
        s.variables += [color, out, u, blk, buf, sh]
        c = b.load_var(color)
        idx = b.imin(b.imax(b.f2i32(b.fmul(b.channel(c, 0), 2.0)), 0), 1)
        ua = b.load_deref(b.deref_struct(b.deref_var(u), "a"))
        uc = b.load_deref(b.deref_array(b.deref_struct(b.deref_var(u), "c"), idx))
        scale = b.load_deref(b.deref_struct(b.deref_var(blk), "scale"))
        m = b.load_deref(b.deref_array(b.deref_struct(b.deref_var(blk), "m"), b.isub(1, idx)))
        v = b.fadd(b.fmul(c, scale), b.fadd(b.swizzle(ua, "xyzx"), b.swizzle(uc, "xyxy")))
        v = b.fadd(v, m)
        # One SSBO / shared element per invocation: the interpreter keeps variables per
        # lane before lowering, memory is shared after it.
        lane = b.load_vertex_id()
        slot = b.deref_array(b.deref_struct(b.deref_var(buf), "data"), lane)
        b.store_deref(slot, v)
        b.store_deref(b.deref_array(b.deref_var(sh), lane), v, 0b0101)
        w = b.fadd(b.load_deref(slot), b.load_deref(b.deref_array(b.deref_var(sh), lane)))
        b.store_var(out, w)
        return s

    rng = np.random.default_rng(0)
    lanes = 8
    color = rng.random((4, lanes)).astype(np.float32)
    u_vals = rng.random(8).astype(np.float32).view(np.uint32)
    blk_vals = rng.random(9).astype(np.float32).view(np.uint32)

    before = make()
    it = Interpreter(lanes=lanes, variables={"color": color, "u": u_vals, "blk": blk_vals})
    it.run(before)
    expected = it.var_value("out").astype(np.uint32)

    after = make()
    assert run_pass(after, lower_io)
    assert not any(isinstance(i, Deref) for i in walk_instrs(after.main.body))
    names = {i.name for i in walk_instrs(after.main.body) if isinstance(i, Intrinsic)}
    assert {"load_input", "store_output", "load_uniform", "load_ubo", "store_ssbo", "load_ssbo",
            "store_shared", "load_shared"} <= names
    assert after.info["uniform_size_B"] == 32 and after.info["shared_size_B"] == 128
    uniforms, ubo = bytearray(32), bytearray(type_layout(BLK, "std140")[0])
    _serialise(U, list(u_vals), "std430", uniforms)
    _serialise(BLK, list(blk_vals), "std140", ubo)
    it2 = Interpreter(lanes=lanes, inputs={"VAR0": color}, uniforms=np.frombuffer(bytes(uniforms), np.uint32),
                      ubos={1: np.frombuffer(bytes(ubo), np.uint8).copy()},
                      ssbos={0: np.zeros(type_layout(BUF, "std430")[0], np.uint8)})
    it2.run(after)
    np.testing.assert_array_equal(it2.outputs["VAR0"], expected)


def test_a_ubo_variable_starts_at_its_offset():
    """Default-block uniforms read from UBO 0 each have a variable with ``offset_B``."""
    CASE(lower_io, """
        shader vertex
        var ubo f32x4[4] big (binding=0, packing=std430, offset_B=48)
        function main {
          block b0:
            32x1 %i = load_const (2)
            32x1 %d = deref_var big
            32x1 %e = deref_array %d[%i]
            32x4 %v = intrinsic load_deref (%e) ()
            32x1 %z = load_const (0)
            intrinsic store_output (%v, %z) (base=0, component=0, slot=POS, write_mask=xyzw)
        }
    """, """
        shader vertex
        var ubo f32x4[4] big (binding=0, packing=std430, offset_B=48)
        function main {
          block b0:
            32x1 %i = load_const (2)
            32x1 %b = load_const (0)
            32x1 %o = load_const (80)
            32x4 %v = intrinsic load_ubo (%b, %o) (align=16)
            32x1 %z = load_const (0)
            intrinsic store_output (%v, %z) (base=0, component=0, slot=POS, write_mask=xyzw)
        }
    """)


def test_a_block_array_element_picks_the_buffer():
    """A dynamically indexed array of blocks: the element index is added to the
    first buffer index; the rest of the path is the byte offset."""
    CASE(lower_io, """
        shader compute
        var ssbo {f32 a; f32[4] b}[3] blocks (binding=4, packing=std430, block_array=true)
        function main {
          block b0:
            32x1 %i = intrinsic load_local_invocation_index () ()
            32x1 %d = deref_var blocks
            32x1 %e = deref_array %d[%i]
            32x1 %f = deref_struct %e.1
            32x1 %g = deref_array %f[%i]
            32x1 %v = intrinsic load_deref (%g) ()
            32x1 %a = deref_struct %e.0
            intrinsic store_deref (%a, %v) (write_mask=x)
        }
    """, """
        shader compute
        var ssbo {f32 a; f32[4] b}[3] blocks (binding=4, packing=std430, block_array=true)
        function main {
          block b0:
            32x1 %i = intrinsic load_local_invocation_index () ()
            32x1 %four = load_const (4)
            32x1 %idx = iadd %four, %i
            32x1 %four2 = load_const (4)
            32x1 %dyn = imul %i, %four2
            32x1 %c = load_const (4)
            32x1 %off = iadd %c, %dyn
            32x1 %v = intrinsic load_ssbo (%idx, %off) (align=4)
            32x1 %four3 = load_const (4)
            32x1 %idx2 = iadd %four3, %i
            32x1 %z = load_const (0)
            intrinsic store_ssbo (%v, %idx2, %z) (write_mask=x, align=4)
        }
    """)
