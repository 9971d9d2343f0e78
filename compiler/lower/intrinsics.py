"""Intrinsics the lowering introduced; compiler/ir's table now defines them
(commit a62b706). This module checks, at import, that the table's entries still
have the sources and indices the lowering emits (and registers them on an older
IR), so a change on either side fails loudly. The builder reaches them with
``b.intrinsic(name, ...)``; ``compiler.lower.interp.LowerInterpreter`` executes them.

* ``load_tile`` ()                     -> vecN  ld_tile: the render target's current
  value in the tile buffer. Indices: ``rt``, ``format`` (a uapi.isa memory format
  name: unorm8, f16, i32, ...), ``offset_B`` (bytes into the pixel's tile record).
* ``store_tile`` (value)               st_tile with ``rt``, ``format``, ``offset_B``,
  ``write_mask`` (the colour write mask).
* ``image_load`` (coord, sample)      -> vec4   image slot ``image``, ``dim``,
  ``is_array``; ``image_store`` (coord, sample, value); ``image_atomic`` (coord,
  sample, data) and ``image_atomic_swap`` (coord, sample, compare, data) with
  ``atomic_op``; ``image_size`` () -> ivecN.
* ``get_ssbo_size`` (block index)     -> uint: bytes bound to that SSBO index.
* ``load_vbo`` (byte offset)          -> vecN: vertex buffer ``buffer`` read in the
  memory ``format`` (device_load with the buffer's base address; vertex_fetch.py).
"""

from __future__ import annotations

from compiler.ir.intrinsics import INTRINSICS, IntrinsicInfo

__all__ = ["LOWER_INTRINSICS"]


def _add(name, srcs=(), dest=False, dest_comps=0, indices=(), eliminate=False, reorder=False, dest_bits=0):
    info = IntrinsicInfo(name, tuple(srcs), dest, dest_comps, tuple(indices), eliminate, reorder, dest_bits)
    existing = INTRINSICS.get(name)
    if existing is None:
        INTRINSICS[name] = info
    else:
        assert (existing.src_components, existing.has_dest, existing.indices) == \
            (info.src_components, info.has_dest, info.indices), f"intrinsic {name} changed shape in compiler.ir"
    return INTRINSICS[name]


LOWER_INTRINSICS = {
    "load_tile": _add("load_tile", (), True, 0, ("rt", "format", "offset_B"), eliminate=True),
    "store_tile": _add("store_tile", (0,), False, 0, ("rt", "format", "offset_B", "write_mask")),
    "image_load": _add("image_load", (0, 1), True, 4, ("image", "dim", "is_array"), eliminate=True),
    "image_store": _add("image_store", (0, 1, 4), False, 0, ("image", "dim", "is_array")),
    "image_atomic": _add("image_atomic", (0, 1, 1), True, 1, ("image", "dim", "is_array", "atomic_op")),
    "image_atomic_swap": _add("image_atomic_swap", (0, 1, 1, 1), True, 1,
                              ("image", "dim", "is_array", "atomic_op")),
    "image_size": _add("image_size", (), True, 0, ("image", "dim", "is_array"), eliminate=True, reorder=True),
    "image_samples": _add("image_samples", (), True, 1, ("image", "dim", "is_array"), eliminate=True,
                          reorder=True),
    "load_vbo": _add("load_vbo", (1,), True, 0, ("buffer", "format"), eliminate=True, reorder=True),
    "get_ssbo_size": _add("get_ssbo_size", (1,), True, 1, (), eliminate=True, reorder=True),
}
