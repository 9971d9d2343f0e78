"""DRM files: one per open, each with its own handle tables.

Sole responsibility: map a file's small integers (GEM handles, VM ids, queue
ids, sync-object handles, bind-object handles) to kernel objects, with the
errno the kernel gives for an unknown one.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass

from .errors import errno, fail

__all__ = ["DRMFile", "BindObject"]

_file_ids = itertools.count(1)


@dataclass
class BindObject:
    """A GEM_BIND_OBJECT timestamp buffer: a page-aligned range of an object."""

    gem: object
    offset_B: int
    range_B: int


class _Table:
    def __init__(self, first: int = 1):
        self.items: dict[int, object] = {}
        self._next = first

    def add(self, obj) -> int:
        handle = self._next
        self._next += 1
        self.items[handle] = obj
        return handle


class _GemTable(_Table):
    """The GEM handles, with two indexes kept beside them: each object's handle and
    the object at each mmap offset (``mmap`` and PRIME imports walked every handle,
    so each new BO cost time in the number of live ones). Change it only through
    ``add``, ``remove`` and ``clear``."""

    def __init__(self):
        super().__init__()
        self.by_offset: dict[int, object] = {}
        self.handle_of: dict[int, int] = {}      # id(object) -> its handle

    def add(self, gem) -> int:
        handle = super().add(gem)
        self.by_offset[gem.mmap_offset] = gem
        self.handle_of[id(gem)] = handle
        return handle

    def remove(self, handle: int):
        gem = self.items.pop(handle)
        self.by_offset.pop(gem.mmap_offset, None)
        self.handle_of.pop(id(gem), None)
        return gem

    def clear(self) -> None:
        self.items.clear()
        self.by_offset.clear()
        self.handle_of.clear()


class DRMFile:
    """One open of the device. ``lock`` serialises the file's ioctls that change tables."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.id = next(_file_ids)
        self.name = f"file{self.id}"
        self.lock = threading.RLock()
        self.gems = _GemTable()
        self.vms = _Table()
        self.queues = _Table()
        self.syncobjs = _Table()
        self.bind_objects = _Table()
        self.closed = False

    def gem(self, handle: int, missing: int = errno.ENOENT):
        try:
            return self.gems.items[handle]
        except KeyError:
            raise fail(missing, f"no GEM handle {handle}") from None

    def gem_handle_of(self, gem) -> int | None:
        return self.gems.handle_of.get(id(gem))

    def vm(self, vm_id: int):
        try:
            return self.vms.items[vm_id]
        except KeyError:
            raise fail(errno.ENOENT, f"no VM {vm_id}") from None

    def queue(self, queue_id: int):
        try:
            return self.queues.items[queue_id]
        except KeyError:
            raise fail(errno.ENOENT, f"no queue {queue_id}") from None

    def syncobj(self, handle: int):
        try:
            return self.syncobjs.items[handle]
        except KeyError:
            raise fail(errno.ENOENT, f"no sync object {handle}") from None

    def bind_object(self, handle: int) -> BindObject:
        try:
            return self.bind_objects.items[handle]
        except KeyError:
            raise fail(errno.ENOENT, f"no bind object {handle}") from None
