"""USC words: what a pipeline address points at, decoded for the shader core.

Sole responsibility: read the tagged USC records of one pipeline (``USC_SHADER``,
``USC_UNIFORM``, ``USC_TEXTURE``, ``USC_SAMPLER``, ``USC_SHARED``,
``USC_VARYINGS``, ``USC_FRAGMENT``, ``USC_PBE``, ended by ``USC_END``) through the packet
table, load the uniform registers they name, and fill the matching fields of an
:class:`~drmshim.gpu.usc.ExecContext`. Every read is a GPU access of the unit
that fetches the words (a bad address is a :class:`~drmshim.memory.GPUFault`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from uapi import packets as P

from ...memory import malformed

__all__ = ["ShaderPipeline", "decoded", "read_pipeline", "read_words"]

MAX_RECORDS = 64


def read_words(memory, va: int, count: int, unit: str) -> np.ndarray:
    """``count`` little-endian 32-bit words at ``va`` (uint32)."""
    return memory.read(va, 4 * count, unit).view("<u4").astype(np.uint32)


@dataclass
class ShaderPipeline:
    """One decoded pipeline (a shader and its bindings)."""

    va: int
    code_va: int = 0
    register_count: int = 0
    scratch_size_B: int = 0
    uniforms: np.ndarray = field(default_factory=lambda: np.zeros(256, np.uint32))
    texture_heap_va: int = 0
    sampler_heap_va: int = 0
    local_memory_B: int = 0
    threadgroup_size_threads: int = 1
    output_count_words: int = 0
    cf_count: int = 0
    writes_depth: bool = False
    writes_sample_mask: bool = False
    discards: bool = False
    early_z: bool = True
    per_sample: bool = False       # USC_FRAGMENT: one invocation per covered sample, not per pixel
    post_depth_coverage: bool = False   # USC_FRAGMENT: coverage_mask after the early tests
    pbe: list = field(default_factory=list)   # (tile_offset_B, descriptor va) per USC_PBE

    def context_fields(self) -> dict:
        """Keyword arguments of ExecContext this pipeline determines."""
        return dict(uniforms=self.uniforms, texture_heap_va=self.texture_heap_va,
                    sampler_heap_va=self.sampler_heap_va, texture_desc_stride_B=P.TEXTURE_DESC_B,
                    sampler_desc_stride_B=P.SAMPLER_DESC_B)


_DECODED: dict = {}
_DECODED_MAX = 4096


def decoded(kind, raw: bytes):
    """``kind.unpack(raw)`` (a packet or a group), remembered by the bytes: a frame
    decodes the same pipeline words, stream blocks, PPP state and coefficient
    bindings again and again, draw after draw. The records are shared, so their
    users only read them. A malformed group (too few words) raises every time."""
    key = (kind.name, raw)
    rec = _DECODED.get(key)
    if rec is None:
        rec = _group_unpack(kind, raw) if isinstance(kind, P.Group) else kind.unpack(raw)
        if len(_DECODED) >= _DECODED_MAX:
            _DECODED.clear()
        _DECODED[key] = rec
    return rec


def _group_unpack(group, raw: bytes):
    """``group.unpack(raw)`` with its header and each member record decoded (and
    remembered) by their own bytes: a draw's PPP state or VDM state differs from the
    last draw's in one member (the fragment or vertex shader's pipeline address: its
    uniforms were uploaded afresh), so the other members are the same records."""
    header = decoded(group.header, raw[:group.header.size_B])
    rec = P.GroupRecord(group, header, {}, group.size_words_for(header))
    if len(raw) < 4 * rec.size_words:
        return group.unpack(raw)            # raises as unpack does
    off = group.header.size_B
    for m, packet in group.members.items():
        if header[m]:
            rec.members[m] = decoded(packet, raw[off:off + packet.size_B])
            off += packet.size_B
    return rec


#: The record streams walked so far, by address: (the stream's bytes, its records).
_STREAMS: dict = {}
_STREAMS_MAX = 1024


def _records(memory, va: int, unit: str):
    """The decoded records of the USC stream at ``va`` (to its ``USC_END``), each
    with the address after it. A stream walked before is taken again when its bytes
    are unchanged, compared in one look at the memory (``window``: a range the unit
    may read whole, so the walk could not fault); otherwise the walk reads record by
    record as the caller takes them, each a GPU access that faults where the words do
    (the caller's own reads between records keep their order)."""
    known = _STREAMS.get(va)
    window = getattr(memory, "window", None)
    if known is not None and window is not None:
        raw, records = known
        seen = window(va, len(raw), True)
        if seen is not None and seen.tobytes() == raw:
            yield from records
            return
    records = []
    at = va
    for _ in range(MAX_RECORDS):
        w0 = int(read_words(memory, at, 1, unit)[0])
        kind = P.USC_STREAM.identify(w0)
        if kind is None:
            raise malformed(unit, at, f"USC words at 0x{va:x}: unknown tag {w0 & 0xFF} at 0x{at:x}")
        rec = decoded(kind, memory.read(at, kind.size_B, unit).tobytes())
        at += kind.size_B
        records.append((at, rec))
        if rec.name == "USC_END":
            break
        yield at, rec
    else:
        raise malformed(unit, va, f"USC words: no USC_END within {MAX_RECORDS} records")
    seen = window(va, at - va, True) if window is not None else None
    if seen is not None:
        if len(_STREAMS) >= _STREAMS_MAX:
            _STREAMS.clear()
        _STREAMS[va] = (seen.tobytes(), tuple(records))
    yield at, rec


#: The pipelines decoded so far, by (address, sampler heap): (the stream's bytes,
#: the uniform ranges it reads as (va, bytes) pairs, their bytes, the pipeline).
_PIPELINES: dict = {}
_PIPELINES_MAX = 1024


def _known_pipeline(memory, va: int, sampler_heap_va: int):
    """The pipeline decoded at ``va`` before, when the stream's bytes and those of
    every uniform range it read are still the same (compared through the memory's
    window, where it gives one: then nothing could fault), else None."""
    known = _PIPELINES.get((va, sampler_heap_va))
    window = getattr(memory, "window", None)
    if known is None or window is None:
        return None
    raw, spans, values, pipe = known
    seen = window(va, len(raw), True)
    if seen is None or seen.tobytes() != raw:
        return None
    for (at, n), value in zip(spans, values):
        seen = window(at, n, True)
        if seen is None or seen.tobytes() != value:
            return None
    return pipe


def read_pipeline(memory, va: int, unit: str, sampler_heap_va: int = 0) -> ShaderPipeline:
    """Decode the USC words at ``va``. ``sampler_heap_va``: the command's sampler
    heap, used when the pipeline binds no sampler table of its own.

    A pipeline read before whose words and uniform values are unchanged (every byte
    compared) is the same object again: callers only read it (its uniforms are
    read-only), and facts other units remember about it stay valid while it does."""
    pipe = _known_pipeline(memory, va, sampler_heap_va)
    if pipe is not None:
        return pipe
    pipe = ShaderPipeline(va, sampler_heap_va=sampler_heap_va)
    halves = pipe.uniforms.view(np.uint16)
    spans = []
    for at, rec in _records(memory, va, unit):
        name = rec.name
        if name == "USC_END":
            _remember(memory, va, sampler_heap_va, at, spans, pipe)
            return pipe
        if name == "USC_SHADER":
            pipe.code_va, pipe.register_count, pipe.scratch_size_B = rec.code, rec.register_count, rec.scratch_size_B
        elif name == "USC_UNIFORM":
            n = rec.size_halves
            if n:
                if rec.start_halves + n > halves.size:
                    raise malformed(unit, at, f"USC_UNIFORM: halves {rec.start_halves}+{n} exceed 512")
                data = memory.read(rec.buffer, 2 * n, unit)
                halves[rec.start_halves:rec.start_halves + n] = data.view("<u2")
                spans.append(((rec.buffer, 2 * n), data.tobytes()))
        elif name == "USC_TEXTURE":
            pipe.texture_heap_va = rec.table - rec.start * P.TEXTURE_DESC_B
        elif name == "USC_SAMPLER":
            pipe.sampler_heap_va = rec.table - rec.start * P.SAMPLER_DESC_B
        elif name == "USC_SHARED":
            pipe.local_memory_B = rec.local_memory_size_B
            pipe.threadgroup_size_threads = rec.threadgroup_size_threads
        elif name == "USC_VARYINGS":
            pipe.output_count_words, pipe.cf_count = rec.output_count_words, rec.cf_count
        elif name == "USC_PBE":
            pipe.pbe.append((rec.tile_offset_B, rec.descriptor))
        elif name == "USC_FRAGMENT":
            pipe.writes_depth, pipe.writes_sample_mask = rec.writes_depth, rec.writes_sample_mask
            pipe.discards, pipe.early_z = rec.discards, rec.early_z
            pipe.per_sample = rec.per_sample
            pipe.post_depth_coverage = rec.post_depth_coverage
    raise AssertionError("a USC stream's records end with USC_END")


def _remember(memory, va: int, sampler_heap_va: int, end: int, spans: list, pipe: ShaderPipeline) -> None:
    """Keep ``pipe`` (decoded from the stream [va, end) and the uniform ``spans``
    it read) for ``_known_pipeline``, when the memory gives a window to compare."""
    window = getattr(memory, "window", None)
    seen = window(va, end - va, True) if window is not None else None
    if seen is None:
        return
    pipe.uniforms.flags.writeable = False
    if len(_PIPELINES) >= _PIPELINES_MAX:
        _PIPELINES.clear()
    _PIPELINES[(va, sampler_heap_va)] = (seen.tobytes(), tuple(s for s, _ in spans),
                                                    tuple(v for _, v in spans), pipe)
