"""Geometry shaders lowered to a compute kernel (the GPU has no geometry unit; Mesa's
asahi does the same, ``agx_nir_lower_gs``). Used when the shader's stage is
"geometry"; the key's ``gs`` (a ``GeometryKey``) says how the draw's vertices are
laid out. The lowered shader is a compute shader (``shader.stage == "compute"``).

The passes of one draw with a geometry shader (the driver runs them):

1. the vertex stage writes each vertex's outputs to buffer ``GS_VS_OUT``: record
   ``instance * records_per_instance + vertex_id - lo``; a record is
   ``GeometryKey.vs_stride_dw`` 32-bit words, one 4-word location per output
   location (``vertex_record_layout``);
2. **this kernel** runs one invocation per (input primitive ``p``, instance,
   geometry invocation): global invocation id = (p, instance, invocation). It finds
   the vertices of primitive ``p`` with the draw's topology (strips, fans, loops
   and adjacency decomposed; indices read from buffer ``GS_INDEX`` for indexed
   draws, as 8/16/32-bit values) and loads its inputs from their records. The
   invocation's *slot* is ``(instance * primitives + p) * invocations + invocation``
   (GL's order of output primitives). ``EmitVertex`` stores every output to the
   slot's region of ``GS_OUT`` (record ``slot * max_vertices + n``, ``n`` counting
   the emitted vertices, stores past max_vertices dropped), and each time the
   current strip completes a primitive (``EndPrimitive`` starts a new strip)
   appends its vertex records to the slot's list in ``GS_PRIMS`` (``max_primitives *
   vertices_per_primitive`` words per slot; odd triangles of a strip swap their
   first two vertices so every triangle keeps the strip's winding, the last vertex
   stays the provoking one). At the end, ``GS_COUNTS[slot]`` = primitives emitted.
   With vertex streams (``EmitStreamVertex(s)``), each stream ``s`` has its own
   counters and regions: slot ``s * slots + slot`` (``slots`` = GS_PARAMS word 7) of
   the records, lists and counts; a record of stream ``s`` holds the outputs of that
   stream (and gl_Position); ``GeometryInterface.streams`` regions in all.
3. a prefix sum over ``GS_COUNTS`` and a compaction kernel build the index buffer of
4. the rasterisation draw: a pass-through vertex program reads ``GS_OUT``.

``GS_PARAMS`` (32-bit words, written by the driver per draw):

====== =============================================================
word 0 input primitives per instance
word 1 records per instance in ``GS_VS_OUT``
word 2 first vertex (non-indexed) or first index (indexed)
word 3 base vertex (indexed)
word 4 ``lo``: the vertex id of record 0
word 5 restart index (indexed, list topologies: a primitive using it is skipped)
word 6 1 when primitive restart is enabled
word 7 slots: input primitives x instances x invocations (one stream's region)
word 14 gl_PrimitiveIDIn of the first input primitive: the primitives of the pieces
        before this one when the driver draws a large draw in pieces (0 otherwise)
====== =============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from .interface import INTERPOLATION

__all__ = ["guard_body", "GeometryKey", "GeometryOutput", "GeometryInterface", "GS_PARAMS", "GS_VS_OUT", "GS_INDEX",
           "GS_OUT", "GS_COUNTS", "GS_PRIMS", "TOPOLOGY_INPUT", "OUTPUT_VERTICES", "primitive_count",
           "max_output_primitives", "vertex_record_layout", "GeometryLowering", "LOCAL_SIZE_X",
           "geometry_interface", "standalone_key"]

# store_ssbo/load_ssbo buffer indices of the passes (above the user's and transform feedback's)
GS_PARAMS = 56
GS_VS_OUT = 57
GS_INDEX = 58
GS_OUT = 59
GS_COUNTS = 60
GS_PRIMS = 61
LOCAL_SIZE_X = 64

# draw topology -> the geometry shader input primitive it feeds (GL 4.6 table 11.1)
TOPOLOGY_INPUT = {
    "points": "points", "lines": "lines", "line_strip": "lines", "line_loop": "lines",
    "triangles": "triangles", "triangle_strip": "triangles", "triangle_fan": "triangles",
    "lines_adjacency": "lines_adjacency", "line_strip_adjacency": "lines_adjacency",
    "triangles_adjacency": "triangles_adjacency", "triangle_strip_adjacency": "triangles_adjacency",
}
# output primitive -> vertices of each primitive it is drawn as (points, lines, triangles)
OUTPUT_VERTICES = {"points": 1, "line_strip": 2, "triangle_strip": 3}


def primitive_count(topology: str, vertices: int) -> int:
    """Input primitives a draw of ``vertices`` vertices makes (GL 4.6 section 10.1)."""
    n = vertices
    per = {"points": 1, "lines": 2, "triangles": 3, "lines_adjacency": 4, "triangles_adjacency": 6}
    if topology in per:
        return n // per[topology]
    if topology == "line_strip":
        return max(n - 1, 0)
    if topology == "line_loop":
        return n if n >= 2 else 0
    if topology in ("triangle_strip", "triangle_fan"):
        return max(n - 2, 0)
    if topology == "line_strip_adjacency":
        return max(n - 3, 0)
    if topology == "triangle_strip_adjacency":
        return (n - 4) // 2 if n >= 6 else 0
    raise ValueError(f"unknown topology {topology!r}")


def max_output_primitives(output: str, max_vertices: int) -> int:
    """The most primitives one invocation can emit (a single strip of max_vertices)."""
    return max(max_vertices - OUTPUT_VERTICES[output] + 1, 0)


def vertex_record_layout(outputs) -> tuple[tuple, int]:
    """``outputs``: [(name, locations), ...] of the vertex stage -> (((name, offset_dw,
    locations), ...), record stride in words): 4 words per location, in order. Names:
    the output's, a block instance's block name, ``block.member`` for a member of a
    block without instance name."""
    layout, offset = [], 0
    for name, locations in outputs:
        layout.append((name, offset, locations))
        offset += 4 * locations
    return tuple(layout), max(offset, 4)


def location_alias(location: int, component: int = 0) -> str:
    """The record name under which the vertex output at ``layout(location, component)``
    is also found: a located input of the next stage matches it by location and
    component (GL 4.6 section 7.4.1), whatever the two variables are called."""
    return f"@location:{location}" + (f".{component}" if component else "")


def with_location_aliases(layout: tuple, locations: dict) -> tuple:
    """``vertex_record_layout``'s entries plus, for every output name in ``locations``
    (name -> its first explicit location, or (location, component)), one ``location_alias``
    entry per location it covers (an array's element k is at location + k, 4 words
    further on)."""
    extra = []
    for name, offset_dw, locs in layout:
        first = locations.get(name)
        if first is None:
            continue
        first, component = first if isinstance(first, tuple) else (first, 0)
        for k in range(locs):
            extra.append((location_alias(first + k, component), offset_dw + 4 * k, locs - k))
    return tuple(layout) + tuple(extra)


@dataclass(frozen=True)
class GeometryKey:
    """How a draw feeds the geometry kernel: its topology (a ``TOPOLOGY_INPUT`` key),
    the index size in bytes (0: not indexed) and the vertex records' layout
    (``vertex_record_layout``). ``distance_stride_dw``: the words from one clip or
    cull distance to the next in a record (1 in the vertex stage's records, 4 in the
    evaluation stage's, one location each)."""
    topology: str
    index_size_B: int
    inputs: tuple
    vs_stride_dw: int
    distance_stride_dw: int = 1

    def __post_init__(self):
        assert self.topology in TOPOLOGY_INPUT, f"unknown topology {self.topology!r}"
        assert self.index_size_B in (0, 1, 2, 4)


# the 64-bit base types an output may have (two record words a component)
WIDE_BASES = ("double", "int64", "uint64")


@dataclass(frozen=True)
class GeometryOutput:
    """One output of the geometry stage in a ``GS_OUT`` record: ``locations`` 4-word
    locations from word ``offset_dw``, ``components`` used in each; ``base`` float,
    int or uint; ``interp`` smooth, flat or noperspective."""
    name: str
    offset_dw: int
    components: int
    locations: int
    base: str
    interp: str
    glsl_type: str
    block: str = ""             # a member of an output block: the block's name, instance, member
    instance: str = ""
    member: str = ""
    stream: int = 0             # the vertex stream it belongs to (layout(stream = N))
    location: int = -1          # its layout(location = N), -1 when it has none
    component: int = -1         # its layout(component = N), -1 when it has none

    @property
    def locations_per_value(self) -> int:
        """Record locations of each vector (column, element) of the output: 64-bit ones
        (``base`` double, int64, uint64) take two words a component, so a vector of three
        or four takes two locations (8 words); ``locations`` counts them."""
        return 2 if self.base in WIDE_BASES and self.components > 2 else 1


@dataclass(frozen=True)
class GeometryInterface:
    """What the driver needs to run the kernel and draw its output (``ShaderInfo.geometry``)."""
    input: str
    output: str
    max_vertices: int
    invocations: int
    outputs: tuple              # GeometryOutput; gl_Position first at word 0
    stride_dw: int
    streams: int = 1            # vertex streams emitted to or declared: regions of the passes' buffers

    @property
    def vertices_per_primitive(self) -> int:
        return OUTPUT_VERTICES[self.output]

    @property
    def max_primitives(self) -> int:
        return max_output_primitives(self.output, self.max_vertices)


def _flatten(b, value, t):
    """Per-location vectors of a GLSL value as ``Lowerer.load`` gives it."""
    if t.is_array:
        return [x for v in value for x in _flatten(b, v, t.element)]
    if t.is_matrix:
        return list(value)
    return [value]


class GeometryLowering:
    """The interface of a geometry shader in the compute kernel; ``io`` is the
    ``IOLowering`` (inputs and outputs are its locals)."""

    def __init__(self, io, L):
        from .from_ast import LoweringError
        from compiler.ir import VecType
        self.io, self.L = io, L
        layout = io.unit.geometry
        if layout is None or not layout.complete:
            raise LoweringError("geometry shader without an input primitive, an output primitive and "
                                "max_vertices")
        self.layout = layout
        self.key = io.k("gs")
        if self.key is None:
            raise LoweringError("a geometry shader is compiled for a draw (key['gs'])")
        if TOPOLOGY_INPUT[self.key.topology] != layout.input:
            raise LoweringError(f"draw topology {self.key.topology} does not feed {layout.input}")
        u32 = VecType("uint", 32, 1)
        b = L.b
        self.v_slot = b.local_var("gs.slot", u32)
        self.v_active = b.local_var("gs.active", VecType("bool", 1, 1))
        self.v_in_range = b.local_var("gs.in_range", VecType("bool", 1, 1))
        self.streams = _stream_count(io.unit, layout)
        # per vertex stream: vertices emitted, the current strip's length, primitives completed
        self.v_emitted = [b.local_var(f"gs.emitted{s}", u32) for s in range(self.streams)]
        self.v_strip = [b.local_var(f"gs.strip{s}", u32) for s in range(self.streams)]
        self.v_prims = [b.local_var(f"gs.primitives{s}", u32) for s in range(self.streams)]
        self.outputs: list = []          # (symbol, local, GeometryOutput)
        self.interface = None

    # ------------------------------------------------------------ prologue
    def _param(self, b, word: int):
        return b.load_ssbo(b.iimm(GS_PARAMS), b.iimm(4 * word), num_components=1, align=4)

    def _vertex_position(self, b, p, j: int, prims):
        """Position in the draw's vertex list of vertex ``j`` of primitive ``p``: the
        topology table's columns (``uapi.topology``: start ``first[j] + step * p``,
        odd strip primitives, fan hubs, the loop's closing line), except for triangle
        strips with adjacency, whose ends the table does not model."""
        from uapi.topology import TOPOLOGIES
        t = TOPOLOGIES[self.key.topology]
        if self.key.topology == "triangle_strip_adjacency":
            return self._strip_adjacency_position(b, p, j, prims)
        if j in t.hub:
            return b.iimm(0)
        start = b.imul(p, t.step) if t.step != 1 else p
        pos = b.iadd(start, t.first[j]) if t.first[j] else start
        if t.odd is not None and t.odd[j] != t.first[j]:
            odd = b.ine(b.iand(p, 1), b.iimm(0))
            pos = b.bcsel(odd, b.iadd(start, t.odd[j]), pos)
        if t.loop and j == 1:
            pos = b.bcsel(b.ieq(p, b.isub(prims, 1)), b.iimm(0), pos)
        return pos

    def _strip_adjacency_position(self, b, p, j: int, prims):
        """Triangle strips with adjacency (GL 4.6 section 10.1.14, table 10.1), the last
        vertex provoking: vertex ``j`` of primitive ``p`` is ``2p + offset``, the offsets
        depending on whether ``p`` is even, the first or the last primitive."""
        even = b.ieq(b.iand(p, 1), b.iimm(0))
        first = b.ieq(p, b.iimm(0))
        last = b.ieq(p, b.isub(prims, 1))
        five_or_six = b.bcsel(last, b.iimm(5), b.iimm(6))
        even_offsets = [0, b.bcsel(first, b.iimm(1), b.iimm(-2)), 2, five_or_six, 4, 3]
        odd_offsets = [2, -2, 0, 3, 4, five_or_six]

        def off(value):
            return b.iimm(value) if isinstance(value, int) else value
        return b.iadd(b.imul(p, 2), b.bcsel(even, off(even_offsets[j]), off(odd_offsets[j])))

    def _vertex_id(self, b, q, active):
        """(vertex id, still active) of draw position ``q``."""
        size = self.key.index_size_B
        first = self._param(b, 2)
        if size == 0:
            return b.iadd(first, q), active
        e = b.iadd(first, q)
        byte = b.imul(e, size)
        word = b.load_ssbo(b.iimm(GS_INDEX), b.iand(byte, b.iimm(~3 & 0xFFFFFFFF)), num_components=1, align=4)
        if size < 4:
            shift = b.imul(b.iand(byte, 3), 8)
            word = b.iand(b.ushr(word, shift), (1 << (8 * size)) - 1)
        if self.key.topology in ("points", "lines", "triangles", "lines_adjacency", "triangles_adjacency"):
            restarted = b.iand(b.ine(self._param(b, 6), b.iimm(0)), b.ieq(word, self._param(b, 5)))
            active = b.iand(active, b.inot(restarted))
        return b.iadd(word, self._param(b, 3)), active

    def emit_prologue(self, pro, inputs) -> None:
        """Compute the slot and load every input (``inputs``: [(symbol, local)]), then
        put the shader's body under ``if (in range)``: the dispatch is rounded up to whole
        workgroups, and the invocations past the input primitives must not run the
        shader's image, buffer and atomic writes."""
        L = self.L
        saved, L.b = L.b, pro
        try:
            self._prologue(pro, inputs)
        finally:
            L.b = saved
        self._guard_body(pro)

    def _guard_body(self, pro) -> None:
        guard_body(self.L, pro, self.v_in_range)

    def _prologue(self, b, inputs) -> None:
        from .from_ast import LoweringError
        gid = b.intrinsic("load_global_invocation_id")
        p, inst, inv = (b.channel(gid, i) for i in range(3))
        prims = self._param(b, 0)
        active = b.ult(p, prims)
        b.store_var(self.v_in_range, active)
        records = self._param(b, 1)
        lo = self._param(b, 4)
        nverts = self.layout.input_vertices
        rec_base = []
        for j in range(nverts):
            q = self._vertex_position(b, p, j, prims)
            vid, active = self._vertex_id(b, q, active)
            rec = b.iadd(b.imul(inst, records), b.isub(vid, lo))
            rec_base.append(rec)
        rec_base = [b.imul(b.bcsel(active, r, b.iimm(0)), self.key.vs_stride_dw) for r in rec_base]
        invocations = self.layout.invocations
        slot = b.iadd(b.imul(b.iadd(b.imul(inst, prims), p), invocations), inv)
        b.store_var(self.v_slot, slot)
        b.store_var(self.v_active, active)
        for v in self.v_emitted + self.v_strip + self.v_prims:
            b.store_var(v, b.iimm(0))
        where = {name: (off, locs) for name, off, locs in self.key.inputs}

        def read(t, name, j, first_loc=0):
            """The value of input ``name`` at vertex ``j`` as Lowerer.load shapes it."""
            entry = where.get(name)

            def location(k, comps):
                if entry is None or first_loc + k >= entry[1]:
                    zero = b.imm([0] * comps, "int")
                    return zero
                off = b.iadd(rec_base[j], entry[0] + 4 * (first_loc + k))
                return b.load_ssbo(b.iimm(GS_VS_OUT), b.imul(off, 4), num_components=comps, align=4)
            if t.is_block:               # members in order, each at its locations
                values, loc = [], first_loc
                for f in t.fields:
                    member = f"{name}.{f.name}"      # a member of an instance-less vertex output block
                    values.append(read(f.type, member, j) if member in where else read(f.type, name, j, loc))
                    loc += _record_locations(f.type)
                return values
            if t.is_struct:
                raise LoweringError(f"geometry shader input `{name}' of type {t.name} is not supported")
            if t.is_array:
                per = _record_locations(t.element)
                return [read(t.element, name, j, first_loc + i * per) for i in range(t.length)]
            if t.base in WIDE_BASES:     # 64-bit: two words a component (io._vec_shape's record layout)
                per = 2 if t.vector_size > 2 else 1

                def wide(c):
                    words = []
                    for h in range(per):
                        w = location(c * per + h, 4)
                        words += [b.channel(w, i) for i in range(4)]
                    comps = [b.pack_64_2x32_split(words[2 * i], words[2 * i + 1]) for i in range(t.vector_size)]
                    return b.vec(*comps) if len(comps) > 1 else comps[0]
                return [wide(c) for c in range(t.columns)] if t.is_matrix else wide(0)
            if t.is_matrix:
                return [location(c, t.vector_size) for c in range(t.columns)]
            return location(0, t.vector_size)

        for s, var in inputs:
            if s.name == "gl_PrimitiveIDIn":            # counted across the pieces of a draw
                b.store_var(var, b.iadd(p, self._param(b, 14)))
            elif s.name == "gl_InvocationID":
                b.store_var(var, inv)
            elif s.name == "gl_in":
                for j in range(s.type.length):
                    self.L.store(b.deref_array(b.deref_var(var), j), s.type.element,
                                 gl_in_vertex(b, s.type.element, j, read, where, rec_base, GS_VS_OUT,
                                              self.key.distance_stride_dw))
            elif s.builtin:
                raise LoweringError(f"geometry shader input {s.name} is not supported")
            else:
                if not s.type.is_array:
                    raise LoweringError(f"geometry shader input `{s.name}' is not an array")
                L = self.L
                et = s.type.element
                link = et.name if et.is_block else s.name        # blocks link by block name
                location = (getattr(s, "layout", None) or {}).get("location")
                component = (getattr(s, "layout", None) or {}).get("component", 0)
                if not et.is_block and location is not None and location_alias(location, component) in where:
                    link = location_alias(location, component)     # both sides located: matched by location
                for j in range(s.type.length):
                    L.store(b.deref_array(b.deref_var(var), j), et, read(et, link, j))

    # ------------------------------------------------------------ outputs
    def plan_outputs(self, out_symbols) -> None:
        """The GS_OUT record layout (``geometry_interface``) and each output's local."""
        from .from_ast import LoweringError
        self.interface = geometry_interface(self.io.unit, self.layout)
        by_name = {s.name: (s, var) for s, var in out_symbols}
        self.outputs = []
        for o in self.interface.outputs:
            s, var = by_name.get(o.instance or o.name, (None, None))
            if s is None and o.name != "gl_Position":
                raise LoweringError(f"geometry shader output {o.name} has no variable")
            field = [f.name for f in s.type.fields].index(o.member) if o.instance else None
            self.outputs.append((s, var, o, field))

    def _stream_slot(self, b, stream: int):
        """The slot of this invocation in stream ``stream``'s region."""
        slot = b.load_var(self.v_slot)
        if stream == 0:
            return slot
        return b.iadd(b.imul(self._param(b, 7), stream), slot)

    def emit_vertex(self, b, stream: int = 0) -> None:
        """EmitStreamVertex(stream) (EmitVertex(): stream 0): store the stream's outputs as
        the slot's next record in that stream's region; extend the stream's strip. At most
        max_vertices per stream are kept."""
        L = self.L
        iface = self.interface
        maxv = iface.max_vertices
        n = b.load_var(self.v_emitted[stream])
        ok = b.iand(b.load_var(self.v_active), b.ult(n, b.iimm(maxv)))
        nif = b.push_if(ok)
        slot = self._stream_slot(b, stream)
        rec = b.iadd(b.imul(slot, maxv), n)
        base = b.imul(rec, iface.stride_dw)
        for s, var, o, field in self.outputs:
            if s is None or (o.stream != stream and o.name != "gl_Position"):
                continue
            if field is None:
                values = _flatten(b, L.load(b.deref_var(var), s.type), s.type)
            else:                       # a member of an output block instance
                ft = s.type.fields[field].type
                values = _flatten(b, L.load(b.deref_struct(b.deref_var(var), field), ft), ft)
            per = o.locations_per_value
            for k, v in enumerate(values[:o.locations // per]):     # (gl_CullDistance: the elements written)
                off = b.imul(b.iadd(base, o.offset_dw + 4 * per * k), 4)
                b.store_ssbo(v, b.iimm(GS_OUT), off, write_mask=(1 << v.num_components) - 1, align=4)
        strip = b.iadd(b.load_var(self.v_strip[stream]), 1)
        b.store_var(self.v_strip[stream], strip)
        vpp = iface.vertices_per_primitive
        done = b.push_if(b.uge(strip, b.iimm(vpp)))
        prims = b.load_var(self.v_prims[stream])
        if vpp == 1:
            verts = [rec]
        elif vpp == 2:
            verts = [b.isub(rec, 1), rec]
        else:
            odd = b.ieq(b.iand(strip, 1), b.iimm(0))      # the strip's (strip - 3)-th triangle is odd
            a, c = b.isub(rec, 2), b.isub(rec, 1)
            verts = [b.bcsel(odd, c, a), b.bcsel(odd, a, c), rec]
        list_base = b.imul(b.iadd(b.imul(slot, iface.max_primitives), prims), vpp)
        for k, v in enumerate(verts):
            b.store_ssbo(v, b.iimm(GS_PRIMS), b.imul(b.iadd(list_base, k), 4), write_mask=1, align=4)
        b.store_var(self.v_prims[stream], b.iadd(prims, 1))
        b.pop_if(done)
        b.store_var(self.v_emitted[stream], b.iadd(n, 1))
        b.pop_if(nif)

    def end_primitive(self, b, stream: int = 0) -> None:
        b.store_var(self.v_strip[stream], b.iimm(0))

    def finish(self, b) -> None:
        """The slot's primitive count per stream (every slot of the dispatch's range is written)."""
        nif = b.push_if(b.load_var(self.v_in_range))
        for stream in range(self.streams):
            slot = self._stream_slot(b, stream)
            b.store_ssbo(b.load_var(self.v_prims[stream]), b.iimm(GS_COUNTS), b.imul(slot, 4), write_mask=1,
                         align=4)
        b.pop_if(nif)


def standalone_key(unit) -> GeometryKey:
    """The key of a geometry shader compiled on its own (``shimgl compile``): a non-indexed
    draw of its input primitive as a list, vertex records holding exactly its inputs."""
    from .from_ast import LoweringError
    if unit.geometry is None or unit.geometry.input is None:
        raise LoweringError("geometry shader without an input primitive layout")
    inputs = [("gl_Position", 1), ("gl_PointSize", 1), ("gl_ClipDistance", 2)]
    for s in unit.globals:
        if s.storage == "in" and s.type.is_array and not s.type.is_block:
            inputs.append((s.name, _locations(s.type.element)))
    layout, stride = vertex_record_layout(inputs)
    return GeometryKey(unit.geometry.input, 0, layout, stride)


def geometry_interface(unit, layout=None) -> GeometryInterface:
    """The output record layout of a geometry shader's typed AST (``layout``: the
    program's linked GeometryLayout, default the unit's own): gl_Position at word 0,
    then the outputs in the order of declaration (user globals, then the built-ins
    the shader uses), 4 words per location. Raises LoweringError for output types
    the records cannot hold."""
    from compiler.glsl import types as T
    from .from_ast import LoweringError
    from .interface import const_indices
    layout = layout if layout is not None else unit.geometry
    outs = [GeometryOutput("gl_Position", 0, 4, 1, "float", "noperspective", "vec4")]
    offset = 4
    seen = {"gl_Position"}
    for s in list(unit.globals) + list(unit.builtin_variables):
        if s.storage != "out" or s.name in seen:
            continue
        seen.add(s.name)
        layout_q = s.layout or {}
        # a member of an instance-less block: its block's name, so the next stage's
        # varying is ``Block.member`` as for a block instance's member (blocks link by block name)
        owner = getattr(s.block, "block_name", "") if getattr(s, "block", None) is not None and not s.builtin else ""
        members = [(s.name, s.type, s.interpolation, owner, s.name if owner else "", layout_q.get("stream", 0),
                    layout_q.get("location", -1), layout_q.get("component", -1))]
        if s.type.is_block:
            members = [(f"{s.type.name}.{f.name}", f.type, (f.qualifiers or {}).get("interpolation"), s.type.name,
                        f.name, ((f.qualifiers or {}).get("layout") or {}).get("stream", 0), -1, -1)
                       for f in s.type.fields]
        for name, t, interpolation, block, member, stream, location, component in members:
            if (member or name) == "gl_CullDistance" and t.is_array:
                # the elements up to the last one written: the rasterisation pass culls with these
                t = T.array_of(t.element, max(const_indices(unit, s, t.length), default=-1) + 1)
                if t.length == 0:
                    continue
            inner = t.innermost_element if t.is_array else t
            if inner.is_struct or inner.is_block or inner.base not in ("float", "int", "uint") + WIDE_BASES:
                raise LoweringError(f"geometry shader output `{name}' of type {t.name} is not supported")
            interp = INTERPOLATION[interpolation]
            if inner.base != "float" or name in ("gl_PrimitiveID", "gl_Layer", "gl_ViewportIndex"):
                interp = "flat"
            per = 2 if inner.base in WIDE_BASES and inner.vector_size > 2 else 1
            outs.append(GeometryOutput(name, offset, inner.vector_size, _locations(t) * per, inner.base, interp,
                                       t.name, block, s.name if s.type.is_block else "", member, stream, location,
                                       component))
            offset += 4 * _locations(t) * per
    return GeometryInterface(layout.input, layout.output, layout.max_vertices, layout.invocations,
                             tuple(outs), offset, _stream_count(unit, layout))


def _stream_count(unit, layout) -> int:
    """Vertex streams the shader uses: 1 + the highest stream it emits to or declares an
    output of (the link refuses streams beyond MAX_VERTEX_STREAMS)."""
    used = set(getattr(layout, "emit_streams", ())) | set(getattr(unit.geometry, "emit_streams", ()))
    for s in unit.globals:
        if s.storage == "out":
            used.add((s.layout or {}).get("stream", 0))
    return 1 + max(used | {0})


def _record_locations(t) -> int:
    """4-word record locations of an input of type ``t`` (a 64-bit vector of three or
    four components takes two, as the vertex stage's records lay it out)."""
    if t.is_array:
        return (t.length or 1) * _record_locations(t.element)
    if t.is_struct or t.is_block:
        return sum(_record_locations(f.type) for f in t.fields)
    per = 2 if t.base in WIDE_BASES and t.vector_size > 2 else 1
    return (t.columns if t.is_matrix else 1) * per


def _locations(t) -> int:
    if t.is_array:
        return (t.length or 1) * _locations(t.element)
    if t.is_matrix:
        return t.columns
    return 1


def gl_in_vertex(b, block, j, read, where: dict, rec_base, buffer: int, distance_stride_dw: int = 1) -> list:
    """The value of ``gl_in[j]`` (its members in order: position, point size, clip
    distances, and in the compatibility profile the colours, texture coordinates,
    fog coordinate and clip vertex) for a stage that reads the previous stage's
    vertex records from SSBO ``buffer``: ``read`` loads a recorded output, ``where``
    maps output names to (word offset, locations), ``rec_base[j]`` is vertex j's
    record start; the clip and cull distances are ``distance_stride_dw`` words apart.
    Outputs the previous stage did not write read as GL's defaults
    (position (0, 0, 0, 1), point size 1, everything else 0)."""
    values = []
    for f in block.fields:
        if f.name in ("gl_ClipDistance", "gl_CullDistance"):        # one word per distance
            clip = []
            entry = where.get(f.name)
            for k in range(f.type.length):
                if entry is None or k * distance_stride_dw >= 4 * entry[1]:
                    clip.append(b.fimm(0.0))
                    continue
                off = b.iadd(rec_base[j], entry[0] + k * distance_stride_dw)
                clip.append(b.load_ssbo(b.iimm(buffer), b.imul(off, 4), num_components=1, align=4))
            values.append(clip)
        elif f.name in where:
            values.append(read(f.type, f.name, j))
        elif f.name == "gl_Position":
            values.append(b.fimm([0.0, 0.0, 0.0, 1.0]))
        elif f.name == "gl_PointSize":
            values.append(b.fimm(1.0))
        elif f.type.is_array:
            values.append([b.fimm([0.0] * f.type.element.vector_size) for _ in range(f.type.length)])
        else:
            values.append(b.fimm([0.0] * f.type.vector_size) if f.type.vector_size > 1 else b.fimm(0.0))
    return values


def guard_body(L, pro, flag) -> None:
    """Move everything after the prologue builder ``pro``'s instructions (the rest of
    the first block and the following control flow, which ends where the finish code is
    appended) into the then-branch of ``if (flag)`` (a bool local): the invocations of
    a kernel whose dispatch is rounded up to whole workgroups that have no work must
    not run the shader's image, buffer and atomic writes."""
    from compiler.ir.core import Block, If
    body = L.func.body
    first = body[0]
    assert pro.block is first and pro.index is not None, "the prologue is at the start of the body"
    k = pro.index
    head = Block(first.instrs[:k])          # the prologue's instructions move to a new block;
    del first.instrs[:k]                    # the first block (cursors may name it) keeps the rest
    main = L.b
    if main.block is first and main.index is not None:
        main.index -= k
    pro.block, pro.index = head, None
    cond = pro.load_var(flag)
    body[:] = [head, If(cond, list(body), [Block()]), Block()]
