"""GLES 3.2's stages in GLES 3.1 contexts through OES/EXT_geometry_shader and
OES/EXT_tessellation_shader: the entry points, draw modes, limits and queries the
extensions add are there in GLES 3.1 (and refused in GLES 3.0, which has none of
them). Values by hand: the layered draw writes layer 1 only, the geometry program
reports what its layout says, PRIMITIVES_GENERATED counts the geometry stage's
output primitives."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from compiler.glsl.builtin_variables import LIMITS
from driver.gl import enums as E
from tests.driver.gl.helpers import expect, link_sources

VS = "#version 310 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS = "#version 310 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n"
# one input triangle -> two output triangles, on layer 1
GS = ("#version 310 es\n#extension GL_EXT_geometry_shader : require\nlayout(triangles) in;\n"
      "layout(triangle_strip, max_vertices = 6) out;\n"
      "void main() { for (int k = 0; k < 2; k++) { for (int i = 0; i < 3; i++) {"
      " gl_Position = gl_in[i].gl_Position; gl_Layer = 1; EmitVertex(); } EndPrimitive(); } }\n")
TRI = np.array([(-1, -1), (3, -1), (-1, 3)], np.float32)


def _buffer(ctx):
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, TRI.nbytes, TRI.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)


@pytest.mark.parametrize("suffix", ["EXT", "OES"])
def test_layered_draw_and_primitives_generated_in_es31(suffix):
    """glFramebufferTexture{EXT,OES} attaches a 2-layer array texture whole; the geometry
    shader writes gl_Layer = 1, so layer 1 is red and layer 0 keeps its clear (black);
    PRIMITIVES_GENERATED counts the 2 triangles the geometry stage emits."""
    ctx = driver.Context(api="gles31", width=2, height=2)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, t)
    ctx.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 2, 2, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    getattr(ctx, f"glFramebufferTexture{suffix}")(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, t, 0)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    link_sources(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, GS), (E.GL_FRAGMENT_SHADER, FS)))
    _buffer(ctx)
    (q,) = ctx.glGenQueries(1)
    ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0] == 2
    for layer, want in ((0, [0, 0, 0, 255]), (1, [255, 0, 0, 255])):
        (rfb,) = ctx.glGenFramebuffers(1)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, rfb)
        ctx.glFramebufferTextureLayer(E.GL_READ_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, t, 0, layer)
        px = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
        assert (px == want).all(), (layer, px)


def test_program_queries_limits_and_patches_in_es31():
    ctx = driver.Context(api="gles31", width=2, height=2)
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, GS), (E.GL_FRAGMENT_SHADER, FS)))
    q = lambda pname: ctx.glGetProgramiv(prog, pname)[0]      # noqa: E731
    assert q(E.GL_GEOMETRY_VERTICES_OUT) == 6
    assert q(E.GL_GEOMETRY_INPUT_TYPE) == E.GL_TRIANGLES
    assert q(E.GL_GEOMETRY_OUTPUT_TYPE) == E.GL_TRIANGLE_STRIP
    g = lambda pname: ctx.glGetIntegerv(pname)[0]              # noqa: E731
    assert g(E.GL_MAX_GEOMETRY_OUTPUT_VERTICES) == LIMITS["gl_MaxGeometryOutputVertices"]
    assert g(E.GL_MAX_TESS_GEN_LEVEL) == LIMITS["gl_MaxTessGenLevel"]
    assert g(E.GL_MAX_PATCH_VERTICES) == LIMITS["gl_MaxPatchVertices"]
    assert g(E.GL_LAYER_PROVOKING_VERTEX) == E.GL_UNDEFINED_VERTEX
    ctx.glPatchParameteriEXT(E.GL_PATCH_VERTICES, 4)
    assert g(E.GL_PATCH_VERTICES) == 4
    ctx.glPatchParameteriOES(E.GL_PATCH_VERTICES, 0)            # out of range
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glFramebufferParameteri(E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER_DEFAULT_LAYERS, 2)
    expect(ctx, E.GL_INVALID_OPERATION)          # the default framebuffer is bound: the pname is known
    (pipe,) = ctx.glGenProgramPipelines(1)
    ctx.glUseProgramStages(pipe, E.GL_GEOMETRY_SHADER_BIT | E.GL_TESS_CONTROL_SHADER_BIT, 0)
    expect(ctx, E.GL_NO_ERROR)
    # the geometry stage's compute passes bind storage blocks (test_geometry's storage test), not images
    assert g(E.GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS) == g(E.GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS) > 0
    assert g(E.GL_MAX_GEOMETRY_IMAGE_UNIFORMS) == 0


def test_es30_has_none_of_them():
    ctx = driver.Context(api="gles3", width=2, height=2)
    for kind in (E.GL_GEOMETRY_SHADER, E.GL_TESS_CONTROL_SHADER, E.GL_TESS_EVALUATION_SHADER):
        assert not ctx.glCreateShader(kind)          # 0 through the C ABI
        expect(ctx, E.GL_INVALID_ENUM)
    ctx.glPatchParameteriEXT(E.GL_PATCH_VERTICES, 3)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glFramebufferTextureOES(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, 0, 0)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glGetIntegerv(E.GL_MAX_GEOMETRY_OUTPUT_VERTICES)
    expect(ctx, E.GL_INVALID_ENUM)
    (q,) = ctx.glGenQueries(1)
    ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q)
    expect(ctx, E.GL_INVALID_ENUM)
    _buffer(ctx)
    link_sources(ctx, ((E.GL_VERTEX_SHADER, VS.replace("310 es", "300 es")),
                       (E.GL_FRAGMENT_SHADER, FS.replace("310 es", "300 es"))))
    ctx.glDrawArrays(E.GL_TRIANGLES_ADJACENCY, 0, 6)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_INVALID_ENUM)


def test_glsl_es_310_stage_constants_and_per_vertex_redeclaration():
    """With the stage extensions enabled, GLSL ES 3.10 shaders read the stages' gl_Max*
    constants (here summed into one int the compile folds: 64 input components + 0 image
    uniforms + 0 atomic counters + gl_MaxTessGenLevel), and gl_MaxCombinedShaderOutputResources
    is GLSL ES 3.10's own; with OES_shader_io_blocks a vertex shader may redeclare
    `out gl_PerVertex { vec4 gl_Position; }` (refused without it, GLSL ES 3.10 section 4.3.9)."""
    from tests.driver.gl.helpers import compile_source
    ctx = driver.Context(api="gles31", width=1, height=1)
    fs = ("#version 310 es\n#extension GL_OES_geometry_shader : require\n"
          "#extension GL_EXT_tessellation_shader : require\nprecision highp float;\nout vec4 o;\n"
          "const int n = gl_MaxGeometryInputComponents + gl_MaxGeometryImageUniforms"
          " + gl_MaxGeometryAtomicCounters + gl_MaxGeometryAtomicCounterBuffers + gl_MaxTessGenLevel"
          " + gl_MaxCombinedShaderOutputResources;\n"
          "void main() { o = vec4(float(n)); }\n")
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert ok, log
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs.replace("#extension GL_OES_geometry_shader : require\n", ""))
    assert not ok and "gl_MaxGeometryInputComponents" in log, log
    vs = ("#version 310 es\n%sin vec4 p;\nout gl_PerVertex { vec4 gl_Position; };\n"
          "void main() { gl_Position = p; }\n")
    _, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, vs % "#extension GL_OES_shader_io_blocks : require\n")
    assert ok, log
    _, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, vs % "")
    assert not ok and "gl_Position" in log, log
