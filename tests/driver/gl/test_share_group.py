"""Share groups (GL 4.6 section 5.1, appendix D): contexts made with another's
share_group see its buffers, textures, renderbuffers, samplers, shaders,
programs, syncs and display lists, never its container objects; deleting a
shared object frees its name at once while the object lives on where it is
still bound. Rendered on the real stack (driver.agx through the mock kernel)."""

from __future__ import annotations

import numpy as np
import pytest

from driver.agx.face import default_screen
from driver.gl import Context
from driver.gl import enums as E

VS = """#version 300 es
in vec2 pos; out vec2 uv;
void main(){ uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 300 es
precision highp float; uniform sampler2D tex; in vec2 uv; out vec4 color;
void main(){ color = texture(tex, uv); }"""
QUAD = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
# a 2x2 texture, rows bottom to top
TEXELS = np.array([[[255, 0, 0, 255], [0, 255, 0, 255]],
                   [[0, 0, 255, 255], [255, 255, 0, 255]]], np.uint8)


def make(share=None, api="gles3", size=4) -> Context:
    screen = default_screen()
    return Context(screen.context_create(), api, size, size,
                   share_group=share.share_group if share is not None else None)


def make_texture(ctx) -> int:
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     TEXELS.tobytes())
    for pname in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, pname, E.GL_NEAREST)
    return tex


def make_program(ctx) -> int:
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "pos")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    return prog


def make_vbo(ctx) -> int:
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, QUAD.nbytes, QUAD.tobytes(), E.GL_STATIC_DRAW)
    return vbo


def draw_textured(ctx, prog: int, vbo: int, tex: int) -> np.ndarray:
    """A full-window quad sampling `tex` with program `prog`; the window's pixels."""
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glUseProgram(prog)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "tex"), 0)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    return read(ctx)


def read(ctx) -> np.ndarray:
    ctx.glFinish()
    w, h = ctx.window.width, ctx.window.height
    raw = ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    return np.frombuffer(bytes(raw), np.uint8).reshape(h, w, 4)


def expected(size=4) -> np.ndarray:
    return TEXELS.repeat(size // 2, axis=0).repeat(size // 2, axis=1)


def test_texture_buffer_and_program_of_one_context_draw_in_another():
    a = make()
    tex, prog, vbo = make_texture(a), make_program(a), make_vbo(a)
    a.glFinish()
    b = make(share=a)
    assert b.glIsTexture(tex) and b.glIsProgram(prog) and b.glIsBuffer(vbo)
    assert (draw_textured(b, prog, vbo, tex) == expected()).all()
    # and back: an object made in b is seen by a
    tex2 = b.glGenTextures(1)[0]
    assert tex2 != tex
    b.glBindTexture(E.GL_TEXTURE_2D, tex2)
    assert a.glIsTexture(tex2)


def test_container_objects_and_unshared_contexts_stay_apart():
    a = make()
    b = make(share=a)
    lone = make()
    vao = a.glGenVertexArrays(1)[0]
    a.glBindVertexArray(vao)
    fbo = a.glGenFramebuffers(1)[0]
    a.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    query = a.glGenQueries(1)[0]
    a.glBeginQuery(E.GL_ANY_SAMPLES_PASSED, query)
    a.glEndQuery(E.GL_ANY_SAMPLES_PASSED)
    assert a.glIsVertexArray(vao) and a.glIsFramebuffer(fbo) and a.glIsQuery(query)
    assert not b.glIsVertexArray(vao) and not b.glIsFramebuffer(fbo) and not b.glIsQuery(query)
    tex = make_texture(a)
    prog = make_program(a)
    assert not lone.glIsTexture(tex) and not lone.glIsProgram(prog)
    assert lone.share_group is not a.share_group is b.share_group


def test_deleted_texture_lives_while_bound_in_another_context():
    a = make()
    tex, prog, vbo = make_texture(a), make_program(a), make_vbo(a)
    a.glFinish()
    b = make(share=a)
    assert (draw_textured(b, prog, vbo, tex) == expected()).all()
    a.glDeleteTextures(1, [tex])
    assert not a.glIsTexture(tex) and not b.glIsTexture(tex)      # the name is free
    obj = b.texture_units[0][E.GL_TEXTURE_2D]
    assert obj.resource is not None                              # still bound in b
    b.glClear(E.GL_COLOR_BUFFER_BIT)
    b.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert (read(b) == expected()).all()
    b.glBindTexture(E.GL_TEXTURE_2D, 0)
    b.glDeleteBuffers(1, [make_vbo(b)])                          # any release sweeps
    assert obj.resource is None and not a.share_group.orphans


def test_deleted_program_lives_while_current_in_another_context():
    a = make()
    tex, prog, vbo = make_texture(a), make_program(a), make_vbo(a)
    a.glFinish()
    b = make(share=a)
    draw_textured(b, prog, vbo, tex)
    a.glDeleteProgram(prog)
    assert a.glGetError() == E.GL_NO_ERROR
    assert a.glGetProgramiv(prog, E.GL_DELETE_STATUS) == [1]       # flagged, not yet gone
    b.glClear(E.GL_COLOR_BUFFER_BIT)
    b.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert (read(b) == expected()).all()
    b.glUseProgram(0)
    assert not a.glIsProgram(prog) and not b.glIsProgram(prog)


def test_renderbuffer_and_sampler_are_shared():
    a = make()
    b = make(share=a)
    rb = a.glGenRenderbuffers(1)[0]
    a.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    a.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    sampler = a.glGenSamplers(1)[0]
    assert b.glIsRenderbuffer(rb) and b.glIsSampler(sampler)
    # b renders into a's renderbuffer through b's own framebuffer object
    fbo = b.glGenFramebuffers(1)[0]
    b.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    b.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert b.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    b.glClearColor(0.0, 1.0, 0.0, 1.0)
    b.glClear(E.GL_COLOR_BUFFER_BIT)
    b.glFinish()
    fbo_a = a.glGenFramebuffers(1)[0]
    a.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo_a)
    a.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert (read(a) == [0, 255, 0, 255]).all()


def test_sync_objects_are_shared_with_distinct_names():
    a = make()
    b = make(share=a)
    sa = a.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    sb = b.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    assert sa != sb and b.glIsSync(sa) and a.glIsSync(sb)
    assert b.glClientWaitSync(sa, E.GL_SYNC_FLUSH_COMMANDS_BIT, 10**12) in (
        E.GL_ALREADY_SIGNALED, E.GL_CONDITION_SATISFIED)
    b.glDeleteSync(sa)
    assert not a.glIsSync(sa)


def test_display_lists_are_shared_in_compat():
    a = make(api="compat")
    b = make(share=a, api="compat")
    first = a.glGenLists(1)
    a.glNewList(first, E.GL_COMPILE)
    a.glClearColor(0.0, 0.0, 1.0, 1.0)
    a.glEndList()
    assert b.glIsList(first)
    b.glCallList(first)
    b.glClear(E.GL_COLOR_BUFFER_BIT)
    assert (read(b) == [0, 0, 255, 255]).all()


def test_destroying_one_context_keeps_the_shared_objects():
    a = make()
    tex, prog, vbo = make_texture(a), make_program(a), make_vbo(a)
    a.glFinish()
    b = make(share=a)
    a.destroy()
    assert b.share_group.contexts == [b]
    assert (draw_textured(b, prog, vbo, tex) == expected()).all()
    b.destroy()
    assert not b.share_group.contexts


@pytest.mark.parametrize("api", ["gl43", "compat"])
def test_core_and_compat_contexts_can_share(api):
    a = make(api="gl43")
    b = make(share=a, api=api)
    tex = make_texture(a)
    assert b.glIsTexture(tex)
