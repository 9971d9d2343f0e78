"""The raster position and the pixel rectangle commands (GL 2.1 sections
2.13, 3.6-3.7, 4.3.3): glRasterPos*, glWindowPos*, glBitmap, glDrawPixels,
glCopyPixels, glPixelZoom, glPixelTransfer, glPixelMap.

glDrawPixels and glBitmap draw a window-aligned quad textured with the
image (nearest filtering, one texel per zoomed pixel) through the normal
draw path and the fixed-function fragment stage, so texturing (with the
raster texture coordinates), colour sum, fog (with the raster distance),
scissor, alpha/stencil/depth tests, blending and masks apply to the
fragments as the spec asks; the raster colour is lit when lighting is on.
DEPTH_COMPONENT rectangles write the depth (the colour is the raster
colour), STENCIL_INDEX rectangles write the stencil buffer one bit plane
per pass; DEPTH_STENCIL rectangles (EXT/NV_packed_depth_stencil) write both
and leave the colour buffers; glCopyPixels of COLOR, DEPTH, STENCIL and
DEPTH_STENCIL read the rectangle back and draw it the same way, and
NV_copy_depth_to_color's DEPTH_STENCIL_TO_RGBA/BGRA_NV copy each packed 24-bit
depth and 8-bit stencil as the four bytes of a colour. Not done: colour-index
rectangles, colour tables/convolution/histogram."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from driver.gl import enums as E
from driver.gl.color_clamp import fragment_clamps
from driver.gl.compose import extends
from driver.gl.pointers import pack_values
from driver.gl.errors import check, check_enum
from driver.gl.formats import (INTEGER_PIXEL_FORMATS, PIXEL_FORMATS, PIXEL_TYPES, depth_stencil_with_other_type,
                               pixel_type_matches)
from driver.gl.legacy.fixedfunc import PIXEL_UNIT
from driver.gl.objects import TexImage, Texture

# NV_copy_depth_to_color's glCopyPixels types (not in the generated enum list)
GL_DEPTH_STENCIL_TO_RGBA_NV = 0x886E
GL_DEPTH_STENCIL_TO_BGRA_NV = 0x886F
from driver.gl.pixels import bitmap_row_B, read_client_image
from driver.gl.state import PixelStore
from driver.gl.framebuffers import draw_framebuffer_bits
from driver.gl.buffers import unpack_buffer_read

__all__ = ["MAX_PIXEL_MAP_TABLE", "RasterMixin"]

#: entries of a pixel map table (GL_MAX_PIXEL_MAP_TABLE; GL 2.1 asks for at least 32)
MAX_PIXEL_MAP_TABLE = 256
# what glBitmap adds to the raster position before taking its floor (Mesa's epsilon)
BITMAP_EPSILON = 1e-4

_VS = """#version 120
void main() { gl_Position = gl_Vertex; }
"""
_FS = {"stencil": """#version 120
uniform sampler2D shimgl_Pixels;
uniform vec4 shimgl_PixelRect;
uniform float shimgl_Bit;
void main() {
    float v = texture2D(shimgl_Pixels, (gl_FragCoord.xy - shimgl_PixelRect.xy) * shimgl_PixelRect.zw).r;
    if (shimgl_Bit > 0.5 && mod(floor(v / shimgl_Bit), 2.0) < 0.5) discard;
    gl_FragColor = vec4(0.0);
}
"""}
_TRANSFER = {E.GL_RED_SCALE: ("scale", 0), E.GL_GREEN_SCALE: ("scale", 1), E.GL_BLUE_SCALE: ("scale", 2),
             E.GL_ALPHA_SCALE: ("scale", 3), E.GL_RED_BIAS: ("bias", 0), E.GL_GREEN_BIAS: ("bias", 1),
             E.GL_BLUE_BIAS: ("bias", 2), E.GL_ALPHA_BIAS: ("bias", 3)}
# the scales and the biases, R, G, B, A
_COLOR_SCALES, _COLOR_BIASES = (tuple(sorted((k for k, (kind, _) in _TRANSFER.items() if kind == which),
                                             key=lambda k: _TRANSFER[k][1])) for which in ("scale", "bias"))
_OTHER_TRANSFER = (E.GL_MAP_COLOR, E.GL_MAP_STENCIL, E.GL_INDEX_SHIFT, E.GL_INDEX_OFFSET,
                   E.GL_DEPTH_SCALE, E.GL_DEPTH_BIAS)


class RasterMixin:
    # -- raster position (section 2.13) ------------------------------------------------------
    def _raster_pos(self, x, y, z, w) -> None:
        from driver.gl.legacy.state import RasterPos
        obj = np.array([x, y, z, w], np.float64)
        eye = self.legacy.stacks[0][-1] @ obj
        clip = self.legacy.stacks[1][-1] @ eye
        # IBM_rasterpos_clip: with RASTER_POSITION_UNCLIPPED_IBM only z clips the position;
        # GL 4.6 compatibility section 14.9 (ARB_depth_clamp): with DEPTH_CLAMP the near and
        # far planes do not clip it, its window z is clamped to the depth range instead
        clamp_z = E.GL_DEPTH_CLAMP in self.state.enabled
        axes = (0, 1) if E.GL_RASTER_POSITION_UNCLIPPED_IBM not in self.state.enabled else ()
        axes += () if clamp_z else (2,)
        inside = all(-clip[3] <= clip[i] <= clip[3] for i in axes)
        for i, plane in enumerate(self.clip_planes):
            if E.GL_CLIP_DISTANCE0 + i in self.state.enabled and np.dot(plane, eye) < 0:
                inside = False
        if not inside or clip[3] == 0:
            self.legacy.raster = RasterPos(window=self.legacy.raster.window, valid=False)
            return
        ndc = clip[:3] / clip[3]
        vx, vy, vw, vh = self.state.viewport
        n, f = self.state.depth_range
        zw = ((f - n) * ndc[2] + n + f) / 2
        if clamp_z:
            zw = min(max(zw, min(n, f)), max(n, f))
        win = (vx + (ndc[0] + 1) * vw / 2, vy + (ndc[1] + 1) * vh / 2, zw, float(clip[3]))
        tcs = tuple(tuple(float(v) for v in self.legacy.stacks[2][u][-1] @ np.asarray(self.legacy.current_texcoords[u]))
                    for u in range(8))
        color, secondary = self.legacy.current_color, self.legacy.current_secondary_color
        if E.GL_LIGHTING in self.state.enabled:
            color, secondary = self._lit_raster_color(eye)
        self.legacy.raster = RasterPos(tuple(float(v) for v in win), True, color, secondary, tcs,
                                       float(abs(eye[2])))
        if self.legacy.records_instead_of_drawing:
            self._record_raster(None)

    def _lit_raster_color(self, eye) -> tuple:
        """Section 2.13: the raster colour is lit like a vertex (equation 2.1,
        front material, the current normal; colour material applied)."""
        self._track_color_material()
        primary, secondary = self._lit_colors(np.asarray(eye, np.float64)[None], np.asarray(self.legacy.current_normal,
                                              np.float64)[None], np.asarray(self.legacy.current_color, np.float64)[None])
        return tuple(float(v) for v in primary[0]), tuple(float(v) for v in secondary[0])

    def _window_pos(self, x, y, z=0.0) -> None:
        """ARB_window_pos / GL 1.4 section 2.13: window coordinates directly."""
        from driver.gl.legacy.state import RasterPos
        n, f = self.state.depth_range
        z = min(1.0, max(0.0, float(z)))
        self.legacy.raster = RasterPos((float(x), float(y), n + z * (f - n), 1.0), True, self.legacy.current_color,
                                       self.legacy.current_secondary_color, tuple(self.legacy.current_texcoords),
                                       self.legacy.fog_coord)
        if self.legacy.records_instead_of_drawing:
            self._record_raster(None)

    # -- pixel transfer and zoom (section 3.6.3) ----------------------------------------------
    def glPixelZoom(self, xfactor, yfactor) -> None:
        self.legacy.pixel_zoom = (float(xfactor), float(yfactor))

    def glPixelTransferf(self, pname, param) -> None:
        check_enum(pname, set(_TRANSFER) | set(_OTHER_TRANSFER))
        self.legacy.pixel_transfer[pname] = float(param)

    glPixelTransferi = glPixelTransferf

    def _pixel_map(self, map, mapsize, values, dtype: str) -> None:
        """Section 3.6.3: a table of mapsize entries (from the PIXEL_UNPACK buffer at offset
        ``values`` when one is bound). The index maps (I_TO_x, S_TO_S) have a power-of-two
        size. Colour-map entries are stored as floats clamped to [0, 1], an unsigned
        integer entry as a normalised fixed-point value (table 2.9); the entries of
        I_TO_I and S_TO_S are indices, taken as they are."""
        check(E.GL_PIXEL_MAP_I_TO_I <= map <= E.GL_PIXEL_MAP_A_TO_A, E.GL_INVALID_ENUM, "bad map")
        check(0 < mapsize <= MAX_PIXEL_MAP_TABLE, E.GL_INVALID_VALUE, "bad map size")
        check(map > E.GL_PIXEL_MAP_I_TO_A or mapsize & (mapsize - 1) == 0, E.GL_INVALID_VALUE,
              "an index map's size is a power of two")
        dt = np.dtype(dtype)
        raw = unpack_buffer_read(self, values, mapsize * dt.itemsize)
        if raw is not None:
            vals = np.frombuffer(raw, dt).astype(np.float64)
        else:
            check(not isinstance(values, (int, float)) and values is not None, E.GL_INVALID_VALUE,
                  "array expected")
            vals = np.asarray(list(values)[:mapsize], np.float64)
        if map not in (E.GL_PIXEL_MAP_I_TO_I, E.GL_PIXEL_MAP_S_TO_S):
            if dt.kind == "u":
                vals = vals / np.iinfo(dt).max
            vals = np.clip(vals, 0.0, 1.0)
        self.legacy.pixel_transfer[("map", map)] = [float(v) for v in vals]

    def glPixelMapfv(self, map, mapsize, values) -> None:
        self._pixel_map(map, mapsize, values, "<f4")

    def glPixelMapuiv(self, map, mapsize, values) -> None:
        self._pixel_map(map, mapsize, values, "<u4")

    def glPixelMapusv(self, map, mapsize, values) -> None:
        self._pixel_map(map, mapsize, values, "<u2")

    def _color_transfer_set(self) -> bool:
        """Whether ``_transfer`` changes colours: a scale or bias set, or MAP_COLOR on."""
        t = self.legacy.pixel_transfer
        return bool(t.get(E.GL_MAP_COLOR)) or any(t.get(k, 1.0) != 1.0 for k in _COLOR_SCALES) or \
            any(t.get(k, 0.0) for k in _COLOR_BIASES)

    def _transfer(self, rgba: np.ndarray, fragments: bool = True) -> np.ndarray:
        """Scale and bias (section 3.6.5), the clamp to [0, 1] when fragment colours clamp
        (glClampColor; always before the colour maps), then the colour maps when MAP_COLOR
        is on. Unclamped, a floating-point framebuffer receives the values as given.
        ``fragments`` False: the values become texels, not fragments (glTexImage*), so
        only the colour maps clamp; the texture's format clamps what it cannot hold."""
        t = self.legacy.pixel_transfer
        scale = np.array([t.get(k, 1.0) for k in _COLOR_SCALES], np.float32)
        bias = np.array([t.get(k, 0.0) for k in _COLOR_BIASES], np.float32)
        if (scale != 1).any() or bias.any():
            rgba = rgba * scale + bias
        if t.get(E.GL_MAP_COLOR) or (fragments and fragment_clamps(self)):
            rgba = np.clip(rgba, 0.0, 1.0)
        if t.get(E.GL_MAP_COLOR):
            # section 3.6.5: each component through its map (initially one entry, 0)
            rgba = rgba.copy()
            for c in range(4):
                table = np.asarray(t.get(("map", E.GL_PIXEL_MAP_R_TO_R + c)) or [0.0], np.float32)
                rgba[..., c] = np.clip(table[np.rint(rgba[..., c] * (len(table) - 1)).astype(np.int64)], 0.0, 1.0)
        return rgba

    # -- drawing a pixel rectangle -------------------------------------------------------------
    def _pixel_program(self, kind: str):
        cache = self.__dict__.setdefault("_pixel_programs", {})
        prog = cache.get(kind)
        if prog is None:
            prog = cache[kind] = self._internal_program(
                _VS, _FS[kind], lambda name: PIXEL_UNIT if name == "shimgl_Pixels" else None)
        return prog

    def _draw_rectangle(self, image: np.ndarray, kind: str, zoom=None, uniforms: dict | None = None) -> None:
        """Draw an image (height, width, 4) of floats, row 0 at the bottom, at
        the raster position as a window-aligned quad: each fragment fetches
        the texel under it (nearest, one texel per zoomed pixel). Kinds
        "color", "bitmap" and "depth" go through the fixed-function fragment
        stage (section 3.6.4: the fragments carry the raster colour and
        texture coordinates, so texturing, colour sum and fog apply; "color"
        replaces the colour by the texel, "bitmap" discards texels of alpha 0,
        "depth" writes the texel as the depth); "stencil" is a pass of
        _draw_stencil."""
        h, w = image.shape[:2]
        r = self.legacy.raster
        if not r.valid or not w or not h:
            return
        zx, zy = zoom or self.legacy.pixel_zoom
        if not zx or not zy:
            return
        # only the part of the image that lands in the framebuffer is drawn: host memory
        # and the texture follow the window, not the request (a 35982-row bitmap)
        fb = self._pipe_framebuffer_state()
        x0, y0 = r.window[0], r.window[1]
        (c0, c1), (r0, r1) = (_visible(x0, zx, w, fb.width_px), _visible(y0, zy, h, fb.height_px))
        if c0 >= c1 or r0 >= r1:
            return
        image = image[r0:r1, c0:c1]
        h, w = image.shape[:2]
        x0, y0 = x0 + c0 * zx, y0 + r0 * zy
        tex = Texture(0, E.GL_TEXTURE_2D)
        tex.set_image(0, 0, TexImage(w, h, 1, E.GL_RGBA32F))
        self._pending_uploads(tex).append((0, 0, (0, 0, 0, w, h, 1), E.GL_RGBA, E.GL_FLOAT, PixelStore(),
                                           np.ascontiguousarray(image, np.float32).tobytes()))
        tex.params.min_filter = tex.params.mag_filter = E.GL_NEAREST
        tex.params.wrap_s = tex.params.wrap_t = E.GL_CLAMP_TO_EDGE
        # pixel rectangles are placed in window coordinates, never clipped by the
        # viewport (GL 4.6 compatibility section 18.1): the quad is drawn through a
        # viewport covering the framebuffer
        vx, vy, vw, vh = 0, 0, fb.width_px, fb.height_px
        n, f = self.state.depth_range
        xs = np.array([x0, x0 + zx * w])
        ys = np.array([y0, y0 + zy * h])
        nx = (xs - vx) / (vw / 2) - 1
        ny = (ys - vy) / (vh / 2) - 1
        nz = (2 * r.window[2] - n - f) / (f - n) if f != n else 0.0
        quad = np.array([[nx[0], ny[0], nz, 1], [nx[1], ny[0], nz, 1], [nx[1], ny[1], nz, 1],
                         [nx[0], ny[1], nz, 1]], np.float32)
        arrays = {(E.GL_VERTEX_ARRAY, 0): quad}
        if kind == "stencil":
            prog = self._pixel_program(kind)
        else:
            units = self._ff_texture_units()
            fkey = replace(self._ff_keys(units)[1], pixels=kind)
            prog = self._ff_program_for(None, fkey)
            arrays[(E.GL_COLOR_ARRAY, 0)] = np.tile(np.asarray(r.color, np.float32), (4, 1))
            arrays[(E.GL_SECONDARY_COLOR_ARRAY, 0)] = np.tile(np.asarray(r.secondary_color[:3], np.float32), (4, 1))
            arrays[(E.GL_FOG_COORD_ARRAY, 0)] = np.full((4, 1), r.distance, np.float32)
            for u in units:
                arrays[(E.GL_TEXTURE_COORD_ARRAY, u.unit)] = np.tile(np.asarray(r.texcoords[u.unit], np.float32),
                                                                     (4, 1))
        ls = prog.linked_state
        values = {"shimgl_PixelRect": (x0, y0, 1.0 / (zx * w), 1.0 / (zy * h)), **(uniforms or {})}
        for u in ls.uniforms:
            if u.name in values:
                v = np.atleast_1d(values[u.name])
                ls.uniform_storage.write(u.offset_B, pack_values(v, "f"))
        s = self.state
        saved = (self.current_program, self.texture_units[PIXEL_UNIT].get(E.GL_TEXTURE_2D), s.polygon_mode,
                 set(s.enabled), self.sampler_units[PIXEL_UNIT], s.polygon_mode_back, s.viewport)
        s.viewport = (vx, vy, vw, vh)
        self.current_program = prog
        self.texture_units[PIXEL_UNIT][E.GL_TEXTURE_2D] = tex
        self.sampler_units[PIXEL_UNIT] = None
        s.polygon_mode = s.polygon_mode_back = E.GL_FILL
        s.enabled -= {E.GL_CULL_FACE, E.GL_POLYGON_STIPPLE, E.GL_POLYGON_OFFSET_FILL,
                      *(E.GL_CLIP_DISTANCE0 + i for i in range(8))}
        try:
            self._draw_temporary_arrays(E.GL_TRIANGLE_FAN, arrays, 4)
        finally:
            (self.current_program, bound, s.polygon_mode, s.enabled, self.sampler_units[PIXEL_UNIT],
             s.polygon_mode_back, s.viewport) = saved
            if bound is None:
                self.texture_units[PIXEL_UNIT].pop(E.GL_TEXTURE_2D, None)
            else:
                self.texture_units[PIXEL_UNIT][E.GL_TEXTURE_2D] = bound
            if tex.resource is not None:     # batches keep their own references
                self.screen.resource_destroy(tex.resource)

    def _draw_depth(self, depth: np.ndarray) -> None:
        """Section 3.6.4 DEPTH_COMPONENT: fragments with the raster colour and
        texture coordinates and the given depths (after DEPTH_SCALE/BIAS,
        clamped to [0, 1]); the depth test and masks apply as to any fragment."""
        check(draw_framebuffer_bits(self, 4) > 0, E.GL_INVALID_OPERATION, "no depth buffer")
        t = self.legacy.pixel_transfer
        d = np.clip(depth * t.get(E.GL_DEPTH_SCALE, 1.0) + t.get(E.GL_DEPTH_BIAS, 0.0), 0.0, 1.0)
        image = np.zeros((*d.shape, 4), np.float32)
        image[..., 0] = d
        self._draw_rectangle(image, "depth")

    def _draw_stencil(self, index: np.ndarray) -> None:
        """Section 4.3.1 STENCIL_INDEX: the indices (after INDEX_SHIFT/OFFSET and
        the S_TO_S map when MAP_STENCIL is on) are written to the stencil buffer
        through its write mask, for the pixels that pass the scissor test; colour
        and depth are unchanged. One pass clears the written bits, then one pass
        per bit plane in use sets that bit where the index has it (GL's REPLACE
        with reference 0 / all ones), so no per-value loop."""
        bits = draw_framebuffer_bits(self, 5)
        check(bits > 0, E.GL_INVALID_OPERATION, "no stencil buffer")
        v = self._index_transfer(index.astype(np.int64)) & ((1 << bits) - 1)
        image = np.zeros((*v.shape, 4), np.float32)
        image[..., 0] = v
        s = self.state
        saved = (s.stencil, [rt.color_mask for rt in s.rt], s.depth_mask, set(s.enabled))
        full = (1 << bits) - 1
        s.enabled |= {E.GL_STENCIL_TEST}
        s.enabled -= {E.GL_DEPTH_TEST, E.GL_ALPHA_TEST}
        for rt in s.rt:
            rt.color_mask = (False, False, False, False)
        s.depth_mask = False
        used = np.bitwise_or.reduce(v.ravel()) if v.size else 0
        try:
            for bit in [0] + [1 << b for b in range(bits) if used >> b & 1]:
                s.stencil = tuple(replace(face, func=E.GL_ALWAYS, ref=full if bit else 0, value_mask=full,
                                          write_mask=face.write_mask & (bit or full), fail=E.GL_REPLACE,
                                          zfail=E.GL_REPLACE, zpass=E.GL_REPLACE)
                                  for face in saved[0])
                self._draw_rectangle(image, "stencil", uniforms={"shimgl_Bit": float(bit)})
        finally:
            s.stencil, masks, s.depth_mask, s.enabled = saved
            for rt, m in zip(s.rt, masks):
                rt.color_mask = m

    def _draw_depth_stencil(self, depth: np.ndarray, index: np.ndarray) -> None:
        """DEPTH_STENCIL (EXT_packed_depth_stencil): the depths written as by
        DEPTH_COMPONENT but into the depth buffer whatever the depth test and mask
        (as Mesa: the pair replaces what is there) and with the colour buffers
        masked, then the indices as by STENCIL_INDEX."""
        s = self.state
        saved = ([rt.color_mask for rt in s.rt], set(s.enabled), s.depth_func, s.depth_mask)
        for rt in s.rt:
            rt.color_mask = (False, False, False, False)
        s.enabled |= {E.GL_DEPTH_TEST}
        s.depth_func, s.depth_mask = E.GL_ALWAYS, True
        try:
            self._draw_depth(depth)
        finally:
            masks, s.enabled, s.depth_func, s.depth_mask = saved
            for rt, m in zip(s.rt, masks):
                rt.color_mask = m
        self._draw_stencil(index)

    def _index_transfer(self, v: np.ndarray) -> np.ndarray:
        """Section 3.6.5 for indices: shift (left when positive), offset, then
        the S_TO_S map when MAP_STENCIL is on."""
        t = self.legacy.pixel_transfer
        shift, offset = int(t.get(E.GL_INDEX_SHIFT, 0)), int(t.get(E.GL_INDEX_OFFSET, 0))
        v = (v << shift) if shift >= 0 else (v >> -shift)
        v = v + offset
        table = t.get(("map", E.GL_PIXEL_MAP_S_TO_S))
        if t.get(E.GL_MAP_STENCIL) and table:
            v = np.asarray(table, np.float64)[v & (len(table) - 1)].astype(np.int64)
        return v

    def _unpack_pixels(self, pixels, format, type, width, height) -> np.ndarray:
        """The client image as float RGBA (height, width, 4); depth and stencil
        indices arrive in channel 0 (a depth of a signed or unsigned integer
        type normalised, an index as its integer value)."""
        raw = self._unpack_source(pixels, format, type, width, height, 1)
        as_format = format
        if format == E.GL_STENCIL_INDEX:
            as_format = E.GL_RED if type == E.GL_FLOAT else E.GL_RED_INTEGER
        elif format == E.GL_DEPTH_COMPONENT and type not in (E.GL_UNSIGNED_SHORT, E.GL_UNSIGNED_INT,
                                                             E.GL_FLOAT):
            as_format = E.GL_RED
        try:
            return read_client_image(raw, self.state.unpack, as_format, type, width, height, 1)[0]
        except NotImplementedError:
            check(False, E.GL_INVALID_ENUM, f"format {format:#x} / type {type:#x}")

    def _pixels_to_draw(self, depth: bool, stencil: bool, token: int, width: int, height: int) -> bool:
        """What DrawPixels and CopyPixels share: a depth or stencil rectangle
        needs that buffer; in selection or feedback mode the rectangle is
        recorded instead (`token`). True when there are pixels to draw."""
        if depth:
            check(draw_framebuffer_bits(self, 4) > 0, E.GL_INVALID_OPERATION, "no depth buffer")
        if stencil:
            check(draw_framebuffer_bits(self, 5) > 0, E.GL_INVALID_OPERATION, "no stencil buffer")
        if self.legacy.records_instead_of_drawing:
            self._record_raster(token)
            return False
        return bool(width and height and self.legacy.raster.valid)

    def glDrawPixels(self, width, height, format, type, pixels) -> None:
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
        check_enum(format, set(PIXEL_FORMATS) | {E.GL_COLOR_INDEX}, f"bad format {format:#x}")
        check_enum(type, set(PIXEL_TYPES) | {E.GL_BITMAP}, f"bad type {type:#x}")
        indices = format in (E.GL_COLOR_INDEX, E.GL_STENCIL_INDEX)
        # GL 2.1 section 3.6.4: BITMAP data are indices, one bit each
        check(type != E.GL_BITMAP or indices, E.GL_INVALID_ENUM, "BITMAP needs COLOR_INDEX or STENCIL_INDEX")
        check(not depth_stencil_with_other_type(format, type), E.GL_INVALID_ENUM,
              "DEPTH_STENCIL needs UNSIGNED_INT_24_8 or FLOAT_32_UNSIGNED_INT_24_8_REV")
        check(type == E.GL_BITMAP or pixel_type_matches(E.GL_STENCIL_INDEX if indices else format, type),
              E.GL_INVALID_OPERATION, "format/type mismatch")
        # GL 3.0 section 3.7.4: integer formats cannot be drawn (whatever the type)
        check(format not in INTEGER_PIXEL_FORMATS, E.GL_INVALID_OPERATION, "DrawPixels of integer data")
        ds = format == E.GL_DEPTH_STENCIL
        if not self._pixels_to_draw(format == E.GL_DEPTH_COMPONENT or ds, format == E.GL_STENCIL_INDEX or ds,
                                    E.GL_DRAW_PIXEL_TOKEN, width, height):
            return
        if type == E.GL_BITMAP:
            image = self._bitmap_bits(pixels, width, height).astype(np.float32)[..., None]
        else:
            image = self._unpack_pixels(pixels, E.GL_STENCIL_INDEX if indices else format, type, width, height)
        if format == E.GL_COLOR_INDEX:
            self._draw_rectangle(self._index_to_rgba(image[..., 0]), "color")
        elif ds:                  # (depth, stencil index) per pixel
            self._draw_depth_stencil(image[..., 0].astype(np.float32), np.rint(image[..., 1]).astype(np.int64))
        elif format == E.GL_DEPTH_COMPONENT:
            self._draw_depth(image[..., 0].astype(np.float32))
        elif format == E.GL_STENCIL_INDEX:
            self._draw_stencil(np.rint(image[..., 0]).astype(np.int64))
        else:
            self._draw_rectangle(self._transfer(image.astype(np.float32)), "color")

    def glBitmap(self, width, height, xorig, yorig, xmove, ymove, bitmap) -> None:
        """Section 3.7: rows of bits, most significant first (UNPACK_LSB_FIRST
        reverses), padded to the unpack alignment; then the raster position
        moves by (xmove, ymove)."""
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
        r = self.legacy.raster
        if not r.valid:
            return
        if self.legacy.records_instead_of_drawing:
            self._record_raster(E.GL_BITMAP_TOKEN)
        elif width and height and bitmap is not None and math.isfinite(r.window[0] - xorig) \
                and math.isfinite(r.window[1] - yorig):        # (a NaN origin covers no pixel)
            bits = self._bitmap_bits(bitmap, width, height).astype(np.float32)
            rgba = np.zeros((height, width, 4), np.float32)
            rgba[..., 3] = bits
            # the bitmap's lower left pixel is (floor(xr - xo), floor(yr - yo)); as Mesa,
            # floor after adding BITMAP_EPSILON, so a raster position a float rounding short
            # of a whole pixel (168 through an ortho projection: 167.999996) stays on it
            self.legacy.raster = replace(r, window=(math.floor(r.window[0] + BITMAP_EPSILON - xorig),
                                                    math.floor(r.window[1] + BITMAP_EPSILON - yorig),
                                                    *r.window[2:]))
            try:
                self._draw_rectangle(rgba, "bitmap", zoom=(1.0, 1.0))
            finally:
                self.legacy.raster = r
        self.legacy.raster = replace(r, window=(r.window[0] + xmove, r.window[1] + ymove, *r.window[2:]))

    def _bitmap_bits(self, bitmap, width: int, height: int) -> np.ndarray:
        """Section 3.7: rows of bits, most significant first (UNPACK_LSB_FIRST
        reverses), padded to the unpack alignment, skipped rows and pixels as the
        unpack state says: uint8 (height, width) of 0 and 1, row 0 at the bottom."""
        st = self.state.unpack
        row_B = bitmap_row_B(st, width)
        data = np.frombuffer(bytes(self._unpack_bitmap(bitmap, row_B * (st.skip_rows + height))), np.uint8)
        data = data[st.skip_rows * row_B:][:row_B * height].reshape(height, row_B)
        bits = np.unpackbits(data, axis=1, bitorder="little" if st.lsb_first else "big")
        return bits[:, st.skip_pixels:st.skip_pixels + width]

    # -- colour-index texture images (GL 2.1 section 3.8.1) ---------------------------------
    _INDEX_TYPES = frozenset({E.GL_BITMAP, E.GL_UNSIGNED_BYTE, E.GL_BYTE, E.GL_UNSIGNED_SHORT, E.GL_SHORT,
                              E.GL_UNSIGNED_INT, E.GL_INT, E.GL_FLOAT})

    def _index_texels(self, pixels, type: int, width: int, height: int) -> bytes | None:
        """A COLOR_INDEX image given to glTexImage*/glTexSubImage* (one row or one
        image): its indices converted to RGBA as glDrawPixels converts them (index
        shift and offset, the I_TO_x maps), float RGBA bytes; None without pixels."""
        check(type in self._INDEX_TYPES, E.GL_INVALID_ENUM, f"bad type {type:#x} for COLOR_INDEX")
        if pixels is None and self.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER) is None:
            return None
        if type == E.GL_BITMAP:
            index = self._bitmap_bits(pixels, width, height).astype(np.float32)
        else:
            index = self._unpack_pixels(pixels, E.GL_STENCIL_INDEX, type, width, height)[..., 0]
        return np.ascontiguousarray(self._index_to_rgba(index), "<f4").tobytes()

    @extends
    def _tex_image(self, core, dims, target, level, internalformat, width, height, depth, border, fmt, type,
                   pixels) -> None:
        if fmt != E.GL_COLOR_INDEX or depth != 1 or not self.api.compat:
            return core(dims, target, level, internalformat, width, height, depth, border, fmt, type, pixels)
        from driver.gl.features.texture_ops import _default_pixel_store
        rgba = self._index_texels(pixels, type, width, height)
        with _default_pixel_store(self, "unpack", E.GL_PIXEL_UNPACK_BUFFER):
            core(dims, target, level, internalformat, width, height, depth, border, E.GL_RGBA, E.GL_FLOAT, rgba)

    @extends
    def _tex_sub_image(self, core, dims, target, level, x, y, z, width, height, depth, fmt, type, pixels):
        if fmt != E.GL_COLOR_INDEX or depth != 1 or not self.api.compat:
            return core(dims, target, level, x, y, z, width, height, depth, fmt, type, pixels)
        from driver.gl.features.texture_ops import _default_pixel_store
        rgba = self._index_texels(pixels, type, width, height)
        with _default_pixel_store(self, "unpack", E.GL_PIXEL_UNPACK_BUFFER):
            return core(dims, target, level, x, y, z, width, height, depth, E.GL_RGBA, E.GL_FLOAT, rgba)

    def _index_to_rgba(self, index: np.ndarray) -> np.ndarray:
        """GL 2.1 section 3.6.5 for colour indices in RGBA mode: shift and offset
        (INDEX_SHIFT, INDEX_OFFSET), then each component looked up in its
        PIXEL_MAP_I_TO_x table at the index masked to the table's size (a table of
        one entry, 0, initially), whether MAP_COLOR is on or not. Float (height,
        width, 4)."""
        t = self.legacy.pixel_transfer
        shift, offset = int(t.get(E.GL_INDEX_SHIFT, 0)), int(t.get(E.GL_INDEX_OFFSET, 0))
        v = np.floor(index).astype(np.int64)
        v = ((v << shift) if shift >= 0 else (v >> -shift)) + offset
        rgba = np.empty((*v.shape, 4), np.float32)
        for c, m in enumerate(("I_TO_R", "I_TO_G", "I_TO_B", "I_TO_A")):
            table = np.asarray(t.get(("map", getattr(E, f"GL_PIXEL_MAP_{m}"))) or [0.0], np.float32)
            rgba[..., c] = np.clip(table[v & (len(table) - 1)], 0.0, 1.0)
        return rgba

    def _unpack_bitmap(self, bitmap, size_B: int) -> bytes:
        raw = unpack_buffer_read(self, bitmap, size_B)
        if raw is not None:
            return raw
        check(not isinstance(bitmap, (int, float)), E.GL_INVALID_OPERATION, "offset without an unpack buffer")
        if isinstance(bitmap, np.ndarray):
            return bitmap.tobytes()[:size_B].ljust(size_B, b"\0")
        return bytes(bitmap)[:size_B].ljust(size_B, b"\0")

    def glCopyPixels(self, x, y, width, height, type) -> None:
        """Section 4.3.3: the rectangle is read as by ReadPixels (COLOR as RGBA,
        DEPTH as depth, STENCIL as indices) and drawn as by DrawPixels."""
        to_colour = (GL_DEPTH_STENCIL_TO_RGBA_NV, GL_DEPTH_STENCIL_TO_BGRA_NV)
        check_enum(type, (E.GL_COLOR, E.GL_DEPTH, E.GL_STENCIL, E.GL_DEPTH_STENCIL, *to_colour))
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
        ds = type in (E.GL_DEPTH_STENCIL, *to_colour)
        if not self._pixels_to_draw(type == E.GL_DEPTH or ds, type == E.GL_STENCIL or ds, E.GL_COPY_PIXEL_TOKEN,
                                    width, height):
            return
        fmt, ty, dt = {E.GL_COLOR: (E.GL_RGBA, E.GL_FLOAT, np.float32),
                       E.GL_DEPTH: (E.GL_DEPTH_COMPONENT, E.GL_FLOAT, np.float32),
                       E.GL_STENCIL: (E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE, np.uint8),
                       # (depth, stencil) pairs: a float and a word whose low byte is the index
                       E.GL_DEPTH_STENCIL: (E.GL_DEPTH_STENCIL, E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV, np.uint32),
                       # 24-bit depth over the 8-bit index in one word
                       GL_DEPTH_STENCIL_TO_RGBA_NV: (E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, np.uint32),
                       GL_DEPTH_STENCIL_TO_BGRA_NV: (E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, np.uint32)}[type]
        saved = self.state.pack, self.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
        self.state.pack = PixelStore(alignment=1)
        self.buffer_bindings.pop(E.GL_PIXEL_PACK_BUFFER, None)
        try:
            raw = self.glReadPixels(x, y, width, height, fmt, ty)
        finally:
            self.state.pack = saved[0]
            if saved[1] is not None:
                self.buffer_bindings[E.GL_PIXEL_PACK_BUFFER] = saved[1]
        data = np.frombuffer(bytes(raw), dt)
        if type in to_colour:
            # NV_copy_depth_to_color: the word's bytes from the top (depth high to low,
            # then the stencil index) are R, G, B, A (B, G, R, A for BGRA), as colour
            words = data.reshape(height, width)
            rgba = np.stack([(words >> s) & 0xFF for s in (24, 16, 8, 0)], axis=-1).astype(np.float32) / 255.0
            if type == GL_DEPTH_STENCIL_TO_BGRA_NV:
                rgba = rgba[..., [2, 1, 0, 3]]
            self._draw_rectangle(self._transfer(rgba), "color")
        elif type == E.GL_DEPTH_STENCIL:
            pairs = data.reshape(height, width, 2)
            self._draw_depth_stencil(pairs[..., 0].copy().view(np.float32), (pairs[..., 1] & 0xFF).astype(np.int64))
        elif type == E.GL_COLOR:
            self._draw_rectangle(self._transfer(data.reshape(height, width, 4)), "color")
        elif type == E.GL_DEPTH:
            self._draw_depth(data.reshape(height, width))
        else:
            self._draw_stencil(data.reshape(height, width).astype(np.int64))


def _define_raster_variants():
    """glRasterPos{2,3,4}{s,i,f,d}[v] and glWindowPos{2,3}{s,i,f,d}[v]."""
    def raster(n, vector):
        def fn(self, *args):
            vals = [float(v) for v in (list(args[0])[:n] if vector else args)]
            self._raster_pos(*(vals + [0.0, 1.0][n - 2:]))
        return fn

    def window(n, vector):
        def fn(self, *args):
            vals = [float(v) for v in (list(args[0])[:n] if vector else args)]
            self._window_pos(*vals)
        return fn

    for letter in ("s", "i", "f", "d"):
        for vector in (False, True):
            v = "v" if vector else ""
            for n in (2, 3, 4):
                setattr(RasterMixin, f"glRasterPos{n}{letter}{v}", raster(n, vector))
            for n in (2, 3):
                setattr(RasterMixin, f"glWindowPos{n}{letter}{v}", window(n, vector))


_define_raster_variants()


def _visible(origin: float, zoom: float, n: int, size: int) -> tuple[int, int]:
    """The [first, end) of n pixels starting at window coordinate `origin`, each
    `zoom` wide, that can cover a fragment of [0, size) (all n for a negative zoom)."""
    if zoom < 0:
        return 0, n
    first = max(0, math.floor(-origin / zoom) - 1)
    end = min(n, math.ceil((size - origin) / zoom) + 1)
    return first, max(first, end)
