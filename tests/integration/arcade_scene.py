"""Arcade 3 (pyglet 2) from its own virtual environment, headless (pyglet's EGL
device platform, no display): a rectangle, a circle, a 3-pixel line, a polygon
outline, a sprite list of rotated, scaled and translucent checker sprites and a
line of text, drawn into a 160x120 window and read back with arcade.get_image()
for test_arcade.py. Nothing of shimgl is imported: the EGL vendor is whatever
the environment selects.

Usage: python arcade_scene.py OUT.npz [msaa]  (msaa: ask for a 4x multisampled
window, arcade's default; without it a single-sampled one). Prints "renderer ...",
"error ..." (arcade's glGetError) and "OK"."""
import os
import sys

os.environ["ARCADE_HEADLESS"] = "True"

import arcade  # noqa: E402
import numpy as np  # noqa: E402
import PIL.Image  # noqa: E402

out = sys.argv[1]
window = arcade.Window(160, 120, "scene", visible=False, antialiasing=len(sys.argv) > 2 and sys.argv[2] == "msaa")
ctx = window.ctx
print("renderer", ctx.info.RENDERER, "|", ctx.gl_version)

# a 16x16 texture made here
img = PIL.Image.new("RGBA", (16, 16))
for y in range(16):
    for x in range(16):
        img.putpixel((x, y), (230, 120, 40, 255) if (x // 4 + y // 4) % 2 else (40, 90, 200, 255))
texture = arcade.Texture(img, hash="checker16")
sprites = arcade.SpriteList()
for i, (x, y, scale, angle) in enumerate(((40, 40, 2.0, 0), (90, 70, 1.5, 30), (130, 35, 1.0, 45))):
    s = arcade.Sprite(texture, scale=scale, center_x=x, center_y=y, angle=angle)
    s.alpha = 255 - 60 * i
    sprites.append(s)

window.clear(color=(30, 30, 40, 255))
arcade.draw_lrbt_rectangle_filled(5, 60, 80, 115, (200, 60, 60, 255))
arcade.draw_circle_filled(120, 95, 18, (60, 200, 90, 200))
arcade.draw_line(0, 0, 160, 120, (255, 255, 0, 255), 3)
arcade.draw_polygon_outline([(20, 10), (70, 20), (50, 60)], (255, 255, 255, 255), 2)
sprites.draw()
arcade.draw_text("shimgl", 70, 5, (255, 255, 255, 255), 12)
image = np.asarray(arcade.get_image(0, 0, 160, 120).convert("RGB"))
np.savez(out, image=image)
print("error", ctx.error)
print("OK")
