"""A pyglet 2 window (GLX, a core profile context): clear, a shapes.Rectangle
batch (shaders, uniform blocks, VAOs), the colour buffer read back on the
third frame. Prints the renderer, two pixels and "OK"."""
import sys
import pyglet
from pyglet import gl
win = pyglet.window.Window(width=64, height=48, visible=True)
print("renderer", pyglet.gl.gl_info.get_renderer(), pyglet.gl.gl_info.get_version_string())
frames = [0]
@win.event
def on_draw():
    gl.glClearColor(1.0, 0.5, 0.25, 1.0)
    win.clear()
    batch = pyglet.graphics.Batch()
    rect = pyglet.shapes.Rectangle(4, 4, 8, 8, color=(0, 255, 0), batch=batch)
    batch.draw()
    frames[0] += 1
    if frames[0] == 3:
        buf = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        data = buf.get_data("RGBA", buf.width * 4)
        print("pixel(6,6)", list(data[(6 * buf.width + 6) * 4:(6 * buf.width + 6) * 4 + 4]), "pixel(40,30)", list(data[(30 * buf.width + 40) * 4:(30 * buf.width + 40) * 4 + 4]))
        pyglet.app.exit()
pyglet.clock.schedule_interval(lambda dt: None, 1 / 30)
pyglet.app.run()
print("frames", frames[0], "OK")
