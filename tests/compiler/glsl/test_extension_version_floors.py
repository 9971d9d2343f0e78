"""The GLSL versions where ``#extension`` accepts a name (and defines its macro). Mesa's
front end has no version floor; programs (and piglit's enabled-compat tests, which Mesa
passes) enable these names in GLSL 1.10 shaders of a compatibility context, and
GL_ARB_tessellation_shader in 1.40 core shaders and (piglit's built-in-constants) 1.10 -
1.30 ones; GL_ARB_arrays_of_arrays in 1.10 ones (piglit's varying-packing). The functions
an extension brings exist where their types do (packing needs uint: GLSL 1.30)."""

import pytest

from compiler.glsl import GLSLCompileError, parse
from compiler.glsl.builtin_functions import builtin_functions
from compiler.glsl.versions import GLSLVersion

NAMES_110 = ["GL_ARB_shader_storage_buffer_object", "GL_ARB_shading_language_packing",
             "GL_ARB_texture_query_levels", "GL_ARB_viewport_array",
             "GL_ARB_shader_texture_image_samples"]


@pytest.mark.parametrize("name", NAMES_110)
def test_enabled_in_110_with_its_macro(name):
    src = (f"#version 110\n#extension {name} : require\n"
           f"#if !defined {name} || {name} != 1\n#error macro\n#endif\n"
           "void main() { gl_FragColor = vec4(1.0); }\n")
    parse(src, "fragment", extensions=(name,))


def test_tessellation_in_140():
    src = ("#version 140\n#extension GL_ARB_tessellation_shader : require\n"
           "#ifndef GL_ARB_tessellation_shader\n#error macro\n#endif\n"
           "layout(vertices = 3) out;\nvoid main() { gl_TessLevelOuter[0] = 1.0; }\n")
    parse(src, "tess_control", extensions=("GL_ARB_tessellation_shader",))


@pytest.mark.parametrize("stage", ["vertex", "tess_control", "fragment"])
def test_tessellation_from_110(stage):
    """As on Mesa, the name is accepted before 1.40 too, in every stage (piglit's
    built-in-constants enables it in all the shaders of a 1.10 - 1.30 run), and in a
    tessellation control shader it brings `layout` (GLSL 1.10 has no such keyword)."""
    body = {"vertex": "void main() { gl_Position = vec4(1.0); }\n",
            "tess_control": "layout(vertices = 1) out;\nuniform float f[1];\n"
                            "void main() { gl_TessLevelInner[0] = f[0]; }\n",
            "fragment": "void main() { gl_FragColor = vec4(1.0); }\n"}[stage]
    parse("#version 110\n#extension GL_ARB_tessellation_shader : require\n" + body, stage,
          extensions=("GL_ARB_tessellation_shader",))
    if stage == "tess_control":
        with pytest.raises(GLSLCompileError) as e:            # without it `layout` is a name
            parse("#version 110\n" + body, stage, extensions=("GL_ARB_tessellation_shader",))
        assert "0:2(1): error: syntax error" in e.value.info_log


def test_arrays_of_arrays_in_110():
    """piglit's varying-packing tests declare ``varying vec4 v[2][16]`` in GLSL 1.10 with
    GL_ARB_arrays_of_arrays enabled (Mesa has no floor for it)."""
    src = ("#version 110\n#extension GL_ARB_arrays_of_arrays : enable\nvarying vec4 v[2][3];\n"
           "void main() { gl_Position = gl_Vertex; v[1][2] = vec4(1.0); }\n")
    parse(src, "vertex", extensions=("GL_ARB_arrays_of_arrays",))       # raised before (floor 1.20)


def test_texel_offset_constants_come_with_shading_language_420pack():
    """ARB_shading_language_420pack adds gl_MinProgramTexelOffset and
    gl_MaxProgramTexelOffset (-8 and 7 at least) to the versions before 4.00."""
    decl = ("uniform float lo[gl_MinProgramTexelOffset <= -8 ? 1 : -1];\n"
            "uniform float hi[gl_MaxProgramTexelOffset >= 7 ? 1 : -1];\n"
            "void main() { gl_FragColor = vec4(lo[0] + hi[0]); }\n")
    parse("#version 130\n#extension GL_ARB_shading_language_420pack : require\n" + decl, "fragment",
          extensions=("GL_ARB_shading_language_420pack",))
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 130\n" + decl, "fragment", extensions=("GL_ARB_shading_language_420pack",))
    assert "`gl_MinProgramTexelOffset' undeclared" in e.value.info_log


def test_storage_block_in_a_130_shader():
    src = ("#version 130\n#extension GL_ARB_shader_storage_buffer_object : enable\n"
           "layout(std140) buffer ssbo { vec4 v[4]; };\nuniform int i;\n"
           "void main() { gl_FragColor = v[i]; }\n")
    u = parse(src, "fragment", extensions=("GL_ARB_shader_storage_buffer_object",))
    assert [(b.block_name, b.qualifier.storage) for b in u.interface_blocks] == [("ssbo", "buffer")]


@pytest.mark.parametrize("fn", ["packSnorm2x16", "unpackSnorm2x16", "packUnorm2x16", "unpackUnorm2x16",
                                "packHalf2x16", "unpackHalf2x16", "packUnorm4x8", "packSnorm4x8",
                                "unpackUnorm4x8", "unpackSnorm4x8"])
def test_packing_functions_come_with_the_extension_from_130(fn):
    v130 = GLSLVersion(130, False, "compatibility")
    assert fn in builtin_functions(v130, "fragment", ("GL_ARB_shading_language_packing",))
    assert fn not in builtin_functions(v130, "fragment", ())


def test_texture_query_levels_comes_with_its_extension():
    v130 = GLSLVersion(130, False, "compatibility")
    assert "textureQueryLevels" in builtin_functions(v130, "vertex", ("GL_ARB_texture_query_levels",))
    assert "textureQueryLevels" not in builtin_functions(v130, "vertex", ())
