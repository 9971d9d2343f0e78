"""GL_ARB_direct_state_access listed: the name stands for the whole DSA entry-point
set in every desktop context (core 3.2 - 4.4 contexts get DSA from the name alone;
4.5+ and compatibility have it as core), and what it specifies beyond editing by
name: glCreate* makes objects at once where glGen* only reserves names (a reserved
name is not an object: INVALID_OPERATION, GL 4.6 sections 6.1, 8.1, 9.2, 10.3.1,
13.2), editing by name leaves every binding alone, and names that are no object
of the family (0 where the default object is not meant) are INVALID_OPERATION.
piglit's arb_direct_state_access (28 C tests) with the name forced: 26 pass and 2
skip (FXT1 and ARB_texture_storage_multisample names) once gettextureimage-formats'
intensity readback was fixed."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.limits import extensions_for
from driver.gl.api import API_NAMES

NAME = "GL_ARB_direct_state_access"


def test_listed_in_every_desktop_context_and_no_gles_one():
    for name, api in API_NAMES.items():
        assert (NAME in extensions_for(api)) == (not api.es), name


def _families(g):
    """(family, glGen*, glCreate*, glIs*, a DSA command that needs an object of the name)."""
    return [
        ("buffer", g.glGenBuffers, g.glCreateBuffers, g.glIsBuffer,
         lambda n: g.glNamedBufferData(n, 4, None, E.GL_STATIC_DRAW), lambda n: g.glBindBuffer(E.GL_ARRAY_BUFFER, n)),
        ("texture", g.glGenTextures, lambda k: g.glCreateTextures(E.GL_TEXTURE_2D, k), g.glIsTexture,
         lambda n: g.glTextureParameteri(n, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST),
         lambda n: g.glBindTexture(E.GL_TEXTURE_2D, n)),
        ("framebuffer", g.glGenFramebuffers, g.glCreateFramebuffers, g.glIsFramebuffer,
         lambda n: g.glNamedFramebufferDrawBuffer(n, E.GL_COLOR_ATTACHMENT0),
         lambda n: g.glBindFramebuffer(E.GL_FRAMEBUFFER, n)),
        ("renderbuffer", g.glGenRenderbuffers, g.glCreateRenderbuffers, g.glIsRenderbuffer,
         lambda n: g.glNamedRenderbufferStorage(n, E.GL_RGBA8, 4, 4),
         lambda n: g.glBindRenderbuffer(E.GL_RENDERBUFFER, n)),
        ("vertex array", g.glGenVertexArrays, g.glCreateVertexArrays, g.glIsVertexArray,
         lambda n: g.glEnableVertexArrayAttrib(n, 0), g.glBindVertexArray),
        ("transform feedback", g.glGenTransformFeedbacks, g.glCreateTransformFeedbacks, g.glIsTransformFeedback,
         lambda n: g.glGetTransformFeedbackiv(n, E.GL_TRANSFORM_FEEDBACK_ACTIVE),
         lambda n: g.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, n)),
    ]


@pytest.mark.parametrize("api", ["gl33", "gl44"])
def test_created_names_are_objects_generated_ones_only_after_a_bind(api):
    with driver.Context(api, 4, 4) as c:
        g = c.gl
        families = _families(g)
        if api == "gl33":                   # transform feedback objects are GL 4.0's (ARB_transform_feedback2)
            families = families[:-1]
            g.glCreateTransformFeedbacks(1)
            assert g.glGetError() == E.GL_INVALID_OPERATION
        for family, gen, create, is_, dsa, bind in families:
            (reserved,) = gen(1)
            assert not is_(reserved), family
            dsa(reserved)
            assert g.glGetError() == E.GL_INVALID_OPERATION, family
            assert not is_(reserved), family           # the failed call made no object
            (made,) = create(1)
            assert made != reserved and is_(made), family
            dsa(made)
            assert g.glGetError() == E.GL_NO_ERROR, family
            bind(reserved)                             # binding makes the reserved name an object
            bind(0)
            assert is_(reserved), family
            dsa(reserved)
            assert g.glGetError() == E.GL_NO_ERROR, family
            dsa(4321)                                  # never reserved
            assert g.glGetError() == E.GL_INVALID_OPERATION, family


def test_editing_by_name_leaves_every_binding_alone():
    """One buffer, texture, renderbuffer and framebuffer made, filled, attached,
    cleared and read back only by name in a GL 3.3 core context: the values are
    the hand-written ones and the bindings are still the application's."""
    with driver.Context("gl33", 4, 4) as c:
        g = c.gl
        bound_buffer, bound_texture = g.glGenBuffers(1)[0], g.glGenTextures(1)[0]
        g.glBindBuffer(E.GL_ARRAY_BUFFER, bound_buffer)
        g.glBindTexture(E.GL_TEXTURE_2D, bound_texture)
        (b,) = g.glCreateBuffers(1)
        g.glNamedBufferData(b, 8, bytes(range(8)), E.GL_DYNAMIC_DRAW)
        g.glNamedBufferSubData(b, 2, 2, b"\xf0\xf1")
        assert g.glGetNamedBufferSubData(b, 0, 8) == bytes([0, 1, 0xF0, 0xF1, 4, 5, 6, 7])
        (t,) = g.glCreateTextures(E.GL_TEXTURE_2D, 1)
        g.glTextureStorage2D(t, 1, E.GL_RGBA8, 2, 2)
        g.glTextureSubImage2D(t, 0, 1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([10, 20, 30, 40]))
        (fb,) = g.glCreateFramebuffers(1)
        g.glNamedFramebufferTexture(fb, E.GL_COLOR_ATTACHMENT0, t, 0)
        assert g.glCheckNamedFramebufferStatus(fb, E.GL_DRAW_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        g.glClearNamedFramebufferfv(fb, E.GL_COLOR, 0, [1.0, 0.0, 0.0, 1.0])     # the whole 2 x 2 image
        img = np.frombuffer(g.glGetTextureImage(t, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 16), np.uint8)
        assert img.reshape(4, 4).tolist() == [[255, 0, 0, 255]] * 4
        (rb,) = g.glCreateRenderbuffers(1)
        g.glNamedRenderbufferStorage(rb, E.GL_RGBA8, 3, 5)
        assert g.glGetNamedRenderbufferParameteriv(rb, E.GL_RENDERBUFFER_HEIGHT) == [5]
        assert g.glGetError() == E.GL_NO_ERROR
        assert g.glGetIntegerv(E.GL_ARRAY_BUFFER_BINDING) == [bound_buffer]
        assert g.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [bound_texture]
        assert g.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING) == [0]
        assert g.glGetIntegerv(E.GL_RENDERBUFFER_BINDING) == [0]


def test_the_errors_dsa_names():
    with driver.Context("gl33", 4, 4) as c:
        g = c.gl
        g.glCreateTextures(E.GL_RGBA8, 1)                            # not a target
        assert g.glGetError() == E.GL_INVALID_ENUM
        g.glCreateBuffers(-1)
        assert g.glGetError() == E.GL_INVALID_VALUE
        (t3,) = g.glCreateTextures(E.GL_TEXTURE_3D, 1)
        g.glTextureStorage2D(t3, 1, E.GL_RGBA8, 4, 4)                # the 2D command on a 3D texture
        assert g.glGetError() == E.GL_INVALID_OPERATION
        g.glBindTexture(E.GL_TEXTURE_2D, t3)                         # the target was fixed at creation
        assert g.glGetError() == E.GL_INVALID_OPERATION
        g.glNamedBufferData(0, 4, None, E.GL_STATIC_DRAW)             # 0 is no buffer
        assert g.glGetError() == E.GL_INVALID_OPERATION
        g.glNamedFramebufferTexture(0, E.GL_COLOR_ATTACHMENT0, 0, 0)  # the default framebuffer has none
        assert g.glGetError() == E.GL_INVALID_OPERATION
        (fb,) = g.glCreateFramebuffers(1)
        g.glNamedFramebufferDrawBuffer(fb, E.GL_BACK)                 # a window buffer in an object
        assert g.glGetError() == E.GL_INVALID_OPERATION
        g.glNamedFramebufferDrawBuffer(0, E.GL_BACK)                  # 0 names the default framebuffer here
        assert g.glGetError() == E.GL_NO_ERROR
        assert g.glCheckNamedFramebufferStatus(0, E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        g.glGetTextureLevelParameteriv(999, 0, E.GL_TEXTURE_WIDTH)
        assert g.glGetError() == E.GL_INVALID_OPERATION


def test_compressed_cube_map_faces_round_trip_by_name():
    """glCompressedTextureSubImage3D of a cube map updates faces zoffset.. (GL 4.6 section
    8.6), each from its own imageSize / depth bytes; glGetCompressedTextureImage returns
    the six faces as layers, to client memory or at an offset of the pixel pack buffer
    (piglit's arb_direct_state_access-getcompressedtextureimage). RGTC1 blocks are stored
    as given: 4x4 texels, 8 bytes a block, so a 8x8 face is 32 bytes."""
    c = driver.Context(api="gl46", width=4, height=4)
    fmt = E.GL_COMPRESSED_RED_RGTC1
    t = c.glCreateTextures(E.GL_TEXTURE_CUBE_MAP, 1)[0]
    c.glTextureStorage2D(t, 1, fmt, 8, 8)
    blocks = bytes(range(6 * 32))
    c.glCompressedTextureSubImage3D(t, 0, 0, 0, 0, 8, 8, 6, fmt, len(blocks), blocks)
    assert c.glGetError() == E.GL_NO_ERROR
    assert bytes(c.glGetCompressedTextureImage(t, 0, len(blocks))) == blocks
    c.glCompressedTextureSubImage3D(t, 0, 0, 0, 4, 8, 8, 1, fmt, 32, bytes([255]) * 32)   # face -Z alone
    assert c.glGetError() == E.GL_NO_ERROR
    want = blocks[:4 * 32] + bytes([255]) * 32 + blocks[5 * 32:]
    pbo = c.glCreateBuffers(1)[0]
    c.glNamedBufferData(pbo, 16 + len(blocks), bytes(16 + len(blocks)), E.GL_STREAM_READ)
    c.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pbo)
    assert c.glGetCompressedTextureImage(t, 0, len(blocks), 16) is None
    assert c.glGetError() == E.GL_NO_ERROR
    assert bytes(c.glGetNamedBufferSubData(pbo, 0, 16 + len(blocks))) == bytes(16) + want
    c.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, 0)
    c.glGetCompressedTextureImage(t, 0, len(blocks) - 1)           # bufSize too small
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glCompressedTextureSubImage3D(t, 0, 0, 0, 5, 8, 8, 2, fmt, 64, bytes(64))     # faces 5 and 6
    assert c.glGetError() == E.GL_INVALID_VALUE
