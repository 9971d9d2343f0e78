"""A linked program's default uniform block storage, with a generation number.

The storage is in the layout the shaders read (compiler.link.default_block_layout):
``glUniform*`` write the bytes the shaders load, and a draw hands them to the pipe
as constant buffer 0. Every write goes through ``write`` or ``pack``, which move
the storage's ``generation``; readers get a read-only view (``view``), so a write
that bypasses the storage is a TypeError, never a stale draw.

Invariant: while ``generation`` is unchanged the bytes are unchanged, so what a
draw derives from them (the constant buffer's bytes, each sampler uniform's
texture unit) can be kept (driver/gl/draws.py)."""

from __future__ import annotations

import itertools
import struct

from driver.gallium import ConstantBuffer

__all__ = ["UniformStorage"]

# one counter for every storage: a generation number is never reused, even by a new
# storage (a relink), so (storage, generation) never names two contents
_GENERATIONS = itertools.count(1)


class UniformStorage:
    """The bytes of one program's default uniform block (``view``: read-only)."""

    __slots__ = ("_data", "view", "generation", "_constant_buffer", "_memo")

    def __init__(self, data: bytearray):
        self._data = data
        # a read-only view of the bytearray: readers (struct.unpack_from, numpy, bytes())
        # see the current bytes, and nothing can write through it
        self.view = memoryview(data).toreadonly()
        self.generation = next(_GENERATIONS)
        self._constant_buffer = None        # (generation, ConstantBuffer of the bytes)
        self._memo: dict = {}                # key -> (generation, what memo() derived)

    def __len__(self) -> int:
        return len(self._data)

    def write(self, offset_B: int, raw) -> None:
        """Store ``raw`` (bytes-like) at ``offset_B``."""
        end = offset_B + len(raw)
        if offset_B < 0 or end > len(self._data):
            raise IndexError(f"uniform write [{offset_B}, {end}) outside the {len(self._data)}-byte storage")
        self._data[offset_B:end] = raw
        self.generation = next(_GENERATIONS)

    def pack(self, fmt: str, offset_B: int, *values) -> None:
        """``struct.pack_into(fmt, storage, offset_B, *values)``."""
        struct.pack_into(fmt, self._data, offset_B, *values)
        self.generation = next(_GENERATIONS)

    def memo(self, key, derive):
        """``derive()``, a value read from the bytes (each sampler uniform's unit, ...),
        derived again only when the generation moved since it was derived for ``key``."""
        hit = self._memo.get(key)
        if hit is not None and hit[0] == self.generation:
            return hit[1]
        value = derive()
        self._memo[key] = (self.generation, value)
        return value

    def constant_buffer(self) -> ConstantBuffer:
        """The bytes as the pipe's constant buffer 0: one copy per generation (an
        unchanged storage gives the very object it gave before)."""
        kept = self._constant_buffer
        if kept is None or kept[0] != self.generation:
            data = bytes(self._data)
            kept = self._constant_buffer = (self.generation, ConstantBuffer(None, 0, len(data), data))
        return kept[1]
