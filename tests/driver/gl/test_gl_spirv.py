"""SPIR-V shaders through the GL entry points (GL 4.6 sections 7.2.1-7.2.2,
ARB_gl_spirv) on driver.Context("gl46"): glShaderBinary + glSpecializeShader,
linking by location and binding, drawing and dispatching on the software GPU.
Inputs are SPIR-V assembly assembled with spirv-as; values are checked against
numpy / hand-computed results."""

import struct

import numpy as np
import pytest

from driver.gl import enums as E
from tests.compiler.spirv.spirv_asm import HEADER, PASS_VS, TYPES, assemble, needs_spirv_as
from tests.driver.gl.helpers import link_and_use as program

pytestmark = needs_spirv_as
W = H = 16


@pytest.fixture
def ctx():
    import driver
    return driver.Context(api="gl46", width=W, height=H)


def spirv_shader(c, kind, text, entry="main", spec=None):
    s = c.glCreateShader(kind)
    data = assemble(text)
    c.glShaderBinary(1, [s], E.GL_SHADER_BINARY_FORMAT_SPIR_V, data, len(data))
    assert c.glGetShaderiv(s, E.GL_SPIR_V_BINARY) == [1]
    assert c.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    spec = spec or {}
    c.glSpecializeShader(s, entry, len(spec), list(spec), list(spec.values()))
    assert c.glGetError() == E.GL_NO_ERROR
    return s


def draw_quad(c):
    vao = c.glGenVertexArrays(1)[0]
    c.glBindVertexArray(vao)
    buf = c.glGenBuffers(1)[0]
    c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    v = np.array([-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1], np.float32)
    c.glBufferData(E.GL_ARRAY_BUFFER, v.nbytes, v.tobytes(), E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    c.glEnableVertexAttribArray(0)
    c.glClearColor(1, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    return np.asarray(c.read_pixels()).astype(int)


def unorm(v):
    return np.round(np.clip(np.asarray(v, float), 0, 1) * 255).astype(int)


# A fragment shader: colour = f(texture(s, (0.25, 0.75)) * ubo.scale) + ubo.bias, with f(x) = x * 0.5
# in a function of its own; the UBO (binding 2) has explicit offsets 0 and 16.
UBO_SAMPLER_FS = HEADER + """OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %out Location 0
OpMemberDecorate %Ubo 0 Offset 0
OpMemberDecorate %Ubo 1 Offset 16
OpDecorate %Ubo Block
OpDecorate %ubo Binding 2
OpDecorate %ubo DescriptorSet 0
OpDecorate %tex Binding 3
OpDecorate %tex DescriptorSet 0
""" + TYPES + """%Ubo = OpTypeStruct %v4float %float
%p_ubo = OpTypePointer Uniform %Ubo
%ubo = OpVariable %p_ubo Uniform
%p_u_v4 = OpTypePointer Uniform %v4float
%p_u_f = OpTypePointer Uniform %float
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%p_simg = OpTypePointer UniformConstant %simg
%tex = OpVariable %p_simg UniformConstant
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%half = OpConstant %float 0.5
%q = OpConstant %float 0.25
%tq = OpConstant %float 0.75
%uv = OpConstantComposite %v2float %q %tq
%fn_v4 = OpTypeFunction %v4float %v4float
%halve = OpFunction %v4float None %fn_v4
%x = OpFunctionParameter %v4float
%hl = OpLabel
%hx = OpVectorTimesScalar %v4float %x %half
OpReturnValue %hx
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpLoad %simg %tex
%t = OpImageSampleImplicitLod %v4float %s %uv
%ps = OpAccessChain %p_u_v4 %ubo %int_0
%scale = OpLoad %v4float %ps
%ts = OpFMul %v4float %t %scale
%h = OpFunctionCall %v4float %halve %ts
%pb = OpAccessChain %p_u_f %ubo %int_1
%bias = OpLoad %float %pb
%bv = OpCompositeConstruct %v4float %bias %bias %bias %bias
%r = OpFAdd %v4float %h %bv
OpStore %out %r
OpReturn
OpFunctionEnd
"""


def test_quad_with_a_uniform_block_a_sampler_and_a_call(ctx):
    c = ctx
    p = program(c, spirv_shader(c, E.GL_VERTEX_SHADER, PASS_VS), spirv_shader(c, E.GL_FRAGMENT_SHADER, UBO_SAMPLER_FS))
    # the block's size from its explicit layout: float at 16 ends at 20, rounded to a vec4
    assert c.glGetActiveUniformBlockiv(p, 0, E.GL_UNIFORM_BLOCK_DATA_SIZE) == [32]
    assert c.glGetActiveUniformBlockiv(p, 0, E.GL_UNIFORM_BLOCK_BINDING) == [2]
    texels = np.array([[[255, 0, 0, 255], [0, 255, 0, 255]],
                       [[0, 0, 255, 255], [255, 255, 255, 255]]], np.uint8)    # rows bottom to top
    c.glActiveTexture(E.GL_TEXTURE3)
    t = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels.tobytes())
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ubo = np.zeros(8, np.float32)
    ubo[0:4] = [1.0, 0.5, 1.0, 1.0]      # scale
    ubo[4] = 0.25                       # bias at offset 16
    b = c.glGenBuffers(1)[0]
    c.glBindBufferBase(E.GL_UNIFORM_BUFFER, 2, b)
    c.glBufferData(E.GL_UNIFORM_BUFFER, ubo.nbytes, ubo.tobytes(), E.GL_STATIC_DRAW)
    px = draw_quad(c)
    # (0.25, 0.75) is texel (0, 1): blue. (0, 0, 1, 1) * scale * 0.5 + 0.25
    expected = unorm(np.array([0, 0, 1, 1]) * ubo[:4] * 0.5 + 0.25)
    assert (np.abs(px - expected) <= 1).all(), px[8, 8]


# A fragment shader whose colour comes from specialization constants (SpecId 5, 6, 7) and a
# selection on a spec-constant comparison (SpecId 0 != 42 -> red).
SPEC_FS = HEADER + """OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %out Location 0
OpDecorate %magic SpecId 0
OpDecorate %r SpecId 5
OpDecorate %g SpecId 6
OpDecorate %b SpecId 7
""" + TYPES + """%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%magic = OpSpecConstant %uint 0
%uint_42 = OpConstant %uint 42
%wrong = OpSpecConstantOp %bool INotEqual %magic %uint_42
%r = OpSpecConstant %float 0.5
%g = OpSpecConstant %float 0.5
%b = OpSpecConstant %float 0.5
%red = OpConstantComposite %v4float %float_1 %float_0 %float_0 %float_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %wrong %bad %good
%bad = OpLabel
OpStore %out %red
OpBranch %merge
%good = OpLabel
%col = OpCompositeConstruct %v4float %r %g %b %float_1
OpStore %out %col
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
"""


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


@pytest.mark.parametrize("spec, expected", [
    ({0: 42, 5: f32_bits(0.0), 6: f32_bits(1.0), 7: f32_bits(0.25)}, [0.0, 1.0, 0.25, 1.0]),
    ({0: 42}, [0.5, 0.5, 0.5, 1.0]),                    # the defaults
    ({0: 7, 6: f32_bits(1.0)}, [1.0, 0.0, 0.0, 1.0]),  # the comparison picks the other branch
])
def test_specialization_constants(ctx, spec, expected):
    c = ctx
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, PASS_VS), spirv_shader(c, E.GL_FRAGMENT_SHADER, SPEC_FS,
                                                                           spec=spec))
    px = draw_quad(c)
    assert (np.abs(px[8, 8] - unorm(expected)) <= 1).all(), px[8, 8]


# A compute shader: buf[x] = sqrt(buf[x] + k * (sum of the even i < x)), x = gl_GlobalInvocationID.x,
# k a specialization constant (SpecId 3); the loop has a phi per variable and a continue taken from
# inside a selection; the SSBO (binding 1) is a runtime array of floats.
COMPUTE = HEADER + """OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rt ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf BufferBlock
OpDecorate %buf Binding 1
OpDecorate %buf DescriptorSet 0
OpDecorate %k SpecId 3
""" + TYPES + """%p_in_v3u = OpTypePointer Input %v3uint
%gid = OpVariable %p_in_v3u Input
%p_in_u = OpTypePointer Input %uint
%rt = OpTypeRuntimeArray %float
%Buf = OpTypeStruct %rt
%p_buf = OpTypePointer Uniform %Buf
%buf = OpVariable %p_buf Uniform
%p_u_f = OpTypePointer Uniform %float
%k = OpSpecConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%px = OpAccessChain %p_in_u %gid %uint_0
%x = OpLoad %uint %px
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %inext %cont
%acc = OpPhi %uint %uint_0 %entry %accn %cont
OpLoopMerge %merge %cont None
OpBranch %check
%check = OpLabel
%more = OpULessThan %bool %i %x
OpBranchConditional %more %body %merge
%body = OpLabel
%bit = OpBitwiseAnd %uint %i %uint_1
%odd = OpIEqual %bool %bit %uint_1
OpSelectionMerge %even None
OpBranchConditional %odd %cont %even
%even = OpLabel
%acc2 = OpIAdd %uint %acc %i
OpBranch %cont
%cont = OpLabel
%accn = OpPhi %uint %acc %body %acc2 %even
%inext = OpIAdd %uint %i %uint_1
OpBranch %header
%merge = OpLabel
%sumf = OpConvertUToF %float %acc
%scaled = OpFMul %float %sumf %k
%p = OpAccessChain %p_u_f %buf %int_0 %x
%old = OpLoad %float %p
%sum = OpFAdd %float %old %scaled
%root = OpExtInst %float %std Sqrt %sum
OpStore %p %root
OpReturn
OpFunctionEnd
"""


@pytest.mark.parametrize("k", [1.0, 3.0])
def test_compute_shader_writes_a_storage_buffer(ctx, k):
    c = ctx
    program(c, spirv_shader(c, E.GL_COMPUTE_SHADER, COMPUTE, spec={3: f32_bits(k)}))
    data = np.arange(8, dtype=np.float32) * 2.0
    b = c.glGenBuffers(1)[0]
    c.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, b)
    c.glBufferData(E.GL_SHADER_STORAGE_BUFFER, data.nbytes, data.tobytes(), E.GL_DYNAMIC_COPY)
    c.glDispatchCompute(1, 1, 1)
    c.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    out = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, data.nbytes)), np.float32)
    evens = np.array([sum(i for i in range(x) if i % 2 == 0) for x in range(8)], np.float32)
    np.testing.assert_allclose(out, np.sqrt(data + k * evens), rtol=1e-6)


def test_errors_and_info_log(ctx):
    c = ctx
    s = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glSpecializeShader(s, "main", 0, [], [])          # no SPIR-V module
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glShaderBinary(1, [s], E.GL_SHADER_BINARY_FORMAT_SPIR_V, b"\x01\x02\x03\x04", 4)
    assert c.glGetError() == E.GL_NO_ERROR
    c.glCompileShader(s)                                # SPIR-V is specialized, not compiled
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glSpecializeShader(s, "main", 0, [], [])
    assert c.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    assert "shorter than its 5-word header" in c.glGetShaderInfoLog(s)
    data = assemble(SPEC_FS)
    for entry, spec, message in (("other", {}, 'no fragment entry point named "other"'),
                                 ("main", {9: 1}, "specialization constant 9 does not exist")):
        s = c.glCreateShader(E.GL_FRAGMENT_SHADER)
        c.glShaderBinary(1, [s], E.GL_SHADER_BINARY_FORMAT_SPIR_V, data, len(data))
        c.glSpecializeShader(s, entry, len(spec), list(spec), list(spec.values()))
        assert c.glGetError() == E.GL_NO_ERROR
        assert c.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
        assert message in c.glGetShaderInfoLog(s)
    # a vertex module in a fragment shader object has no fragment entry point
    s = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    vs = assemble(PASS_VS)
    c.glShaderBinary(1, [s], E.GL_SHADER_BINARY_FORMAT_SPIR_V, vs, len(vs))
    c.glSpecializeShader(s, "main", 0, [], [])
    assert c.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    # specialized once: a second glSpecializeShader is an error
    s = spirv_shader(c, E.GL_FRAGMENT_SHADER, SPEC_FS)
    c.glSpecializeShader(s, "main", 0, [], [])
    assert c.glGetError() == E.GL_INVALID_OPERATION
    # glShaderSource makes it a GLSL shader again
    c.glShaderSource(s, 1, ["#version 450\nvoid main() {}\n"])
    assert c.glGetShaderiv(s, E.GL_SPIR_V_BINARY) == [0]
    # a program may not mix SPIR-V and GLSL objects
    g = c.glCreateShader(E.GL_VERTEX_SHADER)
    c.glShaderSource(g, 1, ["#version 450\nlayout(location=0) in vec4 p; void main() { gl_Position = p; }\n"])
    c.glCompileShader(g)
    p = c.glCreateProgram()
    c.glAttachShader(p, g)
    c.glAttachShader(p, spirv_shader(c, E.GL_FRAGMENT_SHADER, SPEC_FS))
    c.glLinkProgram(p)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
    assert "mix SPIR-V and GLSL" in c.glGetProgramInfoLog(p)


@pytest.mark.parametrize("api, error", [("gl32", E.GL_INVALID_ENUM), ("gles32", E.GL_INVALID_ENUM),
                                        ("gl43", E.GL_NO_ERROR), ("gl46", E.GL_NO_ERROR)])
def test_spirv_needs_gl46_or_the_extension(api, error):
    """SPIR-V binaries come with GL 4.6 or GL_ARB_gl_spirv, listed from GL 3.3 (which it
    requires): a 3.2 core or GLES context refuses the binary format."""
    import driver
    c = driver.Context(api=api, width=4, height=4)
    s = c.glCreateShader(E.GL_VERTEX_SHADER)
    data = assemble(PASS_VS)
    c.glShaderBinary(1, [s], E.GL_SHADER_BINARY_FORMAT_SPIR_V, data, len(data))
    assert c.glGetError() == error


def test_queries_of_the_binary_format_and_spirv_extensions():
    import driver
    c = driver.Context(api="gl46", width=4, height=4)
    assert c.glGetIntegerv(E.GL_NUM_SHADER_BINARY_FORMATS) == [1]
    assert c.glGetIntegerv(E.GL_SHADER_BINARY_FORMATS) == [E.GL_SHADER_BINARY_FORMAT_SPIR_V]
    assert c.glGetIntegerv(E.GL_NUM_SPIR_V_EXTENSIONS) == [3]        # (test_gl_spirv_extensions.py)
    c.glGetStringi(E.GL_SPIR_V_EXTENSIONS, 3)
    assert c.glGetError() == E.GL_INVALID_VALUE
    old = driver.Context(api="gl32", width=4, height=4)         # (below GL_ARB_gl_spirv's 3.3)
    assert old.glGetIntegerv(E.GL_NUM_SHADER_BINARY_FORMATS) == [0]
    old.glGetIntegerv(E.GL_NUM_SPIR_V_EXTENSIONS)
    assert old.glGetError() == E.GL_INVALID_ENUM
    old.glGetStringi(E.GL_SPIR_V_EXTENSIONS, 0)
    assert old.glGetError() == E.GL_INVALID_ENUM


def test_every_element_of_an_array_of_blocks_has_the_members_as_active_variables():
    """GL 4.6 section 7.3.1: the members of an array of blocks are listed once, and each
    element (B[0], B[1]) has them as its active variables (piglit's arb_gl_spirv ubo/array
    and ssbo/aoa query element 1)."""
    import driver
    c = driver.Context(api="gl46", width=4, height=4)
    fs = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glShaderSource(fs, 1, ["#version 450\nlayout(std140, binding = 1) uniform B { vec4 a; vec4 b; } blocks[2];\n"
                             "layout(location = 0) out vec4 o;\nvoid main() { o = blocks[0].a + blocks[1].b; }\n"])
    c.glCompileShader(fs)
    vs = c.glCreateShader(E.GL_VERTEX_SHADER)
    c.glShaderSource(vs, 1, ["#version 450\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n"])
    c.glCompileShader(vs)
    p = program(c, vs, fs)
    for name in ("B[0]", "B[1]"):
        i = c.glGetProgramResourceIndex(p, E.GL_UNIFORM_BLOCK, name)
        n, variables = (c.glGetProgramResourceiv(p, E.GL_UNIFORM_BLOCK, i, 1, [q], 8)
                        for q in (E.GL_NUM_ACTIVE_VARIABLES, E.GL_ACTIVE_VARIABLES))
        assert list(n) == [2], name
        names = {c.glGetProgramResourceName(p, E.GL_UNIFORM, v, 64) for v in variables}
        assert names == {"B.a", "B.b"}, (name, names)


# A fragment shader whose colour is a uniform with an initializer (a constant struct) at location 3
INITIALIZER_FS = HEADER + """OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %out Location 0
OpDecorate %u Location 3
""" + TYPES + """%S = OpTypeStruct %v4float %float
%p_uc_S = OpTypePointer UniformConstant %S
%p_uc_v4 = OpTypePointer UniformConstant %v4float
%p_uc_f = OpTypePointer UniformConstant %float
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%q = OpConstant %float 0.25
%h = OpConstant %float 0.5
%colour = OpConstantComposite %v4float %q %h %float_1 %float_1
%init = OpConstantComposite %S %colour %h
%u = OpVariable %p_uc_S UniformConstant %init
%main = OpFunction %void None %fn
%entry = OpLabel
%pc = OpAccessChain %p_uc_v4 %u %int_0
%c = OpLoad %v4float %pc
%ps = OpAccessChain %p_uc_f %u %int_1
%k = OpLoad %float %ps
%r = OpVectorTimesScalar %v4float %c %k
OpStore %out %r
OpReturn
OpFunctionEnd
"""


def test_uniform_initializer_and_location(ctx):
    c = ctx
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, PASS_VS), spirv_shader(c, E.GL_FRAGMENT_SHADER, INITIALIZER_FS))
    px = draw_quad(c)
    assert (np.abs(px[8, 8] - unorm(np.array([0.25, 0.5, 1.0, 1.0]) * 0.5)) <= 1).all(), px[8, 8]
    c.glUniform1f(4, 2.0)           # member 1 of the struct at location 3 is location 4
    px = draw_quad(c)
    assert (np.abs(px[8, 8] - unorm(np.array([0.25, 0.5, 1.0, 1.0]) * 2.0)) <= 1).all(), px[8, 8]


# A compute shader: every invocation increments the atomic counter at binding 0, offset 4, and
# decrements the one at offset 8 (OpAtomicIDecrement returns the value before, as SPIR-V says)
ATOMIC_COMPUTE = HEADER.replace("OpCapability Shader\n", "OpCapability Shader\nOpCapability AtomicStorage\n") + \
    """OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %up Offset 4
OpDecorate %up Binding 0
OpDecorate %down Offset 8
OpDecorate %down Binding 0
""" + TYPES + """%p_ac_u = OpTypePointer AtomicCounter %uint
%up = OpVariable %p_ac_u AtomicCounter
%down = OpVariable %p_ac_u AtomicCounter
%device = OpConstant %uint 1
%relaxed = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpAtomicIIncrement %uint %up %device %relaxed
%b = OpAtomicIDecrement %uint %down %device %relaxed
OpReturn
OpFunctionEnd
"""


def test_atomic_counters(ctx):
    c = ctx
    program(c, spirv_shader(c, E.GL_COMPUTE_SHADER, ATOMIC_COMPUTE))
    data = np.array([5, 10, 100, 7], np.uint32)
    b = c.glGenBuffers(1)[0]
    c.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, b)
    c.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, data.nbytes, data.tobytes(), E.GL_DYNAMIC_COPY)
    c.glDispatchCompute(2, 1, 1)                    # 16 invocations
    c.glMemoryBarrier(E.GL_ATOMIC_COUNTER_BARRIER_BIT)
    out = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, data.nbytes)), np.uint32)
    assert list(out) == [5, 10 + 16, 100 - 16, 7]


# A fragment shader reading element `idx` (a uniform at location 0) of an array of 3 uniform
# blocks at bindings 1, 2, 3
UBO_ARRAY_FS = HEADER + """OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %out Location 0
OpDecorate %idx Location 0
OpMemberDecorate %Blk 0 Offset 0
OpDecorate %Blk Block
OpDecorate %ubos Binding 1
OpDecorate %ubos DescriptorSet 0
""" + TYPES + """%uint_3 = OpConstant %uint 3
%Blk = OpTypeStruct %v4float
%arr = OpTypeArray %Blk %uint_3
%p_arr = OpTypePointer Uniform %arr
%ubos = OpVariable %p_arr Uniform
%p_u_v4 = OpTypePointer Uniform %v4float
%p_uc_i = OpTypePointer UniformConstant %int
%idx = OpVariable %p_uc_i UniformConstant
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%pc = OpAccessChain %p_u_v4 %ubos %i %int_0
%col = OpLoad %v4float %pc
OpStore %out %col
OpReturn
OpFunctionEnd
"""


@pytest.mark.parametrize("idx", [0, 2])
def test_array_of_uniform_blocks_indexed_dynamically(ctx, idx):
    c = ctx
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, PASS_VS), spirv_shader(c, E.GL_FRAGMENT_SHADER, UBO_ARRAY_FS))
    colours = [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]]
    for k, col in enumerate(colours):
        b = c.glGenBuffers(1)[0]
        c.glBindBufferBase(E.GL_UNIFORM_BUFFER, 1 + k, b)
        data = np.array(col, np.float32)
        c.glBufferData(E.GL_UNIFORM_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    c.glUniform1i(0, idx)
    px = draw_quad(c)
    assert (px[8, 8] == unorm(colours[idx])).all(), px[8, 8]


def test_program_binary_of_a_spirv_program(ctx):
    """glGetProgramBinary keeps each module with its entry point and specialization
    constants; glProgramBinary specializes them again (the colour comes from the
    constants, not the defaults)."""
    c = ctx
    spec = {0: 42, 5: f32_bits(0.0), 6: f32_bits(1.0), 7: f32_bits(0.25)}
    p = program(c, spirv_shader(c, E.GL_VERTEX_SHADER, PASS_VS), spirv_shader(c, E.GL_FRAGMENT_SHADER, SPEC_FS,
                                                                               spec=spec))
    length = c.glGetProgramiv(p, E.GL_PROGRAM_BINARY_LENGTH)[0]
    n, fmt, data = c.glGetProgramBinary(p, length)
    restored = c.glCreateProgram()
    c.glProgramBinary(restored, fmt, data, n)
    assert c.glGetError() == E.GL_NO_ERROR
    assert c.glGetProgramiv(restored, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(restored)
    c.glUseProgram(restored)
    px = draw_quad(c)
    assert (np.abs(px[8, 8] - unorm([0.0, 1.0, 0.25, 1.0])) <= 1).all(), px[8, 8]
    # a module damaged inside an intact binary: not linked, the reason in the log
    from dataclasses import replace
    from driver.gl.binary import pack, unpack
    image = unpack(data, c.api.name)
    assert len(image.spirv) == 2
    bad = pack(replace(image, spirv=tuple((i, b"\x00" * 8, e, s) for i, _m, e, s in image.spirv)), c.api.name)
    again = c.glCreateProgram()
    c.glProgramBinary(again, fmt, bad, len(bad))
    assert c.glGetProgramiv(again, E.GL_LINK_STATUS) == [0]
    assert "does not specialize" in c.glGetProgramInfoLog(again)


# An array of arrays of atomic counters a[2][3] at binding 0, offset 4: each invocation
# increments a[1][2] and decrements a[0][1]
ATOMIC_AOA_COMPUTE = HEADER.replace("OpCapability Shader\n", "OpCapability Shader\nOpCapability AtomicStorage\n") + \
    """OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %a Offset 4
OpDecorate %a Binding 0
""" + TYPES + """%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%int_2 = OpConstant %int 2
%arr3 = OpTypeArray %uint %uint_3
%arr23 = OpTypeArray %arr3 %uint_2
%p_ac_arr = OpTypePointer AtomicCounter %arr23
%a = OpVariable %p_ac_arr AtomicCounter
%p_ac_u = OpTypePointer AtomicCounter %uint
%device = OpConstant %uint 1
%relaxed = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
%up = OpAccessChain %p_ac_u %a %int_1 %int_2
%x = OpAtomicIIncrement %uint %up %device %relaxed
%down = OpAccessChain %p_ac_u %a %int_0 %int_1
%y = OpAtomicIDecrement %uint %down %device %relaxed
OpReturn
OpFunctionEnd
"""


def test_array_of_arrays_of_atomic_counters(ctx):
    """One active uniform per innermost array (a[0][0] and a[1][0], 3 counters each,
    GL 4.6 section 7.3.1.1); the counters are consecutive from the offset."""
    c = ctx
    p = program(c, spirv_shader(c, E.GL_COMPUTE_SHADER, ATOMIC_AOA_COMPUTE))
    assert c.glGetProgramiv(p, E.GL_ACTIVE_UNIFORMS) == [2]
    sizes = c.glGetActiveUniformsiv(p, 2, [0, 1], E.GL_UNIFORM_SIZE)
    offsets = c.glGetActiveUniformsiv(p, 2, [0, 1], E.GL_UNIFORM_OFFSET)
    assert list(sizes) == [3, 3] and sorted(offsets) == [4, 16]
    data = np.arange(7, dtype=np.uint32) * 10 + 50        # word 0, then a[0][0] .. a[1][2]
    b = c.glGenBuffers(1)[0]
    c.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, b)
    c.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, data.nbytes, data.tobytes(), E.GL_DYNAMIC_COPY)
    c.glDispatchCompute(1, 1, 1)
    c.glMemoryBarrier(E.GL_ATOMIC_COUNTER_BARRIER_BIT)
    out = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, data.nbytes)), np.uint32)
    expected = data.copy()
    expected[1 + 1 * 3 + 2] += 8        # a[1][2]
    expected[1 + 0 * 3 + 1] -= 8        # a[0][1]
    assert list(out) == list(expected)


def test_resources_of_a_spirv_program_have_no_names(ctx):
    """GL 4.6 section 7.3.1 (ARB_gl_spirv): without name reflection information every
    active resource's name is "" (NAME_LENGTH 1, the MAX_LENGTH queries 1) and the queries
    by name find nothing; the resources themselves are all there."""
    c = ctx
    p = program(c, spirv_shader(c, E.GL_VERTEX_SHADER, PASS_VS), spirv_shader(c, E.GL_FRAGMENT_SHADER, UBO_SAMPLER_FS))
    assert c.glGetProgramiv(p, E.GL_ACTIVE_UNIFORMS) == [3]           # the sampler, the block's two members
    assert c.glGetProgramiv(p, E.GL_ACTIVE_UNIFORM_BLOCKS) == [1]
    assert c.glGetProgramiv(p, E.GL_ACTIVE_ATTRIBUTES) == [1]
    for q in (E.GL_ACTIVE_UNIFORM_MAX_LENGTH, E.GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH,
              E.GL_ACTIVE_ATTRIBUTE_MAX_LENGTH):
        assert c.glGetProgramiv(p, q) == [1], q
    assert [c.glGetActiveUniform(p, i)[0] for i in range(3)] == ["", "", ""]
    assert c.glGetActiveUniformBlockName(p, 0) == ""
    assert c.glGetActiveUniformBlockiv(p, 0, E.GL_UNIFORM_BLOCK_NAME_LENGTH) == [1]
    assert c.glGetActiveUniformBlockiv(p, 0, E.GL_UNIFORM_BLOCK_BINDING) == [2]
    assert c.glGetActiveAttrib(p, 0)[0] == ""
    assert c.glGetProgramResourceName(p, E.GL_UNIFORM_BLOCK, 0, 64) == ""
    assert c.glGetProgramResourceiv(p, E.GL_UNIFORM_BLOCK, 0, 1, [E.GL_NAME_LENGTH], 1) == [1]
    assert c.glGetProgramInterfaceiv(p, E.GL_UNIFORM, E.GL_MAX_NAME_LENGTH) == [1]
    # the link's internal names are not names of the program
    assert c.glGetUniformLocation(p, "shimgl_spv_sampler3") == -1
    assert c.glGetAttribLocation(p, "shimgl_spv_attr0") == -1
    assert c.glGetUniformBlockIndex(p, "shimgl_spv_ubo2") == E.GL_INVALID_INDEX
    assert c.glGetProgramResourceIndex(p, E.GL_UNIFORM_BLOCK, "shimgl_spv_ubo2") == E.GL_INVALID_INDEX
    assert c.glGetProgramResourceLocation(p, E.GL_PROGRAM_OUTPUT, "shimgl_spv_frag0") == -1
    assert c.glGetUniformIndices(p, 1, ["shimgl_spv_sampler3"]) == [E.GL_INVALID_INDEX]
    assert c.glGetError() == E.GL_NO_ERROR
