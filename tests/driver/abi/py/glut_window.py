"""A freeglut window through PyOpenGL (PYOPENGL_PLATFORM=glx): GLX visual
choice by glutInitDisplayMode, immediate-mode colour interpolation in the
compatibility profile, glutSwapBuffers. Prints the renderer and the pixel at
(2, 2), then "OK"."""
import sys
from OpenGL.GL import *
from OpenGL.GLUT import *
glutInit(sys.argv)
glutInitDisplayMode(GLUT_RGBA | GLUT_DOUBLE | GLUT_DEPTH)
glutInitWindowSize(64, 48)
glutCreateWindow(b"shimgl")
print("renderer", glGetString(GL_RENDERER), glGetString(GL_VERSION))
frames = [0]
def display():
    glClearColor(0.2, 0.3, 0.4, 1)
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT)
    glBegin(GL_TRIANGLES)
    glColor3f(1, 0, 0); glVertex2f(-1, -1)
    glColor3f(0, 1, 0); glVertex2f(1, -1)
    glColor3f(0, 0, 1); glVertex2f(-1, 1)
    glEnd()
    px = glReadPixels(2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE)
    glutSwapBuffers()
    frames[0] += 1
    if frames[0] == 3:
        print("pixel", list(px), "frames", frames[0], "OK")
        sys.stdout.flush()
        import os; os._exit(0)
    glutPostRedisplay()
glutDisplayFunc(display)
glutMainLoop()
