"""shimgl decode: every command stream through the packet table, forgiving of garbage."""

from __future__ import annotations

import os
import struct
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import drmshim
import uapi
from drmshim.firmware import NullExecutor
from drmshim.capture import MappingInfo, MemoryImage, Writer, decode_command, parse_cmdbuf, read_bytes, read_file
from drmshim.capture.replay import Replayer
from drmshim.capture.report import crashdec_text, decode_text
from tests.drmshim.capture import scene
from tests.drmshim.capture.conftest import submit_and_wait
from uapi import packets as P

ffi = uapi.ffi


def _image(data: bytes) -> MemoryImage:
    return MemoryImage([MappingInfo(scene.BASE, len(data), 1, 0)], {1: data})


def _render(**fields):
    return ffi.new("struct drm_asahi_cmd_render *", {"vdm_ctrl_stream_base": scene.BASE, "width_px": 16,
                                                     "height_px": 16, "layers": 1, "samples": 1, **fields})


def _capture_file(toy, tmp_path, monkeypatch) -> bytes:
    kernel, d, vm, queue, handle, cpu = toy
    monkeypatch.setenv("SHIMGL_CAPTURE", str(tmp_path / "c.cap"))
    submit_and_wait(d, queue, scene.render_cmd() + scene.compute_cmd())
    return (tmp_path / "c.cap").read_bytes()


def test_decode_prints_every_stream_by_name(toy, tmp_path, monkeypatch):
    text = decode_text(read_bytes(_capture_file(toy, tmp_path, monkeypatch)))
    for expected in ("=== submit 0", "render command 0", "compute command 1", "vdm_ctrl_stream_base: 0x100000000",
                     "eot.usc: 0x580", "VDM_STATE_UPDATE", "PPP_VIEWPORT", "scale_x: 8.0", "PPP_FRAGMENT_SHADER",
                     "CF_BINDING_HEADER", "VDM_INDEX_LIST", "primitive: TRIANGLES", "VDM_TERMINATE", "CDM_LAUNCH",
                     "grid_x_tg: 2", "CDM_TERMINATE", "USC_UNIFORM", "mov_imm r0, 0xdeadbeef", "stop",
                     "uniforms at 0x100000900", "04030201", "eot program: USC words at 0x100000580",
                     "TEXTURE table at 0x100002000", "address: 0x100004000", "= R8G8B8A8_UNORM)", "1 submits"):
        assert expected in text, expected
    assert "???" not in text


def test_garbage_is_hexdumped_and_the_walk_ends():
    data = bytearray(scene.scene_bytes())
    data[0:12] = b"\xff\xff\xff\xbf" * 3  # three tessellate words (reserved) instead of VDM_STATE
    dec = decode_command("render", _render(), _image(bytes(data)))
    text = "\n".join(dec.lines)
    assert "??? bfffffff  (unknown VDM block type 5)" in text
    assert "VDM_INDEX_LIST" in text  # the walker resynchronised after the garbage


def test_loops_and_programs_without_stop_are_bounded():
    data = bytearray(scene.scene_bytes())
    data[0:12] = P.pack("VDM_STREAM_LINK", target=scene.BASE)  # links to itself
    code = uapi.isa.assemble("mov_imm r0, 0x1") * 4
    data[0x800:0x800 + 0x9000] = (code * (0x9000 // len(code) + 1))[:0x9000]  # no stop for 36 KiB
    data[0x700:0x728] = P.pack("CDM_LAUNCH", pipeline=scene.BASE + 0x780)
    text = "\n".join(decode_command("render", _render(), _image(bytes(data))).lines)
    assert "loop: link to 0x100000000 again" in text
    text = "\n".join(decode_command("compute", ffi.new("struct drm_asahi_cmd_compute *",
                                                       {"cdm_ctrl_stream_base": scene.BASE + 0x700}),
                                    _image(bytes(data))).lines)
    assert "read failed" in text or "no terminating stop" in text or "???" in text


def test_unmapped_stream_reports_the_read_failure():
    dec = decode_command("render", _render(vdm_ctrl_stream_base=0x7000_0000), _image(bytes(scene.scene_bytes())))
    assert "read failed: 0x70000000 is not mapped" in "\n".join(dec.lines)


def test_cmdbuf_parse_is_forgiving():
    good = scene.render_cmd() + scene.compute_cmd()
    entries = parse_cmdbuf(good)
    assert [(e.kind, e.index) for e in entries] == [("render", 0), ("compute", 1)]
    assert [e.kind for e in parse_cmdbuf(good[:20])] == ["render"]
    assert parse_cmdbuf(good[:20])[0].error.startswith("payload of")
    assert parse_cmdbuf(b"\x01\x02")[0].error == "truncated header"
    bogus = struct.pack("<HHHH", 99, 4, 0, 0) + b"abcd" + scene.compute_cmd()
    e = parse_cmdbuf(bogus)
    assert e[0].error == "unknown cmd_type 99" and e[1].kind == "compute"


@settings(max_examples=150, deadline=None)
@given(data=st.binary(min_size=0, max_size=4096), eot=st.integers(0, 0x1000), helper=st.integers(0, 0x1000))
def test_decode_of_random_memory_never_raises(data, eot, helper):
    image = _image(data + bytes(-len(data) % 4 or (4 if not data else 0)))
    dec = decode_command("render", _render(eot={"usc": eot}, vertex_helper={"binary": helper}), image,
                         scene.BASE)
    assert dec.lines
    decode_command("compute", ffi.new("struct drm_asahi_cmd_compute *", {"cdm_ctrl_stream_base": scene.BASE}),
                   image, scene.BASE)


@pytest.fixture(scope="module")
def capture_bytes(tmp_path_factory):
    """A real capture (render + compute, referenced memory) to corrupt."""
    import uapi as _uapi
    from tests.drmshim.kernel.helpers import Dev, private_device

    path = tmp_path_factory.mktemp("corpus") / "c.cap"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SHIMGL_CAPTURE", str(path))
        mp.delenv("SHIMGL_CAPTURE_OPTS", raising=False)
        kernel, dev_path = private_device(gpu=scene.ToyGPU())
        d = Dev(dev_path)
        try:
            vm, queue, handle, cpu = scene.setup(d)
            submit_and_wait(d, queue, scene.render_cmd() + scene.compute_cmd())
        finally:
            d.close()
            _uapi.unregister_backend(dev_path)
    return path.read_bytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_corrupted_capture_files_never_crash_decode(capture_bytes, data):
    """Bytes changed here and there, then cut anywhere: decode prints what it can."""
    raw = bytearray(capture_bytes)
    for _ in range(data.draw(st.integers(1, 8))):
        pos = data.draw(st.integers(0, len(raw) - 1))
        raw[pos] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    text = decode_text(read_bytes(bytes(raw[:cut])))
    assert text.endswith("submits\n")


_json = st.recursive(st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4), max_leaves=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["vm", "queue", "submit", "syncs", "handles", "mappings", "objects_B", "full", "ranges",
                            "seq", "file", "first mapping's va"]), value=_json)
def test_nonsense_json_values_never_crash_decode_crashdec_or_replay(capture_bytes, key, value):
    """Valid framing, nonsense meaning: every tool reports, none raises."""
    cap = read_bytes(capture_bytes)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.cap")
        w = Writer(path)
        for r in cap.records:
            meta = dict(r.meta)
            meta.pop("blobs", None)
            if r.type == "submit" and key != "first mapping's va":
                meta[key] = value
            elif r.type == "submit" and isinstance(meta.get("mappings"), list) and meta["mappings"]:
                meta["mappings"][0] = {**meta["mappings"][0], "va": value}
            w.write(meta, list(r.blobs.items()))
        w.close()
        bad = read_file(path)
    assert decode_text(bad).endswith("submits\n")
    crashdec_text(bad)
    drmshim.set_gpu_factory(lambda kernel: NullExecutor())  # the tools' robustness, not the GPU's
    try:
        replayer = Replayer(bad)
        try:
            results = replayer.run()
        finally:
            replayer.close()
    finally:
        drmshim.set_gpu_factory(None)
    assert len(results) == 1
