"""The words of a GL context's answer array, by name.

``ContextBase.answers`` (driver/gl/context.py) is an array of int words that a
caller outside Python may answer from: the C ABI's glGetError, glFinish and
glFlush return at once when the calling thread's current context's words allow
it (driver/abi/build.py FAST_ANSWERS writes its C conditions with these names).
The front end keeps the words exact:

- ERROR: the pending GL error (GL_NO_ERROR: none; the one place it is kept);
- CHECKED: non-zero while the checked dispatch is in effect (between glBegin and
  glEnd, while a display list is compiled: glGetError and glFinish are errors
  or special there);
- IDLE: 1 from a glFinish that left nothing to do (``note_finished``) until the
  pipe records or submits work again (``PipeContext.idle_flag``), the context is
  lost or made current elsewhere (``forget_idle``).

Standard library only, importing nothing: the ABI generator runs where shimgl is
not importable and loads this file by its path."""

ANSWER_WORDS = {"ERROR": 0, "CHECKED": 1, "IDLE": 2}
