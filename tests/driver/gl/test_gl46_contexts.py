"""GL 4.6 contexts, core and compatibility, by name and by window-system request:
the version strings, GLSL 4.60 and the list of shading-language versions, what
4.6 requires from the extension table (all DONE or CORE since GL_ARB_gl_spirv and
GL_ARB_spirv_extensions are listed), and GLSL 4.60's unsuffixed built-ins
(gl_BaseVertex, gl_BaseInstance, gl_DrawID, atomicCounterAdd) drawn and read back."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.api import ContextRequestError, MAX_GL_VERSION, api_for_request
from driver.gl.extensions import GL_VERSIONS, by_name, pending_features
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect


def test_the_highest_version_is_4_6_with_nothing_of_its_own_pending():
    assert MAX_GL_VERSION == (4, 6)
    table = by_name()
    for req in GL_VERSIONS[(4, 6)]:
        if req.startswith("GLSL"):
            continue
        assert table[req].status.value in ("done", "core"), req
    assert not set(GL_VERSIONS[(4, 6)]) & set(pending_features(False, (4, 6)))


@pytest.mark.parametrize("api, version", [("gl46", "4.6 (Core Profile) shimgl"),
                                          ("compat", "4.6 (Compatibility Profile) shimgl")])
def test_named_contexts(api, version):
    with driver.Context(api=api, width=4, height=4) as ctx:
        assert ctx.glGetString(E.GL_VERSION) == version
        assert ctx.glGetString(E.GL_SHADING_LANGUAGE_VERSION).startswith("4.60")
        assert ctx.glGetIntegerv(E.GL_MAJOR_VERSION) + ctx.glGetIntegerv(E.GL_MINOR_VERSION) == [4, 6]
        n = ctx.glGetIntegerv(E.GL_NUM_SHADING_LANGUAGE_VERSIONS)[0]
        listed = [ctx.glGetStringi(E.GL_SHADING_LANGUAGE_VERSION, i) for i in range(n)]
        numbers = [v.split()[0] for v in listed if v]
        for v in ("460", "450", "440", "430", "420", "410", "400", "330", "150", "140", "130", "120", "110"):
            assert v in numbers, (v, listed)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glGetStringi(E.GL_SHADING_LANGUAGE_VERSION, n)
        expect(ctx, E.GL_INVALID_VALUE)


@pytest.mark.parametrize("core", [True, False])
def test_window_system_requests_for_4_6(core):
    from driver.abi import egl
    api = api_for_request(False, 4, 6, core=core)
    assert api.version == (4, 6) and api.core == core
    assert egl.request_api(False, 4, 6, core) is not None
    with pytest.raises(ContextRequestError):
        api_for_request(False, 4, 7, core=core)


def test_glsl_460_in_a_4_5_context_is_refused():
    with driver.Context(api="gl45", width=4, height=4) as ctx:
        s = ctx.glCreateShader(E.GL_VERTEX_SHADER)
        ctx.glShaderSource(s, 1, ["#version 460\nvoid main() { gl_Position = vec4(0.0); }\n"])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
        assert "GLSL 460 is not supported" in ctx.glGetShaderInfoLog(s)


VS = """#version 460
flat out ivec3 params;
void main() {
    int k = gl_VertexID % 4, q = (gl_VertexID / 4) % 4;
    vec2 p = vec2(float(q + (k & 1)) * 0.5 - 1.0, float(k >> 1) * 2.0 - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
    params = ivec3(gl_BaseVertex, gl_BaseInstance, gl_DrawID);
}
"""
FS = "#version 460\nflat in ivec3 params;\nout vec4 o;\nvoid main() { o = vec4(vec3(params) / 255.0, 1.0); }\n"


def test_draw_parameters_under_their_glsl_460_names():
    """As test_gl46_shader_draw_parameters, without the extension: column 1 by base
    vertex 4 with base instance 7; a multi-draw of arrays in columns 2 and 3 is draws
    0 and 1, with base vertex 0 (GL 4.6 section 11.1.3.9)."""
    ctx = glhelp.context(4, 1, api="gl46")
    glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glClearColor(1, 1, 1, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    (ibo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 8, np.arange(4, dtype=np.uint16), E.GL_STATIC_DRAW)
    ctx.glDrawElementsInstancedBaseVertexBaseInstance(E.GL_TRIANGLE_STRIP, 4, E.GL_UNSIGNED_SHORT, 0, 1, 4, 7)
    ctx.glMultiDrawArrays(E.GL_TRIANGLE_STRIP, [8, 12], [4, 4], 2)
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 1, E.GL_RGB, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert [tuple(int(v) for v in px) for px in img.reshape(4, 3)] == \
        [(255, 255, 255), (4, 7, 0), (0, 0, 0), (0, 0, 1)]


def test_unsuffixed_names_need_460():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        for src, ok in (("#version 450\nvoid main() { gl_Position = vec4(float(gl_DrawID)); }\n", False),
                        ("#version 460\nvoid main() { gl_Position = vec4(float(gl_DrawIDARB)); }\n", False),
                        ("#version 460\nvoid main() { gl_Position = vec4(float(gl_BaseInstance)); }\n", True)):
            s = ctx.glCreateShader(E.GL_VERTEX_SHADER)
            ctx.glShaderSource(s, 1, [src])
            ctx.glCompileShader(s)
            assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [int(ok)], (src, ctx.glGetShaderInfoLog(s))


def test_atomic_counter_add_under_its_glsl_460_name():
    ctx = glhelp.context(4, 4, api="gl46")
    glhelp.compute_program(ctx, "#version 460\nlayout(local_size_x = 64) in;\n"
                                "layout(binding = 0, offset = 0) uniform atomic_uint sum;\n"
                                "void main() { atomicCounterAdd(sum, gl_LocalInvocationIndex);"
                                " atomicCounterSubtract(sum, 1u); }\n")
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 4, np.array([100], np.uint32), E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    got = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 4)), np.uint32)
    assert got.tolist() == [100 + 2016 - 64]
