"""Doubles passed from the vertex to the fragment stage (flat varyings): a double or
dvec2 takes one location, a dvec3/dvec4 two (GL 4.6 section 11.1.2.1); the values
travel as 32-bit words, bit for bit."""

import numpy as np

from tests.driver.agx.glhelp import context, program, vertices

VS = """#version 430
in vec2 pos; flat out double d; flat out dvec3 e; flat out dvec2 f; flat out float g; flat out dvec4 h;
uniform double k;
void main() { gl_Position = vec4(pos, 0.0, 1.0); d = k / 3.0lf; e = dvec3(0.25lf, k, 1.0lf / 3.0lf);
              f = dvec2(-k, 0.125lf); g = 0.5; h = dvec4(1e300lf, -1e-300lf, k, 2.0lf); }"""
FS = """#version 430
flat in double d; flat in dvec3 e; flat in dvec2 f; flat in float g; flat in dvec4 h;
out vec4 c;
void main() { c = vec4(d * 3.0lf == e.y && e.z == 1.0lf / 3.0lf ? 1.0 : 0.0, float(e.x), float(f.y - f.x - 0.25lf),
                       h.x * h.y == -1.0lf && h.z * h.w == 0.75lf ? g : 0.0); }"""


def test_double_varyings_reach_the_fragment_shader_exactly():
    ctx = context(8, 8, api="gl43")
    p = program(ctx, VS, FS)
    vertices(ctx, p, np.array([-1, -1, 3, -1, -1, 3], np.float32), {"pos": (2, 0)}, 2)
    ctx.glUseProgram(p)
    ctx.glUniform1d(ctx.glGetUniformLocation(p, "k"), 0.375)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == 0
    # 1/3 compared exactly: the words arrive unchanged; f.y - f.x - 0.25 = 0.25
    np.testing.assert_allclose(ctx.read_pixels()[4, 4].astype(int), [255, 64, 64, 128], atol=1)


def test_double_matrices_and_arrays_of_dvec3_as_varyings():
    """Columns and elements of more than two doubles take two locations each."""
    vs = """#version 430
    in vec2 pos; flat out dmat3 m; flat out dvec3 a[2]; flat out dmat4x3 q; flat out float g;
    void main() { gl_Position = vec4(pos, 0.0, 1.0); m = dmat3(1.0lf / 3.0lf, 2, 3, 4, 5, 6, 7, 8, 9);
                  a[0] = dvec3(10, 11, 12); a[1] = dvec3(13, 14, 1e300lf); q = dmat4x3(0.5lf); g = 0.5; }"""
    fs = """#version 430
    flat in dmat3 m; flat in dvec3 a[2]; flat in dmat4x3 q; flat in float g;
    out vec4 c;
    void main() { c = vec4(m[0][0] * 3.0lf == 1.0lf && m[2][2] == 9.0lf && m[1][0] == 4.0lf ? 1.0 : 0.0,
                           a[1].z == 1e300lf && a[0].y == 11.0lf && a[1].x == 13.0lf ? 1.0 : 0.0,
                           q[2][2] == 0.5lf && q[3][1] == 0.0lf && q[0][0] == 0.5lf ? 1.0 : 0.0, g); }"""
    ctx = context(8, 8, api="gl43")
    p = program(ctx, vs, fs)
    vertices(ctx, p, np.array([-1, -1, 3, -1, -1, 3], np.float32), {"pos": (2, 0)}, 2)
    ctx.glUseProgram(p)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == 0
    np.testing.assert_allclose(ctx.read_pixels()[4, 4].astype(int), [255, 255, 255, 128], atol=1)


def test_structures_of_floats_and_double_matrices_as_varyings():
    """A structure member after a float takes the locations after the float's: each
    dvec3/dvec4 column two (a dmat2x4 four, a dmat3x3 six); every double arrives bit
    for bit (compared with ==), the float too."""
    decl = "struct S { float f; dmat2x4 m; }; struct T { vec2 v; dmat3x3 n; double d; };"
    m = [1.0 / 3.0, 2.0, 1e300, -0.0, 5e-310, 6.0, 7.0, 8.0]
    n = [0.1 * (k + 1) for k in range(9)]
    lit = lambda x: f"{x!r}lf"
    vs = f"""#version 430
    {decl}
    in vec2 pos; flat out S s; flat out T t;
    void main() {{ gl_Position = vec4(pos, 0.0, 1.0); s.f = 0.25;
                  s.m = dmat2x4({", ".join(map(lit, m))});
                  t.v = vec2(0.5, 0.75); t.n = dmat3x3({", ".join(map(lit, n))}); t.d = -1.0lf / 7.0lf; }}"""
    fs = f"""#version 430
    {decl}
    flat in S s; flat in T t;
    out vec4 c;
    void main() {{ c = vec4(s.m == dmat2x4({", ".join(map(lit, m))}) ? 1.0 : 0.0,
                           t.n == dmat3x3({", ".join(map(lit, n))}) && t.d == -1.0lf / 7.0lf ? 1.0 : 0.0,
                           t.v == vec2(0.5, 0.75) ? 1.0 : 0.0, s.f); }}"""
    ctx = context(8, 8, api="gl43")
    p = program(ctx, vs, fs)
    vertices(ctx, p, np.array([-1, -1, 3, -1, -1, 3], np.float32), {"pos": (2, 0)}, 2)
    ctx.glUseProgram(p)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == 0
    np.testing.assert_allclose(ctx.read_pixels()[4, 4].astype(int), [255, 255, 255, 64], atol=1)
