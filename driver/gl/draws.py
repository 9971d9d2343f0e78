"""Draw, dispatch and clear entry points: validation (GL 4.6 sections 10.4,
10.5, 17.4.3 and 19; GLES 3.2 sections 10.5, 15.2.3 and 17) and the pipe
calls that carry them out (Mesa's st_draw / st_atom kind)."""

from __future__ import annotations

import contextlib
import itertools
import math
import struct
import sys

import numpy as np

import layout
from driver.gallium import (
    ClipState, ConstantBuffer, DrawInfo, DrawStartCountBias, GridInfo, IndirectInfo, PipeBarrier,
    PipeClear, PipeFormat, PipePrim, PipeShaderType, ShaderVariantError, StreamOutputTarget, VertexBuffer,
    VertexElement,
)
from driver.gl import enums as E
from driver.gl import pipestate as ps
from driver.gl.state import DUAL_SOURCE_FACTORS, drawn_stencil_faces
from driver.gl.color_clamp import fragment_clamps, vertex_clamps
from driver.gl.compat import STATE_CONSTANT_BUFFER
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features.blend_advanced import advanced_blend_validate
from driver.gl.features.gles_ext import es_has, srgb_decode_view
from driver.gl.generations import BUFFERS, FRAMEBUFFERS, TEXTURES, TRANSFORM_FEEDBACK, VERTEX_ARRAYS
from driver.gl.feedback import stream_output_info
from driver.gl.pointers import ClientMemory, pack_values
from driver.gl.textures import PIPE_TARGETS, texture_resource
from driver.gl.vertexarrays import attrib_size_B
from driver.gl.framebuffers import draw_framebuffer_bits, framebuffer_status
from driver.gl.buffers import mapped_not_persistent, read_buffer

__all__ = ["DrawMixin"]

INDEX_TYPES = {E.GL_UNSIGNED_BYTE: 1, E.GL_UNSIGNED_SHORT: 2, E.GL_UNSIGNED_INT: 4}
_SAMPLER_TARGETS = {"1D": E.GL_TEXTURE_1D, "2D": E.GL_TEXTURE_2D, "3D": E.GL_TEXTURE_3D,
                    "Cube": E.GL_TEXTURE_CUBE_MAP, "Rect": E.GL_TEXTURE_RECTANGLE,
                    "Buffer": E.GL_TEXTURE_BUFFER, "2DMS": E.GL_TEXTURE_2D_MULTISAMPLE}


_VARIANT_FAILURES_REPORTED: set[str] = set()     # messages already printed on stderr
_I32 = struct.Struct("<i")
# entries of a context's derived-state cache (_derived_cache) before it is emptied
_DERIVED_CACHE_ENTRIES = 256
_NO_ENTRY = (None, None, None)

# glClear's bits, and PipeClear's as plain integers
_CLEAR_MASK = E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT
_CLEAR_MASK_COMPAT = _CLEAR_MASK | E.GL_ACCUM_BUFFER_BIT
_CLEAR_DEPTH, _CLEAR_STENCIL = int(PipeClear.DEPTH), int(PipeClear.STENCIL)
_CLEAR_DEPTHSTENCIL, _CLEAR_COLOR0 = int(PipeClear.DEPTHSTENCIL), int(PipeClear.COLOR0)
# a colour write mask (four booleans) -> its channel bits
_MASK_BITS = {m: sum(1 << c for c in range(4) if m[c]) for m in itertools.product((False, True), repeat=4)}


def _has_pending(tex) -> bool:
    """Whether a texture (or the texture whose storage a view shares) has image
    data queued for its resource, which the next derivation's use of the resource
    writes (so a draw must not reuse a derivation then)."""
    while tex is not None:
        if getattr(tex, "pending", None) or getattr(tex, "pending_compressed", None):
            return True
        tex = getattr(tex, "view_parent", None)
    return False

# glDrawArrays of more vertices than this is sent to the pipe as consecutive draws
MAX_DRAW_PIECE = 1 << 16
# primitive -> (vertices per step, vertices two pieces share): the modes a piece can split
_SPLITTABLE = {E.GL_POINTS: (1, 0), E.GL_LINES: (2, 0), E.GL_TRIANGLES: (3, 0),
               E.GL_LINES_ADJACENCY: (4, 0), E.GL_TRIANGLES_ADJACENCY: (6, 0),
               E.GL_LINE_STRIP: (1, 1),
               E.GL_TRIANGLE_STRIP: (2, 2),     # even starts keep each triangle's winding
               E.GL_QUADS: (4, 0), E.GL_QUAD_STRIP: (2, 2)}
# at most this many pipe draws for one GL draw (2^32 vertices): beyond, GL_OUT_OF_MEMORY
MAX_PIECE_DRAWS = 1 << 16
# a draw of a mode that cannot be split (fans, loops, polygons, patches) is converted or
# shaded whole: beyond this many vertices it is GL_OUT_OF_MEMORY (host memory is bounded)
MAX_WHOLE_DRAW = 1 << 22
# vertices x instances of one GL draw: beyond, GL_OUT_OF_MEMORY
MAX_VERTEX_INVOCATIONS = MAX_PIECE_DRAWS * MAX_DRAW_PIECE
# the largest vertex index of an array draw: gl_VertexID is a GLint (and the VDM's base
# vertex a signed 32-bit field); first + count - 1 beyond it is GL_INVALID_VALUE
MAX_ARRAY_VERTEX_INDEX = (1 << 31) - 1


def _state_builtins() -> frozenset:
    """The names of the built-in uniforms the state block holds (gl_DepthRange, ...)."""
    global _STATE_BUILTINS
    if _STATE_BUILTINS is None:
        from compiler.link import state_block
        _STATE_BUILTINS = frozenset(leaf[0].split(".")[0].split("[")[0] for leaf in state_block().leaves)
    return _STATE_BUILTINS


_STATE_BUILTINS: frozenset | None = None


def _pieces_keep_primitive_ids(ctx) -> bool:
    from driver.gl.geometry import pieces_keep_primitive_ids
    return pieces_keep_primitive_ids(ctx)


def _reads_state_block(ls) -> bool:
    """Whether a stage of the linked program reads a built-in of the state block."""
    names = _state_builtins()
    for unit in ls.units.values():
        for u in unit if isinstance(unit, list) else (unit,):
            if any(v.name in names for v in getattr(u, "builtin_variables", ())):
                return True
    return False


def _depth_range_block(near: float, far: float) -> bytes:
    """A state block of zeros but gl_DepthRange (near, far, far - near)."""
    from compiler.link import state_block
    sb = state_block()
    block = np.zeros(-(-sb.size_B // 16) * 4, np.float32)
    offsets = {name: off for name, (off, *_rest) in sb.leaves}
    for field, value in (("near", near), ("far", far), ("diff", far - near)):
        block[offsets[f"gl_DepthRange.{field}"] // 4] = value
    return block.tobytes()


def _pieces(mode: int, first: int, count: int, limit: int | None = None) -> list[tuple[int, int]]:
    """(first, count) of the pieces drawing `count` vertices from `first` with the
    same primitives in the same order; one piece when the mode cannot be split
    (fans, loops, polygons, quads, patches) or the draw is small. `limit`: the
    piece size, MAX_DRAW_PIECE (read at the call) unless given."""
    if limit is None:
        limit = MAX_DRAW_PIECE
    if count <= limit or mode not in _SPLITTABLE:
        return [(first, count)]
    step, overlap = _SPLITTABLE[mode]
    advance = (limit - overlap) // step * step          # new vertices per piece
    out = []
    start, end = first, first + count
    while start + overlap < end:
        n = min(advance + overlap, end - start)
        out.append((start, n))
        start += advance
    return out


def _stream_output_targets(x, ls) -> list:
    """The pipe's stream output targets of transform feedback object ``x`` for the
    buffers link ``ls`` captures into (an unbound binding the program captures
    nothing into, stride 0: no resource). A range ends at the buffer's current end: GL 4.6
    section 6.1.1, the GL never writes past the end of a bound buffer (glBufferData may have
    shrunk it since glBindBufferRange)."""
    return [StreamOutputTarget(buf.resource, off, max(0, min(size or buf.size, buf.size - off)))
            if buf is not None else StreamOutputTarget(None, 0, 0)
            for buf, off, size in x.buffers[:ls.tf_layout.buffers]]


class DrawMixin:
    def _init_family(self) -> None:
        # while a draw binds its programs: id(linked state) -> the samplers and views
        # derived for it (each stage of a program binds the same ones); None between draws
        self._draw_samplers = None

    # -- validation ------------------------------------------------------------
    _api_facts = None           # (api, draw modes, has tessellation) of _draw_modes

    def _draw_modes(self) -> frozenset[int]:
        """The primitive modes of the context's API (fixed for a context: derived once)."""
        return self._facts_of_api()[1]

    def _facts_of_api(self) -> tuple:
        facts = self._api_facts
        if facts is None or facts[0] is not self.api:
            api = self.api
            modes = set(range(E.GL_POINTS, E.GL_TRIANGLE_FAN + 1))
            if api.compat:
                modes |= {E.GL_QUADS, E.GL_QUAD_STRIP, E.GL_POLYGON}
            if api.gl(3, 2) or es_has(api, "geometry_shader"):
                modes |= {E.GL_LINES_ADJACENCY, E.GL_LINE_STRIP_ADJACENCY,
                          E.GL_TRIANGLES_ADJACENCY, E.GL_TRIANGLE_STRIP_ADJACENCY}
            tessellation = api.gl(4, 0) or es_has(api, "tessellation_shader")
            if tessellation:
                modes.add(E.GL_PATCHES)
            facts = self._api_facts = (api, frozenset(modes), tessellation)
        return facts

    def _dual_source_validate(self) -> None:
        """ARB/EXT_blend_func_extended: a draw (or glBegin) while a blended buffer uses a
        second-colour factor and more than MAX_DUAL_SOURCE_DRAW_BUFFERS draw buffers are
        active is INVALID_OPERATION (the second colour exists for those buffers only)."""
        factors = DUAL_SOURCE_FACTORS
        for rt in self.state.color_buffer.rt:
            if rt.enabled and (rt.src_rgb in factors or rt.dst_rgb in factors or rt.src_alpha in factors
                               or rt.dst_alpha in factors):
                break
        else:
            return
        bufs = self.window.draw_buffers if self.draw_framebuffer is None else self.draw_framebuffer.draw_buffers
        active = sum(1 for b in bufs if b != E.GL_NONE)
        check(active <= self.caps.max_dual_source_render_targets, E.GL_INVALID_OPERATION,
              f"dual-source blending with {active} draw buffers (MAX_DUAL_SOURCE_DRAW_BUFFERS is "
              f"{self.caps.max_dual_source_render_targets})")

    def validate_draw(self, mode: int, count: int, instances: int = 1) -> None:
        """The checks shared by every draw (Mesa's draw_validate.c order), for the
        draw commands of every family and feature module; GLError when one fails."""
        check_enum(mode, self._draw_modes(), f"bad primitive mode {mode:#x}")
        check(count >= 0, E.GL_INVALID_VALUE, "negative count")
        check(instances >= 0, E.GL_INVALID_VALUE, "negative instance count")
        prog = self.current_program
        stage_programs = None          # self._stage_programs(), asked once
        if self._facts_of_api()[2]:     # GL 4.6 section 10.1.15: patches iff tessellation
            from driver.gl.tessellation import tessellation_validate
            stage_programs = self._stage_programs()
            tessellation_validate(self, stage_programs, mode)
        if prog is None and self.bound_pipeline is not None:
            problem = self._pipeline_problem(self.bound_pipeline)
            check(problem is None, E.GL_INVALID_OPERATION, problem or "")
            check(not self.bound_pipeline.stages.keys() <= {"compute"}, E.GL_INVALID_OPERATION,
                  "compute-only pipeline")
            if "geometry" in self.bound_pipeline.stages and "tess_evaluation" not in self.bound_pipeline.stages:
                from driver.gl.geometry import geometry_validate
                geometry_validate(self, self.bound_pipeline.stages["geometry"], mode)
        elif prog is None:
            check(self.api.compat, E.GL_INVALID_OPERATION, "no current program")
        else:
            stages = prog.linked_state.units
            check("compute" not in stages, E.GL_INVALID_OPERATION, "compute-only program")
            if "geometry" in stages and "tess_evaluation" not in stages:
                from driver.gl.geometry import geometry_validate
                geometry_validate(self, prog, mode)
            check(self._sampler_units_consistent(prog.linked_state), E.GL_INVALID_OPERATION,
                  "samplers of different types use one texture unit")
        if self.api.core:
            check(self.vao is not self.default_vao, E.GL_INVALID_OPERATION,
                  "no vertex array object bound")
        if stage_programs is None:
            stage_programs = self._stage_programs()
        advanced_blend_validate(self, stage_programs)
        self._dual_source_validate()
        self._validated_stages = stage_programs
        status = self._draw_framebuffer_status()
        check(status == E.GL_FRAMEBUFFER_COMPLETE, E.GL_INVALID_FRAMEBUFFER_OPERATION,
              "draw framebuffer incomplete")
        check(not self._mapped_buffers_in_use(), E.GL_INVALID_OPERATION, "a buffer in use is mapped")
        xfb = self.xfb
        if xfb.active and not xfb.paused:
            # GL 4.6 table 13.1 (no geometry shader): adjacency modes pair with their base type
            base = {E.GL_POINTS: E.GL_POINTS, E.GL_LINES: E.GL_LINES, E.GL_LINE_LOOP: E.GL_LINES,
                    E.GL_LINE_STRIP: E.GL_LINES, E.GL_LINES_ADJACENCY: E.GL_LINES,
                    E.GL_LINE_STRIP_ADJACENCY: E.GL_LINES}.get(mode, E.GL_TRIANGLES)
            if self.api.es and self.api.version < (3, 2):
                base = mode     # GLES 3.0 section 2.15.2: the modes must be identical
            gs = stage_programs.get(PipeShaderType.GEOMETRY)
            tes = stage_programs.get(PipeShaderType.TESS_EVAL)
            if gs is not None:  # GL 4.6 section 13.3: the geometry stage's output primitive is recorded
                from driver.gl.geometry import feedback_primitive
                base = feedback_primitive(gs)
            elif tes is not None:       # ... else the tessellation evaluation stage's
                base = {"points": E.GL_POINTS, "line_strip": E.GL_LINES,
                        "triangle_strip": E.GL_TRIANGLES}[tes.linked_state.tessellation.output]
            check(base == xfb.primitive_mode, E.GL_INVALID_OPERATION,
                  "mode does not match transform feedback's primitive mode")

    # -- draws --------------------------------------------------------------------
    def glDrawArrays(self, mode: int, first: int, count: int) -> None:
        self._draw_arrays(mode, first, count, 1, 0)

    def glDrawArraysInstanced(self, mode, first, count, instancecount) -> None:
        check(self.api.gl(3, 1) or es_has(self.api, "instanced_draws"), E.GL_INVALID_OPERATION)
        self._draw_arrays(mode, first, count, instancecount, 0)

    def glDrawArraysInstancedBaseInstance(self, mode, first, count, instancecount, baseinstance):
        check(self.api.gl(4, 2) or es_has(self.api, "base_instance"), E.GL_INVALID_OPERATION)
        self._draw_arrays(mode, first, count, instancecount, baseinstance)

    def _draw_arrays(self, mode, first, count, instances, base_instance) -> None:
        check(first >= 0, E.GL_INVALID_VALUE, "negative first")
        self.validate_draw(mode, count, instances)
        check(count <= 0 or first + count - 1 <= MAX_ARRAY_VERTEX_INDEX, E.GL_INVALID_VALUE,
              f"first {first} + count {count} - 1 is past the largest vertex index {MAX_ARRAY_VERTEX_INDEX}")
        self._check_feedback_space(mode, count, instances)
        if count == 0 or instances == 0:
            return
        # instanced draws are never split: a piece drawing one instance would see
        # gl_InstanceID 0 and fetch divisor > 1 attributes of the wrong instance
        # (nor one whose fragment stage reads the rasteriser's gl_PrimitiveID, which would
        # restart in every piece)
        pieces = _pieces(mode, first, count) if instances == 1 and (
            count <= MAX_DRAW_PIECE or _pieces_keep_primitive_ids(self)) else [(first, count)]
        check(count * instances <= MAX_VERTEX_INVOCATIONS, E.GL_OUT_OF_MEMORY,
              f"{count} vertices x {instances} instances: more than {MAX_VERTEX_INVOCATIONS} vertices")
        check(len(pieces) > 1 or count <= max(MAX_WHOLE_DRAW, MAX_DRAW_PIECE), E.GL_OUT_OF_MEMORY,
              f"{count} vertices of an instanced draw or of a primitive mode that cannot be drawn in pieces")
        if len(pieces) == 1:
            # the stage programs validate_draw just found (nothing since changed them)
            self._next_draw_stages = self._validated_stages
            self._emit_draw(mode, DrawInfo(PipePrim(mode), start_instance=base_instance,
                                           instance_count=instances),
                            [DrawStartCountBias(first, count)], None, (first, first + count - 1))
            return
        # a huge draw as consecutive smaller ones (primitive order kept): host memory
        # follows the piece, not the request (client arrays are read per piece)
        check(len(pieces) <= MAX_PIECE_DRAWS, E.GL_OUT_OF_MEMORY,
              f"{count} vertices: more than {MAX_PIECE_DRAWS} pieces")
        from driver.gl.geometry import draw_piece
        for start, n in pieces:             # gl_PrimitiveID(In) counts on across them
            with draw_piece(self, mode, start - first):
                self._emit_draw(mode, DrawInfo(PipePrim(mode), start_instance=base_instance, instance_count=1),
                                [DrawStartCountBias(start, n)], None, (start, start + n - 1))

    def glDrawElements(self, mode, count, type, indices) -> None:
        self._draw_elements(mode, count, type, indices, 1, 0, 0, None)

    def glDrawElementsInstanced(self, mode, count, type, indices, instancecount) -> None:
        check(self.api.gl(3, 1) or es_has(self.api, "instanced_draws"), E.GL_INVALID_OPERATION)
        self._draw_elements(mode, count, type, indices, instancecount, 0, 0, None)

    def glDrawRangeElements(self, mode, start, end, count, type, indices) -> None:
        check(self.api.gl_or_es((1, 2), (3, 0)), E.GL_INVALID_OPERATION)
        check(end >= start, E.GL_INVALID_VALUE, "end < start")
        self._draw_elements(mode, count, type, indices, 1, 0, 0, (start, end))

    def glDrawElementsBaseVertex(self, mode, count, type, indices, basevertex) -> None:
        check(self.api.gl(3, 2) or es_has(self.api, "base_vertex"), E.GL_INVALID_OPERATION)
        self._draw_elements(mode, count, type, indices, 1, basevertex, 0, None)

    def glDrawRangeElementsBaseVertex(self, mode, start, end, count, type, indices, basevertex):
        check(self.api.gl(3, 2) or es_has(self.api, "base_vertex") and self.api.version >= (3, 0),
              E.GL_INVALID_OPERATION)             # ES: DrawRangeElements is ES 3.0
        check(end >= start, E.GL_INVALID_VALUE, "end < start")
        self._draw_elements(mode, count, type, indices, 1, basevertex, 0, (start, end))

    def glDrawElementsInstancedBaseVertex(self, mode, count, type, indices, instancecount,
                                          basevertex):
        check(self.api.gl(3, 2) or es_has(self.api, "base_vertex") and es_has(self.api, "instanced_draws"),
              E.GL_INVALID_OPERATION)
        self._draw_elements(mode, count, type, indices, instancecount, basevertex, 0, None)

    def _check_feedback_space(self, mode, count, instances) -> None:
        """GLES 3.0/3.1 section 2.15.2 (12.1 in 3.1): DrawArrays while feedback
        is active must fit in the bound buffers; counts what it writes."""
        x = self.xfb
        if not (x.active and not x.paused):
            return
        per = {E.GL_POINTS: 1, E.GL_LINES: 2, E.GL_TRIANGLES: 3}.get(mode, 1)
        vertices = (count // per) * per * instances
        if self.api.es and self.api.version < (3, 2):
            strides = self._feedback_strides_B(x.program)
            for (buf, off, size), stride in zip(x.buffers, strides):
                room = (size or buf.size - off) // stride if stride else vertices
                check(x.vertices_written + vertices <= room, E.GL_INVALID_OPERATION,
                      "not enough room in the transform feedback buffers")
        x.vertices_written += vertices

    def _xfb_vertex_shader(self, prog):
        """The vertex stage with its stream output (``ShaderState.stream_output``: one
        entry per captured location of an output, register index = index into
        info["stream_outputs"], the outputs' names; laid out by the program's
        ``FeedbackLayout``), bound while transform feedback is active. Made once per
        link, released with the others."""
        ls = prog.linked_state
        key = ("xfb", PipeShaderType.VERTEX)
        handle = ls.pipe_shaders.get(key)
        if handle is not None:
            return handle
        from driver.gallium import ShaderState
        from driver.gl.programs import STAGES
        names, so_info = stream_output_info(ls.tf_layout)
        src = "".join(getattr(s, "compiled_source", None) or s.source or ""
                      for s in prog.shaders if STAGES[s.type] == "vertex")
        src = src or self._ff_sources.get(id(ls.units["vertex"]), "")
        info = dict(self.pipe_shader_info(ls, "vertex"), stream_outputs=names)
        from compiler.link import stage_ir_of
        ir = getattr(ls, "spirv_stages", {}).get("vertex") or \
            stage_ir_of(ls.units["vertex"], src, info.get("default_block"))    # the pipe gets IR, never the AST
        handle = self.pipe.create_shader_state(ShaderState(
            PipeShaderType.VERTEX, ir, src, info, so_info))     # (SPIR-V: its own front half, features/gl_spirv.py)
        ls.pipe_shaders[key] = handle
        return handle

    def _feedback_strides_B(self, prog) -> list[int]:
        """Bytes per vertex captured into each feedback buffer the program uses."""
        return [4 * s for s in prog.linked_state.tf_layout.stride_dw]

    def _index_data(self, count, type, indices):
        """(resource or None, byte offset, client bytes or None)."""
        size = INDEX_TYPES[type]
        ebo = self.vao.element_buffer
        if ebo is not None:
            check(isinstance(indices, int) and indices >= 0, E.GL_INVALID_VALUE,
                  "indices must be a byte offset with an element buffer")
            check(indices % size == 0 or not self.api.es, E.GL_INVALID_OPERATION,
                  "misaligned index offset")
            return ebo, indices, None
        # client-memory indices in a core context: read as in compatibility, as Mesa does (the
        # GL 4.6 core spec says INVALID_OPERATION; docs/extensions.md, "where shimgl follows Mesa")
        check(self.vao is self.default_vao or not self.api.es, E.GL_INVALID_OPERATION,
              "client indices with a vertex array object")
        check(indices is not None and not isinstance(indices, int), E.GL_INVALID_OPERATION,
              "NULL client index pointer")
        data = ClientMemory.wrap(indices).read(0, count * size)
        return None, 0, data

    def _draw_elements(self, mode, count, type, indices, instances, basevertex, base_instance,
                       range_):
        check_enum(type, INDEX_TYPES, "bad index type")
        self.validate_draw(mode, count, instances)
        xfb = self.xfb
        if self.api.es and self.api.version < (3, 2):
            # GLES 3.0 section 2.15.2: no DrawElements while feedback is active
            check(not (xfb.active and not xfb.paused), E.GL_INVALID_OPERATION,
                  "DrawElements with transform feedback active")
        if count == 0 or instances == 0:
            return
        size = INDEX_TYPES[type]
        ebo = self.vao.element_buffer
        if ebo is not None and isinstance(indices, int) and indices >= 0:
            # indices past the element buffer's end are out of bounds (GL 4.6 section 6.4:
            # undefined results, never a crash): only those the buffer holds are drawn, so
            # host memory follows the buffer, not the count
            count = min(count, max(ebo.size - indices, 0) // size)
            if count == 0:
                return
        restart = self._restart_index(size)
        # a huge draw as consecutive smaller ones (primitive order kept), as glDrawArrays;
        # with primitive restart a piece boundary could split a primitive: drawn whole
        # nor an instanced draw (see _draw_arrays)
        pieces = _pieces(mode, 0, count) if restart is None and instances == 1 and (
            count <= MAX_DRAW_PIECE or _pieces_keep_primitive_ids(self)) else [(0, count)]
        check(count * instances <= MAX_VERTEX_INVOCATIONS, E.GL_OUT_OF_MEMORY,
              f"{count} indices x {instances} instances: more than {MAX_VERTEX_INVOCATIONS} vertices")
        check(len(pieces) > 1 or count <= max(MAX_WHOLE_DRAW, MAX_DRAW_PIECE), E.GL_OUT_OF_MEMORY,
              f"{count} indices of an instanced draw or of a primitive mode that cannot be drawn in pieces")
        check(len(pieces) <= MAX_PIECE_DRAWS, E.GL_OUT_OF_MEMORY,
              f"{count} indices: more than {MAX_PIECE_DRAWS} pieces")
        ebo, offset, data = self._index_data(count if len(pieces) == 1 else 0, type, indices)
        if len(pieces) == 1:
            self._draw_index_piece(mode, type, ebo, offset, data, 0, count, instances, base_instance,
                                   basevertex, range_)
            return
        from driver.gl.geometry import draw_piece
        for first, n in pieces:             # gl_PrimitiveID(In) counts on across them
            piece = None if ebo is not None else ClientMemory.wrap(indices).read(first * size, n * size)
            with draw_piece(self, mode, first):
                self._draw_index_piece(mode, type, ebo, offset, piece, first, n, 1, base_instance,
                                       basevertex, range_)

    def _draw_index_piece(self, mode, type, ebo, offset, data, first, count, instances,
                          base_instance, basevertex, range_) -> None:
        """Draw `count` indices from index `first` of the element buffer at byte `offset`,
        or of the client index bytes `data` (which start at index `first`)."""
        size = INDEX_TYPES[type]
        # GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED is FALSE: no restart for patches
        restart = self._restart_index(size) if mode != E.GL_PATCHES else None
        if ebo is not None:
            res, start = ebo.resource, offset // size + first
        else:
            res, up_off = self.uploader.upload(data, alignment_B=size)
            start = up_off // size

        def index_range():
            """Smallest and largest vertex the draw fetches (GL 4.6 10.4:
            DrawRangeElements' start/end are a promise); read through the pipe
            so GPU-written index buffers count."""
            if range_ is not None:
                return range_[0] + basevertex, range_[1] + basevertex
            raw = data if ebo is None else read_buffer(self, ebo, offset + first * size, count * size)
            idx = np.frombuffer(raw, {1: np.uint8, 2: np.uint16, 4: np.uint32}[size])
            live = idx[idx != restart] if restart is not None else idx
            if not live.size:
                return 0, 0
            return int(live.min()) + basevertex, int(live.max()) + basevertex

        lo, hi = range_ if range_ is not None else (0, 0xFFFFFFFF)
        info = DrawInfo(PipePrim(mode), size, res, None, base_instance, instances,
                        restart is not None, restart if restart is not None else 0,
                        range_ is not None, max(lo + basevertex, 0), max(hi + basevertex, 0))
        self._next_draw_stages = self._validated_stages     # (as _draw_arrays)
        self._emit_draw(mode, info, [DrawStartCountBias(start, count, basevertex)], None,
                        index_range)

    def _restart_index(self, size):
        s = self.state
        if E.GL_PRIMITIVE_RESTART_FIXED_INDEX in s.enabled:
            return (1 << (8 * size)) - 1
        if E.GL_PRIMITIVE_RESTART in s.enabled:
            return s.primitive_restart_index
        return None

    def _reads_client_arrays(self) -> bool:
        """Whether an enabled vertex array of the bound vertex array object reads
        client memory (compatibility profile). An indirect draw then reads its
        command back and draws it directly, as Mesa does: the vertices to upload
        follow from the command (GL 4.6 compatibility section 10.4 allows client
        arrays with indirect draws; GLES 3.1 and core contexts have none)."""
        vao = self.vao
        if self.api.es or vao.n_attribs == 0:
            return False
        return any(a.enabled and vao.bindings[a.binding].buffer is None for a in vao.attribs) or \
            any(a.enabled and b.buffer is None for a, b in vao.legacy.values())

    def _no_client_arrays(self):
        raise GLError(E.GL_INVALID_OPERATION, "client arrays with an indirect draw")

    def _indirect_buffer(self, offset: int | None, size: int):
        offset = 0 if offset is None else offset        # from C, offset 0 is a NULL pointer
        buf = self.buffer_bindings.get(E.GL_DRAW_INDIRECT_BUFFER)
        check(buf is not None, E.GL_INVALID_OPERATION, "no DRAW_INDIRECT_BUFFER bound")
        check(offset >= 0 and offset % 4 == 0, E.GL_INVALID_VALUE, "misaligned indirect offset")
        check(offset + size <= buf.size, E.GL_INVALID_OPERATION, "indirect command beyond the buffer")
        check(not mapped_not_persistent(buf), E.GL_INVALID_OPERATION, "the indirect buffer is mapped")
        if self.api.es:
            # GLES 3.1 section 10.5: no default VAO, no client arrays
            check(self.vao is not self.default_vao, E.GL_INVALID_OPERATION, "default VAO")
            check(all(self.vao.bindings[a.binding].buffer is not None
                      for a in self.vao.attribs if a.enabled), E.GL_INVALID_OPERATION,
                  "an enabled array has no buffer")
        return buf

    def glDrawArraysIndirect(self, mode: int, indirect: int) -> None:
        check(self.api.gl_or_es((4, 0), (3, 1)), E.GL_INVALID_OPERATION)
        indirect = indirect or 0
        buf = self._indirect_buffer(indirect, 16)
        if self._reads_client_arrays():
            count, instances, first, base_instance = (
                int(v) for v in np.frombuffer(read_buffer(self, buf, indirect, 16), np.uint32))
            return self._draw_arrays(mode, first, count, instances, base_instance)
        self.validate_draw(mode, 0)
        self._emit_draw(mode, DrawInfo(PipePrim(mode)), [DrawStartCountBias(0, 0)],
                        IndirectInfo(buf.resource, indirect, 16), self._no_client_arrays)

    def glDrawElementsIndirect(self, mode: int, type: int, indirect: int) -> None:
        check(self.api.gl_or_es((4, 0), (3, 1)), E.GL_INVALID_OPERATION)
        check_enum(type, INDEX_TYPES)
        indirect = indirect or 0
        buf = self._indirect_buffer(indirect, 20)
        ebo = self.vao.element_buffer
        check(ebo is not None, E.GL_INVALID_OPERATION, "no element array buffer")
        if self._reads_client_arrays():
            count, instances, first, basevertex, base_instance = (
                int(v) for v in np.frombuffer(read_buffer(self, buf, indirect, 20), np.uint32))
            basevertex -= (basevertex >> 31) << 32          # a GLint
            return self._draw_elements(mode, count, type, first * INDEX_TYPES[type], instances,
                                       basevertex, base_instance, None)
        self.validate_draw(mode, 0)
        size = INDEX_TYPES[type]
        self._emit_draw(mode, DrawInfo(PipePrim(mode), size, ebo.resource,
                                       primitive_restart=self._restart_index(size) is not None,
                                       restart_index=self._restart_index(size) or 0),
                        [DrawStartCountBias(0, 0)], IndirectInfo(buf.resource, indirect, 20),
                        self._no_client_arrays)

    # -- state emission -------------------------------------------------------------
    def emit_framebuffer(self):
        fb = self._draw_framebuffer_state()
        self.pipe.set_framebuffer_state(fb)
        return fb

    # -- derived state kept while its generations stand (driver.gl.generations) ---------
    _derived_cache = None        # key -> (the objects it was derived from, inputs, result)

    def _derived(self, key, sources, inputs, derive):
        """``derive()``, or what it gave before for the same ``sources`` (objects held,
        compared by identity) and equal ``inputs`` (generations and other values read);
        ``inputs`` None: derived every time."""
        cache = self._derived_cache
        if cache is None:
            cache = self._derived_cache = {}
        if inputs is not None:
            hit = cache.get(key)
            if hit is not None and hit[1] == inputs and all(a is b for a, b in zip(hit[0], sources)):
                return hit[2]
        value = derive()
        if inputs is not None:
            if len(cache) >= _DERIVED_CACHE_ENTRIES:
                cache.clear()
            cache[key] = (sources, inputs, value)
        return value

    def _framebuffer_inputs(self, fbo):
        """What a framebuffer object's pipe state and completeness read, or None (the
        window framebuffer, or an attached texture with queued uploads, which the
        derivation writes first)."""
        if fbo is None:
            return None
        for a in fbo.attachments.values():
            if a.type != E.GL_RENDERBUFFER and _has_pending(a.obj):
                return None
        return (FRAMEBUFFERS.generation, TEXTURES.generation)

    def _draw_framebuffer_status(self) -> int:
        """framebuffer_status of the draw framebuffer, kept while its objects stand."""
        fbo = self.draw_framebuffer
        return self._derived(("fb status", id(fbo)), (fbo,), self._framebuffer_inputs(fbo),
                             lambda: framebuffer_status(self, fbo))

    def _draw_framebuffer_facts(self) -> tuple[int, int, int, int]:
        """(completeness status, layers of a layered one or 0, depth bits, stencil bits)
        of the draw framebuffer, what a clear checks, kept while its objects stand."""
        fbo = self.draw_framebuffer
        return self._derived(("fb facts", id(fbo)), (fbo,), self._framebuffer_inputs(fbo),
                             lambda: (framebuffer_status(self, fbo), self._framebuffer_layers(),
                                      draw_framebuffer_bits(self, 4), draw_framebuffer_bits(self, 5)))

    def _draw_framebuffer_state(self):
        """_pipe_framebuffer_state, kept while the framebuffer's objects, the sRGB
        enable and the layer being rendered stand."""
        fbo = self.draw_framebuffer
        if fbo is None:         # the window's: its buffers (by identity), size and draw buffers
            w = self.window
            return self._derived(("fb state", id(None)), (w, w.color, w.depth_stencil),
                                 (w.width, w.height, w.samples, tuple(w.draw_buffers),
                                  E.GL_FRAMEBUFFER_SRGB in self.state.enabled), self._pipe_framebuffer_state)
        inputs = self._framebuffer_inputs(fbo)
        if inputs is not None:
            inputs += (E.GL_FRAMEBUFFER_SRGB in self.state.enabled, getattr(self, "_render_layer", None))
        return self._derived(("fb state", id(fbo)), (fbo,), inputs, self._pipe_framebuffer_state)

    #: (key, objects, values) of the last _emit_state
    _emitted_state = None

    def _emit_state(self, fb, vertex_program=None) -> None:
        """The pipe's fixed-function state for a draw into ``fb`` (blend, depth-stencil-alpha,
        rasterizer CSOs; viewport, scissor, blend colour, stencil reference, sample mask,
        minimum samples; the compatibility profile's polygon stipple and clip planes): the
        values of the last call while ``_state_inputs`` (every state generation and object
        they are derived from) is the same, set again without being derived."""
        key, objects = self._state_inputs(fb, vertex_program)
        last = self._emitted_state
        if last is not None and last[0] == key and all(a is b for a, b in zip(last[1], objects)):
            return self._apply_state(last[2])
        values = self._derive_state(fb, vertex_program)
        self._emitted_state = (key, objects, values)
        self._apply_state(values)

    def _state_inputs(self, fb, vertex_program) -> tuple[tuple, tuple]:
        """(values, objects compared by identity) that _derive_state reads: the
        generations of the state groups (every one: a group no derivation reads costs
        a derivation when it changes, never a stale state), the enable set's, the render
        targets' and stencil faces'; with a framebuffer object bound the framebuffer
        and texture groups' (its attachments' depth and stencil bits, whether all are
        fixed-point for the colour clamps), the window's bits; the compatibility
        profile's clip planes and, while it is enabled, polygon stipple; the pipe
        framebuffer state, the draw framebuffer object, the window and the vertex
        program's link (its clip distances)."""
        s = self.state
        cb, stencil = s.color_buffer, s.stencil_buffer
        fbo = self.draw_framebuffer
        key = (s.enabled.gen, cb.gen, *[rt.gen for rt in cb.rt], s.depth_buffer.gen, stencil.gen,
               *[face.gen for face in stencil.stencil], s.viewports.gen, s.transform.gen, s.raster.gen,
               s.multisample.gen, s.pixel.gen, s.misc.gen, self.window.bits,
               (FRAMEBUFFERS.generation, TEXTURES.generation) if fbo is not None else None)
        if self.api.compat:
            key += (tuple(self.clip_planes),
                    self.legacy.polygon_stipple if E.GL_POLYGON_STIPPLE in s.enabled else None)
        return key, (fb, fbo, self.window, s, cb.rt, stencil.stencil, getattr(vertex_program, "linked_state", None))

    def _apply_state(self, values) -> None:
        blend, dsa, rasterizer, viewport, scissor, blend_color, stencil_ref, sample_mask, stipple, clip, \
            min_samples = values
        cso, pipe = self.cso, self.pipe
        cso.set_blend(blend)
        cso.set_depth_stencil_alpha(dsa)
        cso.set_rasterizer(rasterizer)
        pipe.set_viewport_states(0, [viewport])
        pipe.set_scissor_states(0, [scissor])
        pipe.set_blend_color(blend_color)
        pipe.set_stencil_ref(*stencil_ref)
        pipe.set_sample_mask(sample_mask)
        if stipple is not None:
            pipe.set_polygon_stipple(stipple)
        if clip is not None:
            pipe.set_clip_state(clip)
        pipe.set_min_samples(min_samples)

    def _derive_state(self, fb, vertex_program=None) -> tuple:
        """The values _apply_state sets (_emit_state)."""
        s = self.state
        depth_bits = draw_framebuffer_bits(self, 4) if fb.zsbuf is not None else 0
        stencil_bits = draw_framebuffer_bits(self, 5) if fb.zsbuf is not None else 0
        derived = self.derived          # each state derived again only when its inputs changed
        multisample = ps.multisample_on(s, self.api, fb.samples)
        cb0 = fb.cbufs[0] if fb.cbufs else None
        integer = cb0 is not None and layout.get_format(cb0.format.value).is_integer
        # alpha to coverage/one read draw buffer zero's alpha: none when it is an integer
        # buffer (GL 4.6 section 17.3.1 leaves it undefined; Mesa's state tracker turns both off)
        blend = derived.blend(s, len(fb.cbufs), multisample and not integer)
        dsa = derived.dsa(s, depth_bits > 0, stencil_bits, integer)
        rasterizer = derived.rasterizer(s, self.api, fb.samples, self._clip_plane_mask(vertex_program),
                                        self.caps.point_size_range, self.caps.line_width_range,
                                        (vertex_clamps(self), fragment_clamps(self)))
        full = (1 << stencil_bits) - 1 if stencil_bits else 0
        front, back = drawn_stencil_faces(s)
        stencil_ref = (max(0, min(front.ref, full)), max(0, min(back.ref, full)))
        stipple = clip = None
        if self.api.compat:
            if E.GL_POLYGON_STIPPLE in s.enabled:
                # glPolygonStipple's 128 bytes: a row's 4 bytes, most significant bit leftmost
                stipple = np.frombuffer(self.legacy.polygon_stipple, ">u4", 32)
            # user clip planes in eye space (GL 4.6 compat section 13.7)
            clip = ClipState(tuple(tuple(p) for p in self.clip_planes))
        # GL 4.6 section 14.3.1.1: ceil(MIN_SAMPLE_SHADING_VALUE * samples)
        shading = E.GL_SAMPLE_SHADING in s.enabled and multisample
        min_samples = max(1, math.ceil(s.min_sample_shading * fb.samples - 1e-9)) if shading else 1
        return (blend, dsa, rasterizer, derived.viewport(s), derived.scissor(s, fb.width_px, fb.height_px),
                s.blend_color, stencil_ref, ps.sample_mask(s, fb.samples, multisample), stipple, clip,
                min_samples)

    def _clip_plane_mask(self, vertex_program=None) -> int:
        """The enabled clip distances the vertex stage provides. Outside the
        compatibility profile (no gl_ClipPlane) a distance the shader does not
        write is undefined (GL 4.6 section 13.7): that plane does not clip."""
        mask = sum(1 << i for i in range(self.caps.max_clip_planes)
                   if E.GL_CLIP_DISTANCE0 + i in self.state.enabled)
        if not mask or self.api.compat:
            return mask
        state = getattr(vertex_program, "linked_state", None)
        unit = state.units.get("vertex") if state is not None else None
        written = [v for v in getattr(unit, "builtin_variables", ())
                   if v.name == "gl_ClipDistance"]
        if not written:
            return 0
        length = max((getattr(v.type, "length", 0) or 0) for v in written)
        return mask & ((1 << length) - 1) if length else mask

    def _program_for_draw(self):
        """The current program, or in the compatibility profile with none,
        the fixed-function program (built once, from generated GLSL). None with
        a bound program pipeline: its programs feed the stages (_stage_programs)."""
        if self.current_program is not None or not self.api.compat or self.bound_pipeline is not None:
            return self.current_program
        ff = getattr(self, "_ff_program", None)
        if ff is None:
            from driver.gl.objects import Program
            ff = Program(0)
            ff.linked_state = self._link(ff)
            ff.linked = True
            self._create_pipe_shaders(ff)
            self._ff_program = ff
        return ff

    def _emit_program(self, prog, stages) -> None:
        ls = prog.linked_state
        reads_state, blocks, samplers, images, buffers = self._emit_plan(ls)
        state_block = self._compat_state_block() if self.api.compat else (
            self._core_state_block(ls) if reads_state else None)
        x = self.xfb
        pipe = self.pipe
        for stage in stages:
            handle = ls.pipe_shaders.get(stage)
            if stage == PipeShaderType.VERTEX and x.active and not x.paused and x.program is prog \
                    and "geometry" not in ls.units:       # with a geometry stage, its passes capture
                handle = self._xfb_vertex_shader(prog)
            pipe.bind_shader_state(stage, handle)
            # the uniform storage's bytes: copied once per generation (driver.gl.uniform_storage)
            pipe.set_constant_buffer(stage, 0, ls.uniform_storage.constant_buffer())
            if state_block is not None:
                pipe.set_constant_buffer(stage, STATE_CONSTANT_BUFFER, state_block)
            if blocks:
                self._emit_blocks(ls, stage)
            if samplers:
                self._emit_samplers(ls, stage)
            else:                       # what _emit_samplers binds for a program without samplers
                self.cso.set_samplers(stage, ())
                pipe.set_sampler_views(stage, 0, ())
            if images:
                self.emit_images(stage, ls)
            if buffers:
                self.emit_shader_buffers(stage, ls)

    _emit_plans = None              # id(link) -> (link, _emit_plan's answer)

    def _emit_plan(self, ls) -> tuple[bool, bool, bool, bool, bool]:
        """What _emit_program has to bind for a link, fixed by it: (a stage reads the
        built-in state block, uniform blocks, sampler uniforms, image uniforms, storage
        blocks or atomic counter buffers); the parts a link lacks bind nothing
        (emit_images, emit_shader_buffers and _emit_blocks would find nothing to bind)."""
        plans = self._emit_plans
        if plans is None:
            plans = self._emit_plans = {}
        hit = plans.get(id(ls))
        if hit is not None and hit[0] is ls:
            return hit[1]
        plan = (_reads_state_block(ls), any(not b.is_storage for b in ls.blocks), bool(self._sampler_plan(ls)[0]),
                any(u.kind == "image" for u in ls.uniforms),
                any(b.is_storage for b in ls.blocks) or bool(ls.atomic_buffers))
        if len(plans) >= _DERIVED_CACHE_ENTRIES:
            plans.clear()
        plans[id(ls)] = (ls, plan)
        return plan

    _core_state_cache = None             # ((near, far), ConstantBuffer) of _core_state_block
    _compat_state_cache = None           # (block bytes, ConstantBuffer) of _compat_state_block

    def _core_state_block(self, ls) -> ConstantBuffer | None:
        """The built-in state block of a core or ES context for a program that reads
        gl_DepthRange, the one state built-in core and ES GLSL keep (GLSL 4.60 section
        7.4: viewport 0's range): zeros but near, far and diff, built again only when
        the range changed; None when no stage reads the block."""
        if not self._derived(("reads state", id(ls)), (ls,), (), lambda: _reads_state_block(ls)):
            return None
        near, far = self.state.depth_range
        cached = self._core_state_cache
        if cached is None or cached[0] != (near, far):
            block = _depth_range_block(near, far)
            cached = self._core_state_cache = ((near, far), ConstantBuffer(None, 0, len(block), block))
        return cached[1]

    def _compat_state_block(self) -> ConstantBuffer:
        """The compatibility profile's built-in state block (legacy/stateblock.py) as a
        constant buffer, the same object while its bytes are the same."""
        block = self.state_uniform_bytes()
        cached = self._compat_state_cache
        if cached is None or cached[0] != block:
            cached = self._compat_state_cache = (block, ConstantBuffer(None, 0, len(block), block))
        return cached[1]

    def _emit_blocks(self, ls, stage, stage_name: str | None = None) -> None:
        """``stage_name``: the program stage whose blocks to bind when it differs from the
        pipe stage (the geometry stage runs as a compute kernel)."""
        name = stage_name or {PipeShaderType.VERTEX: "vertex", PipeShaderType.FRAGMENT: "fragment",
                              PipeShaderType.COMPUTE: "compute"}[stage]
        ubos = self.indexed_buffers[E.GL_UNIFORM_BUFFER]
        for i, b in enumerate(bl for bl in ls.blocks if not bl.is_storage):
            if name not in b.stages:
                continue
            buf, off, size = ubos.get(b.binding, (None, 0, 0))
            cb = None
            if buf is not None and buf.resource is not None:
                cb = ConstantBuffer(buf.resource, off, size or buf.size - off)
            self.pipe.set_constant_buffer(stage, 1 + i, cb)

    def _unit_sampler_state(self, unit: int, params, target: int, seamless: bool):
        """The pipe sampler of a texture unit (the legacy mixin adds the unit's
        TEXTURE_FILTER_CONTROL LOD bias)."""
        return ps.sampler_state(params, target, seamless)

    def _emit_samplers(self, ls, stage) -> None:
        memo = self._draw_samplers
        derived = memo.get(id(ls)) if memo is not None else None
        if derived is None:
            derived = self._derived(("samplers", id(ls)), (ls,), self._sampler_inputs(ls),
                                    lambda: self._derive_samplers(ls))
            if memo is not None:
                memo[id(ls)] = derived
        samplers, views = derived
        self.cso.set_samplers(stage, samplers)
        self.pipe.set_sampler_views(stage, 0, views)

    def _sampler_inputs(self, ls):
        """What _derive_samplers reads beyond the program: per sampler element its
        unit, target, bound texture and sampler object (and the compatibility unit's
        LOD bias), the texture (and, for buffer textures, buffer) generations and the
        seamless-cube enable; None while a bound texture has queued uploads."""
        units, samplers = self.texture_units, self.sampler_units
        targets = self.default_textures
        compat = self.api.compat
        elements = []
        buffers = 0
        for unit, target in self._sampler_targets(ls):
            tex = (units[unit].get(target) or targets[target]) if target in targets else None
            if tex is not None and _has_pending(tex):
                return None
            if target == E.GL_TEXTURE_BUFFER:
                buffers = BUFFERS.generation
            bias = self.legacy.texenv[unit].lod_bias if compat and unit < 8 else 0.0
            elements.append((unit, target, tex, samplers[unit], bias))      # objects: compared by identity
        if not elements:
            return ()
        return (tuple(elements), TEXTURES.generation, buffers,
                E.GL_TEXTURE_CUBE_MAP_SEAMLESS in self.state.enabled)

    def _sampler_plan(self, ls) -> tuple[tuple, tuple]:
        """((offset_B of the unit number, texture target) of every sampler uniform
        element, the same of the elements the shaders use): fixed for a link."""
        return self._derived(("sampler plan", id(ls)), (ls,), (),
                             lambda: (tuple(self._sampler_slots(ls)), tuple(self._sampler_slots(ls, True))))

    def _derive_samplers(self, ls) -> tuple[list, list]:
        """(pipe sampler states, sampler views) of the program's sampler uniforms, in
        uniform order: the same for every stage of the program."""
        samplers, views = [], []
        targets = self.default_textures         # one default texture per target the API has
        for unit, target in self._sampler_targets(ls):
            # nothing bound: the target's default texture (object 0), which samples too
            tex = (self.texture_units[unit].get(target) or targets[target]) if target in targets else None
            if tex is not None and target == E.GL_TEXTURE_BUFFER:
                samplers.append(None)
                views.append(self._buffer_view(tex))
                continue
            sobj = self.sampler_units[unit]
            params = sobj.params if sobj is not None else (tex.params if tex is not None else None)
            res = texture_resource(self, tex) if tex is not None and self._texture_complete(tex, params) else None
            if res is None:
                samplers.append(None)
                views.append(None)     # incomplete: the driver returns (0, 0, 0, 1)
                continue
            seamless = (self.api.es or E.GL_TEXTURE_CUBE_MAP_SEAMLESS in self.state.enabled
                        or params.cube_map_seamless)       # ARB/AMD_seamless_cubemap_per_texture
            depth_mode = getattr(tex, "depth_texture_mode", E.GL_LUMINANCE) if self.api.compat else E.GL_RED
            views.append(srgb_decode_view(ps.sampler_view(tex, res, PIPE_TARGETS[target], depth_mode), params))
            samplers.append(ps.integer_border(self._unit_sampler_state(unit, params, target, seamless),
                                              views[-1].format))
        return tuple(samplers), views

    def _sampler_targets(self, ls, active_only: bool = False) -> tuple:
        """(texture unit, texture target) of every sampler uniform element (``active_only``:
        of the elements the shaders use, ``UniformInfo.active_elements``), read from the
        uniform storage again only when its generation moved."""
        plan = self._sampler_plan(ls)[1 if active_only else 0]
        if not plan:                    # no sampler uniform: nothing to read, whatever the generation
            return ()

        def read():
            data = ls.uniform_data
            return tuple((_I32.unpack_from(data, offset_B)[0], target) for offset_B, target in plan)
        return ls.uniform_storage.memo(("sampler units", active_only), read)

    def _sampler_slots(self, ls, active_only: bool = False):
        """(offset_B of the unit number in the uniform storage, texture target) of every
        sampler uniform element (``active_only``: as _sampler_targets)."""
        for u in ls.uniforms:
            if u.kind != "sampler":
                continue
            target = _SAMPLER_TARGETS[u.type.sampler_dim]
            if u.type.sampler_external:          # OES_EGL_image_external's samplerExternalOES
                target = E.GL_TEXTURE_EXTERNAL_OES
            if u.type.sampler_array:
                target = {E.GL_TEXTURE_1D: E.GL_TEXTURE_1D_ARRAY,
                          E.GL_TEXTURE_2D: E.GL_TEXTURE_2D_ARRAY,
                          E.GL_TEXTURE_CUBE_MAP: E.GL_TEXTURE_CUBE_MAP_ARRAY,
                          E.GL_TEXTURE_2D_MULTISAMPLE: E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY}[target]
            active = getattr(u, "active_elements", None) if active_only else None
            for i in range(u.size):
                if active is not None and i not in active:
                    continue
                yield u.offset_B + i * u.stride_B, target

    def _buffer_view(self, tex):
        """A texel buffer view (GL 4.6 section 8.9)."""
        from driver.gallium import PipeTextureTarget, SamplerView
        from driver.gl.formats import lookup
        buf = tex.buffer
        if buf is None or buf.resource is None:
            return None
        size = tex.buffer_size or buf.size - tex.buffer_offset
        return SamplerView(buf.resource, lookup(tex.buffer_internal_format).texel_buffer_pipe,
                           PipeTextureTarget.BUFFER, offset_B=tex.buffer_offset, size_B=size)

    def _sampler_units_consistent(self, ls) -> bool:
        """GL 4.6 section 11.1.3.11 / GLES 3.2 section 11.1.3.5: samplers of
        different types may not use the same texture unit."""
        def consistent() -> bool:
            seen: dict[int, int] = {}
            for unit, target in self._sampler_targets(ls, active_only=True):
                if seen.setdefault(unit, target) != target:
                    return False
            return True
        if not self._sampler_plan(ls)[1]:       # no sampler the shaders use
            return True
        return ls.uniform_storage.memo("units consistent", consistent)

    def _texture_complete(self, tex, params=None) -> bool:
        """GL 4.6 section 8.17 (mipmap, cube and format completeness), with the
        sampler state ``params`` the texture is sampled with (a bound sampler
        object's; the texture's own when None)."""
        base = tex.image(0, tex.base_level) if tex.images else None
        if base is None or base.width == 0:
            return False
        if tex.target in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
            # GL 4.6 section 8.8: a multisample texture has one level and takes no sampler
            # state (its filters are never applied), so its filters cannot make it incomplete
            return True
        info = self._format_info(base.internal_format)
        p = params if params is not None else tex.params
        if self.api.es and self.api.version < (3, 0) and not self.api.has_extension("GL_OES_texture_npot"):
            # GLES 2.0 section 3.8.2: NPOT textures need CLAMP_TO_EDGE and no mipmaps
            npot = any(x & (x - 1) for x in (base.width, base.height))
            if npot and (p.min_filter not in (E.GL_NEAREST, E.GL_LINEAR) or
                         p.wrap_s != E.GL_CLAMP_TO_EDGE or p.wrap_t != E.GL_CLAMP_TO_EDGE):
                return False
        mip = p.min_filter not in (E.GL_NEAREST, E.GL_LINEAR)
        stencil = info.kind == "stencil" or (info.kind == "depthstencil" and
                                             tex.depth_stencil_mode == E.GL_STENCIL_INDEX)
        if (info.integer or stencil) and p.reduction_mode == E.GL_WEIGHTED_AVERAGE_ARB and \
                (p.mag_filter != E.GL_NEAREST or p.min_filter not in (E.GL_NEAREST, E.GL_NEAREST_MIPMAP_NEAREST)):
            # GL 4.6 section 8.17: integer and stencil need NEAREST (ARB_texture_filter_minmax:
            # unless MIN or MAX reduces them, which the texture unit does for every format)
            return False
        faces = 6 if tex.target == E.GL_TEXTURE_CUBE_MAP else 1
        rows_are_layers = tex.target == E.GL_TEXTURE_1D_ARRAY      # its height counts layers
        top = max(base.width, 1 if rows_are_layers else base.height,
                  base.depth if tex.target == E.GL_TEXTURE_3D else 1)
        last = tex.base_level + top.bit_length() - 1 if mip else tex.base_level
        last = min(last, tex.max_level)
        if tex.immutable:
            last = min(last, tex.immutable_levels - 1)
        for face in range(faces):
            for lv in range(tex.base_level, last + 1):
                img = tex.image(face, lv)
                s = lv - tex.base_level
                want = (max(1, base.width >> s), base.height if rows_are_layers else max(1, base.height >> s))
                if img is None or (img.width, img.height) != want or \
                        img.internal_format != base.internal_format:
                    return False
        return True

    def _emit_vertices(self, prog, vertex_range, instances: int = 1) -> None:
        """Vertex elements and buffers for the program's attributes (Mesa's
        st_atom_array): input location i is fed by element ``fetch_slots[i]`` (i
        itself, or later when a dvec3/dvec4 location below takes two elements);
        enabled arrays read buffers (client memory is uploaded), disabled ones and
        unused elements below the highest one read a constant with stride 0.
        Kept while the program, the vertex array object and the vertex-array and
        buffer generations stand, when every element reads a buffer object."""
        ls = prog.linked_state if prog is not None else None
        sources, inputs = (prog, ls, self.vao), (VERTEX_ARRAYS.generation, BUFFERS.generation)
        cache = self._derived_cache
        hit = cache.get("vertices") if cache is not None else None
        if hit is not None and hit[1] == inputs and all(a is b for a, b in zip(hit[0], sources)):
            elements, buffers = hit[2]
        else:
            elements, buffers, reusable = self._derive_vertices(prog, vertex_range, instances)
            if reusable:
                self._derived("vertices", sources, inputs, lambda: (elements, tuple(buffers)))
        self.cso.set_vertex_elements(elements)
        self.pipe.set_vertex_buffers(list(buffers))

    def _derive_vertices(self, prog, vertex_range, instances: int) -> tuple[tuple, list, bool]:
        """(vertex elements, vertex buffers, reusable) of _emit_vertices; reusable when
        no element is a constant, client memory or a compatibility array (each draw
        uploads those afresh: their values or memory may change without an object
        changing)."""
        ls = prog.linked_state if prog is not None else None
        reusable = [True]
        fetch_slots = ls.fetch_slots if ls is not None else {}
        attributes = sorted(ls.attributes.items(), key=lambda kv: kv[1][0]) if ls else []
        by_location: dict[int, VertexElement] = {}
        buffers: list[VertexBuffer] = []
        bounds: list = []

        def last_vertex() -> int:
            if not bounds:
                bounds.append(vertex_range() if callable(vertex_range) else vertex_range)
            return bounds[0][1]

        def constant(value, kind) -> VertexElement:
            # a glVertexAttribL*d current value read by a non-double input is undefined
            # (GL 4.6 section 10.2.1): it is read as floats
            letter, fmt = {"float": ("f", PipeFormat.R32G32B32A32_FLOAT),
                           "double": ("f", PipeFormat.R32G32B32A32_FLOAT),
                           "int": ("i", PipeFormat.R32G32B32A32_SINT),
                           "uint": ("I", PipeFormat.R32G32B32A32_UINT)}[kind]
            res, off = self.uploader.upload_kept(pack_values(value, letter))
            buffers.append(VertexBuffer(res, off))
            reusable[0] = False
            return VertexElement(0, len(buffers) - 1, fmt, 0)

        for name, (loc, gtype, nslots) in attributes:
            if gtype is not None and gtype.innermost_element.base == "double":     # vertexarrays.py
                reusable[0] = False
                self._emit_long_attribute(loc, gtype, buffers, by_location, last_vertex, instances, fetch_slots)
                continue
            for slot in range(loc, loc + nslots):
                if name.startswith("gl_"):
                    reusable[0] = False
                    src = self._legacy_source(name)
                    a, b = src if src is not None else (None, None)
                else:
                    a, b = self._generic_source(slot)
                element = fetch_slots.get(slot, slot)
                if a is None or b is None:
                    if name.startswith("gl_"):
                        by_location[element] = constant(self._legacy_current(name), "float")
                    else:
                        by_location[element] = constant(*self.current_attribs[slot])
                    continue
                fmt = ps.vertex_format(a.size, a.type, a.normalized, a.integer)
                stride = b.stride
                if b.buffer is not None:
                    vb = VertexBuffer(b.buffer.resource, b.offset)
                else:
                    rows = last_vertex() + 1 if b.divisor == 0 else -(-instances // b.divisor)
                    nbytes = max(0, rows - 1) * stride + a.relative_offset + attrib_size_B(a.size, a.type)
                    mem = a.pointer if isinstance(a.pointer, ClientMemory) else None
                    check(mem is not None, E.GL_INVALID_OPERATION, "NULL client array")
                    res, off = self.uploader.upload(mem.read(0, nbytes))
                    vb = VertexBuffer(res, off)
                    reusable[0] = False
                buffers.append(vb)
                by_location[element] = VertexElement(a.relative_offset, len(buffers) - 1, fmt, stride,
                                                     b.divisor)
        count = max(by_location, default=-1) + 1
        elements = []
        for loc in range(count):
            elements.append(by_location.get(loc) or constant((0.0, 0.0, 0.0, 1.0), "float"))
        return tuple(elements), buffers, reusable[0]

    def _generic_source(self, slot: int) -> tuple:
        """(VertexAttrib, VertexBinding or None) of generic attribute `slot`:
        the binding is None when its array is disabled (the current value is
        read). The compatibility profile hooks this (generic 0 aliases the
        conventional vertex array)."""
        a = self.vao.attribs[slot]
        return a, (self.vao.bindings[a.binding] if a.enabled else None)

    # the stage programs a draw's validate_draw found, for its _emit_draw (set by the caller
    # just before it emits, taken by _emit_draw); None: _emit_draw asks _stage_programs
    _validated_stages = _next_draw_stages = None

    def _emit_draw(self, mode, info, draws, indirect, vertex_range) -> None:
        stages = self._next_draw_stages
        if stages is None:
            stages = self._stage_programs()
        else:
            self._next_draw_stages = None
        if PipeShaderType.VERTEX not in stages:
            # a pipeline without a vertex program: GL 4.6 section 11.1.3.11 leaves the
            # vertices undefined (not an error); nothing is rasterised
            return
        if (PipeShaderType.TESS_EVAL in stages or PipeShaderType.GEOMETRY in stages) and \
                not self._render_condition_passes():
            return                      # its compute passes count and capture: not run at all
        if PipeShaderType.TESS_EVAL in stages:        # lowered to compute passes
            from driver.gl.tessellation import tessellation_draw
            return tessellation_draw(self, mode, info, draws, indirect, vertex_range, stages)
        if PipeShaderType.GEOMETRY in stages:         # lowered to compute passes
            from driver.gl.geometry import geometry_draw
            return geometry_draw(self, mode, info, draws, indirect, vertex_range, stages)
        passes = self._layer_passes(stages[PipeShaderType.VERTEX])
        if passes:
            return self._draw_layer_passes(passes, info, draws, indirect, vertex_range, stages)
        fb = self.emit_framebuffer()
        self._emit_state(fb, stages.get(PipeShaderType.VERTEX))
        self._emit_draw_programs(stages)
        self._emit_vertices(stages.get(PipeShaderType.VERTEX), vertex_range, info.instance_count)
        self._emit_stream_output()
        with self.variant_errors():
            # drawid_offset: the index of this draw within a glMultiDraw* (gl_DrawIDARB)
            self.pipe.draw_vbo(info, getattr(self, "_draw_id", 0), indirect, draws)

    def _layer_passes(self, vs_prog) -> list:
        """(layer, viewport) of each pass of a draw whose vertex stage writes gl_Layer
        (AMD_vertex_shader_layer) with a layered draw framebuffer, or gl_ViewportIndex
        (AMD_vertex_shader_viewport_index): one per layer x viewport, None for the
        selector not written; [] for an ordinary draw."""
        ls = getattr(vs_prog, "linked_state", None)
        if ls is None:
            return []
        written = self._derived(("layer outputs", id(ls)), (ls,), (), lambda: frozenset(
            v.name for v in getattr(ls.units.get("vertex"), "builtin_variables", ())
            if v.storage == "out" and v.name in ("gl_Layer", "gl_ViewportIndex")))
        if not written:
            return []
        layers = range(self._framebuffer_layers()) if "gl_Layer" in written else ()
        viewports = range(self.caps.max_viewports) if "gl_ViewportIndex" in written else ()
        if not layers and not viewports:
            return []
        return [(layer, vp) for layer in (layers or [None]) for vp in (viewports or [None])]

    def _draw_layer_passes(self, passes, info, draws, indirect, vertex_range, stages) -> None:
        """The draw once per (layer, viewport) of ``passes``, each on the attachments'
        layer (``_rendering_layer``) and through that viewport's rectangle, depth range
        and scissor, the vertex stage dropping the primitives of other layers and
        viewports (the pipe's output filter); as the geometry passes draw their output
        (driver/gl/geometry.py). Transform feedback captures in the first pass only."""
        from driver.gl.viewports import state_for_viewport
        vs = stages[PipeShaderType.VERTEX]
        try:
            for k, (layer, vp) in enumerate(passes):
                with self._rendering_layer(layer) if layer is not None else contextlib.nullcontext():
                    fb = self.emit_framebuffer()
                    self._emit_state(fb, vs)
                    if vp is not None:
                        s = state_for_viewport(self.state, vp)
                        self.pipe.set_viewport_states(0, [ps.viewport_state(s)])
                        self.pipe.set_scissor_states(0, [ps.scissor_state(s, fb.width_px, fb.height_px)])
                        self.cso.set_rasterizer(ps.rasterizer_state(
                            s, self.api, fb.samples, self._clip_plane_mask(vs), self.caps.point_size_range,
                            self.caps.line_width_range, (vertex_clamps(self), fragment_clamps(self))))
                    self.pipe.set_output_filter(layer, vp)
                    self._emit_draw_programs(stages)
                    self._emit_vertices(vs, vertex_range, info.instance_count)
                    if k == 0:
                        self._emit_stream_output()
                    else:
                        self.pipe.set_stream_output_targets([], [])
                    with self.variant_errors():
                        self.pipe.draw_vbo(info, getattr(self, "_draw_id", 0), indirect, draws)
        finally:
            self.pipe.set_output_filter(None, None)
            if any(layer is not None for layer, _vp in passes):
                self.emit_framebuffer()             # the whole attachments again

    def _emit_draw_programs(self, stages) -> None:
        self._draw_samplers = {}        # the stages of one program share their samplers' derivation
        try:
            for stage in (PipeShaderType.VERTEX, PipeShaderType.FRAGMENT):
                if stage in stages:
                    self._emit_program(stages[stage], (stage,))
                else:
                    self.pipe.bind_shader_state(stage, None)
        finally:
            self._draw_samplers = None

    def _emit_stream_output(self) -> None:
        """The transform feedback targets of an active, unpaused object: kept while
        the object, its program's link and the transform feedback and buffer
        generations stand; the offsets start the buffers afresh on the first draw
        after glBeginTransformFeedback and append after."""
        x = self.xfb
        if not x.active or x.paused:
            self.pipe.set_stream_output_targets([], [])
            return
        ls = x.program.linked_state
        targets = self._derived("stream output", (x, ls), (TRANSFORM_FEEDBACK.generation, BUFFERS.generation),
                                lambda: _stream_output_targets(x, ls))
        offsets = [0 if x.first_emit else -1] * len(targets)
        x.first_emit = False
        self.pipe.set_stream_output_targets(targets, offsets)

    @contextlib.contextmanager
    def variant_errors(self):
        """A draw or dispatch the pipe could not run because a shader variant
        failed to compile is never dropped silently: GL_INVALID_OPERATION, a
        KHR_debug message (when debug output is on) and, the first time each
        failure is seen in the process, one line on stderr."""
        try:
            yield
        except ShaderVariantError as err:
            msg = str(err)
            if msg not in _VARIANT_FAILURES_REPORTED:
                _VARIANT_FAILURES_REPORTED.add(msg)
                print(f"shimgl: {msg} (reported as GL_INVALID_OPERATION)", file=sys.stderr)
            debug_message = getattr(self, "_debug_message", None)
            if debug_message is not None:
                debug_message(E.GL_DEBUG_SOURCE_SHADER_COMPILER, E.GL_DEBUG_TYPE_ERROR, 1,
                              E.GL_DEBUG_SEVERITY_HIGH, msg)
            raise GLError(E.GL_INVALID_OPERATION, msg) from None

    # -- compute ----------------------------------------------------------------------
    def _compute_program(self):
        prog = self.current_program
        if prog is None and self.bound_pipeline is not None:
            prog = self.bound_pipeline.stages.get("compute")
        check(prog is not None and "compute" in prog.linked_state.units, E.GL_INVALID_OPERATION,
              "no compute program in use")
        return prog

    def glDispatchCompute(self, x: int, y: int, z: int) -> None:
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        prog = self._compute_program()
        limit = self.caps.max_compute_grid_size
        check(0 <= x <= limit[0] and 0 <= y <= limit[1] and 0 <= z <= limit[2], E.GL_INVALID_VALUE,
              "group count > MAX_COMPUTE_WORK_GROUP_COUNT")
        if x == 0 or y == 0 or z == 0:
            return
        self._emit_program(prog, (PipeShaderType.COMPUTE,))
        with self.variant_errors():
            self.pipe.launch_grid(GridInfo(prog.linked_state.local_size, (x, y, z)))

    def glDispatchComputeIndirect(self, indirect: int) -> None:
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        prog = self._compute_program()
        indirect = indirect or 0                        # from C, offset 0 is a NULL pointer
        check(indirect >= 0, E.GL_INVALID_VALUE, "negative offset")
        check(indirect % 4 == 0, E.GL_INVALID_VALUE, "misaligned offset")
        buf = self.buffer_bindings.get(E.GL_DISPATCH_INDIRECT_BUFFER)
        check(buf is not None, E.GL_INVALID_OPERATION, "no DISPATCH_INDIRECT_BUFFER bound")
        check(indirect + 12 <= buf.size, E.GL_INVALID_OPERATION, "beyond the buffer")
        check(not buf.mapped, E.GL_INVALID_OPERATION, "buffer mapped")
        self._emit_program(prog, (PipeShaderType.COMPUTE,))
        with self.variant_errors():
            self.pipe.launch_grid(GridInfo(prog.linked_state.local_size, (0, 0, 0),
                                           indirect=buf.resource, indirect_offset_B=indirect))

    def glMemoryBarrier(self, barriers: int) -> None:
        check(self.api.gl_or_es((4, 2), (3, 1)), E.GL_INVALID_OPERATION)
        bits = {E.GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT: PipeBarrier.VERTEX_BUFFER,
                E.GL_ELEMENT_ARRAY_BARRIER_BIT: PipeBarrier.INDEX_BUFFER,
                E.GL_UNIFORM_BARRIER_BIT: PipeBarrier.CONSTANT_BUFFER,
                E.GL_TEXTURE_FETCH_BARRIER_BIT: PipeBarrier.TEXTURE,
                E.GL_SHADER_IMAGE_ACCESS_BARRIER_BIT: PipeBarrier.IMAGE,
                E.GL_COMMAND_BARRIER_BIT: PipeBarrier.INDIRECT_BUFFER,
                E.GL_PIXEL_BUFFER_BARRIER_BIT: PipeBarrier.MAPPED_BUFFER,
                E.GL_TEXTURE_UPDATE_BARRIER_BIT: PipeBarrier.UPDATE,
                E.GL_BUFFER_UPDATE_BARRIER_BIT: PipeBarrier.UPDATE,
                E.GL_FRAMEBUFFER_BARRIER_BIT: PipeBarrier.FRAMEBUFFER,
                E.GL_TRANSFORM_FEEDBACK_BARRIER_BIT: PipeBarrier.STREAMOUT_BUFFER,
                E.GL_ATOMIC_COUNTER_BARRIER_BIT: PipeBarrier.SHADER_BUFFER,
                E.GL_SHADER_STORAGE_BARRIER_BIT: PipeBarrier.SHADER_BUFFER}
        if self.api.gl_or_es((4, 4), (3, 2)) or self.api.has_extension("GL_ARB_buffer_storage") or \
                self.api.has_extension("GL_EXT_buffer_storage"):
            # persistent mappings (GL 4.6 section 7.13.2): the pipe's mappings are the BOs
            bits[E.GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT] = PipeBarrier.MAPPED_BUFFER
        if barriers == E.GL_ALL_BARRIER_BITS:
            self.pipe.memory_barrier(PipeBarrier.ALL)
            return
        known = 0
        for b in bits:
            known |= b
        check(barriers & ~known == 0, E.GL_INVALID_VALUE, "unknown barrier bits")
        flags = PipeBarrier(0)
        for b, f in bits.items():
            if barriers & b:
                flags |= f
        self.pipe.memory_barrier(flags)

    # -- clears (GL 4.6 section 17.4.3) ----------------------------------------------------
    #: (inputs, objects, framebuffer state, pipe.clear's arguments or None) of the last
    #: glClear that went straight to the pipe (_clear_inputs)
    _kept_clear = None

    def _clear_inputs(self, mask: int):
        """(values, objects compared by identity) that a glClear reads when it goes
        straight to ``pipe.clear`` (or clears nothing): the mask, the draw framebuffer
        (the window's buffers, size, draw buffers and bits; a framebuffer object's
        generations, as ``_framebuffer_inputs``), the layer being rendered and the
        generations of the enables, colour (clear colour, colour masks), depth, stencil
        (front face: the write mask) and viewport (scissor) groups; None when a
        framebuffer object is not kept (queued uploads)."""
        s = self.state
        fbo = self.draw_framebuffer
        if fbo is None:
            w = self.window
            fb_in = (w.width, w.height, w.samples, tuple(w.draw_buffers), w.bits)
            objects = (w, w.color, w.depth_stencil)
        else:
            fb_in = self._framebuffer_inputs(fbo)
            if fb_in is None:
                return None
            objects = (fbo,)
        cb, st = s.color_buffer, s.stencil_buffer
        return (mask, fb_in, getattr(self, "_render_layer", None), s.enabled.gen, cb.gen,
                *[rt.gen for rt in cb.rt], s.depth_buffer.gen, st.gen, st.stencil[0].gen,
                s.viewports.gen), objects

    def glClear(self, mask: int) -> None:
        kept = self._kept_clear
        if kept is not None:
            got = self._clear_inputs(mask)
            # (and the framebuffer state is still the one emit_framebuffer would derive)
            if got is not None and got[0] == kept[0] and all(a is b for a, b in zip(got[1], kept[1])) and \
                    (self._derived_cache or {}).get(("fb state", id(self.draw_framebuffer)), _NO_ENTRY)[2] is kept[2]:
                self.pipe.set_framebuffer_state(kept[2])
                if kept[3] is not None:
                    self.pipe.clear(*kept[3])
                return
        allowed = _CLEAR_MASK_COMPAT if self.api.compat else _CLEAR_MASK
        check(mask & ~allowed == 0, E.GL_INVALID_VALUE, "bad clear bits")
        status, layers, depth_bits, stencil_bits = self._draw_framebuffer_facts()
        check(status == E.GL_FRAMEBUFFER_COMPLETE, E.GL_INVALID_FRAMEBUFFER_OPERATION,
              "draw framebuffer incomplete")
        s = self.state
        if E.GL_RASTERIZER_DISCARD in s.enabled:
            return
        if layers and self._clear_each_layer(lambda: self.glClear(mask)):
            return
        fb = self.emit_framebuffer()
        # (PipeClear's bits as plain integers: an IntFlag operation makes a member each)
        buffers = 0
        if mask & E.GL_COLOR_BUFFER_BIT:
            for i, cb in enumerate(fb.cbufs):
                if cb is not None:
                    buffers |= _CLEAR_COLOR0 << i
        if fb.zsbuf is None:
            stencil_bits = 0
        elif mask & E.GL_DEPTH_BUFFER_BIT and depth_bits and s.depth_mask:
            buffers |= _CLEAR_DEPTH
        full = (1 << stencil_bits) - 1 if stencil_bits else 0
        stencil_mask = s.stencil[0].write_mask & full
        if mask & E.GL_STENCIL_BUFFER_BIT and stencil_mask:
            buffers |= _CLEAR_STENCIL
        color_bits = []
        partial = False
        for i in range(len(fb.cbufs)):
            bit = _CLEAR_COLOR0 << i
            bits = _MASK_BITS[s.rt[i].color_mask] if buffers & bit else 0
            if not bits:
                buffers &= ~bit
            elif bits != 0xF:
                partial = True
            color_bits.append(bits)
        if not buffers:
            self._keep_clear(mask, fb, None)
            return
        if partial or (buffers & _CLEAR_STENCIL and stencil_mask != full):
            # pipe.clear has no write masks: draw the clear (GL 4.6 section 17.4.3)
            self._clear_with_quad(fb, color_bits, bool(buffers & _CLEAR_DEPTH),
                                  bool(buffers & _CLEAR_STENCIL), stencil_bits)
            return
        scissor = (ps.scissor_state(s, fb.width_px, fb.height_px)
                   if E.GL_SCISSOR_TEST in s.enabled else None)
        if buffers & _CLEAR_DEPTHSTENCIL and self._scissor_partial(scissor, fb):
            # the depth/stencil clear at tile start covers everything: draw it, on the GPU
            self._clear_with_quad(fb, [0] * len(fb.cbufs), bool(buffers & _CLEAR_DEPTH),
                                  bool(buffers & _CLEAR_STENCIL), stencil_bits)
            buffers &= ~_CLEAR_DEPTHSTENCIL
            if not buffers:
                return
        call = (PipeClear(buffers), scissor, s.clear_color, s.clear_depth, s.clear_stencil & full)
        self._keep_clear(mask, fb, call)
        self.pipe.clear(*call)

    def _keep_clear(self, mask: int, fb, call) -> None:
        """Remember a glClear that went straight to the pipe (``call``: pipe.clear's
        arguments, None: nothing to clear) for the next one with the same inputs."""
        got = self._clear_inputs(mask)
        self._kept_clear = None if got is None else (got[0], got[1], fb, call)

    @staticmethod
    def _scissor_partial(scissor, fb) -> bool:
        return scissor is not None and (scissor.minx > 0 or scissor.miny > 0 or
                                        scissor.maxx < fb.width_px or scissor.maxy < fb.height_px)

    def _clear_buffer(self, buffer, drawbuffer, value, kind) -> None:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        valid = {"iv": (E.GL_COLOR, E.GL_STENCIL), "uiv": (E.GL_COLOR,),
                 "fv": (E.GL_COLOR, E.GL_DEPTH), "fi": (E.GL_DEPTH_STENCIL,)}[kind]
        check_enum(buffer, valid)
        if buffer == E.GL_COLOR:
            check(0 <= drawbuffer < self.caps.max_render_targets, E.GL_INVALID_VALUE,
                  "drawbuffer out of range")
        else:
            check(drawbuffer == 0, E.GL_INVALID_VALUE, "drawbuffer must be 0")
        status = framebuffer_status(self, self.draw_framebuffer)
        check(status == E.GL_FRAMEBUFFER_COMPLETE, E.GL_INVALID_FRAMEBUFFER_OPERATION)
        if self._clear_each_layer(lambda: self._clear_buffer(buffer, drawbuffer, value, kind)):
            return
        fb = self.emit_framebuffer()
        s = self.state
        if buffer == E.GL_COLOR:
            if drawbuffer >= len(fb.cbufs) or fb.cbufs[drawbuffer] is None:
                return
            color = tuple(value[:4])
            self.pipe.clear(PipeClear.color(drawbuffer), None if E.GL_SCISSOR_TEST not in s.enabled
                            else ps.scissor_state(s, fb.width_px, fb.height_px), color, 0.0, 0)
            return
        flags = PipeClear(0)
        depth, stencil = 0.0, 0
        if buffer in (E.GL_DEPTH, E.GL_DEPTH_STENCIL) and draw_framebuffer_bits(self, 4):
            flags |= PipeClear.DEPTH
            depth = min(1.0, max(0.0, float(value[0])))
        if buffer in (E.GL_STENCIL, E.GL_DEPTH_STENCIL) and draw_framebuffer_bits(self, 5):
            flags |= PipeClear.STENCIL
            stencil = int(value[1] if buffer == E.GL_DEPTH_STENCIL else value[0])
        if flags:
            scissor = None if E.GL_SCISSOR_TEST not in s.enabled else \
                ps.scissor_state(s, fb.width_px, fb.height_px)
            bits = draw_framebuffer_bits(self, 5)
            full = (1 << bits) - 1 if bits else 0
            masked = flags & PipeClear.STENCIL and s.stencil[0].write_mask & full != full
            if flags & PipeClear.DEPTH and not s.depth_mask:
                flags &= ~PipeClear.DEPTH                   # GL 4.6 section 17.4.3.1: masks apply
            if flags & PipeClear.STENCIL and not s.stencil[0].write_mask & full:
                flags &= ~PipeClear.STENCIL
            if not flags:
                return
            if self._scissor_partial(scissor, fb) or masked:
                self._clear_with_quad(fb, [0] * len(fb.cbufs), bool(flags & PipeClear.DEPTH),
                                      bool(flags & PipeClear.STENCIL), bits, depth, stencil)
                return
            self.pipe.clear(flags, scissor, (0, 0, 0, 0), depth, stencil)

    def glClearBufferfv(self, buffer: int, drawbuffer: int, value) -> None:
        self._clear_buffer(buffer, drawbuffer, [float(v) for v in value], "fv")

    def glClearBufferiv(self, buffer: int, drawbuffer: int, value) -> None:
        self._clear_buffer(buffer, drawbuffer, [int(v) for v in value], "iv")

    def glClearBufferuiv(self, buffer: int, drawbuffer: int, value) -> None:
        self._clear_buffer(buffer, drawbuffer, [int(v) & 0xFFFFFFFF for v in value], "uiv")

    def glClearBufferfi(self, buffer: int, drawbuffer: int, depth: float, stencil: int) -> None:
        self._clear_buffer(buffer, drawbuffer, [depth, stencil], "fi")
