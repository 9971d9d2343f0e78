"""Fences and DRM sync objects, with the semantics of ``drm_syncobj.c``.

Sole responsibility: what a fence and a sync object are, and waiting on them.
A fence signals once (optionally with an error, e.g. EIO after a GPU fault). A
sync object points at a fence or at nothing; a timeline sync object holds a chain
of (point, fence) links, and a point counts as signalled once its link and every
earlier link have signalled (``dma_fence_chain``); signalled links are folded
into the chain's base as new points are added, so the chain stays short. Point 0 means the whole
current fence, as for a binary sync object.

All fences and sync objects of one kernel share one lock. A thread that blocks
registers a :class:`Waiter` (a condition on that lock) on exactly the fences and
sync objects it waits for, as a ``dma_fence`` callback: a signal wakes the waiters
of that fence only, and a fence replacement or a new timeline point the waiters of
that sync object only. Waits block; nothing spins, and a signal costs nothing for
the other waiters of the kernel (a GPU's hundreds of queue threads included).
"""

from __future__ import annotations

import itertools
import threading
import time

from .errors import errno, fail

__all__ = ["SyncState", "Waiter", "Fence", "Syncobj", "wait_many"]

_fence_ids = itertools.count(1)


class SyncState:
    """The lock shared by one kernel's fences and sync objects (``lock``), and their
    waiters. ``wakeups`` counts every wake-up delivered to a waiter (a test hook:
    a signal must wake only the waiters of what it signals)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.wakeups = 0

    def waiter(self) -> "Waiter":
        return Waiter(self)


class Waiter:
    """One blocked thread: a condition on the kernel's sync lock, registered on the
    fences and sync objects it waits for (``watch``), which wake it when they signal
    or change. Used under ``state.lock``; ``release`` unregisters it everywhere.
    ``wakeups`` counts the times it was woken."""

    def __init__(self, state: SyncState):
        self.state = state
        self.cond = threading.Condition(state.lock)
        self.wakeups = 0
        self._watched: list = []

    def watch(self, obj) -> None:
        """Be woken by ``obj`` (a Fence: when it signals, nothing if it has; a Syncobj:
        when its fence or chain changes)."""
        for target in obj.wake_sources():
            if self not in target.waiters:
                target.waiters.add(self)
                self._watched.append(target)

    def wake(self) -> None:
        self.wakeups += 1
        self.state.wakeups += 1
        self.cond.notify()

    def wait(self, timeout_s: float | None = None) -> None:
        self.cond.wait(timeout_s)

    def release(self) -> None:
        for target in self._watched:
            target.waiters.discard(self)
        self._watched = []


def _wake_all(waiters: set) -> None:
    for waiter in list(waiters):
        waiter.wake()


class Fence:
    """A one-shot completion event."""

    def __init__(self, state: SyncState, name: str = ""):
        self.state = state
        self.id = next(_fence_ids)
        self.name = name
        self.signaled = False
        self.error = 0
        self.timestamp_ns = 0
        self.waiters: set[Waiter] = set()

    def wake_sources(self) -> list["Fence"]:
        """The fences whose signal can change this one's state (itself, unless signalled)."""
        return [] if self.signaled else [self]

    @classmethod
    def stub(cls, state: SyncState) -> "Fence":
        """An already signalled fence (``dma_fence_get_stub``)."""
        fence = cls(state, "stub")
        fence.signaled = True
        fence.timestamp_ns = time.monotonic_ns()
        return fence

    def signal(self, error: int = 0) -> None:
        """Signal once (later calls do nothing) and wake this fence's waiters only."""
        with self.state.lock:
            if self.signaled:
                return
            self.error = error
            self.signaled = True
            self.timestamp_ns = time.monotonic_ns()
            waiters, self.waiters = self.waiters, set()   # one-shot: nobody registers again
            _wake_all(waiters)

    def wait(self, timeout_s: float | None = None) -> bool:
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        with self.state.lock:
            waiter = self.state.waiter()
            try:
                while not self.signaled:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        return False
                    waiter.watch(self)
                    waiter.wait(remaining)
                return True
            finally:
                waiter.release()

    def __repr__(self) -> str:
        return f"Fence({self.name or self.id}, signaled={self.signaled}, error={self.error})"


class Syncobj:
    """A DRM sync object. ``links`` and ``waiters`` are guarded by the state's lock;
    ``waiters`` are woken when the links change (a WAIT_FOR_SUBMIT wait for a fence
    to appear)."""

    def __init__(self, state: SyncState, signaled: bool = False):
        self.state = state
        self.links: list[tuple[int, Fence]] = []
        self.waiters: set[Waiter] = set()
        if signaled:
            self.links = [(0, Fence.stub(state))]

    def wake_sources(self) -> list["Syncobj"]:
        return [self]

    # The callers below hold state.lock unless noted.
    def replace(self, fence: Fence | None) -> None:
        """Binary semantics: point at ``fence`` (None: reset). Takes the lock."""
        with self.state.lock:
            self.links = [] if fence is None else [(0, fence)]
            _wake_all(self.waiters)

    def add_point(self, point: int, fence: Fence) -> None:
        """Timeline semantics: append ``fence`` as chain link ``point`` (0: replace). Takes the lock."""
        if point == 0:
            self.replace(fence)
            return
        with self.state.lock:
            self.links = _collapsed(self.state, self.links) + [(point, fence)]
            _wake_all(self.waiters)

    def resolve(self, point: int) -> list[Fence] | None:
        """The fences that must signal for ``point``; None when the point has no fence yet."""
        if not self.links:
            return None
        if point == 0:
            return [fence for _, fence in self.links]
        for i, (link_point, _) in enumerate(self.links):
            if link_point >= point and link_point != 0:
                return [fence for _, fence in self.links[:i + 1]]
        return None

    def fence_for(self, point: int) -> Fence | None:
        """The fence of ``point`` (0: the current fence) as one object, or None.
        A chain of several links becomes one snapshot fence."""
        fences = self.resolve(point)
        if fences is None:
            return None
        if len(fences) == 1:
            return fences[0]
        return _ChainFence(self.state, fences)

    def query(self, last_submitted: bool) -> int:
        """SYNCOBJ_QUERY: the last signalled point, or with LAST_SUBMITTED the last added one."""
        links = self.links
        if not links or links[-1][0] == 0:
            return 0
        if last_submitted:
            return links[-1][0]
        signaled_point = 0
        for point, fence in links:
            if not fence.signaled:
                break
            signaled_point = point
        return signaled_point


def _collapsed(state: SyncState, links: list[tuple[int, Fence]]) -> list[tuple[int, Fence]]:
    """``links`` with its signalled prefix folded into one link (what
    ``dma_fence_chain`` does as it walks): the last signalled point stays as the
    chain's base, so queries and waits on earlier points still see it signalled,
    and the first error of the folded links is kept on it. A timeline signalled as
    it goes therefore holds O(1) links, not one per point ever added."""
    done = 0
    while done < len(links) and links[done][1].signaled:
        done += 1
    if done <= 1:
        return links
    base_point, base = links[done - 1]
    error = next((fence.error for _, fence in links[:done] if fence.error), 0)
    if error and not base.error:
        base = Fence(state, "chain base")
        base.error, base.signaled, base.timestamp_ns = error, True, links[done - 1][1].timestamp_ns
    return [(base_point, base)] + links[done:]


class _ChainFence(Fence):
    """A snapshot of a timeline's chain, as one fence (what a sync file exports)."""

    def __init__(self, state: SyncState, fences: list[Fence]):
        super().__init__(state, "chain")
        self.fences = fences

    def wake_sources(self) -> list[Fence]:
        return [leaf for fence in self.fences for leaf in fence.wake_sources()]

    @property
    def signaled(self) -> bool:  # type: ignore[override]
        return all(f.signaled for f in self.fences)

    @signaled.setter
    def signaled(self, value: bool) -> None:
        pass

    @property
    def error(self) -> int:  # type: ignore[override]
        return next((f.error for f in self.fences if f.error), 0)

    @error.setter
    def error(self, value: int) -> None:
        pass


_MAX_SLICE_S = 3600.0  # INT64_MAX deadlines ("forever") wait in slices Python's locks accept


def _remaining_s(deadline_ns: int) -> float:
    return min((deadline_ns - time.monotonic_ns()) / 1e9, _MAX_SLICE_S)


def wait_many(state: SyncState, entries: list[tuple[Syncobj, int]], deadline_ns: int, *,
              wait_all: bool, for_submit: bool, available: bool) -> int:
    """SYNCOBJ_(TIMELINE_)WAIT. Returns ``first_signaled``; raises ETIME on expiry, EINVAL
    when a point has no fence and WAIT_FOR_SUBMIT is not set.

    ``deadline_ns`` is absolute CLOCK_MONOTONIC (``time.monotonic_ns``); a deadline in
    the past polls once. A fence found for an entry stays the one waited on, even if the
    sync object is replaced later (as the kernel takes a reference at the start).
    """
    with state.lock:
        if len(entries) == 1:       # (one sync object, every fence wait: done already is common)
            fences = entries[0][0].resolve(entries[0][1])
            if fences is not None and (available or all(f.signaled for f in fences)):
                return 0
            resolved: list[list[Fence] | None] = [fences]
        else:
            resolved = [sync.resolve(point) for sync, point in entries]
        if not for_submit and None in resolved:
            raise fail(errno.EINVAL, "a sync object point has no fence (and no WAIT_FOR_SUBMIT)")
        waiter = None       # made only if the wait must block
        try:
            while True:
                states = []
                for i, fences in enumerate(resolved):
                    if fences is None:
                        fences = resolved[i] = entries[i][0].resolve(entries[i][1])
                    states.append(fences is not None and (available or all(f.signaled for f in fences)))
                if all(states) if wait_all else any(states):
                    return states.index(True)
                remaining = _remaining_s(deadline_ns)
                if remaining <= 0:
                    raise fail(errno.ETIME, "sync object wait timed out")
                if waiter is None:
                    waiter = state.waiter()
                for i, ready in enumerate(states):
                    # be woken by what entry i still waits for: its sync object while the
                    # point has no fence, then the fences (their own signals only)
                    if ready:
                        continue
                    if resolved[i] is None:
                        waiter.watch(entries[i][0])
                    else:
                        for fence in resolved[i]:
                            waiter.watch(fence)
                waiter.wait(remaining)
        finally:
            if waiter is not None:
                waiter.release()
