"""Qt 6 Quick (PySide6) from its own virtual environment: a QML scene (a rounded
rectangle, a rotated antialiased gradient, a translucent bordered rectangle, a
nearest-filtered image, text) in a 160x120 QQuickView under Xvfb, drawn by Qt's
OpenGL RHI through GLX and captured with QQuickItem.grabToImage. Nothing of
shimgl is imported: the GL is whatever the environment selects.

Qt Quick's render loop is the basic one (QSG_RENDER_LOOP=basic, Qt's own
setting): with Qt's threaded loop a Python program can deadlock on shimgl, whose
GL is Python code that needs the interpreter's lock, when PySide6 keeps that lock
on the main thread while it waits for the render thread (docs/programs.md).

Usage: python qt_scene.py OUT.npz. Prints "renderer ...", then "OK"."""
import os
import sys

os.environ.setdefault("QSG_RENDER_LOOP", "basic")

import numpy as np  # noqa: E402
from PySide6.QtCore import QTimer, QUrl  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QOpenGLContext  # noqa: E402
from PySide6.QtQuick import QQuickView, QQuickWindow, QSGRendererInterface  # noqa: E402

QQuickWindow.setGraphicsApi(QSGRendererInterface.GraphicsApi.OpenGL)
app = QGuiApplication(sys.argv[:1])
out = sys.argv[1]

checker = QImage(8, 8, QImage.Format.Format_RGBA8888)
for y in range(8):
    for x in range(8):
        checker.setPixelColor(x, y, [0xff2a5ac8, 0xffe67828][((x + y) // 2) % 2])
checker.save(out + ".checker.png")

QML = """
import QtQuick
Rectangle {
  width: 160; height: 120; color: "#203040"
  Rectangle { x: 8; y: 8; width: 60; height: 40; color: "red"; radius: 8 }
  Rectangle { x: 90; y: 14; width: 50; height: 50; rotation: 30; antialiasing: true
    gradient: Gradient { GradientStop { position: 0; color: "yellow" } GradientStop { position: 1; color: "blue" } } }
  Rectangle { x: 20; y: 60; width: 50; height: 30; color: "#8000ff00"; border.color: "white"; border.width: 3 }
  Image { x: 110; y: 80; width: 32; height: 32; smooth: false; source: "CHECKER" }
  Text { x: 10; y: 98; text: "shimgl Qt"; color: "white"; font.pixelSize: 13 }
}
""".replace("CHECKER", QUrl.fromLocalFile(out + ".checker.png").toString())
with open(out + ".qml", "w") as f:
    f.write(QML)

view = QQuickView()
view.setSource(QUrl.fromLocalFile(out + ".qml"))
view.resize(160, 120)
info = {}


def grab():
    result = view.rootObject().grabToImage()

    def ready():
        ctx = QOpenGLContext.currentContext()       # the basic loop leaves the scene's context current
        info["renderer"] = "?" if ctx is None else ctx.functions().glGetString(0x1F01)
        img = result.image().convertToFormat(QImage.Format.Format_RGB888)
        w, h, bpl = img.width(), img.height(), img.bytesPerLine()
        rows = np.frombuffer(img.constBits(), np.uint8, bpl * h).reshape(h, bpl)[:, : w * 3]
        np.savez(out, image=rows.reshape(h, w, 3).copy())
        app.quit()

    result.ready.connect(ready)


view.show()
QTimer.singleShot(500, grab)
app.exec()
print("renderer", info.get("renderer"))
print("OK")
