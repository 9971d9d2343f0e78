"""THE instruction table: one entry per instruction.

Each :class:`Op` gives the opcode, the fields with their bit positions (the
encoding), the operand kinds, how the assembly text reads (field roles), the
compiler's flags (``can_eliminate``, ``can_reorder``, ``schedule_class``,
``is_async``) and what it does: ``unit`` says which part of the shader core runs
it and ``impl`` is the lane-wise numpy function of ``semantics.py``.

Encoding: an instruction is a little-endian bit string; bits 0..7 are the opcode,
every other field sits at its ``start`` bit. The length is the smallest multiple
of 16 bits holding every field (2 to 16 bytes). Bits no field covers must be 0.
At import, every op is checked: no two fields overlap, none overlaps the opcode,
no opcode is used twice, and the assembly suffixes parse unambiguously.

Assembly: ``mnemonic[.suffix...] operand, operand, ...``. Suffix fields (enums,
flags) print in field order after the mnemonic (an enum always, a flag only when
set); operand fields print in field order; a modifier field ``X_abs``/``X_neg``
prints as ``.abs``/``.neg`` after operand ``X``. A field with ``when`` exists
only when its predicate over the suffix values holds (otherwise it encodes 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import semantics as S
from .fields import Cf, Dst, Enum, Flag, Kind, SInt, Src, UInt, Vec

__all__ = ["Field", "Op", "OPS", "BY_NAME", "BY_OPCODE", "SPECIAL_REGS", "TEX_DIMS", "SLOTS", "NUMPY_REFERENCE_OPS"]


@dataclass(frozen=True)
class Field:
    name: str
    start: int
    kind: Kind
    role: str = "op"  # "op" (operand), "suffix" (after the mnemonic), "mod" (modifier of an operand)
    when: Callable[[dict], bool] | None = None

    @property
    def end(self) -> int:
        return self.start + self.kind.bits

    @property
    def mask(self) -> int:
        return ((1 << self.kind.bits) - 1) << self.start


@dataclass(frozen=True)
class Op:
    name: str
    opcode: int
    fields: tuple[Field, ...]
    unit: str                      # which part of the core executes it
    impl: Callable | None = None   # lane-wise semantics (semantics.py)
    types: tuple[str, ...] = ()    # ALU operand types, dst first: 'f' float, 'u'/'s' integer, 'x' raw
    sizes: tuple[int, ...] = (16, 32)  # destination sizes the op is defined for
    can_eliminate: bool = True     # no side effect: dead if its result is unused
    can_reorder: bool = True       # may move across other instructions (no memory/exec dependence)
    schedule_class: str = "alu"    # alu, load, store, atomic, texture, varying, coverage, barrier, cf
    is_async: bool = False         # result arrives later: reads need a `wait` on its scoreboard slot
    doc: str = ""
    native: str | None = None      # its lane-wise C form for native code (native.py: sem_<native>, or a
    #                                form the code generator writes); None: run by the numpy step
    length_B: int = field(init=False, default=0)

    def __post_init__(self):
        end = max([8] + [f.end for f in self.fields])
        object.__setattr__(self, "length_B", (end + 15) // 16 * 2)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


# ---------------------------------------------------------------------------
# Shared enums

SPECIAL_REGS = (
    "thread_position_in_grid.x", "thread_position_in_grid.y", "thread_position_in_grid.z",
    "thread_position_in_threadgroup.x", "thread_position_in_threadgroup.y", "thread_position_in_threadgroup.z",
    "threadgroup_position_in_grid.x", "threadgroup_position_in_grid.y", "threadgroup_position_in_grid.z",
    "threads_per_threadgroup.x", "threads_per_threadgroup.y", "threads_per_threadgroup.z",
    "threadgroups_per_grid.x", "threadgroups_per_grid.y", "threadgroups_per_grid.z",
    "thread_index_in_threadgroup", "vertex_id", "instance_id", "front_facing", "sample_id",
    "coverage_mask", "pixel_x", "pixel_y", "helper_invocation", "primitive_id", "lane_id",
    # the lane's sample position inside its pixel (float32 bits; 0.5 without multisampling)
    "sample_position_x", "sample_position_y",
    # the ISP's depth (float32 bits) and stencil of the lane's sample as the fragment reaches
    # the shader (ARM_shader_framebuffer_fetch_depth_stencil; USC_FRAGMENT late tests)
    "zs_depth", "zs_stencil",
)
TEX_DIMS = ("1d", "2d", "3d", "cube", "1d_array", "2d_array", "cube_array", "2d_ms")
SLOTS = 4
ICMP = Enum(4, S.ICMP)
FCMP = Enum(4, S.FCMP)
FMT = Enum(4, S.MEM_FORMATS)
ATOM = Enum(4, S.ATOMIC_OPS)
SLOT = UInt(2)


# ---------------------------------------------------------------------------
# Field layouts shared by families (bit positions written once, here)

def _falu(nsrc: int) -> tuple[Field, ...]:
    fs = [Field("dst", 8, Dst()), Field("sat", 18, Flag(), "suffix")]
    for i, name in enumerate("abc"[:nsrc]):
        base = 19 + 15 * i
        fs += [Field(name, base, Src(float_imm=True)), Field(f"{name}_abs", base + 13, Flag(), "mod"),
               Field(f"{name}_neg", base + 14, Flag(), "mod")]
    return tuple(fs)


def _ialu(nsrc: int) -> tuple[Field, ...]:
    return (Field("dst", 8, Dst()),) + tuple(Field(n, 18 + 13 * i, Src()) for i, n in enumerate("abcd"[:nsrc]))


def _cf_cmp(float_: bool) -> tuple[Field, ...]:
    return (Field("cond", 42, FCMP if float_ else ICMP, "suffix"), Field("a", 8, Src(float_imm=float_)),
            Field("b", 21, Src(float_imm=float_)), Field("n", 34, UInt(8)))


def _has(name: str, *values: str) -> Callable[[dict], bool]:
    return lambda v: v[name] in values


def _flag(name: str) -> Callable[[dict], bool]:
    return lambda v: bool(v[name])


_ALU = dict(schedule_class="alu")
_SIDE = dict(can_eliminate=False, can_reorder=False)
_ASYNC_LOAD = dict(schedule_class="load", is_async=True, can_reorder=False)
_STORE = dict(schedule_class="store", can_eliminate=False, can_reorder=False, is_async=True)
_ATOMIC = dict(schedule_class="atomic", can_eliminate=False, can_reorder=False, is_async=True)
_CF = dict(schedule_class="cf", can_eliminate=False, can_reorder=False)

_ops: list[Op] = []


def _op(name: str, opcode: int, fields, unit: str, **kw) -> None:
    _ops.append(Op(name, opcode, tuple(fields), unit, **kw))


# ---------------------------------------------------------------------------
# Float ALU: 16- or 32-bit by the destination; abs/neg on sources, saturate on the result

for _name, _opc, _fn in (("fadd", 0x01, S.fadd), ("fmul", 0x02, S.fmul), ("fmin", 0x03, S.fmin),
                         ("fmax", 0x04, S.fmax)):
    _op(_name, _opc, _falu(2), "falu", impl=_fn, types=("f", "f", "f"), native=_name, **_ALU)
_op("fma", 0x05, _falu(3), "falu", impl=S.fma, types=("f", "f", "f", "f"), native="fma", **_ALU)
#: Instructions whose reference results are numpy's float32 ufunc of the same name
#: (its SIMD routines; C's libm differs in the last bit): native code runs them
#: through numpy's own loops (uapi.native_ufuncs), in this order
NUMPY_REFERENCE_OPS = ("log2", "exp2", "sin", "cos")
for _name, _opc, _fn in (("floor", 0x06, S.floor), ("ceil", 0x07, S.ceil), ("trunc", 0x08, S.trunc),
                         ("roundeven", 0x09, S.roundeven), ("fract", 0x0A, S.fract), ("rcp", 0x0B, S.rcp),
                         ("rsqrt", 0x0C, S.rsqrt), ("sqrt", 0x0D, S.sqrt), ("log2", 0x0E, S.log2),
                         ("exp2", 0x0F, S.exp2), ("sin", 0x10, S.sin), ("cos", 0x11, S.cos)):
    _op(_name, _opc, _falu(1), "falu", impl=_fn, types=("f", "f"),
        native=None if _name in NUMPY_REFERENCE_OPS else _name, **_ALU)
_op("dfdx", 0x12, _falu(1), "quad", impl=S.quad_dfdx, types=("f", "f"), schedule_class="alu", native="dfdx",
    doc="fine x derivative in the 2x2 quad (0 outside fragment shaders)")
_op("dfdy", 0x13, _falu(1), "quad", impl=S.quad_dfdy, types=("f", "f"), schedule_class="alu", native="dfdy",
    doc="fine y derivative in the 2x2 quad (0 outside fragment shaders)")

# ---------------------------------------------------------------------------
# Integer ALU: operands are read at the destination's size

_I3 = (16, 32, 64)
for _name, _opc, _fn, _t in (("iadd", 0x20, S.iadd, "uuu"), ("isub", 0x21, S.isub, "uuu"),
                             ("imul", 0x22, S.imul, "uuu"), ("ishl", 0x24, S.ishl, "uuu"),
                             ("ushr", 0x25, S.ushr, "uuu"), ("ishr", 0x26, S.ishr, "ssu"),
                             ("umin", 0x27, S.imin, "uuu"), ("umax", 0x28, S.imax, "uuu"),
                             ("imin", 0x29, S.imin, "sss"), ("imax", 0x2A, S.imax, "sss"),
                             ("umulhi", 0x2B, S.umulhi, "uuu"), ("imulhi", 0x2C, S.imulhi, "sss")):
    _op(_name, _opc, _ialu(2), "ialu", impl=_fn, types=tuple(_t), sizes=_I3,
        native={"imin": "smin", "imax": "smax"}.get(_name, _name), **_ALU)
_op("imad", 0x23, _ialu(3), "ialu", impl=S.imad, types=tuple("uuuu"), sizes=_I3, native="imad", **_ALU)
_op("bitop", 0x2D, _ialu(2) + (Field("tt", 44, UInt(4)),), "ialu", impl=S.bitop, types=tuple("uuu"),
    sizes=_I3, doc="4-bit truth table over (b<<1|a): and=8 or=0xe xor=6 copy=0xa not=5", native="bitop", **_ALU)
_op("bfi", 0x2E, _ialu(4), "ialu", impl=S.bfi, types=tuple("uuuuu"), sizes=_I3, native="bfi", **_ALU)
_op("ubfe", 0x2F, _ialu(3), "ialu", impl=S.ubfe, types=tuple("uuuu"), sizes=_I3, native="ubfe", **_ALU)
_op("ibfe", 0x30, _ialu(3), "ialu", impl=S.ibfe, types=tuple("ssuu"), sizes=_I3, native="ibfe", **_ALU)
for _name, _opc, _fn in (("bitrev", 0x31, S.bitrev), ("popcount", 0x32, S.popcount), ("ffs", 0x33, S.ffs),
                         ("clz", 0x34, S.clz)):
    _op(_name, _opc, _ialu(1), "ialu", impl=_fn, types=("u", "u"), sizes=_I3, native=_name, **_ALU)

# Compare-and-select: dst = cond(a, b) ? t : f. a, b compared at their own size; t, f raw at dst size.
_op("icmpsel", 0x38, (Field("dst", 8, Dst()), Field("a", 18, Src()), Field("b", 31, Src()), Field("t", 44, Src()),
                      Field("f", 57, Src()), Field("cond", 70, ICMP, "suffix")), "cmpsel", impl=S.icompare,
    types=("x", "u", "u", "x", "x"), sizes=_I3, native="select", **_ALU)
_op("fcmpsel", 0x39, (Field("dst", 8, Dst()), Field("a", 18, Src(float_imm=True)), Field("b", 31, Src(float_imm=True)),
                      Field("t", 44, Src()), Field("f", 57, Src()), Field("cond", 70, FCMP, "suffix")),
    "cmpsel", impl=S.fcompare, types=("x", "f", "f", "x", "x"), sizes=_I3, native="select", **_ALU)

# Conversions and moves
_TYPE = Enum(4, S.TYPES)
_op("convert", 0x3A, (Field("dst", 8, Dst()), Field("a", 18, Src()), Field("dtype", 31, _TYPE, "suffix"),
                      Field("stype", 35, _TYPE, "suffix")), "convert", impl=S.convert, sizes=_I3,
    doc="convert.DTYPE.STYPE dst, a", native="convert", **_ALU)
_op("mov", 0x3B, _ialu(1), "mov", types=("x", "x"), sizes=_I3,
    doc="raw copy; a narrower source is zero-extended, a wider one truncated", native="mov", **_ALU)
_op("mov_imm", 0x3C, (Field("dst", 8, Dst()), Field("imm", 18, UInt(32))), "mov_imm", sizes=(16, 32),
    doc="dst = imm (low 16 bits for a 16-bit destination)", native="mov_imm", **_ALU)
_op("get_sr", 0x3D, (Field("dst", 8, Dst()), Field("sr", 18, Enum(8, SPECIAL_REGS))), "get_sr",
    sizes=(16, 32), schedule_class="coverage", can_reorder=True)
# The core's 64-bit cycle counter (ARB_shader_clock): ``hi`` 0 reads its low word and latches
# the high word, which ``hi`` 1 then reads (one coherent value from two reads). Never moved
# or merged: two reads in a row see the counter advance.
_op("clock", 0x3E, (Field("dst", 8, Dst()), Field("hi", 18, UInt(1))), "clock", sizes=(32,),
    schedule_class="coverage", can_reorder=False, can_eliminate=True,
    doc="dst = the cycle counter's low word (hi 0, latching the high word) or the latched high word (hi 1)")

# Cross-lane vote over the active lanes of the lane's SIMD group (semantics.SIMD_GROUP_LANES):
# it reads other lanes and the execution mask, so it never moves across control flow
_op("vote", 0x35, (Field("mode", 31, Enum(2, S.VOTE_MODES), "suffix"), Field("dst", 8, Dst()),
                   Field("a", 18, Src())), "vote", impl=S.vote, types=("u", "u"), sizes=(16, 32),
    can_reorder=False, native="vote",
    doc="dst = 1 or 0 in every lane of the SIMD group: any (some active lane has a != 0), all (every "
        "active lane has a != 0), eq (the active lanes agree on a != 0); a is read at dst's size")

# Cross-lane reads within the lane's SIMD group (ARB_shader_ballot): ``ballot`` (the mask of
# the active lanes with a != 0), ``shuffle`` (a of the group's lane b), ``first`` (a of the
# first active lane), ``lane`` (the lane's index in its group). Like vote, it reads other
# lanes and the execution mask, so it never moves across control flow.
_op("simd", 0x36, (Field("mode", 44, Enum(2, S.SIMD_MODES), "suffix"), Field("dst", 8, Dst()),
                   Field("a", 18, Src()), Field("b", 31, Src())), "simd", impl=S.simd, types=("u", "u", "u"),
    sizes=(32,), can_reorder=False, native="simd",
    doc="dst = ballot: mask of the group's active lanes with a != 0; shuffle: a of the group's lane "
        "b & 31; first: a of the group's first active lane; lane: the lane's index in its group")

# ---------------------------------------------------------------------------
# Varyings

_op("st_var", 0x40, (Field("index", 8, UInt(8)), Field("a", 16, Src())), "st_var",
    schedule_class="varying", **_SIDE, doc="vertex output `index` = a (32 bits)")
_op("iter", 0x41, (Field("interp", 36, Enum(1, ("persp", "linear")), "suffix"),
                   Field("loc", 37, Enum(3, ("center", "centroid", "sample", "at_sample", "at_offset")), "suffix"),
                   Field("dst", 8, Vec()), Field("cf", 20, Cf()),
                   Field("cf_w", 28, Cf(), when=_has("interp", "persp")),
                   Field("where", 40, Src(), when=_has("loc", "at_sample", "at_offset"))), "iter",
    schedule_class="varying", native="iter",
    doc="dst[i] = plane(cf+i) at the lane's position (divided by plane(cf_w) when persp): the pixel centre, "
        "the centroid, the lane's sample; at_sample: sample `where` of the pixel (interpolateAtSample); "
        "at_offset: centre + `where`'s two binary16 (x low, y high) pixel offsets (interpolateAtOffset)")
_op("ldcf", 0x42, (Field("dst", 8, Vec()), Field("cf", 20, Cf())), "ldcf", schedule_class="varying",
    doc="flat varying: dst[i] = constant term of cf+i")

# ---------------------------------------------------------------------------
# Textures and images. Descriptor address = heap base + index * stride (context).

_op("texture_sample", 0x50, (
    Field("dim", 58, Enum(3, TEX_DIMS), "suffix"),
    Field("lod_mode", 61, Enum(2, ("auto", "bias", "lod", "grad")), "suffix"),
    Field("compare", 88, Flag(), "suffix"), Field("offset", 102, Flag(), "suffix"),
    Field("gather", 116, Flag(), "suffix"),
    Field("dst", 8, Vec()), Field("coords", 20, Vec()), Field("tex", 32, Src()), Field("samp", 45, Src()),
    Field("lod", 63, Src(float_imm=True), when=_has("lod_mode", "bias", "lod")),
    Field("grad", 76, Vec(), when=_has("lod_mode", "grad")),
    Field("ref", 89, Src(float_imm=True), when=_flag("compare")),
    Field("offs", 103, Src(), when=_flag("offset")),
    Field("component", 117, UInt(2), when=_flag("gather")),
    Field("slot", 119, SLOT)), "texture_sample", schedule_class="texture", is_async=True, can_reorder=False,
    native="texture_sample",
    doc="grad holds ddx then ddy; offs packs signed 4-bit x, y, z offsets in bits 0-3, 4-7, 8-11")
_op("texture_load", 0x51, (
    Field("dim", 45, Enum(3, TEX_DIMS), "suffix"), Field("ms", 61, Flag(), "suffix"),
    Field("dst", 8, Vec()), Field("coords", 20, Vec()), Field("tex", 32, Src()), Field("lod", 48, Src()),
    Field("sample", 62, Src(), when=_flag("ms")), Field("slot", 75, SLOT)),
    "texture_load", schedule_class="texture", is_async=True, can_reorder=False)
_op("texture_size", 0x52, (Field("dst", 8, Vec()), Field("tex", 20, Src()), Field("lod", 33, Src())),
    "texture_size", schedule_class="texture", doc="dst = width, height, depth/layers of level lod")
_op("texture_query", 0x56, (Field("query", 33, Enum(1, ("levels", "samples")), "suffix"), Field("dst", 8, Dst()),
                            Field("tex", 20, Src())), "texture_query", sizes=(16, 32), schedule_class="texture",
    doc="dst = the view's accessible mip levels, or its samples per pixel")
_op("image_load", 0x53, (Field("dim", 45, Enum(3, TEX_DIMS), "suffix"), Field("dst", 8, Vec()),
                         Field("coords", 20, Vec()), Field("tex", 32, Src()), Field("slot", 48, SLOT)),
    "image_load", schedule_class="load", is_async=True, can_reorder=False)
_op("image_write", 0x54, (Field("dim", 45, Enum(3, TEX_DIMS), "suffix"), Field("data", 8, Vec()),
                          Field("coords", 20, Vec()), Field("tex", 32, Src()), Field("slot", 48, SLOT)),
    "image_write", **_STORE)
_op("image_atomic", 0x55, (Field("op", 69, ATOM, "suffix"), Field("dim", 73, Enum(3, TEX_DIMS), "suffix"),
                           Field("dst", 8, Dst()), Field("coords", 18, Vec()), Field("tex", 30, Src()),
                           Field("value", 43, Src()), Field("cmp", 56, Src(), when=_has("op", *S.COMPARE_ATOMIC_OPS)),
                           Field("slot", 76, SLOT)), "image_atomic", **_ATOMIC)

# ---------------------------------------------------------------------------
# Memory. Device address = base (64-bit) + (sign-extended 32-bit index << shift) bytes.

_MEM = (Field("fmt", 46, FMT, "suffix"), Field("base", 20, Src()), Field("index", 33, Src()),
        Field("shift", 50, UInt(3)), Field("slot", 53, SLOT))
_op("device_load", 0x60, (Field("dst", 8, Vec()),) + _MEM, "device_load", **_ASYNC_LOAD)
_op("device_store", 0x61, (Field("data", 8, Vec()),) + _MEM, "device_store", **_STORE)
_op("atomic", 0x62, (Field("op", 70, ATOM, "suffix"), Field("dst", 8, Dst()), Field("base", 18, Src()),
                     Field("index", 31, Src()), Field("value", 44, Src()),
                     Field("cmp", 57, Src(), when=_has("op", *S.COMPARE_ATOMIC_OPS)), Field("shift", 74, UInt(3)),
                     Field("slot", 77, SLOT)), "atomic", doc="dst = old 32-bit value", **_ATOMIC)
_LOCAL = (Field("fmt", 33, FMT, "suffix"), Field("addr", 20, Src()), Field("slot", 37, SLOT))
_op("local_load", 0x63, (Field("dst", 8, Vec()),) + _LOCAL, "local_load", **_ASYNC_LOAD,
    doc="threadgroup memory; addr in bytes")
_op("local_store", 0x64, (Field("data", 8, Vec()),) + _LOCAL, "local_store", **_STORE)
_op("local_atomic", 0x65, (Field("op", 57, ATOM, "suffix"), Field("dst", 8, Dst()), Field("addr", 18, Src()),
                           Field("value", 31, Src()), Field("cmp", 44, Src(), when=_has("op", *S.COMPARE_ATOMIC_OPS)),
                           Field("slot", 61, SLOT)), "local_atomic", **_ATOMIC)
_op("stack_load", 0x66, (Field("dst", 8, Vec()), Field("offset", 20, Src()), Field("slot", 33, SLOT)),
    "stack_load", **_ASYNC_LOAD, doc="per-lane spill memory; offset in bytes")
_op("stack_store", 0x67, (Field("data", 8, Vec()), Field("offset", 20, Src()), Field("slot", 33, SLOT)),
    "stack_store", **_STORE)

# ---------------------------------------------------------------------------
# Fragment output

_op("ld_tile", 0x70, (Field("fmt", 28, FMT, "suffix"), Field("dst", 8, Vec()), Field("offset", 20, UInt(8))),
    "ld_tile", schedule_class="coverage", can_reorder=False, native="ld_tile",
    doc="offset: bytes into the lane's tile record")
_op("st_tile", 0x71, (Field("fmt", 28, FMT, "suffix"), Field("data", 8, Vec()), Field("offset", 20, UInt(8)),
                      Field("mask", 32, UInt(4))), "st_tile", schedule_class="coverage", native="st_tile", **_SIDE,
    doc="mask: components written")
_op("zs_emit", 0x72, (Field("mode", 34, Enum(2, ("z", "s", "zs")), "suffix"),
                      Field("z", 8, Src(float_imm=True), when=_has("mode", "z", "zs")),
                      Field("s", 21, Src(), when=_has("mode", "s", "zs"))), "zs_emit",
    schedule_class="coverage", **_SIDE)
_op("sample_mask", 0x73, (Field("a", 8, Src()),), "sample_mask", schedule_class="coverage", **_SIDE,
    doc="the lane's output sample mask &= a")
_op("discard", 0x74, (), "discard", schedule_class="coverage", **_SIDE,
    doc="active lanes are discarded (they keep running as helper lanes for derivatives)")

# ---------------------------------------------------------------------------
# Synchronisation

_op("wait", 0x78, (Field("slot", 8, SLOT),), "wait", schedule_class="barrier", **_SIDE)
_op("threadgroup_barrier", 0x79, (), "barrier", schedule_class="barrier", **_SIDE)
_op("memory_barrier", 0x7A, (Field("scope", 8, Enum(2, ("device", "image", "threadgroup", "all")), "suffix"),),
    "barrier", schedule_class="barrier", **_SIDE)
_op("stop", 0x7B, (), "stop", **_CF)

# ---------------------------------------------------------------------------
# Control flow (r0l nesting counter, see semantics.cf_*)

_op("if_icmp", 0x80, _cf_cmp(False), "cf", impl=S.cf_if, native="cf_if", **_CF)
_op("if_fcmp", 0x81, _cf_cmp(True), "cf", impl=S.cf_if, native="cf_if", **_CF)
_op("else_icmp", 0x82, _cf_cmp(False), "cf", impl=S.cf_else, native="cf_else", **_CF)
_op("else_fcmp", 0x83, _cf_cmp(True), "cf", impl=S.cf_else, native="cf_else", **_CF)
_op("while_icmp", 0x84, _cf_cmp(False), "cf", impl=S.cf_while, native="cf_while", **_CF)
_op("while_fcmp", 0x85, _cf_cmp(True), "cf", impl=S.cf_while, native="cf_while", **_CF)
_op("pop_exec", 0x86, (Field("n", 8, UInt(8)),), "cf", impl=S.cf_pop, native="cf_pop", **_CF)
_op("push_exec", 0x87, (Field("n", 8, UInt(8)),), "cf", impl=S.cf_push, native="cf_push", **_CF)
_op("jmp_exec_any", 0x88, (Field("target", 8, SInt(24)),), "jmp",
    doc="branch (bytes from this instruction) if any lane is active", **_CF)
_op("jmp_exec_none", 0x89, (Field("target", 8, SInt(24)),), "jmp", doc="branch if no lane is active", **_CF)

OPS: tuple[Op, ...] = tuple(_ops)
BY_NAME = {op.name: op for op in OPS}
BY_OPCODE = {op.opcode: op for op in OPS}


# ---------------------------------------------------------------------------
# Import-time checks: the table must be self-consistent

def _check(op: Op) -> None:
    used = 0xFF
    for f in op.fields:
        assert f.start >= 8 and f.kind.bits > 0, f"{op.name}.{f.name}: bad position"
        assert not used & f.mask, f"{op.name}: field {f.name} overlaps another field or the opcode"
        used |= f.mask
        if f.role == "mod":
            target, _, mod = f.name.rpartition("_")
            assert target in [g.name for g in op.fields] and mod in ("abs", "neg"), f"{op.name}.{f.name}: bad modifier"
        if f.role == "suffix":
            assert isinstance(f.kind, (Enum, Flag)), f"{op.name}.{f.name}: suffixes are enums or flags"
    suffixes = [f for f in op.fields if f.role == "suffix"]
    for i, f in enumerate(suffixes):  # a flag's name must not read as the next enum's value
        if isinstance(f.kind, Flag):
            for g in suffixes[i + 1:]:
                assert not isinstance(g.kind, Enum) or f.name not in g.kind.names, f"{op.name}: ambiguous .{f.name}"
    assert op.length_B <= 16, f"{op.name}: longer than 16 bytes"


assert len(BY_OPCODE) == len(OPS), "two instructions share an opcode"
assert len(BY_NAME) == len(OPS), "two instructions share a name"
assert all(0 < op.opcode < 256 for op in OPS)
for _o in OPS:
    _check(_o)
