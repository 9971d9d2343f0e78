"""compiler.link: the shader objects of a stage linked into one stage the pipe compiles.

Expectations are independent of the link: a stage split over several shader objects
must compile to the same binary as the same code written as one object, and a linked
stage of one object to the binary the whole compiler makes of its source."""

from pathlib import Path

import pytest

from compiler.compile import compile_glsl, compile_linked
from compiler.glsl import parse
from compiler.link import LinkedShader, LinkError, link_stage, shader_from_source

MAIN = """#version 150
vec4 shade(float x);
uniform float k;
out vec4 c;
void main() { c = shade(k); }
"""
LIB = """#version 150
uniform float k;
vec4 shade(float x) { return vec4(x, k * 0.5, 0.25, 1.0); }
"""
WHOLE = """#version 150
uniform float k;
out vec4 c;
vec4 shade(float x) { return vec4(x, k * 0.5, 0.25, 1.0); }
void main() { c = shade(k); }
"""


def objects(stage, *sources):
    return [(parse(s, stage, shader_object=True), s) for s in sources]


def test_a_function_declared_in_one_object_and_defined_in_another_links():
    split = link_stage("fragment", objects("fragment", MAIN, LIB))
    whole = compile_glsl(WHOLE, "fragment")
    got = compile_linked(split)
    assert got.binary == whole.binary
    assert set(got.info.uniforms) == {"k"}          # the two objects' `k' are one uniform


def test_linking_leaves_the_shader_objects_as_they_were():
    (main, main_src), (lib, lib_src) = objects("fragment", MAIN, LIB)
    link_stage("fragment", [(main, main_src), (lib, lib_src)])
    (sig, _loc), = main.unresolved_calls
    assert sig.name == "shade" and sig.definition is None     # another program may link it with another body
    with pytest.raises(LinkError, match="unresolved reference to function `shade'"):
        link_stage("fragment", [(main, main_src)])


@pytest.mark.parametrize("sources, message", [
    ((MAIN,), "unresolved reference to function `shade'"),
    ((LIB,), "fragment shader: no definition of main()"),
    ((WHOLE, WHOLE.replace("c = shade(k);", "c = vec4(k);")), "fragment shader: more than one definition of main()"),
    ((MAIN, LIB, LIB.replace("#version 150\n", "#version 150\nvoid unused() {}\n")),
     "function `vec4 shade(float)' is defined in more than one fragment shader object"),
    ((MAIN, LIB.replace("uniform float k;", "uniform int k;").replace("k * 0.5", "float(k)")),
     "`k' declared as different types in fragment shaders"),
    # main -> shade (second object) -> back (first object) -> shade: recursion only the link sees
    ((MAIN.replace("void main()", "vec4 back(float x) { return shade(x * 0.5); }\nvoid main()"),
      LIB.replace("vec4 shade(float x) { return", "vec4 back(float x);\nvec4 shade(float x) { if (x < 0.1) return back(x); return")),
     "function `back' has static recursion across the fragment shader objects"),
])
def test_link_errors(sources, message):
    with pytest.raises(LinkError) as e:
        link_stage("fragment", objects("fragment", *sources))
    assert str(e.value) == message


def test_a_standalone_compile_still_reports_the_unresolved_call():
    from compiler.glsl import GLSLCompileError
    with pytest.raises(GLSLCompileError, match="unresolved reference to function `shade'"):
        parse(MAIN, "fragment")


def test_linked_shaders_are_frozen_and_compare_by_digest():
    a = link_stage("fragment", objects("fragment", MAIN, LIB))
    b = link_stage("fragment", objects("fragment", MAIN, LIB))
    other = link_stage("fragment", objects("fragment", WHOLE))
    assert a == b and hash(a) == hash(b) and a.unit is not b.unit
    assert a != other and len({a, b, other}) == 2
    assert MAIN in a.text and LIB in a.text and a.text.index(MAIN) < a.text.index(LIB)
    with pytest.raises(AttributeError):
        a.stage = "vertex"
    compat = LinkedShader("vertex", None, ("#version 150\nvoid main(){}\n",), "compatibility")
    core = LinkedShader("vertex", None, ("#version 150\nvoid main(){}\n",), "core")
    assert compat.digest != core.digest       # the same text is another shader in another profile


_STAGE = {".vert": "vertex", ".frag": "fragment", ".comp": "compute"}
_CORPUS = sorted(p for p in (Path(__file__).parent / "glsl" / "corpus" / "valid").iterdir() if p.suffix in _STAGE)


@pytest.mark.parametrize("path", _CORPUS, ids=lambda p: p.name)
def test_a_linked_stage_compiles_to_the_binary_of_its_source(path):
    source, stage = path.read_text(), _STAGE[path.suffix]
    linked = shader_from_source(source, stage)
    before = repr(linked.unit)
    first, again = compile_linked(linked), compile_linked(linked)     # variants reuse the one unit
    assert first.binary == again.binary == compile_glsl(source, stage).binary
    assert repr(linked.unit) == before                                # which the lowering only reads


# -- locations, interfaces and block layouts (the link's rules, GL 4.6 sections 7.6.2.2, 11.1.1, 15.2.3) --

from compiler.link import (  # noqa: E402
    assign_attributes, assign_frag_outputs, block_members, block_size, frag_output_indices, match_interfaces,
)


def _globals(source, stage, storage):
    unit = parse(source, stage, shader_object=True)
    return unit, [g for g in unit.globals if g.storage == storage and not g.name.startswith("gl_")]


def test_attribute_locations_explicit_then_bound_then_lowest_free():
    unit, inputs = _globals("""#version 330
layout(location = 1) in vec4 a;
in mat3 m;            // three locations
in vec2 b;
in float unused;
void main() { gl_Position = a + vec4(m[0] + m[2], b.x); }
""", "vertex", "in")
    got = assign_attributes(inputs, unit, bindings={"b": 0}, max_attribs=16, es=False)
    assert {k: v[0] for k, v in got.items()} == {"a": 1, "b": 0, "m": 2}      # unused: no location
    assert got["m"][2] == 3
    with pytest.raises(LinkError, match="too many vertex attributes"):
        assign_attributes(inputs, unit, bindings={"b": 0}, max_attribs=4, es=False)
    with pytest.raises(LinkError, match="location 15 exceeds MAX_VERTEX_ATTRIBS"):
        assign_attributes(inputs, unit, bindings={"m": 15}, max_attribs=16, es=False)


def test_compatibility_built_in_inputs_get_locations():
    unit, inputs = _globals("""#version 120
attribute vec4 extra;
void main() { gl_Position = ftransform() + gl_Color + extra; }
""", "vertex", "in")
    got = assign_attributes(inputs, unit, bindings={}, max_attribs=16, es=False,
                            legacy_attribs={"gl_Vertex", "gl_Color", "gl_Normal"})
    assert {k: v[0] for k, v in got.items()} == {"gl_Vertex": 0, "extra": 1, "gl_Color": 2}


def test_fragment_outputs_and_dual_source_indices():
    _u, outputs = _globals("""#version 330
layout(location = 0, index = 1) out vec4 second;
out vec4 first;
out vec4 more;
void main() { first = second = more = vec4(1.0); }
""", "fragment", "out")
    got = assign_frag_outputs(outputs, bindings={"more": 2}, index_bindings={}, max_render_targets=8,
                              max_dual_source=1)
    assert got == {"second": 0, "first": 1, "more": 2}      # the lowest location no output has
    assert frag_output_indices(outputs, {}) == {"second": 1, "first": 0, "more": 0}
    with pytest.raises(LinkError, match="two fragment outputs share a location"):
        assign_frag_outputs(outputs, bindings={"more": 0, "first": 0}, index_bindings={}, max_render_targets=8,
                            max_dual_source=1)


def test_stage_interfaces_match_by_name_block_name_and_type():
    _u, outs = _globals("#version 150\nout vec3 n;\nout Data { vec2 uv; } vs_out;\n"
                        "void main() { n = vec3(0.0); vs_out.uv = vec2(0.0); gl_Position = vec4(0.0); }\n",
                        "vertex", "out")
    _u, ins = _globals("#version 150\nin vec3 n;\nin Data { vec2 uv; } fs_in;\nout vec4 o;\n"
                       "void main() { o = vec4(n, fs_in.uv.x); }\n", "fragment", "in")
    match_interfaces(outs, ins, es=False)
    _u, bad = _globals("#version 150\nin vec4 n;\nout vec4 o;\nvoid main() { o = n; }\n", "fragment", "in")
    with pytest.raises(LinkError, match="`n' is declared as type `vec4' in the fragment shader and `vec3'"):
        match_interfaces(outs, bad, es=False)
    _u, missing = _globals("#version 150\nin float k;\nout vec4 o;\nvoid main() { o = vec4(k); }\n",
                           "fragment", "in")
    with pytest.raises(LinkError, match="input `k' has no matching output"):
        match_interfaces(outs, missing, es=False)


BLOCK = """#version 430
layout(std140) uniform B { float a; vec3 b; mat2 c; float d[2]; };
layout(std430) buffer S { float a2; vec3 b2; mat2 c2; float d2[2]; };
out vec4 o;
void main() { o = vec4(a + b.x + c[0].x + d[1] + a2 + b2.x + c2[0].x + d2[1]); }
"""


def test_block_layouts_std140_and_std430():
    unit = parse(BLOCK, "fragment", shader_object=True)
    ubo, ssbo = (b.type for b in unit.interface_blocks)
    # std140: vec3 at 16; a mat2's columns and a float array's elements are 16 bytes apart
    assert [(m.name, m.offset_B, m.array_stride_B, m.matrix_stride_B) for m in block_members(ubo)] == [
        ("a", 0, 0, 0), ("b", 16, 0, 0), ("c", 32, 0, 16), ("d[0]", 64, 16, 0)]
    assert block_size(ubo) == 96
    # std430: mat2 columns 8 bytes apart, float array elements 4
    assert [(m.name, m.offset_B, m.array_stride_B, m.matrix_stride_B)
            for m in block_members(ssbo, std430=True)] == [
        ("a2", 0, 0, 0), ("b2", 16, 0, 0), ("c2", 32, 0, 8), ("d2[0]", 48, 4, 0)]
    assert block_size(ssbo, std430=True) == 64


@pytest.mark.parametrize("first, second, message", [
    ("float g = 1.0;", "float g = 2.0;", "initializers for global variable `g' have differing values"),
    ("const float g = 1.0;", "const float g = 2.0;", "initializers for global variable `g' have differing values"),
    ("uniform float a; float g = sin(a);", "uniform float a; float g = sin(a);",
     "shared global variable `g' has multiple non-constant initializers"),
    ("float g = 1.0;", "float g = 1.0;", None),          # one value: one variable
])
def test_a_global_initialised_in_two_objects(first, second, message):
    sources = (f"#version 110\n{first}\nfloat f();\nvoid main() {{ gl_Position = vec4(g + f()); }}\n",
               f"#version 110\n{second}\nfloat f() {{ return g; }}\n")
    if message is None:
        linked = link_stage("vertex", objects("vertex", *sources))
        assert [g.name for g in linked.unit.globals if not g.name.startswith("gl_")].count("g") == 1
        whole = f"#version 110\n{first}\nfloat f() {{ return g; }}\nvoid main() {{ gl_Position = vec4(g + f()); }}\n"
        assert compile_linked(linked).binary == compile_glsl(whole, "vertex").binary
        return
    with pytest.raises(LinkError) as e:
        link_stage("vertex", objects("vertex", *sources))
    assert str(e.value) == message


@pytest.mark.parametrize("second, message", [
    ("layout(origin_upper_left) in vec4 gl_FragCoord;\nvoid foo() { gl_FragColor.a = gl_FragCoord.z; }",
     "gl_FragCoord redeclared with different layout qualifiers in the fragment shader objects"),
    ("void foo() { gl_FragColor.a = gl_FragCoord.z; }",
     "gl_FragCoord is redeclared in one fragment shader object and used without the redeclaration in another"),
    ("layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\n"
     "void foo() { gl_FragColor.a = gl_FragCoord.z; }", None),
    ("void foo() { gl_FragColor.a = 1.0; }", None),       # no use: no redeclaration needed
])
def test_gl_frag_coord_redeclarations_agree_across_objects(second, message):
    first = ("#version 150 compatibility\nlayout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\n"
             "void foo();\nvoid main() { gl_FragColor = vec4(gl_FragCoord.xyz, 1.0); foo(); }\n")
    sources = (first, "#version 150 compatibility\n" + second + "\n")
    if message is None:
        link_stage("fragment", objects("fragment", *sources))
        return
    with pytest.raises(LinkError) as e:
        link_stage("fragment", objects("fragment", *sources))
    assert str(e.value) == message


def test_a_struct_global_declared_in_two_objects_is_one_variable():
    first = ("#version 110\nvarying vec4 color;\nstruct S { vec4 v; };\nvoid func();\nS a;\n"
             "void main() { gl_Position = gl_Vertex; a.v = vec4(0.0); func(); color = a.v; }\n")
    second = "#version 110\nstruct S { vec4 v; };\nS a;\nvoid func() { a.v += vec4(0.0, 1.0, 0.0, 0.0); }\n"
    whole = ("#version 110\nvarying vec4 color;\nstruct S { vec4 v; };\nS a;\n"
             "void func() { a.v += vec4(0.0, 1.0, 0.0, 0.0); }\n"
             "void main() { gl_Position = gl_Vertex; a.v = vec4(0.0); func(); color = a.v; }\n")
    linked = link_stage("vertex", objects("vertex", first, second))
    assert compile_linked(linked).binary == compile_glsl(whole, "vertex").binary


def test_an_array_left_unsized_in_one_object_takes_the_other_objects_size():
    first = "#version 110\nfloat a[];\nvoid f() { a[5] = 0.5; gl_FragColor = vec4(a[5], 0, 0, 1.0); }\n"
    second = "#version 110\nfloat a[];\nvoid f();\nvoid main() { f(); }\n"
    linked = link_stage("fragment", objects("fragment", first, second))
    (a,) = [g for g in linked.unit.globals if g.name == "a"]
    assert a.type.length == 6
    whole = "#version 110\nfloat a[6];\nvoid f() { a[5] = 0.5; gl_FragColor = vec4(a[5], 0, 0, 1.0); }\n" \
            "void main() { f(); }\n"
    assert compile_linked(linked).binary == compile_glsl(whole, "fragment").binary


def test_a_redeclaration_of_gl_frag_coord_in_an_object_that_does_not_read_it_still_binds_the_others():
    sources = ("#version 150 compatibility\nvoid blue();\n"
               "void main() { gl_FragColor = vec4(gl_FragCoord.xy, 0.0, 1.0); blue(); }\n",
               "#version 150 compatibility\nlayout(pixel_center_integer) in vec4 gl_FragCoord;\n"
               "void blue() { gl_FragColor.b = 1.0; }\n")
    with pytest.raises(LinkError, match="used without the redeclaration"):
        link_stage("fragment", objects("fragment", *sources))


_PV = "out gl_PerVertex {\n  vec4 gl_Position;\n};\n"


@pytest.mark.parametrize("first, second, message", [
    (_PV + "void foo();\nvoid main() { gl_Position = vec4(1.0); foo(); }\n",
     "out gl_PerVertex {\n  float gl_PointSize;\n};\nvoid foo() { gl_PointSize = 1.0; }\n",
     "the vertex shader objects redeclare the built-in `out gl_PerVertex' block differently"),
    (_PV + "void foo();\nvoid main() { foo(); gl_Position = vec4(1.0); }\n",
     "void foo() { gl_PointSize = 1.0; }\n",
     "a vertex shader object uses the built-in `out gl_PerVertex' block without the redeclaration another "
     "object makes"),
    (_PV + "vec4 foo();\nvoid main() { gl_Position = foo(); }\n", "vec4 foo() { return vec4(1.0); }\n", None),
])
def test_gl_per_vertex_redeclarations_agree_across_objects(first, second, message):
    sources = ("#version 150\n" + first, "#version 150\n" + second)
    if message is None:
        link_stage("vertex", objects("vertex", *sources))
        return
    with pytest.raises(LinkError) as e:
        link_stage("vertex", objects("vertex", *sources))
    assert str(e.value) == message


def test_inputs_read_of_a_linked_fragment_stage():
    """Mesa's inputs_read: what a stage reads of its inputs, by hand for each shape (the
    fixed-function vertex stage computes only the gl_TexCoord[] elements listed)."""
    from compiler.link import inputs_read
    one = """#version 110
varying vec4 v; varying vec4 unused; varying vec4 arr[4];
void main() { gl_FragColor = gl_TexCoord[2] + v + gl_Color + arr[1]; }
"""
    linked = link_stage("fragment", objects("fragment", one))
    assert linked.inputs_read == {"gl_TexCoord": 3, "v": 1, "gl_Color": 1, "arr": 2}
    dynamic = """#version 110
uniform int i; varying vec4 arr[4];
void main() { gl_FragColor = gl_TexCoord[i] + arr[i]; }
"""
    assert inputs_read([parse(dynamic, "fragment")]) == {"gl_TexCoord": 8, "arr": 4}
    resized = """#version 110
varying vec4 gl_TexCoord[3]; uniform int i;
vec4 get() { return gl_TexCoord[i]; }
"""
    main = """#version 110
vec4 get();
void main() { gl_FragColor = get() + gl_TexCoord[0]; }
"""
    # several objects: what any of them reads (the redeclared size where it is read whole)
    assert inputs_read([u for u, _s in objects("fragment", main, resized)])["gl_TexCoord"] == 3
    assert inputs_read([parse("#version 110\nvoid main() { gl_FragColor = vec4(1.0); }\n", "fragment")]) == {}
