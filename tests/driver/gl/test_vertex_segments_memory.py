"""Host memory of a large draw follows the vertex half's segment, not the draw.

The vertex half keeps at most about VERTEX_KEPT_B bytes of setup rows and
coefficient planes (about 100 to 150 bytes per vertex) before the fragment half
renders them; a long draw (sent to the pipe in pieces of 2^16 vertices) then
runs as several segments joined by partial renders. Measured with tracemalloc
(bytes, not time): the same image, and a peak far below the one of keeping
every primitive of the render command. Six pieces: the split run's peak is mostly
the vertex shading of one piece of 2^16 vertices (registers, planes, set-up rows:
~34-38 MB, the same for any number of pieces), the whole run's grows with every
piece (~18 MB each); with four pieces the two were too close to tell apart (0.46
before the triangle set-up moved to C, 0.51 after)."""

from __future__ import annotations

import tracemalloc

import numpy as np

import driver
import drmshim.gpu.pipeline.render as render
import drmshim.gpu.pipeline.repeat as repeat
from driver.gl import enums as E
from driver.gl.draws import MAX_DRAW_PIECE
from tests.driver.gl.helpers import expect

VS = "#version 300 es\nin vec4 pos;\nin vec4 col;\nout vec4 c;\nvoid main() { gl_Position = pos; c = col; }\n"
FS = "#version 300 es\nprecision mediump float;\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"
PIECES = 6
TRIANGLES = PIECES * (MAX_DRAW_PIECE // 3)       # small triangles over a 64 x 64 target, depth-tested


def _draw_large(monkeypatch, kept_B: int):
    """(image, Python-heap peak in bytes, rows kept per segment) of one large draw."""
    monkeypatch.setattr(render, "VERTEX_KEPT_B", kept_B)
    monkeypatch.setattr(repeat, "COMMANDS", 0)          # every command's vertex half runs (counted)
    kept_rows = []
    original = render.next_segment

    def spy(executor, command, tvb):
        original(executor, command, tvb)
        kept_rows.append(0 if tvb.setup is None else len(tvb.setup))

    monkeypatch.setattr(render, "next_segment", spy)
    rng = np.random.default_rng(3)
    with driver.Context("gles3", 64, 64) as ctx:
        g = ctx.gl
        prog = g.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
            sh = g.glCreateShader(kind)
            g.glShaderSource(sh, 1, [src])
            g.glCompileShader(sh)
            g.glAttachShader(prog, sh)
        g.glBindAttribLocation(prog, 0, "pos")
        g.glBindAttribLocation(prog, 1, "col")
        g.glLinkProgram(prog)
        g.glUseProgram(prog)
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        g.glBindBuffer(E.GL_ARRAY_BUFFER, g.glGenBuffers(1)[0])
        centre = rng.uniform(-1, 1, (TRIANGLES, 1, 2))
        xy = (centre + rng.uniform(-0.05, 0.05, (TRIANGLES, 3, 2))).reshape(-1, 2)
        n = len(xy)
        data = np.concatenate([xy, rng.uniform(-0.9, 0.9, (n, 1)), np.ones((n, 1)), rng.uniform(0, 1, (n, 4))],
                              1).astype(np.float32)
        g.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
        del data, xy, centre
        g.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 32, 0)
        g.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 32, 16)
        g.glEnableVertexAttribArray(0)
        g.glEnableVertexAttribArray(1)
        g.glEnable(E.GL_DEPTH_TEST)
        g.glDrawArrays(E.GL_TRIANGLES, 0, 3)          # programs compiled, caches warm
        g.glFinish()
        kept_rows.clear()
        tracemalloc.start()
        try:
            g.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
            g.glDrawArrays(E.GL_TRIANGLES, 0, n)
            image = np.frombuffer(bytes(g.glReadPixels(0, 0, 64, 64, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
            peak_B = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        expect(g, E.GL_NO_ERROR)
        assert g.internal_errors == []
    return image.reshape(64, 64, 4), peak_B, kept_rows


def test_a_large_draw_in_segments_draws_the_same_image_in_less_memory(monkeypatch):
    whole, whole_peak_B, whole_rows = _draw_large(monkeypatch, 1 << 40)
    assert len(whole_rows) == 1 and whole_rows[0] >= TRIANGLES * 0.9       # one segment: every row kept
    assert len(np.unique(whole.reshape(-1, 4), axis=0)) > 500
    split, split_peak_B, split_rows = _draw_large(monkeypatch, 1 << 20)
    np.testing.assert_array_equal(split, whole)
    # a segment per piece of the draw (each piece keeps more than 1 MiB)
    assert len(split_rows) == PIECES and max(split_rows) <= MAX_DRAW_PIECE // 3
    assert sum(split_rows) == whole_rows[0]
    assert split_peak_B < whole_peak_B / 2, (split_peak_B, whole_peak_B)


VS_INSTANCED = """#version 330 core
in vec4 pos;
flat out int instance;
void main() {
    instance = gl_InstanceID;
    float i = float(gl_InstanceID);
    gl_Position = vec4(pos.xy * 0.15 + vec2(mod(i, 13.0) / 6.5 - 0.95, floor(i / 13.0) / 6.5 - 0.95),
                       1.0 - i / 100.0, 1.0);
}
"""
FS_INSTANCED = """#version 330 core
flat in int instance;
out vec4 o;
void main() {
    o = vec4(float(instance % 256) / 255.0, float(gl_PrimitiveID % 256) / 255.0,
             float(gl_PrimitiveID / 256) / 255.0, 1.0);
}
"""


def _draw_instanced(monkeypatch, part_lanes: int, kept_B: int):
    """(image, vertex parts shaded) of 2 triangles x 150 instances, each instance
    placed and coloured by gl_InstanceID, each fragment by gl_PrimitiveID."""
    monkeypatch.setattr(render, "VERTEX_PART_LANES", part_lanes)
    monkeypatch.setattr(render, "VERTEX_KEPT_B", kept_B)
    monkeypatch.setattr(repeat, "COMMANDS", 0)          # every command's vertex half runs (counted)
    parts = []
    original = render.shade_vertices

    def spy(core, memory, draw, heap):
        parts.append((draw.first_instance, draw.instances))
        return original(core, memory, draw, heap)

    monkeypatch.setattr(render, "shade_vertices", spy)
    with driver.Context("gl43", 8, 8) as ctx:
        g = ctx.gl
        fbo = g.glGenFramebuffers(1)[0]
        g.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        rb = g.glGenRenderbuffers(1)[0]
        g.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        g.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 96, 96)
        g.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        g.glViewport(0, 0, 96, 96)
        prog = g.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS_INSTANCED), (E.GL_FRAGMENT_SHADER, FS_INSTANCED)):
            sh = g.glCreateShader(kind)
            g.glShaderSource(sh, 1, [src])
            g.glCompileShader(sh)
            g.glAttachShader(prog, sh)
        g.glBindAttribLocation(prog, 0, "pos")
        g.glLinkProgram(prog)
        g.glUseProgram(prog)
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        g.glBindBuffer(E.GL_ARRAY_BUFFER, g.glGenBuffers(1)[0])
        quad = np.array([-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1], np.float32)
        g.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad.tobytes(), E.GL_STATIC_DRAW)
        g.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        g.glEnableVertexAttribArray(0)
        g.glClearColor(0, 0, 0, 0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        g.glDrawArraysInstanced(E.GL_TRIANGLES, 0, 6, 150)
        image = np.frombuffer(bytes(g.glReadPixels(0, 0, 96, 96, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        expect(g, E.GL_NO_ERROR)
        assert g.internal_errors == []
    return image.reshape(96, 96, 4), parts


def test_a_draw_of_many_instances_in_parts_draws_the_same_image(monkeypatch):
    """Instance ids go on from part to part (and across segments); so do the
    primitive ids the PPP gives the fragment shader."""
    whole, whole_parts = _draw_instanced(monkeypatch, 1 << 16, 64 << 20)
    assert whole_parts == [(0, 150)]
    instances = set(whole[..., 0][whole[..., 3] > 0].tolist())
    assert len(instances) > 140 and max(instances) == 149           # (150 instances, most visible)
    split, split_parts = _draw_instanced(monkeypatch, 6 * 7, 0)      # 7 instances a part, a segment each
    assert split_parts == [(i, min(7, 150 - i)) for i in range(0, 150, 7)]
    np.testing.assert_array_equal(split, whole)
