"""The fixed cost of a tiny draw through the whole stack: what piglit's
tex-miplevel-selection, texelFetch and map-buffer-range tests pay thousands of
times (a one-pixel quad, a uniform changed before each draw, a one-pixel
glReadPixels now and then).

Rows (microseconds per draw, process CPU, so the firmware and GPU threads
count; wall time in the note):
- draws only, one glFinish at the end;
- the same with a one-pixel glReadPixels after every 8th draw (each readback
  waits for the GPU: the cost of a submission, a render pass and a sync);
- draws that each follow a glBufferSubData of the vertex buffer they read, the
  previous draw still unsubmitted (piglit's vbo-subdata-many: 40,000 of them);
- a compatibility context's glBegin/glEnd quad (positions and one texture
  coordinate) through a fragment-only GLSL program sampling a mipmapped texture
  with textureGrad, the texture's base/max level, four sampler parameters and
  two uniforms changed before each (piglit's tex-miplevel-selection: thousands
  of them, its fixed-function vertex stage included).

``python -m tests.bench.bench_tiny_draws [--draws N]``."""

from __future__ import annotations

import sys
import time

import numpy as np

VS = """#version 300 es
layout(location = 0) in vec2 pos;
uniform vec2 offset;
void main() { gl_Position = vec4(pos + offset, 0.0, 1.0); }
"""
FS = """#version 300 es
precision mediump float;
uniform vec4 colour;
out vec4 o;
void main() { o = colour; }
"""

SIZE_PX = 32


def _setup(ctx):
    """A program with two uniforms and a VAO of one quad covering pixel (0, 0)."""
    from driver.gl import enums as E
    from tests.bench.bench_draw_state import use_program
    p = use_program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    px = 2.0 / SIZE_PX                         # one pixel in NDC
    quad = np.array([[-1, -1], [-1 + px, -1], [-1, -1 + px], [-1 + px, -1 + px]], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    assert ctx.glGetError() == 0
    return (ctx.glGetUniformLocation(p, "offset"), ctx.glGetUniformLocation(p, "colour"))


def _measure(ctx, locations, draws: int, readback_every: int, subdata: bool = False) -> tuple[float, float]:
    """(process CPU us, wall us) per draw, best of three runs. Draw i moves the quad
    to pixel (i mod SIZE_PX, i // SIZE_PX mod SIZE_PX) and sets a colour from i;
    ``subdata``: before each draw, glBufferSubData rewrites the quad's first vertex
    (the same bytes: the image does not change)."""
    from driver.gl import enums as E
    offset, colour = locations
    px = 2.0 / SIZE_PX
    first = np.array([-1, -1], np.float32)
    best_cpu = best_wall = float("inf")
    for _ in range(3):
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glFinish()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for i in range(draws):
            x, y = i % SIZE_PX, (i // SIZE_PX) % SIZE_PX
            ctx.glUniform2f(offset, x * px, y * px)
            ctx.glUniform4f(colour, (i & 255) / 255.0, 0.5, 0.25, 1.0)
            if subdata:
                ctx.glBufferSubData(E.GL_ARRAY_BUFFER, 0, first.nbytes, first)
            ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
            if readback_every and i % readback_every == readback_every - 1:
                ctx.glReadPixels(x, y, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
        ctx.glFinish()
        best_cpu = min(best_cpu, time.process_time() - cpu0)
        best_wall = min(best_wall, time.perf_counter() - wall0)
    assert ctx.glGetError() == 0
    return best_cpu / draws * 1e6, best_wall / draws * 1e6


def _check(ctx, locations) -> None:
    """The last draw's colour is at its pixel (the benchmark measures real work)."""
    from driver.gl import enums as E
    offset, colour = locations
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glUniform2f(offset, 3 * 2.0 / SIZE_PX, 5 * 2.0 / SIZE_PX)
    ctx.glUniform4f(colour, 1.0, 0.5, 0.25, 1.0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = np.frombuffer(bytes(ctx.glReadPixels(3, 5, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                        np.uint8)
    assert list(got) == [255, 128, 64, 255], got
    none = np.frombuffer(bytes(ctx.glReadPixels(4, 5, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                         np.uint8)
    assert list(none) == [0, 0, 0, 0], none


def run(draws: int = 400) -> list[tuple[str, float, str]]:
    import driver
    ctx = driver.Context(api="gles3", width=SIZE_PX, height=SIZE_PX)
    locations = _setup(ctx)
    _check(ctx, locations)
    _measure(ctx, locations, 16, 8)                  # warm: variants, caches
    rows = []
    cpu, wall = _measure(ctx, locations, draws, 0)
    rows.append(("tiny draw + 2 uniforms, one glFinish (us CPU/draw)", cpu,
                 f"{draws} draws, wall {wall:.0f} us/draw"))
    cpu, wall = _measure(ctx, locations, draws, 8)
    rows.append(("tiny draw + 2 uniforms, 1-px glReadPixels each 8 (us CPU/draw)", cpu,
                 f"{draws} draws, wall {wall:.0f} us/draw"))
    cpu, wall = _measure(ctx, locations, draws, 0, subdata=True)
    rows.append(("tiny draw + 2 uniforms after glBufferSubData of its VBO (us CPU/draw)", cpu,
                 f"{draws} draws, wall {wall:.0f} us/draw"))
    ctx.destroy()
    cpu, wall = _measure_immediate(draws)
    rows.append(("compat glBegin/glEnd quad, texture + sampler params (us CPU/draw)", cpu,
                 f"{draws} draws, wall {wall:.0f} us/draw"))
    return rows


MIP_FS = """#version 130
uniform sampler2D tex;
uniform vec3 dx, dy;
void main() { gl_FragColor = textureGrad(tex, gl_TexCoord[0].xy, dx.yz, dy.yz); }
"""
MIP_SIZE_PX = 96


def _measure_immediate(draws: int) -> tuple[float, float]:
    """The fourth row: (process CPU us, wall us) per draw, best of three runs. Level
    ``l`` of a 32x32 texture is cleared to grey ``40 * l``; draw ``i`` samples with
    base level ``i % 6`` (max level 5) at a gradient of one texel of level 0, so it
    shows the base level's grey: checked at the last draw's quad."""
    import driver
    from driver.gl import enums as E
    ctx = driver.Context(api="compat", width=MIP_SIZE_PX, height=MIP_SIZE_PX)
    sh = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
    ctx.glShaderSource(sh, 1, [MIP_FS])
    ctx.glCompileShader(sh)
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, sh)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glUniform1i(ctx.glGetUniformLocation(p, "tex"), 0)
    ldx, ldy = ctx.glGetUniformLocation(p, "dx"), ctx.glGetUniformLocation(p, "dy")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 6, E.GL_RGBA8, 32, 32)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for level in range(6):
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, level)
        ctx.glClearColor(40 * level / 255, 40 * level / 255, 40 * level / 255, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    ctx.glDeleteFramebuffers(1, [fb])
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrtho(0, MIP_SIZE_PX, 0, MIP_SIZE_PX, -1, 1)
    ctx.glMatrixMode(E.GL_MODELVIEW)
    (samp,) = ctx.glGenSamplers(1)
    ctx.glBindSampler(0, samp)
    ctx.glSamplerParameteri(samp, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    per_row = MIP_SIZE_PX // 3

    def draw(i: int) -> None:
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_BASE_LEVEL, i % 6)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_LEVEL, 5)
        ctx.glSamplerParameterf(samp, E.GL_TEXTURE_MIN_LOD, -1000.0)
        ctx.glSamplerParameterf(samp, E.GL_TEXTURE_MAX_LOD, 1000.0)
        ctx.glSamplerParameterf(samp, E.GL_TEXTURE_LOD_BIAS, 0.0)
        ctx.glSamplerParameteri(samp, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
        ctx.glUniform3f(ldx, 0.0, 1 / 32, 0.0)
        ctx.glUniform3f(ldy, 0.0, 1 / 32, 0.0)
        x, y = (i % per_row) * 3, (i // per_row % per_row) * 3
        ctx.glBegin(E.GL_QUADS)
        for vx, vy in ((x, y), (x + 3, y), (x + 3, y + 3), (x, y + 3)):
            ctx.glTexCoord2f(0.5, 0.5)
            ctx.glVertex2f(vx, vy)
        ctx.glEnd()

    for i in range(6):                               # warm: variants, caches
        draw(i)
    ctx.glFinish()
    best_cpu = best_wall = float("inf")
    for _ in range(3):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for i in range(draws):
            draw(i)
        ctx.glFinish()
        best_cpu = min(best_cpu, time.process_time() - cpu0)
        best_wall = min(best_wall, time.perf_counter() - wall0)
    i = draws - 1
    x, y = (i % per_row) * 3, (i // per_row % per_row) * 3
    got = np.frombuffer(bytes(ctx.glReadPixels(x + 1, y + 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert list(got[:3]) == [40 * (i % 6)] * 3, got
    assert ctx.glGetError() == 0
    ctx.destroy()
    return best_cpu / draws * 1e6, best_wall / draws * 1e6


def main(argv: list[str]) -> int:
    draws = int(argv[argv.index("--draws") + 1]) if "--draws" in argv else 400
    for what, value, note in run(draws):
        print(f"{what:<66} {value:>10.1f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
