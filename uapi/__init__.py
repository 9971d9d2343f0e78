"""uapi: the contracts between userspace, kernel and hardware.

Owns the ioctl numbers and structs (cffi), the syscall seam (``open``, ``ioctl``,
``mmap``, ``close``), the GPU command-stream packet definitions and the shader ISA
table. Each fact is written here once and derived everywhere else.

Must never import anything of ours (``driver``, ``drmshim``, ``compiler``,
``layout``): it is the leaf every other layer agrees on. See README.md.
"""

from .seam import Backend, close, ioctl, mmap, open, register_backend, unregister_backend

__all__ = ["Backend", "register_backend", "unregister_backend", "open", "ioctl", "mmap", "close"]
