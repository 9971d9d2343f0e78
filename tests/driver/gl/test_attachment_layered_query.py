"""GL_FRAMEBUFFER_ATTACHMENT_LAYERED (GL 3.2, GL 4.6 section 9.2.3): TRUE for a whole 3D,
cube map or array texture attached with glFramebufferTexture, FALSE for one level of a
2D texture or one layer (glFramebufferTextureLayer); it was INVALID_ENUM. GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE: the face of a cube map
attachment, zero for any other texture (it was INVALID_ENUM for those: apitrace's state dump of
Blender's array-layer framebuffers hit it)."""

import pytest

import driver
from driver.gl import enums as E


def _attach(ctx, target, layer=None, pname=E.GL_FRAMEBUFFER_ATTACHMENT_LAYERED):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(target, tex)
    if target == E.GL_TEXTURE_2D:
        ctx.glTexImage2D(target, 0, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    elif target == E.GL_TEXTURE_CUBE_MAP:
        for face in range(6):
            ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA,
                             E.GL_UNSIGNED_BYTE, None)
    else:
        ctx.glTexImage3D(target, 0, E.GL_RGBA8, 8, 8, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    if layer is None:
        ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0)
    else:
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, layer)
    return ctx.glGetFramebufferAttachmentParameteriv(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, pname)


@pytest.mark.parametrize("target, layer, layered", [
    (E.GL_TEXTURE_3D, None, 1), (E.GL_TEXTURE_2D_ARRAY, None, 1), (E.GL_TEXTURE_CUBE_MAP, None, 1),
    (E.GL_TEXTURE_2D, None, 0), (E.GL_TEXTURE_2D_ARRAY, 2, 0), (E.GL_TEXTURE_3D, 1, 0)])
def test_layered_is_answered_per_attachment(target, layer, layered):
    ctx = driver.Context(api="gl32", width=4, height=4)
    assert _attach(ctx, target, layer) == [layered]
    assert ctx.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("target, layer, face", [
    (E.GL_TEXTURE_2D, None, 0), (E.GL_TEXTURE_2D_ARRAY, 2, 0), (E.GL_TEXTURE_3D, 1, 0),
    (E.GL_TEXTURE_CUBE_MAP, None, E.GL_TEXTURE_CUBE_MAP_POSITIVE_X)])
def test_cube_map_face_is_zero_for_other_textures(target, layer, face):
    ctx = driver.Context(api="gl32", width=4, height=4)
    assert _attach(ctx, target, layer, E.GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE) == [face]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_cube_map_face_of_one_face():
    ctx = driver.Context(api="gl32", width=4, height=4)
    _attach(ctx, E.GL_TEXTURE_CUBE_MAP)
    tex = ctx.glGetFramebufferAttachmentParameteriv(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0,
                                                    E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME)[0]
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Y,
                               tex, 0)
    assert ctx.glGetFramebufferAttachmentParameteriv(
        E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE) == \
        [E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Y]
    assert ctx.glGetError() == E.GL_NO_ERROR
