"""How C pointers appear in the Python calling convention.

* Input data (glBufferData, glTexImage2D, glUniform4fv, ...): bytes, bytearray,
  memoryview, a numpy array, a sequence of numbers (packed as the C type the
  entry point documents), or None for a NULL pointer.
* Client-memory vertex/index arrays (no buffer bound): a `ClientMemory` (the
  C ABI wraps a raw address with a reader), or any of the input data kinds.
  With a buffer bound the pointer argument is an int byte offset, as in C.
* Output pointers (glGen*, glGet*, glReadPixels) are not passed: the values
  are returned (lists for arrays, bytes for pixel data, str for strings)."""

from __future__ import annotations

import struct
from collections.abc import Callable

import numpy as np

__all__ = ["ClientMemory", "as_bytes", "pack_values"]


class ClientMemory:
    """Client memory at an address the driver cannot size in advance
    (glVertexPointer with no buffer bound). `read(offset_B, size_B)` returns
    bytes; the C ABI passes a reader over the raw address, Python callers pass
    bytes-like objects (wrapped automatically)."""

    def __init__(self, read: Callable[[int, int], bytes], base: int = 0, size_B: int | None = None):
        self._read = read
        self.base = base
        self.size_B = size_B

    @classmethod
    def wrap(cls, obj) -> "ClientMemory":
        if isinstance(obj, ClientMemory):
            return obj
        data = as_bytes(obj)
        return cls(lambda off, n: data[off:off + n], 0, len(data))

    def read(self, offset_B: int, size_B: int) -> bytes:
        return bytes(self._read(self.base + offset_B, size_B))

    def offset(self, delta_B: int) -> "ClientMemory":
        return ClientMemory(self._read, self.base + delta_B,
                            None if self.size_B is None else self.size_B - delta_B)


def as_bytes(data, fmt: str = "f") -> bytes:
    """Bytes of an input pointer argument; sequences of numbers are packed
    with struct format letter `fmt` (native byte order)."""
    if data is None:
        return b""
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    if isinstance(data, memoryview):
        return data.tobytes()
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).tobytes()
    if isinstance(data, ClientMemory):
        assert data.size_B is not None, "client memory of unknown size"
        return data.read(0, data.size_B)
    return pack_values(data, fmt)


def pack_values(values, fmt: str) -> bytes:
    flat = np.asarray(values).ravel().tolist()
    return struct.pack(f"={len(flat)}{fmt}", *flat)
