"""GL_ARB_texture_storage_multisample: immutable multisample textures
(glTexStorage2DMultisample, glTexStorage3DMultisample and their DSA forms) in every
desktop context from GL 3.2 on, their queries and errors, what is drawn into them,
and the sampler state of multisample textures (fixed; GL 4.6 section 8.10)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

NAME = "GL_ARB_texture_storage_multisample"


def _extensions(ctx) -> set[str]:
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}


@pytest.mark.parametrize("api", ["gl32", "gl33", "gl46", "compat"])
def test_listed_and_usable_from_gl32(api):
    """Listed in every desktop context; the commands work before GL 4.3 made them core."""
    with driver.Context(api=api, width=4, height=4) as ctx:
        assert NAME in _extensions(ctx)
        tex = ctx.glGenTextures(2)
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex[0])
        ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8, 16, 8, True)
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, tex[1])
        ctx.glTexStorage3DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 2, E.GL_R32F, 8, 4, 3, False)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, E.GL_TEXTURE_DEPTH) == [3]


def test_not_in_gles():
    with driver.Context(api="gles31", width=4, height=4) as ctx:
        assert NAME not in _extensions(ctx)


def test_immutable_storage_and_its_queries():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
        ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA16F, 16, 8, False)
        T = E.GL_TEXTURE_2D_MULTISAMPLE
        assert ctx.glGetTexParameteriv(T, E.GL_TEXTURE_IMMUTABLE_FORMAT) == [1]
        assert ctx.glGetTexParameteriv(T, E.GL_TEXTURE_IMMUTABLE_LEVELS) == [1]
        assert ctx.glGetTexLevelParameteriv(T, 0, E.GL_TEXTURE_WIDTH) == [16]
        assert ctx.glGetTexLevelParameteriv(T, 0, E.GL_TEXTURE_HEIGHT) == [8]
        assert ctx.glGetTexLevelParameteriv(T, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [E.GL_RGBA16F]
        assert ctx.glGetTexLevelParameteriv(T, 0, E.GL_TEXTURE_SAMPLES) == [4]
        assert ctx.glGetTexLevelParameteriv(T, 0, E.GL_TEXTURE_FIXED_SAMPLE_LOCATIONS) == [0]
        # immutable: neither storage command nor glTexImage2DMultisample respecifies it
        ctx.glTexStorage2DMultisample(T, 4, E.GL_RGBA8, 16, 8, True)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glTexImage2DMultisample(T, 4, E.GL_RGBA8, 16, 8, True)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glGetTexLevelParameteriv(T, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [E.GL_RGBA16F]


def test_errors_change_nothing():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        T = E.GL_TEXTURE_2D_MULTISAMPLE
        max_samples = ctx.glGetIntegerv(E.GL_MAX_SAMPLES)[0]
        # texture 0 cannot be made immutable
        ctx.glTexStorage2DMultisample(T, 4, E.GL_RGBA8, 8, 8, True)
        expect(ctx, E.GL_INVALID_OPERATION)
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(T, tex)
        for args, error in (((E.GL_TEXTURE_2D, 4, E.GL_RGBA8, 8, 8, True), E.GL_INVALID_ENUM),
                            ((E.GL_PROXY_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8, 8, 8, True), E.GL_INVALID_ENUM),
                            ((T, 4, E.GL_RGBA, 8, 8, True), E.GL_INVALID_ENUM),     # storage takes sized formats
                            ((T, 4, E.GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 8, True), E.GL_INVALID_ENUM),
                            ((T, 0, E.GL_RGBA8, 8, 8, True), E.GL_INVALID_VALUE),
                            ((T, max_samples + 1, E.GL_RGBA8, 8, 8, True), E.GL_INVALID_OPERATION),
                            ((T, 4, E.GL_RGBA8, 0, 8, True), E.GL_INVALID_VALUE)):
            ctx.glTexStorage2DMultisample(*args)
            expect(ctx, error)
        assert ctx.glGetTexParameteriv(T, E.GL_TEXTURE_IMMUTABLE_FORMAT) == [0]
        assert ctx.glGetTexLevelParameteriv(T, 0, E.GL_TEXTURE_WIDTH) == [0]
        arr = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, arr)
        ctx.glTexStorage3DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, E.GL_RGBA8, 8, 8, 0, True)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glTexStorage3DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8, 8, 8, 1, True)
        expect(ctx, E.GL_INVALID_ENUM)


def test_dsa_forms():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        tex = ctx.glCreateTextures(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1)[0]
        ctx.glTextureStorage3DMultisample(tex, 2, E.GL_DEPTH24_STENCIL8, 4, 4, 2, True)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert ctx.glGetTextureParameteriv(tex, E.GL_TEXTURE_IMMUTABLE_FORMAT) == [1]
        assert ctx.glGetTextureLevelParameteriv(tex, 0, E.GL_TEXTURE_SAMPLES) == [2]
        ctx.glTextureStorage3DMultisample(tex, 2, E.GL_RGBA8, 4, 4, 2, True)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_multisample_sampler_state_is_fixed():
    """Multisample textures report NEAREST filters and CLAMP_TO_EDGE wrapping (as Mesa);
    setting a sampler state is INVALID_ENUM through glTexParameter and
    INVALID_OPERATION through glTextureParameter (GL 4.6 section 8.10), and leaves it;
    TEXTURE_BASE_LEVEL takes only 0."""
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        for target in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
            tex = ctx.glGenTextures(1)[0]
            ctx.glBindTexture(target, tex)
            expected = {E.GL_TEXTURE_MIN_FILTER: E.GL_NEAREST, E.GL_TEXTURE_MAG_FILTER: E.GL_NEAREST,
                        E.GL_TEXTURE_WRAP_S: E.GL_CLAMP_TO_EDGE, E.GL_TEXTURE_WRAP_T: E.GL_CLAMP_TO_EDGE,
                        E.GL_TEXTURE_WRAP_R: E.GL_CLAMP_TO_EDGE}
            for pname, value in expected.items():
                assert ctx.glGetTexParameteriv(target, pname) == [value], hex(pname)
                other = E.GL_LINEAR if value == E.GL_NEAREST else E.GL_REPEAT
                ctx.glTexParameteri(target, pname, other)
                expect(ctx, E.GL_INVALID_ENUM)
                ctx.glTextureParameteri(tex, pname, other)
                expect(ctx, E.GL_INVALID_OPERATION)
                assert ctx.glGetTexParameteriv(target, pname) == [value]
            ctx.glTexParameteri(target, E.GL_TEXTURE_BASE_LEVEL, 0)
            assert ctx.glGetError() == E.GL_NO_ERROR
            ctx.glTexParameteri(target, E.GL_TEXTURE_BASE_LEVEL, 1)
            expect(ctx, E.GL_INVALID_OPERATION)
        # other targets keep table 23.18's defaults
        tex2d = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex2d)
        assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER) == [E.GL_NEAREST_MIPMAP_LINEAR]
        assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S) == [E.GL_REPEAT]


def test_drawn_samples_read_back():
    """A draw into an immutable 4-sample texture writes every covered sample: texelFetch
    of each sample in a second pass reads the colour drawn (a triangle covering the
    lower-left half: samples of pixels fully inside it are the colour, of pixels outside
    the clear colour)."""
    W = 8
    with driver.Context(api="gl33", width=W, height=W) as ctx:
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
        ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8, W, W, True)
        fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, tex, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        from .helpers import link_sources
        link_sources(ctx, [(E.GL_VERTEX_SHADER, "#version 150\nin vec4 p; void main() { gl_Position = p; }"),
                           (E.GL_FRAGMENT_SHADER, "#version 150\nout vec4 o; void main() { o = vec4(1, 0, 0, 1); }")])
        tri = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1]], np.float32)
        vbo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri, E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        # second pass: each pixel's four samples side by side in a 4W x W single-sample target
        out = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, out)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4 * W, W)
        fbo2 = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo2)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, out, 0)
        ctx.glViewport(0, 0, 4 * W, W)
        ctx.glActiveTexture(E.GL_TEXTURE0)
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
        prog = link_sources(ctx, [
            (E.GL_VERTEX_SHADER, "#version 150\nin vec4 p; void main() { gl_Position = p; }"),
            (E.GL_FRAGMENT_SHADER, "#version 150\nuniform sampler2DMS t; out vec4 o;\n"
             "void main() { ivec2 c = ivec2(gl_FragCoord.xy); o = texelFetch(t, ivec2(c.x / 4, c.y), c.x % 4); }")])
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "t"), 0)
        quad = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, 1, 0, 1]], np.float32)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4 * W, W, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                           np.uint8).reshape(W, W, 4, 4)
        assert ctx.glGetError() == E.GL_NO_ERROR
    red, blue = [255, 0, 0, 255], [0, 0, 255, 255]
    for y in range(W):
        for x in range(W):
            if x + y + 2 <= W:              # the whole pixel below the diagonal x + y = W
                assert (px[y, x] == red).all(), (x, y, px[y, x])
            elif x + y >= W:                # the whole pixel above it
                assert (px[y, x] == blue).all(), (x, y, px[y, x])
