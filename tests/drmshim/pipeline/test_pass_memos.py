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


# ----------------------------------------------------------------------------- a full-screen fill's decision

FILL = (0.2, 0.4, 0.6, 0.8)


def _fill_scene(sp: Space, tiling: str = "linear", bg: int | None = None) -> Scene:
    sc = Scene(sp, 64, 64, tiling=tiling, clear=(0.0, 0.0, 0.0, 1.0))
    if bg is not None:
        sc.bg = bg
    sc.draw(QUAD, _uniform_pipeline(sp, FILL)[0])
    return sc


def _spy_decisions(monkeypatch) -> list:
    """Count the full decisions of ``render._uniform_draw_pass`` (``uniform_cover``
    runs only when no earlier decision is taken again)."""
    import drmshim.gpu.pipeline.render as render
    made = []
    real = render.uniform_cover
    monkeypatch.setattr(render, "uniform_cover", lambda *a: made.append(1) or real(*a))
    return made


@pytest.mark.parametrize("repeated", [False, True])
def test_a_fill_follows_its_geometry(repeated, monkeypatch):
    """A full-screen fill stored again takes the earlier decision; once its vertices
    cover only the left half (the vertex half taken again or not), the right half
    keeps the background."""
    import drmshim.gpu.pipeline.repeat as repeat
    monkeypatch.setattr(repeat, "COMMANDS", 8 if repeated else 0)
    repeat.forget()
    made = _spy_decisions(monkeypatch)
    sp = Space()
    sc = _fill_scene(sp)
    ex = Executor(sysmem=False, hsr=True)
    for _ in range(3):
        assert (sc.render(ex).reshape(-1, 4) == _rgba8(*FILL)).all()
    assert len(made) == 1                       # the second and third render took the decision
    half = QUAD.copy()
    half[:, 0] = np.where(half[:, 0] > 0, 0.0, -1.0)
    sp.mem.write(sc.vertex_buffers[0], half, "test")
    img = sc.render(ex)
    assert (img[:, :32].reshape(-1, 4) == _rgba8(*FILL)).all()
    assert (img[:, 32:].reshape(-1, 4) == [0, 0, 0, 255]).all()
    assert sc.last.counters.snapshot()["fragments"] == 32 * 64
    repeat.forget()


def test_a_fill_follows_its_descriptor(monkeypatch):
    """The end of tile's PBE descriptor rewritten to another image: the fill goes there."""
    made = _spy_decisions(monkeypatch)
    sp = Space()
    sc = _fill_scene(sp, "twiddled_compressed")
    ex = Executor(sysmem=False, hsr=True)
    sc.render(ex)
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(*FILL)).all() and len(made) == 1
    other = Target(sp, 64, 64, tiling="twiddled_compressed")
    sp.mem.write(_record(sp, sc.eot, "USC_PBE").descriptor, np.frombuffer(other.pbe, np.uint8), "test")
    blank = np.zeros(sc.target.lay.size_B, np.uint8)
    layout.clear_metadata(sc.target.lay, blank)
    sp.mem.write(sc.target.va, blank, "test")
    sc.render(ex)
    assert (other.pixels().reshape(-1, 4) == _rgba8(*FILL)).all()
    assert not sc.target.pixels().any()


def test_a_fill_follows_its_background_program(monkeypatch):
    """The background's code rewritten in place into one that also stores to memory
    (no longer tile-only, so it is not hidden and must run): the store happens."""
    from uapi.isa import assemble

    from .gpu import CLEAR_BG, u64_uniforms
    made = _spy_decisions(monkeypatch)
    sp = Space()
    marks = sp.alloc(64)
    u = u64_uniforms(0, 0, marks)             # u0-u3: the clear colour (zeros), u4_u5: the marks
    u[3] = f32bits(1.0)[0]
    bg = sp.usc(CLEAR_BG, uniforms=u)
    sc = _fill_scene(sp, bg=bg)
    ex = Executor(sysmem=False, hsr=True)
    sc.render(ex)
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(*FILL)).all() and len(made) == 1
    storing = "\n".join(["mov_imm r8, 0x5eed", "mov_imm r9, 0", "device_store.i32 r8, u4_u5, r9, 2, 0",
                         "wait 0", CLEAR_BG])
    code = _record(sp, bg, "USC_SHADER").code
    sp.mem.write(code, np.frombuffer(assemble(storing), np.uint8), "test")
    assert (sc.render(ex).reshape(-1, 4) == _rgba8(*FILL)).all()
    assert sp.get(marks, 4, np.uint32)[0] == 0x5eed and len(made) == 2


def test_region_coverage_takes_read_only_rows_again_and_looks_at_others():
    """``fragment.region_coverage``: read-only rows (a vertex half taken again) give
    their answer again while they are the same objects; writable rows changed in
    place are looked at afresh; other read-only rows get their own answer."""
    from drmshim.gpu import raster as R

    def quad_setup(x1):
        xy = np.array([[[0, 0], [x1, 0], [x1, 16]], [[0, 0], [x1, 16], [0, 16]]], np.float64)
        return R.setup_triangles(np.concatenate([xy, np.full((2, 3, 1), 0.5), np.ones((2, 3, 1))], 2))
    rect = (0, 0, 16, 16)
    rows = np.arange(2, dtype=np.int64)
    live = quad_setup(16)
    assert fragment.region_coverage(live, rect, rows) == (None, 256)
    narrow = quad_setup(8)
    for f in fragment._COVERAGE_FIELDS + ("bbox_px",):     # changed in place: seen
        getattr(live, f)[...] = getattr(narrow, f)
    covered, fragments = fragment.region_coverage(live, rect, rows)
    assert fragments == 128 and covered is not None and covered[:, :8].all() and not covered[:, 8:].any()
    fixed, fixed_rows = quad_setup(16), rows.copy()
    for a in [fixed_rows] + [getattr(fixed, f) for f in fragment._COVERAGE_FIELDS]:
        a.flags.writeable = False
    assert fragment.region_coverage(fixed, rect, fixed_rows) == (None, 256)
    assert fragment.region_coverage(fixed, rect, fixed_rows) == (None, 256)
    other = quad_setup(8)
    for a in [getattr(other, f) for f in fragment._COVERAGE_FIELDS]:
        a.flags.writeable = False
    assert fragment.region_coverage(other, rect, fixed_rows)[1] == 128


@pytest.mark.parametrize("word", ["interp", "trace"])
def test_a_fill_decision_steps_aside_when_the_work_is_observed(word, monkeypatch):
    made = _spy_decisions(monkeypatch)
    sp = Space()
    sc = _fill_scene(sp)
    ex = Executor(sysmem=False, hsr=True)
    monkeypatch.setenv("SHIMGL_DEBUG", word)
    for _ in range(2):
        assert (sc.render(ex).reshape(-1, 4) == _rgba8(*FILL)).all()
    assert len(made) == 2
    monkeypatch.delenv("SHIMGL_DEBUG")
    sc.render(ex)
    sc.render(ex)
    assert len(made) == 3


def _random_straight_program(rng) -> str:
    """r4-r11 set, then moves of 16/32-bit uniforms, immediates and registers into them,
    then one or two tile stores of random formats, masks and offsets."""
    from uapi.isa.semantics import FORMAT_ELEMENT_B, PACKED_FORMATS
    written32 = list(range(4, 12))                # every register written first
    lines = [f"mov_imm r{i}, 0x{int(rng.integers(0, 1 << 32)):x}" for i in written32]

    def reg(size, index, half=0):
        return f"r{index}" if size == 32 else f"r{index}{'lh'[half]}"
    for _ in range(int(rng.integers(4, 12))):
        size, i, h = int(rng.choice([16, 32])), int(rng.integers(4, 12)), int(rng.integers(0, 2))
        kind = rng.integers(0, 3)
        if kind == 0:
            lines.append(f"mov_imm {reg(size, i, h)}, 0x{int(rng.integers(0, 1 << size)):x}")
        elif kind == 1 or not written32:
            ssize, u = int(rng.choice([16, 32])), int(rng.integers(0, 8))
            lines.append(f"mov {reg(size, i, h)}, {f'u{u}' if ssize == 32 else f'u{u}' + 'lh'[int(rng.integers(0, 2))]}")
        else:
            j = int(rng.choice(written32))
            lines.append(f"mov {reg(size, i, h)}, {reg(int(rng.choice([16, 32])), j, int(rng.integers(0, 2)))}")
    for _ in range(int(rng.integers(1, 3))):
        fmt = str(rng.choice(sorted(FORMAT_ELEMENT_B)))
        k = 4 if fmt in ("rgb10a2", "rgb10a2ui", "rgba4", "rgb5a1") else 3 if fmt in ("rg11b10f", "rgb9e5", "rgb565") \
            else int(rng.integers(1, 5))
        size = 32 if fmt in PACKED_FORMATS or fmt in ("i32",) else int(rng.choice([16, 32]))
        first = int(rng.integers(4, 12 - (k if size == 32 else (k + 1) // 2) + 1))
        data = "_".join(reg(size, first + (c if size == 32 else c // 2), c % 2) for c in range(k))
        elem = FORMAT_ELEMENT_B[fmt]
        offset = elem * int(rng.integers(0, 4))
        lines.append(f"st_tile.{fmt} {data}, {offset}, {int(rng.integers(1, 1 << k))}")
    return "\n".join(lines + ["stop"])


def test_a_straight_programs_record_is_the_cores():
    """``fragment._straight_record`` (moves and tile stores followed without the core)
    gives the bytes, written mask and None answers the two-lane run of the core gives,
    over random straight programs, formats, masks, offsets and uniform bits (NaN,
    infinities, negatives and denormals among them)."""
    from drmshim.gpu.pipeline.executor import GuardedCore
    from drmshim.gpu.pipeline.usc_words import read_pipeline
    from drmshim.memory import GPUFault
    rng = np.random.default_rng(20)
    sp = Space()
    specials = np.array(f32bits(0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-40, float("inf"), float("-inf"),
                                float("nan"), 0.2, 65504.0, 1e6, -3.5), np.uint32)
    compared = 0
    for case in range(160):
        asm = _random_straight_program(rng)
        u = rng.integers(0, 1 << 32, 16, dtype=np.uint64).astype(np.uint32)
        u[:8] = rng.choice(specials, 8) if case % 2 else u[:8]
        pipe = read_pipeline(sp.mem, sp.usc(asm, uniforms=u), "PDM")
        record_B = int(rng.choice([4, 8, 12, 16]))
        core = GuardedCore(sp.mem)
        plan = fragment._straight_plan(core.load(pipe.code_va))
        assert plan is not None, asm
        mine = fragment._straight_record(plan, pipe.uniforms, record_B)
        try:
            fragment.STRAIGHT_RECORDS = False
            theirs = fragment.uniform_record(core, pipe, record_B, {})
        except GPUFault:
            theirs = None
        finally:
            fragment.STRAIGHT_RECORDS = True
        if mine is None:
            assert theirs is None, asm                  # (a store past the record: the core faults)
            continue
        assert np.array_equal(mine[0], theirs[0]), asm
        assert np.array_equal(mine[1][mine[0]], theirs[1][theirs[0]]), asm
        compared += 1
    assert compared >= 60
    # not straight: a lane-varying read, control flow, a register read before it is written
    core = GuardedCore(sp.mem)
    for asm in ("get_sr r4, pixel_x\nst_tile.i32 r4, 0, 1\nstop", "mov r4, r9\nst_tile.i32 r4, 0, 1\nstop",
                "fadd r4, r5, r6\nst_tile.i32 r4, 0, 1\nstop"):
        assert fragment._straight_plan(core.load(read_pipeline(sp.mem, sp.usc(asm), "PDM").code_va)) is None
