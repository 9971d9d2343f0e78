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


class DRMFile:
    """One open of the device. ``lock`` serialises the file's ioctls that change tables."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.id = next(_file_ids)
        self.name = f"file{self.id}"
        self.lock = threading.RLock()
        self.gems = _Table()
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
        return next((h for h, g in self.gems.items.items() if g is gem), None)

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
