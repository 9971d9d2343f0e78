"""Windows on X11 under Xvfb: EGL's X11 platform and GLX (glvnd's libGLX with
__GLX_VENDOR_LIBRARY_NAME=shimgl), read back from the X server; the system's
es2_info, glxinfo, es2gears_x11, glxgears and glmark2-es2 run unchanged and
report shimgl. Skipped with the reason when Xvfb (or the program) is absent."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.driver.abi.conftest import PY_DIR, run
from tests.xvfb import xvfb_display


@pytest.fixture(scope="module")
def xvfb():
    yield from xvfb_display()


@pytest.fixture
def x_env(xvfb, shimgl_env):
    from driver.abi import paths
    return dict(shimgl_env, **paths.environment({"DISPLAY": xvfb}), DISPLAY=xvfb)


def _tool(name):
    exe = shutil.which(name)
    if exe is None:
        pytest.skip(f"{name} is not installed")
    return exe


@pytest.mark.parametrize("api", ["egl", "glx"])
def test_window_drawn_and_presented(api, x_env):
    """Clear + scissored clear, swap, the X server's pixels; the surface follows
    a resize; a bad window and an unsupported version are the errors the
    specifications name."""
    res = run([sys.executable, PY_DIR / "x11_window.py", api], x_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("0 failures")
    assert "internal error" not in res.stderr


def test_glx_behaviours_piglit_checks(build_host, x_env):
    """c/glx_platform.c: pixmaps of every FBConfig (two GLX pixmaps of one X
    pixmap, rendering landing in it), single- and double-buffered visuals,
    GL_FRONT kept across windows, a GL 3.0 context current without drawables,
    GLXWindow lifetimes, glXCreateContextAttribsARB's errors, GLX_MESA_query_renderer."""
    exe = build_host("glx_platform", "-lGL", "-lX11")
    res = run([exe], x_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("0 failures")
    assert "internal error" not in res.stderr


def test_multisampled_glx_window(x_env):
    """GLX_SAMPLES 4 FBConfigs (no visual promises samples); a window of one is
    presented resolved (py/x11_multisample.py: coverage against the area)."""
    res = run([sys.executable, PY_DIR / "x11_multisample.py"], x_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("0 failures")
    assert "internal error" not in res.stderr


def test_glxinfo(x_env):
    res = run([_tool("glxinfo"), "-B"], x_env)
    assert res.returncode == 0, res.stderr
    assert "OpenGL renderer string: shimgl" in res.stdout
    assert "direct rendering: Yes" in res.stdout
    assert re.search(r"OpenGL core profile version string: 4\.\d", res.stdout)


def test_es2_info(x_env):
    res = run([_tool("es2_info")], x_env)
    assert res.returncode == 0, res.stderr
    assert "GL_RENDERER: shimgl" in res.stdout and "EGL_VENDOR: shimgl" in res.stdout


def _first_fps_line(cmd, env, deadline_s=600):
    """Run a demo (it runs until killed) until it prints its first "N frames
    in S seconds" line (after 5 s of frames), then stop it; the line, or None
    if the deadline (generous: a loaded machine) passes first."""
    import select
    import time
    proc = subprocess.Popen(["stdbuf", "-oL", *cmd], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    end = time.monotonic() + deadline_s
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([proc.stdout], [], [], 5)
            if not ready:
                if proc.poll() is not None:
                    return None
                continue
            line = proc.stdout.readline()
            if not line:
                return None
            print(line, end="")
            if re.search(r"\d+ frames in", line):
                return line
        return None
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("demo", ["glxgears", "es2gears_x11"])
def test_gears(demo, x_env):
    line = _first_fps_line([_tool(demo)], x_env)
    assert line is not None and int(re.search(r"(\d+) frames", line).group(1)) > 0, line


@pytest.mark.slow
def test_glmark2_es2(x_env):
    res = run([_tool("glmark2-es2"), "-s", "160x120", "-b", "clear:duration=2",
               "-b", "build:duration=2"], x_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "GL_RENDERER:    shimgl" in res.stdout
    assert re.search(r"glmark2 Score: \d+", res.stdout)


# glmark2 2023.01's default benchmark list: 33 runs of these 16 scenes
GLMARK2_DEFAULT_SCENES = ("build", "texture", "shading", "bump", "effect2d", "pulsar", "desktop",
                          "buffer", "ideas", "jellyfish", "terrain", "shadow", "refract",
                          "conditionals", "function", "loop")


@pytest.mark.slow
def test_glmark2_es2_every_default_scene(x_env):
    """Every scene of glmark2-es2's default list runs (one frame each, the
    empty-scene option applying to all of them): none is "Unsupported" (buffer
    needs GL_OES_mapbuffer; shadow and refract GL_OES_depth_texture) and none
    logs an error (the buffer scene's shader source length check)."""
    res = run([_tool("glmark2-es2"), "-s", "96x64", "-b", ":nframes=1"], x_env)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    ran = re.findall(r"^\[(\w+)\] .*: FPS: \d+", res.stdout, re.M)
    assert len(ran) >= 33 and set(ran) == set(GLMARK2_DEFAULT_SCENES), out
    assert "Unsupported" not in out and "Error" not in out, out


def _pnm_frames(data: bytes) -> list:
    """The binary PPM (P6, maxval 255) images glretrace writes to stdout with
    `-s -`, as (height, width, 3) arrays."""
    import numpy as np
    frames, pos = [], 0
    while True:
        pos = data.find(b"P6\n", pos)
        if pos < 0:
            return frames
        fields, end = [], pos + 3
        while len(fields) < 3:                   # width, height, maxval; '#' comments
            line_end = data.index(b"\n", end)
            line = data[end:line_end].split(b"#")[0].split()
            fields += [int(v) for v in line]
            end = line_end + 1
        w, h, _ = fields
        frames.append(np.frombuffer(data, np.uint8, w * h * 3, end).reshape(h, w, 3))
        pos = end + w * h * 3


def _record_on_llvmpipe(x_env, tmp_path, api, program) -> tuple[dict, "Path"]:
    """Mesa's environment (no shimgl vendor) and a trace of `program` recorded on
    llvmpipe under it, cut to its first four frames."""
    import time
    apitrace = _tool("apitrace")
    mesa_env = {k: v for k, v in x_env.items()
                if k not in ("__GLX_VENDOR_LIBRARY_NAME", "__EGL_VENDOR_LIBRARY_FILENAMES")}
    full, short = tmp_path / "full.trace", tmp_path / "short.trace"
    rec = subprocess.Popen([apitrace, "trace", "--api", api, "-o", full, *program],
                           env=mesa_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not full.exists() or full.stat().st_size < 200_000):
        time.sleep(0.5)                          # some hundred frames recorded
    rec.terminate()
    rec.wait(timeout=60)
    res = run([apitrace, "trim", "--frames=0-3", "-o", short, full], mesa_env)
    assert res.returncode == 0 and short.exists(), res.stdout + res.stderr
    return mesa_env, short


def _assert_replays_match(retrace, trace, mesa_env, shimgl_env, size):
    """The trace's four frames replayed on llvmpipe and on shimgl: frames 1-3 match
    (frame 0 is left out: llvmpipe's own replay shows an uninitialised or black
    buffer there, before its window resize lands)."""
    frames = {}
    for name, env in (("llvmpipe", mesa_env), ("shimgl", shimgl_env)):
        res = subprocess.run([retrace, "-s", "-", trace], env=env, capture_output=True, timeout=600)
        assert res.returncode == 0, res.stderr.decode(errors="replace")
        frames[name] = _pnm_frames(res.stdout)
    assert len(frames["shimgl"]) == len(frames["llvmpipe"]) == 4
    for i, (ours, mesa) in enumerate(zip(frames["shimgl"][1:], frames["llvmpipe"][1:]), 1):
        assert ours.shape == mesa.shape == (*size, 3), (i, ours.shape, mesa.shape)
        differ = (abs(ours.astype(int) - mesa.astype(int)).max(axis=2) > 2).mean()
        assert differ <= 0.005, f"frame {i}: {differ:.2%} of the pixels differ from llvmpipe's"


@pytest.mark.slow
def test_glretrace_replays_an_llvmpipe_trace(x_env, tmp_path):
    """A glxgears trace recorded on Mesa's llvmpipe (GLX, compatibility profile,
    display lists) replays with glretrace on shimgl's GLX vendor: the window
    follows the replayer's resize and the snapshots match llvmpipe's replay
    (measured: identical)."""
    mesa_env, trace = _record_on_llvmpipe(x_env, tmp_path, "gl",
                                          [_tool("glxgears"), "-geometry", "64x64"])
    _assert_replays_match(_tool("glretrace"), trace, mesa_env, x_env, (64, 64))


@pytest.mark.slow
@pytest.mark.parametrize("waffle_platform", ["glx", "x11_egl"])
def test_eglretrace_replays_an_llvmpipe_trace(waffle_platform, x_env, tmp_path):
    """An es2gears_x11 trace (EGL, GLES 2) recorded on llvmpipe replays with
    eglretrace on shimgl, through waffle's GLX platform (where eglretrace used
    to crash in XGetGeometry: glXGetCurrentDisplay, resolved as a GL function,
    came from a no-op stub) and its x11_egl one; the 300x300 snapshots match
    llvmpipe's (measured: within 1/255)."""
    mesa_env, trace = _record_on_llvmpipe(x_env, tmp_path, "egl", [_tool("es2gears_x11")])
    env = dict(x_env, WAFFLE_PLATFORM=waffle_platform)
    _assert_replays_match(_tool("eglretrace"), trace, dict(mesa_env, WAFFLE_PLATFORM=waffle_platform),
                          env, (300, 300))


@pytest.fixture(scope="module")
def windowing_python(tmp_path_factory):
    """A virtual environment of the user's kind with the glfw wheel (which bundles
    libglfw), pysdl2 + pysdl2-dll (SDL2) and PyOpenGL: pip, as a user installs them."""
    from pathlib import Path
    venv = tmp_path_factory.mktemp("windowing") / "venv"
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([str(base), "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "glfw", "pysdl2", "pysdl2-dll",
                          "PyOpenGL", "numpy"], capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        pytest.skip(f"pip install glfw pysdl2 failed (offline?): {res.stderr.strip()[-300:]}")
    return venv / "bin" / "python"


@pytest.mark.slow
@pytest.mark.parametrize("library,api", [("glfw", "glx"), ("glfw", "egl"), ("sdl", "glx"),
                                         ("sdl", "egl")])
def test_glfw_and_sdl_windows(library, api, windowing_python, x_env):
    """GLFW and SDL open a 3.3 core window on shimgl through GLX and EGL (from
    their own virtual environment): the pixels glfw_sdl_window.py works out by
    hand, and the same as the script prints on Mesa's llvmpipe."""
    script = PY_DIR / "glfw_sdl_window.py"
    res = run([windowing_python, script, library, api], x_env)
    assert res.returncode == 0, res.stdout + res.stderr
    if res.stdout.startswith("skip:"):
        pytest.skip(res.stdout.strip())
    assert "renderer shimgl" in res.stdout, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    want = ["size 64 48", "clear 255 128 64", "square 0 255 0", "centre 60 64 130", "error 0"]
    assert lines[-5:] == want, res.stdout + res.stderr
    mesa_env = {k: v for k, v in x_env.items()
                if k not in ("__GLX_VENDOR_LIBRARY_NAME", "__EGL_VENDOR_LIBRARY_FILENAMES")}
    ref = run([windowing_python, script, library, api], mesa_env)
    if ref.returncode == 0 and "llvmpipe" in ref.stdout:
        assert ref.stdout.splitlines()[-5:] == lines[-5:], ref.stdout


def test_apitrace_multi_context_trace_replays(x_env, tmp_path):
    """apitrace records egl_probe.py (several contexts switched on one surface
    by one thread, then by another) and eglretrace replays it on shimgl
    without an EGL error (it used to stop at EGL_BAD_ACCESS), through waffle's
    x11_egl platform: windows of shimgl's X11 EGL platform."""
    apitrace, eglretrace = _tool("apitrace"), _tool("eglretrace")
    trace = tmp_path / "probe.trace"
    res = run([apitrace, "trace", "--api", "egl", "-o", trace, sys.executable,
               PY_DIR / "egl_probe.py"], x_env)
    assert res.returncode == 0 and trace.exists(), res.stdout + res.stderr
    res = run([eglretrace, trace], dict(x_env, WAFFLE_PLATFORM="x11_egl"))
    assert res.returncode == 0, res.stdout + res.stderr
    out = res.stdout + res.stderr
    assert "EGL_BAD" not in out and "error" not in out.lower(), out


def test_freeglut_window_through_pyopengl(x_env):
    """Pixel (2, 2) of a 64x48 window with the triangle (-1,-1) red, (1,-1)
    green, (-1,1) blue: at the pixel centre (-0.921875, -0.895833) the weights
    are 0.908854, 0.0390625, 0.0520833 -> (232, 10, 13)."""
    import ctypes.util
    if ctypes.util.find_library("glut") is None:
        pytest.skip("freeglut is not installed")
    res = run([sys.executable, PY_DIR / "glut_window.py"], dict(x_env, PYOPENGL_PLATFORM="glx"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "renderer b'shimgl" in res.stdout
    assert "pixel [232, 10, 13, 255]" in res.stdout


@pytest.mark.slow
def test_pyglet_window(x_env, tmp_path):
    """pyglet from its own virtual environment (pip install pyglet): a GLX
    core-profile window with a shader-drawn rectangle."""
    venv = tmp_path / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "pyglet>=2"],
                         capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        pytest.skip(f"pip install pyglet failed (offline?): {res.stderr.strip()[-300:]}")
    res = run([venv / "bin" / "python", PY_DIR / "pyglet_window.py"], x_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "renderer shimgl" in res.stdout
    assert "pixel(6,6) [0, 255, 0, 255] pixel(40,30) [255, 128, 64, 255]" in res.stdout


def test_presenter_shm_and_put_image(x_env):
    """The presenter through MIT-SHM and through XPutImage: the same pixels
    at the X server, rows flipped to X's top-down order."""
    res = run([sys.executable, PY_DIR / "x11_present.py"], x_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "shm True" in res.stdout and res.stdout.rstrip().endswith("OK")


@pytest.mark.slow
def test_pygame_window_matches_llvmpipe(x_env, tmp_path):
    """pygame (SDL2 underneath) + PyOpenGL from their own virtual environment: a
    GLX 3.3 core window, a triangle with interpolated colours; the same image as
    Mesa's llvmpipe running the same script on the same X server (measured:
    identical)."""
    import numpy as np
    venv = tmp_path / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "pygame", "PyOpenGL", "numpy"],
                         capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        pytest.skip(f"pip install pygame failed (offline?): {res.stderr.strip()[-300:]}")
    images = {}
    # as `shimgl env` leaves it with DISPLAY set: PyOpenGL picks GLX itself
    ours_env = {k: v for k, v in x_env.items() if k != "PYOPENGL_PLATFORM"}
    mesa_env = {k: v for k, v in ours_env.items()
                if k not in ("__GLX_VENDOR_LIBRARY_NAME", "__EGL_VENDOR_LIBRARY_FILENAMES")}
    for name, env in (("shimgl", ours_env), ("llvmpipe", mesa_env)):
        out = tmp_path / f"{name}.npy"
        res = run([venv / "bin" / "python", PY_DIR / "pygame_window.py", out], dict(env, SDL_AUDIODRIVER="dummy"))
        assert res.returncode == 0, res.stdout + res.stderr
        assert f"renderer {name}" in res.stdout and res.stdout.rstrip().endswith("OK"), res.stdout
        images[name] = np.load(out).astype(int)
    assert images["shimgl"][..., :3].std() > 10                  # the triangle is there
    assert np.abs(images["shimgl"] - images["llvmpipe"]).max() <= 1
