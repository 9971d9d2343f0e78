"""SPIR-V geometry and tessellation entry points (ARB_gl_spirv: the Geometry and
Tessellation capabilities) through the GL entry points on driver.Context("gl46"):
the modules are SPIR-V assembly assembled with spirv-as; the images are checked
against hand-computed expectations."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.compiler.spirv.spirv_asm import HEADER, TYPES, needs_spirv_as
from tests.driver.gl.helpers import link_and_use as program
from tests.driver.gl.spirv_helpers import compiled as spirv_shader

pytestmark = needs_spirv_as
W = H = 16


@pytest.fixture
def ctx():
    import driver
    return driver.Context(api="gl46", width=W, height=H)


def vertex_arrays(c, attributes):
    """A VAO with one float array per location (``attributes``: location -> n x k)."""
    vao = c.glGenVertexArrays(1)[0]
    c.glBindVertexArray(vao)
    for loc, data in attributes.items():
        data = np.asarray(data, np.float32)
        buf = c.glGenBuffers(1)[0]
        c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        c.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
        c.glVertexAttribPointer(loc, data.shape[1], E.GL_FLOAT, False, 0, 0)
        c.glEnableVertexAttribArray(loc)
    return vao


def clear(c):
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)


def pixels(c):
    return np.asarray(c.read_pixels()).astype(int)


#: position (location 0) to gl_Position, colour (location 1) to output location 0
COLOUR_VS = HEADER + """OpEntryPoint Vertex %main "main" %pv %pos %col %vcol
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpMemberDecorate %PerVertex 1 BuiltIn PointSize
OpDecorate %PerVertex Block
OpDecorate %pos Location 0
OpDecorate %col Location 1
OpDecorate %vcol Location 0
""" + TYPES + """%PerVertex = OpTypeStruct %v4float %float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_in_v4 = OpTypePointer Input %v4float
%pos = OpVariable %p_in_v4 Input
%col = OpVariable %p_in_v4 Input
%p_out_v4 = OpTypePointer Output %v4float
%vcol = OpVariable %p_out_v4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v4float %pos
%dst = OpAccessChain %p_out_v4 %pv %int_0
OpStore %dst %v
%cv = OpLoad %v4float %col
OpStore %vcol %cv
OpReturn
OpFunctionEnd
"""

#: output location 0 to the colour
COLOUR_FS = HEADER + """OpEntryPoint Fragment %main "main" %in %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %in Location 0
OpDecorate %out Location 0
""" + TYPES + """%p_in_v4 = OpTypePointer Input %v4float
%in = OpVariable %p_in_v4 Input
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v4float %in
OpStore %out %v
OpReturn
OpFunctionEnd
"""


def _emit(n, x, y):
    """Emit a vertex at the input point's position + (x, y) with the invocation's colour."""
    return f"""%px{n} = OpFAdd %float %p_x {x}
%py{n} = OpFAdd %float %p_y {y}
%pos{n} = OpCompositeConstruct %v4float %px{n} %py{n} %float_0 %float_1
OpStore %gpos %pos{n}
OpStore %gcol %colour
OpEmitVertex
"""


#: points in, 2 invocations; invocation i emits the quad x in [i - 1, i] around the point
#: (x, y) in [-1, 1] with the vertex colour times 0.5 + 0.5 i
QUAD_GS = """OpCapability Geometry
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Geometry %main "main" %gl_in %vcol %inv %pv %gcol
OpExecutionMode %main InputPoints
OpExecutionMode %main Invocations 2
OpExecutionMode %main OutputTriangleStrip
OpExecutionMode %main OutputVertices 4
OpMemberDecorate %PerVertexIn 0 BuiltIn Position
OpMemberDecorate %PerVertexIn 1 BuiltIn PointSize
OpDecorate %PerVertexIn Block
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpMemberDecorate %PerVertex 1 BuiltIn PointSize
OpDecorate %PerVertex Block
OpDecorate %vcol Location 0
OpDecorate %gcol Location 0
OpDecorate %inv BuiltIn InvocationId
""" + TYPES + """%PerVertexIn = OpTypeStruct %v4float %float
%arr_pvin = OpTypeArray %PerVertexIn %uint_1
%p_in_arr = OpTypePointer Input %arr_pvin
%gl_in = OpVariable %p_in_arr Input
%arr_v4 = OpTypeArray %v4float %uint_1
%p_in_v4arr = OpTypePointer Input %arr_v4
%vcol = OpVariable %p_in_v4arr Input
%p_in_int = OpTypePointer Input %int
%inv = OpVariable %p_in_int Input
%PerVertex = OpTypeStruct %v4float %float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_out_v4 = OpTypePointer Output %v4float
%gcol = OpVariable %p_out_v4 Output
%p_in_v4 = OpTypePointer Input %v4float
%half = OpConstant %float 0.5
%float_m1 = OpConstant %float -1
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %inv
%fi = OpConvertSToF %float %i
%pp = OpAccessChain %p_in_v4 %gl_in %int_0 %int_0
%p = OpLoad %v4float %pp
%p_x = OpCompositeExtract %float %p 0
%p_y = OpCompositeExtract %float %p 1
%cp = OpAccessChain %p_in_v4 %vcol %int_0
%c = OpLoad %v4float %cp
%k = OpExtInst %float %std Fma %fi %half %half
%colour = OpVectorTimesScalar %v4float %c %k
%x0 = OpFSub %float %fi %float_1
%gpos = OpAccessChain %p_out_v4 %pv %int_0
""" + _emit(0, "%x0", "%float_m1") + _emit(1, "%fi", "%float_m1") + _emit(2, "%x0", "%float_1") \
    + _emit(3, "%fi", "%float_1") + """OpEndPrimitive
OpReturn
OpFunctionEnd
"""


def test_geometry_entry_point_with_invocations(ctx):
    c = ctx
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, COLOUR_VS), spirv_shader(c, E.GL_GEOMETRY_SHADER, QUAD_GS),
            spirv_shader(c, E.GL_FRAGMENT_SHADER, COLOUR_FS))
    vertex_arrays(c, {0: [[0, 0, 0, 1]], 1: [[0.4, 0.8, 1.0, 1.0]]})
    clear(c)
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    assert c.glGetError() == E.GL_NO_ERROR
    img = pixels(c)
    left = np.round(np.array([0.4, 0.8, 1.0, 1.0]) * 0.5 * 255)
    right = np.round(np.array([0.4, 0.8, 1.0, 1.0]) * 255)
    assert (np.abs(img[:, : W // 2] - left) <= 1).all()
    assert (np.abs(img[:, W // 2:] - right) <= 1).all()


#: triangles in, each passed through by a loop over gl_in[j] (a non-constant vertex index),
#: coloured (id, 1 - id, 0, 1) by its gl_PrimitiveIDIn
PRIMITIVE_ID_GS = """OpCapability Geometry
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Geometry %main "main" %gl_in %prim %pv %gcol
OpExecutionMode %main Triangles
OpExecutionMode %main OutputTriangleStrip
OpExecutionMode %main OutputVertices 3
OpMemberDecorate %PerVertexIn 0 BuiltIn Position
OpDecorate %PerVertexIn Block
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpDecorate %PerVertex Block
OpDecorate %gcol Location 0
OpDecorate %prim BuiltIn PrimitiveId
""" + TYPES + """%uint_3 = OpConstant %uint 3
%int_3 = OpConstant %int 3
%PerVertexIn = OpTypeStruct %v4float
%arr_pvin = OpTypeArray %PerVertexIn %uint_3
%p_in_arr = OpTypePointer Input %arr_pvin
%gl_in = OpVariable %p_in_arr Input
%p_in_int = OpTypePointer Input %int
%prim = OpVariable %p_in_int Input
%PerVertex = OpTypeStruct %v4float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_out_v4 = OpTypePointer Output %v4float
%gcol = OpVariable %p_out_v4 Output
%p_in_v4 = OpTypePointer Input %v4float
%p_fn_int = OpTypePointer Function %int
%main = OpFunction %void None %fn
%entry = OpLabel
%j = OpVariable %p_fn_int Function
OpStore %j %int_0
%pid = OpLoad %int %prim
%fpid = OpConvertSToF %float %pid
%g = OpFSub %float %float_1 %fpid
%colour = OpCompositeConstruct %v4float %fpid %g %float_0 %float_1
%gpos = OpAccessChain %p_out_v4 %pv %int_0
OpBranch %header
%header = OpLabel
OpLoopMerge %merge %cont None
OpBranch %cond
%cond = OpLabel
%jv = OpLoad %int %j
%lt = OpSLessThan %bool %jv %int_3
OpBranchConditional %lt %body %merge
%body = OpLabel
%pp = OpAccessChain %p_in_v4 %gl_in %jv %int_0
%p = OpLoad %v4float %pp
OpStore %gpos %p
OpStore %gcol %colour
OpEmitVertex
OpBranch %cont
%cont = OpLabel
%jn = OpIAdd %int %jv %int_1
OpStore %j %jn
OpBranch %header
%merge = OpLabel
OpEndPrimitive
OpReturn
OpFunctionEnd
"""


def test_geometry_entry_point_reads_gl_in_in_a_loop_and_the_primitive_id(ctx):
    c = ctx
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, COLOUR_VS),
            spirv_shader(c, E.GL_GEOMETRY_SHADER, PRIMITIVE_ID_GS), spirv_shader(c, E.GL_FRAGMENT_SHADER, COLOUR_FS))
    # primitive 0: the lower-left half of the window, primitive 1: the upper-right half
    pos = [[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]]
    vertex_arrays(c, {0: pos, 1: [[1, 1, 1, 1]] * 6})
    clear(c)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    assert c.glGetError() == E.GL_NO_ERROR
    img = pixels(c)
    ys, xs = np.mgrid[0:H, 0:W]
    lower_left, upper_right = xs + ys < W - 1, xs + ys > W - 1      # (pixel centres off the diagonal)
    assert (img[lower_left] == [0, 255, 0, 255]).all()
    assert (img[upper_right] == [255, 0, 0, 255]).all()


#: a patch of 3 vertices passed through (gl_out[i] = gl_in[i], per-vertex colour out at
#: location 0); invocation 0 writes the patch output at location 1 (0.5, 0.5, 0.5, 1) and
#: the levels (all 1: one triangle per patch)
PASS_TCS = """OpCapability Tessellation
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint TessellationControl %main "main" %gl_in %gl_out %vcol %tcol %pcol %inv %outer %inner
OpExecutionMode %main OutputVertices 3
OpMemberDecorate %PVIn 0 BuiltIn Position
OpDecorate %PVIn Block
OpMemberDecorate %PVOut 0 BuiltIn Position
OpDecorate %PVOut Block
OpDecorate %vcol Location 0
OpDecorate %tcol Location 0
OpDecorate %pcol Location 1
OpDecorate %pcol Patch
OpDecorate %inv BuiltIn InvocationId
OpDecorate %outer BuiltIn TessLevelOuter
OpDecorate %outer Patch
OpDecorate %inner BuiltIn TessLevelInner
OpDecorate %inner Patch
""" + TYPES + """%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_32 = OpConstant %uint 32
%int_2 = OpConstant %int 2
%int_3 = OpConstant %int 3
%half = OpConstant %float 0.5
%factor = OpConstantComposite %v4float %half %half %half %float_1
%PVIn = OpTypeStruct %v4float
%arr_in = OpTypeArray %PVIn %uint_32
%p_in_arr = OpTypePointer Input %arr_in
%gl_in = OpVariable %p_in_arr Input
%PVOut = OpTypeStruct %v4float
%arr_out = OpTypeArray %PVOut %uint_3
%p_out_arr = OpTypePointer Output %arr_out
%gl_out = OpVariable %p_out_arr Output
%arr32_v4 = OpTypeArray %v4float %uint_32
%p_in_arr32_v4 = OpTypePointer Input %arr32_v4
%vcol = OpVariable %p_in_arr32_v4 Input
%arr3_v4 = OpTypeArray %v4float %uint_3
%p_out_arr3_v4 = OpTypePointer Output %arr3_v4
%tcol = OpVariable %p_out_arr3_v4 Output
%p_out_v4 = OpTypePointer Output %v4float
%pcol = OpVariable %p_out_v4 Output
%p_in_int = OpTypePointer Input %int
%inv = OpVariable %p_in_int Input
%arr4_f = OpTypeArray %float %uint_4
%p_out_arr4_f = OpTypePointer Output %arr4_f
%outer = OpVariable %p_out_arr4_f Output
%arr2_f = OpTypeArray %float %uint_2
%p_out_arr2_f = OpTypePointer Output %arr2_f
%inner = OpVariable %p_out_arr2_f Output
%p_in_v4 = OpTypePointer Input %v4float
%p_out_f = OpTypePointer Output %float
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %inv
%pin = OpAccessChain %p_in_v4 %gl_in %i %int_0
%p = OpLoad %v4float %pin
%pout = OpAccessChain %p_out_v4 %gl_out %i %int_0
OpStore %pout %p
%cin = OpAccessChain %p_in_v4 %vcol %i
%c = OpLoad %v4float %cin
%cout = OpAccessChain %p_out_v4 %tcol %i
OpStore %cout %c
%is0 = OpIEqual %bool %i %int_0
OpSelectionMerge %done None
OpBranchConditional %is0 %first %done
%first = OpLabel
OpStore %pcol %factor
%o0 = OpAccessChain %p_out_f %outer %int_0
OpStore %o0 %float_1
%o1 = OpAccessChain %p_out_f %outer %int_1
OpStore %o1 %float_1
%o2 = OpAccessChain %p_out_f %outer %int_2
OpStore %o2 %float_1
%o3 = OpAccessChain %p_out_f %outer %int_3
OpStore %o3 %float_1
%i0 = OpAccessChain %p_out_f %inner %int_0
OpStore %i0 %float_1
%i1 = OpAccessChain %p_out_f %inner %int_1
OpStore %i1 %float_1
OpBranch %done
%done = OpLabel
OpReturn
OpFunctionEnd
"""


def _weighted(name, k):
    return f"""%{name}p{k} = OpAccessChain %p_in_v4 %{"gl_in" if name == "pos" else "tcol"} %int_{k}{" %int_0" if name == "pos" else ""}
%{name}v{k} = OpLoad %v4float %{name}p{k}
%{name}w{k} = OpVectorTimesScalar %v4float %{name}v{k} %t{k}
"""


#: triangles: position and colour are the per-vertex values weighted by gl_TessCoord; the
#: colour times the patch input at location 1
BARYCENTRIC_TES = """OpCapability Tessellation
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint TessellationEvaluation %main "main" %gl_in %pv %tc %tcol %pcol %ocol
OpExecutionMode %main Triangles
OpExecutionMode %main SpacingEqual
OpExecutionMode %main VertexOrderCcw
OpMemberDecorate %PVIn 0 BuiltIn Position
OpDecorate %PVIn Block
OpMemberDecorate %PV 0 BuiltIn Position
OpDecorate %PV Block
OpDecorate %tc BuiltIn TessCoord
OpDecorate %tcol Location 0
OpDecorate %pcol Location 1
OpDecorate %pcol Patch
OpDecorate %ocol Location 0
""" + TYPES + """%uint_32 = OpConstant %uint 32
%int_2 = OpConstant %int 2
%v3float = OpTypeVector %float 3
%PVIn = OpTypeStruct %v4float
%arr_in = OpTypeArray %PVIn %uint_32
%p_in_arr = OpTypePointer Input %arr_in
%gl_in = OpVariable %p_in_arr Input
%arr32_v4 = OpTypeArray %v4float %uint_32
%p_in_arr32_v4 = OpTypePointer Input %arr32_v4
%tcol = OpVariable %p_in_arr32_v4 Input
%p_in_v4 = OpTypePointer Input %v4float
%pcol = OpVariable %p_in_v4 Input
%p_in_v3 = OpTypePointer Input %v3float
%tc = OpVariable %p_in_v3 Input
%PV = OpTypeStruct %v4float
%p_out_pv = OpTypePointer Output %PV
%pv = OpVariable %p_out_pv Output
%p_out_v4 = OpTypePointer Output %v4float
%ocol = OpVariable %p_out_v4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
%t = OpLoad %v3float %tc
%t0 = OpCompositeExtract %float %t 0
%t1 = OpCompositeExtract %float %t 1
%t2 = OpCompositeExtract %float %t 2
""" + "".join(_weighted(n, k) for n in ("pos", "col") for k in range(3)) + """%pos01 = OpFAdd %v4float %posw0 %posw1
%pos = OpFAdd %v4float %pos01 %posw2
%dst = OpAccessChain %p_out_v4 %pv %int_0
OpStore %dst %pos
%col01 = OpFAdd %v4float %colw0 %colw1
%col = OpFAdd %v4float %col01 %colw2
%f = OpLoad %v4float %pcol
%out = OpFMul %v4float %col %f
OpStore %ocol %out
OpReturn
OpFunctionEnd
"""


def test_tessellation_entry_points(ctx):
    c = ctx
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, COLOUR_VS), spirv_shader(c, E.GL_TESS_CONTROL_SHADER, PASS_TCS),
            spirv_shader(c, E.GL_TESS_EVALUATION_SHADER, BARYCENTRIC_TES),
            spirv_shader(c, E.GL_FRAGMENT_SHADER, COLOUR_FS))
    assert c.glGetProgramiv(c.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0], E.GL_TESS_CONTROL_OUTPUT_VERTICES) == [3]
    # patch 0 (red vertices): the lower-left half of the window; patch 1 (green): the upper-right
    pos = [[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]]
    col = [[1, 0, 0, 1]] * 3 + [[0, 1, 0, 1]] * 3
    vertex_arrays(c, {0: pos, 1: col})
    c.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    clear(c)
    c.glDrawArrays(E.GL_PATCHES, 0, 6)
    assert c.glGetError() == E.GL_NO_ERROR
    img = pixels(c)
    ys, xs = np.mgrid[0:H, 0:W]
    lower_left, upper_right = xs + ys < W - 1, xs + ys > W - 1
    assert (np.abs(img[lower_left] - [128, 0, 0, 255]) <= 1).all()
    assert (np.abs(img[upper_right] - [0, 128, 0, 255]) <= 1).all()


#: transform feedback of an output block declared in the module (XfbBuffer 0, stride 28 bytes,
#: member offsets 0, 4, 20): block { float f; vec4 v; float f2[2]; } = 1, (2, 3, 4, 5), (6, 7)
XFB_BLOCK_VS = """OpCapability Shader
OpCapability TransformFeedback
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %x %pv
OpExecutionMode %main Xfb
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpDecorate %PerVertex Block
OpMemberDecorate %Blk 0 Offset 0
OpMemberDecorate %Blk 1 Offset 4
OpMemberDecorate %Blk 2 Offset 20
OpDecorate %Blk Block
OpDecorate %x Location 0
OpDecorate %x XfbBuffer 0
OpDecorate %x XfbStride 28
""" + TYPES + """%uint_2 = OpConstant %uint 2
%int_2 = OpConstant %int 2
%arr2 = OpTypeArray %float %uint_2
%Blk = OpTypeStruct %float %v4float %arr2
%p_out_blk = OpTypePointer Output %Blk
%x = OpVariable %p_out_blk Output
%PerVertex = OpTypeStruct %v4float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_out_f = OpTypePointer Output %float
%p_out_v4 = OpTypePointer Output %v4float
%f2 = OpConstant %float 2
%f3 = OpConstant %float 3
%f4 = OpConstant %float 4
%f5 = OpConstant %float 5
%f6 = OpConstant %float 6
%f7 = OpConstant %float 7
%v = OpConstantComposite %v4float %f2 %f3 %f4 %f5
%origin = OpConstantComposite %v4float %float_0 %float_0 %float_0 %float_1
%main = OpFunction %void None %fn
%entry = OpLabel
%pp = OpAccessChain %p_out_v4 %pv %int_0
OpStore %pp %origin
%pf = OpAccessChain %p_out_f %x %int_0
OpStore %pf %float_1
%pvv = OpAccessChain %p_out_v4 %x %int_1
OpStore %pvv %v
%p0 = OpAccessChain %p_out_f %x %int_2 %int_0
OpStore %p0 %f6
%p1 = OpAccessChain %p_out_f %x %int_2 %int_1
OpStore %p1 %f7
OpReturn
OpFunctionEnd
"""


def test_transform_feedback_of_a_block_with_an_array_member(ctx):
    c = ctx
    p = program(c, spirv_shader(c, E.GL_VERTEX_SHADER, XFB_BLOCK_VS))
    assert c.glGetProgramiv(p, E.GL_TRANSFORM_FEEDBACK_VARYINGS) == [3]      # f, v and f2
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    buf = c.glGenBuffers(1)[0]
    c.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    c.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 64, None, E.GL_DYNAMIC_COPY)
    c.glEnable(E.GL_RASTERIZER_DISCARD)
    c.glBeginTransformFeedback(E.GL_POINTS)
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    c.glEndTransformFeedback()
    assert c.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 28)), np.float32)
    assert list(got) == [1, 2, 3, 4, 5, 6, 7]


#: an array of 2 output blocks with transform feedback decorations: element i is captured
#: to buffer i (GLSL 4.60 section 4.4.2.1); x[i] = {10 i + 1, (10 i + 2, .. 10 i + 5), (10 i + 6, 10 i + 7)}
def _xfb_block_array_vs():
    head = XFB_BLOCK_VS[:XFB_BLOCK_VS.index("%main = OpFunction")].replace(
        "%x = OpVariable %p_out_blk Output",
        "%xarr = OpTypeArray %Blk %uint_2\n%p_out_xarr = OpTypePointer Output %xarr\n%x = OpVariable %p_out_xarr Output")
    consts = "".join(f"%value{i}_{n} = OpConstant %float {10 * i + n}\n" for i in range(2) for n in range(1, 8))
    body = ""
    for i in range(2):
        body += f"""%pf{i} = OpAccessChain %p_out_f %x %int_{i} %int_0
OpStore %pf{i} %value{i}_1
%vv{i} = OpCompositeConstruct %v4float %value{i}_2 %value{i}_3 %value{i}_4 %value{i}_5
%pv{i} = OpAccessChain %p_out_v4 %x %int_{i} %int_1
OpStore %pv{i} %vv{i}
%pa{i} = OpAccessChain %p_out_f %x %int_{i} %int_2 %int_0
OpStore %pa{i} %value{i}_6
%pb{i} = OpAccessChain %p_out_f %x %int_{i} %int_2 %int_1
OpStore %pb{i} %value{i}_7
"""
    return head + consts + """%main = OpFunction %void None %fn
%entry = OpLabel
%pp = OpAccessChain %p_out_v4 %pv %int_0
OpStore %pp %origin
""" + body + "OpReturn\nOpFunctionEnd\n"


XFB_BLOCK_ARRAY_VS = _xfb_block_array_vs()


def test_transform_feedback_of_an_array_of_blocks():
    import driver
    c = driver.Context(api="gl46", width=4, height=4)
    p = program(c, spirv_shader(c, E.GL_VERTEX_SHADER, XFB_BLOCK_ARRAY_VS))
    assert c.glGetProgramiv(p, E.GL_TRANSFORM_FEEDBACK_VARYINGS) == [6]      # f, v, f2 of each element
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    bufs = c.glGenBuffers(2)
    for i, buf in enumerate(bufs):
        c.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, i, buf)
        c.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 64, None, E.GL_DYNAMIC_COPY)
    c.glEnable(E.GL_RASTERIZER_DISCARD)
    c.glBeginTransformFeedback(E.GL_POINTS)
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    c.glEndTransformFeedback()
    assert c.glGetError() == E.GL_NO_ERROR
    for i, buf in enumerate(bufs):
        c.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
        got = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 28)), np.float32)
        assert list(got) == [10 * i + n for n in range(1, 8)], i


def test_tessellation_evaluation_without_a_control_stage(ctx):
    """The driver's pass-through control stage copies the patch (the located per-vertex
    input by location) and writes the default levels (1): the two halves in the patches'
    colours."""
    c = ctx
    tes = BARYCENTRIC_TES.replace("%out = OpFMul %v4float %col %f", "%out = OpCopyObject %v4float %col")
    tes = tes.replace(" %pcol %ocol", " %ocol").replace("OpDecorate %pcol Location 1\nOpDecorate %pcol Patch\n", "")
    tes = tes.replace("%pcol = OpVariable %p_in_v4 Input\n", "").replace("%f = OpLoad %v4float %pcol\n", "")
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, COLOUR_VS), spirv_shader(c, E.GL_TESS_EVALUATION_SHADER, tes),
            spirv_shader(c, E.GL_FRAGMENT_SHADER, COLOUR_FS))
    pos = [[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]]
    vertex_arrays(c, {0: pos, 1: [[1, 0, 0, 1]] * 3 + [[0, 1, 0, 1]] * 3})
    c.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    clear(c)
    c.glDrawArrays(E.GL_PATCHES, 0, 6)
    assert c.glGetError() == E.GL_NO_ERROR
    img = pixels(c)
    ys, xs = np.mgrid[0:H, 0:W]
    assert (img[xs + ys < W - 1] == [255, 0, 0, 255]).all()
    assert (img[xs + ys > W - 1] == [0, 255, 0, 255]).all()


def _layer_vertex(n, x, y):
    return f"""%lp{n} = OpCompositeConstruct %v4float {x} {y} %float_0 %float_1
OpStore %gpos %lp{n}
OpStore %layer %i
OpStore %gcol %colour
OpEmitVertex
"""


#: points in, 2 invocations: invocation i writes gl_Layer = i and covers the viewport with
#: colour ((i + 1) / 4, 0.5, 0, 1)
LAYER_GS = """OpCapability Geometry
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Geometry %main "main" %inv %pv %gcol %layer
OpExecutionMode %main InputPoints
OpExecutionMode %main Invocations 2
OpExecutionMode %main OutputTriangleStrip
OpExecutionMode %main OutputVertices 4
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpDecorate %PerVertex Block
OpDecorate %gcol Location 0
OpDecorate %inv BuiltIn InvocationId
OpDecorate %layer BuiltIn Layer
""" + TYPES + """%p_in_int = OpTypePointer Input %int
%inv = OpVariable %p_in_int Input
%p_out_int = OpTypePointer Output %int
%layer = OpVariable %p_out_int Output
%PerVertex = OpTypeStruct %v4float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_out_v4 = OpTypePointer Output %v4float
%gcol = OpVariable %p_out_v4 Output
%half = OpConstant %float 0.5
%quarter = OpConstant %float 0.25
%float_m1 = OpConstant %float -1
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %inv
%fi = OpConvertSToF %float %i
%r = OpExtInst %float %std Fma %fi %quarter %quarter
%colour = OpCompositeConstruct %v4float %r %half %float_0 %float_1
%gpos = OpAccessChain %p_out_v4 %pv %int_0
""" + _layer_vertex(0, "%float_m1", "%float_m1") + _layer_vertex(1, "%float_1", "%float_m1") \
    + _layer_vertex(2, "%float_m1", "%float_1") + _layer_vertex(3, "%float_1", "%float_1") + """OpEndPrimitive
OpReturn
OpFunctionEnd
"""


def test_geometry_entry_point_writes_the_layer(ctx):
    """Layered rendering (GL 4.6 section 9.8) from a SPIR-V geometry stage: each
    invocation draws into the layer of its gl_Layer."""
    c = ctx
    program(c, spirv_shader(c, E.GL_VERTEX_SHADER, COLOUR_VS), spirv_shader(c, E.GL_GEOMETRY_SHADER, LAYER_GS),
            spirv_shader(c, E.GL_FRAGMENT_SHADER, COLOUR_FS))
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D_ARRAY, tex)
    c.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_RGBA8, W, H, 3, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                   bytes(W * H * 4 * 3))
    fbo = c.glGenFramebuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    c.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0)
    assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    vertex_arrays(c, {0: [[0, 0, 0, 1]], 1: [[1, 1, 1, 1]]})
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    assert c.glGetError() == E.GL_NO_ERROR
    layers = np.frombuffer(bytes(c.glGetTexImage(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                           np.uint8).reshape(3, H, W, 4).astype(int)
    for i, red in ((0, 64), (1, 128)):
        assert (np.abs(layers[i] - [red, 128, 0, 255]) <= 1).all(), i
    assert (layers[2] == 0).all()                   # no invocation wrote layer 2
