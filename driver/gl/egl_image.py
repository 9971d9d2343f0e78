"""EGL images on the GL side (EGL 1.5 section 3.9, EGL_KHR_gl_texture_2D_image,
EGL_KHR_gl_texture_cubemap_image, EGL_KHR_gl_renderbuffer_image): the image
made from one level (and face) of a GL texture or from a renderbuffer, and the
table the image handles of the C ABI name.

An image shares its source's pipe resource, as Mesa's dri2 images share the
source's BO: ``Image.storage`` is a hidden texture holding one reference to
that resource (``PipeScreen.resource_reference``) and describing it as the
source did when the image was made (target, levels, format), so
``texture_resource`` hands the same resource back for it. Each texture or
renderbuffer later specified from the image (an *EGLImage target*,
driver/gl/features/egl_image.py) holds a reference of its own: the source may
be deleted or respecified and the image destroyed while targets still use the
memory, and content written through any of them is seen by the others.

Invariant: ``storage.resource`` is the shared resource as long as the image or
any target lives; ``storage``'s images are never changed after creation.

A texture or renderbuffer that is the source or a target of a live image is an
*EGLImage sibling*; making another image of the same level of it is
EGL_BAD_ACCESS (EGL 1.5 section 3.9.1). The errors are raised as
``ImageError(code)``, ``code`` being the EGL error the specification names
(the EGL layer turns them into its error state)."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass

from driver.gl import enums as E
from driver.gl.objects import TexImage, Texture

__all__ = ["Image", "ImageError", "IMAGES", "from_texture", "from_renderbuffer", "destroy", "lookup",
           "EGL_BAD_PARAMETER", "EGL_BAD_MATCH", "EGL_BAD_ACCESS"]

# EGL error codes (egl.xml); the GL layer must not import the EGL layer's tables
EGL_BAD_ACCESS = 0x3002
EGL_BAD_MATCH = 0x3009
EGL_BAD_PARAMETER = 0x300C


class ImageError(Exception):
    """An image cannot be made: ``code`` is the EGL error to report."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


@dataclass(eq=False)
class Image:
    """One EGLImage: ``storage`` (the hidden texture holding the shared
    resource) and the image's place in it (``level``, ``layer``: the cube face),
    its size and internal format. ``source``: the texture or renderbuffer it was
    made from and the (face, level) key of its sibling mark there."""
    handle: int
    storage: Texture
    level: int
    layer: int
    width: int
    height: int
    internal_format: int
    samples: int
    screen: object
    source: tuple
    destroyed: bool = False

    @property
    def resource(self):
        return self.storage.resource


IMAGES: dict[int, Image] = {}
_handles = itertools.count(0x300)


def lookup(handle: int) -> Image | None:
    """The live image of a handle, or None."""
    img = IMAGES.get(int(handle))
    return img if img is not None and not img.destroyed else None


def _mark_sibling(obj, key) -> None:
    marks = getattr(obj, "egl_image_levels", None)
    if marks is None:
        marks = set()
        object.__setattr__(obj, "egl_image_levels", marks)      # not derived state: untracked
    marks.add(key)


def _check(cond: bool, code: int, message: str) -> None:
    if not cond:
        raise ImageError(code, message)


def _complete(tex: Texture) -> bool:
    """Mipmap completeness of faces' levels base..q (GL 4.6 section 8.17): each level
    defined, half the previous one's size (rounded down, at least 1), of the base's format."""
    base = tex.image(0, tex.base_level)
    if base is None:
        return False
    top = max(base.width, base.height)
    q = min(tex.base_level + top.bit_length() - 1, tex.max_level)
    for face in range(len(tex.images)):
        w, h = base.width, base.height
        for level in range(tex.base_level, q + 1):
            img = tex.image(face, level)
            if img is None or (img.width, img.height) != (w, h) or img.internal_format != base.internal_format:
                return False
            w, h = max(w // 2, 1), max(h // 2, 1)
    return True


def _new_image(storage, level, layer, img: TexImage, screen, source) -> Image:
    screen.resource_reference(storage.resource)      # the image's own reference
    image = Image(next(_handles) * 16, storage, level, layer, img.width, img.height, img.internal_format,
                  img.samples, screen, source)
    IMAGES[image.handle] = image
    _mark_sibling(*source)
    return image


def from_texture(ctx, name: int, target: int, face: int, level: int) -> Image:
    """An image of level ``level`` of face ``face`` of texture ``name`` of
    context ``ctx`` (``target``: GL_TEXTURE_2D or GL_TEXTURE_CUBE_MAP)."""
    from driver.gl.textures import texture_resource
    _check(name != 0, EGL_BAD_PARAMETER, "texture 0 (the default texture) cannot be an image")
    tex = ctx.textures.get(name)
    _check(tex is not None and tex.target == target, EGL_BAD_PARAMETER,
           f"{name} is not a texture object of target {target:#x}")
    _check(getattr(tex, "view_parent", None) is None, EGL_BAD_ACCESS,
           "the texture shares another texture's storage (a view, or an EGLImage target)")
    _check(level >= 0, EGL_BAD_MATCH, "negative EGL_GL_TEXTURE_LEVEL")
    complete = _complete(tex)
    img = tex.image(face, level)
    if level != 0:
        _check(complete, EGL_BAD_PARAMETER, "a level above 0 of an incomplete texture")
        _check(img is not None, EGL_BAD_MATCH, f"level {level} is not a level of the texture")
    else:
        _check(img is not None, EGL_BAD_PARAMETER, "level 0 is not specified")
        if target == E.GL_TEXTURE_CUBE_MAP:
            _check(complete or all(tex.image(f, 0) is not None for f in range(6)), EGL_BAD_PARAMETER,
                   "a face of the incomplete cube map has no level 0")
        _check(complete or all(tex.image(f, lv) is None for f in range(len(tex.images))
                               for lv in range(1, len(tex.images[f]))), EGL_BAD_PARAMETER,
               "level 0 of an incomplete texture with other levels specified")
    _check((face, level) not in getattr(tex, "egl_image_levels", ()), EGL_BAD_ACCESS,
           "that level is already an EGLImage sibling")
    res = texture_resource(ctx, tex)
    _check(res is not None and level <= res.template.last_level, EGL_BAD_MATCH,
           f"level {level} is outside the texture's storage")
    storage = Texture(0)
    storage.target = tex.target
    storage.images = [[copy.copy(i) for i in levels] for levels in tex.images]
    storage.base_level, storage.max_level = tex.base_level, tex.max_level
    storage.immutable, storage.immutable_levels = tex.immutable, tex.immutable_levels
    storage.resource, storage.resource_key = res, tex.resource_key
    return _new_image(storage, level, face, img, ctx.screen, (tex, (face, level)))


def from_renderbuffer(ctx, name: int) -> Image:
    """An image of renderbuffer ``name`` of context ``ctx``."""
    _check(name != 0, EGL_BAD_PARAMETER, "renderbuffer 0 cannot be an image")
    rb = ctx.renderbuffers.get(name)
    _check(rb is not None and rb.ever_bound, EGL_BAD_PARAMETER, f"{name} is not a renderbuffer object")
    _check(rb.resource is not None, EGL_BAD_PARAMETER, "the renderbuffer has no storage")
    _check(rb.samples == 0, EGL_BAD_PARAMETER, "a multisampled renderbuffer cannot be an image")
    _check((0, 0) not in getattr(rb, "egl_image_levels", ()), EGL_BAD_ACCESS,
           "the renderbuffer is already an EGLImage sibling")
    img = TexImage(rb.width, rb.height, 1, rb.internal_format, 0)
    storage = Texture(0)
    storage.target = E.GL_TEXTURE_2D
    storage.images = [[img]]
    storage.resource = rb.resource
    # the key texture_resource derives for one 2D level (driver.gl.textures)
    storage.resource_key = (rb.width, rb.height, 1, rb.internal_format, 0, 0, 0, 0)
    return _new_image(storage, 0, 0, img, ctx.screen, (rb, (0, 0)))


def destroy(image: Image) -> None:
    """eglDestroyImage: the image's reference goes; targets keep theirs."""
    if image.destroyed:
        return
    image.destroyed = True
    IMAGES.pop(image.handle, None)
    obj, key = image.source
    marks = getattr(obj, "egl_image_levels", None)
    if marks is not None:
        marks.discard(key)
    image.screen.resource_destroy(image.storage.resource)
