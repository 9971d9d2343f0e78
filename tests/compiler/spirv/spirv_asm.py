"""Assemble SPIR-V test inputs with spirv-as (Debian's spirv-tools); tests skip
with a reason when it is not installed."""

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

SPIRV_AS = shutil.which("spirv-as")
needs_spirv_as = pytest.mark.skipif(SPIRV_AS is None, reason="spirv-as (spirv-tools) is not installed")


def assemble(text: str) -> bytes:
    """The binary of SPIR-V assembly ``text`` (target environment OpenGL 4.5)."""
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "m.spvasm", Path(d) / "m.spv"
        src.write_text(text)
        r = subprocess.run([SPIRV_AS, "--target-env", "opengl4.5", str(src), "-o", str(out)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return out.read_bytes()


HEADER = """OpCapability Shader
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
"""

TYPES = """%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v3uint = OpTypeVector %uint 3
%v4float = OpTypeVector %float 4
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
"""

#: a vertex shader passing location 0 through to gl_Position (glslang's gl_PerVertex shape)
PASS_VS = HEADER + """OpEntryPoint Vertex %main "main" %pv %pos
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpMemberDecorate %PerVertex 1 BuiltIn PointSize
OpDecorate %PerVertex Block
OpDecorate %pos Location 0
""" + TYPES + """%PerVertex = OpTypeStruct %v4float %float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_in_v4 = OpTypePointer Input %v4float
%pos = OpVariable %p_in_v4 Input
%p_out_v4 = OpTypePointer Output %v4float
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v4float %pos
%dst = OpAccessChain %p_out_v4 %pv %int_0
OpStore %dst %v
OpReturn
OpFunctionEnd
"""
