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
    params = np.array([n_vert], np.uint32).view(np.uint8)
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
