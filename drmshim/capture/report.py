"""Text of a capture (``shimgl decode``) and of a core dump (``shimgl crashdec``).

Sole responsibility: print every submission of a file: the submit fields and
syncs, the VM's mappings, then each command buffer entry (header, the
``cmd_render``/``cmd_compute`` fields by name, attachments) followed by its
decoded streams and programs (``streams.decode_command`` over the captured
memory). For a core dump, the fault(s) first, then the decode of the faulting
command with an ``ESTIMATED CRASH LOCATION`` marker and the memory around the
fault address. Never raises on damaged input: problems are printed.
"""

from __future__ import annotations

from .coredump import estimate_location
from .fileformat import CaptureFile
from .memimage import MemoryImage
from .replay import objects_index, image_of_submit
from .streams import format_value, decode_command, hexdump, parse_cmdbuf, struct_items

__all__ = ["decode_text", "crashdec_text"]


def _submit_header(position: int, meta: dict) -> list[str]:
    q, vm = meta.get("queue", {}), meta.get("vm", {})
    lines = [f"=== submit {position} (seq {meta.get('seq')}, {meta.get('file')}, queue {q.get('id') if isinstance(q, dict) else q}, "
             f"vm {vm.get('id') if isinstance(vm, dict) else vm}){' [full]' if meta.get('full') else ''}"
             f"{' [stale memory]' if meta.get('stale') else ''}"]
    if isinstance(q, dict):
        lines.append(f"  queue: priority {q.get('priority')}, usc_exec_base 0x{q.get('usc_exec_base', 0) or 0:x}")
    if isinstance(meta.get("submit"), dict):
        lines.append("  submit: " + ", ".join(f"{k}={v}" for k, v in meta["submit"].items()))
    for s in meta.get("syncs", []) if isinstance(meta.get("syncs"), list) else []:
        if isinstance(s, dict):
            lines.append(f"  {s.get('direction')}-sync: type {s.get('sync_type')} handle {s.get('handle')} "
                         f"point {s.get('timeline_value')}")
    return lines


def _mappings(image: MemoryImage) -> list[str]:
    lines = [f"  mappings ({len(image.mappings)}):"]
    for m in image.mappings[:256]:
        perm = ("r" if m.readable else "-") + ("w" if m.writable else "-") + ("s" if m.single_page else "")
        lines.append(f"    0x{m.va:010x}-0x{m.end:010x} {perm} object {m.gem} +0x{m.gem_offset_B:x}")
    if len(image.mappings) > 256:
        lines.append(f"    ... {len(image.mappings) - 256} more")
    return lines


def _entry_lines(entry) -> list[str]:
    h = entry.header
    title = (f"  [{entry.offset_B:#06x}] {entry.kind}" + (f" command {entry.index}" if entry.index is not None else "")
             + (f": cmd_type {h.get('cmd_type')} size {h.get('size')} vdm_barrier {h.get('vdm_barrier'):#x} "
                f"cdm_barrier {h.get('cdm_barrier'):#x}" if h else ""))
    lines = [title]
    if entry.error:
        lines.append(f"    (!) {entry.error}")
    if entry.struct is not None:
        for name, value in struct_items(entry.struct):
            if value or name in ("width_px", "height_px"):
                lines.append(f"    {name}: {format_value(name, value)}")
    elif entry.attachments:
        lines += [f"    attachment 0x{p:x} size {s} flags {f}" for p, s, f in entry.attachments]
    elif entry.payload:
        lines += hexdump(entry.payload, 0, "    ", 256)
    return lines


def _decode_submit(position: int, record, index: dict, out: list[str], *, only_command: int | None = None,
                   fault_address: int | None = None) -> None:
    meta = record.meta
    out += _submit_header(position, meta)
    image, problems = image_of_submit(record, index)
    out += [f"  (!) {p}" for p in problems]
    out += _mappings(image)
    if meta.get("truncated"):
        out.append("  (!) this record is truncated")
    cmdbuf = record.blobs.get("cmdbuf")
    if cmdbuf is None:
        out.append("  (!) no command buffer")
        return
    q = meta.get("queue", {})
    usc_exec_base = q.get("usc_exec_base", 0) if isinstance(q, dict) and isinstance(q.get("usc_exec_base"), int) else 0
    for entry in parse_cmdbuf(cmdbuf):
        if only_command is not None and entry.index != only_command:
            continue
        out += _entry_lines(entry)
        if entry.struct is None:
            continue
        try:
            dec = decode_command(entry.kind, entry.struct, image, usc_exec_base)
        except Exception as e:  # noqa: BLE001 - the decoder must never stop the report
            out.append(f"    (!) decoder error: {type(e).__name__}: {e}")
            continue
        if fault_address is None:
            out += dec.lines
            continue
        est = estimate_location(dec.blocks, fault_address, image.mapping_at)
        marker_va = est.block.item.va if est.block is not None else None
        for i, line in enumerate(dec.lines):
            if est.block is not None and i == est.block.line:
                out.append("-----> ESTIMATED CRASH LOCATION")
            out.append(line)
        out.append("")
        if est.block is not None:
            out.append(f"  ESTIMATED CRASH LOCATION: {est.block.stream} block {est.block.item.name or '???'} "
                       f"at 0x{marker_va:x}")
        else:
            out.append("  ESTIMATED CRASH LOCATION: unknown")
        out.append(f"    ({est.reason})")
        if est.block is not None:
            from uapi import packets as P
            out += ["    " + line for line in P.format_stream([est.block.item]).splitlines()]


def decode_text(capture: CaptureFile, *, first: int = 0, last: int | None = None) -> str:
    out = []
    header = capture.header
    out.append(f"shimgl capture v{capture.version}: kind {header.get('kind', '?')}, options "
               f"{header.get('options', {})}, GPU {header.get('config', {}).get('name', '?') if isinstance(header.get('config'), dict) else '?'}")
    out += [f"(!) {p}" for p in capture.problems]
    index = objects_index(capture)
    submits = capture.of_type("submit")
    last = len(submits) - 1 if last is None else last
    for position, record in enumerate(submits):
        if first <= position <= last:
            _decode_submit(position, record, index, out)
    out.append(f"{len(submits)} submits")
    return "\n".join(out) + "\n"


def crashdec_text(capture: CaptureFile) -> str:
    out = []
    header = capture.header
    if header.get("kind") != "coredump":
        out.append(f"(!) not a core dump (kind {header.get('kind')!r}): decoding anyway")
    out += [f"(!) {p}" for p in capture.problems]
    faults = [r.meta for r in capture.of_type("fault")]
    submits = capture.of_type("submit")
    index = objects_index(capture)
    if not faults:
        out.append("(!) no fault record")
    for f in faults:
        addr = f.get("address") if isinstance(f.get("address"), int) else 0
        out.append(f"GPU FAULT: {'read' if f.get('read') else 'write'} of 0x{addr:x} by {f.get('unit')}"
                   f"{' (soft fault)' if f.get('soft') else ''}")
        out.append(f"  command {f.get('command_name')} ({f.get('kind')} command index {f.get('command_index')}) "
                   f"of submit {f.get('seq')} on {f.get('file')} queue {f.get('queue')}, status {f.get('status')}")
    for f in faults[:1]:
        addr = f.get("address") if isinstance(f.get("address"), int) else 0
        index_ = f.get("command_index") if isinstance(f.get("command_index"), int) else None
        for position, record in enumerate(submits):
            image, _ = image_of_submit(record, index)
            m = image.mapping_at(addr)
            out.append("")
            out.append(f"fault address 0x{addr:x}: " + (f"mapped (object {m.gem} +0x{m.object_offset(addr):x}, "
                                                         f"{'r' if m.readable else '-'}{'w' if m.writable else '-'})"
                                                         if m else "not mapped"))
            near = [mm for mm in image.mappings if abs(mm.va - addr) < (1 << 24) or abs(mm.end - addr) < (1 << 24)]
            for mm in near[:8]:
                out.append(f"  nearby mapping 0x{mm.va:010x}-0x{mm.end:010x} object {mm.gem}")
            out.append("memory around the fault address:")
            shown = False
            for va, data in image.ranges:
                if va - 2 * 16384 <= addr < va + len(data) + 2 * 16384:
                    start = max(va, addr - 256) - va
                    out += hexdump(data[start:start + 512], va + start, "  ", 512)
                    shown = True
            if not shown:
                out.append("  (nothing mapped around it)")
            out.append("")
            _decode_submit(position, record, index, out, only_command=index_, fault_address=addr)
    return "\n".join(out) + "\n"
