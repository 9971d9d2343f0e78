"""Accept/reject rules of the GLSL specifications the front end got wrong (found by
sampling piglit's compiler tests; these are our own minimal shaders, each with the
rule it checks)."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, parse

AOA = "#extension GL_ARB_arrays_of_arrays : enable\n"
PACK = "#extension GL_ARB_shading_language_420pack : enable\n"

# (version, stage, body, expected error or None for a valid shader)
CASES = [
    # GLSL 1.10 section 8.7: the Lod texture functions exist only in vertex shaders
    # before 1.30 (ARB_shader_texture_lod brings them to fragment shaders)
    ("110", "fragment", "uniform sampler2D s; void main() { gl_FragColor = texture2DLod(s, vec2(0.5), 0.0); }",
     "no function with name 'texture2DLod'"),
    ("120", "fragment", "uniform sampler1DShadow s; void main() { gl_FragColor = shadow1DLod(s, vec3(0.5), 1.0); }",
     "no function with name 'shadow1DLod'"),
    ("110", "fragment", "#extension GL_ARB_shader_texture_lod : require\nuniform sampler2D s;\n"
     "void main() { gl_FragColor = texture2DLod(s, vec2(0.5), 0.0); }", None),
    ("110", "vertex", "uniform sampler2D s; void main() { gl_Position = texture2DLod(s, vec2(0.5), 0.0); }", None),
    ("130", "fragment", "uniform sampler2D s; void main() { gl_FragColor = texture2DLod(s, vec2(0.5), 0.0); }", None),
    # GLSL 1.20 section 4.1.9: an array declared without a size may be declared again
    # with one, in the same scope (locals too) ...
    ("120", "vertex", "void main() { vec4 a[]; a[2] = vec4(1.0); gl_Position = a[2]; vec4 a[3]; }", None),
    ("110", "vertex", "vec4 a[]; void main() { gl_Position = a[1]; } vec4 a[2];", None),
    # ... but not smaller than an index already used
    ("110", "vertex", "vec4 a[]; void main() { gl_Position = a[5]; } vec4 a[4];",
     "array `a' redeclared with size 4 but indexed with 5"),
    # ... and it must have its size before a non-constant index or length()
    ("120", "vertex", "vec4 a[]; uniform int i; void main() { gl_Position = a[i]; }",
     "unsized array `a' index must be constant"),
    ("120", "vertex", "vec4 a[]; void main() { a[1] = vec4(0.0); gl_Position = vec4(a.length()); }",
     "length called on unsized array `a'"),
    # ARB_arrays_of_arrays: only the outermost dimension may be left unsized
    ("120", "vertex", AOA + "uniform vec4[] a[1]; void main() { gl_Position = a[0][0]; }",
     "array `a' has an unsized inner dimension; only the outermost dimension may be unsized"),
    ("120", "vertex", AOA + "uniform vec4 a[][]; void main() { gl_Position = a[0][0]; }",
     "array `a' has an unsized inner dimension; only the outermost dimension may be unsized"),
    ("120", "vertex", AOA + "uniform vec4 a[][2]; void main() { gl_Position = a[0][1]; }", None),
    # a built-in may be redeclared (to size it) only with its own storage qualifier
    ("110", "fragment", "vec4 gl_TexCoord[2]; void main() { gl_FragColor = vec4(0.0); }",
     "`gl_TexCoord' redeclared with a different storage qualifier"),
    ("110", "vertex", "uniform vec4 gl_TexCoord[2]; void main() { gl_Position = vec4(0.0); }",
     "`gl_TexCoord' redeclared with a different storage qualifier"),
    ("110", "fragment", "varying vec4 gl_TexCoord[2]; void main() { gl_FragColor = gl_TexCoord[1]; }", None),
    # GLSL 4.20 section 4.1.11: an initializer list initializes an aggregate, one item
    # per element, each of the element's type or implicitly convertible to it
    ("130", "fragment", PACK + "struct S { float a; int b; };\n"
     "void main() { S e = { 1.2, 2, 3 }; gl_FragColor = vec4(1.0); }",
     "initializer list of 3 elements for struct `S' of 2 fields"),
    ("130", "fragment", PACK + "void main() { vec3 b = { true, false, true }; gl_FragColor = vec4(1.0); }",
     "initializer list item of type `bool' cannot initialize an element of type `float'"),
    ("130", "fragment", PACK + "void main() { int i = { 1 }; gl_FragColor = vec4(1.0); }",
     "initializer list cannot initialize the scalar type `int'"),
    ("130", "fragment", PACK + "void main() { float a[2] = { 1.0, 2.0, 3.0 }; gl_FragColor = vec4(1.0); }",
     "initializer list of 3 elements for an array of 2"),
    ("130", "fragment", PACK + "struct S { float a; vec2 b[2]; };\n"
     "void main() { S e = { 1, { vec2(1), vec2(2) } }; vec3 v = { 1, 2.0, 3 };\n"
     "  float c[] = { 1.0, 2.0, 3.0 }; gl_FragColor = vec4(e.b[1], v.x, c[2]); }", None),
    # GLSL 1.50 section 4.3.8.1: all redeclarations of gl_FragCoord have the same qualifiers
    ("150", "fragment", "layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\n"
     "layout(origin_upper_left) in vec4 gl_FragCoord; out vec4 c; void main() { c = gl_FragCoord; }",
     "gl_FragCoord redeclared with different layout qualifiers"),
    ("150", "fragment", "in vec4 gl_FragCoord; layout(pixel_center_integer) in vec4 gl_FragCoord;\n"
     "out vec4 c; void main() { c = gl_FragCoord; }",
     "gl_FragCoord redeclared with different layout qualifiers"),
    ("150", "fragment", "layout(origin_upper_left) in vec4 gl_FragCoord; layout(origin_upper_left) in vec4 "
     "gl_FragCoord;\nout vec4 c; void main() { c = gl_FragCoord; }", None),
    # a sequence of constant expressions is a constant expression in GLSL 1.10 and ES
    # 1.00, not in ES 3.00 (section 4.3.3) nor desktop 1.20+
    ("100", "vertex", "const float f = 3.0 + (1.0, 2.0); uniform float uf[(1, 2)];\n"
     "void main() { gl_Position = vec4(f, uf[1], 0.0, 1.0); }", None),
    ("110", "vertex", "void main() { const vec4 v = (vec4(1.0), vec4(2.0)); gl_Position = v; }", None),
    ("300 es", "vertex", "const float f = 3.0 + (1.0, 2.0); void main() { gl_Position = vec4(f); }",
     "initializer of const variable `f' must be a constant expression"),
    ("330", "vertex", "uniform float u; void main() { const float f = (u, 2.0); gl_Position = vec4(f); }",
     "initializer of const variable `f' must be a constant expression"),
    ("120", "vertex", "uniform float a[(5, 3)]; void main() { gl_Position = vec4(a[0]); }",
     "array size must be a constant valued expression"),
    # before 1.30 global in/out come with the extensions that give them layouts
    ("110", "fragment", "#extension GL_ARB_fragment_coord_conventions : require\n"
     "layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\n"
     "void main() { gl_FragColor = gl_FragCoord; }", None),
    ("120", "fragment", "#extension GL_ARB_separate_shader_objects : require\n"
     "layout(location = 0) in vec4 a;\nvoid main() { gl_FragColor = a; }", None),
    ("110", "fragment", "in vec4 a;\nvoid main() { gl_FragColor = a; }",
     "`in' qualifier in declaration of `a' only valid for function parameters in GLSL 1.10"),
    # words: memory qualifiers come with storage blocks too; `packed' is a layout name
    # from 1.40 / ES 3.00 (or with ARB_uniform_buffer_object), reserved before; `buffer'
    # is an identifier in ES 3.00, a keyword from ES 3.10
    ("330", "vertex", "#extension GL_ARB_shader_storage_buffer_object : require\n"
     "coherent restrict volatile buffer Buffer { vec4 foo; } buf;\nvoid main() { gl_Position = buf.foo; }",
     None),
    ("150", "vertex", "layout(packed) uniform B { vec4 a; } b;\nvoid main() { gl_Position = b.a; }", None),
    ("130", "vertex", "vec2 packed;\nvoid main() { gl_Position = vec4(packed, 0.0, 1.0); }",
     "illegal use of reserved word `packed'"),
    ("300 es", "vertex", "in vec4 buffer;\nvoid main() { gl_Position = buffer; }", None),
    # `row_major' likewise: reserved in 1.30 unless ARB_uniform_buffer_object is enabled (Mesa)
    ("130", "vertex", "#extension GL_ARB_uniform_buffer_object : require\n"
     "layout(std140, row_major) uniform B { mat2 m; };\nvoid main() { gl_Position = vec4(m[0], 0.0, 1.0); }",
     None),
    ("130", "vertex", "#extension GL_ARB_shader_storage_buffer_object : require\n"
     "#extension GL_ARB_uniform_buffer_object : require\n"
     "layout(std140, row_major) buffer B { mat2 m; };\nvoid main() { gl_Position = vec4(m[0], 0.0, 1.0); }",
     None),
    ("130", "vertex", "#extension GL_ARB_shader_storage_buffer_object : require\n"
     "layout(std140, row_major) buffer B { mat2 m; };\nvoid main() { gl_Position = vec4(m[0], 0.0, 1.0); }",
     "illegal use of reserved word `row_major'"),
    # a parameter whose type contains an opaque type is an input only
    ("110", "fragment", "struct S { float x; sampler2D t; };\nvoid f(inout S p) {}\n"
     "void main() { gl_FragColor = vec4(1.0); }", "opaque parameters cannot be `inout'"),
    ("110", "fragment", "struct S { float x; sampler2D t; };\nvoid f(out S p) {}\n"
     "void main() { gl_FragColor = vec4(1.0); }", "opaque parameters cannot be `out'"),
    # embedded structure definitions are not supported from GLSL 1.20 (section 4.1.8) and
    # in ES; GLSL 1.10 has them
    ("120", "vertex", "struct T { struct { float f; } s; };\nvoid main() { gl_Position = vec4(1.0); }",
     "embedded structure declarations are not allowed"),
    ("110", "vertex", "struct T { struct U { float f; } s; };\n"
     "void main() { T t = T(U(1.0)); gl_Position = vec4(t.s.f); }", None),
    # a storage-block member declared readonly is read-only through a named block too
    ("330", "vertex", "#extension GL_ARB_shader_storage_buffer_object : require\n"
     "buffer Buffer { readonly float foo[2]; float bar; } buf;\nvoid main() { buf.foo[1] = 1.0; }",
     "assignment to read-only variable 'buf'"),
    ("330", "vertex", "#extension GL_ARB_shader_storage_buffer_object : require\n"
     "buffer Buffer { readonly float foo; float bar; } buf;\nvoid main() { buf.bar = buf.foo; }", None),
    # a storage block's last member keeps its run-time length
    ("430", "vertex", "layout(std430) buffer B { float x[]; }; uniform int i;\n"
     "void main() { gl_Position = vec4(x[i], float(x.length()), 0.0, 1.0); }", None),
]


@pytest.mark.parametrize("version,stage,body,error", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_verdict(version, stage, body, error):
    src = f"#version {version}\n{body}\n"
    if error is None:
        parse(src, stage)
        return
    with pytest.raises(GLSLCompileError) as e:
        parse(src, stage)
    assert any(line.endswith(f"error: {error}") for line in e.value.info_log.splitlines()), e.value.info_log


def test_a_redeclaration_does_not_leak_into_the_next_compile():
    """Built-in variables are fresh per compilation: a shader redeclaring gl_FragCoord
    with a layout leaves the next shader's gl_FragCoord as the default."""
    first = parse("#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord;\n"
                  "out vec4 c; void main() { c = gl_FragCoord; }\n", "fragment")
    second = parse("#version 150\nout vec4 c; void main() { c = gl_FragCoord; }\n", "fragment")
    layouts = []
    for tu in (first, second):
        (var,) = [v for v in tu.builtin_variables if v.name == "gl_FragCoord"]
        layouts.append(dict(var.layout))
    assert layouts == [{"origin_upper_left": True}, {}]
    # and the same declaration twice in one process is accepted twice
    for _ in range(2):
        parse("#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord;\n"
              "layout(origin_upper_left) in vec4 gl_FragCoord;\nout vec4 c; void main() { c = gl_FragCoord; }\n",
              "fragment")
