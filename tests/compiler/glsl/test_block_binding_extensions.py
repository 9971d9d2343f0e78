"""layout(binding) on a block in GLSL 1.50 comes with GL_ARB_shading_language_420pack,
and also (as in Mesa) with GL_ARB_shader_storage_buffer_object or
GL_ARB_shader_atomic_counters enabled; without any of them it is an error."""

import pytest

from compiler.glsl import GLSLCompileError, parse

BODY = """
layout(std430, binding = 2) buffer ssbo { double u[6]; };
uniform double value;     // (a double vertex input needs GL_ARB_vertex_attrib_64bit)
void main() { gl_Position = vec4(0.0); u[0] = value; }
"""
HEAD = "#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\n"


@pytest.mark.parametrize("ext", ["GL_ARB_shader_storage_buffer_object"])
def test_binding_on_a_buffer_block_with_the_ssbo_extension(ext):
    unit = parse(HEAD + f"#extension {ext} : require\n" + BODY, "vertex")
    assert unit is not None


def test_binding_on_a_uniform_block_with_the_atomic_counter_extension():
    src = "#version 150\n#extension GL_ARB_shader_atomic_counters : require\n" \
          "layout(binding = 3) uniform blk { vec4 c; };\nout vec4 o;\nvoid main() { o = c; }\n"
    assert parse(src, "fragment") is not None


def test_binding_without_an_extension_that_brings_it_is_an_error():
    src = "#version 150\nlayout(binding = 3) uniform blk { vec4 c; };\nout vec4 o;\nvoid main() { o = c; }\n"
    with pytest.raises(GLSLCompileError) as e:
        parse(src, "fragment")
    assert "binding layout qualifier requires" in e.value.info_log
