"""The native tier: which programs run native code, and the batch loop that runs it.

Policy (``mode``): ``"interp"`` never (also ``SHIMGL_DEBUG=interp``); ``"native"``
compiles every program on its first run (tests); ``"auto"`` uses a program's
native code at once when the disk cache has it, and otherwise compiles it once the
program is hot in this process. Over ``HOT_LANES`` lanes it is built with the
optimising flags (``CFLAGS``); run ``HOT_RUNS`` times on fewer lanes (piglit's long
tests draw one small quad tens of thousands of times: four lanes a run) it is built
quick first (``QUICK_CFLAGS``: no vectorizer, a tenth of the compile time), and
built again optimised if it reaches ``HOT_LANES``. A program run a few times stays
on the interpreter and costs no compile. In auto mode the compiler runs on a
builder thread of its own (and in a session of its own: the library lands in the
disk cache even when the process exits first): the interpreter keeps running the
program until its native code is loaded, so a compile on a loaded machine never
stalls a draw. A program whose code cannot be generated
or compiled runs on the interpreter, and the reason is counted (``STATS``;
``SHIMGL_DEBUG=native`` prints each decision, and the counters at exit; a failed
build is also a ``SHIMGL_DEBUG=perf`` warning).

Threads: a lane loop whose work (lanes x instructions) is at least
``PARALLEL_MIN_WORK`` is split into ``SHIMGL_THREADS`` (default: the CPUs this
process may use) contiguous ranges run at once; the C calls release the GIL.
(Handing a loop to the pool costs tens of microseconds on an idle machine and
milliseconds on a loaded one: glbench overdraw at 512 spent a third of its shader
time in the hand-off with a threshold of 8K lanes.) Every such loop is lane-local (a lane reads
and writes only its own registers), so the split cannot change any result; loops
over shared memory (tile access) run on one thread in lane order.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from uapi.debug import debug_enabled

from uapi.native_build import CFLAGS, QUICK_CFLAGS, BuildError, cache_key, load_or_build
from uapi.native_kernels import c_pointer
from .codegen import (NATIVE_CDEF, WALK_ACTIVE, WALK_BLOCK, WALK_COUNT, WALK_EXEC, WALK_ITEM, WALK_LIMIT, WALK_STATE, Cf,
                      Grp, Seg, Step, Unsupported, flat, generate)

if TYPE_CHECKING:    # the pool is made when a loop is split (concurrent.futures brings logging)
    from concurrent.futures import ThreadPoolExecutor

__all__ = ["NativeProgram", "native_for", "interpreted", "ordered_ready", "parallel", "STATS", "threads",
           "HOT_LANES", "HOT_RUNS", "HOT_STEPS", "POLL_STEPS", "PARALLEL_MIN_WORK", "wait_builds"]

#: Lanes a program runs (in one process) before auto mode compiles it.
HOT_LANES = 1 << 18
#: Runs of a program (in one process) before auto mode compiles it, whatever its lanes.
HOT_RUNS = 256
#: Instructions of a program the interpreter runs (summed over batches and runs in
#: one process, weighted by batch width: ``interpreted``) before auto mode compiles
#: it, whatever its runs and lanes.
HOT_STEPS = 1 << 14
#: Lanes of an interpreted instruction whose work costs about its fixed cost (its
#: numpy calls): the weight of a wide batch's instructions in HOT_STEPS.
STEP_LANES = 1024
#: A batch on the interpreter reports its instructions (``interpreted``) this often,
#: so a long batch can go on in native code once it is built.
POLL_STEPS = 2048
#: Auto mode builds on a builder thread (False: in line, the hot run waits for its code; tests).
BUILD_ASIDE = True
#: Lane loops with less work than this (lanes x instructions) run on one thread.
PARALLEL_MIN_WORK = 1 << 19
#: Chunks of a split loop start at multiples of this (whole quads).
CHUNK_ALIGN = 64

#: Counters: programs native / compiled / from cache / on the interpreter (by reason).
STATS: Counter = Counter()

_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_pool_pid = 0
_pool_lock = threading.Lock()


def threads() -> int:
    """``SHIMGL_THREADS``, else the CPUs this process may run on."""
    env = os.environ.get("SHIMGL_THREADS")
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _executor(n: int) -> ThreadPoolExecutor:
    """The process's thread pool (a new one after a fork: a child has none of the
    parent's threads)."""
    global _pool, _pool_size, _pool_pid
    with _pool_lock:
        if _pool is None or _pool_size < n or _pool_pid != os.getpid():
            from concurrent.futures import ThreadPoolExecutor
            _pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="shimgl-native")
            _pool_size, _pool_pid = n, os.getpid()
        return _pool


def _chunks(n: int, parts: int) -> list[tuple[int, int]]:
    step = -(-n // parts)
    step = -(-step // CHUNK_ALIGN) * CHUNK_ALIGN
    return [(lo, min(n, lo + step)) for lo in range(0, n, step)]


_summary_registered = False


def _say(msg: str) -> None:
    """Print a decision with SHIMGL_DEBUG=native (and the counters once at exit)."""
    global _summary_registered
    if debug_enabled("native"):
        print(f"shimgl native: {msg}", file=sys.stderr)
        if not _summary_registered:
            import atexit
            atexit.register(lambda: print(f"shimgl native: programs {dict(STATS)}", file=sys.stderr))
            _summary_registered = True


class NativeProgram:
    """A program's compiled plan: C functions for its native parts, the interpreter's
    steps for the rest (see ``codegen``)."""

    def __init__(self, prog, plan, ffi, lib):
        self.prog, self.plan, self.ffi, self.lib = prog, plan, ffi, lib
        table = lib.shimgl_native_functions()
        self.fns = {name: ffi.cast("cf_fn" if name.startswith(("cf", "ord")) else
                                   "walk_fn" if name.startswith("walk") else "seg_fn", table[k])
                    for k, name in enumerate(plan.functions)}
        self.ordered = self.fns[plan.ordered] if plan.ordered else None
        self.walk = self.fns[plan.walk] if plan.walk else None
        blocks = []
        for kind, items, target, nxt, size in plan.blocks:
            if isinstance(items, list):
                items = [self._item(it) for it in items]
            elif isinstance(items, Cf):
                items = (items, self.fns[items.name])
            elif isinstance(items, Step):
                items = (items, prog.steps[items.index][1])
            blocks.append((kind, items, target, nxt, size))
        self.blocks = blocks

    def _item(self, it):
        """(item, what runs it): a segment's C function; a group's C function and its
        members' items (run one by one when the context lacks what the group needs);
        a step's numpy function."""
        if isinstance(it, Grp):
            return it, (self.fns[it.name], [self._item(m) for m in it.members])
        if isinstance(it, Seg):
            return it, self.fns[it.name]
        return it, self.prog.steps[it.index][1]


class _Native:
    """Per-program state of the policy (kept on the interpreter's Program)."""

    __slots__ = ("plan", "key", "compiled", "quick", "lanes", "runs", "steps", "failed", "build")

    def __init__(self):
        self.plan = None
        self.key = None
        self.compiled: NativeProgram | None = None
        self.quick = False          # compiled is the quick build (QUICK_CFLAGS), to be replaced when hot
        self.lanes = 0
        self.runs = 0
        self.steps = 0              # instructions interpreted, weighted by batch width (``interpreted``)
        self.failed: str | None = None
        self.build: _Build | None = None


class _Build:
    """One program's compile on a builder thread: ``result`` is (ffi, lib) or the
    BuildError once ``done`` is set."""

    __slots__ = ("done", "result", "thread", "quick")

    def __init__(self, st: _Native, quick: bool):
        self.done = threading.Event()
        self.result = None
        self.quick = quick
        flags = QUICK_CFLAGS if quick else CFLAGS
        key = cache_key(st.plan.source, flags) if quick else st.key
        self.thread = threading.Thread(target=self._run, args=(st.plan.source, key, flags),
                                       name="shimgl-native-build", daemon=True)
        with _builds_lock:
            _builds.add(self)
        self.thread.start()

    def _run(self, source: str, key: str, flags: tuple) -> None:
        try:
            self.result = load_or_build(source, NATIVE_CDEF, key, flags=flags)
        except BuildError as e:
            self.result = e
        except Exception as e:       # noqa: BLE001 - the interpreter runs the program on
            self.result = BuildError(f"{type(e).__name__}: {e}")
        finally:
            self.done.set()
            with _builds_lock:
                _builds.discard(self)


_builds: set[_Build] = set()
_builds_lock = threading.Lock()


def wait_builds(timeout: float | None = None) -> bool:
    """Wait for the builds under way (tests, tools); False if one is still running."""
    with _builds_lock:
        pending = list(_builds)
    return all(b.done.wait(timeout) for b in pending)


def native_for(prog, lanes: int, mode: str) -> NativeProgram | None:
    """The program's native code when the policy says it runs natively now, else None.
    ``lanes`` is the run's (0: only a look-up of the disk cache's code)."""
    if mode == "interp":
        return None
    st = getattr(prog, "native_state", None)
    if st is None:
        st = prog.native_state = _Native()
        try:
            st.plan = generate(prog)
        except Unsupported as e:
            st.failed = f"unsupported: {e}"
        except Exception as e:   # a generator bug must not stop the GPU: the interpreter runs it
            st.failed = f"generator error: {type(e).__name__}: {e}"
        if st.plan is not None and st.plan.native_count == 0:
            st.failed = "nothing to compile"
        if st.failed:
            STATS["interpreted"] += 1
            STATS[f"interpreted: {st.failed.split(':')[0]}"] += 1
            _say(f"program at 0x{prog.va:x} runs on the interpreter ({st.failed})")
            return None
        try:
            st.key = cache_key(st.plan.source, CFLAGS)
            hit = load_or_build(st.plan.source, NATIVE_CDEF, st.key, build=False, flags=CFLAGS)
            quick = None
            if hit is None and mode != "native":
                quick = load_or_build(st.plan.source, NATIVE_CDEF, cache_key(st.plan.source, QUICK_CFLAGS),
                                      build=False, flags=QUICK_CFLAGS)
        except BuildError as e:
            return _fail(prog, st, f"compiler: {e}")
        if hit is not None or quick is not None:
            STATS["from cache"] += 1
            st.quick = hit is None
            return _ready(prog, st, hit or quick)
    if st.failed:
        return None
    compiled = st.compiled
    if compiled is not None and not st.quick:
        return compiled
    build = st.build
    if build is not None and build.done.is_set():    # a build aside has finished: its code from now on
        st.build = None
        if isinstance(build.result, BuildError):
            if compiled is not None:                  # the quick code stays
                _perf(prog, f"keeps its quick build: the optimised one failed ({str(build.result).splitlines()[0]})")
                st.quick = False                      # (final: no other attempt)
                return compiled
            return _fail(prog, st, f"compiler: {build.result}")
        STATS["compiled"] += 1
        st.quick = build.quick
        compiled = _ready(prog, st, build.result)
        build = None
        if not st.quick:
            return compiled
    if mode == "native" and compiled is None:
        try:
            built = load_or_build(st.plan.source, NATIVE_CDEF, st.key, flags=CFLAGS)
        except BuildError as e:
            return _fail(prog, st, f"compiler: {e}")
        STATS["compiled"] += 1
        return _ready(prog, st, built)
    if lanes <= 0:
        return compiled
    st.lanes += lanes
    st.runs += 1
    return _heat(prog, st, mode, compiled)


def _heat(prog, st: _Native, mode: str, compiled):
    """Start the program's build when it is hot (and none is under way); ``compiled``
    is what runs it now."""
    if st.build is None:
        if st.lanes >= HOT_LANES:          # the optimised build (also over a quick one)
            quick = False
        elif compiled is None and (st.runs >= HOT_RUNS or st.steps >= HOT_STEPS):
            quick = True                   # many runs of few lanes, or long loops: the quick build
        else:
            return compiled
        _say(f"program at 0x{prog.va:x} is hot ({st.runs} runs, {st.lanes} lanes, {st.steps} instructions "
             f"interpreted): {'quick ' if quick else ''}build {'aside' if BUILD_ASIDE else 'in line'}")
        st.build = build = _Build(st, quick)
        if not BUILD_ASIDE:
            build.done.wait()
            return native_for(prog, 0, mode)
    return compiled


def interpreted(prog, steps: int, lanes: int, mode: str) -> NativeProgram | None:
    """``steps`` more instructions of ``prog`` ran on the interpreter over a batch of
    ``lanes`` lanes (``ShaderCore`` reports them every ``POLL_STEPS`` in a batch and
    at its end). A program whose runs are few but long (a loop of thousands of
    iterations over one draw's vertices: the cost is instructions executed, whatever
    the runs) is hot once the interpreter has run ``HOT_STEPS`` of its instructions,
    each weighted by its batch's width (1 + lanes / ``STEP_LANES``: an instruction's
    numpy call costs about as much as its work over STEP_LANES lanes): its quick
    build starts aside. Returns the program's native code when it is ready now (the
    caller goes on with it, from the next block of the same batch), else None."""
    st = getattr(prog, "native_state", None)
    if st is None or st.failed or mode == "interp":
        return None
    st.steps += steps + steps * lanes // STEP_LANES
    compiled = native_for(prog, 0, mode)        # (a finished build's code is taken here)
    if st.failed:
        return None
    compiled = _heat(prog, st, mode, compiled)
    return compiled


def ordered_ready(core, prog) -> bool:
    """True when ``core`` runs ``prog`` from native code that can take a lane-ordered
    context (``ExecContext.lane_order``: ``codegen._ordered_function``) now; never
    with the interpreter forced or the scoreboard checked."""
    if core.debug or core.tier == "interp":
        return False
    st = getattr(prog, "native_state", None)
    if st is None or st.compiled is None or st.compiled.ordered is None:
        return False
    if any("ufuncs" in it.needs for it in flat(st.plan.blocks[0][1])):   # numpy's loops, when usable
        from uapi.native_ufuncs import loops
        return all(lp is not None for lp in loops())
    return True


def _ready(prog, st: _Native, ffi_lib) -> NativeProgram:
    ffi, lib = ffi_lib
    st.compiled = NativeProgram(prog, st.plan, ffi, lib)
    STATS["native"] += 1
    _say(f"program at 0x{prog.va:x}: native{' (quick build)' if st.quick else ''} ({st.plan.native_count} instructions in C, "
         f"{st.plan.step_count} numpy steps)")
    return st.compiled


def _fail(prog, st: _Native, why: str):
    st.failed = why
    STATS["interpreted"] += 1
    STATS["interpreted: compiler"] += 1
    _say(f"program at 0x{prog.va:x} runs on the interpreter ({why})")
    _perf(prog, f"stays on the interpreter: its native build failed ({why.splitlines()[0]})")
    return None


def _perf(prog, what: str) -> None:
    if debug_enabled("perf"):
        print(f"shimgl perf: program at 0x{prog.va:x} {what}", file=sys.stderr)


# ---------------------------------------------------------------------------
# Running a batch

def _ptr(ffi, ctype: str, arr: np.ndarray):
    return c_pointer(ffi, arr, ctype)


class _BatchArgs:
    """The C view of one batch (``args_t``) and the arrays it points into (kept alive)."""

    def __init__(self, nprog: NativeProgram, b):
        ffi = nprog.ffi
        self.ffi = ffi
        self.a = a = ffi.new("args_t *")
        r = b.r32
        a.r = _ptr(ffi, "uint32_t *", r)
        a.S = r.strides[0] // 4
        self.uniforms = np.ascontiguousarray(b.ctx.uniforms, np.uint32)
        a.u = _ptr(ffi, "uint32_t *", self.uniforms)
        self.exec_out = np.zeros(b.n, np.bool_)
        a.exec_out = _ptr(ffi, "uint8_t *", self.exec_out)
        self.bad = ffi.new("long *", -1)
        a.bad_lane = self.bad
        self.exec_arr = None
        self.ready: set = set()
        self.keep: list = []
        self.steps = nprog.prog.steps

    def set_exec(self, b) -> None:
        if b.all_active:
            self.a.exec = self.ffi.NULL
        elif b.exec is not self.exec_arr:
            ex = b.exec
            if not (ex.dtype == np.bool_ and ex.flags.c_contiguous and ex.shape == (b.n,)):
                ex = np.ascontiguousarray(np.broadcast_to(ex, (b.n,)), np.bool_)
                self.keep.append(ex)
            self.exec_arr = b.exec
            self.a.exec = _ptr(self.ffi, "uint8_t *", ex)

    def provide(self, b, needs: tuple) -> bool:
        """Point the args at what a segment needs from the context; False if the
        context lacks it (or holds it in another form): then the numpy steps run."""
        for need in needs:
            if need in self.ready:
                continue
            if not self._provide(b, need):
                return False
            self.ready.add(need)
        return True

    def _provide(self, b, need: str) -> bool:
        ctx, a, ffi, lanes = b.ctx, self.a, self.ffi, b.lanes
        if need == "coefficients":
            co = ctx.coefficients
            if co is None:      # per-primitive planes and each lane's primitive (the PDM's form)
                return self._provide_planes(ctx, lanes)
            if co.dtype != np.float32 or co.ndim != 3:
                return False
            view = co[:, :, lanes]
            self.keep.append(view)
            a.coef = _ptr(ffi, "float *", view) if view.size else ffi.NULL
            a.coef_cf, a.coef_i, a.coef_lane = (s // 4 for s in view.strides)
            return view.size > 0
        if need.startswith("cf_count:"):      # the registers iter reads exist (else the numpy step raises)
            have = ctx.coefficients.shape[0] if ctx.coefficients is not None else \
                ctx.cf_planes.shape[1] if ctx.cf_planes is not None and ctx.cf_planes.ndim == 3 else 0
            return int(need.split(":")[1]) <= have
        if need.startswith("position:"):
            pos = ctx.position_px
            if need == "position:centroid" and ctx.centroid_position_px is not None:
                pos = ctx.centroid_position_px
            if pos is None or pos.dtype != np.float32 or pos.ndim != 2:
                return False
            view = pos[:, lanes]
            if ctx.coefficients is None and view.strides[1] != 4:
                return False        # the per-primitive plane loop reads positions of unit stride
            self.keep.append(view)
            a.pos = _ptr(ffi, "float *", view)
            a.pos_c, a.pos_lane = (s // 4 for s in view.strides)
            return True
        if need == "ufuncs":  # numpy's own loops of the transcendentals (else the numpy steps)
            from uapi.native_ufuncs import loops
            found = loops()
            if any(lp is None for lp in found):
                return False
            for k, (fn, data) in enumerate(found):
                a.uf[k] = ffi.cast("void *", fn)
                a.ufd[k] = ffi.cast("void *", data)
            return True
        if need.startswith("tex:"):     # a texture segment's slot: the sampler's call for this batch
            _, slot, index = need.split(":")
            call = getattr(self.steps[int(index)][1], "native_call", None)
            got = call(b) if call is not None else None
            if got is None:
                return False
            ((fn, plan, words), keep), quads = got
            k = int(slot)
            self.keep.append(keep)
            a.tex_fn = ffi.cast("void *", fn)
            a.tex_plan[k] = ffi.cast("void *", plan)
            a.tex_words[k] = ffi.cast("uint32_t *", words)
            a.tex_quads[k] = int(quads)
            return True
        if need.startswith("device:"):  # a device load's slot: the memory run holding its base
            _, slot, u, size = need.split(":")
            u = int(u)
            base = int(b.uni32[u]) | int(b.uni32[u + 1]) << 32
            run_window = getattr(b.mem, "run_window", None)
            got = run_window(base, True) if run_window is not None else None
            if got is None or got[1].size < int(size):
                return False
            va, win = got
            k = int(slot)
            self.keep.append(win)
            a.dev_win[k] = _ptr(ffi, "uint8_t *", win)
            a.dev_va[k], a.dev_len[k] = va, win.size
            return True
        if need == "quads":   # lanes come in whole 2x2 quads (else the numpy step writes zeros)
            return bool(ctx.quads) and b.n % 4 == 0
        if need == "simd_groups":   # the batch starts at a group boundary (ShaderCore._batch_size)
            a.group_span = ctx.threadgroup_lanes if ctx.threadgroup_lanes > 1 else b.n
            return True
        if need == "tile":
            tile, index = ctx.tile_buffer, ctx.tile_index
            if tile is None or index is None or tile.dtype != np.uint8 or tile.ndim != 2 \
                    or not tile.flags.c_contiguous:
                return False
            idx = np.asarray(index[lanes])
            if idx.dtype != np.int64:
                return False
            idx = np.ascontiguousarray(idx)
            self.keep.append(idx)
            a.tile = _ptr(ffi, "uint8_t *", tile)
            a.tile_B, a.record_B = tile.size, tile.shape[1]
            a.tile_index = _ptr(ffi, "int64_t *", idx)
            a.dead = _ptr(ffi, "uint8_t *", b.dead)
            return True
        return False

    def _provide_planes(self, ctx, lanes) -> bool:
        """``cf_planes`` float32[prims, cf, 3] (contiguous) and int32 ``primitive_index``
        in range: the iter loop reads each lane's planes through its primitive."""
        planes, prim = ctx.cf_planes, ctx.primitive_index
        if planes is None or prim is None or planes.dtype != np.float32 or planes.ndim != 3 \
                or not planes.flags.c_contiguous or planes.size == 0:
            return False
        idx = np.asarray(prim[lanes])
        if idx.dtype != np.int32 or idx.ndim != 1:
            return False
        idx = np.ascontiguousarray(idx)
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= planes.shape[0]):
            return False                                     # (the numpy step raises IndexError)
        self.keep += [planes, idx]
        a, ffi = self.a, self.ffi
        a.coef = ffi.NULL
        a.planes = _ptr(ffi, "float *", planes)
        a.planes_prim = planes.shape[1] * planes.shape[2]
        a.prim = _ptr(ffi, "int32_t *", idx) if idx.size else ffi.NULL
        return idx.size > 0


def _split(pool, fn, a, chunks: list) -> list:
    """``fn(a, lo, hi)`` over every chunk at once: the pool takes all but the first,
    which the calling thread runs itself (it would only wait otherwise, and on a
    loaded host a pool thread may not run for a while). Results in chunk order."""
    rest = [pool.submit(fn, a, lo, hi) for lo, hi in chunks[1:]]
    first = fn(a, *chunks[0])
    return [first] + [f.result() for f in rest]


def parallel(fn, parts: int) -> list:
    """``fn(j)`` for j in 0..parts-1 at once (C calls that release the GIL): the pool
    takes all but the first, which the calling thread runs. Results in order."""
    if parts <= 1:
        return [fn(0)]
    pool = _executor(parts - 1)
    rest = [pool.submit(fn, j) for j in range(1, parts)]
    return [fn(0)] + [f.result() for f in rest]


def run_batch(nprog: NativeProgram, b, max_steps: int, start: int = 0, count: int = 0) -> None:
    """One batch through the interpreter's block loop (``walk_blocks``), with native parts;
    from block ``start`` with ``count`` instructions run (the rest of a batch the
    interpreter began: the plan has the interpreter's blocks)."""
    from ..usc.control import walk_blocks
    args = _BatchArgs(nprog, b)
    a = args.a
    n = b.n
    parts = threads() if n >= 2 * CHUNK_ALIGN else 1
    chunks = _chunks(n, parts) if parts > 1 else [(0, n)]
    pool = _executor(len(chunks)) if len(chunks) > 1 else None

    def masked(items, b) -> None:
        for item, fn in items:
            if isinstance(item, Step):
                fn(b)
                continue
            args.set_exec(b)
            if isinstance(item, Grp):
                group_fn, members = fn
                if not args.provide(b, item.needs):
                    masked(members, b)
                elif pool is None or n * item.count < PARALLEL_MIN_WORK:
                    group_fn(a, 0, n)
                else:
                    _split(pool, group_fn, a, chunks)
                continue
            if item.needs and not args.provide(b, item.needs):
                for j in range(item.first, item.first + item.count):
                    nprog.prog.steps[j][1](b)
                continue
            if item.shared:
                args.bad[0] = -1
                fn(a, 0, n)
                if args.bad[0] >= 0:   # an access out of range: the numpy step (and its fault)
                    nprog.prog.steps[item.first][1](b)
            elif pool is None or n * item.count < PARALLEL_MIN_WORK:
                fn(a, 0, n)
            else:
                _split(pool, fn, a, chunks)

    def always(payload, b) -> None:
        item, fn = payload
        if not isinstance(item, Cf):
            fn(b)
            return
        if pool is None or n < PARALLEL_MIN_WORK:
            active = fn(a, 0, n)
        else:
            active = sum(_split(pool, fn, a, chunks))
        b.all_active = active == n
        b.any_active = active > 0
        b.exec = b.const(np.True_) if b.all_active else args.exec_out
        args.exec_arr = None

    if b.ctx.lane_order:
        _run_ordered(nprog, args, b)
        return
    if nprog.walk is not None and (pool is None or n * nprog.plan.walk_count < PARALLEL_MIN_WORK) \
            and args.provide(b, nprog.plan.walk_needs):
        _walk_with_c(nprog, args, b, max_steps, masked, always, start, count)   # (no call split over threads)
        return
    walk_blocks(nprog.blocks, b, max_steps, nprog.prog.va, masked, always, start, count)


def _walk_with_c(nprog: NativeProgram, args: _BatchArgs, b, max_steps: int, masked, always, i: int,
                 count: int) -> None:
    """``walk_blocks`` with the program's C walk (``codegen._walk_function``) taking
    every stretch of blocks it can run: the same calls in the same order, the same
    exec masks and counts; Python runs the other blocks, as ``walk_blocks`` does."""
    from ..usc.control import ALWAYS, JMP_ANY, JMP_NONE, MASKED, STOP, StepLimit
    blocks, in_c, walk, n = nprog.blocks, nprog.plan.walk_blocks, nprog.walk, b.n
    st = np.zeros(WALK_STATE, np.int64)
    st_p = _ptr(args.ffi, "long *", st)
    st[WALK_LIMIT] = max_steps
    while True:
        if in_c[i]:
            args.set_exec(b)
            st[WALK_BLOCK], st[WALK_COUNT], st[WALK_EXEC], st[WALK_ITEM] = i, count, 0, -1
            st[WALK_ACTIVE] = n if b.all_active else 1 if b.any_active else 0
            walk(args.a, n, st_p)
            i, count, part = int(st[WALK_BLOCK]), int(st[WALK_COUNT]), int(st[WALK_ITEM])
            if st[WALK_EXEC]:
                active = int(st[WALK_ACTIVE])
                b.all_active, b.any_active = active == n, active > 0
                b.exec = b.const(np.True_) if b.all_active else args.exec_out
                args.exec_arr = None
            if count > max_steps:
                raise StepLimit(nprog.prog.va, max_steps)
            if part < 0 and in_c[i]:
                continue
        kind, payload, target, nxt, size = blocks[i]
        if in_c[i]:     # (a device load the C walk left: the rest of its block from that part)
            masked(payload[part:], b)
            i = nxt
        elif kind == MASKED:
            if b.any_active:
                masked(payload, b)
            i = nxt
        elif kind == ALWAYS:
            always(payload, b)
            i = nxt
        elif kind == JMP_ANY:
            i = target if b.any_active else nxt
        elif kind == JMP_NONE:
            i = target if not b.any_active else nxt
        elif kind == STOP:
            return
        else:   # WAIT
            i = nxt
        count += size
        if count > max_steps:
            raise StepLimit(nprog.prog.va, max_steps)


def _run_ordered(nprog: NativeProgram, args: _BatchArgs, b) -> None:
    """A batch of a lane-ordered context: the program's one block of segments, chunk by
    chunk in lane order on this thread (``codegen._ordered_function``)."""
    if nprog.ordered is None:
        raise RuntimeError(f"program at 0x{nprog.prog.va:x}: a lane-ordered run needs its ordered native code")
    items = flat(nprog.plan.blocks[0][1])
    args.set_exec(b)
    for item in items:
        if item.needs and not args.provide(b, item.needs):
            raise RuntimeError(f"program at 0x{nprog.prog.va:x}: a lane-ordered run lacks {item.needs}")
    args.bad[0] = -1
    if nprog.ordered(args.a, 0, b.n) < 0 or args.bad[0] >= 0:
        raise RuntimeError(f"program at 0x{nprog.prog.va:x}: a lane-ordered run with a tile access out of range")
