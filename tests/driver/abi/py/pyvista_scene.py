"""PyVista (VTK), unchanged: an off-screen 160x120 plotter with a shaded sphere
and a cube, screenshot as an array.

    python pyvista_scene.py OUT.npz

Writes the RGB image; prints the GL renderer VTK reports and "OK"."""
import sys

import numpy as np
import pyvista as pv

plotter = pv.Plotter(off_screen=True, window_size=(160, 120))
plotter.add_mesh(pv.Sphere(radius=0.5, center=(-0.6, 0, 0)), color="orange", smooth_shading=True)
plotter.add_mesh(pv.Cube(center=(0.7, 0, 0), x_length=0.7, y_length=0.7, z_length=0.7), color="steelblue")
plotter.camera_position = [(0, -4, 1.5), (0, 0, 0), (0, 0, 1)]
image = plotter.screenshot(return_img=True)
info = plotter.render_window.ReportCapabilities()
renderer = next((line.split(":", 1)[1].strip() for line in info.splitlines() if "OpenGL renderer" in line), "?")
print("renderer", renderer)
np.savez(sys.argv[1], image=image)
plotter.close()
print("OK")
