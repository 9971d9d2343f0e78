"""ARB_texture_buffer_object's glGet queries of the bound buffer texture, and the
commands a display list executes instead of compiling (glTexBuffer,
glBindProgramPipeline: the extensions' specifications list them)."""

from driver.gl import enums as E
from tests.driver.agx import glhelp

DATA_STORE_BINDING, BUFFER_FORMAT = 0x8C2D, 0x8C2E      # the _ARB names


def _buffer_texture(ctx):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
    (bo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, bo)
    ctx.glBufferData(E.GL_TEXTURE_BUFFER, 64, None, E.GL_STATIC_DRAW)
    return tex, bo


def test_format_and_buffer_of_the_bound_buffer_texture():
    for api, default in (("compat", E.GL_LUMINANCE8), ("gl45", E.GL_R8)):
        ctx = glhelp.context(1, 1, api=api)
        _tex, bo = _buffer_texture(ctx)
        assert ctx.glGetIntegerv(BUFFER_FORMAT)[0] == default
        assert ctx.glGetIntegerv(DATA_STORE_BINDING)[0] == 0
        ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, bo)
        assert ctx.glGetIntegerv(BUFFER_FORMAT)[0] == E.GL_RGBA8
        assert ctx.glGetIntegerv(DATA_STORE_BINDING)[0] == bo
        assert ctx.glGetError() == E.GL_NO_ERROR


def test_display_lists_execute_tex_buffer_and_bind_program_pipeline():
    ctx = glhelp.context(1, 1, api="compat")
    _tex, bo = _buffer_texture(ctx)
    (pipe,) = ctx.glGenProgramPipelines(1)
    lst = ctx.glGenLists(1)
    ctx.glNewList(lst, E.GL_COMPILE)
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_R32F, bo)
    ctx.glBindProgramPipeline(pipe)
    ctx.glEndList()
    # executed at once...
    assert ctx.glGetIntegerv(DATA_STORE_BINDING)[0] == bo
    assert ctx.glGetIntegerv(E.GL_PROGRAM_PIPELINE_BINDING)[0] == pipe
    # ...and not recorded: calling the list changes nothing back
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_R32F, 0)
    ctx.glBindProgramPipeline(0)
    ctx.glCallList(lst)
    assert ctx.glGetIntegerv(DATA_STORE_BINDING)[0] == 0
    assert ctx.glGetIntegerv(E.GL_PROGRAM_PIPELINE_BINDING)[0] == 0
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_level_parameters_describe_the_buffer_range():
    """glGetTexLevelParameteriv of a buffer texture (GL 4.6 section 8.11.3): the
    internal format given to glTexBuffer and one row of the range's texels, counted
    in the format's element size (RGB32F: 12 bytes); Blender's EEVEE attaches its
    buffers with glTextureBuffer and apitrace's state dump reads these."""
    ctx = glhelp.context(1, 1, api="gl45")
    tex, bo = _buffer_texture(ctx)                         # a 64-byte buffer

    def level(pname):
        return ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, pname)[0]
    ctx.glTextureBuffer(tex, E.GL_RGBA32F, bo)
    assert (level(E.GL_TEXTURE_INTERNAL_FORMAT), level(E.GL_TEXTURE_WIDTH), level(E.GL_TEXTURE_HEIGHT),
            level(E.GL_TEXTURE_DEPTH)) == (E.GL_RGBA32F, 64 // 16, 1, 1)
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGB32F, bo)
    assert (level(E.GL_TEXTURE_INTERNAL_FORMAT), level(E.GL_TEXTURE_WIDTH)) == (E.GL_RGB32F, 64 // 12)
    ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_R16UI, bo, 16, 32)
    assert (level(E.GL_TEXTURE_WIDTH), level(E.GL_TEXTURE_BUFFER_OFFSET), level(E.GL_TEXTURE_BUFFER_SIZE)) \
        == (32 // 2, 16, 32)
    assert level(E.GL_TEXTURE_RED_SIZE) == 16 and level(E.GL_TEXTURE_GREEN_SIZE) == 0
    assert ctx.glGetError() == E.GL_NO_ERROR
