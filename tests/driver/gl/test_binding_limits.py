"""A layout(binding) whose elements run past the binding points is a compile error
(as Mesa's compiler checks; GLSL 4.60 section 4.4.5 and 4.4.6: an array of blocks or
opaque uniforms takes consecutive bindings from the one given): the limits are the
context's own GL_MAX_* answers, so one binding below each limit compiles and the
next one does not."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E

HEAD = {"gl46": "#version 430\n", "gles31": "#version 310 es\nprecision highp float;\n"}

# (declaration with {b} for the binding, the GL limit, elements the declaration takes)
CASES = [
    ("layout(std140, binding = {b}) uniform B {{ vec4 a; }} blocks[3];\n"
     "void use() {{ v += blocks[0].a + blocks[2].a; }}", "GL_MAX_UNIFORM_BUFFER_BINDINGS", 3),
    ("layout(std140, binding = {b}) uniform B {{ vec4 a; }};\n"
     "void use() {{ v += a; }}", "GL_MAX_UNIFORM_BUFFER_BINDINGS", 1),
    ("layout(std430, binding = {b}) buffer S {{ vec4 a; }} blocks[2];\n"
     "void use() {{ v += blocks[1].a; }}", "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", 2),
    ("layout(binding = {b}) uniform highp sampler2D s[4];\n"
     "void use() {{ v += textureLod(s[3], vec2(0.5), 0.0); }}", "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS", 4),
    ("layout(binding = {b}, rgba8) readonly uniform highp image2D im[2];\n"
     "void use() {{ v += imageLoad(im[1], ivec2(0)); }}", "GL_MAX_IMAGE_UNITS", 2),
    # an array of atomic counters is one buffer binding, whatever its length
    ("layout(binding = {b}, offset = 0) uniform atomic_uint c[3];\n"
     "void use() {{ v += vec4(atomicCounterIncrement(c[2])); }}", "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", 1),
]


def _compiles(ctx, src: str) -> tuple[bool, str]:
    sh = ctx.glCreateShader(E.GL_COMPUTE_SHADER)
    ctx.glShaderSource(sh, 1, [src], None)
    ctx.glCompileShader(sh)
    ok = bool(ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0])
    return ok, ctx.glGetShaderInfoLog(sh)


@pytest.mark.parametrize("api", sorted(HEAD))
@pytest.mark.parametrize("decl, limit, elements", CASES,
                         ids=["ubo-array", "ubo", "ssbo-array", "samplers", "images", "atomic-counters"])
def test_the_last_binding_point_is_the_limit(api, decl, limit, elements):
    ctx = driver.Context(api=api, width=4, height=4)
    top = int(ctx.glGetIntegerv(getattr(E, limit))[0])
    assert top > elements
    last = top - elements                       # its elements end on binding top - 1

    def source(b):
        return HEAD[api] + "layout(local_size_x = 1) in;\nvec4 v = vec4(0.0);\n" + decl.format(b=b) + \
            "\nvoid main() { use(); }\n"
    ok, log = _compiles(ctx, source(last))
    assert ok, log
    ok, log = _compiles(ctx, source(last + 1))
    assert not ok
    assert f"layout(binding = {last + 1})" in log and "error" in log
    assert ctx.glGetError() == E.GL_NO_ERROR
