"""1D array textures (GL 3.0): an image's rows are its layers. Their mipmap
chain shrinks the width only (a full chain with the default mipmapped filter is
complete), each level's rows land in its layers, and shaders see the right
sizes and texels (values by hand from the uploaded bytes)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = ("#version 330\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, 0.0, 1.0); }\n")
W, LAYERS = 20, 5


def _levels():
    rng = np.random.default_rng(7)
    out, w = [], W
    while True:
        out.append(rng.integers(0, 256, (LAYERS, w, 4), dtype=np.uint8))
        if w == 1:
            return out
        w //= 2


def _draw(ctx, fs, n):
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32I, n, 1)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glViewport(0, 0, n, 1)
    glhelp.program(ctx, VS, fs)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(0, 0, n, 1, E.GL_RGBA_INTEGER, E.GL_INT), np.int32).reshape(n, 4)


@pytest.mark.parametrize("storage", ["teximage", "texstorage"])
def test_full_chain_is_complete_and_fetches_every_level_and_layer(storage):
    ctx = glhelp.context(1, 1, api="gl45")
    levels = _levels()
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_1D_ARRAY, tex)
    if storage == "texstorage":
        ctx.glTexStorage2D(E.GL_TEXTURE_1D_ARRAY, len(levels), E.GL_RGBA8, W, LAYERS)
    for lv, img in enumerate(levels):
        if storage == "texstorage":
            ctx.glTexSubImage2D(E.GL_TEXTURE_1D_ARRAY, lv, 0, 0, img.shape[1], LAYERS, E.GL_RGBA,
                                E.GL_UNSIGNED_BYTE, img)
        else:
            ctx.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, lv, E.GL_RGBA8, img.shape[1], LAYERS, 0, E.GL_RGBA,
                             E.GL_UNSIGNED_BYTE, img)
    # (level, texel, layer) probes, one per pixel; the default min filter is mipmapped
    probes = [(0, 0, 0), (0, 19, 4), (1, 7, 2), (2, 4, 1), (3, 1, 3), (4, 0, 4)]
    fs = ("#version 330\nuniform sampler1DArray t;\nout ivec4 o;\n"
          "const ivec3 P[6] = ivec3[6](" + ", ".join(f"ivec3({a}, {b}, {c})" for a, b, c in probes) + ");\n"
          "void main() { ivec3 p = P[int(gl_FragCoord.x)];\n"
          " o = ivec4(texelFetch(t, ivec2(p.y, p.z), p.x) * 255.0 + 0.5); }\n")
    got = _draw(ctx, fs, len(probes))
    want = np.array([levels[lv][layer, x] for lv, x, layer in probes], np.int32)
    np.testing.assert_array_equal(got, want)


def test_sizes_and_sampling_by_layer_coordinate():
    ctx = glhelp.context(1, 1, api="gl45")
    levels = _levels()
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_1D_ARRAY, tex)
    for lv, img in enumerate(levels):
        ctx.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, lv, E.GL_RGBA8, img.shape[1], LAYERS, 0, E.GL_RGBA,
                         E.GL_UNSIGNED_BYTE, img)
    ctx.glTexParameteri(E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    fs = ("#version 330\nuniform sampler1DArray t;\nout ivec4 o;\n"
          "void main() { int x = int(gl_FragCoord.x);\n"
          " if (x == 0) o = ivec4(textureSize(t, 0), textureSize(t, 2));\n"
          " else o = ivec4(texture(t, vec2((float(x) + 0.5) / 20.0, float(x) + 0.2)) * 255.0 + 0.5); }\n")
    got = _draw(ctx, fs, 4)
    assert got[0].tolist() == [W, LAYERS, W // 4, LAYERS]
    for x in (1, 2, 3):
        np.testing.assert_array_equal(got[x], levels[0][x, x])


def test_get_tex_image_of_a_1d_array_returns_every_layer():
    """glGetTexImage of a 1D array texture: its layers are the image's rows (GL 4.6
    section 8.11.4); the resource keeps them as layers of one row."""
    ctx = glhelp.context(4, 4, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_1D_ARRAY, t)
    data = np.arange(8 * 3 * 4, dtype=np.uint8).reshape(3, 8, 4)
    ctx.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA8, 8, 3, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data.tobytes())
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (got.reshape(3, 8, 4) == data).all()


def test_generate_mipmap_keeps_the_layers_and_filters_each():
    """glGenerateMipmap halves a 1D array's width only (levels 8, 4, 2, 1 wide, each
    3 layers high, nothing past log2(width)) and filters every layer (a level-1
    texel is the mean of its two level-0 texels, by hand); the chain is complete:
    a shader sampling with the default mipmapped filter reads level 1 (piglit
    fbo-generatemipmap-array drew black: layers halved, the texture incomplete)."""
    ctx = glhelp.context(4, 1, api="gl33")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_1D_ARRAY, tex)
    rows = np.array([[0, 100, 20, 40, 200, 200, 8, 8],
                     [10, 30, 50, 70, 90, 110, 130, 150],
                     [255, 255, 0, 0, 64, 0, 16, 48]], np.uint8)
    ctx.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_R8, 8, 3, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, rows)
    ctx.glGenerateMipmap(E.GL_TEXTURE_1D_ARRAY)
    assert ctx.glGetError() == E.GL_NO_ERROR
    for level, width in enumerate((8, 4, 2, 1)):
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_1D_ARRAY, level, E.GL_TEXTURE_WIDTH) == [width]
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_1D_ARRAY, level, E.GL_TEXTURE_HEIGHT) == [3]
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_1D_ARRAY, 4, E.GL_TEXTURE_WIDTH) == [0]
    want = np.array([[50, 30, 200, 8], [20, 60, 100, 140], [255, 0, 32, 32]])
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_1D_ARRAY, 1, E.GL_RED, E.GL_UNSIGNED_BYTE), np.uint8)
    assert np.abs(got.reshape(3, 4).astype(int) - want).max() <= 1
    fs = ("#version 330\nuniform sampler1DArray t; out ivec4 o;\n"
          "void main() { float s = (gl_FragCoord.x) / 4.0;\n"
          "  o = ivec4(round(textureLod(t, vec2(s, 2.0), 1.0) * 255.0)); }\n")
    got = _draw(ctx, fs, 4)
    assert np.abs(got[:, 0] - want[2]).max() <= 1
