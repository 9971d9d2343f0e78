"""OpenGL ES contexts through OSMesa from Python (PyOpenGL's osmesa platform,
run with PYOPENGL_PLATFORM=osmesa and the environment of `shimgl env`):
OSMesaCreateContextAttribs with shimgl's OSMESA_ES_PROFILE_SHIMGL, whose value
this script reads from the header shipped beside the library (argv[1]).

ES 1.1: a blue clear, a red left half (glColor4f, client vertex array) and a
right half lit by one directional light along +z on a material whose diffuse
colour is (0, 1, 0.5) with no ambient light: N.L = 1, so the pixel is the
diffuse colour, (0, 255, 128). ES 3.2: a #version 320 es program writing
gl_FragCoord-derived colours: (x + 0.5) / 32 in red at pixel column x, the
pixel centres of a 32-wide buffer, so red = round(255 * (x + 0.5) / 32)."""

import re
import sys

import numpy as np
from OpenGL import GL, arrays
from OpenGL import osmesa
from OpenGL.GL import shaders

W, H = 32, 16
token = int(re.search(r"#define\s+OSMESA_ES_PROFILE_SHIMGL\s+(\S+)", open(sys.argv[1]).read()).group(1), 0)


def context(major, minor):
    attribs = arrays.GLintArray.asArray([osmesa.OSMESA_FORMAT, osmesa.OSMESA_RGBA,
                                         osmesa.OSMESA_PROFILE, token,
                                         osmesa.OSMESA_CONTEXT_MAJOR_VERSION, major,
                                         osmesa.OSMESA_CONTEXT_MINOR_VERSION, minor, 0])
    return osmesa.OSMesaCreateContextAttribs(attribs, None)


ctx = context(1, 1)
assert ctx
buf = arrays.GLubyteArray.zeros((H, W, 4))
assert osmesa.OSMesaMakeCurrent(ctx, buf, GL.GL_UNSIGNED_BYTE, W, H)
version = GL.glGetString(GL.GL_VERSION).decode()
print("ES 1.1:", version)
assert version.startswith("OpenGL ES-CM 1.1 shimgl"), version
GL.glClearColor(0, 0, 1, 1)
GL.glClear(GL.GL_COLOR_BUFFER_BIT)
GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
left = np.array([-1, -1, 0, -1, -1, 1, 0, 1], np.float32)
right = left + np.array([1, 0] * 4, np.float32)
GL.glVertexPointer(2, GL.GL_FLOAT, 0, left)
GL.glColor4f(1, 0, 0, 1)
GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
GL.glEnable(GL.GL_LIGHTING)
GL.glEnable(GL.GL_LIGHT0)
GL.glLightModelfv(GL.GL_LIGHT_MODEL_AMBIENT, [0, 0, 0, 1])
GL.glLightfv(GL.GL_LIGHT0, GL.GL_POSITION, [0, 0, 1, 0])
GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_AMBIENT, [0, 0, 0, 1])
GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_DIFFUSE, [0, 1, 0.5, 1])
GL.glNormal3f(0, 0, 1)
GL.glVertexPointer(2, GL.GL_FLOAT, 0, right)
GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
GL.glFinish()
assert GL.glGetError() == GL.GL_NO_ERROR
img = np.asarray(buf)
print("ES 1.1 pixels", img[0, 0].tolist(), img[H - 1, W - 1].tolist())
assert (img[:, :W // 2] == [255, 0, 0, 255]).all()
assert (img[:, W // 2:] == [0, 255, 128, 255]).all()
osmesa.OSMesaDestroyContext(ctx)

ctx = context(3, 2)
assert ctx
buf = arrays.GLubyteArray.zeros((H, W, 4))
assert osmesa.OSMesaMakeCurrent(ctx, buf, GL.GL_UNSIGNED_BYTE, W, H)
version = GL.glGetString(GL.GL_VERSION).decode()
print("ES 3.2:", version)
assert version.startswith("OpenGL ES 3.2 shimgl"), version
vs = shaders.compileShader("#version 320 es\nin vec2 p;\n"
                           "void main() { gl_Position = vec4(p, 0.0, 1.0); }\n", GL.GL_VERTEX_SHADER)
fs = shaders.compileShader("#version 320 es\nprecision highp float;\nout vec4 o;\n"
                           "void main() { o = vec4(gl_FragCoord.x / 32.0, 0.0, 1.0, 1.0); }\n",
                           GL.GL_FRAGMENT_SHADER)
prog = GL.glCreateProgram()
GL.glAttachShader(prog, vs)
GL.glAttachShader(prog, fs)
GL.glBindAttribLocation(prog, 0, "p")
GL.glLinkProgram(prog)
assert GL.glGetProgramiv(prog, GL.GL_LINK_STATUS)
GL.glUseProgram(prog)
vao = GL.glGenVertexArrays(1)
GL.glBindVertexArray(vao)
vbo = GL.glGenBuffers(1)
GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
quad = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
GL.glBufferData(GL.GL_ARRAY_BUFFER, quad.nbytes, quad, GL.GL_STATIC_DRAW)
GL.glVertexAttribPointer(0, 2, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
GL.glEnableVertexAttribArray(0)
GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
GL.glFinish()
assert GL.glGetError() == GL.GL_NO_ERROR
img = np.asarray(buf).astype(int)
want_red = np.round(255 * (np.arange(W) + 0.5) / 32).astype(int)
print("ES 3.2 red row", img[0, :, 0].tolist())
assert np.abs(img[:, :, 0] - want_red[None, :]).max() <= 1
assert (img[:, :, 1:] == [0, 255, 255]).all()
osmesa.OSMesaDestroyContext(ctx)

assert not context(2, 1)           # not a version of OpenGL ES
assert not context(3, 3)
print("OK")
