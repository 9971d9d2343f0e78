"""vispy, unchanged, with its glfw backend: a 160x120 SceneCanvas with text, a
line and markers, rendered offscreen (canvas.render()).

    python vispy_scene.py OUT.npz

Writes the RGBA image; prints the GL renderer and "OK"."""
import sys

import numpy as np
import vispy
from vispy import scene

vispy.use(app="glfw")
canvas = scene.SceneCanvas(size=(160, 120), bgcolor="white", show=False)
view = canvas.central_widget.add_view()
view.camera = scene.PanZoomCamera(rect=(0, 0, 160, 120))
scene.visuals.Line(pos=np.array([[10, 10], [150, 110]], np.float32), color="red", width=3, parent=view.scene)
markers = scene.visuals.Markers(parent=view.scene)
markers.set_data(np.array([[40, 80], [120, 40]], np.float32), face_color="blue", size=12)
scene.visuals.Text("shimgl", pos=(80, 60), color="black", font_size=14, parent=view.scene)
image = canvas.render()
from vispy.gloo import gl
print("renderer", gl.glGetParameter(gl.GL_RENDERER))
np.savez(sys.argv[1], image=image)
print("OK")
