"""MuJoCo (pip `mujoco`), unchanged, from its own virtual environment: its renderer
(fixed-function OpenGL in a compatibility context: display lists, lighting, a
textured floor, reflections through the stencil buffer and a clip plane, shadows,
multisampling resolved by glBlitFramebuffer) headless through EGL (MUJOCO_GL=egl).
mujoco_scene.py's colour and depth images against the same script on Mesa's
llvmpipe, and the floor's depths against the analytic ray-plane distances. Found
on the way: fixed-function shadow textures (a18bc6a), polygon offset on 24-bit
depth (0dfb78a, e3ea09a), single-precision matrix stacks (421752f: the shadows'
texgen planes). Slow: pip installs
mujoco. Skipped with the reason when pip cannot install it, the C ABI is not built
or the reference does not run on llvmpipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with, render_scene

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SCRIPT = Path(__file__).with_name("mujoco_scene.py")
W, H = 160, 120


@pytest.fixture(scope="module")
def mujoco_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "mujoco", "mujoco", "numpy", "PyOpenGL")


def _floor_distance(rows, cols):
    """MuJoCo's free camera (lookat (0, 0, 0.2), distance 2, azimuth 60, elevation
    -25 degrees, fovy 45): the distance along the view axis to the plane z = 0 of
    the ray through each pixel's centre."""
    az, el = np.radians(60.0), np.radians(-25.0)
    forward = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
    eye = np.array([0.0, 0.0, 0.2]) - 2.0 * forward
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    t = np.tan(np.radians(22.5))
    x = 2 * (cols + 0.5) / W - 1
    y = 1 - 2 * (rows + 0.5) / H
    ray = forward + np.multiply.outer(x * t * W / H, right) + np.multiply.outer(y * t, up)
    return -eye[2] / ray[..., 2]


def test_mujoco_renderer_matches_llvmpipe(mujoco_python, tmp_path):
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    base = {k: v for k, v in clean_env().items() if k != "DISPLAY"}
    base.update(MUJOCO_GL="egl", PYOPENGL_PLATFORM="egl")
    shim_env = dict(base, **paths.environment({}))
    ours, renderer, stderr = render_scene(mujoco_python, SCRIPT, shim_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer, renderer
    assert "internal error" not in stderr, stderr[-2000:]
    depth = np.load(tmp_path / "shimgl.npz")["depth"]
    # the floor's pixels (bottom rows, left and right of the objects) lie on z = 0; the
    # 4x multisampled depth is resolved from sample 0 (as Mesa's blitter), whose position
    # lies off the pixel's centre: on this grazing floor about 0.4% of the distance
    rows, cols = np.meshgrid(np.arange(100, 120), np.r_[0:40, 120:160], indexing="ij")
    np.testing.assert_allclose(depth[rows, cols], _floor_distance(rows, cols), rtol=0.01)
    ref, ref_renderer, _ = render_scene(mujoco_python, SCRIPT, base, tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (H, W, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) >= 20, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.005, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
    ref_depth = np.load(tmp_path / "mesa.npz")["depth"]
    # within 1% of llvmpipe's distances (sample 0's offset, above) but at a few silhouette pixels
    assert (np.abs(depth - ref_depth) > 0.01 * ref_depth).mean() <= 0.03
