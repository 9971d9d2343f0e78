"""Fixtures for the capture tests: a private kernel running the toy GPU."""

from __future__ import annotations

import pytest

import uapi
from tests.drmshim.capture import scene
from tests.drmshim.kernel.helpers import Dev, private_device


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """``(kernel, dev, vm, queue, handle, cpu)`` on a fresh kernel with the toy GPU;
    core dumps go to ``tmp_path / "dumps"``."""
    monkeypatch.setenv("SHIMGL_DUMP_DIR", str(tmp_path / "dumps"))
    monkeypatch.delenv("SHIMGL_CAPTURE", raising=False)
    monkeypatch.delenv("SHIMGL_CAPTURE_OPTS", raising=False)
    kernel, path = private_device(gpu=scene.ToyGPU())
    d = Dev(path)
    vm, queue, handle, cpu = scene.setup(d)
    yield kernel, d, vm, queue, handle, cpu
    d.close()
    uapi.unregister_backend(path)


def submit_and_wait(d, queue, cmdbuf: bytes) -> None:
    s = d.syncobj()
    d.submit(queue, cmdbuf, out_syncs=[s])
    d.wait([s], timeout_s=120.0)          # a deadline, not a timing: the first job builds code (loaded machine)
