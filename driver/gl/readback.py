"""glReadPixels, glBlitFramebuffer, glInvalidate*Framebuffer, glCopyTexSubImage2D
(GL 4.6 sections 18.2-18.3, 9.2.9, 8.6; GLES 3.2 sections 16.1, 16.2, 9.2.9)."""

from __future__ import annotations

import numpy as np

import layout

from driver.gallium import (
    BlitImage, BlitInfo, Box, PipeMap, PipeMask, PipeTexFilter, ScissorState,
)
from driver.gl import enums as E
from driver.gl.color_clamp import read_clamps
from driver.gl.errors import check, check_enum
from driver.gl.features.gles_ext import es_depth_stencil_read_ok, read_depth_24_8
from driver.gl.formats import depth_stencil_with_other_type, integer_with_float_type
from driver.gl.formats import INTEGER_PIXEL_FORMATS, PIXEL_FORMATS, PIXEL_TYPES, component_bits, lookup
from driver.gl.formats import pixel_type_matches
from driver.gl.pixels import (from_resource_bytes, image_size_B, passthrough_format, tight_pack, transfer_supported,
                              write_client_bytes, write_client_bytes_into, write_client_image)
from driver.gl.framebuffers import framebuffer_status

__all__ = ["ReadbackMixin", "implementation_read"]

_LATER = object()       # _read_facts: the window's read surface, resolved only when read

#: integer buffers: the type of their channel size (signed, unsigned)
_INTEGER_READ_TYPES = {8: (E.GL_BYTE, E.GL_UNSIGNED_BYTE), 16: (E.GL_SHORT, E.GL_UNSIGNED_SHORT),
                       32: (E.GL_INT, E.GL_UNSIGNED_INT)}


def implementation_read(info) -> tuple[int, int]:
    """IMPLEMENTATION_COLOR_READ_FORMAT/TYPE of a read buffer of internal format
    ``info`` (GLES 3.2 section 16.1.2: the one pair ReadPixels accepts beyond the
    spec's fixed ones), as Mesa chooses it: RGBA/UNSIGNED_BYTE for normalized
    buffers, RGBA/FLOAT for float ones, RGBA_INTEGER with the type of the channel
    size for integer ones (RGBA16UI: UNSIGNED_SHORT; RGB10_A2UI: its packed type)."""
    if info is None or info.kind == "unorm":
        return E.GL_RGBA, E.GL_UNSIGNED_BYTE
    if info.integer:
        if info.enum == E.GL_RGB10_A2UI:
            return E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT_2_10_10_10_REV
        signed, unsigned = _INTEGER_READ_TYPES[component_bits(info)[0]]
        return E.GL_RGBA_INTEGER, signed if info.kind == "int" else unsigned
    return E.GL_RGBA, E.GL_FLOAT


#: The largest level (bytes in its format) ``_read_rgba`` keeps decoded whole.
DECODED_LEVEL_MAX_B = 1 << 20


class ReadbackMixin:
    # the last read copied straight into client memory, and what its checks read:
    # ((x, y, width, height, format, type, pack state generation), _read_facts(),
    # resource, level, box, bytes)
    _read_plan = None
    _read_facts_last = None     # _read_facts: (framebuffer object, inputs, facts) of the last one

    def _read_surface(self, resolved: bool = False):
        """(resource, level, layer, internal format info) of the read buffer;
        `resolved`: a multisampled window's colour buffer resolved (for reads
        and copies; blits resolve themselves)."""
        fb = self.read_framebuffer
        if fb is None:
            color = self.window.resolved(self.pipe) if resolved else self.window.color
            return color, 0, 0, lookup(E.GL_RGBA8)
        a = fb.attachments.get(fb.read_buffer)
        if a is None:
            return None
        surf = self._surface(a)
        info = a.image_info()
        return surf.resource, surf.level, surf.first_layer, lookup(info[2])

    def _read_facts(self) -> tuple:
        """(completeness status, read buffer, ``_read_surface(resolved=True)`` or None
        when it names no image, samples, ``_read_view_format()``) of the read
        framebuffer; those of a framebuffer object kept while its objects stand."""
        fbo = self.read_framebuffer
        if fbo is None:         # the window's: its colour buffer resolved when it is read (_LATER)
            return E.GL_FRAMEBUFFER_COMPLETE, self.window.read_buffer, _LATER, self.window.samples, None

        def facts():
            status = framebuffer_status(self, fbo)
            if status != E.GL_FRAMEBUFFER_COMPLETE:
                return status, E.GL_NONE, None, 0, None
            src = self._read_surface(resolved=True) if self._read_buffer_enum() != E.GL_NONE else None
            return (status, self._read_buffer_enum(), src, self._read_samples(),
                    self._read_view_format() if src is not None else None)
        inputs = self._framebuffer_inputs(fbo)
        if inputs is None:
            return facts()
        inputs += (getattr(self, "_render_layer", None),)
        last = self._read_facts_last        # (the last read framebuffer's: a read per frame)
        if last is not None and last[0] is fbo and last[1] == inputs:
            return last[2]
        found = self._derived(("read facts", id(fbo)), (fbo,), inputs, facts)
        self._read_facts_last = (fbo, inputs, found)
        return found

    def _read_view_format(self):
        """The format a texture view attached as the read buffer is read in (its
        storage's may differ: an RGBA8 view of R32F), or None."""
        fb = self.read_framebuffer
        a = fb.attachments.get(fb.read_buffer) if fb is not None else None
        if a is None or a.type != E.GL_TEXTURE:
            return None
        from driver.gl.features.gles_ext import view_offsets
        return view_offsets(a.obj)[2]

    def _read_format_ok(self, fmt, type, info) -> bool:
        """GLES 3.2 section 16.1.2: RGBA/UNSIGNED_BYTE for normalized
        fixed-point, RGBA_INTEGER/INT or UNSIGNED_INT for integer, RGBA/FLOAT
        for float buffers, plus the implementation's read format/type."""
        if not self.api.es:
            if info.integer != (fmt in INTEGER_PIXEL_FORMATS):
                return False
            return pixel_type_matches(fmt, type)
        if (fmt, type) == (E.GL_RGBA, E.GL_UNSIGNED_BYTE) and info.kind == "unorm":
            return True
        if (fmt, type) == implementation_read(info):
            return True
        if fmt == E.GL_RGBA_INTEGER and info.integer:
            return type == (E.GL_INT if info.kind == "int" else E.GL_UNSIGNED_INT)
        if (fmt, type) == (E.GL_RGBA, E.GL_FLOAT) and info.kind == "float":
            return True
        if (fmt, type) == (E.GL_RGBA, E.GL_UNSIGNED_INT_2_10_10_10_REV) and info.enum == E.GL_RGB10_A2:
            return True
        if (fmt, type) == (E.GL_RGBA, E.GL_UNSIGNED_SHORT) and info.kind == "unorm" and \
                component_bits(info)[0] == 16:
            return True         # EXT_texture_norm16: 16-bit normalized buffers read as shorts
        if fmt == E.GL_BGRA and info.kind == "unorm" and self.api.has_extension("GL_EXT_read_format_bgra"):
            # EXT_read_format_bgra: fixed-point colour buffers read as BGRA in these three types
            return type in (E.GL_UNSIGNED_BYTE, E.GL_UNSIGNED_SHORT_4_4_4_4_REV, E.GL_UNSIGNED_SHORT_1_5_5_5_REV)
        if info.kind == "snorm" and fmt == E.GL_RGBA and self.api.has_extension("GL_EXT_render_snorm"):
            # EXT_render_snorm: SNORM buffers read as signed bytes (shorts for 16-bit ones)
            return type == (E.GL_SHORT if component_bits(info)[0] == 16 else E.GL_BYTE)
        return info.kind == "unorm" and (fmt, type) == (E.GL_RGBA, E.GL_UNSIGNED_BYTE)

    def glReadPixels(self, x: int, y: int, width: int, height: int, format: int, type: int,
                     pixels=None, dest=None):
        """Returns the packed bytes (client memory), or None when a
        PIXEL_PACK_BUFFER is bound (then `pixels` is the byte offset into it).
        `dest` (no pack buffer bound): a function giving a writable buffer of n
        bytes of client memory; when the stored bytes are the client's and the pack
        state is tight, the pixels are copied straight into it and None is
        returned (the same bytes the return value would hold), else it is unused."""
        if dest is not None:
            # the same read as the last one (its checks passed: they read only the
            # arguments, the pack state and the read framebuffer's facts): its copy alone
            plan = self._read_plan
            if plan is not None and plan[0] == (x, y, width, height, format, type, self.state.pack.gen) \
                    and plan[1] is self._read_facts() and self.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is None \
                    and not self.legacy.pixel_transfer:       # (none set: _read_transfer_set)
                _, _, res, level, box, size_B = plan
                self.pipe.texture_read(res, level, box, dest(size_B))
                return None
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
        check_enum(format, PIXEL_FORMATS, "bad format")
        check_enum(type, PIXEL_TYPES, "bad type")
        if self.api.es and (format, type) == (E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT_24_8):
            check(es_depth_stencil_read_ok(self.api, format, type), E.GL_INVALID_OPERATION,
                  "DEPTH_COMPONENT/UNSIGNED_INT_24_8 needs NV_read_depth")
            return read_depth_24_8(self, x, y, width, height, pixels)
        check(not integer_with_float_type(format, type), E.GL_INVALID_ENUM, "integer pixel format with a float type")
        check(self.api.es or not depth_stencil_with_other_type(format, type), E.GL_INVALID_ENUM,
              "DEPTH_STENCIL needs UNSIGNED_INT_24_8 or FLOAT_32_UNSIGNED_INT_24_8_REV")
        facts = self._read_facts()
        status, read_buffer, color_src, samples, color_view_format = facts
        check(status == E.GL_FRAMEBUFFER_COMPLETE, E.GL_INVALID_FRAMEBUFFER_OPERATION,
              "read framebuffer incomplete")
        if format not in (E.GL_DEPTH_COMPONENT, E.GL_STENCIL_INDEX, E.GL_DEPTH_STENCIL):
            check(read_buffer != E.GL_NONE, E.GL_INVALID_OPERATION, "read buffer NONE")
            if color_src is _LATER:
                color_src = self._read_surface(resolved=True)
            check(color_src is not None, E.GL_INVALID_OPERATION, "no read buffer image")
            res, level, layer, info = color_src
            check(self._read_format_ok(format, type, info), E.GL_INVALID_OPERATION,
                  "format/type not allowed for this read buffer")
        else:
            check(not self.api.es or es_depth_stencil_read_ok(self.api, format, type),
                  E.GL_INVALID_ENUM if self.api.version < (3, 0) else E.GL_INVALID_OPERATION,
                  "depth/stencil reads need NV_read_depth/stencil/depth_stencil in GLES")
            fb = self.read_framebuffer
            if fb is None:
                res, level, layer = self.window.resolved(self.pipe, depth=True), 0, 0
            else:
                a = fb.attachments.get(E.GL_DEPTH_ATTACHMENT if format != E.GL_STENCIL_INDEX
                                       else E.GL_STENCIL_ATTACHMENT)
                check(a is not None, E.GL_INVALID_OPERATION, "no depth/stencil buffer")
                surf = self._surface(a)
                res, level, layer = surf.resource, surf.level, surf.first_layer
            info = None
        # GL 4.6 section 18.2.6: only a framebuffer object's samples are an error (the
        # window's are resolved)
        check(self.read_framebuffer is None or samples <= 1, E.GL_INVALID_OPERATION,
              "multisampled read framebuffer")
        pbo = self.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
        if pbo is not None:
            check(not pbo.mapped, E.GL_INVALID_OPERATION, "pack buffer mapped")
        if width == 0 or height == 0:
            return b""
        check(transfer_supported(format, type), E.GL_INVALID_OPERATION, "unsupported conversion")
        view_format = color_view_format if info is not None else None
        # GL 4.6 compatibility section 18.2.8: the colours read go through the pixel transfer
        # operations of section 8.4.4.1 (glPixelTransfer's scale and bias, the colour maps with
        # MAP_COLOR), then CLAMP_READ_COLOR clamps them to [0, 1] - TRUE always, FIXED_ONLY when the
        # framebuffer's colour buffers are all fixed-point (signed normalized ones lose their
        # negatives; unsigned ones need it only after a transfer); integer colours never
        transfer = info is not None and not info.integer and self._read_transfer_set()
        clamp = info is not None and (info.kind in ("float", "snorm") or transfer) and read_clamps(self)
        if info is not None and not clamp and not transfer and \
                passthrough_format((view_format or res.format).name, format, type):
            # the stored bytes are the client's: no round trip through RGBA
            if dest is not None and pbo is None and tight_pack(self.state.pack, format, type, width, height):
                size_B = image_size_B(self.state.pack, format, type, width, height, 1)
                buf = dest(size_B)
                if self._inside(res, level, x, y, width, height):
                    # one copy: the image detiled straight into the client's memory
                    box = Box(x, y, layer, width, height, 1)
                    self.pipe.texture_read(res, level, box, buf)
                    if color_src is facts[2] and info.kind not in ("float", "snorm"):
                        # (not the window's, resolved afresh for each read; nor a buffer
                        # CLAMP_READ_COLOR may clamp)
                        self._read_plan = ((x, y, width, height, format, type, self.state.pack.gen), facts,
                                           res, level, box, size_B)
                    return None
                # one copy, from the transfer into the client's memory
                raw = self._read_raw(res, level, layer, x, y, width, height)
                write_client_bytes_into(raw[np.newaxis], self.state.pack, format, type, buf)
                return None
            raw = self._read_raw(res, level, layer, x, y, width, height)
            out = write_client_bytes(raw[np.newaxis], self.state.pack, format, type)
        else:
            rgba = self._read_rgba(res, level, layer, x, y, width, height, view_format)
            if transfer:
                rgba = self._transfer(rgba, fragments=False)
            if clamp:
                rgba = np.clip(rgba, 0.0, 1.0)
            if format in (E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA) and rgba.dtype.kind == "f":
                # GL 4.6 compatibility section 18.2.8: L = R + G + B (fixed-point buffers clamp)
                luminance = rgba[..., 0] + rgba[..., 1] + rgba[..., 2]
                rgba = rgba.copy()
                rgba[..., 0] = np.minimum(luminance, 1.0) if info is not None and info.kind in ("unorm", "snorm") \
                    else luminance
            if format == E.GL_STENCIL_INDEX and rgba.shape[-1] and res.format.name.startswith(("Z24", "Z32")):
                rgba = rgba[..., [1, 1, 1, 1]]
            if self.api.compat and format in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL, E.GL_STENCIL_INDEX):
                rgba = self._depth_stencil_read_transfer(rgba, format)
            out = write_client_image(rgba[np.newaxis], self.state.pack, format, type)
        if pbo is not None:
            check(isinstance(pixels, int) and pixels + len(out) <= pbo.size, E.GL_INVALID_OPERATION,
                  "write beyond the pack buffer")
            self.pipe.buffer_subdata(pbo.resource, PipeMap.WRITE, pixels, out)
            return None
        return out

    def _read_transfer_set(self) -> bool:
        """Whether the colour pixel transfer operations change what glReadPixels reads
        (compatibility contexts: glPixelTransfer's scale and bias, MAP_COLOR)."""
        return self.api.compat and bool(self.legacy.pixel_transfer) and self._color_transfer_set()

    def _depth_stencil_read_transfer(self, rgba, format: int):
        """GL 4.6 compatibility section 18.2.8 (the transfer of section 8.4.4.1 on the way
        out): depths read take DEPTH_SCALE and DEPTH_BIAS, clamped to [0, 1]; stencil
        indices the index shift and offset and, with MAP_STENCIL, the S_TO_S map
        (``_index_transfer`` of the pixel rectangles). Channel 0 holds the depth (the
        index for STENCIL_INDEX), channel 1 a DEPTH_STENCIL read's index."""
        t = self.legacy.pixel_transfer
        scale, bias = t.get(E.GL_DEPTH_SCALE, 1.0), t.get(E.GL_DEPTH_BIAS, 0.0)
        index_moves = t.get(E.GL_INDEX_SHIFT, 0) or t.get(E.GL_INDEX_OFFSET, 0) or t.get(E.GL_MAP_STENCIL)
        out = rgba
        if format != E.GL_STENCIL_INDEX and (scale, bias) != (1.0, 0.0):
            out = np.array(out, np.float64)
            out[..., 0] = np.clip(out[..., 0] * scale + bias, 0.0, 1.0)
        if format != E.GL_DEPTH_COMPONENT and index_moves:
            out = np.array(out, np.float64)
            ch = 1 if format == E.GL_DEPTH_STENCIL else 0
            out[..., ch] = self._index_transfer(np.rint(out[..., ch]).astype(np.int64))
        return out

    def _read_samples(self) -> int:
        fb = self.read_framebuffer
        if fb is None:
            return self.window.samples
        a = fb.attachments.get(fb.read_buffer)
        info = a.image_info() if a else None
        return info[3] if info else 0

    @staticmethod
    def _inside(res, level: int, x: int, y: int, width: int, height: int) -> bool:
        """Whether the region lies wholly inside the level."""
        t = res.template
        return x >= 0 and y >= 0 and x + width <= max(1, t.width_px >> level) and \
            y + height <= max(1, t.height_px >> level)

    def _read_inside(self, res, level, layer, x, y, width, height):
        """The part of a region inside the image, in the resource's format:
        (uint8 (h, w, bpp), x0 - x, y0 - y, the transfer's ``snapshot``), or None
        when no pixel is inside. The array may view the transfer's data: use it
        before the next pipe call."""
        t = res.template
        w, h = max(1, t.width_px >> level), max(1, t.height_px >> level)
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(w, x + width), min(h, y + height)
        if x1 <= x0 or y1 <= y0:
            return None
        tr = self.pipe.transfer_map(res, level, PipeMap.READ, Box(x0, y0, layer, x1 - x0, y1 - y0, 1))
        try:
            import layout
            bpp = layout.get_format(res.format.name).block_size_B
            data = np.frombuffer(tr.data, np.uint8)
            row_B = (x1 - x0) * bpp
            if tr.stride_B == row_B:        # tight rows (a pixel's read: as_strided costs more than the rest)
                rows = data[:(y1 - y0) * row_B].reshape(y1 - y0, row_B)
            else:
                rows = np.lib.stride_tricks.as_strided(data, shape=(y1 - y0, row_B), strides=(tr.stride_B, 1))
            # tightly packed rows are kept as a view (the callers consume it at once); else one copy
            inner = rows.reshape(y1 - y0, x1 - x0, bpp)
        finally:
            self.pipe.transfer_unmap(tr)
        return inner, x0 - x, y0 - y, tr.snapshot

    def _read_raw(self, res, level, layer, x, y, width, height) -> np.ndarray:
        """The region's stored bytes (height, width, bpp); pixels outside the image
        read as zero bytes (which unpack to 0 in the formats ``passthrough_format``
        allows, as ``_read_rgba`` gives them)."""
        import layout
        bpp = layout.get_format(res.format.name).block_size_B
        part = self._read_inside(res, level, layer, x, y, width, height)
        if part is not None and part[0].shape[:2] == (height, width):
            return part[0]
        out = np.zeros((height, width, bpp), np.uint8)
        if part is not None:
            inner, dx, dy, _ = part
            out[dy:dy + inner.shape[0], dx:dx + inner.shape[1]] = inner
        return out

    def _read_rgba(self, res, level, layer, x, y, width, height, fmt=None) -> np.ndarray:
        """RGBA (height, width, 4) of a region, decoded as ``fmt`` (a texture view's
        format; default the resource's); pixels outside the image read as zero
        (GL 4.6 section 18.2.8: undefined, we choose 0)."""
        part = self._read_inside(res, level, layer, x, y, width, height)
        if part is None:
            return np.zeros((height, width, 4), np.float32)
        raw, dx, dy, snapshot = part
        name = (fmt or res.format).name
        if snapshot is not None and snapshot.nbytes <= DECODED_LEVEL_MAX_B:
            # the whole level kept by the driver (a program reading pixel by pixel):
            # decoded once while it stays the same object (each texel decodes alone)
            known = getattr(self, "_read_decoded", None)
            if known is None or known[0] is not snapshot or known[1] != name:
                known = self._read_decoded = (snapshot, name,
                                              from_resource_bytes(snapshot.tobytes(), name, snapshot.shape[:2]))
            x0, y0 = x + dx, y + dy
            inner = known[2][y0:y0 + raw.shape[0], x0:x0 + raw.shape[1]]
        else:
            inner = from_resource_bytes(raw.tobytes(), name, raw.shape[:2])
        out = np.zeros((height, width, 4), inner.dtype)
        out[dy:dy + inner.shape[0], dx:dx + inner.shape[1]] = inner
        return out

    # -- blits (GL 4.6 section 18.3.1) ---------------------------------------------------
    def glBlitFramebuffer(self, srcX0, srcY0, srcX1, srcY1, dstX0, dstY0, dstX1, dstY1, mask,
                          filter) -> None:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        allowed = E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT
        check(mask & ~allowed == 0, E.GL_INVALID_VALUE, "bad mask bits")
        scaled_resolve = filter in (E.GL_SCALED_RESOLVE_FASTEST_EXT, E.GL_SCALED_RESOLVE_NICEST_EXT) \
            and self.api.has_extension("GL_EXT_framebuffer_multisample_blit_scaled")
        if not scaled_resolve:
            check_enum(filter, (E.GL_NEAREST, E.GL_LINEAR))
        check(filter == E.GL_NEAREST or not mask & (E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT),
              E.GL_INVALID_OPERATION, "LINEAR filter with depth/stencil")
        for fb in (self.read_framebuffer, self.draw_framebuffer):
            check(framebuffer_status(self, fb) == E.GL_FRAMEBUFFER_COMPLETE,
                  E.GL_INVALID_FRAMEBUFFER_OPERATION, "framebuffer incomplete")
        draw = self._pipe_framebuffer_state()
        read_samples, draw_samples = self._read_samples(), draw.samples if draw.samples > 1 else 0
        if self.api.es:
            # GLES 3.2 section 16.2.1: no multisampled destination
            check(draw_samples == 0, E.GL_INVALID_OPERATION, "multisampled draw framebuffer")
        else:
            # GL 4.6 section 18.3.1: a single-sampled source is replicated into every
            # sample of a multisampled destination; two multisampled buffers must have
            # the same number of samples (copied sample by sample)
            check(not (read_samples > 1 and draw_samples > 1 and read_samples != draw_samples),
                  E.GL_INVALID_OPERATION, "read and draw framebuffers of different sample counts")
        if scaled_resolve:
            # EXT_framebuffer_multisample_blit_scaled: its filters resolve a multisampled
            # read framebuffer into a single-sampled draw framebuffer, scaled or not
            check(read_samples > 1 and draw_samples == 0, E.GL_INVALID_OPERATION,
                  "a scaled resolve needs a multisampled read and a single-sampled draw framebuffer")
        elif read_samples > 1 or draw_samples > 1:
            # a blit from or to a multisampled buffer must not scale (GLES 3.2 16.2.1, GL alike)
            check((abs(srcX1 - srcX0), abs(srcY1 - srcY0)) == (abs(dstX1 - dstX0), abs(dstY1 - dstY0)),
                  E.GL_INVALID_OPERATION, "a multisample blit must not scale")
        blits = []
        if mask & E.GL_COLOR_BUFFER_BIT:
            src = self._read_surface()
            if src is not None and self._read_buffer_enum() != E.GL_NONE:
                res, level, layer, info = src
                for cb in draw.cbufs:
                    if cb is None:
                        continue
                    dst_info = self._format_info_of(cb)
                    check(info.integer == dst_info.integer, E.GL_INVALID_OPERATION,
                          "integer and non-integer buffers")
                    check(not info.integer or filter == E.GL_NEAREST, E.GL_INVALID_OPERATION,
                          "LINEAR filter with integer buffers")
                    # GL 4.6 section 18.3.1: desktop GL decodes an sRGB read buffer and
                    # encodes an sRGB draw buffer only while FRAMEBUFFER_SRGB is enabled
                    # (GLES always does); otherwise the stored values are copied
                    blits.append((res, level, layer, cb.resource, cb.level, cb.first_layer, PipeMask.RGBA,
                                  self._render_format(self._read_view_format() or res.format),
                                  self._render_format(_view_format(cb) or cb.resource.format)))
        for bit, pmask, point in ((E.GL_DEPTH_BUFFER_BIT, PipeMask.Z, E.GL_DEPTH_ATTACHMENT),
                                  (E.GL_STENCIL_BUFFER_BIT, PipeMask.S, E.GL_STENCIL_ATTACHMENT)):
            if not mask & bit:
                continue
            s = self._zs_surface(self.read_framebuffer, point)
            d = draw.zsbuf
            if s is None or d is None:
                continue
            # GL 4.6 section 18.3.1: the formats of the buffer blitted must match; as Mesa
            # reads it, the depth (or stencil) component's size and type, so a
            # DEPTH_COMPONENT24 buffer blits its depth to a DEPTH24_STENCIL8 one
            check(_zs_component(s.resource.format, pmask) == _zs_component(d.resource.format, pmask),
                  E.GL_INVALID_OPERATION, "depth/stencil formats differ")
            blits.append((s.resource, s.level, s.first_layer, d.resource, d.level, d.first_layer,
                          pmask, None, None))
        scissor = None
        if E.GL_SCISSOR_TEST in self.state.enabled:
            x, y, w, h = self.state.scissor
            scissor = ScissorState(max(0, x), max(0, y), max(0, x + w), max(0, y + h))
        for sres, slevel, slayer, dres, dlevel, dlayer, pmask, sfmt, dfmt in blits:
            # GL 4.6 section 18.3.1: destination pixels whose source lies outside the read
            # buffer are not written. An axis copied 1:1 (every multisample blit; mirrored
            # or not) is clipped here exactly, in whole pixels
            t = sres.template
            axes = [(srcX0, srcX1, dstX0, dstX1, max(1, t.width_px >> slevel)),
                    (srcY0, srcY1, dstY0, dstY1, max(1, t.height_px >> slevel))]
            axes = [_clip_unscaled(*a) if abs(a[1] - a[0]) == abs(a[3] - a[2]) else a[:4] for a in axes]
            if None in axes:
                continue                # no source pixel inside: nothing is written
            (sx0, sx1, dx0, dx1), (sy0, sy1, dy0, dy1) = axes
            self.pipe.blit(BlitInfo(
                dst=BlitImage(dres, dlevel, Box(dx0, dy0, dlayer, dx1 - dx0, dy1 - dy0, 1),
                              dfmt or dres.format),
                src=BlitImage(sres, slevel, Box(sx0, sy0, slayer, sx1 - sx0, sy1 - sy0, 1),
                              sfmt or sres.format),
                mask=pmask, filter=PipeTexFilter.NEAREST if filter == E.GL_NEAREST else PipeTexFilter.LINEAR,
                scissor=scissor, render_condition_enable=True))

    def _zs_surface(self, fb, point, resolved: bool = False):
        if fb is None:
            from driver.gallium import Surface
            ds = self.window.resolved(self.pipe, depth=True) if resolved else self.window.depth_stencil
            return Surface(ds, ds.format)
        a = fb.attachments.get(point)
        return self._surface(a) if a else None

    def _format_info_of(self, surface):
        from driver.gl.formats import INTERNAL_FORMATS
        for info in INTERNAL_FORMATS.values():
            if info.pipe == surface.resource.format:
                return info
        return lookup(E.GL_RGBA8)

    # -- invalidation (GL 4.6 section 17.4.4) ----------------------------------------------
    def _invalidated_attachments(self, target: int, num: int, attachments):
        """GL 4.6 section 17.4.4's errors of both invalidation commands; returns the
        framebuffer (None: the default one) and its attachments named."""
        fb = self._fb_for_target(target)
        check(num >= 0, E.GL_INVALID_VALUE)
        atts = list(attachments or ())[:num]
        if fb is None:
            for a in atts:
                check_enum(a, (E.GL_COLOR, E.GL_DEPTH, E.GL_STENCIL))
            return fb, atts
        for a in atts:
            if E.GL_COLOR_ATTACHMENT0 <= a < E.GL_COLOR_ATTACHMENT0 + 32:
                check(a < E.GL_COLOR_ATTACHMENT0 + self.caps.max_render_targets,
                      E.GL_INVALID_OPERATION, "attachment >= MAX_COLOR_ATTACHMENTS")
            else:
                check_enum(a, (E.GL_DEPTH_ATTACHMENT, E.GL_STENCIL_ATTACHMENT,
                               E.GL_DEPTH_STENCIL_ATTACHMENT))
        return fb, atts

    def glInvalidateFramebuffer(self, target: int, num: int, attachments) -> None:
        check(self.api.gl_or_es((4, 3), (3, 0)) or self.api.has_extension("GL_EXT_discard_framebuffer")
              or self.api.has_extension("GL_ARB_invalidate_subdata"),
              E.GL_INVALID_OPERATION)       # glDiscardFramebufferEXT of GLES 2.0 runs it
        fb, atts = self._invalidated_attachments(target, num, attachments)
        if fb is None:
            if E.GL_COLOR in atts:
                self.pipe.invalidate_resource(self.window.color)
            if E.GL_DEPTH in atts and E.GL_STENCIL in atts:
                self.pipe.invalidate_resource(self.window.depth_stencil)
            return
        # Invalidation is a hint; only whole single-level renderbuffers are dropped.
        for a in atts:
            att = fb.attachments.get(a)
            if att is not None and att.type == E.GL_RENDERBUFFER and att.obj.resource is not None:
                self.pipe.invalidate_resource(att.obj.resource)

    def glInvalidateSubFramebuffer(self, target, num, attachments, x, y, width, height) -> None:
        check(self.api.gl_or_es((4, 3), (3, 0)) or self.api.has_extension("GL_ARB_invalidate_subdata"),
              E.GL_INVALID_OPERATION)
        self._invalidated_attachments(target, num, attachments)  # validation only: a region hint is ignored
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative width or height")


def _clip_unscaled(s0: int, s1: int, d0: int, d1: int, size: int):
    """One axis of a 1:1 blit (either side possibly mirrored) with its source kept
    inside [0, size): the clipped (s0, s1, d0, d1), same directions, or None when no
    source pixel is inside. Pixel k of the blit reads s0 + k (s0 - 1 - k mirrored) and
    writes d0 + k (d0 - 1 - k)."""
    n = abs(s1 - s0)
    ds, dd = (1 if s1 >= s0 else -1), (1 if d1 >= d0 else -1)
    # source pixel of step k: first + ds * k, first = s0 (or s0 - 1 mirrored)
    first = s0 if ds > 0 else s0 - 1
    lo, hi = (0 - first, size - first) if ds > 0 else (first - size + 1, first + 1)
    k0, k1 = max(0, lo), min(n, hi)
    if k1 <= k0:
        return None
    return s0 + ds * k0, s0 + ds * k1, d0 + dd * k0, d0 + dd * k1


def _view_format(surface):
    """A draw surface's format when it reinterprets its resource (a texture view in
    another format than the storage's, beyond sRGB encoding), else None."""
    linear = [f.name.replace("_SRGB", "_UNORM") for f in (surface.format, surface.resource.format)]
    return surface.format if linear[0] != linear[1] else None


def _zs_component(fmt, pmask) -> tuple[int, str] | None:
    """(bits, type) of the depth (``pmask`` Z) or stencil component of a depth/stencil
    pipe format; None when it has none."""
    name = "Z" if pmask & PipeMask.Z else "S"
    return next(((c.bits, c.type) for c in layout.get_format(fmt.name).channels if c.name == name), None)
