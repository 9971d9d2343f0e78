"""Implicit synchronisation of shared buffers between device files (Mesa's dma-buf
sync-file dance, in userspace).

Sole responsibility: remember which BOs of this process are views of one dma-buf (an
exported BO and its imports in other device files) and give a submission the fences
of the other views' last writers as sync files, which it imports as temporary
syncobjs (Mesa imports the dma-buf's sync file before a submit and attaches its own
fence after it; our UAPI has no dma-buf sync-file ioctls, so the writer of each view
is kept here instead)."""

from __future__ import annotations

import threading

__all__ = ["share_group", "link", "foreign_writers"]

_lock = threading.Lock()
_groups: dict[int, list] = {}        # id(BO) -> the list of BOs viewing the same memory


def link(exported, imported) -> None:
    """``imported`` (another file's BO) views the memory of ``exported``."""
    with _lock:
        group = _groups.get(id(exported))
        if group is None:
            group = _groups[id(exported)] = [exported]
        if imported not in group:
            group.append(imported)
        _groups[id(imported)] = group


def share_group(bo) -> list:
    with _lock:
        return list(_groups.get(id(bo), [bo]))


def foreign_writers(bo) -> list:
    """The unfinished last-writer submissions of the other views of ``bo``'s memory."""
    out = []
    for other in share_group(bo):
        sub = getattr(other, "writer_submission", None)
        if other is not bo and sub is not None and not sub.done and other.device is not bo.device:
            out.append(sub)
    return out
