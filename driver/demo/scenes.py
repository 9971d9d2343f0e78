"""The demo's scenes as one ordinary PyOpenGL EGL program.

    python -m driver.demo.scenes SCENE OUT.png SIZE

Run it with the environment of ``shimgl env`` (``shimgl demo`` does) and it talks to
shimgl through the C ABI like any other PyOpenGL program: a surfaceless EGL display,
a GLES 3.1 context, an FBO (RGBA8 + DEPTH24). It prints one JSON line: the scene, the
draws it issued, the kernel's per-queue counters over the scene (read through the
driver loaded in this process, when it is: the ABI embeds in this interpreter) and
the wall time. Without the shimgl environment it runs on whatever EGL the system has
(Mesa's llvmpipe), with no counters."""

from __future__ import annotations

import ctypes
import json
import os
import sys
import time

os.environ.setdefault("PYOPENGL_PLATFORM", "egl")

import numpy as np  # noqa: E402
from OpenGL import EGL, GL, GLES3  # noqa: E402

from driver.agx.demo import FS as CUBE_FS, VS as CUBE_VS, _matrices, cube_vertices  # noqa: E402

EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_OPENGL_ES3_BIT = 0x0040


def _attribs(*vals):
    return (EGL.EGLint * (len(vals) + 1))(*vals, EGL.EGL_NONE)


def make_context():
    dpy = EGL.eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL.EGL_DEFAULT_DISPLAY, None)
    major, minor = EGL.EGLint(), EGL.EGLint()
    if not EGL.eglInitialize(dpy, ctypes.byref(major), ctypes.byref(minor)):
        raise RuntimeError("eglInitialize failed")
    EGL.eglBindAPI(EGL.EGL_OPENGL_ES_API)
    cfg, n = EGL.EGLConfig(), EGL.EGLint()
    EGL.eglChooseConfig(dpy, _attribs(EGL.EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                                      EGL.EGL_RED_SIZE, 8, EGL.EGL_GREEN_SIZE, 8,
                                      EGL.EGL_BLUE_SIZE, 8, EGL.EGL_ALPHA_SIZE, 8),
                        ctypes.byref(cfg), 1, ctypes.byref(n))
    if n.value < 1:
        raise RuntimeError("no EGL config")
    ctx = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT,
                               _attribs(EGL.EGL_CONTEXT_MAJOR_VERSION, 3, EGL.EGL_CONTEXT_MINOR_VERSION, 1))
    if not ctx or not EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, ctx):
        raise RuntimeError("eglCreateContext/eglMakeCurrent failed")
    return dpy, ctx


def program(*stages):
    p = GL.glCreateProgram()
    for kind, src in stages:
        s = GL.glCreateShader(kind)
        GL.glShaderSource(s, src)
        GL.glCompileShader(s)
        if not GL.glGetShaderiv(s, GL.GL_COMPILE_STATUS):
            raise RuntimeError(f"compile failed: {GL.glGetShaderInfoLog(s)}")
        GL.glAttachShader(p, s)
    GL.glLinkProgram(p)
    if not GL.glGetProgramiv(p, GL.GL_LINK_STATUS):
        raise RuntimeError(f"link failed: {GL.glGetProgramInfoLog(p)}")
    GL.glUseProgram(p)
    return p


def fbo(size, samples=0):
    f = GL.glGenFramebuffers(1)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, f)
    for fmt, att in ((GL.GL_RGBA8, GL.GL_COLOR_ATTACHMENT0), (GL.GL_DEPTH_COMPONENT24, GL.GL_DEPTH_ATTACHMENT)):
        rb = GL.glGenRenderbuffers(1)
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb)
        if samples:
            GL.glRenderbufferStorageMultisample(GL.GL_RENDERBUFFER, samples, fmt, size, size)
        else:
            GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, fmt, size, size)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, att, GL.GL_RENDERBUFFER, rb)
    if GL.glCheckFramebufferStatus(GL.GL_FRAMEBUFFER) != GL.GL_FRAMEBUFFER_COMPLETE:
        raise RuntimeError("framebuffer incomplete")
    GL.glViewport(0, 0, size, size)
    return f


def vertices(prog, data, layout, stride):
    GL.glBindVertexArray(GL.glGenVertexArrays(1))
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, GL.glGenBuffers(1))
    GL.glBufferData(GL.GL_ARRAY_BUFFER, data.nbytes, data, GL.GL_STATIC_DRAW)
    for name, n, first in layout:
        loc = GL.glGetAttribLocation(prog, name)
        GL.glVertexAttribPointer(loc, n, GL.GL_FLOAT, GL.GL_FALSE, stride, ctypes.c_void_p(4 * first))
        GL.glEnableVertexAttribArray(loc)


def read(size):
    px = GL.glReadPixels(0, 0, size, size, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE)
    return np.frombuffer(px, np.uint8).reshape(size, size, 4)[::-1].copy()   # top row first


FLAT_VS = """#version 300 es
in vec2 pos; void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
FLAT_FS = """#version 300 es
precision highp float; uniform vec4 col; out vec4 color;
void main() { color = col; }"""

# The blend scene's colours (premultiplied by nothing: SRC_ALPHA, ONE_MINUS_SRC_ALPHA).
BLEND_BG = (0.1, 0.1, 0.2, 1.0)
BLEND_A = (0.9, 0.2, 0.1, 1.0)         # opaque quad, left
BLEND_B = (0.1, 0.5, 0.9, 0.5)         # translucent quad, right, overlapping A


def quad(x0, y0, x1, y1):
    return np.array([x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1], np.float32)


def scene_cube(size, st):
    """Helper 13's lit, textured, depth-tested cube (driver.agx.demo), from PyOpenGL."""
    p = program((GL.GL_VERTEX_SHADER, CUBE_VS), (GL.GL_FRAGMENT_SHADER, CUBE_FS))
    vertices(p, cube_vertices(), (("pos", 3, 0), ("nrm", 3, 3), ("uv", 2, 6)), 32)
    checker = np.indices((8, 8)).sum(0) % 2
    texels = np.stack([60 + 180 * checker, 200 - 120 * checker, np.full((8, 8), 90), np.full((8, 8), 255)], -1)
    GL.glBindTexture(GL.GL_TEXTURE_2D, GL.glGenTextures(1))
    GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, 8, 8, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE,
                    np.ascontiguousarray(texels.astype(np.uint8)))
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_NEAREST)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, GL.GL_NEAREST)
    mvp, rot = _matrices(0.6, 1.0)
    GL.glUniformMatrix4fv(GL.glGetUniformLocation(p, "mvp"), 1, GL.GL_FALSE, mvp.T.reshape(-1))
    GL.glUniformMatrix4fv(GL.glGetUniformLocation(p, "rot"), 1, GL.GL_FALSE, rot.T.reshape(-1))
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glClearColor(0.05, 0.05, 0.1, 1.0)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
    GL.glDrawArrays(GL.GL_TRIANGLES, 0, 36)
    st["draws"] += 1
    return "lit, textured (8x8 checker, nearest), depth-tested cube (36 vertices)"


def scene_blend(size, st):
    p = program((GL.GL_VERTEX_SHADER, FLAT_VS), (GL.GL_FRAGMENT_SHADER, FLAT_FS))
    data = np.concatenate([quad(-0.8, -0.6, 0.3, 0.6), quad(-0.3, -0.8, 0.8, 0.4)])
    vertices(p, data, (("pos", 2, 0),), 8)
    GL.glClearColor(*BLEND_BG)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    GL.glEnable(GL.GL_BLEND)
    GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
    loc = GL.glGetUniformLocation(p, "col")
    for i, col in enumerate((BLEND_A, BLEND_B)):
        GL.glUniform4f(loc, *col)
        GL.glDrawArrays(GL.GL_TRIANGLES, 6 * i, 6)
        st["draws"] += 1
    return "alpha blending: a half-transparent blue quad over an opaque red one (SRC_ALPHA, ONE_MINUS_SRC_ALPHA)"


MIP_VS = """#version 300 es
in vec3 pos; in vec2 uv; uniform mat4 mvp; out vec2 v_uv;
void main() { gl_Position = mvp * vec4(pos, 1.0); v_uv = uv; }"""
MIP_FS = """#version 300 es
precision highp float; uniform sampler2D tex; in vec2 v_uv; out vec4 color;
void main() { color = texture(tex, v_uv); }"""


def mip_mvp():
    f, near, far = 1 / np.tan(np.radians(30)), 0.5, 100.0
    proj = np.array([[f, 0, 0, 0], [0, f, 0, 0],
                     [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)], [0, 0, -1, 0]])
    view = np.eye(4)
    view[1, 3] = -1.0           # eye 1 unit above the ground plane y=0
    return (proj @ view).astype(np.float32)


def scene_mipmap(size, st):
    p = program((GL.GL_VERTEX_SHADER, MIP_VS), (GL.GL_FRAGMENT_SHADER, MIP_FS))
    # A ground plane y=0 from z=-1 to z=-60, texture repeated 40 times along it.
    x, z0, z1, r = 20.0, -1.0, -60.0, 40.0
    data = np.array([[-x, 0, z0, 0, 0], [x, 0, z0, r, 0], [x, 0, z1, r, r],
                     [-x, 0, z0, 0, 0], [x, 0, z1, r, r], [-x, 0, z1, 0, r]], np.float32)
    vertices(p, data, (("pos", 3, 0), ("uv", 2, 3)), 20)
    n = 64
    checker = ((np.indices((n, n)) // 8).sum(0) % 2).astype(np.uint8) * 255
    texels = np.stack([checker, checker, checker, np.full((n, n), 255, np.uint8)], -1)
    GL.glBindTexture(GL.GL_TEXTURE_2D, GL.glGenTextures(1))
    GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, n, n, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE,
                    np.ascontiguousarray(texels))
    GL.glGenerateMipmap(GL.GL_TEXTURE_2D)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_LINEAR_MIPMAP_LINEAR)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, GL.GL_LINEAR)
    GL.glUniformMatrix4fv(GL.glGetUniformLocation(p, "mvp"), 1, GL.GL_FALSE, mip_mvp().T.reshape(-1))
    GL.glClearColor(0.3, 0.5, 0.8, 1.0)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
    GL.glDrawArrays(GL.GL_TRIANGLES, 0, 6)
    st["draws"] += 1
    return ("a mipmapped checkerboard (64x64, glGenerateMipmap, trilinear) on a ground plane "
            "in perspective: sharp near, grey towards the horizon")


COMPUTE_CS = """#version 310 es
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) writeonly buffer Img { uint px[]; };
uniform uint width;
void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    uvec4 c = uvec4((p.x ^ p.y) & 255u, (p.x * p.y) & 255u, (2u * (p.x + p.y)) & 255u, 255u);
    px[p.y * width + p.x] = c.r | (c.g << 8) | (c.b << 16) | (c.a << 24);
}"""


def compute_reference(size: int) -> np.ndarray:
    """The compute scene's image as numpy computes it (rows in GL order: y up)."""
    y, x = np.indices((size, size))
    return np.stack([(x ^ y) & 255, (x * y) & 255, (2 * (x + y)) & 255, np.full_like(x, 255)], -1).astype(np.uint8)


def scene_compute(size, st):
    # The pixels go to a shader storage buffer (packed RGBA8) that the program maps:
    # imageStore to an RGBA8 texture from glTexStorage2D faults on shimgl for now
    # (the texture gets a compressed render-target layout; images cannot use it).
    p = program((GL.GL_COMPUTE_SHADER, COMPUTE_CS))
    GL.glUniform1ui(GL.glGetUniformLocation(p, "width"), size)
    buf = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, buf)
    GL.glBufferData(GL.GL_SHADER_STORAGE_BUFFER, size * size * 4, None, GL.GL_DYNAMIC_READ)
    GL.glBindBufferBase(GL.GL_SHADER_STORAGE_BUFFER, 0, buf)
    GLES3.glDispatchCompute(size // 8, size // 8, 1)
    GLES3.glMemoryBarrier(GL.GL_BUFFER_UPDATE_BARRIER_BIT)
    st["draws"] += 1
    ptr = GL.glMapBufferRange(GL.GL_SHADER_STORAGE_BUFFER, 0, size * size * 4, GL.GL_MAP_READ_BIT)
    px = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_uint8)), shape=(size * size * 4,)).copy()
    GL.glUnmapBuffer(GL.GL_SHADER_STORAGE_BUFFER)
    st["image"] = px.reshape(size, size, 4)[::-1].copy()
    return ("an image written by a compute shader (8x8 work groups, to a mapped storage buffer): "
            "R = x^y, G = x*y, B = 2(x+y) mod 256")


MSAA_SAMPLES = 4


def scene_msaa(size, st):
    p = program((GL.GL_VERTEX_SHADER, FLAT_VS), (GL.GL_FRAGMENT_SHADER, FLAT_FS))
    ms = fbo(size, MSAA_SAMPLES)
    data = np.array([-0.9, -0.9, 0.9, -0.6, -0.2, 0.9], np.float32)   # slanted edges
    vertices(p, data, (("pos", 2, 0),), 8)
    GL.glClearColor(0, 0, 0, 1)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
    GL.glUniform4f(GL.glGetUniformLocation(p, "col"), 1, 1, 1, 1)
    GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3)
    st["draws"] += 1
    resolved = fbo(size)
    GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, ms)
    GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, resolved)
    GL.glBlitFramebuffer(0, 0, size, size, 0, 0, size, size, GL.GL_COLOR_BUFFER_BIT, GL.GL_NEAREST)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, resolved)
    return f"a white triangle on black, {MSAA_SAMPLES}x MSAA resolved by glBlitFramebuffer: grey steps along its edges"


SCENES = {"cube": scene_cube, "blend": scene_blend, "mipmap": scene_mipmap,
          "compute": scene_compute, "msaa": scene_msaa}


def _counters():
    """The kernel's per-queue counters of the current context's queue, through the
    driver running in this process (only when the EGL in use is shimgl's)."""
    rt = sys.modules.get("driver.abi.runtime")
    gl = getattr(getattr(rt, "current", None), "gl", None) if rt else None
    if gl is None:
        return None
    pipe = gl.pipe
    return pipe.device.queue_counters(pipe.queue_id)


def main(argv=None) -> int:
    scene, out, size = (argv or sys.argv[1:])[:3]
    size = int(size)
    t0 = time.perf_counter()
    dpy, ctx = make_context()
    t1 = time.perf_counter()
    st = {"draws": 0}
    if scene != "msaa":
        fbo(size)
    before = _counters()
    what = SCENES[scene](size, st)
    GL.glFinish()
    img = st.pop("image") if "image" in st else read(size)
    t2 = time.perf_counter()
    after = _counters()
    from PIL import Image
    Image.fromarray(img, "RGBA").save(out)
    rec = {"scene": scene, "file": out, "what": what, "draws": st["draws"],
           "renderer": GL.glGetString(GL.GL_RENDERER).decode(),
           "gl_error": int(GL.glGetError()), "context_s": t1 - t0, "render_s": t2 - t1}
    if before is not None and after is not None:
        rec["counters"] = {k: after[k] - before[k] for k in after}
    EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
    EGL.eglDestroyContext(dpy, ctx)
    print(json.dumps(rec), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
