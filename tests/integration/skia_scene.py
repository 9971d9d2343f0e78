"""Skia's GPU backend (skia-python, Ganesh on OpenGL) from its own virtual
environment: a GLFW hidden window under Xvfb (GLX) gives the context, and
GrDirectContext.MakeGL draws anti-aliased rectangles, a gradient circle, a
stroked cubic path, a translucent round rectangle and text into a 160x120 GPU
surface; its snapshot's pixels (N32: BGRA here) are saved for test_skia.py.
Nothing of shimgl is imported: the GL is whatever the environment selects.

Usage: python skia_scene.py OUT.npz. Prints "renderer ...", "error ..." and "OK"."""
import sys
import glfw, numpy as np, skia
out = sys.argv[1]
assert glfw.init()
glfw.window_hint(glfw.VISIBLE, glfw.FALSE)
glfw.window_hint(glfw.STENCIL_BITS, 8)
win = glfw.create_window(160, 120, "skia", None, None)
assert win
glfw.make_context_current(win)
from OpenGL import GL
print("renderer", GL.glGetString(GL.GL_RENDERER).decode())
ctx = skia.GrDirectContext.MakeGL()
assert ctx is not None, "MakeGL failed"
info = skia.ImageInfo.MakeN32Premul(160, 120)
surface = skia.Surface.MakeRenderTarget(ctx, skia.Budgeted.kNo, info)
assert surface is not None
c = surface.getCanvas()
c.clear(skia.Color(30, 30, 40))
p = skia.Paint(AntiAlias=True, Color=skia.Color(200, 60, 60))
c.drawRect(skia.Rect(5, 5, 60, 45), p)
p2 = skia.Paint(AntiAlias=True, Shader=skia.GradientShader.MakeLinear([skia.Point(80, 10), skia.Point(150, 60)],
                                                                       [skia.ColorRED, skia.ColorBLUE]))
c.drawCircle(115, 35, 28, p2)
path = skia.Path()
path.moveTo(10, 110); path.cubicTo(40, 50, 90, 140, 150, 80)
c.drawPath(path, skia.Paint(AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=4, Color=skia.ColorYELLOW))
c.drawString("shimgl", 60, 110, skia.Font(skia.Typeface(""), 18), skia.Paint(AntiAlias=True, Color=skia.ColorWHITE))
c.drawRoundRect(skia.Rect(10, 55, 50, 95), 8, 8, skia.Paint(AntiAlias=True, Color=skia.Color(60, 200, 90, 160)))
surface.flushAndSubmit()
img = surface.makeImageSnapshot().toarray()
np.savez(out, image=img[..., :3])
print("error", GL.glGetError())
print("OK")
