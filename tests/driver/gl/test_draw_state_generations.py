"""Draws keep derived state (sampler states and views, vertex elements and buffers,
the framebuffer state and its completeness) while the generations of the objects
it came from stand (driver.gl.generations). Each test draws, changes one kind of
state between two identical draws, and checks the second image shows the change
(values by hand), so a kept derivation can never be stale. The same draws with
nothing changed give the same image, and keep the derivation (the cache is hit)."""

import numpy as np
import pytest

from driver.gl import enums as E
from driver.gl.generations import BUFFERS, FRAMEBUFFERS, TEXTURES, VERTEX_ARRAYS
from driver.gl.objects import Texture, VertexArray
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = """#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 col;
out vec4 v;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v = col; }
"""
# the colour times the texel at the texture's centre
FS = """#version 330 core
in vec4 v;
uniform sampler2D tex;
out vec4 o;
void main() { o = v * texture(tex, vec2(0.5)); }
"""
FS_CONST = """#version 330 core
out vec4 o;
void main() { o = vec4(0.0, 0.0, 1.0, 1.0); }
"""
WHITE = (255, 255, 255, 255)


def _quad(colour):
    """A strip covering the target: (x, y, r, g, b, a) per vertex."""
    return np.array([[x, y, *colour] for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1))], np.float32)


def _texture(ctx, texel, unit=0):
    """A 2x2 texture of one texel value (one level: mipmap filters make it incomplete)."""
    ctx.glActiveTexture(E.GL_TEXTURE0 + unit)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(texel) * 4)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    return t


def _scene(colour=(1, 1, 1, 1), texel=(255, 255, 255, 255), api="gl33"):
    """A 4x4 core context drawing a white quad times a 1x1 texture on unit 0."""
    ctx = glhelp.context(4, 4, api=api)
    prog = glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    data = _quad(colour)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 24, 0)
    ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 24, 8)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnableVertexAttribArray(1)
    tex = _texture(ctx, texel)
    return ctx, prog, vao, vbo, tex


def _draw(ctx):
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    return tuple(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)))


def _twice(ctx, change, before, after):
    assert _draw(ctx) == before
    assert _draw(ctx) == before            # nothing changed: the same image
    change()
    assert _draw(ctx) == after


# -- textures and samplers ------------------------------------------------------------------

def test_tex_sub_image_between_draws():
    ctx, *_ = _scene()
    _twice(ctx, lambda: ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                                            bytes((10, 20, 30, 40)) * 4),
           WHITE, (10, 20, 30, 40))


def test_tex_image_redefined_between_draws():
    ctx, *_ = _scene()
    _twice(ctx, lambda: ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA,
                                         E.GL_UNSIGNED_BYTE, bytes((0, 255, 0, 255))),
           WHITE, (0, 255, 0, 255))


def test_texture_made_incomplete_between_draws():
    """A mipmap filter on a one-level 2x2 texture: incomplete, sampled as (0, 0, 0, 1)."""
    ctx, *_ = _scene()
    _twice(ctx, lambda: ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER,
                                            E.GL_LINEAR_MIPMAP_LINEAR),
           WHITE, (0, 0, 0, 255))


def test_swizzle_between_draws():
    """One component of the swizzle (an in-place change of the texture's list)."""
    ctx, *_ = _scene(texel=(200, 100, 50, 255))
    _twice(ctx, lambda: ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_SWIZZLE_R, E.GL_BLUE),
           (200, 100, 50, 255), (50, 100, 50, 255))


def test_another_texture_bound_between_draws():
    ctx, *_ = _scene()
    other = _texture(ctx, (1, 2, 3, 4), unit=1)
    _twice(ctx, lambda: ctx.glBindTexture(E.GL_TEXTURE_2D, other), WHITE, (1, 2, 3, 4))


def test_sampler_uniform_moved_to_another_unit_between_draws():
    ctx, prog, *_ = _scene()
    _texture(ctx, (9, 8, 7, 6), unit=3)
    _twice(ctx, lambda: ctx.glUniform1i(ctx.glGetUniformLocation(prog, "tex"), 3), WHITE, (9, 8, 7, 6))


def test_sampler_object_and_its_parameters_between_draws():
    """A 2x2 texture, black but texel (1, 1) = 200, magnified and sampled at its
    centre: NEAREST gives texel (1, 1) (200), LINEAR the mean of the four (50).
    Binding a LINEAR sampler object, then changing that sampler's filter, is seen
    by the next draw each time."""
    ctx, *_ = _scene()
    black, grey = (0, 0, 0, 255), (200, 200, 200, 255)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     bytes(black * 3 + grey))
    (s,) = ctx.glGenSamplers(1)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_MAG_FILTER, E.GL_LINEAR)
    _twice(ctx, lambda: ctx.glBindSampler(0, s), grey, (50, 50, 50, 255))
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    assert _draw(ctx) == grey


# -- vertex arrays and buffers --------------------------------------------------------------

def test_buffer_data_reallocated_between_draws():
    ctx, _p, _vao, vbo, _t = _scene()
    data = _quad((0, 1, 0, 1))
    _twice(ctx, lambda: ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW),
           WHITE, (0, 255, 0, 255))


def test_attribute_pointer_to_another_buffer_between_draws():
    ctx, *_ = _scene()
    (other,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, other)
    data = _quad((1, 0, 0, 1))
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    _twice(ctx, lambda: ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 24, 8), WHITE, (255, 0, 0, 255))


def test_attribute_disabled_between_draws():
    """A disabled array reads the current value (glVertexAttrib4f)."""
    ctx, *_ = _scene()
    ctx.glVertexAttrib4f(1, 0.0, 0.0, 1.0, 1.0)

    def change():
        ctx.glDisableVertexAttribArray(1)
    _twice(ctx, change, WHITE, (0, 0, 255, 255))
    ctx.glVertexAttrib4f(1, 1.0, 0.0, 1.0, 1.0)         # a constant is read afresh each draw
    assert _draw(ctx) == (255, 0, 255, 255)


def test_another_vertex_array_between_draws():
    ctx, _prog, vao, _vbo, _tex = _scene()
    (vao2,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao2)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    data = _quad((0, 1, 1, 1))
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 24, 0)
    ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 24, 8)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnableVertexAttribArray(1)
    ctx.glBindVertexArray(vao)
    _twice(ctx, lambda: ctx.glBindVertexArray(vao2), WHITE, (0, 255, 255, 255))


def test_attribute_size_between_draws():
    """Attribute 1 read as two components instead of four: (r, g) = (1, 1) and the
    missing ones default to b = 0, a = 1 (GL 4.6 section 10.2)."""
    ctx, *_ = _scene()
    ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 24, 8)
    assert _draw(ctx) == WHITE
    ctx.glVertexAttribPointer(1, 2, E.GL_FLOAT, False, 24, 8)    # (r, g) only: b = 0, a = 1
    assert _draw(ctx) == (255, 255, 0, 255)


# -- framebuffers -----------------------------------------------------------------------------

def _fbo_texture(ctx, w, h):
    (t,) = ctx.glGenTextures(1)
    ctx.glActiveTexture(E.GL_TEXTURE5)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, w, h, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    return t


def test_framebuffer_attachment_changed_between_draws():
    """Drawing into colour texture A, then B attached in its place (and the sampled
    texture's data changed, an upload queued before the draw): B gets the blue quad,
    A keeps the first, white one."""
    ctx, *_ = _scene()
    a, b = _fbo_texture(ctx, 4, 4), _fbo_texture(ctx, 4, 4)
    (fbo,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, a, 0)
    assert _draw(ctx) == WHITE
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, b, 0)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                        bytes((0, 0, 255, 255)) * 4)
    assert _draw(ctx) == (0, 0, 255, 255)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, a, 0)
    assert tuple(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE))) == WHITE


def test_framebuffer_made_incomplete_between_draws():
    """A colour renderbuffer re-specified with zero size: the next draw is
    GL_INVALID_FRAMEBUFFER_OPERATION; sized again, it draws."""
    ctx, *_ = _scene()
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    (fbo,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert _draw(ctx) == WHITE
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 0, 0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_INVALID_FRAMEBUFFER_OPERATION)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert tuple(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE))) == WHITE


def test_draw_buffers_changed_between_draws():
    """glDrawBuffers(NONE) between draws: the attachment keeps the clear colour."""
    ctx, *_ = _scene()
    t = _fbo_texture(ctx, 4, 4)
    (fbo,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t, 0)
    assert _draw(ctx) == WHITE
    ctx.glDrawBuffers(1, [E.GL_NONE])
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)                 # clears nothing: no draw buffer
    ctx.glDrawBuffers(1, [E.GL_COLOR_ATTACHMENT0])
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawBuffers(1, [E.GL_NONE])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert tuple(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE))) == (0, 0, 0, 0)


# -- programs ---------------------------------------------------------------------------------

def test_another_program_between_draws():
    ctx, *_ = _scene()
    prog = ctx.current_program.name
    other = glhelp.program(ctx, VS, FS_CONST)
    ctx.glUseProgram(prog)
    _twice(ctx, lambda: ctx.glUseProgram(other), WHITE, (0, 0, 255, 255))


# -- a program's uniform storage (driver.gl.uniform_storage) -------------------------------------

FS_TINT = """#version 330 core
in vec4 v;
uniform vec4 tint;
out vec4 o;
void main() { o = v * tint; }
"""


def _tinted(api="gl33", fs=FS_TINT):
    """The scene with a program multiplying the colour by ``tint`` (set to white)."""
    ctx, *rest = _scene(api=api)
    prog = glhelp.program(ctx, VS, fs)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "tint"), 1.0, 1.0, 1.0, 1.0)
    return ctx, prog


def test_uniform_value_between_draws():
    ctx, prog = _tinted()
    _twice(ctx, lambda: ctx.glUniform4f(ctx.glGetUniformLocation(prog, "tint"), 0.0, 1.0, 0.0, 1.0),
           WHITE, (0, 255, 0, 255))


def test_program_uniform_of_the_current_program_between_draws():
    ctx, prog = _tinted(api="gl46")
    loc = ctx.glGetUniformLocation(prog, "tint")
    _twice(ctx, lambda: ctx.glProgramUniform4f(prog, loc, 1.0, 0.0, 0.0, 1.0), WHITE, (255, 0, 0, 255))


def test_relink_between_draws():
    """The current program linked again from another fragment shader (a new storage,
    its uniform at its initial value 0): the draw uses the new executable."""
    ctx, prog = _tinted()

    def relink():
        for s in ctx.glGetAttachedShaders(prog, 8):
            if ctx.glGetShaderiv(s, E.GL_SHADER_TYPE)[0] == E.GL_FRAGMENT_SHADER:
                ctx.glDetachShader(prog, s)
        ctx.glAttachShader(prog, glhelp.compile_shader(ctx, E.GL_FRAGMENT_SHADER, FS_TINT.replace(
            "v * tint", "v * tint + vec4(0.0, 0.0, 0.5, 1.0)")))
        ctx.glLinkProgram(prog)
        assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]
    _twice(ctx, relink, WHITE, (0, 0, 128, 255))


FS_BLOCK = """#version 330 core
in vec4 v;
layout(std140) uniform Tint { vec4 tint; };
out vec4 o;
void main() { o = v * tint; }
"""


def _block_buffer(ctx, rgba):
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_UNIFORM_BUFFER, b)
    data = np.array(rgba, np.float32)
    ctx.glBufferData(E.GL_UNIFORM_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    return b


def test_uniform_block_binding_between_draws():
    """glUniformBlockBinding moves the block from binding 0 (white) to binding 2 (red)."""
    ctx, *_ = _scene()
    prog = glhelp.program(ctx, VS, FS_BLOCK)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, _block_buffer(ctx, (1, 1, 1, 1)))
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 2, _block_buffer(ctx, (1, 0, 0, 1)))
    index = ctx.glGetUniformBlockIndex(prog, "Tint")
    _twice(ctx, lambda: ctx.glUniformBlockBinding(prog, index, 2), WHITE, (255, 0, 0, 255))


def test_uniform_buffer_rebound_between_draws():
    ctx, *_ = _scene()
    glhelp.program(ctx, VS, FS_BLOCK)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, _block_buffer(ctx, (1, 1, 1, 1)))
    other = _block_buffer(ctx, (0, 0, 1, 1))
    _twice(ctx, lambda: ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, other), WHITE, (0, 0, 255, 255))


def test_subroutine_uniform_between_draws():
    """A subroutine uniform's value lives in the storage too (glUniformSubroutinesuiv)."""
    fs = """#version 400 core
in vec4 v;
subroutine vec4 pick(vec4 c);
subroutine(pick) vec4 keep(vec4 c) { return c; }
subroutine(pick) vec4 green(vec4 c) { return vec4(0.0, c.g, 0.0, 1.0); }
subroutine uniform pick chosen;
out vec4 o;
void main() { o = chosen(v); }
"""
    ctx = glhelp.context(4, 4, api="gl46")
    prog = glhelp.program(ctx, VS, fs)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    data = _quad((1, 1, 1, 1))
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 24, 0)
    ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 24, 8)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnableVertexAttribArray(1)
    keep = ctx.glGetSubroutineIndex(prog, E.GL_FRAGMENT_SHADER, "keep")
    green = ctx.glGetSubroutineIndex(prog, E.GL_FRAGMENT_SHADER, "green")
    ctx.glUniformSubroutinesuiv(E.GL_FRAGMENT_SHADER, 1, [keep])
    _twice(ctx, lambda: ctx.glUniformSubroutinesuiv(E.GL_FRAGMENT_SHADER, 1, [green]), WHITE, (0, 255, 0, 255))


def test_unchanged_uniforms_are_not_copied_again():
    """The pipe gets the very constant buffer of the previous draw while the storage's
    generation stands; a glUniform* gives a new one holding the new bytes."""
    from driver.gallium import PipeShaderType
    ctx, prog = _tinted()
    bound = ctx.pipe.constant_buffers[PipeShaderType.FRAGMENT]
    _draw(ctx)
    first = bound[0]
    _draw(ctx)
    assert bound[0] is first
    ls = ctx.current_program.linked_state
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "tint"), 0.25, 0.5, 0.75, 1.0)
    _draw(ctx)
    assert bound[0] is not first
    u = next(u for u in ls.uniforms if u.name == "tint")
    assert np.frombuffer(bound[0].user_buffer, np.float32, 4, u.offset_B).tolist() == [0.25, 0.5, 0.75, 1.0]


def test_uniform_storage_is_written_only_through_it():
    """The storage's bytes are read-only to everyone else: a write that would not move
    its generation is an error, not a stale draw."""
    import struct
    ctx, prog = _tinted()
    ls = ctx.current_program.linked_state
    with pytest.raises(TypeError):
        struct.pack_into("<f", ls.uniform_data, 0, 1.0)
    with pytest.raises(TypeError):
        ls.uniform_data[0:4] = bytes(4)
    before = ls.uniform_storage.generation
    ls.uniform_storage.write(0, bytes(4))
    assert ls.uniform_storage.generation != before
    with pytest.raises(IndexError):
        ls.uniform_storage.write(len(ls.uniform_storage) - 2, bytes(4))


# -- transform feedback objects (driver.gl.generations.TRANSFORM_FEEDBACK) ------------------------

VS_XFB = """#version 330 core
layout(location = 0) in vec2 pos;
out vec4 v;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v = vec4(pos, float(gl_VertexID), 1.0); }
"""


def _capture_scene():
    """Points at (1, 2), (3, 4), (5, 6) captured as v = (x, y, gl_VertexID, 1), with
    rasterisation discarded; two capture buffers of 12 floats each, filled with -7."""
    ctx = glhelp.context(4, 4, api="gl43")
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS_XFB), (E.GL_FRAGMENT_SHADER, FS_CONST)):
        ctx.glAttachShader(p, glhelp.compile_shader(ctx, kind, src))
    ctx.glTransformFeedbackVaryings(p, 1, ["v"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]
    ctx.glUseProgram(p)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    data = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    bufs = ctx.glGenBuffers(2)
    for b in bufs:
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 48, np.full(12, -7, np.float32), E.GL_STREAM_READ)
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    return ctx, bufs


def _captured(ctx, buf):
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    view = ctx.glMapBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 48, E.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.float32).reshape(3, 4).tolist()
    ctx.glUnmapBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER)
    return out


def _capture(ctx, first):
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, first, 1)
    ctx.glEndTransformFeedback()
    expect(ctx, E.GL_NO_ERROR)


def test_feedback_buffer_binding_between_captures():
    """The same draw captured into buffer A, then (rebound between the captures) into
    B: A keeps the first record, B gets the second."""
    ctx, (a, b) = _capture_scene()
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, a)
    _capture(ctx, 0)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, b)
    _capture(ctx, 1)
    unwritten = [-7.0] * 4
    assert _captured(ctx, a) == [[1, 2, 0, 1], unwritten, unwritten]
    assert _captured(ctx, b) == [[3, 4, 1, 1], unwritten, unwritten]


def test_feedback_object_switched_between_captures():
    """Two transform feedback objects with their own bindings: switching the bound
    object between captures switches the buffer written."""
    ctx, (a, b) = _capture_scene()
    x1, x2 = ctx.glGenTransformFeedbacks(2)
    ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, x1)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, a)
    ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, x2)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, b)
    ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, x1)
    _capture(ctx, 2)
    ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, x2)
    _capture(ctx, 0)
    unwritten = [-7.0] * 4
    assert _captured(ctx, a) == [[5, 6, 2, 1], unwritten, unwritten]
    assert _captured(ctx, b) == [[1, 2, 0, 1], unwritten, unwritten]


def test_feedback_buffer_reallocated_between_captures():
    """glBufferData on the bound capture buffer between captures (a new resource):
    the second capture writes the new storage."""
    ctx, (a, _b) = _capture_scene()
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, a)
    _capture(ctx, 0)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 48, np.full(12, -5, np.float32), E.GL_STREAM_READ)
    _capture(ctx, 2)
    assert _captured(ctx, a) == [[5, 6, 2, 1], [-5.0] * 4, [-5.0] * 4]


def test_capture_targets_are_kept_while_nothing_changes():
    """Two draws of one capture: the second reuses the targets derived for the first
    (the counters a draw moves are not tracked)."""
    ctx, (a, _b) = _capture_scene()
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, a)
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    kept = ctx._derived_cache["stream output"]
    ctx.glDrawArrays(E.GL_POINTS, 1, 1)
    assert ctx._derived_cache["stream output"] is kept
    ctx.glEndTransformFeedback()
    assert _captured(ctx, a) == [[1, 2, 0, 1], [3, 4, 1, 1], [-7.0] * 4]


# -- the generations themselves ----------------------------------------------------------------

@pytest.mark.parametrize("group, make, change", [
    (TEXTURES, lambda: Texture(1), lambda t: t.images.append([])),
    (TEXTURES, lambda: Texture(1), lambda t: t.swizzle.__setitem__(0, E.GL_BLUE)),
    (TEXTURES, lambda: Texture(1), lambda t: setattr(t.params, "min_filter", E.GL_NEAREST)),
    (VERTEX_ARRAYS, lambda: VertexArray(1, 4), lambda v: setattr(v.attribs[2], "enabled", True)),
    (VERTEX_ARRAYS, lambda: VertexArray(1, 4), lambda v: v.attribs.__setitem__(1, v.attribs[0])),
    (VERTEX_ARRAYS, lambda: VertexArray(1, 4), lambda v: v.legacy.clear()),
])
def test_changes_move_the_group_generation(group, make, change):
    obj = make()
    _ = getattr(obj, "attribs", None)
    before = group.generation
    change(obj)
    assert group.generation != before


def test_nested_lists_are_tracked():
    """tex.images[face][level] = img (the list inside the list) moves the generation."""
    t = Texture(1)
    t.images.append([])
    before = TEXTURES.generation
    t.images[0].append(None)
    assert TEXTURES.generation != before


def test_unchanged_state_reuses_the_derivation():
    """Two draws with nothing changed in between: the samplers, vertex elements and
    framebuffer state are the very objects of the first (no generation moved)."""
    ctx, *_ = _scene()
    (fbo,) = ctx.glGenFramebuffers(1)
    t = _fbo_texture(ctx, 4, 4)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t, 0)
    _draw(ctx)
    _draw(ctx)              # (the first draw made the texture's resource: a change)
    gens = (TEXTURES.generation, BUFFERS.generation, VERTEX_ARRAYS.generation, FRAMEBUFFERS.generation)
    cache = dict(ctx._derived_cache)
    _draw(ctx)
    assert (TEXTURES.generation, BUFFERS.generation, VERTEX_ARRAYS.generation, FRAMEBUFFERS.generation) == gens
    for key in ("vertices",):
        assert ctx._derived_cache[key] is cache[key]
    assert any(k[0] == "samplers" for k in cache if isinstance(k, tuple))
    for key, entry in cache.items():
        assert ctx._derived_cache[key] is entry, key


def test_completeness_uses_the_bound_sampler_objects_filter():
    """GL 4.6 section 8.17 with a sampler object bound (its state replaces the
    texture's, GL 4.6 section 11.1.3.5): a mipmap minification filter of the
    sampler makes the one-level 2x2 texture incomplete (sampled as (0, 0, 0, 1)),
    and a NEAREST sampler makes a texture whose own filter needs mipmaps complete."""
    ctx, *_ = _scene()
    (s,) = ctx.glGenSamplers(1)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glBindSampler(0, s)
    assert _draw(ctx) == (0, 0, 0, 255)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_LINEAR)
    assert _draw(ctx) == WHITE
    ctx.glBindSampler(0, 0)             # the texture's own (mipmap) filter again: incomplete
    assert _draw(ctx) == (0, 0, 0, 255)
