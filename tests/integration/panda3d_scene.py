"""Panda3D (its own virtual environment), offscreen: a lit, textured box on a
floor drawn through Panda3D's shader generator (setShaderAuto), two frames, the
pixels saved for test_panda3d.py. Every GL error Panda3D sees is logged on stderr
(gl-check-errors). Nothing of shimgl is imported: the GL comes from whatever
libGL/libEGL vendor the environment selects.

Usage: python panda3d_scene.py OUT.npz pandagl|p3headlessgl
(pandagl: GLX, needs DISPLAY; p3headlessgl: EGL's device platform, no display).
Prints "renderer ...", then "OK"."""
import sys

import numpy as np
from panda3d.core import loadPrcFileData

out = sys.argv[1]
display = sys.argv[2] if len(sys.argv) > 2 else "pandagl"
loadPrcFileData("", f"""
window-type offscreen
win-size 128 96
load-display {display}
audio-library-name null
framebuffer-multisample 0
sync-video 0
gl-debug 0
gl-check-errors 1
""")

from direct.showbase.ShowBase import ShowBase  # noqa: E402
from panda3d.core import (AmbientLight, CardMaker, DirectionalLight, Geom, GeomNode, GeomTriangles,  # noqa: E402
                          GeomVertexData, GeomVertexFormat, GeomVertexWriter, PNMImage, PointLight, Texture)

base = ShowBase()
gsg = base.win.getGsg()
print("renderer", gsg.getDriverRenderer(), "|", gsg.getDriverVersion())

# a checker texture made here (no model files needed)
img = PNMImage(16, 16)
for y in range(16):
    for x in range(16):
        c = 0.9 if (x // 4 + y // 4) % 2 else 0.3
        img.setXel(x, y, c, 0.6 * c + 0.2, 0.4)
tex = Texture("checker")
tex.load(img)
tex.setMinfilter(Texture.FT_linear_mipmap_linear)
tex.setMagfilter(Texture.FT_linear)

# a box from six faces with normals and uvs
fmt = GeomVertexFormat.getV3n3t2()
vdata = GeomVertexData("box", fmt, Geom.UHStatic)
vw, nw, tw = (GeomVertexWriter(vdata, n) for n in ("vertex", "normal", "texcoord"))
tris = GeomTriangles(Geom.UHStatic)
faces = [((1, 0, 0), (0, 1, 0), (0, 0, 1)), ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
         ((0, 1, 0), (-1, 0, 0), (0, 0, 1)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
         ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (-1, 0, 0), (0, 1, 0))]
for i, (n, u, v) in enumerate(faces):
    for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        p = [n[k] + a * u[k] + b * v[k] for k in range(3)]
        vw.addData3(*p)
        nw.addData3(*n)
        tw.addData2((a + 1) / 2, (b + 1) / 2)
    tris.addVertices(4 * i, 4 * i + 1, 4 * i + 2)
    tris.addVertices(4 * i, 4 * i + 2, 4 * i + 3)
geom = Geom(vdata)
geom.addPrimitive(tris)
node = GeomNode("box")
node.addGeom(geom)
box = base.render.attachNewNode(node)
box.setTexture(tex)
box.setPos(0, 0, 1)
box.setHpr(30, 20, 0)

cm = CardMaker("floor")
cm.setFrame(-6, 6, -6, 6)
floor = base.render.attachNewNode(cm.generate())
floor.setP(-90)
floor.setColor(0.5, 0.55, 0.6, 1)

amb = base.render.attachNewNode(AmbientLight("amb"))
amb.node().setColor((0.2, 0.2, 0.25, 1))
sun = base.render.attachNewNode(DirectionalLight("sun"))
sun.node().setColor((0.7, 0.7, 0.6, 1))
sun.setHpr(45, -60, 0)
lamp = base.render.attachNewNode(PointLight("lamp"))
lamp.node().setColor((0.8, 0.5, 0.3, 1))
lamp.node().setAttenuation((1, 0, 0.05))
lamp.setPos(3, -3, 3)
for light in (amb, sun, lamp):
    base.render.setLight(light)
base.render.setShaderAuto()

base.disableMouse()
base.camera.setPos(0, -10, 5)
base.camera.lookAt(0, 0, 0.8)
base.setBackgroundColor(0.1, 0.1, 0.15, 1)

for _ in range(2):
    base.graphicsEngine.renderFrame()
shot = base.win.getScreenshot()
data = shot.getRamImageAs("RGBA")
h, w = shot.getYSize(), shot.getXSize()
image = np.frombuffer(bytes(data), np.uint8).reshape(h, w, 4)[::-1, :, :3]
np.savez(out, image=image)
print("covered", float((image.max(axis=2) > 40).mean()))
print("OK")
