"""KHR_debug's counted strings and GL calls while the host interpreter exits, as
wgpu's GL backend makes them (py/khr_debug_strings.py): labels and messages with
a length need no terminator (a read past them crashed the process: wgpu's
request_device segfaulted in glObjectLabel), and destructors that delete GL
objects during the interpreter's shutdown print nothing."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_counted_strings_and_calls_at_exit(shimgl_env):
    res = run([sys.executable, PY_DIR / "khr_debug_strings.py"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert "internal error" not in res.stderr, res.stderr


def test_generated_marshal_reads_the_count():
    """The registry gives these strings as COMPSIZE(string,length): the generated
    marshalling passes the length to the string reader (negative: up to the NUL)."""
    from tests.driver.abi.test_marshal import BUILD_PY
    import importlib.util
    spec = importlib.util.spec_from_file_location("_abi_build_for_label_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    P, C = build.registry.Param, build.registry.Command
    label = C("glObjectLabel", "void", (
        P("GLenum", "identifier", ""), P("GLuint", "name", ""), P("GLsizei", "length", ""),
        P("const GLchar *", "label", "COMPSIZE(label,length)")), "gl")
    assert "M.str_in(label, length)" in build.marshal_function(label)
    insert = C("glDebugMessageInsert", "void", (
        P("GLenum", "source", ""), P("GLenum", "type", ""), P("GLuint", "id", ""), P("GLenum", "severity", ""),
        P("GLsizei", "length", ""), P("const GLchar *", "buf", "COMPSIZE(buf,length)")), "gl")
    assert "M.str_in(buf, length)" in build.marshal_function(insert)
