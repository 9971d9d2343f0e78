"""PyOpenGL's OSMesa buffer calls on shimgl (PYOPENGL_PLATFORM=osmesa and the
environment of `shimgl env`): OSMesaGetDepthBuffer at 16, 24 and 32 depth
bits, OSMesaGetColorBuffer, OSMesaPixelStore(OSMESA_Y_UP / ROW_LENGTH), and a
context created with a sharelist seeing the other's texture."""

import ctypes
import sys

import numpy as np
from OpenGL import GL, arrays
from OpenGL import osmesa
from OpenGL.platform import PLATFORM

W, H = 16, 8
OSMESA_ROW_LENGTH, OSMESA_Y_UP = 0x10, 0x11


def draw_half_at_depth():
    """Depth cleared to 1.0, then the lower-left triangle at z = 0 (depth 0.5)."""
    GL.glClearColor(0.0, 0.0, 1.0, 1.0)
    GL.glClearDepth(1.0)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glColor3f(0.0, 1.0, 0.0)
    GL.glBegin(GL.GL_TRIANGLES)
    GL.glVertex3f(-1.0, -1.0, 0.0)
    GL.glVertex3f(1.0, -1.0, 0.0)
    GL.glVertex3f(-1.0, 1.0, 0.0)
    GL.glEnd()
    GL.glFinish()


def depth_values(ctx, dtype):
    w, h, bpv, ptr = osmesa.OSMesaGetDepthBuffer(ctx)
    assert (w, h) == (W, H) and ptr, (w, h, bpv)
    assert bpv == np.dtype(dtype).itemsize, bpv
    return np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_ubyte)),
                                 (H * W * bpv,)).view(dtype).reshape(H, W)


for bits, dtype, full, half in ((16, np.uint16, 0xFFFF, 0x7FFF), (24, np.uint32, 0xFFFFFF, 0x7FFFFF),
                                (32, np.uint32, 0xFFFFFFFF, 0x7FFFFFFF)):
    ctx = osmesa.OSMesaCreateContextExt(osmesa.OSMESA_RGBA, bits, 8 if bits == 24 else 0, 0, None)
    buf = arrays.GLubyteArray.zeros((H, W, 4))
    assert osmesa.OSMesaMakeCurrent(ctx, buf, GL.GL_UNSIGNED_BYTE, W, H)
    draw_half_at_depth()
    raw = depth_values(ctx, dtype)
    z = raw & 0xFFFFFF if bits == 24 else raw  # Z24S8: stencil in the top byte
    print(bits, "bits: lower-left", hex(z[0, 0]), "upper-right", hex(z[H - 1, W - 1]))
    assert z[H - 1, W - 1] == full, hex(z[H - 1, W - 1])
    assert abs(int(z[0, 0]) - half) <= full >> 14, hex(z[0, 0])
    assert buf[0, 0].tolist() == [0, 255, 0, 255] and buf[H - 1, W - 1].tolist() == [0, 0, 255, 255]
    # the pointer stays valid and follows later frames after glFinish
    GL.glClear(GL.GL_DEPTH_BUFFER_BIT)
    GL.glFinish()
    assert raw[0, 0] & full == full
    if bits == 24:
        # OSMESA_Y_UP = 0: the colour buffer and the depth values run top to bottom
        PLATFORM.GL.OSMesaPixelStore(OSMESA_Y_UP, 0)
        assert osmesa.OSMesaGetIntegerv(OSMESA_Y_UP) == 0
        draw_half_at_depth()
        z = depth_values(ctx, dtype) & 0xFFFFFF
        x = W // 2 - 1                         # outside the triangle at the top, inside at the bottom
        assert z[0, x] == full and abs(int(z[H - 1, x]) - half) <= 1 << 10
        assert buf[0, x].tolist() == [0, 0, 255, 255] and buf[H - 1, x].tolist() == [0, 255, 0, 255]
        w, h, fmt, ptr = osmesa.OSMesaGetColorBuffer(ctx)
        assert (w, h, fmt) == (W, H, osmesa.OSMESA_RGBA) and ptr.value == buf.ctypes.data
        PLATFORM.GL.OSMesaPixelStore(OSMESA_Y_UP, 1)
    osmesa.OSMesaDestroyContext(ctx)

# OSMESA_ROW_LENGTH: rows of 24 pixels in the caller's buffer, 16 of them drawn
ctx = osmesa.OSMesaCreateContextExt(osmesa.OSMESA_RGBA, 24, 8, 0, None)
wide = arrays.GLubyteArray.zeros((H, 24, 4))
assert osmesa.OSMesaMakeCurrent(ctx, wide, GL.GL_UNSIGNED_BYTE, W, H)
PLATFORM.GL.OSMesaPixelStore(OSMESA_ROW_LENGTH, 24)
assert osmesa.OSMesaGetIntegerv(OSMESA_ROW_LENGTH) == 24
GL.glClearColor(1.0, 0.0, 0.0, 1.0)
GL.glClear(GL.GL_COLOR_BUFFER_BIT)
GL.glFinish()
assert wide[3, W - 1].tolist() == [255, 0, 0, 255] and wide[3, W].tolist() == [0, 0, 0, 0]

# a context with no depth bits has no depth buffer
nodepth = osmesa.OSMesaCreateContextExt(osmesa.OSMESA_RGBA, 0, 0, 0, None)
assert osmesa.OSMesaMakeCurrent(nodepth, arrays.GLubyteArray.zeros((H, W, 4)), GL.GL_UNSIGNED_BYTE, W, H)
assert osmesa.OSMesaGetDepthBuffer(nodepth) == (0, 0, 0, None)

# sharelist: a texture made in ctx is seen from a context sharing with it
assert osmesa.OSMesaMakeCurrent(ctx, wide, GL.GL_UNSIGNED_BYTE, W, H)
tex = GL.glGenTextures(1)
GL.glBindTexture(GL.GL_TEXTURE_2D, tex)
GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, 1, 1, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE,
                np.array([0, 255, 255, 255], np.uint8))
GL.glFinish()
shared = osmesa.OSMesaCreateContextExt(osmesa.OSMESA_RGBA, 24, 8, 0, ctx)
other = arrays.GLubyteArray.zeros((H, W, 4))
assert osmesa.OSMesaMakeCurrent(shared, other, GL.GL_UNSIGNED_BYTE, W, H)
assert GL.glIsTexture(tex)
GL.glEnable(GL.GL_TEXTURE_2D)
GL.glBindTexture(GL.GL_TEXTURE_2D, tex)
GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_NEAREST)
GL.glBegin(GL.GL_TRIANGLE_STRIP)
for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
    GL.glTexCoord2f(0.5, 0.5)
    GL.glVertex2f(x, y)
GL.glEnd()
GL.glFinish()
print("shared texture drawn:", other[4, 4].tolist())
assert other[4, 4].tolist() == [0, 255, 255, 255]
assert not GL.glIsTexture(tex + 100)
assert GL.glGetError() == GL.GL_NO_ERROR
for c in (shared, nodepth, ctx):
    osmesa.OSMesaDestroyContext(c)
print("OK")
sys.exit(0)
