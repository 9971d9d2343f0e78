"""Skia's GPU backend (skia-python 144, Ganesh on OpenGL), unchanged, from its
own virtual environment: a GLFW hidden window under Xvfb through GLX gives the
context (skia_scene.py: anti-aliased shapes, a gradient, a stroked path,
translucency, text), compared with the same script on Mesa's llvmpipe: within
2/255 everywhere (measured: 1/255).

Slow: pip installs skia-python. Skipped with the reason
when pip cannot install it, Xvfb is missing, the C ABI is not built or the
reference does not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with, render_scene
from tests.integration.test_glmark2_llvmpipe import display, environments  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("skia_scene.py")


@pytest.fixture(scope="module")
def skia_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "skia", "skia-python", "glfw", "PyOpenGL", "numpy")


def _render(python, env, out) -> tuple[np.ndarray, str]:
    image, renderer, _ = render_scene(python, SCRIPT, env, out, error_line="error 0")
    return image, renderer


def test_skia_gpu_surface_matches_llvmpipe(skia_python, environments, tmp_path):  # noqa: F811
    shim_env, mesa_env = environments
    ours, renderer = _render(skia_python, shim_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer, renderer
    ref, ref_renderer = _render(skia_python, mesa_env, tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (120, 160, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) > 100, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert diff.max() <= 2, f"{(diff > 2).mean():.2%} of the pixels differ by up to {diff.max()}"
