"""Rectangle textures start with MIN_FILTER LINEAR and CLAMP_TO_EDGE wrapping
(GL 4.6 section 8.10 and table 23.18's footnote: they take no mipmaps and no
repeat), so a rectangle texture with one image is complete at once: an ARB
fragment program's TEX ... RECT (piglit fp-fragment-position) and GLSL's
texture2DRect read it without a glTexParameter call."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp


def test_rectangle_texture_defaults_glbind_and_glcreate():
    ctx = glhelp.context(4, 4, api="compat")
    ctx.glBindTexture(E.GL_TEXTURE_RECTANGLE, 5)          # a name never generated (compatibility)
    q = lambda t, p: ctx.glGetTexParameteriv(t, p)[0]     # noqa: E731
    assert q(E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_MIN_FILTER) == E.GL_LINEAR
    for p in (E.GL_TEXTURE_WRAP_S, E.GL_TEXTURE_WRAP_T, E.GL_TEXTURE_WRAP_R):
        assert q(E.GL_TEXTURE_RECTANGLE, p) == E.GL_CLAMP_TO_EDGE
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t2)                 # other targets keep table 23.18's
    assert q(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER) == E.GL_NEAREST_MIPMAP_LINEAR
    assert q(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S) == E.GL_REPEAT
    core = glhelp.context(4, 4, api="gl45")
    (t,) = core.glCreateTextures(E.GL_TEXTURE_RECTANGLE, 1)
    assert core.glGetTextureParameteriv(t, E.GL_TEXTURE_MIN_FILTER) == [E.GL_LINEAR]
    assert core.glGetTextureParameteriv(t, E.GL_TEXTURE_WRAP_T) == [E.GL_CLAMP_TO_EDGE]


def test_arb_fragment_program_reads_a_rectangle_texture_at_the_fragment_position():
    ctx = glhelp.context(8, 8, api="compat")
    ctx.glBindTexture(E.GL_TEXTURE_RECTANGLE, 1)
    img = np.zeros((8, 8, 4), np.uint8)
    img[..., 0] = np.arange(8) * 30                        # red = 30 * x
    img[..., 1] = (np.arange(8) * 20)[:, None]             # green = 20 * y
    img[..., 3] = 255
    ctx.glTexImage2D(E.GL_TEXTURE_RECTANGLE, 0, E.GL_RGBA, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img.tobytes())
    src = b"!!ARBfp1.0\nTEX result.color, fragment.position, texture[0], RECT;\nEND"
    (p,) = ctx.glGenProgramsARB(1)
    ctx.glBindProgramARB(E.GL_FRAGMENT_PROGRAM_ARB, p)
    ctx.glProgramStringARB(E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(src), src)
    ctx.glEnable(E.GL_FRAGMENT_PROGRAM_ARB)
    ctx.glBegin(E.GL_QUADS)
    for v in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex2f(*v)
    ctx.glEnd()
    got = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)
    # fragment (x + 0.5, y + 0.5) samples texel (x, y) exactly (LINEAR at a texel centre)
    assert (got == img).all()
