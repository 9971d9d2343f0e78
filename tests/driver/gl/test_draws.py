"""Draw validation and the pipe calls draws, clears and dispatches make
(GL 4.6 sections 10.4-10.5, 17.4.3, 19; GLES 3.2 sections 10.5, 15.2.3, 17)."""

import struct

import numpy as np
import pytest

from driver.gallium import (
    PipeBlendFactor, PipeClear, PipeCompareFunc, PipeFace, PipeFormat, PipePrim, PipeShaderType,
)
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_programs import program

VS = """#version 300 es
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v;
void main() { gl_Position = pos; v = col; }
"""
FS = """#version 300 es
precision mediump float;
in vec4 v;
uniform sampler2D tex;
out vec4 o;
void main() { o = v * texture(tex, vec2(0.5)); }
"""


@pytest.fixture
def ready(es3):
    p = program(es3, VS, FS)
    es3.glUseProgram(p)
    (b,) = es3.glGenBuffers(1)
    es3.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    es3.glBufferData(E.GL_ARRAY_BUFFER, 48, np.arange(12, dtype=np.float32), E.GL_STATIC_DRAW)
    es3.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 16, 0)
    es3.glEnableVertexAttribArray(0)
    es3.pipe.calls.clear()
    return es3


def test_draw_arrays_emits_state_and_draw(ready):
    c = ready
    c.glEnable(E.GL_DEPTH_TEST)
    c.glDepthFunc(E.GL_GEQUAL)
    c.glEnable(E.GL_CULL_FACE)
    c.glEnable(E.GL_BLEND)
    c.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
    c.glVertexAttrib4f(1, 0.25, 0.5, 0.75, 1.0)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.glGetError() == E.GL_NO_ERROR
    info, drawid, indirect, draws = c.pipe.last("draw_vbo")
    assert info.mode == PipePrim.TRIANGLES and info.index_size == 0
    assert (draws[0].start, draws[0].count) == (0, 3) and indirect is None
    fb = c.pipe.last("set_framebuffer_state")[0]
    assert fb.cbufs[0].resource is c.window.color and fb.zsbuf.resource is c.window.depth_stencil
    dsa = c.pipe.last("create_depth_stencil_alpha_state")[0]
    assert dsa.depth_enabled and dsa.depth_func == PipeCompareFunc.GEQUAL
    blend = c.pipe.last("create_blend_state")[0]
    assert blend.rt[0].blend_enable and blend.rt[0].rgb_dst_factor == PipeBlendFactor.INV_SRC_ALPHA
    rast = c.pipe.last("create_rasterizer_state")[0]
    assert rast.cull_face == PipeFace.BACK and rast.front_ccw
    elements = c.pipe.last("create_vertex_elements_state")[0]
    assert elements[0].src_format == PipeFormat.R32G32B32A32_FLOAT and elements[0].src_stride_B == 16
    assert elements[1].src_stride_B == 0        # disabled array: the current value
    buffers = c.pipe.last("set_vertex_buffers")[0]
    assert buffers[0].resource is c.buffers.get(1).resource
    res, off = buffers[1].resource, buffers[1].offset_B
    assert struct.unpack_from("<4f", res.storage, off) == (0.25, 0.5, 0.75, 1.0)
    stages = [a[0] for n, a in c.pipe.calls if n == "bind_shader_state"]
    assert PipeShaderType.VERTEX in stages and PipeShaderType.FRAGMENT in stages
    vp = c.pipe.last("set_viewport_states")[1][0]
    assert vp.scale == (32.0, 16.0, 0.5)


def test_redundant_state_is_not_recreated(ready):
    c = ready
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    n = c.pipe.names().count("create_blend_state")
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.pipe.names().count("create_blend_state") == n
    assert c.pipe.names().count("draw_vbo") == 2


@pytest.mark.parametrize("call,code", [
    (lambda c: c.glDrawArrays(E.GL_QUADS, 0, 3), E.GL_INVALID_ENUM),
    (lambda c: c.glDrawArrays(E.GL_TRIANGLES, 0, -1), E.GL_INVALID_VALUE),
    (lambda c: c.glDrawArrays(E.GL_TRIANGLES, -1, 3), E.GL_INVALID_VALUE),
    (lambda c: c.glDrawArraysInstanced(E.GL_TRIANGLES, 0, 3, -1), E.GL_INVALID_VALUE),
    (lambda c: c.glDrawElements(E.GL_TRIANGLES, 3, E.GL_FLOAT, bytes(12)), E.GL_INVALID_ENUM),
    (lambda c: c.glDrawRangeElements(E.GL_TRIANGLES, 5, 4, 3, E.GL_UNSIGNED_BYTE, bytes(3)),
     E.GL_INVALID_VALUE),
    (lambda c: c.glDrawArraysIndirect(E.GL_TRIANGLES, 0), E.GL_INVALID_OPERATION),  # ES 3.1
])
def test_draw_errors(ready, call, code):
    call(ready)
    expect(ready, code)
    assert "draw_vbo" not in ready.pipe.names()


def test_no_program_is_an_error_in_es_and_core(ready):
    ready.glUseProgram(0)
    ready.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ready, E.GL_INVALID_OPERATION)


def test_incomplete_framebuffer(ready):
    (f,) = ready.glGenFramebuffers(1)
    ready.glBindFramebuffer(E.GL_FRAMEBUFFER, f)
    ready.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ready, E.GL_INVALID_FRAMEBUFFER_OPERATION)
    ready.glClear(E.GL_COLOR_BUFFER_BIT)
    expect(ready, E.GL_INVALID_FRAMEBUFFER_OPERATION)


def test_mapped_buffer_blocks_draws(ready):
    ready.glMapBufferRange(E.GL_ARRAY_BUFFER, 0, 4, E.GL_MAP_READ_BIT)
    ready.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ready, E.GL_INVALID_OPERATION)


def test_a_mapped_indirect_buffer_blocks_only_indirect_draws():
    """GL 4.6 section 6.3.2 names the buffers a command reads: a plain draw with a
    (non-persistently) mapped DRAW_INDIRECT_BUFFER bound is legal, as Blender's
    EEVEE draws while it fills its mapped indirect buffer; an indirect draw from it
    is INVALID_OPERATION, and draws again once it is unmapped."""
    ctx = make_ctx("gl43")
    ctx.glUseProgram(program(ctx, "#version 430\nvoid main() { gl_Position = vec4(0.0); }",
                             "#version 430\nout vec4 c; void main() { c = vec4(1.0); }"))
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    (ind,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, ind)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, 16, np.array([3, 1, 0, 0], np.uint32), E.GL_DYNAMIC_DRAW)
    ctx.glMapBufferRange(E.GL_DRAW_INDIRECT_BUFFER, 0, 16, E.GL_MAP_WRITE_BIT | E.GL_MAP_UNSYNCHRONIZED_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glDrawArraysIndirect(E.GL_TRIANGLES, None)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glUnmapBuffer(E.GL_DRAW_INDIRECT_BUFFER)
    ctx.glDrawArraysIndirect(E.GL_TRIANGLES, None)
    expect(ctx, E.GL_NO_ERROR)


def test_zero_count_draws_nothing(ready):
    ready.glDrawArrays(E.GL_TRIANGLES, 0, 0)
    assert ready.glGetError() == E.GL_NO_ERROR and "draw_vbo" not in ready.pipe.names()


def test_client_arrays_are_uploaded(es3):
    p = program(es3, VS, FS)
    es3.glUseProgram(p)
    verts = np.arange(8, dtype=np.float32)
    es3.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, verts)
    es3.glEnableVertexAttribArray(0)
    es3.glDrawArrays(E.GL_POINTS, 1, 3)
    vb = es3.pipe.last("set_vertex_buffers")[0][0]
    assert bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 32]) == verts.tobytes()
    el = es3.pipe.last("create_vertex_elements_state")[0][0]
    assert el.src_format == PipeFormat.R32G32_FLOAT and el.src_stride_B == 8


def test_draw_elements_client_and_buffer_indices(ready):
    c = ready
    c.glDrawElements(E.GL_TRIANGLES, 3, E.GL_UNSIGNED_SHORT, np.array([2, 0, 1], np.uint16))
    info, _, _, draws = c.pipe.last("draw_vbo")
    assert info.index_size == 2 and not info.index_bounds_valid
    idx = np.frombuffer(bytes(info.index_resource.storage), np.uint16)
    assert list(idx[draws[0].start:draws[0].start + 3]) == [2, 0, 1]
    (e,) = c.glGenBuffers(1)
    c.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, e)
    c.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 8, np.array([0, 1, 2, 1], np.uint16), E.GL_STATIC_DRAW)
    c.glEnable(E.GL_PRIMITIVE_RESTART_FIXED_INDEX)
    c.glDrawElementsInstanced(E.GL_TRIANGLES, 3, E.GL_UNSIGNED_SHORT, 2, 5)
    info, _, _, draws = c.pipe.last("draw_vbo")
    assert info.index_resource is c.buffers.get(e).resource and draws[0].start == 1
    assert info.instance_count == 5 and info.primitive_restart and info.restart_index == 0xFFFF


def test_core_needs_a_vao_but_takes_client_indices_as_mesa():
    """Drawing from the default VAO in core is INVALID_OPERATION; client-memory
    indices are read (Mesa raises no error for them, the core spec's letter does)."""
    c = make_ctx("gl33")
    p = program(c, "#version 330\nlayout(location=0) in vec4 p;\nvoid main() { gl_Position = p; }\n",
                "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n")
    c.glUseProgram(p)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(c, E.GL_INVALID_OPERATION)                       # no VAO
    (v,) = c.glGenVertexArrays(1)
    c.glBindVertexArray(v)
    c.glDrawElements(E.GL_TRIANGLES, 3, E.GL_UNSIGNED_BYTE, bytes([0, 1, 2]))
    assert c.glGetError() == E.GL_NO_ERROR                  # client indices, as Mesa
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.glGetError() == E.GL_NO_ERROR


def test_sampler_uniform_binds_texture_unit(ready):
    c = ready
    (t,) = c.glGenTextures(1)
    c.glActiveTexture(E.GL_TEXTURE2)
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(16))
    c.glUniform1i(c.glGetUniformLocation(c.current_program.name, "tex"), 2)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    stage, start, views = c.pipe.last("set_sampler_views")
    assert views[0] is None                                # mipmap-incomplete (default MIN_FILTER)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    stage, start, views = c.pipe.last("set_sampler_views")
    assert views[0].resource is c.textures.get(t).resource


def test_clear_calls_pipe_with_state(es3):
    es3.glClearColor(0.1, 0.2, 0.3, 0.4)
    es3.glClearDepthf(0.5)
    es3.glClearStencil(0x1FF)
    es3.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    buffers, scissor, color, depth, stencil = es3.pipe.last("clear")
    assert buffers == PipeClear.COLOR0 | PipeClear.DEPTH | PipeClear.STENCIL
    assert scissor is None and color == (0.1, 0.2, 0.3, 0.4) and depth == 0.5
    assert stencil == 0xFF                                 # masked to the stencil bits
    es3.glEnable(E.GL_SCISSOR_TEST)
    es3.glScissor(2, 3, 100, 4)
    es3.glDepthMask(False)
    es3.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    buffers, scissor, *_ = es3.pipe.last("clear")
    assert buffers == PipeClear.COLOR0                    # depth writes masked off
    assert (scissor.minx, scissor.miny, scissor.maxx, scissor.maxy) == (2, 3, 64, 7)
    es3.glClear(0x8000_0000)
    expect(es3, E.GL_INVALID_VALUE)


def test_clear_buffer(es3):
    es3.glClearBufferfv(E.GL_COLOR, 0, [1, 0, 0, 1])
    assert es3.pipe.last("clear")[2] == (1.0, 0.0, 0.0, 1.0)
    es3.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 0.25, 7)
    buffers, _, _, depth, stencil = es3.pipe.last("clear")
    assert buffers == PipeClear.DEPTH | PipeClear.STENCIL and (depth, stencil) == (0.25, 7)
    es3.glClearBufferiv(E.GL_DEPTH, 0, [1])
    expect(es3, E.GL_INVALID_ENUM)
    es3.glClearBufferfv(E.GL_COLOR, 8, [0, 0, 0, 0])
    expect(es3, E.GL_INVALID_VALUE)
    es3.glClearBufferfv(E.GL_DEPTH, 1, [0.0])
    expect(es3, E.GL_INVALID_VALUE)


def test_dispatch_compute():
    c = make_ctx("gles31")
    cs = c.glCreateShader(E.GL_COMPUTE_SHADER)
    c.glShaderSource(cs, 1, ["#version 310 es\nlayout(local_size_x = 4) in;\nvoid main() {}\n"])
    c.glCompileShader(cs)
    p = c.glCreateProgram()
    c.glAttachShader(p, cs)
    c.glLinkProgram(p)
    c.glDispatchCompute(1, 1, 1)
    expect(c, E.GL_INVALID_OPERATION)                      # not in use yet
    c.glUseProgram(p)
    c.glDispatchCompute(3, 2, 1)
    grid = c.pipe.last("launch_grid")[0]
    assert grid.block == (4, 1, 1) and grid.grid == (3, 2, 1)
    c.glDispatchCompute(1 << 20, 1, 1)
    expect(c, E.GL_INVALID_VALUE)
    c.glDispatchComputeIndirect(2)
    expect(c, E.GL_INVALID_VALUE)
    c.glDispatchComputeIndirect(0)
    expect(c, E.GL_INVALID_OPERATION)                      # no buffer bound
    c.glMemoryBarrier(E.GL_SHADER_STORAGE_BARRIER_BIT)
    assert c.pipe.last("memory_barrier")[0]
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(c, E.GL_INVALID_OPERATION)                      # compute program for a draw


FS_TWO_SAMPLERS = """#version 300 es
precision mediump float;
in vec4 v;
uniform sampler2D a;
uniform mediump samplerCube b;
out vec4 o;
void main() { o = v * texture(a, vec2(0.5)) * texture(b, vec3(1.0)); }
"""


def test_samplers_of_different_types_on_one_unit(es3):
    p = program(es3, VS, FS_TWO_SAMPLERS)
    es3.glUseProgram(p)
    es3.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, bytes(48))
    es3.glValidateProgram(p)
    assert es3.glGetProgramiv(p, E.GL_VALIDATE_STATUS) == [0]      # both on unit 0
    es3.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glUniform1i(es3.glGetUniformLocation(p, "b"), 1)
    es3.glValidateProgram(p)
    assert es3.glGetProgramiv(p, E.GL_VALIDATE_STATUS) == [1]
    es3.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert es3.glGetError() == E.GL_NO_ERROR


def test_es2_npot_textures_need_clamp_and_no_mipmaps(monkeypatch):
    """GLES 2.0's own rule, in a context without OES_texture_npot (which
    shimgl lists; tests/driver/gl/test_gles_ext.py checks what it allows)."""
    from driver.gl.api import Api
    has = Api.has_extension
    monkeypatch.setattr(Api, "has_extension", lambda api, name: name != "GL_OES_texture_npot" and has(api, name))
    c = make_ctx("gles2")
    vs = "attribute vec4 p;\nvoid main() { gl_Position = p; }\n"
    fs = "precision mediump float;\nuniform sampler2D t;\nvoid main() { gl_FragColor = texture2D(t, vec2(0.5)); }\n"
    p = program(c, vs, fs)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    c.glUseProgram(p)
    (t,) = c.glGenTextures(1)
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 3, 3, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR)
    c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, bytes(48))
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.pipe.last("set_sampler_views")[2] == [None]          # REPEAT wrap: incomplete
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.pipe.last("set_sampler_views")[2][0] is not None


def test_masked_clears_are_drawn(es3):
    """pipe.clear has no write masks: a partial colour or stencil mask clears
    with a quad (Mesa's clear_with_quad), keeping the masks and scissor."""
    n0 = len(es3.pipe.calls)                     # after the window's initial clear
    es3.glColorMask(True, False, True, False)
    es3.glClearColor(0.25, 0.5, 0.75, 1.0)
    es3.glClear(E.GL_COLOR_BUFFER_BIT)
    assert "clear" not in es3.pipe.names()[n0:]
    info, _, _, draws = es3.pipe.last("draw_vbo")
    assert info.mode == PipePrim.TRIANGLE_STRIP and draws[0].count == 4
    blend = es3.pipe.last("create_blend_state")[0]
    assert blend.rt[0].colormask == 0b0101 and not blend.rt[0].blend_enable
    cb = [a for n, a in es3.pipe.calls if n == "set_constant_buffer" and a[1] == 0][-1][2]
    (color,) = [u for u in es3._clear_programs[1].linked_state.uniforms if u.name == "color"]
    assert struct.unpack_from("<4f", cb.user_buffer, color.offset_B) == (0.25, 0.5, 0.75, 1.0)
    es3.glColorMask(True, True, True, True)
    es3.glStencilMask(0x0F)
    es3.glClearStencil(0x35)
    es3.glClear(E.GL_STENCIL_BUFFER_BIT)
    dsa = es3.pipe.last("create_depth_stencil_alpha_state")[0]
    assert dsa.stencil[0].enabled and dsa.stencil[0].writemask == 0x0F
    assert es3.pipe.last("set_stencil_ref") == (0x35, 0x35)
    es3.glColorMask(False, False, False, False)
    n = len(es3.pipe.calls)
    es3.glClear(E.GL_COLOR_BUFFER_BIT)                     # nothing to write
    assert "draw_vbo" not in es3.pipe.names()[n:] and "clear" not in es3.pipe.names()[n:]


def test_vertex_elements_are_indexed_by_location(es3):
    vs = VS.replace("layout(location = 1) in vec4 col;", "layout(location = 3) in vec4 col;")
    p = program(es3, vs, FS)
    es3.glUseProgram(p)
    es3.glVertexAttribPointer(3, 2, E.GL_FLOAT, False, 0, np.arange(6, dtype=np.float32))
    es3.glEnableVertexAttribArray(3)
    es3.glDrawArrays(E.GL_POINTS, 0, 3)
    elements = es3.pipe.last("create_vertex_elements_state")[0]
    assert len(elements) == 4
    assert elements[3].src_format == PipeFormat.R32G32_FLOAT and elements[3].src_stride_B == 8
    assert all(e.src_stride_B == 0 for e in elements[:3])   # pos (disabled) and two gaps


def test_instanced_client_arrays_upload_one_row_per_divisor_step(es3):
    p = program(es3, VS, FS)
    es3.glUseProgram(p)
    data = np.arange(16, dtype=np.float32)
    es3.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 0, data)
    es3.glEnableVertexAttribArray(1)
    es3.glVertexAttribDivisor(1, 2)
    es3.glDrawArraysInstanced(E.GL_POINTS, 0, 1, 7)          # instances 0..6 -> rows 0..3
    vb = es3.pipe.last("set_vertex_buffers")[0][1]
    assert bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 64]) == data.tobytes()


def test_range_elements_promise_bounds_and_size_client_uploads(ready):
    c = ready
    colors = np.arange(40, dtype=np.float32)                 # 10 vec4s
    c.glBindBuffer(E.GL_ARRAY_BUFFER, 0)
    c.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 0, colors)
    c.glEnableVertexAttribArray(1)
    c.glDrawRangeElements(E.GL_POINTS, 2, 5, 2, E.GL_UNSIGNED_BYTE, bytes([2, 5]))
    info = c.pipe.last("draw_vbo")[0]
    assert info.index_bounds_valid and (info.min_index, info.max_index) == (2, 5)
    vb = c.pipe.last("set_vertex_buffers")[0][1]
    # vertices 0..5 of the client array are uploaded (the promised end + 1)
    assert bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 96]) == colors[:24].tobytes()
    c.glDrawElements(E.GL_POINTS, 2, E.GL_UNSIGNED_BYTE, bytes([7, 1]))
    vb = c.pipe.last("set_vertex_buffers")[0][1]
    assert bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 128]) == colors[:32].tobytes()
