"""uapi.drm: the DRM and Asahi ioctl interface as cffi declarations.

One header (``shimgl_drm.h``: generic DRM, upstream Linux 6.16 ``asahi_drm.h``
byte layout, shimgl's appended extensions) fed to ``cffi.FFI().cdef``. Request
numbers are computed from the struct sizes with the Linux ``_IOC`` rules and
exposed under their upstream names (``DRM_IOCTL_ASAHI_VM_BIND``, ...), as are the
flag and enum constants (``DRM_ASAHI_BIND_READ``, ...). ``ffi.new("struct
drm_asahi_vm_bind *")`` makes an argument. Imports nothing of ours.
"""

from __future__ import annotations

from .header import HEADER, constants, ffi
from .ioctls import BY_NR, BY_REQUEST, IOCTLS, IoctlSpec, ioc, ioc_nr, ioc_size, request_numbers
from .records import record_format

_exported = {**constants, **request_numbers()}
globals().update(_exported)

__all__ = ["HEADER", "ffi", "constants", "IOCTLS", "IoctlSpec", "BY_REQUEST", "BY_NR",
           "ioc", "ioc_nr", "ioc_size", "request_numbers", "record_format", *sorted(_exported)]
