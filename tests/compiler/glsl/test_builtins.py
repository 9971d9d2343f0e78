"""Built-in functions and variables: counts, availability per version/stage/extension."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, parse
from compiler.glsl.builtin_functions import all_builtin_functions, builtin_function_names
from compiler.glsl.builtin_variables import LIMITS, builtin_variables
from compiler.glsl.versions import GLSLVersion

CORE430 = GLSLVersion(430, False, "core")
ES310 = GLSLVersion(310, True, "es")
ES300 = GLSLVersion(300, True, "es")
ES100 = GLSLVersion(100, True, "es")
GL110 = GLSLVersion(110, False, "compatibility")
GL140CORE = GLSLVersion(140, False, "core")


def names(version, stages=("vertex", "fragment", "compute"), extensions=()):
    out = set()
    for s in stages:
        out |= builtin_function_names(version, s, extensions)
    return out


def test_function_name_counts_match_the_specifications():
    # 153 names in GLSL 4.30 minus the 4 geometry-shader functions (no geometry stage yet).
    assert len(names(CORE430)) == 149
    # GLSL ES 3.10's 128 plus the six GLSL ES 1.00 texture functions and the four
    # texture3D ones, kept as Mesa keeps them
    assert len(names(ES310)) == 128 + 6 + 4
    legacy = {n for n in names(GLSLVersion(430, False, "compatibility")) if n not in names(CORE430)}
    assert legacy >= {"texture1D", "texture2D", "texture2DProjLod", "texture3DProj", "textureCube",
                      "shadow2DProjLod", "shadow1DLod", "ftransform"}
    assert len([n for n in legacy if n.startswith(("texture1D", "texture2D", "texture3D",
                                                   "textureCube", "shadow"))
                and "Rect" not in n]) == 22


def test_es100_has_six_legacy_texture_functions_and_no_texture():
    n = names(ES100, ("vertex", "fragment"))
    tex = {x for x in n if x.startswith(("texture", "shadow"))}
    assert tex == {"texture2D", "texture2DProj", "texture2DLod", "texture2DProjLod", "textureCube",
                   "textureCubeLod"}


def test_extension_brings_functions():
    assert "dFdx" not in names(ES100, ("fragment",))
    assert "dFdx" in names(ES100, ("fragment",), ("GL_OES_standard_derivatives",))
    assert "texture2DLodEXT" in names(ES100, ("fragment",), ("GL_EXT_shader_texture_lod",))
    assert "barrier" in names(GLSLVersion(330), ("compute",), ("GL_ARB_compute_shader",))
    assert "texture2DLod" in names(GLSLVersion(110), ("fragment",), ("GL_ARB_shader_texture_lod",))


@pytest.mark.parametrize("name, version, stage, present", [
    # deprecated in 1.30, moved to the compatibility profile by 4.20 (Mesa: core keeps it until then)
    ("texture2D", GL140CORE, "fragment", True),
    ("shadow2D", GLSLVersion(410, False, "core"), "vertex", True),
    ("texture2DLod", GLSLVersion(330, False, "core"), "fragment", True),
    ("texture2D", GLSLVersion(420, False, "core"), "fragment", False),
    ("textureCube", GLSLVersion(450, False, "core"), "fragment", False),
    ("texture2D", GLSLVersion(420, False, "compatibility"), "fragment", True),
    ("texture2D", GLSLVersion(140, False, "compatibility"), "fragment", True),
    ("ftransform", GL140CORE, "vertex", False),
    # removed by GLSL ES 3.00, kept as in Mesa (programs written against it call them)
    ("texture2D", ES300, "fragment", True),
    ("textureCube", ES310, "compute", True),
    ("texture2DLod", ES300, "fragment", True),
    ("texture2DLod", ES300, "vertex", True),
    ("texture3D", ES300, "fragment", True),
    ("texture3DLod", ES300, "fragment", True),
    ("texture3D", ES100, "fragment", False),
    ("shadow2D", ES300, "fragment", False),
    ("ftransform", GL110, "vertex", True),
    ("ftransform", GL110, "fragment", False),
    ("dFdx", GLSLVersion(130), "vertex", False),
    ("dFdx", ES300, "fragment", True),
    ("barrier", CORE430, "fragment", False),
    ("barrier", CORE430, "compute", True),
    ("fma", ES310, "fragment", False),
    ("fma", GLSLVersion(400, False, "core"), "fragment", True),
    ("inverse", GLSLVersion(130), "vertex", False),
    ("inverse", GLSLVersion(140), "vertex", True),
    ("imageAtomicAdd", ES310, "compute", False),
    ("imageAtomicAdd", GLSLVersion(420, False, "core"), "compute", True),
    ("textureGatherOffsets", ES310, "fragment", False),
    ("noise1", CORE430, "vertex", True),
    ("noise1", ES310, "vertex", False),
    ("texture2DLod", ES100, "vertex", True),
    ("texture2DLod", ES100, "fragment", False),
    # GLSL 1.10 section 8.7: the Lod functions are vertex-only; from 1.30 (or with
    # ARB_shader_texture_lod) every stage has them
    ("textureCubeLod", GL110, "fragment", False),
    ("textureCubeLod", GL110, "vertex", True),
    ("texture2DLod", GLSLVersion(130), "fragment", True),
])
def test_availability(name, version, stage, present):
    assert (name in builtin_function_names(version, stage)) is present


# GLSL 4.00 section 8.4 has packUnorm2x16, packUnorm4x8, packSnorm4x8, their unpack
# functions and packDouble2x32/unpackDouble2x32; 4.10 adds none; 4.20 adds
# packSnorm2x16, unpackSnorm2x16, packHalf2x16, unpackHalf2x16.
_PACK_400 = {"packUnorm2x16", "unpackUnorm2x16", "packUnorm4x8", "unpackUnorm4x8",
             "packSnorm4x8", "unpackSnorm4x8", "packDouble2x32", "unpackDouble2x32"}
_PACK_420 = {"packSnorm2x16", "unpackSnorm2x16", "packHalf2x16", "unpackHalf2x16"}


def test_pack_unpack_first_desktop_versions():
    packs = _PACK_400 | _PACK_420
    assert not names(GLSLVersion(330, False, "core")) & packs
    assert names(GLSLVersion(400, False, "core")) & packs == _PACK_400
    assert names(GLSLVersion(410, False, "core")) & packs == _PACK_400
    assert names(GLSLVersion(420, False, "core")) & packs == packs


def test_overload_expansion():
    overloads = [f for f in all_builtin_functions() if f.name == "clamp"]
    # float/int/uint/double/int64/uint64 x (vector, scalar bounds) x 4 sizes
    assert len(overloads) == 12 * 4
    texture_2d = {tuple(str(t) for _, t in f.params) for f in all_builtin_functions()
                  if f.name == "texture" and str(f.params[0][1]) == "sampler2DShadow"}
    assert texture_2d == {("sampler2DShadow", "vec3"), ("sampler2DShadow", "vec3", "float")}


def variable_names(version, stage, extensions=()):
    return {v.name for v in builtin_variables(version, stage, extensions)}


def test_builtin_variables_per_stage_and_version():
    assert {"gl_Position", "gl_PointSize", "gl_Vertex", "gl_MultiTexCoord7", "gl_ClipVertex",
            "gl_ModelViewProjectionMatrix", "gl_LightSource"} <= variable_names(GL110, "vertex")
    assert "gl_Vertex" not in variable_names(GL140CORE, "vertex")
    assert {"gl_FragColor", "gl_FragData", "gl_FragCoord", "gl_FrontFacing"} <= \
        variable_names(ES100, "fragment")
    assert "gl_FragColor" not in variable_names(ES300, "fragment")
    assert {"gl_GlobalInvocationID", "gl_WorkGroupSize", "gl_LocalInvocationIndex"} <= \
        variable_names(CORE430, "compute")
    assert "gl_GlobalInvocationID" not in variable_names(CORE430, "vertex")
    assert "gl_FragDepthEXT" in variable_names(ES100, "fragment", ("GL_EXT_frag_depth",))


def test_limits_are_constants():
    tu = parse("#version 430\nlayout(local_size_x = 4) in;\nvoid main() {\n"
               "  int a[gl_MaxDrawBuffers];\n  ivec3 s = gl_MaxComputeWorkGroupSize;\n}\n", "compute")
    decl = tu.main.definition.body.statements[0].declaration.declarators[0]
    assert decl.variable.type.length == LIMITS["gl_MaxDrawBuffers"]


def test_work_group_size_is_constant_from_layout():
    tu = parse("#version 430\nlayout(local_size_x = 4, local_size_y = 2) in;\n"
               "const uvec3 s = gl_WorkGroupSize;\nvoid main() {}\n", "compute")
    assert tu.local_size == (4, 2, 1)
    assert tu.globals[0].const_value == (4, 2, 1)


def test_builtin_calls_are_marked_and_recorded():
    tu = parse("#version 330\nuniform sampler2D s;\nout vec4 c;\n"
               "void main() { c = texture(s, vec2(0.5)) + vec4(sin(1.0)); }\n", "fragment")
    assert sorted(str(s) for s in tu.builtin_functions) == [
        "float sin(float)", "vec4 texture(sampler2D, vec2)"]
    assert all(s.builtin for s in tu.builtin_functions)


def test_user_function_hides_builtin_in_110():
    tu = parse("float sin(float x) { return x; }\nvoid main() { gl_Position = vec4(sin(1.0)); }\n",
               "vertex")
    call = tu.main.definition.body.statements[0].expression.value.args[0]
    assert not call.is_builtin and call.name == "sin"


def test_gl_prefix_redeclaration_of_builtin_is_allowed():
    tu = parse("#version 130\nout float gl_ClipDistance[4];\n"
               "void main() { gl_ClipDistance[3] = 1.0; gl_Position = vec4(0.0); }\n", "vertex")
    clip = [v for v in tu.builtin_variables if v.name == "gl_ClipDistance"][0]
    assert clip.type.length == 4


def test_texture_lod_family_requires_vertex_or_extension_in_es100():
    with pytest.raises(GLSLCompileError):
        parse("#version 100\nprecision mediump float;\nuniform sampler2D s;\n"
              "void main() { gl_FragColor = texture2DLodEXT(s, vec2(0.0), 1.0); }\n", "fragment")
    parse("#version 100\n#extension GL_EXT_shader_texture_lod : enable\nprecision mediump float;\n"
          "uniform sampler2D s;\n"
          "void main() { gl_FragColor = texture2DLodEXT(s, vec2(0.0), 1.0); }\n", "fragment")


def test_texture_rectangle_is_enabled_by_default_on_desktop():
    parse("uniform sampler2DRect r;\nvoid main() { gl_FragColor = texture2DRect(r, vec2(1.0)); }\n",
          "fragment")
    with pytest.raises(GLSLCompileError):
        parse("#extension GL_ARB_texture_rectangle : disable\nuniform sampler2DRect r;\n"
              "void main() {}\n", "fragment")


@pytest.mark.parametrize("prefix", ["", "i", "u"])
def test_rectangle_texel_fetch_offset_checks_its_last_argument(prefix):
    """texelFetchOffset(gsampler2DRect, ivec2, ivec2) has no lod: the offset is
    the third argument (the check indexed a fourth and raised IndexError)."""
    head = f"#version 140\nuniform {prefix}sampler2DRect r;\nuniform ivec2 o;\nout vec4 c;\n"
    parse(head + "void main() { c = vec4(texelFetchOffset(r, ivec2(1), ivec2(1, -1))); }\n",
          "fragment")
    with pytest.raises(GLSLCompileError) as e:
        parse(head + "void main() { c = vec4(texelFetchOffset(r, ivec2(1), o)); }\n", "fragment")
    assert "parameter `offset' must be a constant expression" in e.value.info_log
    with pytest.raises(GLSLCompileError):      # 2D keeps its lod; the offset is still checked
        parse(f"#version 130\nuniform {prefix}sampler2D s;\nuniform ivec2 o;\nout vec4 c;\n"
              "void main() { c = vec4(texelFetchOffset(s, ivec2(1), 0, o)); }\n", "fragment")


@pytest.mark.parametrize("prefix", [""])             # (isampler2DRect and usampler2DRect: GLSL 1.40)
def test_rectangle_texel_fetch_from_glsl_130(prefix):
    """texelFetch(gsampler2DRect, ivec2) (no lod) exists wherever rectangle samplers
    do, GLSL 1.30 with ARB_texture_rectangle on by default, as in Mesa (piglit's
    arb_sample_shading builtin-gl-sample-mask 0 tests use it under #version 130)."""
    parse(f"#version 130\nuniform {prefix}sampler2DRect r;\nout vec4 c;\n"
          "void main() { c = vec4(texelFetch(r, ivec2(1))) + vec4(texelFetchOffset(r, ivec2(1), ivec2(1))); }\n",
          "fragment")
    with pytest.raises(GLSLCompileError):          # one lod-less form only
        parse(f"#version 130\nuniform {prefix}sampler2DRect r;\nout vec4 c;\n"
              "void main() { c = vec4(texelFetch(r, ivec2(1), 0)); }\n", "fragment")
