"""Compile C to a shared library, through an on-disk cache: the one builder of
every layer that runs native code (the GPU model's native tier and fixed-function
kernels, the driver's copies through ``layout``'s C kernels), so it sits in the
leaf every layer may import, beside ``caches``.

Cache layout (one design with the shader cache): the root is
``$SHIMGL_SHADER_CACHE_DIR``, else ``$XDG_CACHE_HOME/shimgl``, else
``~/.cache/shimgl``; native code lives in ``<root>/native/<key[:2]>/<key>.so``.
``SHIMGL_SHADER_CACHE_DISABLE=1`` (or true/yes) turns the disk cache off (code is
then compiled into a private temporary folder for the process).

The key is the SHA-256 of the C source (which is derived from the program's
bytes by a generator whose version is in the source), the compiler's identity and
flags, and the host CPU (code is built with ``-march=native``). Two sets of flags:
``CFLAGS`` (``-O2`` and the vectorizer) and ``QUICK_CFLAGS`` (``-O1``, no
vectorizer: the same IEEE semantics, about a tenth of the compile time: for code
run over a few lanes at a time, where a vectorized loop gains nothing).

A compile runs in a session of its own, and a shell moves the library into place
when the compiler succeeds, so a build started by a process that exits first (a
short test program) still lands in the cache for the next one.

Concurrency: an entry is written to a temporary name in its final folder and
renamed into place (``os.replace`` is atomic), so readers see a whole file or
none, and two processes building the same entry both succeed. A corrupt entry
(unloadable, or whose embedded key is not its name) is ignored and rebuilt.
Size cap: ``SHIMGL_SHADER_CACHE_MAX_MB`` (default 256); after a build the least
recently modified entries are removed until the folder fits.

Start-up: a process that only loads cached code neither runs the compiler nor
parses C. The compiler's identity (``cc --version``) is kept in
``<root>/native/compilers/`` per compiler executable (its path, inode, size and
modification time: another compiler installed there is run again), and the
cffi declarations of a library are kept as cffi's out-of-line module (Python
that ``_cffi_backend`` loads without pycparser) in ``<root>/native/ffi/``,
named by a digest of the declarations and cffi's version. Both are written
atomically and, when unreadable, made again.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import threading
from pathlib import Path

from uapi.caches import cache_disabled, cache_root
from uapi.debug import debug_enabled

__all__ = ["CFLAGS", "QUICK_CFLAGS", "BuildError", "cache_root", "native_cache_dir", "cache_key", "load_or_build", "compiler"]

#: IEEE semantics: no fast-math, no contraction into FMA (the ISA's fma is written out in
#: binary64), no errno (lets sqrt vectorise; results are unchanged), no trapping
#: assumptions (lets selects vectorise; the ISA has no FP exceptions).
CFLAGS = ("-O2", "-ftree-vectorize", "-march=native", "-fno-fast-math", "-ffp-contract=off",
          "-fno-math-errno", "-fno-trapping-math", "-fPIC", "-shared", "-w")
#: The same semantics for code that runs a few lanes at a time: gcc's vectorizer is
#: most of an -O2 build of a generated program (13.5 of 14 s at load 15).
QUICK_CFLAGS = ("-O1",) + tuple(f for f in CFLAGS if f not in ("-O2", "-ftree-vectorize"))

_KEY_SYMBOL = "shimgl_native_key"
_lock = threading.Lock()
_ffis: dict = {}
_private_dir: Path | None = None


class BuildError(RuntimeError):
    """The C compiler is missing or rejected the generated code."""


def compiler() -> str:
    return os.environ.get("CC", "cc")


_compiler_id_cache: dict[str, str] = {}


def _compiler_id(cc: str) -> str:
    """The first line of ``cc --version``, remembered on disk per compiler
    executable (see the module's docstring)."""
    if cc not in _compiler_id_cache:
        exe = _which(cc)
        record = None
        if exe is not None and not cache_disabled():
            try:
                st = os.stat(exe)
                ident = f"{exe}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}"
                record = cache_root() / "native" / "compilers" / hashlib.sha256(ident.encode()).hexdigest()[:32]
                _compiler_id_cache[cc] = record.read_text().split("\n", 1)[1].rstrip("\n")
                return _compiler_id_cache[cc]
            except (OSError, IndexError, UnicodeDecodeError):
                pass
        import subprocess
        try:
            out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired) as e:
            raise BuildError(f"C compiler {cc!r} not usable: {e}") from None
        _compiler_id_cache[cc] = out.splitlines()[0] if out else cc
        if record is not None:
            _write_atomic(record, f"{exe}\n{_compiler_id_cache[cc]}\n")
    return _compiler_id_cache[cc]


def _which(cc: str) -> str | None:
    """The executable ``cc`` names (a path, or looked up in PATH), as a shell finds it."""
    if os.sep in cc:
        return cc if os.access(cc, os.X_OK) and not os.path.isdir(cc) else None
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        exe = os.path.join(folder or ".", cc)
        if os.access(exe, os.X_OK) and not os.path.isdir(exe):
            return exe
    return None


def _write_atomic(path: Path, text: str) -> None:
    """``uapi.caches.write_atomically``; a cache that cannot be written is only slower."""
    from uapi.caches import write_atomically
    try:
        write_atomically(path, text)
    except OSError:
        pass


def _cpu_id() -> str:
    ident = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("model name", "flags")):
                    ident += line
                if line.startswith("flags"):
                    break
    except OSError:
        pass
    return ident


def native_cache_dir() -> Path:
    """Where native code is stored: the cache, or a private folder when it is disabled."""
    global _private_dir
    if not cache_disabled():
        return cache_root() / "native"
    if _private_dir is None:
        import tempfile
        _private_dir = Path(tempfile.mkdtemp(prefix="shimgl-native-"))
    return _private_dir


def cache_key(source: str, flags: tuple = CFLAGS) -> str:
    cc = compiler()
    h = hashlib.sha256()
    for part in (source, cc, _compiler_id(cc), " ".join(flags), _cpu_id(), sys.platform):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _say(msg: str) -> None:
    if debug_enabled("cache") or debug_enabled("native"):
        print(f"shimgl native: {msg}", file=sys.stderr)


def load_or_build(source: str, cdef: str, key: str | None = None, build: bool = True,
                  flags: tuple = CFLAGS):
    """(ffi, lib) of ``source`` from the cache, building it with ``flags`` when absent
    (and ``build``); None when absent and not ``build``. Raises BuildError when
    compiling fails. ``key`` is ``cache_key(source, flags)``'s."""
    key = key or cache_key(source, flags)
    folder = native_cache_dir() / key[:2]
    path = folder / f"{key}.so"
    ffi = _ffi_for(cdef)
    lib = _open(ffi, path, key)
    if lib is not None:
        _say(f"cache hit {key[:16]}")
        return ffi, lib
    if not build:
        return None
    _say(f"cache miss {key[:16]}: compiling")
    with _lock:
        lib = _open(ffi, path, key)          # another thread may have built it meanwhile
        if lib is None:
            _compile(source + f'\nconst char *{_KEY_SYMBOL}(void) {{ return "{key}"; }}\n', folder, path, flags)
            lib = _open(ffi, path, key)
            if lib is None:
                raise BuildError(f"built {path} but it does not load")
            _evict(folder.parent)
    return ffi, lib


def _ffi_for(cdef: str):
    """One FFI per declaration text per process: cffi's out-of-line module of
    the declarations from the cache, else parsed here (cffi parses C with
    pycparser: tens of ms) and its module stored for the next process."""
    ffi = _ffis.get(cdef)
    if ffi is None:
        import _cffi_backend        # (cffi's own version: the modules it writes are for it)
        text = cdef + f"\nconst char *{_KEY_SYMBOL}(void);"
        name = "ffi_" + hashlib.sha256(f"{_cffi_backend.__version__}\0{text}".encode()).hexdigest()[:32]
        path = None if cache_disabled() else cache_root() / "native" / "ffi" / f"{name}.py"
        ffi = _load_ffi_module(path, name) if path is not None else None
        if ffi is None:
            import cffi
            ffi = cffi.FFI()
            ffi.cdef(text)
            if path is not None:
                _store_ffi_module(ffi, path, name)
                ffi = _load_ffi_module(path, name) or ffi     # the same kind of FFI as later processes'
        _ffis[cdef] = ffi
    return ffi


def _load_ffi_module(path: Path, name: str):
    """The ``ffi`` of a stored out-of-line module, or None when absent or damaged."""
    try:
        source = path.read_text()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        source = ""
    try:
        namespace: dict = {"__name__": name}
        exec(compile(source, str(path), "exec"), namespace)
        ffi = namespace["ffi"]
        ffi.typeof("const char *(*)(void)")        # a usable FFI of _cffi_backend
        return ffi
    except Exception:       # noqa: BLE001 - unreadable, torn or foreign: parse again
        _say(f"ignoring unreadable declarations module {path.name}")
        return None


def _store_ffi_module(ffi, path: Path, name: str) -> None:
    """Write cffi's out-of-line module of ``ffi`` (its declarations, no C source) to ``path``."""
    import contextlib
    import io
    import tempfile
    try:
        ffi.set_source(name, None)
        with tempfile.TemporaryDirectory(prefix="shimgl-ffi-") as tmp:
            generated = Path(tmp) / f"{name}.py"
            with contextlib.redirect_stdout(io.StringIO()):      # cffi reports "generating ..."
                ffi.emit_python_code(str(generated))
            text = generated.read_text()
    except Exception:       # noqa: BLE001 - only the next process's start is slower
        return
    _write_atomic(path, text)


def _open(ffi, path: Path, key: str):
    if not path.is_file():
        return None
    try:
        lib = ffi.dlopen(str(path))
        if ffi.string(getattr(lib, _KEY_SYMBOL)()).decode() == key:
            return lib
    except (OSError, AttributeError, UnicodeDecodeError):
        pass
    _say(f"ignoring corrupt entry {path.name}")
    return None


#: The build's shell: compile, then (on success) move the library into place and
#: (with SHIMGL_DEBUG=native) the C beside it; the temporary folder goes either way.
_BUILD_SH = ('"$@"; s=$?; if [ $s -eq 0 ]; then mv -f "$SHIMGL_BUILD_TMP/program.so" "$SHIMGL_BUILD_OUT" || s=1; '
             '[ -n "$SHIMGL_BUILD_KEEP_C" ] && mv -f "$SHIMGL_BUILD_TMP/program.c" "$SHIMGL_BUILD_C"; fi; '
             'rm -rf "$SHIMGL_BUILD_TMP"; exit $s')


def _compile(source: str, folder: Path, path: Path, flags: tuple = CFLAGS) -> None:
    import shutil
    import subprocess
    import tempfile
    folder.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=folder))
    c_file, so_file = tmp / "program.c", tmp / "program.so"
    c_file.write_text(source)
    cmd = [compiler(), *flags, "-o", str(so_file), str(c_file)]
    env = dict(os.environ, SHIMGL_BUILD_TMP=str(tmp), SHIMGL_BUILD_OUT=str(path),
               SHIMGL_BUILD_C=str(path.with_suffix(".c")),
               SHIMGL_BUILD_KEEP_C="1" if debug_enabled("native") else "")
    try:        # its own session: a build outlives the process that started it (and its signals)
        proc = subprocess.Popen(["/bin/sh", "-c", _BUILD_SH, "sh", *cmd], env=env, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise BuildError(f"{cmd[0]}: {e}") from None
    try:
        _, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired as e:
        try:
            os.killpg(proc.pid, 9)          # the shell and the compiler (its session's group)
        except OSError:
            pass
        proc.communicate()
        shutil.rmtree(tmp, ignore_errors=True)
        raise BuildError(f"{cmd[0]}: {e}") from None
    if proc.returncode != 0:
        raise BuildError(f"{cmd[0]} failed:\n{err[-2000:]}")


def _evict(root: Path) -> None:
    """Remove the least recently modified entries until the cache fits its cap."""
    cap_B = int(float(os.environ.get("SHIMGL_SHADER_CACHE_MAX_MB", "256")) * (1 << 20))
    try:
        entries = [(p.stat().st_mtime, p.stat().st_size, p) for p in root.glob("*/*.so")]
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    for _, size, p in sorted(entries):
        if total <= cap_B:
            break
        try:
            p.unlink()
            total -= size
        except OSError:
            pass
