"""The default texture objects (name 0 of each target, GL 4.6 section 8.1) are sampled
like any other: a program never calling glBindTexture uploads into them and draws with
them (piglit texrect_simple_arb_texrect: the quad came out untextured white, as sampling
looked only at named textures bound to the unit). Colours by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import link_sources

GREEN = np.array([0, 255, 0, 255])


def _upload(ctx, target, w, h, rgb):
    img = np.tile(np.asarray(rgb, np.float32), (h, w, 1))
    ctx.glTexImage2D(target, 0, E.GL_RGB, w, h, 0, E.GL_RGB, E.GL_FLOAT, img.tobytes())
    ctx.glTexParameteri(target, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(target, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)


def _quad(ctx, s=1.0, t=1.0):
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)):
        ctx.glTexCoord2f(x * s, y * t)
        ctx.glVertex2f(2 * x - 1, 2 * y - 1)
    ctx.glEnd()


@pytest.mark.parametrize("target, scale", [(E.GL_TEXTURE_2D, (1, 1)), (E.GL_TEXTURE_RECTANGLE, (8, 4))])
def test_fixed_function_samples_the_default_texture(target, scale):
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _upload(ctx, target, 8, 4, (0.0, 1.0, 0.0))
        ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
        ctx.glEnable(target)
        _quad(ctx, *scale)
        assert (ctx.read_pixels().reshape(-1, 4) == GREEN).all()


def test_a_shader_samples_the_default_texture_and_unbinding_returns_to_it():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _upload(ctx, E.GL_TEXTURE_2D, 2, 2, (0.0, 1.0, 0.0))              # into object 0
        named = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, named)
        _upload(ctx, E.GL_TEXTURE_2D, 2, 2, (1.0, 0.0, 0.0))
        link_sources(ctx, [
            (E.GL_VERTEX_SHADER, "#version 120\nattribute vec2 p;\nvarying vec2 uv;\n"
                                 "void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }"),
            (E.GL_FRAGMENT_SHADER, "#version 120\nuniform sampler2D s;\nvarying vec2 uv;\n"
                                   "void main() { gl_FragColor = texture2D(s, uv); }")])
        quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, quad)
        ctx.glEnableVertexAttribArray(0)
        ctx.glDrawArrays(E.GL_TRIANGLE_FAN, 0, 4)
        assert (ctx.read_pixels().reshape(-1, 4) == [255, 0, 0, 255]).all()     # the named texture
        ctx.glBindTexture(E.GL_TEXTURE_2D, 0)
        ctx.glDrawArrays(E.GL_TRIANGLE_FAN, 0, 4)
        assert (ctx.read_pixels().reshape(-1, 4) == GREEN).all()                 # object 0 again
