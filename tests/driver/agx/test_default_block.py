"""The default uniform block has one layout (compiler.link.default_block_layout, std430
over the program's uniforms): GL's uniform storage is it, glUniform* write the bytes the
shaders read, and the draw hands that storage to the shader as it is (no copies
between layouts). Offsets below are std430 worked out by hand."""

from __future__ import annotations

import struct

import numpy as np

from driver.gallium import PipeShaderType
from driver.gl.objects import program_object
from tests.driver.agx import glhelp

VS = """#version 300 es
layout(location = 0) in vec4 pos;
uniform mat4 m;
uniform vec4 c[4];
out vec4 v;
void main() { gl_Position = pos; v = m * c[gl_VertexID % 4] + c[3]; }
"""
FS = """#version 300 es
precision highp float;
in vec4 v;
uniform float k;
uniform mat3 n;
uniform float f[3];
out vec4 o;
void main() { o = vec4(n * v.xyz, v.w) * k + vec4(f[0], f[1], f[2], 0.0); }
"""
QUAD = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)


def _linked(ctx, prog):
    return program_object(ctx, prog).linked_state


def _pixel(ctx) -> np.ndarray:
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE), np.uint8)
    return px.reshape(-1, 4).astype(int)


def test_the_program_lays_the_block_out_std430_once():
    ctx = glhelp.context(4, 4)
    prog = glhelp.program(ctx, VS, FS)
    ls = _linked(ctx, prog)
    # m: 4 columns of 16 B at 0; c: 4 x 16 B at 64; k at 128; n: mat3 (3 columns of a
    # vec3, 16 B apart) aligned to 16 -> 144; f: float[3], 4 B apart, at 192
    assert dict(ls.default_block.offsets) == {"m": 0, "c": 64, "k": 128, "n": 144, "f": 192}
    assert ls.default_block.size_B == 204
    by_name = {u.name: u for u in ls.uniforms}
    assert (by_name["n"].offset_B, by_name["n"].matrix_stride_B) == (144, 16)
    assert (by_name["f[0]"].offset_B, by_name["f[0]"].stride_B) == (192, 4)


def test_gluniform_writes_the_bytes_the_shaders_read():
    ctx = glhelp.context(4, 4)
    prog = glhelp.program(ctx, VS, FS)
    glhelp.vertices(ctx, prog, QUAD, {"pos": (4, 0)}, 4)
    m = np.diag([0.5, 0.25, 0.125, 1.0]).astype(np.float32)
    c = np.array([[0.2, 0.2, 0.2, 0], [0.2, 0.2, 0.2, 0], [0.2, 0.2, 0.2, 0], [0.1, 0.2, 0.3, 1]], np.float32)
    n = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float32)       # swaps x and y
    ctx.glUniformMatrix4fv(ctx.glGetUniformLocation(prog, "m"), 1, False, m.T.ravel().tolist())
    ctx.glUniform4fv(ctx.glGetUniformLocation(prog, "c"), 4, c.ravel().tolist())
    ctx.glUniform1f(ctx.glGetUniformLocation(prog, "k"), 0.5)
    ctx.glUniformMatrix3fv(ctx.glGetUniformLocation(prog, "n"), 1, False, n.T.ravel().tolist())
    ctx.glUniform1fv(ctx.glGetUniformLocation(prog, "f"), 3, [0.25, 0.0, 0.125])
    data = _linked(ctx, prog).uniform_data
    assert struct.unpack_from("<f", data, 128) == (0.5,)
    assert struct.unpack_from("<3f", data, 192) == (0.25, 0.0, 0.125)
    assert struct.unpack_from("<3f", data, 144 + 16) == (1.0, 0.0, 0.0)     # column 1 of n
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    v = m @ c[0] + c[3]
    want = np.concatenate([n @ v[:3], v[3:]]) * 0.5 + [0.25, 0.0, 0.125, 0.0]
    assert np.abs(_pixel(ctx) - np.round(want.clip(0, 1) * 255).astype(int)).max() <= 1
    for stage in (PipeShaderType.VERTEX, PipeShaderType.FRAGMENT):
        (sh,) = ctx.pipe.shaders[stage]._variants.values()
        assert sh.info["program_block"]
        block = dict(_linked(ctx, prog).default_block.offsets)
        for name, slot in sh.info["shader_info"].uniforms.items():
            # the shader reads the storage's offsets (registers: a window from registers_base_B)
            at = slot.offset_B + (sh.info["registers_base_B"] if slot.file == "regs" else 0)
            assert at == block[name], name


def test_each_stage_pushes_the_part_of_the_block_it_reads():
    """The vertex stage's array fills more than the 1 KiB of uniform registers; the
    fragment stage's uniform after it is in that stage's registers all the same: a
    stage's register window starts at the first uniform it reads."""
    vs = """#version 300 es
layout(location = 0) in vec4 pos;
uniform vec4 big[70];
out vec4 v;
void main() { gl_Position = pos; v = big[gl_VertexID] + big[69]; }
"""
    fs = """#version 300 es
precision highp float;
in vec4 v;
uniform vec4 tail;
out vec4 o;
void main() { o = v + tail; }
"""
    ctx = glhelp.context(4, 4)
    prog = glhelp.program(ctx, vs, fs)
    glhelp.vertices(ctx, prog, QUAD, {"pos": (4, 0)}, 4)
    assert dict(_linked(ctx, prog).default_block.offsets) == {"big": 0, "tail": 1120}
    big = np.zeros((70, 4), np.float32)
    big[0:3] = [0.25, 0.0, 0.0, 0.5]
    big[69] = [0.0, 0.25, 0.0, 0.25]
    ctx.glUniform4fv(ctx.glGetUniformLocation(prog, "big"), 70, big.ravel().tolist())
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "tail"), 0.0, 0.0, 0.5, 0.0)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    want = np.round(np.array([0.25, 0.25, 0.5, 0.75]) * 255).astype(int)
    assert np.abs(_pixel(ctx) - want).max() <= 1
    (fs_sh,) = ctx.pipe.shaders[PipeShaderType.FRAGMENT]._variants.values()
    # the fragment stage's register window starts at its first uniform: tail is register 0
    slot = fs_sh.info["shader_info"].uniforms["tail"]
    assert (slot.file, slot.offset_B, fs_sh.info["registers_base_B"]) == ("regs", 0, 1120)
    (vs_sh,) = ctx.pipe.shaders[PipeShaderType.VERTEX]._variants.values()
    slot = vs_sh.info["shader_info"].uniforms["big"]      # 1120 B: more than the registers hold
    assert (slot.file, slot.offset_B) == ("ubo", 0)       # read from the storage in memory


def test_built_in_state_is_read_from_the_state_block_where_gl_writes_it():
    """gl_ModelViewProjectionMatrix and gl_LightSource[1].diffuse: the state constant
    buffer holds them at the compiler's table offsets (compiler.link.state_block); the
    shader reads them from there or from registers the compiler's ranges fill from it."""
    from compiler.link import state_block
    from compiler.keys import STATE_BLOCK_UBO
    vs = """#version 120
void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;
              gl_FrontColor = gl_LightSource[1].diffuse; }
"""
    fs = "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n"
    ctx = glhelp.context(4, 4, api="compat")
    prog = glhelp.program(ctx, vs, fs)
    ctx.glMatrixMode(ctx.GL_MODELVIEW)
    ctx.glLoadIdentity()
    ctx.glScalef(0.5, 0.5, 1.0)                       # the triangle still covers the 4x4 target
    ctx.glLightfv(ctx.GL_LIGHT1, ctx.GL_DIFFUSE, [0.25, 0.5, 0.75, 1.0])
    tri = np.array([[-4, -4, 0], [8, -4, 0], [-4, 8, 0]], np.float32)
    ctx.glEnableClientState(ctx.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(3, ctx.GL_FLOAT, 0, tri)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    want = np.round(np.array([0.25, 0.5, 0.75, 1.0]) * 255).astype(int)
    assert np.abs(_pixel(ctx) - want).max() <= 1
    variants = [v for v in ctx.pipe.shaders[PipeShaderType.VERTEX]._variants.values()
                if "gl_LightSource[1].diffuse" in v.info["shader_info"].uniforms]
    leaves = dict(state_block().leaves)
    for name in ("gl_ModelViewProjectionMatrix", "gl_LightSource[1].diffuse"):
        for sh in variants:
            slot = sh.info["shader_info"].uniforms[name]
            if slot.file == "ubo":                # read from the state block itself
                assert (slot.ubo, slot.offset_B) == (STATE_BLOCK_UBO, leaves[name][0])
                continue
            # in registers: a range the driver copies from the state block covers it, and
            # the leaf sits in the range where it sits in the block
            (reg, off, _n), = [r for r in sh.info["state_ranges"] if r[0] <= slot.offset_B < r[0] + r[2]]
            assert off + slot.offset_B - reg == leaves[name][0]
    assert variants
    # std430 by hand: 12 mat4 (64 B each) and then 4 mat4[8] come first; gl_LightSource[i] is
    # 5 vec4, a vec3 and 6 floats, 112 B rounded to 128 B per element
    assert leaves["gl_ModelViewProjectionMatrix"][0] == 2 * 4 * 64
    assert leaves["gl_LightSource[1].diffuse"][0] - leaves["gl_LightSource[0].diffuse"][0] == 128
