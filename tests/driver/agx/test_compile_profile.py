"""The AGX compile path takes the GLSL profile from the GL front end's compile (the
shader key's ``profile``) instead of re-deriving it from the source text."""

import pytest

from compiler.compile import front_half
from compiler.glsl import GLSLCompileError, parse
from compiler.ir import ShaderKey
from compiler.link import stage_ir_of
from driver.agx.compile import compile_variant
from driver.gallium.state import PipeShaderType, ShaderState

# A bare #version 150: core unless the context is a compatibility one.
SRC = """#version 150
void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }
"""


def test_the_profile_in_the_key_decides_a_bare_version_150():
    _s, info = front_half(SRC, "vertex", ShaderKey.make(profile="compatibility"))
    assert "gl_ModelViewProjectionMatrix" in info.uniforms
    with pytest.raises(GLSLCompileError) as e:
        front_half(SRC, "vertex", ShaderKey.make(profile="core"))
    assert "0:2(" in e.value.info_log and "gl_ModelViewProjectionMatrix" in e.value.info_log
    with pytest.raises(GLSLCompileError):
        front_half(SRC, "vertex", None)


def test_compile_variant_passes_the_profile_of_the_ast():
    unit = parse(SRC, "vertex", compat_context=True)
    assert unit.version.profile == "compatibility"
    stage = stage_ir_of(unit, SRC)          # what the GL front end hands the pipe: IR, never the AST
    shader = compile_variant(ShaderState(PipeShaderType.VERTEX, stage, SRC, {}), ShaderKey.make())
    assert "gl_ModelViewProjectionMatrix" in shader.info["shader_info"].uniforms


def test_compile_variant_refuses_a_typed_ast():
    unit = parse(SRC, "vertex", compat_context=True)
    with pytest.raises(TypeError, match="StageIR"):
        compile_variant(ShaderState(PipeShaderType.VERTEX, unit, SRC, {}), ShaderKey.make())
