"""GL_EXT_gpu_shader4: GLSL 1.30's integer and texel-fetch language brought to
GLSL 1.10/1.20 shaders of a compatibility context (`unsigned int`, integer
operators and attributes, flat/noperspective varyings, `varying out`, the
shape-named texture functions texelFetch2D, textureSize2D, texture2DArray,
shadow2DArray..., truncate, gl_VertexID), and its EXT entry points. Values are
computed by hand from the texels and vertices the tests upload."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

EXT = "GL_EXT_gpu_shader4"
HEADER = "#version 120\n#extension GL_EXT_gpu_shader4 : require\n"
# a full-screen quad from gl_VertexID alone (no attributes), with integer and
# unsigned arithmetic on the ID
QUAD_VS = HEADER + (
    "flat varying int vid;\n"
    "void main() { vid = gl_VertexID;\n"
    " vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n"
    " gl_Position = vec4(p, 0.0, 1.0); }\n")


def _compile(ctx, kind, src):
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    return s, bool(ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0]), ctx.glGetShaderInfoLog(s)


def _program(ctx, vs, fs, outputs=()):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s, ok, log = _compile(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(p, s)
    for index, name in enumerate(outputs):
        ctx.glBindFragDataLocationEXT(p, index, name)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _target(ctx, internal, w, h=1):
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, internal, w, h)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, w, h)


def _read_uint(ctx, w, h=1):
    data = ctx.glReadPixels(0, 0, w, h, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT)
    return np.frombuffer(data, np.uint32).reshape(h, w, 4)


def _texture(ctx, unit, target, internal, w, h, d, fmt, type_, data):
    ctx.glActiveTexture(E.GL_TEXTURE0 + unit)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(target, tex)
    if target == E.GL_TEXTURE_2D:
        ctx.glTexImage2D(target, 0, internal, w, h, 0, fmt, type_, data)
    else:
        ctx.glTexImage3D(target, 0, internal, w, h, d, 0, fmt, type_, data)
    for pname in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(target, pname, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return tex


def test_listed_in_compatibility_contexts_only():
    compat = glhelp.context(1, 1, api="compat")
    assert EXT in compat.glGetString(E.GL_EXTENSIONS).split()
    core = glhelp.context(1, 1, api="gl45")
    names = [core.glGetStringi(E.GL_EXTENSIONS, i)
             for i in range(core.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
    assert EXT not in names


def test_the_macro_is_defined_and_the_language_needs_the_extension():
    """`#ifdef GL_EXT_gpu_shader4` holds in a compatibility context; without the
    #extension line, GLSL 1.20 keeps its rules (%, `varying out` and `unsigned`
    are errors with Mesa's messages)."""
    ctx = glhelp.context(1, 1, api="compat")
    _s, ok, log = _compile(ctx, E.GL_FRAGMENT_SHADER,
                           "#version 120\n#ifndef GL_EXT_gpu_shader4\n#error no macro\n#endif\n"
                           "void main() { gl_FragColor = vec4(1.0); }\n")
    assert ok, log
    _s, ok, log = _compile(ctx, E.GL_FRAGMENT_SHADER,
                           "#version 120\nuniform int a;\n"
                           "void main() { gl_FragColor = vec4(a % 3); }\n")
    assert not ok and "operator '%' is reserved in GLSL 1.20" in log
    _s, ok, log = _compile(ctx, E.GL_FRAGMENT_SHADER,
                           "#version 120\nvarying out vec4 c;\nvoid main() { c = vec4(1.0); }\n")
    assert not ok and "`varying out' requires GL_EXT_gpu_shader4" in log
    _s, ok, log = _compile(ctx, E.GL_FRAGMENT_SHADER,
                           HEADER + "unsigned float x;\nvoid main() { gl_FragColor = vec4(1.0); }\n")
    assert not ok and "0:3(1): error: `unsigned' must be followed by `int'" in log


def test_integer_arithmetic_varyings_and_varying_out():
    """gl_VertexID through a flat int varying (the provoking vertex of each
    triangle is its last: IDs 2 and 3 for the two triangles of the strip), then
    %, <<, >>, &, |, ^, ~, unsigned literals and `unsigned int` into a
    `varying out uvec4` bound with glBindFragDataLocationEXT."""
    ctx = glhelp.context(1, 1, api="compat")
    _target(ctx, E.GL_RGBA32UI, 4, 4)
    fs = HEADER + ("flat varying int vid;\n"
                   "varying out uvec4 result;\n"
                   "void main() {\n"
                   " unsigned int u = 0xF0u | unsigned int(vid);\n"
                   " int x = int(gl_FragCoord.x);\n"
                   " result = uvec4(u ^ 0x0Fu, unsigned int((x * 7) % 4) << 4, ~u >> 28,"
                   " unsigned int(vid) & 1u);\n"
                   "}\n")
    _program(ctx, QUAD_VS, fs, outputs=("result",))
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = _read_uint(ctx, 4, 4)
    # triangle (0, 1, 2) covers the lower-left half, (1, 2, 3) the upper-right one;
    # flat shading takes the last vertex of each: vid 2 or 3
    ys, xs = np.mgrid[0:4, 0:4]
    cx, cy = (xs + 0.5) / 4 * 2 - 1, (ys + 0.5) / 4 * 2 - 1
    vid = np.where(cx + cy < 0, 2, 3).astype(np.uint32)
    u = np.uint32(0xF0) | vid
    expected = np.stack([u ^ np.uint32(0x0F), ((xs * 7) % 4 << 4).astype(np.uint32),
                         (~u) >> np.uint32(28), vid & np.uint32(1)], axis=-1)
    np.testing.assert_array_equal(got, expected)


def test_texel_fetch_size_and_array_lookups_of_integer_textures():
    """texelFetch2D of an RGBA8UI texture, textureSize2D, and texelFetch2DArray /
    texture2DArray of an RGBA16I array texture, in a GLSL 1.20 fragment shader."""
    ctx = glhelp.context(1, 1, api="compat")
    texels = np.arange(3 * 2 * 4, dtype=np.uint8).reshape(2, 3, 4) * 5      # 3x2, RGBA
    _texture(ctx, 0, E.GL_TEXTURE_2D, E.GL_RGBA8UI, 3, 2, 1, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE, texels)
    layers = (np.arange(2 * 1 * 2 * 4, dtype=np.int16).reshape(2, 1, 2, 4) - 7) * 100   # 2 layers of 2x1
    _texture(ctx, 1, E.GL_TEXTURE_2D_ARRAY, E.GL_RGBA16I, 2, 1, 2, E.GL_RGBA_INTEGER, E.GL_SHORT, layers)
    _target(ctx, E.GL_RGBA32UI, 3, 2)
    fs = HEADER + ("uniform usampler2D u;\nuniform isampler2DArray a;\n"
                   "varying out uvec4 result;\n"
                   "void main() {\n"
                   " ivec2 p = ivec2(gl_FragCoord.xy);\n"
                   " ivec2 size = textureSize2D(u, 0);\n"
                   " if (p.y == 0) result = texelFetch2D(u, ivec2(size.x - 1 - p.x, 1), 0);\n"
                   " else if (p.x < 2) result = uvec4(texelFetch2DArray(a, ivec3(p.x, 0, 1), 0) + 1000);\n"
                   " else result = uvec4(texture2DArray(a, vec3(0.25, 0.5, 0.0)) + 1000);\n"
                   "}\n")
    prog = _program(ctx, QUAD_VS, fs, outputs=("result",))
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "u"), 0)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "a"), 1)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = _read_uint(ctx, 3, 2)
    np.testing.assert_array_equal(got[0], texels[1, ::-1])
    np.testing.assert_array_equal(got[1, :2], (layers[1, 0, :2] + 1000).astype(np.uint32))
    np.testing.assert_array_equal(got[1, 2], (layers[0, 0, 0] + 1000).astype(np.uint32))


def test_shadow_array_lookup_truncate_and_round():
    """shadow2DArray compares against the chosen layer's depth (LEQUAL) and returns
    (r, r, r, 1); truncate and round of constants and varyings."""
    ctx = glhelp.context(4, 1, api="compat")
    depth = np.array([[0.25, 0.75], [0.6, 0.6]], np.float32).reshape(2, 1, 2)   # 2 layers of 2x1
    ctx.glActiveTexture(E.GL_TEXTURE0)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, tex)
    ctx.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_DEPTH_COMPONENT32F, 2, 1, 2, 0,
                     E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth)
    for pname in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, pname, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE)
    ctx.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_COMPARE_FUNC, E.GL_LEQUAL)
    _target(ctx, E.GL_RGBA32UI, 4, 1)
    fs = HEADER + ("uniform sampler2DArrayShadow s;\nvarying out uvec4 result;\n"
                   "void main() {\n"
                   " int x = int(gl_FragCoord.x);\n"
                   " float u = x % 2 == 0 ? 0.25 : 0.75;\n"
                   " float layer = float(x / 2);\n"
                   " vec4 r = shadow2DArray(s, vec4(u, 0.5, layer, 0.5));\n"
                   " result = uvec4(r * 10.0) + uvec4(0u, 0u, unsigned int(truncate(-2.7) + 10.0),"
                   " unsigned int(round(gl_FragCoord.x * 2.0)));\n"
                   "}\n")
    _program(ctx, QUAD_VS, fs, outputs=("result",))
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = _read_uint(ctx, 4)[0]
    ref = 0.5
    d = [0.25, 0.75, 0.6, 0.6]                # (layer 0: x 0, 1), (layer 1: x 0, 1)
    r = [10 if ref <= di else 0 for di in d]
    expected = [[ri, ri, ri + 8, 10 + round((x + 0.5) * 2)] for x, ri in enumerate(r)]
    assert got.tolist() == expected


def test_integer_attributes_through_the_ext_entry_points():
    """`attribute ivec2` fed by glVertexAttribIPointerEXT keeps its integers (no
    conversion to float): the point's colour is the attribute itself."""
    ctx = glhelp.context(1, 1, api="compat")
    _target(ctx, E.GL_RGBA32UI, 2, 1)
    vs = HEADER + ("attribute ivec2 v;\nflat varying ivec2 c;\n"
                   "void main() { c = v; gl_PointSize = 1.0;\n"
                   " gl_Position = vec4(v.x == 70000 ? -0.5 : 0.5, 0.0, 0.0, 1.0); }\n")
    fs = HEADER + "flat varying ivec2 c;\nvarying out uvec4 result;\n" \
        "void main() { result = uvec4(c, c.x + c.y, 1); }\n"
    prog = _program(ctx, vs, fs, outputs=("result",))
    data = np.array([[70000, -3], [123456, 9]], np.int32)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(prog, "v")
    ctx.glVertexAttribIPointerEXT(loc, 2, E.GL_INT, 0, 0)
    ctx.glEnableVertexAttribArray(loc)
    assert ctx.glGetVertexAttribIivEXT(loc, E.GL_VERTEX_ATTRIB_ARRAY_INTEGER)[0] == 1
    ctx.glDrawArrays(E.GL_POINTS, 0, 2)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = _read_uint(ctx, 2)[0].astype(np.int64)
    u32 = lambda v: v & 0xFFFFFFFF
    assert got.tolist() == [[70000, u32(-3), 69997, 1], [123456, 9, 123465, 1]]


@pytest.mark.parametrize("src, message", [
    ("flat varying float f;\nvoid main() { f = 1.0; gl_Position = vec4(0.0); }\n", None),
    ("attribute uvec4 a;\nvoid main() { gl_Position = vec4(a); }\n", None),
    ("varying out vec4 c;\nvoid main() { gl_Position = vec4(0.0); }\n",
     "`varying out' requires GL_EXT_gpu_shader4 in a fragment shader"),
])
def test_vertex_shader_declarations(src, message):
    ctx = glhelp.context(1, 1, api="compat")
    _s, ok, log = _compile(ctx, E.GL_VERTEX_SHADER, HEADER + src)
    if message is None:
        assert ok, log
    else:
        assert not ok and message in log
