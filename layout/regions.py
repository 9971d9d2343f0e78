"""Copies of a region in and out of an image: ``detile`` (image -> linear host
array) and ``tile`` (linear -> image), for every tiling and level.

Sole responsibility: joining the two facts below a copy. ``addressing`` says
where each element of the region is (and reads or writes them all with one
gather or scatter); ``compression`` says what the metadata of a
``twiddled_compressed`` level makes of them (solid subtiles read as their value;
a write makes the level plain first). Neither of those needs the other's copies,
so they stay below this module.
"""

from __future__ import annotations

import numpy as np

# the region machinery tile and detile share with the addressing tests
from .addressing import _as_bytes, _read, _region, _region_el, _write
from .compression import fill_solid, resolve, solid_value
from .miptree import Layout

__all__ = ["detile", "tile"]

_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


_LOOK = object()


def detile(lay: Layout, src_bytes, level: int, layer: int, x: int, y: int, w: int, h: int,
           out=None, native=None, solid=_LOOK) -> np.ndarray:
    """Copy a region of the image out to a linear host array.

    ``src_bytes`` is the whole image (a uint8 numpy array or any buffer). The region
    is in pixels (block-aligned for block-compressed formats). Returns uint8 of shape
    ``(h_el, w_el, blocksize_B)``: one row per element row, and each element's bytes
    (all of its samples: reshape to ``(h_el, w_el, samples, bytes_per_block)``).
    Works for every tiling and level; on the compressed levels of
    ``twiddled_compressed`` images it honours the metadata (plain and solid
    subtiles, see ``compression``; other modes raise ValueError), and ``tile``
    leaves the level's metadata all "uncompressed".

    ``out``: a writable C-contiguous array or buffer of exactly the region's bytes
    to copy into (a client's memory: no intermediate copy); it is returned, viewed
    as ``(h_el, w_el, blocksize_B)`` uint8.

    ``native``: the kernels of ``layout.native.SOURCE`` built by the caller (layout
    compiles nothing), which copy whole twiddled tiles in C; the same bytes.

    ``solid``: what ``solid_value`` gives for this level and layer of these very
    bytes, when the caller knows it from an earlier look (a value, or None: not one
    value); by default detile looks itself.
    """
    x_el, y_el, w_el, h_el = _region_el(lay, level, x, y, w, h)
    if not 0 <= layer < lay.depth_px:
        raise ValueError(f"layer {layer} out of range (the image has {lay.depth_px} layers)")
    block_B = lay.blocksize_B
    shape = (h_el, w_el, block_B)
    src = _as_bytes(src_bytes)
    if level < lay.compressed_levels:
        value = solid_value(lay, src, level, layer) if solid is _LOOK else solid
        if value is not None:       # fast-cleared: every pixel reads as one value, a fill
            flat = np.empty(h_el * w_el * block_B, np.uint8) if out is None else _as_out(out, shape, flat=True)
            word = _WORDS.get(block_B)
            if word is not None:
                flat.view(word).fill(value.view(word)[0])
            else:
                flat.reshape(shape)[...] = value
            return flat.reshape(shape)
    if out is not None:
        out = _as_out(out, shape)
    out = _read(src, _region(lay, level, layer, x_el, y_el, w_el, h_el), block_B, out, native)
    if level < lay.compressed_levels:
        # Solid subtiles read as their value, whatever the body holds under them
        # (a level without any costs one look at its metadata).
        fill_solid(lay, src, level, layer, x_el, y_el, out)
    return out


def _as_out(out, shape: tuple[int, int, int], flat: bool = False) -> np.ndarray:
    """``out`` (an array or writable buffer of exactly the region's bytes, C-ordered)
    as uint8 of ``shape`` (``flat``: one dimension), sharing its memory."""
    arr = np.frombuffer(out, np.uint8) if not isinstance(out, np.ndarray) else out
    flags = arr.flags
    if not flags.c_contiguous or not flags.writeable:
        raise ValueError("the destination must be a writable, C-contiguous array")
    if arr.ndim != 1 or arr.dtype != np.uint8:
        arr = arr.reshape(-1).view(np.uint8)
    if arr.size != shape[0] * shape[1] * shape[2]:
        raise ValueError(f"the destination holds {arr.size} B, the region is "
                         f"{shape[0]}x{shape[1]} elements of {shape[2]} B")
    return arr if flat else arr.reshape(shape)


def tile(lay: Layout, dst_bytes, src_linear, level: int, layer: int, x: int, y: int, w: int, h: int,
         native=None) -> None:
    """Copy a linear host array into a region of the image, in place.

    ``dst_bytes`` is the whole image (a writable uint8 numpy array or bytearray);
    ``src_linear`` has shape ``(h_el, w_el, blocksize_B)`` (or any shape with that
    many bytes, e.g. ``(h, w, 4)`` uint8 or ``(h, w)`` uint32 for RGBA8).
    ``native``: as for ``detile``.
    """
    x_el, y_el, w_el, h_el = _region_el(lay, level, x, y, w, h)
    if not 0 <= layer < lay.depth_px:
        raise ValueError(f"layer {layer} out of range (the image has {lay.depth_px} layers)")
    dst = _as_bytes(dst_bytes)
    src = np.ascontiguousarray(src_linear).reshape(-1).view(np.uint8)
    if src.size != h_el * w_el * lay.blocksize_B:
        raise ValueError(f"source holds {src.size} B, the region needs "
                         f"{h_el}x{w_el} elements of {lay.blocksize_B} B")
    if level < lay.compressed_levels:
        # Make the whole level plain first, so the parts of partly overwritten
        # solid tiles keep their value; the level is then all "uncompressed".
        resolve(lay, dst, level, layer)
    _write(dst, _region(lay, level, layer, x_el, y_el, w_el, h_el), src.reshape(h_el, w_el, lay.blocksize_B),
           lay.blocksize_B, native)
