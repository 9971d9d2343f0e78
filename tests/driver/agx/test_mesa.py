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
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("mesa_ref.py"))],
                         input=json.dumps(scene).encode(), capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    return np.frombuffer(out.stdout, np.uint8).reshape(scene["height"], scene["width"], 4)


def shimgl_render(scene) -> np.ndarray:
    ctx = context(scene["width"], scene["height"])
    p = program(ctx, scene["vs"], scene["fs"])
    vertices(ctx, p, np.array(scene["vertices"], np.float32), {k: tuple(v) for k, v in scene["attribs"].items()},
             scene["stride"])
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
