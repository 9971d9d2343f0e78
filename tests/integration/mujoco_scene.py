"""MuJoCo's renderer (mujoco.Renderer: its own fixed-function OpenGL renderer in a
compatibility context, EGL headless with MUJOCO_GL=egl): a textured checker floor
with reflections (stencil, clip plane, mirrored lights), a box, a sphere and a
translucent capsule under a spot light casting shadows (a depth texture with a
reverse-Z projection, texgen and an alpha-tested compare), 160x120, colour and depth.
Usage: python mujoco_scene.py OUT.npz. Prints "renderer ..." and, last, "OK"."""

import sys

import mujoco
import numpy as np

XML = """
<mujoco>
  <visual><global offwidth="160" offheight="120"/><quality shadowsize="1024"/></visual>
  <asset>
    <texture name="grid" type="2d" builtin="checker" rgb1=".2 .3 .4" rgb2=".8 .8 .8" width="64" height="64"/>
    <material name="grid" texture="grid" texrepeat="4 4" reflectance="0.2"/>
  </asset>
  <worldbody>
    <light pos="0 -1 3" dir="0 0.3 -1" castshadow="true"/>
    <geom type="plane" size="2 2 .1" material="grid"/>
    <body pos="0 0 .4"><freejoint/><geom type="box" size=".15 .15 .15" rgba=".9 .3 .2 1"/></body>
    <body pos=".4 .2 .3"><geom type="sphere" size=".12" rgba=".2 .8 .3 1"/></body>
    <body pos="-.4 .1 .3"><geom type="capsule" size=".06 .15" rgba=".3 .4 .9 .6"/></body>
  </worldbody>
</mujoco>"""

model = mujoco.MjModel.from_xml_string(XML)
data = mujoco.MjData(model)
for _ in range(50):
    mujoco.mj_step(model, data)
with mujoco.Renderer(model, 120, 160) as r:
    cam = mujoco.MjvCamera()
    cam.lookat[:] = (0, 0, .2)
    cam.distance, cam.azimuth, cam.elevation = 2.0, 60, -25
    r.update_scene(data, camera=cam)
    image = r.render()
    from OpenGL import GL
    print("renderer", GL.glGetString(GL.GL_RENDERER).decode())
    r.enable_depth_rendering()
    r.update_scene(data, camera=cam)
    depth = r.render()
np.savez(sys.argv[1], image=image, depth=depth)
print("OK")
