"""Multisampled rendering shades once per pixel unless sample shading is asked for.

On a multisampled target the fragment shader runs once per fragment (pixel),
its inputs at the pixel centre (centroid inputs at the centroid of the covered
samples), and its result goes to every covered sample; coverage and depth stay
per sample. It runs once per covered sample when the shader reads gl_SampleID or
gl_SamplePosition, has a ``sample`` input, or glMinSampleShading asks for every
sample (GL 4.6 section 14.3.1.1). Invocations are counted with an atomic counter
against counts from the geometry (numpy, the sample pattern glGetMultisamplefv
reports); values are read back sample by sample with texelFetch."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

W = H = 8
S = 4
# two triangles (window coordinates, pixels) that share an edge crossing many pixels
# and meet no sample point exactly: samples lie on 1/16 pixel, vertices on odd 1/64
TRIS = np.array([[[0.3125, 0.2031], [7.8906, 1.1094], [3.1719, 7.7969]],
                 [[7.8906, 1.1094], [7.9844, 7.9219], [3.1719, 7.7969]]])

VS_TEMPLATE = """#version 430
const vec2 P[{n}] = vec2[]({points});
out vec2 win;
void main() {{
    win = P[gl_VertexID];
    gl_Position = vec4(P[gl_VertexID] / vec2({w}.0, {h}.0) * 2.0 - 1.0, 0.0, 1.0);
}}
"""


def _vs(tris):
    pts = tris.reshape(-1, 2)
    return VS_TEMPLATE.format(n=len(pts), points=", ".join(f"vec2({float(x)!r}, {float(y)!r})" for x, y in pts), w=W, h=H)


def _coverage(ctx, tris):
    """bool[len(tris), H, W, S]: the samples each triangle covers (edge functions in
    float64 at the positions glGetMultisamplefv reports for the bound framebuffer)."""
    pos = np.array([ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i) for i in range(S)], np.float64)
    y, x = np.mgrid[0:H, 0:W]
    px = x[..., None] + pos[:, 0]
    py = y[..., None] + pos[:, 1]
    out = []
    for t in tris:
        (ax, ay), (bx, by), (cx, cy) = t
        area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        e = [((bx - ax) * (py - ay) - (by - ay) * (px - ax)),
             ((cx - bx) * (py - by) - (cy - by) * (px - bx)),
             ((ax - cx) * (py - cy) - (ay - cy) * (px - cx))]
        inside = np.ones(px.shape, bool)
        for ei in e:
            assert (np.abs(ei) > 1e-6).all(), "a sample lies on an edge"
            inside &= ei * np.sign(area) > 0
        out.append(inside)
    return np.array(out), pos


def _ms_target(ctx, fmt=E.GL_RGBA32F):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, S, fmt, W, H, True)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, W, H)
    ctx.glClearColor(-1.0, -1.0, -1.0, -1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    return tex


def _read_samples(ctx, tex):
    """float32[H, W, S, 4]: every sample of the RGBA32F multisample texture."""
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t2)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, W * S, H, 0, E.GL_RGBA, E.GL_FLOAT, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t2, 0)
    ctx.glViewport(0, 0, W * S, H)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    glhelp.program(ctx, "#version 430\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);"
                        " gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n",
                   "#version 430\nlayout(binding = 0) uniform sampler2DMS t;\nout vec4 o;\n"
                   "void main() { ivec2 p = ivec2(gl_FragCoord.xy);"
                   f" o = texelFetch(t, ivec2(p.x / {S}, p.y), p.x % {S}); }}\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W * S, H, E.GL_RGBA, E.GL_FLOAT), np.float32)
    return got.reshape(H, W, S, 4)


def _context():
    ctx = glhelp.context(W, H, api="gl43")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    return ctx


def _counter(ctx):
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 4, np.zeros(1, np.uint32), E.GL_DYNAMIC_COPY)
    return lambda: int(np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 4)), np.uint32)[0])


COUNT_FS = """#version 430
layout(binding = 0, offset = 0) uniform atomic_uint invocations;
in vec2 win;
out vec4 o;
void main() { atomicCounterIncrement(invocations); o = vec4(win, 0.0, 1.0)%s; }
"""


@pytest.mark.parametrize("mode", ["pixel", "sample_id", "min_sample_shading", "sample_input"])
def test_invocations_per_pixel_or_per_covered_sample(mode):
    """One invocation per (triangle, pixel with a covered sample) by default; one per
    covered sample when the shader reads gl_SampleID, glMinSampleShading(1.0) is on,
    or an input is ``sample``-qualified."""
    ctx = _context()
    _ms_target(ctx)
    cover, _pos = _coverage(ctx, TRIS)
    read = _counter(ctx)
    fs = COUNT_FS % (" + vec4(0.0, 0.0, float(gl_SampleID), 0.0)" if mode == "sample_id" else "")
    vs = _vs(TRIS)
    if mode == "sample_input":
        fs = fs.replace("in vec2 win;", "sample in vec2 win;")
        vs = vs.replace("out vec2 win;", "sample out vec2 win;")
    glhelp.program(ctx, vs, fs)
    if mode == "min_sample_shading":
        ctx.glEnable(E.GL_SAMPLE_SHADING)
        ctx.glMinSampleShading(1.0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    per_pixel = int(cover.any(axis=3).sum())
    per_sample = int(cover.sum())
    assert per_pixel < per_sample                 # the shared edge splits pixels
    assert read() == (per_pixel if mode == "pixel" else per_sample)


def test_each_covered_sample_gets_the_pixel_centre_value():
    """Per-pixel shading: a covered sample holds the value interpolated at its pixel's
    centre; an uncovered one keeps the clear value."""
    ctx = _context()
    tex = _ms_target(ctx)
    cover, _pos = _coverage(ctx, TRIS[:1])
    glhelp.program(ctx, _vs(TRIS[:1]), "#version 430\nin vec2 win;\nout vec4 o;\n"
                                       "void main() { o = vec4(win, 0.0, 1.0); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    got = _read_samples(ctx, tex)
    y, x = np.mgrid[0:H, 0:W]
    centre = np.stack((x + 0.5, y + 0.5), axis=-1)[:, :, None, :].repeat(S, axis=2)
    c = cover[0]
    np.testing.assert_allclose(got[..., :2][c], centre[c], atol=1e-4)
    assert (got[~c] == -1.0).all()


def test_centroid_inputs_are_taken_at_the_centroid_of_the_covered_samples():
    """A ``centroid`` input at a pixel the edge cuts is the mean position of its
    covered samples (inside the triangle); at a fully covered pixel, the centre."""
    ctx = _context()
    tex = _ms_target(ctx)
    cover, pos = _coverage(ctx, TRIS[:1])
    glhelp.program(ctx, _vs(TRIS[:1]).replace("out vec2 win;", "centroid out vec2 win;"),
                   "#version 430\ncentroid in vec2 win;\nout vec4 o;\nvoid main() { o = vec4(win, 0.0, 1.0); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    got = _read_samples(ctx, tex)
    c = cover[0]
    n = c.sum(axis=2)
    partial = (n > 0) & (n < S)
    assert partial.sum() >= 5 and (n == S).sum() >= 5
    y, x = np.mgrid[0:H, 0:W]
    mean = (c[..., None] * pos).sum(axis=2) / np.maximum(n, 1)[..., None]
    want = np.stack((x, y), axis=-1) + mean                      # (H, W, 2)
    for yy, xx in zip(*np.nonzero(n)):
        for s in np.flatnonzero(c[yy, xx]):
            np.testing.assert_allclose(got[yy, xx, s, :2], want[yy, xx], atol=1e-4)
    np.testing.assert_allclose(want[n == S], (np.stack((x, y), axis=-1) + 0.5)[n == S])


def test_sample_inputs_are_taken_at_each_sample():
    ctx = _context()
    tex = _ms_target(ctx)
    cover, pos = _coverage(ctx, TRIS[:1])
    glhelp.program(ctx, _vs(TRIS[:1]).replace("out vec2 win;", "sample out vec2 win;"),
                   "#version 430\nsample in vec2 win;\nout vec4 o;\nvoid main() { o = vec4(win, 0.0, 1.0); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    got = _read_samples(ctx, tex)
    y, x = np.mgrid[0:H, 0:W]
    want = np.stack((x, y), axis=-1)[:, :, None, :] + pos          # (H, W, S, 2)
    c = cover[0]
    np.testing.assert_allclose(got[..., :2][c], want[c], atol=1e-4)


@pytest.mark.parametrize("sample_shading", [False, True])
def test_sample_mask_in_is_the_pixel_coverage_or_the_sample_bit(sample_shading):
    """gl_SampleMaskIn: the covered samples of the fragment when shading per pixel;
    only the invocation's sample when shading per sample."""
    ctx = _context()
    tex = _ms_target(ctx)
    cover, _pos = _coverage(ctx, TRIS[:1])
    glhelp.program(ctx, _vs(TRIS[:1]), "#version 430\nin vec2 win;\nout vec4 o;\n"
                                       "void main() { o = vec4(float(gl_SampleMaskIn[0]), 0.0, 0.0, 1.0); }\n")
    if sample_shading:
        ctx.glEnable(E.GL_SAMPLE_SHADING)
        ctx.glMinSampleShading(1.0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    got = _read_samples(ctx, tex)[..., 0]
    c = cover[0]
    bits = 1 << np.arange(S)
    if sample_shading:
        want = np.broadcast_to(bits, c.shape)
    else:
        want = np.broadcast_to((c * bits).sum(axis=2)[..., None], c.shape)
    np.testing.assert_array_equal(got[c], want[c])


def test_resolved_edge_colours_follow_the_covered_sample_count():
    """A white triangle on black, resolved by a blit: each pixel is the fraction of
    its samples the triangle covers (RGBA8: within one step)."""
    ctx = _context()
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, S, E.GL_RGBA8, W, H)
    (ms,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, ms)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    cover, _pos = _coverage(ctx, TRIS[:1])
    ctx.glViewport(0, 0, W, H)
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    glhelp.program(ctx, _vs(TRIS[:1]), "#version 430\nin vec2 win;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    single = glhelp.renderbuffer_target(ctx, E.GL_RGBA8, W, H)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, single)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, single)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)
    want = cover[0].sum(axis=2) / S * 255
    assert np.abs(got[..., 0].astype(float) - want).max() <= 1.0
    assert len(set(cover[0].sum(axis=2).ravel().tolist()) - {0, 4}) >= 2      # partial pixels of several kinds


def test_blending_reads_each_samples_own_destination():
    """A red triangle, then a full-screen quad blended ONE + ONE adding green: every
    sample holds its own destination plus green, although the quad's shader runs
    once per pixel (pixels whose samples differ blend sample by sample)."""
    ctx = _context()
    tex = _ms_target(ctx)
    cover, _pos = _coverage(ctx, TRIS[:1])
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    fs = "#version 430\nin vec2 win;\nuniform vec4 colour;\nout vec4 o;\nvoid main() { o = colour; }\n"
    p = glhelp.program(ctx, _vs(TRIS[:1]), fs)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "colour"), 1.0, 0.0, 0.0, 1.0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    quad = np.array([[[0, 0], [W, 0], [0, H]], [[W, 0], [W, H], [0, H]]], np.float64)
    p = glhelp.program(ctx, _vs(quad), fs)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "colour"), 0.0, 0.5, 0.0, 0.25)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    ctx.glDisable(E.GL_BLEND)
    got = _read_samples(ctx, tex)
    c = cover[0]
    want = np.where(c[..., None], [1.0, 0.5, 0.0, 1.25], [0.0, 0.5, 0.0, 0.25])
    np.testing.assert_array_equal(got, want.astype(np.float32))


def test_sample_shading_takes_centroid_inputs_at_each_sample():
    """With glMinSampleShading(1.0) every covered sample is shaded on its own and a
    ``centroid`` input is taken at that sample, which is covered (GL_ARB_sample_shading:
    the centroid qualifier is then ignored)."""
    ctx = _context()
    tex = _ms_target(ctx)
    cover, pos = _coverage(ctx, TRIS[:1])
    glhelp.program(ctx, _vs(TRIS[:1]).replace("out vec2 win;", "centroid out vec2 win;"),
                   "#version 430\ncentroid in vec2 win;\nout vec4 o;\nvoid main() { o = vec4(win, 0.0, 1.0); }\n")
    ctx.glEnable(E.GL_SAMPLE_SHADING)
    ctx.glMinSampleShading(1.0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    got = _read_samples(ctx, tex)
    y, x = np.mgrid[0:H, 0:W]
    want = np.stack((x, y), axis=-1)[:, :, None, :] + pos
    c = cover[0]
    np.testing.assert_allclose(got[..., :2][c], want[c], atol=1e-4)


@pytest.mark.parametrize("fmt, fs_out, cast", [
    (E.GL_RGBA32F, "out vec4 o;", "vec4"),
    (E.GL_RGBA8UI, "out uvec4 o;", "uvec4"),
])
def test_blits_between_equal_sample_counts_copy_every_sample(fmt, fs_out, cast):
    """glBlitFramebuffer between multisampled buffers of one sample count copies the
    samples unchanged (GL 4.6 section 18.3.1), for float and integer formats."""
    ctx = _context()
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, S, fmt, W, H)
    (src,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, src)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glViewport(0, 0, W, H)
    quad = np.array([[[0, 0], [W, 0], [0, H]], [[W, 0], [W, H], [0, H]]], np.float64)
    glhelp.program(ctx, _vs(quad), f"#version 430\nin vec2 win;\n{fs_out}\n"
                                   f"void main() {{ o = {cast}(gl_SampleID + 1, int(win.x), int(win.y), 7); }}\n")
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, S, fmt, W, H, True)
    (dst,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst)
    ctx.glFramebufferTexture2D(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, tex, 0)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_NO_ERROR
    if fmt == E.GL_RGBA8UI:     # fetch the integer samples as floats into the RGBA32F reader
        got = _read_int_samples(ctx, tex)
    else:
        got = _read_samples(ctx, tex)
    y, x = np.mgrid[0:H, 0:W]
    want = np.stack(np.broadcast_arrays(np.arange(1, S + 1)[None, None, :], x[..., None], y[..., None],
                                        np.full((H, W, S), 7)), axis=-1)
    np.testing.assert_array_equal(got, want.astype(np.float32))


def _read_int_samples(ctx, tex):
    """float32[H, W, S, 4]: every sample of an RGBA8UI multisample texture."""
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t2)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, W * S, H, 0, E.GL_RGBA, E.GL_FLOAT, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t2, 0)
    ctx.glViewport(0, 0, W * S, H)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    glhelp.program(ctx, "#version 430\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);"
                        " gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n",
                   "#version 430\nlayout(binding = 0) uniform usampler2DMS t;\nout vec4 o;\n"
                   "void main() { ivec2 p = ivec2(gl_FragCoord.xy);"
                   f" o = vec4(texelFetch(t, ivec2(p.x / {S}, p.y), p.x % {S})); }}\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W * S, H, E.GL_RGBA, E.GL_FLOAT), np.float32)
    return got.reshape(H, W, S, 4)


def test_sample_shading_takes_every_input_at_its_sample():
    """glMinSampleShading(1.0): an unqualified input is interpolated at each shaded
    sample (as Mesa's drivers do; piglit's interpolate-at-sample-position)."""
    ctx = _context()
    tex = _ms_target(ctx)
    cover, pos = _coverage(ctx, TRIS[:1])
    glhelp.program(ctx, _vs(TRIS[:1]), "#version 430\nin vec2 win;\nout vec4 o;\n"
                                       "void main() { o = vec4(win, 0.0, 1.0); }\n")
    ctx.glEnable(E.GL_SAMPLE_SHADING)
    ctx.glMinSampleShading(1.0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    got = _read_samples(ctx, tex)
    y, x = np.mgrid[0:H, 0:W]
    want = np.stack((x, y), axis=-1)[:, :, None, :] + pos
    c = cover[0]
    np.testing.assert_allclose(got[..., :2][c], want[c], atol=1e-4)
