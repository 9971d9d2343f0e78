"""gl_Layer and gl_ViewportIndex written by the vertex stage (GL_AMD_vertex_shader_layer,
GL_AMD_vertex_shader_viewport_index): each primitive lands in the layer / viewport its
vertices name; the other layers keep their clear colour; a fragment stage reads the
values; the GLSL side (the names behind #extension, the gl_PerVertex members). The
expected images are written by hand from what the shaders say."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from compiler.glsl import GLSLCompileError, parse

from .helpers import expect
from .test_geometry import _shader

W = H = 8

# one full-viewport quad per instance, into layer gl_InstanceID * 2 (a triangle strip)
VS_LAYER = """#version 140
#extension GL_AMD_vertex_shader_layer : require
in vec2 pos;
flat out int v_layer;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_Layer = gl_InstanceID * 2;
    v_layer = gl_Layer;
}
"""
FS_LAYER = """#version 150
#extension GL_ARB_fragment_layer_viewport : require
flat in int v_layer;
out vec4 frag;
void main() { frag = vec4(float(v_layer + 1) / 16.0, float(gl_Layer + 1) / 16.0, 0.0, 1.0); }
"""
QUAD = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]


def _program(ctx, vs, fs):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glBindAttribLocation(p, 0, "pos")
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _vertices(ctx, data):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    raw = np.array(data, np.float32).tobytes()
    ctx.glBufferData(E.GL_ARRAY_BUFFER, len(raw), raw, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)


def _array_fbo(ctx, layers):
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, tex)
    ctx.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_RGBA8, W, H, layers, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, W, H)
    return tex


def _layers(ctx, tex, layers):
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, tex)
    raw = bytes(ctx.glGetTexImage(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE))
    return np.frombuffer(raw, np.uint8).reshape(layers, H, W, 4)


def _unorm(v):
    return round(v * 255)


@pytest.mark.parametrize("api", ["gl46", "compat"])
def test_vertex_layer_selects_the_layer(api):
    """Instances 0..2 write layers 0, 2, 4 of a 6-layer array: those layers get the
    colour of their layer (from a varying and from the fragment stage's gl_Layer);
    layers 1, 3, 5 keep the clear colour."""
    with driver.Context(api=api, width=W, height=H) as ctx:
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert "GL_AMD_vertex_shader_layer" in names
        tex = _array_fbo(ctx, 6)
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _program(ctx, VS_LAYER, FS_LAYER)
        _vertices(ctx, QUAD)
        ctx.glDrawArraysInstanced(E.GL_TRIANGLE_STRIP, 0, 4, 3)
        expect(ctx, E.GL_NO_ERROR)
        got = _layers(ctx, tex, 6)
        for layer in range(6):
            if layer % 2 == 0:
                want = (_unorm((layer + 1) / 16), _unorm((layer + 1) / 16), 0, 255)
            else:
                want = (0, 0, 255, 255)
            assert (got[layer] == want).all(), (layer, got[layer][0, 0])


def test_vertex_layer_on_a_plain_framebuffer_draws_everything():
    """GL 4.6 section 9.8: with a framebuffer that is not layered, gl_Layer is ignored and
    every primitive is drawn (here on the window, one instance writing layer 2)."""
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _program(ctx, VS_LAYER.replace("gl_InstanceID * 2", "2"), FS_LAYER)
        _vertices(ctx, QUAD)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        img = ctx.read_pixels()
        assert (img[..., :3] == (_unorm(3 / 16), _unorm(3 / 16), 0)).all(), img[0, 0]


VS_VIEWPORT = """#version 410
#extension GL_AMD_vertex_shader_viewport_index : require
layout(location = 0) in vec2 pos;
flat out int v_vp;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_ViewportIndex = gl_VertexID / 4;     // quad k (4 vertices of a strip each) -> viewport k
    v_vp = gl_ViewportIndex;
}
"""
FS_VIEWPORT = """#version 410
flat in int v_vp;
out vec4 frag;
void main() { frag = vec4(float(v_vp + 1) / 4.0, 0.0, 0.0, 1.0); }
"""


def test_vertex_viewport_index_selects_the_viewport():
    """Four quadrant viewports; three full-viewport quads (drawn as separate strips with
    primitive restart-free glMultiDrawArrays-like calls: one strip per viewport) name
    viewports 0, 1 and 3: those quadrants are filled, quadrant 2 keeps the clear colour.
    Scissoring of viewport 1 to its left half shows that its scissor box is used."""
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert "GL_AMD_vertex_shader_viewport_index" in names
        h = W // 2
        quads = [(0, 0), (h, 0), (0, h), (h, h)]
        for i, (x, y) in enumerate(quads):
            ctx.glViewportIndexedf(i, x, y, h, h)
            ctx.glScissorIndexed(i, x, y, h // 2 if i == 1 else h, h)
        ctx.glEnablei(E.GL_SCISSOR_TEST, 1)
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _program(ctx, VS_VIEWPORT, FS_VIEWPORT)
        _vertices(ctx, QUAD * 4)
        for k in (0, 1, 3):             # vertices 4k..4k+3: gl_VertexID / 4 == k
            ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 4 * k, 4)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()                 # row 0 at the bottom, as the viewports count
        want = np.zeros((H, W, 3), np.uint8)
        want[...] = (0, 0, 255)
        for k in (0, 1, 3):
            x, y = quads[k]
            w = h // 2 if k == 1 else h
            want[y:y + h, x:x + w] = (_unorm((k + 1) / 4), 0, 0)
        assert (img[..., :3] == want).all(), img[..., 0]


def test_glsl_side():
    """The outputs exist only behind their #extension (and ARB_shader_viewport_layer_array
    is not one of the vertex stage's names here); gl_PerVertex may name them."""
    ok = """#version 150
#extension GL_AMD_vertex_shader_layer : enable
#extension GL_AMD_vertex_shader_viewport_index : enable
out gl_PerVertex { vec4 gl_Position; int gl_Layer; int gl_ViewportIndex; };
void main() { gl_Layer = 1; gl_ViewportIndex = 2; }
"""
    parse(ok, "vertex")
    with pytest.raises(GLSLCompileError, match="gl_Layer"):
        parse("#version 150\nvoid main() { gl_Layer = 1; }\n", "vertex")
    with pytest.raises(GLSLCompileError, match="gl_ViewportIndex"):
        parse("#version 150\n#extension GL_AMD_vertex_shader_layer : enable\n"
              "void main() { gl_ViewportIndex = 1; }\n", "vertex")
    with pytest.raises(GLSLCompileError, match="not a member"):
        parse("#version 150\nout gl_PerVertex { vec4 gl_Position; int gl_Layer; };\nvoid main() {}\n", "vertex")
    with pytest.raises(GLSLCompileError):       # a fragment stage cannot write it
        parse("#version 150\n#extension GL_AMD_vertex_shader_layer : enable\n"
              "void main() { gl_Layer = 1; }\n", "fragment")


TES_LAYER = """#version 400
#extension GL_ARB_shader_viewport_layer_array : require
layout(quads, equal_spacing, ccw) in;
patch in int p_layer;
void main() {
    gl_Position = vec4(mix(-1.0, 1.0, gl_TessCoord.x), mix(-1.0, 1.0, gl_TessCoord.y), 0.0, 1.0);
    gl_Layer = p_layer;
}
"""
TCS_LAYER = """#version 400
layout(vertices = 1) out;
patch out int p_layer;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    p_layer = 3 - gl_PrimitiveID;       // patch k -> layer 3 - k
    gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 2.0;
    gl_TessLevelOuter[2] = 2.0; gl_TessLevelOuter[3] = 2.0;
    gl_TessLevelInner[0] = 2.0; gl_TessLevelInner[1] = 2.0;
}
"""
VS_PLAIN = """#version 400
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS_TES = """#version 400
#extension GL_ARB_fragment_layer_viewport : require
out vec4 frag;
void main() { frag = vec4(float(gl_Layer + 1) / 16.0, 1.0, 0.0, 1.0); }
"""


def test_evaluation_stage_layer_selects_the_layer():
    """GL_ARB_shader_viewport_layer_array: two quad patches whose evaluation stage writes
    layers 3 and 2: both layers covered with their colour, layers 0, 1 clear."""
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert "GL_ARB_shader_viewport_layer_array" in names
        tex = _array_fbo(ctx, 4)
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS_PLAIN), (E.GL_TESS_CONTROL_SHADER, TCS_LAYER),
                          (E.GL_TESS_EVALUATION_SHADER, TES_LAYER), (E.GL_FRAGMENT_SHADER, FS_TES)):
            ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
        ctx.glUseProgram(p)
        _vertices(ctx, [0.0, 0.0, 0.0, 0.0])
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 1)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 2)
        expect(ctx, E.GL_NO_ERROR)
        got = _layers(ctx, tex, 4)
        for layer in range(4):
            want = (_unorm((layer + 1) / 16), 255, 0, 255) if layer >= 2 else (0, 0, 255, 255)
            assert (got[layer] == want).all(), (layer, got[layer][0, 0])
