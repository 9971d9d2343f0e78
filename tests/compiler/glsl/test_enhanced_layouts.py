"""ARB_enhanced_layouts in the GLSL front end (GLSL 4.40 section 4.4): component,
offset/align, xfb_* qualifiers and constant expressions, with the info-log lines."""

import pytest

from compiler.glsl import GLSLCompileError, parse

EXT = "#version 150\n#extension GL_ARB_enhanced_layouts : require\n#extension GL_ARB_separate_shader_objects : require\n"


def _errors(src: str, stage: str = "vertex") -> str:
    with pytest.raises(GLSLCompileError) as e:
        parse(src, stage)
    return str(e.value)


def test_component_packs_a_location():
    unit = parse(EXT + "layout(location = 0, component = 0) out float a;\n"
                 "layout(location = 0, component = 1) out vec2 b;\n"
                 "layout(location = 0, component = 3) out float c;\n"
                 "void main() { a = 1.0; b = vec2(2.0); c = 3.0; gl_Position = vec4(0.0); }", "vertex")
    comps = {v.name: v.layout.get("component", 0) for v in unit.globals if v.storage == "out"}
    assert comps == {"a": 0, "b": 1, "c": 3}


@pytest.mark.parametrize("decl, message", [
    ("layout(location = 0, component = 1) out vec4 a;", "overflows the location"),
    ("layout(component = 1) out float a;", "requires a location"),
    ("layout(location = 0, component = 1) out mat2 a;", "cannot be applied to type mat2"),
    ("layout(location = 0, component = 4) out float a;", "out of range"),
])
def test_component_errors(decl, message):
    log = _errors(EXT + decl + "\nvoid main() { gl_Position = vec4(0.0); }")
    assert message in log
    assert log.startswith("0:4(")          # the line of the declaration


@pytest.mark.parametrize("decl, message", [
    ("layout(location = 0) out vec2 a; layout(location = 0, component = 1) out float b;",
     "use the same components of location 0"),
    ("layout(location = 0) out vec2 a; layout(location = 0, component = 2) flat out int b;",
     "different numerical types"),
    ("layout(location = 0) out Blk { vec4 a; layout(location = 2) float f1[2]; float f2; "
     "layout(location = 3) float f3; } blk;", "use the same components of location 3"),
])
def test_location_aliasing_is_a_link_error(decl, message):
    from compiler.link import LinkError, link_stage
    src = EXT + decl + "\nvoid main() { gl_Position = vec4(0.0); }"
    unit = parse(src, "vertex", shader_object=True)          # compiles: the rule is the link's
    with pytest.raises(LinkError, match=message):
        link_stage("vertex", [(unit, src)])


def test_vertex_inputs_may_alias_components():
    parse(EXT + "#extension GL_ARB_explicit_attrib_location : require\n"
          "layout(location = 0, component = 1) in vec3 a;\n"
          "layout(location = 0, component = 3) in float b;\n"
          "void main() { gl_Position = vec4(a, b); }", "vertex")


def test_block_offsets_and_alignment():
    unit = parse(EXT + "layout(std140) uniform B {\n"
                 "  layout(offset = 4, align = 16) float x;\n"        # actual offset 16
                 "  vec2 y;\n"                                        # next available, align 8: 24
                 "  layout(offset = 48) vec4 z;\n"
                 "  layout(align = 64) float w;\n"                    # 64
                 "};\nvoid main() { gl_Position = vec4(x, y, w) + z; }", "vertex")
    block = unit.interface_blocks[0].type
    assert [f.qualifiers["offset_B"] for f in block.fields] == [16, 24, 48, 64]


@pytest.mark.parametrize("members, message", [
    ("layout(offset = 2) float x;", "not a multiple of its base alignment 4"),
    ("layout(offset = 8) vec4 x;", "not a multiple of its base alignment 16"),
    ("layout(offset = 16) vec4 x; layout(offset = 20) float y;", "lies within or before the previous member"),
    ("layout(align = 3) float x;", "not a power of two"),
    ("layout(align = 0) float x;", "not a power of two"),
])
def test_block_offset_errors(members, message):
    assert message in _errors(EXT + "layout(std140) uniform B { " + members + " };\nvoid main() {}")


def test_offset_needs_std140_or_std430():
    assert "requires a std140 or std430 block layout" in _errors(
        EXT + "layout(packed) uniform B { layout(offset = 16) float x; };\nvoid main() {}")


def test_xfb_qualifiers_recorded():
    unit = parse(EXT + "layout(xfb_offset = 0) out float x1;\n"
                 "layout(xfb_offset = 4) out float x2[2];\n"
                 "layout(xfb_buffer = 2, xfb_stride = 32) out;\n"
                 "layout(xfb_offset = 4) out vec4 y2;\n"
                 "layout(xfb_offset = 20) out Blk { float a; vec2 b; } blk;\n"
                 "void main() { gl_Position = vec4(0.0); }", "vertex")
    outs = {v.name: v.layout for v in unit.globals if v.storage == "out"}
    assert (outs["x1"]["xfb_buffer"], outs["x1"]["xfb_offset"]) == (0, 0)
    assert (outs["x2"]["xfb_buffer"], outs["x2"]["xfb_offset"]) == (0, 4)
    assert (outs["y2"]["xfb_buffer"], outs["y2"]["xfb_offset"]) == (2, 4)
    blk = unit.interface_blocks[0].type
    assert [(f.qualifiers["layout"]["xfb_buffer"], f.qualifiers["layout"]["xfb_offset"]) for f in blk.fields] \
        == [(2, 20), (2, 24)]
    assert unit.xfb_strides == {2: 32}


@pytest.mark.parametrize("decl, message", [
    ("layout(xfb_offset = 2) out float a;", "must be a multiple of 4"),
    ("layout(xfb_offset = 0) out vec4 a; layout(xfb_offset = 12) out float b;", "overlaps `a'"),
    ("layout(xfb_stride = 16) out vec4 a; layout(xfb_offset = 16) out vec4 b;", "overflows xfb_stride 16"),
    ("layout(xfb_buffer = 4) out vec4 a;", "less than gl_MaxTransformFeedbackBuffers (4)"),
    ("layout(xfb_stride = 260) out vec4 a;", "exceeds gl_MaxTransformFeedbackInterleavedComponents"),
    ("layout(xfb_stride = 32) out vec4 a; layout(xfb_stride = 16) out vec4 b;", "differs from its stride 32"),
    ("layout(xfb_offset = 0) out;", "only be used on variables"),
])
def test_xfb_errors(decl, message):
    assert message in _errors(EXT + decl + "\nvoid main() { gl_Position = vec4(0.0); }")


def test_constant_expressions_need_the_extension():
    src = "#version 140\n#extension GL_ARB_explicit_attrib_location : require\n%s" \
          "const int start = 3;\nlayout(location = start + 2) in vec4 b;\nvoid main() { gl_Position = b; }"
    assert "must be an integer literal" in _errors(src % "")
    unit = parse(src % "#extension GL_ARB_enhanced_layouts : require\n", "vertex")
    assert next(v for v in unit.globals if v.name == "b").layout["location"] == 5
    unit = parse("#version 440\nconst int n = 2;\nlayout(location = n + 1) in vec4 b;\n"
                 "void main() { gl_Position = b; }", "vertex")
    assert next(v for v in unit.globals if v.name == "b").layout["location"] == 3


def test_transform_feedback_constants():
    unit = parse("#version 440\nlayout(xfb_offset = gl_MaxTransformFeedbackInterleavedComponents * 4 - 16) "
                 "out vec4 v;\nconst int n = gl_MaxTransformFeedbackBuffers;\n"
                 "void main() { gl_Position = vec4(n); v = vec4(1.0); }", "vertex")
    assert next(v for v in unit.globals if v.name == "v").layout["xfb_offset"] == 64 * 4 - 16
