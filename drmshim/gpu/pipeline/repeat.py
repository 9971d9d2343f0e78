"""The vertex half, and the fragment half, of a command that repeats a recent one's, taken again.

Sole responsibility: remember what a render command's vertex half read and made,
and give the same result to a later command whose vertex half would read the
same bytes. A frame drawn again (glbench, a full-screen quad each frame) walks
the same VDM stream, PPP state, vertex program, uniforms and vertex data; its
vertex half is a pure function of those bytes and of a few command fields, so
the TVB (setup rows, planes, passes) comes out the same.

Recording: the vertex half runs with the command's memory seen through a
:class:`Recorder`, which keeps every byte range the half read (``read``, a
``window`` asked for reading, the span of a ``gather``). A half that writes
memory (statistics counters, a vertex program storing), takes a fault, asks the
memory for anything else, or reads more than ``MAX_BYTES`` / ``MAX_SPANS`` is not
remembered; a command of more than ``DRAWS`` draws is not recorded at all.
Taking again: every remembered range is compared with the memory
now, byte for byte, through the memory's window (which never faults: a range
that is no longer readable is a miss). Nothing is trusted that is not compared.
The result's arrays are read-only (the fragment half only reads them); the
command's feedback and counters get what the recorded half gave them.
Recording costs a command tens of microseconds; while nothing repeats (piglit's
tiny draws, each with other uniforms, flushed every few draws) it backs off: after
``QUIET_AFTER`` halves in a row that were not taken again, only one command in
``RECORD_EVERY`` is recorded, until a half is taken again (a frame drawn again is
then found within ``RECORD_EVERY`` frames).
``SHIMGL_DEBUG=norepeat`` turns it off (so do ``interp``, ``scoreboard``, ``trace``
and ``fw``: ``STEP_ASIDE``).

Fragment halves (``recall_half``, ``remember_half``): a clear, or a full-screen
fill over a vertex half taken again, is a fragment half whose only effects on
memory are uniform stores: fills of one word into strided views of a render
target (``layout.apply_fills``: a fast clear's metadata and copies, a level's
memset). Such a half is recorded through a :class:`FillRecorder`: the byte ranges
it read, as above, and its fills in order. A later command with the same key (the
command's fields byte for byte, the same TVB object or none, the same fact caches)
whose ranges all hold the same bytes takes the half again: its fills are written
again (the frame's pixels reach memory each frame), its counters added again;
nothing else is derived again. Any other write, a read of a range it had filled,
a fault, or too much to keep: not remembered (and that key is recorded again only
after ``HALF_RETRY`` commands).
"""

from __future__ import annotations

import threading

import numpy as np

import layout
from uapi import debug_words

__all__ = ["Recorder", "FillRecorder", "active", "recall", "record_now", "remember", "recall_half", "record_half_now",
           "remember_half", "COMMANDS", "DRAWS", "HALVES", "HALF_RETRY", "MAX_BYTES", "MAX_FILLS", "MAX_SPANS",
           "OBSERVING", "QUIET_AFTER", "RECORD_EVERY", "STEP_ASIDE", "observed"]

#: How many recorded vertex halves are kept (0: none is remembered).
COMMANDS = 8
#: The most bytes and ranges a remembered vertex half may have read (a bigger one
#: costs more to compare than small draws cost to run).
MAX_BYTES = 256 << 10
MAX_SPANS = 256
#: Commands of more draws are not recorded (a frame drawn again has a few; piglit's
#: thousands of tiny draws differ command to command).
DRAWS = 16
#: After this many vertex halves in a row not taken again, record one command in
#: RECORD_EVERY (recording is then mostly overhead: see the module's notes).
QUIET_AFTER = 8
RECORD_EVERY = 8

#: ``SHIMGL_DEBUG`` words under which every vertex half runs (neither recorded nor
#: taken again): ``norepeat`` itself, and those that ask to see or check the GPU's
#: work (the interpreter as the specification, the scoreboard, the ioctl and
#: firmware traces).
OBSERVING = ("interp", "scoreboard", "trace", "fw")
STEP_ASIDE = ("norepeat",) + OBSERVING
_OBSERVING, _STEP_ASIDE = frozenset(OBSERVING), frozenset(STEP_ASIDE)

_LOCK = threading.Lock()
_KEPT: dict = {}        # key -> (spans, result)
_STREAK = [0, 0]        # halves in a row not taken again; commands seen while backing off


def active() -> bool:
    """Whether vertex halves are remembered and taken again now."""
    return COMMANDS > 0 and _STEP_ASIDE.isdisjoint(debug_words())


def observed() -> bool:
    """Whether a ``SHIMGL_DEBUG`` word asks to see or check the GPU's work
    (``OBSERVING``): memos of a pass's decisions step aside then too."""
    return not _OBSERVING.isdisjoint(debug_words())


class Recorder:
    """A GPUMemory that passes every call to ``inner`` and keeps the byte ranges
    read, while ``ok`` (a write, a fault, another attribute, too much to keep:
    ``ok`` turns False and the recording stops)."""

    __slots__ = ("inner", "spans", "nbytes", "ok")

    def __init__(self, inner):
        self.inner = inner
        self.spans: list = []
        self.nbytes = 0
        self.ok = True

    def _keep(self, va: int, raw: bytes) -> None:
        self.nbytes += len(raw)
        if self.nbytes > MAX_BYTES or len(self.spans) >= MAX_SPANS:
            self.ok = False
            self.spans = []
            return
        self.spans.append((va, raw))

    def read(self, va: int, nbytes: int, unit: str) -> np.ndarray:
        data = self.inner.read(va, nbytes, unit)
        if self.ok:
            self._keep(int(va), data.tobytes())
        return data

    def window(self, va: int, nbytes: int, is_read: bool):
        inner = getattr(self.inner, "window", None)
        seen = inner(va, nbytes, is_read) if inner is not None else None
        if not is_read:
            self.ok = False
        elif self.ok and seen is not None:
            self._keep(int(va), seen.tobytes())
        return seen

    def gather(self, vas, dtype, unit: str) -> np.ndarray:
        values = self.inner.gather(vas, dtype, unit)
        if self.ok:
            flat = np.asarray(vas, np.uint64).reshape(-1)
            if flat.size:
                lo, hi = int(flat.min()), int(flat.max()) + np.dtype(dtype).itemsize
                window = getattr(self.inner, "window", None)
                seen = window(lo, hi - lo, True) if window is not None and hi - lo <= MAX_BYTES else None
                if seen is None:
                    self.ok = False
                else:
                    self._keep(lo, seen.tobytes())
        return values

    def write(self, va: int, data, unit: str) -> None:
        self.ok = False
        self.inner.write(va, data, unit)

    def scatter(self, vas, values, unit: str) -> None:
        self.ok = False
        self.inner.scatter(vas, values, unit)

    @property
    def faults(self):
        return self.inner.faults

    @property
    def soft_faults(self):
        return self.inner.soft_faults

    def __getattr__(self, name):
        # something the recording does not understand: the half is not remembered
        self.ok = False
        return getattr(self.inner, name)

    def kept_spans(self) -> tuple | None:
        """The ranges read in address order, without those inside the one before
        (whose bytes they must repeat: else None, the memory changed under the
        half)."""
        spans = sorted(set(self.spans), key=lambda s: (s[0], -len(s[1])))
        out = []
        for va, raw in spans:
            if out:
                va0, raw0 = out[-1]
                if va + len(raw) <= va0 + len(raw0):
                    if raw0[va - va0:va - va0 + len(raw)] != raw:
                        return None
                    continue
            out.append((va, raw))
        return tuple(out)


def _same(memory, spans) -> bool:
    window = getattr(memory, "window", None)
    if window is None:
        return False
    for va, raw in spans:
        seen = window(va, len(raw), True)
        if seen is None or seen.tobytes() != raw:
            return False
    return True


def recall(memory, key):
    """The result remembered under ``key`` when every range it read holds the same
    bytes in ``memory`` now, else None."""
    if not COMMANDS:
        return None
    hit = _KEPT.get(key)
    if hit is None or not _same(memory, hit[0]):
        _STREAK[0] += 1
        return None
    _STREAK[0] = 0
    return hit[1]


def record_now() -> bool:
    """Whether the command whose half is about to run (``recall`` missed) is recorded:
    always, unless the last QUIET_AFTER halves were none of them taken again; then
    one in RECORD_EVERY."""
    if _STREAK[0] <= QUIET_AFTER:
        return True
    _STREAK[1] += 1
    return _STREAK[1] % RECORD_EVERY == 0


#: Ranges read at most this many bytes apart are compared as one (fewer looks at
#: the memory; the bytes between them are compared too, so a change there is a miss).
MERGE_GAP_B = 256


def _merged(memory, spans: tuple) -> tuple:
    """``spans`` with neighbours less than MERGE_GAP_B apart joined, where the
    memory gives the joined range whole (its bytes now: nothing was written)."""
    window = getattr(memory, "window", None)
    if window is None:
        return spans
    out = []
    for va, raw in spans:
        if out:
            va0, raw0 = out[-1]
            end = max(va0 + len(raw0), va + len(raw))
            if va - (va0 + len(raw0)) < MERGE_GAP_B:
                seen = window(va0, end - va0, True)
                if seen is not None:
                    joined = seen.tobytes()
                    if joined[:len(raw0)] == raw0 and joined[va - va0:va - va0 + len(raw)] == raw:
                        out[-1] = (va0, joined)
                        continue
        out.append((va, raw))
    return tuple(out)


def remember(key, memory, recorder: Recorder, result) -> None:
    """Keep ``result`` under ``key`` with the ranges ``recorder`` saw read (of
    ``memory``, the recorder's inner memory)."""
    if not COMMANDS or not recorder.ok:
        return
    spans = recorder.kept_spans()
    if spans is None:
        return
    spans = _merged(memory, spans)
    with _LOCK:
        if key not in _KEPT and len(_KEPT) >= COMMANDS:
            _KEPT.pop(next(iter(_KEPT)))
        _KEPT[key] = (spans, result)


def forget() -> None:
    """Drop every remembered half (tests)."""
    with _LOCK:
        _KEPT.clear()
        _STREAK[:] = [0, 0]
        _HALVES.clear()
        _RETRY.clear()


# ----------------------------------------------------------------------------- fragment halves

#: How many recorded fragment halves are kept (0: none; ``COMMANDS`` = 0 turns
#: these off too).
HALVES = 8
#: The most fills a remembered fragment half may have made (a clear: one or two per
#: render target).
MAX_FILLS = 16
#: A key whose fragment half could not be remembered is recorded again only after
#: this many commands of that key (recording a half that writes otherwise is
#: overhead).
HALF_RETRY = 16

_HALVES: dict = {}      # key -> (anchors, spans, fills, result)
_RETRY: dict = {}       # key -> commands of that key still to run unrecorded


class FillRecorder(Recorder):
    """A Recorder for a fragment half: besides the byte ranges read, it lets the
    half write through ``fill_window`` (what a uniform store does) and keeps those
    fills, in order: the half's effects on memory. A read of a range filled before
    stops the recording (taken again, the ranges are compared before anything is
    filled); so does anything a Recorder stops at."""

    __slots__ = ("fills",)

    def __init__(self, inner):
        super().__init__(inner)
        self.fills: list = []

    def _keep(self, va: int, raw: bytes) -> None:
        end = va + len(raw)
        for at, n, _ in self.fills:
            if va < at + n and at < end:
                self.ok = False
                self.spans = []
                return
        super()._keep(va, raw)

    def fill_window(self, va: int, nbytes: int, fills) -> bool:
        """Write ``fills`` (``layout.apply_fills``) into ``[va, va + nbytes)``
        through the inner memory's window and keep them; False (nothing written)
        when it gives no window."""
        window = getattr(self.inner, "window", None)
        seen = window(va, nbytes, False) if window is not None else None
        if seen is None:
            return False
        layout.apply_fills(seen, fills)
        if self.ok:
            if len(self.fills) >= MAX_FILLS:
                self.ok = False
            else:
                self.fills.append((int(va), int(nbytes), tuple(fills)))
        return True


def recall_half(memory, key, anchors: tuple):
    """The result of the fragment half remembered under ``key`` when its
    ``anchors`` are the same objects and every range it read holds the same bytes
    in ``memory`` now; its fills are then written again (every window is found
    before any is written). Else None, nothing written."""
    hit = _HALVES.get(key)
    if hit is None or len(hit[0]) != len(anchors) or any(a is not b for a, b in zip(hit[0], anchors)) \
            or not _same(memory, hit[1]):
        return None
    window = memory.window
    views = [window(va, n, False) for va, n, _ in hit[2]]
    if any(v is None for v in views):
        return None
    for view, (_, _, fills) in zip(views, hit[2]):
        layout.apply_fills(view, fills)
    return hit[3]


def record_half_now(key) -> bool:
    """Whether the fragment half about to run under ``key`` (``recall_half``
    missed) is recorded: unless that key's last recording was not remembered and
    fewer than HALF_RETRY of its commands have run since."""
    if not HALVES:
        return False
    left = _RETRY.get(key)
    if left is None:
        return True
    if left > 1:
        _RETRY[key] = left - 1
        return False
    del _RETRY[key]
    return True


def remember_half(key, anchors: tuple, memory, recorder: FillRecorder | None, result) -> None:
    """Keep ``result`` under ``key`` with what ``recorder`` saw (ranges of
    ``memory``, its inner memory; fills); ``recorder`` None or stopped: not
    kept, and the key waits HALF_RETRY commands before it is recorded again."""
    spans = recorder.kept_spans() if recorder is not None and recorder.ok else None
    with _LOCK:
        if spans is None:
            if len(_RETRY) >= 64:
                _RETRY.clear()
            _RETRY[key] = HALF_RETRY
            _HALVES.pop(key, None)
            return
    # (not merged as a vertex half's are: bytes between a frame's reads are often
    # written each frame, by the driver's uploads of the next one)
    with _LOCK:
        if key not in _HALVES and len(_HALVES) >= HALVES:
            _HALVES.pop(next(iter(_HALVES)))
        _HALVES[key] = (anchors, spans, tuple(recorder.fills), result)
