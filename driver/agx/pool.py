"""GPU memory for the data of batches (Mesa's agx_pool, plus a pool of constants).

Sole responsibility: give a batch GPU memory for what it submits. ``Pool``: bump
allocation from slab BOs for data that lives exactly as long as the batch
(streams, PPP state, USC words, uniforms, descriptors, user vertex data); the
slabs go back to the device's BO cache when the batch's submission has completed
(``release``). ``ConstPool``: a context's blobs that batch after batch are the
same bytes (the background, end-of-tile and partial-background programs, their
USC words, uniforms and descriptors), uploaded once and found again by content;
each batch that uses a blob holds a reference on the slab it lives in, so a slab
is never reused while a submitted batch still reads it. ``FeedbackSlots``: a
context's records where the kernel writes each command's feedback, a ring of
zeroed slots taken per command and given back once the submission retired and
its feedback was read (a batch holds the slots' BO meanwhile)."""

from __future__ import annotations

import threading

from .device import BO, Device

__all__ = ["Pool", "ConstPool", "FeedbackSlots"]

SLAB_B = 256 << 10


class Pool:
    """``usc=True`` allocates in the USC heap (what bg/eot offsets and shader
    binaries must address)."""

    def __init__(self, device: Device, usc: bool = False, label: str = "pool"):
        self.device, self.usc, self.label = device, usc, label
        self.bos: list[BO] = []
        self._bo: BO | None = None
        self._top = 0

    def alloc(self, size_B: int, align_B: int = 64) -> tuple[BO, int]:
        """(bo, offset_B) of size_B fresh bytes."""
        size = max(int(size_B), 1)
        if self._bo is not None:
            at = -(-self._top // align_B) * align_B
            if at + size <= self._bo.size_B:
                self._top = at + size
                return self._bo, at
        bo = self.device.bo_create(max(SLAB_B, size), usc=self.usc, label=self.label)
        self.bos.append(bo)
        self._bo, self._top = bo, size
        return bo, 0

    def upload(self, data, align_B: int = 64) -> int:
        """Copy ``data`` (bytes-like or numpy) in; returns its GPU address."""
        return self.upload_in(data, align_B)[1]

    def upload_in(self, data, align_B: int = 64) -> tuple[BO, int]:
        """``upload``, also naming the BO the bytes went to: (bo, address)."""
        raw = data if isinstance(data, (bytes, bytearray)) else memoryview(data).cast("B").tobytes()
        bo, off = self.alloc(len(raw), align_B)
        bo.map[off:off + len(raw)] = raw
        return bo, bo.va + off

    def release(self) -> None:
        for bo in self.bos:
            bo.release()
        self.bos, self._bo, self._top = [], None, 0


class ConstPool:
    """Constant blobs of one context, uploaded once and found by their bytes.

    ``upload(data, align_B, user)`` gives the address of ``data`` (the same address
    for the same bytes and alignment) and has ``user`` (a batch: anything with
    ``keep(bo)``) hold the slab it lives in. ``memo`` remembers values built from
    blobs (USC words naming other blobs' addresses, whole command fields) with the
    slabs they need; ``recall`` hands them out again and has the user hold those
    slabs too. Blobs are never written after their upload, so batches in flight
    may share them.

    When the slabs pass ``limit_B``, the pool starts afresh (``reset``): it forgets
    every blob and memo and drops its own reference on its slabs; the batches that
    still hold a slab keep it until their submission retires, then it goes back to
    the BO cache. A user must therefore take what it needs from one generation:
    ``generation`` counts the resets. Thread-safe (a batch may be flushed by
    another context's thread)."""

    def __init__(self, device: Device, label: str = "const", limit_B: int = 4 * SLAB_B):
        self.device, self.label, self.limit_B = device, label, limit_B
        self._lock = threading.Lock()
        self._pools = {False: Pool(device, label=label), True: Pool(device, usc=True, label=label + " usc")}
        self._blobs: dict = {}      # (usc, align_B, bytes) -> (bo, address)
        self._memos: dict = {}      # key -> (value, bos)
        self.generation = 0
        self.uploads = self.hits = 0

    def upload(self, data: bytes, align_B: int, user, usc: bool = False) -> int:
        """The address of ``data`` (bytes) in the pool; ``user`` keeps its slab."""
        key = (usc, align_B, data)
        with self._lock:
            got = self._blobs.get(key)
            if got is None:
                if self.size_B >= self.limit_B:
                    self._reset_locked()
                got = self._blobs[key] = self._pools[usc].upload_in(data, align_B)
                self.uploads += 1
            else:
                self.hits += 1
            user.keep(got[0])       # under the lock: a reset cannot free the slab first
        return got[1]

    def recall(self, key, user):
        """The value remembered under ``key`` (None if none); ``user`` keeps its slabs."""
        with self._lock:
            got = self._memos.get(key)
            if got is None:
                return None
            value, bos = got
            for bo in bos:
                user.keep(bo)
        return value

    def memo(self, key, value, bos, generation: int) -> None:
        """Remember ``value`` under ``key``: built from blobs of ``generation`` living
        in the slabs ``bos``. Nothing is remembered when the pool has been reset since
        (the value's blobs may be gone from it)."""
        with self._lock:
            if generation == self.generation:
                if len(self._memos) >= 256:
                    self._memos.clear()
                self._memos[key] = (value, tuple(bos))

    @property
    def size_B(self) -> int:
        return sum(bo.size_B for pool in self._pools.values() for bo in pool.bos)

    def _reset_locked(self) -> None:
        for pool in self._pools.values():
            if self.device.fd is None:          # a closed device freed every BO already
                pool.bos, pool._bo = [], None
            pool.release()
        self._blobs.clear()
        self._memos.clear()
        self.generation += 1

    def release(self) -> None:
        """Forget everything and drop the pool's references (the context's end)."""
        with self._lock:
            self._reset_locked()


class FeedbackSlots:
    """A context's command feedback records (``struct drm_asahi_cmd_feedback``), reused.

    ``take(user)`` gives (bo, offset_B) of a zeroed slot and has ``user`` (a batch)
    hold the BO until its submission retires; ``give_back(slots)`` (at retirement,
    after the feedback was read) makes them free again. Slots live in page-sized
    BOs, a new one when every slot is in flight. After ``release`` (the context's
    end) nothing is handed out or taken back; a BO goes back to the device once the
    last submission using it retired. Thread-safe (submissions retire in any thread)."""

    def __init__(self, device: Device, slot_B: int, label: str = "feedback"):
        self.device, self.label = device, label
        self.slot_B = -(-slot_B // 64) * 64
        self._zero = bytes(slot_B)
        self._lock = threading.Lock()
        self._free: list[tuple[BO, int]] = []
        self.bos: list[BO] = []
        self._released = False

    def take(self, user) -> tuple[BO, int]:
        with self._lock:
            assert not self._released, "feedback slots taken after release"
            if not self._free:
                bo = self.device.bo_create(self.slot_B, label=self.label)
                self.bos.append(bo)
                self._free = [(bo, off) for off in range(bo.size_B - self.slot_B, -1, -self.slot_B)]
            bo, off = self._free.pop()
            user.keep(bo)
        bo.map[off:off + len(self._zero)] = self._zero
        return bo, off

    def give_back(self, slots) -> None:
        """``slots``: (bo, offset_B) pairs taken here and no longer written or read."""
        with self._lock:
            if not self._released:
                self._free.extend(slots)

    def release(self) -> None:
        """The context's end: drop the own references (batches in flight keep theirs)."""
        with self._lock:
            if self._released:
                return
            self._released = True
            bos, self.bos, self._free = self.bos, [], []
        if self.device.fd is not None:          # a closed device freed every BO already
            for bo in bos:
                bo.release()
