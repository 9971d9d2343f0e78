"""Shaders, programs, linking, program queries (GL 4.6 chapter 7, GLES 3.2 chapter 7)."""

import pytest

from driver.gallium import PipeShaderType
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

VS300 = """#version 300 es
layout(location = 3) in vec4 pos;
in vec2 uv;
uniform mat4 mvp;
uniform float scale[3];
out vec2 v_uv;
void main() { gl_Position = mvp * pos * scale[2]; v_uv = uv; }
"""
FS300 = """#version 300 es
precision mediump float;
in vec2 v_uv;
uniform vec4 tint;
uniform sampler2D tex;
uniform struct L { vec3 dir; int n; } light;
out vec4 color;
void main() { color = texture(tex, v_uv) * tint + vec4(light.dir, float(light.n)); }
"""


def shader(ctx, type, src):
    s = ctx.glCreateShader(type)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    return s


def program(ctx, vs=VS300, fs=FS300, link=True):
    p = ctx.glCreateProgram()
    for t, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        if src is not None:
            ctx.glAttachShader(p, shader(ctx, t, src))
    if link:
        ctx.glLinkProgram(p)
    return p


def test_compile_status_and_log(es3):
    s = shader(es3, E.GL_VERTEX_SHADER, VS300)
    assert es3.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [1]
    bad = shader(es3, E.GL_FRAGMENT_SHADER, "#version 300 es\nvoid main() { undefined_thing = 1; }\n")
    assert es3.glGetShaderiv(bad, E.GL_COMPILE_STATUS) == [0]
    log = es3.glGetShaderInfoLog(bad)
    assert "undefined_thing" in log and "error" in log
    assert es3.glGetShaderiv(bad, E.GL_INFO_LOG_LENGTH) == [len(log) + 1]
    assert es3.glGetShaderSource(s) == VS300
    assert es3.glGetError() == E.GL_NO_ERROR


def test_version_must_be_supported_by_the_api(es3):
    s = shader(es3, E.GL_VERTEX_SHADER, "#version 310 es\nvoid main() { gl_Position = vec4(0.0); }\n")
    assert es3.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    assert "not supported" in es3.glGetShaderInfoLog(s)


def test_object_kind_errors(es3):
    es3.glCreateShader(E.GL_COMPUTE_SHADER)                  # ES 3.1
    expect(es3, E.GL_INVALID_ENUM)
    p = es3.glCreateProgram()
    es3.glCompileShader(p)
    expect(es3, E.GL_INVALID_OPERATION)                     # a program, not a shader
    es3.glCompileShader(999)
    expect(es3, E.GL_INVALID_VALUE)
    s = es3.glCreateShader(E.GL_VERTEX_SHADER)
    es3.glLinkProgram(s)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glAttachShader(p, s)
    es3.glAttachShader(p, s)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glAttachShader(p, es3.glCreateShader(E.GL_VERTEX_SHADER))   # ES: one per stage
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glDetachShader(p, es3.glCreateShader(E.GL_FRAGMENT_SHADER))
    expect(es3, E.GL_INVALID_OPERATION)


def test_link_and_queries(es3):
    p = program(es3)
    assert es3.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], es3.glGetProgramInfoLog(p)
    assert es3.glGetAttribLocation(p, "pos") == 3
    assert es3.glGetAttribLocation(p, "uv") == 0
    assert es3.glGetAttribLocation(p, "nope") == -1
    assert es3.glGetFragDataLocation(p, "color") == 0
    names = {es3.glGetActiveUniform(p, i)[0]: es3.glGetActiveUniform(p, i)[1:]
             for i in range(es3.glGetProgramiv(p, E.GL_ACTIVE_UNIFORMS)[0])}
    assert names["mvp"] == (1, E.GL_FLOAT_MAT4)
    assert names["scale[0]"] == (3, E.GL_FLOAT)
    assert names["tex"] == (1, E.GL_SAMPLER_2D)
    assert names["light.dir"] == (1, E.GL_FLOAT_VEC3) and names["light.n"] == (1, E.GL_INT)
    loc = es3.glGetUniformLocation(p, "scale")
    assert es3.glGetUniformLocation(p, "scale[0]") == loc
    assert es3.glGetUniformLocation(p, "scale[2]") == loc + 2
    assert es3.glGetUniformLocation(p, "scale[3]") == -1
    assert es3.glGetUniformLocation(p, "light.n") >= 0
    assert es3.glGetProgramiv(p, E.GL_ACTIVE_ATTRIBUTES) == [2]
    assert es3.glGetActiveAttrib(p, 0) == ("pos", 1, E.GL_FLOAT_VEC4)
    assert es3.glGetError() == E.GL_NO_ERROR


def test_link_creates_pipe_shaders(es3):
    p = program(es3)
    stages = [a[0].stage for n, a in es3.pipe.calls if n == "create_shader_state"]
    assert sorted(stages) == [PipeShaderType.VERTEX, PipeShaderType.FRAGMENT]
    st = [a[0] for n, a in es3.pipe.calls if n == "create_shader_state"][0]
    assert st.info["attributes"] == {"pos": 3, "uv": 0}
    assert st.info["samplers"] == {"tex": (0, 1)} and st.info["frag_outputs"] == {"color": 0}
    block = st.info["default_block"]            # the program's default block, std430
    assert block.leaf("mvp") == (0, 64, 16, 1)             # four 16-byte columns
    assert block.leaf("scale[0]") == (64, 4, 0, 3)         # three floats, 4 bytes apart
    es3.glDeleteProgram(p)
    assert es3.pipe.names().count("delete_shader_state") == 2


def test_bind_attrib_location_applies_at_link(es3):
    p = program(es3, link=False)
    es3.glBindAttribLocation(p, 7, "uv")
    es3.glBindAttribLocation(p, 2, "gl_Vertex")
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glLinkProgram(p)
    assert es3.glGetAttribLocation(p, "uv") == 7


def test_link_errors(es3):
    p = program(es3, fs=None)                                 # ES needs both stages
    assert es3.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
    assert "vertex and a fragment" in es3.glGetProgramInfoLog(p)
    fs_missing = FS300.replace("in vec2 v_uv;", "in vec2 v_other;").replace("v_uv)", "v_other)")
    p = program(es3, fs=fs_missing)
    assert es3.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
    assert "v_other" in es3.glGetProgramInfoLog(p)
    fs_type = FS300.replace("in vec2 v_uv;", "in vec3 v_uv;").replace("(tex, v_uv)", "(tex, v_uv.xy)")
    p = program(es3, fs=fs_type)
    assert "type" in es3.glGetProgramInfoLog(p)
    fs_flat = FS300.replace("in vec2 v_uv;", "flat in vec2 v_uv;")
    p = program(es3, fs=fs_flat)
    assert es3.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]        # ES: interpolation must match
    es3.glUseProgram(p)
    expect(es3, E.GL_INVALID_OPERATION)                         # not linked


def test_attribute_aliasing_is_a_link_error_in_es(es3):
    vs = VS300.replace("in vec2 uv;", "layout(location = 3) in vec2 uv;")
    p = program(es3, vs=vs)
    assert es3.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
    assert "alias" in es3.glGetProgramInfoLog(p)


def test_multiple_outputs_without_locations_link_in_es_as_mesa(es3):
    """GLSL ES 3.00 section 4.3.8.2 asks for a location on each of several outputs;
    Mesa links them in declaration order, and so does shimgl
    (test_gles_frag_output_locations.py draws with them)."""
    fs = FS300.replace("out vec4 color;", "out vec4 color; out vec4 other;").replace(
        "void main() {", "void main() { other = vec4(1.0);")
    p = program(es3, fs=fs)
    assert es3.glGetProgramiv(p, E.GL_LINK_STATUS) == [1]
    assert [es3.glGetFragDataLocation(p, n) for n in ("color", "other")] == [0, 1]


def test_delete_current_program_is_deferred(es3):
    p = program(es3)
    es3.glUseProgram(p)
    es3.glDeleteProgram(p)
    assert es3.glIsProgram(p)
    assert es3.glGetProgramiv(p, E.GL_DELETE_STATUS) == [1]
    es3.glUseProgram(0)
    assert not es3.glIsProgram(p)


def test_shader_deletion_deferred_while_attached(es3):
    p = es3.glCreateProgram()
    s = shader(es3, E.GL_VERTEX_SHADER, VS300)
    es3.glAttachShader(p, s)
    es3.glDeleteShader(s)
    assert es3.glIsShader(s)
    assert es3.glGetShaderiv(s, E.GL_DELETE_STATUS) == [1]
    es3.glDetachShader(p, s)
    assert not es3.glIsShader(s)


def test_uniform_blocks_gl43():
    c = make_ctx("gl43")
    vs = """#version 430
layout(std140, binding = 2) uniform Params { vec3 a; float b; mat3 m; } params;
in vec4 p;
void main() { gl_Position = p + vec4(params.a, params.b) + vec4(params.m[0], 0.0); }
"""
    fs = "#version 430\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"
    p = program(c, vs, fs)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    i = c.glGetUniformBlockIndex(p, "Params")
    assert i == 0 and c.glGetUniformBlockIndex(p, "Nope") == E.GL_INVALID_INDEX
    # std140: vec3 at 0, float at 12, mat3 = 3 vec4 columns at 16 -> 64 bytes
    assert c.glGetActiveUniformBlockiv(p, i, E.GL_UNIFORM_BLOCK_DATA_SIZE) == [64]
    assert c.glGetActiveUniformBlockiv(p, i, E.GL_UNIFORM_BLOCK_BINDING) == [2]
    c.glUniformBlockBinding(p, i, 5)
    assert c.glGetActiveUniformBlockiv(p, i, E.GL_UNIFORM_BLOCK_BINDING) == [5]
    c.glUniformBlockBinding(p, 3, 0)
    expect(c, E.GL_INVALID_VALUE)


def test_compute_program():
    c = make_ctx("gl43")
    cs = c.glCreateShader(E.GL_COMPUTE_SHADER)
    c.glShaderSource(cs, 1, ["#version 430\nlayout(local_size_x = 8, local_size_y = 2) in;\n"
                             "void main() {}\n"])
    c.glCompileShader(cs)
    p = c.glCreateProgram()
    c.glAttachShader(p, cs)
    c.glLinkProgram(p)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    assert c.glGetProgramiv(p, E.GL_COMPUTE_WORK_GROUP_SIZE) == [8, 2, 1]
    g = program(c, "#version 430\nin vec4 p;\nvoid main() { gl_Position = p; }\n",
                "#version 430\nout vec4 o;\nvoid main() { o = vec4(0.0); }\n")
    c.glGetProgramiv(g, E.GL_COMPUTE_WORK_GROUP_SIZE)
    expect(c, E.GL_INVALID_OPERATION)


def test_compat_program_without_vertex_shader_links():
    c = make_ctx("compat")
    p = program(c, vs=None, fs="#version 110\nvoid main() { gl_FragColor = gl_Color; }\n")
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    # core profiles too: test_a_core_program_may_have_a_fragment_shader_only


def test_transform_feedback_varyings_checked_at_link(es3):
    p = program(es3, link=False)
    es3.glTransformFeedbackVaryings(p, 1, ["v_uv"], E.GL_INTERLEAVED_ATTRIBS)
    es3.glLinkProgram(p)
    assert es3.glGetProgramiv(p, E.GL_TRANSFORM_FEEDBACK_VARYINGS) == [1]
    es3.glTransformFeedbackVaryings(p, 1, ["missing"], E.GL_INTERLEAVED_ATTRIBS)
    es3.glLinkProgram(p)
    assert es3.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
    es3.glTransformFeedbackVaryings(p, 1, ["v_uv"], E.GL_RGBA)
    expect(es3, E.GL_INVALID_ENUM)


def test_interface_blocks_match_by_block_name_not_instance_name():
    """GLSL 1.50 section 4.3.7: `out Data {...} vs_out;` feeds `in Data {...} fs_in;`;
    the same instance name on differently named blocks does not match."""
    c = make_ctx("gl33")
    vs = ("#version 150\nin vec4 p;\nout Data { vec4 c; float k; } vs_out;\n"
          "void main() { gl_Position = p; vs_out.c = p; vs_out.k = 1.0; }\n")
    fs = ("#version 150\nin {block} {{ vec4 c; float k; }} {inst};\nout vec4 o;\n"
          "void main() {{ o = {inst}.c * {inst}.k; }}\n")
    p = program(c, vs=vs, fs=fs.format(block="Data", inst="fs_in"))
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    p = program(c, vs=vs, fs=fs.format(block="Other", inst="vs_out"))
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
    p = program(c, vs=vs, fs=fs.format(block="Data", inst="vs_out").replace("float k", "vec2 k")
                .replace(".k;", ".k.x;"))
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]         # members differ


def test_a_core_program_may_have_a_fragment_shader_only():
    """Desktop GL links a program without a vertex shader (GL 4.6 section 7.3 names no
    such link error; vertex processing is then undefined, section 11.1, with no
    error at a draw): only GLSL ES requires both stages. Its uniform block members
    are queried as usual (piglit's getactiveuniformsiv-uniform-type does this)."""
    c = make_ctx("gl33")
    p = program(c, vs=None, fs="#version 140\nlayout(std140) uniform ubo { float a; vec3 u; };\n"
                               "void main() { gl_FragColor = vec4(a + u.x); }\n")
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS)[0], c.glGetProgramInfoLog(p)
    idx = c.glGetUniformIndices(p, 1, ["u"])
    assert c.glGetActiveUniformsiv(p, 1, idx, E.GL_UNIFORM_TYPE) == [E.GL_FLOAT_VEC3]
    c.glUseProgram(p)
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(c, E.GL_NO_ERROR)
    es = make_ctx("gles3")
    p = program(es, vs=None)
    assert not es.glGetProgramiv(p, E.GL_LINK_STATUS)[0]


def _active_uniforms(ctx, p) -> dict:
    n = ctx.glGetProgramiv(p, E.GL_ACTIVE_UNIFORMS)[0]
    return {ctx.glGetActiveUniform(p, i)[0]: ctx.glGetActiveUniform(p, i)[1:] for i in range(n)}


def test_built_in_uniforms_the_shaders_read_are_active_without_a_location(compat):
    """The compatibility built-in state uniforms a program reads are active uniforms
    (as on Mesa: piglit's glsl-getactiveuniform-count counts gl_ModelViewProjectionMatrix,
    which ftransform() reads), flattened like user uniforms, arrays read with constant
    indices sized by the highest; none has a location, offset or block."""
    vs = ("uniform vec4 a;\nvoid main() { gl_Position = ftransform() + a + gl_TextureMatrix[1][0]\n"
          "  + gl_LightSource[1].diffuse + vec4(gl_DepthRange.near); }\n")
    p = program(compat, vs=vs, fs="void main() { gl_FragColor = gl_Color + gl_Fog.color; }\n")
    assert compat.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], compat.glGetProgramInfoLog(p)
    got = _active_uniforms(compat, p)
    light = {"ambient": E.GL_FLOAT_VEC4, "diffuse": E.GL_FLOAT_VEC4, "specular": E.GL_FLOAT_VEC4,
             "position": E.GL_FLOAT_VEC4, "halfVector": E.GL_FLOAT_VEC4, "spotDirection": E.GL_FLOAT_VEC3,
             "spotExponent": E.GL_FLOAT, "spotCutoff": E.GL_FLOAT, "spotCosCutoff": E.GL_FLOAT,
             "constantAttenuation": E.GL_FLOAT, "linearAttenuation": E.GL_FLOAT,
             "quadraticAttenuation": E.GL_FLOAT}
    want = {"a": (1, E.GL_FLOAT_VEC4), "gl_ModelViewProjectionMatrix": (1, E.GL_FLOAT_MAT4),
            "gl_TextureMatrix[0]": (2, E.GL_FLOAT_MAT4),
            **{f"gl_LightSource[{i}].{m}": (1, t) for i in range(2) for m, t in light.items()},
            **{f"gl_DepthRange.{m}": (1, E.GL_FLOAT) for m in ("near", "far", "diff")},
            **{f"gl_Fog.{m}": (1, t) for m, t in (("color", E.GL_FLOAT_VEC4), ("density", E.GL_FLOAT),
                                                  ("start", E.GL_FLOAT), ("end", E.GL_FLOAT),
                                                  ("scale", E.GL_FLOAT))}}
    assert got == want
    assert compat.glGetProgramiv(p, E.GL_ACTIVE_UNIFORM_MAX_LENGTH) == [len("gl_LightSource[0].quadraticAttenuation") + 1]
    assert compat.glGetUniformLocation(p, "gl_ModelViewProjectionMatrix") == -1
    assert compat.glGetUniformLocation(p, "a") == 0
    i = compat.glGetProgramResourceIndex(p, E.GL_UNIFORM, "gl_ModelViewProjectionMatrix")
    assert compat.glGetProgramInterfaceiv(p, E.GL_UNIFORM, E.GL_ACTIVE_RESOURCES) == [len(want)]
    assert compat.glGetProgramResourceiv(p, E.GL_UNIFORM, i, 3, [E.GL_LOCATION, E.GL_OFFSET, E.GL_BLOCK_INDEX],
                                         3) == [-1, -1, -1]
    assert compat.glGetActiveUniformsiv(p, 1, [i], E.GL_UNIFORM_OFFSET) == [-1]
    expect(compat, E.GL_NO_ERROR)


def test_the_fixed_function_vertex_stage_adds_no_active_uniforms(compat):
    """A program with a fragment shader only runs the fixed-function vertex stage, whose
    state uniforms are none of the program's."""
    p = program(compat, vs=None, fs="uniform vec4 k;\nvoid main() { gl_FragColor = gl_Color * k; }\n")
    assert compat.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], compat.glGetProgramInfoLog(p)
    assert _active_uniforms(compat, p) == {"k": (1, E.GL_FLOAT_VEC4)}


def test_a_program_without_shaders_links_in_compat_and_draws_fixed_function():
    """GL 4.6 compat section 7.3: a stage the program lacks is the fixed-function one, so
    a program with no shader object links (as on Mesa) and draws as fixed function does
    (piglit gl-2.0-link-empty-prog); a core or ES program without shaders fails to link."""
    import numpy as np
    from tests.driver.agx import glhelp
    c = glhelp.context(8, 8, api="compat")
    p = c.glCreateProgram()
    c.glLinkProgram(p)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    c.glUseProgram(p)
    expect(c, E.GL_NO_ERROR)
    # the fixed-function fragment stage textures: GL_MODULATE of green by a (0, 128, 0) texel
    t = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([0, 128, 0, 255]))
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    c.glEnable(E.GL_TEXTURE_2D)
    c.glColor4f(0.0, 1.0, 0.0, 1.0)
    c.glBegin(E.GL_TRIANGLES)
    for x, y in ((-1, -1), (3, -1), (-1, 3)):
        c.glTexCoord2f(0.5, 0.5)
        c.glVertex2f(x, y)
    c.glEnd()
    px = np.frombuffer(bytes(c.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (px.reshape(-1, 4) == (0, 128, 0, 255)).all(), px.reshape(-1, 4)[0]
    for api in ("gl33", "gles3"):
        other = make_ctx(api)
        q = other.glCreateProgram()
        other.glLinkProgram(q)
        assert other.glGetProgramiv(q, E.GL_LINK_STATUS) == [0]
        assert "no shaders" in other.glGetProgramInfoLog(q)


def test_get_active_attrib_lists_gl_vertex_id_and_gl_instance_id():
    """GL 4.6 section 11.1.1: GetActiveAttrib enumerates every active vertex input,
    gl_VertexID and gl_InstanceID included (ints, no location; Mesa lists these two and
    no other system value); a program that does not read them lists neither."""
    c = make_ctx("gl33")
    vs = ("#version 140\nin vec4 pos;\nflat out int k;\n"
          "void main() { gl_Position = pos; k = gl_InstanceID + gl_VertexID; }\n")
    fs = "#version 140\nflat in int k;\nout vec4 o;\nvoid main() { o = vec4(k); }\n"
    p = program(c, vs=vs, fs=fs)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    assert c.glGetProgramiv(p, E.GL_ACTIVE_ATTRIBUTES) == [3]
    got = [c.glGetActiveAttrib(p, i) for i in range(3)]
    assert got == [("gl_InstanceID", 1, E.GL_INT), ("gl_VertexID", 1, E.GL_INT), ("pos", 1, E.GL_FLOAT_VEC4)]
    assert c.glGetProgramiv(p, E.GL_ACTIVE_ATTRIBUTE_MAX_LENGTH) == [len("gl_InstanceID") + 1]
    assert [c.glGetAttribLocation(p, n) for n in ("gl_VertexID", "gl_InstanceID", "pos")] == [-1, -1, 0]
    c.glGetActiveAttrib(p, 3)
    expect(c, E.GL_INVALID_VALUE)
    q = program(c, vs=vs.replace("gl_InstanceID + gl_VertexID", "1"), fs=fs)
    assert [c.glGetActiveAttrib(q, i)[0] for i in range(c.glGetProgramiv(q, E.GL_ACTIVE_ATTRIBUTES)[0])] == ["pos"]
