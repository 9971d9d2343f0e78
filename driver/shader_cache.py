"""The on-disk shader cache (Mesa's disk_cache): compiled shader variants, and
the GL front end's compiled shader objects.

Sole responsibility: remember what the compiler made of (source, stage, variant
key) across processes, so a program started again (a piglit run: thousands of
short processes compiling the same shaders) neither imports nor runs the
compiler for a shader it has compiled before. Two kinds of entries, in one
folder under one size cap:

- variants (``cached_compile``, the hardware driver's: driver/agx/compile.py):
  the back end's output for a linked stage's IR and a variant key, below;
- shader objects (``cached_unit``, the GL front end's ``glCompileShader``:
  driver/gl/glsl.py): the compile status, info log and typed AST of one GLSL
  source for a stage, profile, extension set and limits, so a warm run neither
  preprocesses, parses nor type-checks its GLSL (and never imports the GLSL
  front end's parser and analysis). These entries hold the AST itself (a pickle:
  reading one imports the AST's modules, not the parser).

It sits below both (driver.gl and driver.agx import it; it imports neither).

Layout (one design with the GPU model's native-code cache): the root is
``$SHIMGL_SHADER_CACHE_DIR``, else ``$XDG_CACHE_HOME/shimgl``, else
``~/.cache/shimgl``; compiled variants live in ``<root>/shaders/<h[:2]>/<h>``
where ``h`` is the SHA-256 of the entry's key.

The key covers everything the compiled code depends on: the shader's IR (a
``compiler.variant.StageIR``'s ``digest``: the digest of the link's serialised
form, its profile, the context's GLSL extension set and the GLSL of its shader
objects, from which the compiler of one build id makes the same IR; another
front end's source), the
stage, the variant key (``key_text``: an exact text of every field, the
render-target formats, the profile, ...; a key holding a value without one is
not cached), the compiler's build id (a hash of the contents of every ``.py`` file of
the ``compiler`` package and of ``uapi/isa``, whose table encodes the binary)
plus this module's format version, and the ``SHIMGL_DEBUG`` words that may
change code (every word except the ones known not to: driver, kernel and GPU
options). ``SHIMGL_DEBUG=shaders``, ``shaderdb`` and ``validate`` bypass the
cache (their output or checks come from compiling), as Mesa's shader-db runs
disable its cache.

An entry is ``MAGIC``, the SHA-256 of the payload, and the payload: a pickle of
(the full key text, the compiled shader as plain data). The compiled shader is
stored as ``Record`` trees (attribute access, no methods) and builtins, so
reading an entry never imports the compiler. Whatever cannot be represented
that way is not cached (it is compiled each time, as without a cache).

Safety: an entry is written to a temporary file in its folder and renamed into
place (``os.replace`` is atomic), so concurrent processes read a whole entry or
none and two writers of one entry both succeed. An entry that is truncated,
damaged (checksum), unreadable or for another key (hash collision) is ignored
and rewritten. A hit refreshes the entry's modification time; when the folder
grows past ``SHIMGL_SHADER_CACHE_MAX_MB`` (default 256) the least recently used
entries are removed until it holds 90% of the cap.

``SHIMGL_SHADER_CACHE_DISABLE=1`` (or true/yes) turns the cache off;
``SHIMGL_DEBUG=cache`` prints each hit, miss, store, ignored entry and eviction
on stderr."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import pickle
import sys
import threading
import time
from pathlib import Path

from uapi.caches import cache_disabled, cache_root, write_atomically

__all__ = ["Record", "ShaderCache", "cache", "cache_root", "cached_compile", "cached_unit",
           "compiler_build_id", "entry_key", "key_text", "to_plain"]

#: bump when the entry format or the meaning of cached data changes
FORMAT_VERSION = 1
MAGIC = b"SHIMGL-SHADER-CACHE\x00\x01"
_DIGEST_B = 32
#: SHIMGL_DEBUG words that never change the compiled code (driver, kernel, GPU options)
NEUTRAL_DEBUG_FLAGS = frozenset({"trace", "fw", "sync", "flush", "sysmem", "nohsr", "nocompress",
                                 "scoreboard", "abi", "calls", "cache", "perf"})
#: SHIMGL_DEBUG words whose output or checks come from compiling: no cache
BYPASS_DEBUG_FLAGS = frozenset({"shaders", "shaderdb", "validate"})
#: the sources the compiled code depends on, relative to the package root: the compiler,
#: the ISA table, and the driver modules whose generated stages (the geometry and
#: tessellation kernels, their pass-through vertex programs) the compiler lowers against
#: records those modules lay out: a change there must not meet binaries compiled before it
_BUILD_SOURCES = ("compiler", "uapi/isa", "driver/gl/geometry.py", "driver/gl/tessellation.py")
_DEFAULT_MAX_MB = 256


class Record:
    """A dataclass instance of the compiler's as plain data: the same attribute
    names and values (nested ``Record``/builtins), the values of its properties
    as attributes, its class name kept for ``repr``; methods are not kept. Equal when the class name and the attributes are equal."""

    __slots__ = ("_type", "_attrs")

    def __init__(self, type_name: str, attrs: dict):
        object.__setattr__(self, "_type", type_name)
        object.__setattr__(self, "_attrs", attrs)

    def __getattr__(self, name):
        try:
            return self._attrs[name]
        except KeyError:
            raise AttributeError(f"{self._type} record has no attribute {name!r}") from None

    def __setattr__(self, name, value):
        self._attrs[name] = value

    def __eq__(self, other):
        return isinstance(other, Record) and (self._type, self._attrs) == (other._type, other._attrs)

    def __hash__(self):
        return hash((self._type, tuple(sorted(self._attrs))))

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self._attrs.items())
        return f"{self._type}({inner})"

    def __getstate__(self):
        return (self._type, self._attrs)

    def __setstate__(self, state):
        object.__setattr__(self, "_type", state[0])
        object.__setattr__(self, "_attrs", state[1])


class Uncacheable(TypeError):
    """A value to_plain cannot represent."""


_SCALARS = (type(None), bool, int, float, str, bytes)


def _properties(cls) -> list[str]:
    return sorted({name for klass in cls.__mro__ for name, v in vars(klass).items()
                   if isinstance(v, property)})


def to_plain(obj, _memo=None):
    """``obj`` with every dataclass instance replaced by a ``Record`` (recursively
    through lists, tuples, dicts, sets). Raises ``Uncacheable`` for anything else
    (functions, arbitrary classes, enums): such a shader is not cached."""
    if _memo is None:
        _memo = {}
    if isinstance(obj, _SCALARS):
        return obj
    if id(obj) in _memo:                # shared sub-objects stay shared
        return _memo[id(obj)]
    if type(obj) in (list, tuple, set, frozenset):
        out = type(obj)(to_plain(v, _memo) for v in obj)
    elif type(obj) is dict:
        out = {to_plain(k, _memo): to_plain(v, _memo) for k, v in obj.items()}
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        attrs = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
        attrs.update(getattr(obj, "__dict__", {}))      # attributes set after construction
        for name in _properties(type(obj)):             # derived values (Varying.words, ...)
            try:
                attrs[name] = getattr(obj, name)
            except Exception:       # noqa: BLE001 - a property that fails is left out
                pass
        out = Record(type(obj).__qualname__, {})
        _memo[id(obj)] = out
        out._attrs.update({k: to_plain(v, _memo) for k, v in attrs.items()})
        return out
    elif isinstance(obj, Record):
        return obj
    else:
        raise Uncacheable(f"cannot cache a {type(obj).__qualname__}")
    _memo[id(obj)] = out
    return out


def _package_root() -> Path:
    """The folder holding the packages (``compiler``, ``uapi``, ``driver``): this
    module is ``driver/shader_cache.py``."""
    return Path(__file__).resolve().parent.parent


_build_id: str | None = None


def compiler_build_id(root: Path | None = None) -> str:
    """SHA-256 over the path and contents of every ``.py`` file the compiled
    code depends on (the compiler package and the ISA table), in sorted order,
    and the cache format version. Computed once per process (~2 ms)."""
    global _build_id
    if root is None and _build_id is not None:
        return _build_id
    base = root or _package_root()
    h = hashlib.sha256(f"shimgl shader cache {FORMAT_VERSION}\0".encode())
    for rel in _BUILD_SOURCES:
        top = base / rel
        if top.is_file():
            h.update(rel.encode() + b"\0")
            h.update(top.read_bytes() + b"\0")
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith(".py"):
                    path = Path(dirpath) / name
                    h.update(str(path.relative_to(base)).encode() + b"\0")
                    h.update(path.read_bytes() + b"\0")
    digest = h.hexdigest()
    if root is None:
        _build_id = digest
    return digest


def _debug_words() -> set[str]:
    from uapi.debug import debug_flags
    return debug_flags()


def key_text(value) -> str:
    """A text that names ``value`` exactly: scalars by ``repr``, containers
    element by element, enums by class and value, dataclasses by class and every
    field (including ``repr=False`` ones). Raises ``Uncacheable`` for anything
    else (an object whose text might not tell two values apart)."""
    import enum
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return repr(value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}={value.value!r}"
    if type(value) in (tuple, list):
        return "(" + ",".join(key_text(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if type(value) in (set, frozenset):
        return "{" + ",".join(sorted(key_text(v) for v in value)) + "}"
    if type(value) is dict:
        return "{" + ",".join(sorted(f"{key_text(k)}:{key_text(v)}" for k, v in value.items())) + "}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ",".join(f"{f.name}={key_text(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__module__}.{type(value).__qualname__}({fields})"
    raise Uncacheable(f"no exact text for a {type(value).__qualname__} in a variant key")


def entry_key(source: str, stage: str, variant_key, build_id: str, debug_words) -> str:
    """The full text an entry is stored under (its name is this text's SHA-256).
    Raises ``Uncacheable`` when the variant key holds a value with no exact text."""
    variant = key_text(variant_key)
    code_words = ",".join(sorted(set(debug_words) - NEUTRAL_DEBUG_FLAGS))
    return "\0".join((f"v{FORMAT_VERSION}", build_id, stage, variant, code_words, source))


#: The folder's size as the last scan (any process's) found it, in a file of the
#: folder (not an entry: entries live in subfolders), and how long it stands: a
#: process's first store adds to that size instead of looking at every entry (27,000
#: of them: 0.2 s CPU and seconds of wall on a busy machine, paid by each piglit test
#: that compiles something new). The cap is then kept within what processes stored
#: since that scan; the next scan after SIZE_FRESH_S seconds evicts down to 90%.
SIZE_FILE = "size"
SIZE_FRESH_S = 600


class ShaderCache:
    """One cache folder (``<root>/shaders``). Thread-safe; safe across processes."""

    def __init__(self, directory: Path, max_B: int, debug: bool = False):
        self.directory = Path(directory)
        self.max_B = max_B
        self.debug = debug
        self.stats = {"hits": 0, "misses": 0, "stores": 0, "ignored": 0, "evicted": 0}
        self._lock = threading.Lock()
        self._size_B: int | None = None     # folder size as last scanned plus our stores

    def _say(self, what: str) -> None:
        if self.debug:
            print(f"shimgl: shader cache {what}", file=sys.stderr)

    def path(self, key_text: str) -> Path:
        h = hashlib.sha256(key_text.encode()).hexdigest()
        return self.directory / h[:2] / h

    def get(self, key_text: str, label: str = "", shared=None):
        """The cached value of ``key_text``, or None. ``shared``: see ``put``."""
        path = self.path(key_text)
        try:
            data = path.read_bytes()
        except OSError:
            self.stats["misses"] += 1
            self._say(f"miss {label} {path.name[:16]}")
            return None
        value = self._decode(data, key_text, shared)
        if value is None:
            self.stats["ignored"] += 1
            self.stats["misses"] += 1
            self._say(f"ignored a damaged entry {label} {path.name[:16]}")
            return None
        try:
            os.utime(path)          # least recently used eviction
        except OSError:
            pass
        self.stats["hits"] += 1
        self._say(f"hit {label} {path.name[:16]}")
        return value

    @staticmethod
    def _decode(data: bytes, key_text: str, shared=None):
        head = len(MAGIC) + _DIGEST_B
        if len(data) < head or not data.startswith(MAGIC):
            return None
        payload = data[head:]
        if hashlib.sha256(payload).digest() != data[len(MAGIC):head]:
            return None
        try:
            if shared is None:
                stored_key, value = pickle.loads(payload)
            else:
                unpickler = pickle.Unpickler(io.BytesIO(payload))
                unpickler.persistent_load = lambda pid: shared[1](pid)
                stored_key, value = unpickler.load()
        except Exception:       # noqa: BLE001 - any unreadable entry is a miss
            return None
        return value if stored_key == key_text else None

    def put(self, key_text: str, value, label: str = "", shared=None) -> bool:
        """Store ``value`` (plain data: see ``to_plain``) atomically; False when
        it could not be written (read-only folder, full disk...). ``shared``:
        (name_of, object_named), for values that refer to objects of which a
        process has one (stored by name: ``name_of(obj)`` is a text or None,
        ``object_named(text)`` gives the object back when reading)."""
        if shared is None:
            payload = pickle.dumps((key_text, value), protocol=pickle.HIGHEST_PROTOCOL)
        else:
            out = io.BytesIO()
            pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.persistent_id = shared[0]
            pickler.dump((key_text, value))
            payload = out.getvalue()
        data = MAGIC + hashlib.sha256(payload).digest() + payload
        path = self.path(key_text)
        try:
            write_atomically(path, data)
        except OSError as e:
            self._say(f"could not store {label} {path.name[:16]}: {e}")
            return False
        self.stats["stores"] += 1
        self._say(f"store {label} {path.name[:16]} ({len(data)} B)")
        with self._lock:
            if self._size_B is None:
                self._size_B = self._known_size(len(data))
            else:
                self._size_B += len(data)
            if self._size_B > self.max_B:
                self._evict()
        return True

    def _entries(self):
        out = []
        try:
            subdirs = list(os.scandir(self.directory))
        except OSError:
            return out
        for sub in subdirs:
            if not sub.is_dir(follow_symlinks=False):
                continue
            try:
                for e in os.scandir(sub.path):
                    if e.is_file(follow_symlinks=False) and not e.name.startswith(".tmp-"):
                        st = e.stat()
                        out.append((st.st_mtime_ns, st.st_size, e.path))
            except OSError:
                continue
        return out

    def _scan_size(self) -> int:
        return sum(size for _, size, _ in self._entries())

    def _known_size(self, stored_B: int) -> int:
        """The folder's size with the entry of ``stored_B`` bytes just stored: the
        recorded size (SIZE_FILE) plus that entry while the record is younger than
        SIZE_FRESH_S, else a scan (which sees the entry), recorded."""
        record = self.directory / SIZE_FILE
        try:
            if time.time() - record.stat().st_mtime < SIZE_FRESH_S:
                return int(record.read_text()) + stored_B
        except (OSError, ValueError):
            pass
        size = self._scan_size()
        self._record_size(size)
        return size

    def _record_size(self, size: int) -> None:
        try:
            write_atomically(self.directory / SIZE_FILE, str(size))
        except OSError:
            pass

    def _evict(self) -> None:
        """Remove least recently used entries until the folder holds 90% of the cap."""
        entries = sorted(self._entries())
        total = sum(size for _, size, _ in entries)
        target = int(self.max_B * 0.9)
        removed = 0
        for _, size, p in entries:
            if total <= target:
                break
            try:
                os.unlink(p)
                total -= size
                removed += 1
            except OSError:
                pass
        self._size_B = total
        self._record_size(total)
        self.stats["evicted"] += removed
        if removed:
            self._say(f"evicted {removed} entries (now {total} B, cap {self.max_B} B)")


def _max_B() -> int:
    try:
        return int(float(os.environ.get("SHIMGL_SHADER_CACHE_MAX_MB", _DEFAULT_MAX_MB)) * (1 << 20))
    except ValueError:
        return _DEFAULT_MAX_MB << 20


_caches: dict[tuple, ShaderCache] = {}
_caches_lock = threading.Lock()


def cache() -> ShaderCache | None:
    """The process's shader cache for the current environment, or None when
    disabled. The environment is read at each call (tests and tools change it);
    one ``ShaderCache`` per (folder, cap, debug)."""
    if cache_disabled():
        return None
    where = (str(cache_root() / "shaders"), _max_B(), "cache" in _debug_words())
    with _caches_lock:
        c = _caches.get(where)
        if c is None:
            c = _caches[where] = ShaderCache(Path(where[0]), where[1], where[2])
        return c


def cached_compile(source: str, stage: str, variant_key, compile_fn):
    """``compile_fn()`` (the compiler's result for source/stage/variant_key),
    through the cache: the stored plain copy on a hit, else compile, store and
    return the plain copy (so a hit and a miss hand back the same kind of object)."""
    words = _debug_words()
    store = cache()
    if store is None or words & BYPASS_DEBUG_FLAGS:
        return compile_fn()
    try:
        text = entry_key(source, stage, variant_key, compiler_build_id(), words)
    except Uncacheable as e:
        store._say(f"not cached ({e})")
        return compile_fn()
    value = store.get(text, stage)
    if value is not None:
        return value
    compiled = compile_fn()
    try:
        plain = to_plain(compiled)
    except Uncacheable as e:
        store._say(f"not cached ({e})")
        return compiled
    store.put(text, plain, stage)
    return plain


#: bump when what ``cached_unit`` stores changes
UNIT_FORMAT = 1


def cached_unit(source: str, stage: str, options: dict, compile_fn, shared=None):
    """``compile_fn()`` (the GL front end's compile of one shader object: a tuple
    of plain values and the typed AST, or of the error's info log) through the
    cache. The key is the source, the stage, ``options`` (everything else the
    compile reads: profile, extensions, limits; a value without an exact text
    means no caching), the compiler's build id and the code-changing
    ``SHIMGL_DEBUG`` words. A hit is a fresh copy (the caller may change it); a
    value that cannot be pickled (an AST too deep for pickle) is not stored.
    ``shared``: the objects stored by name (``ShaderCache.put``): the GLSL
    front end's built-in types, which compare by identity."""
    words = _debug_words()
    store = cache()
    if store is None or words & BYPASS_DEBUG_FLAGS:
        return compile_fn()
    label = f"{stage} shader object"
    try:
        text = entry_key(source, f"glsl-unit-{UNIT_FORMAT}:{stage}", options, compiler_build_id(), words)
    except Uncacheable as e:
        store._say(f"not cached ({e})")
        return compile_fn()
    value = store.get(text, label, shared)
    if value is not None:
        return value
    value = compile_fn()
    try:
        store.put(text, value, label, shared)
    except Exception as e:  # noqa: BLE001 - an unpicklable or too deep AST: compiled each time
        store._say(f"not cached ({type(e).__name__}: {e})")
    return value
