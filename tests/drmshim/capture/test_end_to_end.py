"""From the outside: a program run with SHIMGL_CAPTURE, then `shimgl decode` and `shimgl replay`
as commands (the environment as a user sets it, the default kernel behind the seam)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PROGRAM = """
from tests.drmshim.kernel.helpers import Dev
from tests.drmshim.capture import scene
from tests.drmshim.capture.conftest import submit_and_wait
d = Dev()  # /dev/dri/renderD128: the default kernel, found through the seam's entry points
vm, queue, handle, cpu = scene.setup(d)
submit_and_wait(d, queue, scene.compute_cmd())
submit_and_wait(d, queue, scene.compute_cmd())
print(bytes(cpu[0x1900:0x1910]).hex())
"""


def _run(args, env, **kw):
    return subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120, **kw)


@pytest.mark.slow  # three Python processes
def test_capture_decode_and_replay_as_commands(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SHIMGL_CAPTURE": str(tmp_path / "app.cap"),
           "SHIMGL_CAPTURE_OPTS": "full,each", "SHIMGL_DEBUG": "trace"}
    run = _run([sys.executable, "-c", PROGRAM], env)
    assert run.returncode == 0, run.stderr
    assert "shimgl trace: file1 ASAHI_SUBMIT(" in run.stderr
    files = sorted(tmp_path.glob("app.*.cap"))
    assert len(files) == 2
    env = {k: v for k, v in env.items() if not k.startswith("SHIMGL_")}
    shimgl = [sys.executable, "-m", "driver"]
    decode = _run(shimgl + ["decode", str(files[1])], env)
    assert decode.returncode == 0, decode.stderr
    assert "CDM_LAUNCH" in decode.stdout and "1 submits" in decode.stdout
    replay = _run(shimgl + ["replay", str(files[0])], env)
    assert replay.returncode == 0, replay.stderr
    assert "submit 0 (seq 0): ok" in replay.stdout
