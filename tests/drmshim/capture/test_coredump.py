"""Core dumps on GPU faults, and shimgl crashdec's estimate of where the GPU stopped."""

from __future__ import annotations

import pytest

import uapi
from drmshim.capture import read_file
from drmshim.capture.report import crashdec_text
from tests.drmshim.capture import scene
from tests.drmshim.capture.conftest import submit_and_wait

UNMAPPED = scene.BASE + 0x200000  # nothing is mapped there


def _faulting_scene(cpu, *, index_va=None, uniform_va=None) -> None:
    cpu[:] = bytes(scene.scene_bytes(**{k: v for k, v in (("index_va", index_va), ("uniform_va", uniform_va))
                                        if v is not None}))


def test_a_fault_writes_a_core_dump(toy, tmp_path, capfd):
    kernel, d, vm, queue, handle, cpu = toy
    _faulting_scene(cpu, index_va=UNMAPPED + 0x40)
    fb = d.gem(0x4000)
    submit_and_wait(d, queue, scene.compute_cmd() + scene.render_cmd(feedback_handle=fb, feedback_size=uapi.ffi.sizeof("struct drm_asahi_cmd_feedback")))
    feedback = uapi.ffi.new("struct drm_asahi_cmd_feedback *")
    uapi.ffi.memmove(feedback, bytes(d.map(fb, 0x4000)[:uapi.ffi.sizeof(feedback[0])]), uapi.ffi.sizeof(feedback[0]))
    assert feedback.status == uapi.DRM_ASAHI_STATUS_FAULT and feedback.fault_address == UNMAPPED + 0x40
    dumps = list((tmp_path / "dumps").glob("*.dump"))
    assert len(dumps) == 1
    err = capfd.readouterr().err
    assert "GPU fault" in err and str(dumps[0]) in err
    dump = read_file(dumps[0])
    assert dump.problems == []
    assert dump.header["kind"] == "coredump"
    (fault,) = [r.meta for r in dump.of_type("fault")]
    assert fault["address"] == UNMAPPED + 0x40
    assert fault["unit"] == "VDM" and fault["read"] is True and fault["soft"] is False
    assert fault["command_index"] == 1 and fault["kind"] == "render" and fault["command_name"] == "R1"
    assert fault["queue"] == queue
    (sub,) = dump.of_type("submit")
    assert sub.blobs["cmdbuf"].startswith(scene.compute_cmd())


def test_no_dump_without_a_fault(toy, tmp_path):
    kernel, d, vm, queue, handle, cpu = toy
    submit_and_wait(d, queue, scene.render_cmd() + scene.compute_cmd())
    assert not (tmp_path / "dumps").exists() or not list((tmp_path / "dumps").glob("*"))


def test_crashdec_estimates_the_draw_that_used_the_bad_index_buffer(toy, tmp_path):
    kernel, d, vm, queue, handle, cpu = toy
    _faulting_scene(cpu, index_va=UNMAPPED + 0x40)
    submit_and_wait(d, queue, scene.render_cmd())
    (path,) = (tmp_path / "dumps").glob("*.dump")
    text = crashdec_text(read_file(path))
    assert f"GPU FAULT: read of 0x{UNMAPPED + 0x40:x} by VDM" in text
    assert "not mapped" in text
    assert "VDM_INDEX_LIST" in text
    location = text.split("ESTIMATED CRASH LOCATION:")[1].splitlines()[0]
    assert location.strip() == f"VDM stream block VDM_INDEX_LIST at 0x{scene.BASE + 0x18:x}"
    assert "index_buffer" in text.split("ESTIMATED CRASH LOCATION:")[1]
    # the marker also sits in the decoded stream, right before the block
    marked = text.split("-----> ESTIMATED CRASH LOCATION\n")[1].splitlines()[0]
    assert marked.strip() == f"0x{scene.BASE + 0x18:010x}: VDM_INDEX_LIST"


def test_crashdec_points_at_the_launch_whose_uniforms_faulted(toy, tmp_path):
    kernel, d, vm, queue, handle, cpu = toy
    # uniforms just past the end of the scene object: the same launch reads them
    _faulting_scene(cpu, uniform_va=scene.BASE + scene.SIZE_B + 0x10)
    submit_and_wait(d, queue, scene.compute_cmd())
    (path,) = (tmp_path / "dumps").glob("*.dump")
    text = crashdec_text(read_file(path))
    assert "by USC" in text
    location = text.split("ESTIMATED CRASH LOCATION:")[1].splitlines()[0]
    assert location.strip() == f"CDM stream block CDM_LAUNCH at 0x{scene.BASE + 0x700:x}"


def test_later_commands_and_the_dump_count(toy, tmp_path, monkeypatch):
    """A faulting command stops; the next command of the submit still runs."""
    kernel, d, vm, queue, handle, cpu = toy
    _faulting_scene(cpu, index_va=UNMAPPED)
    submit_and_wait(d, queue, scene.render_cmd() + scene.compute_cmd())
    assert bytes(cpu[0x1900:0x1901]) != b"\x00"  # the compute command ran
    assert len(list((tmp_path / "dumps").glob("*.dump"))) == 1


def test_crashdec_blames_the_end_of_tile_store_for_a_bad_target():
    """A write fault at an unmapped render target: the eot pipeline's descriptor is the user."""
    from drmshim.capture import MappingInfo, MemoryImage, decode_command, estimate_location
    from uapi import packets as P

    data = bytearray(scene.scene_bytes())
    bad = scene.BASE + 0x400000
    fmt_id = tuple(__import__("layout").FORMATS).index("R8G8B8A8_UNORM")
    data[0x2000:0x2018] = P.pack("TEXTURE", tiling="LINEAR", format_id=fmt_id, width_px=16, height_px=16,
                                 address=bad, linear_stride_B=64)
    image = MemoryImage([MappingInfo(scene.BASE, scene.SIZE_B, 1, 0)], {1: bytes(data)})
    cmd = uapi.ffi.new("struct drm_asahi_cmd_render *", {"vdm_ctrl_stream_base": scene.BASE, "eot": {"usc": 0x580},
                                                         "width_px": 16, "height_px": 16})
    dec = decode_command("render", cmd, image, scene.USC_EXEC_BASE)
    est = estimate_location(dec.blocks, bad + 0x3C0, image.mapping_at)
    assert est.user is not None and est.user.stream == "eot program" and est.user.item.name == "USC_TEXTURE"
    assert est.block is est.user
    # an address nothing references: the last draw
    est = estimate_location(dec.blocks, 0x7777_0000_0000, image.mapping_at)
    assert est.user is None and est.block.item.name == "VDM_INDEX_LIST"


def test_soft_faults_are_dumped_as_soft(tmp_path, monkeypatch):
    from tests.drmshim.kernel.helpers import Dev, private_device

    monkeypatch.setenv("SHIMGL_DUMP_DIR", str(tmp_path / "dumps"))
    kernel, path = private_device(gpu=scene.ToyGPU(), soft_faults=True)
    d = Dev(path)
    try:
        vm, queue, handle, cpu = scene.setup(d)
        cpu[:] = bytes(scene.scene_bytes(index_va=UNMAPPED))
        submit_and_wait(d, queue, scene.render_cmd())
    finally:
        d.close()
        uapi.unregister_backend(path)
    (dump,) = (tmp_path / "dumps").glob("*.dump")
    (fault,) = [r.meta for r in read_file(dump).of_type("fault")]
    assert fault["soft"] is True and fault["address"] == UNMAPPED
    assert fault["status"] == uapi.DRM_ASAHI_STATUS_COMPLETE


def test_crashdec_with_the_gpu_model_finds_the_launch_that_stored_out_of_bounds(tmp_path, monkeypatch):
    """Three launches; the second's output pointer (a uniform) is unmapped. The GPU model
    faults there; the dump's estimate names the second launch, not the last one."""
    import numpy as np

    import drmshim.gpu as model
    from uapi import packets as P
    if not hasattr(model, "executor_factory"):
        pytest.skip("drmshim.gpu.executor_factory does not exist yet")
    G = pytest.importorskip("tests.drmshim.pipeline.gpu", reason="the GPU model's test builders are not there yet")
    from tests.drmshim.kernel.helpers import Dev, compute, private_device

    monkeypatch.setenv("SHIMGL_DUMP_DIR", str(tmp_path / "dumps"))
    space_B = 1 << 20
    sp = G.Space(space_B)
    store = "get_sr r0, thread_position_in_grid.x\nmov_imm r1, 7\ndevice_store.i32 r1, u0_u1, r0, 2, 0\nwait 0\nstop"
    code = sp.program(store)
    outs = [sp.alloc(64), G.BASE + 0x80_0000, sp.alloc(64)]
    launches = [P.pack("CDM_LAUNCH", pipeline=sp.usc(code_va=code, uniforms=G.u64_uniforms(out)), grid_x_tg=1,
                       threadgroup_x_threads=4) for out in outs]
    stream = sp.put(b"".join(launches) + P.pack("CDM_TERMINATE"), 16)
    kernel, path = private_device()
    d = Dev(path)
    try:
        vm = d.vm()
        handle = d.gem(space_B)
        cpu = d.map(handle, space_B)
        cpu[:] = sp.mem.bytes.tobytes()
        d.bind(vm, handle, G.BASE, space_B)
        queue = d.ioctl("ASAHI_QUEUE_CREATE", vm_id=vm, priority=uapi.DRM_ASAHI_PRIORITY_MEDIUM,
                        usc_exec_base=G.BASE).queue_id
        submit_and_wait(d, queue, compute(cdm_ctrl_stream_base=stream))
        first = np.frombuffer(bytes(cpu[outs[0] - G.BASE:outs[0] - G.BASE + 16]), np.uint32)
    finally:
        d.close()
        uapi.unregister_backend(path)
    dumps = list((tmp_path / "dumps").glob("*.dump"))
    if not dumps and not (first == 7).all():
        pytest.skip("the GPU model did not run the launches")
    (dump,) = dumps
    text = crashdec_text(read_file(dump))
    assert f"write of 0x{outs[1]:x}" in text
    location = text.split("ESTIMATED CRASH LOCATION:")[1].splitlines()[0]
    assert location.strip() == f"CDM stream block CDM_LAUNCH at 0x{stream + 40:x}"
    assert "uniform u0_u1 (a pointer?)" in text.split("ESTIMATED CRASH LOCATION:")[1]


def test_the_dump_folder_is_capped_oldest_first(tmp_path):
    """prune_dumps removes the oldest dumps (by modification time) until the rest fit
    the cap, never the one just written nor a file that is not a dump."""
    import os

    from drmshim.capture.coredump import prune_dumps
    paths = []
    for k in range(5):                                   # 5 dumps of 100 B, k = age order
        p = tmp_path / f"shimgl-fault-{900 + k}-0001.dump"
        p.write_bytes(bytes(100))
        os.utime(p, ns=(k * 10**9, k * 10**9))
        paths.append(p)
    other = tmp_path / "notes.txt"
    other.write_bytes(bytes(1000))
    os.utime(other, ns=(0, 0))
    os.utime(paths[2], ns=(-1, -1))                      # the oldest, but the one just written
    removed = prune_dumps(str(tmp_path), 250, keep=str(paths[2]))
    assert sorted(removed) == sorted(str(p) for p in (paths[0], paths[1], paths[3]))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([paths[2].name, paths[4].name, "notes.txt"])
    assert prune_dumps(str(tmp_path), 250) == []         # under the cap: nothing more
    assert prune_dumps(str(tmp_path / "missing"), 0) == []


def test_a_fault_prunes_the_dump_folder_to_its_cap(toy, tmp_path, monkeypatch, capfd):
    """The kernel applies the cap after writing a dump: old dumps beyond
    SHIMGL_DUMP_DIR_MAX_MB are removed, the new one stays."""
    import os
    kernel, d, vm, queue, handle, cpu = toy
    folder = tmp_path / "dumps"
    folder.mkdir(exist_ok=True)
    old = []
    for k in range(3):
        p = folder / f"shimgl-fault-1-{k:04d}.dump"
        p.write_bytes(bytes(400_000))
        os.utime(p, ns=(k * 10**9, k * 10**9))
        old.append(p)
    monkeypatch.setenv("SHIMGL_DUMP_DIR_MAX_MB", "1")           # 1 MiB: room for two old dumps + the new
    _faulting_scene(cpu, index_va=UNMAPPED + 0x40)
    submit_and_wait(d, queue, scene.render_cmd())
    left = sorted(p.name for p in folder.glob("*.dump"))
    new = [n for n in left if n not in {p.name for p in old}]
    assert len(new) == 1
    assert old[0].name not in left                      # the oldest went
    assert sum(p.stat().st_size for p in folder.glob("*.dump")) <= 1 << 20
    assert "oldest core dumps" in capfd.readouterr().err
