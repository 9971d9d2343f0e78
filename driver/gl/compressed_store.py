"""Compressed images in client memory laid out by the pixel store (GL 4.6 section
8.7 for unpacking, 8.11.4 for glGetCompressedTexImage; ARB_compressed_texture_pixel_storage).

With ``*_COMPRESSED_BLOCK_SIZE`` and ``*_COMPRESSED_BLOCK_WIDTH`` non-zero, ROW_LENGTH and
SKIP_PIXELS apply to a compressed image, counted in pixels and turned into whole blocks;
with ``*_BLOCK_HEIGHT`` too (2D and 3D images) SKIP_ROWS and IMAGE_HEIGHT; with
``*_BLOCK_DEPTH`` too (3D) SKIP_IMAGES. Otherwise the blocks are tight, as before the
extension. Sole responsibility: where each row of blocks of an image is in client memory
(``Placement``), and moving the rows between that layout and the tight one."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Placement", "placement", "gather", "scatter"]


@dataclass(frozen=True)
class Placement:
    """Rows of blocks of an image in client memory: ``slices`` slices of ``rows`` rows
    of ``row_B`` bytes each; row r of slice s starts at ``skip_B + s * slice_stride_B +
    r * row_stride_B``. ``span_B``: the bytes the image reaches from the start."""
    skip_B: int
    row_B: int
    row_stride_B: int
    rows: int
    slice_stride_B: int
    slices: int

    @property
    def span_B(self) -> int:
        if not (self.rows and self.slices and self.row_B):
            return self.skip_B
        return (self.skip_B + (self.slices - 1) * self.slice_stride_B
                + (self.rows - 1) * self.row_stride_B + self.row_B)

    @property
    def tight(self) -> bool:
        return (self.skip_B == 0 and self.row_stride_B == self.row_B
                and self.slice_stride_B == self.row_B * self.rows)


def placement(store, dims: int, block: tuple[int, int, int], w: int, h: int, d: int) -> Placement:
    """Where the blocks of a ``w`` x ``h`` x ``d`` image of ``block`` = (width px,
    height px, bytes) go under pixel store ``store`` (a PixelStore) for a ``dims``-D
    command. The pixel store's block width/height/depth are those the application
    states; the image is cut into the format's own blocks."""
    bw, bh, bb = block
    row_B = -(-w // bw) * bb
    rows = -(-h // bh)
    row_stride_B, rows_per_slice, skip_B = row_B, rows, 0
    if store.compressed_block_size and store.compressed_block_width:
        sbw = store.compressed_block_width
        if store.row_length:
            row_stride_B = -(-store.row_length // sbw) * store.compressed_block_size
        skip_B += store.skip_pixels // sbw * store.compressed_block_size
        if dims > 1 and store.compressed_block_height:
            sbh = store.compressed_block_height
            skip_B += store.skip_rows // sbh * row_stride_B
            if store.image_height:
                rows_per_slice = -(-store.image_height // sbh)
            if dims > 2 and store.compressed_block_depth:
                skip_B += store.skip_images // store.compressed_block_depth * row_stride_B * rows_per_slice
    return Placement(skip_B, row_B, row_stride_B, rows, row_stride_B * rows_per_slice, d)


def _rows(buf: np.ndarray, where: Placement) -> np.ndarray:
    """The image's rows of blocks inside ``buf`` as a strided (slices, rows, row_B)
    view (writable when ``buf`` is), as driver.gl.pixels views a client image."""
    if where.slices * where.rows * where.row_B == 0:
        return np.empty((where.slices, where.rows, where.row_B), np.uint8)
    return np.lib.stride_tricks.as_strided(buf[where.skip_B:], shape=(where.slices, where.rows, where.row_B),
                                           strides=(where.slice_stride_B, where.row_stride_B, 1))


def gather(data: bytes, where: Placement) -> bytes:
    """The tight blocks of the image laid out as ``where`` says in ``data``."""
    if where.tight:
        return bytes(data[:where.row_B * where.rows * where.slices])
    return _rows(np.frombuffer(data, np.uint8), where).tobytes()


def scatter(blocks: bytes, where: Placement, dest) -> None:
    """Write the tight ``blocks`` into writable ``dest`` (at least ``where.span_B``
    bytes) as ``where`` lays them out; the bytes between rows are left alone."""
    rows = _rows(np.frombuffer(dest, np.uint8), where)
    rows[...] = np.frombuffer(blocks, np.uint8, rows.size).reshape(rows.shape)
