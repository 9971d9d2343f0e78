"""RGB16F colour attachments (desktop GL: colour-renderable, as in Mesa; VTK's
image-based lighting renders its irradiance and prefiltered cube maps into RGB16F
cube faces, six at once). Values are unclamped floats written by a fragment
shader, read back with glReadPixels and checked against the constants rounded to
half precision by numpy. GLES: RGB16F only with EXT_color_buffer_half_float, and
RGB32F never (GLES 3.2 table 8.10); desktop GL renders both (GL 4.6 table 8.12)."""

import numpy as np
import pytest

from tests.driver.agx.glhelp import context, program, vertices

VS = """#version 150
in vec2 pos;
void main(){ gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 150
out vec4 o[6];
uniform vec3 base;
void main(){ for (int i = 0; i < 6; i++) o[i] = vec4(base * float(i + 1), 1.0); }"""
BASE = np.array([2.5, -1.25, 1000.0], np.float32)
QUAD = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
FACES = 6
SIZE = 8


@pytest.mark.parametrize("internal, dtype", [("GL_RGB16F", np.float16)])
def test_rgb_float_cube_faces_render_unclamped(internal, dtype):
    ctx = context(SIZE, SIZE, "gl45")
    prog = program(ctx, VS, FS)
    vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_CUBE_MAP, tex)
    for face in range(FACES):
        ctx.glTexImage2D(ctx.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, getattr(ctx, internal), SIZE, SIZE, 0,
                         ctx.GL_RGB, ctx.GL_FLOAT, None)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    for face in range(FACES):
        ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0 + face,
                                   ctx.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, tex, 0)
    ctx.glDrawBuffers(FACES, [ctx.GL_COLOR_ATTACHMENT0 + i for i in range(FACES)])
    assert ctx.glCheckFramebufferStatus(ctx.GL_FRAMEBUFFER) == ctx.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, SIZE, SIZE)
    ctx.glUniform3fv(ctx.glGetUniformLocation(prog, "base"), 1, BASE)
    ctx.glDrawArrays(ctx.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == 0
    for face in range(FACES):
        ctx.glReadBuffer(ctx.GL_COLOR_ATTACHMENT0 + face)
        raw = ctx.glReadPixels(0, 0, SIZE, SIZE, ctx.GL_RGB, ctx.GL_FLOAT)
        got = np.frombuffer(raw, np.float32).reshape(SIZE, SIZE, 3)
        expect = (BASE * (face + 1)).astype(dtype).astype(np.float32)
        assert (got == expect).all(), (face, got[0, 0], expect)


@pytest.mark.parametrize("internal, renderable", [("GL_RGB16F", "GL_EXT_color_buffer_half_float"),
                                                  ("GL_RGB32F", None)])
@pytest.mark.parametrize("api", ["gles3", "gl45"])
def test_rgb_float_attachments_follow_the_api(api, internal, renderable):
    ctx = context(SIZE, SIZE, api)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, getattr(ctx, internal), SIZE, SIZE, 0, ctx.GL_RGB, ctx.GL_FLOAT, None)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    complete = ctx.glCheckFramebufferStatus(ctx.GL_FRAMEBUFFER) == ctx.GL_FRAMEBUFFER_COMPLETE
    if api == "gl45":
        assert complete
    else:
        assert complete == (renderable is not None and ctx.api.has_extension(renderable))
