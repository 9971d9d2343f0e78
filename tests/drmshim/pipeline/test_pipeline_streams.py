"""usc_words.read_pipeline takes a USC record stream it walked before again when
the stream's bytes are unchanged (one look at the memory instead of two reads per
record), and walks it afresh when they changed, when the memory has no window (a
recording memory sees every read) or when the range is no longer readable (the walk
then faults where the words do). A pipeline whose stream and uniform values are
both unchanged is the same (read-only) object again; a change of any of them, or of
the command's sampler heap, gives a new one. Expected values are the records as
packed here."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.capture.memimage import RecordingMemory
from drmshim.gpu.pipeline import usc_words
from drmshim.gpu.pipeline.usc_words import read_pipeline
from drmshim.memory import FlatMemory, GPUFault
from uapi import packets as P

BASE = 0x1_0000_0000
VA = BASE + 0x100
UNIFORMS = BASE + 0x800


@pytest.fixture(autouse=True)
def _empty():
    usc_words._STREAMS.clear()
    usc_words._PIPELINES.clear()
    yield
    usc_words._STREAMS.clear()
    usc_words._PIPELINES.clear()


def _stream(code: int, pbe_desc: int = BASE + 0x900) -> bytes:
    return b"".join([P.pack("USC_SHADER", register_count=8, code=code),
                     P.pack("USC_UNIFORM", start_halves=4, size_halves=4, buffer=UNIFORMS),
                     P.pack("USC_PBE", tile_offset_B=4, descriptor=pbe_desc),
                     P.pack("USC_END")])


def _memory(code: int) -> FlatMemory:
    mem = FlatMemory(0x1000, base=BASE)
    mem.write(VA, _stream(code), "test")
    mem.write(UNIFORMS, np.array([1, 2, 3, 4], "<u2"), "test")
    return mem


def test_a_stream_read_again_gives_the_same_pipeline_and_a_changed_one_its_new_fields():
    mem = _memory(0x4000)
    first = read_pipeline(mem, VA, "PDM")
    assert VA in usc_words._STREAMS
    again = read_pipeline(mem, VA, "PDM")
    for p in (first, again):
        assert (p.code_va, p.register_count, p.pbe) == (0x4000, 8, [(4, BASE + 0x900)])
        assert p.uniforms.view(np.uint16)[4:8].tolist() == [1, 2, 3, 4]
    assert again is first and not first.uniforms.flags.writeable
    mem.write(UNIFORMS, np.array([9, 8, 7, 6], "<u2"), "test")      # uniforms are compared every time
    new = read_pipeline(mem, VA, "PDM")
    assert new is not first and new.uniforms.view(np.uint16)[4:8].tolist() == [9, 8, 7, 6]
    assert first.uniforms.view(np.uint16)[4:8].tolist() == [1, 2, 3, 4]    # the old one unchanged
    assert read_pipeline(mem, VA, "PDM") is new
    other_heap = read_pipeline(mem, VA, "PDM", sampler_heap_va=BASE + 0xC00)
    assert other_heap is not new and other_heap.sampler_heap_va == BASE + 0xC00 and new.sampler_heap_va == 0
    mem.write(VA, _stream(0x5000, BASE + 0xA00), "test")              # same length, other words
    changed = read_pipeline(mem, VA, "PDM")
    assert (changed.code_va, changed.pbe) == (0x5000, [(4, BASE + 0xA00)])


def test_a_recording_memory_sees_every_record_read():
    mem = _memory(0x4000)
    read_pipeline(mem, VA, "PDM")
    recording = RecordingMemory(mem)
    read_pipeline(recording, VA, "PDM")
    end = VA + len(_stream(0x4000))
    covered = {va for va, n in recording.reads for va in range(va, va + n)}
    assert set(range(VA, end)) <= covered


def test_a_stream_no_longer_readable_faults_as_the_walk_does():
    mem = _memory(0x4000)
    read_pipeline(mem, VA, "PDM")
    small = FlatMemory(0x100 + 8, base=BASE)                      # the same address, mapped no further
    small.write(VA, _stream(0x4000)[:8], "test")
    with pytest.raises(GPUFault) as fault:
        read_pipeline(small, VA, "PDM")
    assert (fault.value.info.unit, fault.value.info.address) == ("PDM", VA)   # USC_SHADER leaves it
    mem.write(VA, P.pack("USC_SHADER", register_count=8, code=0x4000) + bytes([0xEE]) * 8, "test")
    with pytest.raises(GPUFault) as bad:                        # an unknown tag where USC_UNIFORM was
        read_pipeline(mem, VA, "PDM")
    assert "unknown tag" in bad.value.info.reason


def test_a_pipeline_whose_uniforms_are_no_longer_readable_faults_as_the_walk_does():
    mem = _memory(0x4000)
    read_pipeline(mem, VA, "PDM")
    short = FlatMemory(0x800 + 4, base=BASE)                      # the stream, but only half the uniforms
    short.write(VA, _stream(0x4000), "test")
    short.write(UNIFORMS, np.array([1, 2], "<u2"), "test")
    with pytest.raises(GPUFault) as fault:
        read_pipeline(short, VA, "PDM")
    assert fault.value.info.unit == "PDM"
