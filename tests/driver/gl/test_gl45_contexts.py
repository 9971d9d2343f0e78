"""GL 4.4 and 4.5 contexts, core and compatibility, by name and by
window-system request (EGL, GLX and OSMesa share api_for_request): the
version strings, the integer version queries, the GLSL versions they accept,
and what each requires from the extension table."""

import pytest

import driver
from driver.gl import enums as E
from driver.gl.api import MAX_GL_VERSION, api_for_request
from driver.gl.extensions import GL_VERSIONS, advertised, by_name


@pytest.mark.parametrize("version", [(4, 4), (4, 5)])
@pytest.mark.parametrize("core", [True, False])
def test_requests_get_a_context_of_at_least_that_version(version, core):
    from driver.abi import egl
    api = api_for_request(False, *version, core=core)
    assert api.version >= version and api.core == core
    assert egl.request_api(False, *version, core) is not None
    with driver.Context(api=api.name if core else "compat", width=4, height=4) as ctx:
        assert tuple(ctx.glGetIntegerv(E.GL_MAJOR_VERSION) + ctx.glGetIntegerv(E.GL_MINOR_VERSION)) \
            == ctx.api.version >= version
        assert ctx.glGetIntegerv(E.GL_CONTEXT_PROFILE_MASK) == [E.GL_CONTEXT_CORE_PROFILE_BIT if core
                                                                else E.GL_CONTEXT_COMPATIBILITY_PROFILE_BIT]


@pytest.mark.parametrize("name, version, glsl", [("gl44", "4.4 (Core Profile) shimgl", "4.40"),
                                                 ("gl45", "4.5 (Core Profile) shimgl", "4.50")])
def test_named_core_contexts(name, version, glsl):
    with driver.Context(api=name, width=4, height=4) as ctx:
        assert ctx.glGetString(E.GL_VERSION) == version
        assert ctx.glGetString(E.GL_SHADING_LANGUAGE_VERSION).startswith(glsl)
        number = glsl.replace(".", "")
        s = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
        ctx.glShaderSource(s, 1, [f"#version {number}\nout vec4 o;\nvoid main() {{ o = vec4(1.0); }}\n"])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(s)
        assert number in [v.split()[0] for v in
                          (ctx.glGetStringi(E.GL_SHADING_LANGUAGE_VERSION, i)
                           for i in range(ctx.glGetIntegerv(E.GL_NUM_SHADING_LANGUAGE_VERSIONS)[0])) if v]


def test_gl44_rejects_glsl_450():
    with driver.Context(api="gl44", width=4, height=4) as ctx:
        s = ctx.glCreateShader(E.GL_VERTEX_SHADER)
        ctx.glShaderSource(s, 1, ["#version 450\nvoid main() { gl_Position = vec4(0.0); }\n"])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
        assert "GLSL 450 is not supported" in ctx.glGetShaderInfoLog(s)


def test_every_api_requirement_of_4_5_is_done_or_core():
    """What GL 4.4 and 4.5 need is DONE or CORE in the table, shader stages
    (STAGE) aside, so MAX_GL_VERSION reaches 4.5; the 4.4/4.5 extensions this
    work added are listed in both profiles."""
    assert MAX_GL_VERSION >= (4, 5)
    for v in ((4, 4), (4, 5)):
        for req in GL_VERSIONS[v]:
            if not req.startswith("GLSL"):
                assert by_name()[req].status.name in ("DONE", "CORE", "STAGE"), req
    for core in (True, False):
        listed = advertised(False, core, (4, 5))
        for name in ("GL_ARB_query_buffer_object", "GL_ARB_cull_distance", "GL_ARB_ES3_1_compatibility",
                     "GL_ARB_shader_texture_image_samples"):
            assert name in listed
