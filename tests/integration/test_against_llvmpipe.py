"""The same scenes on Mesa's llvmpipe and on shimgl (marked `mesa`: skipped when llvmpipe is
not installed). Tolerance as piglit's probes for 8-bit channels (2/255), with a small share of
pixels allowed to differ along edges (the rasterisers may round edge samples differently)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.driver.agx.glhelp import context, program, vertices

pytestmark = pytest.mark.mesa

SCENE = {
    "width": 96, "height": 80,
    "vs": """#version 300 es
in vec4 pos; in vec4 col; out vec4 v_col;
void main(){ gl_Position = pos; v_col = col; }""",
    "fs": """#version 300 es
precision highp float;
in vec4 v_col; out vec4 color;
void main(){ color = v_col * v_col.a + vec4(0.05, 0.0, 0.1, 0.0); }""",
    "vertices": [
        [-0.9, -0.8, 0.3, 1, 1, 0, 0, 0.9], [0.85, -0.6, -0.2, 1, 0, 1, 0, 0.6], [0.1, 0.9, 0.5, 1, 0, 0, 1, 1.0],
        [-1.0, 0.6, -0.5, 1, 1, 1, 0, 0.5], [0.9, 0.7, 0.6, 1, 0, 1, 1, 0.4], [-0.2, -1.0, 0.0, 1, 1, 0, 1, 0.7],
    ],
    "attribs": {"pos": [4, 0], "col": [4, 4]}, "stride": 8,
    "draws": [["GL_TRIANGLES", 0, 6]], "clear": [0.1, 0.2, 0.3, 1.0],
}


def mesa_render(scene) -> np.ndarray:
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("llvmpipe_ref.py"))],
                         input=json.dumps(scene).encode(), capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    return np.frombuffer(out.stdout, np.uint8).reshape(scene["height"], scene["width"], 4)


def shimgl_render(scene) -> np.ndarray:
    ctx = context(scene["width"], scene["height"])
    p = program(ctx, scene["vs"], scene["fs"])
    vertices(ctx, p, np.array(scene["vertices"], np.float32), {k: tuple(v) for k, v in scene["attribs"].items()},
             scene["stride"])
    for name, values in scene.get("uniforms", {}).items():
        loc = ctx.glGetUniformLocation(p, name)
        v = np.array(values, np.float32)
        if len(v) == 16:
            ctx.glUniformMatrix4fv(loc, 1, False, v)
        else:
            getattr(ctx, f"glUniform{len(v)}fv")(loc, 1, v)
    tex = scene.get("texture")
    if tex:
        t = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(ctx.GL_TEXTURE_2D, t)
        data = np.array(tex["data"], np.uint8)
        ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_RGBA8, tex["width"], tex["height"], 0, ctx.GL_RGBA,
                         ctx.GL_UNSIGNED_BYTE, data)
        f = getattr(ctx, tex["filter"])
        ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, f)
        ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MAG_FILTER, f)
    ctx.glClearColor(*scene["clear"])
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT | ctx.GL_DEPTH_BUFFER_BIT)
    if scene.get("depth"):
        ctx.glEnable(ctx.GL_DEPTH_TEST)
    if scene.get("blend"):
        ctx.glEnable(ctx.GL_BLEND)
        ctx.glBlendFunc(getattr(ctx, scene["blend"][0]), getattr(ctx, scene["blend"][1]))
    for mode, first, count in scene["draws"]:
        ctx.glDrawArrays(getattr(ctx, mode), first, count)
    return ctx.read_pixels()


def compare(a, b, tol=2, max_bad=0.002):
    diff = np.abs(a.astype(int) - b.astype(int)).max(axis=-1)
    bad = (diff > tol).mean()
    assert bad <= max_bad, f"{bad:.2%} of pixels differ by more than {tol}"


@pytest.mark.parametrize("variant", ["plain", "depth", "blend"])
def test_scene_matches_llvmpipe(variant):
    scene = dict(SCENE)
    if variant == "depth":
        scene["depth"] = True
    if variant == "blend":
        scene["blend"] = ["GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA"]
    compare(shimgl_render(scene), mesa_render(scene))


def _cube_scene():
    """A perspective, textured, lit cube with depth test (36 vertices: position, normal, uv)."""
    faces = []
    for axis in range(3):
        for sign in (-1, 1):
            n = np.zeros(3)
            n[axis] = sign
            u, v = np.roll(np.eye(3), 1, 0)[axis], np.roll(np.eye(3), 2, 0)[axis]
            corners = [n + a * u + b * v for a, b in ((-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1))]
            uvs = [((a + 1) / 2, (b + 1) / 2) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1))]
            faces += [list(c) + list(n) + list(t) for c, t in zip(corners, uvs)]
    f, near, far = 1 / np.tan(np.radians(30)), 1.0, 10.0
    proj = np.array([[f, 0, 0, 0], [0, f, 0, 0], [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
                     [0, 0, -1, 0]])
    c, s = np.cos(0.6), np.sin(0.6)
    rot = np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]]) @ \
        np.array([[1, 0, 0, 0], [0, np.cos(0.4), -np.sin(0.4), 0], [0, np.sin(0.4), np.cos(0.4), 0], [0, 0, 0, 1]])
    model = np.eye(4)
    model[2, 3] = -5
    mvp = proj @ model @ rot
    checker = np.indices((8, 8)).sum(0) % 2
    tex = np.zeros((8, 8, 4), np.uint8)
    tex[..., 0] = 60 + 180 * checker
    tex[..., 1] = 200 - 120 * checker
    tex[..., 2] = 90
    tex[..., 3] = 255
    return {
        "width": 96, "height": 96,
        "vs": """#version 300 es
in vec3 pos; in vec3 nrm; in vec2 uv; uniform mat4 mvp; uniform mat4 rot; out vec2 v_uv; out float v_l;
void main(){ gl_Position = mvp * vec4(pos, 1.0); v_uv = uv;
             v_l = max(dot((rot * vec4(nrm, 0.0)).xyz, normalize(vec3(0.3, 0.5, 1.0))), 0.0) * 0.8 + 0.2; }""",
        "fs": """#version 300 es
precision highp float; uniform sampler2D t; in vec2 v_uv; in float v_l; out vec4 color;
void main(){ color = vec4(texture(t, v_uv).rgb * v_l, 1.0); }""",
        "vertices": faces, "attribs": {"pos": [3, 0], "nrm": [3, 3], "uv": [2, 6]}, "stride": 8,
        "draws": [["GL_TRIANGLES", 0, 36]], "clear": [0.0, 0.0, 0.0, 1.0], "depth": True,
        "uniforms": {"mvp": list(mvp.T.reshape(-1)), "rot": list(rot.T.reshape(-1))},
        "texture": {"width": 8, "height": 8, "data": tex.reshape(-1).tolist(), "filter": "GL_NEAREST"},
    }


def test_textured_lit_cube_matches_llvmpipe():
    scene = _cube_scene()
    ours, ref = shimgl_render(scene), mesa_render(scene)
    assert (ref[..., :3].max(axis=-1) > 0).mean() > 0.15       # the cube covers a fifth of the image
    compare(ours, ref, tol=2, max_bad=0.01)
