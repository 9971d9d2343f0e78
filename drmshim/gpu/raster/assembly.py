"""Primitive assembly: a vertex stream -> (nprims, verts_per_prim) index arrays.

The decomposition rules are ``uapi.topology``'s table (the one every layer uses);
this module applies them to the VDM's stream. Pure and vectorised: no Python loop
over vertices or primitives. Primitive restart splits the index stream into runs
at the restart value, and every run is assembled independently, all runs at once.
"""

from __future__ import annotations

import numpy as np

from uapi import topology

from .constants import Primitive, enum_value

#: vertices per primitive of each VDM topology (from the topology table)
VERTS_PER_PRIM = {int(p): topology.TOPOLOGIES[p.name.lower()].vertices for p in Primitive}


def _expand(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For runs with ``counts`` items each: (run index, index within run) per item."""
    counts = np.maximum(counts, 0)
    total = int(counts.sum())
    run = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    first = np.cumsum(counts) - counts
    local = np.arange(total, dtype=np.int64) - first[run]
    return run, local


def assemble(topology_: int | str, count: int | None = None, *, indices: np.ndarray | None = None,
             restart_index: int | None = None, provoking_last: bool = False) -> np.ndarray:
    """Assemble primitives of ``topology_`` from a vertex stream.

    Either ``count`` (non-indexed draw: vertices 0..count-1) or ``indices`` (1-D int
    array of vertex ids, e.g. fetched index buffer with base vertex applied) is given.
    With ``restart_index`` set, entries of ``indices`` equal to it end the current
    strip/fan/loop and start a new one (the marker itself is no vertex).

    Returns ``(nprims, k)`` int64 vertex ids, k = 1 (points), 2 (lines) or 3 (triangles),
    in draw order. Each primitive keeps GL's winding and is rotated so that the
    **provoking vertex is column 0** when ``provoking_last`` is False, column k-1 when
    it is True (``uapi.topology.assemble``): odd strip triangles come out as (i, i+2,
    i+1) with provoking-first, (i+1, i, i+2) with provoking-last; fan triangles as
    (i+1, i+2, hub) and (hub, i+1, i+2). Incomplete trailing primitives are dropped,
    as GL does.
    """
    topo = enum_value(topology_, Primitive, "topology")
    if indices is None:
        if count is None:
            raise ValueError("give count or indices")
        stream = np.arange(int(count), dtype=np.int64)
        restart_mask = None
    else:
        stream = np.asarray(indices).astype(np.int64, copy=False).ravel()
        restart_mask = None if restart_index is None else stream == restart_index
    starts, lengths = topology.run_bounds(len(stream), restart_mask)
    pos = topology.assemble(Primitive(topo).name.lower(), starts, lengths, provoking_last)
    return np.ascontiguousarray(stream[pos], dtype=np.int64)


def provoking_column(provoking_last: bool, verts_per_prim: int) -> int:
    """Column of ``assemble``'s output holding the provoking vertex."""
    return verts_per_prim - 1 if provoking_last else 0
