"""GL_EXT_texture_sRGB_R8 and GL_EXT_texture_sRGB_RG8: the SR8_EXT and SRG8_EXT
internal formats (desktop GL and GLES 3.0+). A texture of them stores the bytes as
given (glGetTexImage returns them), sampling decodes each channel from sRGB to
linear (the sRGB EOTF worked out with numpy below) unless TEXTURE_SRGB_DECODE_EXT
says SKIP_DECODE_EXT, missing channels read 0 (green, blue) and 1 (alpha); the
formats are textures only (not colour-renderable)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect
from .test_formats_internal import _draw_sampled, _texture

T2 = E.GL_TEXTURE_2D
GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT = 0x8A48, 0x8A4A


def _linear(byte: np.ndarray) -> np.ndarray:
    """The sRGB EOTF of 8-bit values, as 8-bit values (rounded)."""
    c = byte / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return np.rint(lin * 255).astype(np.int64)


BYTES = np.array([0, 10, 64, 128, 188, 255, 33, 200], np.uint8)


@pytest.mark.parametrize("api", ["compat", "gl46", "gles3"])
def test_listed(api):
    with driver.Context(api=api, width=1, height=1) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
    assert {"GL_EXT_texture_sRGB_R8", "GL_EXT_texture_sRGB_RG8"} <= names


@pytest.mark.parametrize("api", ["gl46", "gles3"])
def test_sr8_decodes_to_linear(api):
    es = api.startswith("gles")
    with driver.Context(api=api, width=8, height=1) as ctx:
        _texture(ctx)
        ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
        ctx.glTexImage2D(T2, 0, E.GL_SR8_EXT, 8, 1, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, BYTES.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        got = _draw_sampled(ctx, 8, 1, es=es)[0]
        ctx.glTexParameteri(T2, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT)
        raw = _draw_sampled(ctx, 8, 1, es=es)[0]
        if not es:
            assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_RED_SIZE) == [8]
            assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_GREEN_SIZE) == [0]
            ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
            stored = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RED, E.GL_UNSIGNED_BYTE), np.uint8)
            assert stored.tolist() == BYTES.tolist()           # stored as given, no conversion
        expect(ctx, E.GL_NO_ERROR)
    assert np.abs(got[:, 0] - _linear(BYTES)).max() <= 1
    assert (got[:, 1:3] == 0).all() and (got[:, 3] == 255).all()
    assert raw[:, 0].tolist() == BYTES.tolist()


def test_srg8_two_channels_and_storage():
    rg = np.stack([BYTES, BYTES[::-1]], -1)
    with driver.Context(api="gl46", width=8, height=1) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(T2, t)
        ctx.glTexStorage2D(T2, 1, E.GL_SRG8_EXT, 8, 1)
        ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
        ctx.glTexSubImage2D(T2, 0, 0, 0, 8, 1, E.GL_RG, E.GL_UNSIGNED_BYTE, rg.tobytes())
        for pname in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
            ctx.glTexParameteri(T2, pname, E.GL_NEAREST)
        got = _draw_sampled(ctx, 8, 1)[0]
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [E.GL_SRG8_EXT]
        expect(ctx, E.GL_NO_ERROR)
    assert np.abs(got[:, :2] - _linear(rg)).max() <= 1
    assert (got[:, 2] == 0).all() and (got[:, 3] == 255).all()


def test_not_colour_renderable_and_es_types():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(T2, t)
        ctx.glTexImage2D(T2, 0, E.GL_SR8_EXT, 4, 4, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, None)
        (fb,) = ctx.glGenFramebuffers(1)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) != E.GL_FRAMEBUFFER_COMPLETE
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, E.GL_SR8_EXT, 1, 1, 0, E.GL_RED, E.GL_FLOAT, None)
        expect(ctx, E.GL_INVALID_OPERATION)                    # GLES: UNSIGNED_BYTE only
        ctx.glTexImage2D(T2, 0, E.GL_SRG8_EXT, 1, 1, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, None)
        expect(ctx, E.GL_INVALID_OPERATION)                    # GLES: RG for SRG8
