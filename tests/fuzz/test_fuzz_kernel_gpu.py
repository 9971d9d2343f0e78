"""Fuzzing the GPU model: valid render and compute commands whose memory
(control streams, PPP state, USC words, programs, descriptors, vertex and index
data) is mutated word by word, then executed. The GPU must end every command
in one of the outcomes hardware has: completion, a GPU fault naming a unit, or a
watchdog timeout. Any other Python exception is a bug.

``run_case(seed)`` is deterministic. The normal suite runs a short sweep; the
long sweep is marked slow (``make fuzz``); ``SHIMGL_FUZZ_CASES`` sets its size.
Each bug found is kept below as a regression case (its seed or a direct test).
"""

from __future__ import annotations

import os
import traceback

import numpy as np
import pytest

from drmshim.firmware.watchdog import JobTimeout, run_budgeted
from drmshim.gpu.pipeline import Executor
from drmshim.gpu.pipeline.streams import walk
from drmshim.memory import FlatMemory, GPUFault
from tests.drmshim.pipeline.gpu import BASE, Scene, Space, command, constant_fs, u64_uniforms
from uapi import packets as P

#: GPU time one fuzzed command may take (the watchdog stops runaway streams).
CASE_BUDGET_MS = 1500
INTERESTING = (0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0xFFFF, 0x10000, 0x7F800000, 0x7FC00000, 0xFF800000)

COMPUTE = """
get_sr r0, thread_position_in_grid.x
mov_imm r1, 3
imul r2, r0, r1
device_store.i32 r2, u0_u1, r0, 2, 0
wait 0
stop
"""


def _render_case(space: Space, rng: np.random.Generator):
    sc = Scene(space, 32, 32, clear=(0, 0, 1, 1))
    for _ in range(int(rng.integers(1, 4))):
        primitive = str(rng.choice(["TRIANGLES", "TRIANGLE_STRIP", "LINES", "POINTS"]))
        verts = np.concatenate([rng.uniform(-1.5, 1.5, (6, 2)), rng.uniform(-1, 1, (6, 1)), np.ones((6, 1))], 1)
        indices = rng.integers(0, 6, 6) if rng.random() < 0.5 else None
        sc.draw(verts, constant_fs(tuple(rng.uniform(0, 1, 4))), primitive=primitive, indices=indices)
    return "render", sc.command()


def _compute_case(space: Space, rng: np.random.Generator):
    n = int(rng.integers(1, 64))
    out = space.alloc(4 * n)
    pipe = space.usc(COMPUTE, uniforms=u64_uniforms(out))
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=n, threadgroup_x_threads=int(rng.integers(1, 8)))
    stream = space.put(launch * int(rng.integers(1, 3)) + P.pack("CDM_TERMINATE"), align=16)
    return "compute", command(space, "compute", cdm_ctrl_stream_base=stream)


def _mutate(space: Space, rng: np.random.Generator, count: int) -> None:
    """Change ``count`` random words of everything the case wrote."""
    lo, hi = BASE + 0x1000, space.top
    words = space.mem.bytes[lo - BASE:hi - BASE].view(np.uint32) if (hi - lo) % 4 == 0 else \
        space.mem.bytes[lo - BASE:(hi - BASE) // 4 * 4].view(np.uint32)
    for _ in range(count):
        i = int(rng.integers(0, len(words)))
        kind = rng.integers(0, 4)
        if kind == 0:
            words[i] ^= np.uint32(1) << np.uint32(rng.integers(0, 32))
        elif kind == 1:
            words[i] = np.uint32(rng.choice(INTERESTING))
        elif kind == 2:
            words[i] = np.uint32(rng.integers(0, 1 << 32))
        else:   # a pointer into the case's own memory (self-links, aliasing)
            words[i] = np.uint32((lo + int(rng.integers(0, hi - lo)) // 4 * 4) & 0xFFFFFFFF)


def run_case(seed: int) -> str:
    """One fuzz case: "ok", "fault <unit>", "timeout", or "BUG <exception>"."""
    rng = np.random.default_rng(seed)
    space = Space(8 << 20)
    kind, cmd = (_render_case if seed % 3 else _compute_case)(space, rng)
    _mutate(space, rng, int(rng.integers(1, 12)))
    ex = Executor(tvb_entries=1 << 14)

    def execute():
        if kind == "compute":
            ex.run_compute(cmd)
        else:
            ex.run_vertex(cmd)
            ex.run_fragment(cmd)

    with np.errstate(all="ignore"):
        error, _ = run_budgeted(CASE_BUDGET_MS, execute)
    if error is None:
        return "ok"
    if isinstance(error, GPUFault):
        return f"fault {error.info.unit}"
    if isinstance(error, JobTimeout):
        return "timeout"
    frame = traceback.extract_tb(error.__traceback__)[-1]
    return f"BUG {type(error).__name__} at {os.path.basename(frame.filename)}:{frame.lineno}: {error}"


def sweep(seeds) -> tuple[dict[str, int], dict[str, list[int]]]:
    outcomes: dict[str, int] = {}
    bugs: dict[str, list[int]] = {}
    for seed in seeds:
        result = run_case(seed)
        key = result.split(" ")[0] if not result.startswith("fault") else result
        outcomes[key] = outcomes.get(key, 0) + 1
        if result.startswith("BUG"):
            bugs.setdefault(result[:160], []).append(seed)
    return outcomes, bugs


def test_short_gpu_fuzz_run_ends_every_command_as_hardware_would():
    outcomes, bugs = sweep(range(40))
    assert not bugs, bugs
    assert outcomes.get("ok", 0) > 0 and any(k.startswith("fault") for k in outcomes), outcomes


@pytest.mark.slow
def test_long_gpu_fuzz_run():
    cases = int(os.environ.get("SHIMGL_FUZZ_CASES", "3000"))
    outcomes, bugs = sweep(range(1000, 1000 + cases))
    print(f"GPU fuzz: {cases} cases, outcomes {outcomes}")
    assert not bugs, bugs


# ------------------------------------------------------------ the stream walkers
def walk_case(seed: int) -> list[str]:
    """Random control streams (plausible block tags, pointers into themselves) for
    the GPU's strict walker (ends, or a fault of the walking unit) and the
    decoder's forgiving walker (always ends, never raises). Returns the bugs."""
    rng = np.random.default_rng(seed)
    mem = FlatMemory(1 << 14, base=BASE)
    words = mem.bytes.view(np.uint32)
    words[:] = rng.integers(0, 1 << 32, words.size, dtype=np.uint64).astype(np.uint32)
    tagged = rng.random(words.size) < 0.5
    tags = rng.integers(0, 8, words.size).astype(np.uint32) << np.uint32(29)
    words[tagged] = (words[tagged] & np.uint32(0x1FFFFFFF)) | tags[tagged]
    pointers = rng.random(words.size) < 0.2
    words[pointers] = (BASE + rng.integers(0, 1 << 14, pointers.sum()) // 4 * 4).astype(np.uint32)
    bugs = []
    for unit, stream, forgiving in (("VDM", P.VDM_STREAM, P.walk_vdm), ("CDM", P.CDM_STREAM, P.walk_cdm)):
        try:
            for _ in walk(mem, BASE, stream, unit):
                pass
        except GPUFault:
            pass
        except Exception as error:  # noqa: BLE001 - what the fuzzer looks for
            bugs.append(f"strict {unit} walker, seed {seed}: {type(error).__name__}: {error}")
        try:
            P.format_stream(list(forgiving(P.memory_reader(mem, unit), BASE)))
        except Exception as error:  # noqa: BLE001
            bugs.append(f"forgiving {unit} walker, seed {seed}: {type(error).__name__}: {error}")
    return bugs


def test_short_walker_fuzz_run():
    bugs = [b for seed in range(150) for b in walk_case(seed)]
    assert not bugs, bugs[:10]


@pytest.mark.slow
def test_long_walker_fuzz_run():
    cases = int(os.environ.get("SHIMGL_FUZZ_STREAMS", "20000"))
    bugs = [b for seed in range(10_000, 10_000 + cases) for b in walk_case(seed)]
    print(f"walker fuzz: {cases} random memories x 2 streams x 2 walkers")
    assert not bugs, bugs[:10]
