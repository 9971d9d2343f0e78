"""Layered rendering (GL 4.6 section 9.8): glFramebufferTexture of an array, 3D, cube or
cube-array texture makes a layered attachment; gl_Layer written by the geometry stage
selects the layer each primitive is drawn into; a clear clears every layer; the
completeness rule FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS. Images are compared with what
the shaders say by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect
from .test_geometry import _shader

W = H = 8

VS = """#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
# a full-viewport triangle pair per layer in `layers`, coloured by layer index
GS = """#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 32) out;
uniform int layers[8];
uniform int n_layers;
flat out int g_layer;
void main() {
    for (int i = 0; i < n_layers; i++) {
        for (int k = 0; k < 4; k++) {
            gl_Layer = layers[i];
            g_layer = layers[i];
            gl_Position = vec4((k & 1) == 0 ? -1.0 : 1.0, k < 2 ? -1.0 : 1.0, 0.0, 1.0);
            EmitVertex();
        }
        EndPrimitive();
    }
}
"""
FS = """#version 150
flat in int g_layer;
out vec4 frag;
void main() { frag = vec4(float(g_layer + 1) / 16.0, 0.5, 0.0, 1.0); }
"""


def _program(ctx, gs=GS, fs=FS):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    return p


def _texture(ctx, target, layers, fill=0x55):
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(target, tex)
    if target == E.GL_TEXTURE_CUBE_MAP:
        for f in range(6):
            ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA,
                             E.GL_UNSIGNED_BYTE, bytes([fill]) * (W * H * 4))
    else:
        ctx.glTexImage3D(target, 0, E.GL_RGBA8, W, H, layers, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                         bytes([fill]) * (W * H * 4 * layers))
    ctx.glTexParameteri(target, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    return tex


def _layered_fbo(ctx, tex):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, W, H)
    return fbo


def _layers(ctx, target, tex, layers):
    """(layers, H, W, 4) uint8 of the texture's level 0."""
    ctx.glBindTexture(target, tex)
    if target == E.GL_TEXTURE_CUBE_MAP:
        faces = [np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, E.GL_RGBA,
                                                         E.GL_UNSIGNED_BYTE)), np.uint8) for f in range(6)]
        return np.stack(faces).reshape(6, H, W, 4)
    raw = bytes(ctx.glGetTexImage(target, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE))
    return np.frombuffer(raw, np.uint8).reshape(layers, H, W, 4)


def _draw_to(ctx, p, which):
    ctx.glUniform1iv(ctx.glGetUniformLocation(p, "layers"), len(which), list(which))
    ctx.glUniform1i(ctx.glGetUniformLocation(p, "n_layers"), len(which))
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(ctx, E.GL_NO_ERROR)


def _colour(layer):
    """The fragment shader's colour of a layer, as 8-bit UNORM."""
    return (round((layer + 1) / 16 * 255), 128, 0, 255)


CASES = [(E.GL_TEXTURE_2D_ARRAY, 4), (E.GL_TEXTURE_3D, 4), (E.GL_TEXTURE_CUBE_MAP, 6),
         (E.GL_TEXTURE_CUBE_MAP_ARRAY, 12)]


@pytest.mark.parametrize("target,layers", CASES, ids=["2d_array", "3d", "cube", "cube_array"])
def test_gl_layer_selects_the_layer(target, layers):
    """Layers 0, 2 and the last get their colour; the others keep the clear colour."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        tex = _texture(ctx, target, layers)
        _layered_fbo(ctx, tex)
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        p = _program(ctx)
        drawn = [0, 2, layers - 1]
        _draw_to(ctx, p, drawn)
        got = _layers(ctx, target, tex, layers)
        for layer in range(layers):
            want = _colour(layer) if layer in drawn else (0, 0, 255, 255)
            assert (got[layer] == want).all(), f"layer {layer}: {got[layer][0, 0]} != {want}"


def test_layered_clear_clears_every_layer():
    """A clear (and glClearBufferfv) of a layered attachment writes all its layers; a
    non-layered attachment of one layer clears that layer only."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        tex = _texture(ctx, E.GL_TEXTURE_2D_ARRAY, 3)
        _layered_fbo(ctx, tex)
        ctx.glClearColor(1.0, 0.0, 0.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        assert (_layers(ctx, E.GL_TEXTURE_2D_ARRAY, tex, 3) == (255, 0, 0, 255)).all()
        ctx.glClearBufferfv(E.GL_COLOR, 0, [0.0, 1.0, 0.0, 1.0])
        assert (_layers(ctx, E.GL_TEXTURE_2D_ARRAY, tex, 3) == (0, 255, 0, 255)).all()
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        got = _layers(ctx, E.GL_TEXTURE_2D_ARRAY, tex, 3)
        assert (got[1] == (255, 0, 0, 255)).all()
        assert (got[0] == (0, 255, 0, 255)).all() and (got[2] == (0, 255, 0, 255)).all()


def test_layered_depth_attachment_tests_per_layer():
    """A layered depth array beside the colour array: each layer's depth is its own (a
    cleared layer passes the LESS test; a second draw at the same depth fails it)."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        tex = _texture(ctx, E.GL_TEXTURE_2D_ARRAY, 3)
        depth = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, depth)
        ctx.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_DEPTH_COMPONENT32F, W, H, 3, 0, E.GL_DEPTH_COMPONENT,
                         E.GL_FLOAT, None)
        _layered_fbo(ctx, tex)
        ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, depth, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glEnable(E.GL_DEPTH_TEST)
        ctx.glClearColor(0.0, 0.0, 0.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
        p = _program(ctx)
        _draw_to(ctx, p, [1])               # depth 0.5 < 1.0 in layer 1
        ctx.glClearBufferfv(E.GL_COLOR, 0, [0.0, 0.0, 0.0, 1.0])
        _draw_to(ctx, p, [0, 1])            # passes in layer 0 only
        got = _layers(ctx, E.GL_TEXTURE_2D_ARRAY, tex, 3)
        assert (got[0] == _colour(0)).all()
        assert (got[1] == (0, 0, 0, 255)).all() and (got[2] == (0, 0, 0, 255)).all()


def test_without_gl_layer_layer_zero_is_drawn():
    gs = GS.replace("gl_Layer = layers[i];", "")
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        tex = _texture(ctx, E.GL_TEXTURE_2D_ARRAY, 2)
        _layered_fbo(ctx, tex)
        ctx.glClearColor(0.0, 0.0, 0.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        p = _program(ctx, gs)
        _draw_to(ctx, p, [1])
        got = _layers(ctx, E.GL_TEXTURE_2D_ARRAY, tex, 2)
        assert (got[0] == _colour(1)).all() and (got[1] == (0, 0, 0, 255)).all()


def test_fragment_shader_reads_gl_layer():
    """GLSL 4.30 (ARB_fragment_layer_viewport): gl_Layer in the fragment stage is the
    geometry stage's value."""
    fs = """#version 430
out vec4 frag;
void main() { frag = vec4(float(gl_Layer + 1) / 16.0, 0.5, 0.0, 1.0); }
"""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        tex = _texture(ctx, E.GL_TEXTURE_2D_ARRAY, 3)
        _layered_fbo(ctx, tex)
        p = _program(ctx, fs=fs)
        _draw_to(ctx, p, [0, 1, 2])
        got = _layers(ctx, E.GL_TEXTURE_2D_ARRAY, tex, 3)
        for layer in range(3):
            assert (got[layer] == _colour(layer)).all()


def test_incomplete_layer_targets():
    """GL 4.6 section 9.4.2: a layered attachment beside a non-layered one, or layered
    colour attachments of different texture targets."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        arr = _texture(ctx, E.GL_TEXTURE_2D_ARRAY, 2)
        vol = _texture(ctx, E.GL_TEXTURE_3D, 2)
        flat = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, flat)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, arr, 0)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, E.GL_TEXTURE_2D, flat, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        expect(ctx, E.GL_INVALID_FRAMEBUFFER_OPERATION)
        ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, vol, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS
        ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, arr, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        # one layer of an array is not layered: fine beside a 2D texture
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, arr, 0, 1)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, E.GL_TEXTURE_2D, flat, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


def test_a_buffer_texture_cannot_be_attached():
    """GL 4.6 section 9.2.8: glFramebufferTexture of a buffer texture is INVALID_OPERATION,
    and the attachment stays as it was."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, buf)
        ctx.glBufferData(E.GL_TEXTURE_BUFFER, 64, None, E.GL_STATIC_DRAW)
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
        ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RG32F, buf)
        expect(ctx, E.GL_NO_ERROR)
        fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glGetFramebufferAttachmentParameteriv(
            E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) == [E.GL_NONE]


def test_multisample_array_layers():
    """A layered 2D multisample array: layer 1 drawn, layer 0 keeps the clear; each layer
    resolved by a blit from a one-layer read attachment."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        ms = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, ms)
        ctx.glTexImage3DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, E.GL_RGBA8, W, H, 2, True)
        _layered_fbo(ctx, ms)
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        p = _program(ctx)
        _draw_to(ctx, p, [1])
        out = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, out)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        read, draw = ctx.glGenFramebuffers(2)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, draw)
        ctx.glFramebufferTexture2D(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, out, 0)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, read)
        for layer, want in ((0, (0, 0, 255, 255)), (1, _colour(1))):
            ctx.glFramebufferTextureLayer(E.GL_READ_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, ms, 0, layer)
            ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
            expect(ctx, E.GL_NO_ERROR)
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, draw)
            got = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
            assert (got.reshape(H, W, 4) == want).all(), f"layer {layer}"
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, read)


def test_layer_provoking_vertex_is_undefined():
    """Which vertex's gl_Layer counts is not defined by the passes (they select per vertex)."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        assert ctx.glGetIntegerv(E.GL_LAYER_PROVOKING_VERTEX) == [E.GL_UNDEFINED_VERTEX]
        assert ctx.glGetIntegerv(E.GL_VIEWPORT_INDEX_PROVOKING_VERTEX) == [E.GL_UNDEFINED_VERTEX]
