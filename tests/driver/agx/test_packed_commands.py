"""A batch's SUBMIT bytes from kept parts: the packed RENDER fields remembered with
the context's constants (each batch writes its own VDM stream and feedback words into
them), the feedback records from the context's ring of slots, packed headers and
attachment lists, and the clear colours' register words. Each is checked against the
same bytes packed afresh from the fields (cffi, the UAPI's struct), and against a
stale copy: a change of any input must give other bytes."""

import struct

import numpy as np
import pytest

import uapi
from driver.agx.batch import FEEDBACK_B
from driver.agx.device import Command
from driver.agx.pipe import AgxScreen, _clear_words
from driver.gallium import (FramebufferState, PipeBind, PipeClear, PipeFormat, PipeTextureTarget,
                            ResourceTemplate, Surface, PIPE_TIMEOUT_INFINITE)

ffi = uapi.ffi


@pytest.fixture(scope="module")
def screen():
    s = AgxScreen()
    yield s
    s.destroy()


def target(screen, w, h, fmt=PipeFormat.R8G8B8A8_UNORM):
    return screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_2D, fmt, w, h,
                                                   bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW))


def _render_fresh(batch, cmd: Command) -> bytes:
    """The RENDER payload packed from the batch's fields built afresh (no memo), with
    the feedback words the batch's command names (read back with cffi)."""
    got = ffi.from_buffer("struct drm_asahi_cmd_render *", cmd.payload)
    fields = batch._render_fields(batch)
    fields.update(feedback_handle=got.feedback_handle, feedback_size=got.feedback_size,
                  feedback_offset=got.feedback_offset)
    if batch.vdm:
        fields["vdm_ctrl_stream_base"] = got.vdm_ctrl_stream_base
    return Command.render(fields, cmd.vdm_barrier, cmd.cdm_barrier).payload


def _clear_batch(ctx, fb, color):
    ctx.set_framebuffer_state(fb)
    ctx.clear(PipeClear.COLOR0, None, color, 1.0, 0)
    return ctx.render_batch()


def test_kept_render_payload_is_the_fresh_one(screen):
    ctx = screen.context_create()
    a, b = target(screen, 32, 32), target(screen, 32, 32)
    fb_a = FramebufferState(32, 32, cbufs=(Surface(a, PipeFormat.R8G8B8A8_UNORM),))
    fb_b = FramebufferState(32, 32, cbufs=(Surface(b, PipeFormat.R8G8B8A8_UNORM),))
    seen = []
    # the same inputs twice (the second from the memo), then one input changed at a time
    for fb, color in ((fb_a, (1.0, 0.0, 0.0, 1.0)), (fb_a, (1.0, 0.0, 0.0, 1.0)),
                      (fb_a, (0.0, 1.0, 0.0, 1.0)), (fb_b, (0.0, 1.0, 0.0, 1.0)), (fb_a, (1.0, 0.0, 0.0, 1.0))):
        batch = _clear_batch(ctx, fb, color)
        cmds = batch.commands()
        assert [c.cmd_type for c in cmds] == [uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, uapi.DRM_ASAHI_CMD_RENDER]
        assert cmds[1].payload == _render_fresh(batch, cmds[1])
        res = fb.cbufs[0].resource
        assert cmds[0].payload == bytes(ffi.buffer(ffi.new("struct drm_asahi_attachment *",
                                                           {"pointer": res.va, "size": res.alloc_B})))
        head = ffi.new("struct drm_asahi_cmd_header *", {"cmd_type": cmds[1].cmd_type, "size": len(cmds[1].payload),
                                                         "vdm_barrier": cmds[1].vdm_barrier,
                                                         "cdm_barrier": cmds[1].cdm_barrier})
        assert cmds[1].encode() == bytes(ffi.buffer(head)) + cmds[1].payload
        seen.append(cmds[1].payload[:240])          # the fields before the feedback words
        ctx._flush_batch(batch)                     # (commands() again: fresh feedback slots)
        screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    assert seen[0] == seen[1] == seen[4]            # kept
    assert seen[2] != seen[0] and seen[3] != seen[2]    # a colour, a target: other bytes


def test_vdm_stream_and_feedback_are_each_batch_s_own(screen):
    """A batch with draws: the kept fields get its VDM stream address; two batches in
    flight never share a feedback slot."""
    ctx = screen.context_create()
    rt = target(screen, 16, 16)
    fb = FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),))
    batch = _clear_batch(ctx, fb, (0.0, 0.0, 1.0, 1.0))
    batch.vdm += b"\0" * 8                          # (never submitted: only its bytes are read)
    cmd = batch.commands()[-1]
    got = ffi.from_buffer("struct drm_asahi_cmd_render *", cmd.payload)
    assert got.vdm_ctrl_stream_base != 0 and cmd.payload == _render_fresh(batch, cmd)
    first = batch.feedback_slots[0]
    again = batch.commands()
    assert batch.feedback_slots[0][1:] != first[1:]  # the first slot is still taken (not retired)
    assert again[-1].payload[240:] != cmd.payload[240:]
    del batch.vdm[:]                                # a plain clear again, as submitted
    screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    assert ctx.last_submission.feedback[0]["status"] == "COMPLETE"


def test_feedback_slots_are_zeroed_and_reused_after_a_fault(screen):
    """A faulting clear writes its slot; the slot comes back, and the next clear that
    takes it reads a clean record: one fault reported, not two."""
    ctx = screen.context_create()
    rt = target(screen, 16, 16)
    fb = FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),))
    rt.bo.device.unbind(rt.bo.va, rt.bo.size_B)
    _clear_batch(ctx, fb, (1.0, 0.0, 0.0, 1.0))
    with pytest.warns(RuntimeWarning, match="fault"):
        screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    rt.bo.device.bind(rt.bo.handle, rt.bo.va, rt.bo.size_B)
    slot = ctx.last_submission.feedback_slots[0][1:]
    for _ in range(3):
        _clear_batch(ctx, fb, (0.0, 1.0, 0.0, 1.0))
        screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
        assert ctx.last_submission.feedback[0]["status"] == "COMPLETE"
    assert ctx.stats["faults"] == 1
    assert ctx.last_submission.feedback_slots[0][1:] == slot      # the same record, reused
    bo, off = slot
    record = ffi.from_buffer("struct drm_asahi_cmd_feedback *", bo.map[off:off + FEEDBACK_B])
    assert record.status == uapi.DRM_ASAHI_STATUS_COMPLETE and not record.flags & uapi.DRM_ASAHI_FEEDBACK_FAULT_VALID


def test_released_feedback_slots_take_nothing_back(screen):
    ctx = screen.context_create()
    rt = target(screen, 16, 16)
    fb = FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),))
    _clear_batch(ctx, fb, (0.0, 1.0, 0.0, 1.0))
    ctx.flush()                                  # in flight while the slots are released
    sub = ctx.last_submission
    bo = ctx.feedback.bos[0]
    ctx.feedback.release()
    assert not bo.freed                          # the submission still holds its record's BO
    screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    assert sub.done and sub.feedback[0]["status"] == "COMPLETE"
    assert ctx.feedback._free == []              # nothing given back after the release


def test_clear_words_are_kept_by_exact_bits():
    """-0.0 equals 0.0 (a dict key would merge them) but clears to another word."""
    f32 = "R32G32B32A32_FLOAT"
    assert _clear_words(f32, (0.0, 0.5, 1.0, 1.0)) == (0, 0x3F000000, 0x3F800000, 0x3F800000)
    assert _clear_words(f32, (-0.0, 0.5, 1.0, 1.0))[0] == 0x80000000
    assert _clear_words(f32, (0.0, 0.5, 1.0, 1.0))[0] == 0
    # integer formats: clamped to the channel's range, an integer 1 and a float 1.0 alike
    assert _clear_words("R8G8B8A8_SINT", (300, -300, 1, 1.0)) == (127, (-128) & 0xFFFFFFFF, 1, 1)
    assert _clear_words("R8G8B8A8_UINT", (300, -3, 1, 2)) == (255, 0, 1, 2)
    got = _clear_words(f32, (0.1, 0.2, 0.3, 0.4))
    assert got == tuple(int(w) for w in np.array([0.1, 0.2, 0.3, 0.4], np.float32).view(np.uint32))
    assert struct.unpack("<4f", struct.pack("<4I", *got)) == tuple(np.float32([0.1, 0.2, 0.3, 0.4]))
