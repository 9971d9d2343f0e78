"""Rendering through the whole stack (GL front end -> pipe -> driver.agx -> kernel -> GPU model),
checked against analytic and numpy expectations with piglit-like tolerances (2/255 for 8-bit
channels, pixels near primitive edges excluded)."""

import numpy as np
import pytest

from tests.driver.agx.glhelp import (FS_COLOR, VS_COLOR, barycentric, compute_program, context, exterior,
                                     interior, pixel_centres, program, vertices)

TOL = 2


def test_interpolated_triangle_matches_barycentric_colours():
    ctx = context(64, 48)
    p = program(ctx, VS_COLOR, FS_COLOR)
    tri = [(-0.9, -0.8), (0.8, -0.6), (0.1, 0.9)]
    cols = np.eye(3, 4) + np.array([0, 0, 0, 1])
    data = np.hstack([np.array(tri), np.zeros((3, 1)), np.ones((3, 1)), cols])
    vertices(ctx, p, data, {"pos": (4, 0), "col": (4, 4)}, 8)
    ctx.glClearColor(0.0, 0.0, 0.0, 0.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels().astype(int)
    X, Y = pixel_centres(64, 48)
    w = barycentric(tri, X, Y)
    expect = np.einsum("kyx,kc->yxc", w, cols) * 255
    inside, outside = interior(w), exterior(w)
    assert inside.sum() > 500
    assert np.abs(img[inside] - expect[inside]).max() <= TOL
    assert (img[outside] == 0).all()
    assert ctx.glGetError() == 0


def test_uniforms_matrix_and_indexed_strip():
    ctx = context(32, 32)
    vs = """#version 300 es
    in vec2 pos; uniform mat4 m; uniform vec2 shift;
    void main(){ gl_Position = m * vec4(pos + shift, 0.0, 1.0); }"""
    fs = """#version 300 es
    precision highp float; uniform vec4 tint; out vec4 color;
    void main(){ color = tint; }"""
    p = program(ctx, vs, fs)
    quad = np.array([[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]], np.float32)
    vertices(ctx, p, quad, {"pos": (2, 0)}, 2)
    ibo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ELEMENT_ARRAY_BUFFER, ibo)
    idx = np.array([0, 1, 2, 3], np.uint16)
    ctx.glBufferData(ctx.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx, ctx.GL_STATIC_DRAW)
    scale = np.diag([2.0, 1.0, 1.0, 1.0]).astype(np.float32)      # x doubled
    ctx.glUniformMatrix4fv(ctx.glGetUniformLocation(p, "m"), 1, False, scale.T.reshape(-1))
    ctx.glUniform2f(ctx.glGetUniformLocation(p, "shift"), 0.0, 0.25)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "tint"), 0.0, 1.0, 0.5, 1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawElements(ctx.GL_TRIANGLE_STRIP, 4, ctx.GL_UNSIGNED_SHORT, 0)
    img = ctx.read_pixels()
    # x in [-1, 1] (all columns), y in [-0.25, 0.75] -> rows 12..27
    assert (img[12:28] == [0, 255, 128, 255]).all()
    assert (img[:12] == 0).all() and (img[28:] == 0).all()


@pytest.mark.parametrize("src, dst", [("GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA"), ("GL_ONE", "GL_ONE"),
                                      ("GL_DST_COLOR", "GL_ZERO")])
def test_blending_matches_numpy(src, dst):
    ctx = context(16, 16)
    fs = """#version 300 es
    precision highp float; uniform vec4 c; out vec4 color; void main(){ color = c; }"""
    vs = """#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }"""
    p = program(ctx, vs, fs)
    full = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)
    vertices(ctx, p, full, {"pos": (2, 0)}, 2)
    dst_c = np.array([0.2, 0.4, 0.6, 0.8])
    src_c = np.array([0.9, 0.5, 0.1, 0.25])
    ctx.glClearColor(*dst_c)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(ctx.GL_BLEND)
    ctx.glBlendFunc(getattr(ctx, src), getattr(ctx, dst))
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), *src_c)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels().astype(int)
    d = np.round(dst_c * 255) / 255
    factor = {"GL_SRC_ALPHA": src_c[3], "GL_ONE_MINUS_SRC_ALPHA": 1 - src_c[3], "GL_ONE": 1.0, "GL_ZERO": 0.0,
              "GL_DST_COLOR": d}
    expect = np.clip(src_c * factor[src] + d * factor[dst], 0, 1) * 255
    assert np.abs(img - expect).max() <= TOL, (img[0, 0], expect)


def test_depth_test_keeps_nearest_in_any_order():
    ctx = context(32, 32)
    vs = """#version 300 es
    in vec3 pos; void main(){ gl_Position = vec4(pos, 1.0); }"""
    fs = """#version 300 es
    precision highp float; uniform vec4 c; out vec4 color; void main(){ color = c; }"""
    p = program(ctx, vs, fs)
    near = [[-1, -1, -0.5], [1, -1, -0.5], [-1, 1, -0.5]]      # lower-left half, z = -0.5
    far = [[-1, -1, 0.5], [1, -1, 0.5], [1, 1, 0.5]]            # lower-right half, z = 0.5
    vertices(ctx, p, np.array(near + far, np.float32), {"pos": (3, 0)}, 3)
    ctx.glEnable(ctx.GL_DEPTH_TEST)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT | ctx.GL_DEPTH_BUFFER_BIT)
    loc = ctx.glGetUniformLocation(p, "c")
    ctx.glUniform4f(loc, 0, 0, 1, 1)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 3, 3)                    # far first
    ctx.glUniform4f(loc, 1, 0, 0, 1)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    ctx.glUniform4f(loc, 0, 1, 0, 1)
    ctx.glDepthFunc(ctx.GL_LEQUAL)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 3, 3)                    # far again: passes (equal) only where not near
    img = ctx.read_pixels()
    X, Y = pixel_centres(32, 32)
    in_near = (X + Y < -0.1)
    in_far_only = (X - Y > 0.1) & (X + Y > 0.1)
    assert (img[in_near] == [255, 0, 0, 255]).all()
    assert (img[in_far_only] == [0, 255, 0, 255]).all()


def test_stencil_masks_second_draw():
    ctx = context(32, 32)
    vs = """#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }"""
    fs = """#version 300 es
    precision highp float; uniform vec4 c; out vec4 color; void main(){ color = c; }"""
    p = program(ctx, vs, fs)
    small = [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    full = [[-1, -1], [3, -1], [-1, 3]]
    vertices(ctx, p, np.array(small + full, np.float32), {"pos": (2, 0)}, 2)
    ctx.glClearStencil(0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT | ctx.GL_STENCIL_BUFFER_BIT)
    ctx.glEnable(ctx.GL_STENCIL_TEST)
    ctx.glStencilFunc(ctx.GL_ALWAYS, 1, 0xFF)
    ctx.glStencilOp(ctx.GL_KEEP, ctx.GL_KEEP, ctx.GL_REPLACE)
    ctx.glColorMask(False, False, False, False)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    ctx.glColorMask(True, True, True, True)
    ctx.glStencilFunc(ctx.GL_NOTEQUAL, 1, 0xFF)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), 1, 1, 0, 1)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 6, 3)
    img = ctx.read_pixels()
    assert (img[8:24, 8:24] == 0).all()
    assert (img[:8] == [255, 255, 0, 255]).all() and (img[24:] == [255, 255, 0, 255]).all()


def test_texture_nearest_sampling():
    ctx = context(16, 16)
    vs = """#version 300 es
    in vec2 pos; out vec2 uv; void main(){ uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }"""
    fs = """#version 300 es
    precision highp float; uniform sampler2D t; in vec2 uv; out vec4 color;
    void main(){ color = texture(t, uv); }"""
    p = program(ctx, vs, fs)
    quad = [[-1, -1], [1, -1], [-1, 1], [1, -1], [1, 1], [-1, 1]]
    vertices(ctx, p, np.array(quad, np.float32), {"pos": (2, 0)}, 2)
    texels = np.random.default_rng(3).integers(0, 256, (4, 4, 4), np.uint8)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_RGBA8, 4, 4, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, texels)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_NEAREST)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MAG_FILTER, ctx.GL_NEAREST)
    ctx.glUniform1i(ctx.glGetUniformLocation(p, "t"), 0)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    img = ctx.read_pixels().astype(int)
    expect = np.repeat(np.repeat(texels, 4, 0), 4, 1).astype(int)
    assert np.abs(img - expect).max() <= 1


def test_instancing_with_instance_id():
    ctx = context(32, 8)
    vs = """#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos.x * 0.125 - 0.875 + 0.5 * float(gl_InstanceID), pos.y, 0.0, 1.0); }"""
    fs = """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }"""
    p = program(ctx, vs, fs)
    quad = [[-1, -1], [1, -1], [-1, 1], [1, -1], [1, 1], [-1, 1]]
    vertices(ctx, p, np.array(quad, np.float32), {"pos": (2, 0)}, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArraysInstanced(ctx.GL_TRIANGLES, 0, 6, 4)
    img = ctx.read_pixels()
    # instance i covers x in [-1 + 0.5 i, -0.75 + 0.5 i]: columns 8i .. 8i+3 of 32 -> 4 columns each
    cols = (img[4, :, 0] == 255)
    expect = np.zeros(32, bool)
    for i in range(4):
        expect[8 * i:8 * i + 4] = True
    assert (cols == expect).all(), cols.astype(int)


def test_compute_shader_matches_numpy():
    ctx = context(8, 8, api="gles31")
    cs = """#version 310 es
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer Data { float v[]; };
    uniform float k;
    void main(){ uint i = gl_GlobalInvocationID.x; v[i] = v[i] * k + float(i); }"""
    p = compute_program(ctx, cs)
    n = 256
    data = np.random.default_rng(5).random(n).astype(np.float32)
    ssbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_SHADER_STORAGE_BUFFER, ssbo)
    ctx.glBufferData(ctx.GL_SHADER_STORAGE_BUFFER, data.nbytes, data, ctx.GL_DYNAMIC_COPY)
    ctx.glBindBufferBase(ctx.GL_SHADER_STORAGE_BUFFER, 0, ssbo)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "k"), 3.0)
    ctx.glDispatchCompute(n // 64, 1, 1)
    ctx.glMemoryBarrier(ctx.GL_BUFFER_UPDATE_BARRIER_BIT)
    view = ctx.glMapBufferRange(ctx.GL_SHADER_STORAGE_BUFFER, 0, data.nbytes, ctx.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.float32).copy()
    ctx.glUnmapBuffer(ctx.GL_SHADER_STORAGE_BUFFER)
    assert np.allclose(out, data * 3.0 + np.arange(n), rtol=1e-6)
