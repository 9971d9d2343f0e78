"""glCompileShader through the on-disk shader cache (driver.shader_cache.cached_unit):
a source compiled before with the same options is read back - status, info log
and AST - without running the GLSL front end, and a program of such shader
objects links, lowers and renders as one compiled from source. Each test has a
cache folder of its own (tmp_path)."""

import numpy as np
import pytest

import compiler.glsl
from driver import shader_cache
from driver.gl import enums as E
from driver.gl.glsl import compile_glsl
from tests.driver.agx import glhelp

VS = ("#version 330 core\nlayout(location = 0) in vec2 p;\nout vec2 v;\n"
      "void main() { v = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }\n")
# a uniform with an initializer (read from the AST at link) and a built-in call
FS = ("#version 330 core\nin vec2 v;\nuniform vec4 tint = vec4(0.25, 0.5, 1.0, 1.0);\nout vec4 o;\n"
      "void main() { o = vec4(tint.rgb * clamp(2.0, 0.0, 1.0), 1.0); }\n")
BAD_FS = "#version 330 core\nout vec4 o;\nvoid main() { o = vec3(1.0); }\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SHIMGL_SHADER_CACHE_DISABLE", raising=False)
    monkeypatch.delenv("SHIMGL_DEBUG", raising=False)
    return tmp_path


def _entries(folder):
    """The entries: the files of the subfolders (the folder's size record lies beside them)."""
    return sorted(p for p in (folder / "shaders").glob("*/*") if p.is_file())


def _front_end_refuses(monkeypatch):
    """From here on, running the GLSL front end fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the GLSL front end ran for a cached shader object")
    monkeypatch.setattr(compiler.glsl, "parse", refuse)


def _draw(api="gl33"):
    ctx = glhelp.context(4, 4, api=api)
    glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    tri = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)      # covers the target
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return tuple(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)))


def test_a_cached_shader_object_links_and_renders_without_the_front_end(cache_dir, monkeypatch):
    first = glhelp.context(4, 4, api="gl33")        # compiles (and stores) the two objects only
    for kind, source in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        glhelp.compile_shader(first, kind, source)
    assert len(_entries(cache_dir)) == 2
    _front_end_refuses(monkeypatch)
    # (the variants are not cached yet: lowered and compiled from the cached ASTs)
    # tint (0.25, 0.5, 1.0) * clamp(2, 0, 1) = 1 -> bytes round(x * 255)
    assert _draw() == (64, 128, 255, 255)


def test_a_hit_gives_what_the_compile_gave(cache_dir, monkeypatch):
    first = compile_glsl(FS, "fragment", compat_context=False)
    again = compile_glsl(FS, "fragment", compat_context=False)
    assert (again.ok, again.info_log, again.version, again.profile) == \
        (first.ok, first.info_log, first.version, first.profile) == (True, first.info_log, 330, "core")
    assert again.unit is not first.unit            # a fresh copy: the caller may change it
    assert [d.name for d in again.unit.functions] == [d.name for d in first.unit.functions]
    assert len(_entries(cache_dir)) == 1


def test_a_compile_error_is_cached_with_its_log(cache_dir, monkeypatch):
    first = compile_glsl(BAD_FS, "fragment", compat_context=False)
    assert not first.ok and "0:3(" in first.info_log and "error" in first.info_log
    _front_end_refuses(monkeypatch)
    again = compile_glsl(BAD_FS, "fragment", compat_context=False)
    assert (again.ok, again.info_log, again.unit) == (False, first.info_log, None)


def test_options_are_part_of_the_key(cache_dir):
    """Another profile, extension set or limit is another entry (and may compile
    differently: a bare #version 150 is a compatibility shader in a compatibility context)."""
    src = "#version 150\nvoid main() { gl_FragColor = vec4(1.0); }\n"
    assert compile_glsl(src, "fragment", compat_context=True).profile == "compatibility"
    assert compile_glsl(src, "fragment", compat_context=False).profile == "core"
    compile_glsl(src, "fragment", compat_context=True, extensions=["GL_ARB_gpu_shader5"])
    compile_glsl(src, "fragment", compat_context=True, limits={"gl_MaxDrawBuffers": 4})
    assert len(_entries(cache_dir)) == 4


def test_a_damaged_entry_is_compiled_again(cache_dir):
    first = compile_glsl(FS, "fragment", compat_context=False)
    (entry,) = _entries(cache_dir)
    data = bytearray(entry.read_bytes())
    data[-5] ^= 0xFF
    entry.write_bytes(bytes(data))
    again = compile_glsl(FS, "fragment", compat_context=False)
    assert again.ok and again.info_log == first.info_log
    assert entry.read_bytes() != bytes(data)       # rewritten


def test_disabled_cache_stores_nothing(cache_dir, monkeypatch):
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DISABLE", "1")
    assert compile_glsl(FS, "fragment", compat_context=False).ok
    assert _entries(cache_dir) == []


def test_an_unpicklable_result_is_returned_and_not_stored(cache_dir):
    calls = []

    def compile_fn():
        calls.append(1)
        return (True, "", lambda: None, 330, "core")     # a lambda does not pickle
    for _ in range(2):
        ok, _log, unit, *_ = shader_cache.cached_unit("src", "fragment", {}, compile_fn)
        assert ok and callable(unit)
    assert len(calls) == 2 and _entries(cache_dir) == []
