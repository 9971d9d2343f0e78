"""GL 4.6 sections 7.6.2 and 7.8: a program whose stage uses more uniform blocks than
GL_MAX_<STAGE>_UNIFORM_BLOCKS fails to link, naming the limit (piglit's
arb_uniform_buffer_object-maxblocks); the stages' uses add up against the combined
limits (checked on compiler.link.block_limit_error with small limits by hand)."""

from __future__ import annotations

import pytest

from compiler import link
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import compile_source

VS = "#version 330\nin vec4 p; void main() { gl_Position = p; }"


def _fs(n: int) -> str:
    blocks = "".join(f"uniform B{i} {{ vec4 v{i}; }};\n" for i in range(n))
    total = " + ".join(f"v{i}" for i in range(n)) or "vec4(0.0)"
    return f"#version 330\n{blocks}out vec4 o;\nvoid main() {{ o = {total}; }}"


def _link(ctx, fs: str) -> tuple[bool, str]:
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(p, sh)
    ctx.glLinkProgram(p)
    return bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]), ctx.glGetProgramInfoLog(p)


def test_a_stage_over_its_uniform_block_limit_fails_to_link():
    ctx = make_ctx("gl33")
    limit = ctx.glGetIntegerv(E.GL_MAX_FRAGMENT_UNIFORM_BLOCKS)[0]
    assert _link(ctx, _fs(limit))[0]
    ok, log = _link(ctx, _fs(limit + 1))
    assert not ok and "GL_MAX_FRAGMENT_UNIFORM_BLOCKS" in log


@pytest.mark.parametrize("uses, error", [
    ({("vertex", "uniform"): 3, ("fragment", "uniform"): 3}, None),
    ({("vertex", "uniform"): 4, ("fragment", "uniform"): 1}, "GL_MAX_VERTEX_UNIFORM_BLOCKS"),
    ({("vertex", "uniform"): 3, ("fragment", "uniform"): 3, ("geometry", "uniform"): 1},
     "GL_MAX_COMBINED_UNIFORM_BLOCKS"),
    ({("compute", "buffer"): 3}, "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS"),
    ({("vertex", "buffer"): 2, ("fragment", "buffer"): 2}, "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS"),
])
def test_block_limits_per_stage_and_combined(uses, error):
    limits = {"GL_MAX_VERTEX_UNIFORM_BLOCKS": 3, "GL_MAX_FRAGMENT_UNIFORM_BLOCKS": 3,
              "GL_MAX_GEOMETRY_UNIFORM_BLOCKS": 3, "GL_MAX_COMBINED_UNIFORM_BLOCKS": 6,
              "GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS": 2, "GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS": 2,
              "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS": 2, "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS": 3}
    got = link.block_limit_error(uses, limits)
    assert (got is None) if error is None else (error in got)
