"""Extension entry points that are the registry's aliases of core ones, and the
GL 1.x-2.x extension names of the compatibility profile that rest on them."""

import numpy as np
import pytest

from driver.gl import enums as E
from driver.gl.extensions import by_name
from driver.gl.families import Context
from driver.gl.registry_aliases import ALIAS_EXTENSIONS, ALIASES
from tests.driver.agx import glhelp
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

INSTALLED = sorted(a for a in ALIASES if "alias of" in (getattr(Context, a, None).__doc__ or "")
                   if hasattr(Context, a))


def test_every_listed_extension_has_every_command_it_adds():
    """A DONE line's alias commands are all entry points of the Context (the
    routing below makes them run the core command)."""
    missing = []
    for name, exts in ALIAS_EXTENSIONS.items():
        for ext in exts:
            line = by_name().get(ext)
            if line is not None and line.status.name == "DONE" and not hasattr(Context, name):
                missing.append((ext, name))
    assert missing == []


@pytest.mark.parametrize("alias", INSTALLED)
def test_alias_runs_the_core_command_with_the_same_arguments(alias, monkeypatch):
    """Each alias forwards its arguments to the core command's implementation
    and returns its result, in a context that has the extension."""
    target = ALIASES[alias]
    seen = []

    def recorder(ctx, *args):
        seen.append(args)
        return ("result", target)
    monkeypatch.setattr(Context, target, recorder)
    exts = [e for e in ALIAS_EXTENSIONS[alias] if e in by_name()]
    # the first context that has one of the alias's extensions (OES_viewport_array: ES 3.2)
    ctx = next((c for c in map(make_ctx, ("compat", "gles31", "gles32"))
                if any(c.api.has_extension(e) for e in exts)), None)
    if ctx is None:
        pytest.skip(f"{alias}: no context has {exts}")
    args = tuple(range(1, 6))
    assert getattr(ctx, alias)(*args) == ("result", target)
    assert seen == [args]


def test_alias_of_an_extension_the_context_lacks_is_invalid_operation():
    ctx = make_ctx("gl43")                       # core: no ARB_multitexture (as Mesa)
    ctx.glActiveTextureARB(E.GL_TEXTURE1)
    expect(ctx, E.GL_INVALID_OPERATION)
    assert "GL_ARB_multitexture" not in ctx.extensions
    assert "GL_ARB_multitexture" in make_ctx("compat").extensions


def test_ext_framebuffer_object_renders_into_a_name_never_generated():
    """EXT_framebuffer_object: names need not come from glGen*; the EXT
    commands build a complete framebuffer that a clear fills."""
    ctx = glhelp.context(4, 4, api="compat")
    ctx.glBindRenderbufferEXT(E.GL_RENDERBUFFER, 77)
    ctx.glRenderbufferStorageEXT(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    ctx.glBindFramebufferEXT(E.GL_FRAMEBUFFER, 42)
    ctx.glFramebufferRenderbufferEXT(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, 77)
    assert ctx.glCheckFramebufferStatusEXT(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    assert ctx.glIsFramebufferEXT(42) and ctx.glIsRenderbufferEXT(77)
    ctx.glClearColor(0.0, 1.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    img = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)
    assert (img == [0, 255, 0, 255]).all()
    assert ctx.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING) == [42]
    assert ctx.glGetIntegerv(E.GL_READ_FRAMEBUFFER_BINDING) == [42]
    ctx.glBindFramebufferEXT(E.GL_TEXTURE_2D, 0)
    expect(ctx, E.GL_INVALID_ENUM)


def test_arb_vertex_buffer_object_and_multitexture_commands_change_the_core_state():
    ctx = make_ctx("compat")
    (b,) = ctx.glGenBuffersARB(1)
    ctx.glBindBufferARB(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferDataARB(E.GL_ARRAY_BUFFER, 8, bytes(range(8)), E.GL_STATIC_DRAW)
    ctx.glBufferSubDataARB(E.GL_ARRAY_BUFFER, 2, 2, b"\xff\xfe")
    assert ctx.glGetBufferSubDataARB(E.GL_ARRAY_BUFFER, 0, 8) == bytes([0, 1, 0xFF, 0xFE, 4, 5, 6, 7])
    assert ctx.glGetIntegerv(E.GL_ARRAY_BUFFER_BINDING) == [b]
    ctx.glActiveTextureARB(E.GL_TEXTURE2)
    assert ctx.glGetIntegerv(E.GL_ACTIVE_TEXTURE) == [E.GL_TEXTURE2]
    ctx.glClientActiveTextureARB(E.GL_TEXTURE1)
    assert ctx.glGetIntegerv(E.GL_CLIENT_ACTIVE_TEXTURE) == [E.GL_TEXTURE1]
    ctx.glMultiTexCoord4fARB(E.GL_TEXTURE3, 0.25, 0.5, 0.75, 1.0)
    ctx.glActiveTexture(E.GL_TEXTURE3)
    assert ctx.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [0.25, 0.5, 0.75, 1.0]
    ctx.glBlendColorEXT(0.5, 0.25, 0.125, 1.0)
    assert ctx.glGetFloatv(E.GL_BLEND_COLOR) == [0.5, 0.25, 0.125, 1.0]
    ctx.glBlendFuncSeparateEXT(E.GL_ONE, E.GL_ZERO, E.GL_SRC_ALPHA, E.GL_DST_ALPHA)
    assert ctx.glGetIntegerv(E.GL_BLEND_DST_ALPHA) == [E.GL_DST_ALPHA]
    expect(ctx, E.GL_NO_ERROR)


def test_arb_window_pos_and_texture_compression():
    ctx = make_ctx("compat")
    ctx.glWindowPos2fARB(3.0, 5.0)
    assert ctx.glGetFloatv(E.GL_CURRENT_RASTER_POSITION)[:2] == [3.0, 5.0]
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    blocks = np.arange(8, dtype=np.uint8)
    ctx.glCompressedTexImage2DARB(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, blocks)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_COMPRESSED) == [1]
    assert ctx.glGetCompressedTexImageARB(E.GL_TEXTURE_2D, 0) == bytes(blocks)
    expect(ctx, E.GL_NO_ERROR)


def test_alias_has_the_core_commands_signature():
    """The C ABI passes output sizes (bufSize) only to methods that take them,
    judged by the signature: an alias shows its core command's parameters
    (glGetTransformFeedbackVaryingEXT got the C bufSize and failed)."""
    import inspect

    from driver.abi import marshal as M
    core = inspect.signature(inspect.unwrap(Context.glGetTransformFeedbackVarying))
    alias = inspect.signature(inspect.unwrap(Context.glGetTransformFeedbackVaryingEXT))
    assert list(alias.parameters) == list(core.parameters)
    ctx = make_ctx("compat")
    assert M.call(ctx.glGetTransformFeedbackVaryingEXT, (12345, 0), (64,)) is None   # no TypeError
    expect(ctx, E.GL_INVALID_VALUE)


def test_alias_passes_the_c_abis_keyword_arguments():
    """glGetCompressedTexImageARB from C writes into the client's memory through the
    core command's ``dest`` keyword (driver.abi.marshal); the alias passes it on
    (it raised TypeError: the API fuzzer's long runs found it)."""
    ctx = glhelp.context(4, 4, api="compat")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    block = bytes(range(8))                   # one RGTC1 block: 4x4 texels, 8 bytes
    ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, block)
    out = bytearray(8)
    ctx.glGetCompressedTexImageARB(E.GL_TEXTURE_2D, 0, dest=lambda n: memoryview(out)[:n])
    expect(ctx, E.GL_NO_ERROR)
    assert bytes(out) == block
