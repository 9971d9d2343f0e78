"""``SHIMGL_CAPTURE=FILE``: capture submissions as the kernel sees them.

Sole responsibility: decide, at each SUBMIT, whether to capture it (the
environment is read every time, like FD_RD_DUMP's options), and write it.
``SHIMGL_CAPTURE_OPTS`` is a comma-separated list:

- ``full``: save every mapped object whole (deduplicated per file: an object is
  written again only when its content changed). Replay needs this to be exact.
  Without it, only the memory the commands reference is saved (streams, state,
  programs, descriptors, index/uniform buffers, depth/stencil, attachments).
- ``each``: one file per submit: ``FILE`` with ``.NNNN`` (the submit's sequence
  number) before its extension. Default: all submits in one file.
- ``trigger=PATH``: capture nothing until a number is written to PATH: N > 0 arms
  the next N submits, -1 captures until disabled, 0 (or anything else) disables.
  The kernel empties PATH once it has read a number.

Before saving, the capture waits (up to ``WAIT_S``) for the submit's in-fences
and for the queue's previous job, so the memory saved is what the GPU will read;
a record taken after a timeout says ``"stale": true``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass

from .fileformat import VERSION, Writer
from .snapshot import ObjectCache, config_json, take_snapshot, write_submit

__all__ = ["CaptureOptions", "CaptureState", "each_path", "WAIT_S"]

WAIT_S = 10.0


@dataclass(frozen=True)
class CaptureOptions:
    full: bool = False
    each: bool = False
    trigger: str | None = None

    @classmethod
    def parse(cls, text: str) -> tuple["CaptureOptions", list[str]]:
        """Options from ``SHIMGL_CAPTURE_OPTS``; unknown words are returned as problems."""
        full = each = False
        trigger = None
        problems = []
        for word in (w.strip() for w in text.split(",")):
            if not word:
                continue
            if word == "full":
                full = True
            elif word == "each":
                each = True
            elif word.startswith("trigger="):
                trigger = word[len("trigger="):] or None
            else:
                problems.append(f"unknown SHIMGL_CAPTURE_OPTS option {word!r} (full, each, trigger=PATH)")
        return cls(full, each, trigger), problems

    def to_json(self) -> dict:
        return {"full": self.full, "each": self.each, "trigger": self.trigger}


def each_path(path: str, seq: int) -> str:
    """``cap.shimglcap`` -> ``cap.0007.shimglcap`` for submit 7."""
    root, ext = os.path.splitext(path)
    return f"{root}.{seq:04d}{ext}"


class CaptureState:
    """One kernel's capture: open writers, object caches and the trigger count."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.enabled = True
        self._lock = threading.Lock()
        self._writer: Writer | None = None
        self._writer_key: tuple | None = None
        self._cache = ObjectCache()
        self._armed = 0  # submits still to capture under a trigger (-1: until disabled)
        self._warned: set[str] = set()

    def _warn(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            print(f"shimgl capture: {message}", file=sys.stderr, flush=True)

    def _poll_trigger(self, path: str) -> None:
        try:
            with open(path, "r+") as f:
                text = f.read().strip()
                if not text:
                    return
                f.seek(0)
                f.truncate()
        except FileNotFoundError:
            return
        except OSError as e:
            self._warn(f"cannot read trigger file {path}: {e}")
            return
        try:
            value = int(text)
        except ValueError:
            value = 0
        self._armed = value if value > 0 or value == -1 else 0

    def wanted(self) -> tuple[str, CaptureOptions] | None:
        """The capture path and options if this submit is to be captured."""
        path = os.environ.get("SHIMGL_CAPTURE", "")
        if not path or not self.enabled:
            return None
        opts, problems = CaptureOptions.parse(os.environ.get("SHIMGL_CAPTURE_OPTS", ""))
        for p in problems:
            self._warn(p)
        if opts.trigger is not None:
            with self._lock:
                self._poll_trigger(opts.trigger)
                if self._armed == 0:
                    return None
                if self._armed > 0:
                    self._armed -= 1
        return path, opts

    def _writer_for(self, path: str, opts: CaptureOptions, seq: int) -> Writer:
        target = each_path(path, seq) if opts.each else path
        key = (target, opts)
        if self._writer_key != key:
            if self._writer is not None:
                self._writer.close()
            self._writer = Writer(target)
            self._writer_key = key
            self._cache = ObjectCache()
            self._writer.write({"type": "header", "version": VERSION, "kind": "capture",
                                "options": opts.to_json(), "config": config_json(self.kernel.config),
                                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                "pid": os.getpid()})
        return self._writer

    def capture(self, path: str, opts: CaptureOptions, file, queue, job, copied, previous, seq: int) -> None:
        """Write one submit (``copied``: what :func:`copy_submit` returned)."""
        deadline = time.monotonic() + WAIT_S
        stale = False
        for fence in [*job.in_fences, *([previous] if previous is not None else [])]:
            if not fence.wait(max(0.0, deadline - time.monotonic())):
                stale = True
        submit, syncs, cmdbuf = copied
        snap = take_snapshot(file, queue, submit, syncs, cmdbuf, seq)
        with self._lock:
            writer = self._writer_for(path, opts, seq)
            write_submit(writer, snap, full=opts.full, cache=self._cache, extra_meta={"stale": stale} if stale else {})
            if opts.each:
                writer.close()
                self._writer, self._writer_key = None, None

    def close(self) -> None:
        with self._lock:
            if self._writer is not None:
                self._writer.close()
                self._writer, self._writer_key = None, None
