"""Panda3D 1.10, unchanged, from its own virtual environment: an offscreen
buffer through GLX under Xvfb (pandagl) and through EGL's device platform with
no display (p3headlessgl), a lit and textured scene from Panda3D's shader
generator (panda3d_scene.py), compared with the same script on Mesa (llvmpipe).
shimgl must report itself, raise no GL error Panda3D sees (it queries
TEXTURE_LUMINANCE_SIZE and TEXTURE_INTENSITY_SIZE of each texture, which were
INVALID_ENUM), and draw within 2/255 of Mesa.

Slow: pip installs panda3d. Skipped with the reason when pip cannot install it,
Xvfb is missing (GLX case), the C ABI is not built or the reference does not run
on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import headless, python_with, render_scene
from tests.integration.test_glmark2_llvmpipe import display, environments  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("panda3d_scene.py")


@pytest.fixture(scope="module")
def panda3d_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "panda3d", "panda3d", "numpy")


def _render(python, pipe, env, out) -> tuple[np.ndarray, str, str]:
    return render_scene(python, SCRIPT, env, out, pipe)


@pytest.mark.parametrize("pipe", ["pandagl", "p3headlessgl"])
def test_panda3d_offscreen_matches_mesa(pipe, panda3d_python, environments, tmp_path):  # noqa: F811
    shim_env, mesa_env = environments
    if pipe == "p3headlessgl":
        shim_env, mesa_env = headless(shim_env), headless(mesa_env)
    ours, renderer, log = _render(panda3d_python, pipe, shim_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer, renderer
    assert "GL error" not in log and "invalid" not in log, log[-2000:]
    ref, ref_renderer, _ = _render(panda3d_python, pipe, mesa_env, tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (96, 128, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) > 50, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert diff.max() <= 2, f"{(diff > 2).mean():.2%} of the pixels differ by up to {diff.max()}"
