"""The tiler: bin setup triangles into per-tile lists of finite total size.

The tiled vertex buffer (TVB) holds ``capacity_entries`` (tile, primitive) entries.
``bin_triangles`` bins the longest prefix of the primitives (from ``first_row``)
that fits; when not all fit, ``overflow`` is set and the pipeline does a partial
render of what was binned, then bins again from ``rows_end`` (the UAPI notes'
partial render: store tiles, reload them, continue).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .constants import SUBPIXEL_BITS
from .native_geometry import bin_triangles_c
from .rasterize import _expand_counts
from .setup import TriangleSetup


@dataclass(frozen=True)
class TileLists:
    """Per-tile primitive lists.

    Tile t covers pixels ``tile_rect(t)``; tiles are numbered row-major,
    ``tiles_x`` per row. ``offsets`` (ntiles + 1,) int64: tile t's list is
    ``rows[offsets[t]:offsets[t+1]]``, setup rows in increasing (draw) order.
    ``rows_begin``/``rows_end``: the setup rows [begin, end) this binning covers;
    ``overflow``: rows from ``rows_end`` on did not fit (a partial render is due).
    """

    tile_size_px: int
    tiles_x: int
    tiles_y: int
    width_px: int
    height_px: int
    offsets: np.ndarray
    rows: np.ndarray
    rows_begin: int
    rows_end: int
    overflow: bool

    @property
    def entries(self) -> int:
        return len(self.rows)

    def tile_rect(self, tile: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) pixels of ``tile`` (clipped to the framebuffer)."""
        ty, tx = divmod(int(tile), self.tiles_x)
        s = self.tile_size_px
        return (tx * s, ty * s, min((tx + 1) * s, self.width_px), min((ty + 1) * s, self.height_px))

    def tile_rows(self, tile: int) -> np.ndarray:
        return self.rows[self.offsets[tile]:self.offsets[tile + 1]]

    def nonempty_tiles(self) -> np.ndarray:
        return np.flatnonzero(np.diff(self.offsets))

    def region(self, tx0: int, ty0: int, tx1: int, ty1: int) -> tuple[tuple[int, int, int, int], np.ndarray]:
        """A block of tiles [tx0, tx1) x [ty0, ty1) as one raster job: its pixel rect
        and the sorted union of its tiles' rows.

        ``rasterize`` costs ~100 numpy calls per call, so rasterising one 32 px tile at
        a time is dominated by call overhead for small triangles; rasterise regions
        of a few hundred pixels (or the whole frame) and split fragments per tile
        afterwards (``x // tile_size_px``, ``y // tile_size_px``) if needed.
        """
        tiles = (np.arange(ty0, ty1)[:, None] * self.tiles_x + np.arange(tx0, tx1)[None, :]).ravel()
        parts = [self.rows[self.offsets[t]:self.offsets[t + 1]] for t in tiles]
        rows = np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)
        s = self.tile_size_px
        rect = (tx0 * s, ty0 * s, min(tx1 * s, self.width_px), min(ty1 * s, self.height_px))
        return rect, rows


def bin_triangles(setup: TriangleSetup, width_px: int, height_px: int, *, tile_size_px: int = 32,
                  capacity_entries: int | None = None, first_row: int = 0,
                  exact: bool = True) -> TileLists:
    """Bin setup rows ``first_row..`` into tiles of ``tile_size_px``.

    A triangle goes into every tile its pixel bounding box touches; with ``exact``
    tiles wholly outside one of its edges (tested over the tile's whole pixel area,
    so for any sample pattern) are skipped. With ``capacity_entries`` the
    binned rows are the longest prefix whose entries fit (at least one row, so a
    render always progresses).
    """
    s = int(tile_size_px)
    tiles_x = (int(width_px) + s - 1) // s
    tiles_y = (int(height_px) + s - 1) // s
    n = len(setup)
    got = bin_triangles_c(setup, width_px, height_px, s, capacity_entries, int(first_row), exact)
    if got is not None:               # the C kernel: the same lists as the numpy code below
        offsets, rows, rows_end, overflow = got
        return TileLists(tile_size_px=s, tiles_x=tiles_x, tiles_y=tiles_y, width_px=int(width_px),
                         height_px=int(height_px), offsets=offsets, rows=rows, rows_begin=int(first_row),
                         rows_end=int(rows_end), overflow=overflow)
    rows_all = np.arange(first_row, n, dtype=np.int64)
    bb = setup.bbox_px[rows_all]
    tx0 = np.clip(bb[:, 0], 0, width_px) // s
    ty0 = np.clip(bb[:, 1], 0, height_px) // s
    tx1 = (np.clip(bb[:, 2], 0, width_px) + s - 1) // s
    ty1 = (np.clip(bb[:, 3], 0, height_px) + s - 1) // s
    ntx = np.maximum(tx1 - tx0, 0)
    nty = np.maximum(ty1 - ty0, 0)
    owner, local = _expand_counts(ntx * nty)
    tx = tx0[owner] + local % ntx[owner]
    ty = ty0[owner] + local // ntx[owner]
    row = rows_all[owner]
    if exact and len(row):
        lo_off, hi_off = 0, (1 << SUBPIXEL_BITS) - 1
        sx_lo = ((tx * s) << SUBPIXEL_BITS) + lo_off
        sx_hi = ((np.minimum((tx + 1) * s, width_px) - 1) << SUBPIXEL_BITS) + hi_off
        sy_lo = ((ty * s) << SUBPIXEL_BITS) + lo_off
        sy_hi = ((np.minimum((ty + 1) * s, height_px) - 1) << SUBPIXEL_BITS) + hi_off
        hit = np.ones(len(row), bool)
        for i in range(3):
            a = setup.edge_a[row, i]
            b = setup.edge_b[row, i]
            emax = setup.edge_c[row, i] + a * np.where(a > 0, sx_hi, sx_lo) + b * np.where(b > 0, sy_hi, sy_lo)
            hit &= emax >= 0
        owner, tx, ty, row = owner[hit], tx[hit], ty[hit], row[hit]
    rows_end = n
    overflow = False
    if capacity_entries is not None and len(row) > capacity_entries:
        per_row = np.bincount(owner, minlength=len(rows_all))
        fits = int(np.searchsorted(np.cumsum(per_row), capacity_entries, side="right"))
        fits = max(fits, 1)
        rows_end = first_row + fits
        overflow = rows_end < n
        keep = row < rows_end
        tx, ty, row = tx[keep], ty[keep], row[keep]
    tile = ty * tiles_x + tx
    order = np.argsort(tile, kind="stable")          # rows stay in draw order per tile
    offsets = np.zeros(tiles_x * tiles_y + 1, dtype=np.int64)
    np.cumsum(np.bincount(tile, minlength=tiles_x * tiles_y), out=offsets[1:])
    return TileLists(tile_size_px=s, tiles_x=tiles_x, tiles_y=tiles_y, width_px=int(width_px),
                     height_px=int(height_px), offsets=offsets, rows=row[order],
                     rows_begin=int(first_row), rows_end=int(rows_end), overflow=overflow)
