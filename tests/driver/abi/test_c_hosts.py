"""C programs that never started Python, on libshimgl.so: EGL through the
system's glvnd libEGL/libGL, EGL errors against the library itself, OSMesa, two
threads, inside and outside the virtual environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from driver.abi import paths
from tests.driver.abi.conftest import clean_env, run

pytestmark = pytest.mark.skipif(not Path("/usr/include/EGL/egl.h").exists(),
                                reason="needs the EGL/GL headers (libglvnd-dev)")


def _first_call_s(out: str) -> float:
    m = re.search(r"first call ([\d.]+) s", out)
    return float(m.group(1)) if m else float("nan")


def test_egl_gles3_through_glvnd(build_host, shimgl_env):
    exe = build_host("egl_glvnd", "-lEGL", "-lGL", "-lpthread")
    res = run([exe, "gles3"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "GL_VERSION OpenGL ES 3.2 shimgl" in res.stdout    # asked 3.0: the newest compatible
    assert "EGL 1.5 vendor shimgl" in res.stdout
    for ext in ("EGL_KHR_create_context", "EGL_KHR_surfaceless_context",
                "EGL_KHR_no_config_context", "EGL_KHR_fence_sync"):
        assert ext in res.stdout
    print("C host: first EGL call (Python start + driver import)", _first_call_s(res.stdout), "s")


def test_egl_gl_from_two_threads(build_host, shimgl_env):
    """Two pthreads, a context each, current at the same time (the current
    context is per thread; the calls are serialised by the ABI's lock)."""
    exe = build_host("egl_glvnd", "-lEGL", "-lGL", "-lpthread")
    res = run([exe, "gl", "threads"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "threads ok" in res.stdout


@pytest.mark.parametrize("api", ["gl", "gles3"])
def test_shared_contexts_in_two_threads(api, build_host, shimgl_env):
    """A context made with another as share_context, each current in its own
    pthread at the same time: a texture one fills, the other reads through its
    own framebuffer object and renders into, and the first reads back."""
    exe = build_host("egl_glvnd", "-lEGL", "-lGL", "-lpthread")
    res = run([exe, api, "share"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "share ok" in res.stdout


def test_egl_errors(build_host, abi_dir):
    """Linked against libshimgl.so itself (no glvnd): every EGL error is ours."""
    exe = build_host("egl_errors", f"-L{abi_dir}", "-l:libshimgl.so", f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout
    assert "internal error" not in res.stderr


def test_osmesa_c_host(build_host, shimgl_env):
    """dlopen("libOSMesa.so.8", RTLD_LOCAL) through LD_LIBRARY_PATH: libpython
    is promoted to global by the library's constructor, so numpy & co load."""
    exe = build_host("osmesa_host", "-ldl")
    res = run([exe], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "first 0 128 255 255" in res.stdout      # BGRA of (1, 0.5, 0)


def test_c_host_finds_the_package_outside_the_venv(build_host, shimgl_env, tmp_path):
    """No VIRTUAL_ENV, no venv on PATH, no PYTHONPATH, another working
    directory: the embedded interpreter still finds shimgl and its
    dependencies (site directories recorded at build time, the package root
    beside the library)."""
    exe = build_host("egl_glvnd", "-lEGL", "-lGL", "-lpthread")
    env = dict(shimgl_env)
    env["PATH"] = "/usr/bin:/bin"
    env["HOME"] = str(tmp_path)
    res = run([exe, "gles3"], env, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.slow
def test_c_host_with_a_library_built_by_the_base_interpreter(build_host, tmp_path):
    """Outside any virtual environment: the ABI built by the base interpreter
    (the venv's python without the venv, with its own cffi and numpy) into a
    copy of the package; a C host starts that interpreter and finds the package
    beside the library (no PYTHONPATH, no venv)."""
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    if not base.exists():
        pytest.skip("no base interpreter")
    probe = subprocess.run([base, "-c", "import cffi, numpy"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("the base interpreter lacks cffi or numpy")
    has_glad = subprocess.run([base, "-c", "import glad"], capture_output=True).returncode == 0
    if not has_glad and not os.environ.get("SHIMGL_KHRONOS_XML"):
        pytest.skip("the base interpreter has no glad2 and SHIMGL_KHRONOS_XML is not set")
    root = Path(__file__).resolve().parents[3]
    copy = tmp_path / "shimgl"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".venv", ".git", "*.so", "__pycache__",
                                                              "out", ".hypothesis"))
    env = clean_env()
    if os.environ.get("SHIMGL_KHRONOS_XML"):
        env["SHIMGL_KHRONOS_XML"] = os.environ["SHIMGL_KHRONOS_XML"]
    res = run([base, copy / "driver" / "abi" / "build.py", copy / "driver" / "abi"], env,
              timeout=1800)
    assert res.returncode == 0, res.stderr
    exe = build_host("egl_glvnd", "-lEGL", "-lGL", "-lpthread")
    env["__EGL_VENDOR_LIBRARY_FILENAMES"] = str(copy / "driver" / "abi" / paths.VENDOR_JSON)
    res = run([exe, "gles3"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "OpenGL ES 3.2 shimgl" in res.stdout


def test_legacy_gl_in_an_osmesa_program(build_host, abi_dir):
    """Linked -lOSMesa -lGL like an old OSMesa program: gl* resolve in
    libOSMesa.so.8 (ours) before glvnd's libGL. Immediate mode, a display list
    through glCallLists, client arrays with client indices."""
    exe = build_host("legacy_host", f"-L{abi_dir}", "-lOSMesa", "-lGL", f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout


def test_array_entry_points_from_c(build_host, abi_dir):
    """glViewportArrayv/glScissorArrayv/glDepthRangeArrayv read count elements
    of 4 (2) values, glPatchParameterfv 4 levels; NULL with a zero count is
    legal (glDeleteBuffers(0, NULL), glDeleteTextures(0, NULL), ...)."""
    exe = build_host("gl_arrays", f"-L{abi_dir}", "-l:libshimgl.so", f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout
    assert "internal error" not in res.stderr


def test_oes_mapbuffer_from_c(build_host, abi_dir):
    """glmark2's buffer scene from C: glMapBufferOES found with eglGetProcAddress
    in a GLES 2 context hands out memory whose address glGetBufferPointervOES
    reports and whose bytes are drawn after glUnmapBufferOES; READ_ONLY is
    INVALID_ENUM; glMapBufferARB (desktop) maps the buffer's bytes."""
    exe = build_host("gles_mapbuffer", f"-L{abi_dir}", "-l:libshimgl.so", f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout
    assert "internal error" not in res.stderr


def test_debug_output_from_c(build_host, abi_dir):
    """KHR_debug through the ABI: a debug context's GL errors and inserted
    messages reach a C callback with its user pointer; the log fills C arrays;
    labels round-trip."""
    exe = build_host("gl_debug", f"-L{abi_dir}", "-l:libshimgl.so", f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout


def test_ext_direct_state_access_from_c(build_host, abi_dir):
    """GL_EXT_direct_state_access from a C program in a compatibility context (OSMesa):
    each EXT command's pointers are marshalled as its core command's (pixels under the
    unpack state, read-backs, mapped buffers, matrices, program strings, draw buffer
    arrays, client array pointers), and a command failing on its texture, unit or
    buffer reads none of its client memory (an unreadable address: no crash)."""
    exe = build_host("ext_dsa", f"-L{abi_dir}", "-l:libshimgl.so", f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout
    assert "internal error" not in res.stderr


def test_old_extension_names_from_c(build_host, abi_dir):
    """GL_NV_half_float and GL_ARB_shader_objects from a C program (OSMesa): the registry's
    length of glVertexAttribs{1-4}hvNV's array (n, not n x size) is corrected in the
    generated marshalling, half floats reach the context as floats, and the ARB object
    queries write into the caller's arrays with their counts."""
    exe = build_host("old_names", f"-L{abi_dir}", "-l:libshimgl.so", f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout


def test_a_host_that_finalizes_its_own_python_first(build_host, abi_dir):
    """A C host embedding Python (as Blender does) runs shimgl in its interpreter,
    then finalizes it before its last GL/EGL calls: they return without entering
    Python (Blender 3.4 crashed in PyGILState_Ensure from glDeleteShader at exit)."""
    import sysconfig
    libdir = sysconfig.get_config_var("LIBDIR")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("this Python has no shared libpython to embed")
    ver = sysconfig.get_config_var("LDVERSION") or sysconfig.get_python_version()
    exe = build_host("python_host_exit", f"-I{sysconfig.get_paths()['include']}", f"-L{abi_dir}",
                     "-l:libshimgl.so", f"-Wl,-rpath,{abi_dir}", f"-L{libdir}", f"-lpython{ver}",
                     f"-Wl,-rpath,{libdir}")
    res = run([exe], clean_env(PYTHONHOME=sys.base_prefix))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout, res.stdout
    assert "internal error" not in res.stderr
