"""Chromium (Debian's), unchanged, running a WebGL 2 page headless through ANGLE's
OpenGL backend on EGL (`--use-gl=angle --use-angle=gl-egl`): webgl_scene.html draws
depth-tested instanced cubes with a texture and a uniform block, then blends a
translucent quad; the browser's compositor reads the frame back (BGRA reads:
GL_EXT_read_format_bgra) into the screenshot. Compared with the same page on Mesa's
llvmpipe in the same run. Slow. Skipped with the reason when chromium is missing
(`make optional-deps`), the C ABI is not built or the reference does not run on
llvmpipe."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

PAGE = Path(__file__).with_name("webgl_scene.html")
CANVAS_PX = 192


def _chromium(env, tmp: Path, *args) -> subprocess.CompletedProcess:
    cmd = ["chromium", "--headless=new", "--no-sandbox", "--use-gl=angle", "--use-angle=gl-egl",
           "--ignore-gpu-blocklist", "--hide-scrollbars", f"--window-size={CANVAS_PX},260",
           f"--user-data-dir={tmp / 'profile'}", *args, PAGE.as_uri()]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1200)


def _run(env, tmp: Path) -> tuple[np.ndarray, str, str]:
    """The canvas as the browser composited it, the page's report, and the GPU
    process's errors."""
    from PIL import Image
    tmp.mkdir()
    shot = tmp / "shot.png"
    res = _chromium(env, tmp, f"--screenshot={shot}")
    assert shot.exists(), res.stderr[-3000:]
    dom = _chromium(env, tmp, "--dump-dom").stdout
    report = re.search(r'<pre id="info"[^>]*>(.*?)</pre>', dom, re.S)
    assert report, dom[-2000:]
    image = np.asarray(Image.open(shot).convert("RGB"))[:CANVAS_PX, :CANVAS_PX]
    return image, report.group(1), res.stderr


def test_webgl2_page_matches_llvmpipe(tmp_path):
    if shutil.which("chromium") is None:
        pytest.skip("chromium is not installed (Debian's chromium, make optional-deps)")
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    shim_env = dict(clean_env(), **paths.environment({}))
    mesa_env = {k: v for k, v in shim_env.items()
                if k not in ("__GLX_VENDOR_LIBRARY_NAME", "__EGL_VENDOR_LIBRARY_FILENAMES")}
    ours, report, stderr = _run(shim_env, tmp_path / "shimgl")
    assert "RENDERER=ANGLE (shimgl" in report, report
    assert "ERR=0" in report and "SHADER" not in report and "LINK" not in report, report
    # ANGLE logs every GL error its GL backend sees; the compositor's readback was one
    assert "generated error 0x00000502" not in stderr, stderr[-3000:]
    ref, ref_report, _ = _run(mesa_env, tmp_path / "mesa")
    if "llvmpipe" not in ref_report:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_report})")
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) >= 20, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.001, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
