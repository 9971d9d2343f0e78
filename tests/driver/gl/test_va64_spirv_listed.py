"""GL_ARB_vertex_attrib_64bit, GL_ARB_gl_spirv and GL_ARB_spirv_extensions are listed
where they are exposed - desktop GL core contexts from 3.2 (the SPIR-V ones from 3.3,
which ARB_gl_spirv requires) and the compatibility context - and never in GLES; their
function works in a context below 4.6, where only the extension offers it: a GLSL 1.50
shader enabling GL_ARB_vertex_attrib_64bit reads dvec4 vertex inputs at adjacent
locations, and a SPIR-V module (glShaderBinary + glSpecializeShaderARB) does the same
with two dvec4 inputs at locations 0 and 1 (piglit's va64-simple situation). Values by
hand: each input is compared with doubles that are not floats."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.extensions import DONE, GL_VERSIONS, by_name, pending_features
from tests.compiler.spirv.spirv_asm import TYPES, assemble, needs_spirv_as
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import compile_source, expect, link_and_use

THREE = ("GL_ARB_vertex_attrib_64bit", "GL_ARB_gl_spirv", "GL_ARB_spirv_extensions")


def _listed(ctx) -> set[str]:
    if ctx.api.es and ctx.api.version < (3, 0):         # (no glGetStringi in GLES 2.0)
        return set(ctx.glGetString(E.GL_EXTENSIONS).split())
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}


@pytest.mark.parametrize("api, want", [
    ("gl46", set(THREE)), ("compat", set(THREE)), ("gl41", set(THREE)), ("gl33", set(THREE)),
    ("gl32", {"GL_ARB_vertex_attrib_64bit"}),
    ("gles32", set()), ("gles31", set()), ("gles2", set())])
def test_listed_in_desktop_gl_only(api, want):
    with driver.Context(api=api, width=4, height=4) as ctx:
        assert set(THREE) & _listed(ctx) == want
        for name in THREE:
            assert ctx.api.has_extension(name) == (name in want)
        expect(ctx, E.GL_NO_ERROR)


def test_gl_4_6_has_no_pending_stage_any_more():
    """The three lines are DONE, so GL 4.1's and 4.6's own requirements are all met;
    the version's pending list keeps only what older versions still have STAGE."""
    table = by_name()
    for name in THREE:
        assert table[name].status is DONE
    for version in ((4, 1), (4, 6)):
        reqs = [r for r in GL_VERSIONS[version] if not r.startswith("GLSL ")]
        assert all(table[r].status.value in ("done", "core") for r in reqs), version
    assert not set(THREE) & set(pending_features(False, (4, 6)))


VS_150 = """#version 150
#extension GL_ARB_explicit_attrib_location : require
#extension GL_ARB_gpu_shader_fp64 : require
#extension GL_ARB_vertex_attrib_64bit : require
#if GL_ARB_vertex_attrib_64bit != 1
#error the macro is not 1
#endif
layout(location = 0) in dvec4 a;
layout(location = 1) in dvec4 b;
layout(location = 2) in vec2 pos;
uniform dvec4 want_a;
uniform dvec4 want_b;
flat out int ok;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    ok = int(a == want_a) + 2 * int(b == want_b);
}
"""
FS_150 = """#version 150
flat in int ok;
out vec4 c;
void main() { c = vec4(float(ok & 1), float(ok >> 1), 0.0, 1.0); }
"""
A = np.array([1 / 3, -1e300, 2.0 ** -1074, 7.0], np.float64)
B = np.array([0.1, 1 / 9, -0.0, 2.0 ** 53 + 2.0], np.float64)


def _draw(ctx, p_uniforms=None):
    """Location 2: a float quad; locations 0 and 1: dvec4 arrays of A and B per vertex."""
    if p_uniforms is not None:
        ctx.glUniform4dv(ctx.glGetUniformLocation(p_uniforms, "want_a"), 1, A)
        ctx.glUniform4dv(ctx.glGetUniformLocation(p_uniforms, "want_b"), 1, B)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    bufs = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, bufs[0])
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(2)
    ctx.glVertexAttribPointer(2, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, bufs[1])
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 64 * 4, np.tile(np.concatenate([A, B]), 4), E.GL_STATIC_DRAW)
    for loc in (0, 1):
        ctx.glEnableVertexAttribArray(loc)
        ctx.glVertexAttribLPointer(loc, 4, E.GL_DOUBLE, 64, 32 * loc)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return px.reshape(4, 4).tolist()


def test_glsl_150_with_the_extension_in_a_3_3_context():
    """The `#extension` is accepted and its macro is 1 where the line is listed (a 3.3
    core context: double vertex inputs come from the extension there), refused in
    GLES; the dvec4 inputs at locations 0 and 1 each read their own array."""
    ctx = glhelp.context(4, 1, api="gl33")
    p = glhelp.program(ctx, VS_150, FS_150)
    assert [ctx.glGetAttribLocation(p, n) for n in ("a", "b", "pos")] == [0, 1, 2]
    assert _draw(ctx, p) == [[255, 255, 0, 255]] * 4
    es = glhelp.context(4, 1, api="gles32")
    src = "#version 320 es\n#extension GL_ARB_vertex_attrib_64bit : require\nvoid main() { }\n"
    _sh, status, log = compile_source(es, E.GL_VERTEX_SHADER, src)
    assert status == 0 and "GL_ARB_vertex_attrib_64bit" in log


SPIRV_VS = """OpCapability Shader
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %pv %a %b %pos %ok
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpDecorate %PerVertex Block
OpDecorate %a Location 0
OpDecorate %b Location 1
OpDecorate %pos Location 2
OpDecorate %ok Location 0
OpDecorate %ok Flat
""" + TYPES + """%double = OpTypeFloat 64
%v4double = OpTypeVector %double 4
%v4bool = OpTypeVector %bool 4
""" + "".join(f"%{n}{i} = OpConstant %double {float(v).hex()}\n"
              for n, values in (("a", A), ("b", B)) for i, v in enumerate(values)) + """\
%want_a = OpConstantComposite %v4double %a0 %a1 %a2 %a3
%want_b = OpConstantComposite %v4double %b0 %b1 %b2 %b3
%int_2 = OpConstant %int 2
%PerVertex = OpTypeStruct %v4float
%p_out_pv = OpTypePointer Output %PerVertex
%pv = OpVariable %p_out_pv Output
%p_in_v4d = OpTypePointer Input %v4double
%a = OpVariable %p_in_v4d Input
%b = OpVariable %p_in_v4d Input
%p_in_v2 = OpTypePointer Input %v2float
%pos = OpVariable %p_in_v2 Input
%p_out_int = OpTypePointer Output %int
%ok = OpVariable %p_out_int Output
%p_out_v4 = OpTypePointer Output %v4float
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpLoad %v2float %pos
%x = OpCompositeExtract %float %p 0
%y = OpCompositeExtract %float %p 1
%position = OpCompositeConstruct %v4float %x %y %float_0 %float_1
%dst = OpAccessChain %p_out_v4 %pv %int_0
OpStore %dst %position
%av = OpLoad %v4double %a
%bv = OpLoad %v4double %b
%eqa = OpFOrdEqual %v4bool %av %want_a
%eqb = OpFOrdEqual %v4bool %bv %want_b
%alla = OpAll %bool %eqa
%allb = OpAll %bool %eqb
%ia = OpSelect %int %alla %int_1 %int_0
%ib = OpSelect %int %allb %int_2 %int_0
%sum = OpIAdd %int %ia %ib
OpStore %ok %sum
OpReturn
OpFunctionEnd
"""
SPIRV_FS = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %ok %out
OpExecutionMode %main OriginLowerLeft
OpDecorate %ok Location 0
OpDecorate %ok Flat
OpDecorate %out Location 0
""" + TYPES + """%int_2 = OpConstant %int 2
%p_in_int = OpTypePointer Input %int
%ok = OpVariable %p_in_int Input
%p_out_v4 = OpTypePointer Output %v4float
%out = OpVariable %p_out_v4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
%k = OpLoad %int %ok
%ka = OpBitwiseAnd %int %k %int_1
%kb = OpShiftRightArithmetic %int %k %int_1
%r = OpConvertSToF %float %ka
%g = OpConvertSToF %float %kb
%o = OpCompositeConstruct %v4float %r %g %float_0 %float_1
OpStore %out %o
OpReturn
OpFunctionEnd
"""


@needs_spirv_as
def test_spirv_dvec4_inputs_in_a_3_3_context():
    """glShaderBinary(SHADER_BINARY_FORMAT_SPIR_V_ARB) and glSpecializeShaderARB, the
    extension's entry points, in a context whose version (3.3) does not have them; two
    dvec4 inputs (constants: A and B as hexadecimal floats) at locations 0 and 1 (each one location) arrive exactly; the context
    lists the SPIR-V extensions (GL_NUM_SPIR_V_EXTENSIONS > 0)."""
    ctx = glhelp.context(4, 1, api="gl33")
    shaders = []
    for kind, text in ((E.GL_VERTEX_SHADER, SPIRV_VS), (E.GL_FRAGMENT_SHADER, SPIRV_FS)):
        sh = ctx.glCreateShader(kind)
        data = assemble(text)
        ctx.glShaderBinary(1, [sh], E.GL_SHADER_BINARY_FORMAT_SPIR_V, data, len(data))
        ctx.glSpecializeShaderARB(sh, "main", 0, [], [])
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
        shaders.append(sh)
    link_and_use(ctx, *shaders)
    assert _draw(ctx) == [[255, 255, 0, 255]] * 4
    assert ctx.glGetIntegerv(E.GL_NUM_SPIR_V_EXTENSIONS)[0] > 0
