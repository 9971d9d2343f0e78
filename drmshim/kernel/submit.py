"""SUBMIT: validate a command buffer and its syncs, and build the job.

Sole responsibility: decode ``drm_asahi_submit`` (syncs, then the flat command
buffer of ``drm_asahi_cmd_header`` + payload records) exactly as the kernel
validates it, and turn it into a :class:`~drmshim.kernel.scheduler.Job`. Every
check happens before any state changes, so a malformed submission executes
nothing and changes nothing. Rules:

- flags and pad are zero; the queue exists (ENOENT) and is not guilty of a GPU
  timeout (ECANCELED, as amdgpu refuses work on a guilty context); 1..64
  hardware commands.
- syncs: known type; the handle exists (ENOENT); a binary sync has a zero
  point; an in-sync (and its point) must have a fence (EINVAL).
- each header fits the buffer and its payload is no larger than the struct we
  know (a shorter payload is zero-extended).
- barriers: ``DRM_ASAHI_BARRIER_NONE`` or a boundary no later than the number of
  commands of that kind before this one (a future boundary is EINVAL).
  Attachment records have both barriers NONE.
- render: known flags; 1..16384 px; 1..2048 layers; 1, 2 or 4 samples; uTile
  32x32, 32x16 or 16x16. compute: flags zero. Timestamps name a bound
  timestamp object (ENOENT) and fit it; feedback names a GEM object (ENOENT)
  and fits it, 8-byte aligned.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import uapi
from uapi import packets as P
from uapi.drm import record_format

from ..firmware import Attachment, FirmwareCommand, FirmwareJob
from .errors import check, errno, fail
from .scheduler import Job
from .syncobj import Fence
from .usercopy import array_size, copy_from_user, copy_ranges_from_user

__all__ = ["build_job", "RENDER_FLAGS", "UTILE_SIZES_PX"]

ffi = uapi.ffi
NONE = uapi.DRM_ASAHI_BARRIER_NONE
RENDER_FLAGS = (uapi.DRM_ASAHI_RENDER_VERTEX_SCRATCH | uapi.DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES
                | uapi.DRM_ASAHI_RENDER_NO_VERTEX_CLUSTERING | uapi.DRM_ASAHI_RENDER_DBIAS_IS_INT)
UTILE_SIZES_PX = {(32, 32), (32, 16), (16, 16)}
#: The largest framebuffer side: what the PBE descriptor's width and height fields
#: hold (a render target the PBE cannot describe is refused here, not mis-stored).
MAX_DIMENSION_PX = min(P.PBE.by_name[f].decode((1 << P.PBE.by_name[f].size) - 1) for f in ("width_px", "height_px"))
MAX_LAYERS = 2048
SAMPLE_COUNTS = {1, 2, 4}
HEADER_SIZE_B = ffi.sizeof("struct drm_asahi_cmd_header")
SYNC_SIZE_B = ffi.sizeof("struct drm_asahi_sync")
ATTACHMENT_SIZE_B = ffi.sizeof("struct drm_asahi_attachment")
FEEDBACK_SIZE_B = ffi.sizeof("struct drm_asahi_cmd_feedback")

#: The flat records are decoded with ``struct`` formats derived from the UAPI's own
#: struct layouts (one cffi struct per record cost more than the checks).
_SYNC = record_format("struct drm_asahi_sync")
_HEADER = record_format("struct drm_asahi_cmd_header")
_ATTACHMENT = record_format("struct drm_asahi_attachment")
_SYNCOBJ_TYPES = (uapi.DRM_ASAHI_SYNC_SYNCOBJ, uapi.DRM_ASAHI_SYNC_TIMELINE_SYNCOBJ)
#: cmd_type -> (kind, the payload's C struct, its cffi pointer type, its size, its queue sequence, name prefix)
_PAYLOADS = {
    cmd_type: (kind, ctype, ffi.typeof(f"{ctype} *"), ffi.sizeof(ctype), "compute" if kind == "compute" else "render",
               "C" if kind == "compute" else "R")
    for cmd_type, kind, ctype in (
        (uapi.DRM_ASAHI_CMD_RENDER, "render", "struct drm_asahi_cmd_render"),
        (uapi.DRM_ASAHI_CMD_BLIT, "blit", "struct drm_asahi_cmd_render"),
        (uapi.DRM_ASAHI_CMD_COMPUTE, "compute", "struct drm_asahi_cmd_compute"))
}
_ATTACHMENT_KINDS = {
    uapi.DRM_ASAHI_SET_VERTEX_ATTACHMENTS: "vertex",
    uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS: "fragment",
    uapi.DRM_ASAHI_SET_COMPUTE_ATTACHMENTS: "compute",
}


def _syncs(file, args, raw: bytes | None) -> tuple[list[Fence], list[tuple[object, int, int]], bytes]:
    """Validate the sync array (``raw``: its bytes, if already copied): the in-fences
    to wait for, (syncobj, type, point) outs, and the array's bytes as copied."""
    count = args.in_sync_count + args.out_sync_count
    if raw is None:
        raw = copy_from_user(args.syncs, array_size(count, SYNC_SIZE_B))
    in_fences: list[Fence] = []
    outs = []
    ins = args.in_sync_count
    for i, (sync_type, handle, point) in enumerate(_SYNC.iter_unpack(raw)):
        if sync_type not in _SYNCOBJ_TYPES:
            raise fail(errno.EINVAL, f"sync {i}: unknown sync_type {sync_type}")
        syncobj = file.syncobj(handle)
        if point and sync_type == uapi.DRM_ASAHI_SYNC_SYNCOBJ:
            raise fail(errno.EINVAL, f"sync {i}: a binary sync object with a point")
        if i < ins:
            fences = syncobj.resolve(point)
            if fences is None:
                raise fail(errno.EINVAL, f"in-sync {i} has no fence")
            in_fences.extend(fences)
        else:
            outs.append((syncobj, sync_type, point))
    return in_fences, outs, raw


def _check_barrier(value: int, seen: int, what: str, index: int) -> None:
    if not (value == NONE or value <= seen):
        raise fail(errno.EINVAL,
                   f"command {index}: {what} barrier {value} is in the future ({seen} such commands so far)")


def _check_render(cmd, index: int) -> None:
    if cmd.flags & ~RENDER_FLAGS:
        raise fail(errno.EINVAL, f"command {index}: unknown render flags 0x{cmd.flags:x}")
    if not (1 <= cmd.width_px <= MAX_DIMENSION_PX and 1 <= cmd.height_px <= MAX_DIMENSION_PX):
        raise fail(errno.EINVAL,
                   f"command {index}: framebuffer {cmd.width_px}x{cmd.height_px} px outside 1..{MAX_DIMENSION_PX}")
    if not (1 <= cmd.layers <= MAX_LAYERS):
        raise fail(errno.EINVAL, f"command {index}: {cmd.layers} layers outside 1..{MAX_LAYERS}")
    if cmd.samples not in SAMPLE_COUNTS:
        raise fail(errno.EINVAL, f"command {index}: {cmd.samples} samples (1, 2 or 4)")
    if (cmd.utile_width_px, cmd.utile_height_px) not in UTILE_SIZES_PX:
        raise fail(errno.EINVAL,
                   f"command {index}: uTile {cmd.utile_width_px}x{cmd.utile_height_px} (32x32, 32x16 or 16x16)")


def _attachments(payload, index: int, max_attachments: int) -> list[Attachment]:
    if len(payload) % ATTACHMENT_SIZE_B != 0:
        raise fail(errno.EINVAL,
                   f"command {index}: attachment payload of {len(payload)} bytes is not a whole number of records")
    count = len(payload) // ATTACHMENT_SIZE_B
    if count > max_attachments:
        raise fail(errno.EINVAL, f"command {index}: {count} attachments > {max_attachments}")
    out = []
    for i, (pointer, size_B, pad, flags) in enumerate(_ATTACHMENT.iter_unpack(payload)):
        if pad or flags:
            raise fail(errno.EINVAL, f"command {index}: attachment {i} pad/flags nonzero")
        out.append(Attachment(pointer, size_B, flags))
    return out


@dataclass(frozen=True)
class _Decoded:
    """One hardware command of a command buffer as decoded and checked from its bytes
    alone (nothing here depends on the file's objects: the timestamp and feedback
    handles are looked up for every SUBMIT)."""

    kind: str
    index: int
    name: str
    pointer: object            # the payload's cffi pointer type
    payload: bytes             # zero-extended to the struct's size
    vdm_barrier: int
    cdm_barrier: int
    vertex_attachments: tuple
    fragment_attachments: tuple
    compute_attachments: tuple
    stamps: tuple              # ((target name, handle, offset), ...): the nonzero timestamp handles
    feedback: tuple            # (handle, offset, size) of the feedback record


#: The most command buffers a kernel keeps decoded (``_decode``).
DECODED_KEPT = 32


def _decode(config, buf: bytes) -> tuple[_Decoded, ...]:
    """Parse and check the flat command buffer (EINVAL naming the first bad record)."""
    out: list[_Decoded] = []
    vertex_attachments: tuple = ()
    fragment_attachments: tuple = ()
    compute_attachments: tuple = ()
    seen = {"render": 0, "compute": 0}
    view = memoryview(buf)
    size = len(buf)
    pos = index = 0
    while pos < size:
        if pos + HEADER_SIZE_B > size:
            raise fail(errno.EINVAL, f"command {index}: truncated header")
        cmd_type, payload_B, vdm_barrier, cdm_barrier = _HEADER.unpack_from(buf, pos)
        start = pos + HEADER_SIZE_B
        pos = start + payload_B
        if pos > size:
            raise fail(errno.EINVAL, f"command {index}: payload runs past the command buffer")
        if cmd_type in _ATTACHMENT_KINDS:
            if not (vdm_barrier == NONE and cdm_barrier == NONE):
                raise fail(errno.EINVAL, f"command {index}: attachment records take no barriers")
            found = tuple(_attachments(view[start:pos], index, config.max_attachments))
            kind = _ATTACHMENT_KINDS[cmd_type]
            if kind == "vertex":
                vertex_attachments = found
            elif kind == "fragment":
                fragment_attachments = found
            else:
                compute_attachments = found
            continue
        known = _PAYLOADS.get(cmd_type)
        if known is None:
            raise fail(errno.EINVAL, f"command {index}: unknown cmd_type {cmd_type}")
        kind, ctype, pointer, struct_B, seq, letter = known
        if payload_B > struct_B:
            raise fail(errno.EINVAL, f"command {index}: {payload_B}-byte payload larger than {ctype}")
        if len(out) >= config.max_commands_per_submission:
            raise fail(errno.EINVAL, f"more than {config.max_commands_per_submission} commands")
        if vdm_barrier != NONE:
            _check_barrier(vdm_barrier, seen["render"], "render (vdm)", index)
        if cdm_barrier != NONE:
            _check_barrier(cdm_barrier, seen["compute"], "compute (cdm)", index)
        cmd = ffi.new(pointer)      # zero-extended when the payload is shorter
        ffi.memmove(cmd, view[start:pos], payload_B)
        if kind == "compute":
            if cmd.flags != 0:
                raise fail(errno.EINVAL, f"command {index}: compute flags must be zero")
        else:
            _check_render(cmd, index)
        if cmd.feedback_handle == 0 and not (cmd.feedback_size == 0 and cmd.feedback_offset == 0):
            raise fail(errno.EINVAL, f"command {index}: feedback offset/size without a feedback_handle")
        seen[seq] += 1
        out.append(_Decoded(
            kind, index, f"{letter}{seen[seq]}", pointer, ffi.buffer(cmd)[:], vdm_barrier, cdm_barrier,
            vertex_attachments if kind == "render" else (),
            fragment_attachments if kind != "compute" else (),
            compute_attachments if kind == "compute" else (),
            _stamps(cmd, kind), (cmd.feedback_handle, cmd.feedback_offset, cmd.feedback_size)))
        index += 1
    check(len(out) >= 1, errno.EINVAL, "a submission needs at least one hardware command")
    return tuple(out)


def _stamps(cmd, kind: str) -> tuple:
    """The command's timestamp targets with a handle: ((name, handle, offset), ...)."""
    pairs = {"compute": cmd.ts} if kind == "compute" else (
        {"fragment": cmd.ts_frag} if kind == "blit" else {"vertex": cmd.ts_vtx, "fragment": cmd.ts_frag})
    out = []
    for stage, stamps in pairs.items():
        for edge in ("start", "end"):
            stamp = getattr(stamps, edge)
            if stamp.handle:
                out.append((f"{stage}_{edge}", stamp.handle, stamp.offset))
    return tuple(out)


def _timestamp_targets(file, decoded: _Decoded, references: list) -> dict[str, int]:
    targets = {}
    for which, handle, offset in decoded.stamps:
        obj = file.bind_object(handle)
        if offset + 8 > obj.range_B:
            stage, edge = which.split("_")
            raise fail(errno.EINVAL,
                       f"command {decoded.index}: {stage} {edge} timestamp at {offset} "
                       f"outside its {obj.range_B}-byte object")
        targets[which] = obj.gem.phys + obj.offset_B + offset
        references.append(obj.gem.get())
    return targets


def _feedback_target(file, decoded: _Decoded, references: list) -> tuple[int, int] | None:
    handle, offset, size = decoded.feedback
    if handle == 0:
        return None
    gem = file.gem(handle, errno.ENOENT)
    size_B = min(size, FEEDBACK_SIZE_B)
    if not (offset % 8 == 0 and size_B > 0 and offset + size_B <= gem.size_B):
        raise fail(errno.EINVAL, f"command {decoded.index}: feedback at {offset}+{size_B} outside its object")
    references.append(gem.get())
    return gem.phys + offset, size_B


def build_job(kernel, file, args):
    """Validate ``args`` (a ``struct drm_asahi_submit``) and return (queue, job, outs,
    copied): ``copied`` is the bytes of the sync array and of the command buffer as
    they were copied from userspace (once: the capture hooks read them too).

    The command buffer's own checks (record framing, payload sizes, barriers, render
    parameters) depend on its bytes alone: a buffer decoded before is not parsed
    again (the kernel keeps the last ``DECODED_KEPT``, keyed by the bytes and its
    GPU configuration; a bad buffer is never kept). Everything that names the file's objects (syncs,
    timestamp and feedback handles) is looked up for every SUBMIT."""
    check(args.flags == 0, errno.EINVAL, "submit flags must be zero")
    check(args.pad == 0, errno.EINVAL, "submit pad must be zero")
    queue = file.queue(args.queue_id)
    if queue.guilty:
        raise fail(errno.ECANCELED, f"queue {args.queue_id} was reset after a GPU timeout (guilty): create a new queue")
    # the sync array and the command buffer in one copy when both are good (else one
    # by one, as the checks below come in order)
    count = args.in_sync_count + args.out_sync_count
    both = copy_ranges_from_user([(args.syncs, count * SYNC_SIZE_B), (args.cmdbuf, args.cmdbuf_size)]) \
        if count else None
    in_fences, outs, raw_syncs = _syncs(file, args, both[0] if both else None)
    check(args.cmdbuf_size > 0, errno.EINVAL, "empty command buffer")
    buf = both[1] if both else copy_from_user(args.cmdbuf, args.cmdbuf_size)
    config = kernel.config
    memo = kernel.decoded_submits
    known = memo.get(buf)
    if known is not None and known[0] is config:
        decoded = known[1]
    else:
        decoded = _decode(config, buf)
        if len(memo) >= DECODED_KEPT:
            memo.clear()
        memo[buf] = (config, decoded)
    commands: list[FirmwareCommand] = []
    references: list = []
    vm, usc_exec_base, counters, physical = queue.vm, queue.usc_exec_base, queue.counters, kernel.arena.bytes
    try:
        for d in decoded:
            timestamps = _timestamp_targets(file, d, references) if d.stamps else {}
            feedback = _feedback_target(file, d, references)
            cmd = ffi.new(d.pointer)                # the command's private copy
            ffi.memmove(cmd, d.payload, len(d.payload))
            faults: list = []
            commands.append(FirmwareCommand(
                kind=d.kind, index=d.index, name=d.name, cmd=cmd,
                memory=vm.view(faults), vm=vm, usc_exec_base=usc_exec_base, config=config,
                counters=counters, faults=faults,
                vertex_attachments=list(d.vertex_attachments),
                fragment_attachments=list(d.fragment_attachments),
                compute_attachments=list(d.compute_attachments),
                timestamp_targets=timestamps, feedback_target=feedback, physical=physical,
                vdm_barrier=d.vdm_barrier, cdm_barrier=d.cdm_barrier))
    except OSError:
        for gem in references:
            gem.put()
        raise
    done = Fence(kernel.sync, f"{file.name} queue {queue.queue_id}")
    job = Job(FirmwareJob(commands, on_complete=lambda error: None), in_fences, done, references)
    return queue, job, outs, (raw_syncs, buf)
