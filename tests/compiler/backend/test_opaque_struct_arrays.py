"""Samplers inside arrays of structs indexed with a loop counter (pyrender's shadow
pass: ``texture(lights[i].shadow, uv)`` for i < a uniform count). GLSL 4.00 allows
dynamically uniform indices; the lowering selects among the candidate leaves
(``lights[0].shadow``, ``lights[1].shadow``, ...). Rendered through driver.Context
and compared with the image numpy computes from the textures and uniforms."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from compiler.compile import compile_glsl
from compiler.compile import front_half
from tests.driver.agx import glhelp

W = H = 8

VS = """#version 330 core
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""

FS = """#version 330 core
struct Light {
    vec3 color;
    sampler2D shadow;
    float bias;
};
uniform Light lights[3];
uniform int n_lights;
out vec4 frag;

float visibility(sampler2D map, vec2 uv, float bias) {
    return texture(map, uv).r + bias;
}

void main() {
    vec2 uv = gl_FragCoord.xy / 8.0;
    vec3 acc = vec3(0.0);
    for (int i = 0; i < n_lights; ++i) {
        acc += lights[i].color * visibility(lights[i].shadow, uv, lights[i].bias);
    }
    frag = vec4(acc, 1.0);
}
"""

# One 2x2 R8 texture per light (texel bytes, row 0 first), its colour and bias.
TEXELS = [np.array([[255, 0], [0, 255]], np.uint8),
          np.array([[0, 128], [64, 0]], np.uint8),
          np.array([[32, 32], [255, 255]], np.uint8)]
COLORS = [(0.25, 0.0, 0.0), (0.0, 0.5, 0.0), (0.0, 0.0, 0.75)]
BIAS = [0.0, 0.125, 0.0]
UNITS = [2, 0, 5]           # lights[k].shadow samples texture unit UNITS[k]


def _expected(n: int) -> np.ndarray:
    """(H, W, 4) bytes: nearest sampling of 2x2 textures over an 8x8 target."""
    acc = np.zeros((H, W, 3), np.float32)
    ys, xs = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    for k in range(n):
        texel = TEXELS[k][ys // 4, xs // 4].astype(np.float32) / 255.0
        vis = texel + np.float32(BIAS[k])
        acc += np.asarray(COLORS[k], np.float32)[None, None, :] * vis[..., None]
    out = np.concatenate([acc, np.ones((H, W, 1), np.float32)], axis=2)
    return np.round(np.clip(out, 0, 1) * 255).astype(np.int32)


def _render(n: int) -> np.ndarray:
    ctx = driver.Context(api="gl33", width=W, height=H)
    prog = glhelp.program(ctx, VS, FS)
    quad = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
    glhelp.vertices(ctx, prog, quad, {"pos": (2, 0)}, 2)
    textures = ctx.glGenTextures(3)
    for k, tex in enumerate(textures):
        ctx.glActiveTexture(ctx.GL_TEXTURE0 + UNITS[k])
        ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
        ctx.glPixelStorei(ctx.GL_UNPACK_ALIGNMENT, 1)
        ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_R8, 2, 2, 0, ctx.GL_RED, ctx.GL_UNSIGNED_BYTE,
                         TEXELS[k].tobytes())
        ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_NEAREST)
        ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MAG_FILTER, ctx.GL_NEAREST)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, f"lights[{k}].shadow"), UNITS[k])
        ctx.glUniform3f(ctx.glGetUniformLocation(prog, f"lights[{k}].color"), *COLORS[k])
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, f"lights[{k}].bias"), BIAS[k])
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "n_lights"), n)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == ctx.GL_NO_ERROR
    pixels = np.frombuffer(ctx.glReadPixels(0, 0, W, H, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE), np.uint8)
    return pixels.reshape(H, W, 4).astype(np.int32)


@pytest.mark.parametrize("n", [3, 2, 1, 0])
def test_loop_indexed_sampler_in_struct_array_renders(n):
    got = _render(n)
    want = _expected(n)
    assert np.abs(got - want).max() <= 1, (got[..., :3], want[..., :3])


def test_every_candidate_leaf_is_a_sampler_of_its_own():
    _shader, info = front_half(FS, "fragment")
    assert sorted(info.samplers) == ["lights[0].shadow", "lights[1].shadow", "lights[2].shadow"]
    assert len({s.slot for s in info.samplers.values()}) == 3


ARRAY_MEMBER_FS = """#version 400
struct Cascade { sampler2D maps[2]; float w; };
uniform Cascade cascades[2];
uniform int i;
uniform int j;
in vec2 uv;
out vec4 o;
void main() {
    o = texture(cascades[i].maps[j], uv) + texture(cascades[i].maps[1], uv) * cascades[i].w;
}
"""


def test_sampler_array_member_of_struct_array_indexed_twice_compiles():
    _shader, info = front_half(ARRAY_MEMBER_FS, "fragment")
    assert sorted(info.samplers) == ["cascades[0].maps", "cascades[1].maps"]
    assert all(s.count == 2 for s in info.samplers.values())
    assert compile_glsl(ARRAY_MEMBER_FS, "fragment").binary
