"""GL_ARB_framebuffer_no_attachments (core in GL 4.3, listed from there and in
compatibility contexts): a framebuffer without attachments rasterises at its
FRAMEBUFFER_DEFAULT_WIDTH/HEIGHT with FRAMEBUFFER_DEFAULT_SAMPLES samples, rounded up
to a count the GPU has (GL 4.6 section 9.2.1; SAMPLES and SAMPLE_BUFFERS report it, as
gl_NumSamples does). Counts by hand: an occlusion query counts samples, so a
full-framebuffer quad passes width * height * samples."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect, link_sources

VS = "#version 140\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }"
FS_SSBO = """#version 140
#extension GL_ARB_sample_shading : require
#extension GL_ARB_shader_storage_buffer_object : require
layout(std140, binding = 0) buffer out_block { int num_samples; };
void main() { num_samples = gl_NumSamples; }"""
FS_EMPTY = "#version 140\nvoid main() { }"
W, H = 6, 5


def _empty_framebuffer(ctx, samples):
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_WIDTH, W)
    ctx.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_HEIGHT, H)
    ctx.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_SAMPLES, samples)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, W, H)
    return fb


def _quad(ctx):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    buf = ctx.glGenBuffers(1)[0]
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)


@pytest.mark.parametrize("requested, used", [(0, 1), (1, 1), (2, 2), (3, 4), (4, 4)])
def test_samples_passed_counts_the_default_sample_count(requested, used):
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        _empty_framebuffer(ctx, requested)
        # as for renderbuffer storage, a request of 0 stays 0 and 1 is the count 1
        assert ctx.glGetIntegerv(E.GL_SAMPLES) == [used if requested else 0]
        assert ctx.glGetIntegerv(E.GL_SAMPLE_BUFFERS) == [int(used > 1)]
        assert ctx.glGetFramebufferParameteriv(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_SAMPLES) == [requested]
        link_sources(ctx, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS_EMPTY)])
        _quad(ctx)
        q = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_SAMPLES_PASSED, q)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glEndQuery(E.GL_SAMPLES_PASSED)
        assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [W * H * used]
        expect(ctx, E.GL_NO_ERROR)


def test_the_shader_sees_the_rounded_up_sample_count():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        _empty_framebuffer(ctx, 3)
        assert ctx.glGetIntegerv(E.GL_SAMPLES) == [4]
        ssbo = ctx.glGenBuffers(1)[0]
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, ssbo)
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 16, bytes(16), E.GL_DYNAMIC_COPY)
        link_sources(ctx, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS_SSBO)])
        _quad(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
        data = bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 4))
        assert np.frombuffer(data, np.int32)[0] == 4


def test_listed_in_gl43_core_and_compatibility_not_before():
    for api, listed in (("gl42", False), ("gl43", True), ("gl46", True), ("compat", True)):
        with driver.Context(api=api, width=4, height=4) as ctx:
            n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
            names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
            assert ("GL_ARB_framebuffer_no_attachments" in names) == listed, api
