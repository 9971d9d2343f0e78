"""A Python host that has looked an attribute up on a capsule before its first GL
call (pybind11 modules such as Taichi's do), which gives PyCapsule_Type a type
version tag, then runs pyopengl_egl.py (a triangle through EGL). The tag is read
back through ctypes (CPython 3.11) so the test knows the precondition holds."""

import ctypes
import datetime
import runpy
import sys
from pathlib import Path

getattr(datetime.datetime_CAPI, "anything", None)

# CPython 3.11's PyTypeObject on a 64-bit machine: tp_version_tag (unsigned int) follows
# 48 pointer-sized fields (the object header, tp_name ... tp_del): byte 384.
if sys.version_info[:2] == (3, 11) and ctypes.sizeof(ctypes.c_void_p) == 8:
    tag = ctypes.c_uint.from_address(ctypes.addressof(ctypes.c_char.in_dll(ctypes.pythonapi, "PyCapsule_Type")) + 48 * 8)
    print("PyCapsule_Type version tag", tag.value)
    assert tag.value != 0, "PyCapsule_Type has no version tag: the precondition does not hold"
runpy.run_path(str(Path(__file__).with_name("pyopengl_egl.py")), run_name="__main__")
