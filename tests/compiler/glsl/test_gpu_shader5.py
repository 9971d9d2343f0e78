"""The shading-language part of GL_ARB_gpu_shader5 in GLSL 1.50 shaders (`#extension
GL_ARB_gpu_shader5`): what the extension adds to the language, accepted with the
extension and refused without it. (The geometry-shader parts, invocations and
streams, come with the geometry stage.)"""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, parse

EXT = "#extension GL_ARB_gpu_shader5 : require\n"


def _frag(body: str, decls: str = "", ext: bool = True) -> str:
    return ("#version 150\n" + (EXT if ext else "") + decls + "out vec4 c;\n"
            "void main() {\n" + body + "\n}\n")


def _ok(src: str, stage: str = "fragment"):
    return parse(src, stage)


def _errors(src: str, stage: str = "fragment") -> str:
    with pytest.raises(GLSLCompileError) as e:
        parse(src, stage)
    return e.value.info_log


CASES = {
    # texture gather: component selection, a non-constant offset, four offsets,
    # depth comparison (the reference is a parameter of its own)
    "gather component": ("uniform sampler2D s;\n", "c = textureGather(s, vec2(0.5), 2);"),
    "gather offset not constant": ("uniform sampler2D s;\nuniform ivec2 o;\n",
                                   "c = textureGatherOffset(s, vec2(0.5), o);"),
    "gather offsets": ("uniform sampler2DArray s;\n",
                       "c = textureGatherOffsets(s, vec3(0.5), ivec2[](ivec2(0), ivec2(1), ivec2(-1), ivec2(2)));"),
    "gather shadow": ("uniform sampler2DShadow s;\nuniform samplerCubeShadow sc;\n",
                      "c = textureGather(s, vec2(0.5), 0.5) + textureGather(sc, vec3(1.0), 0.25);"),
    # integer functions, fma, frexp/ldexp, packing
    "bitfields": ("", "uint u = bitfieldExtract(7u, 1, 2) + uint(bitCount(5)) + uint(findMSB(8));"
                      "int i = bitfieldInsert(0, 3, 4, 2) + findLSB(12u) + bitfieldReverse(1);"
                      "c = vec4(float(u), float(i), 0.0, 0.0);"),
    "extended arithmetic": ("", "uint carry; uint s = uaddCarry(~0u, 2u, carry);"
                                "uint hi, lo; umulExtended(s, 3u, hi, lo); c = vec4(float(hi + lo + carry));"),
    "fma frexp ldexp": ("", "int e; float m = frexp(12.0, e); c = vec4(fma(m, 2.0, 1.0), ldexp(m, e), 0.0, 0.0);"),
    "packing": ("", "c = unpackUnorm4x8(packUnorm4x8(vec4(0.5))) + unpackSnorm4x8(packSnorm4x8(vec4(-0.5)))"
                    " + vec4(unpackUnorm2x16(packUnorm2x16(vec2(0.25))), 0.0, 0.0);"),
    "interpolation functions": ("in vec4 v;\n", "c = interpolateAtCentroid(v) + interpolateAtSample(v, 1)"
                                                " + interpolateAtOffset(v, vec2(0.1));"),
    # the language: `precise`, int -> uint conversions, dynamically uniform sampler indices
    "precise": ("", "precise float x = 1.0 * 2.0; c = vec4(x);"),
    "int to uint": ("", "uint u = 3; uint w = u + 1; c = vec4(float(w));"),
    "sampler array index": ("uniform sampler2D s[3];\nuniform int k;\n", "c = texture(s[k], vec2(0.5));"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_accepted_with_the_extension(name):
    decls, body = CASES[name]
    _ok(_frag(body, decls))


@pytest.mark.parametrize("name", sorted(CASES))
def test_refused_without_it(name):
    """The same shader without the #extension line is an error in GLSL 1.50."""
    decls, body = CASES[name]
    log = _errors(_frag(body, decls, ext=False))
    assert "error:" in log


def test_shadow_gather_takes_the_coordinate_without_the_reference():
    """GLSL 4.00 section 8.9.4: textureGather(gsampler2DShadow, vec2 P, float refZ);
    the vec3 coordinate of texture() is not a gather form."""
    _ok("#version 400\nuniform sampler2DShadow s;\nuniform sampler2DArrayShadow a;\n"
        "uniform sampler2DRectShadow r;\nout vec4 c;\nvoid main() {\n"
        " c = textureGather(s, vec2(0.5), 0.5) + textureGather(a, vec3(0.5), 0.5)"
        " + textureGatherOffset(r, vec2(1.0), 0.5, ivec2(1)); }\n")
    log = _errors("#version 400\nuniform sampler2DShadow s;\nout vec4 c;\n"
                  "void main() { c = textureGather(s, vec3(0.5), 0.5); }\n")
    assert "no matching function for call to `textureGather(sampler2DShadow, vec3, float)'" in log


def test_the_extension_needs_glsl_150():
    log = _errors("#version 140\n" + EXT + "out vec4 c;\nvoid main() { c = vec4(0.0); }\n")
    assert "GL_ARB_gpu_shader5" in log


def test_a_context_without_it_refuses_the_extension_line():
    """`extensions=`: the context's list; a context that does not expose the
    extension refuses `#extension ... : require`."""
    with pytest.raises(GLSLCompileError) as e:
        parse(_frag("c = vec4(0.0);"), "fragment", extensions=("GL_ARB_texture_gather",))
    assert "GL_ARB_gpu_shader5" in e.value.info_log
    parse(_frag("c = textureGather(s, vec2(0.5), 1);", "uniform sampler2D s;\n"), "fragment",
          extensions=("GL_ARB_gpu_shader5",))
