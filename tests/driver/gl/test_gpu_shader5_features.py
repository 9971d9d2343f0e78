"""GL_ARB_gpu_shader5's parts beside vertex streams, drawn and compared with independent
expectations: interpolateAtSample at each sample of a multisample framebuffer reads the
varying at the sample positions GL reports (GL_SAMPLE_POSITION)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .test_geometry import _shader

VS = """#version 150
in vec2 pos;
out vec2 texcoord;
void main() { gl_Position = vec4(pos, 0.0, 1.0); texcoord = pos * 0.5 + 0.5; }
"""
FS = """#version 400
in vec2 texcoord;
uniform int sample_id;
out vec4 colour;
void main() { colour = vec4(interpolateAtSample(texcoord, sample_id), 0.0, 1.0); }
"""


def _quad_program(ctx, vs, fs):
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, _shader(ctx, E.GL_VERTEX_SHADER, vs))
    ctx.glAttachShader(p, _shader(ctx, E.GL_FRAGMENT_SHADER, fs))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    return p


def test_interpolate_at_sample_reads_the_varying_at_each_sample_position():
    """A 1x1 four-sample RG32F framebuffer: the fragment writes interpolateAtSample(texcoord, i),
    texcoord being the position inside the pixel; resolved, it is sample i's GL_SAMPLE_POSITION."""
    with driver.Context(api="gl46", width=1, height=1) as ctx:
        p = _quad_program(ctx, VS, FS)
        fbs, rbs = ctx.glGenFramebuffers(2), ctx.glGenRenderbuffers(2)
        for samples, fb, rb in zip((4, 0), fbs, rbs):
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
            ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
            ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, E.GL_RG32F, 1, 1)
            ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        ctx.glViewport(0, 0, 1, 1)
        got, positions = [], []
        for i in range(4):
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbs[0])
            positions.append(ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i))
            ctx.glUniform1i(ctx.glGetUniformLocation(p, "sample_id"), i)
            ctx.glClear(E.GL_COLOR_BUFFER_BIT)
            ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbs[0])
            ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fbs[1])
            ctx.glBlitFramebuffer(0, 0, 1, 1, 0, 0, 1, 1, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbs[1])
            got.append(np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RG, E.GL_FLOAT), np.float32))
        assert ctx.glGetError() == E.GL_NO_ERROR
    assert len({tuple(pos) for pos in positions}) == 4            # four distinct positions
    np.testing.assert_allclose(np.array(got), np.array(positions, np.float32), atol=1e-6)


# -- the language side: built-ins GLSL 1.50 gets with #extension GL_ARB_gpu_shader5 -------------
def _const_int(expr: str, setup: str = "") -> int:
    """The value the compiler folds ``expr`` to (it must be a constant expression)."""
    from compiler.glsl import parse
    unit = parse(f"#version 150\n#extension GL_ARB_gpu_shader5 : require\n{setup}"
                 f"const int k = {expr};\nout vec4 o;\nvoid main() {{ o = vec4(float(k)); }}\n", "fragment")
    return next(v for v in unit.globals if v.name == "k").const_value[0]


@pytest.mark.parametrize("expr, want", [
    # bit counts, lowest and highest set bits (findMSB of a negative int: the highest clear bit)
    ("bitCount(783)", bin(783).count("1")), ("bitCount(-3)", 31), ("bitCount(0xFFFFFFFCu)", 30),
    ("findLSB(0)", -1), ("findLSB(40)", 3), ("findLSB(-2147483647 - 1)", 31),
    ("findMSB(0)", -1), ("findMSB(-1)", -1), ("findMSB(1024)", 10), ("findMSB(-1025)", 10),
    ("int(findMSB(0x80000000u))", 31),
    ("bitfieldReverse(1)", -2147483648), ("int(bitfieldReverse(0x0000000Fu) >> 28u)", 15),
    # extract sign-extends an int field, zero-extends a uint one; 0 bits give 0
    ("bitfieldExtract(0x0F0, 4, 4)", -1), ("int(bitfieldExtract(0x0F0u, 4, 4))", 15),
    ("bitfieldExtract(-1, 0, 0)", 0),
    ("bitfieldInsert(0x7FFFFFFF, 0, 4, 8)", 0x7FFFF00F), ("bitfieldInsert(0, 5, 30, 2)", 1 << 30),
    ("floatBitsToInt(-0.0)", -2147483648), ("floatBitsToInt(1.0)", 0x3F800000),
    ("int(floatBitsToUint(intBitsToFloat(0x40490FDB)))", 0x40490FDB),
    # ldexp exact powers of two; results below the normal range are zeros of their sign
    ("floatBitsToInt(ldexp(0.78125, 7))", 0x42C80000),                       # 100.0
    ("floatBitsToInt(ldexp(-0.5, -127))", -2147483648),                      # -0.0
    ("floatBitsToInt(ldexp(0.999999940, 128))", 0x7F7FFFFF),                 # FLT_MAX
])
def test_integer_and_bit_built_ins_fold_in_constant_expressions(expr, want):
    assert _const_int(expr) == want


def test_sample_mask_in_comes_with_the_extension():
    from compiler.glsl import parse
    parse("#version 150\n#extension GL_ARB_gpu_shader5 : require\nout vec4 o;\n"
          "void main() { o = vec4(float(gl_SampleMaskIn[0])); }\n", "fragment")


# -- uniform blocks: two without a binding, and arrays of blocks indexed dynamically -----------
BLOCKS_VS = "#version 150\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"


def _draw_blocks(fs, values, n=None):
    """Draw a 1x1 quad with uniform block k (GL's block order) bound to binding point k and
    holding values[k]; returns (the block names GL reports, the pixel)."""
    import struct
    with driver.Context(api="gl46", width=1, height=1) as ctx:
        p = _quad_program(ctx, BLOCKS_VS, fs)
        count = ctx.glGetProgramiv(p, E.GL_ACTIVE_UNIFORM_BLOCKS)[0]
        names = [ctx.glGetActiveUniformBlockName(p, k) for k in range(count)]
        for k, buf in enumerate(ctx.glGenBuffers(count)):
            ctx.glUniformBlockBinding(p, k, k)
            ctx.glBindBuffer(E.GL_UNIFORM_BUFFER, buf)
            ctx.glBufferData(E.GL_UNIFORM_BUFFER, 16, struct.pack("<4f", values[k], 0, 0, 0), E.GL_STATIC_DRAW)
            ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, k, buf)
        if n is not None:
            ctx.glUniform1i(ctx.glGetUniformLocation(p, "n"), n)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert ctx.glGetError() == E.GL_NO_ERROR
        return names, list(np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8))


def test_two_uniform_blocks_without_binding_read_their_own_buffers():
    fs = ("#version 150\nuniform A { float a; };\nuniform B { float b; };\nout vec4 o;\n"
          "void main() { o = vec4(a, b, 0.0, 1.0); }\n")
    names, pixel = _draw_blocks(fs, [0.25, 0.75])
    assert names == ["A", "B"] and pixel == [64, 191, 0, 255]


@pytest.mark.parametrize("n", [0, 2])
def test_arrays_of_blocks_are_one_block_per_element_indexed_dynamically(n):
    """GL 4.6 section 7.3.1.1: r[3] is blocks R[0..2] at consecutive bindings;
    ARB_gpu_shader5: r[n] with a dynamically uniform n."""
    fs = ("#version 400\nuniform R { float v; } r[3];\n"
          "uniform G { float v; } g[2];\nuniform int n;\nout vec4 o;\n"
          "void main() { o = vec4(r[n].v, g[n / 2].v, 0.0, 1.0); }\n")
    values = [0.0, 0.25, 0.5, 0.75, 1.0]          # R[0], R[1], R[2], G[0], G[1]
    names, pixel = _draw_blocks(fs, values, n)
    assert names == ["R[0]", "R[1]", "R[2]", "G[0]", "G[1]"]
    assert pixel == [round(values[n] * 255), round(values[3 + n // 2] * 255), 0, 255]


# -- the language's accept/reject rules ---------------------------------------------------------
FS_HEAD = "#version 150\n#extension GL_ARB_gpu_shader5 : require\n"


@pytest.mark.parametrize("body, message", [
    # interpolateAt*'s interpolant is an l-value of a fragment input (GLSL 4.00 section 8.13)
    ("uniform vec4 u;\nout vec4 o;\nvoid main() { o = interpolateAtCentroid(u); }\n", "shader input"),
    ("in vec4 v;\nout vec4 o;\nvoid main() { vec4 t = v; o = interpolateAtCentroid(t); }\n", "shader input"),
    ("in vec4 v;\nout vec4 o;\nvoid main() { o = interpolateAtCentroid(v * 2.0); }\n", "shader input"),
    # ... without component selection before GLSL 4.40
    ("in vec4 v;\nout vec4 o;\nvoid main() { o.xy = interpolateAtSample(v.xy, 0); }\n", "component selection"),
    # sample and centroid together; sample on a uniform block member (GLSL 4.00 section 4.3)
    ("sample centroid in vec4 v;\nout vec4 o;\nvoid main() { o = v; }\n", "cannot be used together"),
    ("uniform U { sample vec4 x; };\nout vec4 o;\nvoid main() { o = x; }\n", "block members"),
    # precise redeclares a variable in the scope it was declared in (GLSL 4.00 section 4.7)
    ("float x;\nout vec4 o;\nvoid f() { precise x; }\nvoid main() { o = vec4(x); }\n", "precise"),
])
def test_gpu_shader5_compile_errors(body, message):
    from compiler.glsl import parse
    from compiler.glsl.errors import GLSLCompileError
    with pytest.raises(GLSLCompileError) as err:
        parse(FS_HEAD + body, "fragment")
    assert message in str(err.value) and "error:" in str(err.value)


@pytest.mark.parametrize("source", [
    FS_HEAD + "in vec4 v[2];\nin B { vec4 m; } b;\nout vec4 o;\n"
              "void main() { o = interpolateAtCentroid(v[1]) + interpolateAtOffset(b.m, vec2(0.25)); }\n",
    "#version 440\nin vec4 v;\nout vec4 o;\nvoid main() { o.xy = interpolateAtSample(v.xy, 0); }\n",
    FS_HEAD + "precise out vec4 o;\nfloat x;\nprecise x;\nvoid main() { o = vec4(x); }\n",
])
def test_gpu_shader5_valid_forms(source):
    from compiler.glsl import parse
    parse(source, "fragment")


@pytest.mark.parametrize("version, links", [("400", False), ("440", True)])
def test_sample_qualifier_matches_between_stages_before_glsl_440(version, links):
    vs = f"#version {version}\nin vec2 pos;\nout vec4 c;\nvoid main() {{ gl_Position = vec4(pos, 0, 1); c = vec4(1); }}\n"
    fs = f"#version {version}\nsample in vec4 c;\nout vec4 o;\nvoid main() {{ o = c; }}\n"
    with driver.Context(api="gl46", width=1, height=1) as ctx:
        p = ctx.glCreateProgram()
        ctx.glAttachShader(p, _shader(ctx, E.GL_VERTEX_SHADER, vs))
        ctx.glAttachShader(p, _shader(ctx, E.GL_FRAGMENT_SHADER, fs))
        ctx.glLinkProgram(p)
        assert bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]) == links, ctx.glGetProgramInfoLog(p)
        if not links:
            assert "sample" in ctx.glGetProgramInfoLog(p)


# -- listed from GL 3.2 (core) and in compatibility contexts --------------------------------
LISTED_GS = """#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points, invocations = 2) in;
layout(points, max_vertices = 2) out;
layout(stream = 1) out float s1;
void main() {
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
    s1 = fma(float(gl_InvocationID), 2.0, float(bitCount(7u)));
    EmitStreamVertex(1);
}
"""


@pytest.mark.parametrize("api", ["gl32", "gl46", "compat"])
def test_listed_and_its_glsl_150_extension_captures_stream_1(api):
    """GLSL 1.50 with the #extension: invocation i emits fma(i, 2, bitCount(7)) = 3 + 2i to
    stream 1, captured in invocation order."""
    with driver.Context(api=api, width=1, height=1) as ctx:
        assert "GL_ARB_gpu_shader5" in ctx.extensions
        p = ctx.glCreateProgram()
        ctx.glAttachShader(p, _shader(ctx, E.GL_VERTEX_SHADER, BLOCKS_VS))
        ctx.glAttachShader(p, _shader(ctx, E.GL_GEOMETRY_SHADER, LISTED_GS))
        ctx.glTransformFeedbackVaryings(p, 1, ["s1"], E.GL_INTERLEAVED_ATTRIBS)
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ARRAY_BUFFER, 8, np.zeros(2, np.float32).tobytes(), E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 12, np.full(3, -1, np.float32).tobytes(), E.GL_STREAM_READ)
        ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        ctx.glEndTransformFeedback()
        assert ctx.glGetError() == E.GL_NO_ERROR
        got = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 12)), np.float32)
    assert list(got) == [3.0, 5.0, -1.0]


def test_shadow_gather_of_a_depth_texture_uploaded_as_unsigned_bytes():
    """A 2x2 DEPTH_COMPONENT texture from GL_UNSIGNED_BYTE data (depths 0, 64/255 | 128/255, 1:
    GL 4.6 table 8.2's normalized conversion); textureGather(shadow, centre, 0.4) compares each
    texel in gather order (0,1) (1,1) (1,0) (0,0) with LEQUAL: 0.4 <= 128/255, 1, 64/255, 0."""
    fs = ("#version 400\nuniform sampler2DShadow s;\nout vec4 o;\n"
          "void main() { o = textureGather(s, vec2(0.5), 0.4); }\n")
    with driver.Context(api="gl46", width=1, height=1) as ctx:
        p = _quad_program(ctx, BLOCKS_VS, fs)
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT24, 2, 2, 0, E.GL_DEPTH_COMPONENT,
                         E.GL_UNSIGNED_BYTE, bytes([0, 64, 128, 255]))
        for pname, value in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                             (E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE),
                             (E.GL_TEXTURE_COMPARE_FUNC, E.GL_LEQUAL)):
            ctx.glTexParameteri(E.GL_TEXTURE_2D, pname, value)
        ctx.glUniform1i(ctx.glGetUniformLocation(p, "s"), 0)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert ctx.glGetError() == E.GL_NO_ERROR
        pixel = list(np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8))
    assert pixel == [255, 255, 0, 0]
