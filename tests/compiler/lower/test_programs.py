"""GLSL programs with control flow, functions and aggregates, lowered and run on
the IR interpreter; results compared with the same program written in Python."""

from __future__ import annotations

import numpy as np

from tests.compiler.lower.harness import as_f32, as_i32, run_fragment, run_vertex

LANES = 32
rng = np.random.default_rng(11)
A = rng.integers(-20, 20, (4, LANES)).astype(np.int32)


def run_int(body: str, decls: str = "", a=A):
    src = f"#version 430\nin ivec4 a;\nflat out ivec4 r;\n{decls}\nvoid main() {{\n{body}\n}}\n"
    outs, _info, _it = run_vertex(src, {"a": a}, LANES)
    return as_i32(outs["r"])


def per_lane(fn, a=A):
    return np.array([fn(*a[:, i]) for i in range(a.shape[1])], np.int64).T.astype(np.int32)


def check(body, fn, decls="", a=A):
    np.testing.assert_array_equal(run_int(body, decls, a), per_lane(fn, a))


def test_if_else_chain():
    def py(x, y, z, w):
        if x > 5:
            r = 1
        elif x < -5:
            r = 2
        else:
            r = 3 if y > 0 else 4
        return r, x, y, w
    check("int t; if (a.x > 5) t = 1; else if (a.x < -5) t = 2; else { if (a.y > 0) t = 3; else t = 4; }\n"
          "r = ivec4(t, a.x, a.y, a.w);", py)


def test_for_loop_with_break_and_continue():
    def py(x, y, z, w):
        s = 0
        for i in range(20):
            if i == abs(y) % 7:
                continue
            if s > abs(x) * 3:
                break
            s += i
        return s, i, 0, 0
    check("int s = 0; int i; for (i = 0; i < 20; i++) { if (i == abs(a.y) % 7) continue; if (s > abs(a.x) * 3) break;"
          " s += i; } r = ivec4(s, i, 0, 0);", py)


def test_while_and_do_while():
    def py(x, y, z, w):
        n, steps = abs(x) + 1, 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        k = 0
        while True:
            k += 1
            if k % 3 == 0:
                if not k < abs(y):
                    break
                continue
            if not k < abs(y):
                break
        return steps, k, 0, 0
    check("int n = abs(a.x) + 1; int steps = 0; while (n != 1) { n = (n % 2 == 0) ? n / 2 : 3 * n + 1; steps++; }\n"
          "int k = 0; do { k++; if (k % 3 == 0) continue; } while (k < abs(a.y));\n"
          "r = ivec4(steps, k, 0, 0);", py)


def test_nested_loops_and_early_return_from_function():
    decls = """
int find(int target, int limit) {
    for (int i = 0; i < limit; i++) {
        for (int j = 0; j < limit; j++) {
            if (i * j == target) return i * 100 + j;
        }
    }
    return -1;
}"""

    def py(x, y, z, w):
        def find(target, limit):
            for i in range(limit):
                for j in range(limit):
                    if i * j == target:
                        return i * 100 + j
            return -1
        return find(abs(x), 6), find(y, 4), 0, 0
    check("r = ivec4(find(abs(a.x), 6), find(a.y, 4), 0, 0);", py, decls)


def test_switch_with_fallthrough_default_and_continue():
    def py(x, y, z, w):
        total = 0
        for i in range(6):
            v = (x + i) % 5
            if v == 0:
                total += 1
            elif v in (1, 2):
                total += 10
                if v == 2:
                    total += 100
            elif v == 3:
                continue
            else:
                total += 1000
            total += 5
        return total, 0, 0, 0
    check("""int total = 0;
for (int i = 0; i < 6; i++) {
    switch ((a.x + i) % 5 < 0 ? (a.x + i) % 5 + 5 : (a.x + i) % 5) {
    case 0: total += 1; break;
    case 1:
    case 2: total += 10;
            if ((a.x + i) % 5 == 2 || (a.x + i) % 5 == -3) total += 100;
            break;
    case 3: continue;
    default: total += 1000;
    }
    total += 5;
}
r = ivec4(total, 0, 0, 0);""", lambda x, y, z, w: py(x, y, z, w))


def test_switch_fallthrough_into_default():
    def py(x, y, z, w):
        v = x & 3
        r = 0
        if v == 1:
            r += 1
        if v in (1, 2):
            r += 2
        if v in (1, 2, 0, 3):
            r += 4
        return r, 0, 0, 0
    check("int t = 0; switch (a.x & 3) { case 1: t += 1; case 2: t += 2; default: t += 4; } r = ivec4(t, 0, 0, 0);",
          py)


def test_out_inout_parameters_and_side_effects_in_order():
    decls = """
int counter = 0;
int bump(inout int c, out int before) { before = c; c += 3; counter++; return c * 2; }
void swap2(inout ivec2 v) { v = v.yx; }"""

    def py(x, y, z, w):
        c = x
        before = c
        c += 3
        r0 = c * 2
        v = (y, z)
        v = (v[1], v[0])
        return r0 + before, c, v[0] * 1000 + v[1], 1
    check("int c = a.x; int before; int r0 = bump(c, before); ivec2 v = a.yz; swap2(v);"
          " r = ivec4(r0 + before, c, v.x * 1000 + v.y, counter);", py, decls)


def test_ternary_and_short_circuit_side_effects():
    def py(x, y, z, w):
        n = 0
        k = 0
        if x > 0:
            n += 1
            t = n
        else:
            k += 1
            t = -k
        # (x > 3 && (n++ > 0)) || (k++ < 10)
        first = x > 3 and (n > 0)
        if x > 3:
            n += 1
        second = True
        if not first:
            second = k < 10
            k += 1
        return t, n, k, int(first or second)
    check("int n = 0; int k = 0; int t = a.x > 0 ? ++n : -(++k);\n"
          "bool b = (a.x > 3 && (n++ > 0)) || (k++ < 10);\n"
          "r = ivec4(t, n, k, int(b));", py)


def test_structs_arrays_copies_and_indirect_indexing():
    decls = """
struct S { ivec2 p; int w[3]; };
S make(int x) { S s; s.p = ivec2(x, -x); for (int i = 0; i < 3; i++) s.w[i] = x * i; return s; }"""

    def py(x, y, z, w):
        s = {"p": [x, -x], "w": [x * i for i in range(3)]}
        t = {"p": list(s["p"]), "w": list(s["w"])}
        t["w"][abs(y) % 3] = 77
        arr = [z, z + 1, z + 2, z + 3, z + 4, z + 5]
        arr[abs(w) % 6] += 100
        eq = int(s == t)
        return t["w"][abs(x) % 3] + s["w"][2], arr[abs(y) % 6], eq, t["p"][1]
    check("S s = make(a.x); S t = s; t.w[abs(a.y) % 3] = 77;\n"
          "int arr[6] = int[6](a.z, a.z + 1, a.z + 2, a.z + 3, a.z + 4, a.z + 5);\n"
          "arr[abs(a.w) % 6] += 100;\n"
          "r = ivec4(t.w[abs(a.x) % 3] + s.w[2], arr[abs(a.y) % 6], int(s == t), t.p.y);", py, decls)


def test_swizzle_writes_and_vector_component_indexing():
    def py(x, y, z, w):
        v = [x, y, z, w]
        v[2], v[0] = v[0] * 2, v[2] * 2       # v.zx = v.xz * 2
        v[abs(y) % 4] = 9
        m = v[abs(x) % 4]
        v[3] += 1
        return v[0], v[1], v[2] + m, v[3]
    check("ivec4 v = a; v.zx = v.xz * 2; v[abs(a.y) % 4] = 9; int m = v[abs(a.x) % 4]; v.w++;"
          " r = ivec4(v.x, v.y, v.z + m, v.w);", py)


def test_large_local_array_goes_through_scratch():
    def py(x, y, z, w):
        arr = [i * i for i in range(40)]
        arr[abs(x) % 40] = y
        return arr[abs(z) % 40], arr[(abs(x) + 1) % 40], 0, 0
    check("int arr[40]; for (int i = 0; i < 40; i++) arr[i] = i * i; arr[abs(a.x) % 40] = a.y;"
          " r = ivec4(arr[abs(a.z) % 40], arr[(abs(a.x) + 1) % 40], 0, 0);", py)


def test_global_initialisers_and_const_arrays():
    decls = "const int tbl[4] = int[4](3, 1, 4, 1); int g = 5; float h = 0.5;"
    check("g += tbl[abs(a.x) % 4]; r = ivec4(g, int(h * 4.0), tbl[2], 0);",
          lambda x, y, z, w: ([3, 1, 4, 1][abs(x) % 4] + 5, 2, 4, 0), decls)


def test_float_matrix_program():
    a = rng.uniform(-2, 2, (4, LANES)).astype(np.float32)
    src = """#version 430
in vec4 a; out vec4 r;
mat3 rot(float t) { float c = cos(t), s = sin(t); return mat3(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0); }
void main() {
    mat3 m = rot(a.x) * rot(a.y);
    m[2] = vec3(a.z, a.w, 1.0);
    m[1][2] += 2.0;
    mat3 mi = inverse(m);
    vec3 v = mi * (m * vec3(1.0, 2.0, 3.0));
    r = vec4(v, m[1][2] + (m * 2.0)[0][0]);
}"""
    outs, _i, _it = run_vertex(src, {"a": a}, LANES)
    got = as_f32(outs["r"])
    np.testing.assert_allclose(got[:3], np.array([[1], [2], [3]]).repeat(LANES, 1), atol=2e-4)
    c = np.cos(a[0] + a[1])
    np.testing.assert_allclose(got[3], 2.0 + 2 * c, atol=1e-5)


def test_discard_and_fragment_output():
    lanes = 16
    v = np.stack([np.linspace(-1, 1, lanes)] * 4).astype(np.float32)
    src = """#version 330
in vec4 v; out vec4 o;
void main() { if (v.x < 0.0) discard; o = vec4(v.x, 1.0 - v.x, 0.25, 1.0); }"""
    from compiler.ir import ShaderKey
    from compiler.lower import RenderTarget
    key = ShaderKey.make(render_targets=(RenderTarget(format="i32"),))
    tiles, info, it = run_fragment(src, {"v": v}, lanes, key=key)
    got = as_f32(tiles[0])
    keep = v[0] >= 0
    np.testing.assert_array_equal(it.alive, keep)
    np.testing.assert_allclose(got[0][keep], v[0][keep])
    np.testing.assert_array_equal(got[0][~keep], 0)
    assert info.discards and info.outputs == {0: "o"}


def test_return_from_main_skips_the_rest_but_keeps_outputs():
    def py(x, y, z, w):
        if x > 0:
            return x, 0, 0, 0
        return x, 5, 0, 0
    check("r = ivec4(a.x, 0, 0, 0); if (a.x > 0) return; r.y = 5;", py)


def test_out_parameter_converts_and_writes_the_lvalue_evaluated_at_call_time():
    """piglit vs-out-conversion-int-to-float-vec4-index: an `out int` into a float
    place converts on the copy back (GLSL 1.30 section 6.1; the raw int bits were
    stored); the argument's index is evaluated at call time, before the body
    changes it (GLSL 4.30 section 6.1.1)."""
    decls = """
void f(out int x) { x = 4; }
void g(inout int i, out int x) { i += 1; x = 7; }"""
    a = np.abs(A) % 4

    def py(x, y, z, w):
        v = [0.0] * 4
        v[x] = 4.0
        u = [0.0] * 4
        u[x] = 7.0               # the index as it was when g was called
        s = 4.0
        return int(v[0] + 10 * v[1] + 100 * v[2] + 1000 * v[3]), int(sum(u[k] * 10 ** k for k in range(4))), \
            int(s), x + 1
    check("int i = a.x; vec4 v = vec4(0.0); f(v[i]);"
          " float u[4] = float[4](0.0, 0.0, 0.0, 0.0); int j = a.x; g(j, u[j]);"
          " float s; f(s);"
          " r = ivec4(dot(v, vec4(1.0, 10.0, 100.0, 1000.0)),"
          " u[0] + 10.0 * u[1] + 100.0 * u[2] + 1000.0 * u[3], s, j);", py, decls, a)
