"""Tile memory starts zeroed for what a pass can read: a background program that
leaves bytes of the record unwritten (here the second word of an 8-byte record)
must see zeros there even when the firmware thread's reused buffer held other
bytes; one that writes every byte of every record (a clear of the whole record)
needs no zeroing (``render._writes_every_record``)."""

from __future__ import annotations

import numpy as np

from drmshim.gpu.pipeline import Executor, render

from .gpu import Scene, Space, constant_fs, u64_uniforms


def _record_word_eot(space: Space, W: int, H: int, offset_B: int) -> tuple[int, int]:
    """An end-of-tile program storing each pixel's 32-bit record word at ``offset_B``."""
    buf = space.alloc(4 * W * H)
    asm = "\n".join(["get_sr r4, pixel_x", "get_sr r5, pixel_y", f"mov_imm r7, {W}", "imad r8, r5, r7, r4",
                     f"ld_tile.i32 r9, {offset_B}", "device_store.i32 r9, u0_u1, r8, 2, 0", "wait 0", "stop"])
    return space.usc(asm, uniforms=u64_uniforms(buf)), buf


def test_bytes_no_program_writes_read_as_zero_after_a_dirty_buffer(monkeypatch):
    W, H = 64, 48
    # the thread's tile memory as a previous group left it: nothing but 0xAB
    monkeypatch.setattr(render._THREAD, "tile", np.full(1 << 20, 0xAB, np.uint8), raising=False)
    sp = Space()
    sc = Scene(sp, W, H, clear=(0.5, 0.25, 1.0, 1.0))
    sc.eot, buf = _record_word_eot(sp, W, H, 4)
    sc.draw(np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1]], np.float32), constant_fs((1, 0, 0, 1)))
    sc.render(Executor(), sample_size_B=8)
    np.testing.assert_array_equal(sp.get(buf, W * H, np.uint32), 0)
    assert (render._THREAD.tile[:W * H * 8].reshape(-1, 8)[:, 4:] == 0).all()


def test_a_background_that_writes_whole_records_needs_no_zeroing():
    sp = Space()
    sc = Scene(sp, 32, 32)
    cmd = sc.command()
    core = Executor().core(cmd)
    assert render._writes_every_record(core, cmd, sc.bg, 4, {})           # RGBA8 at 0 of 4 bytes
    assert not render._writes_every_record(core, cmd, sc.bg, 8, {})       # 4 of 8 bytes
    assert not render._writes_every_record(core, cmd, 0, 4, {})           # no program
    load = sp.usc("\n".join(["get_sr r4, pixel_x", "mov r8, r4", "st_tile.i32 r8, 0, 1", "stop"]))
    assert render._writes_every_record(core, cmd, load, 4, {})            # lane-varying, whole word
    blend = sp.usc("\n".join(["ld_tile.i32 r8, 0", "st_tile.i32 r8, 0, 1", "stop"]))
    assert not render._writes_every_record(core, cmd, blend, 4, {})       # reads the record first
