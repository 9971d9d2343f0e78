"""Godot 3 (Debian's godot3), unchanged, with its GLES3 renderer (a GL 3.3 core
context through GLX) under Xvfb: godot_project/ builds a lit scene with shadows,
tone mapping and glow and saves the viewport at its third frame; compared with the
same project on Mesa's llvmpipe. The shadow maps are 1024 px (Godot's default
4096 px atlas costs a render command more than the GPU watchdog's 10 s of GPU time
on a loaded 2-core host; docs/programs.md). Slow. Skipped with the reason when
godot3 or Xvfb is missing (`make optional-deps`), the C ABI is not built or the
reference does not run on llvmpipe."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.integration.test_glmark2_llvmpipe import display, environments  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

PROJECT = Path(__file__).with_name("godot_project")


def _render(env, out: Path) -> tuple[np.ndarray, str, str]:
    """Run a copy of the project (Godot writes its logs into the project folder)."""
    from PIL import Image
    project = out.with_suffix(".project")
    shutil.copytree(PROJECT, project)
    res = subprocess.run(["godot3", "--path", str(project)], env=dict(env, OUT_PNG=str(out)), capture_output=True,
                         text=True, timeout=1200)
    assert res.returncode == 0 and "saved" in res.stdout, res.stdout[-2000:] + res.stderr[-2000:]
    renderer = next(line for line in res.stdout.splitlines() if line.startswith("renderer"))
    return np.asarray(Image.open(out).convert("RGB")), renderer, res.stderr


def test_godot3_gles3_scene_matches_llvmpipe(environments, tmp_path):  # noqa: F811
    if shutil.which("godot3") is None:
        pytest.skip("godot3 is not installed (Debian's godot3, make optional-deps)")
    shim_env, mesa_env = environments
    ours, renderer, stderr = _render(shim_env, tmp_path / "shimgl.png")
    assert "shimgl" in renderer, renderer
    assert "TIMEOUT" not in stderr and "KILLED" not in stderr, stderr[-2000:]
    ref, ref_renderer, _ = _render(mesa_env, tmp_path / "mesa.png")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape == (120, 160, 3)
    assert len(np.unique(ours.reshape(-1, 3), axis=0)) >= 20, "the scene was not drawn"
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (diff > 2).mean() <= 0.002, f"{(diff > 2).mean():.2%} of the pixels differ by more than 2/255"
