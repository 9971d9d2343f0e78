"""glTexImage2D of uncompressed data into a BPTC format (ARB_texture_compression_bptc
lists the BPTC formats as internal formats of TexImage*): the GL compresses. The
blocks read back (glGetCompressedTexImage) are BPTC blocks of the specified size,
and the image read back (glGetTexImage) is the uploaded one within the
encoder's bounds: exact for BC7 colours whose channels share one parity, 10-bit
codes for BC6H."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

BC7_UNORM, BC6_SIGNED, BC6_UNSIGNED = 0x8E8C, 0x8E8E, 0x8E8F


def _two_colour_image(a, b, w=8, h=8):
    y, x = np.mgrid[0:h, 0:w]
    return np.where(((x + 2 * y) % 3 == 0)[..., None], a, b).astype(np.float32)


@pytest.mark.parametrize("fmt,a,b,tol", [
    (BC7_UNORM, (254, 0, 128, 200), (1, 255, 77, 3), 0.0),
    (BC6_UNSIGNED, (2.5, 0.0, 0.25, 1.0), (0.0, 10.0, 1.0, 1.0), 0.1),
    (BC6_SIGNED, (-3.0, 0.5, 0.25, 1.0), (4.0, -1.0, 1.0, 1.0), 0.05),
])
def test_teximage_into_bptc_compresses(fmt, a, b, tol):
    ctx = glhelp.context(4, 4, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    scale = 255.0 if fmt == BC7_UNORM else 1.0
    img = _two_colour_image(np.array(a) / scale, np.array(b) / scale, 12, 8)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 12, 8, 0, E.GL_RGBA, E.GL_FLOAT, img.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_COMPRESSED) == [1]
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [fmt]
    # 12 x 8 texels: 3 x 2 blocks of 16 bytes
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE) == [96]
    assert len(ctx.glGetCompressedTexImage(E.GL_TEXTURE_2D, 0)) == 96
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_FLOAT), np.float32)
    got = got.reshape(8, 12, 4)
    if fmt == BC7_UNORM:
        assert (np.rint(got * 255) == np.rint(img * 255)).all()
    else:
        assert np.abs(got[..., :3] - img[..., :3]).max() <= tol and (got[..., 3] == 1).all()
