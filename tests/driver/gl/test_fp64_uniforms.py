"""Double uniforms of the default block (GL 4.0 / ARB_gpu_shader_fp64):
glUniform*d*, glUniformMatrix*dv, glGetUniformdv, glGetActiveUniform's GL_DOUBLE*
types, and the values reaching a draw (the fragment shader's doubles are lowered to
32-bit integer code)."""

import numpy as np

from tests.driver.agx.glhelp import context, program, vertices

VS = """#version 430
in vec2 pos; void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 430
uniform double k; uniform dvec3 v; uniform dmat2 m; uniform double arr[2]; uniform float f;
uniform dmat3x2 w;
out vec4 c;
void main() { c = vec4(float(k * 0.25lf), float(v.z - m[1][0]), float(arr[1] / 8.0lf + w[2][1]), f); }"""


def _setup():
    ctx = context(8, 8, api="gl43")
    p = program(ctx, VS, FS)
    vertices(ctx, p, np.array([-1, -1, 3, -1, -1, 3], np.float32), {"pos": (2, 0)}, 2)
    ctx.glUseProgram(p)
    return ctx, p, lambda n: ctx.glGetUniformLocation(p, n)


def test_double_uniforms_are_set_read_back_and_drawn():
    ctx, p, loc = _setup()
    ctx.glUniform1d(loc("k"), 2.0)
    ctx.glUniform3d(loc("v"), 1.0, 2.0, 0.75)
    ctx.glUniformMatrix2dv(loc("m"), 1, False, [1.0, 2.0, 0.5, 4.0])
    ctx.glUniform1dv(loc("arr"), 2, [1.0, 4.0])
    ctx.glUniformMatrix3x2dv(loc("w"), 1, False, [0, 0, 0, 0, 0, -0.25])
    ctx.glUniform1f(loc("f"), 1.0)
    assert ctx.glGetError() == 0
    # a value no float holds survives the round trip
    ctx.glUniform1d(loc("k"), 1 / 3)
    assert ctx.glGetUniformdv(p, loc("k")) == [1 / 3]
    ctx.glUniform1d(loc("k"), 2.0)
    assert ctx.glGetUniformdv(p, loc("v")) == [1.0, 2.0, 0.75]
    assert ctx.glGetUniformdv(p, loc("m")) == [1.0, 2.0, 0.5, 4.0]
    assert ctx.glGetUniformdv(p, loc("arr[1]")) == [4.0]
    assert ctx.glGetUniformdv(p, loc("w")) == [0, 0, 0, 0, 0, -0.25]
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    px = ctx.read_pixels()[4, 4].astype(int)
    # k/4 = 0.5, v.z - m[1][0] = 0.25, arr[1]/8 + w[2][1] = 0.25
    np.testing.assert_allclose(px, [128, 64, 64, 255], atol=1)


def test_active_uniform_types_and_type_errors():
    ctx, p, loc = _setup()
    types = {}
    n = ctx.glGetProgramiv(p, ctx.GL_ACTIVE_UNIFORMS)
    for i in range(n if isinstance(n, int) else n[0]):
        name, size, t = ctx.glGetActiveUniform(p, i)
        types[name] = (size, t)
    assert types["k"] == (1, ctx.GL_DOUBLE)
    assert types["v"] == (1, ctx.GL_DOUBLE_VEC3)
    assert types["m"] == (1, ctx.GL_DOUBLE_MAT2)
    assert types["w"] == (1, ctx.GL_DOUBLE_MAT3x2)
    assert types["arr[0]"] == (2, ctx.GL_DOUBLE)
    # a float setter on a double (and the other way round) is INVALID_OPERATION and changes nothing
    ctx.glUniform1d(loc("k"), 3.0)
    ctx.glUniform1f(loc("k"), 5.0)
    assert ctx.glGetError() == ctx.GL_INVALID_OPERATION
    ctx.glUniform1d(loc("f"), 5.0)
    assert ctx.glGetError() == ctx.GL_INVALID_OPERATION
    ctx.glUniformMatrix2fv(loc("m"), 1, False, [1.0] * 4)
    assert ctx.glGetError() == ctx.GL_INVALID_OPERATION
    assert ctx.glGetUniformdv(p, loc("k")) == [3.0]


def test_program_uniform_doubles_and_transposed_matrices():
    """glProgramUniform*d (GL 4.1) writes a program that is not current; a transposed
    glUniformMatrix*dv takes rows; glGetUniformdv reads back every value exactly."""
    ctx, p, loc = _setup()
    ctx.glUseProgram(0)
    ctx.glProgramUniform1d(p, loc("k"), 1 / 3)
    ctx.glProgramUniform3dv(p, loc("v"), 1, [0.1, 0.2, 1e300])
    ctx.glProgramUniform1dv(p, loc("arr"), 2, [-0.0, 5e-310])
    ctx.glProgramUniformMatrix2dv(p, loc("m"), 1, True, [1.0, 2.0, 3.0, 4.0])     # rows (1, 2), (3, 4)
    ctx.glProgramUniformMatrix3x2dv(p, loc("w"), 1, True, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert ctx.glGetError() == 0
    assert ctx.glGetUniformdv(p, loc("k")) == [1 / 3]
    assert ctx.glGetUniformdv(p, loc("v")) == [0.1, 0.2, 1e300]
    got = ctx.glGetUniformdv(p, loc("arr[1]"))
    assert got == [5e-310] and str(ctx.glGetUniformdv(p, loc("arr"))[0]) == "-0.0"
    assert ctx.glGetUniformdv(p, loc("m")) == [1.0, 3.0, 2.0, 4.0]                 # stored by columns
    # 3 columns of 2 rows given as 2 rows of 3: column c = (row0[c], row1[c])
    assert ctx.glGetUniformdv(p, loc("w")) == [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
    ctx.glProgramUniform1d(p, loc("f"), 1.0)          # a float uniform: the double setter is refused
    assert ctx.glGetError() == ctx.GL_INVALID_OPERATION


def test_listed_from_gl32_and_required_in_glsl_150():
    """GL_ARB_gpu_shader_fp64 is listed in GL 3.2+ contexts (core and compatibility),
    not in GLES; #extension ... : require brings doubles to GLSL 1.50 with its macro."""
    import driver
    from driver.gl import enums as E
    for api in ("gl33", "compat", "gl46"):
        ctx = driver.Context(api=api, width=4, height=4)
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert "GL_ARB_gpu_shader_fp64" in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}, api
        sh = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
        ctx.glShaderSource(sh, 1, ["#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\n"
                                   "#if GL_ARB_gpu_shader_fp64 != 1\n#error macro\n#endif\n"
                                   "uniform dvec2 d; out vec4 c;\n"
                                   "void main() { c = vec4(float(d.x * d.y + 1.0lf)); }\n"])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0] == 1, ctx.glGetShaderInfoLog(sh)
    es = driver.Context(api="gles3", width=4, height=4)
    n = es.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    assert "GL_ARB_gpu_shader_fp64" not in {es.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
