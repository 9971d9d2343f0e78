"""OpenGL ES 1.1 and 3.2 contexts through OSMesa: shimgl's extension
OSMESA_ES_PROFILE_SHIMGL of OSMesaCreateContextAttribs (driver/abi/osmesa_shimgl.h),
from a C program linked against the library and from PyOpenGL's osmesa
platform, each drawing and reading back hand-computed pixels; refused
requests are NULL with one line on stderr."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from driver.abi import osmesa
from tests.driver.abi.conftest import PY_DIR, clean_env, run

HEADER = Path(osmesa.__file__).resolve().parent / "osmesa_shimgl.h"


def test_the_token_is_the_headers_and_collides_with_no_mesa_value():
    text = HEADER.read_text()
    value = int(re.search(r"#define OSMESA_ES_PROFILE_SHIMGL (\S+)", text).group(1), 0)
    assert osmesa.OSMESA_ES_PROFILE_SHIMGL == value
    mesa_values = {v for k, v in vars(osmesa).items()
                   if k.startswith("OSMESA_") and isinstance(v, int) and k != "OSMESA_ES_PROFILE_SHIMGL"}
    assert value not in mesa_values and value > 0xFFFF


@pytest.mark.skipif(not Path("/usr/include/GL/glext.h").exists(), reason="needs the GL headers")
def test_es_contexts_from_c(build_host, abi_dir):
    exe = build_host("osmesa_es", f"-I{abi_dir}", f"-L{abi_dir}", "-l:libshimgl.so",
                     f"-Wl,-rpath,{abi_dir}")
    res = run([exe], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ES 1.1 GL_VERSION OpenGL ES-CM 1.1 shimgl" in res.stdout
    assert "ES 1.0 GL_VERSION OpenGL ES-CM 1.1 shimgl" in res.stdout
    assert "ES 3.2 GL_VERSION OpenGL ES 3.2 shimgl" in res.stdout
    assert "ES 2.0 GL_VERSION OpenGL ES 3.2 shimgl" in res.stdout   # the newest compatible
    assert "0 failures" in res.stdout
    # each refusal says why on stderr
    assert "OpenGL ES 2.1 is not a version of OpenGL ES" in res.stderr
    assert "OpenGL ES 3.3 is not a version of OpenGL ES" in res.stderr
    assert "OSMESA_PROFILE 0x999 is not" in res.stderr
    assert "the sharelist context is of another API" in res.stderr
    assert "internal error" not in res.stderr


def test_es_contexts_from_pyopengl(abi_dir, shimgl_env):
    env = dict(shimgl_env, PYOPENGL_PLATFORM="osmesa")
    res = run([sys.executable, PY_DIR / "pyopengl_osmesa_es.py", HEADER], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert "internal error" not in res.stderr
