"""Kivy 2.3 from its own virtual environment (SDL2 window on X11, GLX): canvas
instructions (rectangles, a translucent ellipse, a 3-pixel line, a rotated
nearest-filtered checker quad) and a label in a 160x120 window, drawn into an
Fbo by Widget.export_as_image() and read back for test_kivy.py. Nothing of
shimgl is imported: the GL is whatever the environment selects.

Usage: python kivy_scene.py OUT.npz. Prints "renderer ...", "error ..." (glGetError
after the read-back) and "OK"."""
import os
import sys

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_WINDOW", "sdl2")
os.environ.setdefault("KIVY_GL_BACKEND", "sdl2")

from kivy.config import Config  # noqa: E402
Config.set("graphics", "width", "160")
Config.set("graphics", "height", "120")
Config.set("graphics", "multisamples", "0")
Config.set("graphics", "resizable", "0")

import numpy as np  # noqa: E402
from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.graphics import Color, Ellipse, Line, PopMatrix, PushMatrix, Rectangle, Rotate  # noqa: E402
from kivy.graphics import opengl as gl  # noqa: E402
from kivy.graphics.texture import Texture  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

out = sys.argv[1]


class Scene(Widget):
    def __init__(self, **kw):
        super().__init__(**kw)
        tex = Texture.create(size=(8, 8), colorfmt="rgba")
        checker = np.zeros((8, 8, 4), np.uint8)
        checker[...] = (40, 90, 200, 255)
        checker[(np.indices((8, 8)).sum(0) // 2) % 2 == 1] = (230, 120, 40, 255)
        tex.blit_buffer(checker.tobytes(), colorfmt="rgba", bufferfmt="ubyte")
        tex.mag_filter = "nearest"
        with self.canvas:
            Color(0.12, 0.12, 0.16, 1)
            Rectangle(pos=(0, 0), size=(160, 120))
            Color(0.8, 0.25, 0.25, 1)
            Rectangle(pos=(5, 70), size=(55, 40))
            Color(0.25, 0.8, 0.35, 0.8)
            Ellipse(pos=(95, 70), size=(40, 40))
            Color(1, 1, 0, 1)
            Line(points=[0, 0, 160, 120], width=1.5)
            Color(1, 1, 1, 1)
            PushMatrix()
            Rotate(angle=25, origin=(60, 40))
            Rectangle(pos=(40, 20), size=(40, 40), texture=tex)
            PopMatrix()
        self.add_widget(Label(text="shimgl", pos=(90, 0), size=(70, 30), font_size=14))


class SceneApp(App):
    def build(self):
        Clock.schedule_once(self.grab, 0.5)
        return Scene()

    def grab(self, *_):
        tex = self.root.export_as_image().texture          # the widget tree drawn into an Fbo
        w, h = tex.size
        image = np.frombuffer(tex.pixels, np.uint8).reshape(h, w, 4)[::-1, :, :3]
        np.savez(out, image=image)
        print("renderer", gl.glGetString(gl.GL_RENDERER).decode())
        print("size", w, h, Window.size)
        print("error", gl.glGetError())
        print("OK", flush=True)
        self.stop()


SceneApp().run()
