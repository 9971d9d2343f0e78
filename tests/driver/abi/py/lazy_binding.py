"""Commands are bound on their first call (driver/abi/runtime.py): in a Python
host (ctypes on libshimgl.so), after an OSMesa context is made current and a
clear is read back, only the commands called so far are bound; a command
called for the first time from two threads at once (each with its own current
context) works in both; a command the front end lacks stays unbound and records
GL_INVALID_OPERATION at every call. Usage: lazy_binding.py LIBRARY_DIR; prints
OK at the end."""

import ctypes
import sys
import threading
from pathlib import Path

GL_VERSION, GL_RGBA, GL_UNSIGNED_BYTE = 0x1F02, 0x1908, 0x1401
GL_COLOR_BUFFER_BIT, GL_INVALID_OPERATION = 0x4000, 0x0502
lib = ctypes.CDLL(str(Path(sys.argv[1]) / "libshimgl.so"), mode=ctypes.RTLD_GLOBAL)
lib.OSMesaCreateContextExt.restype = ctypes.c_void_p
lib.OSMesaCreateContextExt.argtypes = [ctypes.c_uint, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                       ctypes.c_void_p]
lib.OSMesaMakeCurrent.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                  ctypes.c_int]
lib.glGetString.restype = ctypes.c_char_p
lib.glGetError.restype = ctypes.c_uint
lib.glClearColor.argtypes = [ctypes.c_float] * 4


def make_current(w=8, h=8):
    ctx = lib.OSMesaCreateContextExt(GL_RGBA, 0, 0, 0, None)
    buf = (ctypes.c_ubyte * (w * h * 4))()
    assert ctx and lib.OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_BYTE, w, h)
    return ctx, buf


ctx, buf = make_current()
lib.glClearColor(0.0, 1.0, 0.0, 1.0)
lib.glClear(GL_COLOR_BUFFER_BIT)
lib.glFinish()
assert list(buf[0:4]) == [0, 255, 0, 255], list(buf[0:4])

from driver.abi import _commands, runtime  # noqa: E402  (the library's Python side, started above)

bound = {_commands.NAMES[i] for i, ok in runtime._bound.items() if ok}
called = {"OSMesaCreateContextExt", "OSMesaMakeCurrent", "glClearColor", "glClear", "glFinish"}
assert called <= bound, sorted(called - bound)
# (OSMesa's own start may call a few more commands; never most of the ~3,450)
assert len(runtime._bound) < 40, sorted(_commands.NAMES[i] for i in runtime._bound)
assert _commands.NAMES.index("glGetString") not in runtime._bound

# two threads, each with its own context, call glGetString for the first time together
barrier = threading.Barrier(2)
got = {}


def first_call(label):
    make_current()
    barrier.wait()
    got[label] = lib.glGetString(GL_VERSION)


threads = [threading.Thread(target=first_call, args=(n,)) for n in ("a", "b")]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert got["a"] and got["a"] == got["b"], got
assert runtime._bound[_commands.NAMES.index("glGetString")] is True

# a command the front end does not implement: unbound, GL_INVALID_OPERATION at each call
from driver.gl import Context  # noqa: E402
name = next(n for n in ("glCreateCommandListsNV", "glAccumxOES", "glGetTextureHandleIMG")
            if getattr(Context, n, None) is None)
fn = getattr(lib, name)
for _ in range(2):
    fn()
    assert lib.glGetError() == GL_INVALID_OPERATION
assert runtime._bound[_commands.NAMES.index(name)] is False
assert lib.glGetError() == 0
print("OK")
