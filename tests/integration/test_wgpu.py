"""wgpu (pip `wgpu`: wgpu-py over wgpu-native, the WebGPU implementation Rust and
Python programs use), unchanged, from its own virtual environment, on its OpenGL
backend headless through EGL (WGPU_BACKEND_TYPE=OpenGL): wgpu_scene.py's render
pass (depth, vertex/index/uniform buffers, a sampled texture, blending) against
the same script on Mesa's llvmpipe, and its compute pass against numpy. Before
298caed wgpu's device creation crashed the process in glObjectLabel (a counted,
unterminated label read with strlen). Slow: pip installs wgpu. Skipped with the
reason when pip cannot install it, the C ABI is not built or the reference does
not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with, render_scene

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("wgpu_scene.py")


@pytest.fixture(scope="module")
def wgpu_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "wgpu", "wgpu", "numpy")


def test_wgpu_gl_backend_matches_llvmpipe(wgpu_python, tmp_path):
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    base = {k: v for k, v in clean_env().items() if k != "DISPLAY"}
    base["WGPU_BACKEND_TYPE"] = "OpenGL"
    shim_env = dict(base, **paths.environment({}))
    ours, renderer, stderr = render_scene(wgpu_python, SCRIPT, shim_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer and "OpenGL" in renderer, renderer
    assert "internal error" not in stderr, stderr[-2000:]
    got = np.load(tmp_path / "shimgl.npz")["computed"]
    k = np.arange(256, dtype=np.uint32)
    np.testing.assert_array_equal(got, k * 7 * 3 + k * k)
    ref, ref_renderer, _ = render_scene(wgpu_python, SCRIPT, base, tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (96, 96, 4)
    assert len(np.unique(ours.reshape(-1, 4), axis=0)) >= 20, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.002, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
