"""Primitive assembly: every topology, restart, provoking vertex, strip winding."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu.raster import assemble, provoking_column


def test_points_lines_triangles_drop_incomplete():
    assert assemble("points", 3).tolist() == [[0], [1], [2]]
    assert assemble("lines", 5).tolist() == [[0, 1], [2, 3]]
    assert assemble("triangles", 7).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert assemble("triangles", 2).shape == (0, 3)


def test_line_strip_and_loop():
    assert assemble("line_strip", 4).tolist() == [[0, 1], [1, 2], [2, 3]]
    assert assemble("line_loop", 4).tolist() == [[0, 1], [1, 2], [2, 3], [3, 0]]
    assert assemble("line_loop", 1).shape == (0, 2)
    assert assemble("line_loop", 4, provoking_last=True).tolist() == [[0, 1], [1, 2], [2, 3], [3, 0]]


def test_strip_provoking_first_and_last():
    first = assemble("triangle_strip", 5)
    assert first.tolist() == [[0, 1, 2], [1, 3, 2], [2, 3, 4]]
    last = assemble("triangle_strip", 5, provoking_last=True)
    assert last.tolist() == [[0, 1, 2], [2, 1, 3], [2, 3, 4]]
    # GL: strip triangle i's provoking vertex is i (first) / i + 2 (last)
    assert first[:, provoking_column(False, 3)].tolist() == [0, 1, 2]
    assert last[:, provoking_column(True, 3)].tolist() == [2, 3, 4]


def test_fan_provoking():
    first = assemble("triangle_fan", 5)
    last = assemble("triangle_fan", 5, provoking_last=True)
    assert last.tolist() == [[0, 1, 2], [0, 2, 3], [0, 3, 4]]
    assert first[:, 0].tolist() == [1, 2, 3]          # GL: fan provoking-first is i + 1
    # same triangles, same winding (cyclic rotation)
    for a, b in zip(first.tolist(), last.tolist()):
        assert a in ([b[0], b[1], b[2]], [b[1], b[2], b[0]], [b[2], b[0], b[1]])


@pytest.mark.parametrize("provoking_last", [False, True])
def test_strip_winding_is_consistent(provoking_last):
    # a zig-zag strip in the plane: all triangles must have the first one's winding
    n = 11
    xs = np.arange(n) // 2
    ys = np.arange(n) % 2
    pts = np.stack((xs, ys), 1).astype(float)
    tris = assemble("triangle_strip", n, provoking_last=provoking_last)
    p = pts[tris]
    area = (p[:, 1, 0] - p[:, 0, 0]) * (p[:, 2, 1] - p[:, 0, 1]) - (p[:, 2, 0] - p[:, 0, 0]) * (p[:, 1, 1] - p[:, 0, 1])
    assert (np.sign(area) == np.sign(area[0])).all() and area[0] != 0


def test_indices_and_restart():
    idx = np.array([10, 11, 12, 13, 0xFFFF, 20, 21, 22, 0xFFFF, 30, 31], np.uint16)
    strips = assemble("triangle_strip", indices=idx, restart_index=0xFFFF)
    assert strips.tolist() == [[10, 11, 12], [11, 13, 12], [20, 21, 22]]
    fans = assemble("triangle_fan", indices=idx, restart_index=0xFFFF, provoking_last=True)
    assert fans.tolist() == [[10, 11, 12], [10, 12, 13], [20, 21, 22]]
    loops = assemble("line_loop", indices=idx, restart_index=0xFFFF)
    assert loops.tolist() == [[10, 11], [11, 12], [12, 13], [13, 10], [20, 21], [21, 22], [22, 20],
                              [30, 31], [31, 30]]
    # restart in list topologies: each run assembles from its own start
    tris = assemble("triangles", indices=np.array([1, 2, 3, 4, 9, 5, 6, 7]), restart_index=9)
    assert tris.tolist() == [[1, 2, 3], [5, 6, 7]]
    # without a restart index the marker is an ordinary vertex
    assert assemble("points", indices=np.array([9, 9])).tolist() == [[9], [9]]


def test_enum_by_int_and_errors():
    from uapi.packets import Primitive
    assert assemble(Primitive.TRIANGLES, 3).tolist() == [[0, 1, 2]]
    assert assemble(int(Primitive.LINE_LOOP), 2).tolist() == [[0, 1], [1, 0]]
    with pytest.raises(ValueError):
        assemble("quads", 4)
    with pytest.raises(ValueError):
        assemble("points")


@pytest.mark.parametrize("topo", ["points", "lines", "triangles", "line_strip", "triangle_strip", "triangle_fan"])
@pytest.mark.parametrize("last", [False, True])
def test_one_run_equals_the_general_assembly(topo, last):
    """A stream of one run, with or without trailing restart markers (lists take a
    reshape), gives the primitives of uapi.topology's run machinery."""
    from uapi import topology
    rng = np.random.default_rng(4)
    for n in (0, 1, 2, 3, 7, 300, 301):
        stream = rng.integers(0, 1000, n)
        pos = topology.assemble(topo, np.array([0]), np.array([n]), last)
        want = stream[pos] if n else np.zeros((0, assemble(topo, 0).shape[1]), np.int64)
        for tail in (0, 1, 2):
            got = assemble(topo, indices=np.append(stream, [-1] * tail), restart_index=-1, provoking_last=last)
            assert got.dtype == np.int64 and got.shape == want.shape
            np.testing.assert_array_equal(got, want)
