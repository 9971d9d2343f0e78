"""Compatibility profile: the fixed-function vertex stage of a program with only a
fragment shader computes the texture coordinates that shader can read (the texture
matrix product of each), not all eight: one past the highest constant index of
gl_TexCoord[], or the whole array when it is indexed by a variable (Mesa's
fixed-function vertex program likewise writes only what the fragment stage reads).
Every eight-unit product cost piglit's tex-miplevel-selection, a fragment-only program
drawing thousands of quads, most of its vertex shading."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source


def _fragment_only(ctx, fs: str) -> int:
    sh, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert ok, log
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, sh)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    return p


def _vertex_source(ctx) -> str:
    """The fixed-function vertex stage's GLSL of the program linked last."""
    sources = [src for src in ctx.gl._ff_sources.values() if "gl_Position" in src]
    assert sources
    return sources[-1]


@pytest.mark.parametrize("fs, written", [
    ("void main() { gl_FragColor = gl_TexCoord[0]; }", 1),
    ("void main() { gl_FragColor = gl_TexCoord[3] + gl_TexCoord[1]; }", 4),
    ("const int k = 2;\nvoid main() { gl_FragColor = gl_TexCoord[k + 3]; }", 6),
    ("uniform int i;\nvoid main() { gl_FragColor = gl_TexCoord[i]; }", 8),
    ("varying vec4 gl_TexCoord[2];\nuniform int i;\nvoid main() { gl_FragColor = gl_TexCoord[i]; }", 2),
    ("void main() { gl_FragColor = gl_Color; }", 0),
])
def test_the_vertex_stage_writes_the_coordinates_the_fragment_shader_reads(fs, written):
    ctx = driver.Context(api="compat", width=4, height=4)
    _fragment_only(ctx, "#version 110\n" + fs)
    src = _vertex_source(ctx)
    assert [i for i in range(8) if f"gl_TexCoord[{i}] =" in src] == list(range(written))
    ctx.destroy()


def _draw_quad(ctx) -> np.ndarray:
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)


def test_a_constant_index_reads_its_unit_through_its_texture_matrix():
    ctx = driver.Context(api="compat", width=4, height=4)
    ctx.glUseProgram(_fragment_only(ctx, "#version 110\nvoid main() { gl_FragColor = gl_TexCoord[3]; }"))
    ctx.glActiveTexture(E.GL_TEXTURE3)
    ctx.glMatrixMode(E.GL_TEXTURE)
    ctx.glScalef(0.5, 1.0, 1.0)                         # s halved by unit 3's texture matrix
    ctx.glMultiTexCoord4f(E.GL_TEXTURE3, 1.0, 0.25, 0.75, 1.0)
    ctx.glMultiTexCoord4f(E.GL_TEXTURE0, 0.0, 0.0, 0.0, 0.0)
    assert _draw_quad(ctx).tolist() == [128, 64, 191, 255]
    ctx.destroy()


def test_a_variable_index_reads_every_unit():
    ctx = driver.Context(api="compat", width=4, height=4)
    p = _fragment_only(ctx, "#version 110\nuniform int i;\nvoid main() { gl_FragColor = gl_TexCoord[i]; }")
    ctx.glUseProgram(p)
    for unit in range(8):
        ctx.glMultiTexCoord4f(E.GL_TEXTURE0 + unit, unit / 8.0, 0.5, 1.0, 1.0)
    for unit in (0, 5, 7):
        ctx.glUniform1i(ctx.glGetUniformLocation(p, "i"), unit)
        assert _draw_quad(ctx).tolist() == [round(255 * unit / 8.0), 128, 255, 255]
    ctx.destroy()
