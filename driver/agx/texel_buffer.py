"""Buffer textures and buffer images: the descriptor and the element count.

The compiler addresses element i of a buffer texture or buffer image as texel
(i % W, i // W) of a linear 2D image ``W = TEXEL_BUFFER_WIDTH_PX`` texels wide and
compares i with the element count the driver passes in the uniform slot
``texel_buffer_elements`` (``compiler/backend/texel_buffers.py``, the contract in
``compiler/backend/abi.py``). This module makes both halves the driver owns: the
TEXTURE descriptor of a buffer range and its element count.

Invariants: the descriptor never describes a row the count does not reach in full
except the last one (the shader never reads past element n - 1, so the partial last
row's tail, which may lie past the buffer, is never read); a buffer holds at most
``MAX_ELEMENTS`` elements (GL's MAX_TEXTURE_BUFFER_SIZE: larger buffers are
clamped to it, GL 4.6 section 8.9)."""

from __future__ import annotations

import layout
from compiler.backend.abi import TEXEL_BUFFER_MAX_ROWS, TEXEL_BUFFER_WIDTH_PX
from uapi import packets as P

from .resource import format_id, layout_format

__all__ = ["MAX_ELEMENTS", "elements", "descriptor"]

#: The most elements a buffer texture holds: W texels a row, as many rows as a descriptor has.
MAX_ELEMENTS = TEXEL_BUFFER_WIDTH_PX * TEXEL_BUFFER_MAX_ROWS


def elements(fmt, buffer_B: int, offset_B: int, size_B: int) -> int:
    """Elements of format ``fmt`` (a pipe format) in the range of a buffer of
    ``buffer_B`` bytes from ``offset_B``, ``size_B`` long (0: to the end); a range
    past the buffer's end (the buffer shrank after the range was set) stops at it."""
    bpp = layout.get_format(layout_format(fmt)).block_size_B
    avail_B = max(0, buffer_B - offset_B)
    range_B = min(size_B, avail_B) if size_B else avail_B
    return min(range_B // bpp, MAX_ELEMENTS)


def descriptor(fmt, address: int, n: int) -> bytes:
    """The TEXTURE descriptor of ``n`` elements of format ``fmt`` at ``address``:
    one row of n when n <= W, else rows of W (the last one partial)."""
    name = layout_format(fmt)
    bpp = layout.get_format(name).block_size_B
    width = max(1, min(n, TEXEL_BUFFER_WIDTH_PX))
    rows = max(1, -(-n // TEXEL_BUFFER_WIDTH_PX))
    return P.pack("TEXTURE", target=P.TextureTarget.TEXTURE_2D, tiling=P.Tiling.LINEAR,
                  format_id=format_id(name), width_px=width, height_px=rows, address=address,
                  linear_stride_B=-(-width * bpp // 16) * 16)
