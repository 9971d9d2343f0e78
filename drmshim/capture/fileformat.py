"""The capture / core-dump file: JSON-lines records, each followed by its blobs.

Sole responsibility: write records and read them back forgivingly. Layout
(version 1)::

    file    := MAGIC record*
    MAGIC   := b"SHIMGL-CAPTURE 1\\n"            (the number is the format version)
    record  := JSON object on one line, b"\\n", then its blobs' bytes back to back

A record is a JSON object with a string ``"type"``; ``"blobs"`` (optional) lists
``{"name": str, "size_B": int}`` in the order their bytes follow the line. The
record types (``header``, ``object``, ``submit``, ``fault``) are documented in
README.md. Readers ignore record types and keys they do not know.

:func:`read_file` never raises on content: a bad magic, a line that is not JSON,
a blob running past the end, each becomes a ``problems`` entry and reading stops
at the first damage that loses framing (everything before it is kept).
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field

__all__ = ["MAGIC", "VERSION", "Writer", "Record", "CaptureFile", "read_file", "read_bytes"]

VERSION = 1
MAGIC = b"SHIMGL-CAPTURE %d\n" % VERSION
MAGIC_PREFIX = b"SHIMGL-CAPTURE "
MAX_LINE_B = 64 << 20  # a JSON line longer than this is damage, not a record


@dataclass
class Record:
    """One record: its JSON ``meta`` and its blobs by name."""

    meta: dict
    blobs: dict[str, bytes] = field(default_factory=dict)
    offset_B: int = 0  # where the record starts in the file

    @property
    def type(self) -> str:
        return self.meta.get("type", "")


@dataclass
class CaptureFile:
    """What :func:`read_file` recovered: the records in order, and what was wrong."""

    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    version: int | None = None

    @property
    def header(self) -> dict:
        return next((r.meta for r in self.records if r.type == "header"), {})

    def of_type(self, kind: str) -> list[Record]:
        return [r for r in self.records if r.type == kind]


class Writer:
    """Appends records to one file (thread-safe; every record is flushed)."""

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        parent = os.path.dirname(self.path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        self._file = open(self.path, "wb")  # noqa: SIM115 - closed by close()
        self._lock = threading.Lock()
        self._file.write(MAGIC)
        self._file.flush()

    def write(self, meta: dict, blobs: list[tuple[str, bytes]] = ()) -> None:
        meta = dict(meta)
        if blobs:
            meta["blobs"] = [{"name": name, "size_B": len(data)} for name, data in blobs]
        line = json.dumps(meta, separators=(",", ":"), sort_keys=False).encode() + b"\n"
        with self._lock:
            self._file.write(line)
            for _, data in blobs:
                self._file.write(data)
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_file(path: str | os.PathLike) -> CaptureFile:
    """Read a capture or core dump (OSError only if the file cannot be opened)."""
    with open(path, "rb") as f:
        return read_bytes(f.read())


def _blob_list(meta: dict) -> list[tuple[str, int]] | str:
    blobs = meta.get("blobs", [])
    if not isinstance(blobs, list):
        return "'blobs' is not a list"
    out = []
    for i, b in enumerate(blobs):
        if not (isinstance(b, dict) and isinstance(b.get("name"), str) and isinstance(b.get("size_B"), int)
                and not isinstance(b.get("size_B"), bool) and b["size_B"] >= 0):
            return f"blob {i} is not {{name: str, size_B: int >= 0}}"
        out.append((b["name"], b["size_B"]))
    return out


def read_bytes(data: bytes) -> CaptureFile:
    """Parse a whole file's bytes (never raises)."""
    out = CaptureFile()
    if not data.startswith(MAGIC_PREFIX):
        out.problems.append(f"not a shimgl capture: starts with {data[:16]!r}, expected {MAGIC!r}")
        return out
    end = data.find(b"\n", 0, 64)
    try:
        out.version = int(data[len(MAGIC_PREFIX):end])
    except ValueError:
        out.problems.append(f"bad magic line {data[:max(end, 0) + 1][:64]!r}")
        return out
    if out.version != VERSION:
        out.problems.append(f"format version {out.version}; this reader knows {VERSION} (reading anyway)")
    pos = end + 1
    while pos < len(data):
        nl = data.find(b"\n", pos, pos + MAX_LINE_B)
        if nl < 0:
            out.problems.append(f"offset {pos}: record line without an end ({len(data) - pos} bytes left)")
            break
        try:
            meta = json.loads(data[pos:nl])
        except (ValueError, RecursionError) as e:
            out.problems.append(f"offset {pos}: record is not JSON ({e}); stopping")
            break
        if not isinstance(meta, dict) or not isinstance(meta.get("type"), str):
            out.problems.append(f"offset {pos}: record is not an object with a string 'type'; stopping")
            break
        blobs = _blob_list(meta)
        if isinstance(blobs, str):
            out.problems.append(f"offset {pos}: {meta['type']} record: {blobs}; stopping")
            break
        record = Record(meta, {}, pos)
        pos = nl + 1
        for name, size_B in blobs:
            if pos + size_B > len(data):
                out.problems.append(f"{meta['type']} record at offset {record.offset_B}: blob {name!r} "
                                    f"of {size_B} bytes is truncated ({len(data) - pos} left)")
                record.blobs[name] = data[pos:]
                record.meta["truncated"] = True
                out.records.append(record)
                return out
            record.blobs[name] = data[pos:pos + size_B]
            pos += size_B
        out.records.append(record)
    return out
