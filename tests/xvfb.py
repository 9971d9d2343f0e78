"""A virtual X server for the tests of X11 programs (GLX, SDL, GLFW windows)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest


def xvfb_display():
    """Yield the ``DISPLAY`` of a new Xvfb (640x480, 24 bits), stopped afterwards;
    the test is skipped with the reason when Xvfb is missing or does not start.
    Use as a fixture body: ``yield from xvfb_display()``."""
    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen([exe, "-displayfd", str(write_fd), "-screen", "0", "640x480x24",
                             "-nolisten", "tcp"], pass_fds=(write_fd,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        pytest.skip("Xvfb did not start")
    yield f":{number}"
    proc.terminate()
    proc.wait(timeout=30)
