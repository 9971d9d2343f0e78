"""Vertex streams of the geometry stage (GL_ARB_gpu_shader5, GL_ARB_transform_feedback3;
GL 4.6 sections 11.3.4.2 and 13.3): EmitStreamVertex / EndStreamPrimitive, layout(stream),
each stream captured to its own transform feedback buffers, only stream 0 rasterised,
indexed queries per stream, glDrawTransformFeedbackStream, and the errors the
specifications name. Expected values are computed by hand from the shaders."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect
from .test_geometry import _shader

VS = """#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS = """#version 150
out vec4 frag;
void main() { frag = vec4(1.0, 0.0, 0.0, 1.0); }
"""
SIMPLE_GS = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
out float x;
void main() { gl_Position = gl_in[0].gl_Position; x = 1.0; EmitVertex(); }
"""


def _ctx(api="gl46", size=8):
    return driver.Context(api=api, width=size, height=size)


def _program(ctx, gs, varyings=None, mode=E.GL_INTERLEAVED_ATTRIBS, vs=VS, fs=FS, link_ok=True):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)):
        if src is not None:
            ctx.glAttachShader(p, _shader(ctx, kind, src))
    if varyings:
        ctx.glTransformFeedbackVaryings(p, len(varyings), varyings, mode)
    ctx.glLinkProgram(p)
    assert bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]) == link_ok, ctx.glGetProgramInfoLog(p)
    return p


# -- GL_ARB_transform_feedback3's limits and varyings errors -------------------------------

def test_max_transform_feedback_buffers_is_queryable_and_reached_by_next_buffer():
    with _ctx() as ctx:
        assert ctx.glGetIntegerv(E.GL_MAX_TRANSFORM_FEEDBACK_BUFFERS)[0] == 4
        expect(ctx, E.GL_NO_ERROR)


def test_special_names_need_interleaved_mode_and_fewer_separators_than_buffers():
    """ARB_transform_feedback3: INVALID_OPERATION for gl_NextBuffer / gl_SkipComponentsN in
    SEPARATE_ATTRIBS mode, and for MAX_TRANSFORM_FEEDBACK_BUFFERS (4) gl_NextBuffer names."""
    with _ctx() as ctx:
        p = _program(ctx, SIMPLE_GS)
        for special in ("gl_NextBuffer", "gl_SkipComponents1", "gl_SkipComponents4"):
            ctx.glTransformFeedbackVaryings(p, 2, ["x", special], E.GL_SEPARATE_ATTRIBS)
            expect(ctx, E.GL_INVALID_OPERATION)
        names = ["a", "gl_NextBuffer", "b", "gl_NextBuffer", "c", "gl_NextBuffer", "d", "gl_NextBuffer", "e"]
        ctx.glTransformFeedbackVaryings(p, len(names), names, E.GL_INTERLEAVED_ATTRIBS)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glTransformFeedbackVaryings(p, 7, names[:7], E.GL_INTERLEAVED_ATTRIBS)      # 3 separators
        expect(ctx, E.GL_NO_ERROR)
