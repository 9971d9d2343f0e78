"""Draws with a geometry shader, as passes on the GPU (the GPU has no geometry unit;
Mesa's asahi runs the same passes, see compiler/lower/geometry.py for the kernel):

1. **vertex pass**: the program's vertex stage runs over the draw's vertices
   ``lo..hi`` (every instance) as a points draw with rasterisation discarded, its
   outputs captured (the transform-feedback stores) into the *vertex records*
   buffer, record ``instance * (hi - lo + 1) + vertex_id - lo``;
2. **geometry kernel** (compute): one invocation per (input primitive, instance,
   geometry invocation) reads its vertices with the draw's topology and index
   buffer, runs the shader, writes emitted vertices, per-slot primitive lists and
   per-slot primitive counts;
3. **prefix sum** (compute, one invocation): exclusive offsets of the counts and
   the total, and the *null vertex* (NaN position: discarded by the clipper);
4. **compaction** (compute, one invocation per slot): copies each slot's primitive
   list to its offset in the index buffer and fills the rest with the null vertex;
5. **rasterisation draw**: points, lines or triangles of that index buffer, through
   a pass-through vertex program reading the output records as attributes, and the
   program's fragment stage. The index count is the static maximum (no CPU read of
   GPU memory); entries past the total name the null vertex.

GL_PRIMITIVES_GENERATED: the prefix sum adds each draw's total to a per-context GPU
counter; queries subtract what the passes add to the queue's primitive counter.

Transform feedback (GL 4.6 section 13.3) records the geometry stage's outputs: the
rasterisation draw's pass-through program captures them (the pipe's stream output, as
a vertex stage's), with the null-vertex entries as primitive restarts so only emitted
primitives are recorded, in GL's order, and counted (PRIMITIVES_WRITTEN, overflow);
the vertex pass's own capture is subtracted from PRIMITIVES_WRITTEN queries.

Layered rendering (GL 4.6 section 9.8): with a layered draw framebuffer and a geometry
stage writing gl_Layer, the rasterisation draw runs once per layer on the attachments'
layer (``_rendering_layer``), its pass-through program dropping (NaN position) the
vertices of other layers; the hardware's tiler would bin by layer instead. A primitive
whose vertices disagree on gl_Layer is dropped (GL_LAYER_PROVOKING_VERTEX undefined).
``raster_passes`` runs these draws for the tessellation evaluation stage's output too
(ARB_shader_viewport_layer_array); a vertex stage writing gl_Layer without later stages is
drawn layer by layer by ``driver/gl/draws.py`` (the pipe's output filter).

Primitive restart: the indices are read on the CPU and each run's primitives listed
(``_restart_as_list``), so the kernel sees a list topology and gl_PrimitiveIDIn keeps
counting across restarts.

Indirect draws: the records are read on the CPU (``_resolve_indirect``, as the pipe
reads them) and drawn as direct draws.

Vertex streams (ARB_gpu_shader5): the kernel keeps a region of its buffers per stream;
stream 0 is drawn as above, each other stream that transform feedback captures is
compacted into an index buffer of its own and drawn once more with rasterisation
discarded, capturing that stream's buffers only (driver/gl/features/
transform_feedback_streams.py: the link checks, the per-stream queries and draws).

Not supported yet (GL_INVALID_OPERATION, a message on stderr once, the draw skipped):
glDrawTransformFeedback* with a geometry stage. Struct-typed varyings are not done either.
"""

from __future__ import annotations

import contextlib
import struct
import sys
from dataclasses import replace

import numpy as np

from driver.gallium import (
    ConstantBuffer, DrawInfo, DrawStartCountBias, GridInfo, PipeFormat, PipePrim, PipeQueryType, PipeShaderType,
    ResourceTemplate, ShaderBuffer, ShaderState, StreamOutputInfo, StreamOutputTarget, VertexBuffer,
    VertexElement,
)
from driver.gallium.defines import PipeBind, PipeMap, PipeTextureTarget, PipeUsage
from driver.gl import enums as E
from driver.gl import pipestate as ps
from driver.gl.errors import GLError

__all__ = ["TOPOLOGY_NAMES", "geometry_draw", "geometry_passes", "geometry_validate", "draw_modes_for_input",
           "link_geometry", "geometry_program_queries", "primitives_generated_counters", "check_output_limits",
           "draw_piece", "pieces_keep_primitive_ids"]

TOPOLOGY_NAMES = {
    E.GL_POINTS: "points", E.GL_LINES: "lines", E.GL_LINE_STRIP: "line_strip", E.GL_LINE_LOOP: "line_loop",
    E.GL_TRIANGLES: "triangles", E.GL_TRIANGLE_STRIP: "triangle_strip", E.GL_TRIANGLE_FAN: "triangle_fan",
    E.GL_LINES_ADJACENCY: "lines_adjacency", E.GL_LINE_STRIP_ADJACENCY: "line_strip_adjacency",
    E.GL_TRIANGLES_ADJACENCY: "triangles_adjacency",
    E.GL_TRIANGLE_STRIP_ADJACENCY: "triangle_strip_adjacency",
}
_OUTPUT_PRIM = {"points": PipePrim.POINTS, "line_strip": PipePrim.LINES, "triangle_strip": PipePrim.TRIANGLES}
_GL_PRIMITIVE = {"points": E.GL_POINTS, "lines": E.GL_LINES, "lines_adjacency": E.GL_LINES_ADJACENCY,
                 "triangles": E.GL_TRIANGLES, "triangles_adjacency": E.GL_TRIANGLES_ADJACENCY,
                 "line_strip": E.GL_LINE_STRIP, "triangle_strip": E.GL_TRIANGLE_STRIP}
_FORMATS = {("float", 4): PipeFormat.R32G32B32A32_FLOAT, ("int", 4): PipeFormat.R32G32B32A32_SINT,
            ("uint", 4): PipeFormat.R32G32B32A32_UINT}

# slots of the compute stage's shader buffers for the passes (compiler/lower/geometry.py's indices)
_SCAN_SOURCE = """#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Params { uint params[]; };
layout(std430, binding = 1) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 2) writeonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 3) writeonly buffer Records { uint records[]; };
layout(std430, binding = 4) buffer Stats { uint stats[]; };
void main() {
    uint slots = params[7];
    uint streams = params[12];
    for (uint st = 0u; st < streams; st++) {
        uint total = 0u;
        for (uint s = 0u; s < slots; s++) {
            offsets[st * (slots + 1u) + s] = total;
            total += counts[st * slots + s];
        }
        offsets[st * (slots + 1u) + slots] = total;
        stats[st == 0u ? 0u : 3u + st] += total;   // primitives emitted to each vertex stream
    }
    uint null_word = params[8];
    for (uint c = 0u; c < 4u; c++)
        records[null_word + c] = 0x7fc00000u;
}
"""
_COMPACT_SOURCE = """#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Params { uint params[]; };
layout(std430, binding = 1) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 2) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 3) readonly buffer Prims { uint prims[]; };
layout(std430, binding = 4) writeonly buffer Indices { uint indices[]; };
void main() {
    uint s = gl_GlobalInvocationID.x;
    uint slots = params[7];
    if (s >= slots)
        return;
    uint per_slot = params[9];
    uint vpp = params[10];
    uint null_record = params[11];
    uint st = params[13];
    uint dst = offsets[st * (slots + 1u) + s] * vpp;
    uint n = counts[st * slots + s] * vpp;
    for (uint k = 0u; k < n; k++)
        indices[dst + k] = prims[(st * slots + s) * per_slot + k];
    uint used = offsets[st * (slots + 1u) + slots] * vpp;
    for (uint k = 0u; k < per_slot; k++) {
        uint at = s * per_slot + k;
        if (at >= used)
            indices[at] = null_record;
    }
}
"""


def _ctx_cache(ctx) -> dict:
    """Per-context state of the passes (scratch buffers, internal shaders)."""
    cache = getattr(ctx, "_geometry_state", None)
    if cache is None:
        cache = ctx._geometry_state = {}
    return cache


@contextlib.contextmanager
def primitives_not_generated(ctx, measure: bool = True):
    """Draws made inside add nothing to GL_PRIMITIVES_GENERATED (a driver's passes,
    not the application's primitives): while that query is active (and ``measure``),
    what they add to the queue's primitive counter is measured with a pipe query
    around them, read back (a wait) and taken out of the GL query's result
    (``primitives_generated_counters``)."""
    if not measure or ctx.active_queries.get(E.GL_PRIMITIVES_GENERATED) is None:
        yield
        return
    cache = _ctx_cache(ctx)
    pass_query = cache.get("pass_query")
    if pass_query is None:
        pass_query = cache["pass_query"] = ctx.pipe.create_query(PipeQueryType.PRIMITIVES_GENERATED)
    ctx.pipe.begin_query(pass_query)
    try:
        yield
    finally:
        ctx.pipe.end_query(pass_query)
        cache["pass_primitives"] = cache.get("pass_primitives", 0) + \
            int(ctx.pipe.get_query_result(pass_query, True) or 0)


def _stage_source(prog, kind: int) -> str:
    """The GLSL text one stage of the linked executable was built from (the link's image:
    a separable program made by glCreateShaderProgramv has no shader attached any more)."""
    image = prog.linked_state.image
    return "".join(src for t, src in image.shaders if t == kind) if image is not None else ""


# outputs of the compatibility profile the pass-through vertex program writes as they are
_COMPAT_OUTPUTS = ("gl_ClipVertex", "gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor",
                   "gl_BackSecondaryColor", "gl_TexCoord", "gl_FogFragCoord")


def _declare(glsl_type: str, name: str) -> str:
    """A declaration of ``name`` with a type name as GLSL spells it ("vec4[2]" -> "vec4 name[2]")."""
    base, bracket, rest = glsl_type.partition("[")
    return f"{base} {name}{bracket}{rest}"


def _meta(ls) -> dict:
    """What the passes keep per linked program beside its pipe shaders."""
    meta = getattr(ls, "_geometry_meta", None)
    if meta is None:
        meta = ls._geometry_meta = {}
    return meta


def draw_modes_for_input(input_primitive: str) -> set[int]:
    """GL draw modes a geometry shader with this input primitive accepts (GL 4.6 table 11.1)."""
    from compiler.lower.geometry import TOPOLOGY_INPUT
    return {mode for mode, name in TOPOLOGY_NAMES.items() if TOPOLOGY_INPUT[name] == input_primitive}


def geometry_program_queries(ctx, prog) -> dict:
    """glGetProgramiv's geometry parameters (GL 4.6 section 7.13): pname -> value, None
    when the program has no linked geometry stage (INVALID_OPERATION)."""
    from driver.gl.features.gles_ext import es_has
    if not (ctx.api.gl(3, 2) or es_has(ctx.api, "geometry_shader")):
        return {}
    ls = prog.linked_state if prog.linked else None
    lay = getattr(ls, "geometry", None) if ls is not None else None
    out = {E.GL_GEOMETRY_VERTICES_OUT: lay and lay.max_vertices,
           E.GL_GEOMETRY_INPUT_TYPE: lay and _GL_PRIMITIVE[lay.input],
           E.GL_GEOMETRY_OUTPUT_TYPE: lay and _GL_PRIMITIVE[lay.output]}
    if ctx.api.gl(4, 0) or ctx.api.es:
        out[E.GL_GEOMETRY_SHADER_INVOCATIONS] = lay and lay.invocations
    return out


def check_output_limits(iface) -> None:
    """GL 4.6 section 11.3.4.1 link errors: one output vertex's components beyond
    GL_MAX_GEOMETRY_OUTPUT_COMPONENTS, or max_vertices of them beyond
    GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS (the compiler's gl_MaxGeometry* limits).
    The user-defined outputs count, as in Mesa (piglit's gs-output-array-vec4-index-wr
    writes 128 components beside gl_Position)."""
    from compiler.glsl.builtin_variables import LIMITS
    per_vertex = sum(o.components * o.locations for o in iface.outputs if not o.name.startswith("gl_"))
    if per_vertex > LIMITS["gl_MaxGeometryOutputComponents"]:
        raise ValueError(f"geometry shader outputs {per_vertex} components per vertex, more than "
                         f"GL_MAX_GEOMETRY_OUTPUT_COMPONENTS ({LIMITS['gl_MaxGeometryOutputComponents']})")
    total = per_vertex * iface.max_vertices
    if total > LIMITS["gl_MaxGeometryTotalOutputComponents"]:
        raise ValueError(f"geometry shader max_vertices ({iface.max_vertices}) x {per_vertex} output "
                         f"components = {total}, more than GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS "
                         f"({LIMITS['gl_MaxGeometryTotalOutputComponents']})")


def link_geometry(units: list, vertex: dict | None, geometry: dict, fragment: dict | None):
    """The geometry stage's layout for a link (its shader objects agree; each field given
    once at least) and the interface checks with its neighbours; raises ValueError with
    the link error's text."""
    from compiler.glsl.geometry import GeometryLayout
    fields = {}
    for u in units:
        lay = u.geometry
        for name in ("input", "output", "max_vertices"):
            v = getattr(lay, name)
            if v is not None:
                if fields.get(name, v) != v:
                    raise ValueError(f"geometry shader {name.replace('_', ' ')} declared differently "
                                     f"({fields[name]} and {v})")
                fields[name] = v
        if lay.invocations != 1:
            fields["invocations"] = lay.invocations
    if "input" not in fields:
        raise ValueError("geometry shader didn't declare primitive input type")
    if "output" not in fields:
        raise ValueError("geometry shader didn't declare primitive output type")
    if "max_vertices" not in fields:
        raise ValueError("geometry shader didn't declare max_vertices")
    layout = GeometryLayout(fields["input"], fields["output"], fields["max_vertices"],
                            fields.get("invocations", 1), link_streams(units, fields["output"], geometry, fragment))
    if vertex is not None:
        def link(v, t):             # blocks link by block name (GLSL 1.50 section 4.3.7)
            return ("block", t.name) if t.is_block else v.name
        outs = {link(v, v.type): v for v in vertex["outputs"]}
        for v in vertex["outputs"]:       # members of a block without an instance name
            name = getattr(v.block, "block_name", None)
            if name and not v.type.is_block:
                outs.setdefault(("block", name), None)
        located = {((v.layout or {}).get("location"), (v.layout or {}).get("component", 0)): v
                   for v in vertex["outputs"] if not v.type.is_block}
        for inp in geometry["inputs"]:
            if not inp.type.is_array:
                continue
            key = link(inp, inp.type.element)
            out = outs.get(key)
            location = (inp.layout or {}).get("location")
            if out is None and location is not None and not inp.type.element.is_block:
                # both located: matched by location and component (GL 4.6 section 7.4.1)
                out = located.get((location, (inp.layout or {}).get("component", 0)))
            if out is None and key in outs:
                continue                        # an instance-less block: members checked by name
            if out is None:
                if inp.used:
                    raise ValueError(f"geometry shader input `{inp.name}' has no matching output in the "
                                     "vertex shader")
                continue
            if out.type != inp.type.element and not (out.type.is_block and [
                    (f.name, f.type) for f in out.type.fields] == [(f.name, f.type) for f in inp.type.element.fields]):
                raise ValueError(f"`{inp.name}' is declared as type `{inp.type.element.name}[]' in the "
                                 f"geometry shader and `{out.type.name}' in the vertex shader")
    return layout



# -- vertex streams (ARB_gpu_shader5; the entry points: features/transform_feedback_streams.py) --
# the queries that count what the streams' capture passes write
_CAPTURE_COUNTED = (E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW,
                    E.GL_TRANSFORM_FEEDBACK_OVERFLOW)


def link_streams(units, output: str, geometry: dict, fragment: dict | None) -> frozenset:
    """The streams a linked geometry stage emits to, with the link errors of ARB_gpu_shader5
    (ValueError): a stream outside [0, MAX_VERTEX_STREAMS - 1]; streams other than 0 with
    an output primitive other than points; a fragment input fed by an output of a stream
    other than 0 (only stream 0 is rasterised)."""
    from compiler.glsl.geometry import MAX_VERTEX_STREAMS
    emitted = frozenset().union(*(u.geometry.emit_streams for u in units if u.geometry is not None))
    for n in sorted(emitted):
        if not 0 <= n < MAX_VERTEX_STREAMS:
            raise ValueError(f"invalid call EmitStreamVertex({n}) / EndStreamPrimitive({n}): the stream must be "
                             f"between 0 and MAX_VERTEX_STREAMS - 1 ({MAX_VERTEX_STREAMS - 1})")
    if any(emitted) and output != "points":
        raise ValueError("EmitStreamVertex(n) / EndStreamPrimitive(n) with n > 0 need the points output "
                         f"primitive (the output primitive is {output})")
    if fragment is not None:
        streams = {}
        for v in geometry["outputs"]:
            streams[v.type.name if v.type.is_block else v.name] = (v.layout or {}).get("stream", 0)
        for inp in fragment["inputs"]:
            t = inp.type.element if inp.type.is_array and inp.type.element.is_block else inp.type
            stream = streams.get(t.name if t.is_block else inp.name, 0)
            if stream:
                raise ValueError(f"fragment shader input `{inp.name}' is a geometry shader output of vertex "
                                 f"stream {stream}: only stream 0 is rasterised")
    return emitted


def _capture_counted(ctx) -> bool:
    """A query that counts what the streams' capture passes write is active."""
    return any((k[0] if isinstance(k, tuple) else k) in _CAPTURE_COUNTED for k in ctx.active_queries)


def stream_capture(ctx, prog, stages, iface, gs_out, indices, null_record: int, index_count: int,
                   stream: int) -> None:
    """Transform feedback of vertex stream ``stream`` (> 0): its primitives (``indices``, the
    null record past them) drawn with rasterisation discarded, captured to its buffers."""
    cache = _ctx_cache(ctx)
    measure = _capture_counted(ctx)
    if measure:
        queries = cache.get("stream_queries")
        if queries is None:
            queries = cache["stream_queries"] = (ctx.pipe.create_query(PipeQueryType.PRIMITIVES_EMITTED),
                                                 ctx.pipe.create_query(PipeQueryType.SO_OVERFLOW_PREDICATE))
        for q in queries:
            ctx.pipe.begin_query(q)
    # stream 0's GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW query (the pipe's predicate over
    # every capture) is ended around this stream's pass, what it saw so far kept
    stream0 = ctx.active_queries.get(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW)
    if stream0 is not None:
        ctx.pipe.end_query(stream0.pipe_query)
        stream0.overflowed_before |= bool(ctx.pipe.get_query_result(stream0.pipe_query, True))
    _raster_pass(ctx, prog, stages, iface, gs_out, indices, null_record, index_count, None, None, True, True,
                 stream=stream)
    if stream0 is not None:
        ctx.pipe.begin_query(stream0.pipe_query)
    if measure:
        for q in queries:
            ctx.pipe.end_query(q)
        written = int(ctx.pipe.get_query_result(queries[0], True) or 0)
        overflow = int(bool(ctx.pipe.get_query_result(queries[1], True)))
        for key, value in (("stream_written", written), ("stream_overflow", overflow)):
            counts = cache.setdefault(key, {})
            counts[stream] = counts.get(stream, 0) + value



def feedback_primitive(prog) -> int:
    """The transform feedback primitive mode the geometry stage's output primitive
    records as (GL 4.6 section 13.3, table 13.1)."""
    return {"points": E.GL_POINTS, "line_strip": E.GL_LINES,
            "triangle_strip": E.GL_TRIANGLES}[prog.linked_state.geometry.output]


def geometry_validate(ctx, prog, mode: int) -> None:
    """GL 4.6 section 11.3.1: the draw mode must feed the geometry shader's input primitive."""
    lay = prog.linked_state.geometry
    if mode not in draw_modes_for_input(lay.input):
        raise GLError(E.GL_INVALID_OPERATION, f"draw mode {mode:#x} does not match the geometry "
                      f"shader's input primitive {lay.input}")

def _geometry_unsupported(ctx, what: str) -> None:
    msg = f"shimgl: geometry shader draw skipped: {what} is not supported yet"
    if msg not in _REPORTED:
        _REPORTED.add(msg)
        print(msg, file=sys.stderr)
    raise GLError(E.GL_INVALID_OPERATION, msg)

# -- scratch buffers ---------------------------------------------------------------
def _gs_buffer(ctx, role: str, size_B: int):
    """A scratch buffer of at least ``size_B`` bytes, kept per context (the pipe orders
    its reuse against earlier passes that still read or write it)."""
    bufs = _ctx_cache(ctx).setdefault("buffers", {})
    res = bufs.get(role)
    if res is None or res.template.width_px < size_B:
        size = 1 << max(8, (max(size_B, 16) - 1).bit_length())
        res = ctx.screen.resource_create(ResourceTemplate(
            PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, size,
            bind=PipeBind.SHADER_BUFFER | PipeBind.VERTEX_BUFFER | PipeBind.INDEX_BUFFER
            | PipeBind.STREAM_OUTPUT, usage=PipeUsage.DEFAULT))
        bufs[role] = res
    return res

# -- shaders ---------------------------------------------------------------------
def _gs_stats(ctx):
    """The context's running count of primitives the geometry stage emitted (a word the
    prefix-sum kernel adds each draw's total to), zeroed when made. Words 4..6: the
    primitives emitted to vertex streams 1..3; words 1 and 2: the tessellation
    evaluation invocations and the evaluation kernels' compute invocations
    (tessellation.py's prefix sum)."""
    cache = _ctx_cache(ctx)
    res = cache.get("stats")
    if res is None:
        res = cache["stats"] = ctx.screen.resource_create(ResourceTemplate(
            PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, 32, bind=PipeBind.SHADER_BUFFER,
            usage=PipeUsage.DEFAULT))
        ctx.pipe.buffer_subdata(res, PipeMap.WRITE, 0, bytes(32))
    return res


# the queries whose counters the passes change (primitives_generated_counters)
COUNTED_QUERIES = frozenset({E.GL_PRIMITIVES_GENERATED, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
                             E.GL_GEOMETRY_SHADER_INVOCATIONS, E.GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED,
                             E.GL_COMPUTE_SHADER_INVOCATIONS, E.GL_TESS_CONTROL_SHADER_PATCHES,
                             E.GL_TESS_EVALUATION_SHADER_INVOCATIONS})


def primitives_generated_counters(ctx, target: int = E.GL_PRIMITIVES_GENERATED) -> tuple[int, int]:
    """(what the passes add to the counter a query of ``target`` reads, what the geometry
    stage itself adds to it) so far; a query's result is the pipe's count minus the
    change of the first plus the change of the second:

    - GL_PRIMITIVES_GENERATED with a geometry stage counts the primitives it emitted
      instead of those the passes draw (GL 4.6 section 13.3; read after the GPU has run
      the draws, as the pipe reads the queue counter for this query);
    - GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN does not count the vertex pass's capture
      of its records (the capture of the geometry output is counted by the pipe as any
      draw's);
    - GL_GEOMETRY_SHADER_INVOCATIONS / _PRIMITIVES_EMITTED (ARB_pipeline_statistics_query)
      are the geometry kernel's invocations and the primitives it emitted, and
      GL_COMPUTE_SHADER_INVOCATIONS does not count the passes' compute kernels."""
    cache = _ctx_cache(ctx)
    if target == E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN:
        # the vertex pass's records and the captures of vertex streams 1..3 are not stream 0's
        return cache.get("pass_captured", 0) + sum(cache.get("stream_written", {}).values()), 0
    if target == E.GL_GEOMETRY_SHADER_INVOCATIONS:
        return 0, cache.get("invocations", 0)
    if target == E.GL_TESS_CONTROL_SHADER_PATCHES:          # the tessellation passes (tessellation.py)
        return 0, cache.get("tess_patches", 0)
    res = cache.get("stats")
    # the statistics words: 0 primitives the geometry stage emitted, 1 tessellation
    # evaluation invocations, 2 the evaluation kernels' compute invocations (added on the GPU)
    emitted = evaluations = evaluation_threads = 0
    if res is not None:
        from driver.gallium import buffer_read
        emitted, evaluations, evaluation_threads = struct.unpack("<3I", buffer_read(ctx.pipe, res, 0, 12))
    if target == E.GL_COMPUTE_SHADER_INVOCATIONS:
        return cache.get("compute_invocations", 0) + evaluation_threads, 0
    if target == E.GL_TESS_EVALUATION_SHADER_INVOCATIONS:
        return 0, evaluations
    if target == E.GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED:
        return 0, emitted
    return cache.get("pass_primitives", 0), emitted


def _gs_internal(ctx, name: str, source: str, local_size):
    """A compute CSO of the passes' own GLSL (made once per context)."""
    cache = _ctx_cache(ctx).setdefault("shaders", {})
    handle = cache.get(name)
    if handle is None:
        from compiler.glsl import parse
        unit = parse(source, "compute")
        blocks = {b.block_name: b for b in unit.interface_blocks}
        info = {"storage_blocks": {}, "uniforms": {}, "local_size": local_size}
        for i, bname in enumerate(blocks):
            info["storage_blocks"][bname] = 64 + i       # internal slots, after the kernel's
        from compiler.link import stage_ir_of
        handle = ctx.pipe.create_shader_state(ShaderState(PipeShaderType.COMPUTE, stage_ir_of(unit, source), source,
                                                          info))
        cache[name] = handle
    return handle

def _gs_kernel(ctx, prog, key):
    """The geometry kernel's CSO for one GeometryKey (made once per link)."""
    ls = prog.linked_state
    cache_key = ("gs-kernel", key)
    handle = ls.pipe_shaders.get(cache_key)
    if handle is not None:
        return handle
    source = _stage_source(prog, E.GL_GEOMETRY_SHADER)
    linked = ls.stages.get("geometry")
    kernel = _GeometryKernel(source, key, getattr(ls.units["geometry"], "version", None),
                             linked.unit if linked is not None else None,
                             getattr(ls, "spirv_stages", {}).get("geometry"))
    info = dict(ctx.pipe_shader_info(ls, "geometry"))
    handle = ctx.pipe.create_shader_state(ShaderState(
        PipeShaderType.COMPUTE, kernel, f"{source}\n// geometry kernel for {key!r}\n", info))
    ls.pipe_shaders[cache_key] = handle
    return handle

def _gs_vertex_capture(ctx, prog, names_locs):
    """The vertex stage storing each output to its record (the transform feedback stores)."""
    ls = prog.linked_state
    cache_key = ("gs-vs", names_locs)
    hit = _meta(ls).get(cache_key)
    if hit is not None:
        return hit
    from compiler.lower.geometry import vertex_record_layout
    layout, stride = vertex_record_layout([(link, locs) for _n, locs, _c, link, _w in names_locs])
    outputs = []
    for idx, ((name, locs, comps, _link, value_words), (_l, offset, _locs)) in enumerate(zip(names_locs, layout)):
        if name in ("gl_ClipDistance", "gl_CullDistance"):
            for k in range(comps):
                outputs.append((idx, 0, 1, 0, offset + k, k))
        elif isinstance(value_words, tuple):
            # a block instance: each value (member vector, column, element, in declaration
            # order, as xfb.output_locations walks it) at its own locations; a 64-bit value is
            # its words, 4 to a location (a dvec3/dvec4 two locations), a 32-bit one 4 words
            loc = 0
            for value, (words, value_locs) in enumerate(value_words):
                for first in range(0, words or 4, 4):
                    outputs.append((idx, first, min(4, (words or 4) - first), 0,
                                    offset + 4 * (loc + first // 4), value))
                loc += value_locs
        elif value_words:
            # 64-bit: each value (vector, column, element) is its words, 4 to a location (one
            # location for a double or a dvec2, two for a dvec3/dvec4); an entry of the
            # stream output takes 4 words at most, ``first`` words into value ``value``
            per = 2 if value_words > 4 else 1
            for value in range(locs // per):
                for first in range(0, value_words, 4):
                    outputs.append((idx, first, min(4, value_words - first), 0,
                                    offset + 4 * (value * per + first // 4), value))
        else:
            for slot in range(locs):
                outputs.append((idx, 0, comps, 0, offset + 4 * slot, slot))
    src = _stage_source(prog, E.GL_VERTEX_SHADER)
    info = dict(ctx.pipe_shader_info(ls, "vertex"), stream_outputs=tuple(n for n, _l, _c, _k, _w in names_locs))
    from compiler.link import stage_ir_of
    ir = getattr(ls, "spirv_stages", {}).get("vertex") or \
        stage_ir_of(ls.units["vertex"], src, info.get("default_block"))     # (SPIR-V: the module's own front half)
    handle = ctx.pipe.create_shader_state(ShaderState(
        PipeShaderType.VERTEX, ir, src, info, StreamOutputInfo(tuple(outputs), (stride, 0, 0, 0))))
    ls.pipe_shaders[cache_key] = handle          # released with the program's other shaders
    _meta(ls)[cache_key] = handle, layout, stride
    return handle, layout, stride

# 64-bit output base type -> (scalar, vector prefix, how two words make one, extension)
_WIDE = {"double": ("double", "dvec", "packDouble2x32({})", "GL_ARB_gpu_shader_fp64"),
         "int64": ("int64_t", "i64vec", "packInt2x32(ivec2({}))", "GL_ARB_gpu_shader_int64"),
         "uint64": ("uint64_t", "u64vec", "packUint2x32({})", "GL_ARB_gpu_shader_int64")}


def _wide_passthrough(o, iface, loc: int, lines: list, body: list, attributes: dict, elements: list) -> None:
    """The pass-through of a 64-bit output (double, int64): each vector of it (column,
    element) is ``o.locations_per_value`` uvec4 attributes of record words, two words
    making each component; the output is declared flat as the others are."""
    scalar, prefix, pack, _ext = _WIDE[o.base]
    per = o.locations_per_value
    values = o.locations // per
    var = f"{o.instance}.{o.member}" if o.instance else o.name
    for k in range(values):
        words = []
        for h in range(per):
            a = f"shimgl_gs_{loc}"
            lines.append(f"in uvec4 {a};")
            attributes[a] = loc
            elements.append(VertexElement(4 * (o.offset_dw + 4 * (k * per + h)), 0, _FORMATS[("uint", 4)],
                                          4 * iface.stride_dw))
            words += [f"{a}.xy", f"{a}.zw"]
            loc += 1
        parts = [pack.format(w) for w in words[:o.components]]
        value = parts[0] if o.components == 1 else f"{prefix}{o.components}({', '.join(parts)})"
        target = f"{var}[{k}]" if values > 1 or o.glsl_type.endswith("]") else var
        body.append(f"{target} = {value};")


def _gs_passthrough(ctx, prog, iface, tf_layout=None, select: tuple = (False, False), stream: int = 0):
    """The rasterisation pass's vertex program: GS_OUT records as attributes, copied to
    outputs of the geometry outputs' names (so the fragment stage links to them); with
    ``tf_layout`` (transform feedback active) it captures the program's varyings.
    ``select`` (by layer, by viewport): a vertex whose gl_Layer is not uniform
    ``shimgl_layer`` (word 0 of its constants) or whose gl_ViewportIndex is not
    ``shimgl_viewport`` (word 2) gets the NaN position of word 1, so primitives of other
    layers / viewports are dropped."""
    ls = prog.linked_state
    cache_key = ("gs-passthrough", iface, tf_layout, select, stream)
    hit = _meta(ls).get(cache_key)
    if hit is not None:
        return hit
    lines, body, attributes, elements, renames, blocks = ["#version 150"], [], {}, [], {}, {}
    selectors = {}                  # gl_Layer / gl_ViewportIndex -> its attribute
    compat = False
    loc = 0
    wide = set()                    # 64-bit outputs: the extensions their types need
    for o in iface.outputs:
        if o.base in _WIDE:
            _wide_passthrough(o, iface, loc, lines, body, attributes, elements)
            wide.add(o.base)
            loc += o.locations
        prefix = {"float": "", "int": "i", "uint": "u"}.get(o.base)
        scalar = {"float": "float", "int": "int", "uint": "uint"}.get(o.base)
        ltype = scalar if o.components == 1 else f"{prefix}vec{o.components}"
        for k in range(o.locations if o.base not in _WIDE else 0):
            a = f"shimgl_gs_{loc}"
            lines.append(f"in {ltype} {a};")
            attributes[a] = loc
            elements.append(VertexElement(4 * (o.offset_dw + 4 * k), 0, _FORMATS[(o.base, 4)],
                                          4 * iface.stride_dw))
            if o.name == "gl_Position":
                body.append(f"gl_Position = {a};")
            elif o.name == "gl_PointSize":
                body.append(f"gl_PointSize = {a};")
            elif o.name in ("gl_ClipDistance", "gl_CullDistance"):
                body.append(f"{o.name}[{k}] = {a};")
            elif o.name in _COMPAT_OUTPUTS:      # compatibility profile varyings
                compat = True
                body.append(f"{o.name}[{k}] = {a};" if o.locations > 1 else f"{o.name} = {a};")
            elif o.name.startswith("gl_"):
                selectors[o.name] = a
                # gl_PrimitiveID / gl_Layer / gl_ViewportIndex: a varying renamed after compiling
                renames[f"shimgl_gs_{o.name}"] = o.name
                lines.append(f"flat out {o.glsl_type} shimgl_gs_{o.name};")
                body.append(f"shimgl_gs_{o.name} = {a};")
            else:
                var = f"{o.instance}.{o.member}" if o.instance else o.name
                target = f"{var}[{k}]" if o.locations > 1 or o.glsl_type.endswith("]") else var
                body.append(f"{target} = {a};")
            loc += 1
        qual = {"flat": "flat ", "noperspective": "noperspective ", "smooth": ""}[o.interp]
        if o.block:
            blocks.setdefault((o.block, o.instance), []).append(f"{qual}{_declare(o.glsl_type, o.member)};")
        elif not o.name.startswith("gl_"):
            # an explicit location (and component) is kept: a separable fragment
            # program matches it by location (GL 4.6 section 7.4.1)
            placed = [f"location = {o.location}"] if o.location >= 0 else []
            placed += [f"component = {o.component}"] if placed and o.component >= 0 else []
            layout_q = f"layout({', '.join(placed)}) " if placed else ""
            lines.append(f"{layout_q}{qual}out {_declare(o.glsl_type, o.name)};")
    for (block, instance), members in blocks.items():
        lines.append(f"out {block} {{ {' '.join(members)} }} {instance};")
    if compat:
        lines[0] = "#version 150 compatibility"
    if any(o.location >= 0 for o in iface.outputs):
        lines.insert(1, "#extension GL_ARB_separate_shader_objects : require")
    if any(o.location >= 0 and o.component >= 0 for o in iface.outputs):
        lines.insert(1, "#extension GL_ARB_enhanced_layouts : require")
    if any(o.name == "gl_CullDistance" for o in iface.outputs):
        lines.insert(1, "#extension GL_ARB_cull_distance : require")
    for base in sorted(wide):
        lines.insert(1, f"#extension {_WIDE[base][3]} : require")
    tests = [f"{selectors[name]} != {uniform}" for on, name, uniform in (
        (select[0], "gl_Layer", "shimgl_layer"), (select[1], "gl_ViewportIndex", "shimgl_viewport")) if on]
    if tests:
        lines += ["uniform int shimgl_layer;", "uniform float shimgl_nan;", "uniform int shimgl_viewport;"]
        body.append(f"if ({' || '.join(tests)}) gl_Position = vec4(shimgl_nan);")
    source = "\n".join(lines + ["void main() {"] + ["    " + s for s in body] + ["}", ""])
    from compiler.glsl import parse
    unit = parse(source, "vertex")
    from compiler.link import program_default_block, stage_ir_of
    # its default block (shimgl_layer, shimgl_nan, shimgl_viewport: 0, 4, 8, as the draw packs them)
    info = {"attributes": attributes, "frag_outputs": {}, "default_block": program_default_block([unit])}
    if compat:          # gl_ClipVertex is clipped against gl_ClipPlane (state uniforms)
        from driver.gl.compat import STATE_CONSTANT_BUFFER
        info.update(state_constant_buffer=STATE_CONSTANT_BUFFER)
    ir = _Renamed(source, unit, tuple(sorted(renames.items()))) if renames else \
        stage_ir_of(unit, source, info["default_block"])
    so_info = StreamOutputInfo()
    if tf_layout is not None:
        from driver.gl.feedback import stream_output_info
        names, so_info = stream_output_info(tf_layout, stream)      # the buffers of that vertex stream
        info["stream_outputs"] = names
    handle = ctx.pipe.create_shader_state(ShaderState(PipeShaderType.VERTEX, ir, source, info, so_info))
    ls.pipe_shaders[cache_key] = handle
    _meta(ls)[cache_key] = handle, tuple(elements)
    return handle, tuple(elements)


# -- the draw -----------------------------------------------------------------------
# vertices of a draw per primitive, in the modes draws.py draws in pieces (strips: one
# vertex further is one primitive further)
_VERTICES_PER_PRIMITIVE = {E.GL_POINTS: 1, E.GL_LINES: 2, E.GL_TRIANGLES: 3, E.GL_LINES_ADJACENCY: 4,
                           E.GL_TRIANGLES_ADJACENCY: 6, E.GL_LINE_STRIP: 1, E.GL_TRIANGLE_STRIP: 1,
                           E.GL_QUADS: 4, E.GL_QUAD_STRIP: 2}


@contextlib.contextmanager
def draw_piece(ctx, mode: int, offset: int):
    """While one piece of a large draw is drawn (draws.py: the piece starts ``offset``
    vertices or indices into the GL draw, a whole number of primitives): its first
    primitive is primitive ``offset / vertices per primitive`` of the GL draw, and a
    geometry stage's gl_PrimitiveIDIn counts from there (GL 4.6 section 11.3.4.5: the
    primitives processed since the draw began), not from 0 in every piece."""
    ctx._first_primitive = offset // _VERTICES_PER_PRIMITIVE[mode]
    try:
        yield
    finally:
        ctx._first_primitive = 0


def pieces_keep_primitive_ids(ctx) -> bool:
    """Whether a large draw may be drawn in pieces without changing gl_PrimitiveID:
    not when a fragment stage without a geometry stage before it reads gl_PrimitiveID,
    the rasteriser's primitive index, which starts at 0 in every pipe draw (such a draw
    is drawn whole, up to draws.MAX_WHOLE_DRAW vertices); with a geometry stage the
    pieces count on (``draw_piece``)."""
    stages = ctx._stage_programs()
    if PipeShaderType.GEOMETRY in stages or PipeShaderType.TESS_EVAL in stages:
        return True
    fs = stages.get(PipeShaderType.FRAGMENT)
    units = getattr(getattr(fs, "linked_state", None), "units", None) or {}
    unit = units.get("fragment") if hasattr(units, "get") else None
    return not any(v.name == "gl_PrimitiveID" for v in getattr(unit, "builtin_variables", ()))


def geometry_draw(ctx, mode, info, draws, indirect, vertex_range, stages) -> None:
    from compiler.lower.geometry import GeometryKey, primitive_count, with_location_aliases
    prog = stages[PipeShaderType.GEOMETRY]
    vs_prog = stages.get(PipeShaderType.VERTEX)
    if vs_prog is None:
        _geometry_unsupported(ctx, "a geometry stage without a vertex stage")
    if indirect is not None:
        for info_k, draw_k, range_k in _resolve_indirect(ctx, info, indirect):
            geometry_draw(ctx, mode, info_k, [draw_k], None, range_k, stages)
        return
    xfb = ctx.xfb
    capture = xfb.active and not xfb.paused
    if capture and xfb.program is not prog:
        _geometry_unsupported(ctx, "transform feedback with the varyings of a program without the geometry stage")
    ls = prog.linked_state
    topology = TOPOLOGY_NAMES[mode]
    d = draws[0]
    if info.index_size and info.primitive_restart:
        topology, info, d = _restart_as_list(ctx, topology, info, d)
    prims = primitive_count(topology, d.count)
    instances = info.instance_count
    if prims == 0 or instances == 0:
        return
    lo, hi = vertex_range() if callable(vertex_range) else vertex_range
    if info.index_size == 0:
        lo, hi = d.start, d.start + d.count - 1
    records = hi - lo + 1
    vs_outputs = _gs_vs_outputs(vs_prog.linked_state)
    vs_handle, vs_layout, vs_stride = _gs_vertex_capture(ctx, vs_prog, vs_outputs)
    vs_layout = with_location_aliases(vs_layout, _located_outputs(vs_prog.linked_state, "vertex"))
    if vs_prog is not prog:
        # separable programs: an input no output matches by name or location reads the
        # output of its rank (compiler.link.rank_matches, as Mesa)
        from compiler.link import rank_matches
        by_name = {e[0]: e for e in vs_layout}
        pairs = rank_matches([v for v in vs_prog.linked_state.units["vertex"].globals if v.storage == "out"],
                             [v for v in ls.units["geometry"].globals if v.storage == "in"])
        vs_layout = tuple(vs_layout) + tuple((i, by_name[o][1], by_name[o][2]) for i, o in pairs.items()
                                             if o in by_name)
    key = GeometryKey(topology, info.index_size, vs_layout, vs_stride)
    # what the passes draw is not GL_PRIMITIVES_GENERATED's (the geometry stage's emitted are)
    with primitives_not_generated(ctx):
        _vertex_and_geometry_passes(ctx, prog, stages, key, info, d, vs_prog, vs_handle, (lo, hi), records,
                                    instances, vs_stride, prims, bool(vs_outputs))


def _vertex_and_geometry_passes(ctx, prog, stages, key, info, d, vs_prog, vs_handle, vertex_range, records,
                                instances, vs_stride, prims, vs_captures: bool) -> None:
    """Steps 1-5 of ``geometry_draw`` for its draw ``d`` (vertices ``vertex_range``);
    ``vs_captures``: the vertex stage has outputs to record (else its stream output is
    empty and the pipe captures, and counts, nothing)."""
    lo, hi = vertex_range
    # 1. the vertex pass
    fb = ctx.emit_framebuffer()
    ctx._emit_state(fb, vs_prog)
    s = ctx.state
    ctx.cso.set_rasterizer(replace(
        ps.rasterizer_state(s, ctx.api, fb.samples, 0, ctx.caps.point_size_range,
                            ctx.caps.line_width_range), rasterizer_discard=True))
    ctx._emit_program(vs_prog, (PipeShaderType.VERTEX,))
    ctx.pipe.bind_shader_state(PipeShaderType.VERTEX, vs_handle)
    ctx.pipe.bind_shader_state(PipeShaderType.FRAGMENT, None)
    ctx._emit_vertices(vs_prog, (lo, hi), instances)
    vs_out = _gs_buffer(ctx, "vs_out", records * instances * vs_stride * 4)
    ctx.pipe.set_stream_output_targets([StreamOutputTarget(vs_out, 0, vs_out.template.width_px)], [0])
    with ctx.variant_errors():
        ctx.pipe.draw_vbo(DrawInfo(PipePrim.POINTS, start_instance=info.start_instance,
                                    instance_count=instances),
                           0, None, [DrawStartCountBias(lo, records)])
    ctx.pipe.set_stream_output_targets([], [])
    # the pipe counts the records as captured points: not primitives GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN counts
    if vs_captures:
        _ctx_cache(ctx)["pass_captured"] = _ctx_cache(ctx).get("pass_captured", 0) + records * instances
    geometry_passes(ctx, prog, stages, key, vs_out, prims, records, instances, first=d.start,
                    index_bias=d.index_bias, lo=lo, index_info=info if info.index_size else None,
                    first_primitive=getattr(ctx, "_first_primitive", 0))


def geometry_passes(ctx, prog, stages, key, vs_out, prims: int, records: int, instances: int, *,
                    first: int = 0, index_bias: int = 0, lo: int = 0, index_info=None,
                    first_primitive: int = 0) -> None:
    """Steps 2-5 (kernel, prefix sum, compaction, rasterisation draws) for vertex records
    already in buffer ``vs_out``: record ``instance * records + vertex id - lo``, laid
    out as ``key.inputs`` / ``key.vs_stride_dw`` (``vertex_record_layout``); ``prims``
    input primitives of ``key.topology`` per instance, whose vertices are draw positions
    ``first``.. (through ``index_info``'s index buffer when ``key.index_size_B``, plus
    ``index_bias``); gl_PrimitiveIDIn counts from ``first_primitive``. The entry point
    for a stage other than the vertex pass feeding the
    geometry stage (tessellation evaluation: its vertices as records of a list topology,
    ``key.index_size_B`` 0, ``first`` 0). Runs the program's fragment stage from
    ``stages``; transform feedback, layers and viewports as geometry_draw says."""
    ls = prog.linked_state
    xfb = ctx.xfb
    capture = xfb.active and not xfb.paused
    # 2. the geometry kernel
    ctx.pipe.bind_shader_state(PipeShaderType.COMPUTE, _gs_kernel(ctx, prog, key))
    iface = ls.geometry_interface
    inv = iface.invocations
    slots = prims * instances * inv
    maxv, per_prim = iface.max_vertices, iface.vertices_per_primitive
    per_slot = iface.max_primitives * per_prim
    streams = iface.streams             # vertex streams: a region of each buffer per stream
    null_record = streams * slots * maxv
    restart = index_info is not None and index_info.primitive_restart

    def pack(stream: int) -> bytes:
        return struct.pack("<15I", prims, records, first, index_bias & 0xFFFFFFFF, lo & 0xFFFFFFFF,
                           index_info.restart_index & 0xFFFFFFFF if restart else 0, int(restart), slots,
                           null_record * iface.stride_dw, per_slot, per_prim, null_record, streams, stream,
                           first_primitive)
    params = pack(0)
    p_res, p_off = ctx.uploader.upload(params, alignment_B=16)
    gs_out = _gs_buffer(ctx, "gs_out", (null_record + 1) * iface.stride_dw * 4)
    counts = _gs_buffer(ctx, "counts", streams * slots * 4)
    offsets = _gs_buffer(ctx, "offsets", streams * (slots + 1) * 4)
    plist = _gs_buffer(ctx, "prims", max(streams * slots * per_slot, 1) * 4)
    indices = _gs_buffer(ctx, "indices", max(slots * per_slot, 1) * 4)
    pbuf = ShaderBuffer(p_res, p_off, len(params))

    def whole(r):
        return ShaderBuffer(r, 0, r.template.width_px)
    index_buf = None
    if index_info is not None:
        index_buf = whole(index_info.index_resource) if index_info.index_resource is not None else None
        if index_buf is None:
            res, off = ctx.uploader.upload(index_info.index_user_buffer, alignment_B=4)
            index_buf = ShaderBuffer(res, off, len(index_info.index_user_buffer))
    C = PipeShaderType.COMPUTE
    ctx.pipe.set_constant_buffer(C, 0, ConstantBuffer(None, 0, len(ls.uniform_data), bytes(ls.uniform_data)))
    if ctx.api.compat:
        from driver.gl.compat import STATE_CONSTANT_BUFFER
        block = ctx.state_uniform_bytes()
        ctx.pipe.set_constant_buffer(C, STATE_CONSTANT_BUFFER, ConstantBuffer(None, 0, len(block), block))
    ctx._emit_blocks(ls, C, "geometry")
    ctx._emit_samplers(ls, C)
    ctx.emit_images(C, ls)
    ctx.emit_shader_buffers(C, ls, "geometry")
    # slots 56..61: params, vertex records, index buffer, output records, counts, lists
    ctx.pipe.set_shader_buffers(C, 56, [pbuf, whole(vs_out), index_buf, whole(gs_out), whole(counts),
                                         whole(plist)], 0b111000)
    from compiler.lower.geometry import LOCAL_SIZE_X
    with ctx.variant_errors():
        ctx.pipe.launch_grid(GridInfo((LOCAL_SIZE_X, 1, 1), (-(-prims // LOCAL_SIZE_X), instances, inv)))
    cache = _ctx_cache(ctx)             # the statistics the passes change (primitives_generated_counters)
    cache["invocations"] = cache.get("invocations", 0) + slots
    cache["compute_invocations"] = cache.get("compute_invocations", 0) + \
        LOCAL_SIZE_X * -(-prims // LOCAL_SIZE_X) * instances * inv + 1 + 64 * -(-slots // 64)
    # 3. prefix sum, 4. compaction (internal slots 64..)
    ctx.pipe.bind_shader_state(C, _gs_internal(ctx, "scan", _SCAN_SOURCE, (1, 1, 1)))
    ctx.pipe.set_shader_buffers(C, 64, [pbuf, whole(counts), whole(offsets), whole(gs_out), whole(_gs_stats(ctx))],
                                0b11100)
    ctx.pipe.launch_grid(GridInfo((1, 1, 1), (1, 1, 1)))
    ctx.pipe.bind_shader_state(C, _gs_internal(ctx, "compact", _COMPACT_SOURCE, (64, 1, 1)))
    ctx.pipe.set_shader_buffers(C, 64, [pbuf, whole(counts), whole(offsets), whole(plist), whole(indices)],
                                 0b10000)
    ctx.pipe.launch_grid(GridInfo((64, 1, 1), (-(-slots // 64), 1, 1)))
    # the other vertex streams' primitives, each in an index buffer of its own, for transform
    # feedback only (GL 4.6 section 11.3.4.2: only stream 0 goes on to rasterisation)
    capture_streams = [st for st in range(1, streams)
                       if capture and st in ctx.xfb.program.linked_state.tf_layout.streams]
    stream_indices = {}
    for st in capture_streams:
        s_res, s_off = ctx.uploader.upload(pack(st), alignment_B=16)
        stream_indices[st] = _gs_buffer(ctx, f"indices{st}", max(slots * per_slot, 1) * 4)
        ctx.pipe.set_shader_buffers(C, 64, [ShaderBuffer(s_res, s_off, len(params)), whole(counts), whole(offsets),
                                            whole(plist), whole(stream_indices[st])], 0b10000)
        ctx.pipe.launch_grid(GridInfo((64, 1, 1), (-(-slots // 64), 1, 1)))
    # 5. the rasterisation draw: with a layered framebuffer and a geometry stage writing
    # gl_Layer, one draw per layer, each on the attachments' layer and dropping the
    # primitives of other layers (transform feedback then captures in a draw of its own,
    # rasterisation discarded, so each primitive is recorded once)
    # (the same per viewport with gl_ViewportIndex: that viewport's rectangle, depth range
    # and scissor)
    raster_passes(ctx, prog, stages, iface, gs_out, indices, null_record, slots * per_slot, capture)
    for st in capture_streams:
        stream_capture(ctx, prog, stages, iface, gs_out, stream_indices[st], null_record, slots * per_slot, st)


def raster_passes(ctx, prog, stages, iface, gs_out, indices, null_record: int, index_count: int, capture: bool,
                  indirect=None) -> None:
    """The rasterisation draw of the last stage's output records (``_raster_pass``): with
    a layered framebuffer and gl_Layer among the outputs, one draw per layer, each on the
    attachments' layer and dropping the primitives of other layers; the same per viewport
    with gl_ViewportIndex (that viewport's rectangle, depth range and scissor); transform
    feedback then captures in a draw of its own, rasterisation discarded, so each primitive
    is recorded once."""
    written = {o.name for o in iface.outputs}
    layers = range(ctx._framebuffer_layers()) if "gl_Layer" in written else ()
    viewports = range(ctx.caps.max_viewports) if "gl_ViewportIndex" in written else ()
    targets = [(layer, vp) for layer in (layers or [None]) for vp in (viewports or [None])]
    if targets == [(None, None)]:
        passes = [(None, None, capture, False)]
    else:
        passes = ([(None, None, True, True)] if capture else []) + [(layer, vp, False, False) for layer, vp in targets]
    for layer, vp, cap, discard in passes:
        with ctx._rendering_layer(layer) if layer is not None else contextlib.nullcontext():
            _raster_pass(ctx, prog, stages, iface, gs_out, indices, null_record, index_count, layer, vp,
                         cap, discard, indirect)
    if layers:
        ctx.emit_framebuffer()             # the whole attachments again


def _raster_pass(ctx, prog, stages, iface, gs_out, indices, null_record: int, index_count: int, layer,
                 viewport, capture: bool, discard: bool, indirect=None, *, stream: int = 0) -> None:
    """One draw of the geometry output: ``index_count`` entries of ``indices``, those past
    the emitted primitives naming record ``null_record``. ``layer`` / ``viewport`` (not
    None): only the primitives of that layer / viewport index, the latter through that
    viewport's state; ``capture``: transform feedback records them; ``discard``: not
    rasterised. ``indirect`` (an IndirectInfo): the index count is the GPU's, in that
    record (``index_count`` is then a bound)."""
    from driver.gl.viewports import state_for_viewport
    s = state_for_viewport(ctx.state, viewport) if viewport is not None else ctx.state
    select = (layer is not None, viewport is not None)
    pt_handle, elements = _gs_passthrough(ctx, prog, iface, ctx.xfb.program.linked_state.tf_layout
                                          if capture else None, select, stream)
    fb = ctx.emit_framebuffer()
    ctx._emit_state(fb, None)
    if viewport is not None:
        ctx.pipe.set_viewport_states(0, [ps.viewport_state(s)])
        ctx.pipe.set_scissor_states(0, [ps.scissor_state(s, fb.width_px, fb.height_px)])
    clip = next((o for o in iface.outputs if o.name == "gl_ClipDistance"), None)
    if clip is not None or discard or viewport is not None:
        # the enabled distances the geometry stage writes clip; the viewport's scissor test
        mask = sum(1 << i for i in range(clip.locations) if E.GL_CLIP_DISTANCE0 + i in s.enabled) if clip else 0
        raster = ps.rasterizer_state(s, ctx.api, fb.samples, mask, ctx.caps.point_size_range,
                                     ctx.caps.line_width_range)
        ctx.cso.set_rasterizer(replace(raster, rasterizer_discard=True) if discard else raster)
    fs_prog = stages.get(PipeShaderType.FRAGMENT)
    if fs_prog is not None:
        ctx._emit_program(fs_prog, (PipeShaderType.FRAGMENT,))
    else:
        ctx.pipe.bind_shader_state(PipeShaderType.FRAGMENT, None)
    ctx.pipe.bind_shader_state(PipeShaderType.VERTEX, pt_handle)
    # the pass-through's uniforms: the layer drawn, a NaN (the position of dropped vertices)
    consts = struct.pack("<iIi4x", layer or 0, 0x7FC00000, viewport or 0)
    ctx.pipe.set_constant_buffer(PipeShaderType.VERTEX, 0, ConstantBuffer(None, 0, len(consts), consts))
    if ctx.api.compat:
        from driver.gl.compat import STATE_CONSTANT_BUFFER
        block = ctx.state_uniform_bytes()
        ctx.pipe.set_constant_buffer(PipeShaderType.VERTEX, STATE_CONSTANT_BUFFER,
                                     ConstantBuffer(None, 0, len(block), block))
    ctx.cso.set_vertex_elements(elements)
    ctx.pipe.set_vertex_buffers([VertexBuffer(gs_out, 0)])
    # transform feedback: the pass-through program captures what the index buffer draws, in
    # its order (the primitives in GL's order); the entries naming the null vertex are
    # restarts (dropped), so only the emitted primitives are recorded and counted
    if capture:
        ctx._emit_stream_output()
    else:
        ctx.pipe.set_stream_output_targets([], [])
    out = DrawInfo(_OUTPUT_PRIM[iface.output], 4, indices, None, 0, 1, capture, null_record if capture else 0,
                   True, 0, null_record)
    with ctx.variant_errors():
        ctx.pipe.draw_vbo(out, 0, indirect, [] if indirect is not None else [DrawStartCountBias(0, index_count)])


def _resolve_indirect(ctx, info, indirect) -> list:
    """The draws of an indirect draw as (DrawInfo, DrawStartCountBias, vertex range):
    the records (and an ARB_indirect_parameters count) read on the CPU once the GPU work
    writing them is done, as the pipe reads indirect draws; the vertex range of an
    indexed record from its indices."""
    from driver.gallium import buffer_read
    if indirect.count_from_stream_output is not None:
        _geometry_unsupported(ctx, "glDrawTransformFeedback")
    draws = indirect.draw_count
    if indirect.indirect_draw_count is not None:
        word = buffer_read(ctx.pipe, indirect.indirect_draw_count, indirect.indirect_draw_count_offset_B, 4)
        draws = min(draws, struct.unpack("<I", word)[0])
    indexed = bool(info.index_size)
    words = 5 if indexed else 4
    stride = indirect.stride_B or 4 * words
    out = []
    for k in range(draws):
        rec = struct.unpack(f"<{words}I", buffer_read(ctx.pipe, indirect.buffer, indirect.offset_B + k * stride,
                                                      4 * words))
        if indexed:
            count, instances, first, bias, base_instance = rec
            bias = struct.unpack("<i", struct.pack("<I", bias))[0]
        else:
            count, instances, first, base_instance = rec
            bias = 0
        if count == 0 or instances == 0:
            continue
        draw = DrawStartCountBias(first, count, bias)
        vertex_range = (first, first + count - 1)
        if indexed:
            size = info.index_size
            raw = (bytes(info.index_user_buffer)[first * size:(first + count) * size] if info.index_user_buffer
                   is not None else buffer_read(ctx.pipe, info.index_resource, first * size, count * size))
            ids = np.frombuffer(raw, {1: np.uint8, 2: np.uint16, 4: np.uint32}[size]).astype(np.int64)
            if info.primitive_restart:
                ids = ids[ids != (info.restart_index & ((1 << (8 * size)) - 1))]
            if ids.size == 0:
                continue
            vertex_range = (int(ids.min()) + bias, int(ids.max()) + bias)
        out.append((replace(info, instance_count=instances, start_instance=base_instance), draw, vertex_range))
    return out


def _restart_as_list(ctx, topology: str, info, d) -> tuple:
    """An indexed draw with primitive restart as the list of its primitives' vertices
    (topology, DrawInfo, DrawStartCountBias of 32-bit client indices, no restart): each
    run between restart indices assembled on its own, incomplete primitives dropped, so
    gl_PrimitiveIDIn counts the primitives across restarts (GL 4.6 section 11.3.4.5).
    The indices are read on the CPU (as the pipe's transform feedback records are)."""
    from compiler.lower.geometry import TOPOLOGY_INPUT
    from driver.gallium import buffer_read
    from uapi import topology as T
    size = info.index_size
    if info.index_user_buffer is not None:
        raw = bytes(info.index_user_buffer)[d.start * size:(d.start + d.count) * size]
    else:
        raw = buffer_read(ctx.pipe, info.index_resource, d.start * size, d.count * size)
    ids = np.frombuffer(raw, {1: np.uint8, 2: np.uint16, 4: np.uint32}[size]).astype(np.int64)
    starts, lengths = T.run_bounds(len(ids), ids == (info.restart_index & ((1 << (8 * size)) - 1)))
    if topology == "triangle_strip_adjacency":
        pos = _strip_adjacency_positions(starts, lengths)
    else:
        pos, _index = T.decompose(topology, starts, lengths)
    listed = ids[pos.reshape(-1)].astype(np.uint32)
    info = replace(info, index_size=4, index_resource=None, index_user_buffer=listed.tobytes(),
                   primitive_restart=False)
    return TOPOLOGY_INPUT[topology], info, DrawStartCountBias(0, len(listed), d.index_bias)


def _strip_adjacency_positions(starts, lengths) -> np.ndarray:
    """(P, 6) positions of triangle strips with adjacency (GL 4.6 table 10.1, the
    geometry stage's vertex order; the kernel's ``_strip_adjacency_position`` for one
    run): vertex j of primitive p of a run is 2p + the offset of p's row."""
    starts, lengths = np.asarray(starts, np.int64), np.asarray(lengths, np.int64)
    counts = np.where(lengths >= 6, (lengths - 4) // 2, 0)
    run = np.repeat(np.arange(len(counts)), counts)
    p = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    first, last = p == 0, p == counts[run] - 1
    five_or_six = np.where(last, 5, 6)
    even = np.stack([np.zeros_like(p), np.where(first, 1, -2), np.full_like(p, 2), five_or_six,
                     np.full_like(p, 4), np.full_like(p, 3)], axis=1)
    odd = np.stack([np.full_like(p, 2), np.full_like(p, -2), np.zeros_like(p), np.full_like(p, 3),
                    np.full_like(p, 4), five_or_six], axis=1)
    offsets = np.where((p % 2 == 0)[:, None], even, odd)
    return (starts[run] + 2 * p)[:, None] + offsets


# the built-in vertex outputs gl_in[] carries (compatibility ones included)
_RECORDED_BUILTINS = frozenset({"gl_Position", "gl_PointSize", "gl_ClipDistance", "gl_CullDistance",
                                "gl_ClipVertex", "gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor",
                                "gl_BackSecondaryColor", "gl_TexCoord", "gl_FogFragCoord"})


def _located_outputs(ls, stage: str) -> dict:
    """Record name -> (explicit location, component) of the stage's plain (not block)
    user outputs."""
    unit = ls.units[stage]
    return {v.name: (v.layout["location"], v.layout.get("component", 0)) for v in unit.globals
            if v.storage == "out" and not v.builtin and not v.type.is_block and getattr(v, "block", None) is None
            and "location" in (v.layout or {})}


def _block_values(t) -> tuple:
    """(64-bit words or 0 for a 32-bit value, locations) of each value of a block
    instance's type ``t``, in the order transform feedback's ``output_locations`` walks it
    (members in declaration order, arrays by element, matrices by column): a dvec3/dvec4
    is 6/8 words over two locations, a double/dvec2 2/4 words in one, any 32-bit vector one."""
    from compiler.glsl import types as GT
    if t.is_array:
        return _block_values(t.element) * (t.length or 1)
    if t.is_struct or t.is_block:
        return tuple(v for f in t.fields for v in _block_values(f.type))
    if t.base in GT.BASES_64:
        words = 2 * t.vector_size
        return ((words, 2 if words > 4 else 1),) * (t.columns if t.is_matrix else 1)
    return ((0, 1),) * (t.columns if t.is_matrix else 1)


def _gs_vs_outputs(ls) -> tuple:
    """(captured name, locations, components per location, record name, words of each
    64-bit value or 0, or for a block instance its ``_block_values``) of the vertex
    stage's outputs: a block instance is captured by its instance name and found by the
    geometry stage by its block name (blocks link by block name)."""
    from compiler.glsl import types as GT
    from compiler.lower.io import _vec_shape
    unit = ls.units["vertex"]
    out = []
    seen = set()
    for v in list(unit.globals) + list(unit.builtin_variables):
        if v.storage != "out" or v.name in seen:
            continue
        if v.builtin and v.name not in _RECORDED_BUILTINS:
            continue
        if v.type.is_array and v.type.innermost_element.is_struct:
            continue
        seen.add(v.name)
        if v.type.is_block:
            out.append((v.name, GT.type_size_slots(v.type), 4, v.type.name, _block_values(v.type)))
            continue
        comps, locs = _vec_shape(v.type)
        if v.name in ("gl_ClipDistance", "gl_CullDistance"):      # one word per distance
            comps, locs = v.type.length, -(-v.type.length // 4)
        block = getattr(v.block, "block_name", None) if not v.builtin else None
        inner = v.type.innermost_element
        value_words = 2 * inner.vector_size if inner.base in GT.BASES_64 else 0
        out.append((v.name, locs, comps, f"{block}.{v.name}" if block else v.name,   # member of a block
                    value_words))
    return tuple(out)


class _Renamed:
    """``ShaderState.ir`` of a pass-through vertex program whose varyings ``renames``
    (GLSL name -> name) take names GLSL cannot declare (gl_PrimitiveID, gl_Layer, ...),
    so the fragment stage's built-in inputs link to them by name."""

    def __init__(self, source: str, unit, renames: tuple):
        self.source, self.version, self.renames = source, unit.version, dict(renames)

    def front_half(self, key):
        from compiler.compile import front_half
        shader, info = front_half(self.source, "vertex", key)
        info.varyings = [replace(v, name=self.renames.get(v.name, v.name)) for v in info.varyings]
        return shader, info


class _GeometryKernel:
    """``ShaderState.ir`` of the geometry kernel: its own front half (the geometry stage
    lowered to compute for ``key``): a SPIR-V module's (``spirv``, compiler.spirv's
    SpirvShader), else from the link's typed AST of the stage (``unit``, made of all its
    shader objects; the lowering only reads it), else from ``source``."""

    def __init__(self, source: str, key, version, unit=None, spirv=None):
        self.source, self.key, self.version, self.unit, self.spirv = source, key, version, unit, spirv

    def front_half(self, key):
        from compiler.compile import front_half, front_half_unit
        from compiler.ir import ShaderKey
        full = (key or ShaderKey.make()).replace(gs=self.key)
        if self.spirv is not None:
            return self.spirv.front_half(full)
        if self.unit is not None:
            return front_half_unit(self.unit, full)
        return front_half(self.source, "geometry", full)


_REPORTED: set = set()
