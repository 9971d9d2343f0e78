"""The on-disk shader cache (driver.shader_cache): hits and misses, what
the key covers, damaged entries, eviction, concurrent processes, and that a
variant from the cache renders what a freshly compiled one renders."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from driver import shader_cache as sc

ROOT = Path(__file__).resolve().parents[3]


def _entry_files(folder) -> list:
    """The cache's entries: the files of its subfolders (the size record lies beside them)."""
    return [p for p in folder.glob("*/*") if p.is_file()]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SHIMGL_SHADER_CACHE_DISABLE", raising=False)
    monkeypatch.delenv("SHIMGL_SHADER_CACHE_MAX_MB", raising=False)
    monkeypatch.delenv("SHIMGL_DEBUG", raising=False)
    return tmp_path / "shaders"


@dataclasses.dataclass(frozen=True)
class _Slot:
    kind: str
    binding: int

    @property
    def double(self) -> int:
        return 2 * self.binding


@dataclasses.dataclass
class _Compiled:
    binary: bytes
    uniforms: list
    info: dict


def _compiled(n=1):
    slot = _Slot("vbo_address", n)
    return _Compiled(b"\x01\x02" * n, [slot, slot], {"a": (1, 2.5, None)})


class _Counter:
    def __init__(self, value_fn=_compiled):
        self.calls = 0
        self.value_fn = value_fn

    def __call__(self):
        self.calls += 1
        return self.value_fn()


def test_miss_then_hit_returns_the_same_plain_data(cache_dir):
    compile_fn = _Counter()
    first = sc.cached_compile("void main(){}", "vertex", ("key", 1), compile_fn)
    second = sc.cached_compile("void main(){}", "vertex", ("key", 1), compile_fn)
    assert compile_fn.calls == 1
    assert first == second
    assert second.binary == b"\x01\x02" and second.info == {"a": (1, 2.5, None)}
    assert second.uniforms[0].kind == "vbo_address" and second.uniforms[0].double == 2
    assert second.uniforms[0] is second.uniforms[1]          # sharing survives
    entries = _entry_files(cache_dir)
    assert len(entries) == 1 and entries[0].parent.name == entries[0].name[:2]


@pytest.mark.parametrize("change", ["source", "stage", "key", "build", "debug"])
def test_every_part_of_the_key_matters(cache_dir, monkeypatch, change):
    compile_fn = _Counter()
    args = dict(source="void main(){}", stage="fragment", variant_key=("rt", "RGBA8"))
    sc.cached_compile(args["source"], args["stage"], args["variant_key"], compile_fn)
    if change == "source":
        args["source"] += " "
    elif change == "stage":
        args["stage"] = "vertex"
    elif change == "key":
        args["variant_key"] = ("rt", "RGBA16F")
    elif change == "build":
        monkeypatch.setattr(sc, "_build_id", "another compiler")
    else:
        monkeypatch.setenv("SHIMGL_DEBUG", "someflag")      # a word not known to be neutral
    sc.cached_compile(args["source"], args["stage"], args["variant_key"], compile_fn)
    assert compile_fn.calls == 2


def test_neutral_debug_words_share_entries_and_printing_words_bypass(cache_dir, monkeypatch):
    compile_fn = _Counter()
    sc.cached_compile("s", "vertex", None, compile_fn)
    monkeypatch.setenv("SHIMGL_DEBUG", "sync,trace")
    sc.cached_compile("s", "vertex", None, compile_fn)
    assert compile_fn.calls == 1
    monkeypatch.setenv("SHIMGL_DEBUG", "shaderdb")
    assert isinstance(sc.cached_compile("s", "vertex", None, compile_fn), _Compiled)   # compiled, not read
    assert compile_fn.calls == 2


def test_build_id_follows_the_compiler_sources(tmp_path):
    for rel in sc._BUILD_SOURCES:
        if rel.endswith(".py"):
            (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / rel).write_text("y = 1\n")
            continue
        (tmp_path / rel).mkdir(parents=True, exist_ok=True)
        (tmp_path / rel / "a.py").write_text("x = 1\n")
    first = sc.compiler_build_id(tmp_path)
    # the geometry kernels' driver module counts: a stale binary read a changed record layout
    (tmp_path / "driver/gl/geometry.py").write_text("y = 2\n")
    assert sc.compiler_build_id(tmp_path) != first
    (tmp_path / "driver/gl/geometry.py").write_text("y = 1\n")
    assert sc.compiler_build_id(tmp_path) == first
    (tmp_path / "compiler" / "a.py").write_text("x = 2\n")
    assert sc.compiler_build_id(tmp_path) != first
    (tmp_path / "compiler" / "a.py").write_text("x = 1\n")
    assert sc.compiler_build_id(tmp_path) == first
    (tmp_path / "compiler" / "notes.txt").write_text("not code")
    assert sc.compiler_build_id(tmp_path) == first


def test_disable(cache_dir, monkeypatch):
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DISABLE", "1")
    compile_fn = _Counter()
    for _ in range(2):
        sc.cached_compile("s", "vertex", None, compile_fn)
    assert compile_fn.calls == 2 and not cache_dir.exists()


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "other_key"])
def test_damaged_entries_are_ignored_and_rewritten(cache_dir, damage, capsys, monkeypatch):
    compile_fn = _Counter()
    sc.cached_compile("s", "vertex", None, compile_fn)
    (entry,) = _entry_files(cache_dir)
    data = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        entry.write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))
    elif damage == "garbage":
        entry.write_bytes(os.urandom(len(data)))
    elif damage == "empty":
        entry.write_bytes(b"")
    else:       # a valid entry for another key under this name (a hash collision)
        other = sc.ShaderCache(cache_dir, 1 << 30)
        other.put("another key", "another value")
        entry.write_bytes(other.path("another key").read_bytes())
    monkeypatch.setenv("SHIMGL_DEBUG", "cache")
    value = sc.cached_compile("s", "vertex", None, compile_fn)
    assert compile_fn.calls == 2 and value.binary == b"\x01\x02"
    assert "ignored a damaged entry" in capsys.readouterr().err
    sc.cached_compile("s", "vertex", None, compile_fn)       # rewritten: a hit again
    assert compile_fn.calls == 2


def test_debug_cache_reports_miss_store_and_hit(cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("SHIMGL_DEBUG", "cache")
    for _ in range(2):
        sc.cached_compile("s", "fragment", None, _Counter())
    err = capsys.readouterr().err
    assert "shader cache miss fragment" in err
    assert "shader cache store fragment" in err
    assert "shader cache hit fragment" in err


def test_uncacheable_results_are_compiled_each_time(cache_dir):
    compile_fn = _Counter(lambda: _Compiled(b"", [object()], {}))
    for _ in range(2):
        sc.cached_compile("s", "vertex", None, compile_fn)
    assert compile_fn.calls == 2 and not any(p.is_file() for p in cache_dir.rglob("*"))


def test_eviction_keeps_the_folder_under_its_cap_least_recently_used_first(tmp_path):
    cache = sc.ShaderCache(tmp_path, max_B=10_000)
    blob = b"x" * 1500
    for i in range(5):
        assert cache.put(f"key {i}", blob)
        os.utime(cache.path(f"key {i}"), ns=(i * 10**9, i * 10**9))   # key 0 is the oldest
    os.utime(cache.path("key 0"), ns=(10 * 10**9, 10 * 10**9))        # ...but was just used
    for i in range(5, 9):
        cache.put(f"key {i}", blob)
    sizes = [p.stat().st_size for p in _entry_files(tmp_path)]
    assert sum(sizes) <= 10_000
    assert cache.stats["evicted"] > 0
    assert cache.get("key 8") == blob                  # the newest stays
    assert cache.get("key 1") is None                  # the least recently used went first
    assert cache.get("key 0") == blob                  # recently used: kept


def test_an_unwritable_cache_still_compiles(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(blocker))
    compile_fn = _Counter()
    assert sc.cached_compile("s", "vertex", None, compile_fn).binary == b"\x01\x02"
    assert compile_fn.calls == 1


_WRITER = r"""
import sys
sys.path.insert(0, sys.argv[1])
from driver import shader_cache as sc
sc._build_id = "one compiler"      # the same for every writer, whatever the sources do meanwhile
calls = 0
def compile_fn():
    global calls
    calls += 1
    return {"binary": b"%d" % int(sys.argv[2]) * 1000}
for i in range(40):
    v = sc.cached_compile("shared source %d" % (i % 8), "vertex", None, compile_fn)
    assert v["binary"] in [b"%d" % k * 1000 for k in range(4)], v
print(calls)
"""


def test_concurrent_processes_never_see_a_partial_entry(cache_dir):
    """Four processes store and read the same eight entries at once: every read
    is a whole entry of one of the writers (atomic replace), no temporary is left."""
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(ROOT), str(k)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=dict(os.environ, SHIMGL_SHADER_CACHE_DIR=str(cache_dir.parent)))
             for k in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert sum(int(o) for o, _ in outs) >= 8          # each entry compiled at least once
    files = _entry_files(cache_dir)
    assert len(files) == 8 and not any(p.name.startswith(".tmp-") for p in files)


FS = """#version 300 es
precision highp float; uniform vec4 c; out vec4 color; void main(){ color = c.zyxw; }"""
VS = """#version 300 es
in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }"""


def _draw():
    from driver import Context
    ctx = Context(api="gles3", width=8, height=8)
    p = ctx.glCreateProgram()
    for kind, src in ((ctx.GL_VERTEX_SHADER, VS), (ctx.GL_FRAGMENT_SHADER, FS)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    ctx.glUseProgram(p)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), 0.25, 0.5, 1.0, 1.0)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(ctx.GL_ARRAY_BUFFER, 24, np.array([-1, -1, 3, -1, -1, 3], np.float32),
                     ctx.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, ctx.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    return ctx.read_pixels()


def test_a_cached_variant_renders_like_a_compiled_one(cache_dir):
    cache = sc.cache()
    first = _draw()
    misses, stores = cache.stats["misses"], cache.stats["stores"]
    assert stores >= 2                      # the vertex and the fragment variant
    second = _draw()
    assert cache.stats["hits"] >= 2 and cache.stats["misses"] == misses
    assert (first == second).all()
    assert tuple(second[4, 4]) == (255, 128, 64, 255)


@dataclasses.dataclass(frozen=True)
class _Rt:
    format: str
    hidden: int = dataclasses.field(default=0, repr=False)


def test_key_text_tells_apart_what_repr_would_not():
    assert sc.key_text(_Rt("RGBA8", 1)) != sc.key_text(_Rt("RGBA8", 2))     # repr=False field counts
    assert sc.key_text((1,)) != sc.key_text(1) and sc.key_text(1) != sc.key_text(1.0)
    assert sc.key_text({"b": 1, "a": 2}) == sc.key_text({"a": 2, "b": 1})
    with pytest.raises(sc.Uncacheable):
        sc.key_text(object())


def test_a_key_without_exact_text_is_not_cached(cache_dir):
    compile_fn = _Counter()
    for _ in range(2):
        sc.cached_compile("s", "vertex", (object(),), compile_fn)
    assert compile_fn.calls == 2 and not cache_dir.exists()


def test_build_id_reads_the_installed_compiler():
    """The build id of the running tree hashes its real compiler sources: the root it
    walks holds the compiler package (a root one level off hashed nothing, and every
    compiler version shared one id, so a changed compiler read stale binaries)."""
    import hashlib
    import compiler
    root = sc._package_root()
    assert (root / "compiler").resolve() == Path(compiler.__file__).resolve().parent
    empty = hashlib.sha256(f"shimgl shader cache {sc.FORMAT_VERSION}\0".encode()).hexdigest()
    assert sc.compiler_build_id(root) != empty


def _counted_scans(cache, monkeypatch) -> list:
    calls = []
    real = cache._entries
    monkeypatch.setattr(cache, "_entries", lambda: calls.append(1) or real())
    return calls


def _folder_B(folder) -> int:
    return sum(p.stat().st_size for p in _entry_files(folder))


def test_a_fresh_recorded_size_spares_the_scan(tmp_path, monkeypatch):
    cache = sc.ShaderCache(tmp_path, max_B=1 << 20)
    (tmp_path / sc.SIZE_FILE).write_text("1234")
    scans = _counted_scans(cache, monkeypatch)
    assert cache.put("key", b"x" * 100)
    assert scans == []
    assert cache._size_B == 1234 + cache.path("key").stat().st_size


def test_a_stale_recorded_size_is_scanned_and_recorded_again(tmp_path, monkeypatch):
    cache = sc.ShaderCache(tmp_path, max_B=1 << 20)
    assert cache.put("old", b"y" * 300)          # an entry another process stored
    record = tmp_path / sc.SIZE_FILE
    record.write_text("999999")
    old = record.stat().st_mtime - 2 * sc.SIZE_FRESH_S
    os.utime(record, (old, old))
    other = sc.ShaderCache(tmp_path, max_B=1 << 20)      # a new process
    scans = _counted_scans(other, monkeypatch)
    assert other.put("new", b"z" * 100)
    assert scans == [1]
    assert other._size_B == _folder_B(tmp_path)          # both entries, each counted once
    assert int(record.read_text()) == _folder_B(tmp_path)


def test_the_cap_is_checked_against_a_recorded_size(tmp_path):
    cache = sc.ShaderCache(tmp_path, max_B=10_000)
    (tmp_path / sc.SIZE_FILE).write_text("9990")       # the record says the folder is full
    assert cache.put("key", b"x" * 100)
    # over the cap by the record: an eviction looked at the folder and corrected the record
    assert cache._size_B == _folder_B(tmp_path) < 10_000
    assert int((tmp_path / sc.SIZE_FILE).read_text()) == _folder_B(tmp_path)
    assert cache.get("key") == b"x" * 100
