"""texelFetchOffset adds its offset to the integer texel coordinates (GLSL 4.60
section 8.9.2) in every stage, for the spatial coordinates only (an array's layer
has none). The back end dropped the offset (texture_load has no offset field), so
every texelFetchOffset read the texel without it; piglit's texelFetch offset tests
(fs, vs, gs; 1D, 2D, 2D array) failed on it."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import use_program

SIZE, LAYERS = 16, 3


def _texels(level):
    """RGBA8UI texel (x, y, layer) of `level`: (x, y, layer, 10 + level), by construction."""
    n = SIZE >> level
    y, x = np.mgrid[0:n, 0:n]
    img = np.zeros((LAYERS, n, n, 4), np.uint8)
    for layer in range(LAYERS):
        img[layer] = np.stack([x, y, np.full_like(x, layer), np.full_like(x, 10 + level)], -1)
    return img


FETCH = "texelFetchOffset(s, ivec3(1, 2, 1), LEVEL, ivec2(3, -1))"

VS_FETCH = """#version 130
uniform usampler2DArray s;
in vec4 p;
flat out uvec4 v;
void main() { gl_Position = p; v = FETCH; }
"""
FS_PASS = """#version 130
flat in uvec4 v;
out uvec4 o;
void main() { o = v; }
"""
VS_PLAIN = """#version 130
in vec4 p;
void main() { gl_Position = p; }
"""
FS_FETCH = """#version 130
uniform usampler2DArray s;
out uvec4 o;
void main() { o = FETCH; }
"""


@pytest.mark.parametrize("stage", ["vertex", "fragment"])
@pytest.mark.parametrize("level", [0, 1])
def test_texel_fetch_offset_moves_the_spatial_coordinates(stage, level):
    fetch = FETCH.replace("LEVEL", str(level))
    vs, fs = (VS_FETCH.replace("FETCH", fetch), FS_PASS) if stage == "vertex" else \
        (VS_PLAIN, FS_FETCH.replace("FETCH", fetch))
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        g.glBindTexture(E.GL_TEXTURE_2D_ARRAY, g.glGenTextures(1)[0])
        for lvl in (0, 1):
            g.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, lvl, E.GL_RGBA8UI, SIZE >> lvl, SIZE >> lvl, LAYERS, 0,
                           E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE, _texels(lvl).tobytes())
        g.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_MAX_LEVEL, 1)
        g.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
        g.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
        fb = g.glGenFramebuffers(1)[0]
        g.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        rb = g.glGenRenderbuffers(1)[0]
        g.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        g.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8UI, 4, 4)
        g.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        use_program(g, vs, fs)
        g.glBegin(E.GL_QUADS)
        for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            g.glVertex2f(x, y)
        g.glEnd()
        got = np.frombuffer(bytes(g.glReadPixels(0, 0, 4, 4, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT)),
                            np.uint32).reshape(-1, 4)
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    # (1, 2) + (3, -1) = texel (4, 1) of layer 1 (the layer is not offset)
    assert (got == [4, 1, 1, 10 + level]).all(), got[0]
