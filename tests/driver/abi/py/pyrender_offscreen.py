"""pyrender, unchanged (PYOPENGL_PLATFORM=egl: its EGL device path), renders a
lit box at 96x96 offscreen.

    python pyrender_offscreen.py OUT.npz [shadows]

Writes the colour and depth images; prints "OK"."""
import sys

import numpy as np
import trimesh, pyrender
mesh = pyrender.Mesh.from_trimesh(trimesh.creation.box(extents=(1, 1, 1)), smooth=False)
scene = pyrender.Scene(ambient_light=[0.2, 0.2, 0.2])
scene.add(mesh, pose=np.eye(4))
cam = pyrender.PerspectiveCamera(yfov=np.pi / 3.0)
pose = np.array([[0.8, -0.36, 0.48, 1.2], [0, 0.8, 0.6, 1.5], [-0.6, -0.48, 0.64, 1.6], [0, 0, 0, 1]])
scene.add(cam, pose=pose)
scene.add(pyrender.DirectionalLight(color=[1, 1, 1], intensity=3.0), pose=pose)
r = pyrender.OffscreenRenderer(96, 96)
flags = pyrender.RenderFlags.SHADOWS_DIRECTIONAL if "shadows" in sys.argv else pyrender.RenderFlags.NONE
color, depth = r.render(scene, flags=flags)
np.savez(sys.argv[1], color=color, depth=depth)
print("color mean", color.mean(axis=(0, 1)), "depth range", depth.min(), depth.max())
r.delete()
print("OK")
