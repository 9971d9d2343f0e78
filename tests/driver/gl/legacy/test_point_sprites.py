"""Point sprites in the compatibility profile (GL 2.1 section 3.4.1):
GL_COORD_REPLACE per texture unit in the fixed-function stage,
GL_POINT_SPRITE_COORD_ORIGIN, and gl_PointCoord in GLSL 1.20 programs,
against the sprite coordinates worked out here; the `point_sprites`
program is also compared with llvmpipe in test_render."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.legacy import features

N = 32
SIZE = 12


def sprite_context():
    ctx = driver.Context(api="compat", width=N, height=N)
    features._texture(ctx, features.SPRITE_TEXELS, E.GL_RGBA, E.GL_RGBA)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glPointSize(float(SIZE))
    return ctx


def expected_sprite(upper_left: bool) -> np.ndarray:
    """(SIZE, SIZE, 3) rows bottom-up: texel (floor(4 s), floor(4 t)) with
    s = (x + 1/2) / SIZE and t from the chosen origin."""
    k = (np.arange(SIZE) + 0.5) / SIZE
    s = k[None, :]
    t = (1 - k[:, None]) if upper_left else k[:, None]
    col = np.floor(s * 4).astype(int).repeat(SIZE, 0)
    row = np.floor(t * 4).astype(int).repeat(SIZE, 1)
    return features.SPRITE_TEXELS[row, col, :3].astype(int)


def draw_point(ctx):
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex2f(0.0, 0.0)                     # window (16, 16): pixels 10..21
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = ctx.read_pixels().astype(int)
    lo = N // 2 - SIZE // 2
    return img[lo:lo + SIZE, lo:lo + SIZE, :3], img


@pytest.mark.parametrize("origin", [E.GL_UPPER_LEFT, E.GL_LOWER_LEFT])
def test_coord_replace_textures_the_sprite(origin):
    ctx = sprite_context()
    ctx.glEnable(E.GL_POINT_SPRITE)
    ctx.glTexEnvi(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE, E.GL_TRUE)
    ctx.glPointParameteri(E.GL_POINT_SPRITE_COORD_ORIGIN, origin)
    sprite, img = draw_point(ctx)
    assert (sprite == expected_sprite(origin == E.GL_UPPER_LEFT)).all()
    assert img[..., :3].astype(bool).any(-1).sum() == SIZE * SIZE


def test_without_coord_replace_the_sprite_takes_the_vertex_coordinate():
    ctx = sprite_context()
    ctx.glEnable(E.GL_POINT_SPRITE)
    ctx.glTexCoord2f(0.6, 0.9)                   # texel (2, 3)
    sprite, _ = draw_point(ctx)
    assert (sprite == features.SPRITE_TEXELS[3, 2, :3]).all()


def test_coord_replace_needs_point_sprite_enabled():
    ctx = sprite_context()
    ctx.glTexEnvi(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE, E.GL_TRUE)
    ctx.glTexCoord2f(0.1, 0.1)
    sprite, _ = draw_point(ctx)
    assert (sprite == features.SPRITE_TEXELS[0, 0, :3]).all()


def test_coord_replace_does_not_touch_other_primitives():
    ctx = sprite_context()
    ctx.glEnable(E.GL_POINT_SPRITE)
    ctx.glTexEnvi(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE, E.GL_TRUE)
    ctx.glTexCoord2f(0.9, 0.1)                   # texel (3, 0)
    ctx.glRectf(-1.0, -1.0, 1.0, 1.0)
    img = ctx.read_pixels().astype(int)
    assert (img[..., :3] == features.SPRITE_TEXELS[0, 3, :3]).all()


def test_coord_replace_state_queries():
    ctx = sprite_context()
    assert ctx.glGetTexEnviv(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE) == [0]
    ctx.glTexEnvi(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE, E.GL_TRUE)
    assert ctx.glGetTexEnviv(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE) == [1]
    ctx.glActiveTexture(E.GL_TEXTURE1)
    assert ctx.glGetTexEnviv(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE) == [0]
    ctx.glPointParameteri(E.GL_POINT_SPRITE_COORD_ORIGIN, E.GL_RGBA)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert ctx.glGetIntegerv(E.GL_POINT_SPRITE_COORD_ORIGIN) in (E.GL_UPPER_LEFT, [E.GL_UPPER_LEFT])


_VS = "void main() { gl_Position = ftransform(); gl_PointSize = 12.0; }"
_FS = """#version 120
uniform sampler2D tex;
void main() { gl_FragColor = texture2D(tex, gl_PointCoord); }
"""


@pytest.mark.parametrize("origin", [E.GL_UPPER_LEFT, E.GL_LOWER_LEFT])
def test_glsl_point_coord_in_the_compatibility_profile(origin):
    ctx = sprite_context()
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, _VS), (E.GL_FRAGMENT_SHADER, _FS)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) in (1, [1]), ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    ctx.glEnable(E.GL_VERTEX_PROGRAM_POINT_SIZE)
    ctx.glEnable(E.GL_POINT_SPRITE)
    ctx.glPointParameteri(E.GL_POINT_SPRITE_COORD_ORIGIN, origin)
    sprite, _ = draw_point(ctx)
    assert (sprite == expected_sprite(origin == E.GL_UPPER_LEFT)).all()


_VS_TEXCOORD = """void main() {
    gl_Position = ftransform();
    gl_PointSize = 12.0;
    gl_TexCoord[0] = vec4(0.9, 0.1, 0.0, 1.0);
    gl_TexCoord[1] = gl_MultiTexCoord1;
}"""
_FS_TEXCOORD = """uniform sampler2D tex;
void main() { gl_FragColor = vec4(texture2D(tex, gl_TexCoord[0].xy).rgb, gl_TexCoord[1].x); }
"""


@pytest.mark.parametrize("origin", [E.GL_UPPER_LEFT, E.GL_LOWER_LEFT])
def test_coord_replace_reaches_gl_texcoord_of_glsl_programs(origin):
    """GL 2.1 section 3.4.1 with a fragment shader: gl_TexCoord[0].st of a
    sprite are its point coordinates (unit 0 replaces), gl_TexCoord[1] keeps
    the vertex's (unit 1 does not), and other primitives keep theirs."""
    ctx = sprite_context()
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, _VS_TEXCOORD), (E.GL_FRAGMENT_SHADER, _FS_TEXCOORD)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    ctx.glEnable(E.GL_VERTEX_PROGRAM_POINT_SIZE)
    ctx.glEnable(E.GL_POINT_SPRITE)
    ctx.glTexEnvi(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE, E.GL_TRUE)
    ctx.glPointParameteri(E.GL_POINT_SPRITE_COORD_ORIGIN, origin)
    ctx.glMultiTexCoord4f(E.GL_TEXTURE1, 0.5, 0.0, 0.0, 1.0)
    sprite, img = draw_point(ctx)
    assert (sprite == expected_sprite(origin == E.GL_UPPER_LEFT)).all()
    lo = N // 2 - SIZE // 2
    assert (img[lo:lo + SIZE, lo:lo + SIZE, 3] == 128).all()
    ctx.glRectf(-1.0, -1.0, -0.5, -0.5)                       # not a point: the vertex's (0.9, 0.1)
    rect = ctx.read_pixels().astype(int)[1:7, 1:7, :3]
    assert (rect == features.SPRITE_TEXELS[0, 3, :3]).all()
