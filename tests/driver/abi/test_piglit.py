"""Piglit's shader_runner (Debian's binaries, unchanged) on shimgl through
glvnd: `eval "$(shimgl env)"` then shader_runner FILE -auto -fbo."""

from __future__ import annotations

import pytest

from tests.conftest import piglit_bin_dir
from tests.driver.abi.conftest import DATA_DIR, run

pytestmark = pytest.mark.piglit


def _shader_runner(binary: str, test: str, env) -> str:
    res = run([piglit_bin_dir() / binary, DATA_DIR / test, "-auto", "-fbo"], env)
    lines = [l for l in res.stdout.splitlines() if l.startswith("PIGLIT:")]
    assert lines, f"no result line (exit {res.returncode}):\n{res.stdout}\n{res.stderr}"
    return lines[-1]


def test_shader_runner_glsl_110(shimgl_env):
    """GLSL 1.10 vertex + fragment shader, compatibility context, draw rect
    through legacy client arrays, FBO, uniforms, probes."""
    assert '"pass"' in _shader_runner("shader_runner", "glsl110-vs-fs.shader_test", shimgl_env)


def test_shader_runner_glsl_es_300(shimgl_env):
    """GLSL ES 3.00 through shader_runner_gles3 (which queries 0x0D32 at start-up:
    answered through GL_APPLE_clip_distance)."""
    assert '"pass"' in _shader_runner("shader_runner_gles3", "glsles300-vs-fs.shader_test",
                                      shimgl_env)


def test_glslparsertest_reports_a_compile_error(shimgl_env):
    """glslparsertest compiles a shader that must fail (info log read back
    through glGetShaderiv(INFO_LOG_LENGTH) + glGetShaderInfoLog)."""
    res = run([piglit_bin_dir() / "glslparsertest", DATA_DIR / "undeclared.vert", "fail", "1.10"],
              shimgl_env)
    assert '"pass"' in res.stdout, res.stdout + res.stderr
    assert "undeclared_variable" in res.stdout
