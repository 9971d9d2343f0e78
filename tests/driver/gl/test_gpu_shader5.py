"""ARB_gpu_shader5's texture gathers, drawn: depth-comparing gathers, component
selection and non-constant offsets, against hand-computed footprints (GL 4.6
section 8.14.3: the texels (i0,j1), (i1,j1), (i1,j0), (i0,j0) in that order)."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = ("#version 400\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, 0.0, 1.0); }\n")


def _draw(ctx, fs):
    glhelp.program(ctx, VS, fs)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    w, h = 2, 1
    return np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(h, w, 4)[0]


def _texture_2x2(ctx, target_internal, fmt, type_, data):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, target_internal, 2, 2, 0, fmt, type_, data)
    for p, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                 (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, v)
    return tex


def test_depth_comparing_gather():
    """Depths 0.2 (0,0), 0.4 (1,0), 0.6 (0,1), 0.8 (1,1), compare LEQUAL: a
    reference of 0.5 passes where 0.5 <= depth -> (1, 1, 0, 0); 0.7 -> (0, 1, 0, 0)."""
    ctx = glhelp.context(2, 1, api="gl43")
    depths = np.array([0.2, 0.4, 0.6, 0.8], np.float32)
    _texture_2x2(ctx, E.GL_DEPTH_COMPONENT32F, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depths)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_COMPARE_FUNC, E.GL_LEQUAL)
    img = _draw(ctx, "#version 400\nuniform sampler2DShadow s;\nout vec4 c;\n"
                     "void main() { c = textureGather(s, vec2(0.5), gl_FragCoord.x < 1.0 ? 0.5 : 0.7); }\n")
    assert img[0].tolist() == [255, 255, 0, 0]
    assert img[1].tolist() == [0, 255, 0, 0]


def test_component_selection_and_a_non_constant_offset():
    """RGBA texel (i, j) = (10 + i + 2j, 20 + ..., 30 + ..., 40 + ...): gathering
    component 2 at the centre gives blue of (0,1) (1,1) (1,0) (0,0) = 32 33 31 30;
    the second pixel gathers green with an offset (1, 0) from a uniform: i0 = 1,
    i1 = 2 clamped to 1 -> 23 23 21 21."""
    ctx = glhelp.context(2, 1, api="gl43")
    texels = np.array([[10 + k, 20 + k, 30 + k, 40 + k] for k in range(4)], np.uint8)
    _texture_2x2(ctx, E.GL_RGBA8, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    img = _draw(ctx, "#version 400\nuniform sampler2D s;\nuniform ivec2 o = ivec2(1, 0);\nout vec4 c;\n"
                     "void main() { c = gl_FragCoord.x < 1.0 ? textureGather(s, vec2(0.5), 2)"
                     " : textureGatherOffset(s, vec2(0.25), o, 1); }\n")
    assert img[0].tolist() == [32, 33, 31, 30]
    assert img[1].tolist() == [23, 23, 21, 21]
