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

import math
import struct
from collections.abc import Callable

import numpy as np

__all__ = ["ClientBytes", "ClientMemory", "as_bytes", "client_address", "pack_into", "pack_values"]


class ClientBytes(bytes):
    """The bytes the C ABI copied from a client pointer, with that pointer's
    ``address`` (glBufferData with AMD_pinned_memory's target uses the memory
    itself, not the copy)."""

    address: int = 0


def client_address(data) -> int | None:
    """The address of the client memory behind an input pointer argument: the C
    ABI's pointer (``ClientBytes``), or a writable buffer of this process (a numpy
    array, a bytearray, an mmap); None for immutable data (bytes, sequences)."""
    if isinstance(data, ClientBytes):
        return data.address
    if isinstance(data, np.ndarray):
        return data.ctypes.data if data.flags.c_contiguous and data.flags.writeable else None
    try:
        view = memoryview(data)
    except TypeError:
        return None
    if view.readonly or not view.c_contiguous:
        return None
    import ctypes
    return ctypes.addressof(ctypes.c_char.from_buffer(view.cast("B")))


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


_C_TYPES = {"f": np.float32, "d": np.float64, "e": np.float16, "b": np.int8, "B": np.uint8,
            "h": np.int16, "H": np.uint16, "i": np.int32, "I": np.uint32, "q": np.int64,
            "Q": np.uint64}


def _c_int(v, bits: int) -> int:
    """A number converted to a `bits`-wide C integer as the hardware does:
    truncated toward zero, wrapped modulo 2^bits; NaN and infinities are 0."""
    if isinstance(v, float):
        v = int(v) if math.isfinite(v) else 0
    return int(v) & ((1 << bits) - 1)


def pack_values(values, fmt: str) -> bytes:
    """Numbers packed as the C type of struct letter `fmt` (native byte order),
    converted as a C cast would: a float beyond the type's range becomes an
    infinity, an integer wraps. Never OverflowError."""
    if fmt == "f" and type(values) in (tuple, list):
        # a flat sequence of numbers: struct rounds each as the cast below does (a C cast to
        # float); a value past float's range (OverflowError) or not a number takes numpy's way
        try:
            return struct.pack(f"={len(values)}f", *values)
        except (struct.error, OverflowError, TypeError):
            pass
    flat = np.asarray(values).ravel().tolist()
    dt = _C_TYPES.get(fmt)
    if dt is None:
        return struct.pack(f"={len(flat)}{fmt}", *flat)
    if np.issubdtype(dt, np.floating):
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(flat, dtype=np.float64).astype(dt).tobytes()
    bits = 8 * np.dtype(dt).itemsize
    unsigned = np.dtype(f"u{bits // 8}")
    return np.array([_c_int(v, bits) for v in flat], dtype=unsigned).view(dt).tobytes()


def pack_into(buf, offset_B: int, fmt: str, values) -> None:
    """pack_values(values, fmt) written into `buf` at `offset_B` (little-endian host)."""
    raw = pack_values(values, fmt)
    buf[offset_B:offset_B + len(raw)] = raw
