"""Qt 6 Quick through PySide6, unchanged, from its own virtual environment: a QML
scene (qt_scene.py) in a window under Xvfb, drawn by Qt's OpenGL RHI through
GLX, compared with the same script on Mesa's llvmpipe. Slow: pip installs
PySide6. Skipped with the reason when pip cannot install it, Xvfb is missing, the
C ABI is not built, Qt's xcb platform plugin cannot load (Debian's libxcb-cursor0
and friends, `make optional-deps`) or the reference does not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with, render_scene, skip_without_qt_platform
from tests.integration.test_glmark2_llvmpipe import display, environments  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("qt_scene.py")


@pytest.fixture(scope="module")
def qt_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "qt", "PySide6-Essentials", "numpy")


def test_qt_quick_scene_matches_llvmpipe(qt_python, environments, tmp_path):  # noqa: F811
    shim_env, mesa_env = environments
    skip_without_qt_platform(qt_python, mesa_env)
    ours, renderer, _ = render_scene(qt_python, SCRIPT, shim_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer, renderer
    ref, ref_renderer, _ = render_scene(qt_python, SCRIPT, mesa_env, tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (120, 160, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) >= 8, "the scene was not drawn"
    # the solid rectangle and the background, by hand
    assert tuple(ours[28, 38]) == (255, 0, 0) and tuple(ours[2, 80]) == (0x20, 0x30, 0x40)
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.005, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
