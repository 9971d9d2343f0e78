"""pygame + PyOpenGL, unchanged: a 3.3 core window under X (pygame's SDL2 asks
GLX for the context), a triangle with interpolated colours drawn by shaders, read
back from the back buffer before the flip.

    python pygame_window.py OUT.npy

Prints the renderer and version, then "OK"."""
import sys
import numpy as np
import pygame
from OpenGL import GL
W, H = 96, 64
pygame.init()
pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MAJOR_VERSION, 3)
pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MINOR_VERSION, 3)
pygame.display.gl_set_attribute(pygame.GL_CONTEXT_PROFILE_MASK, pygame.GL_CONTEXT_PROFILE_CORE)
pygame.display.set_mode((W, H), pygame.OPENGL | pygame.DOUBLEBUF)
print("renderer", GL.glGetString(GL.GL_RENDERER).decode(), "version", GL.glGetString(GL.GL_VERSION).decode())
def sh(kind, src):
    s = GL.glCreateShader(kind); GL.glShaderSource(s, src); GL.glCompileShader(s)
    assert GL.glGetShaderiv(s, GL.GL_COMPILE_STATUS), GL.glGetShaderInfoLog(s); return s
p = GL.glCreateProgram()
GL.glAttachShader(p, sh(GL.GL_VERTEX_SHADER, "#version 330 core\nlayout(location=0) in vec2 pos; layout(location=1) in vec3 col; out vec3 c;\nvoid main(){ c = col; gl_Position = vec4(pos, 0.0, 1.0); }"))
GL.glAttachShader(p, sh(GL.GL_FRAGMENT_SHADER, "#version 330 core\nin vec3 c; out vec4 o; void main(){ o = vec4(c, 1.0); }"))
GL.glLinkProgram(p); assert GL.glGetProgramiv(p, GL.GL_LINK_STATUS)
GL.glUseProgram(p)
vao = GL.glGenVertexArrays(1); GL.glBindVertexArray(vao)
vbo = GL.glGenBuffers(1); GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
d = np.array([-0.9, -0.9, 1, 0, 0, 0.9, -0.8, 0, 1, 0, 0.1, 0.9, 0, 0, 1], np.float32)
GL.glBufferData(GL.GL_ARRAY_BUFFER, d.nbytes, d, GL.GL_STATIC_DRAW)
GL.glVertexAttribPointer(0, 2, GL.GL_FLOAT, False, 20, None); GL.glEnableVertexAttribArray(0)
GL.glVertexAttribPointer(1, 3, GL.GL_FLOAT, False, 20, GL.ctypes.c_void_p(8)); GL.glEnableVertexAttribArray(1)
GL.glClearColor(0.2, 0.2, 0.2, 1); GL.glClear(GL.GL_COLOR_BUFFER_BIT)
GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3)
img = np.frombuffer(GL.glReadPixels(0, 0, W, H, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)
pygame.display.flip()
np.save(sys.argv[1], img)
print("error", GL.glGetError(), "mean", img[..., :3].mean(axis=(0, 1)).round(2))
pygame.quit()
print("OK")
