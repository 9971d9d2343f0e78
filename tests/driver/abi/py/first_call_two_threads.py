"""Two threads make their first calls into libshimgl.so at the same time, one
of them holding the GIL while it calls (ctypes.PyDLL, as a C extension that
does not release it): the other starts shimgl's Python side, which needs the
GIL. Prints "ok" when both calls return the client extension string.

    python first_call_two_threads.py LIBRARY DELAY_S"""

import ctypes
import sys
import threading
import time

so, delay_s = sys.argv[1], float(sys.argv[2])
held = ctypes.PyDLL(so)        # calls keep the GIL
free = ctypes.CDLL(so)         # calls release it
for lib in (held, free):
    lib.eglQueryString.restype = ctypes.c_char_p
    lib.eglQueryString.argtypes = [ctypes.c_void_p, ctypes.c_int]
out = {}


def other():
    out["free"] = free.eglQueryString(None, 0x3055)      # EGL_EXTENSIONS of no display


t = threading.Thread(target=other)
t.start()
time.sleep(delay_s)            # the other thread is starting shimgl meanwhile
out["held"] = held.eglQueryString(None, 0x3055)
t.join()
ok = out["held"] == out["free"] and out["held"].startswith(b"EGL_EXT_client_extensions")
print("ok" if ok else f"FAIL {out}")
