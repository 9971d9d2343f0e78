"""GL_ARB_spirv_extensions: the SPIR-V extensions GL_SPIR_V_EXTENSIONS lists are the ones
the front end implements, each exercised here through a module that declares it
(SPV_KHR_shader_draw_parameters, SPV_KHR_storage_buffer_storage_class,
SPV_KHR_subgroup_vote); a module using another extension fails to specialize.
Modules are assembled with spirv-as; values by hand."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.compiler.spirv.spirv_asm import TYPES, needs_spirv_as
from tests.driver.gl.helpers import link_and_use as link
from tests.driver.gl.spirv_helpers import compiled, specialized as specialize

pytestmark = needs_spirv_as

LISTED = ("SPV_KHR_shader_draw_parameters", "SPV_KHR_storage_buffer_storage_class", "SPV_KHR_subgroup_vote")


def test_the_list_and_its_queries():
    c = driver.Context(api="gl46", width=4, height=4)
    n = c.glGetIntegerv(E.GL_NUM_SPIR_V_EXTENSIONS)[0]
    assert tuple(c.glGetStringi(E.GL_SPIR_V_EXTENSIONS, i) for i in range(n)) == LISTED
    assert c.glGetError() == E.GL_NO_ERROR
    c.glGetStringi(E.GL_SPIR_V_EXTENSIONS, n)
    assert c.glGetError() == E.GL_INVALID_VALUE


def test_a_module_using_an_extension_not_listed_does_not_specialize():
    c = driver.Context(api="gl46", width=4, height=4)
    text = ('OpCapability Shader\nOpExtension "SPV_KHR_variable_pointers"\nOpMemoryModel Logical GLSL450\n'
            'OpEntryPoint GLCompute %main "main"\nOpExecutionMode %main LocalSize 1 1 1\n' + TYPES +
            "%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n")
    s = specialize(c, E.GL_COMPUTE_SHADER, text)
    assert c.glGetError() == E.GL_NO_ERROR
    assert c.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    assert 'SPIR-V extension "SPV_KHR_variable_pointers"' in c.glGetShaderInfoLog(s)


# quad q = (VertexId / 4) % 4 covers pixel column q of a 4x1 target; the flat output at
# location 0 is (BaseVertex, BaseInstance, DrawIndex)
DRAW_PARAMETERS_VS = """OpCapability Shader
OpCapability DrawParameters
OpExtension "SPV_KHR_shader_draw_parameters"
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %vid %bv %bi %di %pv %params
OpDecorate %vid BuiltIn VertexId
OpDecorate %bv BuiltIn BaseVertex
OpDecorate %bi BuiltIn BaseInstance
OpDecorate %di BuiltIn DrawIndex
OpDecorate %params Location 0
OpDecorate %params Flat
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpDecorate %PerVertex Block
""" + TYPES + """%v3int = OpTypeVector %int 3
%int_2 = OpConstant %int 2
%int_4 = OpConstant %int 4
%half = OpConstant %float 0.5
%float_2 = OpConstant %float 2
%float_m1 = OpConstant %float -1
%p_in_int = OpTypePointer Input %int
%vid = OpVariable %p_in_int Input
%bv = OpVariable %p_in_int Input
%bi = OpVariable %p_in_int Input
%di = OpVariable %p_in_int Input
%PerVertex = OpTypeStruct %v4float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_out_v4 = OpTypePointer Output %v4float
%p_out_v3i = OpTypePointer Output %v3int
%params = OpVariable %p_out_v3i Output
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %int %vid
%k = OpSMod %int %v %int_4
%d = OpSDiv %int %v %int_4
%q = OpSMod %int %d %int_4
%k1 = OpBitwiseAnd %int %k %int_1
%qk = OpIAdd %int %q %k1
%fx = OpConvertSToF %float %qk
%x = OpExtInst %float %std Fma %fx %half %float_m1
%k2 = OpShiftRightArithmetic %int %k %int_1
%fy = OpConvertSToF %float %k2
%y = OpExtInst %float %std Fma %fy %float_2 %float_m1
%pos = OpCompositeConstruct %v4float %x %y %float_0 %float_1
%dst = OpAccessChain %p_out_v4 %pv %int_0
OpStore %dst %pos
%bvv = OpLoad %int %bv
%biv = OpLoad %int %bi
%div = OpLoad %int %di
%pp = OpCompositeConstruct %v3int %bvv %biv %div
OpStore %params %pp
OpReturn
OpFunctionEnd
"""

# colour = (params / 255, 1)
PARAMS_FS = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %params %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %params Location 0
OpDecorate %params Flat
OpDecorate %out Location 0
""" + TYPES + """%v3int = OpTypeVector %int 3
%v3float = OpTypeVector %float 3
%f255 = OpConstant %float 255
%p_in_v3i = OpTypePointer Input %v3int
%params = OpVariable %p_in_v3i Input
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpLoad %v3int %params
%f = OpConvertSToF %v3float %p
%r = OpCompositeExtract %float %f 0
%g = OpCompositeExtract %float %f 1
%b = OpCompositeExtract %float %f 2
%r1 = OpFDiv %float %r %f255
%g1 = OpFDiv %float %g %f255
%b1 = OpFDiv %float %b %f255
%o = OpCompositeConstruct %v4float %r1 %g1 %b1 %float_1
OpStore %out %o
OpReturn
OpFunctionEnd
"""


def _columns(c):
    assert c.glGetError() == E.GL_NO_ERROR
    img = np.frombuffer(bytes(c.glReadPixels(0, 0, 4, 1, E.GL_RGB, E.GL_UNSIGNED_BYTE)), np.uint8)
    return [tuple(int(v) for v in px) for px in img.reshape(4, 3)]


def test_shader_draw_parameters():
    c = driver.Context(api="gl46", width=4, height=1)
    link(c, compiled(c, E.GL_VERTEX_SHADER, DRAW_PARAMETERS_VS), compiled(c, E.GL_FRAGMENT_SHADER, PARAMS_FS))
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    c.glClearColor(1, 1, 1, 1)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    # columns 2, 3: draws 0 and 1; BaseVertex is GL's gl_BaseVertex, 0 for array draws (ARB_gl_spirv)
    c.glMultiDrawArrays(E.GL_TRIANGLE_STRIP, [8, 12], [4, 4], 2)
    (ibo,) = c.glGenBuffers(1)
    c.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    c.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 8, np.arange(4, dtype=np.uint16), E.GL_STATIC_DRAW)
    # base vertex 4 -> column 1, base instance 7
    c.glDrawElementsInstancedBaseVertexBaseInstance(E.GL_TRIANGLE_STRIP, 4, E.GL_UNSIGNED_SHORT, 0, 1, 4, 7)
    assert _columns(c) == [(255, 255, 255), (4, 7, 0), (0, 0, 0), (0, 0, 1)]


# r[i] = any(v[i] != 0) | all(...) << 1 | allEqual(...) << 2 over each SIMD group (32
# invocations: one work group of 32), buffers in the StorageBuffer storage class
VOTE_CS = """OpCapability Shader
OpCapability SubgroupVoteKHR
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpExtension "SPV_KHR_subgroup_vote"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rta ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %in Binding 0
OpDecorate %in DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %out DescriptorSet 0
""" + TYPES + """%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%rta = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rta
%p_buf = OpTypePointer StorageBuffer %Buf
%in = OpVariable %p_buf StorageBuffer
%out = OpVariable %p_buf StorageBuffer
%p_sb_uint = OpTypePointer StorageBuffer %uint
%p_in_v3 = OpTypePointer Input %v3uint
%gid = OpVariable %p_in_v3 Input
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%pv = OpAccessChain %p_sb_uint %in %int_0 %i
%v = OpLoad %uint %pv
%b = OpINotEqual %bool %v %uint_0
%any = OpSubgroupAnyKHR %bool %b
%all = OpSubgroupAllKHR %bool %b
%eq = OpSubgroupAllEqualKHR %bool %b
%a1 = OpSelect %uint %any %uint_1 %uint_0
%a2 = OpSelect %uint %all %uint_2 %uint_0
%a4 = OpSelect %uint %eq %uint_4 %uint_0
%s = OpBitwiseOr %uint %a1 %a2
%r = OpBitwiseOr %uint %s %a4
%pr = OpAccessChain %p_sb_uint %out %int_0 %i
OpStore %pr %r
OpReturn
OpFunctionEnd
"""


def test_storage_buffer_class_and_subgroup_votes():
    c = driver.Context(api="gl46", width=4, height=4)
    link(c, compiled(c, E.GL_COMPUTE_SHADER, VOTE_CS))
    values = np.zeros(96, np.uint32)
    values[3] = values[17] = 5              # group 0: mixed
    values[32:64] = 1                       # group 1: all true; group 2: all false
    bufs = c.glGenBuffers(2)
    c.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, bufs[0])
    c.glBufferData(E.GL_SHADER_STORAGE_BUFFER, values.nbytes, values, E.GL_STATIC_DRAW)
    c.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
    c.glBufferData(E.GL_SHADER_STORAGE_BUFFER, values.nbytes, None, E.GL_DYNAMIC_COPY)
    c.glDispatchCompute(3, 1, 1)
    c.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    got = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, values.nbytes)), np.uint32)
    assert c.glGetError() == E.GL_NO_ERROR
    expected = np.repeat(np.array([1, 1 | 2 | 4, 4], np.uint32), 32)
    assert (got == expected).all(), got
