"""The topology table against GL's own tables, written out by hand (GL 4.6 section
10.1 and table 10.1, provoking vertices of table 13.2; quads, quad strips and
polygons from GL 2.1 section 2.6.1 and table 2.12)."""

from __future__ import annotations

import numpy as np
import pytest

from uapi import topology as T
from uapi.packets import Primitive


def _prims(name, n):
    pos, _ = T.decompose(name, [0], [n])
    return pos.tolist()


def test_lists_strips_fans_and_loops_of_one_run():
    assert _prims("points", 3) == [[0], [1], [2]]
    assert _prims("lines", 5) == [[0, 1], [2, 3]]
    assert _prims("line_strip", 4) == [[0, 1], [1, 2], [2, 3]]
    assert _prims("line_loop", 3) == [[0, 1], [1, 2], [2, 0]]
    assert _prims("line_loop", 2) == [[0, 1], [1, 0]]
    assert _prims("line_loop", 1) == []
    assert _prims("triangles", 7) == [[0, 1, 2], [3, 4, 5]]
    assert _prims("triangle_strip", 5) == [[0, 1, 2], [2, 1, 3], [2, 3, 4]]
    assert _prims("triangle_fan", 5) == [[0, 1, 2], [0, 2, 3], [0, 3, 4]]
    assert _prims("quads", 9) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert _prims("quad_strip", 7) == [[0, 1, 3, 2], [2, 3, 5, 4]]
    assert _prims("polygon", 5) == [[0, 1, 2, 3, 4]]
    assert _prims("polygon", 2) == []


def test_adjacency_primitives_and_their_main_vertices():
    assert _prims("lines_adjacency", 9) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert _prims("line_strip_adjacency", 5) == [[0, 1, 2, 3], [1, 2, 3, 4]]
    assert _prims("triangles_adjacency", 12) == [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]
    # triangle strip with adjacency: main triangles (0, 2, 4), (4, 2, 6), (4, 6, 8)
    rows = np.array(_prims("triangle_strip_adjacency", 10))
    assert rows[:, [0, 2, 4]].tolist() == [[0, 2, 4], [4, 2, 6], [4, 6, 8]]
    assert _prims("triangle_strip_adjacency", 5) == []


@pytest.mark.parametrize("last", [False, True])
def test_provoking_vertices_of_table_13_2(last):
    def provoking(name, n):
        pos, index = T.decompose(name, [0], [n])
        return pos[np.arange(len(pos)), T.provoking_columns(name, index, last)].tolist()
    assert provoking("lines", 4) == ([1, 3] if last else [0, 2])
    assert provoking("line_strip", 4) == ([1, 2, 3] if last else [0, 1, 2])
    assert provoking("line_loop", 3) == ([1, 2, 0] if last else [0, 1, 2])
    assert provoking("triangles", 6) == ([2, 5] if last else [0, 3])
    assert provoking("triangle_strip", 5) == ([2, 3, 4] if last else [0, 1, 2])
    assert provoking("triangle_fan", 5) == ([2, 3, 4] if last else [1, 2, 3])
    assert provoking("lines_adjacency", 8) == ([2, 6] if last else [1, 5])
    assert provoking("line_strip_adjacency", 5) == ([2, 3] if last else [1, 2])
    assert provoking("triangles_adjacency", 12) == ([4, 10] if last else [0, 6])
    assert provoking("triangle_strip_adjacency", 10) == ([4, 6, 8] if last else [0, 2, 4])
    assert provoking("quads", 8) == [3, 7]                  # GL 2.1 table 2.12, either convention
    assert provoking("quad_strip", 6) == [3, 5]
    assert provoking("polygon", 5) == [0]


def test_runs_split_at_restart_marks():
    ids = np.array([0, 1, 2, -1, 3, 4, 5, 6])
    starts, lengths = T.run_bounds(len(ids), ids < 0)
    assert starts.tolist() == [0, 4] and lengths.tolist() == [3, 4]
    pos, index = T.decompose("triangle_strip", starts, lengths)
    assert ids[pos].tolist() == [[0, 1, 2], [3, 4, 5], [5, 4, 6]] and index.tolist() == [0, 0, 1]


def test_assemble_rotates_the_provoking_vertex_to_its_column_keeping_winding():
    first = T.assemble("triangle_strip", [0], [5], last=False)
    last = T.assemble("triangle_strip", [0], [5], last=True)
    assert first.tolist() == [[0, 1, 2], [1, 3, 2], [2, 3, 4]]
    assert last.tolist() == [[0, 1, 2], [2, 1, 3], [2, 3, 4]]
    assert T.assemble("triangle_fan", [0], [4], last=False).tolist() == [[1, 2, 0], [2, 3, 0]]


def test_adjacency_reduced_to_base_primitives_keeps_the_provoking_vertex():
    kind, rows = T.base_primitives("triangle_strip_adjacency", [0], [8], last=False)
    assert kind == "triangles" and rows.tolist() == [[0, 2, 4], [2, 6, 4]]    # odd: provoking 2 first
    kind, rows = T.base_primitives("triangle_strip_adjacency", [0], [8], last=True)
    assert rows.tolist() == [[0, 2, 4], [4, 2, 6]]
    kind, rows = T.base_primitives("lines_adjacency", [0], [8], last=True)
    assert kind == "lines" and rows.tolist() == [[1, 2], [5, 6]]


def test_triangulate_polygons_as_fans():
    assert T.triangulate(np.array([[0, 1, 2, 3]])).tolist() == [[0, 1, 2], [0, 2, 3]]
    assert T.triangulate(np.array([[0, 1, 2, -1], [3, 4, 5, 6]])).tolist() == [[0, 1, 2], [3, 4, 5], [3, 5, 6]]


def test_every_hardware_topology_is_in_the_table():
    assert {p.name.lower() for p in Primitive} <= set(T.TOPOLOGIES)
    assert T.TOPOLOGIES["triangle_fan"].hardware and not T.TOPOLOGIES["quads"].hardware


def test_fans_ending_on_the_provoking_vertex():
    quad = np.array([[10, 11, 12, 13]])
    assert T.fan_to(quad, 3).tolist() == [[10, 11, 13], [11, 12, 13]]
    assert T.fan_to(np.array([[0, 1, 2, 3, 4]]), 0).tolist() == [[1, 2, 0], [2, 3, 0], [3, 4, 0]]
    assert T.fan_to(np.array([[0, 1, 3, 2], [2, 3, 5, 4]]), [2, 2]).tolist() == \
        [[2, 0, 3], [0, 1, 3], [4, 2, 5], [2, 3, 5]]
