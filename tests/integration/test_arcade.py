"""Arcade 3 (pyglet 2), unchanged, from its own virtual environment, headless
through EGL's device platform (arcade_scene.py: shapes, a sprite list with
rotated, scaled and translucent sprites, text), compared with the same script on
Mesa's llvmpipe. The window is single-sampled on both: shimgl offers no
multisampled EGL configs, so arcade's default 4x window falls back to one
sample there ("Skipping antialiasing due missing hardware/driver support").

Pixels whose centre lies exactly on an edge of the 3-pixel line's quad before
snapping (a lattice every 4 columns and 3 rows) may differ: the quad reaches
outside the window; llvmpipe covers them as if it clipped the quad to the
viewport (new vertices on the 1/256-px grid, the edge still through those centres), shimgl rasterises the
snapped original vertices (the edge 1/640 px off them). GL allows both: at most
0.5% of the image may differ by more than 2/255.
Slow: pip installs arcade. Skipped with the reason when pip cannot install it,
the C ABI is not built or the reference does not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with, render_scene

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("arcade_scene.py")


@pytest.fixture(scope="module")
def arcade_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "arcade", "arcade", "numpy")


@pytest.fixture(scope="module")
def environments():
    """(shimgl's, Mesa's) environment without a display."""
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    mesa = {k: v for k, v in clean_env().items() if k != "DISPLAY"}
    return dict(mesa, **paths.environment({})), mesa


def _render(python, env, out) -> tuple[np.ndarray, str]:
    image, renderer, _ = render_scene(python, SCRIPT, env, out, error_line="error None")
    return image, renderer


def test_arcade_headless_matches_llvmpipe(arcade_python, environments, tmp_path):
    shim_env, mesa_env = environments
    ours, renderer = _render(arcade_python, shim_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer, renderer
    ref, ref_renderer = _render(arcade_python, mesa_env, tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (120, 160, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) > 20, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.005, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
