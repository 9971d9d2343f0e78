"""A render command whose fragment half would read the same bytes as a recent
one's, over the same TVB (none: a clear; a vertex half taken again: a fill),
takes that half again (``repeat.recall_half``): its fills are written again and
its counters added, nothing is derived again. Checked against the same commands
run with the memory off (every byte of the target, metadata included, and the
counters); each input the half read changed in memory at the same address, or a
command field changed, is a miss that renders what the memory now says; the
target overwritten between frames is written again (the frame's pixels reach
memory every frame); halves that write anything but fills are never taken again;
the debug words that observe the GPU step aside."""

from __future__ import annotations

import numpy as np
import pytest

import layout

import drmshim.gpu.pipeline.render as render
import drmshim.gpu.pipeline.repeat as repeat
from drmshim.gpu.pipeline import Executor
from drmshim.memory import FlatMemory
from uapi import packets as P
from uapi.isa import assemble

from .gpu import CLEAR_BG, Scene, Space, Target, f32bits, u64_uniforms

UNIFORM_FS = "\n".join(["mov r4, u0", "mov r5, u1", "mov r6, u2", "mov r7, u3",
                        "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])
QUAD = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1],
                 [-1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]], np.float32)
CLEAR = (0.0, 0.2, 0.4, 1.0)
FILL = (0.8, 0.4, 0.2, 1.0)


@pytest.fixture
def halves(monkeypatch):
    """The memory on, empty, and a count of the fragment halves really run."""
    monkeypatch.setattr(repeat, "COMMANDS", 8)
    repeat.forget()
    runs = []
    real = render._fragment_half

    def count(executor, command, tvb):
        runs.append(1)
        return real(executor, command, tvb)

    monkeypatch.setattr(render, "_fragment_half", count)
    yield runs
    repeat.forget()


def _rgba8(*rgba):
    return [int(round(v * 255)) for v in rgba]


def _record(sp: Space, va: int, name: str):
    """The first ``name`` record of the USC words at ``va``."""
    while True:
        kind = P.USC_STREAM.identify(int(sp.get(va, 1, np.uint32)[0]))
        rec = kind.unpack(sp.get(va, kind.size_B).tobytes())
        if rec.name == name:
            return rec
        assert rec.name != "USC_END"
        va += kind.size_B


class Frames:
    """Render commands of one scene that repeat: the same VDM stream (or none) and
    fields each time, as a program drawing the same frame again submits them."""

    def __init__(self, sc: Scene, draws: bool, **fields):
        self.sc, self.fields = sc, fields
        self.stream = sc.command().cmd.vdm_ctrl_stream_base if draws else 0

    def warm(self, ex, halves: list) -> None:
        """A first frame: the shader core decodes the programs (its first reads span
        whole pages, which the test's later allocations share) and the vertex half
        is remembered; then the count starts, with no fragment half remembered."""
        self.render(ex)
        halves.clear()
        repeat._HALVES.clear()

    def render(self, ex, **fields) -> np.ndarray:
        cmd = self.sc.command(stream=self.stream, **{**self.fields, **fields})
        ex.run_vertex(cmd)
        ex.run_fragment(cmd)
        assert not cmd.faults
        self.last = cmd
        return self.sc.target.pixels()

    def raw(self) -> np.ndarray:
        t = self.sc.target
        return t.space.get(t.va, t.lay.size_B).copy()


def _clear_frames(tiling: str) -> Frames:
    return Frames(Scene(Space(), 64, 64, tiling=tiling, clear=CLEAR), draws=False)


def _fill_frames(tiling: str = "twiddled_compressed") -> tuple[Frames, int]:
    """A full-screen draw of FILL (a uniform colour) over the clear; (frames, the
    draw's uniform buffer)."""
    sp = Space()
    sc = Scene(sp, 64, 64, tiling=tiling, clear=CLEAR)
    buf = sp.put(np.array(f32bits(*FILL), np.uint32).view(np.uint16))
    fs = sp.put(b"".join([P.pack("USC_SHADER", register_count=8, code=sp.program(UNIFORM_FS)),
                          P.pack("USC_UNIFORM", start_halves=0, size_halves=8, buffer=buf), P.pack("USC_END")]), 16)
    sc.draw(QUAD, fs)
    return Frames(sc, draws=True), buf


@pytest.mark.parametrize("tiling", ["linear", "twiddled_compressed"])
@pytest.mark.parametrize("kind", ["clear", "fill"])
def test_a_repeated_half_writes_what_running_it_writes(kind, tiling, halves, monkeypatch):
    frames = _clear_frames(tiling) if kind == "clear" else _fill_frames(tiling)[0]
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    got = []
    for _ in range(3):
        img = frames.render(ex)
        got.append((frames.raw(), frames.last.counters.snapshot()))
    assert len(halves) == 1                 # the second and third took the first's half
    assert (img.reshape(-1, 4) == _rgba8(*(CLEAR if kind == "clear" else FILL))).all()
    monkeypatch.setattr(repeat, "COMMANDS", 0)      # the same frame with the memory off
    frames.render(ex)
    assert len(halves) == 2
    want = (frames.raw(), frames.last.counters.snapshot())
    for raw, counters in got:
        assert np.array_equal(raw, want[0]) and counters == want[1]
    assert want[1]["tiles"] == 4 and want[1]["fragments"] == (0 if kind == "clear" else 64 * 64)


@pytest.mark.parametrize("tiling", ["linear", "twiddled_compressed"])
def test_the_target_is_written_again_each_frame(tiling, halves):
    """The target overwritten between frames (a program drawing into it with the
    CPU): the half taken again still stores the clear."""
    frames = _clear_frames(tiling)
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    frames.render(ex)
    first = frames.raw()
    t = frames.sc.target
    for fill in (0x00, 0x5A):
        junk = np.full(t.lay.size_B, fill, np.uint8)
        if tiling == "twiddled_compressed":
            layout.clear_metadata(t.lay, junk)
        t.space.mem.write(t.va, junk, "test")
        assert (frames.render(ex).reshape(-1, 4) == _rgba8(*CLEAR)).all()
        if tiling == "linear":
            assert np.array_equal(frames.raw(), first)
    assert len(halves) == 1


def test_a_new_clear_value_is_a_miss(halves):
    frames = _clear_frames("twiddled_compressed")
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    frames.render(ex), frames.render(ex)
    u = _record(frames.sc.space, frames.sc.bg, "USC_UNIFORM").buffer
    frames.sc.space.mem.write(u, np.array(f32bits(1.0, 0.0, 0.6, 1.0), np.uint32), "test")
    assert (frames.render(ex).reshape(-1, 4) == _rgba8(1.0, 0.0, 0.6, 1.0)).all()
    assert len(halves) == 2


def test_a_rewritten_background_program_is_a_miss(halves):
    frames = _clear_frames("twiddled_compressed")
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    frames.render(ex), frames.render(ex)
    swapped = CLEAR_BG.replace("mov r4, u0", "mov r4, u2").replace("mov r6, u2", "mov r6, u0")
    code = _record(frames.sc.space, frames.sc.bg, "USC_SHADER").code
    new = assemble(swapped)
    assert len(new) == len(assemble(CLEAR_BG))
    frames.sc.space.mem.write(code, np.frombuffer(new, np.uint8), "test")
    assert (frames.render(ex).reshape(-1, 4) == _rgba8(CLEAR[2], CLEAR[1], CLEAR[0], CLEAR[3])).all()
    assert len(halves) == 2


def test_a_rewritten_descriptor_is_a_miss(halves):
    """The end of tile's PBE descriptor pointed at another image: the clear goes there."""
    frames = _clear_frames("twiddled_compressed")
    sc = frames.sc
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    frames.render(ex), frames.render(ex)
    other = Target(sc.space, 64, 64, tiling="twiddled_compressed")
    sc.space.mem.write(_record(sc.space, sc.eot, "USC_PBE").descriptor, np.frombuffer(other.pbe, np.uint8), "test")
    blank = np.zeros(sc.target.lay.size_B, np.uint8)
    layout.clear_metadata(sc.target.lay, blank)
    sc.space.mem.write(sc.target.va, blank, "test")
    frames.render(ex)
    assert (other.pixels().reshape(-1, 4) == _rgba8(*CLEAR)).all()
    assert not sc.target.pixels().any()
    assert len(halves) == 2


def test_another_command_field_is_a_miss(halves):
    """The same memory, an end-of-tile pipeline at another address (storing to
    another image): a command field the half reads no memory for."""
    frames = _clear_frames("twiddled_compressed")
    sc = frames.sc
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    frames.render(ex), frames.render(ex)
    other = Target(sc.space, 64, 64, tiling="twiddled_compressed")
    eot = sc.space.usc(pbe=[(0, other.pbe)])
    from .gpu import BASE
    frames.render(ex, eot={"usc": eot - BASE})
    assert (other.pixels().reshape(-1, 4) == _rgba8(*CLEAR)).all()
    assert len(halves) == 2


def test_a_new_fill_colour_and_new_geometry_are_misses(halves):
    """Over a vertex half taken again: the draw's uniform colour changed (read by the
    fragment half), then its vertices (a vertex half that runs: a TVB of another
    origin) covering the left half only."""
    frames, buf = _fill_frames()
    sp = frames.sc.space
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    for _ in range(3):
        assert (frames.render(ex).reshape(-1, 4) == _rgba8(*FILL)).all()
    assert len(halves) == 1
    sp.mem.write(buf, np.array(f32bits(0.2, 1.0, 0.0, 1.0), np.uint32), "test")
    assert (frames.render(ex).reshape(-1, 4) == _rgba8(0.2, 1.0, 0.0, 1.0)).all()
    assert len(halves) == 2
    half = QUAD.copy()
    half[:, 0] = np.where(half[:, 0] > 0, 0.0, -1.0)
    sp.mem.write(frames.sc.vertex_buffers[0], half, "test")
    for _ in range(3):      # the vertex half runs, then is taken again (a TVB of another origin): no fill, run
        img = frames.render(ex)
        assert (img[:, :32].reshape(-1, 4) == _rgba8(0.2, 1.0, 0.0, 1.0)).all()
        assert (img[:, 32:].reshape(-1, 4) == _rgba8(*CLEAR)).all()
        assert frames.last.counters.snapshot()["fragments"] == 32 * 64
    assert len(halves) == 5


def test_another_tvb_is_its_own_half(halves):
    """The draw's six vertices rewritten to one triangle covering the frame, twice
    (the fragment half reads no vertex): once that vertex half is taken again (a TVB
    of another origin), its fragment half is recorded for it, and so on back. (A
    fill's stores and counters come out the same over any TVB covering the frame,
    with HSR; the origin is in the key because the half is a function of its TVB.)"""
    frames, _ = _fill_frames()
    sp = frames.sc.space
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    big = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]] * 2, np.float32)
    for vertices in (QUAD, big, QUAD):
        sp.mem.write(frames.sc.vertex_buffers[0], vertices, "test")
        for _ in range(3):
            assert (frames.render(ex).reshape(-1, 4) == _rgba8(*FILL)).all()
            assert frames.last.counters.snapshot()["fragments"] == 64 * 64
    assert len(halves) == 2 + 2 + 1     # the vertex half runs, then the fragment half is recorded, then taken;
    #                                     back to the quad: its vertex and fragment halves are still kept


def test_a_half_that_stores_otherwise_is_not_taken_again(halves):
    """A background program that also stores to memory: every frame runs it (the
    mark written again after it was wiped)."""
    sc = Scene(Space(), 64, 64, tiling="twiddled_compressed", clear=CLEAR)
    marks = sc.space.alloc(64)
    u = u64_uniforms(0, 0, marks)
    u[:4] = f32bits(*CLEAR)
    u[4:6] = np.array([marks], np.uint64).view(np.uint32)
    storing = "\n".join(["mov_imm r8, 0x5eed", "mov_imm r9, 0", "device_store.i32 r8, u4_u5, r9, 2, 0",
                         "wait 0", CLEAR_BG])
    sc.bg = sc.space.usc(storing, uniforms=u)
    frames = Frames(sc, draws=False)
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    for _ in range(3):
        sc.space.mem.write(marks, np.zeros(4, np.uint8), "test")
        assert (frames.render(ex).reshape(-1, 4) == _rgba8(*CLEAR)).all()
        assert sc.space.get(marks, 4, np.uint32)[0] == 0x5eed
    assert len(halves) == 3


@pytest.mark.parametrize("words", ["interp", "norepeat", "fw"])
def test_observing_debug_words_step_aside(words, halves, monkeypatch):
    monkeypatch.setenv("SHIMGL_DEBUG", words)
    frames = _clear_frames("twiddled_compressed")
    ex = Executor(sysmem=False, hsr=True)
    frames.warm(ex, halves)
    for _ in range(3):
        assert (frames.render(ex).reshape(-1, 4) == _rgba8(*CLEAR)).all()
    assert len(halves) == 3


def test_the_recorder_keeps_fills_and_stops_at_a_read_of_them():
    mem = FlatMemory(1 << 16, base=0)
    mem.write(0x100, np.arange(64, dtype=np.uint8), "test")
    rec = repeat.FillRecorder(mem)
    rec.read(0x100, 16, "test")
    fills = ((0, np.uint32, (4,), (8,), np.uint32(0xDEADBEEF)),)
    assert rec.fill_window(0x200, 64, fills) and rec.ok
    assert mem.read(0x200, 32, "test").view(np.uint32).tolist() == [0xDEADBEEF, 0] * 4
    assert rec.fills == [(0x200, 64, fills)]
    rec.read(0x110, 16, "test")                 # elsewhere: still recording
    assert rec.ok and rec.kept_spans() == ((0x100, bytes(range(16))), (0x110, bytes(range(16, 32))))
    rec.read(0x230, 4, "test")                  # inside the filled range: not what a replay compares
    assert not rec.ok
    other = repeat.FillRecorder(mem)
    other.write(0x300, np.zeros(4, np.uint8), "test")   # any other write stops it
    assert not other.ok
