"""GPU core dumps: written when a command faults, decoded by ``shimgl crashdec``.

Sole responsibility: (1) when a job whose commands faulted completes, write one
dump file (the capture format, header ``kind: "coredump"``) to ``SHIMGL_DUMP_DIR``
(default: ``shimgl-dumps`` in the system temp dir) holding a ``fault`` record per
faulted command (address, unit, read/write, command index and name, queue, soft
or not), the submit record with the command buffer, the VM's mappings, the memory
the commands reference and the pages around each fault address; the path is
logged on stderr. The folder is shared by every process: after each dump the
oldest ``shimgl-fault-*.dump`` files are removed while the dumps there exceed
``SHIMGL_DUMP_DIR_MAX_MB`` (default 128; the new dump is always kept, other files
never touched). (2) Estimate where in the command stream the GPU stopped.

The estimate, in the spirit of Freedreno's "ESTIMATED CRASH LOCATION": if the
faulting address lies in a stream itself, the block there; otherwise the block
whose references come closest below the address (within one mapping) is its
user, and the GPU stopped at the first draw/launch from that block on (state is
consumed by the next draw); with no candidate, the last draw/launch decoded.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable

from .fileformat import VERSION, Writer
from .memimage import PAGE_SIZE_B
from .snapshot import ObjectCache, config_json, take_snapshot, write_submit
from .streams import Block

__all__ = ["dump_dir", "dump_dir_max_B", "prune_dumps", "CoreDumper", "estimate_location", "Estimate", "MAX_DUMPS",
           "WINDOW_B"]

MAX_DUMPS = 32         # per kernel; later faults are only logged
_DEFAULT_DIR_MAX_MB = 128   # the dump folder's cap (all processes' dumps together)
_dump_numbers = itertools.count(1)  # process-wide: dump names never collide between kernels
WINDOW_B = PAGE_SIZE_B  # memory saved on each side of a fault address


def dump_dir() -> str:
    if os.environ.get("SHIMGL_DUMP_DIR"):
        return os.environ["SHIMGL_DUMP_DIR"]
    import tempfile         # not at import: tempfile brings shutil, random, bz2, lzma into every start
    return os.path.join(tempfile.gettempdir(), "shimgl-dumps")


def dump_dir_max_B() -> int:
    """The dump folder's cap in bytes: ``SHIMGL_DUMP_DIR_MAX_MB`` (a number; default 128)."""
    try:
        return int(float(os.environ.get("SHIMGL_DUMP_DIR_MAX_MB", _DEFAULT_DIR_MAX_MB)) * (1 << 20))
    except ValueError:
        return _DEFAULT_DIR_MAX_MB << 20


def prune_dumps(directory: str, max_B: int, keep: str | None = None) -> list[str]:
    """Remove the oldest core dumps (``shimgl-fault-*.dump``, by modification time) of
    ``directory`` while they hold more than ``max_B`` bytes together; ``keep`` (the
    dump just written) is never removed, nor any other file. Returns the removed
    paths. Races with other processes pruning the same folder are harmless (a file
    already gone is skipped)."""
    dumps = []
    try:
        with os.scandir(directory) as it:
            for e in it:
                if e.name.startswith("shimgl-fault-") and e.name.endswith(".dump") and \
                        e.is_file(follow_symlinks=False):
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    dumps.append((st.st_mtime_ns, e.name, st.st_size, e.path))
    except OSError:
        return []
    total = sum(size for _, _, size, _ in dumps)
    removed = []
    for _, _, size, path in sorted(dumps):
        if total <= max_B:
            break
        if keep is not None and os.path.abspath(path) == os.path.abspath(keep):
            continue
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        removed.append(path)
    return removed


class CoreDumper:
    """Writes the dumps of one kernel."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.count = 0
        self._lock = threading.Lock()
        self.paths: list[str] = []

    def job_done(self, file, queue, job, copied: Callable[[], tuple], seq: int) -> str | None:
        """Called when ``job`` completes (before its fence signals): dump if any command
        faulted. ``copied()`` gives what :func:`~.snapshot.copy_submit` returns for it."""
        faulted = [c for c in job.firmware_job.commands if c.feedback.fault is not None]
        if not faulted:
            return None
        with self._lock:
            self.count += 1
            n = self.count
        first = faulted[0]
        what = (f"GPU fault: {'read' if first.feedback.fault.is_read else 'write'} of 0x{first.feedback.fault.address:x}"
                f" by {first.feedback.fault.unit} in {first.name} ({first.kind} command {first.index}) of submit {seq}"
                f" on {file.name} queue {queue.queue_id}")
        reason = getattr(first.feedback.fault, "reason", "")
        if reason:      # a unit that stopped on what it could not execute says why
            what += f" ({reason})"
        if n > MAX_DUMPS:
            print(f"shimgl: {what}; {MAX_DUMPS} core dumps already written, not dumping", file=sys.stderr, flush=True)
            return None
        directory = dump_dir()
        path = os.path.join(directory, f"shimgl-fault-{os.getpid()}-{next(_dump_numbers):04d}.dump")
        try:
            self._write(path, file, queue, faulted, copied(), seq)
        except Exception as e:  # noqa: BLE001 - a failed dump must not take the GPU down
            print(f"shimgl: {what}; writing the core dump {path} failed: {e}", file=sys.stderr, flush=True)
            return None
        self.paths.append(path)
        print(f"shimgl: {what}; core dump written to {path} (decode: shimgl crashdec {path})",
              file=sys.stderr, flush=True)
        removed = prune_dumps(directory, dump_dir_max_B(), keep=path)
        if removed:
            print(f"shimgl: removed the {len(removed)} oldest core dumps of {directory} "
                  f"(SHIMGL_DUMP_DIR_MAX_MB {dump_dir_max_B() >> 20})", file=sys.stderr, flush=True)
        return path

    def _write(self, path, file, queue, faulted, copied, seq) -> None:
        writer = Writer(path)
        try:
            writer.write({"type": "header", "version": VERSION, "kind": "coredump",
                          "config": config_json(self.kernel.config),
                          "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "pid": os.getpid()})
            windows = []
            for c in faulted:
                fault = c.feedback.fault
                writer.write({"type": "fault", "seq": seq, "file": file.name, "queue": queue.queue_id,
                              "command_index": c.index, "command_name": c.name, "kind": c.kind,
                              "address": fault.address, "unit": fault.unit, "read": fault.is_read,
                              "soft": bool(c.feedback.soft_fault), "status": c.feedback.status})
                base = max(0, fault.address // PAGE_SIZE_B * PAGE_SIZE_B - WINDOW_B)
                windows.append((base, 2 * WINDOW_B + PAGE_SIZE_B))
            submit, syncs, cmdbuf = copied
            snap = take_snapshot(file, queue, submit, syncs, cmdbuf, seq)
            write_submit(writer, snap, full=False, cache=ObjectCache(), extra_ranges=windows)
        finally:
            writer.close()


# -- the estimate ------------------------------------------------------------------

@dataclass
class Estimate:
    """Where the GPU probably stopped: ``block`` (a draw/launch when one exists) and why."""

    block: Block | None
    user: Block | None
    reason: str


def estimate_location(blocks: list[Block], address: int, mapping_of) -> Estimate:
    """``blocks``: a command's decoded stream blocks, in order; ``mapping_of(va)``: the
    mapping holding ``va`` or None (for the same-object test)."""
    if not blocks:
        return Estimate(None, None, "no stream blocks decoded")
    for b in blocks:
        if b.item.words and b.item.va <= address < b.item.va + 4 * len(b.item.words):
            return Estimate(b, b, "the faulting address is inside this block of the stream")
    target_map = mapping_of(address)
    best: tuple[int, int, str, int] | None = None  # (distance, block index, what, va)
    for i, b in enumerate(blocks):
        for va, size_B, what in b.refs:
            if va > address:
                continue
            if size_B is not None and address < va + size_B:
                distance = 0
            else:
                same = target_map is not None and mapping_of(va) is target_map
                near = address - va < (1 << 20)
                if not (same or (target_map is None and near)):
                    continue
                distance = address - va
            if best is None or distance < best[0] or (distance == best[0] and i > best[1]):
                best = (distance, i, what, va)
    if best is not None:
        user = blocks[best[1]]
        work = next((b for b in blocks[best[1]:] if b.is_work), None)
        why = (f"{user.item.name} at 0x{user.item.va:x} uses {best[2]} = 0x{best[3]:x}, at or just below the "
               f"faulting address"
               + (f"; the first draw/launch from there is at 0x{work.item.va:x}" if work is not None and work is not user
                  else ""))
        return Estimate(work or user, user, why)
    work = [b for b in blocks if b.is_work]
    if work:
        return Estimate(work[-1], None, "no block references the faulting address: the last draw/launch decoded")
    return Estimate(blocks[-1], None, "no block references the faulting address and no draw/launch: the last block")
