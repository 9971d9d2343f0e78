"""GLES user clip distances through GL_APPLE_clip_distance (what piglit's GLES
runners query at start-up: GL_MAX_CLIP_DISTANCES_APPLE shares 0x0D32 with
GL_MAX_CLIP_PLANES)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.driver.agx.glhelp import context, program, vertices

VS = """#version 300 es
#extension GL_APPLE_clip_distance : require
in vec2 pos;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_ClipDistance[0] = pos.x;          /* keeps x >= 0: the right half */
}"""
FS = """#version 300 es
precision highp float;
out vec4 color;
void main() { color = vec4(0.0, 1.0, 0.0, 1.0); }"""


@pytest.mark.parametrize("api", ["gles2", "gles3"])
def test_gles_advertises_and_answers_max_clip_distances(api):
    ctx = context(8, 8, api=api)
    exts = ctx.glGetString(ctx.GL_EXTENSIONS)
    exts = exts.decode() if isinstance(exts, bytes) else exts
    assert "GL_APPLE_clip_distance" in exts.split()
    assert ctx.glGetIntegerv(0x0D32)[0] == 8
    assert ctx.glGetError() == ctx.GL_NO_ERROR
    ctx.glEnable(ctx.GL_CLIP_DISTANCE0 + 7)
    assert ctx.glIsEnabled(ctx.GL_CLIP_DISTANCE0 + 7)
    ctx.glEnable(ctx.GL_CLIP_DISTANCE0 + 8)              # past the limit
    assert ctx.glGetError() == ctx.GL_INVALID_ENUM


def test_gl_clip_distance_needs_the_extension_in_es():
    ctx = context(8, 8)
    s = ctx.glCreateShader(ctx.GL_VERTEX_SHADER)
    ctx.glShaderSource(s, 1, [VS.replace("#extension GL_APPLE_clip_distance : require\n", "")])
    ctx.glCompileShader(s)
    assert not ctx.glGetShaderiv(s, ctx.GL_COMPILE_STATUS)[0]
    assert "gl_ClipDistance" in ctx.glGetShaderInfoLog(s)


def test_clip_distance_clips_the_left_half_only_when_enabled():
    w = h = 32
    ctx = context(w, h)
    prog = program(ctx, VS, FS)
    quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], np.float32)
    vertices(ctx, prog, quad, {"pos": (2, 0)}, 2)
    for enabled in (False, True):
        ctx.glClearColor(0, 0, 0, 1)
        ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
        (ctx.glEnable if enabled else ctx.glDisable)(ctx.GL_CLIP_DISTANCE0)
        ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
        green = ctx.read_pixels()[..., 1] > 128
        assert green[:, w // 2:].all()
        assert green[:, :w // 2].all() == (not enabled)
        assert not green[:, :w // 2 - 1].any() or not enabled
