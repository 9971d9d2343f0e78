"""Types, the op table, the builder, the printer/parser round trip, the validator."""

import numpy as np
import pytest

from compiler.ir.builder import Builder, bits_to_number, const_bits
from compiler.ir.core import Function, Phi, Shader, clone_shader, compute_cfg, walk_blocks
from compiler.ir.intrinsics import INTRINSICS
from compiler.ir.opcodes import OPS, evaluate_op
from compiler.ir.parser import IRParseError, parse_shader
from compiler.ir.printer import format_const, print_shader
from compiler.ir.types import ArrayType, StructType, VecType, parse_type
from compiler.ir.validate import ValidationError, validate_shader

from . import programs
from .irtest import program


# ---------------------------------------------------------------- types

@pytest.mark.parametrize("text", ["f32", "i16x2", "u64x4", "b1x3", "f32x4[8]", "f16[2][3]",
                                  "{f32x4 pos; f32[2] w}", "{i32 a; {b1 x} s}[4]"])
def test_type_round_trip(text):
    assert str(parse_type(text)) == text


def test_type_rules():
    with pytest.raises(AssertionError):
        VecType("bool", 32)
    with pytest.raises(AssertionError):
        VecType("float", 32, 5)
    s = StructType((("a", VecType("float", 32, 3)), ("b", ArrayType(VecType("int", 32), 2))))
    assert s.field_index("b") == 1 and s.size_slots == 5


# ---------------------------------------------------------------- op table

def _eval(op, *vals, bits=32, types=None):
    info = OPS[op]
    arrays = []
    for v, t in zip(vals, types or ["float"] * len(vals)):
        arrays.append(np.array([const_bits(x, t, bits) for x in np.atleast_1d(v)], np.uint64).astype(
            {32: np.uint32, 64: np.uint64, 16: np.uint16}[bits]))
    out = evaluate_op(info, arrays, [bits] * len(vals), bits if info.output_type[-1].isalpha() else
                      int("".join(c for c in info.output_type if c.isdigit())))
    return out


@pytest.mark.parametrize("a,b,q,r,m", [(7, 2, 3, 1, 1), (-7, 2, -3, -1, 1), (7, -2, -3, 1, -1),
                                       (-7, -2, 3, -1, -1), (5, 0, 0, 0, 0)])
def test_integer_division_semantics(a, b, q, r, m):
    t = ["int", "int"]
    assert bits_to_number(int(_eval("idiv", a, b, types=t)[0]), "int", 32) == q
    assert bits_to_number(int(_eval("irem", a, b, types=t)[0]), "int", 32) == r
    assert bits_to_number(int(_eval("imod", a, b, types=t)[0]), "int", 32) == m


def test_bit_ops():
    t = ["int"]
    assert int(_eval("bit_count", 0xF0F0, types=t)[0]) == 8
    assert bits_to_number(int(_eval("ufind_msb", 0, types=t)[0]), "int", 32) == -1
    assert int(_eval("ufind_msb", 0x80, types=t)[0]) == 7
    assert int(_eval("ifind_msb", -1, types=t)[0]) == 0xFFFFFFFF
    assert int(_eval("ifind_msb", -2, types=t)[0]) == 0
    assert int(_eval("find_lsb", 0x50, types=t)[0]) == 4
    assert int(_eval("bitfield_reverse", 1, types=t)[0]) == 0x80000000
    assert int(_eval("ishl", 1, 33, types=["int", "uint"])[0]) == 2           # shift count mod 32
    assert int(_eval("ishr", -8, 1, types=["int", "uint"])[0]) == const_bits(-4, "int", 32)
    assert int(_eval("ushr", -8, 1, types=["int", "uint"])[0]) == 0x7FFFFFFC
    assert int(_eval("ubitfield_extract", 0xABCD, 4, 8, types=["int"] * 3)[0]) == 0xBC
    assert int(_eval("ibitfield_extract", 0xF0, 4, 4, types=["int"] * 3)[0]) == 0xFFFFFFFF
    assert int(_eval("bitfield_insert", 0xFFFF, 0, 4, 8, types=["int"] * 4)[0]) == 0xF00F


def test_float_ops_and_conversions():
    assert bits_to_number(int(_eval("fsat", 1.5)[0]), "float", 32) == 1.0
    assert bits_to_number(int(_eval("fsat", float("nan"))[0]), "float", 32) == 0.0
    assert bits_to_number(int(_eval("fmod", -1.0, 3.0)[0]), "float", 32) == 2.0
    assert bits_to_number(int(_eval("f2i32", -2.75)[0]), "int", 32) == -2
    assert int(_eval("f2u32", 3.9)[0]) == 3
    h = _eval("pack_half_2x16", [1.0, -2.0])
    assert int(h[0]) == 0xC0003C00
    assert list(_eval("unpack_half_2x16", int(h[0]), types=["uint"]).view(np.float32)) == [1.0, -2.0]


def test_every_op_has_consistent_entry():
    for name, info in OPS.items():
        assert len(info.input_sizes) == info.num_inputs, name
        if info.output_size:
            assert not info.is_per_component
    assert {"fadd", "bcsel", "vec4", "fdot3", "f2i32", "i2f32", "b2f32", "f2b1", "ffma"} <= OPS.keys()


def test_builder_has_a_method_per_op_and_intrinsic():
    _s, b = programs.new_shader()
    for name in list(OPS) + list(INTRINSICS):
        assert callable(getattr(b, name)), name


# ---------------------------------------------------------------- builder

def test_builder_broadcasts_scalars_and_numbers():
    s, b = programs.new_shader()
    x = programs.load_in(b)
    y = b.fmul(x, 2.0)
    assert y.num_components == 4 and y.parent.srcs[1].swizzle == (0, 0, 0, 0)
    h = b.fadd(b.imm([1.0, 2.0], bit_size=16), 1.0)
    assert h.bit_size == 16 and h.parent.srcs[1].def_.bit_size == 16
    c = b.flt(x, 0.5)
    assert (c.bit_size, c.num_components) == (1, 4)
    assert b.fdot3(x, x).num_components == 1
    with pytest.raises(ValueError):
        b.fadd(b.imm([1.0, 2.0]), b.imm([1.0, 2.0, 3.0]))
    validate_shader(s)


def test_builder_refuses_code_after_a_jump():
    s, b = programs.new_shader()
    loop = b.push_loop()
    b.break_()
    with pytest.raises(AssertionError):
        b.fimm(1.0)
    b.pop_loop(loop)
    b.fimm(1.0)
    validate_shader(s)


def test_builder_if_in_the_middle_of_a_block_splits_it():
    s, b = programs.new_shader()
    x = programs.load_in(b)
    y = b.fadd(x, x)
    programs.store_out(b, y)
    b.after(y.parent)
    nif = b.push_if(b.flt(b.channel(x, 0), 0.0))
    b.discard()
    b.pop_if(nif)
    validate_shader(s)
    blocks = list(walk_blocks(s.main.body))
    assert len(blocks) == 4 and blocks[-1].instrs[-1].name == "store_output"


# ---------------------------------------------------------------- printer / parser

def test_round_trip_of_built_programs():
    for make in (programs.sum_of_positive, programs.indirect_array):
        s = make()
        text = print_shader(s)
        assert print_shader(parse_shader(text)) == text
        assert print_shader(clone_shader(s)) == text


@pytest.mark.parametrize("bits,size,text", [
    (0x3F800000, 32, "1.0"), (0, 32, "0"), (0xFFFFFFFF, 32, "-1"), (0x7FC00000, 32, "0x7fc00000"),
    (0x3C00, 16, "15360"), (1, 1, "true"), (0x3FB99999A0000000, 64, "0.10000000149011612"),
])
def test_const_format(bits, size, text):
    assert format_const(bits, size) == text


def test_const_round_trip_for_random_bits():
    rng = np.random.default_rng(5)
    for size in (16, 32, 64):
        for v in rng.integers(0, 1 << min(size, 63), 200):
            t = program(f"block b0:\n  {size}x1 %a = load_const ({format_const(int(v), size)})")
            assert parse_shader(t).main.body[0].instrs[0].values[0] == int(v)


@pytest.mark.parametrize("text,msg", [
    ("block b0:\n  32x1 %a = fadd %b, %b", "before its definition"),
    ("block b0:\n  32x1 %a = load_const (1)\n  32x1 %a = load_const (2)", "defined twice"),
    ("block b0:\n  32x2 %a = load_const (1)", "declared 32x2"),
    ("block b0:\n  32x1 %a = frobnicate %a", "unknown instruction"),
    ("block b0:\n  32x1 %a = load_const (1)\n  32x1 %b = fadd %a.xy, %a", "does not give 1"),
    ("block b0:\n  32x1 %a = deref_var nowhere", "unknown variable"),
])
def test_parse_errors(text, msg):
    with pytest.raises(IRParseError, match=msg):
        parse_shader(program(text))


# ---------------------------------------------------------------- validator

@pytest.mark.parametrize("text,msg", [
    ("block b0:\n  32x1 %a = load_const (1)\n  16x1 %b = fadd %a, %a", "bit size"),
    ("block b0:\n  32x1 %a = load_const (1)\n  32x1 %b = bcsel %a, %a, %a", "must be 1-bit"),
    ("block b0:\n  break", "outside a loop"),
    ("block b0:\n  32x1 %a = load_const (1)\nif %a {\n block b1:\n} else {\n block b2:\n}\nblock b3:",
     "1-bit scalar"),
    ("block b0:\n  1x1 %c = load_const (true)\nif %c {\n block b1:\n  32x1 %a = load_const (1)\n"
     "} else {\n block b2:\n}\nblock b3:\n  32x1 %b = fadd %a, %a", "does not dominate"),
    ("block b0:\n  1x1 %c = load_const (true)\nif %c {\n block b1:\n  32x1 %a = load_const (1)\n"
     "} else {\n block b2:\n}\nblock b3:\n  32x1 %p = phi b1: %a", "predecessors"),
    ("block b0:\n  32x1 %p = phi b0: %p\n", "predecessors"),
    ("block b0:\nblock b1:", "alternate"),
    ("block b0:\n  32x1 %a = intrinsic load_input () (base=0)", "expects 1 sources"),
    ("block b0:\n  32x4 %a = intrinsic load_frag_coord () ()\n  32x1 %b = fadd %a.x, %a.y\n"
     "  intrinsic store_output (%b) ()", "expects 2 sources"),
])
def test_validator_catches(text, msg):
    with pytest.raises(ValidationError, match=msg):
        validate_shader(parse_shader(program(text)))


def test_loop_phi_back_edge_validates_and_cfg_is_right():
    s = parse_shader(program("""
        block b0:
          32x1 %z = load_const (0)
          32x1 %u = undef
        loop {
          block b1:
            32x1 %i = phi b0: %z, b3: %j, b4: %u
            32x1 %j = iadd %i, %i
            1x1 %c = ieq %j, %z
          if %c {
            block b2:
              break
          } else {
            block b3:
              continue
          }
          block b4:
        }
        block b5:
    """))
    validate_shader(s)
    blocks = list(walk_blocks(s.main.body))
    cfg = compute_cfg(s.main.body)
    b0, b1, b2, b3, b4, b5 = blocks
    assert cfg.succs[b2] == [b5] and cfg.succs[b3] == [b1] and cfg.preds[b1] == [b0, b3, b4]
    assert cfg.preds[b4] == []      # unreachable, yet still the structural back edge


EVERYTHING = """
shader fragment
var shader_in f32x4 color (location=0, slot=VAR0, interp=noperspective)
var uniform {f32x4[2] m; i32 n} u
var ssbo {u32 count; f32x4[8] data} buf (binding=2, packing=std430)

function helper(32x4, 1x1) -> 32x4 {
  var function_temp {f32x4 v; b1 flag}[2] tmp
  block b0:
    32x4 %p = intrinsic load_param () (param_idx=0)
    1x1 %f = intrinsic load_param () (param_idx=1)
    32x1 %d = deref_var tmp
    32x1 %one = load_const (1)
    32x1 %e = deref_array %d[%one]
    32x1 %g = deref_struct %e.v
    intrinsic store_deref (%g, %p) (write_mask=xw)
    32x4 %l = intrinsic load_deref (%g) ()
    32x4 %r = bcsel %f.xxxx, %l, %p
    intrinsic return_value (%r) ()
}

function main {
  block b0:
    32x1 %z = load_const (0)
    32x4 %c = intrinsic load_input (%z) (base=0, component=0, slot=VAR0, interp=noperspective)
    16x2 %h = load_const (1.5, -0.25)
    64x1 %big = load_const (0x123456789abcdef)
    8x1 %byte = load_const (200)
    32x3 %cube = mov %c.xyz
    32x1 %lod = mov %c.w
    32x4 %t0 = tex tex (coord=%cube) (texture=1, sampler=1, dim=cube)
    32x4 %t1 = tex txb (coord=%cube, bias=%lod) (texture=1, sampler=1, dim=cube)
    32x2 %uv = mov %c.xy
    32x3 %uva = mov %c.xyz
    32x1 %t2 = tex txl (coord=%uva, lod=%lod, comparator=%lod) (texture=0, sampler=3, dim=2d, array, shadow)
    32x4 %t3 = tex txd (coord=%uv, ddx=%uv, ddy=%uv) (texture=0, sampler=0, dim=2d)
    32x2 %iuv = f2i32 %uv
    32x4 %t4 = tex txf (coord=%iuv, lod=%z, offset=%iuv) (texture=2, sampler=0, dim=2d, dest_type=uint)
    32x2 %t5 = tex txs (lod=%z) (texture=2, sampler=0, dim=2d, dest_type=int)
    32x1 %t6 = tex query_levels () (texture=2, sampler=0, dim=2d, dest_type=int)
    32x4 %t7 = tex tg4 (coord=%uv) (texture=2, sampler=2, dim=2d, component=3)
    1x1 %ff = intrinsic load_front_face () ()
    32x4 %call = call helper(%t0, %ff)
    32x1 %old = intrinsic ssbo_atomic_swap (%z, %z, %z, %z) (atomic_op=cmpxchg)
    32x1 %sh = intrinsic shared_atomic (%z, %z) (base=16, atomic_op=umax)
    intrinsic barrier () (execution_scope=2, memory_scope=3)
    32x1 %u = intrinsic load_uniform (%z) (base=0, range=48)
    32x4 %ubo = intrinsic load_ubo (%z, %z) (align=16)
    32x3 %gid = intrinsic load_global_invocation_id () ()
    32x4 %fc = intrinsic load_frag_coord () ()
    1x1 %k = flt %fc.x, %u
    intrinsic discard_if (%k) ()
    32x4 %sum = fadd %call, %t1
    32x4 %ex = exact fmul %sum, %t3
    intrinsic store_output (%ex, %z) (base=0, slot=FRAG_RESULT_DATA0, write_mask=xyzw)
}
"""


def test_every_kind_of_instruction_round_trips_and_validates():
    s = parse_shader(EVERYTHING)
    validate_shader(s)
    text = print_shader(s)
    assert print_shader(parse_shader(text)) == text
    assert print_shader(clone_shader(s)) == text
    assert "exact fmul" in text and "dim=cube" in text and "array, shadow" in text


def test_texture_source_sizes_are_checked():
    bad = EVERYTHING.replace("32x4 %t0 = tex tex (coord=%cube)", "32x4 %t0 = tex tex (coord=%uv)")
    bad = bad.replace("    32x4 %t0", "    32x2 %uv0 = mov %c.xy\n    32x4 %t0").replace("(coord=%uv) (texture=1, sampler=1, dim=cube)", "(coord=%uv0) (texture=1, sampler=1, dim=cube)")
    with pytest.raises(ValidationError, match="coord must have 3 components"):
        validate_shader(parse_shader(bad))
