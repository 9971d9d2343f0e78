"""GL_ARB_texture_cube_map_array under its own name: the target, its binding
query, its size rules, image reads, and sampling from GLSL 1.30 shaders with
`#extension GL_ARB_texture_cube_map_array` (colours, sizes and depth comparison
against hand-computed values)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

EXT = "GL_ARB_texture_cube_map_array"
VS = ("#version 130\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, 0.0, 1.0); }\n")
# The face a direction selects (GL 4.6 table 8.19): +X -X +Y -Y +Z -Z = layer-faces 0..5
DIRECTIONS = ["vec3(1, 0.1, 0.2)", "vec3(-1, 0.2, 0.1)", "vec3(0.1, 1, 0.2)", "vec3(0.2, -1, 0.1)",
              "vec3(0.1, 0.2, 1)", "vec3(0.2, 0.1, -1)"]


def _faces(layers):
    """RGBA of layer-face k = 6 * layer + face: (20 k, 255 - 10 k, 7 k, 255)."""
    k = np.arange(6 * layers)
    return np.stack([20 * k, 255 - 10 * k, 7 * k, np.full_like(k, 255)], axis=1).astype(np.uint8)


def _cube_array(ctx, layers=2):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP_ARRAY, tex)
    ctx.glTexImage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, E.GL_RGBA8, 1, 1, 6 * layers, 0, E.GL_RGBA,
                     E.GL_UNSIGNED_BYTE, _faces(layers))
    for p in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_CUBE_MAP_ARRAY, p, E.GL_NEAREST)
    return tex


def _draw(ctx, fs, w):
    glhelp.program(ctx, VS, fs)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(0, 0, w, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(w, 4)


def test_listed_with_its_target_and_binding():
    ctx = glhelp.context(4, 4, api="compat")
    assert EXT in ctx.glGetString(E.GL_EXTENSIONS).split()
    tex = _cube_array(ctx)
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_CUBE_MAP_ARRAY) == [tex]
    assert ctx.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("w, h, depth", [(1, 1, 5), (1, 1, 13), (2, 1, 6)])
def test_depth_counts_layer_faces_and_faces_are_square(w, h, depth):
    """A depth that is not a multiple of 6, or non-square faces: INVALID_VALUE,
    and the image stays what it was."""
    ctx = glhelp.context(4, 4, api="compat")
    _cube_array(ctx, layers=2)
    ctx.glTexImage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, E.GL_RGBA8, w, h, depth, 0, E.GL_RGBA,
                     E.GL_UNSIGNED_BYTE, None)
    assert ctx.glGetError() == E.GL_INVALID_VALUE
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, E.GL_TEXTURE_DEPTH) == [12]
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP_ARRAY, t2)
    ctx.glTexStorage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 1, E.GL_RGBA8, w, h, depth)
    assert ctx.glGetError() == E.GL_INVALID_VALUE
    assert not ctx.glGetTexParameteriv(E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_IMMUTABLE_FORMAT)[0]


def test_get_tex_image_reads_every_layer_face():
    ctx = glhelp.context(4, 4, api="compat")
    _cube_array(ctx, layers=2)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert np.array_equal(got.reshape(-1, 4), _faces(2))


def test_sampling_selects_face_and_layer():
    """Pixel i samples direction i % 6 of layer i // 6: the colour of layer-face
    i; textureSize answers (1, 1, layers)."""
    ctx = glhelp.context(12, 1, api="compat")
    _cube_array(ctx, layers=2)
    dirs = ", ".join(DIRECTIONS)
    fs = ("#version 130\n#extension " + EXT + " : require\nuniform samplerCubeArray s;\n"
          f"const vec3 d[6] = vec3[6]({dirs});\n"
          "void main() { int i = int(gl_FragCoord.x);\n"
          " ivec3 size = textureSize(s, 0);\n"
          " gl_FragColor = size == ivec3(1, 1, 2) ? texture(s, vec4(d[i % 6], float(i / 6)))"
          " : vec4(1.0, 0.0, 1.0, 0.5); }\n")
    img = _draw(ctx, fs, 12)
    assert np.array_equal(img, _faces(2))


def test_depth_comparison():
    """samplerCubeArrayShadow: texture(s, vec4(direction, layer), ref) compares
    ref with the selected layer-face's depth (0.05 k for layer-face k, LESS):
    1 where ref < depth."""
    ctx = glhelp.context(12, 1, api="compat")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP_ARRAY, tex)
    depths = (0.05 * np.arange(12)).astype(np.float32)
    ctx.glTexImage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, E.GL_DEPTH_COMPONENT32F, 1, 1, 12, 0,
                     E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depths)
    for p, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                 (E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE),
                 (E.GL_TEXTURE_COMPARE_FUNC, E.GL_LESS)):
        ctx.glTexParameteri(E.GL_TEXTURE_CUBE_MAP_ARRAY, p, v)
    dirs = ", ".join(DIRECTIONS)
    fs = ("#version 130\n#extension " + EXT + " : require\nuniform samplerCubeArrayShadow s;\n"
          f"const vec3 d[6] = vec3[6]({dirs});\n"
          "void main() { int i = int(gl_FragCoord.x);\n"
          " gl_FragColor = vec4(texture(s, vec4(d[i % 6], float(i / 6)), 0.27)); }\n")
    img = _draw(ctx, fs, 12)
    expected = np.where(0.27 < depths, 255, 0)
    assert img[:, 0].tolist() == expected.tolist()


def test_the_glsl_names_need_the_extension_line():
    """Without `#extension`, GLSL 1.30 has no samplerCubeArray."""
    ctx = glhelp.context(4, 4, api="compat")
    sh = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
    ctx.glShaderSource(sh, 1, ["#version 130\nuniform samplerCubeArray s;\nvoid main() {"
                               " gl_FragColor = texture(s, vec4(1.0)); }\n"])
    ctx.glCompileShader(sh)
    assert not ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0]
    assert "error" in ctx.glGetShaderInfoLog(sh)
