"""Desktop-GL entry points beyond GLES: vertex attribute value variants,
multi-draws, point parameters, colour clamping, conditional rendering,
more framebuffer attachment forms, texture image reads, fragment output
indices, indexed viewport/scissor/depth range, buffer/texture invalidation,
buffer clears, image copies, debug output and object labels (GL 4.6)."""

from __future__ import annotations

import contextlib
import math
import struct

import numpy as np

import layout

from driver.gallium import Box, PipeBind, PipeFormat, PipeMap, PipeTextureTarget, PipeUsage, ResourceTemplate
from driver.gl import enums as E
from driver.gl.buffers import range_mapped_not_persistent
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features.gl_spirv import names_hidden
from driver.gl.features.gles_ext import es_has
from driver.gl.objects import Attachment
from driver.gl.pixels import write_client_image, from_resource_bytes
from driver.gl.pointers import as_bytes
from driver.gl.textures import bound_texture, texture_resource, texture_targets
from driver.gl.programs import program_object

__all__ = ["DesktopMixin"]



def _check_counts(drawcount, count) -> None:
    """GL 4.6 sections 2.3.1 and 10.4: a negative drawcount, or a negative count of any
    of the draws, is INVALID_VALUE and the whole command draws nothing (checked before
    the first draw, as Mesa's _mesa_validate_MultiDrawArrays/Elements do)."""
    check(drawcount >= 0, E.GL_INVALID_VALUE, "negative drawcount")
    check(all(int(count[i]) >= 0 for i in range(drawcount)), E.GL_INVALID_VALUE, "a negative count")

class DesktopMixin:
    def _desktop(self, major: int = 1, minor: int = 0) -> None:
        check(self.api.gl(major, minor), E.GL_INVALID_OPERATION, "desktop GL only")

    # -- attribute value variants (GL 4.6 section 10.2.1) ---------------------------------
    def glGetVertexAttribdv(self, index: int, pname: int) -> list:
        self._desktop()
        return self.glGetVertexAttribfv(index, pname)

    # -- multi-draws (GL 4.6 section 10.4) --------------------------------------------------
    @contextlib.contextmanager
    def _multi_draw(self):
        """Each draw of a multi-draw knows its index (gl_DrawIDARB): set it around the
        i-th draw with ``with self._multi_draw() as nth: nth(i)``."""
        def nth(i: int) -> None:
            self._draw_id = i
        try:
            yield nth
        finally:
            self._draw_id = 0

    def glMultiDrawArrays(self, mode, first, count, drawcount) -> None:
        check(self.api.gl(1, 0) or es_has(self.api, "multi_draw_arrays"), E.GL_INVALID_OPERATION,
              "GLES: glMultiDrawArraysEXT needs EXT_multi_draw_arrays")
        _check_counts(drawcount, count)
        with self._multi_draw() as nth:
            for i in range(drawcount):
                nth(i)
                self._draw_arrays(mode, first[i], count[i], 1, 0)

    def glMultiDrawElements(self, mode, count, type, indices, drawcount) -> None:
        check(self.api.gl(1, 0) or es_has(self.api, "multi_draw_arrays"), E.GL_INVALID_OPERATION,
              "GLES: glMultiDrawElementsEXT needs EXT_multi_draw_arrays")
        _check_counts(drawcount, count)
        with self._multi_draw() as nth:
            for i in range(drawcount):
                nth(i)
                self._draw_elements(mode, count[i], type, indices[i], 1, 0, 0, None)

    def glMultiDrawElementsBaseVertex(self, mode, count, type, indices, drawcount, basevertex):
        # GLES: OES/EXT_draw_elements_base_vertex add glMultiDrawElementsBaseVertexEXT when
        # EXT_multi_draw_arrays is supported
        check(self.api.gl(3, 2) or (es_has(self.api, "base_vertex") and es_has(self.api, "multi_draw_arrays")),
              E.GL_INVALID_OPERATION, "GLES: needs a base-vertex extension and EXT_multi_draw_arrays")
        _check_counts(drawcount, count)
        with self._multi_draw() as nth:
            for i in range(drawcount):
                nth(i)
                self._draw_elements(mode, count[i], type, indices[i], 1, basevertex[i], 0, None)

    def glDrawElementsInstancedBaseInstance(self, mode, count, type, indices, instancecount,
                                            baseinstance) -> None:
        check(self.api.gl(4, 2) or es_has(self.api, "base_instance"), E.GL_INVALID_OPERATION)
        self._draw_elements(mode, count, type, indices, instancecount, 0, baseinstance, None)

    def glDrawElementsInstancedBaseVertexBaseInstance(self, mode, count, type, indices,
                                                      instancecount, basevertex, baseinstance):
        check(self.api.gl(4, 2) or es_has(self.api, "base_instance"), E.GL_INVALID_OPERATION)
        self._draw_elements(mode, count, type, indices, instancecount, basevertex, baseinstance,
                            None)

    def _multi_indirect_offsets(self, indirect, drawcount, stride, size_B) -> range:
        """The command offsets of a glMultiDraw*Indirect (GL 4.6 section 10.4),
        all validated first: a NULL `indirect` is offset 0, and every command
        must lie in the bound DRAW_INDIRECT_BUFFER (so the count of draws is
        bounded by the buffer, never by `drawcount` alone)."""
        check(drawcount >= 0 and stride >= 0 and stride % 4 == 0, E.GL_INVALID_VALUE,
              "negative drawcount or bad stride")
        indirect = 0 if indirect is None else indirect
        step = stride or size_B
        self._indirect_buffer(indirect, size_B)
        if drawcount > 1:
            self._indirect_buffer(indirect + (drawcount - 1) * step, size_B)
        return range(indirect, indirect + drawcount * step, step)

    def glMultiDrawArraysIndirect(self, mode, indirect, drawcount, stride) -> None:
        self._desktop(4, 3)
        with self._multi_draw() as nth:
            for i, offset in enumerate(self._multi_indirect_offsets(indirect, drawcount, stride, 16)):
                nth(i)
                self.glDrawArraysIndirect(mode, offset)

    def glMultiDrawElementsIndirect(self, mode, type, indirect, drawcount, stride) -> None:
        self._desktop(4, 3)
        with self._multi_draw() as nth:
            for i, offset in enumerate(self._multi_indirect_offsets(indirect, drawcount, stride, 20)):
                nth(i)
                self.glDrawElementsIndirect(mode, type, offset)

    # -- rasterisation extras ------------------------------------------------------------------
    def glPointParameterfv(self, pname: int, params) -> None:
        """GL 4.6 section 14.4 (core: FADE_THRESHOLD_SIZE and SPRITE_COORD_ORIGIN)."""
        self._desktop()
        v = list(params)[0]
        if pname == E.GL_POINT_FADE_THRESHOLD_SIZE:
            check(v >= 0, E.GL_INVALID_VALUE)
            self.state.point_fade_threshold = float(v)
        elif pname == E.GL_POINT_SPRITE_COORD_ORIGIN:
            check_enum(int(v), (E.GL_LOWER_LEFT, E.GL_UPPER_LEFT))
            self.state.point_sprite_origin = int(v)
        else:
            raise GLError(E.GL_INVALID_ENUM, "bad point parameter")

    def glClampColor(self, target: int, clamp: int) -> None:
        self._desktop(3, 0)
        targets = {E.GL_CLAMP_READ_COLOR}
        if self.api.compat:
            targets |= {E.GL_CLAMP_VERTEX_COLOR, E.GL_CLAMP_FRAGMENT_COLOR}
        check_enum(target, targets)
        check_enum(clamp, (E.GL_TRUE, E.GL_FALSE, E.GL_FIXED_ONLY))
        self.state.clamp_color = {**getattr(self.state, "clamp_color", {}), target: clamp}

    # -- conditional rendering (GL 4.6 section 10.10) ------------------------------------------
    def _conditional_render_api(self) -> None:
        """GL 3.0, or GLES 3.0+ through NV_conditional_render (glBeginConditionalRenderNV)."""
        if not (self.api.es and self.api.has_extension("GL_NV_conditional_render")):
            self._desktop(3, 0)

    def glBeginConditionalRender(self, id: int, mode: int) -> None:
        self._conditional_render_api()
        modes = [E.GL_QUERY_WAIT, E.GL_QUERY_NO_WAIT, E.GL_QUERY_BY_REGION_WAIT,
                 E.GL_QUERY_BY_REGION_NO_WAIT]
        inverted = [E.GL_QUERY_WAIT_INVERTED, E.GL_QUERY_NO_WAIT_INVERTED,
                    E.GL_QUERY_BY_REGION_WAIT_INVERTED, E.GL_QUERY_BY_REGION_NO_WAIT_INVERTED]
        if self.api.has_extension("GL_ARB_conditional_render_inverted"):
            modes += inverted
        check_enum(mode, modes)
        check(getattr(self, "_conditional", None) is None, E.GL_INVALID_OPERATION, "already active")
        q = self.queries.get(id)
        # GL 4.6 section 10.10: a name that is not a query's -> INVALID_VALUE (as Mesa:
        # 0 or never generated); a query never begun, or active -> INVALID_OPERATION
        check(id != 0 and self.queries.is_generated(id), E.GL_INVALID_VALUE, "not a query name")
        check(q is not None and q.ever_used and not q.active, E.GL_INVALID_OPERATION,
              "not a usable query")
        # ARB_transform_feedback_overflow_query: overflow queries may decide too
        check(q.target in (E.GL_SAMPLES_PASSED, E.GL_ANY_SAMPLES_PASSED,
                           E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE, E.GL_TRANSFORM_FEEDBACK_OVERFLOW,
                           E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW), E.GL_INVALID_OPERATION,
              "not an occlusion or transform feedback overflow query")
        self._conditional = q
        wait = mode in (E.GL_QUERY_WAIT, E.GL_QUERY_BY_REGION_WAIT, E.GL_QUERY_WAIT_INVERTED,
                        E.GL_QUERY_BY_REGION_WAIT_INVERTED)
        self._conditional_mode = (mode in inverted, wait)
        # render when the result differs from `condition`: non-zero normally, zero inverted
        if self._query_differs_from_pipe(q):
            # an overflow query of a vertex stream or with stream passes: its value is the
            # front end's, known since glEndQuery; the pipe reads it from a buffer
            res = self._condition_word()
            self.pipe.buffer_subdata(res, PipeMap.WRITE, 0, struct.pack("<I", self._query_value(q, True)))
            self.pipe.render_condition_mem(res, 0, mode in inverted)
        else:
            self.pipe.render_condition(q.pipe_query, mode in inverted, wait)

    def _condition_word(self):
        """The context's 4-byte buffer a front-end query value is handed to the pipe's
        conditional rendering in (made at first use)."""
        res = getattr(self, "_condition_res", None)
        if res is None:
            res = self._condition_res = self.screen.resource_create(ResourceTemplate(
                PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, 4, bind=PipeBind.CONSTANT_BUFFER,
                usage=PipeUsage.DEFAULT))
        return res

    def _render_condition_passes(self) -> bool:
        """Whether conditional rendering lets a draw through, decided here for the draws the
        front end lowers to compute passes (geometry, tessellation), which the pipe's
        condition would only stop at their last, rasterising pass. As the pipe: without
        waiting (the NO_WAIT modes) a result not yet available renders."""
        q = getattr(self, "_conditional", None)
        if q is None:
            return True
        inverted, wait = self._conditional_mode
        value = self._query_value(q, wait)
        return value is None or bool(value) != inverted

    def glEndConditionalRender(self) -> None:
        self._conditional_render_api()
        check(getattr(self, "_conditional", None) is not None, E.GL_INVALID_OPERATION, "not active")
        self._conditional = None
        self.pipe.render_condition(None, False, False)

    # -- more attachment forms (GL 4.6 section 9.2.8) -------------------------------------------
    def glFramebufferTexture(self, target, attachment, texture, level) -> None:
        check(self.api.gl(3, 2) or es_has(self.api, "geometry_shader"), E.GL_INVALID_OPERATION,
              "needs GL 3.2, GLES 3.2 or a geometry shader extension")
        fb = self._check_attachment_target(target, attachment)
        if texture == 0:
            self._attach(fb, attachment, None)
            return
        tex = self.textures.get(texture)
        check(tex is not None and tex.target != 0, E.GL_INVALID_VALUE, "not a texture")
        check(tex.target != E.GL_TEXTURE_BUFFER, E.GL_INVALID_OPERATION,
              "a buffer texture cannot be attached")
        check(level >= 0, E.GL_INVALID_VALUE)
        layered = tex.target in (E.GL_TEXTURE_3D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP,
                                 E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY,
                                 E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
        self._attach(fb, attachment, Attachment(E.GL_TEXTURE, tex, level, 0, 0, layered))

    def glFramebufferTexture1D(self, target, attachment, textarget, texture, level) -> None:
        self._desktop()
        fb = self._check_attachment_target(target, attachment)
        if texture == 0:
            self._attach(fb, attachment, None)
            return
        check_enum(textarget, (E.GL_TEXTURE_1D,))
        tex = self.textures.get(texture)
        check(tex is not None and tex.target == E.GL_TEXTURE_1D, E.GL_INVALID_OPERATION)
        check(level >= 0, E.GL_INVALID_VALUE)
        self._attach(fb, attachment, Attachment(E.GL_TEXTURE, tex, level))

    def glFramebufferTexture3D(self, target, attachment, textarget, texture, level, zoffset):
        self._desktop()
        fb = self._check_attachment_target(target, attachment)
        if texture == 0:
            self._attach(fb, attachment, None)
            return
        check_enum(textarget, (E.GL_TEXTURE_3D,))
        tex = self.textures.get(texture)
        check(tex is not None and tex.target == E.GL_TEXTURE_3D, E.GL_INVALID_OPERATION)
        check(level >= 0 and zoffset >= 0, E.GL_INVALID_VALUE)
        self._attach(fb, attachment, Attachment(E.GL_TEXTURE, tex, level, zoffset))

    # -- texture image reads (GL 4.6 section 8.11.4) ----------------------------------------------
    def glGetTexImage(self, target, level, format, type, pixels=None) -> bytes | None:
        """Returns the packed image, or writes it into a bound PIXEL_PACK_BUFFER at
        byte offset ``pixels`` (then returns None)."""
        self._desktop()
        from driver.gl.textures import CUBE_FACES
        ok = {E.GL_TEXTURE_1D, E.GL_TEXTURE_2D, E.GL_TEXTURE_3D, E.GL_TEXTURE_1D_ARRAY,
              E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_RECTANGLE, *CUBE_FACES}
        ok |= {E.GL_TEXTURE_CUBE_MAP_ARRAY} & texture_targets(self.api)
        check_enum(target, ok)
        from driver.gl.formats import PIXEL_FORMATS, PIXEL_TYPES, pixel_type_matches
        check_enum(format, PIXEL_FORMATS)
        check_enum(type, PIXEL_TYPES)
        check(level >= 0, E.GL_INVALID_VALUE)
        check(pixel_type_matches(format, type), E.GL_INVALID_OPERATION)
        face = target - CUBE_FACES[0] if target in CUBE_FACES else 0
        tex = bound_texture(self, E.GL_TEXTURE_CUBE_MAP if target in CUBE_FACES else target)
        img = tex.image(face, level)
        if img is None:
            return b""
        res = texture_resource(self, tex)
        # a 1D array's rows are the resource's layers (one row each)
        rows_are_layers = tex.target == E.GL_TEXTURE_1D_ARRAY
        layers, rows = (img.height, 1) if rows_are_layers else (img.depth, img.height)
        from driver.gl.features.gles_ext import view_offsets
        level0, layer0, view_format = view_offsets(tex)     # a texture view: its part of the storage
        tr = self.pipe.transfer_map(res, level0 + level, PipeMap.READ,
                                    Box(0, 0, layer0 + face, img.width, rows, layers))
        try:
            raw = bytes(tr.data[:tr.layer_stride_B * layers])
        finally:
            self.pipe.transfer_unmap(tr)
        rgba = from_resource_bytes(raw, (view_format or res.format).name, (layers, rows, img.width))
        if rows_are_layers:
            rgba = rgba.reshape(1, img.height, img.width, -1)
        out = write_client_image(rgba, self.state.pack, format, type)
        pbo = self.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
        if pbo is not None:
            self._write_pack_buffer(pbo, pixels, out)
            return None
        return out

    def _write_pack_buffer(self, pbo, offset, data: bytes) -> None:
        """An image into the PIXEL_PACK buffer at byte ``offset`` (INVALID_OPERATION past its end)."""
        offset = int(offset or 0)
        check(offset >= 0 and offset + len(data) <= pbo.size, E.GL_INVALID_OPERATION,
              "the image does not fit in the pack buffer")
        self.pipe.buffer_subdata(pbo.resource, PipeMap.WRITE, offset, data)

    # -- fragment output indices (GL 4.6 section 15.2.3, dual-source blending) ------------------
    def _dual_source(self, major: int = 3, minor: int = 3, es: tuple = (2, 0)) -> None:
        """GL `major`.`minor`, or a GLES context of version `es` or later with EXT_blend_func_extended."""
        check(self.api.gl(major, minor) or (es_has(self.api, "blend_func_extended") and self.api.version >= es),
              E.GL_INVALID_OPERATION, f"needs GL {major}.{minor} or GL_EXT_blend_func_extended")

    def glBindFragDataLocationIndexed(self, program, colorNumber, index, name) -> None:
        self._dual_source()
        check(index in (0, 1), E.GL_INVALID_VALUE, "index must be 0 or 1")
        if index == 1:
            check(colorNumber < self.caps.max_dual_source_render_targets, E.GL_INVALID_VALUE)
        prog = program_object(self, program)
        check(name is not None, E.GL_INVALID_VALUE, "NULL name")
        self.glBindFragDataLocation(program, colorNumber, name)
        if not hasattr(prog, "frag_data_index"):
            prog.frag_data_index = {}
        prog.frag_data_index[name] = index

    def glGetFragDataIndex(self, program: int, name: str) -> int:
        self._dual_source()
        prog = program_object(self, program)
        check(prog.linked, E.GL_INVALID_OPERATION)
        if name not in prog.linked_state.frag_outputs or names_hidden(prog):
            return -1
        return prog.linked_state.frag_output_indices.get(name, 0)

    # -- indexed viewports (GL 4.6 sections 13.6.1, 14.9.2; driver/gl/viewports.py) -----------------
    def _viewport_arrays(self) -> None:
        """GL 4.1's indexed viewports, or GLES's through OES_viewport_array."""
        check(self.api.gl(4, 1) or es_has(self.api, "viewport_array"), E.GL_INVALID_OPERATION,
              "needs GL 4.1 or OES_viewport_array")

    def _viewport_index(self, index: int) -> None:
        self._viewport_arrays()
        check(0 <= index < self.caps.max_viewports, E.GL_INVALID_VALUE, "viewport index")

    def glViewportIndexedf(self, index, x, y, w, h) -> None:
        from driver.gl.viewports import set_viewport_value
        self._viewport_index(index)
        check(w >= 0 and h >= 0, E.GL_INVALID_VALUE)
        # GL 4.6 section 13.6.1: floating-point bounds, the origin clamped to
        # VIEWPORT_BOUNDS_RANGE and the size to MAX_VIEWPORT_DIMS
        m = self.caps.max_viewport_size_px
        lo, hi = -2.0 * m, 2.0 * m - 1          # limits.py's GL_VIEWPORT_BOUNDS_RANGE

        def bounded(v, top):
            v = float(v)
            return min(max(v, lo), top) if math.isfinite(v) else (top if v > 0 else lo)
        set_viewport_value(self.state, "viewport", index,
                           (bounded(x, hi), bounded(y, hi), min(float(w), m), min(float(h), m)),
                           self.caps.max_viewports)

    def glViewportIndexedfv(self, index, v) -> None:
        self.glViewportIndexedf(index, *list(v)[:4])

    def glViewportArrayv(self, first, count, v) -> None:
        self._viewport_arrays()
        vals = self._indexed_array(first, count, v, 4)
        check(all(w >= 0 and h >= 0 for w, h in zip(vals[2::4], vals[3::4])), E.GL_INVALID_VALUE,
              "negative viewport size")
        for i in range(count):
            self.glViewportIndexedf(first + i, *vals[4 * i:4 * i + 4])

    def glScissorIndexed(self, index, left, bottom, width, height) -> None:
        from driver.gl.viewports import set_viewport_value
        self._viewport_index(index)
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative scissor size")
        set_viewport_value(self.state, "scissor", index, (int(left), int(bottom), int(width), int(height)),
                           self.caps.max_viewports)

    def glScissorIndexedv(self, index, v) -> None:
        self.glScissorIndexed(index, *list(v)[:4])

    def glScissorArrayv(self, first, count, v) -> None:
        self._viewport_arrays()
        vals = self._indexed_array(first, count, v, 4)
        check(all(w >= 0 and h >= 0 for w, h in zip(vals[2::4], vals[3::4])), E.GL_INVALID_VALUE,
              "negative scissor size")
        for i in range(count):
            self.glScissorIndexed(first + i, *vals[4 * i:4 * i + 4])

    def glDepthRangeIndexed(self, index, n, f) -> None:
        from driver.gl.viewports import set_viewport_value
        self._viewport_index(index)
        set_viewport_value(self.state, "depth_range", index, (min(max(float(n), 0.0), 1.0),
                                                              min(max(float(f), 0.0), 1.0)),
                           self.caps.max_viewports)

    def glDepthRangeArrayv(self, first, count, v) -> None:
        self._viewport_arrays()
        vals = self._indexed_array(first, count, v, 2)
        for i in range(count):
            self.glDepthRangeIndexed(first + i, vals[2 * i], vals[2 * i + 1])

    def _indexed_array(self, first, count, v, per_index) -> list:
        """The values of a gl*Arrayv call, all validated before any is applied (GL 4.6
        section 13.6.1): the index range within MAX_VIEWPORTS, `per_index` values each."""
        check(count >= 0 and first >= 0 and first + count <= self.caps.max_viewports,
              E.GL_INVALID_VALUE, "viewport index range beyond MAX_VIEWPORTS")
        vals = list(v) if v is not None else []
        check(len(vals) >= per_index * count, E.GL_INVALID_VALUE, "fewer values than count needs")
        return vals[:per_index * count]

    def glGetFloati_v(self, target, index) -> list[float]:
        self._viewport_arrays()
        if target in (E.GL_VIEWPORT, E.GL_DEPTH_RANGE, E.GL_SCISSOR_BOX):
            from driver.gl.viewports import viewport_value
            check(0 <= index < self.caps.max_viewports, E.GL_INVALID_VALUE)
            component = {E.GL_VIEWPORT: "viewport", E.GL_DEPTH_RANGE: "depth_range",
                         E.GL_SCISSOR_BOX: "scissor"}[target]
            return [float(v) for v in viewport_value(self.state, component, index)]
        return [float(v) for v in (self.glGetIntegeri_v(target, index) or [])]

    def glGetDoublei_v(self, target, index) -> list[float]:
        return self.glGetFloati_v(target, index)

    # -- invalidation and clears of buffers/textures (GL 4.6 sections 6.5, 8.23) ------------------
    def _invalidate_subdata(self) -> None:
        check(self.api.gl(4, 3) or self.api.has_extension("GL_ARB_invalidate_subdata"),
              E.GL_INVALID_OPERATION, "GL 4.3 or GL_ARB_invalidate_subdata")

    def glInvalidateBufferData(self, buffer: int) -> None:
        self._invalidate_subdata()
        buf = self.buffers.get(buffer)
        check(buf is not None, E.GL_INVALID_VALUE, "not a buffer")
        check(not buf.mapped or buf.map_access & E.GL_MAP_PERSISTENT_BIT, E.GL_INVALID_OPERATION)
        if buf.resource is not None:
            self.pipe.invalidate_resource(buf.resource)

    def glInvalidateBufferSubData(self, buffer: int, offset: int, length: int) -> None:
        self._invalidate_subdata()
        buf = self.buffers.get(buffer)
        check(buf is not None, E.GL_INVALID_VALUE, "not a buffer")
        check(offset >= 0 and length >= 0 and offset + length <= buf.size, E.GL_INVALID_VALUE)
        check(not range_mapped_not_persistent(buf, offset, length), E.GL_INVALID_OPERATION,
              "range intersects the mapped range")

    # Invalidating a texture's contents is a hint the GPU gains nothing from (no
    # compression state to drop for a partial region): both commands only validate.
    def _invalidate_tex_level(self, texture: int, level: int):
        """GL 4.6 section 8.23's errors common to both commands; returns the texture."""
        self._desktop(4, 3)
        tex = self.textures.get(texture) if texture else None
        check(tex is not None, E.GL_INVALID_VALUE, "not a texture")
        levels = {E.GL_TEXTURE_3D: self.caps.max_texture_3d_levels,
                  E.GL_TEXTURE_CUBE_MAP: self.caps.max_texture_cube_levels,
                  E.GL_TEXTURE_CUBE_MAP_ARRAY: self.caps.max_texture_cube_levels,
                  }.get(tex.target, self.caps.max_texture_2d_size_px.bit_length())
        check(0 <= level < levels, E.GL_INVALID_VALUE, "level outside the texture's possible levels")
        single_level = (E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_BUFFER, E.GL_TEXTURE_2D_MULTISAMPLE,
                        E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
        check(level == 0 or tex.target not in single_level, E.GL_INVALID_VALUE,
              "level other than 0 of a single-level texture target")
        return tex

    def glInvalidateTexImage(self, texture: int, level: int) -> None:
        self._invalidate_tex_level(texture, level)

    def glInvalidateTexSubImage(self, texture, level, x, y, z, w, h, d) -> None:
        """The region must lie within the level's image, border included (the
        extension's errors, as for TexSubImage*); a level never specified has size 0."""
        tex = self._invalidate_tex_level(texture, level)
        check(min(w, h, d) >= 0 and min(x, y, z) >= 0, E.GL_INVALID_VALUE,
              "negative offset, width, height or depth")
        if tex.target == E.GL_TEXTURE_BUFFER:
            return              # its extent is the buffer's, checked when it is used
        img = tex.images[0][level] if tex.images and level < len(tex.images[0]) else None
        size = (img.width, img.height, img.depth) if img is not None else (0, 0, 0)
        if tex.target == E.GL_TEXTURE_CUBE_MAP:
            size = (size[0], size[1], 6)                 # the faces are the layers
        for offset, extent, limit in ((x, w, size[0]), (y, h, size[1]), (z, d, size[2])):
            check(offset + extent <= limit, E.GL_INVALID_VALUE, "region outside the level's image")

    def glClearBufferSubData(self, target, internalformat, offset, size, format, type, data):
        """GL 4.6 section 6.3.3: fill a range with one converted value."""
        self._desktop(4, 3)
        buf = self._bound_buffer(target)
        check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound")
        from driver.gl.formats import INTERNAL_FORMATS, TEXTURE_BUFFER_FORMATS
        # the formats of buffer textures (table 8.18), laid out as they are: RGB32F
        # elements are 12 bytes (the image format of RGB32F pads to 16)
        check(internalformat in TEXTURE_BUFFER_FORMATS, E.GL_INVALID_ENUM, "not a table 8.18 format")
        info = INTERNAL_FORMATS[internalformat]
        el = info.texel_buffer_B
        check(offset >= 0 and size >= 0 and offset % el == 0 and size % el == 0, E.GL_INVALID_VALUE)
        check(offset + size <= buf.size, E.GL_INVALID_VALUE)
        check(not range_mapped_not_persistent(buf, offset, size), E.GL_INVALID_OPERATION,
              "range intersects the mapped range")
        if data is None:
            value = bytes(el)
        else:
            from driver.gl.pixels import read_client_image, to_resource_bytes
            from driver.gl.state import PixelStore
            rgba = read_client_image(as_bytes(data), PixelStore(alignment=1), format, type, 1, 1, 1)
            value = to_resource_bytes(rgba, info.texel_buffer_pipe.name)
        fill = value * (size // el)
        if size:
            self.pipe.buffer_subdata(buf.resource, PipeMap.WRITE, offset, fill)

    def glClearBufferData(self, target, internalformat, format, type, data) -> None:
        buf = self._bound_buffer(target) if self.api.gl(4, 3) else None
        self.glClearBufferSubData(target, internalformat, 0, buf.size if buf else 0, format, type,
                                  data)

    def glCopyImageSubData(self, srcName, srcTarget, srcLevel, srcX, srcY, srcZ, dstName,
                           dstTarget, dstLevel, dstX, dstY, dstZ, w, h, d) -> None:
        """GL 4.6 section 18.3.3: raw copies between images of compatible formats."""
        check(self.api.gl(4, 3) or es_has(self.api, "copy_image"), E.GL_INVALID_OPERATION)

        def image(name, target):
            """A name never generated is INVALID_VALUE; a generated one without an image
            (never bound, no storage) is an incomplete image, INVALID_OPERATION (as Mesa)."""
            if target == E.GL_RENDERBUFFER:
                rb = self.renderbuffers.get(name)
                check(rb is not None or self.renderbuffers.is_generated(name), E.GL_INVALID_VALUE,
                      "not a renderbuffer name")
                check(rb is not None and rb.resource is not None, E.GL_INVALID_OPERATION,
                      "renderbuffer without storage")
                return rb.resource, 0, 0
            tex = self.textures.get(name)
            check(tex is not None or self.textures.is_generated(name), E.GL_INVALID_VALUE, "not a texture name")
            check(tex is not None, E.GL_INVALID_OPERATION, "texture without an image")
            check(tex.target == target, E.GL_INVALID_ENUM, "target does not match the texture")
            res = texture_resource(self, tex)
            check(res is not None, E.GL_INVALID_OPERATION, "image undefined")
            # a texture view (GL 4.6 section 8.18): its levels and layers start at its
            # minimum level and layer of the storage it shares
            from driver.gl.features.gles_ext import view_offsets
            level0, layer0, _ = view_offsets(tex)
            return res, level0, layer0
        (src, src_level0, src_layer0), (dst, dst_level0, dst_layer0) = \
            image(srcName, srcTarget), image(dstName, dstTarget)
        import layout
        src_fmt, dst_fmt = layout.get_format(src.format.name), layout.get_format(dst.format.name)
        check(min(w, h, d, srcX, srcY, srcZ, dstX, dstY, dstZ) >= 0, E.GL_INVALID_VALUE)
        check(min(srcLevel, dstLevel) >= 0, E.GL_INVALID_VALUE, "negative level")
        srcLevel, srcZ = srcLevel + src_level0, srcZ + src_layer0
        dstLevel, dstZ = dstLevel + dst_level0, dstZ + dst_layer0
        # the region in the destination's texels: a compressed block is one texel of an
        # uncompressed image (GL 4.6 section 18.3.3)
        dst_w = w // src_fmt.block_width_px * dst_fmt.block_width_px
        dst_h = h // src_fmt.block_height_px * dst_fmt.block_height_px

        def fits(res, fmt, level, x, y, z, w, h):
            """The box inside the level, and on the block grid of a compressed image (offsets
            multiples of the block size, sizes too unless the box reaches the edge): GL 4.6
            section 18.3.3's INVALID_VALUE, checked before the formats (as Mesa)."""
            t = res.template
            check(0 <= level <= t.last_level, E.GL_INVALID_VALUE, "level out of range")
            width, height = max(1, t.width_px >> level), max(1, t.height_px >> level)
            layers = max(1, t.depth_px >> level) * t.array_size
            bw, bh = fmt.block_width_px, fmt.block_height_px
            check(x % bw == 0 and y % bh == 0, E.GL_INVALID_VALUE, "offset off the compressed block grid")
            check((w % bw == 0 or x + w == width) and (h % bh == 0 or y + h == height), E.GL_INVALID_VALUE,
                  "size off the compressed block grid")
            check(x + w <= width and y + h <= height and z + d <= layers, E.GL_INVALID_VALUE,
                  "the box leaves the image")
        fits(src, src_fmt, srcLevel, srcX, srcY, srcZ, w, h)
        fits(dst, dst_fmt, dstLevel, dstX, dstY, dstZ, dst_w, dst_h)
        check(src_fmt.block_size_B == dst_fmt.block_size_B, E.GL_INVALID_OPERATION, "incompatible formats")
        self.pipe.resource_copy_region(dst, dstLevel, dstX, dstY, dstZ, src, srcLevel,
                                       Box(srcX, srcY, srcZ, w, h, d))

    # -- sample shading (GL 4.6 section 14.3.1.1) ---------------------------------------------
    def glMinSampleShading(self, value: float) -> None:
        if not es_has(self.api, "sample_shading"):      # glMinSampleShadingOES: OES_sample_shading
            self._desktop(4, 0)
        self.state.min_sample_shading = min(1.0, max(0.0, float(value)))

    # glDrawTransformFeedback*, glBeginQueryIndexed/EndQueryIndexed/GetQueryIndexediv: vertex streams
    # (driver/gl/features/transform_feedback_streams.py)

    def glGetProgramResourceLocationIndex(self, program, programInterface, name) -> int:
        self._dual_source(4, 3, es=(3, 1))      # GLES: glGetProgramResourceLocationIndexEXT, ES 3.1
        check_enum(programInterface, (E.GL_PROGRAM_OUTPUT,))
        prog = program_object(self, program)
        check(prog.linked, E.GL_INVALID_OPERATION)
        if name not in prog.linked_state.frag_outputs or names_hidden(prog):
            return -1
        # the link's answer: layout(index), else glBindFragDataLocationIndexed's, else 0
        return prog.linked_state.frag_output_indices.get(name, 0)


def _define_attrib_variants():
    """glVertexAttrib{1,2,3,4}{s,d}[v], glVertexAttrib4N*, glVertexAttrib4{b,i,ub,ui,us,s}v,
    glVertexAttribI{1,2,3}{i,ui}[v], glVertexAttribI4{b,s,ub,us}v,
    glVertexAttribP{1..4}ui[v] (GL 4.6 section 10.2.1)."""
    ranges = {"b": 127, "s": 32767, "i": 2147483647, "ub": 255, "us": 65535, "ui": 4294967295}

    def floats(n, vector):
        def fn(self, index, *args):
            self._desktop()
            vals = list(args[0])[:n] if vector else list(args)
            self._set_current(index, tuple(float(v) for v in vals), "float")
        return fn

    def normalized(letter, vector):
        def fn(self, index, *args):
            self._desktop()
            vals = list(args[0])[:4] if vector else list(args)
            top = ranges[letter]
            conv = [max(-1.0, v / top) if letter in "bsi" else v / top for v in vals]
            self._set_current(index, tuple(float(v) for v in conv), "float")
        return fn

    def integers(n, signed, vector):
        def fn(self, index, *args):
            self._desktop(3, 0)
            vals = [int(v) for v in (list(args[0])[:n] if vector else list(args))]
            if not signed:
                vals = [v & 0xFFFFFFFF for v in vals]
            full = vals + [0, 0, 0, 1][len(vals):]
            self._set_current(index, tuple(full), "int" if signed else "uint")
        return fn

    def packed(n, vector):
        def fn(self, index, type, normalized_, value):
            self._desktop(3, 3)
            types = [E.GL_INT_2_10_10_10_REV, E.GL_UNSIGNED_INT_2_10_10_10_REV]
            if n < 4 and self.api.has_extension("GL_ARB_vertex_type_10f_11f_11f_rev"):
                types.append(E.GL_UNSIGNED_INT_10F_11F_11F_REV)      # never P4 (INVALID_ENUM)
            check_enum(type, types)
            v = int(list(value)[0] if vector else value)
            if type == E.GL_UNSIGNED_INT_10F_11F_11F_REV:
                # unsigned 11/11/10-bit floats (layout's R11G11B10_FLOAT); normalized is ignored
                rgb = layout.unpack("R11G11B10_FLOAT", np.frombuffer((v & 0xFFFFFFFF).to_bytes(4, "little"),
                                                                     np.uint8))
                self._set_current(index, tuple(float(c) for c in rgb[:n]), "float")
                return
            comps = [(v >> s) & m for s, m in ((0, 1023), (10, 1023), (20, 1023), (30, 3))]
            if type == E.GL_INT_2_10_10_10_REV:
                comps = [c - (1 << b) if c >> (b - 1) else c for c, b in zip(comps, (10, 10, 10, 2))]
                if normalized_:
                    comps = [max(-1.0, c / ((1 << (b - 1)) - 1)) for c, b in zip(comps, (10, 10, 10, 2))]
            elif normalized_:
                comps = [c / ((1 << b) - 1) for c, b in zip(comps, (10, 10, 10, 2))]
            self._set_current(index, tuple(float(c) for c in comps[:n]), "float")
        return fn

    for n in (1, 2, 3, 4):
        for letter in ("s", "d"):
            setattr(DesktopMixin, f"glVertexAttrib{n}{letter}", floats(n, False))
            setattr(DesktopMixin, f"glVertexAttrib{n}{letter}v", floats(n, True))
        for signed, letter in ((True, "i"), (False, "ui")):
            if n < 4:
                setattr(DesktopMixin, f"glVertexAttribI{n}{letter}", integers(n, signed, False))
                setattr(DesktopMixin, f"glVertexAttribI{n}{letter}v", integers(n, signed, True))
        setattr(DesktopMixin, f"glVertexAttribP{n}ui", packed(n, False))
        setattr(DesktopMixin, f"glVertexAttribP{n}uiv", packed(n, True))
    for letter in ("b", "i", "ub", "ui", "us", "s"):
        setattr(DesktopMixin, f"glVertexAttrib4N{letter}v", normalized(letter, True))
        setattr(DesktopMixin, f"glVertexAttrib4{letter}v", floats(4, True))
    setattr(DesktopMixin, "glVertexAttrib4Nub", normalized("ub", False))
    setattr(DesktopMixin, "glVertexAttrib4dv", floats(4, True))
    for letter, signed in (("b", True), ("s", True), ("ub", False), ("us", False)):
        setattr(DesktopMixin, f"glVertexAttribI4{letter}v", integers(4, signed, True))


_define_attrib_variants()
