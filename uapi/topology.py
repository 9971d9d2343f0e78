"""Primitive topologies as data: how a run of vertices becomes primitives.

One table for every layer that splits vertex streams: the GPU's primitive
assembly (the VDM topologies of ``uapi.packets.Primitive``), the hardware driver
(quads and adjacency primitives it rewrites into those, transform feedback's
record order) and the GL front end's compatibility paths (flat-shaded quads and
polygons, polygon modes, selection and feedback).

For topology ``t`` and a run of ``n`` vertices (0-based positions; GL 4.6
section 10.1 and table 10.1, GL 2.1 section 2.6.1 for quads and polygons):

- ``TOPOLOGIES[t].vertices``: vertices of one primitive (0: the whole run);
- ``TOPOLOGIES[t].first``, ``.step``: primitive ``i`` of a list, strip or fan
  starts at position ``first[c] + step * i`` for column ``c``, with ``odd`` the
  columns of odd primitives where the winding alternates (strips), and
  ``hub`` columns fixed at position 0 (fans), ``loop`` adding the closing
  primitive (last, first);
- ``TOPOLOGIES[t].provoking``: the column of the provoking vertex under the
  (first-vertex, last-vertex) conventions (GL 4.6 table 13.2; quads, quad
  strips and polygons: GL 2.1 table 2.12, the same under both, and even and odd
  strip primitives may differ: ``provoking_odd``);
- ``TOPOLOGIES[t].base`` and ``.main``: an adjacency primitive without a
  geometry stage is its base primitive made of columns ``main``.

``decompose`` applies the table to many runs at once (restart splits a stream
into runs) without a Python loop per primitive; ``assemble`` is the GPU's form,
each primitive rotated (winding kept) so its provoking vertex is column 0 or
the last column.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .packets import Primitive

__all__ = ["Topology", "TOPOLOGIES", "decompose", "provoking_columns", "assemble", "run_bounds",
           "base_primitives", "triangulate", "fan_to"]


@dataclass(frozen=True)
class Topology:
    name: str
    vertices: int                       # per primitive; 0 = the whole run (polygon)
    first: tuple = ()                   # positions of primitive 0, per column
    step: int = 0                       # advance per primitive
    odd: tuple | None = None            # positions of primitive 1 relative to its start (strips)
    hub: tuple = ()                     # columns fixed at position 0 (fans)
    loop: bool = False                  # a closing primitive (last, first)
    provoking: tuple = (0, 0)           # column under (first, last) vertex conventions
    provoking_odd: tuple | None = None  # the same for odd primitives of a strip
    base: str | None = None             # adjacency: the primitive made of ``main``
    main: tuple = ()
    min_vertices: int = 1               # shortest run making one primitive

    @property
    def hardware(self) -> bool:
        """Whether the VDM assembles it (``uapi.packets.Primitive``)."""
        return self.name.upper() in Primitive.__members__


def _t(name, vertices, first, step, **kw) -> Topology:
    kw.setdefault("min_vertices", max(vertices, 1))
    return Topology(name, vertices, tuple(first), step, **kw)


#: every topology by lower-case name (GL's mode names without GL_)
TOPOLOGIES = {t.name: t for t in (
    _t("points", 1, [0], 1),
    _t("lines", 2, [0, 1], 2, provoking=(0, 1)),
    _t("line_strip", 2, [0, 1], 1, provoking=(0, 1)),
    _t("line_loop", 2, [0, 1], 1, loop=True, provoking=(0, 1)),
    _t("triangles", 3, [0, 1, 2], 3, provoking=(0, 2)),
    # odd strip triangles are wound (i+1, i, i+2); the provoking vertex is i or i+2
    _t("triangle_strip", 3, [0, 1, 2], 1, odd=(1, 0, 2), provoking=(0, 2), provoking_odd=(1, 2)),
    # fan triangle i is (0, i+1, i+2); provoking i+1 or i+2
    _t("triangle_fan", 3, [0, 1, 2], 1, hub=(0,), provoking=(1, 2)),
    _t("quads", 4, [0, 1, 2, 3], 4, provoking=(3, 3)),
    # quad i is (2i, 2i+1, 2i+3, 2i+2) in polygon order; 2i+3 provokes
    _t("quad_strip", 4, [0, 1, 3, 2], 2, provoking=(2, 2)),
    _t("polygon", 0, [], 0, provoking=(0, 0), min_vertices=3),
    _t("lines_adjacency", 4, [0, 1, 2, 3], 4, provoking=(1, 2), base="lines", main=(1, 2)),
    _t("line_strip_adjacency", 4, [0, 1, 2, 3], 1, provoking=(1, 2), base="line_strip", main=(1, 2)),
    _t("triangles_adjacency", 6, [0, 1, 2, 3, 4, 5], 6, provoking=(0, 4), base="triangles", main=(0, 2, 4)),
    # table 10.1: primitive i's main triangle is (2i, 2i+2, 2i+4), odd ones wound (2i+2, 2i, 2i+4);
    # columns 0-5 here are 2i .. 2i+5 (the adjacent vertices of a run's ends are not modelled:
    # without a geometry stage only the main triangle is drawn)
    _t("triangle_strip_adjacency", 6, [0, 1, 2, 3, 4, 5], 2, odd=(2, 1, 0, 3, 4, 5), provoking=(0, 4),
       provoking_odd=(2, 4), base="triangle_strip", main=(0, 2, 4), min_vertices=6),
)}


def run_bounds(n: int, restart: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(starts, lengths) of the runs of a stream of ``n`` entries split at the
    positions where ``restart`` is true (the markers belong to no run)."""
    if restart is None:
        return np.array([0], np.int64), np.array([n], np.int64)
    cut = np.flatnonzero(restart)
    starts = np.concatenate(([0], cut + 1)).astype(np.int64)
    ends = np.concatenate((cut, [n])).astype(np.int64)
    return starts, ends - starts


def _counts(t: Topology, lengths: np.ndarray) -> np.ndarray:
    """Primitives made by runs of ``lengths`` vertices."""
    n = np.asarray(lengths, np.int64)
    if t.vertices == 0:
        return (n >= t.min_vertices).astype(np.int64)
    if t.loop:
        return np.where(n >= 2, n, 0)
    span = max(t.first) + 1
    count = np.where(n >= span, (n - span) // t.step + 1, 0)
    return np.where(n >= t.min_vertices, count, 0)


def _expand(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For runs of ``counts`` items: (run index, index within the run) per item."""
    counts = np.maximum(counts, 0)
    run = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    first = np.cumsum(counts) - counts
    return run, np.arange(int(counts.sum()), dtype=np.int64) - first[run]


def decompose(name: str, starts, lengths) -> tuple[np.ndarray, np.ndarray]:
    """(positions, index): the primitives of runs (``starts``, ``lengths``) in draw
    order as a (P, k) array of stream positions in GL's winding order, and each
    primitive's index within its run. Polygons: one row per run of >= 3 vertices,
    padded with -1 to the longest run. Incomplete primitives are dropped."""
    t = TOPOLOGIES[name]
    starts = np.asarray(starts, np.int64)
    lengths = np.asarray(lengths, np.int64)
    run, local = _expand(_counts(t, lengths))
    if t.vertices == 0:
        width = int(lengths[run].max()) if len(run) else 3
        cols = np.arange(width)
        pos = np.where(cols < lengths[run, None], starts[run, None] + cols, -1)
        return pos, local
    cols = np.array(t.first, np.int64)
    rel = local[:, None] * t.step + cols
    if t.odd is not None:
        odd = (local & 1).astype(bool)
        rel = np.where(odd[:, None], local[:, None] * t.step + np.array(t.odd, np.int64), rel)
    for c in t.hub:
        rel[:, c] = 0
    if t.loop:
        last = local == lengths[run] - 1
        rel[:, 1] = np.where(last, 0, rel[:, 1])
    return starts[run, None] + rel, local


def provoking_columns(name: str, index: np.ndarray, last: bool) -> np.ndarray:
    """The provoking column of each primitive (``index`` within its run, from
    ``decompose``) under the last-vertex (``last``) or first-vertex convention."""
    t = TOPOLOGIES[name]
    col = np.full(len(index), t.provoking[int(last)], np.int64)
    if t.provoking_odd is not None:
        col = np.where((np.asarray(index) & 1).astype(bool), t.provoking_odd[int(last)], col)
    return col


def _rotate(rows: np.ndarray, to_front: np.ndarray, last: bool) -> np.ndarray:
    """Rotate each row (winding kept) so column ``to_front`` lands in column 0
    (or the last column when ``last``)."""
    k = rows.shape[1]
    shift = to_front - (k - 1) if last else to_front
    idx = (np.arange(k) + shift[:, None]) % k
    return np.take_along_axis(rows, idx, axis=1)


def base_primitives(name: str, starts, lengths, last: bool) -> tuple[str, np.ndarray]:
    """(base topology, (P, k) positions) of adjacency primitives reduced to their
    main vertices, each rotated so its provoking vertex (table 13.2, kept from the
    adjacency primitive) is column 0 or the last column; independent primitives of
    the base kind (lines or triangles)."""
    t = TOPOLOGIES[name]
    pos, index = decompose(name, starts, lengths)
    prov = provoking_columns(name, index, last)
    main = np.array(t.main, np.int64)
    rows = pos[:, main]
    to_front = np.argmax(main[None, :] == prov[:, None], axis=1)
    kind = "lines" if len(main) == 2 else "triangles"
    return kind, _rotate(rows, to_front, last)


def assemble(name: str, starts, lengths, last: bool) -> np.ndarray:
    """The GPU's primitive assembly of a hardware topology: (P, k) stream positions
    in draw order, each primitive rotated (winding kept) so its provoking vertex is
    column 0 (first-vertex convention) or column k - 1 (``last``)."""
    pos, index = decompose(name, starts, lengths)
    if not len(pos):
        return pos.reshape(0, max(TOPOLOGIES[name].vertices, 1))
    return _rotate(pos, provoking_columns(name, index, last), last)


def triangulate(polys: np.ndarray) -> np.ndarray:
    """Fan triangles (0, j, j+1) of (P, k) polygon rows (quads: k = 4), in order;
    -1 padding of shorter polygons makes no triangle."""
    k = polys.shape[1]
    j = np.arange(1, k - 1)
    tri = np.stack([np.repeat(polys[:, :1], k - 2, 1), polys[:, j], polys[:, j + 1]], 2)
    keep = (tri >= 0).all(axis=2)
    return tri[keep]


def fan_to(polys: np.ndarray, column) -> np.ndarray:
    """(P * (k - 2), 3) triangles covering (P, k) polygons, each polygon fanned
    around its vertex in ``column`` (a column per polygon, or one for all) with
    every triangle ending on it (so the last-vertex convention gives the polygon
    that vertex's flat colour); winding kept."""
    k = polys.shape[1]
    col = np.broadcast_to(np.asarray(column, np.int64), (len(polys),))
    rot = np.take_along_axis(polys, (np.arange(k) + col[:, None]) % k, axis=1)     # the vertex first
    j = np.arange(1, k - 1)
    return np.stack([rot[:, j], rot[:, j + 1], np.repeat(rot[:, :1], len(j), 1)], -1).reshape(-1, 3)
