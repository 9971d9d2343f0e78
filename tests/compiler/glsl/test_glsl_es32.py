"""GLSL ES 3.20 and the GLSL ES 3.10 extensions it made core (GLSL ES 3.20 section 1.1):
`#version 320 es` has them without #extension, 3.10 has each with its #extension
(OES or EXT name) and not without: shader io blocks, the sample qualifier and
interpolateAt*, gl_BoundingBox in the tessellation control stage, the geometry and
tessellation stages (default precisions, unsized per-vertex inputs), precise/fma."""

import pytest

from compiler.glsl import GLSLCompileError, parse
from compiler.glsl.versions import GLSLVersion, implied_extensions

V320 = "#version 320 es\n"
V310 = "#version 310 es\n"


def _ok(source, stage):
    return parse(source, stage)


def _err(source, stage, message):
    with pytest.raises(GLSLCompileError) as e:
        parse(source, stage)
    assert message in e.value.info_log, e.value.info_log


IO_BLOCK_VS = "out Blk { vec4 a; } b;\nvoid main() { b.a = vec4(1.0); gl_Position = vec4(0.0); }\n"
IO_BLOCK_FS = "precision mediump float;\nin Blk { vec4 a; } b;\nout vec4 o;\nvoid main() { o = b.a; }\n"


@pytest.mark.parametrize("ext", ["GL_OES_shader_io_blocks", "GL_EXT_shader_io_blocks"])
def test_io_blocks(ext):
    _ok(V320 + IO_BLOCK_VS, "vertex")
    _ok(V320 + IO_BLOCK_FS, "fragment")
    _ok(V310 + f"#extension {ext} : require\n" + IO_BLOCK_VS, "vertex")
    _err(V310 + IO_BLOCK_VS, "vertex", "interface blocks require")


MS_FS = ("precision mediump float;\nsample in vec4 c;\nin vec4 d;\nout vec4 o;\n"
         "void main() { o = c + interpolateAtOffset(d, vec2(0.25)) + interpolateAtSample(d, 1)"
         " + interpolateAtCentroid(d); }\n")


def test_multisample_interpolation():
    _ok(V320 + MS_FS, "fragment")
    _ok("#version 300 es\n#extension GL_OES_shader_multisample_interpolation : require\n" + MS_FS, "fragment")
    _err(V310 + MS_FS, "fragment", "reserved word `sample'")
    _err(V310 + "precision mediump float;\nin vec4 d;\nout vec4 o;\n"
         "void main() { o = interpolateAtOffset(d, vec2(0.25)); }\n", "fragment", "interpolateAtOffset")


TCS = ("layout(vertices = 3) out;\nvoid main() {\n"
       "  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n"
       "  gl_TessLevelOuter[0] = 1.0;\n  {bb}[0] = vec4(-1.0);\n  {bb}[1] = vec4(1.0);\n}}\n")


def test_bounding_box_names():
    unit = _ok(V320 + TCS.replace("{bb}", "gl_BoundingBox").replace("}}", "}"), "tess_control")
    bb = [v for v in unit.builtin_variables if v.name == "gl_BoundingBox"]
    assert bb and bb[0].patch and bb[0].type.length == 2            # one per patch, two corners
    for suffix in ("OES", "EXT"):
        src = (V310 + f"#extension GL_{suffix}_tessellation_shader : require\n"
               f"#extension GL_{suffix}_primitive_bounding_box : require\n"
               + TCS.replace("{bb}", f"gl_BoundingBox{suffix}").replace("}}", "}"))
        _ok(src, "tess_control")
    _err(V310 + "#extension GL_OES_tessellation_shader : require\n"
         + TCS.replace("{bb}", "gl_BoundingBoxOES").replace("}}", "}"), "tess_control", "undeclared")
    _err(V320 + "void main() { gl_BoundingBox[0] = vec4(0.0); gl_Position = vec4(0.0); }\n", "vertex",
         "undeclared")


GS = ("layout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\nin vec4 v[];\nout vec4 w;\n"
      "void main() {\n  for (int i = 0; i < 3; i++) {\n    w = v[i];\n    gl_Position = gl_in[i].gl_Position;\n"
      "    gl_Layer = gl_PrimitiveIDIn;\n    EmitVertex();\n  }\n  EndPrimitive();\n}\n")


def test_geometry_stage():
    unit = _ok(V320 + GS, "geometry")
    assert unit.geometry is not None and unit.geometry.max_vertices == 3
    for ext in ("GL_OES_geometry_shader", "GL_EXT_geometry_shader"):
        _ok(V310 + f"#extension {ext} : require\n" + GS, "geometry")
    _err(V310 + GS, "geometry", "geometry shaders require")


def test_tessellation_stage_with_the_es_extension():
    src = TCS.replace("{bb}[0] = vec4(-1.0);\n  {bb}[1] = vec4(1.0);\n", "").replace("}}", "}")
    _ok(V320 + src, "tess_control")
    _ok(V310 + "#extension GL_EXT_tessellation_shader : require\n" + src, "tess_control")
    _err(V310 + src, "tess_control", "tessellation shaders require")


def test_gpu_shader5_parts():
    src = "precise out vec4 x;\nvoid main() { x = fma(vec4(1.0), vec4(2.0), vec4(3.0)); gl_Position = x; }\n"
    _ok(V320 + src, "vertex")
    _ok(V310 + "#extension GL_EXT_gpu_shader5 : require\n" + src, "vertex")


def test_implied_extensions():
    es32 = implied_extensions(GLSLVersion(320, True, "es"), {})
    assert es32["GL_OES_geometry_shader"] == "enable" and es32["GL_ARB_tessellation_shader"] == "enable"
    es31 = implied_extensions(GLSLVersion(310, True, "es"), {"GL_EXT_tessellation_shader": "require"})
    assert es31["GL_OES_tessellation_shader"] == "enable" and "GL_OES_geometry_shader" not in es31
    assert implied_extensions(GLSLVersion(310, True, "es"), {"GL_EXT_gpu_shader5": "disable"}) == \
        {"GL_EXT_gpu_shader5": "disable"}


@pytest.mark.parametrize("member, ok", [("flat uvec3 u;", True), ("uvec3 u;", False), ("smooth int u;", False),
                                        ("vec3 u;", True)])
def test_integer_members_of_fragment_input_blocks_must_be_flat(member, ok):
    """GLSL ES 3.20 section 4.3.4: a fragment input that is (or contains) an integer must be
    flat, block members included (piglit's glsl-es-3.20 flat_interpolation tests)."""
    src = V320 + "precision mediump float;\nin IB {\n  " + member + "\n};\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
    if ok:
        _ok(src, "fragment")
    else:
        _err(src, "fragment", "must be qualified with 'flat'")
    _ok(V320 + "precision mediump float;\nflat in IB {\n  uvec3 u;\n};\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n",
        "fragment")


def test_a_compute_shader_object_may_leave_its_size_to_the_link():
    """A GL shader object without local_size compiles (another object may give it; the
    link requires one), as in Mesa; a standalone compile still requires it."""
    src = "#version 310 es\nvoid main() {}\n"
    parse(src, "compute", shader_object=True)
    _err(src, "compute", "fixed work group size")
