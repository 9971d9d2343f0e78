"""Transform feedback capture lowered to stores (compiler/lower/xfb.py), run on the
lowering's interpreter and compared with numpy."""

from __future__ import annotations

import numpy as np

from compiler.compile import front_half
from compiler.ir import ShaderKey
from compiler.lower import LowerInterpreter
from compiler.lower.xfb import XFB_BUFFER_BASE, XFB_PARAMS, XfbOutput

SRC = """#version 300 es
in vec4 p;
out vec3 a;
flat out ivec2 k;
void main() { gl_Position = p * 2.0; a = p.zyx + 1.0; k = ivec2(gl_VertexID, gl_InstanceID); }"""


def _table(records: np.ndarray, limit: int, lo: int, hi: int | None = None) -> np.ndarray:
    """The record table of compiler/lower/xfb.py: vertex ``lo + records[p]`` is recorded
    at position ``p``; the vertex ids run from ``lo`` to ``hi``."""
    hi = lo + int(records.max()) if hi is None else hi
    order = np.argsort(records, kind="stable")
    starts = np.searchsorted(records[order], np.arange(0, hi - lo + 2))
    return np.concatenate([[len(records), limit, lo, 4 + len(starts)], starts, order]).astype(np.uint32)


def test_shared_vertices_record_once_per_use_up_to_the_limit():
    """Vertex 0 of a fan is recorded in every triangle; records past ``limit`` are dropped."""
    out = (XfbOutput("a", 0, 3, 0, 0, 3),)
    shader, _info = front_half(SRC, "vertex", ShaderKey.make(xfb=out))
    lanes = 5
    vid = np.arange(lanes, dtype=np.uint32)[None]
    records = np.array([0, 1, 2, 0, 2, 3, 0, 3, 4])
    p = np.random.default_rng(2).random((4, lanes)).astype(np.float32)
    b0 = np.full(4 * 3 * 9, 0xFF, np.uint8)
    it = LowerInterpreter(lanes=lanes, ssbos={XFB_BUFFER_BASE: b0, XFB_PARAMS: _table(records, 6, 0).view(np.uint8)},
                          sysvals={"load_vertex_id": vid, "load_instance_id": np.zeros((1, lanes), np.uint32),
                                   "load_base_vertex": np.zeros((1, lanes), np.uint32)},
                          inputs={"ATTR0": p.view(np.uint32)})
    it.run(shader)
    got = b0.view(np.float32).reshape(9, 3)
    np.testing.assert_allclose(got[:6], (p[[2, 1, 0]] + 1).T[records[:6]], rtol=1e-7)
    assert (b0.reshape(9, 12)[6:] == 0xFF).all()


def test_interleaved_and_separate_records_at_vertex_order():
    n_vert, n_inst, first = 5, 2, 3
    inter = (XfbOutput("gl_Position", 0, 4, 0, 0, 9), XfbOutput("a", 0, 3, 0, 4, 9),
             XfbOutput("k", 0, 2, 0, 7, 9), XfbOutput("a", 1, 2, 1, 0, 2))
    shader, _info = front_half(SRC, "vertex", ShaderKey.make(xfb=inter))
    lanes = n_vert * n_inst
    vid = np.tile(np.arange(first, first + n_vert, dtype=np.uint32), n_inst)[None]
    iid = np.repeat(np.arange(n_inst, dtype=np.uint32), n_vert)[None]
    p = np.random.default_rng(1).random((4, lanes)).astype(np.float32)
    b0, b1 = np.zeros(4 * 9 * lanes, np.uint8), np.zeros(4 * 2 * lanes, np.uint8)
    params = _table(np.arange(n_vert), n_vert * n_inst, first).view(np.uint8)
    it = LowerInterpreter(lanes=lanes, ssbos={XFB_BUFFER_BASE: b0, XFB_BUFFER_BASE + 1: b1, XFB_PARAMS: params},
                          sysvals={"load_vertex_id": vid, "load_instance_id": iid,
                                   "load_base_vertex": np.full((1, lanes), first, np.uint32)},
                          inputs={"ATTR0": p.view(np.uint32)})
    it.run(shader)
    rec0 = b0.view(np.float32).reshape(lanes, 9)
    np.testing.assert_array_equal(rec0[:, :4], (p * 2).T)
    np.testing.assert_allclose(rec0[:, 4:7], (p[[2, 1, 0]] + 1).T, rtol=1e-7)
    np.testing.assert_array_equal(rec0[:, 7:9].view(np.int32), np.stack([vid[0], iid[0]], 1))
    np.testing.assert_allclose(b1.view(np.float32).reshape(lanes, 2), (p[[1, 0]] + 1).T, rtol=1e-7)
