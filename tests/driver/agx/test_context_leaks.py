"""driver.Context.destroy() gives every buffer back: the window framebuffer,
the GL objects, the upload buffer, the occlusion counters and the queue. The
kernel's arena (read from the mock kernel, as a test may) stays flat over many
contexts once the driver's BO cache holds its working set."""

import pytest

import driver
from driver.gl import enums as E


def _arena_used_B() -> int:
    import drmshim
    return drmshim.default_kernel().arena.used_B


def _work(ctx, api: str) -> None:
    g = ctx.gl
    g.glClearColor(1, 0, 0, 1)
    g.glClear(E.GL_COLOR_BUFFER_BIT)
    tex = g.glGenTextures(1)[0]
    g.glBindTexture(E.GL_TEXTURE_2D, tex)
    g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 64, 64, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                   bytes(64 * 64 * 4))
    if api == "compat":             # immediate mode: the upload buffer, fixed-function programs
        g.glBegin(E.GL_TRIANGLES)
        for x, y in ((0, 0), (1, 0), (0, 1)):
            g.glVertex2f(x, y)
        g.glEnd()
    else:
        prog = g.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, "#version 300 es\nin vec4 p;\n"
                           "void main() { gl_Position = p; }\n"),
                          (E.GL_FRAGMENT_SHADER, "#version 300 es\nprecision mediump float;\n"
                           "out vec4 o;\nvoid main() { o = vec4(1.0); }\n")):
            sh = g.glCreateShader(kind)
            g.glShaderSource(sh, 1, [src])
            g.glCompileShader(sh)
            g.glAttachShader(prog, sh)
        g.glLinkProgram(prog)
        g.glUseProgram(prog)
        buf = g.glGenBuffers(1)[0]
        g.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        g.glBufferData(E.GL_ARRAY_BUFFER, 48, bytes(48), E.GL_STATIC_DRAW)
        g.glVertexAttribPointer(0, 4, E.GL_FLOAT, 0, 0, 0)
        g.glEnableVertexAttribArray(0)
        q = g.glGenQueries(1)[0]        # occlusion counters
        g.glBeginQuery(E.GL_ANY_SAMPLES_PASSED, q)
        g.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        g.glEndQuery(E.GL_ANY_SAMPLES_PASSED)
    assert g.glGetError() == E.GL_NO_ERROR
    ctx.read_pixels(0, 0, 4, 4)


def _usage_over(n: int, api: str, size: int) -> list[int]:
    usage = []
    for _ in range(n):
        ctx = driver.Context(api, size, size)
        _work(ctx, api)
        ctx.destroy()
        usage.append(_arena_used_B())
    return usage


@pytest.mark.parametrize("api", ["gles3", "compat"])
def test_destroyed_contexts_return_their_memory(api):
    usage = _usage_over(12, api, 512)
    # before the fix each 512x512 context kept ~2.3 MiB (window framebuffer), plus
    # 512 KiB of occlusion counters and a 1 MiB upload buffer
    # (the BO cache may free idle BOs meanwhile: usage may drop, never climb)
    assert max(usage[4:]) <= max(usage[:4]), [u >> 10 for u in usage]


def test_destroy_is_idempotent():
    ctx = driver.Context("gles3", 16, 16)
    ctx.destroy()
    ctx.destroy()


@pytest.mark.slow
def test_a_thousand_contexts_with_flat_memory():
    usage = _usage_over(1000, "gles3", 256)
    assert max(usage[10:]) <= max(usage[:10]), [u >> 10 for u in usage[:20]]
