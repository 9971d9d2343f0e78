"""The runner's platform for piglit's GLES 1 binaries: they abort on the surfaceless
platform (on Mesa's drivers too), so a binary linked to libpiglitutil_gles1 runs on
x11_egl with the DISPLAY of an Xvfb server the run starts and stops; every other
binary stays on surfaceless_egl. Fake binaries report which platform and display
they were given, and whether that X server accepted a connection."""

from __future__ import annotations

import shutil
import stat
import sys
import textwrap
from pathlib import Path

import pytest

from driver.piglit.runner import needs_x11, run_tests
from driver.piglit.tests import PiglitTest

PROBE = textwrap.dedent("""\
    #!{python}
    # {marker}
    import os, socket
    platform, display = os.environ.get("PIGLIT_PLATFORM"), os.environ.get("DISPLAY", "")
    reachable = False
    if display.startswith(":"):
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect("/tmp/.X11-unix/X" + display[1:])
            reachable = True
        except OSError:
            pass
    ok = (platform == "x11_egl" and reachable) if {wants_x11} else (platform == "surfaceless_egl")
    print(platform, display, reachable)
    print('PIGLIT: {{"result": "%s" }}' % ("pass" if ok else "fail"))
    """)


def _exe(path: Path, marker: str, wants_x11: bool) -> None:
    path.write_text(PROBE.format(python=sys.executable, marker=marker, wants_x11=wants_x11))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_only_gles1_binaries_need_x11(tmp_path):
    _exe(tmp_path / "es1", "linked to libpiglitutil_gles1.so.0", True)
    _exe(tmp_path / "es2", "linked to libpiglitutil_gles2.so.0", False)
    assert needs_x11(str(tmp_path / "es1")) and not needs_x11(str(tmp_path / "es2"))
    assert not needs_x11(str(tmp_path / "missing"))


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="no Xvfb")
def test_gles1_binaries_run_on_x11_egl_under_the_runs_xvfb(tmp_path):
    root = tmp_path / "piglit"
    (root / "bin").mkdir(parents=True)
    _exe(root / "bin" / "es1-test", "libpiglitutil_gles1", True)
    _exe(root / "bin" / "es2-test", "libpiglitutil_gles2", False)
    tests = [PiglitTest("spec/a/es1", "es1-test", ()), PiglitTest("spec/a/es2", "es2-test", ())]
    outcomes = run_tests(root, tests, "llvmpipe", jobs=1, progress=False)
    assert [o.result for o in outcomes] == ["pass", "pass"], [o.message for o in outcomes]
    display = outcomes[0].message.split()[1]
    # the server is stopped at the end of the run
    assert not Path("/tmp/.X11-unix/X" + display[1:]).exists() or not _accepts(display)


def _accepts(display: str) -> bool:
    import socket
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect("/tmp/.X11-unix/X" + display[1:])
        return True
    except OSError:
        return False
    finally:
        s.close()
