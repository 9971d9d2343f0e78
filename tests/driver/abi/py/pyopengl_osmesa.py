"""PyOpenGL on shimgl through OSMesa (run with PYOPENGL_PLATFORM=osmesa and the
environment of `shimgl env`): legacy-GL clear and a client-array draw into a
numpy buffer, read through the buffer and through glReadPixels."""

import sys

import numpy as np
from OpenGL import GL, arrays
from OpenGL import osmesa

W, H = 32, 32
ctx = osmesa.OSMesaCreateContextExt(osmesa.OSMESA_RGBA, 24, 0, 0, None)
assert ctx
buf = arrays.GLubyteArray.zeros((H, W, 4))
assert osmesa.OSMesaMakeCurrent(ctx, buf, GL.GL_UNSIGNED_BYTE, W, H)
assert osmesa.OSMesaGetCurrentContext()
print(GL.glGetString(GL.GL_VERSION).decode(), GL.glGetString(GL.GL_RENDERER).decode())
GL.glClearColor(1.0, 0.0, 0.0, 1.0)
GL.glClear(GL.GL_COLOR_BUFFER_BIT)
GL.glFinish()
print("buffer", buf[0, 0].tolist())
assert buf[0, 0].tolist() == [255, 0, 0, 255] and buf[H - 1, W - 1].tolist() == [255, 0, 0, 255]
pixels = GL.glReadPixels(0, 0, W, H, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE)
img = np.frombuffer(pixels, np.uint8).reshape(H, W, 4)
assert img[5, 5].tolist() == [255, 0, 0, 255]
assert GL.glGetError() == GL.GL_NO_ERROR
osmesa.OSMesaDestroyContext(ctx)
print("OK")
sys.exit(0)
