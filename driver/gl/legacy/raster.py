"""The raster position and the pixel rectangle commands (GL 2.1 sections
2.13, 3.6-3.7, 4.3.3): glRasterPos*, glWindowPos*, glBitmap, glDrawPixels,
glCopyPixels, glPixelZoom, glPixelTransfer, glPixelMap.

glDrawPixels and glBitmap draw a window-aligned quad textured with the
image (nearest filtering, one texel per zoomed pixel) through the normal
draw path, so scissor, alpha/stencil/depth tests, blending and masks apply
to the fragments as the spec asks; the raster colour is lit when lighting is
on. Not done: texturing and fog of pixel fragments, depth/stencil DrawPixels and
CopyPixels, colour tables/convolution/histogram."""

from __future__ import annotations

import math
import struct

import numpy as np

from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.glsl import compile_glsl
from driver.gl.objects import Program, Shader, TexImage, Texture
from driver.gl.pixels import read_client_image
from driver.gl.state import PixelStore

__all__ = ["RasterMixin"]

_VS = """#version 120
void main() { gl_Position = gl_Vertex; gl_TexCoord[0] = gl_MultiTexCoord0; }
"""
_FS = {"pixels": """#version 120
uniform sampler2D shimgl_Pixels;
void main() { gl_FragColor = texture2D(shimgl_Pixels, gl_TexCoord[0].xy); }
""", "bitmap": """#version 120
uniform sampler2D shimgl_Pixels;
uniform vec4 shimgl_RasterColor;
void main() {
    if (texture2D(shimgl_Pixels, gl_TexCoord[0].xy).a < 0.5) discard;
    gl_FragColor = shimgl_RasterColor;
}
"""}
_TRANSFER = {E.GL_RED_SCALE: ("scale", 0), E.GL_GREEN_SCALE: ("scale", 1), E.GL_BLUE_SCALE: ("scale", 2),
             E.GL_ALPHA_SCALE: ("scale", 3), E.GL_RED_BIAS: ("bias", 0), E.GL_GREEN_BIAS: ("bias", 1),
             E.GL_BLUE_BIAS: ("bias", 2), E.GL_ALPHA_BIAS: ("bias", 3)}
_OTHER_TRANSFER = (E.GL_MAP_COLOR, E.GL_MAP_STENCIL, E.GL_INDEX_SHIFT, E.GL_INDEX_OFFSET,
                   E.GL_DEPTH_SCALE, E.GL_DEPTH_BIAS)


class RasterMixin:
    # -- raster position (section 2.13) ------------------------------------------------------
    def _raster_pos(self, x, y, z, w) -> None:
        self._compat_only()
        from driver.gl.legacy.state import RasterPos
        obj = np.array([x, y, z, w], np.float64)
        eye = self.stacks[0][-1] @ obj
        clip = self.stacks[1][-1] @ eye
        inside = all(-clip[3] <= clip[i] <= clip[3] for i in range(3))
        for i, plane in enumerate(self.clip_planes):
            if E.GL_CLIP_DISTANCE0 + i in self.state.enabled and np.dot(plane, eye) < 0:
                inside = False
        if not inside or clip[3] == 0:
            self.legacy.raster = RasterPos(window=self.legacy.raster.window, valid=False)
            return
        ndc = clip[:3] / clip[3]
        vx, vy, vw, vh = self.state.viewport
        n, f = self.state.depth_range
        win = (vx + (ndc[0] + 1) * vw / 2, vy + (ndc[1] + 1) * vh / 2, ((f - n) * ndc[2] + n + f) / 2,
               float(clip[3]))
        tcs = tuple(tuple(float(v) for v in self.stacks[2][u][-1] @ np.asarray(self.current_texcoords[u]))
                    for u in range(8))
        color, secondary = self.current_color, self.current_secondary_color
        if E.GL_LIGHTING in self.state.enabled:
            color, secondary = self._lit_raster_color(eye)
        self.legacy.raster = RasterPos(tuple(float(v) for v in win), True, color, secondary, tcs,
                                       float(abs(eye[2])))

    def _lit_raster_color(self, eye) -> tuple:
        """Section 2.13: the raster colour is lit like a vertex (equation 2.1,
        front material, the current normal; colour material applied)."""
        L = self.legacy
        self._track_color_material()
        m = L.materials[0]
        nm = np.linalg.inv(self.stacks[0][-1][:3, :3]).T
        n = nm @ np.asarray(self.current_normal, np.float64)
        if E.GL_NORMALIZE in self.state.enabled or E.GL_RESCALE_NORMAL in self.state.enabled:
            n = n / (np.linalg.norm(n) or 1.0)
        p = eye[:3] / eye[3]
        amb, dif, spe = (np.asarray(x[:3], np.float64) for x in (m.ambient, m.diffuse, m.specular))
        rgb = np.asarray(m.emission[:3]) + amb * L.light_model_ambient[:3]
        spec = np.zeros(3)
        for i, li in enumerate(L.lights):
            if E.GL_LIGHT0 + i not in self.state.enabled:
                continue
            pos = np.asarray(li.position, np.float64)
            att = 1.0
            if pos[3] == 0:
                vp = pos[:3] / (np.linalg.norm(pos[:3]) or 1.0)
            else:
                d_vec = pos[:3] / pos[3] - p
                d = np.linalg.norm(d_vec) or 1.0
                vp = d_vec / d
                k0, k1, k2 = li.attenuation
                att = 1.0 / (k0 + k1 * d + k2 * d * d)
            if li.spot_cutoff != 180.0:
                sd = np.asarray(li.spot_direction, np.float64)
                cos_a = float(-vp @ (sd / (np.linalg.norm(sd) or 1.0)))
                att *= max(cos_a, 1e-20) ** li.spot_exponent if cos_a >= np.cos(np.radians(li.spot_cutoff)) else 0.0
            nl = float(n @ vp)
            eye_dir = -p / (np.linalg.norm(p) or 1.0) if L.local_viewer else np.array([0.0, 0.0, 1.0])
            h = vp + eye_dir
            h = h / (np.linalg.norm(h) or 1.0)
            rgb = rgb + att * (amb * li.ambient[:3] + max(nl, 0.0) * dif * li.diffuse[:3])
            if nl > 0:
                spec = spec + att * max(float(n @ h), 1e-20) ** m.shininess * spe * li.specular[:3]
        if L.color_control == E.GL_SEPARATE_SPECULAR_COLOR:
            return (*np.clip(rgb, 0, 1), m.diffuse[3]), (*np.clip(spec, 0, 1), 0.0)
        return (*np.clip(rgb + spec, 0, 1), m.diffuse[3]), (0.0, 0.0, 0.0, 0.0)

    def _window_pos(self, x, y, z=0.0) -> None:
        """ARB_window_pos / GL 1.4 section 2.13: window coordinates directly."""
        self._compat_only()
        from driver.gl.legacy.state import RasterPos
        n, f = self.state.depth_range
        z = min(1.0, max(0.0, float(z)))
        self.legacy.raster = RasterPos((float(x), float(y), n + z * (f - n), 1.0), True, self.current_color,
                                       self.current_secondary_color, tuple(self.current_texcoords),
                                       self.legacy.fog_coord)

    # -- pixel transfer and zoom (section 3.6.3) ----------------------------------------------
    def glPixelZoom(self, xfactor, yfactor) -> None:
        self._compat_only()
        self.legacy.pixel_zoom = (float(xfactor), float(yfactor))

    def glPixelTransferf(self, pname, param) -> None:
        self._compat_only()
        check_enum(pname, set(_TRANSFER) | set(_OTHER_TRANSFER))
        self.legacy.pixel_transfer[pname] = float(param)

    glPixelTransferi = glPixelTransferf

    def glPixelMapfv(self, map, mapsize, values) -> None:
        self._compat_only()
        check(E.GL_PIXEL_MAP_I_TO_I <= map <= E.GL_PIXEL_MAP_A_TO_A, E.GL_INVALID_ENUM, "bad map")
        check(0 < mapsize <= 256, E.GL_INVALID_VALUE, "bad map size")
        check(not isinstance(values, (int, float)) and values is not None, E.GL_INVALID_VALUE,
              "array expected")
        self.legacy.pixel_transfer[("map", map)] = [float(v) for v in list(values)[:mapsize]]

    glPixelMapuiv = glPixelMapusv = glPixelMapfv

    def _transfer(self, rgba: np.ndarray) -> np.ndarray:
        """Scale and bias (section 3.6.5), then the clamp of fixed-point colours."""
        t = self.legacy.pixel_transfer
        scale = np.array([t.get(k, 1.0) for k in (E.GL_RED_SCALE, E.GL_GREEN_SCALE, E.GL_BLUE_SCALE,
                                                  E.GL_ALPHA_SCALE)], np.float32)
        bias = np.array([t.get(k, 0.0) for k in (E.GL_RED_BIAS, E.GL_GREEN_BIAS, E.GL_BLUE_BIAS,
                                                 E.GL_ALPHA_BIAS)], np.float32)
        if (scale != 1).any() or bias.any():
            rgba = rgba * scale + bias
        return np.clip(rgba, 0.0, 1.0)

    # -- drawing a pixel rectangle -------------------------------------------------------------
    def _pixel_program(self, kind: str):
        cache = self.__dict__.setdefault("_pixel_programs", {})
        prog = cache.get(kind)
        if prog is None:
            prog = Program(0)
            for gltype, src, stage in ((E.GL_VERTEX_SHADER, _VS, "vertex"),
                                       (E.GL_FRAGMENT_SHADER, _FS[kind], "fragment")):
                res = compile_glsl(src, stage)
                assert res.ok, res.info_log
                prog.shaders.append(Shader(0, gltype, src, True, ast=res.unit))
            prog.linked_state = self._link(prog)
            prog.linked = True
            self._create_pipe_shaders(prog)
            cache[kind] = prog
        return prog

    def _draw_rectangle(self, rgba: np.ndarray, kind: str, zoom=None) -> None:
        """Draw an RGBA float image (height, width, 4), row 0 at the bottom,
        at the raster position."""
        h, w = rgba.shape[:2]
        r = self.legacy.raster
        if not r.valid or not w or not h:
            return
        zx, zy = zoom or self.legacy.pixel_zoom
        tex = Texture(0, E.GL_TEXTURE_2D)
        self._set_image(tex, 0, 0, TexImage(w, h, 1, E.GL_RGBA32F))
        self._pending_uploads(tex).append((0, 0, (0, 0, 0, w, h, 1), E.GL_RGBA, E.GL_FLOAT, PixelStore(),
                                           np.ascontiguousarray(rgba, np.float32).tobytes()))
        tex.params.min_filter = tex.params.mag_filter = E.GL_NEAREST
        tex.params.wrap_s = tex.params.wrap_t = E.GL_CLAMP_TO_EDGE
        prog = self._pixel_program(kind)
        ls = prog.linked_state
        for u in ls.uniforms:
            if u.name == "shimgl_RasterColor":
                struct.pack_into("<4f", ls.uniform_data, u.offset_B, *r.color)
        vx, vy, vw, vh = self.state.viewport
        n, f = self.state.depth_range
        x0, y0 = r.window[0], r.window[1]
        xs = np.array([x0, x0 + zx * w]) if zx else np.array([x0, x0])
        ys = np.array([y0, y0 + zy * h]) if zy else np.array([y0, y0])
        nx = (xs - vx) / (vw / 2) - 1
        ny = (ys - vy) / (vh / 2) - 1
        nz = (2 * r.window[2] - n - f) / (f - n) if f != n else 0.0
        quad = np.array([[nx[0], ny[0], nz, 1], [nx[1], ny[0], nz, 1], [nx[1], ny[1], nz, 1],
                         [nx[0], ny[1], nz, 1]], np.float32)
        uv = np.array([[0, 0, 0, 1], [1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1]], np.float32)
        s = self.state
        saved = (self.current_program, self.texture_units[0].get(E.GL_TEXTURE_2D), s.polygon_mode,
                 set(s.enabled), self.sampler_units[0])
        self.current_program = prog
        self.texture_units[0][E.GL_TEXTURE_2D] = tex
        self.sampler_units[0] = None
        s.polygon_mode = E.GL_FILL
        s.enabled -= {E.GL_CULL_FACE, E.GL_POLYGON_STIPPLE, E.GL_POLYGON_OFFSET_FILL}
        try:
            self._draw_temporary_arrays(E.GL_TRIANGLE_FAN, {(E.GL_VERTEX_ARRAY, 0): quad,
                                                            (E.GL_TEXTURE_COORD_ARRAY, 0): uv}, 4)
        finally:
            self.current_program, bound, s.polygon_mode, s.enabled, self.sampler_units[0] = saved
            if bound is None:
                self.texture_units[0].pop(E.GL_TEXTURE_2D, None)
            else:
                self.texture_units[0][E.GL_TEXTURE_2D] = bound
            if tex.resource is not None:     # batches keep their own references
                self.screen.resource_destroy(tex.resource)

    def glDrawPixels(self, width, height, format, type, pixels) -> None:
        self._compat_only()
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
        check(format not in (E.GL_DEPTH_COMPONENT, E.GL_STENCIL_INDEX, E.GL_DEPTH_STENCIL,
                             E.GL_COLOR_INDEX), E.GL_INVALID_OPERATION,
              "depth/stencil/index DrawPixels are not implemented")
        if not width or not height or not self.legacy.raster.valid:
            return
        raw = self._unpack_source(pixels, format, type, width, height, 1)
        try:
            rgba = read_client_image(raw, self.state.unpack, format, type, width, height, 1)[0]
        except NotImplementedError:
            check(False, E.GL_INVALID_ENUM, f"format {format:#x} / type {type:#x}")
        self._draw_rectangle(self._transfer(rgba.astype(np.float32)), "pixels")

    def glBitmap(self, width, height, xorig, yorig, xmove, ymove, bitmap) -> None:
        """Section 3.7: rows of bits, most significant first (UNPACK_LSB_FIRST
        reverses), padded to the unpack alignment; then the raster position
        moves by (xmove, ymove)."""
        self._compat_only()
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
        r = self.legacy.raster
        if not r.valid:
            return
        if width and height and bitmap is not None:
            st = self.state.unpack
            row_B = -(-(st.row_length or width) // 8)
            row_B = -(-row_B // st.alignment) * st.alignment
            data = np.frombuffer(bytes(self._unpack_bitmap(bitmap, row_B * height)), np.uint8)
            data = data[st.skip_rows * row_B:][:row_B * height].reshape(height, row_B)
            bits = np.unpackbits(data, axis=1, bitorder="little" if st.lsb_first else "big")
            bits = bits[:, st.skip_pixels:st.skip_pixels + width].astype(np.float32)
            rgba = np.zeros((height, width, 4), np.float32)
            rgba[..., 3] = bits
            from driver.gl.legacy.state import RasterPos
            # the bitmap's lower left pixel is (floor(xr - xo), floor(yr - yo)), as Mesa rounds
            moved = RasterPos((math.floor(r.window[0] - xorig), math.floor(r.window[1] - yorig),
                               *r.window[2:]), True, r.color,
                              r.secondary_color, r.texcoords, r.distance)
            self.legacy.raster = moved
            try:
                self._draw_rectangle(rgba, "bitmap", zoom=(1.0, 1.0))
            finally:
                self.legacy.raster = r
        self.legacy.raster = type(r)((r.window[0] + xmove, r.window[1] + ymove, *r.window[2:]), True,
                                     r.color, r.secondary_color, r.texcoords, r.distance)

    def _unpack_bitmap(self, bitmap, size_B: int) -> bytes:
        pbo = self.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER)
        if pbo is not None:
            return self._read_buffer(pbo, int(bitmap or 0), size_B)
        check(not isinstance(bitmap, (int, float)), E.GL_INVALID_OPERATION, "offset without an unpack buffer")
        if isinstance(bitmap, np.ndarray):
            return bitmap.tobytes()[:size_B].ljust(size_B, b"\0")
        return bytes(bitmap)[:size_B].ljust(size_B, b"\0")

    def glCopyPixels(self, x, y, width, height, type) -> None:
        self._compat_only()
        check_enum(type, (E.GL_COLOR, E.GL_DEPTH, E.GL_STENCIL))
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
        check(type == E.GL_COLOR, E.GL_INVALID_OPERATION, "depth/stencil CopyPixels are not implemented")
        if not width or not height or not self.legacy.raster.valid:
            return
        saved = self.state.pack
        self.state.pack = PixelStore()
        try:
            raw = self.glReadPixels(x, y, width, height, E.GL_RGBA, E.GL_FLOAT)
        finally:
            self.state.pack = saved
        rgba = np.frombuffer(bytes(raw), np.float32).reshape(height, width, 4)
        self._draw_rectangle(self._transfer(rgba), "pixels")


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
