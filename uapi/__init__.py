"""uapi: the contracts between userspace, kernel and hardware.

Owns the ioctl numbers and structs (cffi), the syscall seam (``open``, ``ioctl``,
``mmap``, ``close``), the GPU command-stream packet definitions and the shader ISA
table. Each fact is written here once and derived everywhere else.

Must never import anything of ours (``driver``, ``drmshim``, ``compiler``,
``layout``): it is the leaf every other layer agrees on. See README.md.

The DRM/Asahi interface lives in :mod:`uapi.drm` and is re-exported here under
the upstream names: ``uapi.ffi``, ``uapi.DRM_IOCTL_ASAHI_VM_BIND``,
``uapi.DRM_IOCTL_SYNCOBJ_WAIT``, ``uapi.DRM_ASAHI_BIND_READ``, ...
"""

from . import drm
from .drm import ffi
from .debug import debug_enabled, debug_flags, debug_words
from .seam import Backend, close, ioctl, mmap, open, register_backend, unregister_backend

globals().update({name: getattr(drm, name) for name in drm.__all__ if name.startswith("DRM_")})

__all__ = ["debug_flags", "debug_enabled", "debug_words", "Backend", "register_backend", "unregister_backend", "open", "ioctl", "mmap", "close",
           "drm", "ffi", *[name for name in drm.__all__ if name.startswith("DRM_")]]
