"""A forgiving walker for VDM and CDM control streams (after Mesa's
``agxdecode``): it follows stream links, calls and returns, decodes every block
through the packet table, follows pointers to PPP state, USC words and
coefficient-register bindings, hexdumps whatever does not decode and moves on, and
never hangs or crashes on garbage (a block budget, a call-depth limit and loop
detection bound it; read errors end the stream with an error item).

The GPU model consumes the items it yields (``item.record``); the decoder prints
them with :func:`format_stream`. ``read_words(va, nwords)`` is the caller's memory
access: it returns ``nwords`` 32-bit words at ``va`` (any sequence of ints) or
raises (a GPU fault, for instance), which the walker reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from . import defs as d
from .table import Group, GroupRecord, Packet, Record, format_record

__all__ = ["Stream", "StreamItem", "VDM_STREAM", "CDM_STREAM", "USC_STREAM",
           "walk_vdm", "walk_cdm", "decode_usc_words", "decode_ppp_state",
           "decode_cf_bindings", "format_stream", "ReadWords", "memory_reader"]

ReadWords = Callable[[int, int], Sequence[int]]


@dataclass(frozen=True)
class Stream:
    """A kind of stream: which bits of a block's first word select its packet."""

    name: str
    tag_start: int
    tag_size: int
    kinds: dict  # tag value -> Packet | Group

    def identify(self, word0: int) -> "Packet | Group | None":
        return self.kinds.get((word0 >> self.tag_start) & ((1 << self.tag_size) - 1))


VDM_STREAM = Stream("VDM", 29, 3, {
    d.VDMBlock.PPP_STATE_UPDATE: d.VDM_PPP_STATE_UPDATE,
    d.VDMBlock.BARRIER: d.VDM_BARRIER,
    d.VDMBlock.VDM_STATE_UPDATE: d.VDM_STATE,
    d.VDMBlock.INDEX_LIST: d.VDM_INDEX_LIST,
    d.VDMBlock.STREAM_LINK: d.VDM_STREAM_LINK,
    d.VDMBlock.TERMINATE: d.VDM_TERMINATE,
})

CDM_STREAM = Stream("CDM", 29, 3, {
    d.CDMBlock.LAUNCH: d.CDM_LAUNCH,
    d.CDMBlock.STREAM_LINK: d.CDM_STREAM_LINK,
    d.CDMBlock.TERMINATE: d.CDM_TERMINATE,
    d.CDMBlock.BARRIER: d.CDM_BARRIER,
    d.CDMBlock.RETURN: d.CDM_RETURN,
})

USC_STREAM = Stream("USC", 0, 8, {
    d.USCTag.END: d.USC_END, d.USCTag.SHADER: d.USC_SHADER, d.USCTag.UNIFORM: d.USC_UNIFORM,
    d.USCTag.TEXTURE: d.USC_TEXTURE, d.USCTag.SAMPLER: d.USC_SAMPLER, d.USCTag.SHARED: d.USC_SHARED,
    d.USCTag.VARYINGS: d.USC_VARYINGS, d.USCTag.FRAGMENT: d.USC_FRAGMENT, d.USCTag.PBE: d.USC_PBE,
})

MAX_USC_WORDS = 64        # tagged USC records per pipeline before giving up
MAX_UNKNOWN_RUN = 16      # consecutive undecodable words before a stream is abandoned


@dataclass
class StreamItem:
    """One step of a walk.

    ``record`` is the decoded packet (a Record, or a GroupRecord for state groups), or
    None when the words did not decode (``error`` says why; ``words`` holds them for
    the hexdump). ``depth`` is the call depth. ``children`` are the structures the
    packet points at (PPP state, USC words, CF bindings), each labelled.
    """

    va: int
    depth: int
    record: "Record | GroupRecord | None"
    words: tuple[int, ...] = ()
    error: str | None = None
    label: str = ""
    children: list["StreamItem"] = field(default_factory=list)

    @property
    def name(self) -> str | None:
        if self.record is None:
            return None
        return self.record.group.name if isinstance(self.record, GroupRecord) else self.record.name


def memory_reader(mem, unit: str = "VDM") -> ReadWords:
    """``read_words`` over any GPU memory with ``read(va, nbytes, unit) -> uint8 array``
    (drmshim's GPUMemory protocol; duck-typed, uapi imports nothing of ours)."""
    def read_words(va: int, n: int):
        raw = bytes(memoryview(mem.read(int(va), 4 * int(n), unit)).cast("B"))
        return [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]
    return read_words


def _read(read_words: ReadWords, va: int, n: int) -> tuple[int, ...]:
    words = tuple(int(w) & 0xFFFFFFFF for w in read_words(va, n))
    if len(words) != n:
        raise ValueError(f"asked for {n} words at 0x{va:x}, got {len(words)}")
    return words


def _decode_at(stream: Stream, read_words: ReadWords, va: int, depth: int) -> StreamItem:
    """Decode one block at ``va`` (never raises)."""
    try:
        w0 = _read(read_words, va, 1)[0]
    except Exception as e:  # noqa: BLE001 - any read failure is reported, not raised
        return StreamItem(va, depth, None, (), f"read failed: {e}")
    kind = stream.identify(w0)
    if kind is None:
        tag = (w0 >> stream.tag_start) & ((1 << stream.tag_size) - 1)
        return StreamItem(va, depth, None, (w0,), f"unknown {stream.name} block type {tag}")
    try:
        if isinstance(kind, Group):
            nwords = kind.size_words_for(kind.header.unpack([w0]))
        else:
            nwords = kind.size_words
        words = _read(read_words, va, nwords)
    except Exception as e:  # noqa: BLE001
        return StreamItem(va, depth, None, (w0,), f"read failed: {e}")
    return StreamItem(va, depth, kind.unpack(words), words)


def _walk(stream: Stream, read_words: ReadWords, start_va: int, *, max_blocks: int, max_depth: int,
          follow: bool) -> Iterator[StreamItem]:
    va, returns = start_va, []
    jumps_seen: set = set()
    unknown_run = 0
    for _ in range(max_blocks):
        item = _decode_at(stream, read_words, va, len(returns))
        if item.record is None:
            yield item
            if not item.words:  # unreadable: nothing more can be done on this path
                return
            unknown_run += 1
            if unknown_run >= MAX_UNKNOWN_RUN:
                yield StreamItem(va, len(returns), None, (), f"{MAX_UNKNOWN_RUN} undecodable words in a row: giving up")
                return
            va += 4
            continue
        unknown_run = 0
        rec = item.record
        if follow:
            item.children = _follow(rec, read_words, len(returns))
        yield item
        name = item.name
        size_B = 4 * len(item.words)
        if name in ("VDM_TERMINATE", "CDM_TERMINATE"):
            return
        if name in ("VDM_STREAM_LINK", "CDM_STREAM_LINK"):
            if rec.with_return:
                if len(returns) >= max_depth:
                    yield StreamItem(va, len(returns), None, (), f"calls nested deeper than {max_depth}: stopping")
                    return
                returns.append(va + size_B)
            key = (rec.target, tuple(returns))
            if key in jumps_seen:
                yield StreamItem(va, len(returns), None, (), f"loop: link to 0x{rec.target:x} again: stopping")
                return
            jumps_seen.add(key)
            va = rec.target
            continue
        if name == "CDM_RETURN" or (name == "VDM_BARRIER" and rec.returns):
            if not returns:
                if name == "CDM_RETURN":
                    yield StreamItem(va, 0, None, (), "return with no caller: stream ends")
                    return
            else:
                va = returns.pop()
                continue
        va += size_B
    yield StreamItem(va, len(returns), None, (), f"more than {max_blocks} blocks: stopping")


def walk_vdm(read_words: ReadWords, start_va: int, *, max_blocks: int = 1 << 16, max_depth: int = 8,
             follow: bool = True) -> Iterator[StreamItem]:
    """Walk a VDM control stream from ``start_va`` until VDM_TERMINATE."""
    return _walk(VDM_STREAM, read_words, start_va, max_blocks=max_blocks, max_depth=max_depth, follow=follow)


def walk_cdm(read_words: ReadWords, start_va: int, *, max_blocks: int = 1 << 16, max_depth: int = 8,
             follow: bool = True) -> Iterator[StreamItem]:
    """Walk a CDM stream from ``start_va`` until CDM_TERMINATE."""
    return _walk(CDM_STREAM, read_words, start_va, max_blocks=max_blocks, max_depth=max_depth, follow=follow)


# -- structures that packets point at ---------------------------------------------

def decode_usc_words(read_words: ReadWords, va: int, depth: int = 0) -> list[StreamItem]:
    """The tagged USC records of a pipeline, up to and including USC_END."""
    items = []
    for _ in range(MAX_USC_WORDS):
        item = _decode_at(USC_STREAM, read_words, va, depth)
        item.label = "USC"
        items.append(item)
        if item.record is None or item.name == "USC_END":
            return items
        va += 4 * len(item.words)
    items.append(StreamItem(va, depth, None, (), f"no USC_END within {MAX_USC_WORDS} records", "USC"))
    return items


def decode_ppp_state(read_words: ReadWords, va: int, size_words: int, depth: int = 0) -> StreamItem:
    """The PPP_STATE group at ``va``; a size mismatch is reported in ``error``."""
    try:
        w0 = _read(read_words, va, 1)[0]
        header = d.PPP_HEADER.unpack([w0])
        n = d.PPP_STATE.size_words_for(header)
        words = _read(read_words, va, n)
    except Exception as e:  # noqa: BLE001
        return StreamItem(va, depth, None, (), f"read failed: {e}", "PPP state")
    rec = d.PPP_STATE.unpack(words)
    err = None if n == size_words else f"PPP state is {n} words but the update says {size_words}"
    return StreamItem(va, depth, rec, words, err, "PPP state")


def decode_cf_bindings(read_words: ReadWords, va: int, count: int, depth: int = 0) -> list[StreamItem]:
    """A CF_BINDING_HEADER and ``count`` CF_BINDINGs."""
    try:
        words = _read(read_words, va, 1 + count)
    except Exception as e:  # noqa: BLE001
        return [StreamItem(va, depth, None, (), f"read failed: {e}", "CF bindings")]
    out = [StreamItem(va, depth, d.CF_BINDING_HEADER.unpack(words[:1]), words[:1], label="CF bindings")]
    out += [StreamItem(va + 4 * (i + 1), depth, d.CF_BINDING.unpack([w]), (w,), label="CF bindings")
            for i, w in enumerate(words[1:])]
    return out


def _follow(rec: "Record | GroupRecord", read_words: ReadWords, depth: int) -> list[StreamItem]:
    children: list[StreamItem] = []
    if isinstance(rec, GroupRecord):
        vs = rec.members.get("vertex_shader")
        if vs is not None:
            children += decode_usc_words(read_words, vs.pipeline, depth + 1)
        return children
    if rec.name == "VDM_PPP_STATE_UPDATE":
        ppp = decode_ppp_state(read_words, rec.state, rec.size_words, depth + 1)
        children.append(ppp)
        fs = ppp.record.members.get("fragment_shader") if ppp.record is not None else None
        if fs is not None:
            ppp.children += decode_usc_words(read_words, fs.pipeline, depth + 2)
            ppp.children += decode_cf_bindings(read_words, fs.cf_bindings, fs.cf_binding_count, depth + 2)
    elif rec.name == "CDM_LAUNCH":
        children += decode_usc_words(read_words, rec.pipeline, depth + 1)
    return children


# -- printing ----------------------------------------------------------------------

def _hexdump(words: tuple[int, ...]) -> str:
    return " ".join(f"{w:08x}" for w in words)


def format_stream(items: "Iterator[StreamItem] | list[StreamItem]", *, defaults: bool = False) -> str:
    """Human-readable text of a walk: each block at its address, pointed-at structures
    indented below it, undecodable words hexdumped with the reason."""
    lines: list[str] = []

    def emit(item: StreamItem, indent: str) -> None:
        label = f"[{item.label}] " if item.label else ""
        if item.record is None:
            dump = f" {_hexdump(item.words)}" if item.words else ""
            lines.append(f"{indent}0x{item.va:010x}: {label}???{dump}  ({item.error})")
        else:
            text = format_record(item.record, indent + "  ", defaults=defaults).lstrip()
            lines.append(f"{indent}0x{item.va:010x}: {label}{text}")
            if item.error:
                lines.append(f"{indent}  (!) {item.error}")
        for child in item.children:
            emit(child, indent + "    ")

    for item in items:
        emit(item, "  " * item.depth)
    return "\n".join(lines)
