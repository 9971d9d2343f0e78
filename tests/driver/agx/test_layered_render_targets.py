"""Rendering into one layer of a multisampled array render target leaves the
other layers as they were (piglit's arb_texture_multisample texelfetch tests on
sampler2DMSArray read NaN or 0 at the start of layer 1 and up).

The PBE and TEXTURE descriptors carry no address of a layer's compression
metadata, so a compressed image's layer other than 0 would have its metadata
looked up as if the layer were a one-layer image: after the layer's body, that
is in the next layer's texels. Array, cube and 3D render targets are therefore
laid out plainly twiddled; single-layer targets stay compressed."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = ("#version 150\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, 0.0, 1.0); }\n")
FS = "#version 150\nuniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"


def _fetch_all(ctx, target, tex, w, h, layers, samples):
    """Every texel (layer, y, x, sample) of ``tex`` read with texelFetch."""
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t2)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, w * samples, h * layers, 0, E.GL_RGBA, E.GL_FLOAT, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t2, 0)
    ctx.glViewport(0, 0, w * samples, h * layers)
    ctx.glDisable(E.GL_SAMPLE_MASK)
    ctx.glBindTexture(target, tex)
    fetch = f"texelFetch(t, ivec3(p.x / {samples}, p.y % {h}, p.y / {h}), p.x % {samples})"
    glhelp.program(ctx, VS, "#version 150\nuniform sampler2DMSArray t;\nout vec4 o;\n"
                            f"void main() {{ ivec2 p = ivec2(gl_FragCoord.xy); o = {fetch}; }}\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = np.frombuffer(ctx.glReadPixels(0, 0, w * samples, h * layers, E.GL_RGBA, E.GL_FLOAT), np.float32)
    return got.reshape(layers, h, w, samples, 4)


@pytest.mark.parametrize("samples", [2, 4])
def test_drawing_into_one_layer_keeps_the_others(samples):
    w, h, layers = 17, 17, 3
    ctx = glhelp.context(1, 1, api="gl43")
    (tex,) = ctx.glGenTextures(1)
    target = E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY
    ctx.glBindTexture(target, tex)
    ctx.glTexImage3DMultisample(target, samples, E.GL_RGBA32F, w, h, layers, True)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fb)
    ctx.glViewport(0, 0, w, h)
    for layer in range(layers):
        ctx.glFramebufferTextureLayer(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, layer)
        ctx.glClearBufferfv(E.GL_COLOR, 0, [7.0, 7.0, 7.0, float(layer)])
    prog = glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glEnable(E.GL_SAMPLE_MASK)
    ctx.glSampleMaski(0, 1 << (samples - 1))      # a partial store: the other samples are loaded
    for layer in reversed(range(layers)):         # one batch (load, draw, store) per layer
        ctx.glFramebufferTextureLayer(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, layer)
        ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), 1.0, 2.0, 3.0, float(layer))
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = _fetch_all(ctx, target, tex, w, h, layers, samples)
    expected = np.empty_like(got)
    expected[...] = [7.0, 7.0, 7.0, 0.0]
    expected[..., samples - 1, :3] = [1.0, 2.0, 3.0]     # the drawn sample
    expected[..., 3] = np.arange(layers)[:, None, None, None]
    np.testing.assert_array_equal(got, expected)
