"""Hand-written C kernels (the GPU model's texture filtering and quad assembly,
``layout``'s tile copies run by the driver, ...), built and loaded like the
native tier's programs (``native_build``: the disk cache, the same compiler
flags, so IEEE float32 arithmetic without contraction or fast-math). Here, below
every layer that runs C, so the driver and the GPU model build it one way.

Every kernel has a numpy specification beside its caller and gives the same bits;
the caller runs numpy when ``usable()`` is False: ``SHIMGL_DEBUG=interp`` (the
specification only), no C compiler (silently: the results are the same), or the
unit's own switch off (tests compare both).
"""

from __future__ import annotations

import threading

from uapi.debug import debug_enabled

__all__ = ["Kernels", "c_pointer"]


class Kernels:
    """One C source and its declarations, compiled on first use (per process,
    through the disk cache)."""

    def __init__(self, source: str, cdef: str):
        self.source, self.cdef = source, cdef
        self.enabled = True          # tests switch a unit's kernels off
        self._lib = None             # (ffi, lib); False: cannot be built here
        self._lock = threading.Lock()

    def loaded(self) -> bool:
        """Built and loaded in this process already (a use costs no compile)."""
        return bool(self._lib)

    def usable(self) -> bool:
        """Enabled, not ``SHIMGL_DEBUG=interp``, and built (building on first use)."""
        if not self.enabled or debug_enabled("interp"):
            return False
        if self._lib is None:
            with self._lock:
                if self._lib is None:
                    from .native_build import BuildError, load_or_build
                    try:
                        self._lib = load_or_build(self.source, self.cdef)
                    except (BuildError, OSError, ImportError):
                        self._lib = False
        return self._lib is not False

    @property
    def ffi(self):
        return self._lib[0]

    @property
    def lib(self):
        return self._lib[1]

    def ptr(self, a, ctype: str):
        """A C pointer to the data of numpy array ``a`` (the caller keeps ``a`` alive)."""
        return c_pointer(self._lib[0], a, ctype)


def c_pointer(ffi, a, ctype: str):
    """``ffi.cast(ctype, a.ctypes.data)``: through the buffer protocol where ``a`` is
    C-contiguous (several times cheaper than building ``a.ctypes``; small draws
    pass dozens of arrays to C), else through ``a.ctypes``. The caller keeps ``a``
    alive."""
    try:
        return ffi.cast(ctype, ffi.from_buffer(a))
    except (ValueError, TypeError, BufferError):
        return ffi.cast(ctype, a.ctypes.data)
