"""The shader_test runner itself: parsing, probes, context choice, and that it
fails, skips and passes where piglit's shader_runner would."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from driver.shader_test import choose_api, parse, run
from driver.shader_test.parser import parse_floats, parse_ints, parse_uints
from driver.shader_test.probes import DEFAULT_TOLERANCE, ProbeFailure, probe_pixel, probe_rect

GREEN_FS = """[require]
GLSL >= 1.10
SIZE 8 8

[vertex shader]
void main() { gl_Position = gl_Vertex; }

[fragment shader]
void main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }

[test]
draw rect -1 -1 2 2
"""


def test_parse_sections_requirements_and_commands():
    t = parse("""# comment
[require]
GL ES >= 3.0
GLSL ES >= 3.00
GL_OES_texture_3D
!GL_ARB_nothing
GL_MAX_VARYING_COMPONENTS >= 32
SIZE 64 32

[vertex shader passthrough]
[fragment shader]
void main() {}

[test]
# a comment line
clear color 0 0 0 1
probe all rgba 0 1 0 1
""", "t.shader_test")
    kinds = [r.kind for r in t.requirements]
    assert kinds == ["gl", "glsl", "extension", "extension", "limit", "size"]
    assert t.gl_version.num == 30 and t.gl_version.es
    assert t.glsl_version.num == 300 and t.glsl_version.es
    assert t.requirements[3].negate and t.requirements[3].name == "GL_ARB_nothing"
    assert t.requirements[4].value == 32 and t.size == (64, 32)
    assert [s.kind for s in t.shaders] == ["vertex shader passthrough", "fragment shader"]
    assert [(c.line, c.text) for c in t.commands] == [(16, "clear color 0 0 0 1"), (17, "probe all rgba 0 1 0 1")]


def test_parse_rejects_missing_require():
    with pytest.raises(ValueError, match="require"):
        parse("[test]\nclear\n")


def test_numbers_as_piglit_reads_them():
    assert parse_floats("(0.5, -2) 0x3f800000 1e3") == [0.5, -2.0, 1.0, 1000.0]
    assert struct.pack("=f", parse_floats("0xff800000")[0]) == struct.pack("=I", 0xff800000)
    assert parse_floats("-1e+256 1e39 3.4028235e+38") == [float("-inf"), float("inf"),
                                                          3.4028234663852886e38]   # C's double -> float
    assert parse_ints("0x10 -7 010 0xffffffff") == [16, -7, 8, -1]
    assert parse_uints("4294967295 -1 0x80000000") == [4294967295, 4294967295, 0x80000000]


def test_probe_tolerances():
    probe_pixel([0.505, 0.0, 1.0, 1.0], [0.5, 0.0, 1.0, 1.0], DEFAULT_TOLERANCE, 0, 0)
    with pytest.raises(ProbeFailure, match=r"Probe color at \(3,4\)"):
        probe_pixel([0.52, 0.0, 1.0, 1.0], [0.5, 0.0, 1.0, 1.0], DEFAULT_TOLERANCE, 3, 4)
    px = np.zeros((2, 3, 4), np.uint8)
    px[...] = (127, 0, 255, 255)
    probe_rect(px, [0.5, 0.0, 1.0, 1.0], DEFAULT_TOLERANCE, 0, 0, as_ubyte=True)   # 127 vs trunc(127.5)
    px[1, 2, 0] = 131                       # 4 steps away: beyond ceil(0.01 * 255) = 3
    with pytest.raises(ProbeFailure, match=r"\(12,11\)"):
        probe_rect(px, [0.5, 0.0, 1.0, 1.0], DEFAULT_TOLERANCE, 10, 10, as_ubyte=True)
    px[1, 2, 0] = 130
    probe_rect(px, [0.5, 0.0, 1.0], DEFAULT_TOLERANCE, 10, 10, as_ubyte=True)


@pytest.mark.parametrize("req,api", [
    ("GLSL >= 1.10", "compat"), ("GLSL >= 1.30", "compat"), ("GLSL >= 1.40", "gl33"),
    ("GLSL >= 3.30", "gl33"), ("GLSL >= 4.30", "gl43"), ("GL COMPAT >= 3.2\nGLSL >= 1.50", "compat"),
    ("GL ES >= 2.0\nGLSL ES >= 1.00", "gles2"), ("GL ES >= 3.0\nGLSL ES >= 3.00", "gles3"),
    ("GL ES >= 3.1\nGLSL ES >= 3.10", "gles31"),
])
def test_choose_api(req, api):
    assert choose_api(parse(f"[require]\n{req}\n")) == api


def test_pass_and_result_line():
    r = run(parse(GREEN_FS + "probe all rgba 0 1 0 1\n"))
    assert r.status == "pass", r.messages
    assert r.piglit_line == 'PIGLIT: {"result": "pass" }' and r.exit_code == 0


def test_wrong_expectation_fails_naming_line_and_pixel():
    r = run(parse(GREEN_FS + "probe all rgba 0 1 0 1\nprobe rgba 2 3 1 0 0 1\nprobe all rgb 0 1 0\n"))
    assert r.status == "fail" and r.exit_code == 1
    text = "\n".join(r.messages)
    assert "Probe color at (2,3)" in text and "line 14" in text and "line 15" not in text


def test_unknown_command_fails_and_unsupported_command_skips():
    r = run(parse(GREEN_FS + "frobnicate 1 2 3\n"))
    assert r.status == "fail" and any("unknown command" in m for m in r.messages)
    r = run(parse(GREEN_FS + "xfb draw arrays GL_POINTS 0 1\n"))
    assert r.status == "skip" and r.exit_code == 0
    assert any("not supported" in m for m in r.messages)


def test_unmet_requirements_skip_with_reason():
    r = run(parse(GREEN_FS.replace("GLSL >= 1.10", "GLSL >= 1.10\nGL_ARB_does_not_exist")))
    assert r.status == "skip" and "GL_ARB_does_not_exist" in r.messages[0]
    r = run(parse(GREEN_FS.replace("GLSL >= 1.10", "GLSL >= 1.10\nGL_MAX_VERTEX_ATTRIBS >= 100000")))
    assert r.status == "skip" and "GL_MAX_VERTEX_ATTRIBS" in r.messages[0]


def test_tessellation_control_stage_alone_does_not_link():
    r = run(parse("""[require]
GLSL >= 4.00
[vertex shader passthrough]
[tessellation control shader]
layout(vertices = 3) out;
void main() {}
[test]
patch parameter vertices 3
"""))
    assert r.status == "fail" and any("tessellation evaluation" in m for m in r.messages), r.messages


def test_compile_error_fails_and_link_error_is_checked():
    r = run(parse(GREEN_FS.replace("gl_FragColor = ", "gl_FragColor = undefined_thing + ")))
    assert r.status == "fail" and any("Failed to compile" in m for m in r.messages)
    linked_ok = GREEN_FS + "link error\n"
    r = run(parse(linked_ok))
    assert r.status == "fail" and any("link error expected" in m for m in r.messages)


def test_cli_prints_piglit_line_and_exit_status(tmp_path, capsys):
    main = _cli_main
    f = tmp_path / "t.shader_test"
    f.write_text(GREEN_FS + "probe all rgba 0 1 0 1\n")
    png = tmp_path / "out.png"
    assert main(["shader-test", str(f), "--png", str(png)]) == 0
    assert capsys.readouterr().out.strip().endswith('PIGLIT: {"result": "pass" }')
    assert png.stat().st_size > 0
    f.write_text(GREEN_FS + "probe all rgba 1 0 0 1\n")
    assert main(["shader-test", str(f)]) == 1
    assert 'PIGLIT: {"result": "fail" }' in capsys.readouterr().out


def _cli_main(argv):
    """Our subcommand alone (driver.cli loads every package's entry point; one
    still being written elsewhere must not fail these tests)."""
    import argparse

    from driver.shader_test_cli import register
    parser = argparse.ArgumentParser(prog="shimgl")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)
