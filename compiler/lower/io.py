"""Shader interface lowering: what every global and built-in variable becomes, and
the maps the driver and the backend read (``ShaderInfo`` in compiler/variant.py).

Conventions (the contract with the backend and the driver):

* **Vertex inputs**: ``load_input`` with ``slot="ATTR<loc>"``, ``base=<loc>``. The
  location (a fetch slot: a dvec3/dvec4 takes two, ``GT.vertex_fetch_slots``) is
  ``key["attribute_locations"][name]``, else ``layout(location)`` mapped to fetch
  slots, else the next free one in declaration order; the legacy ``gl_Vertex``,
  ``gl_Normal``, ``gl_Color``, ... come after the user attributes unless the key
  names them. ``attributes`` maps name -> ``Attribute``.
* **Vertex outputs** (the AGX hardware order): ``POS`` (gl_Position, outputs 0-3),
  then 32-bit varyings grouped smooth, flat, noperspective, then 16-bit varyings
  (mediump/lowp floats when ``key["fp16_varyings"]``) in the same groups, then
  ``PSIZ``, then ``CLIP`` (clip distances). Each user varying is one slot
  ``VAR<k>``; ``Varying.index`` is its first vertex output index (st_var index, in
  32-bit words) and output ``index + location_offset * components + component``
  holds each value. Varyings are ordered by explicit location, then declaration.
* **Fragment inputs**: coefficient registers: cf0 = W, cf1 = Z, then every input
  varying in the same grouping order; ``Varying.index`` is the first cf register.
  ``load_input`` has ``slot="VAR<k>"`` and ``interp``. Stages are linked by
  ``Varying.name`` (or ``location`` when both sides have one).
  Compatibility: gl_Color reads ``gl_FrontColor`` (and ``gl_BackColor`` with
  ``key["two_side"]``), gl_SecondaryColor ``gl_FrontSecondaryColor``, gl_TexCoord[i]
  ``gl_TexCoord[i]``; ``key["flat_shade"]`` makes the colours flat.
* **Clip planes**: there is no enable mask in the hardware, so
  ``key["clip_planes"]`` (bit i = plane/distance i enabled, default 0) selects the
  clip distances written: gl_ClipDistance[i] when the shader writes it, else
  dot(gl_ClipPlane[i], gl_ClipVertex) (gl_Position when gl_ClipVertex is not
  written); disabled distances below the highest enabled one are written 1.0.
* **Uniforms**: default-block uniforms (including the compatibility state
  uniforms under their GLSL names, gl_ModelViewProjectionMatrix, gl_LightSource,
  ...) are laid out with std430 rules (a matrix is an array of column vectors, so
  mat3 columns are 16 bytes apart) in declaration order. The first
  ``key["uniform_regs_B"]`` bytes (default 1024, i.e. 256 32-bit uniform registers)
  are uniform registers (``load_uniform``, byte offsets); the rest go to UBO index
  0, the default uniform buffer (``load_ubo``, std430, in the order placed, from
  byte ``regs_B``: UBO 0 is the whole default block in memory, whose first bytes
  the registers mirror). After
  the whole shader is lowered, ``fit_uniform_registers`` leaves room for the
  registers the backend adds (buffer/attribute addresses) by moving uniforms that
  no longer fit to UBO 0. A uniform block with binding b is
  UBO index b + 1; a storage block with binding b is SSBO index b; atomic counter
  buffer binding b is SSBO index ``key["atomic_counter_ssbo_base"]`` (default 32)
  + b. ``uniforms`` maps every leaf name ("m", "s.f", "a[2].f") -> ``UniformSlot``.
* **Samplers/images**: slots in declaration order (arrays take consecutive slots);
  ``Tex.texture == Tex.sampler == slot``; the driver binds the unit the sampler
  uniform holds to that slot.
* **Fragment outputs**: see blend.py (``store_tile`` per render target of the key,
  ``store_output`` slot ``DEPTH`` for gl_FragDepth and ``SAMPLE_MASK``).
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.glsl import ast
from compiler.glsl import types as GT
from compiler.ir import ArrayType, Builder, StructType, VecType
from compiler.ir.core import Deref, Variable as IRVariable, first_block
from compiler.ir.passes.io import _locations, _offset as deref_offset, buffer_address, member_offset_B, type_layout
from compiler.keys import STATE_BLOCK, STATE_BLOCK_UBO

from .from_ast import LoweringError, Opaque, ir_type
from .interface import INTERPOLATION, const_indices

__all__ = ["Varying", "UniformSlot", "Attribute", "OpaqueSlot", "IOLowering", "order_varyings", "CfBinding",
           "link_varyings",
           "SYSVALS", "LEGACY_ATTRIBUTES"]

SYSVALS = {
    "gl_FragCoord": "load_frag_coord", "gl_FrontFacing": "load_front_face",
    "gl_HelperInvocation": "load_helper_invocation", "gl_PointCoord": "load_point_coord",
    "gl_SampleID": "load_sample_id", "gl_SamplePosition": "load_sample_pos", "gl_VertexID": "load_vertex_id", "gl_InstanceID": "load_instance_id",
    "gl_InstanceIDEXT": "load_instance_id",
    "gl_InstanceIDARB": "load_instance_id",
    # ARB_shader_draw_parameters: the preloaded base vertex (of indexed draws; 0 for array
    # draws, GL 4.6 section 11.1.3.9) and base instance registers
    "gl_BaseVertexARB": "load_base_vertex", "gl_BaseInstanceARB": "load_base_instance",
    "gl_BaseVertex": "load_base_vertex", "gl_BaseInstance": "load_base_instance",    # GLSL 4.60 names
    "gl_NumWorkGroups": "load_num_workgroups", "gl_WorkGroupID": "load_workgroup_id",
    "gl_LocalInvocationID": "load_local_invocation_id", "gl_GlobalInvocationID": "load_global_invocation_id",
    "gl_LocalInvocationIndex": "load_local_invocation_index",
    # ARM_shader_framebuffer_fetch_depth_stencil: the depth/stencil buffer at the sample
    "gl_LastFragDepthARM": "load_zs_depth", "gl_LastFragStencilARM": "load_zs_stencil",
}
#: built-in uniforms whose value the variant key gives (gl_NumSamples: ``key["samples"]``)
_KEY_BUILTINS = ("gl_NumSamples", "gl_SubGroupSizeARB")


def _subgroup_value(b, name: str):
    """ARB_shader_ballot's built-ins: the SIMD group's 32 lanes (uapi.isa.semantics.
    SIMD_GROUP_LANES), the lane's index in it (the ISA's simd.lane) and the uint64 masks
    of the lanes equal to / at or above / above / at or below / below it (the high words 0)."""
    from uapi.isa.semantics import SIMD_GROUP_LANES
    if name == "gl_SubGroupSizeARB":
        return b.imm(SIMD_GROUP_LANES, "uint")
    lane = b.intrinsic("simd", b.iimm(0), b.iimm(0), mode="lane")
    if name == "gl_SubGroupInvocationARB":
        return lane
    ones = b.imm(0xFFFFFFFF, "uint")
    low = {"gl_SubGroupEqMaskARB": lambda: b.ishl(b.iimm(1), lane),
           "gl_SubGroupGeMaskARB": lambda: b.ishl(ones, lane),
           "gl_SubGroupGtMaskARB": lambda: b.ishl(b.imm(0xFFFFFFFE, "uint"), lane),
           "gl_SubGroupLeMaskARB": lambda: b.inot(b.ishl(b.imm(0xFFFFFFFE, "uint"), lane)),
           "gl_SubGroupLtMaskARB": lambda: b.inot(b.ishl(ones, lane))}[name]()
    return b.pack_64_2x32_split(low, b.iimm(0))
LEGACY_ATTRIBUTES = ("gl_Vertex", "gl_Normal", "gl_Color", "gl_SecondaryColor", "gl_FogCoord") + tuple(
    f"gl_MultiTexCoord{i}" for i in range(8))
_COMPAT_FS_INPUTS = {"gl_Color": "gl_FrontColor", "gl_SecondaryColor": "gl_FrontSecondaryColor",
                     "gl_FogFragCoord": "gl_FogFragCoord"}
#: the ordinary varyings that carry the distances a vertex-processing stage writes to the
#: fragment stage (besides the CLIP/CULL words the clipper and the PPP read); the names
#: cannot be a GLSL identifier
FS_DISTANCE_VARYINGS = {"gl_ClipDistance": "gl_ClipDistance(fragment)",
                        "gl_CullDistance": "gl_CullDistance(fragment)"}
# Canonical order of the compatibility varyings (after the user varyings of a group).
_COMPAT_ORDER = ("gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor", "gl_Color",
                 "gl_SecondaryColor", "gl_TexCoord", "gl_FogFragCoord")


def _canonical(pair):
    s = pair[0]
    return (s.builtin, _COMPAT_ORDER.index(s.name) if s.name in _COMPAT_ORDER else len(_COMPAT_ORDER))


_BASE_IR = {"float": "float", "int": "int", "uint": "uint", "bool": "uint", "double": "float", "int64": "int",
            "uint64": "uint"}


@dataclass(frozen=True)
class Varying:
    """One varying slot. ``index``: VS = first vertex output (32-bit word) index;
    FS = first coefficient register. ``components`` per location, ``locations``
    (array elements x matrix columns), ``bit_size`` 32 or 16 (how the value is
    stored and interpolated; the IR values stay 32-bit, the backend converts at
    st_var / iter). ``sampling`` from the ``centroid``/``sample`` qualifiers."""
    slot: str
    name: str
    location: int | None
    components: int
    locations: int
    interp: str
    bit_size: int
    index: int
    sampling: str = "center"        # FS: "center", "centroid" or "sample" (the iter location)

    @property
    def words(self) -> int:
        per = self.components if self.bit_size == 32 else (self.components + 1) // 2
        return per * self.locations


@dataclass(frozen=True)
class UniformSlot:
    """Where a default-block uniform leaf lives. ``file`` is "regs" (uniform
    registers, ``offset_B`` from u0) or "ubo" (UBO index ``ubo``). Arrays:
    ``count`` elements ``array_stride_B`` apart; matrices: columns
    ``matrix_stride_B`` apart."""
    name: str
    type: str
    file: str
    offset_B: int
    size_B: int
    count: int = 1
    array_stride_B: int = 0
    matrix_stride_B: int = 0
    ubo: int = 0


@dataclass(frozen=True)
class Attribute:
    name: str
    location: int
    type: str
    components: int
    locations: int


@dataclass(frozen=True)
class OpaqueSlot:
    """A sampler/image uniform: ``slot`` (first of ``count``), the GLSL type, the
    layout binding (initial unit) if any; atomic counters: binding and offset."""
    name: str
    type: str
    slot: int
    count: int
    binding: int | None = None
    offset_B: int = 0


_GROUP = {"smooth": 0, "flat": 1, "noperspective": 2}


def order_varyings(items: list[dict], first_index: int) -> list[Varying]:
    """Assign slots and indices in AGX order: 32-bit smooth, flat, linear, then
    16-bit in the same groups; within a group by location, then given order.
    ``items``: dicts with name, location, components, locations, interp, bit_size."""
    keyed = sorted(enumerate(items), key=lambda p: (
        p[1]["bit_size"] != 32, _GROUP[p[1]["interp"]],
        p[1]["location"] if p[1]["location"] is not None else 1 << 20, p[0]))
    out, index = [], first_index
    for k, (_i, it) in enumerate(keyed):
        v = Varying(f"VAR{k}", it["name"], it["location"], it["components"], it["locations"], it["interp"],
                    it["bit_size"], index, it.get("sampling", "center"))
        out.append(v)
        index += v.words
    return out


@dataclass(frozen=True)
class CfBinding:
    """One fragment input fed from the vertex outputs: coefficient registers
    ``cf_base``.. ``cf_base + count - 1`` take vertex outputs ``vs_index``.. (None:
    the vertex shader does not write it; the driver binds zeros), interpolated
    ``interp``. cf0 (W) and cf1 (Z) are always bound to the position's W and Z."""
    name: str
    cf_base: int
    vs_index: int | None
    count: int
    interp: str
    bit_size: int = 32


def link_varyings(vs: list[Varying], fs: list[Varying]) -> list[CfBinding]:
    """Match fragment inputs to vertex outputs by location (both explicit) or name;
    the interpolation comes from the fragment side (GLSL 4.30+ rule)."""
    by_loc = {v.location: v for v in vs if v.location is not None}
    by_name = {v.name: v for v in vs}
    out = []
    for f in fs:
        src = by_loc.get(f.location) if f.location is not None else None
        src = src or by_name.get(f.name)
        out.append(CfBinding(f.name, f.index, src.index if src is not None else None,
                             f.components * f.locations, f.interp, f.bit_size))
    return out


def _components(b, value, first: int, count: int):
    """Components ``first .. first + count - 1`` of a fetched attribute vector."""
    if not first:
        return value
    chans = [b.channel(value, first + k) for k in range(count)]
    return b.vec(*chans) if count > 1 else chans[0]


def _location_key(layout: dict):
    """The location a varying is matched and ordered by: ``location``, plus
    ``component`` / 4 when ARB_enhanced_layouts' component qualifier packs several
    varyings into one location (each keeps a slot of its own)."""
    loc = _layout_int(layout, "location")
    comp = _layout_int(layout, "component")
    return loc + comp / 4 if loc is not None and comp else loc


def _varying_link(s) -> str:
    """The name a user varying is linked by: an array of blocks by its block name, a
    member of an instance-less block as ``Block.member`` (as each member of a block
    instance, ``_block_members``): blocks match by block name, not instance name, with
    or without one (GLSL 1.50 section 4.3.7); any other variable by its own name."""
    t = s.type.innermost_element
    if t.is_block:
        return t.name
    block = getattr(s, "block_name", None) or getattr(getattr(s, "block", None), "block_name", None)
    return f"{block}.{s.name}" if block and not s.builtin else s.name


def _block_members(s) -> list:
    """(path, field, location key or None, name suffix) of each member of the user block
    instance ``s``: path (member index,) and suffix ``.member`` for a plain block, (element,
    member index) and ``[element].member`` for each element of an array of blocks without
    locations; [] for anything else. Each is a varying of its own, ``Block.member`` or
    ``Block[k].member``, with the components its type has in each location (a ``float[64]``
    member 64 vertex output words, as Mesa packs scalar arrays; a block as one varying took
    4 words a location) and its own interpolation. Members with locations (the block's or
    their own: the analysis then gives every member one, GLSL 4.60 section 4.4.1) are
    matched by location (GL 4.6 section 7.4.1) with the next stage's, whether that stage
    declares the same block or plain located variables, as Mesa's varying linker does."""
    t = s.type
    if s.builtin or not t.innermost_element.is_block or t.innermost_element.name.startswith("gl_"):
        return []
    if t.is_array:
        bt = t.element
        if bt.is_array or not t.length or _location_key(s.layout or {}) is not None or any(
                _location_key((f.qualifiers or {}).get("layout", {})) is not None for f in bt.fields):
            return []
        return [((k, i), f, None, f"[{k}].{f.name}") for k in range(t.length) for i, f in enumerate(bt.fields)]
    keys = [_location_key((f.qualifiers or {}).get("layout", {})) for f in t.fields]
    return [((i,), f, k, f".{f.name}") for i, (f, k) in enumerate(zip(t.fields, keys))]


def _member_deref(b, var, path):
    """The deref of the block member at ``path`` (``_block_members``) of variable ``var``."""
    d = b.deref_var(var)
    if len(path) == 2:
        d = b.deref_array(d, path[0])
    return b.deref_struct(d, path[-1])


def _member_sampling(s, f) -> str:
    """Where block ``s``'s member ``f`` is sampled: the block's ``sample``/``centroid``, or
    the member's own."""
    own = f.qualifiers or {}
    return "sample" if s.sample or own.get("sample") else "centroid" if s.centroid or own.get("centroid") \
        else "center"


def _member_interp(s, f) -> str:
    """The interpolation of block ``s``'s member ``f``: its own qualifier, else the
    block's; integer members are flat."""
    if f.type.is_integer or (f.type.is_array and f.type.innermost_element.is_integer):
        return "flat"
    return INTERPOLATION[(f.qualifiers or {}).get("interpolation") or s.interpolation]


def _layout_int(layout: dict, name: str):
    v = layout.get(name)
    if isinstance(v, tuple):
        v = v[0]
    return v


def atomic_counter_offsets(symbols) -> dict:
    """name -> (binding, byte offset) of each atomic counter among a stage's
    global ``symbols``, in declaration order (GLSL 4.60 section 4.4.6.2): the
    layout's offset where given, else the next 4-byte slot after the previous
    counter of the same binding (an array takes 4 bytes an element). The
    lowering and the GL's program queries (driver.gl.programs) both read it."""
    nxt: dict[int, int] = {}
    out = {}
    for s in symbols:
        if s.storage != "uniform" or s.type.innermost_element.base != "atomic_uint":
            continue
        binding = _layout_int(s.layout, "binding") or 0
        offset = _layout_int(s.layout, "offset")
        offset = nxt.get(binding, 0) if offset is None else offset
        out[s.name] = (binding, offset)
        nxt[binding] = offset + 4 * _count(s.type)
    return out


def _block_layout(block: ast.InterfaceBlock) -> dict:
    out = {}
    for lid in block.qualifier.layout:
        out[lid.name] = lid.value.const[0] if lid.value is not None and lid.value.const else True
    return out


#: the compile options of a stage (not variant state), which a standalone caller
#: may pass in its key: the uniform register budget, the SSBO index of atomic counter
#: buffer 0, the program's default block (``compiler.link.DefaultBlock``)
COMPILE_OPTIONS = ("uniform_regs_B", "atomic_counter_ssbo_base", "default_block", "default_block_size_B")




def std430_block(variables) -> tuple[list, list, int]:
    """The one std430 placement of a block of uniforms: ``variables`` ((name, GLSL
    type) in order) -> ([(name, offset_B)], [UniformSlot of every leaf], size_B),
    each variable at the next offset its alignment allows (opaque types skipped)."""
    offsets, leaves, end = [], [], 0
    for name, gtype in variables:
        t = ir_type(gtype)
        if t is None:
            continue
        size, align = type_layout(t, "std430")
        start = (end + align - 1) // align * align
        offsets.append((name, start))
        leaves += uniform_leaf_slots(name, gtype, t, "regs", start)
        end = start + size
    return offsets, leaves, end


def state_block_variables() -> list:
    """The built-in state uniforms of the compatibility profile (GLSL 1.20 section
    7.5) in the state block's order, with the array sizes of the default limits."""
    from compiler.glsl.builtin_variables import LIMITS, STATE_STRUCTS
    mat4, vec4 = GT.lookup("mat4"), GT.lookup("vec4")
    units, lights = LIMITS["gl_MaxTextureCoords"], LIMITS["gl_MaxLights"]
    out = []
    for m in ("gl_ModelViewMatrix", "gl_ProjectionMatrix", "gl_ModelViewProjectionMatrix"):
        out += [(m + sfx, mat4) for sfx in ("", "Inverse", "Transpose", "InverseTranspose")]
    out += [("gl_TextureMatrix" + sfx, GT.array_of(mat4, units))
            for sfx in ("", "Inverse", "Transpose", "InverseTranspose")]
    out += [("gl_NormalMatrix", GT.lookup("mat3")), ("gl_NormalScale", GT.FLOAT),
            ("gl_ClipPlane", GT.array_of(vec4, LIMITS["gl_MaxClipPlanes"])),
            ("gl_DepthRange", STATE_STRUCTS["gl_DepthRangeParameters"]),
            ("gl_Point", STATE_STRUCTS["gl_PointParameters"]),
            ("gl_FrontMaterial", STATE_STRUCTS["gl_MaterialParameters"]),
            ("gl_BackMaterial", STATE_STRUCTS["gl_MaterialParameters"]),
            ("gl_LightSource", GT.array_of(STATE_STRUCTS["gl_LightSourceParameters"], lights)),
            ("gl_LightModel", STATE_STRUCTS["gl_LightModelParameters"]),
            ("gl_FrontLightModelProduct", STATE_STRUCTS["gl_LightModelProducts"]),
            ("gl_BackLightModelProduct", STATE_STRUCTS["gl_LightModelProducts"]),
            ("gl_FrontLightProduct", GT.array_of(STATE_STRUCTS["gl_LightProducts"], lights)),
            ("gl_BackLightProduct", GT.array_of(STATE_STRUCTS["gl_LightProducts"], lights)),
            ("gl_TextureEnvColor", GT.array_of(vec4, LIMITS["gl_MaxTextureUnits"]))]
    out += [(f"gl_{k}Plane{c}", GT.array_of(vec4, units)) for k in ("Eye", "Object") for c in "STRQ"]
    out += [("gl_Fog", STATE_STRUCTS["gl_FogParameters"])]
    return out


_STATE_OFFSETS: dict = {}


def state_block_offsets() -> dict:
    """Built-in state uniform -> its offset_B in the state block (``std430_block``)."""
    if not _STATE_OFFSETS:
        _STATE_OFFSETS.update(std430_block(state_block_variables())[0])
    return _STATE_OFFSETS


def options_from_key(key) -> dict:
    """The ``COMPILE_OPTIONS`` a key carries."""
    if key is None:
        return {}
    return {name: key.get(name) for name in COMPILE_OPTIONS if key.get(name) is not None}


def uniform_leaf_slots(name: str, gtype: GT.GLSLType, t, file: str, base_B: int, ubo: int = 0) -> list:
    """``UniformSlot`` of each leaf of the uniform ``name`` of GLSL type ``gtype`` (IR
    type ``t``) placed at ``base_B`` (std430): the one rule for the uniform maps of the
    lowering and the program's default block (``compiler.link.default_block_layout``)."""
    out = []
    for leaf, lt, path in _glsl_leaves(name, gtype):
        it, off = t, base_B
        for kind, i in path:
            if kind == "s":
                off += member_offset_B(it, i, "std430")
                it = it.fields[i][1]
            else:
                size, align = type_layout(it.element, "std430")
                off += i * ((size + align - 1) // align * align)
                it = it.element
        size, _a = type_layout(it, "std430")
        count, astride, mstride = 1, 0, 0
        inner, innert = lt, it
        if lt.is_array:
            count = lt.length or 1
            esize, ealign = type_layout(it.element, "std430")
            astride = (esize + ealign - 1) // ealign * ealign
            inner, innert = lt.element, it.element
        if inner.is_matrix:
            csize, calign = type_layout(innert.element, "std430")
            mstride = (csize + calign - 1) // calign * calign
        out.append(UniformSlot(leaf, str(lt), file, off, size, count, astride, mstride, ubo))
    return out


def _glsl_leaves(name: str, t: GT.GLSLType):
    """(leaf name, type, path) for uniform maps; arrays of basic types stay one leaf."""
    if t.is_struct:
        i = 0                       # IR field index: opaque members have no storage
        for f in t.fields:
            if ir_type(f.type) is None:
                continue
            yield from ((n, lt, (("s", i),) + p) for n, lt, p in _glsl_leaves(f"{name}.{f.name}", f.type))
            i += 1
    elif t.is_array and (t.element.is_struct or t.element.is_array):
        for i in range(t.length or 1):
            yield from ((n, lt, (("a", i),) + p) for n, lt, p in _glsl_leaves(f"{name}[{i}]", t.element))
    else:
        yield name, t, ()


#: SSBO index of atomic counter buffer binding 0 (binding b: this + b)
ATOMIC_COUNTER_SSBO_BASE = 32


class KeyNotYetKnown(LookupError):
    """The key-independent half of the lowering asked for a variant-key field."""


class _NoKey:
    """The key while a stage is lowered once for all its variants: any read is a
    bug (a key input must become a variant pass, ``compiler.lower.stage``)."""

    def get(self, name, default=None):
        raise KeyNotYetKnown(f"the variant key's {name!r} was read while lowering the stage for every variant")


NO_KEY = _NoKey()


class IOLowering:
    def __init__(self, unit: ast.TranslationUnit, key, options=None):
        """``key``: the variant key (``NO_KEY`` while the stage is lowered for every
        variant: the key's inputs are applied later by ``finish``); ``options``:
        compile options of the stage, not variant state (``uniform_regs_B``,
        ``atomic_counter_ssbo_base``), also read from ``key`` for the standalone
        entry points that pass them there."""
        self.unit = unit
        self.key = key
        self.stage = unit.stage
        options = dict(options or {})
        self.atomic_counter_ssbo_base = options.get("atomic_counter_ssbo_base", ATOMIC_COUNTER_SSBO_BASE)
        self._deferred: list = []          # (what, local var, symbol): key inputs applied by finish
        self.attributes: dict[str, Attribute] = {}
        self.varyings: list[Varying] = []
        self.uniforms: dict[str, UniformSlot] = {}
        self.samplers: dict[str, OpaqueSlot] = {}
        self.images: dict[str, OpaqueSlot] = {}
        self.atomic_counters: dict[str, OpaqueSlot] = {}
        self.ubos: dict[str, int] = {}
        self.ssbos: dict[str, int] = {}
        self.outputs: dict[str, object] = {}         # FS: name -> render target / DEPTH; filled by blend
        self.out_symbols: list = []                   # (symbol, local var)
        self._next_sampler = 0
        self._next_image = 0
        self._shared_end = 0
        self._input_vars: list = []
        self.uniform_regs_used_B = 0
        self.interpolate_at: list = []          # (load_interpolated_input, input symbol)
        self._reg_uniforms: list = []          # (IR variable, name, GLSL type) in uniform registers
        self.regs_B = options.get("uniform_regs_B", 1024)
        # the program's default block (compiler.link.DefaultBlock): variable -> offset_B
        self.default_block = dict(options.get("default_block") or ())
        # the byte of the program's block uniform register 0 holds (the first one this
        # stage reads, 32-byte aligned), and the variables placed from the block
        self.regs_base_B = None
        self._program_block_vars: list = []
        # UBO 0 is the default block's memory copy: the registers mirror its bytes from
        # regs_base_B (``load_uniform`` with a dynamic offset reads that window: the driver
        # gives the window's address), uniforms read from memory follow them (and the
        # program's block), so the two never overlap.
        self.ubo0_size_B = max(self.regs_B, -(-options.get("default_block_size_B", 0) // 16) * 16)

    def k(self, name, default=None):
        return self.key.get(name, default) if self.key is not None else default

    # ------------------------------------------------------------ setup
    def begin(self, L) -> None:
        self.L = L
        self.shader = L.shader
        self.pro = Builder(L.func, L.shader)
        self.pro.block, self.pro.index = first_block(L.func.body), 0
        symbols = []
        for g in self.unit.globals:
            symbols.append(g)
        for v in self.unit.builtin_variables:
            if v not in symbols:
                symbols.append(v)
        self._atomic_offsets = atomic_counter_offsets(self.unit.globals)
        for s in symbols:            # samplers and images: slots in declaration order
            inner = s.type.innermost_element
            if s.storage == "uniform" and (inner.is_sampler or inner.is_image):
                self.opaque_symbol(L, s, None)
        if self.stage in ("tess_control", "tess_evaluation"):     # compute kernels (tessellation.py)
            from .tessellation import tess_lowering
            self.tess = tess_lowering(self, L)
        # Inactive uniforms take no registers (a later reference would still place them).
        self._plan_uniforms(L, [s for s in symbols if s.storage == "uniform" and (s.used or s.builtin)
                                and s.name not in _KEY_BUILTINS])
        for s in symbols:
            if (s.storage != "uniform" or s.name in _KEY_BUILTINS) and s not in L.vars:
                self.global_symbol(L, s)
        if self.stage == "geometry":          # a compute kernel (compiler/lower/geometry.py)
            from .geometry import GeometryLowering
            self.geometry = GeometryLowering(self, L)
            self.geometry.plan_outputs(self.out_symbols)

    # ------------------------------------------------------------ uniforms
    def _in_program_block(self, s) -> bool:
        """Whether the program's default block places symbol ``s``."""
        return s.name in self.default_block and not s.builtin and s.block is None and \
            s.name not in state_block_offsets() and \
            not s.type.innermost_element.is_opaque and not s.type.innermost_element.is_block

    def _plan_program_block(self, L, syms) -> int:
        """The uniforms the program's default block places, at their offsets there: in
        the uniform registers when they fit below ``regs_B`` (register byte r is byte
        ``regs_base_B + r`` of the program's storage: the stage's window starts at the
        first uniform it reads, as Mesa's AGX pushes the ranges a stage uses), else
        read from UBO 0 at their offset. Returns the end of the registers they take."""
        mine = [s for s in syms if self._in_program_block(s)]
        if mine and self.regs_base_B is None:
            self.regs_base_B = min(self.default_block[s.name] for s in mine) // 32 * 32
        base, end = self.regs_base_B or 0, 0
        for s in mine:
            t = ir_type(s.type)
            size, _align = type_layout(t, "std430")
            start = self.default_block[s.name]
            if start - base + size <= self.regs_B and start >= base:
                var = IRVariable(s.name, t, "uniform", {"offset_B": start - base})
                self._reg_uniforms.append((var, s.name, s.type))
                self._record_uniform(s.name, s.type, t, "regs", start - base, 0)
                end = max(end, start - base + size)
            else:
                var = IRVariable(s.name, t, "ubo", {"binding": 0, "packing": "std430", "offset_B": start})
                self._record_uniform(s.name, s.type, t, "ubo", start, 0)
            self._program_block_vars.append(var)
            self.shader.variables.append(var)
            L.bind(s, var)
        return end

    def _plan_uniforms(self, L, syms) -> None:
        """Uniform registers first, the rest in the default UBO (index 0). The
        uniforms of the program's default block sit at its offsets; the others
        (built-in state) follow them."""
        offset = max(self.uniform_regs_used_B, self._plan_program_block(L, syms))
        blocks_done = set()
        for s in syms:
            if s.type.is_opaque or (s.type.is_array and s.type.innermost_element.is_opaque):
                continue
            if self._in_program_block(s):
                continue
            if s.type.innermost_element.is_block:
                self._block(L, s.block if isinstance(s.block, ast.InterfaceBlock) else None, s)
                continue
            if s.block is not None:
                if id(s.block) not in blocks_done:
                    blocks_done.add(id(s.block))
                    self._block(L, s.block, None)
                var, path = self._block_vars[id(s.block)]
                fidx = L._ir_field_index(s.block.type, [f.name for f in s.block.type.fields].index(s.name))
                L.bind(s, var, (fidx,))
                continue
            gtype = s.type
            if s.builtin and gtype.is_array:
                # built-in state arrays (gl_LightSource[8], gl_TextureMatrix[8], ...): only up to the
                # highest constant index used, when every use is a constant index
                used = const_indices(self.unit, s, gtype.length)
                if used and max(used) + 1 < gtype.length:
                    gtype = GT.array_of(gtype.element, max(used) + 1)
            t = ir_type(gtype)
            size, align = type_layout(t, "std430")
            start = (offset + align - 1) // align * align
            if start + size <= self.regs_B:
                var = IRVariable(s.name, t, "uniform", {"offset_B": start})
                self.shader.variables.append(var)
                L.bind(s, var)
                self._reg_uniforms.append((var, s.name, gtype))
                self._record_uniform(s.name, gtype, t, "regs", start, 0)
                offset = start + size
            else:
                L.bind(s, self._memory_variable(s.name, t, gtype))
        self.uniform_regs_used_B = offset

    def _memory_variable(self, name: str, t, gtype) -> IRVariable:
        """A uniform read from memory: built-in state from the state block (UBO
        ``STATE_BLOCK_UBO``) at its table offset, where the GL front end writes it;
        anything else from UBO 0 (``_ubo0_variable``)."""
        at = state_block_offsets().get(name)
        if at is None:
            return self._ubo0_variable(name, t, gtype)
        var = IRVariable(name, t, "ubo", {"binding": STATE_BLOCK_UBO, "packing": "std430", "offset_B": at})
        self.shader.variables.append(var)
        self._record_uniform(name, gtype, t, "ubo", at, STATE_BLOCK_UBO)
        self.ubos[STATE_BLOCK] = STATE_BLOCK_UBO
        return var

    def state_push_ranges(self) -> tuple:
        """(register offset_B, state block offset_B, size_B) of each built-in state
        uniform in the uniform registers: the driver fills those registers from the
        state block (Mesa's AGX push ranges), one copy each; the layouts agree inside
        each range (both std430)."""
        table = state_block_offsets()
        return tuple((var.data["offset_B"], table[name], type_layout(var.type, "std430")[0])
                     for var, name, _g in self._reg_uniforms if name in table and var.mode == "uniform")

    def _ubo0_variable(self, name: str, t, gtype) -> IRVariable:
        """A default-block uniform read from memory: UBO 0 (the default uniform
        buffer, std430), appended after what is already there. Any number of
        uniforms can be placed at any time (built-in state the lowering references
        late, uniforms demoted by ``fit_uniform_registers``)."""
        size, align = type_layout(t, "std430")
        start = (self.ubo0_size_B + align - 1) // align * align
        var = IRVariable(name, t, "ubo", {"binding": 0, "packing": "std430", "offset_B": start})
        self.shader.variables.append(var)
        self._record_uniform(name, gtype, t, "ubo", start, 0)
        self.ubo0_size_B = start + size
        return var

    def backend_uniform_words(self) -> int:
        """An upper bound of the uniform registers the backend adds after the default
        block (abi.UniformLayout): 64-bit addresses (2 words, even-aligned) of every
        UBO/SSBO binding and vertex buffer, UBO 0 and the default block's memory copy,
        SSBO sizes, and per fetched attribute an address and a stride."""
        from compiler.ir import Intrinsic, LoadConst, walk_instrs
        ubos, ssbos, vbos, attrs = {0}, set(), set(), set()
        for var in self.shader.variables:
            if var.mode == "ubo":
                ubos.add(var.data.get("binding", 0))
            elif var.mode == "ssbo":
                ssbos.add(var.data.get("binding", 0))
            elif var.mode == "shader_in" and self.stage == "vertex":
                first = var.data.get("driver_location", var.data.get("location", 0))
                attrs.update(range(first, first + _locations(var.type)))
        for f in self.shader.functions:
            for i in walk_instrs(f.body):
                if not isinstance(i, Intrinsic):
                    continue
                if i.name == "load_vbo":
                    vbos.add(i.indices.get("buffer", 0))
                elif i.name == "load_input" and self.stage == "vertex":
                    attrs.add(i.indices.get("base", 0))
                elif ("ssbo" in i.name or i.name == "load_ubo") and i.srcs:
                    src = i.srcs[0].parent if i.name != "store_ssbo" else i.srcs[1].parent
                    key = src.values[0] if isinstance(src, LoadConst) else ("dyn", id(i))
                    (ubos if i.name == "load_ubo" else ssbos).add(key)
        for a in self.attributes.values():
            attrs.update(range(a.location, a.location + a.locations))
        # 2 words + 1 of alignment per address; an attribute also has its stride
        return 3 * (len(ubos) + len(ssbos) + len(vbos) + 1) + len(ssbos) + 4 * len(attrs) + 1

    def fit_uniform_registers(self) -> None:
        """Mesa's AGX pushes what fits and reads the rest through UBO loads: when the
        default block plus ``backend_uniform_words`` would pass ``regs_B``, the
        uniforms that no longer fit move to UBO 0 (the lowering's own uniforms,
        ``shimgl_*``, which the driver writes into the register block, stay) and the
        ones left are laid out again from u0."""
        reserve_B = 4 * self.backend_uniform_words()
        if self.uniform_regs_used_B + reserve_B <= self.regs_B:
            return
        budget_B = self.regs_B - reserve_B
        offset, kept = 0, []
        placed = [u for u in self._reg_uniforms if any(u[0] is v for v in self._program_block_vars)]
        base = self.regs_base_B or 0
        for var, name, gtype in placed:          # the program's block: registers or UBO 0 at its offset
            for leaf in [n for n in self.uniforms if n == name or n.startswith((name + ".", name + "["))]:
                del self.uniforms[leaf]
            size, _align = type_layout(var.type, "std430")
            start = var.data["offset_B"]
            if start + size <= budget_B:
                self._record_uniform(name, gtype, var.type, "regs", start, 0)
                kept.append((var, name, gtype))
                offset = max(offset, start + size)
                continue
            var.mode, var.data = "ubo", {"binding": 0, "packing": "std430", "offset_B": start + base}
            self._record_uniform(name, gtype, var.type, "ubo", start + base, 0)
        rest = [u for u in self._reg_uniforms if all(u[0] is not p[0] for p in placed)]
        pinned = [u for u in rest if u[1].startswith("shimgl_")]
        others = [u for u in rest if not u[1].startswith("shimgl_")]
        for var, name, gtype in pinned + others:
            size, align = type_layout(var.type, "std430")
            start = (offset + align - 1) // align * align
            for leaf in [n for n in self.uniforms if n == name or n.startswith((name + ".", name + "["))]:
                del self.uniforms[leaf]
            if start + size <= budget_B or name.startswith("shimgl_"):
                var.data["offset_B"] = start
                self._record_uniform(name, gtype, var.type, "regs", start, 0)
                kept.append((var, name, gtype))
                offset = start + size
                continue
            moved = self._memory_variable(name, var.type, gtype)
            self.shader.variables.remove(moved)
            var.mode, var.data = "ubo", moved.data
        self._reg_uniforms = kept
        self.uniform_regs_used_B = offset

    def add_uniform(self, name: str, gtype: GT.GLSLType) -> IRVariable:
        """A uniform the lowering itself needs (blend colour, alpha reference)."""
        t = ir_type(gtype)
        size, align = type_layout(t, "std430")
        start = (self.uniform_regs_used_B + align - 1) // align * align
        var = IRVariable(name, t, "uniform", {"offset_B": start})
        self.shader.variables.append(var)
        self._reg_uniforms.append((var, name, gtype))
        self._record_uniform(name, gtype, t, "regs", start, 0)
        self.uniform_regs_used_B = start + size
        return var

    def _record_uniform(self, name, gtype, t, file, base_B, ubo) -> None:
        for slot in uniform_leaf_slots(name, gtype, t, file, base_B, ubo):
            self.uniforms[slot.name] = slot

    def _block(self, L, block: ast.InterfaceBlock | None, sym) -> None:
        """A uniform or storage block (instance-less when ``sym`` is None)."""
        if block is None:
            block = next(b for b in self.unit.interface_blocks if b.variable is sym)
        if id(block) in getattr(self, "_block_vars", {}):
            var, _p = self._block_vars[id(block)]
            if sym is not None:
                L.bind(sym, var)
            return
        layout = _block_layout(block)
        t = block.type
        kind = t.block_kind
        binding = layout.get("binding", 0)
        # the block's own qualifiers with the defaults before it (`layout(std140) uniform;`)
        merged = block.variable.layout if block.variable is not None else (
            block.member_variables[0].layout if block.member_variables else layout)
        packing = GT.block_packing(merged)
        irt = ir_type(t)
        mode = "ubo" if kind == "uniform" else "ssbo"
        index = binding + 1 if mode == "ubo" else binding
        # each block (each element of an array of blocks) has buffer indices of its own: the
        # driver maps them to its slots by block name, so two blocks at one binding point
        # (the default 0) must not share an index
        taken = set((self.ubos if mode == "ubo" else self.ssbos).values())
        count = len(_element_suffixes(sym.type)) if block.array_dims and sym is not None and sym.type.is_array else 1
        while taken & set(range(index, index + count)):
            index += 1
        if block.array_dims:
            # One buffer per element (bindings b, b+1, ...): constant indices pick the variable.
            if sym is None or not sym.type.is_array:
                raise LoweringError("arrays of interface blocks need an instance name")
            # arrays of arrays of blocks: one buffer per element in row-major order,
            # named Block[i][j] (GL 4.6 section 7.3.1.1)
            elems = []
            for i, suffix in enumerate(_element_suffixes(sym.type)):
                var = IRVariable(f"{sym.name}{suffix}", irt, mode,
                                 {"binding": index + i, "packing": packing, "block": block.block_name})
                self.shader.variables.append(var)
                (self.ubos if mode == "ubo" else self.ssbos)[f"{block.block_name}{suffix}"] = index + i
                elems.append(var)
            L.block_arrays[sym] = elems
            # the whole array, for dynamically uniform indices (lower_io: element i = buffer index + i)
            whole = IRVariable(sym.name, ArrayType(irt, len(elems)), mode,
                               {"binding": index, "packing": packing, "block": block.block_name, "block_array": True})
            self.shader.variables.append(whole)
            L.block_array_vars[sym] = whole
            if not hasattr(self, "_block_vars"):
                self._block_vars = {}
            self._block_vars[id(block)] = (elems[0], ())
            return
        var = IRVariable(block.instance_name or block.block_name, irt, mode,
                         {"binding": index, "packing": packing, "block": block.block_name})
        self.shader.variables.append(var)
        (self.ubos if mode == "ubo" else self.ssbos)[block.block_name] = index
        if not hasattr(self, "_block_vars"):
            self._block_vars = {}
        self._block_vars[id(block)] = (var, ())
        if sym is not None:
            L.bind(sym, var)
        for m in block.member_variables:
            fidx = L._ir_field_index(t, [f.name for f in t.fields].index(m.name))
            L.bind(m, var, (fidx,))

    # ------------------------------------------------------------ other globals
    def global_symbol(self, L, s) -> None:
        if s in L.vars:
            return
        name = s.name
        if s.type.is_opaque or (s.type.is_array and s.type.innermost_element.is_opaque):
            return
        if s.builtin and name.startswith("gl_SubGroup"):
            var = L.new_local(name, s.type)
            self.pro.store_var(var, _subgroup_value(self.pro, name))
            L.bind(s, var)
            return
        if s.builtin and name == "gl_NumSamples":
            # the framebuffer's samples (1 when single-sampled): the variant key's, stored by finish
            var = L.new_local(name, s.type)
            L.bind(s, var)
            self._deferred.append(("samples", var, s))
            return
        if s.storage == "uniform":
            self._plan_uniforms(L, [s])
            return
        if s.storage == "buffer":
            if s.type.innermost_element.is_block:
                self._block(L, s.block if isinstance(s.block, ast.InterfaceBlock) else None, s)
            elif id(s.block) in getattr(self, "_block_vars", {}):
                var, _p = self._block_vars[id(s.block)]
                fidx = L._ir_field_index(s.block.type, [f.name for f in s.block.type.fields].index(s.name))
                L.bind(s, var, (fidx,))
            else:
                self._block(L, s.block, None)
            return
        if s.storage == "shared":
            t = ir_type(s.type)
            size, align = type_layout(t, "std430")
            start = (self._shared_end + align - 1) // align * align
            var = IRVariable(name, t, "shared", {"offset_B": start})
            self._shared_end = start + size
            self.shader.variables.append(var)
            L.bind(s, var)
            return
        if s.builtin and name == "gl_PrimitiveID" and self.stage == "fragment":
            # the rasteriser's index of the primitive in the draw (a special register) when no
            # geometry stage writes it (GLSL 4.00 section 7.1), else a varying: the key decides
            # (key["primitive_id_varying"]), in finish
            var = L.new_local(name, s.type)
            L.bind(s, var)
            self._deferred.append(("primitive_id", var, s))
            return
        if s.builtin and name == "gl_FragCoord" and {"origin_upper_left", "pixel_center_integer"} & set(s.layout):
            # ARB_fragment_coord_conventions / GLSL 1.50 section 4.3.8.1: y measured from the
            # framebuffer's top edge (its height is a key input, stored by finish) and/or
            # pixel centres at integers
            var = L.new_local(name, s.type)
            L.bind(s, var)
            self._deferred.append(("frag_coord", var, s))
            return
        if s.builtin and name in SYSVALS:
            var = L.new_local(name, s.type)
            v = self.pro.intrinsic(SYSVALS[name], bit_size=1 if s.type.is_boolean else 32)
            self.pro.store_var(var, v)
            L.bind(s, var)
            return
        if s.builtin and name in ("gl_DrawIDARB", "gl_DrawID"):
            # the draw's index within a multi-draw: a uniform the driver writes per draw
            L.bind(s, self.add_uniform("shimgl_DrawID", GT.INT))
            return
        if s.builtin and name == "gl_SampleMaskIn":
            var = L.new_local(name, s.type)
            # the samples this invocation covers (the GPU shades multisampled pixels per sample)
            mask = self.pro.intrinsic("load_sample_mask_in", bit_size=32)
            self.pro.store_deref(self.pro.deref_array(self.pro.deref_var(var), 0), mask)
            L.bind(s, var)
            return
        if s.builtin and name == "gl_WorkGroupSize":
            var = L.new_local(name, s.type)
            size = self.unit.local_size or (1, 1, 1)
            self.pro.store_var(var, self.pro.imm(list(size), "uint"))
            L.bind(s, var)
            return
        if s.storage == "in":
            self._input(L, s)
            return
        if s.storage == "out" and self.stage == "tess_control":
            self.tess.output_variable(L, s)        # shared: visible to the patch's invocations
            return
        if s.storage == "out":
            var = L.new_local(name, s.type)
            L.bind(s, var)
            self.out_symbols.append((s, var))
            return
        # globals without storage (and const): plain locals; initialisers in glsl_to_ir
        var = L.new_local(name, s.type)
        L.bind(s, var)

    def builtin_value(self, L, name: str):
        """The value of a built-in variable the shader may not reference itself."""
        for s in list(L.vars):
            if getattr(s, "name", None) == name and getattr(s, "builtin", False):
                return L.load(L.var_deref(s), s.type)
        sym = self.builtin_symbol(name)
        if sym.storage == "uniform":
            self._plan_uniforms(L, [sym])
        else:
            self.global_symbol(L, sym)
        return L.load(L.var_deref(sym), sym.type)

    def builtin_symbol(self, name: str):
        """The built-in variable ``name`` of the stage's GLSL version (one the shader
        may not have referenced), as an ``InterfaceSymbol`` once the stage is lowered
        (``builtin_symbols``, which ``compiler.lower.stage`` records)."""
        known = getattr(self, "builtin_symbols", None)
        if known is not None:
            if name not in known:
                raise LoweringError(f"the built-in {name} is not available to this shader")
            return known[name]
        from compiler.glsl.builtin_variables import builtin_variables
        return next(v for v in builtin_variables(self.unit.version, self.stage, tuple(self.unit.extensions))
                    if v.name == name)

    def _conventional_frag_coord(self, layout: dict):
        """gl_FragCoord with its layout qualifiers applied: ``origin_upper_left`` gives
        y' = height - y (the framebuffer's height: key["frag_coord_height"], which the
        driver sets for a shader whose info says ``frag_coord_origin_upper_left``), and
        ``pixel_center_integer`` takes 0.5 from x and y."""
        b = self.pro
        fc = b.intrinsic("load_frag_coord", bit_size=32)
        x, y, z, w = (b.channel(fc, i) for i in range(4))
        if layout.get("origin_upper_left"):
            y = b.fsub(b.fimm(float(self.k("frag_coord_height", 0) or 0)), y)
        if layout.get("pixel_center_integer"):
            x, y = b.fadd(x, b.fimm(-0.5)), b.fadd(y, b.fimm(-0.5))
        return b.vec(x, y, z, w)

    def apply_deferred(self) -> None:
        """The key inputs the key-independent half left open: gl_NumSamples's value
        and where a fragment shader's gl_PrimitiveID comes from."""
        for what, var, s in self._deferred:
            if what == "samples":
                self.pro.store_var(var, self.pro.imm(max(1, int(self.k("samples", 1) or 1)), "int"))
            elif what == "frag_coord":
                self.pro.store_var(var, self._conventional_frag_coord(s.layout))
            elif self.k("primitive_id_varying", False):
                self._input_vars.append((s, var))       # written by a geometry stage: a flat varying
            else:
                self.pro.store_var(var, self.pro.intrinsic("load_primitive_id", bit_size=32))
        self._deferred = []

    @property
    def last_frag_data(self) -> list:
        """(symbol, local) of gl_LastFragData when the fragment stage reads it."""
        return [(s, var) for s, var in self._input_vars if s.builtin and s.name == "gl_LastFragData"]

    # ------------------------------------------------------------ inputs
    def _input(self, L, s) -> None:
        var = L.new_local(s.name, s.type)
        L.bind(s, var)
        if self.stage == "vertex":
            self._input_vars.append((s, var))
        elif self.stage in ("fragment", "geometry", "tess_control", "tess_evaluation"):
            self._input_vars.append((s, var))
        else:
            raise LoweringError(f"compute shaders have no input {s.name}")

    def _fs_input_items(self) -> list[tuple]:
        """(symbol, local, [(varying name, location, ir type, interp, element or None)])"""
        out = []
        flat_colours = self.k("flat_shade", False)
        fp16 = self.k("fp16_varyings", False)
        for s, var in sorted(self._input_vars, key=_canonical):
            name = s.name
            interp = INTERPOLATION[s.interpolation]
            bits = 16 if fp16 and s.precision in ("mediump", "lowp") and s.type.base == "float" else 32
            if s.builtin:
                if name in ("gl_Color", "gl_SecondaryColor"):
                    interp = "flat" if flat_colours else "smooth"
                    front = _COMPAT_FS_INPUTS[name]
                    parts = [(front, None, s.type, interp, None)]
                    if self.k("two_side", False):
                        parts.append((front.replace("Front", "Back"), None, s.type, interp, None))
                    out.append((s, var, parts))
                elif name == "gl_TexCoord":
                    idx = const_indices(self.unit, s, 8)
                    out.append((s, var, [(f"gl_TexCoord[{i}]", None, GT.VEC4, "smooth", i) for i in idx]))
                elif name == "gl_FogFragCoord":
                    out.append((s, var, [(name, None, s.type, "smooth", None)]))
                elif name in ("gl_ClipDistance", "gl_CullDistance"):
                    # the elements it reads, from the previous stage's copies (FS_DISTANCE_VARYINGS),
                    # interpolated as smooth varyings (GLSL 4.60 section 7.1: "linearly
                    # interpolated"; perspective-correct, as Mesa's)
                    n = max(const_indices(self.unit, s, s.type.length), default=-1) + 1
                    out.append((s, var, [(FS_DISTANCE_VARYINGS[name], None, GT.array_of(GT.FLOAT, n), "smooth",
                                          None)] if n else []))
                elif name in ("gl_PrimitiveID", "gl_Layer", "gl_ViewportIndex"):
                    out.append((s, var, [(name, None, s.type, "flat", None)]))
                elif name == "gl_LastFragData":
                    continue            # the tile buffer's colours (blend.emit_framebuffer_fetch)
                else:
                    raise LoweringError(f"built-in input {name} is not supported")
            else:
                if s.type.is_integer or (s.type.is_array and s.type.innermost_element.is_integer):
                    interp = "flat"
                link = _varying_link(s)
                sampling = "sample" if s.sample else "centroid" if s.centroid else "center"
                members = _block_members(s)
                if members:         # one varying per member (``_block_members``)
                    out.append((s, var, [(f"{link}{suffix}", key, f.type, _member_interp(s, f), 32,
                                          _member_sampling(s, f), path) for path, f, key, suffix in members]))
                    continue
                out.append((s, var, [(link, _location_key(s.layout), s.type, interp, bits, sampling)]))
        return out

    def _emit_inputs(self) -> None:
        pro = self.pro
        L = self.L
        if self.stage == "vertex":
            self._emit_attributes()
            return
        saved_b, L.b = L.b, pro
        try:
            self._emit_fs_inputs(L, pro)
            from .blend import emit_framebuffer_fetch
            emit_framebuffer_fetch(self, L, pro)
        finally:
            L.b = saved_b

    def _emit_fs_inputs(self, L, pro) -> None:
        items = self._fs_input_items()
        flat = []
        for s, var, parts in items:
            for p in parts:
                name, loc, t, interp, extra = p[:5]
                sampling = p[5] if len(p) > 5 else "center"
                if self.k("sample_shading", False) and interp != "flat":
                    sampling = "sample"     # GL's sample shading: each input at the shaded sample
                bits = extra if isinstance(extra, int) and extra in (16, 32) and not name.startswith("gl_") else 32
                irt = ir_type(t)
                comps, locs = _vec_shape(t)
                flat.append(dict(name=name, location=loc, components=comps, locations=locs, interp=interp,
                                 bit_size=bits, sampling=sampling, _t=t, _irt=irt))
        vs = order_varyings(flat, 2)
        self.varyings = vs
        by_link = {v.name: v for v in vs}
        for instr, sym in self.interpolate_at:           # interpolateAt* (builtins.py)
            v = by_link[_varying_link(sym)]
            instr.indices.update(base=v.index, slot=v.slot, interp=v.interp)
        ivars = {}
        by_name = {d["name"]: d for d in flat}
        for v in vs:
            it = by_name[v.name]
            var = IRVariable(v.name, it["_irt"], "shader_in",
                             {"slot": v.slot, "driver_location": v.index, "interp": v.interp})
            self.shader.variables.append(var)
            ivars[v.name] = (var, it["_t"])
        for s, var, parts in items:
            if s.builtin and s.name in ("gl_Color", "gl_SecondaryColor"):
                fvar, t = ivars[parts[0][0]]
                front = L.load(pro.deref_var(fvar), t)
                if len(parts) == 2:
                    bvar, _t = ivars[parts[1][0]]
                    back = L.load(pro.deref_var(bvar), t)
                    ff = pro.load_front_face()
                    front = pro.bcsel(ff, front, back)
                pro.store_var(var, front)
            elif s.builtin and s.name == "gl_TexCoord":
                for name, _loc, t, _i, elem in parts:
                    ivar, _t = ivars[name]
                    pro.store_deref(pro.deref_array(pro.deref_var(var), elem), pro.load_var(ivar))
            elif s.builtin and s.name in ("gl_ClipDistance", "gl_CullDistance"):
                if parts:
                    ivar, t = ivars[parts[0][0]]
                    for i in range(t.length):
                        pro.store_deref(pro.deref_array(pro.deref_var(var), i),
                                        pro.load_deref(pro.deref_array(pro.deref_var(ivar), i)))
            elif len(parts) > 1 or (parts and len(parts[0]) > 6):       # a block's located members
                for p in parts:
                    ivar, t = ivars[p[0]]
                    L.store(_member_deref(pro, var, p[6]), t, L.load(pro.deref_var(ivar), t))
            elif parts:
                ivar, t = ivars[parts[0][0]]
                L.store(pro.deref_var(var), s.type, L.load(pro.deref_var(ivar), t))

    def _emit_attributes(self) -> None:
        L, pro = self.L, self.pro
        # the key's locations are fetch slots (vertex elements) already: a dvec3/dvec4 takes
        # two (compiler.link.attribute_fetch_slots); a layout location is a generic attribute
        # location, mapped the same way here when the key does not name the input
        given = dict(self.k("attribute_locations", ()) or ())
        declared: dict[int, bool] = {}
        for s, _var in self._input_vars:
            loc = _layout_int(s.layout, "location")
            if loc is not None and s.name not in given:
                for k in range(loc, loc + GT.vertex_input_locations(s.type)):
                    declared[k] = declared.get(k, False) or GT.is_dual_slot(s.type)
        declared_slots = GT.vertex_fetch_slots(declared)
        used: set[int] = set()
        plan = []
        for s, var in self._input_vars:
            loc = given.get(s.name)
            if loc is None and _layout_int(s.layout, "location") is not None:
                loc = declared_slots[_layout_int(s.layout, "location")]
            plan.append([s, var, loc])
            if loc is not None:
                used.update(range(loc, loc + GT.type_size_slots(s.type)))
        nxt = 0
        def order(p):
            s = p[0]
            return (s.builtin, LEGACY_ATTRIBUTES.index(s.name) if s.name in LEGACY_ATTRIBUTES else 0)
        plan.sort(key=order)
        for entry in plan:
            if entry[2] is None:
                n = GT.type_size_slots(entry[0].type)
                while any(x in used for x in range(nxt, nxt + n)):
                    nxt += 1
                entry[2] = nxt
                used.update(range(nxt, nxt + n))
        saved = L.b
        L.b = pro
        fetch = {a.location: a for a in (self.k("vertex_attribs", ()) or ())}
        for s, var, loc in plan:
            comps, locs = _vec_shape(s.type)
            self.attributes[s.name] = Attribute(s.name, loc, str(s.type), comps, locs)
            if s.type.innermost_element.base in GT.BASES_64 and all(loc + i in fetch for i in range(locs)):
                self._fetch_64bit_attribute(s, var, loc, fetch)
                continue
            first = _layout_int(s.layout, "component") or 0    # ARB_enhanced_layouts: components first..
            if loc in fetch and locs == 1 and not s.type.is_array:
                from .vertex_fetch import fetch_attribute
                pro.store_var(var, _components(pro, fetch_attribute(pro, fetch[loc], _BASE_IR[s.type.base],
                                                                    comps + first), first, comps))
                continue
            if locs > 1 and all(loc + i in fetch for i in range(locs)):
                # matrices and arrays: one fetch per location (column or element)
                from .vertex_fetch import fetch_attribute

                def leaves(d):
                    t = d.parent.type
                    if isinstance(t, ArrayType):
                        return [x for k in range(t.length) for x in leaves(pro.deref_array(d, k))]
                    return [d]
                base = _BASE_IR[s.type.innermost_element.base]
                for i, d in enumerate(leaves(pro.deref_var(var))):
                    pro.store_deref(d, _components(pro, fetch_attribute(pro, fetch[loc + i], base, comps + first),
                                                   first, comps))
                continue
            if first:
                # the attribute read with components 0 .. first + comps - 1, the last comps kept
                wide = VecType(_BASE_IR[s.type.innermost_element.base], 32, first + comps)
                ivar = IRVariable(s.name, ArrayType(wide, locs) if s.type.is_array else wide, "shader_in",
                                  {"slot": f"ATTR{loc}", "driver_location": loc})
                self.shader.variables.append(ivar)
                if s.type.is_array:
                    for k in range(locs):
                        value = pro.load_deref(pro.deref_array(pro.deref_var(ivar), k))
                        pro.store_deref(pro.deref_array(pro.deref_var(var), k), _components(pro, value, first, comps))
                else:
                    pro.store_var(var, _components(pro, pro.load_var(ivar), first, comps))
                continue
            ivar = IRVariable(s.name, ir_type(s.type), "shader_in",
                              {"slot": f"ATTR{loc}", "driver_location": loc})
            self.shader.variables.append(ivar)
            L.store(pro.deref_var(var), s.type, L.load(pro.deref_var(ivar), s.type))
        L.b = saved

    def _fetch_64bit_attribute(self, s, var, loc: int, fetch: dict) -> None:
        """A double (int64) input the shader fetches itself: each location's element holds
        raw 32-bit words (the driver binds a 64-bit array as words, four per location), a
        column of n components is its first 2n words (one location for n <= 2, two
        otherwise), paired low/high into 64-bit components."""
        from .vertex_fetch import fetch_attribute
        pro = self.pro
        el = s.type.innermost_element
        n = el.vector_size
        per = 2 if n > 2 else 1

        def leaves(d):
            t = d.parent.type
            if isinstance(t, ArrayType):
                return [x for k in range(t.length) for x in leaves(pro.deref_array(d, k))]
            return [d]
        for c, d in enumerate(leaves(pro.deref_var(var))):
            words = []
            for i in range(per):
                w = fetch_attribute(pro, fetch[loc + c * per + i], "float", 4)
                words += [pro.channel(w, k) for k in range(4)]
            comps = [pro.pack_64_2x32_split(words[2 * k], words[2 * k + 1]) for k in range(n)]
            pro.store_deref(d, pro.vec(*comps) if n > 1 else comps[0])

    # ------------------------------------------------------------ opaque
    def opaque_symbol(self, L, s, e) -> Opaque:
        t = s.type
        inner = t.innermost_element
        count = _count(t)
        if inner.is_sampler or inner.is_image:
            table = self.samplers if inner.is_sampler else self.images
            if s.name not in table:
                nxt = self._next_sampler if inner.is_sampler else self._next_image
                table[s.name] = OpaqueSlot(s.name, str(t), nxt, count, _layout_int(s.layout, "binding"))
                if inner.is_sampler:
                    self._next_sampler += count
                else:
                    self._next_image += count
            slot = table[s.name]
            o = Opaque("sampler" if inner.is_sampler else "image", inner, slot.slot, s.name, None, count)
        else:
            binding, offset = self._atomic_offsets.get(
                s.name, (_layout_int(s.layout, "binding") or 0, _layout_int(s.layout, "offset") or 0))
            self.atomic_counters[s.name] = OpaqueSlot(s.name, str(t), 0, count, binding, offset)
            o = Opaque("atomic", inner, 0, s.name, None, count, binding, offset)
        L.opaque[s] = o
        return o

    def opaque_leaf(self, L, name: str, t: GT.GLSLType) -> Opaque:
        """A sampler/image member of a uniform struct, by leaf name (``s.tex``)."""
        inner = t.innermost_element
        table = self.samplers if inner.is_sampler else self.images
        count = _count(t)
        if name not in table:
            nxt = self._next_sampler if inner.is_sampler else self._next_image
            table[name] = OpaqueSlot(name, str(t), nxt, count, None)
            if inner.is_sampler:
                self._next_sampler += count
            else:
                self._next_image += count
        return Opaque("sampler" if inner.is_sampler else "image", inner, table[name].slot, name, None, count)

    def atomic_counter_ssbo(self, opq: Opaque) -> int:
        return self.atomic_counter_ssbo_base + opq.binding

    # ------------------------------------------------------------ memory
    def memory_address(self, L, deref_def):
        """(mode, block index Def, byte offset Def, base_B) of a buffer/shared deref."""
        b = L.b
        d: Deref = deref_def.parent
        var = d.var
        if var.mode == "ssbo":
            index, off = buffer_address(b, d, var)
            return "ssbo", index, off, 0
        if var.mode == "shared":
            off = deref_offset(b, d, "byte", "std430")
            return "shared", None, off, var.data["offset_B"]
        raise LoweringError("atomic functions need a buffer or shared variable")

    def runtime_array_length(self, L, e):
        b = L.b
        lv = L.lvalue(e.base)
        d: Deref = lv.deref.parent
        var = d.var
        if var.mode != "ssbo":
            raise LoweringError("length() of an unsized array outside a storage block")
        packing = var.data.get("packing", "std430")
        # offset of the array: address of element 0
        zero = b.deref_array(lv.deref, 0)
        index, start = buffer_address(b, zero.parent, var)
        size, align = type_layout(d.type.element, packing)
        if packing == "std140":
            align = (align + 15) // 16 * 16
        stride = (size + align - 1) // align * align
        total = b.intrinsic("get_ssbo_size", index, num_components=1)
        return b.udiv(b.isub(total, start), stride)

    # ------------------------------------------------------------ end of main
    def finish(self, L) -> None:
        """The key's part of the interface, at the end of main: inputs (prologue),
        outputs, blending; then the register fit (``fit_uniform_registers``)."""
        self.apply_deferred()
        if self.stage in ("tess_control", "tess_evaluation"):
            self.tess.emit_prologue(self._input_vars)
            self.tess.finish(L.b)
            self.shader.info["shared_size_B"] = self.tess.layout.size_B if self.stage == "tess_control" \
                else self._shared_end
            return
        if self.stage == "geometry":
            self.geometry.emit_prologue(self.pro, self._input_vars)
            self.geometry.finish(L.b)
            self.shader.info["geometry"] = self.geometry.interface
            self.shader.info["shared_size_B"] = self._shared_end
            return
        self._emit_inputs()
        if self.stage == "vertex":
            self._vertex_outputs(L)
        elif self.stage == "fragment":
            from .blend import fragment_outputs
            fragment_outputs(self, L)
        self.shader.info["shared_size_B"] = self._shared_end

    def _output_filter(self, L, outs, position):
        """The position the rasteriser gets: with ``key["output_filter"]`` = (by layer, by
        viewport), a vertex whose gl_Layer / gl_ViewportIndex (0 when not written) differs
        from the layer / viewport the pass draws (the uniform ``shimgl_OutputFilter``,
        x = layer, y = viewport) gets a NaN position, so the clipper drops its primitives:
        the driver draws a layered framebuffer once per layer (and once per viewport), as
        the geometry passes' pass-through does (the hardware's tiler would bin by layer)."""
        by_layer, by_viewport = self.k("output_filter", (False, False)) or (False, False)
        if not (by_layer or by_viewport):
            return position
        b = L.b
        drawn = b.load_var(self.add_uniform("shimgl_OutputFilter", GT.IVEC2))
        miss = None
        for on, name, comp in ((by_layer, "gl_Layer", 0), (by_viewport, "gl_ViewportIndex", 1)):
            if not on:
                continue
            value = b.load_var(outs[name][1]) if name in outs else b.iimm(0)
            test = b.ine(value, b.channel(drawn, comp))
            miss = test if miss is None else b.ior(miss, test)
        nan = b.fimm([float("nan")] * 4)
        return b.bcsel(b.vec(miss, miss, miss, miss), nan, position)

    def _vertex_outputs(self, L) -> None:
        b = L.b
        outs = {s.name: (s, var) for s, var in self.out_symbols}
        items, stores = [], []
        fp16 = self.k("fp16_varyings", False)
        flat_colours = self.k("flat_shade", False)
        for s, var in sorted(self.out_symbols, key=_canonical):
            name = s.name
            if s.builtin:
                if name in ("gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"):
                    items.append(dict(name=name, location=None, components=4, locations=1,
                                      interp="flat" if flat_colours else "smooth", bit_size=32))
                    if self.k("clamp_vertex_color", False):     # glClampColor's vertex colour clamp
                        stores.append((name, s.type, lambda var=var, s=s: b.fsat(L.load(b.deref_var(var), s.type))))
                    else:
                        stores.append((name, s.type, lambda var=var, s=s: L.load(b.deref_var(var), s.type)))
                elif name == "gl_TexCoord":
                    for i in const_indices(self.unit, s, 8):
                        n = f"gl_TexCoord[{i}]"
                        items.append(dict(name=n, location=None, components=4, locations=1, interp="smooth",
                                          bit_size=32))
                        stores.append((n, GT.VEC4, lambda var=var, i=i: b.load_deref(
                            b.deref_array(b.deref_var(var), i))))
                elif name == "gl_FogFragCoord":
                    items.append(dict(name=name, location=None, components=1, locations=1, interp="smooth",
                                      bit_size=32))
                    stores.append((name, s.type, lambda var=var: b.load_var(var)))
                elif name in ("gl_ClipDistance", "gl_CullDistance"):
                    # also an ordinary varying of the elements written, which a fragment stage
                    # reading gl_ClipDistance/gl_CullDistance links to (the CLIP and CULL words
                    # below are the clipper's and the PPP's, written only when enabled)
                    n = max(const_indices(self.unit, s, s.type.length), default=-1) + 1
                    if n:
                        copy = FS_DISTANCE_VARYINGS[name]
                        items.append(dict(name=copy, location=None, components=1, locations=n, interp="smooth",
                                          bit_size=32))
                        stores.append((copy, GT.array_of(GT.FLOAT, n), lambda var=var, n=n: [
                            b.load_deref(b.deref_array(b.deref_var(var), i)) for i in range(n)]))
                elif name in ("gl_Layer", "gl_ViewportIndex"):
                    # AMD_vertex_shader_layer / _viewport_index: a flat varying of that name, which
                    # a fragment stage reading gl_Layer / gl_ViewportIndex links to (as the
                    # geometry passes' pass-through writes it); the key's output_filter below
                    items.append(dict(name=name, location=None, components=1, locations=1, interp="flat",
                                      bit_size=32))
                    stores.append((name, s.type, lambda var=var: b.load_var(var)))
                elif name in ("gl_Position", "gl_PointSize", "gl_ClipVertex"):
                    pass
                else:
                    raise LoweringError(f"built-in output {name} is not supported")
                continue
            members = _block_members(s)
            if members:             # one varying per member (``_block_members``)
                for path, f, key, suffix in members:
                    comps, locs = _vec_shape(f.type)
                    link = f"{_varying_link(s)}{suffix}"
                    items.append(dict(name=link, location=key, components=comps, locations=locs,
                                      interp=_member_interp(s, f), bit_size=32))
                    stores.append((link, f.type, lambda var=var, path=path, f=f: L.load(
                        _member_deref(b, var, path), f.type)))
                continue
            comps, locs = _vec_shape(s.type)
            interp = INTERPOLATION[s.interpolation]
            if s.type.is_integer or (s.type.is_array and s.type.innermost_element.is_integer):
                interp = "flat"
            bits = 16 if fp16 and s.precision in ("mediump", "lowp") and s.type.base == "float" else 32
            link = _varying_link(s)
            items.append(dict(name=link, location=_location_key(s.layout), components=comps,
                              locations=locs, interp=interp, bit_size=bits))
            stores.append((link, s.type, lambda var=var, s=s: L.load(b.deref_var(var), s.type)))
        user = order_varyings(items, 4)
        by_name = {v.name: v for v in user}
        index = 4 + sum(v.words for v in user)
        varyings = [Varying("POS", "gl_Position", None, 4, 1, "noperspective", 32, 0)]
        pos_var = IRVariable("gl_Position", VecType("float", 32, 4), "shader_out",
                             {"slot": "POS", "driver_location": 0})
        self.shader.variables.append(pos_var)
        if "gl_Position" in outs:
            position = b.load_var(outs["gl_Position"][1])
        else:
            position = b.fimm([0.0, 0.0, 0.0, 1.0])
        rasterised = self._output_filter(L, outs, position)
        b.store_var(pos_var, rasterised)
        for name, t, load in stores:
            v = by_name[name]
            var = IRVariable(name, ir_type(t), "shader_out", {"slot": v.slot, "driver_location": v.index})
            self.shader.variables.append(var)
            L.store(b.deref_var(var), t, load())
        varyings += user
        if "gl_PointSize" in outs:
            v = Varying("PSIZ", "gl_PointSize", None, 1, 1, "flat", 32, index)
            index += 1
            varyings.append(v)
            var = IRVariable("gl_PointSize", VecType("float", 32, 1), "shader_out",
                             {"slot": "PSIZ", "driver_location": v.index})
            self.shader.variables.append(var)
            b.store_var(var, b.load_var(outs["gl_PointSize"][1]))
        mask = self.k("clip_planes", 0) or 0
        if mask:
            n = mask.bit_length()
            dists = []
            if "gl_ClipDistance" in outs:
                cd = outs["gl_ClipDistance"][1]
                for i in range(n):
                    dists.append(b.load_deref(b.deref_array(b.deref_var(cd), i)) if mask >> i & 1 else None)
            else:
                planes = self.builtin_value(L, "gl_ClipPlane")
                if "gl_ClipVertex" in outs:
                    cv = b.load_var(outs["gl_ClipVertex"][1])
                else:
                    cv = position
                for i in range(n):
                    dists.append(b.fdot4(planes[i], cv) if mask >> i & 1 else None)
            dists = [d if d is not None else b.fimm(1.0) for d in dists]
            # up to 4: one vector; more: an array of floats, one word per element (the
            # store's location offset is strided by the components per location)
            v = Varying("CLIP", "gl_ClipDistance", None, *((n, 1) if n <= 4 else (1, n)), "noperspective", 32,
                        index)
            varyings.append(v)
            index += n
            var = IRVariable("gl_ClipDistance", VecType("float", 32, n) if n in (1, 2, 3, 4) else
                             ArrayType(VecType("float", 32, 1), n), "shader_out",
                             {"slot": "CLIP", "driver_location": v.index})
            self.shader.variables.append(var)
            if n <= 4:
                b.store_var(var, b.vec(*dists) if n > 1 else dists[0])
            else:
                for i, d in enumerate(dists):
                    b.store_deref(b.deref_array(b.deref_var(var), i), d)
        if "gl_CullDistance" in outs:
            # ARB_cull_distance: the words after the clip distances, one per element the
            # shader indexes; the PPP culls a primitive when one of them is negative at all
            # of its vertices (PPP_OUTPUT_SELECT.cull_distances)
            sym, cd = outs["gl_CullDistance"]
            n = max(const_indices(self.unit, sym, sym.type.length), default=-1) + 1
            if n:
                v = Varying("CULL", "gl_CullDistance", None, *((n, 1) if n <= 4 else (1, n)), "noperspective",
                            32, index)
                varyings.append(v)
                index += n
                var = IRVariable("gl_CullDistance", VecType("float", 32, n) if n <= 4 else
                                 ArrayType(VecType("float", 32, 1), n), "shader_out",
                                 {"slot": "CULL", "driver_location": v.index})
                self.shader.variables.append(var)
                dists = [b.load_deref(b.deref_array(b.deref_var(cd), i)) for i in range(n)]
                if n <= 4:
                    b.store_var(var, b.vec(*dists) if n > 1 else dists[0])
                else:
                    for i, d in enumerate(dists):
                        b.store_deref(b.deref_array(b.deref_var(var), i), d)
        self.varyings = varyings
        self.shader.info["vertex_outputs"] = index
        xfb = self.k("xfb", ()) or ()
        if xfb:
            from .xfb import XfbPlace, emit_xfb

            def value_of(name):
                if name == "gl_Position":
                    return position, 4
                if name in outs and outs[name][0].type.is_block:
                    return outs[name][1]        # a block instance: emit_xfb reads each member's locations
                if name in outs:
                    s = outs[name][0]
                    comps, locs = _vec_shape(s.type)
                    if locs == 1 and not s.type.is_array:
                        return b.load_var(outs[name][1]), comps
                    return outs[name][1]        # several locations: emit_xfb reads each
                block, _, member = name.partition(".")          # Block.member of a block instance
                element = None
                if block.endswith("]"):                         # Block[i].member of an array of them
                    block, _, index = block[:-1].partition("[")
                    element = int(index)
                for s, var in outs.values():
                    t = s.type.element if element is not None and s.type.is_array else s.type
                    names = [f.name for f in t.fields] if t.is_block and t.name == block and                         (element is None) == (not s.type.is_array) else []
                    if member in names:
                        ft = t.fields[names.index(member)].type
                        comps, locs = _vec_shape(ft)
                        place = b.deref_var(var) if element is None else b.deref_array(b.deref_var(var), element)
                        member_deref = b.deref_struct(place, names.index(member))
                        if locs == 1 and not ft.is_array:
                            return b.load_deref(member_deref), comps
                        irt = var.type if element is None else var.type.element
                        return XfbPlace(member_deref, irt.fields[names.index(member)][1])      # its locations
                raise LoweringError(f"transform feedback of {name!r} is not supported")
            emit_xfb(b, xfb, value_of)


def _vec_shape(t: GT.GLSLType) -> tuple[int, int]:
    """(components per location, locations) of an interface type. 64-bit types count
    32-bit words (the fp64 lowering splits their values into words): a double or dvec2
    fills one location, a dvec3/dvec4 two (GL 4.6 section 11.1.2.1), so a double matrix
    with more than two rows two per column (lower64 doubles their location offsets)."""
    if t.base in GT.BASES_64:
        words = 2 * t.vector_size
        return (words, t.columns) if words <= 4 else (4, 2 * t.columns)
    if t.is_array:
        c, n = _vec_shape(t.element)
        return c, n * (t.length or 1)
    if t.is_matrix:
        return t.vector_size, t.columns
    if t.is_struct or t.is_block:
        return 4, GT.type_size_slots(t)
    return t.vector_size, 1


def _element_suffixes(t: GT.GLSLType) -> list[str]:
    """``[0][0]``, ``[0][1]``, ... for every element of an array (of arrays), row-major."""
    if not t.is_array:
        return [""]
    return [f"[{i}]{rest}" for i in range(t.length or 1) for rest in _element_suffixes(t.element)]


def _count(t: GT.GLSLType) -> int:
    return (t.length or 1) * _count(t.element) if t.is_array else 1
