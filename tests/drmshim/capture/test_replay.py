"""shimgl replay: captured submissions re-run on a fresh kernel reproduce their results."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import drmshim
from drmshim.capture import read_file
from drmshim.capture.replay import Replayer, read_back
from tests.drmshim.capture import scene
from tests.drmshim.capture.conftest import submit_and_wait


@pytest.fixture
def toy_default_gpu():
    """Kernels created in the test (the replay's) run the toy GPU by default."""
    drmshim.set_gpu_factory(lambda kernel: scene.ToyGPU())
    yield
    drmshim.set_gpu_factory(None)


def _capture(toy, tmp_path, monkeypatch, cmdbufs, opts="full"):
    kernel, d, vm, queue, handle, cpu = toy
    path = tmp_path / "c.cap"
    monkeypatch.setenv("SHIMGL_CAPTURE", str(path))
    monkeypatch.setenv("SHIMGL_CAPTURE_OPTS", opts)
    for cmdbuf in cmdbufs:
        submit_and_wait(d, queue, cmdbuf)
    monkeypatch.delenv("SHIMGL_CAPTURE")
    return read_file(path), bytes(cpu)


def test_replay_reproduces_memory_bit_for_bit(toy, tmp_path, monkeypatch, toy_default_gpu):
    cpu = toy[5]
    cpu[0x900:0x910] = bytes(range(100, 116))  # memory written before the submit
    capture, after = _capture(toy, tmp_path, monkeypatch, [scene.render_cmd() + scene.compute_cmd()])
    replayer = Replayer(capture)
    try:
        results = replayer.run()
        assert [r.status for r in results] == ["ok"]
        replayed = bytes(read_back(replayer, results[0].vm_key, scene.BASE, scene.SIZE_B))
    finally:
        replayer.close()
    assert replayed == after
    # the submission really did something that the replay had to redo
    assert after[0x1900:0x1910] != bytes(16) and after[0x4000:0x4400] != bytes(0x400)


def test_replay_range_selection_and_feedback(toy, tmp_path, monkeypatch, toy_default_gpu):
    kernel, d, vm, queue, handle, cpu = toy
    fb = d.gem(0x4000)
    cmds = [scene.compute_cmd(feedback_handle=fb, feedback_size=64, feedback_offset=8 * i) for i in range(3)]
    capture, _ = _capture(toy, tmp_path, monkeypatch, cmds)
    replayer = Replayer(capture)
    try:
        results = replayer.run(first=1, last=2)
    finally:
        replayer.close()
    assert [r.position for r in results] == [1, 2]
    assert [r.status for r in results] == ["ok", "ok"]
    import uapi
    assert [f["status"] for r in results for f in r.feedback] == [uapi.DRM_ASAHI_STATUS_COMPLETE] * 2


def test_replay_writes_the_colour_attachment_as_png(toy, tmp_path, monkeypatch, toy_default_gpu):
    capture, after = _capture(toy, tmp_path, monkeypatch, [scene.render_cmd()])
    replayer = Replayer(capture)
    try:
        results = replayer.run(png_dir=str(tmp_path / "png"))
    finally:
        replayer.close()
    assert len(results[0].pngs) == 1
    png = np.asarray(Image.open(results[0].pngs[0]))
    expected = np.frombuffer(after[0x4000:0x4400], np.uint8).reshape(16, 16, 4)
    assert png.shape == (16, 16, 4)
    assert np.array_equal(png, expected)


def test_replay_of_a_non_full_capture_warns(toy, tmp_path, monkeypatch, toy_default_gpu):
    capture, after = _capture(toy, tmp_path, monkeypatch, [scene.compute_cmd()], opts="")
    lines = []
    replayer = Replayer(capture, log=lines.append)
    try:
        results = replayer.run()
        got = bytes(read_back(replayer, results[0].vm_key, scene.BASE + 0x1900, 16))
    finally:
        replayer.close()
    assert any("not 'full'" in line for line in lines)
    # the compute kernel's inputs were referenced, so even this replay reproduces its output
    assert got == after[0x1900:0x1910]


def test_replay_of_a_rendered_frame_with_the_gpu_model(tmp_path, monkeypatch):
    """A frame rendered by the GPU model through SUBMIT, captured, replayed: same bytes, same PNG."""
    import uapi
    from tests.drmshim.kernel.helpers import NONE, Dev, header, private_device

    import drmshim.gpu as model
    if not hasattr(model, "executor_factory"):
        pytest.skip("drmshim.gpu.executor_factory does not exist yet: the GPU model cannot render a frame")
    G = pytest.importorskip("tests.drmshim.pipeline.gpu", reason="the GPU model's scene builder is not there yet")
    drmshim.set_gpu_factory(None)  # the default: the GPU model
    space_B = 1 << 20
    sp = G.Space(space_B)
    W = H = 32
    sc = G.Scene(sp, W, H, clear=(0, 0, 1, 1))
    sc.draw(np.array([[-0.9, -0.8, 0, 1], [0.85, -0.3, 0, 1], [-0.2, 0.9, 0, 1]], np.float32),
            G.constant_fs((1, 0, 0, 1)))
    feedback_handle = 2  # the second object the fresh file below creates
    fw = sc.command(feedback_handle=feedback_handle, feedback_size=64)
    payload = bytes(uapi.ffi.buffer(uapi.ffi.addressof(fw.cmd)))
    cmdbuf = header(uapi.DRM_ASAHI_CMD_RENDER, payload, NONE, NONE)

    monkeypatch.setenv("SHIMGL_CAPTURE", str(tmp_path / "frame.cap"))
    monkeypatch.setenv("SHIMGL_CAPTURE_OPTS", "full")
    kernel, path = private_device()
    d = Dev(path)
    try:
        vm = d.vm()
        handle = d.gem(space_B)
        feedback = d.gem(0x4000)
        assert feedback == feedback_handle
        cpu = d.map(handle, space_B)
        cpu[:] = sp.mem.bytes.tobytes()
        d.bind(vm, handle, G.BASE, space_B)
        queue = d.ioctl("ASAHI_QUEUE_CREATE", vm_id=vm, priority=uapi.DRM_ASAHI_PRIORITY_MEDIUM,
                        usc_exec_base=G.BASE).queue_id
        submit_and_wait(d, queue, cmdbuf)
        target = sc.target
        start = target.va - G.BASE
        frame = bytes(cpu[start:start + target.lay.size_B])
        status = int.from_bytes(bytes(d.map(feedback, 0x4000)[:4]), "little")
    finally:
        d.close()
        uapi.unregister_backend(path)
        monkeypatch.delenv("SHIMGL_CAPTURE")
    img = np.frombuffer(frame, np.uint8)[:W * H * 4].reshape(H, W, 4)
    if status != uapi.DRM_ASAHI_STATUS_COMPLETE or not ((img[..., 0] == 255).any() and (img[..., 2] == 255).any()):
        pytest.skip(f"the GPU model did not render the frame (feedback status {status}): nothing to replay")

    capture = read_file(tmp_path / "frame.cap")
    from drmshim.capture.report import decode_text
    text = decode_text(capture)
    for expected in ("USC_PBE", "render target (tile offset 0 B)", "PBE\n", "st_tile.unorm8", "VDM_INDEX_LIST"):
        assert expected in text, expected
    replayer = Replayer(capture)
    try:
        results = replayer.run(png_dir=str(tmp_path / "png"))
        replayed = bytes(read_back(replayer, results[0].vm_key, target.va, target.lay.size_B))
    finally:
        replayer.close()
    assert results[0].status == "ok"
    assert replayed == frame
    assert len(results[0].pngs) == 1
    assert np.array_equal(np.asarray(Image.open(results[0].pngs[0])), img)
