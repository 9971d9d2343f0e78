"""piglit's GLX tests (require_platforms glx/mixed_glx_egl) run on the glx
platform under the run's Xvfb, for shimgl (glvnd told to load shimgl's GLX
vendor) and llvmpipe (glvnd asks the server, whose GLX names Mesa) alike,
with -fbo only when piglit runs them concurrently; tests of other platforms
(wgl) stay skips. A fake profile and fake binaries that report their
environment."""

from __future__ import annotations

import gzip
import shutil
import stat
import sys
import textwrap
from pathlib import Path

import pytest

from driver.piglit.profiles import profile_tests
from driver.piglit.runner import run_tests, x11_environment

PROFILE = """<?xml version='1.0' encoding='utf-8'?>
<PiglitTestList count="6" name="fake">
<Test type="gl" name="glx@glx-window"><option name="command" value="['glx-window', '-auto']" />
<option name="run_concurrent" value="False" />
<option name="require_platforms" value="['glx', 'mixed_glx_egl']" /></Test>
<Test type="gl" name="glx@glx-strings"><option name="command" value="['glx-strings']" />
<option name="run_concurrent" value="True" />
<option name="require_platforms" value="['glx', 'mixed_glx_egl']" /></Test>
<Test type="gl" name="wgl@wgl-only"><option name="command" value="['wgl-only']" />
<option name="require_platforms" value="['wgl']" /></Test>
<Test type="gl" name="spec@a@plain"><option name="command" value="['plain']" />
<option name="run_concurrent" value="True" /></Test>
<Test type="gl" name="spec@egl 1.4@egl-window"><option name="command" value="['egl-window']" />
<option name="run_concurrent" value="False" /></Test>
<Test type="gl" name="spec@egl 1.4@egl-surfaceless"><option name="command" value="['egl-surfaceless']" />
<option name="run_concurrent" value="False" /></Test>
</PiglitTestList>
"""

PROBE = textwrap.dedent("""\
    #!{python}
    import os, sys
    env = os.environ
    print(env.get("PIGLIT_PLATFORM"), env.get("DISPLAY", "-"), env.get("__GLX_VENDOR_LIBRARY_NAME", "-"),
          " ".join(sys.argv[1:]))
    print('PIGLIT: {{"result": "pass" }}')
    """)


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "piglit"
    (root / "bin").mkdir(parents=True)
    (root / "tests").mkdir()
    with gzip.open(root / "tests" / "fake.xml.gz", "wt") as f:
        f.write(PROFILE)
    for name in ("glx-window", "glx-strings", "wgl-only", "plain", "egl-window", "egl-surfaceless"):
        exe = root / "bin" / name
        # an EGL test built on piglit's egl-util calls XOpenDisplay itself
        marker = "# XOpenDisplay\n" if name == "egl-window" else ""
        exe.write_text(PROBE.format(python=sys.executable) + marker)
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return root


def test_glx_tests_get_the_glx_platform_and_piglits_fbo_rule(tmp_path):
    tests = {t.path: t for t in profile_tests(_root(tmp_path), "fake")}
    assert tests["glx/glx-window"].platform == "glx" and not tests["glx/glx-window"].skip
    assert tests["glx/glx-window"].args == ("-auto",)                 # not concurrent: a window
    assert tests["glx/glx-strings"].args == ("-auto", "-fbo")          # concurrent: -fbo, as piglit
    assert tests["wgl/wgl-only"].skip and tests["wgl/wgl-only"].platform == ""
    assert tests["spec/a/plain"].platform == "" and not tests["spec/a/plain"].skip
    # EGL tests that open the X display themselves: x11_egl, no -fbo when serial (as piglit)
    assert (tests["spec/egl 1.4/egl-window"].platform, tests["spec/egl 1.4/egl-window"].args) == \
        ("x11_egl", ("-auto",))
    assert tests["spec/egl 1.4/egl-surfaceless"].platform == ""


def test_the_default_egl_display_is_surfaceless_for_both_drivers_off_x11():
    from driver.piglit.runner import driver_environment
    assert driver_environment("llvmpipe", {})["EGL_PLATFORM"] == "surfaceless"
    assert "EGL_PLATFORM" not in x11_environment({"EGL_PLATFORM": "surfaceless"}, "llvmpipe", "x11_egl", ":7")


def test_the_glx_vendor_is_shimgls_only_for_the_shimgl_run():
    base = {"PIGLIT_PLATFORM": "surfaceless_egl", "__GLX_VENDOR_LIBRARY_NAME": "stale"}
    shimgl = x11_environment(base, "shimgl", "glx", ":7")
    llvmpipe = x11_environment(base, "llvmpipe", "glx", ":7")
    assert (shimgl["PIGLIT_PLATFORM"], shimgl["DISPLAY"], shimgl["__GLX_VENDOR_LIBRARY_NAME"]) == \
        ("glx", ":7", "shimgl")
    assert llvmpipe["PIGLIT_PLATFORM"] == "glx" and "__GLX_VENDOR_LIBRARY_NAME" not in llvmpipe


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="no Xvfb")
def test_glx_tests_run_under_the_runs_xvfb(tmp_path):
    root = _root(tmp_path)
    tests = profile_tests(root, "fake")
    outcomes = {o.path: o for o in run_tests(root, tests, "llvmpipe", jobs=1, progress=False)}
    platform, display, vendor, args = (outcomes["glx/glx-window"].message.split(" ", 3) + [""])[:4]
    assert (platform, vendor, args) == ("glx", "-", "-auto") and display.startswith(":")
    assert outcomes["spec/a/plain"].message.split()[:2] == ["surfaceless_egl", "-"]
    assert outcomes["wgl/wgl-only"].result == "skip"
    assert outcomes["spec/egl 1.4/egl-window"].message.split()[0] == "x11_egl"
