"""SPIR-V instructions of the front end checked one by one through GL (driver.Context("gl46")):
GLSL.std.450 Modf/Frexp with pointer operands and their Struct forms (against numpy),
OpImageDrefGather (against the depth comparisons by hand). Modules assembled with spirv-as."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.compiler.spirv.spirv_asm import HEADER, PASS_VS, TYPES, assemble, needs_spirv_as
from tests.driver.gl.helpers import link_and_use as program
from tests.driver.gl.spirv_helpers import compiled as shader

pytestmark = needs_spirv_as


def _store(k, value):
    return f"""%o{k} = OpIAdd %uint %base %uint_{k}
%po{k} = OpAccessChain %p_sb_f %out %int_0 %o{k}
OpStore %po{k} {value}
"""


# out[8 i ..]: Modf's fraction and whole part (through a pointer), Frexp's significand and
# exponent (through a pointer), then the same from ModfStruct and FrexpStruct
MODF_FREXP_CS = HEADER + """OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rta ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf BufferBlock
OpDecorate %in Binding 0
OpDecorate %out Binding 1
""" + TYPES + "".join(f"%uint_{k} = OpConstant %uint {k}\n" for k in range(2, 9)) + """%rta = OpTypeRuntimeArray %float
%Buf = OpTypeStruct %rta
%p_buf = OpTypePointer Uniform %Buf
%in = OpVariable %p_buf Uniform
%out = OpVariable %p_buf Uniform
%p_sb_f = OpTypePointer Uniform %float
%p_in_v3 = OpTypePointer Input %v3uint
%gid = OpVariable %p_in_v3 Input
%p_fn_f = OpTypePointer Function %float
%p_fn_i = OpTypePointer Function %int
%ModfS = OpTypeStruct %float %float
%FrexpS = OpTypeStruct %float %int
%main = OpFunction %void None %fn
%entry = OpLabel
%wv = OpVariable %p_fn_f Function
%ev = OpVariable %p_fn_i Function
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%pin = OpAccessChain %p_sb_f %in %int_0 %i
%x = OpLoad %float %pin
%fr = OpExtInst %float %std Modf %x %wv
%w = OpLoad %float %wv
%m = OpExtInst %float %std Frexp %x %ev
%e = OpLoad %int %ev
%ef = OpBitcast %float %e
%ms = OpExtInst %ModfS %std ModfStruct %x
%ms0 = OpCompositeExtract %float %ms 0
%ms1 = OpCompositeExtract %float %ms 1
%fs = OpExtInst %FrexpS %std FrexpStruct %x
%fs0 = OpCompositeExtract %float %fs 0
%fs1 = OpCompositeExtract %int %fs 1
%fs1f = OpBitcast %float %fs1
%base = OpIMul %uint %i %uint_8
""" + _store(0, "%fr") + _store(1, "%w") + _store(2, "%m") + _store(3, "%ef") \
    + _store(4, "%ms0") + _store(5, "%ms1") + _store(6, "%fs0") + _store(7, "%fs1f") + """OpReturn
OpFunctionEnd
"""


def test_modf_and_frexp_with_pointers_and_structs():
    c = driver.Context(api="gl46", width=4, height=4)
    program(c, shader(c, E.GL_COMPUTE_SHADER, MODF_FREXP_CS))
    x = np.array([2.5, -3.75, 0.0, 1024.0, 0.15625, -0.5, 7.0, 123.456], np.float32)
    bufs = c.glGenBuffers(2)
    c.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, bufs[0])
    c.glBufferData(E.GL_SHADER_STORAGE_BUFFER, x.nbytes, x, E.GL_STATIC_DRAW)
    c.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
    c.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 8 * x.nbytes, None, E.GL_DYNAMIC_COPY)
    c.glDispatchCompute(1, 1, 1)
    c.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    raw = bytes(c.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 8 * x.nbytes))
    assert c.glGetError() == E.GL_NO_ERROR
    f = np.frombuffer(raw, np.float32).reshape(8, 8)
    n = np.frombuffer(raw, np.int32).reshape(8, 8)
    fraction, whole = np.modf(x)
    significand, exponent = np.frexp(x)
    for cols in ((0, 1, 2, 3), (4, 5, 6, 7)):         # pointer forms, struct forms
        np.testing.assert_array_equal(f[:, cols[0]], fraction)
        np.testing.assert_array_equal(f[:, cols[1]], whole)
        np.testing.assert_array_equal(f[:, cols[2]], significand)
        np.testing.assert_array_equal(n[:, cols[3]], exponent)


def test_imix_is_refused_with_a_reason():
    c = driver.Context(api="gl46", width=4, height=4)
    text = HEADER + 'OpEntryPoint GLCompute %main "main"\nOpExecutionMode %main LocalSize 1 1 1\n' + TYPES + \
        "%main = OpFunction %void None %fn\n%l = OpLabel\n%m = OpExtInst %int %std IMix %int_0 %int_1 %int_1\n" \
        "OpReturn\nOpFunctionEnd\n"
    s = c.glCreateShader(E.GL_COMPUTE_SHADER)
    data = assemble(text)
    c.glShaderBinary(1, [s], E.GL_SHADER_BINARY_FORMAT_SPIR_V, data, len(data))
    c.glSpecializeShader(s, "main", 0, [], [])
    assert c.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    assert "IMix" in c.glGetShaderInfoLog(s)


# colour = the four depth comparisons of textureGather(sampler2DShadow, (0.5, 0.5), 0.5)
DREF_GATHER_FS = HEADER + """OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %out Location 0
OpDecorate %tex Binding 0
""" + TYPES + """%img = OpTypeImage %float 2D 1 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%p_simg = OpTypePointer UniformConstant %simg
%tex = OpVariable %p_simg UniformConstant
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%half = OpConstant %float 0.5
%uv = OpConstantComposite %v2float %half %half
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpLoad %simg %tex
%g = OpImageDrefGather %v4float %s %uv %half
OpStore %out %g
OpReturn
OpFunctionEnd
"""


def test_image_dref_gather():
    c = driver.Context(api="gl46", width=4, height=4)
    program(c, shader(c, E.GL_VERTEX_SHADER, PASS_VS), shader(c, E.GL_FRAGMENT_SHADER, DREF_GATHER_FS))
    depth = np.array([[0.25, 0.75], [0.4, 0.9]], np.float32)        # rows j = 0, 1
    t = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT32F, 2, 2, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth)
    for pname, value in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                         (E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE),
                         (E.GL_TEXTURE_COMPARE_FUNC, E.GL_LEQUAL)):
        c.glTexParameteri(E.GL_TEXTURE_2D, pname, value)
    vao = c.glGenVertexArrays(1)[0]
    c.glBindVertexArray(vao)
    buf = c.glGenBuffers(1)[0]
    c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    v = np.array([-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1], np.float32)
    c.glBufferData(E.GL_ARRAY_BUFFER, v.nbytes, v.tobytes(), E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    c.glEnableVertexAttribArray(0)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    px = np.asarray(c.read_pixels()).astype(int)
    # gather order: (i0, j1), (i1, j1), (i1, j0), (i0, j0); LEQUAL: 0.5 <= depth
    expected = [255 * int(0.5 <= d) for d in (depth[1, 0], depth[1, 1], depth[0, 1], depth[0, 0])]
    assert (px == expected).all(), px[0, 0]


# 16 invocations on an r32ui image through OpImageTexelPointer: AtomicIAdd 1 at (x % 4, 0),
# AtomicUMax x at (0, 1), AtomicIIncrement at (1, 1); the old value of the add of invocation
# x goes to buffer word x
IMAGE_ATOMICS_CS = HEADER + """OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %img Binding 0
OpDecorate %rta ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf BufferBlock
OpDecorate %out Binding 1
""" + TYPES + """%uint_4 = OpConstant %uint 4
%v2int = OpTypeVector %int 2
%im = OpTypeImage %uint 2D 0 0 0 2 R32ui
%p_im = OpTypePointer UniformConstant %im
%img = OpVariable %p_im UniformConstant
%p_img_u = OpTypePointer Image %uint
%rta = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rta
%p_buf = OpTypePointer Uniform %Buf
%out = OpVariable %p_buf Uniform
%p_u_u = OpTypePointer Uniform %uint
%p_in_v3 = OpTypePointer Input %v3uint
%gid = OpVariable %p_in_v3 Input
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%x = OpCompositeExtract %uint %g 0
%xm = OpUMod %uint %x %uint_4
%xi = OpBitcast %int %xm
%c0 = OpCompositeConstruct %v2int %xi %int_0
%t0 = OpImageTexelPointer %p_img_u %img %c0 %uint_0
%old = OpAtomicIAdd %uint %t0 %uint_1 %uint_0 %uint_1
%po = OpAccessChain %p_u_u %out %int_0 %x
OpStore %po %old
%c1 = OpCompositeConstruct %v2int %int_0 %int_1
%t1 = OpImageTexelPointer %p_img_u %img %c1 %uint_0
%r1 = OpAtomicUMax %uint %t1 %uint_1 %uint_0 %x
%c2 = OpCompositeConstruct %v2int %int_1 %int_1
%t2 = OpImageTexelPointer %p_img_u %img %c2 %uint_0
%r2 = OpAtomicIIncrement %uint %t2 %uint_1 %uint_0
OpReturn
OpFunctionEnd
"""


def test_image_atomics_through_texel_pointers():
    c = driver.Context(api="gl46", width=4, height=4)
    program(c, shader(c, E.GL_COMPUTE_SHADER, IMAGE_ATOMICS_CS))
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    c.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_R32UI, 4, 4)
    c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 4, 4, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT, np.zeros(16, np.uint32))
    c.glBindImageTexture(0, tex, 0, False, 0, E.GL_READ_WRITE, E.GL_R32UI)
    buf = c.glGenBuffers(1)[0]
    c.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, buf)
    c.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 64, None, E.GL_DYNAMIC_COPY)
    c.glDispatchCompute(1, 1, 1)
    c.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    got = np.frombuffer(bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT)),
                        np.uint32).reshape(4, 4)
    old = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 64)), np.uint32)
    assert c.glGetError() == E.GL_NO_ERROR
    expected = np.zeros((4, 4), np.uint32)
    expected[0, :] = 4              # four invocations add 1 at each (x % 4, 0)
    expected[1, 0] = 15             # the largest x
    expected[1, 1] = 16             # every invocation increments
    np.testing.assert_array_equal(got, expected)
    for column in range(4):         # the old values of one texel's adds are 0, 1, 2, 3 in some order
        assert sorted(old[column::4]) == [0, 1, 2, 3]


# colour = ((InterpolateAtOffset(in.x, (0.5, 0)) - in.x) * 16, InterpolateAtCentroid(in).x - in.x + 0.5,
#           InterpolateAtSample(in, 0).x - in.x + 0.5, 1) for in.x running 0 -> 1 over 16 columns
INTERPOLATE_FS = """OpCapability Shader
OpCapability InterpolationFunction
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %in Location 0
OpDecorate %out Location 0
""" + TYPES + """%f16 = OpConstant %float 16
%half = OpConstant %float 0.5
%off = OpConstantComposite %v2float %half %float_0
%p_in_v4 = OpTypePointer Input %v4float
%p_in_f = OpTypePointer Input %float
%in = OpVariable %p_in_v4 Input
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
%v4 = OpLoad %v4float %in
%v = OpCompositeExtract %float %v4 0
%pin_x = OpAccessChain %p_in_f %in %int_0
%o = OpExtInst %float %std InterpolateAtOffset %pin_x %off
%d = OpFSub %float %o %v
%r = OpFMul %float %d %f16
%c4 = OpExtInst %v4float %std InterpolateAtCentroid %in
%cx = OpCompositeExtract %float %c4 0
%gd = OpFSub %float %cx %v
%g = OpFAdd %float %gd %half
%s4 = OpExtInst %v4float %std InterpolateAtSample %in %int_0
%sx = OpCompositeExtract %float %s4 0
%bd = OpFSub %float %sx %v
%b = OpFAdd %float %bd %half
%col = OpCompositeConstruct %v4float %r %g %b %float_1
OpStore %out %col
OpReturn
OpFunctionEnd
"""

# position (location 0) to gl_Position, location 1 to output location 0
ATTRIBUTE_VS = PASS_VS.replace('%main "main" %pv %pos', '%main "main" %pv %pos %a %va').replace(
    "OpDecorate %pos Location 0\n", "OpDecorate %pos Location 0\nOpDecorate %a Location 1\nOpDecorate %va Location 0\n"
).replace("%pos = OpVariable %p_in_v4 Input\n", "%pos = OpVariable %p_in_v4 Input\n%a = OpVariable %p_in_v4 Input\n"
          "%p_out_v4_ = OpTypePointer Output %v4float\n%va = OpVariable %p_out_v4_ Output\n").replace(
    "OpStore %dst %v\n", "OpStore %dst %v\n%av = OpLoad %v4float %a\nOpStore %va %av\n")


def test_interpolation_functions():
    c = driver.Context(api="gl46", width=16, height=16)
    program(c, shader(c, E.GL_VERTEX_SHADER, ATTRIBUTE_VS), shader(c, E.GL_FRAGMENT_SHADER, INTERPOLATE_FS))
    vao = c.glGenVertexArrays(1)[0]
    c.glBindVertexArray(vao)
    pos = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, 1, 0, 1]], np.float32)
    ramp = np.array([[0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]], np.float32)   # x: 0 -> 1
    for loc, data in ((0, pos), (1, ramp)):
        buf = c.glGenBuffers(1)[0]
        c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        c.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
        c.glVertexAttribPointer(loc, 4, E.GL_FLOAT, False, 0, 0)
        c.glEnableVertexAttribArray(loc)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    px = np.asarray(c.read_pixels()).astype(int)
    # half a pixel to the right adds 0.5 / 16 of the ramp; the centroid and sample 0 of a
    # single-sampled, fully covered pixel are its centre
    assert (np.abs(px - [128, 128, 128, 255]) <= 1).all(), px[0]
