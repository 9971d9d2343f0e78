"""SHIMGL_CAPTURE / SHIMGL_CAPTURE_OPTS: what a capture holds, and its options."""

from __future__ import annotations

import numpy as np

from drmshim.capture import CaptureOptions, each_path, read_file
from drmshim.capture.replay import image_of_submit
from tests.drmshim.capture import scene
from tests.drmshim.capture.conftest import submit_and_wait

CMDBUF = scene.render_cmd() + scene.compute_cmd()


def test_options_parse():
    opts, problems = CaptureOptions.parse("full, each,trigger=/tmp/t,bogus")
    assert opts == CaptureOptions(full=True, each=True, trigger="/tmp/t")
    assert len(problems) == 1 and "bogus" in problems[0]
    assert each_path("/a/cap.shimgl", 7) == "/a/cap.0007.shimgl"


def test_no_capture_without_the_variable(toy, tmp_path):
    kernel, d, vm, queue, handle, cpu = toy
    submit_and_wait(d, queue, CMDBUF)
    assert not list(tmp_path.glob("*.cap"))


def test_capture_holds_the_submission_as_the_kernel_saw_it(toy, tmp_path, monkeypatch):
    kernel, d, vm, queue, handle, cpu = toy
    # A second object mapped but referenced by nothing: a default capture skips it.
    other = d.gem(0x4000)
    d.map(other, 0x4000)[:] = b"\xab" * 0x4000
    d.bind(vm, other, scene.BASE + 0x100000, 0x4000)
    path = tmp_path / "c.cap"
    monkeypatch.setenv("SHIMGL_CAPTURE", str(path))
    submit_and_wait(d, queue, CMDBUF)
    f = read_file(path)
    assert f.problems == []
    assert [r.type for r in f.records] == ["header", "submit"]
    assert f.header["kind"] == "capture" and f.header["config"]["name"] == kernel.config.name
    sub = f.records[1]
    assert sub.blobs["cmdbuf"] == CMDBUF
    meta = sub.meta
    assert meta["queue"]["usc_exec_base"] == scene.USC_EXEC_BASE
    assert meta["vm"]["kernel_start"] < meta["vm"]["kernel_end"]
    assert [(m["va"], m["size_B"]) for m in meta["mappings"]] == [(scene.BASE, scene.SIZE_B),
                                                                   (scene.BASE + 0x100000, 0x4000)]
    assert meta["syncs"][0]["direction"] == "out"
    assert meta["full"] is False
    image, problems = image_of_submit(sub)
    assert problems == []
    # the streams, programs, uniforms and index buffer were saved ...
    original = scene.scene_bytes()
    for off, n in ((0x0, 0x48), (0x200, 0x40), (0x400, 0x20), (0x700, 0x2C), (0x800, 10), (0x900, 16), (0xA00, 12)):
        assert image.read_bytes(scene.BASE + off, n) == bytes(original[off:off + n]), hex(off)
    # ... the unreferenced object was not
    assert not image.readable(scene.BASE + 0x100000)


def test_full_capture_saves_objects_once_per_content(toy, tmp_path, monkeypatch):
    kernel, d, vm, queue, handle, cpu = toy
    path = tmp_path / "c.cap"
    monkeypatch.setenv("SHIMGL_CAPTURE", str(path))
    monkeypatch.setenv("SHIMGL_CAPTURE_OPTS", "full")
    submit_and_wait(d, queue, scene.render_cmd())  # renders into the object: its content changes
    submit_and_wait(d, queue, scene.render_cmd())  # same content again: not rewritten
    cpu[0x900] = 0x77
    submit_and_wait(d, queue, scene.render_cmd())
    f = read_file(path)
    types = [r.type for r in f.records]
    assert types.count("submit") == 3
    objects = f.of_type("object")
    # submit 0 saves the scene; submit 1 the object with the image rendered by 0 (rendering it again
    # changes nothing, so submit 2 saves only the CPU's edit)
    assert types == ["header", "object", "submit", "object", "submit", "object", "submit"]
    assert objects[0].blobs["data"] == bytes(scene.scene_bytes())
    last_image, _ = image_of_submit(f.of_type("submit")[2], {(r.meta["id"], r.meta["digest"]): r.blobs["data"]
                                                             for r in objects})
    assert last_image.read_bytes(scene.BASE + 0x900, 1) == b"\x77"


def test_each_writes_one_file_per_submit(toy, tmp_path, monkeypatch):
    kernel, d, vm, queue, handle, cpu = toy
    monkeypatch.setenv("SHIMGL_CAPTURE", str(tmp_path / "c.cap"))
    monkeypatch.setenv("SHIMGL_CAPTURE_OPTS", "each")
    for _ in range(3):
        submit_and_wait(d, queue, scene.compute_cmd())
    files = sorted(tmp_path.glob("c.*.cap"))
    assert len(files) == 3
    for f in files:
        cap = read_file(f)
        assert [r.type for r in cap.records] == ["header", "submit"]
    assert [read_file(f).of_type("submit")[0].meta["seq"] for f in files] == sorted(
        read_file(f).of_type("submit")[0].meta["seq"] for f in files)


def test_trigger_arms_n_submits(toy, tmp_path, monkeypatch):
    kernel, d, vm, queue, handle, cpu = toy
    trigger = tmp_path / "trigger"
    path = tmp_path / "c.cap"
    monkeypatch.setenv("SHIMGL_CAPTURE", str(path))
    monkeypatch.setenv("SHIMGL_CAPTURE_OPTS", f"trigger={trigger}")
    submit_and_wait(d, queue, scene.compute_cmd())  # no trigger file: nothing
    assert not path.exists()
    trigger.write_text("2\n")
    for _ in range(4):
        submit_and_wait(d, queue, scene.compute_cmd())
    assert trigger.read_text() == ""  # consumed
    assert len(read_file(path).of_type("submit")) == 2
    trigger.write_text("-1")
    for _ in range(3):
        submit_and_wait(d, queue, scene.compute_cmd())
    trigger.write_text("0")
    submit_and_wait(d, queue, scene.compute_cmd())
    assert len(read_file(path).of_type("submit")) == 5


def test_capture_waits_for_the_previous_job(toy, tmp_path, monkeypatch):
    """Memory is saved as the GPU will read it: after the queue's earlier work."""
    kernel, d, vm, queue, handle, cpu = toy
    path = tmp_path / "c.cap"
    monkeypatch.setenv("SHIMGL_CAPTURE_OPTS", "full")
    d.submit(queue, scene.compute_cmd())  # not captured, writes uniforms ^ 0x5A at +0x1900
    monkeypatch.setenv("SHIMGL_CAPTURE", str(path))
    submit_and_wait(d, queue, scene.render_cmd())
    f = read_file(path)
    data = f.of_type("object")[0].blobs["data"]
    expected = (np.frombuffer(scene.UNIFORMS, np.uint8) ^ 0x5A).astype(np.uint8)
    expected[0] += 2
    assert data[0x1900:0x1910] == expected.tobytes()
