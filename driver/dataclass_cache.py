"""A disk cache of the code ``dataclasses`` compiles for each dataclass.

Why: ``@dataclass`` writes the source of ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ... for every class and compiles it with ``exec`` while the class's
module is imported. The driver stack, the GPU model and the compiler define a
few hundred dataclasses; compiling their methods was about half of the CPU a
short GL process spent importing shimgl (measured: 227 classes, 873 functions,
~0.2 s of 0.23 s on the 2-core machine), and it is the same source every time.
Python caches a module's bytecode but not this code.

What: ``install()`` gives the ``dataclasses`` module its own ``exec`` (a module
global shadows the builtin for that module only) that looks the source text up
in a table of code objects, compiling only what it has not seen, exactly as
``exec`` would (``compile(text, "<string>", "exec", dont_inherit=True)``: the
``dataclasses`` module has no ``__future__`` flags to inherit). The behaviour of
every dataclass is unchanged: same source, same code, executed the same way.

The table lives in ``<root>/pycode/dataclasses-<cache tag>-<bytecode magic>.bin``
(the root as the shader cache's: ``$SHIMGL_SHADER_CACHE_DIR``, else
``$XDG_CACHE_HOME/shimgl``; ``SHIMGL_SHADER_CACHE_DISABLE=1`` turns it off too):
one record per code object, appended in one write each (``O_APPEND``), each
record checksummed, so processes may append concurrently and a torn or damaged
record is skipped. The file is read once per process; a record is checked and
decoded only when its class is defined. It is rewritten (atomic
rename) without duplicates when more than half of it is duplicates."""

from __future__ import annotations

import builtins
import hashlib
import importlib.util
import marshal
import os
import struct
import sys
import threading
from pathlib import Path

__all__ = ["install", "installed", "cache_path", "reset", "stats"]

_RECORD = struct.Struct("<I16s16s")      # payload length, key digest, payload digest
_MAX_FILE_B = 32 << 20

_lock = threading.Lock()
_codes: dict[bytes, object] | None = None
_path: Path | None = None
_records_on_disk = 0
_installed = False
#: this process's lookups: hits (code from the table), misses (compiled here)
stats = {"hits": 0, "misses": 0}


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def cache_path() -> Path | None:
    """Where the table is for this interpreter, or None when caches are disabled.
    The root follows ``uapi.caches`` (written out here: this runs while ``driver``
    is first imported, before the ``uapi`` package, whose own dataclasses it caches)."""
    if os.environ.get("SHIMGL_SHADER_CACHE_DISABLE", "").lower() in ("1", "true", "yes"):
        return None
    root = os.environ.get("SHIMGL_SHADER_CACHE_DIR")
    if not root:
        root = str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shimgl")
    tag = sys.implementation.cache_tag or "python"
    return Path(root) / "pycode" / f"dataclasses-{tag}-{importlib.util.MAGIC_NUMBER.hex()}.bin"


def _load(path: Path) -> tuple[dict[bytes, object], int]:
    """key -> (payload, digest) of every whole record; decoded on first use
    (a process uses only the classes it defines)."""
    entries: dict[bytes, object] = {}
    records = 0
    try:
        data = path.read_bytes()
    except OSError:
        return entries, 0
    view = memoryview(data)
    pos = 0
    while pos + _RECORD.size <= len(data):
        size, key, check = _RECORD.unpack_from(data, pos)
        start = pos + _RECORD.size
        pos = start + size
        records += 1
        if pos <= len(data):
            entries[key] = (view[start:pos], check)
    return entries, records


def _decode(entry):
    """The code object of a loaded record, or None when it is damaged."""
    payload, check = entry
    if _digest(payload) != check:
        return None
    try:
        code = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return code if type(code) is type(_decode.__code__) else None


def _record(key: bytes, code) -> bytes:
    payload = marshal.dumps(code)
    return _RECORD.pack(len(payload), key, _digest(payload)) + payload


def _append(key: bytes, code) -> None:
    global _records_on_disk
    if _path is None:
        return
    try:
        _path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, _record(key, code))
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
    except OSError:
        return
    _records_on_disk += 1
    if size > _MAX_FILE_B or _records_on_disk > 2 * max(len(_codes or ()), 64):
        _compact()


def _compact() -> None:
    """Rewrite the table with one record per key (atomic rename)."""
    global _records_on_disk
    if _path is None or _codes is None:
        return
    import tempfile         # not at import: tempfile pulls in shutil, bz2, lzma, random
    try:
        fd, tmp = tempfile.mkstemp(prefix=".dataclasses-", dir=_path.parent)
        with os.fdopen(fd, "wb") as f:
            for key, code in _codes.items():
                if type(code) is tuple:
                    code = _decode(code)
                if code is not None:
                    f.write(_record(key, code))
        os.chmod(tmp, 0o644)
        os.replace(tmp, _path)
        _records_on_disk = len(_codes)
    except OSError:
        pass


def _exec(source, globals=None, locals=None, /, **kw):
    """``exec`` for the dataclasses module: source text through the table."""
    global _codes, _path, _records_on_disk
    if not isinstance(source, str) or kw:
        return builtins.exec(source, globals, locals, **kw)
    key = _digest(source.encode())
    with _lock:
        if _codes is None:
            _path = cache_path()
            _codes, _records_on_disk = _load(_path) if _path is not None else ({}, 0)
        code = _codes.get(key)
        if type(code) is tuple:         # read from disk, not decoded yet
            code = _codes[key] = _decode(code)
        if code is None:
            stats["misses"] += 1
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _codes[key] = code
            _append(key, code)
        else:
            stats["hits"] += 1
    return builtins.exec(code, globals, locals)


def reset() -> None:
    """Forget the table read by this process (tests: read it again from the current place)."""
    global _codes, _path, _records_on_disk
    with _lock:
        _codes, _path, _records_on_disk = None, None, 0


def install() -> bool:
    """Route the dataclasses module's ``exec`` through the table (once per
    process); False when this interpreter's dataclasses does not compile
    through a module-level ``exec`` (then nothing is changed)."""
    global _installed
    if _installed:
        return True
    import dataclasses
    create = getattr(dataclasses, "_create_fn", None)
    if create is None or "exec" not in create.__code__.co_names or "exec" in vars(dataclasses):
        return False
    dataclasses.exec = _exec
    _installed = True
    return True


def installed() -> bool:
    return _installed
