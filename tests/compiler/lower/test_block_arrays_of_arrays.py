"""Arrays of arrays of interface blocks (ARB_arrays_of_arrays): one buffer per
element, row-major, named ``Block[i][j]``; constant and dynamically uniform indices
(flattened i * inner + j) read the right buffer. Checked with the IR interpreter
against buffers whose contents name their element."""

from __future__ import annotations

import numpy as np

from compiler.compile import front_half
from compiler.lower import LowerInterpreter

SRC = """#version 430
layout(std140, binding = 1) uniform Blk { vec4 a; } u[2][3];
layout(std430, binding = 0) buffer Out { float r[]; };
uniform int i;
uniform int j;
layout(local_size_x = 1) in;
void main() {
    r[0] = u[1][2].a.x;                 // constant: element 1 * 3 + 2 = 5
    r[1] = u[0][1].a.y;                 // element 1
    r[2] = u[i][j].a.z;                 // dynamically uniform
}
"""


def test_arrays_of_arrays_of_blocks_one_buffer_per_element():
    shader, info = front_half(SRC, "compute")
    assert info.ubos == {f"Blk[{a}][{b}]": 2 + 3 * a + b for a in range(2) for b in range(3)}
    # element k's buffer holds (k, 10 k, 100 k, 0)
    ubos = {2 + k: np.array([k, 10 * k, 100 * k, 0], np.float32).view(np.uint8) for k in range(6)}
    out = np.zeros(3, np.float32).view(np.uint8)
    words = np.zeros(64, np.uint32)
    for name, value in (("i", 1), ("j", 1)):
        slot = info.uniforms[name]
        assert slot.file == "regs"
        words[slot.offset_B // 4] = value
    it = LowerInterpreter(lanes=1, ubos=ubos, ssbos={0: out}, uniforms=words)
    it.run(shader)
    assert out.view(np.float32).tolist() == [5.0, 10.0, 400.0]


def test_piglit_style_maxbounds_block_compiles_to_a_binary():
    from compiler.compile import compile_glsl
    src = """#version 150
#extension GL_ARB_arrays_of_arrays : enable
uniform Blk { vec4 a; } i[4][5];
void main() { gl_Position = i[3][4].a; }
"""
    assert compile_glsl(src, "vertex").binary
