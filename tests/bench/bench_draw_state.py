"""CPU per glDrawArrays when nothing changed between draws: what the GL front
end spends turning unchanged GL state into pipe state (validation, the
framebuffer, the blend / depth-stencil-alpha / rasterizer CSOs, viewport,
scissor, program, samplers, vertex elements) before ``draw_vbo``.

Two pipes: the recording test double (the front end's own cost; the pipe
records and renders nothing) and the whole stack (``driver.Context``: the
front end plus the AGX driver's encoding of each draw; flushed once at the
end, outside the timing). A third row changes the depth function before
every draw of the recording pipe (the state the cache must not skip).

``python -m tests.bench.bench_draw_state [--draws N] [--profile]``."""

from __future__ import annotations

import sys
import time

import numpy as np

VS = """#version 300 es
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v;
void main() { gl_Position = pos; v = col; }
"""
FS = """#version 300 es
precision mediump float;
in vec4 v;
uniform sampler2D tex;
out vec4 o;
void main() { o = v * texture(tex, vec2(0.5)); }
"""


def use_program(ctx, vs: str, fs: str) -> int:
    """Compile, link and use a program of ``vs`` and ``fs`` (the benchmarks' own)."""
    from driver.gl import enums as E
    shaders = []
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        shaders.append(s)
    p = ctx.glCreateProgram()
    for s in shaders:
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _setup(ctx):
    """A program with a texture, one VAO of two arrays, blending and depth on."""
    from driver.gl import enums as E
    p = use_program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    data = np.array([[-1, -1, 0, 1, 1, 0, 0, 1], [1, -1, 0, 1, 0, 1, 0, 1],
                     [0, 1, 0, 1, 0, 0, 1, 1]], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 32, 0)
    ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 32, 16)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnableVertexAttribArray(1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     bytes(range(64)))
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
    assert ctx.glGetError() == 0


def _cpu_us_per_draw(ctx, draws: int, change_state: bool = False) -> float:
    """Process CPU microseconds per glDrawArrays (best of three runs)."""
    from driver.gl import enums as E
    funcs = (E.GL_LESS, E.GL_LEQUAL)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)          # warm: first-use work (variants, caches)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for i in range(draws):
            if change_state:
                ctx.glDepthFunc(funcs[i & 1])
            ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        best = min(best, time.process_time() - start)
        if hasattr(ctx.pipe, "calls"):
            ctx.pipe.calls.clear()
        else:
            ctx.glFinish()
    assert ctx.glGetError() == 0
    return best / draws * 1e6


def _recording_ctx():
    from driver.gl import Context
    from tests.driver.gallium.recording import make_pipe
    _, pipe = make_pipe()
    ctx = Context(pipe, "gles3", 64, 64)
    _setup(ctx)
    return ctx


def _stack_ctx():
    import driver
    ctx = driver.Context(api="gles3", width=64, height=64)
    _setup(ctx)
    return ctx


def run(draws: int = 2000) -> list[tuple[str, float, str]]:
    rows = []
    ctx = _recording_ctx()
    us = _cpu_us_per_draw(ctx, draws)
    rows.append(("glDrawArrays, unchanged state, recording pipe (us CPU)", us, f"{draws} draws"))
    us = _cpu_us_per_draw(ctx, draws, change_state=True)
    rows.append(("glDepthFunc + glDrawArrays, recording pipe (us CPU)", us, f"{draws} draws"))
    ctx = _stack_ctx()
    n = max(1, draws // 4)
    us = _cpu_us_per_draw(ctx, n)
    rows.append(("glDrawArrays, unchanged state, whole stack (us CPU)", us, f"{n} draws, one flush"))
    ctx.destroy()
    return rows


def main(argv: list[str]) -> int:
    draws = int(argv[argv.index("--draws") + 1]) if "--draws" in argv else 2000
    if "--profile" in argv:
        import cProfile
        import pstats
        ctx = _recording_ctx()
        profile = cProfile.Profile()
        profile.runcall(_cpu_us_per_draw, ctx, draws)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        return 0
    for what, value, note in run(draws):
        print(f"{what:<60} {value:>10.1f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
