#!/usr/bin/env python3
"""glbench.py - small deterministic OpenGL / GLES workload suite for driver comparison.

Creates an offscreen context through EGL (EGL_MESA_platform_surfaceless, falling back
to the default display + a 1x1 pbuffer), renders into an FBO (RGBA8 colour renderbuffer
+ DEPTH_COMPONENT24 renderbuffer) and prints one JSON line per workload:

  {"name":..., "frames":N, "sec_per_frame":..., "first_frame_s":..., "sha256":..., "mean_rgba":[...], ...}

Feature use is deliberately minimal:
  * graphics workloads need only GLES 3.0 / GL 3.3 core (#version 300 es / 330 core):
    VAO, VBO, FBO + renderbuffers, glTexImage2D, glGenerateMipmap, glDrawArrays,
    glReadPixels(RGBA/UNSIGNED_BYTE), blending, depth test.
  * compute needs GLES 3.1 / GL 4.3 (#version 310 es / 430 core): SSBOs,
    glDispatchCompute, glMemoryBarrier, glMapBufferRange(GL_MAP_READ_BIT).

Timing: each workload runs untimed warm-up frames (--warmup-frames, default 1; the
first is reported as first_frame_s: it includes shader compilation / JIT), then
`frames` timed frames.  By default every
frame ends with glFinish (synchronous: "time until the frame is complete"); with
--pipelined frames end with glFlush and only the last one with glFinish.
Timed loops stop early once --max-seconds is exceeded (frames actually run are
reported). cpu_s_per_frame is the CPU time of the whole process (all its threads:
a software driver's rasteriser threads too) per timed frame: steadier than wall
time on a loaded host.  Every frame is self-contained (no accumulation across frames) so
checksums do not depend on the frame count.

Run:  PYOPENGL_PLATFORM=egl python3 glbench.py [--size 1024] [--api gles|gl] ...
      GALLIUM_DRIVER=softpipe / LP_NUM_THREADS=1 select Mesa software rasterisers.
"""
import argparse
import ctypes
import hashlib
import json
import os
import platform
import sys
import time

os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
T_PROC0 = time.perf_counter()

import numpy as np  # noqa: E402
import OpenGL  # noqa: E402
from OpenGL import EGL  # noqa: E402
from OpenGL import GL  # noqa: E402

EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_OPENGL_ES3_BIT = 0x0040
EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT = 0x00000001


# --------------------------------------------------------------------------- EGL
def _attribs(*vals):
    return (EGL.EGLint * (len(vals) + 1))(*vals, EGL.EGL_NONE)


def create_context(api):
    """Return (display, context, surface, how) with the context current."""
    dpy = None
    how = None
    try:
        dpy = EGL.eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                           EGL.EGL_DEFAULT_DISPLAY, None)
        how = "surfaceless"
    except Exception:
        dpy = None
    if not dpy:
        dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
        how = "default-display"
    major, minor = EGL.EGLint(), EGL.EGLint()
    if not EGL.eglInitialize(dpy, ctypes.byref(major), ctypes.byref(minor)):
        raise RuntimeError("eglInitialize failed")

    if api == "gles":
        EGL.eglBindAPI(EGL.EGL_OPENGL_ES_API)
        rtype = EGL_OPENGL_ES3_BIT
        versions = [(3, 2), (3, 1), (3, 0)]
    else:
        EGL.eglBindAPI(EGL.EGL_OPENGL_API)
        rtype = EGL.EGL_OPENGL_BIT
        versions = [(4, 5), (4, 3), (3, 3)]

    cfg = EGL.EGLConfig()
    n = EGL.EGLint()
    EGL.eglChooseConfig(dpy, _attribs(EGL.EGL_SURFACE_TYPE, EGL.EGL_PBUFFER_BIT,
                                      EGL.EGL_RENDERABLE_TYPE, rtype,
                                      EGL.EGL_RED_SIZE, 8, EGL.EGL_GREEN_SIZE, 8,
                                      EGL.EGL_BLUE_SIZE, 8, EGL.EGL_ALPHA_SIZE, 8),
                        ctypes.byref(cfg), 1, ctypes.byref(n))
    if n.value < 1:
        raise RuntimeError("no EGL config")

    ctx = None
    for (ma, mi) in versions:
        if api == "gles":
            at = _attribs(EGL.EGL_CONTEXT_MAJOR_VERSION, ma, EGL.EGL_CONTEXT_MINOR_VERSION, mi)
        else:
            at = _attribs(EGL.EGL_CONTEXT_MAJOR_VERSION, ma, EGL.EGL_CONTEXT_MINOR_VERSION, mi,
                          EGL.EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT)
        try:
            c = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT, at)
        except Exception:
            c = None
        if c:
            ctx = c
            break
    if not ctx:
        raise RuntimeError("eglCreateContext failed")

    surf = EGL.EGL_NO_SURFACE
    ok = False
    try:
        ok = EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, ctx)
    except Exception:
        ok = False
    if not ok:  # fall back to a tiny pbuffer; we render into an FBO anyway
        surf = EGL.eglCreatePbufferSurface(dpy, cfg, _attribs(EGL.EGL_WIDTH, 1, EGL.EGL_HEIGHT, 1))
        EGL.eglMakeCurrent(dpy, surf, surf, ctx)
        how += "+pbuffer"
    return dpy, ctx, surf, how


# --------------------------------------------------------------------------- GL helpers
class Prog:
    def __init__(self, srcs):
        self.id = GL.glCreateProgram()
        shaders = []
        for stage, src in srcs:
            s = GL.glCreateShader(stage)
            GL.glShaderSource(s, src)
            GL.glCompileShader(s)
            if not GL.glGetShaderiv(s, GL.GL_COMPILE_STATUS):
                raise RuntimeError("compile failed:\n%s\n%s" % (GL.glGetShaderInfoLog(s), src))
            GL.glAttachShader(self.id, s)
            shaders.append(s)
        GL.glLinkProgram(self.id)
        if not GL.glGetProgramiv(self.id, GL.GL_LINK_STATUS):
            raise RuntimeError("link failed: %s" % GL.glGetProgramInfoLog(self.id))
        for s in shaders:
            GL.glDeleteShader(s)

    def use(self):
        GL.glUseProgram(self.id)

    def loc(self, name):
        return GL.glGetUniformLocation(self.id, name)


def make_vao(data, layout):
    """data: float32 array (n, stride_floats); layout: list of (loc, ncomp, offset_floats)."""
    data = np.ascontiguousarray(data, dtype=np.float32)
    vao = GL.glGenVertexArrays(1)
    GL.glBindVertexArray(vao)
    vbo = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
    GL.glBufferData(GL.GL_ARRAY_BUFFER, data.nbytes, data, GL.GL_STATIC_DRAW)
    stride = data.shape[1] * 4
    for loc, ncomp, off in layout:
        GL.glEnableVertexAttribArray(loc)
        GL.glVertexAttribPointer(loc, ncomp, GL.GL_FLOAT, GL.GL_FALSE, stride, ctypes.c_void_p(off * 4))
    GL.glBindVertexArray(0)
    return vao, vbo, data.shape[0]


class Bench:
    def __init__(self, args):
        self.a = args
        self.S = args.size
        api = args.api
        if api == "gles":
            self.hdr_gfx = "#version 300 es\nprecision highp float;\nprecision highp int;\n"
            self.hdr_cs = "#version 310 es\nprecision highp float;\nprecision highp int;\n"
        else:
            self.hdr_gfx = "#version 330 core\n"
            self.hdr_cs = "#version 430 core\n"
        self.pix = np.zeros((self.S, self.S, 4), dtype=np.uint8)
        self.fbo = GL.glGenFramebuffers(1)
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, self.fbo)
        self.rb_color, self.rb_depth = GL.glGenRenderbuffers(2)
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, self.rb_color)
        GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, self.S, self.S)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, self.rb_color)
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, self.rb_depth)
        GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_DEPTH_COMPONENT24, self.S, self.S)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_DEPTH_ATTACHMENT, GL.GL_RENDERBUFFER, self.rb_depth)
        st = GL.glCheckFramebufferStatus(GL.GL_FRAMEBUFFER)
        if st != GL.GL_FRAMEBUFFER_COMPLETE:
            raise RuntimeError("FBO incomplete 0x%x" % st)
        GL.glViewport(0, 0, self.S, self.S)
        GL.glDisable(GL.GL_DITHER)
        # shared fullscreen quad (triangle strip), positions only
        q = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], dtype=np.float32)
        self.quad_vao, _, _ = make_vao(q, [(0, 2, 0)])

    # -- utilities
    def readback(self):
        GL.glReadPixels(0, 0, self.S, self.S, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, self.pix)
        return self.pix

    def img_sum(self):
        p = self.readback()
        return {"sha256": hashlib.sha256(p.tobytes()).hexdigest()[:16],
                "mean_rgba": [round(float(x), 4) for x in p.reshape(-1, 4).mean(axis=0)]}

    def end_frame(self, last):
        if self.a.pipelined and not last:
            GL.glFlush()
        else:
            GL.glFinish()

    def timed(self, name, frame_fn, frames, work=None, checksum=None):
        """Run one warm-up frame, then `frames` timed frames (capped by --max-seconds)."""
        GL.glFinish()
        t0 = time.perf_counter()
        frame_fn(0)
        GL.glFinish()
        first = time.perf_counter() - t0
        for _ in range(self.a.warmup_frames - 1):
            frame_fn(0)
            GL.glFinish()
        done = 0
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        for i in range(frames):
            frame_fn(i + 1)
            last = (i == frames - 1) or (time.perf_counter() - t0 > self.a.max_seconds)
            self.end_frame(last)
            done += 1
            if last:
                break
        total = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        spf = total / done
        err = GL.glGetError()
        rec = {"name": name, "frames": done, "sec_per_frame": spf, "total_s": total,
               "cpu_s_per_frame": cpu / done,   # every thread of the process (a loaded host inflates wall time)
               "first_frame_s": first, "gl_error": int(err)}
        if work:
            for k, (amount, unit) in work.items():
                rec[k] = amount / spf / unit
        rec.update(checksum() if checksum else self.img_sum())
        if self.a.dump and not checksum:
            os.makedirs(self.a.dump, exist_ok=True)
            np.save(os.path.join(self.a.dump, name + ".npy"), self.pix)
        print(json.dumps(rec), flush=True)
        return rec

    # -- a. clear
    def w_clear(self):
        S = self.S
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glDisable(GL.GL_BLEND)

        def frame(i):
            GL.glClearColor(0.25, 0.5, 0.75, 1.0)
            GL.glClear(GL.GL_COLOR_BUFFER_BIT)
        self.timed("clear", frame, self.a.clear_frames,
                   work={"mpix_per_s": (S * S, 1e6), "gbytes_per_s": (S * S * 4, 1e9)})

    # -- b. fill_simple
    def w_fill_simple(self):
        S = self.S
        p = Prog([(GL.GL_VERTEX_SHADER, self.hdr_gfx + """
layout(location=0) in vec2 a_pos;
void main(){ gl_Position = vec4(a_pos, 0.0, 1.0); }
"""), (GL.GL_FRAGMENT_SHADER, self.hdr_gfx + """
out vec4 o;
void main(){ o = vec4(0.2, 0.4, 0.6, 0.8); }
""")])
        p.use()
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glDisable(GL.GL_BLEND)
        GL.glBindVertexArray(self.quad_vao)
        GL.glClearColor(0, 0, 0, 0)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT)

        def frame(i):
            GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
        self.timed("fill_simple", frame, self.a.frames, work={"mpix_per_s": (S * S, 1e6)})

    # -- c. fill_alu (about 30 scalar ALU ops per fragment; see FS_ALU comment)
    FS_ALU = """
in vec2 v_uv;
out vec4 o;
void main(){
  // scalar-op count (before constant folding) in brackets; total ~30
  vec3 n = normalize(vec3(v_uv * 2.0 - 1.0, 1.0));       // [2 fma + dot 3 + rsq 1 + 3 mul = 9]
  float a = sin(v_uv.x * 12.0);                           // [mul + sin = 2]
  float b = cos(v_uv.y * 9.0);                            // [mul + cos = 2]
  vec3 l = vec3(a, b, 0.75);
  float nl = max(dot(n, l), 0.0);                         // [dot 3 + max 1 = 4]
  float s = pow(nl + 1e-4, 8.0);                          // [add + log2, mul, exp2 = 4]
  vec3 c = vec3(0.9, 0.6, 0.3) * nl + s;                  // [3 fma = 3]
  c = c * (0.5 + 0.5 * a * b);                            // [mul + fma + 3 mul = 5]
  o = vec4(clamp(c, 0.0, 1.0), 1.0);                      // [3 sat, often free = 3]
}
"""

    def w_fill_alu(self):
        S = self.S
        p = Prog([(GL.GL_VERTEX_SHADER, self.hdr_gfx + """
layout(location=0) in vec2 a_pos;
out vec2 v_uv;
void main(){ v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }
"""), (GL.GL_FRAGMENT_SHADER, self.hdr_gfx + self.FS_ALU)])
        p.use()
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glDisable(GL.GL_BLEND)
        GL.glBindVertexArray(self.quad_vao)

        def frame(i):
            GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
        self.timed("fill_alu", frame, self.a.frames,
                   work={"mpix_per_s": (S * S, 1e6), "gops_per_s_est": (S * S * 32, 1e9)})

    # -- d. tex: trilinear sampling of a tex_size^2 RGBA8 mipmapped texture
    def w_tex(self):
        S, T = self.S, self.a.tex_size
        rng = np.random.default_rng(self.a.seed + 4)
        img = rng.integers(0, 256, size=(T, T, 4), dtype=np.uint8)
        tex = GL.glGenTextures(1)
        GL.glActiveTexture(GL.GL_TEXTURE0)
        GL.glBindTexture(GL.GL_TEXTURE_2D, tex)
        GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 1)
        GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, T, T, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, img)
        GL.glGenerateMipmap(GL.GL_TEXTURE_2D)
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_LINEAR_MIPMAP_LINEAR)
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, GL.GL_LINEAR)
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_WRAP_S, GL.GL_REPEAT)
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_WRAP_T, GL.GL_REPEAT)
        # uv scale so that 1.5 texels map to one pixel -> LOD ~0.585, i.e. real trilinear
        # blending between levels 0 and 1 at any --size.
        scale = 1.5 * S / T
        p = Prog([(GL.GL_VERTEX_SHADER, self.hdr_gfx + """
layout(location=0) in vec2 a_pos;
uniform float u_scale;
out vec2 v_uv;
void main(){ v_uv = (a_pos * 0.5 + 0.5) * u_scale; gl_Position = vec4(a_pos, 0.0, 1.0); }
"""), (GL.GL_FRAGMENT_SHADER, self.hdr_gfx + """
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 o;
void main(){ o = texture(u_tex, v_uv); }
""")])
        p.use()
        GL.glUniform1f(p.loc("u_scale"), scale)
        GL.glUniform1i(p.loc("u_tex"), 0)
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glDisable(GL.GL_BLEND)
        GL.glBindVertexArray(self.quad_vao)

        def frame(i):
            GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
        self.timed("tex", frame, self.a.frames,
                   work={"mpix_per_s": (S * S, 1e6), "mtexel_fetch_per_s": (S * S * 8, 1e6)})
        GL.glDeleteTextures([tex])

    # -- e. tris_small: N small triangles, per-vertex colour, depth test
    def w_tris_small(self):
        S, N = self.S, self.a.tris
        rng = np.random.default_rng(self.a.seed + 5)
        # equilateral triangles of area tri_area pixels: area = 3*sqrt(3)/4 * r^2
        r = np.sqrt(self.a.tri_area * 4.0 / (3.0 * np.sqrt(3.0)))
        c = rng.uniform(r, S - r, size=(N, 2))
        th = rng.uniform(0, 2 * np.pi, size=(N, 1))
        ang = th + np.array([0, 2 * np.pi / 3, 4 * np.pi / 3])[None, :]   # CCW
        px = c[:, None, 0] + r * np.cos(ang)
        py = c[:, None, 1] + r * np.sin(ang)
        z = np.repeat(rng.uniform(-0.9, 0.9, size=(N, 1)), 3, axis=1)
        col = rng.uniform(0, 1, size=(N, 3, 3))
        v = np.zeros((N, 3, 6), dtype=np.float32)
        v[..., 0] = px / S * 2 - 1
        v[..., 1] = py / S * 2 - 1
        v[..., 2] = z
        v[..., 3:6] = col
        vao, vbo, nv = make_vao(v.reshape(-1, 6), [(0, 3, 0), (1, 3, 3)])
        p = Prog([(GL.GL_VERTEX_SHADER, self.hdr_gfx + """
layout(location=0) in vec3 a_pos;
layout(location=1) in vec3 a_col;
uniform mat4 u_mvp;
out vec3 v_col;
void main(){ v_col = a_col; gl_Position = u_mvp * vec4(a_pos, 1.0); }
"""), (GL.GL_FRAGMENT_SHADER, self.hdr_gfx + """
in vec3 v_col;
out vec4 o;
void main(){ o = vec4(v_col, 1.0); }
""")])
        p.use()
        GL.glUniformMatrix4fv(p.loc("u_mvp"), 1, GL.GL_FALSE, np.eye(4, dtype=np.float32))
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glDepthFunc(GL.GL_LESS)
        GL.glDisable(GL.GL_BLEND)
        GL.glBindVertexArray(vao)

        def frame(i):
            GL.glClearColor(0, 0, 0, 1)
            GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
            GL.glDrawArrays(GL.GL_TRIANGLES, 0, nv)
        self.timed("tris_small", frame, self.a.frames,
                   work={"mtris_per_s": (N, 1e6), "mpix_per_s": (N * self.a.tri_area, 1e6)})
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glDeleteBuffers(1, [vbo])

    # -- f. tris_big_overdraw: M large overlapping blended triangles
    def w_tris_big_overdraw(self):
        S, M = self.S, self.a.overdraw_tris
        rng = np.random.default_rng(self.a.seed + 6)
        # jittered "fullscreen triangle" (-1,-1),(3,-1),(-1,3): covers most of the screen
        base = np.array([[-1, -1], [3, -1], [-1, 3]], dtype=np.float64)
        jit = rng.uniform(0.0, 1.2, size=(M, 3, 2))
        pos = base[None] + np.where(base[None] > 0, -jit, jit * 0.25)
        # optional random flip so the uncovered corner differs between triangles
        flip = rng.integers(0, 2, size=(M, 1, 2)) * 2 - 1
        pos = pos * flip
        col = np.concatenate([rng.uniform(0, 1, size=(M, 3, 3)),
                              rng.uniform(0.1, 0.3, size=(M, 3, 1))], axis=2)
        v = np.concatenate([pos, col], axis=2).astype(np.float32)
        # estimate covered fragments with a 256x256 sample grid (for Mfrag/s)
        g = (np.arange(256) + 0.5) / 256 * 2 - 1
        gx, gy = np.meshgrid(g, g)
        cov = 0.0
        for t in pos:
            (x0, y0), (x1, y1), (x2, y2) = t
            e0 = (x1 - x0) * (gy - y0) - (y1 - y0) * (gx - x0)
            e1 = (x2 - x1) * (gy - y1) - (y2 - y1) * (gx - x1)
            e2 = (x0 - x2) * (gy - y2) - (y0 - y2) * (gx - x2)
            inside = ((e0 >= 0) & (e1 >= 0) & (e2 >= 0)) | ((e0 <= 0) & (e1 <= 0) & (e2 <= 0))
            cov += inside.mean()
        frags = cov * S * S
        vao, vbo, nv = make_vao(v.reshape(-1, 6), [(0, 2, 0), (1, 4, 2)])
        p = Prog([(GL.GL_VERTEX_SHADER, self.hdr_gfx + """
layout(location=0) in vec2 a_pos;
layout(location=1) in vec4 a_col;
out vec4 v_col;
void main(){ v_col = a_col; gl_Position = vec4(a_pos, 0.0, 1.0); }
"""), (GL.GL_FRAGMENT_SHADER, self.hdr_gfx + """
in vec4 v_col;
out vec4 o;
void main(){ o = v_col; }
""")])
        p.use()
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        GL.glBindVertexArray(vao)

        def frame(i):
            GL.glClearColor(0, 0, 0, 1)
            GL.glClear(GL.GL_COLOR_BUFFER_BIT)
            GL.glDrawArrays(GL.GL_TRIANGLES, 0, nv)
        rec = self.timed("tris_big_overdraw", frame, self.a.frames,
                         work={"mfrag_per_s": (frags, 1e6)})
        GL.glDisable(GL.GL_BLEND)
        GL.glDeleteBuffers(1, [vbo])
        return rec

    # -- g. compute: SAXPY z = a*x + y over N floats in SSBOs
    def w_compute(self):
        ver = GL.glGetString(GL.GL_VERSION).decode()
        N = self.a.compute_n
        LS = 128  # GLES 3.1 guarantees >=128 invocations per work group
        try:
            p = Prog([(GL.GL_COMPUTE_SHADER, self.hdr_cs + """
layout(local_size_x = %d) in;
layout(std430, binding = 0) readonly buffer BX { float x[]; };
layout(std430, binding = 1) readonly buffer BY { float y[]; };
layout(std430, binding = 2) writeonly buffer BZ { float z[]; };
uniform float u_a;
uniform uint u_n;
void main(){
  uint i = gl_GlobalInvocationID.x;
  if (i < u_n) z[i] = u_a * x[i] + y[i];
}
""" % LS)])
        except Exception as e:  # no compute support
            print(json.dumps({"name": "compute", "skipped": str(e)[:200], "gl_version": ver}), flush=True)
            return
        rng = np.random.default_rng(self.a.seed + 7)
        x = rng.standard_normal(N, dtype=np.float32)
        y = rng.standard_normal(N, dtype=np.float32)
        A = np.float32(2.5)
        bufs = GL.glGenBuffers(3)
        for b, arr in zip(bufs, (x, y, None)):
            GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, b)
            GL.glBufferData(GL.GL_SHADER_STORAGE_BUFFER, N * 4, arr, GL.GL_DYNAMIC_DRAW)
        for i, b in enumerate(bufs):
            GL.glBindBufferBase(GL.GL_SHADER_STORAGE_BUFFER, i, b)
        p.use()
        GL.glUniform1f(p.loc("u_a"), float(A))
        GL.glUniform1ui(p.loc("u_n"), N)
        groups = (N + LS - 1) // LS
        # PyOpenGL's GL module version-gates GL 4.3 entry points against the context's
        # version string, so under a GLES 3.1+ context use the GLES3 module's wrappers.
        dispatch, barrier = GL.glDispatchCompute, GL.glMemoryBarrier
        if not bool(dispatch):
            from OpenGL import GLES3
            dispatch, barrier = GLES3.glDispatchCompute, GLES3.glMemoryBarrier

        def frame(i):
            dispatch(groups, 1, 1)
            barrier(GL.GL_SHADER_STORAGE_BARRIER_BIT)

        def checksum():
            barrier(GL.GL_BUFFER_UPDATE_BARRIER_BIT)
            GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, bufs[2])
            ptr = GL.glMapBufferRange(GL.GL_SHADER_STORAGE_BUFFER, 0, N * 4, GL.GL_MAP_READ_BIT)
            z = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)), shape=(N,)).copy()
            GL.glUnmapBuffer(GL.GL_SHADER_STORAGE_BUFFER)
            ref = A * x + y
            return {"sha256": hashlib.sha256(z.tobytes()).hexdigest()[:16],
                    "sum": float(z.astype(np.float64).sum()),
                    "max_abs_err_vs_numpy": float(np.abs(z - ref).max())}
        self.timed("compute", frame, self.a.dispatches,
                   work={"gflops": (2 * N, 1e9), "gbytes_per_s": (12 * N, 1e9),
                         "melem_per_s": (N, 1e6)},
                   checksum=checksum)
        GL.glDeleteBuffers(3, bufs)

    # -- h. readback: glReadPixels RGBA8
    def w_readback(self):
        S = self.S
        GL.glClearColor(0.1, 0.2, 0.3, 0.4)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT)
        GL.glFinish()

        def frame(i):
            GL.glReadPixels(0, 0, S, S, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, self.pix)
        self.timed("readback", frame, self.a.readback_frames,
                   work={"mpix_per_s": (S * S, 1e6), "gbytes_per_s": (S * S * 4, 1e9)})


WORKLOADS = ["clear", "fill_simple", "fill_alu", "tex", "tris_small",
             "tris_big_overdraw", "compute", "readback"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--api", choices=["gles", "gl"], default="gles")
    ap.add_argument("--size", type=int, default=1024, help="FBO width=height (pixels)")
    ap.add_argument("--frames", type=int, default=10, help="timed frames for draw workloads b-f")
    ap.add_argument("--warmup-frames", type=int, default=1,
                    help="untimed frames before the timed ones (the first is reported as first_frame_s)")
    ap.add_argument("--clear-frames", type=int, default=50)
    ap.add_argument("--readback-frames", type=int, default=10)
    ap.add_argument("--dispatches", type=int, default=10)
    ap.add_argument("--compute-n", type=int, default=4 * 1024 * 1024)
    ap.add_argument("--tris", type=int, default=20000)
    ap.add_argument("--tri-area", type=float, default=10.0, help="pixels per small triangle")
    ap.add_argument("--overdraw-tris", type=int, default=100)
    ap.add_argument("--tex-size", type=int, default=256)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--max-seconds", type=float, default=30.0,
                    help="stop a timed loop early after this many seconds")
    ap.add_argument("--pipelined", action="store_true",
                    help="glFlush between frames instead of glFinish (glFinish still ends the timer)")
    ap.add_argument("--dump", default=None,
                    help="directory to save each workload's final image as <name>.npy (for per-pixel diffs)")
    ap.add_argument("--only", default=",".join(WORKLOADS), help="comma list of workloads")
    args = ap.parse_args()

    t0 = time.perf_counter()
    dpy, ctx, surf, how = create_context(args.api)
    t_ctx = time.perf_counter() - t0
    b = Bench(args)
    info = {"name": "_info",
            "renderer": GL.glGetString(GL.GL_RENDERER).decode(),
            "version": GL.glGetString(GL.GL_VERSION).decode(),
            "glsl": GL.glGetString(GL.GL_SHADING_LANGUAGE_VERSION).decode(),
            "api": args.api, "egl": how, "size": args.size,
            "context_s": t_ctx, "import_s": t0 - T_PROC0,
            "python": platform.python_version(), "numpy": np.__version__,
            "pyopengl": OpenGL.__version__,
            "env": {k: os.environ.get(k) for k in ("GALLIUM_DRIVER", "LP_NUM_THREADS", "PYOPENGL_PLATFORM")},
            "pipelined": args.pipelined}
    print(json.dumps(info), flush=True)
    for w in args.only.split(","):
        w = w.strip()
        if w:
            getattr(b, "w_" + w)()
    EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
    EGL.eglDestroyContext(dpy, ctx)
    EGL.eglTerminate(dpy)


if __name__ == "__main__":
    main()
