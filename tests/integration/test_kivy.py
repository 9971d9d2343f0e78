"""Kivy 2.3, unchanged, from its own virtual environment: an SDL2 window under
Xvfb through GLX (kivy_scene.py: canvas shapes, a translucent ellipse, a
3-pixel line, a rotated textured quad, drawn into an Fbo), compared with the
same script on Mesa's llvmpipe.

Pixels whose centre lies exactly on the 3-pixel line's edge before snapping may
differ: the line's quad reaches outside the window; llvmpipe covers them as if
it clipped the quad to the viewport (new vertices on the 1/256-px grid, the edge
still through those centres), shimgl rasterises the snapped original vertices (which
moves the edge 1/640 px off them). GL allows both; at most 0.5% of the image
may differ by more than 2/255. Slow: pip installs kivy. Skipped with the reason
when pip cannot install it, Xvfb is missing, the C ABI is not built or the
reference does not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with, render_scene
from tests.integration.test_glmark2_llvmpipe import display, environments  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("kivy_scene.py")


@pytest.fixture(scope="module")
def kivy_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "kivy", "kivy", "numpy")


def _render(python, env, out) -> tuple[np.ndarray, str]:
    image, renderer, _ = render_scene(python, SCRIPT, env, out, error_line="error 0")
    return image, renderer


def test_kivy_window_matches_llvmpipe(kivy_python, environments, tmp_path):  # noqa: F811
    shim_env, mesa_env = environments
    ours, renderer = _render(kivy_python, shim_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer, renderer
    ref, ref_renderer = _render(kivy_python, mesa_env, tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (120, 160, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) >= 5, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.005, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
