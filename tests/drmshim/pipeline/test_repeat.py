"""A render command whose vertex half would read the same bytes as a recent one's
takes that half's result (``repeat.py``): no vertex work, the same TVB (rows,
planes, passes), feedback, counters and image as running it (checked against the
half run with the memory off). A change of any byte the half read - vertex data,
index data, PPP state, the vertex program's code or uniforms, the VDM stream -
is a miss that draws what the changed memory says (again against the memory
off, and the image must differ from the first). Halves that write memory
(statistics) or fault are never remembered; the recorder stops at anything it
cannot account for."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import drmshim.gpu.pipeline.render as render
import drmshim.gpu.pipeline.repeat as repeat
from drmshim.firmware.command import Counters, Feedback
from drmshim.gpu.pipeline import Executor
from drmshim.gpu.pipeline.streams import walk
from drmshim.memory import FlatMemory, GPUFault
from uapi import packets as P
from uapi.isa import assemble

from .gpu import Scene, Space, vertex_shader
from .test_equivalence import BINDINGS, BLEND_FS, random_triangles

FLAT = [dict(base_slot=0, base_cf=0, components=1, shade_model="LINEAR"),
        dict(base_slot=1, base_cf=1, components=4, shade_model="FLAT")]


@pytest.fixture
def on(monkeypatch):
    """The memory on, empty, and a count of the vertex halves really run."""
    monkeypatch.setattr(repeat, "COMMANDS", 8)
    repeat.forget()
    runs = []
    real = render.next_segment

    def count(executor, command, tvb):
        runs.append(1)
        return real(executor, command, tvb)

    monkeypatch.setattr(render, "next_segment", count)
    yield runs
    repeat.forget()


def _scene() -> Scene:
    sc = Scene(Space(), 48, 40, clear=(0.1, 0.2, 0.3, 1.0))
    zs = dict(depth_func="LESS", depth_write=True)
    for i in range(3):
        sc.draw(random_triangles(3, seed=40 + i), BLEND_FS, varyings=4, cf_bindings=BINDINGS, zs=zs, raster=dict())
    sc.draw(random_triangles(2, seed=60), BLEND_FS, primitive="TRIANGLE_FAN", indices=[0, 1, 2, 3, 4, 5],
            index_size="U16", instances=2, varyings=4, cf_bindings=FLAT, zs=zs, raster=dict())
    return sc


def _again(command):
    """The same render command submitted again (fresh feedback, counters, faults)."""
    return dataclasses.replace(command, feedback=Feedback(), counters=Counters(), faults=[])


def _run(sc: Scene, command):
    """(image, TVB, feedback, counters) of running ``command``."""
    ex = Executor(sysmem=False)
    tvb = render.run_vertex_half(ex, command)
    ex._tvbs[id(command)] = tvb
    ex.run_fragment(command)
    fb = command.feedback
    return (sc.target.pixels().copy(), tvb, (fb.tvb_usage_B, fb.tvb_overflows, fb.partial_renders),
            command.counters.snapshot())


def _same_tvb(a, b) -> None:
    for f in ("row_draw", "planes"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    for f, x in vars(a.setup).items():
        y = getattr(b.setup, f)
        assert (x is None) == (y is None), f
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y, err_msg=f)
    assert len(a.passes) == len(b.passes)
    for p, q in zip(a.passes, b.passes):
        np.testing.assert_array_equal(p.rows, q.rows)
        np.testing.assert_array_equal(p.tiles, q.tiles)
        assert p.entries == q.entries
    assert [(g.draw.index, g.primitives, g.rect) for g in a.draws] == \
        [(g.draw.index, g.primitives, g.rect) for g in b.draws]


def test_a_repeated_command_takes_its_vertex_half_again(on, monkeypatch):
    sc = _scene()
    first = sc.command()
    image, tvb, fb, counters = _run(sc, first)
    assert len(on) == 1 and len(np.unique(image.reshape(-1, 4), axis=0)) > 10
    again = _run(sc, _again(first))
    assert len(on) == 1                                 # no vertex work the second time
    monkeypatch.setattr(repeat, "COMMANDS", 0)
    off = _run(sc, _again(first))
    assert len(on) == 2
    for got in (again, (image, tvb, fb, counters)):
        np.testing.assert_array_equal(got[0], off[0])
        _same_tvb(got[1], off[1])
        assert got[2] == off[2] and got[3] == off[3]
    assert counters["vertices"] > 0 and counters["primitives"] > 0
    # the remembered arrays are read-only (the fragment half only reads them)
    assert not again[1].setup.edge_a.flags.writeable and not again[1].planes.flags.writeable


@pytest.mark.parametrize("field", ["utile_width_px", "tvb_entries", "width_px"])
def test_the_same_bytes_under_other_command_fields_are_a_miss(on, monkeypatch, field):
    """The command fields and executor settings the half depends on are part of the
    key: the same stream with another tile size, TVB capacity or width runs again."""
    import uapi
    sc = _scene()
    first = sc.command()
    _run(sc, first)
    other = _again(first)
    if field == "tvb_entries":
        ex_entries = 7                                   # partial renders
    else:
        ex_entries = None
        cmd = uapi.ffi.new("struct drm_asahi_cmd_render *")[0]
        uapi.ffi.buffer(uapi.ffi.addressof(cmd))[:] = uapi.ffi.buffer(uapi.ffi.addressof(first.cmd))[:]
        setattr(cmd, field, 16 if field == "utile_width_px" else 40)
        other.cmd = cmd

    def run(command, entries=None):
        ex = Executor(sysmem=False, tvb_entries=entries)
        tvb = render.run_vertex_half(ex, command)
        return [(p.rows.tolist(), p.tiles.tolist(), p.entries) for p in tvb.passes], command.feedback.tvb_overflows

    got = run(other, ex_entries)
    assert len(on) == 2
    monkeypatch.setattr(repeat, "COMMANDS", 0)
    assert got == run(_again(other), ex_entries)
    assert got != run(_again(first)) or field == "width_px"     # (a wider target: same tiles here)


def _draws(sc: Scene, command):
    return [(va, rec) for va, rec in walk(sc.space.mem, command.cmd.vdm_ctrl_stream_base, P.VDM_STREAM, "VDM")]


def _uniform_record(space: Space, usc_va: int):
    """(address, record) of the USC_UNIFORM record of the USC words at ``usc_va``."""
    at = usc_va
    while True:
        w0 = int(space.get(at, 1, np.uint32)[0])
        kind = P.USC_STREAM.identify(w0)
        rec = kind.unpack(space.get(at, kind.size_B).tobytes())
        if rec.name == "USC_UNIFORM":
            return at, rec
        at += kind.size_B


def _change(what: str, sc: Scene, command) -> None:
    """Change one input of the vertex half in memory."""
    space = sc.space
    blocks = _draws(sc, command)
    states = [rec for _, rec in blocks if isinstance(rec, P.GroupRecord) and "vertex_shader" in rec.members]
    vs = states[0].members["vertex_shader"].pipeline
    _, uniform = _uniform_record(space, vs)
    vbuf = int(space.get(uniform.buffer, 1, np.uint64)[0])
    if what == "vertex data":                 # a vertex of the first draw moves
        v = space.get(vbuf, 8, np.float32).copy()
        v[0] += 0.4 * v[3]
        space.mem.write(vbuf, v, "test")
    elif what == "uniforms":                  # the first draw reads another vertex buffer
        moved = space.get(vbuf, 9 * 8, np.float32).copy().reshape(-1, 8)
        moved[:, 1] += 0.3 * moved[:, 3]
        space.mem.write(uniform.buffer, np.array([space.put(moved)], np.uint64), "test")
    elif what == "code":                      # the vertex program swaps two colour outputs
        shader = P.USC_SHADER.unpack(space.get(vs, P.USC_SHADER.size_B).tobytes())
        src = vertex_shader(4).replace("st_var 4, r8", "st_var 4, r9").replace("st_var 5, r9", "st_var 5, r8")
        code = assemble(src)
        assert len(code) == len(assemble(vertex_shader(4)))
        space.mem.write(shader.code, code, "test")
    elif what == "index data":                # the fan's indices go round the other way
        (ib,) = [rec for _, rec in blocks if not isinstance(rec, P.GroupRecord) and rec.name == "VDM_INDEX_LIST"
                 and rec.indexed]
        space.mem.write(ib.index_buffer, np.array([0, 5, 4, 3, 2, 1], np.uint16), "test")
    elif what == "PPP state":                 # the first draw's viewport halves
        va, upd = next((va, rec) for va, rec in blocks if not isinstance(rec, P.GroupRecord)
                       and rec.name == "VDM_PPP_STATE_UPDATE")
        raw = space.get(upd.state, 4 * upd.size_words).tobytes()
        packet = P.PPP_STATE.members["viewport"]
        old = packet.pack(**sc.viewport())
        new = packet.pack(**dict(sc.viewport(), scale_x=sc.W / 4, scale_y=sc.H / 4))
        assert raw.count(old) == 1
        space.mem.write(upd.state, raw.replace(old, new), "test")
    elif what == "VDM stream":                # the fan draws two triangles, not four
        va, rec = next((va, rec) for va, rec in blocks if not isinstance(rec, P.GroupRecord)
                       and rec.name == "VDM_INDEX_LIST" and rec.indexed)
        space.mem.write(va, rec.packet.pack(**dict(rec.values, count=4)), "test")
    else:
        raise AssertionError(what)


@pytest.mark.parametrize("what", ["vertex data", "uniforms", "code", "index data", "PPP state", "VDM stream"])
def test_a_changed_input_is_a_miss(on, monkeypatch, what):
    sc = _scene()
    first = sc.command()
    image = _run(sc, first)[0]
    _change(what, sc, first)
    changed = _run(sc, _again(first))
    assert len(on) == 2                                 # the half ran again
    assert not np.array_equal(changed[0], image)        # (the change shows)
    again = _run(sc, _again(first))                     # and is remembered in turn
    assert len(on) == 2
    monkeypatch.setattr(repeat, "COMMANDS", 0)
    off = _run(sc, _again(first))
    for got in (changed, again):
        np.testing.assert_array_equal(got[0], off[0])
        _same_tvb(got[1], off[1])
        assert got[2] == off[2] and got[3] == off[3]


def test_halves_that_write_memory_are_not_remembered(on):
    """Statistics counters are added by the vertex half: each run adds them again."""
    sc = _scene()
    stats = sc.space.alloc(48)
    sc.blocks.insert(0, P.pack("VDM_STATE", statistics=dict(counters=stats)))
    first = sc.command()
    _run(sc, first)
    one = sc.space.get(stats, 6, np.uint64).copy()
    _run(sc, _again(first))
    assert len(on) == 2
    np.testing.assert_array_equal(sc.space.get(stats, 6, np.uint64), 2 * one)
    assert one[0] > 0


@pytest.mark.parametrize("word", ["norepeat", "interp", "scoreboard", "trace", "fw"])
def test_debug_words_make_every_half_run(on, monkeypatch, word):
    """SHIMGL_DEBUG=norepeat, and the words that ask to see or check the GPU's work,
    run every vertex half: nothing is taken again nor kept."""
    sc = _scene()
    first = sc.command()
    image = _run(sc, first)[0]
    assert len(on) == 1 and repeat._KEPT
    monkeypatch.setenv("SHIMGL_DEBUG", f"sysmem,{word}")
    assert not repeat.active()
    np.testing.assert_array_equal(_run(sc, _again(first))[0], image)
    assert len(on) == 2
    repeat.forget()
    _run(sc, _again(first))
    assert len(on) == 3 and not repeat._KEPT
    monkeypatch.setenv("SHIMGL_DEBUG", "sysmem")
    assert repeat.active()


def test_a_command_of_many_draws_is_not_recorded(on, monkeypatch):
    monkeypatch.setattr(repeat, "DRAWS", 3)              # the scene has 4
    sc = _scene()
    first = sc.command()
    image = _run(sc, first)[0]
    assert not repeat._KEPT
    np.testing.assert_array_equal(_run(sc, _again(first))[0], image)
    assert len(on) == 2


def test_an_unreadable_range_is_a_miss_and_faults_are_not_remembered(on):
    """A command whose remembered ranges cannot be read (here: a memory without
    them) runs its half again, which faults where it reads; the fault is the
    command's, and nothing is remembered of it."""
    sc = _scene()
    first = sc.command()
    _run(sc, first)
    assert len(on) == 1 and len(repeat._KEPT) == 1
    key = next(iter(repeat._KEPT))
    tiny = FlatMemory(0x1000, base=sc.space.mem.base)
    assert repeat.recall(tiny, key) is None
    bad = dataclasses.replace(first, memory=tiny, feedback=Feedback(), counters=Counters(), faults=[])
    with pytest.raises(GPUFault):
        Executor(sysmem=False).run_vertex(bad)
    assert bad.faults and bad.faults[0].unit == "VDM"
    assert bad.faults[0].address == first.cmd.vdm_ctrl_stream_base
    assert len(repeat._KEPT) == 1 and repeat._KEPT[key][0]      # the good half's entry stays


class _Mem:
    def __init__(self):
        self.flat = FlatMemory(4096, base=0x1000)
        self.flat.bytes[:] = np.arange(4096) % 251
        self.faults = self.flat.faults
        self.soft_faults = False

    def read(self, va, n, unit):
        return self.flat.read(va, n, unit)

    def window(self, va, n, is_read):
        return self.flat.window(va, n, is_read)

    def gather(self, vas, dtype, unit):
        return self.flat.gather(vas, dtype, unit)

    def write(self, va, data, unit):
        self.flat.write(va, data, unit)

    def scatter(self, vas, values, unit):
        self.flat.scatter(vas, values, unit)


def test_the_recorder_keeps_reads_and_stops_at_the_rest(monkeypatch):
    monkeypatch.setattr(repeat, "COMMANDS", 8)
    mem = _Mem()
    r = repeat.Recorder(mem)
    r.read(0x1010, 8, "t")
    r.window(0x1000, 64, True)                           # contains the read above
    r.gather(np.array([0x1100, 0x1108, 0x1104], np.uint64), np.uint32, "t")
    assert r.ok
    spans = r.kept_spans()
    assert [(va, len(raw)) for va, raw in spans] == [(0x1000, 64), (0x1100, 12)]
    assert spans[0][1] == mem.flat.bytes[:64].tobytes()
    for stop in ("write", "scatter", "window for writing", "another attribute"):
        r = repeat.Recorder(mem)
        r.read(0x1000, 4, "t")
        if stop == "write":
            r.write(0x1000, b"x", "t")
        elif stop == "scatter":
            r.scatter(np.array([0x1000], np.uint64), np.zeros(1, np.uint8), "t")
        elif stop == "window for writing":
            r.window(0x1000, 4, False)
        else:
            with pytest.raises(AttributeError):
                r.no_such_thing
        assert not r.ok, stop
    monkeypatch.setattr(repeat, "MAX_BYTES", 100)
    r = repeat.Recorder(mem)
    r.read(0x1000, 64, "t")
    assert r.ok
    r.read(0x1100, 64, "t")
    assert not r.ok and r.spans == []
    # merged neighbours compare the bytes between them too
    monkeypatch.setattr(repeat, "MAX_BYTES", 1 << 20)
    r = repeat.Recorder(mem)
    r.read(0x1000, 4, "t")
    r.read(0x1040, 4, "t")
    r.read(0x1800, 4, "t")
    merged = repeat._merged(mem, r.kept_spans())
    assert [(va, len(raw)) for va, raw in merged] == [(0x1000, 0x44), (0x1800, 4)]
    repeat.remember(("k",), mem, r, "result")
    assert repeat.recall(mem, ("k",)) == "result"
    mem.flat.bytes[0x20] ^= 1                          # between the two reads: a miss
    assert repeat.recall(mem, ("k",)) is None
    repeat.forget()


def test_recording_backs_off_while_nothing_repeats_and_a_repeat_is_still_found(on, monkeypatch):
    """Halves that are never taken again stop being recorded every time (recording
    costs each command): after QUIET_AFTER misses in a row, one in RECORD_EVERY.
    A command that then repeats is recorded within RECORD_EVERY commands, taken
    again at its next repeat, and recording is full again from that hit on."""
    monkeypatch.setattr(repeat, "QUIET_AFTER", 2)
    monkeypatch.setattr(repeat, "RECORD_EVERY", 3)
    made = []

    class Counting(repeat.Recorder):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(repeat, "Recorder", Counting)
    sc = _scene()
    first = sc.command()

    def run(entries):
        # the TVB capacity is part of the key: another capacity, another command
        render.run_vertex_half(Executor(sysmem=False, tvb_entries=entries), _again(first))

    for k in range(8):
        run(4096 + k)
    assert len(on) == 8
    # misses 1 and 2 recorded, then every third: the 5th and the 8th
    assert len(made) == 4
    runs = len(on)
    for n in range(1, 6):
        run(9000)
        if len(on) == runs + n - 1:                     # this one was taken again
            break
    else:
        raise AssertionError("a repeating command was never taken again")
    assert n <= 3 + 1
    recorded = len(made)
    run(9001)                                           # a new command after the hit: recorded
    assert len(made) == recorded + 1
