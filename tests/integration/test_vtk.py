"""VTK 9 (pip's wheel), unchanged, from its own virtual environment: scenes of
vtk_scene.py rendered offscreen through VTK's EGL render window with no display,
compared with the same script on Mesa (llvmpipe). Each mode exercises a part of
VTK's OpenGL 3.2 core renderer that found a bug: shadow maps and volume ray
casting read gl_FragCoord.w and .z under a perspective projection (they were
interpolated perspective-correct), image-based lighting renders into RGB16F cube
faces (incomplete) after a 30-second lookup-table draw (stopped by the GPU
watchdog at 10 s), and every program printed internal errors at exit (VTK
destroys its EGL context from a C++ destructor while Python shuts down).

shimgl must report itself, print no internal error and no more VTK errors than
Mesa, and draw within 2/255 of
Mesa on at least 99.5% of the pixels (the rest: ties at triangle edges).

Slow: pip installs vtk. Skipped with the reason when pip cannot install it, the
C ABI is not built or the reference does not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import headless, python_with, render_scene
from tests.integration.test_glmark2_llvmpipe import display, environments  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("vtk_scene.py")
VTK_EGL = {"VTK_DEFAULT_OPENGL_WINDOW": "vtkEGLRenderWindow"}


@pytest.fixture(scope="module")
def vtk_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "vtk", "vtk", "numpy")


@pytest.mark.parametrize("mode", ["surface", "shadows", "volume", "peeling", "text", "pbr"])
def test_vtk_offscreen_matches_mesa(mode, vtk_python, environments, tmp_path):  # noqa: F811
    shim_env, mesa_env = (dict(headless(env), **VTK_EGL) for env in environments)
    ours, renderer, log = render_scene(vtk_python, SCRIPT, shim_env, tmp_path / "shimgl.npz", mode)
    assert "shimgl" in renderer, renderer
    assert "internal error" not in log, log[-3000:]
    ref, ref_renderer, ref_log = render_scene(vtk_python, SCRIPT, mesa_env, tmp_path / "mesa.npz", mode)
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    # VTK's own error reports (its PBR pass attaches a level its cube map lacks, and
    # Mesa answers INCOMPLETE_ATTACHMENT too): no more than on Mesa
    assert log.count("ERR|") <= ref_log.count("ERR|"), log[-3000:]
    assert ours.shape == ref.shape == (96, 128, 3)
    assert len(np.unique(ref.reshape(-1, 3), axis=0)) > 50, "the reference drew too little to compare"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.005, f"{(diff > 2).mean():.2%} of the pixels differ by up to {diff.max()}"
