"""Primitive assembly: a vertex stream -> (nprims, verts_per_prim) index arrays.

Pure and vectorised: no Python loop over vertices or primitives. Primitive
restart is handled by splitting the index stream into runs at the restart value
and assembling every run independently, all runs at once.
"""

from __future__ import annotations

import numpy as np

from .constants import (LINE_LOOP, LINE_STRIP, LINES, POINTS, TRIANGLE_FAN, TRIANGLE_STRIP,
                        TRIANGLES, Primitive, enum_value)

VERTS_PER_PRIM = {POINTS: 1, LINES: 2, LINE_LOOP: 2, LINE_STRIP: 2,
                  TRIANGLES: 3, TRIANGLE_STRIP: 3, TRIANGLE_FAN: 3}


def _run_bounds(n: int, restart_mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) positions of the runs between restart markers."""
    if restart_mask is None:
        return np.array([0], np.int64), np.array([n], np.int64)
    cut = np.flatnonzero(restart_mask)
    starts = np.concatenate(([0], cut + 1))
    ends = np.concatenate((cut, [n]))
    return starts, ends


def _expand(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For runs with ``counts`` items each: (run index, index within run) per item."""
    counts = np.maximum(counts, 0)
    total = int(counts.sum())
    run = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    first = np.cumsum(counts) - counts
    local = np.arange(total, dtype=np.int64) - first[run]
    return run, local


def assemble(topology: int | str, count: int | None = None, *, indices: np.ndarray | None = None,
             restart_index: int | None = None, provoking_last: bool = False) -> np.ndarray:
    """Assemble primitives of ``topology`` from a vertex stream.

    Either ``count`` (non-indexed draw: vertices 0..count-1) or ``indices`` (1-D int
    array of vertex ids, e.g. fetched index buffer with base vertex applied) is given.
    With ``restart_index`` set, entries of ``indices`` equal to it end the current
    strip/fan/loop and start a new one (the marker itself is no vertex).

    Returns ``(nprims, k)`` int64 vertex ids, k = 1 (points), 2 (lines) or 3 (triangles),
    in draw order. Vertex order within a primitive follows GL so that the winding of
    every triangle is that of the first one of its strip (odd strip triangles are
    emitted as (i, i+2, i+1) with provoking-first, (i+1, i, i+2) with provoking-last;
    fan triangles as (i+1, i+2, hub) and (hub, i+1, i+2)) and the **provoking vertex is always column 0** when ``provoking_last`` is False,
    column k-1 when it is True (GL's first/last vertex convention).
    Incomplete trailing primitives are dropped, as GL does.
    """
    topo = enum_value(topology, Primitive, "topology")
    if indices is None:
        if count is None:
            raise ValueError("give count or indices")
        stream = np.arange(int(count), dtype=np.int64)
        restart_mask = None
    else:
        stream = np.asarray(indices).astype(np.int64, copy=False).ravel()
        restart_mask = None if restart_index is None else stream == restart_index
    starts, ends = _run_bounds(len(stream), restart_mask)
    n = ends - starts

    if topo in (POINTS, LINES, TRIANGLES):
        k = VERTS_PER_PRIM[topo]
        run, local = _expand(n // k)
        base = starts[run] + local * k
        out = stream[base[:, None] + np.arange(k)]
    elif topo == LINE_STRIP:
        run, local = _expand(n - 1)
        base = starts[run] + local
        out = stream[np.stack((base, base + 1), axis=1)]
    elif topo == LINE_LOOP:
        # n - 1 strip segments, then the closing segment (last -> first); a run of
        # one vertex makes nothing; a run of two makes two segments, as in GL.
        segs = np.where(n >= 2, n, 0)
        run, local = _expand(segs)
        a = starts[run] + local
        b = np.where(local == segs[run] - 1, starts[run], a + 1)
        out = stream[np.stack((a, b), axis=1)]
    elif topo == TRIANGLE_STRIP:
        run, local = _expand(n - 2)
        i = starts[run] + local
        odd = (local & 1).astype(bool)
        # GL winds strip triangle i as (i, i+1, i+2) when i is even and (i+1, i, i+2)
        # when odd; the provoking vertex is i (first) or i+2 (last). Rotating the odd
        # ones keeps the winding and puts the provoking vertex in its column.
        if provoking_last:
            v0 = np.where(odd, i + 1, i)
            v1 = np.where(odd, i, i + 1)
            v2 = i + 2
        else:
            v0 = i
            v1 = np.where(odd, i + 2, i + 1)
            v2 = np.where(odd, i + 1, i + 2)
        out = stream[np.stack((v0, v1, v2), axis=1)]
    elif topo == TRIANGLE_FAN:
        run, local = _expand(n - 2)
        first = starts[run]
        i = first + local
        if provoking_last:
            out = stream[np.stack((first, i + 1, i + 2), axis=1)]
        else:
            # GL first-vertex convention: a fan triangle's provoking vertex is i+1
            # (the first vertex is the hub, never provoking); rotate it to column 0.
            out = stream[np.stack((i + 1, i + 2, first), axis=1)]
    else:  # pragma: no cover - enum_value rejects others
        raise AssertionError(topo)
    return np.ascontiguousarray(out, dtype=np.int64)


def provoking_column(provoking_last: bool, verts_per_prim: int) -> int:
    """Column of ``assemble``'s output holding the provoking vertex."""
    return verts_per_prim - 1 if provoking_last else 0
