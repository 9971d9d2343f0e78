"""Semantic analysis: the typed AST the IR builder receives."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, ast, parse, preprocess
from compiler.glsl import types as T


def body(src: str, stage: str = "vertex"):
    """The statements of main()."""
    return parse(src, stage).main.definition.body.statements


def expr_of(stmt):
    e = stmt.expression
    return e.value if isinstance(e, ast.Assignment) else e


def test_implicit_conversion_is_an_explicit_node():
    (decl,) = body("#version 120\nvoid main() { float f = 1 + 2.0; }\n")
    init = decl.declaration.declarators[0].initializer
    assert isinstance(init, ast.Binary) and init.type is T.FLOAT
    assert isinstance(init.left, ast.Conversion) and init.left.type is T.FLOAT
    assert init.left.operand.type is T.INT
    assert init.const == (3.0,)


def test_swizzle_replaces_field_access():
    stmts = body("void main() { vec4 v = vec4(1.0, 2.0, 3.0, 4.0); vec2 s = v.wx; }\n")
    init = stmts[1].declaration.declarators[0].initializer
    assert isinstance(init, ast.Swizzle) and init.components == (3, 0) and init.type is T.VEC2


def test_constant_folding_through_const_variables_and_constructors():
    stmts = body("#version 120\nvoid main() {\n const vec3 a = vec3(1.0, 2.0, 3.0);\n"
                 " const float d = dot(a, a) + a.y * 2.0;\n"
                 " const mat2 m = mat2(2.0);\n const vec2 r = m * vec2(1.0, 3.0);\n}\n")
    d = stmts[1].declaration.declarators[0].variable
    assert d.const_value == (18.0,)
    assert stmts[3].declaration.declarators[0].variable.const_value == (2.0, 6.0)


def test_integer_constant_arithmetic_wraps_and_truncates():
    stmts = body("#version 130\nvoid main() {\n const int a = -7 / 2;\n const int b = -7 % 3;\n"
                 " const uint c = 0u - 1u;\n const int d = 2147483647 + 1;\n}\n")
    values = [s.declaration.declarators[0].variable.const_value for s in stmts]
    assert values == [(-3,), (-1,), (0xFFFFFFFF,), (-2147483648,)]


def test_array_size_from_constant_expression():
    (decl,) = body("const int N = 2;\nvoid main() { float a[N * 3 + 1]; }\n")
    assert str(decl.declaration.declarators[0].variable.type) == "float[7]"


def test_arrays_of_arrays_type_order():
    stmts = body("#version 430\nvoid main() { float[2] a[3]; int n = a.length() * 10 + a[0].length(); }\n")
    v = stmts[0].declaration.declarators[0].variable
    assert str(v.type) == "float[3][2]" and v.type.length == 3 and v.type.element.length == 2
    assert stmts[1].declaration.declarators[0].initializer.const == (32,)


def test_overload_resolution_prefers_exact_match():
    src = ("#version 120\nfloat f(float x) { return x; }\nint f(int x) { return x; }\n"
           "void main() { float a = f(1); float b = f(1.0); }\n")
    stmts = body(src)
    call_a = stmts[0].declaration.declarators[0].initializer
    assert isinstance(call_a, ast.Conversion)  # int f(int) then converted to float
    assert call_a.operand.signature.return_type is T.INT
    call_b = stmts[1].declaration.declarators[0].initializer
    assert call_b.signature.return_type is T.FLOAT


def test_overload_resolution_with_conversion():
    src = "#version 120\nfloat g(float x, float y) { return x; }\nvoid main() { float a = g(1, 2); }\n"
    call = body(src)[0].declaration.declarators[0].initializer
    assert all(isinstance(a, ast.Conversion) for a in call.args)


def test_ambiguous_call_is_an_error():
    src = ("#version 400\nvoid h(float x, double y) {}\nvoid h(double x, float y) {}\n"
           "void main() { h(1, 1); }\n")
    with pytest.raises(GLSLCompileError) as e:
        parse(src, "vertex")
    assert "0:4(15): error: parameter ambiguity in call to `h(int, int)'" in e.value.info_log


def test_matrix_vector_shapes():
    stmts = body("#version 120\nvoid main() {\n mat2x3 m; vec3 a = m * vec2(1.0);\n"
                 " vec2 b = vec3(1.0) * m;\n mat3x2 t = transpose(m);\n mat3 o = m * t;\n}\n")
    types = [s.declaration.declarators[0].variable.type.name for s in stmts[1:]]
    assert types == ["vec3", "vec2", "mat3x2", "mat3x3"]


def test_struct_and_block_members():
    tu = parse("#version 140\nstruct L { vec3 p; float k; };\nuniform B { L lights[2]; float s; } b;\n"
               "void main() { gl_Position = vec4(b.lights[1].p * b.s, 1.0); }\n", "vertex")
    (block,) = tu.interface_blocks
    assert block.type.block_kind == "uniform" and [f.name for f in block.type.fields] == ["lights", "s"]
    assert block.variable.name == "b" and block.variable.storage == "uniform"
    accesses = [n for n in ast.walk(tu) if isinstance(n, ast.FieldAccess)]
    assert {(a.field, a.field_index) for a in accesses} == {("lights", 0), ("p", 0), ("s", 1)}


def test_instance_less_block_members_are_globals():
    tu = parse("#version 430\nlayout(local_size_x = 1) in;\n"
               "layout(std430, binding = 3) buffer Data { uint n; float v[]; };\n"
               "void main() { v[n] = float(v.length()); }\n", "compute")
    assert [(v.name, v.storage, v.layout.get("binding"), v.layout.get("std430")) for v in tu.globals] == [
        ("n", "buffer", 3, True), ("v", "buffer", 3, True)]
    length = [n for n in ast.walk(tu) if isinstance(n, ast.ArrayLength)][0]
    assert length.const is None  # runtime-sized


def test_qualifiers_become_variable_fields():
    tu = parse("#version 330\nlayout(location = 2) out vec4 c;\nflat in ivec2 i;\n"
               "centroid in vec3 n;\ninvariant out float x;\nuniform sampler2D s;\nvoid main() {}\n",
               "fragment")
    c, i, n, x, s = tu.globals
    assert (c.storage, c.layout) == ("out", {"location": 2})
    assert (i.storage, i.interpolation, i.read_only) == ("in", "flat", True)
    assert n.centroid and s.storage == "uniform"


def test_varying_and_attribute_map_to_in_out():
    vs = parse("attribute vec4 p;\nvarying vec2 uv;\nvoid main() { uv = p.xy; gl_Position = p; }\n",
               "vertex")
    assert [(v.name, v.storage, v.written_storage) for v in vs.globals] == [
        ("p", "in", "attribute"), ("uv", "out", "varying")]
    fs = parse("varying vec2 uv;\nvoid main() { gl_FragColor = vec4(uv, 0.0, 1.0); }\n", "fragment")
    assert fs.globals[0].storage == "in"


def test_switch_and_loops_typed():
    stmts = body("#version 130\nvoid main() {\n int n = 0;\n"
                 " for (int i = 0; i < 4; ++i) { if (i == 2) continue; n += i; }\n"
                 " while (n > 0) n--;\n do { n++; } while (n < 3);\n"
                 " switch (n) { case 0: n = 1; break; case 1 + 2: break; default: break; }\n}\n")
    sw = stmts[-1]
    labels = [s for s in sw.body.statements if isinstance(s, ast.CaseLabel)]
    assert [lbl.value.const if lbl.value else None for lbl in labels] == [(0,), (3,), None]


def test_initializer_lists_420():
    (d,) = body("#version 420\nvoid main() { vec3 v[2] = { vec3(1.0), { 0.0, 1.0, 2.0 } }; }\n")
    init = d.declaration.declarators[0].initializer
    assert isinstance(init, ast.Constructor) and str(init.type) == "vec3[2]"
    assert init.const == ((1.0, 1.0, 1.0), (0.0, 1.0, 2.0))


def test_unsized_array_sized_by_initializer():
    (d,) = body("#version 120\nvoid main() { float a[] = float[](1.0, 2.0, 3.0); }\n")
    assert d.declaration.declarators[0].variable.type.length == 3


def test_locations_point_at_the_construct():
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 330\n\nvoid main() {\n    bool b = true;\n    float f = b * 1.0;\n}\n",
              "vertex")
    assert e.value.info_log.startswith("0:5(15): error: ")


def test_line_directive_moves_locations():
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 330\n#line 100 7\nvoid main() { undefined_thing = 1; }\n", "vertex")
    assert e.value.info_log == "7:100(15): error: `undefined_thing' undeclared\n"


def test_several_errors_are_all_reported():
    with pytest.raises(GLSLCompileError) as e:
        parse("void main() {\n  a = 1.0;\n  b = 2.0;\n}\n", "vertex")
    assert e.value.info_log.splitlines() == ["0:2(3): error: `a' undeclared",
                                             "0:3(3): error: `b' undeclared"]


def test_warnings_go_to_info_log_of_successful_compile():
    tu = parse("#version 330\n#define A__B 1\nvoid main() { gl_Position = vec4(A__B); }\n", "vertex")
    assert "preprocessor warning" in tu.info_log


def test_unknown_stage():
    with pytest.raises(ValueError):
        parse("void main() {}", "mesh")


def test_preprocess_returns_the_four_fields():
    text, version, profile, extensions = preprocess("#version 300 es\nvoid main() {}\n")
    assert (version, profile, extensions) == (300, "es", {})
    assert "void main" in text


def test_visitor_and_walk():
    tu = parse("void main() { gl_Position = vec4(1.0) + vec4(2.0); }\n", "vertex")

    class Count(ast.NodeVisitor):
        n = 0

        def visit_Constructor(self, node):
            self.n += 1
            self.generic_visit(node)

    c = Count()
    c.visit(tu)
    assert c.n == 2
    assert sum(isinstance(n, ast.Literal) for n in ast.walk(tu)) == 2


def test_std140_and_std430_offsets():
    tu = parse("#version 430\nlayout(local_size_x = 1) in;\n"
               "struct S { vec3 a; float b; };\n"
               "layout(std140) uniform U { float f; vec3 v; float g[2]; mat3 m; S s; vec2 t; };\n"
               "layout(std430) buffer B { float f2; vec2 v2; float h[2]; vec3 w; S s2[]; };\n"
               "void main() {}\n", "compute")
    ubo, ssbo = (b.type for b in tu.interface_blocks)
    assert T.block_member_offsets(ubo) == [("f", 0), ("v", 16), ("g", 32), ("m", 64), ("s", 112),
                                           ("t", 128)]
    assert T.block_member_offsets(ssbo) == [("f2", 0), ("v2", 8), ("h", 16), ("w", 32), ("s2", 48)]
    assert T.std_array_stride(T.array_of(T.FLOAT, 2)) == 16
    assert T.std_array_stride(T.array_of(T.FLOAT, 2), std430=True) == 4


def test_row_major_matrix_member():
    tu = parse("#version 140\nuniform U { layout(row_major) mat2x3 m; float x; };\nvoid main() {}\n",
               "vertex")
    # row_major mat2x3 = 3 rows of vec2, each padded to 16 bytes
    assert T.block_member_offsets(tu.interface_blocks[0].type) == [("m", 0), ("x", 48)]


VALID_SNIPPETS = {
"pervertex": ("#version 150\nout gl_PerVertex { vec4 gl_Position; float gl_PointSize; };\nvoid main() { gl_Position = vec4(1.0); }\n", "vertex"),
"shadow_struct": ("struct S { float a; };\nvoid main() { float S = 1.0; gl_Position = vec4(S); }\n", "vertex"),
"while_decl": ("#version 130\nvoid main() { int i = 0; while (bool b = i < 3) { i++; } gl_Position = vec4(i); }\n", "vertex"),
"comma": ("void main() { float a, b; a = (b = 1.0, b + 1.0); gl_Position = vec4(a); }\n", "vertex"),
"proto_names": ("float f(float);\nfloat f(float y) { return y; }\nvoid main() { gl_Position = vec4(f(1.0)); }\n", "vertex"),
"nested_struct": ("#version 120\nstruct A { float x; };\nstruct B { A a[2]; };\nuniform B b;\nvoid main() { gl_Position = vec4(b.a[1].x); }\n", "vertex"),
"ternary_array": ("#version 120\nvoid main() { float a[2]; float b[2]; float c[2] = true ? a : b; gl_Position = vec4(c[0]); }\n", "vertex"),
"vec_index": ("#version 130\nuniform int k;\nvoid main() { vec4 v = vec4(1.0); v[k] = 2.0; mat3 m; m[1][2] = v[0]; gl_Position = v; }\n", "vertex"),
"out_struct_varying": ("#version 150\nstruct V { vec3 n; };\nout V v;\nvoid main() { v.n = vec3(1.0); gl_Position = vec4(0.0); }\n", "vertex"),
"precision_in_func": ("#version 100\nprecision mediump float;\nvoid main() { precision highp float; highp vec2 x = vec2(1.0); gl_FragColor = vec4(x, 0.0, 1.0); }\n", "fragment"),
"fragcoord_layout": ("#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord;\nout vec4 c;\nvoid main() { c = gl_FragCoord; }\n", "fragment"),
"fragdepth_layout": ("#version 420\nlayout(depth_greater) out float gl_FragDepth;\nvoid main() { gl_FragDepth = 1.0; }\n", "fragment"),
"uint_ops": ("#version 130\nvoid main() { uint a = 3u; int b = 2; uint c = a * 2u + uint(b); c >>= 1; c %= 2u; gl_Position = vec4(c); }\n", "vertex"),
"int_to_uint_400": ("#version 400\nvoid main() { uint a = 3; float f = a; double d = f; gl_Position = vec4(float(d)); }\n", "vertex"),
"mat_ctor": ("#version 120\nvoid main() { mat3 m = mat3(mat4(1.0)); mat2 n = mat2(vec2(1.0), 2.0, 3.0); vec4 v = vec4(n); gl_Position = vec4(m[0], 1.0) + v; }\n", "vertex"),
"const_array_index": ("#version 120\nconst float t[3] = float[3](1.0, 2.0, 3.0);\nconst float x = t[1] * 2.0;\nfloat y[int(x)];\nvoid main() { gl_Position = vec4(y.length()); }\n", "vertex"),
}


@pytest.mark.parametrize("name", sorted(VALID_SNIPPETS))
def test_valid_snippets(name):
    src, stage = VALID_SNIPPETS[name]
    parse(src, stage)


def test_es_default_precision_is_recorded():
    tu = parse("#version 300 es\nprecision mediump float;\nin vec2 uv;\nin highp float h;\n"
               "uniform sampler2D s;\nout vec4 c;\nvoid main() { c = vec4(uv, h, 1.0); }\n", "fragment")
    assert [(v.name, v.precision) for v in tu.globals] == [
        ("uv", "mediump"), ("h", "highp"), ("s", "lowp"), ("c", "mediump")]


def test_uniform_initializer_value():
    tu = parse("#version 120\nuniform vec2 u = vec2(1, 2);\nvoid main() {}\n", "vertex")
    assert tu.globals[0].uniform_initializer == (1.0, 2.0)


def test_unsized_global_array_is_sized_by_its_constant_indices():
    tu = parse("#version 120\nuniform float w[];\nvoid main() { gl_Position = vec4(w[1] + w[4]); }\n",
               "vertex")
    assert str(tu.globals[0].type) == "float[5]"
    refs = [n for n in ast.walk(tu) if isinstance(n, ast.VariableRef) and n.name == "w"]
    assert all(str(r.type) == "float[5]" for r in refs)


def test_dump_prints_a_typed_tree():
    tu = parse("#version 120\nuniform float u;\nvoid main() { gl_Position = vec4(u * 2); }\n", "vertex")
    text = ast.dump(tu.main.definition)
    assert text.splitlines()[5:] == [
        "    ExpressionStatement",
        "      Assignment op='=' : vec4",
        "        VariableRef name='gl_Position' symbol=out:gl_Position : vec4",
        "        Constructor : vec4",
        "          Binary op='*' : float",
        "            VariableRef name='u' symbol=uniform:u : float",
        "            Conversion : float = (2.0,)",
        "              Literal value=2 : int = (2,)",
    ]


FS150_LEGACY = "#version 150{}\nvarying vec4 c;\nvoid main() {{ gl_FragColor = c; }}\n"


@pytest.mark.parametrize("token, compat_context, ok", [
    ("", True, True),                    # compatibility context: ARB_compatibility
    ("", False, False),                  # core context
    ("", None, False),                   # unknown context: 1.50 is core
    (" compatibility", None, True),
    (" compatibility", False, True),
    (" core", True, False),              # an explicit core token wins
])
def test_deprecated_features_follow_the_profile_and_context(token, compat_context, ok):
    """The profile the shader gets; in a core one `varying` is deprecated (a
    warning, as Mesa), in a compatibility one it is simply allowed."""
    src = FS150_LEGACY.format(token)
    tu = parse(src, "fragment", compat_context=compat_context)
    assert tu.version.compatibility == ok
    assert ("`varying' is deprecated" in tu.info_log) == (not ok)


def test_glsl_140_is_compatibility_only_in_a_compatibility_context():
    src = "#version 140\nvoid main() { gl_FragColor = gl_Color; }\n"
    assert parse(src, "fragment").version.compatibility      # unknown context: as before
    assert parse(src, "fragment", compat_context=True).version.compatibility
    with pytest.raises(GLSLCompileError):
        parse(src, "fragment", compat_context=False)


def test_implicit_compatibility_does_not_define_the_profile_macro():
    src = ("#version 150\n#ifdef GL_compatibility_profile\n#error defined\n#endif\n"
           "void main() { gl_FragColor = vec4(1.0); }\n")
    parse(src, "fragment", compat_context=True)   # Mesa: only the `compatibility` token defines it


def test_a_shader_without_main_compiles_and_a_standalone_compile_rejects_it():
    """GL reports a missing main() when linking (a stage may be several shader
    objects); a standalone compile (``require_main``) reports it at once."""
    from compiler.glsl import GLSLCompileError, parse
    src = "#version 130\nint twice(int x) { return x % 0 + 2 * x; }\n"
    assert parse(src, "fragment").main is None
    with pytest.raises(GLSLCompileError) as e:
        parse(src, "fragment", require_main=True)
    assert "error: fragment shader lacks `main'" in e.value.info_log


def test_es100_allows_defining_after_one_prototype():
    from compiler.glsl import parse
    src = ("#version 100\nprecision mediump float;\nhighp float k(float x);\n"
           "highp float k(float x) { return x; }\nvoid main() { gl_FragColor = vec4(k(1.0)); }\n")
    assert parse(src, "fragment").main is not None


def test_gl_frag_color_is_compatibility_only_from_420():
    """Deprecated in 1.30, still in core profiles until GLSL 4.20 moved it to the
    compatibility profile (as Mesa does)."""
    for v in ("150", "330", "410"):
        parse(f"#version {v}\nvoid main() {{ gl_FragData[0] = vec4(0.5); }}\n", "fragment", compat_context=False)
        parse(f"#version {v}\nvoid main() {{ gl_FragColor = vec4(1.0); }}\n",
              "fragment", compat_context=False)
    src = "#version 420\nvoid main() { gl_FragData[1] = vec4(1.0); }\n"
    with pytest.raises(GLSLCompileError) as e:
        parse(src, "fragment", compat_context=False)
    assert "0:2(15): error: `gl_FragData' undeclared" in e.value.info_log.splitlines()
    parse(src.replace("420", "420 compatibility"), "fragment")


def test_layout_names_ignore_case_on_desktop_only():
    parse("#version 150\nlayout(Origin_Upper_LEFT) in vec4 gl_FragCoord;\nout vec4 c;\n"
          "void main() { c = gl_FragCoord; }\n", "fragment")
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 310 es\nlayout(LOCAL_SIZE_X = 4) in;\nvoid main() {}\n", "compute")
    assert "0:2(8): error: unrecognized layout identifier `LOCAL_SIZE_X'" in e.value.info_log.splitlines()


def test_per_vertex_redeclared_with_a_subset_compiles():
    src = ("#version 150\nin vec4 p;\nout gl_PerVertex {\n    vec4 gl_Position;\n    float gl_ClipDistance[2];\n};\n"
           "void main() { gl_Position = p; gl_ClipDistance[1] = p.x; }\n")
    tu = parse(src, "vertex")
    assert {v.name for v in tu.builtin_variables} >= {"gl_Position", "gl_ClipDistance"}


def test_420pack_last_local_size_wins_and_compute_extension_brings_shared_atomics():
    tu = parse("#version 150\n#extension GL_ARB_shading_language_420pack : enable\n"
               "#extension GL_ARB_compute_shader : enable\n"
               "layout(local_size_x = 4) layout(local_size_x = 8, local_size_y = 2) in;\n"
               "shared uint hits;\nvoid main() { atomicAdd(hits, 1u); memoryBarrierBuffer(); memoryBarrierImage(); }\n",
               "compute")
    assert tu.local_size == (8, 2, 1)
