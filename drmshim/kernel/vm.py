"""GPU address spaces: page tables at 16 KiB granularity, and GPU memory access.

Sole responsibility: map GPU virtual addresses to physical arena bytes, and give
the GPU model vectorised access through them. A :class:`VM` implements
``drmshim.memory.GPUMemory``. The page table is a sorted list of mappings
(contiguous runs of pages of one object, or one page repeated for SINGLE_PAGE);
translation of a whole numpy array of addresses is one ``np.searchsorted`` over
the run starts. A bind touches only the runs it overlaps (bisection) and drops the
array snapshot; the next translation rebuilds it once. A snapshot is immutable, so
the GPU translates without a lock while binds happen.

A read of an unmapped page, a read of a write-only page, or a write to an
unmapped or read-only page is a GPU fault: ``GPUFault(FaultInfo)``; with soft
faults, reads give 0 and writes are dropped, and the fault is recorded.
"""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass

import numpy as np

from ..memory import FaultInfo, GPUFault
from .arena import PAGE_SIZE_B, Arena
from .gem import GEMObject

__all__ = ["VM", "VMView", "Mapping"]

_FAST_ITEMSIZES = (1, 2, 4, 8)
_ADDRESS_LIMIT = 1 << 64


@dataclass
class Mapping:
    """``[va, end)`` maps to ``gem`` from ``gem_offset_B`` (or its one page, repeated)."""

    va: int
    end: int
    gem: GEMObject
    gem_offset_B: int
    single_page: bool
    readable: bool
    writable: bool


#: The most window answers a page-table snapshot keeps (``VM.window``).
_WINDOWS_KEPT = 256


class _Snapshot:
    """The page table as arrays; a sentinel empty run at VA 0 keeps every index valid.

    ``offset`` is physical minus virtual for each run, so a translation is one add.
    """

    def __init__(self, mappings: list[Mapping]):
        self.starts = np.array([0] + [m.va for m in mappings], dtype=np.uint64)
        self.ends = np.array([0] + [m.end for m in mappings], dtype=np.uint64)
        self.phys = np.array([0] + [m.gem.phys + m.gem_offset_B for m in mappings], dtype=np.int64)
        self.offset = self.phys - self.starts.astype(np.int64)
        self.single = np.array([False] + [m.single_page for m in mappings])
        self.readable = np.array([False] + [m.readable for m in mappings])
        self.writable = np.array([False] + [m.writable for m in mappings])
        self.any_single = bool(self.single.any())
        # plain lists for the scalar lookups of the one-run fast path
        self.starts_list = self.starts.tolist()
        self.ends_list = self.ends.tolist()
        self.offset_list = self.offset.tolist()
        self.single_list = self.single.tolist()
        self.readable_list = self.readable.tolist()
        self.writable_list = self.writable.tolist()
        self.all_readable = bool(self.readable[1:].all())
        self.all_writable = bool(self.writable[1:].all())
        # (va, nbytes, is_read) -> the arena offset of a window (None: no window), for
        # this page table: a unit asks for the same few descriptor and image ranges
        # command after command (``VM.window``); a bind makes a new snapshot
        self.windows: dict = {}


class VM:
    """One GPU address space (a ``drm_asahi_vm_create`` VM)."""

    def __init__(self, vm_id: int, arena: Arena, kernel_start: int, kernel_end: int,
                 soft_faults: bool = False):
        self.vm_id = vm_id
        self.arena = arena
        self.kernel_start = kernel_start
        self.kernel_end = kernel_end
        self.soft_faults = soft_faults
        self.faults: list[FaultInfo] = []
        self._mappings: list[Mapping] = []  # sorted, non-overlapping runs
        self._starts: list[int] = []  # their start VAs, for bisection
        self._lock = threading.Lock()
        self._snapshot: _Snapshot | None = None
        self._refs = 1

    def get(self) -> "VM":
        with self._lock:
            self._refs += 1
        return self

    def put(self) -> None:
        """Drop a reference (the file's id, or a queue's); the last one unmaps everything."""
        with self._lock:
            self._refs -= 1
            last = self._refs == 0
        if last:
            self.unmap_all()

    # ----------------------------------------------------------------- binds
    def mappings(self) -> list[Mapping]:
        with self._lock:
            return list(self._mappings)

    def map(self, va: int, size_B: int, gem: GEMObject, gem_offset_B: int, *, readable: bool,
            writable: bool, single_page: bool = False) -> None:
        """Map ``[va, va + size_B)``; whatever was mapped there is replaced. Takes a reference on ``gem``."""
        new = Mapping(va, va + size_B, gem.get(), gem_offset_B, single_page, readable, writable)
        with self._lock:
            dropped, at = self._cut(va, va + size_B)
            self._mappings.insert(at, new)
            self._starts.insert(at, va)
            self._snapshot = None
        for gem_ref in dropped:
            gem_ref.put()

    def unmap(self, va: int, size_B: int) -> None:
        """Unmap ``[va, va + size_B)`` (any part of any mappings; unmapped pages are ignored)."""
        with self._lock:
            dropped, _ = self._cut(va, va + size_B)
            self._snapshot = None
        for gem_ref in dropped:
            gem_ref.put()

    def unmap_all(self) -> None:
        with self._lock:
            dropped = [m.gem for m in self._mappings]
            self._mappings, self._starts = [], []
            self._snapshot = None
        for gem_ref in dropped:
            gem_ref.put()

    def _cut(self, start: int, end: int) -> tuple[list[GEMObject], int]:
        """Remove ``[start, end)`` from the mappings (lock held): only the runs that overlap
        it are touched (found by bisection). Returns the references to drop and the index
        where a run starting at ``start`` belongs."""
        first = bisect.bisect_right(self._starts, start) - 1
        if first < 0 or self._mappings[first].end <= start:
            first += 1
        last = bisect.bisect_left(self._starts, end)  # runs [first, last) overlap
        dropped: list[GEMObject] = []
        pieces: list[Mapping] = []
        for m in self._mappings[first:last]:
            kept = []
            if m.va < start:
                kept.append(Mapping(m.va, start, m.gem, m.gem_offset_B, m.single_page, m.readable, m.writable))
            if m.end > end:
                offset = m.gem_offset_B if m.single_page else m.gem_offset_B + (end - m.va)
                kept.append(Mapping(end, m.end, m.gem, offset, m.single_page, m.readable, m.writable))
            # The old run's reference covers its first piece; each extra piece takes one.
            if not kept:
                dropped.append(m.gem)
            for extra in kept[1:]:
                extra.gem.get()
            pieces.extend(kept)
        self._mappings[first:last] = pieces
        self._starts[first:last] = [m.va for m in pieces]
        at = first + sum(1 for m in pieces if m.va < start)
        return dropped, at

    def _table(self) -> _Snapshot:
        """The current page-table arrays, rebuilt after a change on first use."""
        snap = self._snapshot
        if snap is None:
            with self._lock:
                if self._snapshot is None:
                    self._snapshot = _Snapshot(self._mappings)
                snap = self._snapshot
        return snap

    # ----------------------------------------------------------- translation
    def translate(self, vas: np.ndarray, is_read: bool) -> tuple[np.ndarray, np.ndarray]:
        """Physical arena offsets of ``vas`` and whether each access is allowed.

        Fast path: when every address lies in one run (a unit reading one buffer), the
        translation is one scalar add. Otherwise one ``searchsorted`` over the run starts.
        """
        snap = self._table()
        v = np.asarray(vas, dtype=np.uint64)
        if v.size == 0:
            return np.zeros(v.shape, np.int64), np.ones(v.shape, bool)
        perm = snap.readable if is_read else snap.writable
        lo, hi = v.min(), v.max()
        run = int(np.searchsorted(snap.starts, lo, side="right")) - 1
        if hi < snap.ends[run] and perm[run]:
            if snap.single[run]:
                in_page = ((v - snap.starts[run]) % np.uint64(PAGE_SIZE_B)).astype(np.int64)
                return snap.phys[run] + in_page, np.ones(v.shape, bool)
            return v.astype(np.int64) + snap.offset[run], np.ones(v.shape, bool)
        idx = np.searchsorted(snap.starts, v, side="right") - 1
        ok = v < np.take(snap.ends, idx)
        if not (snap.all_readable if is_read else snap.all_writable):
            ok &= np.take(perm, idx)
        phys = v.astype(np.int64) + np.take(snap.offset, idx)
        if snap.any_single:
            single = np.take(snap.single, idx)
            if single.any():
                in_page = ((v - np.take(snap.starts, idx)) % np.uint64(PAGE_SIZE_B)).astype(np.int64)
                phys = np.where(single, np.take(snap.phys, idx) + in_page, phys)
        return phys, ok

    def _fault(self, vas: np.ndarray, ok: np.ndarray, unit: str, is_read: bool, sink: list | None) -> None:
        bad = int(np.asarray(vas, dtype=np.uint64).reshape(-1)[~ok.reshape(-1)][0])
        info = FaultInfo(bad, unit, is_read)
        self.faults.append(info)
        if sink is not None:
            sink.append(info)
        if not self.soft_faults:
            raise GPUFault(info)

    def _checked(self, vas: np.ndarray, is_read: bool, unit: str, sink) -> tuple[np.ndarray, np.ndarray]:
        phys, ok = self.translate(vas, is_read)
        if not ok.all():
            self._fault(vas, ok, unit, is_read, sink)
        return phys, ok

    def _element_phys(self, v: np.ndarray, itemsize: int, is_read: bool, unit: str, sink):
        """Per-element (phys, ok), or None when some element straddles a page boundary."""
        if itemsize > 1 and np.any((v & np.uint64(PAGE_SIZE_B - 1)) > np.uint64(PAGE_SIZE_B - itemsize)):
            return None
        return self._checked(v, is_read, unit, sink)

    def _typed(self, dtype: np.dtype) -> np.ndarray | None:
        """The arena viewed as ``dtype`` when elements can be indexed directly, else None."""
        if dtype.itemsize in _FAST_ITEMSIZES and dtype.kind in "uifb":
            return self.arena.bytes.view(dtype)
        return None

    def _one_run_index(self, v: np.ndarray, n: int, is_read: bool) -> np.ndarray | None:
        """Fast path of gather/scatter: when every element ``[va, va + n)`` lies in one
        permitted, physically contiguous run and every address is ``n``-aligned in
        the arena, the element indices of the arena viewed as ``n``-byte words (no
        element can straddle pages that map apart). Else None: the general path."""
        if v.size == 0 or n not in _FAST_ITEMSIZES:
            return None
        snap = self._table()
        lo, hi = int(v.min()), int(v.max())
        run = bisect.bisect_right(snap.starts_list, lo) - 1
        if run <= 0 or hi + n > snap.ends_list[run] or snap.single_list[run] \
                or not (snap.readable_list if is_read else snap.writable_list)[run]:
            return None
        offset = snap.offset_list[run]
        if n > 1 and ((offset & (n - 1)) or (int(np.bitwise_or.reduce(v)) & (n - 1))):
            return None
        idx = v.view(np.int64)
        if offset:
            idx = idx + offset
        return idx >> (n.bit_length() - 1) if n > 1 else idx

    def gather(self, vas: np.ndarray, dtype, unit: str, _sink: list | None = None) -> np.ndarray:
        dtype = np.dtype(dtype)
        n = dtype.itemsize
        shape = np.shape(vas)
        v = _addresses(vas)
        if dtype.kind in "uifb":
            idx = self._one_run_index(v, n, True)
            if idx is not None:
                return self.arena.bytes.view(dtype).take(idx).reshape(shape)
        got = self._element_phys(v, n, True, unit, _sink)
        if got is None:  # some element straddles two pages: translate every byte
            phys, ok = self._checked(v[:, None] + np.arange(n, dtype=np.uint64), True, unit, _sink)
            raw = self.arena.bytes[np.where(ok, phys, 0)]
            raw[~ok] = 0
            return raw.reshape(-1).view(dtype).reshape(shape)
        phys, ok = got
        all_ok = bool(ok.all())
        if not all_ok:
            phys = np.where(ok, phys, 0)
        typed = self._typed(dtype)
        if typed is not None and not np.any(phys & (n - 1)):
            out = typed[phys // n]
        else:
            out = self.arena.bytes[phys[:, None] + np.arange(n)].reshape(-1).view(dtype)
        if not all_ok:
            out[~ok] = 0
        return out.reshape(shape)

    def scatter(self, vas: np.ndarray, values: np.ndarray, unit: str, _sink: list | None = None) -> None:
        values = np.ascontiguousarray(values).reshape(-1)
        n = values.dtype.itemsize
        v = _addresses(vas)
        if values.dtype.kind in "uifb":
            idx = self._one_run_index(v, n, False)
            if idx is not None:
                self.arena.bytes.view(values.dtype)[idx] = values  # duplicates: the last lane wins
                return
        got = self._element_phys(v, n, False, unit, _sink)
        if got is None:  # some element straddles two pages: translate every byte
            phys, ok = self._checked(v[:, None] + np.arange(n, dtype=np.uint64), False, unit, _sink)
            self.arena.bytes[phys[ok]] = values.view(np.uint8).reshape(-1, n)[ok]
            return
        phys, ok = got
        if not ok.all():
            phys, values = phys[ok], values[ok]
        typed = self._typed(values.dtype)
        if typed is not None and not np.any(phys & (n - 1)):
            typed[phys // n] = values
        else:
            self.arena.bytes[phys[:, None] + np.arange(n)] = values.view(np.uint8).reshape(-1, n)

    def _chunks(self, va: int, nbytes: int) -> tuple[np.ndarray, np.ndarray]:
        """Split ``[va, va + nbytes)`` at page boundaries: chunk start VAs and lengths."""
        first = va // PAGE_SIZE_B * PAGE_SIZE_B
        bounds = np.arange(first + PAGE_SIZE_B, va + nbytes, PAGE_SIZE_B, dtype=np.uint64)
        starts = np.concatenate([np.array([va], dtype=np.uint64), bounds])
        ends = np.concatenate([bounds, np.array([va + nbytes], dtype=np.uint64)])
        return starts, (ends - starts).astype(np.int64)

    def _wraps(self, va: int, nbytes: int, unit: str, is_read: bool, sink) -> bool:
        """Whether ``[va, va + nbytes)`` leaves the 64-bit address space (a fault at
        ``va``, computed without overflow; with soft faults the access is dropped)."""
        if 0 <= va and va + nbytes <= _ADDRESS_LIMIT:
            return False
        vas = np.array([va & (_ADDRESS_LIMIT - 1)], dtype=np.uint64)
        self._fault(vas, np.zeros(1, bool), unit, is_read, sink)
        return True

    def _span_phys(self, va: int, nbytes: int, is_read: bool) -> int | None:
        """The arena offset of ``[va, va + nbytes)`` when the range lies in one
        permitted run mapped contiguously (the common small read of a descriptor or
        a record: scalar lookups only), else None: the general path decides."""
        snap = self._table()
        run = bisect.bisect_right(snap.starts_list, va) - 1
        if run <= 0 or va + nbytes > snap.ends_list[run] or snap.single_list[run]:
            return None
        if not (snap.readable_list if is_read else snap.writable_list)[run]:
            return None
        return va + snap.offset_list[run]

    def window(self, va: int, nbytes: int, is_read: bool) -> np.ndarray | None:
        """The arena bytes of ``[va, va + nbytes)`` as a view (reads and writes through
        it are that range's memory) when the whole range lies in one run that permits
        the access and is mapped contiguously (a buffer bound in one piece), else None:
        the caller then takes ``gather``/``scatter``, which fault as ever. Never faults;
        valid until the next bind (a unit uses it within one access)."""
        snap = self._snapshot
        if snap is not None:
            at = snap.windows.get((va, nbytes, is_read), -1)
            if at != -1:
                return None if at is None else self.arena.bytes[at:at + nbytes]
        if nbytes <= 0 or va < 0 or va + nbytes > _ADDRESS_LIMIT:
            return None
        at = self._span_phys(va, nbytes, is_read)
        if snap is not None and snap is self._snapshot:
            if len(snap.windows) >= _WINDOWS_KEPT:
                snap.windows.clear()
            snap.windows[(va, nbytes, is_read)] = at
        return None if at is None else self.arena.bytes[at:at + nbytes]

    def run_window(self, va: int, is_read: bool) -> tuple[int, np.ndarray] | None:
        """(first VA, arena bytes) of the whole run that holds ``va`` when it permits
        the access and is mapped contiguously (``window``'s conditions), else None: a
        unit that learns its addresses later (a shader's loop of loads from one buffer)
        checks each against the run and takes ``gather`` for any outside it. Never
        faults; valid until the next bind."""
        snap = self._table()
        run = bisect.bisect_right(snap.starts_list, va) - 1
        if run <= 0 or va >= snap.ends_list[run] or snap.single_list[run] \
                or not (snap.readable_list if is_read else snap.writable_list)[run]:
            return None
        start = snap.starts_list[run]
        at = start + snap.offset_list[run]
        return start, self.arena.bytes[at:at + snap.ends_list[run] - start]

    def read(self, va: int, nbytes: int, unit: str, _sink: list | None = None) -> np.ndarray:
        if nbytes > 0 and va >= 0:
            at = self._span_phys(va, nbytes, True)
            if at is not None:
                return self.arena.bytes[at:at + nbytes].copy()
        out = np.zeros(nbytes, dtype=np.uint8)
        if nbytes == 0 or self._wraps(va, nbytes, unit, True, _sink):
            return out
        starts, lengths = self._chunks(va, nbytes)
        phys, ok = self._checked(starts, True, unit, _sink)
        if _contiguous(phys, ok, lengths):          # one physical run: one copy
            out[:] = self.arena.bytes[int(phys[0]):int(phys[0]) + nbytes]
            return out
        pos = 0
        for p, length, good in zip(phys.tolist(), lengths.tolist(), ok.tolist()):
            if good:
                out[pos:pos + length] = self.arena.bytes[p:p + length]
            pos += length
        return out

    def write(self, va: int, data, unit: str, _sink: list | None = None) -> None:
        if isinstance(data, (bytes, bytearray, memoryview)):
            raw = np.frombuffer(bytes(data), dtype=np.uint8)
        else:
            raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        if raw.size == 0 or self._wraps(va, raw.size, unit, False, _sink):
            return
        at = self._span_phys(va, raw.size, False)
        if at is not None:
            self.arena.bytes[at:at + raw.size] = raw
            return
        starts, lengths = self._chunks(va, raw.size)
        phys, ok = self._checked(starts, False, unit, _sink)
        if _contiguous(phys, ok, lengths):          # one physical run: one copy
            self.arena.bytes[int(phys[0]):int(phys[0]) + raw.size] = raw
            return
        pos = 0
        for p, length, good in zip(phys.tolist(), lengths.tolist(), ok.tolist()):
            if good:
                self.arena.bytes[p:p + length] = raw[pos:pos + length]
            pos += length

    def view(self, sink: list) -> "VMView":
        """This VM as GPUMemory for one command: its faults are also appended to ``sink``."""
        return VMView(self, sink)


def _addresses(vas) -> np.ndarray:
    """``vas`` as a flat uint64 array; Python integers outside 64 bits wrap (they
    then fault as any unmapped address would, instead of raising OverflowError)."""
    try:
        return np.asarray(vas, dtype=np.uint64).reshape(-1)
    except OverflowError:
        return np.array([int(v) & (_ADDRESS_LIMIT - 1) for v in np.ravel(np.asarray(vas, dtype=object))],
                        dtype=np.uint64)


def _contiguous(phys: np.ndarray, ok: np.ndarray, lengths: np.ndarray) -> bool:
    """Whether page chunks (physical starts, lengths) are all permitted and follow
    each other in the arena (the common case of a buffer bound in one piece)."""
    if len(phys) == 1:
        return bool(ok[0])
    return bool(ok.all()) and bool((np.diff(phys) == lengths[:-1]).all())


class VMView:
    """A VM seen by one command: same memory, the command's own fault record."""

    def __init__(self, vm: VM, sink: list):
        self.vm = vm
        self.faults = sink

    @property
    def soft_faults(self) -> bool:
        return self.vm.soft_faults

    def read(self, va: int, nbytes: int, unit: str) -> np.ndarray:
        return self.vm.read(va, nbytes, unit, self.faults)

    def write(self, va: int, data, unit: str) -> None:
        self.vm.write(va, data, unit, self.faults)

    def window(self, va: int, nbytes: int, is_read: bool) -> np.ndarray | None:
        return self.vm.window(va, nbytes, is_read)

    def run_window(self, va: int, is_read: bool) -> tuple[int, np.ndarray] | None:
        return self.vm.run_window(va, is_read)

    def gather(self, vas: np.ndarray, dtype, unit: str) -> np.ndarray:
        return self.vm.gather(vas, dtype, unit, self.faults)

    def scatter(self, vas: np.ndarray, values: np.ndarray, unit: str) -> None:
        self.vm.scatter(vas, values, unit, self.faults)
