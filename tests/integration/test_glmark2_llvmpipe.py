"""glmark2-es2's default benchmark list on shimgl against Mesa, scene by scene.

glmark2-es2 (X11 EGL, 160x120 window under Xvfb, two frames of each of its 33
default benchmarks) is recorded with apitrace on Mesa's llvmpipe, and the trace
is replayed with eglretrace on shimgl and on two llvmpipe configurations; each
benchmark's frames are compared with a tolerance of its own.

The references (docs/programs.md, "glmark2-es2 scene by scene", has the figures):

- ``llvmpipe``: Mesa as installed. On CPUs with F16C it evaluates `mediump`
  arithmetic in float16 (GLSL ES allows any precision at least the minimum;
  shimgl uses float32 everywhere). glmark2's conditionals, function and loop
  scenes amplify float16 rounding (five `fract(3.0 * d)` steps) and terrain's
  noise height map is computed at mediump, so those scenes are compared with:
- ``llvmpipe-fp32``: llvmpipe with ``GALLIUM_OVERRIDE_CPU_CAPS=sse4.1`` (no F16C:
  llvmpipe then has no float16 and keeps `mediump` at float32) and
  ``GALLIVM_PERF=no_aos_sampling`` (8-bit textures filtered in float, not with
  llvmpipe's 8-bit weights).

What is left in terrain and refract is texture level-of-detail selection and
mipmap generation, where GL allows implementations to differ (llvmpipe and
softpipe differ from each other there as much as from shimgl): those scenes get a
bound on the mean and, for terrain, on the largest difference.

Skipped with the reason when Xvfb, glmark2-es2, apitrace, eglretrace or the
built C ABI is missing. Slow: the replay on shimgl takes minutes."""

from __future__ import annotations

import platform
import re
import shutil
import subprocess

import numpy as np
import pytest

from tests.xvfb import xvfb_display

pytestmark = [pytest.mark.slow, pytest.mark.mesa]

SIZE = (160, 120)
FRAMES_PER_BENCHMARK = 2
DIFF_THRESHOLD = 2          # a pixel differs when a channel is off by more than 2/255

# scene -> (reference, largest share of differing pixels, largest mean |difference|
# in 1/255 units, largest single difference or None); the worst frame of each of
# the scene's benchmarks must stay within all three
TOLERANCE = {
    "build": ("llvmpipe", 0.01, 1.0, None),
    "texture": ("llvmpipe", 0.02, 1.0, None),       # mipmap: level blends along texel edges
    "shading": ("llvmpipe", 0.01, 1.0, None),
    "bump": ("llvmpipe", 0.01, 1.0, None),
    "effect2d": ("llvmpipe", 0.01, 1.0, None),
    "pulsar": ("llvmpipe", 0.01, 1.0, None),
    "desktop": ("llvmpipe", 0.01, 1.0, None),
    "buffer": ("llvmpipe", 0.01, 1.0, None),
    "ideas": ("llvmpipe", 0.01, 1.0, None),
    "jellyfish": ("llvmpipe", 0.01, 1.0, None),
    "shadow": ("llvmpipe", 0.01, 1.0, None),
    "conditionals": ("llvmpipe-fp32", 0.01, 1.0, None),
    "function": ("llvmpipe-fp32", 0.01, 1.0, None),
    "loop": ("llvmpipe-fp32", 0.01, 1.0, None),
    "terrain": ("llvmpipe-fp32", 0.30, 3.0, 16),
    "refract": ("llvmpipe-fp32", 0.10, 2.0, None),
}

MESA_VARIANTS = {
    "llvmpipe": {},
    "llvmpipe-fp32": {"GALLIUM_OVERRIDE_CPU_CAPS": "sse4.1", "GALLIVM_PERF": "no_aos_sampling"},
}


def _tool(name):
    exe = shutil.which(name)
    if exe is None:
        pytest.skip(f"{name} is not installed")
    return exe


@pytest.fixture(scope="module")
def display():
    yield from xvfb_display()


@pytest.fixture(scope="module")
def environments(display):
    """(shimgl's environment, Mesa's environment) for programs under Xvfb."""
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    shim = dict(clean_env(), **paths.environment({"DISPLAY": display}))
    shim.update(DISPLAY=display, WAFFLE_PLATFORM="x11_egl")
    mesa = {k: v for k, v in shim.items()
            if k not in ("__GLX_VENDOR_LIBRARY_NAME", "__EGL_VENDOR_LIBRARY_FILENAMES")}
    return shim, mesa


def _replay(trace, env) -> list[np.ndarray]:
    from tests.driver.abi.test_x11 import _pnm_frames
    res = subprocess.run([_tool("eglretrace"), "-s", "-", str(trace)], env=env, capture_output=True,
                         timeout=3600)
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-2000:]
    return _pnm_frames(res.stdout)


@pytest.fixture(scope="module")
def replays(environments, tmp_path_factory):
    """The benchmarks' names in order and each renderer's frames of one trace
    recorded on llvmpipe."""
    if platform.machine() not in ("x86_64", "AMD64", "i686"):
        pytest.skip("llvmpipe keeps float16 on this CPU (GALLIUM_OVERRIDE_CPU_CAPS caps x86 features only)")
    shim_env, mesa_env = environments
    glmark2, apitrace = _tool("glmark2-es2"), _tool("apitrace")
    trace = tmp_path_factory.mktemp("glmark2") / "glmark2.trace"
    res = subprocess.run([apitrace, "trace", "--api", "egl", "-o", str(trace), glmark2,
                          "-s", "%dx%d" % SIZE, "-b", f":nframes={FRAMES_PER_BENCHMARK}"],
                         env=mesa_env, capture_output=True, text=True, timeout=1200)
    assert res.returncode == 0 and trace.exists(), res.stdout[-2000:] + res.stderr[-2000:]
    if "llvmpipe" not in res.stdout:
        pytest.skip("glmark2-es2 did not run on llvmpipe under apitrace:\n" + res.stdout[-500:])
    benchmarks = re.findall(r"^\[(\w+)\] (.*?): FPS", res.stdout, re.M)
    frames = {name: _replay(trace, dict(mesa_env, **extra)) for name, extra in MESA_VARIANTS.items()}
    frames["shimgl"] = _replay(trace, shim_env)
    return benchmarks, frames


def _difference(ours: np.ndarray, ref: np.ndarray) -> tuple[float, float, int]:
    d = np.abs(ours.astype(int) - ref.astype(int)).max(axis=2)
    return float((d > DIFF_THRESHOLD).mean()), float(d.mean()), int(d.max())


def test_every_scene_within_its_tolerance(replays):
    benchmarks, frames = replays
    assert {scene for scene, _ in benchmarks} == set(TOLERANCE), benchmarks
    n = len(benchmarks) * FRAMES_PER_BENCHMARK
    for name, shots in frames.items():
        assert len(shots) == n, (name, len(shots), n)
        assert all(s.shape == (SIZE[1], SIZE[0], 3) for s in shots), name
    report, failures = [], []
    for i, (scene, options) in enumerate(benchmarks):
        ref_name, max_share, max_mean, max_abs = TOLERANCE[scene]
        worst = {ref: (0.0, 0.0, 0) for ref in MESA_VARIANTS}
        for f in range(i * FRAMES_PER_BENCHMARK, (i + 1) * FRAMES_PER_BENCHMARK):
            for ref in MESA_VARIANTS:
                got = _difference(frames["shimgl"][f], frames[ref][f])
                worst[ref] = tuple(max(a, b) for a, b in zip(worst[ref], got))
        share, mean, biggest = worst[ref_name]
        report.append(f"[{scene}] {options}: " + "; ".join(
            f"{ref} {s:.2%} mean {m:.2f} max {b}" for ref, (s, m, b) in worst.items()))
        if share > max_share or mean > max_mean or (max_abs is not None and biggest > max_abs):
            failures.append(report[-1])
    print("\n".join(report))
    assert not failures, "\n".join(failures)
