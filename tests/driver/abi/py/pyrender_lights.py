"""pyrender, unchanged, renders a box on a floor at 128x128 offscreen, lit by
one kind of light or all of them, with the shadows pyrender implements
(directional and spot lights; it raises NotImplementedError for point-light
shadows, so a point light lights without them).

    python pyrender_lights.py OUT.npz directional|spot|point|all

Writes the colour and depth images; prints "OK"."""
import sys
import numpy as np
import trimesh, pyrender
scene = pyrender.Scene(ambient_light=[0.1, 0.1, 0.1])
scene.add(pyrender.Mesh.from_trimesh(trimesh.creation.box(extents=(1, 1, 1)), smooth=False), pose=np.eye(4))
floor = np.eye(4); floor[2, 3] = -0.55
scene.add(pyrender.Mesh.from_trimesh(trimesh.creation.box(extents=(6, 6, 0.1)), smooth=False), pose=floor)
cam_pose = np.array([[0.8, -0.36, 0.48, 2.4], [0, 0.8, 0.6, 3.0], [-0.6, -0.48, 0.64, 3.2], [0, 0, 0, 1]])
scene.add(pyrender.PerspectiveCamera(yfov=np.pi / 3.0), pose=cam_pose)
def look_from(eye):
    eye = np.asarray(eye, float); z = eye / np.linalg.norm(eye)
    x = np.cross([0, 0, 1], z); x /= np.linalg.norm(x); y = np.cross(z, x)
    m = np.eye(4); m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = x, y, z, eye
    return m
kind = sys.argv[2]
if kind in ("directional", "all"):
    scene.add(pyrender.DirectionalLight(color=[1, 1, 1], intensity=2.0), pose=look_from([1.0, 0.5, 2.0]))
if kind in ("spot", "all"):
    scene.add(pyrender.SpotLight(color=[1, 0.8, 0.8], intensity=30.0, innerConeAngle=0.3, outerConeAngle=0.6),
              pose=look_from([-1.5, 1.0, 3.0]))
if kind in ("point", "all"):
    scene.add(pyrender.PointLight(color=[0.8, 0.8, 1], intensity=20.0), pose=look_from([1.5, -1.5, 2.5]))
r = pyrender.OffscreenRenderer(128, 128)
F = pyrender.RenderFlags
flags = {'directional': F.SHADOWS_DIRECTIONAL, 'spot': F.SHADOWS_SPOT, 'point': F.NONE,
         'all': F.SHADOWS_DIRECTIONAL | F.SHADOWS_SPOT}[kind]
color, depth = r.render(scene, flags=flags)
np.savez(sys.argv[1], color=color, depth=depth)
print("color mean", color.mean(axis=(0, 1)), "depth range", depth.min(), depth.max())
r.delete()
print("OK")
