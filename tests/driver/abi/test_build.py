"""The built libraries: exports, SONAMEs, the glvnd vendor file, the generated
marshalling (checked without starting a C host)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from driver.abi import paths


def _dynamic_symbols(lib) -> set[str]:
    tool = shutil.which("nm")
    if tool is None:
        pytest.skip("needs binutils (nm)")
    out = subprocess.run([tool, "-D", "--defined-only", str(lib)], capture_output=True,
                         text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def _dynamic_section(lib) -> str:
    tool = shutil.which("readelf")
    if tool is None:
        pytest.skip("needs binutils (readelf)")
    return subprocess.run([tool, "-d", str(lib)], capture_output=True, text=True, check=True).stdout


def test_every_registry_command_is_exported(abi_dir):
    from driver.abi import _commands
    symbols = _dynamic_symbols(abi_dir / paths.LIBRARY)
    # GLX functions are reached through the GLX vendor's getProcAddress only:
    # glvnd's libGLX owns those symbol names
    glx = {n for n in _commands.NAMES if n.startswith("glX")}
    names = set(_commands.NAMES) - glx
    assert len(names) > 3400          # gl.xml (about 3,300) + egl.xml (about 160) + OSMesa
    assert names <= symbols, sorted(names - symbols)[:10]
    assert {"glClear", "glDrawArrays", "eglGetPlatformDisplay", "eglCreateSync",
            "OSMesaMakeCurrent", "OSMesaGetProcAddress", "__egl_Main", "__glx_Main"} <= symbols
    assert "glXChooseFBConfig" in glx and not glx & symbols
    # nothing else leaks out of the library (cffi's own code is static)
    extra = symbols - names - {"__egl_Main", "__glx_Main", "shimgl_get_proc_address"}
    assert all(s.startswith(("PyInit_", "_init", "_fini", "__bss", "_edata", "_end")) for s in extra), extra


def test_names_are_sorted_for_the_c_lookup(abi_dir):
    from driver.abi import _commands
    assert list(_commands.NAMES) == sorted(_commands.NAMES)   # bsearch with strcmp


def test_sonames_and_links(abi_dir):
    """One object: libshimgl.so with SONAME libOSMesa.so.8; the OSMesa and
    glvnd vendor names are symlinks to it."""
    core = _dynamic_section(abi_dir / paths.LIBRARY)
    assert "Library soname: [libOSMesa.so.8]" in core
    assert re.search(r"NEEDED.*\[libpython3\.\d+\.so", core), "a C host must be able to start Python"
    for name in (paths.OSMESA, "libOSMesa.so", paths.EGL_VENDOR):
        assert (abi_dir / name).resolve() == (abi_dir / paths.LIBRARY).resolve(), name


def test_vendor_json_names_the_library(abi_dir):
    data = json.loads(paths.vendor_json().read_text())
    lib = data["ICD"]["library_path"]
    assert data["file_format_version"] == "1.0.0"
    assert lib.startswith("/") and (abi_dir / paths.LIBRARY).samefile(lib)


def test_vendor_files_of_two_installs_do_not_overwrite_each_other(tmp_path, monkeypatch):
    """A library directory whose shipped vendor file names another directory (a
    copied tree, a wheel built elsewhere) gets a vendor file of its own in the
    cache: two such installs used at once each name their own library."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    files = {}
    for name in ("a", "b"):
        d = tmp_path / name
        d.mkdir()
        (d / paths.VENDOR_JSON).write_text('{"ICD": {"library_path": "/elsewhere/lib.so"}}')
        monkeypatch.setattr(paths, "library_dir", lambda d=d: d)
        files[name] = paths.vendor_json()
    assert files["a"] != files["b"]
    for name, f in files.items():
        assert json.loads(f.read_text())["ICD"]["library_path"] == str(tmp_path / name / paths.EGL_VENDOR)


def test_generated_marshalling_matches_the_registry(abi_dir):
    """Generated at build time: regenerating from the registry changes nothing."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("_abi_build", abi_dir.parent / "abi" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    try:
        registry_dir = build.registry.find_registry()
    except FileNotFoundError as e:
        pytest.skip(f"no registry copy outside the build environment: {e}")
    cmds = build.all_commands(registry_dir)
    from driver.abi import _commands
    assert tuple(c.name for c in cmds) == _commands.NAMES


def test_front_end_coverage(abi_dir):
    """Which registry commands reach the GL front end (the rest record
    GL_INVALID_OPERATION). The piglit and PyOpenGL essentials must be there."""
    from driver.abi import _commands
    from driver.gl import Context
    gl = [n for n in _commands.NAMES if n.startswith("gl")]
    implemented = {n for n in gl if getattr(Context, n, None) is not None}
    assert len(implemented) > 500
    for name in ("glShaderSource", "glGetShaderInfoLog", "glVertexPointer", "glDrawElements",
                 "glReadPixels", "glMapBufferRange", "glGetStringi", "glUniformMatrix4fv",
                 "glFenceSync", "glClientWaitSync", "glGetActiveUniform", "glTexImage2D"):
        assert name in implemented, name


def test_missing_registry_is_a_clear_build_error(tmp_path, monkeypatch):
    """The install hook turns this into a warning (or an error with
    SHIMGL_ABI_REQUIRED=1); the message says what to install."""
    import importlib.util
    import types
    spec = importlib.util.spec_from_file_location("_abi_build_missing", paths.HERE / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    monkeypatch.setenv("SHIMGL_KHRONOS_XML", str(tmp_path))
    no_glad = types.SimpleNamespace(util=types.SimpleNamespace(find_spec=lambda name: None))
    monkeypatch.setattr(build.registry, "importlib", no_glad)
    with pytest.raises(build.BuildError, match="glad2"):
        build.build(tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_suffixed_commands_take_array_lengths_from_the_core_command():
    """glDebugMessageControlKHR's registry entry has no len for ``ids`` (the core
    command's is ``count``): the generated marshalling reads ``count`` values, so
    count 0 with NULL ids (apitrace's first call on every context) is no error."""
    from driver.abi import build, registry
    core = registry.Command("glDebugMessageControl", "void",
                            (registry.Param("GLsizei", "count", ""), registry.Param("const GLuint *", "ids", "count")),
                            "gl")
    khr = registry.Command("glDebugMessageControlKHR", "void",
                           (registry.Param("GLsizei", "count", ""), registry.Param("const GLuint *", "ids", "")), "gl")
    fixed = build._with_core_lengths(khr, {c.name: c for c in (core, khr)})
    assert fixed.params[1].length == "count" and fixed.name == khr.name
    assert "M.arr_in(ids, 'GLuint', count)" in build.marshal_function(fixed)
    assert "guess_count" in build.marshal_function(khr)
