"""A compile inside use_limits(values) sees the GL context's limits: the gl_Max*
constants (GLSL 4.60 section 7.4) and the compile-time checks read them; outside
it the defaults (LIMITS) apply; bad limits are refused."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, parse
from compiler.glsl.builtin_variables import LIMITS, limits, limits_digest, use_limits

# a zero-sized array is a compile error (GLSL 4.60 section 4.1.9), so this compiles only
# when the constant has the value the test expects
FS = """#version 430
out vec4 c;
float probe[gl_MaxDrawBuffers == {n} ? 1 : 0];
void main() {{ probe[0] = 1.0; c = vec4(probe[0]); }}
"""
CS = """#version 430
layout(local_size_x = 1, local_size_y = 1, local_size_z = 600) in;
void main() {}
"""


def test_constants_take_the_contexts_values():
    assert LIMITS["gl_MaxDrawBuffers"] == 8
    parse(FS.format(n=8), "fragment")
    with pytest.raises(GLSLCompileError):
        parse(FS.format(n=3), "fragment")
    with use_limits({"gl_MaxDrawBuffers": 3}):
        parse(FS.format(n=3), "fragment")
        with pytest.raises(GLSLCompileError):
            parse(FS.format(n=8), "fragment")
    parse(FS.format(n=8), "fragment")         # the defaults again after the block


def test_compile_time_checks_read_the_contexts_limits():
    parse(CS, "compute")                      # z 600 <= 1024
    with use_limits({"gl_MaxComputeWorkGroupSize": (1024, 1024, 512)}):
        with pytest.raises(GLSLCompileError) as err:
            parse(CS, "compute")
    assert "local_size_z (600) must be between 1 and 512" in err.value.info_log
    with use_limits({"gl_MaxDrawBuffers": 2}):
        with pytest.raises(GLSLCompileError) as err:
            parse("#version 430\nlayout(location = 2) out vec4 c;\nvoid main() { c = vec4(1.0); }\n",
                  "fragment")
    assert "invalid location 2 specified" in err.value.info_log   # < gl_MaxDrawBuffers


def test_digest_names_the_limits():
    default = limits_digest()
    with use_limits({"gl_MaxDrawBuffers": 8}):          # the same values: the same digest
        assert limits_digest() == default
    with use_limits({"gl_MaxDrawBuffers": 4}):
        assert limits_digest() != default
        assert limits()["gl_MaxDrawBuffers"] == 4 and limits()["gl_MaxLights"] == LIMITS["gl_MaxLights"]
    assert limits() is LIMITS


@pytest.mark.parametrize("values, message", [
    ({"gl_MaxFoo": 1}, "not a built-in constant"),
    ({"gl_MaxComputeWorkGroupSize": 64}, "shape"),
    ({"gl_MaxDrawBuffers": (1, 2)}, "shape"),
])
def test_bad_limits_are_refused(values, message):
    with pytest.raises(ValueError, match=message):
        with use_limits(values):
            pass
    assert limits() is LIMITS
