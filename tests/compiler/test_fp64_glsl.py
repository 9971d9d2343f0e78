"""GLSL doubles end to end: the front end's double types and built-ins, lowered
by ``lower_64bit`` to 32-bit integer IR, run on the IR interpreter and on the GPU
model (compute shaders through the driver), against numpy float64."""

import numpy as np
import pytest

from compiler.compile import front_half
from compiler.ir import Alu, walk_instrs
from compiler.lower import LowerInterpreter

from .fp64_harness import bits

LANES = 16
RNG = np.random.default_rng(21)
A, B, C = RNG.uniform(-3, 3, (3, LANES))
A[:4] = [0.5, -2.5, 1e-310, -0.0]
B[:4] = [0.25, 1.5, 3.0, 2.0]


def _source(expr, n_args=3, out="double", decl=""):
    names = "abc"[:n_args]
    loads = " ".join(f"double {n} = v[{n_args}u * i + {k}u];" for k, n in enumerate(names))
    return f"""#version 430
layout(local_size_x = {LANES}) in;
layout(std430, binding = 0) buffer In {{ double v[]; }};
layout(std430, binding = 1) buffer Out {{ {out} r[]; }};
{decl}
void main() {{
    uint i = gl_GlobalInvocationID.x;
    {loads}
    r[i] = {expr};
}}"""


def run_glsl(expr, *args, out="double", decl=""):
    """Compile and run on the IR interpreter; returns the output buffer's bytes."""
    args = args or (A, B, C)
    shader, _info = front_half(_source(expr, len(args), out, decl), "compute")
    data = np.stack(args, 1).astype(np.float64).reshape(-1).view(np.uint8).copy()
    result = np.zeros(LANES * 32, np.uint8)
    LowerInterpreter(lanes=LANES, ssbos={0: data, 1: result}).run(shader)
    return result, shader


def _doubles(expr, *args):
    return run_glsl(expr, *args)[0].view(np.float64)[:LANES]


EXACT = [
    ("a + b * c", lambda a, b, c: a + b * c),
    ("a / b - c", lambda a, b, c: a / b - c),
    ("sqrt(abs(a))", lambda a, b, c: np.sqrt(np.abs(a))),
    ("inversesqrt(abs(b))", lambda a, b, c: 1 / np.sqrt(np.abs(b))),
    ("floor(a) + ceil(b)", lambda a, b, c: np.floor(a) + np.ceil(b)),
    ("trunc(a) - round(b) + roundEven(c)", lambda a, b, c: np.trunc(a) - np.rint(b) + np.rint(c)),
    ("fract(a)", lambda a, b, c: a - np.floor(a)),
    ("mod(a, b)", lambda a, b, c: a - b * np.floor(a / b)),
    ("min(a, b) + max(b, c)", lambda a, b, c: np.fmin(a, b) + np.fmax(b, c)),
    ("clamp(a, -1.0lf, 1.0lf)", lambda a, b, c: np.clip(a, -1, 1)),
    ("sign(a) * abs(b)", lambda a, b, c: np.sign(a) * np.abs(b)),
    ("step(a, b)", lambda a, b, c: np.where(b < a, 0.0, 1.0)),
    ("double(float(a))", lambda a, b, c: a.astype(np.float32).astype(np.float64)),
    ("double(int(a * 1000.0lf))", lambda a, b, c: np.trunc(a * 1000.0).astype(np.int32).astype(np.float64)),
    ("double(uint(abs(a) * 1e6lf))", lambda a, b, c: np.trunc(np.abs(a) * 1e6).astype(np.uint32).astype(np.float64)),
    ("length(dvec2(a, b))", lambda a, b, c: np.sqrt(a * a + b * b)),
    ("dot(dvec3(a, b, c), dvec3(c, b, a))", lambda a, b, c: a * c + b * b + c * a),
    ("ldexp(a, int(b * 100.0lf))", lambda a, b, c: np.ldexp(a, np.trunc(b * 100).astype(int))),
    ("packDouble2x32(unpackDouble2x32(a) + uvec2(0u, 1u))",
     lambda a, b, c: (bits(a) + np.uint64(1 << 32)).view(np.float64)),
    ("a < b ? a : -c", lambda a, b, c: np.where(a < b, a, -c)),
    ("dmat2(a, b, c, a)[1][0] * 2.0lf", lambda a, b, c: c * 2.0),
    # a matrix product's multiply-adds round twice on doubles (as Mesa's soft-fp64 __ffma64)
    ("(dmat2(a, b, c, a) * dvec2(b, c)).y", lambda a, b, c: b * b + a * c),
    ("determinant(dmat2(a, b, c, a))", lambda a, b, c: a * a - c * b),
]


@pytest.mark.parametrize("expr,ref", EXACT, ids=[e for e, _ in EXACT])
def test_double_expressions_and_builtins_on_the_interpreter(expr, ref):
    got = _doubles(expr)
    with np.errstate(all="ignore"):
        expected = np.asarray(ref(A, B, C), np.float64)
    np.testing.assert_array_equal(bits(got), bits(expected))


def test_no_double_arithmetic_reaches_the_backend():
    _out, shader = run_glsl("fma(a, b, c) / sqrt(abs(c)) + double(float(a) * 2.0)")
    ops = {i.op for i in walk_instrs(shader.main.body) if isinstance(i, Alu)}
    f64 = [i.op for i in walk_instrs(shader.main.body) if isinstance(i, Alu) and i.op[0] == "f"
           and i.dest.bit_size == 64]
    assert not f64 and "pack_64_2x32_split" in ops and "umul_high" in ops


def test_fma_is_fused_and_mix_uses_it():
    e = 2.0 ** -27
    a, b, c = np.full(LANES, 1 + e), np.full(LANES, 1 - e), np.full(LANES, -1.0)
    assert (_doubles("fma(a, b, c)", a, b, c) == -(2.0 ** -54)).all()
    got = _doubles("mix(a, b, c)")
    np.testing.assert_allclose(got, A * (1 - C) + B * C, rtol=1e-14, atol=1e-14)


def test_isnan_isinf_frexp_on_doubles():
    special = np.array([np.nan, np.inf, -np.inf, 1.0, -0.0, 3.5, 1e300, -1e-300] * 2)
    got = run_glsl("uint(isnan(a)) + 2u * uint(isinf(a))", special, out="uint")[0].view(np.uint32)[:LANES]
    np.testing.assert_array_equal(got, np.isnan(special) + 2 * np.isinf(special))
    x = np.array([1.0, 0.75, -12.0, 1e300, 3e-300, 0.0, 2.0 ** 60, -0.3] * 2)
    m, e = np.frexp(x)
    decl = "double split(double x, out int e) { return frexp(x, e); }"
    got = run_glsl("split(a, k) * 1000.0lf + double(k)", x, decl=decl + " int k;")[0].view(np.float64)[:LANES]
    np.testing.assert_array_equal(got, m * 1000.0 + e)


def test_double_uniforms_in_blocks_follow_std140():
    src = """#version 430
layout(local_size_x = 4) in;
layout(std140, binding = 2) uniform U { float f; double d; dvec3 v; double after; };
layout(std430, binding = 1) buffer Out { double r[]; };
void main() { uint i = gl_GlobalInvocationID.x; r[i] = d + v[i % 3u] * 10.0lf + after * 100.0lf + double(f); }"""
    shader, info = front_half(src, "compute")
    ubo = np.zeros(64, np.uint8)
    ubo[0:4] = np.array([0.5], np.float32).view(np.uint8)
    ubo[8:16] = np.array([1.0]).view(np.uint8)                 # double: 8-byte aligned
    ubo[32:56] = np.array([2.0, 3.0, 4.0]).view(np.uint8)      # dvec3: 32-byte aligned
    ubo[56:64] = np.array([5.0]).view(np.uint8)                # follows the dvec3's 24 bytes
    out = np.zeros(32, np.uint8)
    LowerInterpreter(lanes=4, ubos={3: ubo}, ssbos={1: out}).run(shader)      # UBO index = binding + 1
    np.testing.assert_array_equal(out.view(np.float64), [1 + 20 + 500 + 0.5, 1 + 30 + 500.5, 1 + 40 + 500.5,
                                                         1 + 20 + 500.5])


def test_doubles_on_the_gpu_model_through_a_compute_dispatch():
    """The lowered code compiled by the backend and run by the shader core (register
    pairs, umulhi, 64-bit loads/stores split into words) gives numpy's bits."""
    from tests.driver.agx.glhelp import compute_program, context
    n = 64
    rng = np.random.default_rng(5)
    a, b, c = rng.uniform(-10, 10, (3, n))
    a[:4] = [1e-310, -0.0, 1.0, 7.0]
    b[:4] = [3.0, 2.0, 3.0, 49.0]
    ctx = context(8, 8, api="gl43")
    compute_program(ctx, """#version 430
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer B { dvec4 v[]; };
    void main() { uint i = gl_GlobalInvocationID.x; dvec4 x = v[i];
                  v[i].w = x.x / x.y + sqrt(abs(x.z)) * floor(x.x); }""")
    data = np.stack([a, b, c, np.zeros(n)], 1).reshape(-1)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_SHADER_STORAGE_BUFFER, buf)
    ctx.glBufferData(ctx.GL_SHADER_STORAGE_BUFFER, data.nbytes, data, ctx.GL_DYNAMIC_COPY)
    ctx.glBindBufferBase(ctx.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glDispatchCompute(1, 1, 1)
    view = ctx.glMapBufferRange(ctx.GL_SHADER_STORAGE_BUFFER, 0, data.nbytes, ctx.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.float64).reshape(n, 4)
    assert ctx.glGetError() == 0
    np.testing.assert_array_equal(bits(out[:, :3]), bits(np.stack([a, b, c], 1)))
    np.testing.assert_array_equal(bits(out[:, 3]), bits(a / b + np.sqrt(np.abs(c)) * np.floor(a)))


def test_arb_gpu_shader_fp64_brings_doubles_to_glsl_150():
    from compiler.glsl import GLSLCompileError
    body = """
uniform dvec2 arg; uniform double tol;
out vec4 c;
void main() { dvec2 r = floor(arg) + 1.5lf; double x = 2.0; c = vec4(distance(r, dvec2(x)) <= tol); }"""
    _shader, info = front_half("#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\n" + body, "fragment")
    assert info.uniforms["arg"].type == "dvec2" and info.uniforms["tol"].size_B == 8
    with pytest.raises(GLSLCompileError):
        front_half("#version 150\n" + body, "fragment")


def test_a_double_operation_glsl_lacks_is_a_clear_lowering_error():
    from compiler.ir import Builder, Function, Shader
    from compiler.lower import LoweringError
    from compiler.lower.lower64 import lower_64bit
    sh = Shader("compute")
    f = Function("main")
    sh.functions.append(f)
    b = Builder(f, sh)
    b.store_ssbo(b.fexp2(b.fimm(1.0, 64)), b.iimm(0), b.iimm(0), write_mask=1, align=8)
    with pytest.raises(LoweringError, match="64-bit floating-point fexp2"):
        lower_64bit(sh)


def test_fma_of_constants_folds_with_one_rounding():
    from compiler.glsl import GLSLCompileError
    # (1 + 2^-27)(1 - 2^-27) - 1 = -2^-54 exactly; rounded twice it would be 0
    expr = "fma(1.0000000074505806lf, 0.9999999925494194lf, -1.0lf)"
    ok = f"void main() {{ float a[{expr} == -5.551115123125783e-17lf ? 1 : -1]; a[0] = 1.0; }}"
    front_half("#version 430\n" + ok, "fragment")
    with pytest.raises(GLSLCompileError, match="array size"):
        front_half("#version 430\n" + ok.replace("== -5.5", "== 5.5"), "fragment")


def test_uniform_block_members_without_size_take_their_largest_constant_index():
    """Desktop GLSL (1.50 section 4.1.9, as Mesa): `dvec2 c[];` in a uniform block is sized
    by its largest constant index, for instance-less members and members of an instance;
    a member after one is placed by the size it took (std140: dvec2 array stride 16)."""
    src = """#version 430
layout(local_size_x = 4) in;
layout(std140, binding = 2) uniform U { double pre; dvec2 c[]; };
layout(std140, binding = 3) uniform V { dvec2 d[]; float tail; } v;
layout(std430, binding = 1) buffer Out { double r[]; };
void main() { uint i = gl_GlobalInvocationID.x;
              r[i] = i == 0u ? c[0].y : i == 1u ? c[2].x + pre : i == 2u ? v.d[1].y : double(v.tail); }"""
    shader, info = front_half(src, "compute")
    ubo_u = np.zeros(16 + 3 * 16, np.uint8)
    ubo_u[0:8] = np.array([0.25]).view(np.uint8)
    ubo_u[16:64] = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).view(np.uint8)     # c[0], c[1], c[2]
    ubo_v = np.zeros(48, np.uint8)
    ubo_v[0:32] = np.array([7.0, 8.0, 9.0, 10.0]).view(np.uint8)               # d[0], d[1]
    ubo_v[32:36] = np.array([11.5], np.float32).view(np.uint8)                 # tail after d[2]
    out = np.zeros(32, np.uint8)
    LowerInterpreter(lanes=4, ubos={3: ubo_u, 4: ubo_v}, ssbos={1: out}).run(shader)
    np.testing.assert_array_equal(out.view(np.float64), [2.0, 5.25, 10.0, 11.5])


@pytest.mark.parametrize("body, message", [
    ("uniform U { dvec2 c[]; }; uniform int k; void main() { double x = c[k].x; }",
     "unsized array `c' index must be constant"),
    ("uniform U { dvec2 c[]; } u; uniform int k; void main() { double x = u.c[k].x; }",
     "unsized array `c' index must be constant"),
    ("uniform U { dvec2 c[]; } u; void main() { int n = u.c.length(); }",
     "length called on unsized array `c'"),
])
def test_implicitly_sized_block_members_are_refused_where_glsl_says(body, message):
    from compiler.glsl import GLSLCompileError
    with pytest.raises(GLSLCompileError, match=message):
        front_half("#version 400\n" + body, "fragment")
    es = "#version 310 es\nprecision highp float;\nuniform U { vec2 c[]; }; void main() { float x = c[0].x; }"
    with pytest.raises(GLSLCompileError, match="only last member of a shader storage block"):
        front_half(es, "fragment")


def test_row_major_matrices_in_blocks_are_held_as_their_rows():
    """GLSL 4.60 sections 4.4.5 and 7.6.2.2: a row_major matrix of a block is stored as
    its rows (an R-array of C-vectors), its block's qualifier reaching the matrices of a
    member structure and array, a member's column_major overriding it. Reads of whole
    matrices, columns (constant and dynamic index, swizzled) and elements, and writes
    of each, against a buffer laid out by hand."""
    src = """#version 430
layout(local_size_x = 1) in;
struct S { double k; dmat3x2 n; };
layout(std430, row_major, binding = 0) buffer B {
    dmat2x3 m;                      // rows: 3 x dvec2 at 0, 16, 32
    layout(column_major) dmat2 c;   // columns at 48, 64
    S s;                            // at 96: k at 96, n's 2 rows of dvec3 at 128, 160
    mat2 f[2];                      // at 192: f[j] rows of vec2 at 192 + 16j, + 8
    double r[8];                    // at 224
};
layout(std140, row_major, binding = 1) uniform U { mat3 q; dmat2x4 d; };   // q rows at 0/16/32, d rows at 48 + 16r
void main() {
    int i = int(gl_GlobalInvocationID.x) + 1;
    r[0] = m[1][2];
    r[1] = m[i][0];
    dvec3 col = m[0];
    r[2] = col.y + double(q[2][0]) + d[1][3];
    r[3] = c[1][0];
    r[4] = s.n[2][1];
    r[5] = double(f[1][0][1]);
    dmat2x3 whole = m;
    r[6] = whole[1].x + whole[0].z;
    r[7] = determinant(c);
    m[1] = dvec3(7.0, 8.0, 9.0);
    s.n[i][0] = 5.5;
    s.n[0].yx = dvec2(1.25, 2.25);
    f[0] = mat2(1.0, 2.0, 3.0, 4.0);
}"""
    shader, _info = front_half(src, "compute")
    buf = np.zeros(288, np.uint8)
    d64 = buf.view(np.float64)
    m = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])         # m[column][row] = m.T: rows as stored
    for row in range(3):
        d64[row * 2:row * 2 + 2] = m[row]
    d64[6:10] = [10.0, 20.0, 30.0, 40.0]                        # c columns (10, 20), (30, 40)
    d64[12] = 0.5                                               # s.k
    n_rows = np.array([[11.0, 12.0, 13.0], [14.0, 15.0, 16.0]])  # s.n rows (row r: n[0][r], n[1][r], n[2][r])
    d64[16:19], d64[20:23] = n_rows
    f32 = buf.view(np.float32)
    f32[48:52] = [0.25, 0.5, 0.75, 1.0]                         # f[0] rows (0.25, 0.5), (0.75, 1)
    f32[52:56] = [2.0, 3.0, 4.0, 5.0]                           # f[1] rows (2, 3), (4, 5)
    ubo = np.zeros(112, np.uint8)
    ubo.view(np.float32)[[0, 1, 2]] = [100.0, 200.0, 300.0]     # q row 0
    ubo.view(np.float64)[6 + 3 * 2 + 1] = 1000.0               # d row 3, component 1: d[1][3]
    LowerInterpreter(lanes=1, ubos={2: ubo}, ssbos={0: buf}).run(shader)
    # reads (before the writes)
    np.testing.assert_array_equal(d64[28:36], [
        m[2][1], m[0][1], m[1][0] + 300.0 + 1000.0, 30.0, n_rows[1][2], 4.0, m[0][1] + m[2][0],
        10.0 * 40.0 - 30.0 * 20.0])
    # writes: column 1 of m is each row's component 1; s.n[1][0] = 5.5; s.n[0] = (2.25, 1.25)
    np.testing.assert_array_equal(d64[0:6], [1.0, 7.0, 3.0, 8.0, 5.0, 9.0])
    np.testing.assert_array_equal(np.concatenate([d64[16:19], d64[20:23]]), [2.25, 5.5, 13.0, 1.25, 15.0, 16.0])
    np.testing.assert_array_equal(f32[48:56], [1.0, 3.0, 2.0, 4.0, 2.0, 3.0, 4.0, 5.0])


def test_modf_on_doubles_splits_exactly():
    x = np.array([2.75, -2.75, 1e300, -0.0, 5e-310, 0.5, -7.0, 123456789.125] * 2)
    decl = "double split(double x, out double i) { return modf(x, i); }"
    got = run_glsl("split(a, w) * 1000.0lf + w", x, decl=decl + " double w;")[0].view(np.float64)[:LANES]
    frac, whole = np.modf(x)
    np.testing.assert_array_equal(bits(got), bits(frac * 1000.0 + whole))


@pytest.mark.parametrize("src, stage, message", [
    ("in double d; out vec4 c; void main() { c = vec4(d); }", "fragment", "64-bit type"),
    ("noperspective in dvec2 d; out vec4 c; void main() { c = vec4(d, 0, 0); }", "fragment", "64-bit type"),
    ("struct S { float f; dmat2 m; }; in S s; out vec4 c; void main() { c = vec4(s.f); }", "fragment",
     "64-bit type"),
    ("in B { dvec3 v; } b; out vec4 c; void main() { c = vec4(b.v, 1); }", "fragment", "64-bit type"),
    ("out double o; void main() { o = 1.0lf; }", "fragment", "fragment shader output cannot have type double"),
])
def test_double_fragment_inputs_are_flat_and_outputs_are_not_doubles(src, stage, message):
    """GLSL 4.00 section 4.3.4: fragment inputs that are or contain doubles must be flat
    (as integers); section 4.3.6: fragment outputs cannot be doubles."""
    from compiler.glsl import GLSLCompileError
    with pytest.raises(GLSLCompileError, match=message):
        front_half("#version 400\n" + src, stage)
    flat = src.replace("in double", "flat in double").replace("noperspective in", "flat in") \
        .replace("in S s", "flat in S s").replace("in B {", "flat in B {")
    if "out double" not in src:
        front_half("#version 400\n" + flat, stage)


def test_double_vertex_inputs_need_glsl_410_or_the_attribute_extension():
    from compiler.glsl import GLSLCompileError
    body = "in dvec3 d; void main() { gl_Position = vec4(d, 1.0); }"
    with pytest.raises(GLSLCompileError, match="GL_ARB_vertex_attrib_64bit"):
        front_half("#version 400\n" + body, "vertex")
    front_half("#version 410\n" + body, "vertex")


def test_outer_product_reflect_refract_faceforward_fold_in_constant_expressions():
    """The four geometric built-ins fold in a constant expression (an array size) with
    the values the GLSL 4.60 section 8.5/8.6 formulas give in float64 (numpy)."""
    c, r = np.array([-1.25, 0.5, 3.0]), np.array([0.75, -2.0])
    i, n, eta = np.array([0.6, -0.8, 0.0]), np.array([0.0, 1.0, 0.0]), 0.75
    d = float(n @ i)
    k = 1.0 - eta * eta * (1.0 - d * d)
    checks = {
        "outerProduct(dvec3(-1.25lf, 0.5lf, 3.0lf), dvec2(0.75lf, -2.0lf))[1][2]": np.outer(r, c)[1][2],
        "reflect(dvec3(0.6lf, -0.8lf, 0.0lf), dvec3(0.0lf, 1.0lf, 0.0lf)).y": (i - 2.0 * d * n)[1],
        "refract(dvec3(0.6lf, -0.8lf, 0.0lf), dvec3(0.0lf, 1.0lf, 0.0lf), 0.75lf).y":
            (eta * i - (eta * d + np.sqrt(k)) * n)[1],
        "refract(dvec3(0.6lf, -0.8lf, 0.0lf), dvec3(0.0lf, 1.0lf, 0.0lf), 2.0lf).x": 0.0,      # k < 0
        "faceforward(dvec2(1.0lf, 2.0lf), dvec2(0.0lf, 1.0lf), dvec2(0.0lf, 1.0lf)).y": -2.0,
    }
    for expr, want in checks.items():
        src = f"#version 400\nvoid main() {{ float a[{expr} == {float(want)!r}lf ? 1 : -1]; a[0] = 1.0; }}"
        front_half(src, "fragment")
