"""Compute: images, atomics, shared memory, indirect dispatch, compute -> draw ordering."""

import numpy as np

from tests.driver.agx.glhelp import compute_program, context, program


def test_image_store_then_sample():
    ctx = context(8, 8, api="gles31")
    cs = """#version 310 es
    layout(local_size_x = 4, local_size_y = 4) in;
    layout(rgba8, binding = 0) writeonly uniform highp image2D img;
    void main(){ ivec2 p = ivec2(gl_GlobalInvocationID.xy);
                 imageStore(img, p, vec4(float(p.x) / 7.0, float(p.y) / 7.0, 0.5, 1.0)); }"""
    compute_program(ctx, cs)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(ctx.GL_TEXTURE_2D, 1, ctx.GL_RGBA8, 8, 8)
    ctx.glBindImageTexture(0, tex, 0, False, 0, ctx.GL_WRITE_ONLY, ctx.GL_RGBA8)
    ctx.glDispatchCompute(2, 2, 1)
    ctx.glMemoryBarrier(ctx.GL_TEXTURE_FETCH_BARRIER_BIT)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_READ_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(ctx.GL_READ_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE)), np.uint8)
    img = img.reshape(8, 8, 4).astype(int)
    x = np.round(np.arange(8) / 7 * 255)
    assert np.abs(img[..., 0] - x[None, :]).max() <= 1 and np.abs(img[..., 1] - x[:, None]).max() <= 1
    assert (img[..., 2] == 128).all()


def test_atomics_and_shared_memory():
    ctx = context(8, 8, api="gles31")
    cs = """#version 310 es
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer Out { uint total; uint sums[]; };
    shared uint tmp[64];
    void main(){
        uint i = gl_LocalInvocationIndex;
        tmp[i] = gl_GlobalInvocationID.x;
        barrier();
        if (i == 0u) { uint s = 0u; for (int k = 0; k < 64; k++) s += tmp[k]; sums[gl_WorkGroupID.x] = s; }
        atomicAdd(total, 1u);
    }"""
    compute_program(ctx, cs)
    groups = 5
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_SHADER_STORAGE_BUFFER, buf)
    ctx.glBufferData(ctx.GL_SHADER_STORAGE_BUFFER, 4 * (1 + groups), np.zeros(1 + groups, np.uint32),
                     ctx.GL_DYNAMIC_COPY)
    ctx.glBindBufferBase(ctx.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glDispatchCompute(groups, 1, 1)
    view = ctx.glMapBufferRange(ctx.GL_SHADER_STORAGE_BUFFER, 0, 4 * (1 + groups), ctx.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.uint32)
    ctx.glUnmapBuffer(ctx.GL_SHADER_STORAGE_BUFFER)
    ids = np.arange(64 * groups).reshape(groups, 64)
    assert out[0] == 64 * groups
    assert (out[1:] == ids.sum(axis=1)).all()


def test_indirect_dispatch_and_compute_feeding_a_draw():
    """A compute shader writes vertex positions; a draw reads them as a vertex buffer."""
    ctx = context(16, 16, api="gles31")
    cs = """#version 310 es
    layout(local_size_x = 3) in;
    layout(std430, binding = 0) buffer V { vec2 p[]; };
    void main(){ uint i = gl_GlobalInvocationID.x;
                 p[i] = vec2(i == 1u ? 3.0 : -1.0, i == 2u ? 3.0 : -1.0); }"""
    compute_program(ctx, cs)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_SHADER_STORAGE_BUFFER, vbo)
    ctx.glBufferData(ctx.GL_SHADER_STORAGE_BUFFER, 24, None, ctx.GL_DYNAMIC_COPY)
    ctx.glBindBufferBase(ctx.GL_SHADER_STORAGE_BUFFER, 0, vbo)
    ind = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_DISPATCH_INDIRECT_BUFFER, ind)
    ctx.glBufferData(ctx.GL_DISPATCH_INDIRECT_BUFFER, 12, np.array([1, 1, 1], np.uint32), ctx.GL_STATIC_DRAW)
    ctx.glDispatchComputeIndirect(0)
    ctx.glMemoryBarrier(ctx.GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT)
    p = program(ctx, """#version 310 es
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }""", """#version 310 es
    precision highp float; out vec4 color; void main(){ color = vec4(0.0, 0.0, 1.0, 1.0); }""")
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, vbo)
    loc = ctx.glGetAttribLocation(p, "pos")
    ctx.glVertexAttribPointer(loc, 2, ctx.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(loc)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    assert (ctx.read_pixels() == [0, 0, 255, 255]).all()
