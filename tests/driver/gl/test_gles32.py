"""GLES 3.2 contexts: the version strings and what ES 3.2 made core, each drawn
and checked against hand-computed pixels - a geometry shader in GLSL ES 3.20
(a point made a quad), a layered framebuffer through glFramebufferTexture with
gl_Layer, tessellation with a control shader writing gl_BoundingBox, in/out
interface blocks between ES stages (3.20, and 3.10 with OES_shader_io_blocks),
interpolateAtOffset and the sample qualifier (3.20, and 3.00 with
OES_shader_multisample_interpolation) with their limits, and the primitive
bounding box state."""

import numpy as np
import pytest

from driver.gl import enums as E
from driver.gl.features.primitive_bounding_box import DEFAULT_BOX
from tests.driver.agx import glhelp

W = H = 8
VS_POS = "#version 320 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FULL = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)


def _pixels(ctx, w=W, h=H):
    return np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(h, w, 4)


def _program(ctx, stages: dict):
    prog = glhelp.link(ctx, stages)
    ctx.glUseProgram(prog)
    return prog


def _vertex_array(ctx, prog, data):
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    glhelp.vertices(ctx, prog, data, {"p": (2, 0)}, 2)


def test_version_strings_and_extensions():
    ctx = glhelp.context(W, H, api="gles32")
    assert ctx.glGetString(E.GL_VERSION).startswith("OpenGL ES 3.2 ")
    assert ctx.glGetString(E.GL_SHADING_LANGUAGE_VERSION).startswith("OpenGL ES GLSL ES 3.20")
    assert ctx.glGetIntegerv(E.GL_MAJOR_VERSION) == [3] and ctx.glGetIntegerv(E.GL_MINOR_VERSION) == [2]
    for name in ("GL_KHR_blend_equation_advanced", "GL_OES_shader_io_blocks", "GL_EXT_shader_io_blocks",
                 "GL_OES_primitive_bounding_box", "GL_OES_shader_multisample_interpolation"):
        assert name in ctx.extensions, name


GS_QUAD = """#version 320 es
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
out Colour { vec4 c; } to_fs;
void main() {
    // the left half of the framebuffer, red at the bottom, green at the top
    for (int i = 0; i < 4; i++) {
        vec2 corner = vec2(i & 1, i >> 1);
        to_fs.c = vec4(1.0 - corner.y, corner.y, float(gl_PrimitiveIDIn), 1.0);
        gl_Position = vec4(gl_in[0].gl_Position.x + corner.x - 1.0, corner.y * 2.0 - 1.0, 0.0, 1.0);
        EmitVertex();
    }
    EndPrimitive();
}
"""
FS_BLOCK = ("#version 320 es\nprecision highp float;\nin Colour { vec4 c; } from_gs;\nout vec4 o;\n"
            "void main() { o = from_gs.c; }\n")


def test_geometry_shader_in_glsl_es_320():
    """One point at x = 0 becomes a quad over x in [-1, 0]: the left half is drawn with
    the colour the geometry stage computed (red -> green from bottom to top), the
    right half stays clear."""
    ctx = glhelp.context(W, H, api="gles32")
    prog = _program(ctx, {E.GL_VERTEX_SHADER: VS_POS, E.GL_GEOMETRY_SHADER: GS_QUAD,
                          E.GL_FRAGMENT_SHADER: FS_BLOCK})
    assert ctx.glGetProgramiv(prog, E.GL_GEOMETRY_VERTICES_OUT) == [4]
    assert ctx.glGetProgramiv(prog, E.GL_GEOMETRY_OUTPUT_TYPE) == [E.GL_TRIANGLE_STRIP]
    _vertex_array(ctx, prog, np.array([[0.0, 0.0]], np.float32))
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = _pixels(ctx)
    assert (px[:, W // 2:] == 0).all()
    y = (np.arange(H) + 0.5) / H                       # the green ramp at pixel centres
    np.testing.assert_allclose(px[:, 0, 1], np.round(y * 255), atol=1)
    np.testing.assert_allclose(px[:, 0, 0], np.round((1 - y) * 255), atol=1)
    assert (px[:, :W // 2, 3] == 255).all()


GS_LAYERS = """#version 320 es
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
out highp float layer_value;
void main() {
    for (int layer = 0; layer < 2; layer++) {
        for (int i = 0; i < 3; i++) {
            gl_Layer = layer;
            layer_value = float(layer + 1) * 0.25;
            gl_Position = gl_in[i].gl_Position;
            EmitVertex();
        }
        EndPrimitive();
    }
}
"""


def test_layered_framebuffer_through_framebuffer_texture():
    """glFramebufferTexture (core in GLES 3.2) attaches both layers of a 2D array;
    gl_Layer sends each copy of the triangle to its layer: layer 0 gets 0.25, layer 1 0.5."""
    ctx = glhelp.context(W, H, api="gles32")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, tex)
    ctx.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, W, H, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    fs = ("#version 320 es\nprecision highp float;\nin highp float layer_value;\nout vec4 o;\n"
          "void main() { o = vec4(layer_value, 0.0, 0.0, 1.0); }\n")
    prog = _program(ctx, {E.GL_VERTEX_SHADER: VS_POS, E.GL_GEOMETRY_SHADER: GS_LAYERS, E.GL_FRAGMENT_SHADER: fs})
    _vertex_array(ctx, prog, FULL)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    (read,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, read)
    for layer, red in ((0, 64), (1, 128)):
        ctx.glFramebufferTextureLayer(E.GL_READ_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, layer)
        px = _pixels(ctx)
        assert (np.abs(px[..., 0].astype(int) - red) <= 1).all() and (px[..., 3] == 255).all(), (layer, px[0, 0])


TCS = """#version 320 es
layout(vertices = 3) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 2.0; gl_TessLevelOuter[2] = 2.0;
    gl_TessLevelInner[0] = 2.0;
    gl_BoundingBox[0] = vec4(-1.0, -1.0, 0.0, 1.0);     // a hint the implementation may ignore
    gl_BoundingBox[1] = vec4(1.0, 1.0, 0.0, 1.0);
}
"""
TES = """#version 320 es
layout(triangles, equal_spacing, ccw) in;
out highp vec3 coord;
void main() {
    coord = gl_TessCoord;
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
}
"""


def test_tessellation_in_glsl_es_320():
    """A patch of 3 vertices covering the framebuffer, tessellated (levels 2): every
    pixel is covered and its barycentric coordinates sum to 1."""
    ctx = glhelp.context(W, H, api="gles32")
    fs = ("#version 320 es\nprecision highp float;\nin highp vec3 coord;\nout vec4 o;\n"
          "void main() { o = vec4(coord, 1.0); }\n")
    prog = _program(ctx, {E.GL_VERTEX_SHADER: VS_POS, E.GL_TESS_CONTROL_SHADER: TCS,
                          E.GL_TESS_EVALUATION_SHADER: TES, E.GL_FRAGMENT_SHADER: fs})
    _vertex_array(ctx, prog, FULL)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = _pixels(ctx).astype(int)
    assert (px[..., 3] == 255).all()
    assert (np.abs(px[..., :3].sum(axis=2) - 255) <= 3).all(), px[0, 0]


VS_BLOCK = ("{version}in vec2 p;\nout Data {{ vec4 colour; }} to_fs;\n"
            "void main() {{ to_fs.colour = vec4(0.25, 0.5, 0.75, 1.0); gl_Position = vec4(p, 0.0, 1.0); }}\n")
FS_DATA = ("{version}precision highp float;\nin Data {{ vec4 colour; }} from_vs;\nout vec4 o;\n"
           "void main() {{ o = from_vs.colour; }}\n")


@pytest.mark.parametrize("api, version", [
    ("gles32", "#version 320 es\n"),
    ("gles31", "#version 310 es\n#extension GL_OES_shader_io_blocks : require\n"),
    ("gles31", "#version 310 es\n#extension GL_EXT_shader_io_blocks : require\n")])
def test_interface_blocks_between_es_stages(api, version):
    ctx = glhelp.context(W, H, api=api)
    prog = _program(ctx, {E.GL_VERTEX_SHADER: VS_BLOCK.format(version=version),
                          E.GL_FRAGMENT_SHADER: FS_DATA.format(version=version)})
    _vertex_array(ctx, prog, FULL)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (np.abs(_pixels(ctx).astype(int) - [64, 128, 191, 255]) <= 1).all()


def test_io_blocks_need_the_extension_in_glsl_es_310():
    ctx = glhelp.context(W, H, api="gles31")
    sh = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderSource(sh, 1, [VS_BLOCK.format(version="#version 310 es\n")])
    ctx.glCompileShader(sh)
    assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [0]
    assert "interface blocks require" in ctx.glGetShaderInfoLog(sh)


VS_RAMP = ("{version}in vec2 p;\nout highp float v;\nsample out highp float w;\n"
           "void main() {{ v = p.x * 0.5 + 0.5; w = v; gl_Position = vec4(p, 0.0, 1.0); }}\n")
FS_OFFSET = ("{version}precision highp float;\nin highp float v;\nsample in highp float w;\nout vec4 o;\n"
             "void main() {{\n  float d = (interpolateAtOffset(v, vec2({offset}, 0.0)) - v) * {width}.0;\n"
             "  o = vec4(d + 0.5, w, 0.0, 1.0);\n}}\n")


@pytest.mark.parametrize("api, version", [
    ("gles32", "#version 320 es\n"),
    ("gles3", "#version 300 es\n#extension GL_OES_shader_multisample_interpolation : require\n")])
def test_interpolate_at_offset_and_its_limits(api, version):
    """v grows by 1/W per pixel along x: interpolateAtOffset(v, (offset, 0)) - v is
    offset / W at both ends of the advertised range."""
    ctx = glhelp.context(W, H, api=api)
    lo = ctx.glGetFloatv(E.GL_MIN_FRAGMENT_INTERPOLATION_OFFSET)[0]
    hi = ctx.glGetFloatv(E.GL_MAX_FRAGMENT_INTERPOLATION_OFFSET)[0]
    bits = ctx.glGetIntegerv(E.GL_FRAGMENT_INTERPOLATION_OFFSET_BITS)[0]
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert lo <= -0.5 and hi >= 0.5 - 2.0 ** -bits and bits >= 4       # GLES 3.2 table 21.41's minimums
    for offset in (lo, hi):
        prog = _program(ctx, {E.GL_VERTEX_SHADER: VS_RAMP.format(version=version),
                              E.GL_FRAGMENT_SHADER: FS_OFFSET.format(version=version, offset=repr(offset), width=W)})
        _vertex_array(ctx, prog, FULL)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        assert ctx.glGetError() == E.GL_NO_ERROR
        px = _pixels(ctx).astype(int)
        assert (np.abs(px[..., 0] - round((offset + 0.5) * 255)) <= 1).all(), (offset, px[0, :, 0])
        x = (np.arange(W) + 0.5) / W                   # w at the pixel centres (one sample)
        assert (np.abs(px[0, :, 1] - np.round(x * 255)) <= 1).all()


def test_multisample_interpolation_limits_need_the_extension():
    ctx = glhelp.context(W, H, api="gles2")
    ctx.glGetFloatv(E.GL_MIN_FRAGMENT_INTERPOLATION_OFFSET)
    assert ctx.glGetError() == E.GL_INVALID_ENUM


@pytest.mark.parametrize("api, command", [("gles32", "glPrimitiveBoundingBox"),
                                          ("gles31", "glPrimitiveBoundingBoxOES"),
                                          ("gles31", "glPrimitiveBoundingBoxEXT")])
def test_primitive_bounding_box_state(api, command):
    ctx = glhelp.context(W, H, api=api)
    assert tuple(ctx.glGetFloatv(E.GL_PRIMITIVE_BOUNDING_BOX)) == DEFAULT_BOX
    box = (-0.5, -0.25, 0.0, 1.0, 0.5, 0.75, 1.0, 2.0)
    getattr(ctx, command)(*box)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert tuple(ctx.glGetFloatv(E.GL_PRIMITIVE_BOUNDING_BOX)) == box
    # a draw outside the box still draws (the box is a hint shimgl ignores)
    prog = _program(ctx, {E.GL_VERTEX_SHADER: VS_POS.replace("320", "310"),
                          E.GL_FRAGMENT_SHADER: ("#version 310 es\nprecision highp float;\nout vec4 o;\n"
                                                 "void main() { o = vec4(1.0); }\n")})
    _vertex_array(ctx, prog, FULL)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert (_pixels(ctx) == 255).all()


def test_primitive_bounding_box_absent_from_gles30():
    ctx = glhelp.context(W, H, api="gles3")
    ctx.glPrimitiveBoundingBox(*DEFAULT_BOX)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glGetFloatv(E.GL_PRIMITIVE_BOUNDING_BOX)
    assert ctx.glGetError() == E.GL_INVALID_ENUM


def test_compute_shader_without_a_size_compiles_and_fails_to_link():
    ctx = glhelp.context(W, H, api="gles32")
    sh = ctx.glCreateShader(E.GL_COMPUTE_SHADER)
    ctx.glShaderSource(sh, 1, ["#version 310 es\nvoid main() {}\n"])
    ctx.glCompileShader(sh)
    assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [0] and "local_size" in ctx.glGetProgramInfoLog(prog)


def test_es32_state_queries_answer_with_the_minimums():
    """GLES 3.2 chapter 21's new queries answer (no INVALID_ENUM) and meet the tables'
    minimums (21.40-21.45)."""
    ctx = glhelp.context(W, H, api="gles32")
    minimums = {E.GL_MAX_PATCH_VERTICES: 32, E.GL_MAX_TESS_GEN_LEVEL: 64,
                E.GL_MAX_GEOMETRY_OUTPUT_VERTICES: 256, E.GL_MAX_GEOMETRY_SHADER_INVOCATIONS: 32,
                E.GL_MAX_FRAMEBUFFER_LAYERS: 256, E.GL_MAX_GEOMETRY_UNIFORM_BLOCKS: 12,
                E.GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS: 12, E.GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS: 16,
                E.GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS: 0, E.GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS: 0,
                E.GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS: 0, E.GL_CONTEXT_FLAGS: 0,
                E.GL_LAYER_PROVOKING_VERTEX: 0, E.GL_FRAGMENT_INTERPOLATION_OFFSET_BITS: 4}
    for pname, least in minimums.items():
        (value,) = ctx.glGetIntegerv(pname)
        assert ctx.glGetError() == E.GL_NO_ERROR and value >= least, (hex(pname), value)
    lo, hi = ctx.glGetFloatv(E.GL_MULTISAMPLE_LINE_WIDTH_RANGE)
    assert lo <= 1.0 <= hi and ctx.glGetFloatv(E.GL_MULTISAMPLE_LINE_WIDTH_GRANULARITY)[0] > 0
    assert ctx.glGetIntegerv(E.GL_LAYER_PROVOKING_VERTEX)[0] in (E.GL_FIRST_VERTEX_CONVENTION,
                                                                E.GL_LAST_VERTEX_CONVENTION, E.GL_UNDEFINED_VERTEX)
