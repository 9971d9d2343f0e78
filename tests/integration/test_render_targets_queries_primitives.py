"""More rendering: MRT, render-to-texture then sampling (a hazard flush), MSAA resolve,
per-instance attributes, occlusion queries, driver options, primitive types."""

import numpy as np
import pytest

from tests.driver.agx.glhelp import FS_COLOR, VS_COLOR, context, pixel_centres, program, vertices

VS_POS = """#version 300 es
in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }"""
FULL = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)


def _fbo_texture(ctx, w, h, fmt, format_, type_, samples=0):
    if samples:
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(ctx.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorageMultisample(ctx.GL_RENDERBUFFER, samples, fmt, w, h)
        return rb
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, fmt, w, h, 0, format_, type_, None)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_NEAREST)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MAG_FILTER, ctx.GL_NEAREST)
    return tex


def test_mrt_writes_each_target():
    ctx = context(16, 16)
    fs = """#version 300 es
    precision highp float;
    layout(location = 0) out vec4 a; layout(location = 1) out vec4 b;
    void main(){ a = vec4(1.0, 0.0, 0.0, 1.0); b = vec4(0.0, 0.25, 1.0, 0.5); }"""
    p = program(ctx, VS_POS, fs)
    vertices(ctx, p, FULL, {"pos": (2, 0)}, 2)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    ta = _fbo_texture(ctx, 16, 16, ctx.GL_RGBA8, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE)
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, ta, 0)
    tb = _fbo_texture(ctx, 16, 16, ctx.GL_RGBA8, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE)
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT1, ctx.GL_TEXTURE_2D, tb, 0)
    ctx.glDrawBuffers(2, [ctx.GL_COLOR_ATTACHMENT0, ctx.GL_COLOR_ATTACHMENT1])
    assert ctx.glCheckFramebufferStatus(ctx.GL_FRAMEBUFFER) == ctx.GL_FRAMEBUFFER_COMPLETE
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    out = []
    for i in range(2):
        ctx.glReadBuffer(ctx.GL_COLOR_ATTACHMENT0 + i)
        out.append(np.frombuffer(bytes(ctx.glReadPixels(0, 0, 16, 16, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE)), np.uint8))
    assert (out[0].reshape(-1, 4) == [255, 0, 0, 255]).all()
    assert (out[1].reshape(-1, 4) == [0, 64, 255, 128]).all()


def test_render_to_texture_then_sample_it():
    """The second draw samples what the first rendered: the driver flushes the first batch."""
    ctx = context(16, 16)
    p = program(ctx, VS_COLOR, FS_COLOR)
    tri = np.array([[-1, -1, 0, 1, 0.2, 0.6, 1.0, 1], [3, -1, 0, 1, 0.2, 0.6, 1.0, 1], [-1, 3, 0, 1, 0.2, 0.6, 1.0, 1]])
    vertices(ctx, p, tri, {"pos": (4, 0), "col": (4, 4)}, 8)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    tex = _fbo_texture(ctx, 4, 4, ctx.GL_RGBA8, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE)
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    ctx.glViewport(0, 0, 4, 4)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, 0)
    ctx.glViewport(0, 0, 16, 16)
    vs = """#version 300 es
    in vec2 pos; out vec2 uv; void main(){ uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }"""
    fs = """#version 300 es
    precision highp float; uniform sampler2D t; in vec2 uv; out vec4 color;
    void main(){ color = texture(t, uv).bgra; }"""
    p2 = program(ctx, vs, fs)
    vertices(ctx, p2, FULL, {"pos": (2, 0)}, 2)
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    flushes = ctx.pipe.stats["flushes_for_hazards"]
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels().astype(int)
    assert ctx.pipe.stats["flushes_for_hazards"] > flushes or "flush" in ctx.pipe.debug
    assert np.abs(img - [255, 153, 51, 255]).max() <= 1


def test_msaa_renderbuffer_resolve_averages_edge_samples():
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    # a triangle whose hypotenuse crosses pixel centres diagonally
    vertices(ctx, p, np.array([[-1, -1], [1, -1], [-1, 1]], np.float32), {"pos": (2, 0)}, 2)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    rb = _fbo_texture(ctx, 16, 16, ctx.GL_RGBA8, None, None, samples=4)
    ctx.glFramebufferRenderbuffer(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(ctx.GL_FRAMEBUFFER) == ctx.GL_FRAMEBUFFER_COMPLETE
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    ctx.glBindFramebuffer(ctx.GL_READ_FRAMEBUFFER, fbo)
    ctx.glBindFramebuffer(ctx.GL_DRAW_FRAMEBUFFER, 0)
    ctx.glBlitFramebuffer(0, 0, 16, 16, 0, 0, 16, 16, ctx.GL_COLOR_BUFFER_BIT, ctx.GL_NEAREST)
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, 0)
    img = ctx.read_pixels()[..., 0].astype(int)
    X, Y = pixel_centres(16, 16)
    assert (img[X + Y < -0.2] == 255).all() and (img[X + Y > 0.2] == 0).all()
    diag = img[np.abs(X + Y) < 0.01]
    assert ((diag > 0) & (diag < 255)).all(), diag           # partly covered: resolved to a mix


def test_per_instance_attribute_divisor():
    ctx = context(32, 8)
    vs = """#version 300 es
    in vec2 pos; in float off; in vec4 col; out vec4 v;
    void main(){ gl_Position = vec4(pos.x * 0.125 - 0.875 + off, pos.y, 0.0, 1.0); v = col; }"""
    fs = """#version 300 es
    precision highp float; in vec4 v; out vec4 color; void main(){ color = v; }"""
    p = program(ctx, vs, fs)
    quad = [[-1, -1], [1, -1], [-1, 1], [1, -1], [1, 1], [-1, 1]]
    vertices(ctx, p, np.array(quad, np.float32), {"pos": (2, 0)}, 2)
    inst = np.array([[0.0, 1, 0, 0, 1], [0.5, 0, 1, 0, 1], [1.0, 0, 0, 1, 1], [1.5, 1, 1, 1, 1]], np.float32)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(ctx.GL_ARRAY_BUFFER, inst.nbytes, inst, ctx.GL_STATIC_DRAW)
    for name, n, first in (("off", 1, 0), ("col", 4, 1)):
        loc = ctx.glGetAttribLocation(p, name)
        ctx.glVertexAttribPointer(loc, n, ctx.GL_FLOAT, False, 20, 4 * first)
        ctx.glEnableVertexAttribArray(loc)
        ctx.glVertexAttribDivisor(loc, 1)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArraysInstanced(ctx.GL_TRIANGLES, 0, 6, 4)
    img = ctx.read_pixels()
    for i in range(4):
        assert (img[4, 8 * i:8 * i + 4, :3] == inst[i, 1:4] * 255).all()
        assert (img[4, 8 * i + 4:8 * i + 8] == 0).all()


def test_occlusion_query_counts_samples():
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    half = np.array([[-1, -1], [0, -1], [-1, 1], [0, -1], [0, 1], [-1, 1]], np.float32)
    vertices(ctx, p, half, {"pos": (2, 0)}, 2)
    q = ctx.glGenQueries(1)[0]
    ctx.glBeginQuery(ctx.GL_ANY_SAMPLES_PASSED, q)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    ctx.glEndQuery(ctx.GL_ANY_SAMPLES_PASSED)
    assert ctx.glGetQueryObjectuiv(q, ctx.GL_QUERY_RESULT)[0] == 1
    ctx.glEnable(ctx.GL_SCISSOR_TEST)
    ctx.glScissor(12, 0, 4, 16)
    ctx.glBeginQuery(ctx.GL_ANY_SAMPLES_PASSED, q)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    ctx.glEndQuery(ctx.GL_ANY_SAMPLES_PASSED)
    assert ctx.glGetQueryObjectuiv(q, ctx.GL_QUERY_RESULT)[0] == 0


@pytest.mark.parametrize("option", ["sync", "flush"])
def test_debug_options_give_the_same_image(monkeypatch, option):
    monkeypatch.setenv("SHIMGL_DEBUG", option)
    from driver.agx.pipe import AgxScreen
    import driver.agx.face as face
    screen = AgxScreen()
    monkeypatch.setattr(face, "_screens", {"/dev/dri/renderD128": screen})
    ctx = context(16, 16)
    assert option in ctx.pipe.debug
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(0.0, 1.0, 0.0, 1.0); }""")
    vertices(ctx, p, np.array([[-1, -1], [1, -1], [-1, 1], [1, -1], [1, 1], [-1, 1]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    submits = ctx.pipe.stats["submits"]
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 3, 3)
    if option == "flush":
        assert ctx.pipe.stats["submits"] == submits + 1          # every draw flushed
    img = ctx.read_pixels()
    assert (img == [0, 255, 0, 255]).all()


@pytest.mark.parametrize("mode, n, covered", [("GL_TRIANGLE_FAN", 4, 1.0), ("GL_LINES", 2, None),
                                             ("GL_POINTS", 1, None)])
def test_primitive_types(mode, n, covered):
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    if mode == "GL_TRIANGLE_FAN":
        v = [[-1, -1], [1, -1], [1, 1], [-1, 1]]
    elif mode == "GL_LINES":
        v = [[-1, 0.0625], [1, 0.0625]]                 # along the centres of row 8
    else:
        v = [[0.0625, 0.0625]]                          # centre of pixel (8, 8)
    vertices(ctx, p, np.array(v, np.float32), {"pos": (2, 0)}, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(getattr(ctx, mode), 0, n)
    img = ctx.read_pixels()[..., 0]
    if covered:
        assert (img == 255).all()
    elif mode == "GL_LINES":
        assert (img[8] == 255).all() and img.sum() == 255 * 16
    else:
        assert img[8, 8] == 255 and img.sum() == 255


def test_indirect_and_multi_draws():
    ctx = context(16, 16, api="gles31")
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0, 0.5, 0.0, 1.0); }""")
    left = [[-1, -1], [0, -1], [-1, 1], [0, -1], [0, 1], [-1, 1]]
    vertices(ctx, p, np.array(left, np.float32), {"pos": (2, 0)}, 2)
    cmd = np.array([3, 1, 3, 0], np.uint32)              # count, instances, first, base instance
    ind = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_DRAW_INDIRECT_BUFFER, ind)
    ctx.glBufferData(ctx.GL_DRAW_INDIRECT_BUFFER, cmd.nbytes, cmd, ctx.GL_STATIC_DRAW)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArraysIndirect(ctx.GL_TRIANGLES, 0)
    img = ctx.read_pixels()
    X, Y = np.meshgrid(np.arange(16) + 0.5, np.arange(16) + 0.5)
    edge = X + Y / 2 - 8                  # the second triangle: (8, 0), (8, 16), (0, 16) in pixels
    assert (img[(X < 8) & (edge > 0.5)] == [255, 128, 0, 255]).all()
    assert (img[X > 8] == 0).all() and (img[edge < -0.5] == 0).all()


def test_invalidate_skips_depth_store_and_colour_load():
    ctx = context(16, 16, api="gles3")
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(0.0, 1.0, 0.0, 1.0); }""")
    vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glEnable(ctx.GL_DEPTH_TEST)
    ctx.glClearDepthf(0.5)
    ctx.glClear(ctx.GL_DEPTH_BUFFER_BIT)
    ctx.glFinish()                                   # depth 0.5 stored
    ctx.glClearDepthf(1.0)
    ctx.glClear(ctx.GL_DEPTH_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)         # z = 0 -> 0.5 in window space: passes LESS 1.0
    ctx.glInvalidateFramebuffer(ctx.GL_FRAMEBUFFER, 1, [ctx.GL_DEPTH])
    assert (ctx.read_pixels() == [0, 255, 0, 255]).all()
    from driver.gallium import Box, PipeMap
    # the depth of the second frame was not stored: the buffer still holds the first clear
    tr = ctx.pipe.transfer_map(ctx.gl.window.depth_stencil, 0, PipeMap.READ, Box(0, 0, 0, 16, 16))
    z = np.frombuffer(bytes(tr.data), np.uint32) & 0xFFFFFF
    assert (z == round(0.5 * 0xFFFFFF)).all()


def test_buffer_subdata_on_a_busy_buffer_is_shadowed_and_ordered():
    """The draw recorded before the write reads the old bytes, the one after it the
    new ones, in one render pass: the buffer got fresh memory (no flush, no GPU copy)."""
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    left = np.array([[-1, -1], [0, -1], [-1, 1], [0, -1], [0, 1], [-1, 1]], np.float32)
    vertices(ctx, p, np.vstack([left, left]), {"pos": (2, 0)}, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)                    # reads the buffer (batch not submitted)
    submits = ctx.pipe.stats["submits"]
    right = left + np.array([1, 0], np.float32)
    ctx.glBufferSubData(ctx.GL_ARRAY_BUFFER, 0, right.nbytes, right)
    assert (ctx.pipe.stats["shadowed_uploads"], ctx.pipe.stats["staged_uploads"]) == (1, 0)
    assert ctx.pipe.stats["submits"] == submits                 # the render batch was not flushed
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    assert (ctx.read_pixels() == 255).all()                     # both halves: old data, then new
    assert ctx.pipe.stats["submits"] == submits + 1             # one render pass for both draws


def test_a_buffer_rewritten_in_use_past_the_shadow_budget_waits_once_and_shadows_again(monkeypatch):
    """piglit vbo-subdata-many's pattern (a draw after each glBufferSubData of the
    buffer it reads) past the shadow budget: the write waits once for the work holding
    the old copies and shadowing starts again; no write falls back to a staged GPU
    copy (a flush and two submissions each) and every draw reads its own bytes."""
    import driver.agx.pipe as agx_pipe
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, -1], [1, 1], [-1, 1]], np.float32)
    columns = [(quad * [1 / 8, 1] + [(2 * i + 1) / 8 - 1, 0]).astype(np.float32)   # 8 columns of 2 px
               for i in range(8)]
    vertices(ctx, p, np.vstack([columns[0], quad]), {"pos": (2, 0)}, 2)     # 96 bytes: 2 x 48
    monkeypatch.setattr(agx_pipe, "MAX_TOTAL_SHADOW_B", 3 * 96)           # three shadows, then a wait
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    for i in range(8):
        if i:
            ctx.glBufferSubData(ctx.GL_ARRAY_BUFFER, 0, 48, columns[i])
        ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    stats = ctx.pipe.stats
    # writes 1-3 shadowed (96 bytes each, budget 288), write 4 waits, writes 5-7 shadowed again
    assert (stats["shadowed_uploads"], stats["shadow_waits"], stats["staged_uploads"]) == (6, 1, 0)
    img = ctx.read_pixels()
    assert (img == 255).all()                                     # all eight columns drawn


def test_buffer_subdata_on_a_buffer_the_gpu_writes_is_staged_and_ordered():
    """A buffer an unsubmitted copy writes is not shadowed (its bytes are not final on
    the CPU): the write is staged and copied on the GPU after the copy."""
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    left = np.array([[-1, -1], [0, -1], [-1, 1], [0, -1], [0, 1], [-1, 1]], np.float32)
    right = left + np.array([1, 0], np.float32)
    vertices(ctx, p, np.vstack([left, left]), {"pos": (2, 0)}, 2)
    (vbo,) = ctx.glGetIntegerv(ctx.GL_ARRAY_BUFFER_BINDING)
    (src,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(ctx.GL_COPY_READ_BUFFER, src)
    ctx.glBufferData(ctx.GL_COPY_READ_BUFFER, right.nbytes * 2, np.vstack([right, right]), ctx.GL_STATIC_DRAW)
    ctx.glBindBuffer(ctx.GL_COPY_WRITE_BUFFER, vbo)
    ctx.glCopyBufferSubData(ctx.GL_COPY_READ_BUFFER, ctx.GL_COPY_WRITE_BUFFER, 0, 0, right.nbytes * 2)
    ctx.glBufferSubData(ctx.GL_ARRAY_BUFFER, 0, left.nbytes, left)    # after the copy: wins
    assert (ctx.pipe.stats["shadowed_uploads"], ctx.pipe.stats["staged_uploads"]) == (0, 1)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    got = ctx.read_pixels()
    assert (got[:, :8] == 255).all() and (got[:, 8:] == 0).all()


@pytest.mark.parametrize("whole", [False, True])
def test_buffer_subdata_on_a_persistently_mapped_busy_buffer_is_seen_through_the_map(whole):
    """A buffer mapped with MAP_PERSISTENT_BIT keeps its memory (the client's pointer):
    a write while a draw reads it is staged (or waits, when it replaces every byte),
    and the map shows the new bytes."""
    ctx = context(16, 16, api="gles31")
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    left = np.array([[-1, -1], [0, -1], [-1, 1], [0, -1], [0, 1], [-1, 1]], np.float32)
    vertices(ctx, p, left, {"pos": (2, 0)}, 2)
    flags = ctx.GL_MAP_READ_BIT | ctx.GL_MAP_WRITE_BIT | ctx.GL_MAP_PERSISTENT_BIT | ctx.GL_DYNAMIC_STORAGE_BIT
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferStorageEXT(ctx.GL_ARRAY_BUFFER, left.nbytes + (0 if whole else 4), None, flags)
    ctx.glBufferSubData(ctx.GL_ARRAY_BUFFER, 0, left.nbytes, left)
    ctx.glVertexAttribPointer(0, 2, ctx.GL_FLOAT, False, 8, 0)
    view = ctx.glMapBufferRange(ctx.GL_ARRAY_BUFFER, 0, left.nbytes, flags & ~ctx.GL_DYNAMIC_STORAGE_BIT)
    ctx.glFinish()
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)                    # reads the buffer (batch not submitted)
    right = left + np.array([1, 0], np.float32)
    ctx.glBufferSubData(ctx.GL_ARRAY_BUFFER, 0, right.nbytes, right)
    assert (ctx.pipe.stats["shadowed_uploads"], ctx.pipe.stats["staged_uploads"]) == (0, 0 if whole else 1)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    assert (ctx.read_pixels() == 255).all()                     # old data, then new
    assert ctx.glGetError() == ctx.GL_NO_ERROR
    np.testing.assert_array_equal(np.frombuffer(view, np.float32).reshape(-1, 2), right)


def test_fence_sync_objects_and_timestamps():
    ctx = context(16, 16, api="gl33")
    ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    sync = ctx.glFenceSync(ctx.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    assert ctx.pipe.stats["submits"] >= 1                       # the fence flushed the work
    r = ctx.glClientWaitSync(sync, ctx.GL_SYNC_FLUSH_COMMANDS_BIT, 5_000_000_000)
    assert r in (ctx.GL_ALREADY_SIGNALED, ctx.GL_CONDITION_SATISFIED)
    ctx.glWaitSync(sync, 0, ctx.GL_TIMEOUT_IGNORED)
    assert ctx.glGetError() == 0
    t0 = ctx.glGetInteger64v(ctx.GL_TIMESTAMP)[0]
    t1 = ctx.glGetInteger64v(ctx.GL_TIMESTAMP)[0]
    assert 0 < t0 <= t1


def test_primitive_restart_and_line_loop():
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    v = np.array([[-1, -1], [0, -1], [-1, 0], [0, 0],          # lower-left quad as a strip
                  [0, 0], [1, 0], [0, 1], [1, 1]], np.float32)    # upper-right quad as a strip
    vertices(ctx, p, v, {"pos": (2, 0)}, 2)
    ibo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ELEMENT_ARRAY_BUFFER, ibo)
    idx = np.array([0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7], np.uint16)
    ctx.glBufferData(ctx.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx, ctx.GL_STATIC_DRAW)
    ctx.glEnable(ctx.GL_PRIMITIVE_RESTART_FIXED_INDEX)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawElements(ctx.GL_TRIANGLE_STRIP, 9, ctx.GL_UNSIGNED_SHORT, 0)
    img = ctx.read_pixels()[..., 0]
    assert (img[:8, :8] == 255).all() and (img[8:, 8:] == 255).all()
    assert (img[:8, 8:] == 0).all() and (img[8:, :8] == 0).all()      # no triangle across the restart
    loop = np.array([[-0.9375, -0.9375], [0.9375, -0.9375], [0.9375, 0.9375], [-0.9375, 0.9375]], np.float32)
    vertices(ctx, p, loop, {"pos": (2, 0)}, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_LINE_LOOP, 0, 4)
    img = ctx.read_pixels()[..., 0]
    assert img[0, 5] == 255 and img[15, 5] == 255 and img[5, 0] == 255 and img[5, 15] == 255   # all 4 edges
    assert (img[2:14, 2:14] == 0).all()


def test_time_elapsed_query_from_command_feedback():
    ctx = context(64, 64, api="gl33")
    p = program(ctx, """#version 330
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }""", """#version 330
    out vec4 color; void main(){ color = vec4(1.0); }""")
    vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"pos": (2, 0)}, 2)
    q = ctx.glGenQueries(1)[0]
    import time
    t0 = time.monotonic_ns()
    ctx.glBeginQuery(ctx.GL_TIME_ELAPSED, q)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    ctx.glEndQuery(ctx.GL_TIME_ELAPSED)
    elapsed = ctx.glGetQueryObjectui64v(q, ctx.GL_QUERY_RESULT)[0]
    wall = time.monotonic_ns() - t0
    assert 0 < elapsed <= wall


def _msaa_fbo(ctx, w, h):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(ctx.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(ctx.GL_RENDERBUFFER, 4, ctx.GL_RGBA8, w, h)
    ctx.glFramebufferRenderbuffer(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_RENDERBUFFER, rb)
    return fbo


def _resolve(ctx, fbo, w, h):
    ctx.glBindFramebuffer(ctx.GL_READ_FRAMEBUFFER, fbo)
    ctx.glBindFramebuffer(ctx.GL_DRAW_FRAMEBUFFER, 0)
    ctx.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, ctx.GL_COLOR_BUFFER_BIT, ctx.GL_NEAREST)
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, 0)
    return ctx.read_pixels()


def test_msaa_sample_mask_and_alpha_to_coverage():
    ctx = context(8, 8, api="gles31")
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; uniform float a; out vec4 color; void main(){ color = vec4(1.0, 1.0, 1.0, a); }""")
    vertices(ctx, p, FULL, {"pos": (2, 0)}, 2)
    fbo = _msaa_fbo(ctx, 8, 8)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "a"), 1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(ctx.GL_SAMPLE_MASK)
    ctx.glSampleMaski(0, 0b0011)                     # half of the 4 samples
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = _resolve(ctx, fbo, 8, 8).astype(int)
    assert (np.abs(img[..., 0] - 128).max()) <= 1, img[0, 0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    ctx.glDisable(ctx.GL_SAMPLE_MASK)
    ctx.glEnable(ctx.GL_SAMPLE_ALPHA_TO_COVERAGE)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "a"), 0.5)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = _resolve(ctx, fbo, 8, 8).astype(int)
    assert 96 <= img[..., 0].mean() <= 160, img[..., 0].mean()      # about half of the samples covered


def test_timestamp_query_orders_with_the_gpu_clock():
    ctx = context(16, 16, api="gl33")
    q = ctx.glGenQueries(2)
    before = ctx.glGetInteger64v(ctx.GL_TIMESTAMP)[0]
    ctx.glQueryCounter(q[0], ctx.GL_TIMESTAMP)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glQueryCounter(q[1], ctx.GL_TIMESTAMP)
    t0 = ctx.glGetQueryObjectui64v(q[0], ctx.GL_QUERY_RESULT)[0]
    ctx.glQueryCounter(q[0], ctx.GL_TIMESTAMP)                    # reused: a new result
    assert ctx.glGetQueryObjectui64v(q[0], ctx.GL_QUERY_RESULT)[0] >= t0
    t1 = ctx.glGetQueryObjectui64v(q[1], ctx.GL_QUERY_RESULT)[0]
    after = ctx.glGetInteger64v(ctx.GL_TIMESTAMP)[0]
    assert before <= t0 <= t1 <= after


def test_many_occlusion_queries_without_stalls():
    ctx = context(16, 16)
    p = program(ctx, VS_POS, """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    vertices(ctx, p, np.array([[-1, -1], [0, -1], [-1, 1], [0, -1], [0, 1], [-1, 1]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glEnable(ctx.GL_SCISSOR_TEST)
    qs = ctx.glGenQueries(40)                        # each begin takes a fresh counter slot
    for rnd in range(2):                             # the second round re-begins every query
        for i, q in enumerate(qs):
            inside = (i + rnd) % 2 == 0
            ctx.glScissor(0 if inside else 12, 0, 4, 16)    # inside the half quad, or outside it
            ctx.glBeginQuery(ctx.GL_ANY_SAMPLES_PASSED, q)
            ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
            ctx.glEndQuery(ctx.GL_ANY_SAMPLES_PASSED)
    submits = ctx.pipe.stats["submits"]
    assert submits <= 1 or "flush" in ctx.pipe.debug   # no flush at any begin
    results = [ctx.glGetQueryObjectuiv(q, ctx.GL_QUERY_RESULT)[0] for q in qs]
    assert results == [0, 1] * 20
    assert len(ctx.pipe.occlusion_released) == 40    # the first round's slots wait for recycling
