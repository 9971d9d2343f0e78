"""What a capture or a core dump saves of one submission, as the kernel sees it.

Sole responsibility: build the ``submit`` record of the file format from the
kernel's objects (the submit struct, syncs, command buffer, the VM's mappings,
the queue) and choose the memory to save: whole objects (``full``, deduplicated
per file by content digest) or the ranges the commands reference (found by
decoding them over the live VM with a recording reader), and write both.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields

import numpy as np

import uapi

from .fileformat import Writer
from .memimage import PAGE_SIZE_B, MappingInfo, MemoryImage, RecordingMemory, merge_ranges
from .streams import decode_command, parse_cmdbuf

__all__ = ["SubmitSnapshot", "copy_submit", "take_snapshot", "ObjectCache", "config_json", "referenced_ranges",
           "write_submit", "MAX_REF_RANGE_B"]

ffi = uapi.ffi
MAX_REF_RANGE_B = 64 << 20  # one referenced range is never saved beyond this
UNKNOWN_SIZE_B = 4096       # bytes saved after an address whose size the decoder cannot know


def config_json(config) -> dict:
    """A GPUConfig as JSON (its dataclass fields)."""
    return {f.name: getattr(config, f.name) for f in fields(config)}


@dataclass
class SubmitSnapshot:
    """One submission: JSON metadata and the command buffer."""

    meta: dict
    cmdbuf: bytes
    mappings: list[MappingInfo]
    gems: dict = field(default_factory=dict)  # gem id -> GEMObject (live; for object contents)


def copy_submit(arg, raw: bytes, cmdbuf: bytes) -> tuple[dict, list[dict], bytes]:
    """What userspace passed to SUBMIT: its fields, its syncs (``raw``: the bytes of
    the sync array) and command buffer (``cmdbuf``), as SUBMIT copied them."""
    syncs = []
    count = arg.in_sync_count + arg.out_sync_count
    size_B = ffi.sizeof("struct drm_asahi_sync")
    for i in range(count):
        s = ffi.new("struct drm_asahi_sync *")
        ffi.memmove(s, raw[i * size_B:(i + 1) * size_B], size_B)
        syncs.append({"direction": "in" if i < arg.in_sync_count else "out", "sync_type": s.sync_type,
                      "handle": s.handle, "timeline_value": s.timeline_value})
    submit = {name: getattr(arg, name) for name in ("flags", "queue_id", "in_sync_count", "out_sync_count",
                                                    "cmdbuf_size")}
    return submit, syncs, cmdbuf


def take_snapshot(file, queue, submit: dict, syncs: list[dict], cmdbuf: bytes, seq: int) -> SubmitSnapshot:
    """Describe one SUBMIT (already validated by ``build_job``) with the VM as it is now."""
    vm = queue.vm
    gems = {}
    mappings = []
    for m in vm.mappings():
        gems[m.gem.id] = m.gem
        mappings.append(MappingInfo(m.va, m.end - m.va, m.gem.id, m.gem_offset_B, m.single_page, m.readable,
                                    m.writable))
    handles = {}
    for entry in parse_cmdbuf(cmdbuf):
        if entry.struct is not None and entry.struct.feedback_handle:
            gem = file.gems.items.get(entry.struct.feedback_handle)
            if gem is not None:
                handles[str(entry.struct.feedback_handle)] = {"gem": gem.id, "size_B": gem.size_B}
    meta = {
        "type": "submit", "seq": seq, "file": file.name,
        "vm": {"id": vm.vm_id, "kernel_start": vm.kernel_start, "kernel_end": vm.kernel_end},
        "queue": {"id": queue.queue_id, "priority": queue.priority, "usc_exec_base": queue.usc_exec_base},
        "submit": submit,
        "syncs": syncs, "handles": handles,
        "mappings": [m.to_json() for m in mappings],
        "objects_B": {str(g.id): g.size_B for g in gems.values()},
    }
    return SubmitSnapshot(meta, cmdbuf, mappings, gems)


def referenced_ranges(cmdbuf: bytes, memory, usc_exec_base: int) -> list[tuple[int, int]]:
    """Page-aligned VA ranges the commands reference: everything the decoder reads,
    plus the sized references it finds (index/uniform buffers, depth/stencil,
    attachments) and a page after each address of unknown size (images, ...)."""
    recording = RecordingMemory(memory)
    wanted: list[tuple[int, int]] = []
    for entry in parse_cmdbuf(cmdbuf):
        wanted += [(ptr, min(size, MAX_REF_RANGE_B)) for ptr, size, _ in entry.attachments]
        if entry.struct is None:
            continue
        dec = decode_command(entry.kind, entry.struct, recording, usc_exec_base, text=False)
        refs = [r for b in dec.blocks for r in b.refs] + dec.extra_refs
        wanted += [(va, min(size if size is not None else UNKNOWN_SIZE_B, MAX_REF_RANGE_B)) for va, size, _ in refs]
    wanted += recording.reads
    return merge_ranges(wanted, PAGE_SIZE_B)


class ObjectCache:
    """Which object contents a file already holds (id -> digest): each is written once
    per distinct content."""

    def __init__(self):
        self.written: dict[int, str] = {}

    def write_objects(self, writer: Writer, gems: dict) -> list[dict]:
        refs = []
        for gem_id, gem in sorted(gems.items()):
            data = bytes(np.asarray(gem.bytes))
            digest = hashlib.blake2b(data, digest_size=16).hexdigest()
            if self.written.get(gem_id) != digest:
                writer.write({"type": "object", "id": gem_id, "size_B": len(data), "digest": digest},
                             [("data", data)])
                self.written[gem_id] = digest
            refs.append({"id": gem_id, "digest": digest})
        return refs


def write_submit(writer: Writer, snap: SubmitSnapshot, *, full: bool, cache: ObjectCache,
                 extra_meta: dict | None = None, extra_ranges: list[tuple[int, int]] = ()) -> None:
    """Write the submit record (and, with ``full``, the object records before it)."""
    meta = dict(snap.meta)
    meta.update(extra_meta or {})
    blobs = [("cmdbuf", snap.cmdbuf)]
    meta["full"] = full
    image = None
    if full:
        meta["objects"] = cache.write_objects(writer, snap.gems)
        ranges = list(extra_ranges)
    else:
        image = _live(snap)
        ranges = referenced_ranges(snap.cmdbuf, image, meta["queue"]["usc_exec_base"]) + list(extra_ranges)
    saved = []
    if ranges:
        image = image or _live(snap)
        for va, size_B in merge_ranges(ranges):
            for piece_va, data in _mapped_pieces(image, va, size_B):
                saved.append({"va": piece_va, "size_B": len(data)})
                blobs.append((f"range{len(saved) - 1}", data))
    meta["ranges"] = saved
    writer.write(meta, blobs)


def _live(snap: SubmitSnapshot) -> MemoryImage:
    return MemoryImage(snap.mappings, {gid: gem.bytes for gid, gem in snap.gems.items()})


def _mapped_pieces(image, va: int, size_B: int) -> list[tuple[int, bytes]]:
    """The readable parts of ``[va, va + size_B)`` (unmapped pages are skipped)."""
    out = []
    pos, end = va, va + size_B
    while pos < end:
        m = image.mapping_at(pos)
        if m is None:
            nxt = next((mm.va for mm in image.mappings if mm.va > pos), end)
            pos = min(nxt, end)
            continue
        stop = min(end, m.end)
        out.append((pos, image.read_bytes(pos, stop - pos)))
        pos = stop
    return out

