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
        if restart_mask is not None:
            markers = int(np.count_nonzero(restart_mask))
            if markers and restart_mask[len(stream) - markers:].all():
                stream = stream[:len(stream) - markers]          # trailing markers end only empty runs
                markers = 0
            if not markers:
                restart_mask = None
    name = Primitive(topo).name.lower()
    if restart_mask is None and _in_stream_order(name, provoking_last):
        # one run of a list topology whose primitives are consecutive stream entries
        k = VERTS_PER_PRIM[topo]
        return np.ascontiguousarray(stream[:len(stream) - len(stream) % k].reshape(-1, k), dtype=np.int64)
    starts, lengths = topology.run_bounds(len(stream), restart_mask)
    pos = topology.assemble(name, starts, lengths, provoking_last)
    return np.ascontiguousarray(stream[pos], dtype=np.int64)


_STREAM_ORDER: dict = {}


def _in_stream_order(name: str, provoking_last: bool) -> bool:
    """Whether ``topology.assemble`` makes primitive i of one run the stream entries
    k*i .. k*i + k-1 in order (points, lines, triangles, either provoking vertex):
    checked once on two primitives' worth of stream."""
    key = (name, provoking_last)
    if key not in _STREAM_ORDER:
        k = topology.TOPOLOGIES[name].vertices
        ok = k > 0
        if ok:
            for n in (2 * k, 2 * k + 1):
                pos = topology.assemble(name, np.array([0]), np.array([n]), provoking_last)
                ok &= pos.shape == (2, k) and np.array_equal(pos, np.arange(2 * k).reshape(2, k))
        _STREAM_ORDER[key] = bool(ok)
    return _STREAM_ORDER[key]


def provoking_column(provoking_last: bool, verts_per_prim: int) -> int:
    """Column of ``assemble``'s output holding the provoking vertex."""
    return verts_per_prim - 1 if provoking_last else 0
