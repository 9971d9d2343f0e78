"""``shimgl demo``: built-in scenes rendered by a PyOpenGL program through shimgl's
C ABI (EGL through glvnd, ``shimgl env``), one subprocess per scene, to PNG files.

* ``scenes.py`` - the PyOpenGL program (``python -m driver.demo.scenes SCENE OUT SIZE``):
  makes a surfaceless EGL GLES 3.1 context, renders one scene into an FBO, writes the
  PNG and prints one JSON line of what it exercised (draws issued, the kernel's
  per-queue counters read through the in-process driver, wall time).
* ``cli.py`` - the ``shimgl demo`` command (``register``)."""

SCENES = ("cube", "blend", "mipmap", "compute", "msaa")
