"""The fragment half's per-pass facts are taken again when their inputs are the
same, and computed afresh when one changes: a draw's state (``fragment.draw_state``:
its PPP records, its fragment pipeline with its uniform values, its program), the
PBE's decoded target (``pbe._target``: the descriptor's bytes) and whether a clear's
store can be a fill (``pbe.fill_possible``). Each test renders the same command
again after changing one input in memory at the same address, and checks the image
against the value written (a stale memo would keep the old one)."""

from __future__ import annotations

import numpy as np
import pytest

import layout

import drmshim.gpu.pipeline.fragment as fragment
from drmshim.gpu.pipeline import Executor
from uapi import packets as P

from .gpu import Scene, Space, Target, f32bits

UNIFORM_FS = "\n".join(["mov r4, u0", "mov r5, u1", "mov r6, u2", "mov r7, u3",
                        "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])
QUAD = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1],
                 [-1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]], np.float32)


def _record(sp: Space, va: int, name: str):
    """The first ``name`` record of the USC words at ``va``."""
    while True:
        kind = P.USC_STREAM.identify(int(sp.get(va, 1, np.uint32)[0]))
        rec = kind.unpack(sp.get(va, kind.size_B).tobytes())
        if rec.name == name:
            return rec
        assert rec.name != "USC_END"
        va += kind.size_B


def _rgba8(*rgba):
    return [int(round(v * 255)) for v in rgba]


def _uniform_pipeline(sp: Space, rgba) -> tuple[int, int]:
    """(USC words of UNIFORM_FS, its uniform buffer's address) with ``rgba`` in u0-u3."""
    buf = sp.put(np.array(f32bits(*rgba), np.uint32).view(np.uint16))
    words = b"".join([P.pack("USC_SHADER", register_count=8, code=sp.program(UNIFORM_FS)),
                      P.pack("USC_UNIFORM", start_halves=0, size_halves=8, buffer=buf), P.pack("USC_END")])
    return sp.put(words, 16), buf


@pytest.mark.parametrize("tiling", ["linear", "twiddled_compressed"])
def test_a_draw_state_follows_its_uniforms(tiling, monkeypatch):
    sp = Space()
    sc = Scene(sp, 64, 64, tiling=tiling)
    fs, buf = _uniform_pipeline(sp, (0.2, 0.4, 0.6, 0.8))
    sc.draw(QUAD, fs)
    made = []
    real = fragment._draw_state
    monkeypatch.setattr(fragment, "_draw_state", lambda *a: made.append(1) or real(*a))
    ex = Executor(sysmem=False)
    first = sc.render(ex).copy()
    assert (first.reshape(-1, 4) == _rgba8(0.2, 0.4, 0.6, 0.8)).all()
    again = sc.render(ex)
    assert np.array_equal(again, first) and len(made) == 1        # the second render took the state
    sp.mem.write(buf, np.array(f32bits(1.0, 0.0, 0.6, 1.0), np.uint32), "test")
    changed = sc.render(ex)
    assert (changed.reshape(-1, 4) == _rgba8(1.0, 0.0, 0.6, 1.0)).all() and len(made) == 2
    assert sc.last.counters.snapshot()["fragments"] == 64 * 64


def test_a_draw_state_follows_its_program():
    sp = Space()
    sc = Scene(sp, 32, 32)
    fs, _ = _uniform_pipeline(sp, (0.2, 0.4, 0.6, 0.8))
    sc.draw(QUAD, fs)
    ex = Executor(sysmem=False)
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(0.2, 0.4, 0.6, 0.8)).all()
    code = _record(sp, fs, "USC_SHADER").code
    swapped = UNIFORM_FS.replace("mov r4, u0", "mov r4, u2").replace("mov r6, u2", "mov r6, u0")
    from uapi.isa import assemble
    new = assemble(swapped)
    assert len(new) == len(assemble(UNIFORM_FS))
    sp.mem.write(code, new, "test")
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(0.6, 0.4, 0.2, 0.8)).all()


def test_a_clear_follows_its_descriptor_and_its_value():
    """A clear-only command (a fill of the target) stored again after its PBE
    descriptor was rewritten to point at another image, or its clear value changed."""
    sp = Space()
    sc = Scene(sp, 64, 64, tiling="twiddled_compressed", clear=(0.0, 0.2, 0.4, 1.0))
    ex = Executor(sysmem=False)
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(0.0, 0.2, 0.4, 1.0)).all()
    other = Target(sp, 64, 64, tiling="twiddled_compressed")
    desc_va = _record(sp, sc.eot, "USC_PBE").descriptor
    assert sp.get(desc_va, len(sc.target.pbe)).tobytes() == sc.target.pbe
    sp.mem.write(desc_va, np.frombuffer(other.pbe, np.uint8), "test")
    blank = np.zeros(sc.target.lay.size_B, np.uint8)
    layout.clear_metadata(sc.target.lay, blank)
    sp.mem.write(sc.target.va, blank, "test")
    sc.render(ex)
    assert (other.pixels().reshape(-1, 4) == _rgba8(0.0, 0.2, 0.4, 1.0)).all()
    assert not sc.target.pixels().any()                                 # the old target untouched
    # the same descriptor again, another clear value in the background's uniforms
    bg_uniforms = _record(sp, sc.bg, "USC_UNIFORM").buffer
    sp.mem.write(bg_uniforms, np.array(f32bits(1.0, 1.0, 0.0, 1.0), np.uint32), "test")
    sc.render(ex)
    assert (other.pixels().reshape(-1, 4) == _rgba8(1.0, 1.0, 0.0, 1.0)).all()


def test_a_clear_follows_its_background_program():
    from uapi.isa import assemble

    from .gpu import CLEAR_BG
    sp = Space()
    sc = Scene(sp, 64, 64, tiling="twiddled_compressed", clear=(0.0, 0.2, 0.4, 1.0))
    ex = Executor(sysmem=False)
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(0.0, 0.2, 0.4, 1.0)).all()
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(0.0, 0.2, 0.4, 1.0)).all()
    swapped = assemble(CLEAR_BG.replace("mov r4, u0", "mov r4, u2").replace("mov r6, u2", "mov r6, u0"))
    assert len(swapped) == len(assemble(CLEAR_BG))
    sp.mem.write(_record(sp, sc.bg, "USC_SHADER").code, swapped, "test")
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(0.4, 0.2, 0.0, 1.0)).all()


def test_uniform_record_finds_the_bytes_written_on_every_lane():
    """A lane-uniform program's record (``fragment.uniform_record``): the bytes it
    writes (a partial store: channels 0 and 2 of an RGBA8 word, then a whole word at
    byte 4) and their values, by hand; a program reading a special register is not
    uniform."""
    from drmshim.gpu.pipeline.executor import GuardedCore
    from drmshim.gpu.pipeline.usc_words import read_pipeline
    sp = Space()
    asm = "\n".join(["mov_imm r4, 0x3f800000", "mov_imm r5, 0x3f000000", "mov_imm r6, 0x3e800000",
                     "mov_imm r7, 0", "st_tile.unorm8 r4_r5_r6_r7, 0, 5",
                     "mov_imm r8, 0x12345678", "st_tile.i32 r8, 4, 1", "stop"])
    pipe = read_pipeline(sp.mem, sp.usc(asm), "PDM")
    written, value = fragment.uniform_record(GuardedCore(sp.mem), pipe, 12, {})
    assert written.tolist() == [True, False, True, False] + [True] * 4 + [False] * 4
    assert value[[0, 2]].tolist() == [255, 64] and value[4:8].view("<u4")[0] == 0x12345678
    varying = read_pipeline(sp.mem, sp.usc("get_sr r4, pixel_x\nst_tile.i32 r4, 0, 1\nstop"), "PDM")
    assert fragment.uniform_record(GuardedCore(sp.mem), varying, 4, {}) is None
