"""`shimgl demo`: every scene's PNG is written (through the C ABI with PyOpenGL) and
shows what its line claims."""

from __future__ import annotations

import argparse
import contextlib
import io
import os

import numpy as np
import pytest

from driver.abi.paths import environment, missing_reason
from driver.demo import SCENES, cli

SIZE = 64

pytestmark = pytest.mark.skipif(environment(os.environ) is None,
                                reason=f"the C ABI is not built: {missing_reason()}")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["demo", "--out", str(out), "--size", str(SIZE)])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        status = args.func(args)
    from PIL import Image
    images = {s: np.asarray(Image.open(out / f"{s}.png")).astype(int) for s in SCENES if (out / f"{s}.png").exists()}
    return status, buf.getvalue(), images


def px(img, x_ndc, y_ndc):
    """The pixel at normalised device coordinates (images are stored top row first)."""
    return img[int((1 - y_ndc) / 2 * SIZE), int((x_ndc + 1) / 2 * SIZE)]


def test_every_scene_written_with_a_line(demo):
    status, text, images = demo
    assert status == 0, text
    assert set(images) == set(SCENES)
    assert all(img.shape == (SIZE, SIZE, 4) for img in images.values())
    assert "C ABI" in text
    for s in SCENES:
        line = next(ln for ln in text.splitlines() if ln.startswith(s))
        assert f"{s}.png" in line and "fragments shaded" in line and "partial renders" in line and " ms" in line


def test_cube_is_lit_textured_and_covers_part_of_the_frame(demo):
    img = demo[2]["cube"]
    background = np.array([13, 13, 26, 255])
    covered = np.abs(img - background).max(-1) > 8
    assert 0.1 < covered.mean() < 0.6
    assert covered[SIZE // 2, SIZE // 2] and not covered[0, 0]
    c = img[covered]
    # both checker colours (red-ish and green-ish texels) appear, at more than one light level
    assert ((c[:, 0] > c[:, 1]).mean() > 0.2) and ((c[:, 1] > c[:, 0]).mean() > 0.2)
    assert len(np.unique(c[:, 2])) > 1


def test_blend_matches_the_analytic_blend(demo):
    from driver.demo.scenes import BLEND_A, BLEND_B, BLEND_BG
    img = demo[2]["blend"]
    a, b, bg = (np.array(c) for c in (BLEND_A, BLEND_B, BLEND_BG))
    alpha = b[3]
    over_a = b * alpha + a * (1 - alpha)
    over_bg = b * alpha + bg * (1 - alpha)
    # the blend equation applies to alpha too: SRC_ALPHA, ONE_MINUS_SRC_ALPHA for all four
    assert np.abs(px(img, 0.0, 0.0) - over_a * 255).max() <= 2 + 0.5
    assert np.abs(px(img, 0.6, -0.7) - over_bg * 255).max() <= 2 + 0.5
    assert np.abs(px(img, -0.6, 0.5) - a * 255).max() <= 1 + 0.5
    assert np.abs(px(img, -0.95, 0.95) - bg * 255).max() <= 1 + 0.5


def test_mipmap_is_sharp_near_and_grey_far(demo):
    g = demo[2]["mipmap"][..., 0]
    sky = g[: SIZE // 2 - 2]
    assert (sky == round(0.3 * 255)).all()
    far = g[int(SIZE * 0.56): int(SIZE * 0.66)]      # just below the horizon: many texels per pixel
    near = g[-4:]                                    # the bottom rows: about a texel per pixel
    assert abs(far.mean() - 127.5) < 12 and far.std() < 35
    assert near.std() > 60 and near.min() < 40 and near.max() > 215


def test_compute_image_equals_the_numpy_formula(demo):
    from driver.demo.scenes import compute_reference
    img = demo[2]["compute"]
    assert (img == compute_reference(SIZE)[::-1]).all()


def test_msaa_edge_has_intermediate_values_and_a_solid_interior(demo):
    r = demo[2]["msaa"][..., 0]
    assert r[0, 0] == 0 and r[-1, -1] == 0
    assert px(demo[2]["msaa"], -0.1, -0.2)[0] == 255           # inside the triangle
    inter = r[(r > 0) & (r < 255)]
    assert inter.size >= SIZE                                   # the edges, about a pixel wide
    assert len(np.unique(inter)) >= 3                           # 1, 2 and 3 of 4 samples covered
    assert (r[(r > 0) & (r < 255)] > 0).all()
