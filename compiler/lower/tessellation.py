"""Tessellation stages lowered to compute kernels (the GPU has no tessellation unit;
Mesa's asahi does the same, ``agx_nir_lower_tess``). The lowered shaders are compute
shaders (``shader.stage == "compute"``). The passes of one draw (driver/gl/tessellation.py
runs them; the tessellator kernel itself is GLSL there):

1. the vertex stage writes each vertex's outputs to buffer ``TESS_VS_OUT`` (the
   geometry stage's vertex pass: record ``instance * records + vertex_id - lo``, the
   layout ``compiler.lower.geometry.vertex_record_layout``);
2. **the control kernel** (stage "tess_control", key ``tcs`` = ``TessControlKey``):
   one workgroup of ``vertices`` invocations per (patch, instance), workgroup id =
   (patch, instance), ``gl_InvocationID`` = local invocation id. Inputs ``gl_in[j]``
   and the user's per-vertex inputs are loaded for ``j < patch_vertices`` from the
   records of draw positions ``patch * patch_vertices + j`` (through ``TESS_INDEX``
   for indexed draws). Every output (``gl_out``, per-vertex and ``patch`` outputs,
   ``gl_TessLevelOuter``/``Inner``) is a *shared* variable, so ``barrier()`` makes
   each invocation's writes visible to the others as GL requires; at the end the
   workgroup copies its shared memory, word by word, to its *patch record* in
   ``TESS_PATCHES``: record ``instance * patches + patch`` of ``PatchLayout.words``
   words (``patch_layout``: outer levels at word 0, inner levels at word 4, then
   the outputs with std430 rules);
3. the tessellator (count kernel, prefix sum, write kernel) reads the levels of each
   patch record and writes the generated vertices to ``TESS_COORDS`` (4 words each:
   u, v, w as floats and the patch record's index) and the primitives' indices;
4. **the evaluation kernel** (stage "tess_evaluation", key ``tes`` = ``TessEvalKey``):
   one invocation per generated vertex ``g``: ``gl_TessCoord`` and the patch come
   from ``TESS_COORDS[g]``, ``gl_in[j]``, per-vertex and patch inputs and the levels
   from the patch record; its outputs are stored as record ``g`` of ``TESS_OUT``
   with the geometry stage's output record layout (``geometry_interface``);
5. the rasterisation draw reads ``TESS_OUT`` through the tessellator's indices.

``TESS_PARAMS`` (32-bit words, written by the driver per draw):

====== =============================================================
word 0 patches per instance
word 1 vertex records per instance in ``TESS_VS_OUT``
word 2 first vertex (non-indexed) or first index (indexed)
word 3 base vertex (indexed)
word 4 ``lo``: the vertex id of record 0
word 5 generated vertices (the evaluation kernel's invocations)
====== =============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import WIDE_BASES, _record_locations     # the vertex records' layout is the geometry stage's

__all__ = ["TESS_PARAMS", "TESS_VS_OUT", "TESS_INDEX", "TESS_PATCHES", "TESS_COORDS", "TESS_OUT",
           "TES_LOCAL_SIZE_X", "OUTER_LEVELS_WORD", "INNER_LEVELS_WORD", "PatchEntry", "PatchLayout",
           "patch_layout", "TessControlKey", "TessEvalKey", "tess_lowering", "standalone_tess_key"]

# store_ssbo/load_ssbo buffer indices of the passes (above the geometry stage's)
TESS_PARAMS = 72
TESS_VS_OUT = 73
TESS_INDEX = 74
TESS_PATCHES = 75
TESS_COORDS = 76
TESS_OUT = 77
TES_LOCAL_SIZE_X = 64
OUTER_LEVELS_WORD = 0           # gl_TessLevelOuter[0..3] in a patch record
INNER_LEVELS_WORD = 4           # gl_TessLevelInner[0..1]
_LEVELS_B = 24


@dataclass(frozen=True)
class PatchEntry:
    """One output of the control stage in a patch record: ``name`` is its link name
    (the variable's, a block's block name, ``gl_out`` for the built-in block),
    ``stride_B`` the distance between vertices (0: a ``patch`` output), ``glsl_type``
    the type of one vertex's value (of the whole output for a ``patch`` one)."""
    name: str
    offset_B: int
    stride_B: int
    glsl_type: str
    location: int = -1          # its layout(location = N) (a plain variable's), -1 when none
    component: int = 0          # its layout(component = N) beside the location


@dataclass(frozen=True)
class PatchLayout:
    """The patch record of a control stage: what the evaluation kernel and the
    tessellator read (``size_B`` a multiple of 16)."""
    vertices: int
    entries: tuple
    size_B: int

    @property
    def words(self) -> int:
        return self.size_B // 4

    def find(self, name: str) -> PatchEntry | None:
        return next((e for e in self.entries if e.name == name), None)

    def find_located(self, location: int, patch: bool, component: int = 0) -> PatchEntry | None:
        """The output at ``location`` (and ``component``) among the per-vertex (``patch``
        False) or per-patch outputs: a located input matches it by location (GL 4.6
        section 7.4.1)."""
        return next((e for e in self.entries if e.location == location and e.component == component
                     and (e.stride_B == 0) == patch), None)


def _link_name(s) -> str:
    t = s.type.element if s.type.is_array else s.type
    return t.name if t.is_block and not s.builtin else s.name


def _outputs(unit):
    seen, out = set(), []
    for s in list(unit.globals) + list(unit.builtin_variables):
        if s.storage == "out" and s.name not in seen:
            seen.add(s.name)
            out.append(s)
    return out


def patch_layout(unit, vertices: int | None = None) -> PatchLayout:
    """The patch record of a control stage's typed AST: the levels first (always, at
    words 0-3 and 4-5), then every output in declaration order, std430 rules (the
    shared variables of the control kernel have exactly these offsets). ``vertices``:
    the output patch size when another shader object of the stage declares it
    (the unit's per-vertex outputs are then sized by it). Raises LoweringError for
    outputs the record cannot hold."""
    from compiler.glsl import types as GT
    from compiler.ir.passes.io import type_layout
    from .from_ast import LoweringError, ir_type
    lay = unit.tessellation
    vertices = vertices or (lay.vertices if lay is not None else None)
    if vertices is None:
        raise LoweringError("tessellation control shader without an output patch size (layout(vertices = N) out)")
    for s in _outputs(unit):            # sized by another shader object's layout
        if not s.patch and s.type.is_array and s.type.length is None:
            s.type = GT.array_of(s.type.element, vertices)
    entries = [PatchEntry("gl_TessLevelOuter", 4 * OUTER_LEVELS_WORD, 0, "float[4]"),
               PatchEntry("gl_TessLevelInner", 4 * INNER_LEVELS_WORD, 0, "float[2]")]
    offset = _LEVELS_B
    for s in _outputs(unit):
        if s.name in ("gl_TessLevelOuter", "gl_TessLevelInner"):
            continue
        if s.block is not None and not s.type.is_block and not (s.type.is_array and s.type.element.is_block) \
                and not s.builtin:
            raise LoweringError(f"tessellation control output `{s.name}' in a block without an instance "
                                "name is not supported")
        irt = ir_type(s.type)
        if irt is None:
            raise LoweringError(f"tessellation control output `{s.name}' of type {s.type.name} is not supported")
        size, align = type_layout(irt, "std430")
        offset = (offset + align - 1) // align * align
        per_vertex = not s.patch and s.type.is_array and s.name not in ()
        stride = size // s.type.length if per_vertex and s.type.length else 0
        if per_vertex and s.type.length != vertices:
            raise LoweringError(f"tessellation control output `{s.name}' is not sized by the output patch")
        located = -1 if s.builtin or s.type.is_block or (s.type.is_array and s.type.element.is_block) \
            else (s.layout or {}).get("location", -1)
        entries.append(PatchEntry(_link_name(s), offset, stride, s.type.element.name if per_vertex else s.type.name,
                                  located, (s.layout or {}).get("component", 0) if located >= 0 else 0))
        offset += size
    return PatchLayout(vertices, tuple(entries), max((offset + 15) // 16 * 16, 32))


@dataclass(frozen=True)
class TessControlKey:
    """How a draw feeds the control kernel: vertices per input patch, the index size
    in bytes (0: not indexed) and the vertex records' layout (as ``GeometryKey``)."""
    patch_vertices: int
    index_size_B: int
    inputs: tuple
    vs_stride_dw: int
    output_vertices: int | None = None      # the linked output patch size (None: the shader's own)


@dataclass(frozen=True)
class TessEvalKey:
    """The evaluation kernel's view of the patch records (the linked control stage's
    ``PatchLayout``)."""
    patch: PatchLayout


def standalone_tess_key(unit):
    """The key of a tessellation shader compiled on its own (``shimgl compile``)."""
    from compiler.glsl.tessellation import TessLayout  # noqa: F401 - documentation of the input
    from .geometry import vertex_record_layout
    if unit.stage == "tess_control":
        inputs = [("gl_Position", 1), ("gl_PointSize", 1), ("gl_ClipDistance", 2)]
        for s in unit.globals:
            if s.storage == "in" and s.type.is_array and not s.type.is_block:
                inputs.append((s.name, _locations(s.type.element)))
        layout, stride = vertex_record_layout(inputs)
        n = unit.tessellation.vertices if unit.tessellation and unit.tessellation.vertices else 1
        return "tcs", TessControlKey(n, 0, layout, stride)
    entries, offset = [PatchEntry("gl_TessLevelOuter", 0, 0, "float[4]"),
                       PatchEntry("gl_TessLevelInner", 16, 0, "float[2]")], _LEVELS_B
    from compiler.ir.passes.io import type_layout
    from .from_ast import ir_type
    vertices = 3
    for s in unit.globals + [v for v in unit.builtin_variables if v.name == "gl_in"]:
        if s.storage != "in":
            continue
        t = s.type.element if (s.type.is_array and not s.patch) else s.type
        size, align = type_layout(ir_type(t), "std430")
        offset = (offset + align - 1) // align * align
        name = "gl_out" if s.name == "gl_in" else _link_name(s)
        entries.append(PatchEntry(name, offset, 0 if s.patch else size, t.name))
        offset += size * (1 if s.patch else vertices)
    return "tes", TessEvalKey(PatchLayout(vertices, tuple(entries), (offset + 15) // 16 * 16))


def _locations(t) -> int:
    if t.is_array:
        return (t.length or 1) * _locations(t.element)
    if t.is_matrix:
        return t.columns
    return 1


def tess_lowering(io, L):
    """The lowering object of a tessellation stage (``io.tess``)."""
    return TessControlLowering(io, L) if io.stage == "tess_control" else TessEvalLowering(io, L)


def _copy_from_memory(b, dst, irt, buffer: int, off_B):
    """Load a value of IR type ``irt`` laid out with std430 rules at byte ``off_B`` of
    buffer ``buffer`` into the deref ``dst``."""
    from compiler.ir import ArrayType, VecType
    from compiler.ir.passes.io import member_offset_B, type_layout
    if isinstance(irt, VecType):
        v = b.load_ssbo(b.iimm(buffer), off_B, num_components=irt.components, bit_size=irt.bit_size, align=4)
        b.store_deref(dst, v)
        return
    if isinstance(irt, ArrayType):
        size, _align = type_layout(irt, "std430")
        stride = size // irt.length
        for i in range(irt.length):
            _copy_from_memory(b, b.deref_array(dst, i), irt.element, buffer, b.iadd(off_B, i * stride))
        return
    for fi, (_n, ft) in enumerate(irt.fields):
        _copy_from_memory(b, b.deref_struct(dst, fi), ft, buffer,
                          b.iadd(off_B, member_offset_B(irt, fi, "std430")))


class _Common:
    def __init__(self, io, L):
        self.io, self.L = io, L

    def _param(self, b, word: int):
        return b.load_ssbo(b.iimm(TESS_PARAMS), b.iimm(4 * word), num_components=1, align=4)

    def emit_prologue(self, inputs) -> None:
        L = self.L
        saved, L.b = L.b, self.io.pro
        try:
            self._prologue(self.io.pro, inputs)
        finally:
            L.b = saved


class TessControlLowering(_Common):
    """The control stage as a compute kernel: see the module docstring."""

    def __init__(self, io, L):
        super().__init__(io, L)
        from .from_ast import LoweringError
        self.key = io.k("tcs")
        if self.key is None:
            raise LoweringError("a tessellation control shader is compiled for a draw (key['tcs'])")
        self.layout = patch_layout(io.unit, self.key.output_vertices)
        self.local_size = (self.layout.vertices, 1, 1)

    def output_variable(self, L, s) -> None:
        """Every output is a shared variable at its patch record offset."""
        from compiler.ir.core import Variable as IRVariable
        from .from_ast import ir_type
        entry = self.layout.find("gl_out" if s.name == "gl_out" else _link_name(s))
        var = IRVariable(f"tcs.{s.name}", ir_type(s.type), "shared", {"offset_B": entry.offset_B})
        self.io.shader.variables.append(var)
        L.bind(s, var)

    def _vertex_id(self, b, q):
        size = self.key.index_size_B
        first = self._param(b, 2)
        e = b.iadd(first, q)
        if size == 0:
            return e
        byte = b.imul(e, size)
        word = b.load_ssbo(b.iimm(TESS_INDEX), b.iand(byte, b.iimm(~3 & 0xFFFFFFFF)), num_components=1, align=4)
        if size < 4:
            word = b.iand(b.ushr(word, b.imul(b.iand(byte, 3), 8)), (1 << (8 * size)) - 1)
        return b.iadd(word, self._param(b, 3))

    def _prologue(self, b, inputs) -> None:
        from .from_ast import LoweringError
        wg = b.intrinsic("load_workgroup_id")
        patch, inst = b.channel(wg, 0), b.channel(wg, 1)
        inv = b.channel(b.intrinsic("load_local_invocation_id"), 0)
        pv = self.key.patch_vertices
        records, lo = self._param(b, 1), self._param(b, 4)
        rec_base = []
        for j in range(pv):
            vid = self._vertex_id(b, b.iadd(b.imul(patch, pv), j))
            rec = b.iadd(b.imul(inst, records), b.isub(vid, lo))
            rec_base.append(b.imul(rec, self.key.vs_stride_dw))
        from .geometry import location_alias
        where = {name: (off, locs) for name, off, locs in self.key.inputs}

        def location(name, j, k, comps):
            entry = where.get(name)
            if entry is None or k >= entry[1]:
                return b.imm([0] * comps, "int")
            off = b.iadd(rec_base[j], entry[0] + 4 * k)
            return b.load_ssbo(b.iimm(TESS_VS_OUT), b.imul(off, 4), num_components=comps, align=4)

        def read(t, name, j, first=0):
            if t.is_block:
                values, loc = [], first
                for f in t.fields:
                    member = f"{name}.{f.name}"
                    values.append(read(f.type, member, j) if member in where else read(f.type, name, j, loc))
                    loc += _record_locations(f.type)
                return values
            if t.is_struct:
                raise LoweringError(f"tessellation control input `{name}' of type {t.name} is not supported")
            if t.is_array:
                per = _record_locations(t.element)
                return [read(t.element, name, j, first + i * per) for i in range(t.length)]
            if t.base in WIDE_BASES:     # 64-bit: two words a component, as the vertex records hold them
                per = 2 if t.vector_size > 2 else 1

                def wide(c):
                    words = []
                    for h in range(per):
                        w = location(name, j, first + c * per + h, 4)
                        words += [b.channel(w, i) for i in range(4)]
                    comps = [b.pack_64_2x32_split(words[2 * i], words[2 * i + 1]) for i in range(t.vector_size)]
                    return b.vec(*comps) if len(comps) > 1 else comps[0]
                return [wide(c) for c in range(t.columns)] if t.is_matrix else wide(0)
            if t.is_matrix:
                return [location(name, j, first + c, t.vector_size) for c in range(t.columns)]
            return location(name, j, first, t.vector_size)

        L = self.L
        for s, var in inputs:
            if s.name == "gl_InvocationID":
                b.store_var(var, inv)
            elif s.name == "gl_PrimitiveID":
                b.store_var(var, patch)
            elif s.name == "gl_PatchVerticesIn":
                b.store_var(var, b.iimm(pv))
            elif s.name == "gl_in":
                from .geometry import gl_in_vertex
                for j in range(pv):
                    L.store(b.deref_array(b.deref_var(var), j), s.type.element,
                            gl_in_vertex(b, s.type.element, j, read, where, rec_base, TESS_VS_OUT))
            elif s.builtin:
                raise LoweringError(f"tessellation control input {s.name} is not supported")
            else:
                if not s.type.is_array:
                    raise LoweringError(f"tessellation control input `{s.name}' is not an array")
                et = s.type.element
                link = et.name if et.is_block else s.name
                located = (s.layout or {}).get("location")
                component = (s.layout or {}).get("component", 0)
                if not et.is_block and located is not None and location_alias(located, component) in where:
                    link = location_alias(located, component)      # both sides located: matched by location
                for j in range(pv):
                    L.store(b.deref_array(b.deref_var(var), j), et, read(et, link, j))

    def finish(self, b) -> None:
        """All invocations done: copy the workgroup's shared memory (the patch record)
        to ``TESS_PATCHES``, the words spread over the invocations."""
        b.barrier(execution_scope="workgroup", memory_scope="workgroup")
        wg = b.intrinsic("load_workgroup_id")
        patch, inst = b.channel(wg, 0), b.channel(wg, 1)
        inv = b.channel(b.intrinsic("load_local_invocation_id"), 0)
        slot = b.iadd(b.imul(inst, self._param(b, 0)), patch)
        words, n = self.layout.words, self.layout.vertices
        base = b.imul(slot, words)
        for k in range(-(-words // n)):
            w = b.iadd(inv, k * n) if k else inv
            guard = None
            if (k + 1) * n > words:
                guard = b.push_if(b.ult(w, b.iimm(words)))
            v = b.intrinsic("load_shared", b.imul(w, 4), num_components=1, bit_size=32, base=0, align=4)
            b.store_ssbo(v, b.iimm(TESS_PATCHES), b.imul(b.iadd(base, w), 4), write_mask=1, align=4)
            if guard is not None:
                b.pop_if(guard)


class TessEvalLowering(_Common):
    """The evaluation stage as a compute kernel: see the module docstring. The
    invocations past the generated vertices (the dispatch is whole workgroups) skip the
    shader's body, so its image, buffer and atomic writes happen once per vertex."""

    def emit_prologue(self, inputs) -> None:
        from .geometry import guard_body
        super().emit_prologue(inputs)
        guard_body(self.L, self.io.pro, self.v_active)

    def __init__(self, io, L):
        super().__init__(io, L)
        from compiler.glsl.geometry import GeometryLayout
        from .from_ast import LoweringError
        from .geometry import geometry_interface
        lay = io.unit.tessellation
        if lay is None or lay.mode is None:
            raise LoweringError("tessellation evaluation shader without a primitive mode "
                                "(layout(triangles|quads|isolines) in)")
        key = io.k("tes")
        if key is None:
            raise LoweringError("a tessellation evaluation shader is compiled for a draw (key['tes'])")
        self.key = key
        output = "points" if lay.point_mode else "line_strip" if lay.mode == "isolines" else "triangle_strip"
        self.interface = geometry_interface(io.unit, GeometryLayout("points", output, 1, 1))
        self.local_size = (TES_LOCAL_SIZE_X, 1, 1)
        from compiler.ir import VecType
        self.v_vertex = L.b.local_var("tes.vertex", VecType("uint", 32, 1))
        self.v_active = L.b.local_var("tes.active", VecType("bool", 1, 1))

    def _prologue(self, b, inputs) -> None:
        from .from_ast import LoweringError, ir_type
        g = b.channel(b.intrinsic("load_global_invocation_id"), 0)
        active = b.ult(g, self._param(b, 5))
        g = b.bcsel(active, g, b.iimm(0))
        b.store_var(self.v_vertex, g)
        b.store_var(self.v_active, active)
        coord = b.load_ssbo(b.iimm(TESS_COORDS), b.imul(g, 16), num_components=4, align=16)
        slot = b.channel(coord, 3)
        patch = b.umod(slot, self._param(b, 0))
        lay = self.key.patch
        base_B = b.imul(slot, lay.size_B)
        for s, var in inputs:
            if s.name == "gl_TessCoord":
                b.store_var(var, b.vec(b.channel(coord, 0), b.channel(coord, 1), b.channel(coord, 2)))
                continue
            if s.name == "gl_PrimitiveID":
                b.store_var(var, patch)
                continue
            if s.name == "gl_PatchVerticesIn":
                b.store_var(var, b.iimm(lay.vertices))
                continue
            if s.builtin and s.name not in ("gl_in", "gl_TessLevelOuter", "gl_TessLevelInner"):
                raise LoweringError(f"tessellation evaluation input {s.name} is not supported")
            name = "gl_out" if s.name == "gl_in" else _link_name(s)
            entry = lay.find(name)
            located = None if s.builtin else (s.layout or {}).get("location")
            if located is not None:
                entry = lay.find_located(located, bool(s.patch), (s.layout or {}).get("component", 0)) or entry
            if entry is None:
                continue                        # not written by the control stage: undefined
            if entry.stride_B == 0:
                _copy_from_memory(b, b.deref_var(var), ir_type(s.type), TESS_PATCHES,
                                  b.iadd(base_B, entry.offset_B))
                continue
            if not s.type.is_array:
                raise LoweringError(f"tessellation evaluation input `{s.name}' is not an array")
            et = ir_type(s.type.element)
            for j in range(min(lay.vertices, s.type.length)):
                _copy_from_memory(b, b.deref_array(b.deref_var(var), j), et, TESS_PATCHES,
                                  b.iadd(base_B, entry.offset_B + j * entry.stride_B))

    def finish(self, b) -> None:
        """Store the outputs as record ``g`` of ``TESS_OUT``."""
        from .geometry import _flatten
        L = self.L
        by_name = {s.name: (s, var) for s, var in self.io.out_symbols}
        iface = self.interface
        nif = b.push_if(b.load_var(self.v_active))
        base = b.imul(b.load_var(self.v_vertex), iface.stride_dw)
        for o in iface.outputs:
            s, var = by_name.get(o.instance or o.name, (None, None))
            if s is None:
                continue
            if o.instance:
                field = [f.name for f in s.type.fields].index(o.member)
                ft = s.type.fields[field].type
                values = _flatten(b, L.load(b.deref_struct(b.deref_var(var), field), ft), ft)
            else:
                values = _flatten(b, L.load(b.deref_var(var), s.type), s.type)
            per = o.locations_per_value               # (64-bit vectors of 3 or 4: two locations)
            for k, v in enumerate(values[:o.locations // per]):     # (gl_CullDistance: the elements written)
                off = b.imul(b.iadd(base, o.offset_dw + 4 * per * k), 4)
                b.store_ssbo(v, b.iimm(TESS_OUT), off, write_mask=(1 << v.num_components) - 1, align=4)
        b.pop_if(nif)
