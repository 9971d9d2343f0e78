"""EGLImage targets: GL_OES_EGL_image (glEGLImageTargetTexture2DOES,
glEGLImageTargetRenderbufferStorageOES), GL_OES_EGL_image_external (the same
command on TEXTURE_EXTERNAL_OES) and GL_EXT_EGL_image_storage
(glEGLImageTargetTexStorageEXT, glEGLImageTargetTextureStorageEXT).

An external texture (OES_EGL_image_external) is a 2D texture whose one level
can only come from an image: the texture commands do not take its target
(glTexImage2D, glTexStorage2D, glGenerateMipmap, ...: INVALID_ENUM, from their
own target lists in driver/gl/textures.py), its minification filter is NEAREST
or LINEAR and its wrap modes CLAMP_TO_EDGE (INVALID_ENUM otherwise, the
defaults being LINEAR and CLAMP_TO_EDGE), its base level 0
(INVALID_OPERATION); shaders sample it through samplerExternalOES
(compiler/glsl/types.py), which draws bind to the unit's TEXTURE_EXTERNAL_OES
texture. The image's RGBA texels are sampled as they are: no YUV image exists
here to convert.

A texture specified from an image becomes a view of the image's storage
(driver/gl/egl_image.py) at the image's level and face: its level 0 is the
image, sampling, drawing into it and TexSubImage reach the shared memory, and
it holds a reference to the shared resource in ``resource`` (released as any
texture's resource is, when it is deleted). Specifying an image of the texture
again with glTexImage* orphans it (OES_EGL_image: the texture then has its own
storage; ``Texture.set_image`` calls ``Texture.release_egl_image``). A renderbuffer specified
from an image takes the shared resource (one reference) as its storage;
glRenderbufferStorage* releases it as any storage.

Errors (OES_EGL_image, EXT_EGL_image_storage): a target other than the
command's is INVALID_ENUM; an image handle that names no live image is
INVALID_VALUE; an image the target cannot take (a cube map's face for a
3D target, a level above 0 for a renderbuffer, a multisampled image for a
texture) is INVALID_OPERATION; so is an immutable texture."""

from __future__ import annotations

from driver.gl import egl_image
from driver.gl import enums as E
from driver.gallium import PipeBind
from driver.gl.errors import check, check_enum
from driver.gl.features import entry_point
from driver.gl.objects import TexImage

__all__: list[str] = []

_OES = "GL_OES_EGL_image"
_STORAGE = "GL_EXT_EGL_image_storage"
_EXTERNAL = "GL_OES_EGL_image_external"


def _image(handle) -> egl_image.Image:
    img = egl_image.lookup(handle or 0)
    check(img is not None, E.GL_INVALID_VALUE, "not an EGLImage")
    return img


def _target_texture(ctx, tex, img: egl_image.Image, immutable: bool) -> None:
    check(not tex.immutable, E.GL_INVALID_OPERATION, "the texture is immutable")
    check(img.samples == 0, E.GL_INVALID_OPERATION, "a multisampled EGLImage cannot specify a texture")
    tex.release_egl_image()
    if tex.resource is not None:            # its own storage goes (as glTexImage's respecification)
        ctx.screen.resource_destroy(tex.resource)
        tex.resource = None
    if getattr(tex, "pending", None):
        tex.pending = []
    res = img.resource
    ctx.screen.resource_reference(res)
    tex.images = [[TexImage(img.width, img.height, 1, img.internal_format, 0)]]
    tex.resource, tex.resource_key = res, None
    tex.view_parent, tex.view_format = img.storage, res.format
    tex.view_min_level, tex.view_min_layer = img.level, img.layer
    tex.view_num_levels, tex.view_num_layers = 1, 1
    tex.view_immutable_levels = 1
    tex.immutable, tex.immutable_levels = immutable, 1 if immutable else 0
    object.__setattr__(tex, "egl_image", img)


def _texture_2d_target(ctx, target) -> int:
    targets = (E.GL_TEXTURE_2D, E.GL_TEXTURE_EXTERNAL_OES) if ctx.api.has_extension(_EXTERNAL) \
        else (E.GL_TEXTURE_2D,)
    check_enum(target, targets, f"bad EGLImage texture target {target:#x}")
    return target


@entry_point
def glEGLImageTargetTexture2DOES(ctx, target, image):
    """OES_EGL_image: the bound TEXTURE_2D (or, OES_EGL_image_external,
    TEXTURE_EXTERNAL_OES) texture's level 0 becomes the image."""
    check(ctx.api.has_extension(_OES), E.GL_INVALID_OPERATION, "needs GL_OES_EGL_image")
    from driver.gl.textures import bound_texture
    _texture_2d_target(ctx, target)
    img = _image(image)
    _target_texture(ctx, bound_texture(ctx, target), img, immutable=False)


def _storage_attribs_empty(attrib_list) -> bool:
    """EXT_EGL_image_storage: attrib_list is NULL or a list holding only GL_NONE."""
    if attrib_list is None:
        return True
    try:
        first = attrib_list[0]
    except (TypeError, IndexError):
        return True
    return int(first) == E.GL_NONE


def _tex_storage(ctx, tex, target, image, attrib_list) -> None:
    check(_storage_attribs_empty(attrib_list), E.GL_INVALID_VALUE, "attrib_list must be NULL or {GL_NONE}")
    check(image not in (None, 0), E.GL_INVALID_VALUE, "image is NULL")
    img = _image(image)
    # only 2D images exist (EGL_GL_TEXTURE_2D, a cube face, a renderbuffer): another
    # target cannot take one
    check(target == E.GL_TEXTURE_2D, E.GL_INVALID_OPERATION, f"target {target:#x} cannot take a 2D EGLImage")
    _target_texture(ctx, tex, img, immutable=True)


@entry_point
def glEGLImageTargetTexStorageEXT(ctx, target, image, attrib_list=None):
    """EXT_EGL_image_storage: immutable storage from the image."""
    check(ctx.api.has_extension(_STORAGE), E.GL_INVALID_OPERATION, "needs GL_EXT_EGL_image_storage")
    from driver.gl.textures import bound_texture, texture_targets
    check(target in texture_targets(ctx.api), E.GL_INVALID_ENUM, f"bad texture target {target:#x}")
    _tex_storage(ctx, bound_texture(ctx, target), target, image, attrib_list)


@entry_point
def glEGLImageTargetTextureStorageEXT(ctx, texture, image, attrib_list=None):
    """EXT_EGL_image_storage with ARB_direct_state_access: the texture by name."""
    check(ctx.api.has_extension(_STORAGE) and ctx.api.gl(4, 5), E.GL_INVALID_OPERATION,
          "needs GL_EXT_EGL_image_storage and direct state access")
    tex = ctx.textures.get(texture)
    check(tex is not None and tex.target != 0, E.GL_INVALID_OPERATION, "not a texture object")
    _tex_storage(ctx, tex, tex.target, image, attrib_list)


@entry_point
def glEGLImageTargetRenderbufferStorageOES(ctx, target, image):
    """OES_EGL_image: the bound renderbuffer's storage becomes the image."""
    check(ctx.api.has_extension(_OES), E.GL_INVALID_OPERATION, "needs GL_OES_EGL_image")
    check_enum(target, (E.GL_RENDERBUFFER,), f"bad renderbuffer target {target:#x}")
    img = _image(image)
    rb = ctx.renderbuffer_binding
    check(rb is not None, E.GL_INVALID_OPERATION, "no renderbuffer bound")
    res = img.resource
    check(img.level == 0 and img.layer == 0 and res.template.target.name == "TEXTURE_2D",
          E.GL_INVALID_OPERATION, "a renderbuffer takes level 0 of a 2D EGLImage only")
    check(bool(res.template.bind & (PipeBind.RENDER_TARGET | PipeBind.DEPTH_STENCIL)),
          E.GL_INVALID_OPERATION, "the image's format is not renderable")
    ctx.screen.resource_reference(res)
    if rb.resource is not None:
        ctx.screen.resource_destroy(rb.resource)
    rb.resource = res
    rb.width, rb.height, rb.internal_format, rb.samples = img.width, img.height, img.internal_format, 0


# -- eglBindTexImage (EGL 1.5 section 3.6.1): a pbuffer's colour buffer as a 2D texture -----
class SurfaceBinding:
    """A pbuffer's colour buffer bound to ``texture`` (eglBindTexImage): the
    texture is an EGLImage target of ``image``, an image of no handle whose
    storage is the pbuffer's colour resource. ``released`` once eglReleaseTexImage
    (or the surface's destruction) ended it, or the texture was respecified or
    deleted (then release has nothing left to do, as the specification says)."""

    def __init__(self, texture, image: egl_image.Image):
        self.texture, self.image = texture, image

    @property
    def bound(self) -> bool:
        return getattr(self.texture, "egl_image", None) is self.image and self.texture.resource is not None

    def release(self) -> None:
        """The texture loses its level 0 (it has no image: incomplete, as in Mesa)
        and its reference to the colour buffer; a no-op once it no longer holds it."""
        if self.bound:
            self.texture.release_egl_image()
            self.texture.images = []


def bind_surface_texture(ctx, resource, width: int, height: int, rgba: bool) -> SurfaceBinding:
    """The texture bound to TEXTURE_2D on the active unit of ``ctx`` takes the
    single-sampled RGBA8 colour ``resource`` of a pbuffer as its level 0 (its
    other levels go). ``rgba`` False (EGL_TEXTURE_RGB): the texture is RGB8, its
    alpha read as 1. Raises GLError when the texture cannot take it (immutable)."""
    from driver.gallium import PipeFormat
    from driver.gl.objects import Texture
    from driver.gl.textures import bound_texture
    storage = Texture(0)
    storage.target = E.GL_TEXTURE_2D
    storage.images = [[TexImage(width, height, 1, E.GL_RGBA8, 0)]]
    storage.resource = resource
    # the key texture_resource derives for one 2D level (driver.gl.textures)
    storage.resource_key = (width, height, 1, E.GL_RGBA8, 0, 0, 0, 0)
    image = egl_image.Image(0, storage, 0, 0, width, height, E.GL_RGBA8 if rgba else E.GL_RGB8, 0,
                            ctx.screen, (storage, (0, 0)))
    tex = bound_texture(ctx, E.GL_TEXTURE_2D)
    _target_texture(ctx, tex, image, immutable=False)
    if not rgba:
        tex.view_format = PipeFormat.R8G8B8X8_UNORM
    return SurfaceBinding(tex, image)
