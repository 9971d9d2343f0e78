"""pyqtgraph's 3D view through PySide6's QOpenGLWidget, unchanged, from its own
virtual environment (pyqtgraph_scene.py: grid, shaded sphere, scatter points, a
line plot; compatibility-profile GL through PyOpenGL), under Xvfb through GLX,
compared with the same script on Mesa's llvmpipe. Slow: pip installs PySide6 and
pyqtgraph. Skipped with the reason when pip cannot install them, Xvfb is missing,
the C ABI is not built, Qt's xcb platform plugin cannot load or the reference does
not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with, render_scene, skip_without_qt_platform
from tests.integration.test_glmark2_llvmpipe import display, environments  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("pyqtgraph_scene.py")


@pytest.fixture(scope="module")
def pyqtgraph_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "pyqtgraph", "PySide6-Essentials", "pyqtgraph", "PyOpenGL", "numpy")


def test_pyqtgraph_3d_view_matches_llvmpipe(pyqtgraph_python, environments, tmp_path):  # noqa: F811
    shim_env, mesa_env = environments
    skip_without_qt_platform(pyqtgraph_python, mesa_env)
    ours, renderer, _ = render_scene(pyqtgraph_python, SCRIPT, shim_env, tmp_path / "shimgl.npz", error_line="error 0")
    assert "shimgl" in renderer, renderer
    ref, ref_renderer, _ = render_scene(pyqtgraph_python, SCRIPT, mesa_env, tmp_path / "mesa.npz",
                                        error_line="error 0")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (120, 160, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) >= 20, "the scene was not drawn"
    assert tuple(ours[2, 2]) == (30, 30, 40)          # the background colour, by hand
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.002, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
