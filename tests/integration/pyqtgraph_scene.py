"""pyqtgraph's 3D view (PySide6 QOpenGLWidget, compatibility-profile GL through
PyOpenGL) from its own virtual environment, under Xvfb through GLX: a grid, a
face-coloured shaded sphere, 200 scatter points and a line plot in a 160x120
GLViewWidget, read back with grabFramebuffer. The grid is drawn without
GL_LINE_SMOOTH (`antialias=False`) so the comparison can be tight: antialiased
lines differ by the drivers' coverage approximations (docs/programs.md). Nothing of
shimgl is imported.

Usage: python pyqtgraph_scene.py OUT.npz. Prints "renderer ...", "error ..." and "OK"."""
import sys

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl
from OpenGL import GL
from PySide6.QtGui import QImage

app = pg.mkQApp()
view = gl.GLViewWidget()
view.resize(160, 120)
view.setCameraPosition(distance=12, elevation=25, azimuth=40)
view.setBackgroundColor((30, 30, 40))
grid = gl.GLGridItem(antialias=False)
grid.setSize(10, 10)
grid.setSpacing(1, 1)
view.addItem(grid)
mesh = gl.MeshData.sphere(rows=12, cols=20)
colours = np.ones((mesh.faceCount(), 4))
colours[:, 0] = np.linspace(0, 1, mesh.faceCount())
colours[:, 1] = 0.4
mesh.setFaceColors(colours)
sphere = gl.GLMeshItem(meshdata=mesh, smooth=False, shader="shaded", glOptions="opaque")
sphere.translate(0, 0, 1.5)
view.addItem(sphere)
points = np.random.default_rng(1).normal(size=(200, 3)) * 2
view.addItem(gl.GLScatterPlotItem(pos=points, color=(1, 1, 0, 1), size=4))
x = np.linspace(-4, 4, 50)
view.addItem(gl.GLLinePlotItem(pos=np.stack([x, np.sin(x) * 2, x * 0 + 0.2], 1), color=(0, 1, 1, 1), width=2))
view.show()
app.processEvents()
img = view.grabFramebuffer().convertToFormat(QImage.Format.Format_RGB888)
w, h, bpl = img.width(), img.height(), img.bytesPerLine()
rows = np.frombuffer(img.constBits(), np.uint8, bpl * h).reshape(h, bpl)[:, : w * 3]
np.savez(sys.argv[1], image=rows.reshape(h, w, 3).copy())
view.makeCurrent()
print("renderer", GL.glGetString(GL.GL_RENDERER).decode())
print("error", GL.glGetError())
print("OK")
