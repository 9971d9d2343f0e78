"""Decode a submission's command buffer and every command stream it points at.

Sole responsibility: turn a command buffer plus GPU memory into text (for
``shimgl decode`` and ``shimgl crashdec``) and into the list of blocks with the
addresses each one uses (for crash-location estimates and for finding the memory a
capture must save). A forgiving walker (it decodes what it can): the cmdbuf headers,
``cmd_render``/``cmd_compute`` fields by name, the VDM/CDM streams through
``uapi.packets`` walkers, PPP state, USC words, texture/sampler descriptors and USC
programs through ``uapi.isa``. Whatever does not decode is hexdumped with the
reason; nothing here raises on bad data or loops forever (every walk is bounded).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import uapi
from uapi import isa
from uapi import packets as P

__all__ = ["CmdEntry", "parse_cmdbuf", "struct_items", "format_value", "Block", "CommandDecode", "decode_command",
           "hexdump", "HEADER_SIZE_B", "MAX_PROGRAM_B", "MAX_TABLE_ENTRIES"]

ffi = uapi.ffi
HEADER_SIZE_B = ffi.sizeof("struct drm_asahi_cmd_header")
ATTACHMENT_SIZE_B = ffi.sizeof("struct drm_asahi_attachment")
MAX_PROGRAM_B = 64 << 10      # a USC program longer than this is cut off
MAX_TABLE_ENTRIES = 64        # descriptors decoded per texture/sampler table
MAX_SHOWN_BUFFER_B = 256      # bytes of a uniform buffer hexdumped
MAX_UNIFORM_SCAN_B = 4096     # bytes of a uniform buffer scanned for pointers
MAX_VA = 1 << 40              # GPU virtual addresses are at most 40 bits
MAX_BLOCKS = 1 << 16          # blocks per stream walk in the decoder (long streams are real)

_PAYLOADS = {
    uapi.DRM_ASAHI_CMD_RENDER: ("render", "struct drm_asahi_cmd_render"),
    uapi.DRM_ASAHI_CMD_BLIT: ("blit", "struct drm_asahi_cmd_render"),
    uapi.DRM_ASAHI_CMD_COMPUTE: ("compute", "struct drm_asahi_cmd_compute"),
}
_ATTACHMENTS = {
    uapi.DRM_ASAHI_SET_VERTEX_ATTACHMENTS: "vertex attachments",
    uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS: "fragment attachments",
    uapi.DRM_ASAHI_SET_COMPUTE_ATTACHMENTS: "compute attachments",
}


def hexdump(data: bytes, base: int = 0, indent: str = "", limit_B: int = 4096) -> list[str]:
    """Classic 16-bytes-per-line hexdump (words little-endian), cut at ``limit_B``."""
    lines = []
    shown = data[:limit_B]
    for off in range(0, len(shown), 16):
        chunk = shown[off:off + 16]
        words = " ".join(chunk[i:i + 4][::-1].hex() for i in range(0, len(chunk), 4))
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{indent}{base + off:010x}: {words:<35}  {text}")
    if len(data) > limit_B:
        lines.append(f"{indent}... {len(data) - limit_B} more bytes")
    return lines


# -- the command buffer ------------------------------------------------------------

@dataclass
class CmdEntry:
    """One ``drm_asahi_cmd_header`` + payload of a command buffer.

    ``kind``: "render", "compute", "blit", "vertex attachments", ... or "unknown";
    ``index``: the hardware command index (None for attachment records);
    ``struct``: the decoded payload (cffi) or None; ``error``: what was wrong."""

    offset_B: int
    header: dict
    kind: str
    payload: bytes
    index: int | None = None
    struct: object = None
    ctype: str = ""
    error: str | None = None
    attachments: list[tuple[int, int, int]] = field(default_factory=list)  # (pointer, size, flags)


def parse_cmdbuf(buf: bytes) -> list[CmdEntry]:
    """Split a command buffer into entries (never raises; stops where framing is lost)."""
    out: list[CmdEntry] = []
    pos = index = 0
    while pos < len(buf):
        if pos + HEADER_SIZE_B > len(buf):
            out.append(CmdEntry(pos, {}, "unknown", buf[pos:], error="truncated header"))
            break
        head = ffi.new("struct drm_asahi_cmd_header *")
        ffi.memmove(head, buf[pos:pos + HEADER_SIZE_B], HEADER_SIZE_B)
        header = {name: getattr(head, name) for name, _ in ffi.typeof("struct drm_asahi_cmd_header").fields}
        start = pos + HEADER_SIZE_B
        payload = buf[start:start + head.size]
        entry = CmdEntry(pos, header, "unknown", payload)
        out.append(entry)
        if start + head.size > len(buf):
            entry.error = f"payload of {head.size} bytes runs past the command buffer ({len(buf) - start} left)"
        if head.cmd_type in _PAYLOADS:
            entry.kind, entry.ctype = _PAYLOADS[head.cmd_type]
            entry.index = index
            index += 1
            size = ffi.sizeof(entry.ctype)
            if len(payload) > size:
                entry.error = (entry.error or "") + f"payload larger than {entry.ctype} ({size} bytes)"
            entry.struct = ffi.new(f"{entry.ctype} *")
            n = min(len(payload), size)
            ffi.memmove(entry.struct, payload[:n], n)
        elif head.cmd_type in _ATTACHMENTS:
            entry.kind = _ATTACHMENTS[head.cmd_type]
            for off in range(0, len(payload) - ATTACHMENT_SIZE_B + 1, ATTACHMENT_SIZE_B):
                att = ffi.new("struct drm_asahi_attachment *")
                ffi.memmove(att, payload[off:off + ATTACHMENT_SIZE_B], ATTACHMENT_SIZE_B)
                entry.attachments.append((att.pointer, att.size, att.flags))
            if len(payload) % ATTACHMENT_SIZE_B:
                entry.error = f"{len(payload)} bytes is not a whole number of attachment records"
        else:
            entry.error = f"unknown cmd_type {head.cmd_type}"
        if start + head.size > len(buf):
            break
        pos = start + head.size
    return out


def struct_items(cdata, prefix: str = "") -> list[tuple[str, object]]:
    """Every leaf field of a cffi struct as (dotted name, value), arrays as lists."""
    ctype = ffi.typeof(cdata)
    if ctype.kind == "pointer":
        ctype = ctype.item
    items = []
    for name, fld in ctype.fields:
        value = getattr(cdata, name)
        kind = fld.type.kind
        if kind == "struct":
            items += struct_items(value, f"{prefix}{name}.")
        elif kind == "array":
            items.append((prefix + name, list(value)))
        else:
            items.append((prefix + name, value))
    return items


def format_value(name: str, value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, int) and (value > 0xFFFF or any(k in name for k in ("base", "heap", "addr", "usc",
                                                                                "binary", "data", "ctrl"))):
        return f"0x{value:x}"
    return str(value)


# -- decoding one command ----------------------------------------------------------

@dataclass
class Block:
    """A top-level block of a stream with the addresses it (and what it points at) uses."""

    item: P.StreamItem
    stream: str
    refs: list[tuple[int, int | None, str]] = field(default_factory=list)  # (va, size_B or None, what)
    line: int = 0  # index of its first line in ``CommandDecode.lines``

    @property
    def is_work(self) -> bool:
        """A draw or a launch: where the GPU actually does work."""
        return self.item.name in ("VDM_INDEX_LIST", "CDM_LAUNCH")


@dataclass
class CommandDecode:
    """The decode of one command: text lines and the blocks (for crashdec): the
    VDM/CDM stream's, then the USC words of the bg/eot/helper programs."""

    lines: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    extra_refs: list[tuple[int, int | None, str]] = field(default_factory=list)  # outside the streams


def _format_names() -> tuple[str, ...]:
    """``format_id`` -> name (layout's numbering)."""
    import layout
    return layout.FORMAT_NAMES


def _words_reader(memory):
    """``read_words`` for the walkers: straight from bytes when the memory offers
    ``read_bytes`` (a MemoryImage), else through the GPUMemory ``read``."""
    read_bytes = getattr(memory, "read_bytes", None)
    if read_bytes is None:
        return P.memory_reader(memory, "VDM")

    def read_words(va: int, n: int):
        return struct.unpack(f"<{int(n)}I", read_bytes(int(va), 4 * int(n)))
    return read_words


def _address_fields(rec) -> list[tuple[str, int]]:
    if isinstance(rec, P.GroupRecord):
        out = _address_fields(rec.header)
        for m in rec.members.values():
            out += _address_fields(m)
        return out
    return [(f"{rec.name}.{f.name}", rec.values[f.name]) for f in rec.packet.fields
            if f.type == "address" and rec.values.get(f.name)]


class _Decoder:
    def __init__(self, memory, usc_exec_base: int, out: CommandDecode, text: bool = True):
        self.memory = memory
        self.read_words = _words_reader(memory)
        self.usc_exec_base = usc_exec_base
        self.out = out
        self.text = text
        self.programs_seen: set[int] = set()

    # ---- helpers
    def emit(self, line: str) -> None:
        if self.text:
            self.out.lines.append(line)

    def hexdump(self, data: bytes, base: int, indent: str, limit_B: int = 4096) -> None:
        if self.text:
            self.out.lines += hexdump(data, base, indent, limit_B)

    def read(self, va: int, n: int) -> bytes | str:
        try:
            read_bytes = getattr(self.memory, "read_bytes", None)
            return read_bytes(va, n) if read_bytes is not None else bytes(self.memory.read(va, n, "VDM"))
        except Exception as e:  # noqa: BLE001 - reported, never raised
            return f"read failed: {e}"

    # ---- pointed-at structures beyond what the walker follows
    def usc_extras(self, items: list[P.StreamItem], indent: str, refs: list) -> None:
        """Programs, descriptor tables and uniform buffers named by USC words."""
        for it in items:
            rec = it.record
            if rec is None or isinstance(rec, P.GroupRecord):
                continue
            if rec.name == "USC_SHADER":
                refs.append((rec.code, None, "USC_SHADER.code"))
                self.program(rec.code, indent, refs)
            elif rec.name in ("USC_TEXTURE", "USC_SAMPLER"):
                packet = P.TEXTURE if rec.name == "USC_TEXTURE" else P.SAMPLER
                self.table(packet, rec.table, rec.start, rec.count, indent, refs)
            elif rec.name == "USC_PBE":
                self.descriptor(P.PBE, rec.descriptor, f"render target (tile offset {rec.tile_offset_B} B)",
                                indent, refs)
            elif rec.name == "USC_UNIFORM":
                size_B = 2 * rec.size_halves
                refs.append((rec.buffer, size_B, "USC_UNIFORM.buffer"))
                data = self.read(rec.buffer, min(size_B, MAX_UNIFORM_SCAN_B))
                self.emit(f"{indent}uniforms at 0x{rec.buffer:x} ({size_B} B):")
                if isinstance(data, str):
                    self.emit(f"{indent}  ({data})")
                    continue
                self.hexdump(data[:MAX_SHOWN_BUFFER_B], rec.buffer, indent + "  ", MAX_SHOWN_BUFFER_B)
                # Shaders get buffer addresses through uniforms: 64-bit values that could
                # be GPU addresses are references too (crashdec's estimate uses them).
                # (Registers past the loaded size read as zero.)
                data += bytes(-len(data) % 8)
                for off in range(0, len(data), 8):
                    value = int.from_bytes(data[off:off + 8], "little")
                    if 0 < value < MAX_VA and value % 4 == 0:
                        reg = rec.start_halves // 2 + off // 4  # 32-bit uniform registers
                        refs.append((value, None, f"uniform u{reg}_u{reg + 1} (a pointer?)"))

    def table(self, packet, va: int, start: int, count: int, indent: str, refs: list) -> None:
        shown = min(count, MAX_TABLE_ENTRIES)
        refs.append((va, count * packet.size_B, f"{packet.name} table"))
        self.emit(f"{indent}{packet.name} table at 0x{va:x}, registers {start}..{start + count - 1}:")
        for i in range(shown):
            self.descriptor(packet, va + i * packet.size_B, f"[{start + i}]", indent + "  ", refs)
        if count > shown:
            self.emit(f"{indent}  ... {count - shown} more")

    def descriptor(self, packet, va: int, label: str, indent: str, refs: list) -> P.Record | None:
        data = self.read(va, packet.size_B)
        if isinstance(data, str):
            self.emit(f"{indent}{label} 0x{va:x}: ??? ({data})")
            return None
        rec = P.unpack(packet, data)
        if self.text:
            text = P.format_record(rec, indent + "  ", defaults=False).lstrip()
            self.emit(f"{indent}{label} 0x{va:x}: {text}")
            if packet in (P.TEXTURE, P.PBE):
                names = _format_names()
                name = names[rec.format_id] if rec.format_id < len(names) else "not in layout's table"
                self.emit(f"{indent}    (format {rec.format_id} = {name})")
        if packet in (P.TEXTURE, P.PBE) and rec.address:
            refs.append((rec.address, None, f"{packet.name}.address"))
        return rec

    def program(self, va: int, indent: str, refs: list) -> None:
        if va in self.programs_seen:
            self.emit(f"{indent}program at 0x{va:x}: (disassembled above)")
            return
        self.programs_seen.add(va)
        self.emit(f"{indent}program at 0x{va:x}:")
        size_B = self.disassemble_program(va, indent + "  ")
        if size_B:
            refs.append((va, size_B, "program"))

    def disassemble_program(self, va: int, indent: str) -> int:
        """Disassemble until a ``stop`` past every branch target; returns bytes decoded."""
        code = b""
        furthest = pos = 0
        while pos < MAX_PROGRAM_B:
            if len(code) < pos + 16:
                chunk = self.read(va + len(code), 256)
                if isinstance(chunk, str):
                    chunk = self.read(va + len(code), 16)
                    if isinstance(chunk, str):
                        if pos >= len(code):
                            self.emit(f"{indent}{pos:6x}:  ??? ({chunk})")
                            return pos
                        chunk = b""
                code += chunk
            try:
                ins = isa.decode_one(code, pos)
            except isa.DecodeError as e:
                self.emit(f"{indent}{pos:6x}:  ??? ({e})")
                self.hexdump(code[pos:pos + 16], va + pos, indent + "        ")
                return pos
            if self.text:
                self.emit(f"{indent}{pos:6x}:  {ins}")
            if ins.op.unit == "jmp" and "target" in ins.values:
                furthest = max(furthest, pos + int(ins["target"]))
            pos += ins.op.length_B
            if ins.op.name == "stop" and pos > furthest:
                return pos
        self.emit(f"{indent}... no terminating stop within {MAX_PROGRAM_B} bytes")
        return pos

    # ---- walks
    def emit_item(self, item: P.StreamItem, indent: str, refs: list) -> None:
        if self.text:
            for line in P.format_stream([item]).splitlines():
                self.emit(indent + line)
        for it in [item, *item.children]:
            self.collect(it, refs)
        # follow what the walker does not: programs, tables, uniforms
        flat: list[P.StreamItem] = []

        def walk(it):
            flat.append(it)
            for c in it.children:
                walk(c)
        walk(item)
        usc = [it for it in flat if it.label == "USC"]
        if usc:
            self.usc_extras(usc, indent + "    ", refs)

    def collect(self, item: P.StreamItem, refs: list) -> None:
        if item.record is not None:
            refs.append((item.va, 4 * len(item.words), item.name or "block"))
            for what, va in _address_fields(item.record):
                size = None
                if what == "VDM_INDEX_LIST.index_buffer":
                    size = item.record.index_buffer_size_B
                elif what.endswith("indirect_buffer"):
                    size = 20
                refs.append((va, size, what))
        for child in item.children:
            self.collect(child, refs)

    def stream(self, title: str, walk, start_va: int, indent: str) -> None:
        self.emit(f"{indent}{title} at 0x{start_va:x}:")
        if not start_va:
            self.emit(f"{indent}  (none)")
            return
        for item in walk(self.read_words, start_va, max_blocks=MAX_BLOCKS):
            block = Block(item, title, line=len(self.out.lines))
            self.out.blocks.append(block)
            self.emit_item(item, indent + "  ", block.refs)

    def usc_program(self, title: str, offset: int, indent: str) -> None:
        """A bg/eot/helper program: USC words at usc_exec_base + offset."""
        if not offset:
            return
        va = self.usc_exec_base + offset
        self.emit(f"{indent}{title}: USC words at 0x{va:x} (usc_exec_base + 0x{offset:x})")
        for it in P.decode_usc_words(self.read_words, va):
            block = Block(it, title, line=len(self.out.lines))
            self.out.blocks.append(block)
            self.emit_item(it, indent + "  ", block.refs)


def decode_command(kind: str, cmd, memory, usc_exec_base: int = 0, *, text: bool = True) -> CommandDecode:
    """Decode one command (``kind`` "render"/"blit"/"compute", ``cmd`` its cffi struct).
    ``text=False``: only the blocks and their references (no lines; faster)."""
    out = CommandDecode()
    dec = _Decoder(memory, usc_exec_base, out, text)
    indent = "    "
    if kind == "compute":
        dec.stream("CDM stream", P.walk_cdm, cmd.cdm_ctrl_stream_base, indent)
        dec.usc_program("helper program", cmd.helper.binary, indent)
        if cmd.sampler_heap and cmd.sampler_count:
            dec.table(P.SAMPLER, cmd.sampler_heap, 0, cmd.sampler_count, indent, out.extra_refs)
        return out
    if kind == "render":
        dec.stream("VDM stream", P.walk_vdm, cmd.vdm_ctrl_stream_base, indent)
        dec.usc_program("vertex helper program", cmd.vertex_helper.binary, indent)
    for name in ("bg", "eot", "partial_bg", "partial_eot"):
        dec.usc_program(f"{name} program", getattr(cmd, name).usc, indent)
    dec.usc_program("fragment helper program", cmd.fragment_helper.binary, indent)
    if cmd.sampler_heap and cmd.sampler_count:
        dec.table(P.SAMPLER, cmd.sampler_heap, 0, cmd.sampler_count, indent, out.extra_refs)
    if cmd.zls_ctrl:
        zls = P.unpack(P.ZLS_CONTROL, (cmd.zls_ctrl & 0xFFFFFFFF).to_bytes(4, "little"))
        if text:
            dec.emit(f"{indent}zls_ctrl: " + P.format_record(zls, indent + "  ", defaults=False).lstrip())
    pixels = cmd.width_px * cmd.height_px * max(cmd.layers, 1) * max(cmd.samples, 1)
    for name, bytes_per_sample in (("depth", 4), ("stencil", 1)):
        buf = getattr(cmd, name)
        if buf.base:
            out.extra_refs.append((buf.base, pixels * bytes_per_sample, f"{name}.base"))
    for name in ("isp_scissor_base", "isp_dbias_base", "isp_oclqry_base"):
        if getattr(cmd, name):
            out.extra_refs.append((getattr(cmd, name), None, name))
    return out
