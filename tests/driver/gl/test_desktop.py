"""Desktop GL additions and GL 4.3 / GLES 3.1 program interface queries."""

import numpy as np
import pytest

from driver.gallium import PipeShaderType
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_programs import program


def test_indexed_blend_state():
    c = make_ctx("gl43")
    c.glEnablei(E.GL_BLEND, 1)
    c.glBlendFunci(1, E.GL_ONE, E.GL_ONE)
    c.glColorMaski(2, False, True, False, True)
    assert c.glIsEnabledi(E.GL_BLEND, 1) and not c.glIsEnabled(E.GL_BLEND)
    assert c.glGetIntegeri_v(E.GL_BLEND_DST_RGB, 1) == [E.GL_ONE]
    assert c.glGetIntegerv(E.GL_BLEND_DST_RGB) == [E.GL_ZERO]
    assert c.glGetBooleani_v(E.GL_COLOR_WRITEMASK, 2) == [False, True, False, True]
    c.glEnablei(E.GL_BLEND, 8)
    expect(c, E.GL_INVALID_VALUE)
    c.glEnablei(E.GL_DEPTH_TEST, 0)
    expect(c, E.GL_INVALID_ENUM)
    from driver.gl import pipestate
    st = pipestate.blend_state(c.state, 3)
    assert st.independent_blend_enable and st.rt[1].blend_enable and not st.rt[0].blend_enable
    assert st.rt[2].colormask == 0b1010
    c.glBlendFunc(E.GL_ONE, E.GL_ZERO)          # non-indexed sets every buffer
    c.glDisable(E.GL_BLEND)
    c.glColorMask(True, True, True, True)
    assert not pipestate.blend_state(c.state, 3).independent_blend_enable
    es3 = make_ctx("gles3")
    es3.glEnablei(E.GL_BLEND, 0)                # ES 3.2, or EXT/OES_draw_buffers_indexed (listed)
    expect(es3, E.GL_NO_ERROR)
    from driver.gl.api import Api
    has = Api.has_extension
    with pytest.MonkeyPatch.context() as mp:    # an ES 3.0 context without the extensions
        mp.setattr(Api, "has_extension", lambda api, name: "draw_buffers_indexed" not in name and has(api, name))
        es3.glEnablei(E.GL_BLEND, 0)
        expect(es3, E.GL_INVALID_OPERATION)


def test_indexed_blend_factors_under_their_gl_1_names():
    """glGetIntegerIndexedvEXT(GL_BLEND_SRC / GL_BLEND_DST, i): the RGB factors of
    draw buffer i, as Mesa answers (piglit fbo-draw-buffers-blend); a buffer past
    the last is INVALID_VALUE; GLES has no such names (INVALID_ENUM)."""
    c = make_ctx("compat")
    c.glBlendFunciARB(1, E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
    assert c.glGetIntegerIndexedvEXT(E.GL_BLEND_SRC, 1) == [E.GL_SRC_ALPHA]
    assert c.glGetIntegeri_v(E.GL_BLEND_DST, 1) == [E.GL_ONE_MINUS_SRC_ALPHA]
    assert c.glGetIntegeri_v(E.GL_BLEND_SRC, 0) == [E.GL_ONE]
    expect(c, E.GL_NO_ERROR)
    c.glGetIntegeri_v(E.GL_BLEND_SRC, 8)
    expect(c, E.GL_INVALID_VALUE)
    es3 = make_ctx("gles3")
    es3.glGetIntegeri_v(E.GL_BLEND_SRC, 0)
    expect(es3, E.GL_INVALID_ENUM)


def test_attrib_variants(core):
    core.glVertexAttrib4Nub(2, 255, 0, 51, 255)
    assert core.glGetVertexAttribfv(2, E.GL_CURRENT_VERTEX_ATTRIB) == pytest.approx([1, 0, 0.2, 1])
    core.glVertexAttrib4Nsv(2, [-32768, 32767, 0, 0])
    assert core.glGetVertexAttribfv(2, E.GL_CURRENT_VERTEX_ATTRIB)[:2] == [-1.0, 1.0]
    core.glVertexAttribI2ui(3, 7, 0xFFFFFFFF)
    assert core.glGetVertexAttribIuiv(3, E.GL_CURRENT_VERTEX_ATTRIB) == [7, 0xFFFFFFFF, 0, 1]
    # 2_10_10_10: x=1023 (unsigned normalised -> 1.0), w=3 -> 1.0
    core.glVertexAttribP4ui(4, E.GL_UNSIGNED_INT_2_10_10_10_REV, True, 1023 | (3 << 30))
    assert core.glGetVertexAttribfv(4, E.GL_CURRENT_VERTEX_ATTRIB) == [1.0, 0.0, 0.0, 1.0]
    core.glVertexAttribP4ui(4, E.GL_INT_2_10_10_10_REV, False, 0x3FF)   # x = -1 signed
    assert core.glGetVertexAttribfv(4, E.GL_CURRENT_VERTEX_ATTRIB)[0] == -1.0
    core.glVertexAttribP4ui(4, E.GL_FLOAT, False, 0)
    expect(core, E.GL_INVALID_ENUM)


def test_multi_draw_arrays():
    c = make_ctx("gl43")
    p = program(c, "#version 430\nlayout(location=0) in vec4 p;\nvoid main() { gl_Position = p; }\n",
                "#version 430\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n")
    c.glUseProgram(p)
    (v,) = c.glGenVertexArrays(1)
    c.glBindVertexArray(v)
    c.glMultiDrawArrays(E.GL_TRIANGLES, [0, 3], [3, 6], 2)
    draws = [a[3][0] for n, a in c.pipe.calls if n == "draw_vbo"]
    assert [(d.start, d.count) for d in draws] == [(0, 3), (3, 6)]


def test_framebuffer_texture_layered(core):
    (f,) = core.glGenFramebuffers(1)
    core.glBindFramebuffer(E.GL_FRAMEBUFFER, f)
    (t,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_2D_ARRAY, t)
    core.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 4, 4, 3)
    core.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, t, 0)
    assert core.draw_framebuffer.attachments[E.GL_COLOR_ATTACHMENT0].layered
    assert core.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    core.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, 999, 0)
    expect(core, E.GL_INVALID_VALUE)


def test_get_tex_image_roundtrip(core):
    (t,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_2D, t)
    data = np.arange(2 * 2 * 4, dtype=np.uint8).tobytes()
    core.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data)
    assert core.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE) == data
    out = core.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED, E.GL_FLOAT)
    assert np.allclose(np.frombuffer(out, np.float32), np.frombuffer(data, np.uint8)[::4] / 255)


def test_conditional_render(core):
    (q,) = core.glGenQueries(1)
    core.glBeginConditionalRender(q, E.GL_QUERY_WAIT)
    expect(core, E.GL_INVALID_OPERATION)                   # never begun
    core.glBeginQuery(E.GL_SAMPLES_PASSED, q)
    core.glEndQuery(E.GL_SAMPLES_PASSED)
    core.glBeginConditionalRender(q, E.GL_QUERY_WAIT)
    query, condition, wait = core.pipe.last("render_condition")
    assert query is core.queries.get(q).pipe_query and wait
    core.glEndConditionalRender()
    assert core.pipe.last("render_condition")[0] is None
    core.glEndConditionalRender()
    expect(core, E.GL_INVALID_OPERATION)


def test_debug_output_and_labels(core):
    seen = []
    core.glEnable(E.GL_DEBUG_OUTPUT)
    core.glDebugMessageCallback(lambda *a: seen.append(a), "user")
    core.glDebugMessageInsert(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_MARKER, 1,
                              E.GL_DEBUG_SEVERITY_NOTIFICATION, -1, "hello")
    assert seen[0][5] == "hello" and seen[0][6] == "user"
    (b,) = core.glGenBuffers(1)
    core.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    core.glObjectLabel(E.GL_BUFFER, b, -1, "verts")
    assert core.glGetObjectLabel(E.GL_BUFFER, b, 64) == "verts"
    core.glObjectLabel(E.GL_BUFFER, 99, -1, "x")
    expect(core, E.GL_INVALID_VALUE)
    core.glPopDebugGroup()
    expect(core, E.GL_STACK_UNDERFLOW)


def test_clear_buffer_data(core):
    (b,) = core.glGenBuffers(1)
    core.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    core.glBufferData(E.GL_ARRAY_BUFFER, 16, None, E.GL_STATIC_DRAW)
    core.glClearBufferSubData(E.GL_ARRAY_BUFFER, E.GL_R32F, 4, 8, E.GL_RED, E.GL_FLOAT,
                              np.array([2.5], np.float32))
    got = np.frombuffer(bytes(core.buffers.get(b).resource.storage), np.float32)
    assert list(got) == [0.0, 2.5, 2.5, 0.0]
    core.glClearBufferSubData(E.GL_ARRAY_BUFFER, E.GL_R32F, 2, 4, E.GL_RED, E.GL_FLOAT, None)
    expect(core, E.GL_INVALID_VALUE)                       # misaligned


def test_clear_buffer_sub_data_beside_a_mapped_range(core):
    """GL 4.6 section 6.3.3: only a range that intersects the mapping is refused, so the
    unmapped half of a mapped buffer may be cleared, and unmapping keeps both halves."""
    (b,) = core.glGenBuffers(1)
    core.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    core.glBufferData(E.GL_ARRAY_BUFFER, 16, None, E.GL_STATIC_DRAW)
    mapped = core.glMapBufferRange(E.GL_ARRAY_BUFFER, 0, 8, E.GL_MAP_WRITE_BIT)
    np.frombuffer(mapped, np.float32)[:] = [7.0, 8.0]
    value = np.array([2.5], np.float32)
    core.glClearBufferSubData(E.GL_ARRAY_BUFFER, E.GL_R32F, 8, 8, E.GL_RED, E.GL_FLOAT, value)
    expect(core, E.GL_NO_ERROR)
    core.glClearBufferSubData(E.GL_ARRAY_BUFFER, E.GL_R32F, 4, 8, E.GL_RED, E.GL_FLOAT, value)
    expect(core, E.GL_INVALID_OPERATION)                   # bytes 4..8 are mapped
    core.glClearBufferData(E.GL_ARRAY_BUFFER, E.GL_R32F, E.GL_RED, E.GL_FLOAT, value)
    expect(core, E.GL_INVALID_OPERATION)                   # the whole buffer includes them
    assert core.glUnmapBuffer(E.GL_ARRAY_BUFFER)
    got = np.frombuffer(bytes(core.buffers.get(b).resource.storage), np.float32)
    assert list(got) == [7.0, 8.0, 2.5, 2.5]


CS = """#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 3) buffer Data { float a[3]; vec3 v; mat2 m; } data;
layout(std140, binding = 1) uniform Params { vec4 scale; } params;
uniform int count;
void main() { data.a[0] = data.v.x * params.scale.x + float(count) + data.m[0][0]; }
"""


def compute_program(c, src=CS):
    cs = c.glCreateShader(E.GL_COMPUTE_SHADER)
    c.glShaderSource(cs, 1, [src])
    c.glCompileShader(cs)
    assert c.glGetShaderiv(cs, E.GL_COMPILE_STATUS) == [1], c.glGetShaderInfoLog(cs)
    p = c.glCreateProgram()
    c.glAttachShader(p, cs)
    c.glLinkProgram(p)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    return p


def test_program_interface_queries(core):
    p = compute_program(core)
    q = core.glGetProgramInterfaceiv
    assert q(p, E.GL_SHADER_STORAGE_BLOCK, E.GL_ACTIVE_RESOURCES) == [1]
    assert q(p, E.GL_UNIFORM_BLOCK, E.GL_ACTIVE_RESOURCES) == [1]
    assert q(p, E.GL_BUFFER_VARIABLE, E.GL_ACTIVE_RESOURCES) == [3]
    i = core.glGetProgramResourceIndex(p, E.GL_SHADER_STORAGE_BLOCK, "Data")
    props = [E.GL_BUFFER_BINDING, E.GL_BUFFER_DATA_SIZE, E.GL_NUM_ACTIVE_VARIABLES,
             E.GL_REFERENCED_BY_COMPUTE_SHADER]
    # std430: a[3] stride 4 -> 12, v at 16, mat2 (vec2 columns) at 32 -> 48 bytes
    assert core.glGetProgramResourceiv(p, E.GL_SHADER_STORAGE_BLOCK, i, 4, props, 8) == [3, 48, 3, 1]
    v = core.glGetProgramResourceIndex(p, E.GL_BUFFER_VARIABLE, "Data.a")
    assert core.glGetProgramResourceName(p, E.GL_BUFFER_VARIABLE, v, 64) == "Data.a[0]"
    assert core.glGetProgramResourceiv(p, E.GL_BUFFER_VARIABLE, v, 2,
                                       [E.GL_OFFSET, E.GL_ARRAY_STRIDE], 2) == [0, 4]
    loc = core.glGetProgramResourceLocation(p, E.GL_UNIFORM, "count")
    assert loc == core.glGetUniformLocation(p, "count") >= 0
    core.glGetProgramResourceiv(p, E.GL_SHADER_STORAGE_BLOCK, i, 1, [E.GL_LOCATION], 1)
    expect(core, E.GL_INVALID_OPERATION)
    core.glGetProgramResourceName(p, E.GL_UNIFORM, 99, 10)
    expect(core, E.GL_INVALID_VALUE)
    # glGetProgramInterfaceiv answers an interface or a pname it does not take with
    # INVALID_OPERATION (ARB_program_interface_query, Mesa), the other queries INVALID_ENUM
    core.glGetProgramInterfaceiv(p, E.GL_TEXTURE_2D, E.GL_ACTIVE_RESOURCES)
    expect(core, E.GL_INVALID_OPERATION)
    core.glGetProgramInterfaceiv(p, E.GL_UNIFORM, E.GL_TRUE)
    expect(core, E.GL_INVALID_OPERATION)
    core.glGetProgramResourceIndex(p, E.GL_TEXTURE_2D, "count")
    expect(core, E.GL_INVALID_ENUM)


def test_compute_dispatch_binds_storage_and_uniform_buffers(core):
    p = compute_program(core)
    core.glUseProgram(p)
    ssbo, ubo = core.glGenBuffers(2)
    core.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, ssbo)
    core.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 48, None, E.GL_DYNAMIC_COPY)
    core.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 3, ssbo)
    core.glBindBuffer(E.GL_UNIFORM_BUFFER, ubo)
    core.glBufferData(E.GL_UNIFORM_BUFFER, 16, None, E.GL_DYNAMIC_DRAW)
    core.glBindBufferBase(E.GL_UNIFORM_BUFFER, 1, ubo)
    core.glShaderStorageBlockBinding(p, 0, 3)
    core.glDispatchCompute(2, 1, 1)
    stage, start, bufs, writable = core.pipe.last("set_shader_buffers")
    assert stage == PipeShaderType.COMPUTE and bufs[0].resource is core.buffers.get(ssbo).resource
    cbs = [a for n, a in core.pipe.calls if n == "set_constant_buffer" and a[0] == PipeShaderType.COMPUTE]
    assert any(a[1] == 1 and a[2] is not None and a[2].resource is core.buffers.get(ubo).resource
               for a in cbs)
    assert core.pipe.last("launch_grid")[0].block == (4, 1, 1)


ATOMIC_CS = """#version 430
layout(local_size_x = 1) in;
layout(binding = 2, offset = 4) uniform atomic_uint a;
layout(binding = 2) uniform atomic_uint b[2];
layout(binding = 0) uniform atomic_uint c;
void main() { atomicCounterIncrement(a); atomicCounterIncrement(b[1]); atomicCounterIncrement(c); }
"""


def test_atomic_counters(core):
    p = compute_program(core, ATOMIC_CS)
    n = core.glGetProgramInterfaceiv(p, E.GL_ATOMIC_COUNTER_BUFFER, E.GL_ACTIVE_RESOURCES)[0]
    assert n == 2
    q = core.glGetActiveAtomicCounterBufferiv
    assert [q(p, i, E.GL_ATOMIC_COUNTER_BUFFER_BINDING)[0] for i in range(2)] == [0, 2]
    # binding 2: a at 4, b[2] continues at 8 -> 16 bytes
    assert q(p, 1, E.GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE) == [16]
    assert q(p, 1, E.GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS) == [2]
    idx = q(p, 1, E.GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES)
    names = {core.glGetActiveUniform(p, i)[0]: i for i in idx}
    assert set(names) == {"a", "b[0]"}
    assert core.glGetActiveUniformsiv(p, 1, [names["b[0]"]], E.GL_UNIFORM_OFFSET) == [8]
    assert core.glGetActiveUniform(p, names["a"])[2] == E.GL_UNSIGNED_INT_ATOMIC_COUNTER
    assert core.glGetUniformLocation(p, "a") == -1
    q(p, 2, E.GL_ATOMIC_COUNTER_BUFFER_BINDING)
    expect(core, E.GL_INVALID_VALUE)
    # a dispatch binds the counter buffers after the (zero) storage blocks
    core.glUseProgram(p)
    b0, b2 = core.glGenBuffers(2)
    for name, binding in ((b0, 0), (b2, 2)):
        core.glBindBuffer(E.GL_ATOMIC_COUNTER_BUFFER, name)
        core.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 16, None, E.GL_DYNAMIC_COPY)
        core.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, binding, name)
    core.glDispatchCompute(1, 1, 1)
    _, _, bufs, _ = core.pipe.last("set_shader_buffers")
    assert [b.resource for b in bufs] == [core.buffers.get(b0).resource, core.buffers.get(b2).resource]


def test_overlapping_atomic_counters_fail_to_link(core):
    src = ATOMIC_CS.replace("layout(binding = 2) uniform atomic_uint b[2];",
                            "layout(binding = 2, offset = 0) uniform atomic_uint b[2];")
    cs = core.glCreateShader(E.GL_COMPUTE_SHADER)
    core.glShaderSource(cs, 1, [src])
    core.glCompileShader(cs)
    p = core.glCreateProgram()
    core.glAttachShader(p, cs)
    core.glLinkProgram(p)
    assert core.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
    assert "overlap" in core.glGetProgramInfoLog(p)


def test_framebuffer_default_parameters():
    c = make_ctx("gles31")
    (f,) = c.glGenFramebuffers(1)
    c.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_WIDTH, 16)
    expect(c, E.GL_INVALID_OPERATION)                      # default framebuffer
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, f)
    assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    c.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_WIDTH, 16)
    c.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_HEIGHT, 8)
    assert c.glGetFramebufferParameteriv(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_WIDTH) == [16]
    assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    c.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_WIDTH, -1)
    expect(c, E.GL_INVALID_VALUE)
    # GLES 3.2, or OES/EXT_geometry_shader, which GLES 3.1 contexts list
    c.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_LAYERS, 2)
    expect(c, E.GL_NO_ERROR)
    assert c.glGetFramebufferParameteriv(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_LAYERS) == [2]


GL43_VS = "#version 430\nlayout(location=0) in vec4 p;\nout vec4 v;\nvoid main() { gl_Position = p; v = p; }\n"
GL43_FS = "#version 430\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }\n"


def test_draw_transform_feedback(core):
    p = program(core, GL43_VS, GL43_FS, link=False)
    core.glTransformFeedbackVaryings(p, 1, ["v"], E.GL_INTERLEAVED_ATTRIBS)
    core.glLinkProgram(p)
    core.glUseProgram(p)
    (vao,) = core.glGenVertexArrays(1)
    core.glBindVertexArray(vao)
    (t,) = core.glGenTransformFeedbacks(1)
    core.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, t)
    core.glDrawTransformFeedback(E.GL_POINTS, t)
    expect(core, E.GL_INVALID_OPERATION)                   # never ended
    (b,) = core.glGenBuffers(1)
    core.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
    core.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 64, None, E.GL_STATIC_COPY)
    core.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, b)
    core.glBeginTransformFeedback(E.GL_POINTS)
    core.glDrawArrays(E.GL_POINTS, 0, 4)
    core.glEndTransformFeedback()
    core.glDrawTransformFeedback(E.GL_POINTS, t)
    info, _, indirect, _ = core.pipe.last("draw_vbo")
    assert indirect.count_from_stream_output.resource is core.buffers.get(b).resource
    core.glDrawTransformFeedbackStream(E.GL_POINTS, t, 4)       # MAX_VERTEX_STREAMS is 4
    expect(core, E.GL_INVALID_VALUE)


def test_min_sample_shading(core):
    core.glMinSampleShading(0.5)
    core.glEnable(E.GL_SAMPLE_SHADING)
    (f,) = core.glGenFramebuffers(1)
    core.glBindFramebuffer(E.GL_FRAMEBUFFER, f)
    (r,) = core.glGenRenderbuffers(1)
    core.glBindRenderbuffer(E.GL_RENDERBUFFER, r)
    core.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, 4, 4)
    core.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, r)
    p = program(core, GL43_VS, GL43_FS)
    core.glUseProgram(p)
    (vao,) = core.glGenVertexArrays(1)
    core.glBindVertexArray(vao)
    core.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert core.pipe.last("set_min_samples") == (2,)       # ceil(0.5 * 4)
    assert core.glGetFloatv(E.GL_MIN_SAMPLE_SHADING_VALUE) == [0.5]


def test_get_compressed_tex_image_and_1d_copy(core):
    (t,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_2D, t)
    blocks = bytes(range(16))
    core.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RED_RGTC1, 8, 4, 0, 16, blocks)
    assert core.glGetCompressedTexImage(E.GL_TEXTURE_2D, 0) == blocks
    (t1,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_1D, t1)
    core.glCopyTexImage1D(E.GL_TEXTURE_1D, 0, E.GL_RGBA8, 2, 3, 16, 0)
    info = core.pipe.last("blit")[0]
    assert (info.src.box.x, info.src.box.y, info.src.box.width, info.src.box.height) == (2, 3, 16, 1)
    core.glCopyTexSubImage1D(E.GL_TEXTURE_1D, 0, 10, 0, 0, 8)
    expect(core, E.GL_INVALID_VALUE)
