"""ARB_direct_state_access (GL 4.5 core): every object's state reached by
name instead of through a binding point.

Each named entry point finds the object by name (GL 4.6 sections 6-10: an
unknown name, or a name only reserved by glGen* and never bound or created,
is GL_INVALID_OPERATION), puts it at a scratch binding point for the length
of the call, runs the bind-to-edit entry point's implementation (which does
the validation and the work) and restores every binding it touched, so no
binding visible to the application changes. `glCreate*` make objects that
exist at once, as if bound.
"""

from __future__ import annotations

from contextlib import contextmanager

from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import call, entry_point
from driver.gl.textures import MULTISAMPLE_TEXTURE_PNAMES, texture_targets

# -- finding objects --------------------------------------------------------------


def _object(namespace, name: int, what: str):
    obj = namespace.get(name) if name else None
    if obj is None:
        raise GLError(E.GL_INVALID_OPERATION, f"{name} is not the name of an existing {what} object")
    return obj


def _dsa(ctx) -> None:
    check(ctx.api.has_extension("GL_ARB_direct_state_access"), E.GL_INVALID_OPERATION,
          "direct state access needs GL 4.5 or GL_ARB_direct_state_access")


def _created(namespace, n: int, make=None) -> list[int]:
    """glCreate*: reserve n names and make their objects at once."""
    check(n >= 0, E.GL_INVALID_VALUE, "negative n")
    names = namespace.gen(n)
    for name in names:
        obj = namespace.get_or_create(name) if make is None else make(name)
        if hasattr(obj, "ever_bound"):
            obj.ever_bound = True
    return names


# -- scratch bindings ----------------------------------------------------------------

_SCRATCH_BUFFER = E.GL_COPY_WRITE_BUFFER


@contextmanager
def _buffer_bound(ctx, buf, target: int = _SCRATCH_BUFFER):
    saved = ctx.buffer_bindings.get(target)
    ctx.buffer_bindings[target] = buf
    try:
        yield target
    finally:
        if saved is None:
            ctx.buffer_bindings.pop(target, None)
        else:
            ctx.buffer_bindings[target] = saved


@contextmanager
def _texture_bound(ctx, tex):
    unit = ctx.texture_units[ctx.active_texture]
    saved = unit.get(tex.target)
    unit[tex.target] = tex
    try:
        yield tex.target
    finally:
        if saved is None:
            unit.pop(tex.target, None)
        else:
            unit[tex.target] = saved


@contextmanager
def _framebuffer_bound(ctx, fb, draw: bool = True, read: bool = True):
    """`fb` None: the default framebuffer."""
    saved = ctx.draw_framebuffer, ctx.read_framebuffer
    if draw:
        ctx.draw_framebuffer = fb
    if read:
        ctx.read_framebuffer = fb
    try:
        yield
    finally:
        ctx.draw_framebuffer, ctx.read_framebuffer = saved


@contextmanager
def _attr_bound(ctx, attr: str, value):
    saved = getattr(ctx, attr)
    setattr(ctx, attr, value)
    try:
        yield
    finally:
        setattr(ctx, attr, saved)


def _forwarders(pairs, make, where: str) -> None:
    """Register each (DSA name, bind-to-edit name, *options) of `pairs` as the
    entry point ``make(bind-to-edit name, *options)``."""
    for dsa_name, plain, *options in pairs:
        fn = make(plain, *options)
        fn.__name__ = fn.__qualname__ = dsa_name
        fn.__doc__ = f"{dsa_name}: {plain} {where}."
        entry_point(fn)


# -- buffers (GL 4.6 section 6) ------------------------------------------------------


def _buffer(ctx, name):
    return _object(ctx.buffers, name, "buffer")


def _named(lookup, bound):
    """A factory of forwarders: the object by name (`lookup`), put at its
    scratch binding (`bound`, yielding the target), the bind-to-edit command
    run on that target."""
    def make(plain: str):
        def entry(ctx, name, *args):
            _dsa(ctx)
            with bound(ctx, lookup(ctx, name)) as target:
                return call(ctx, plain, target, *args)
        return entry
    return make


_named_buffer = _named(_buffer, _buffer_bound)


_forwarders((
        ("glNamedBufferData", "glBufferData"),
        ("glNamedBufferSubData", "glBufferSubData"),
        ("glNamedBufferStorage", "glBufferStorage"),
        ("glMapNamedBuffer", "glMapBuffer"),
        ("glMapNamedBufferRange", "glMapBufferRange"),
        ("glUnmapNamedBuffer", "glUnmapBuffer"),
        ("glFlushMappedNamedBufferRange", "glFlushMappedBufferRange"),
        ("glGetNamedBufferParameteriv", "glGetBufferParameteriv"),
        ("glGetNamedBufferParameteri64v", "glGetBufferParameteri64v"),
        ("glGetNamedBufferPointerv", "glGetBufferPointerv"),
        ("glGetNamedBufferSubData", "glGetBufferSubData"),
        ("glClearNamedBufferData", "glClearBufferData"),
        ("glClearNamedBufferSubData", "glClearBufferSubData")),
    _named_buffer, "on the named buffer")


@entry_point
def glCreateBuffers(ctx, n):
    _dsa(ctx)
    return _created(ctx.buffers, n)


@entry_point
def glCopyNamedBufferSubData(ctx, readBuffer, writeBuffer, readOffset, writeOffset, size):
    _dsa(ctx)
    src, dst = _buffer(ctx, readBuffer), _buffer(ctx, writeBuffer)
    with _buffer_bound(ctx, src, E.GL_COPY_READ_BUFFER), _buffer_bound(ctx, dst, E.GL_COPY_WRITE_BUFFER):
        return call(ctx, "glCopyBufferSubData", E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER,
                    readOffset, writeOffset, size)


# -- textures (GL 4.6 section 8) -------------------------------------------------------


def _texture(ctx, name):
    tex = _object(ctx.textures, name, "texture")
    check(tex.target != 0, E.GL_INVALID_OPERATION, f"texture {name} has no target yet")
    return tex


_named_texture = _named(_texture, _texture_bound)


def _texture_parameter(plain: str):
    """glTextureParameter*: as the bind-to-edit command, but a sampler state of a
    multisample texture is INVALID_OPERATION (GL 4.6 section 8.10)."""
    forward = _named_texture(plain)

    def entry(ctx, texture, pname, *args):
        _dsa(ctx)
        tex = _texture(ctx, texture)
        check(tex.target not in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
              or pname in MULTISAMPLE_TEXTURE_PNAMES, E.GL_INVALID_OPERATION,
              "sampler state of a multisample texture")
        return forward(ctx, texture, pname, *args)
    return entry


_forwarders((
        ("glTextureParameterf", "glTexParameterf"),
        ("glTextureParameterfv", "glTexParameterfv"),
        ("glTextureParameteri", "glTexParameteri"),
        ("glTextureParameteriv", "glTexParameteriv"),
        ("glTextureParameterIiv", "glTexParameterIiv"),
        ("glTextureParameterIuiv", "glTexParameterIuiv")),
    _texture_parameter, "on the named texture's target")


_forwarders((
        ("glGetTextureParameterfv", "glGetTexParameterfv"),
        ("glGetTextureParameteriv", "glGetTexParameteriv"),
        ("glGetTextureParameterIiv", "glGetTexParameterIiv"),
        ("glGetTextureParameterIuiv", "glGetTexParameterIuiv"),
        ("glGetTextureLevelParameterfv", "glGetTexLevelParameterfv"),
        ("glGetTextureLevelParameteriv", "glGetTexLevelParameteriv"),
        ("glGenerateTextureMipmap", "glGenerateMipmap"),
        ("glTextureBuffer", "glTexBuffer"),
        ("glTextureBufferRange", "glTexBufferRange")),
    _named_texture, "on the named texture's target")


#: The texture targets each dimension of the sub-image commands edits (GL 4.6
#: sections 8.6, 8.7: a texture of another target is INVALID_OPERATION, the DSA
#: commands naming no target; a cube map's faces are the layers of a 3D image)
_SUB_IMAGE_TARGETS = {1: (E.GL_TEXTURE_1D,),
                      2: (E.GL_TEXTURE_2D, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_RECTANGLE),
                      3: (E.GL_TEXTURE_3D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY,
                          E.GL_TEXTURE_CUBE_MAP)}


def _sub_image_texture(ctx, texture, dims: int):
    tex = _texture(ctx, texture)
    check(tex.target in _SUB_IMAGE_TARGETS[dims], E.GL_INVALID_OPERATION,
          f"a {dims}D sub-image command on a texture of target {tex.target:#x}")
    return tex


def _sub_image(plain: str, dims: int):
    forward = _named_texture(plain)

    def entry(ctx, texture, *args):
        _dsa(ctx)
        _sub_image_texture(ctx, texture, dims)
        return forward(ctx, texture, *args)
    return entry


#: The texture targets each glTextureStorage* command specifies (GL 4.6 section 8.19:
#: another target is INVALID_OPERATION through DSA, which names no target)
_STORAGE_TARGETS = {"glTexStorage1D": (E.GL_TEXTURE_1D,),
                    "glTexStorage2D": (E.GL_TEXTURE_2D, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_RECTANGLE,
                                       E.GL_TEXTURE_CUBE_MAP),
                    "glTexStorage3D": (E.GL_TEXTURE_3D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY),
                    "glTexStorage2DMultisample": (E.GL_TEXTURE_2D_MULTISAMPLE,),
                    "glTexStorage3DMultisample": (E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY,)}


def _storage(plain: str):
    forward = _named_texture(plain)

    def entry(ctx, texture, *args):
        _dsa(ctx)
        tex = _texture(ctx, texture)
        check(tex.target in _STORAGE_TARGETS[plain], E.GL_INVALID_OPERATION,
              f"{plain.replace('glTex', 'glTexture')} does not specify a texture of target {tex.target:#x}")
        return forward(ctx, texture, *args)
    return entry


_forwarders((
        ("glTextureStorage1D", "glTexStorage1D"),
        ("glTextureStorage2D", "glTexStorage2D"),
        ("glTextureStorage3D", "glTexStorage3D"),
        ("glTextureStorage2DMultisample", "glTexStorage2DMultisample"),
        ("glTextureStorage3DMultisample", "glTexStorage3DMultisample")),
    _storage, "on the named texture's target")


_forwarders((
        ("glTextureSubImage1D", "glTexSubImage1D", 1),
        ("glTextureSubImage2D", "glTexSubImage2D", 2),
        ("glCompressedTextureSubImage1D", "glCompressedTexSubImage1D", 1),
        ("glCompressedTextureSubImage2D", "glCompressedTexSubImage2D", 2),
        ("glCopyTextureSubImage1D", "glCopyTexSubImage1D", 1),
        ("glCopyTextureSubImage2D", "glCopyTexSubImage2D", 2)),
    _sub_image, "on the named texture's target")


def _check_faces(zoffset: int, depth: int) -> None:
    """A cube map's z range names faces (GL 4.6 section 8.6): it must lie in 0..5."""
    check(zoffset >= 0 and depth >= 0 and zoffset + depth <= 6, E.GL_INVALID_VALUE, "faces outside 0..5")


@entry_point
def glCompressedTextureSubImage3D(ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth,
                                  format, imageSize, data):
    """Of a cube map the z range names faces (GL 4.6 section 8.6), as glTextureSubImage3D:
    one 2D update per face, each from its own imageSize / depth bytes of the blocks."""
    _dsa(ctx)
    tex = _sub_image_texture(ctx, texture, 3)
    with _texture_bound(ctx, tex) as target:
        if target != E.GL_TEXTURE_CUBE_MAP:
            return call(ctx, "glCompressedTexSubImage3D", target, level, xoffset, yoffset, zoffset, width,
                        height, depth, format, imageSize, data)
        _check_faces(zoffset, depth)
        check(depth > 0 and imageSize % depth == 0, E.GL_INVALID_VALUE, "imageSize is not depth whole faces")
        face_B = imageSize // depth
        for i in range(depth):
            if data is None or isinstance(data, int):      # none, or an offset into the PIXEL_UNPACK buffer
                face = data if data is None else data + i * face_B
            else:
                from driver.gl.pointers import as_bytes
                face = as_bytes(data)[i * face_B:(i + 1) * face_B]
            call(ctx, "glCompressedTexSubImage2D", E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + zoffset + i, level,
                 xoffset, yoffset, width, height, format, face_B, face)


@entry_point
def glCopyTextureSubImage3D(ctx, texture, level, xoffset, yoffset, zoffset, x, y, width, height):
    """Of a cube map, ``zoffset`` names the face (GL 4.6 section 8.6)."""
    _dsa(ctx)
    tex = _sub_image_texture(ctx, texture, 3)
    with _texture_bound(ctx, tex) as target:
        if target == E.GL_TEXTURE_CUBE_MAP:
            check(0 <= zoffset < 6, E.GL_INVALID_VALUE, "face outside 0..5")
            return call(ctx, "glCopyTexSubImage2D", E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + zoffset, level,
                        xoffset, yoffset, x, y, width, height)
        return call(ctx, "glCopyTexSubImage3D", target, level, xoffset, yoffset, zoffset, x, y, width, height)


@entry_point
def glTextureSubImage3D(ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth,
                        format, type, pixels):
    """For a cube map the z range names faces (GL 4.6 section 8.6: the faces
    are the layers of a 6-layer image, +X first): one 2D upload per face,
    each from its own image of the client data."""
    _dsa(ctx)
    tex = _sub_image_texture(ctx, texture, 3)
    with _texture_bound(ctx, tex) as target:
        if target != E.GL_TEXTURE_CUBE_MAP:
            return call(ctx, "glTexSubImage3D", target, level, xoffset, yoffset, zoffset, width,
                        height, depth, format, type, pixels)
        _check_faces(zoffset, depth)
        from driver.gl.pixels import image_size_B
        from driver.gl.pointers import as_bytes
        store = ctx.state.unpack
        image_B = (image_size_B(store, format, type, width, height, 2)
                   - image_size_B(store, format, type, width, height, 1))
        for i in range(depth):
            first_B = (store.skip_images + i) * image_B
            if pixels is None:
                face_pixels = None
            elif isinstance(pixels, int):          # an offset into the PIXEL_UNPACK buffer
                face_pixels = pixels + first_B
            else:
                face_pixels = as_bytes(pixels)[first_B:]
            call(ctx, "glTexSubImage2D", E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + zoffset + i, level,
                 xoffset, yoffset, width, height, format, type, face_pixels)


def _with_buf_size(data, buf_size: int):
    """The GL 4.5 bufSize rule of the image getters: INVALID_OPERATION when
    the image does not fit in the client's buffer."""
    if data is not None:
        check(len(data) <= buf_size, E.GL_INVALID_OPERATION,
              f"the image needs {len(data)} bytes, bufSize is {buf_size}")
    return data


@entry_point
def glGetTextureImage(ctx, texture, level, format, type, bufSize, pixels=None):
    """The image (or, with a PIXEL_PACK_BUFFER bound, written at byte offset ``pixels``)."""
    _dsa(ctx)
    tex = _texture(ctx, texture)
    with _texture_bound(ctx, tex) as target:
        if tex.target != E.GL_TEXTURE_CUBE_MAP:
            return _with_buf_size(call(ctx, "glGetTexImage", target, level, format, type, pixels), bufSize)
        # GL 4.6 section 8.11.4: a cube map's six faces in order, as the layers of a
        # 3D image; the level must be cube complete (same size and format on every face)
        faces = [tex.image(face, level) for face in range(6)]
        check(all(f is not None for f in faces) and len({(f.width, f.height, f.internal_format)
                                                          for f in faces}) == 1,
              E.GL_INVALID_OPERATION, "the cube map level is not cube complete")
        pbo = ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
        ctx.buffer_bindings[E.GL_PIXEL_PACK_BUFFER] = None     # the six faces into memory first
        try:
            parts = [call(ctx, "glGetTexImage", E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, level, format, type)
                     for face in range(6)]
        finally:
            ctx.buffer_bindings[E.GL_PIXEL_PACK_BUFFER] = pbo
        image = _with_buf_size(b"".join(bytes(p) for p in parts), bufSize)
        if pbo is None:
            return image
        ctx._write_pack_buffer(pbo, pixels, image)      # then the faces, one after another
        return None


@entry_point
def glGetCompressedTextureImage(ctx, texture, level, bufSize, pixels=None, dest=None):
    """The whole level's blocks (GL 4.6 section 8.11.4): glGetCompressedTextureSubImage's
    box of the level, so a cube map gives its six faces as layers (glGetCompressedTexImage
    takes one face), and the blocks go where it puts them: the pixel pack buffer at offset
    ``pixels``, ``dest(n)`` (the C ABI's client memory) or returned."""
    _dsa(ctx)
    tex = _texture(ctx, texture)
    check(level >= 0, E.GL_INVALID_VALUE, "negative level")
    img = tex.image(0, level)
    check(img is not None and img.compressed, E.GL_INVALID_OPERATION, "not a compressed image")
    layers = 6 if tex.target == E.GL_TEXTURE_CUBE_MAP else img.depth
    return call(ctx, "glGetCompressedTextureSubImage", texture, level, 0, 0, 0, img.width, img.height, layers,
                bufSize, pixels, dest)


@entry_point
def glCreateTextures(ctx, target, n):
    _dsa(ctx)
    targets = texture_targets(ctx.api)
    if target not in targets:
        raise GLError(E.GL_INVALID_ENUM, f"bad texture target {target:#x}")

    def make(name):
        from driver.gl.textures import first_bound
        tex = ctx.textures.get_or_create(name)
        first_bound(tex, target)
        return tex
    return _created(ctx.textures, n, make)


@entry_point
def glBindTextureUnit(ctx, unit, texture):
    _dsa(ctx)
    check(0 <= unit < ctx.caps.max_combined_texture_units, E.GL_INVALID_VALUE,
          "texture unit out of range")
    units = ctx.texture_units[unit]
    if texture == 0:
        units.clear()             # GL 4.6 section 8.1: zero unbinds every target of the unit
        return
    tex = _texture(ctx, texture)
    units[tex.target] = tex


# -- framebuffers and renderbuffers (GL 4.6 section 9) ------------------------------------


def _framebuffer(ctx, name, allow_default: bool):
    if name == 0:
        check(allow_default, E.GL_INVALID_OPERATION, "the default framebuffer has no attachments")
        return None
    return _object(ctx.framebuffers, name, "framebuffer")


def _named_framebuffer(plain: str, allow_default: bool, draw: bool = True, read: bool = True,
                       target: int | None = E.GL_DRAW_FRAMEBUFFER):
    def entry(ctx, framebuffer, *args):
        _dsa(ctx)
        fb = _framebuffer(ctx, framebuffer, allow_default)
        with _framebuffer_bound(ctx, fb, draw, read):
            return call(ctx, plain, *((target,) if target is not None else ()), *args)
    return entry


_forwarders((
        ("glNamedFramebufferRenderbuffer", "glFramebufferRenderbuffer", False, True, False, E.GL_DRAW_FRAMEBUFFER),
        ("glNamedFramebufferTexture", "glFramebufferTexture", False, True, False, E.GL_DRAW_FRAMEBUFFER),
        ("glNamedFramebufferTextureLayer", "glFramebufferTextureLayer", False, True, False, E.GL_DRAW_FRAMEBUFFER),
        ("glNamedFramebufferParameteri", "glFramebufferParameteri", False, True, False, E.GL_DRAW_FRAMEBUFFER),
        ("glGetNamedFramebufferParameteriv", "glGetFramebufferParameteriv", True, True, False, E.GL_DRAW_FRAMEBUFFER),
        ("glGetNamedFramebufferAttachmentParameteriv", "glGetFramebufferAttachmentParameteriv", True, True, False,
         E.GL_DRAW_FRAMEBUFFER),
        ("glNamedFramebufferDrawBuffer", "glDrawBuffer", True, True, False, None),
        ("glNamedFramebufferDrawBuffers", "glDrawBuffers", True, True, False, None),
        ("glNamedFramebufferReadBuffer", "glReadBuffer", True, False, True, None),
        ("glInvalidateNamedFramebufferData", "glInvalidateFramebuffer", True, True, False, E.GL_DRAW_FRAMEBUFFER),
        ("glInvalidateNamedFramebufferSubData", "glInvalidateSubFramebuffer", True, True, False,
         E.GL_DRAW_FRAMEBUFFER),
        ("glClearNamedFramebufferiv", "glClearBufferiv", True, True, False, None),
        ("glClearNamedFramebufferuiv", "glClearBufferuiv", True, True, False, None),
        ("glClearNamedFramebufferfv", "glClearBufferfv", True, True, False, None),
        ("glClearNamedFramebufferfi", "glClearBufferfi", True, True, False, None)),
    _named_framebuffer, "on the named framebuffer")


@entry_point
def glCheckNamedFramebufferStatus(ctx, framebuffer, target):
    _dsa(ctx)
    if target not in (E.GL_FRAMEBUFFER, E.GL_DRAW_FRAMEBUFFER, E.GL_READ_FRAMEBUFFER):
        raise GLError(E.GL_INVALID_ENUM, f"bad framebuffer target {target:#x}")
    fb = _framebuffer(ctx, framebuffer, True)
    with _framebuffer_bound(ctx, fb):
        return call(ctx, "glCheckFramebufferStatus", target)


@entry_point
def glBlitNamedFramebuffer(ctx, readFramebuffer, drawFramebuffer, *rect_mask_filter):
    _dsa(ctx)
    src = _framebuffer(ctx, readFramebuffer, True)
    dst = _framebuffer(ctx, drawFramebuffer, True)
    saved = ctx.draw_framebuffer, ctx.read_framebuffer
    ctx.read_framebuffer, ctx.draw_framebuffer = src, dst
    try:
        return call(ctx, "glBlitFramebuffer", *rect_mask_filter)
    finally:
        ctx.draw_framebuffer, ctx.read_framebuffer = saved


@entry_point
def glCreateFramebuffers(ctx, n):
    _dsa(ctx)
    return _created(ctx.framebuffers, n)


@entry_point
def glCreateRenderbuffers(ctx, n):
    _dsa(ctx)
    return _created(ctx.renderbuffers, n)


def _named_renderbuffer(plain: str):
    def entry(ctx, renderbuffer, *args):
        _dsa(ctx)
        rb = _object(ctx.renderbuffers, renderbuffer, "renderbuffer")
        with _attr_bound(ctx, "renderbuffer_binding", rb):
            return call(ctx, plain, E.GL_RENDERBUFFER, *args)
    return entry


_forwarders((("glNamedRenderbufferStorage", "glRenderbufferStorage"),
                          ("glNamedRenderbufferStorageMultisample", "glRenderbufferStorageMultisample"),
                          ("glGetNamedRenderbufferParameteriv", "glGetRenderbufferParameteriv")),
    _named_renderbuffer, "on the named renderbuffer")


# -- vertex arrays (GL 4.6 section 10) --------------------------------------------------------


def _vao(ctx, name):
    return ctx.default_vao if name == 0 and not ctx.api.core else _object(ctx.vertex_arrays, name, "vertex array")


@entry_point
def glCreateVertexArrays(ctx, n):
    _dsa(ctx)
    return _created(ctx.vertex_arrays, n,
                    lambda name: ctx.vertex_arrays.get_or_create(name, ctx.caps.max_vertex_attribs))


def _named_vao(plain: str):
    def entry(ctx, vaobj, *args):
        _dsa(ctx)
        with _attr_bound(ctx, "vao", _vao(ctx, vaobj)):
            return call(ctx, plain, *args)
    return entry


_forwarders((("glVertexArrayAttribFormat", "glVertexAttribFormat"),
                          ("glVertexArrayAttribIFormat", "glVertexAttribIFormat"),
                          ("glVertexArrayAttribLFormat", "glVertexAttribLFormat"),
                          ("glVertexArrayAttribBinding", "glVertexAttribBinding"),
                          ("glVertexArrayBindingDivisor", "glVertexBindingDivisor"),
                          ("glEnableVertexArrayAttrib", "glEnableVertexAttribArray"),
                          ("glDisableVertexArrayAttrib", "glDisableVertexAttribArray"),
                          ("glVertexArrayVertexBuffer", "glBindVertexBuffer"),
                          ("glVertexArrayVertexBuffers", "glBindVertexBuffers")),
    _named_vao, "on the named vertex array")


@entry_point
def glVertexArrayElementBuffer(ctx, vaobj, buffer):
    _dsa(ctx)
    vao = _vao(ctx, vaobj)
    if buffer:
        _buffer(ctx, buffer)
    with _attr_bound(ctx, "vao", vao):
        return call(ctx, "glBindBuffer", E.GL_ELEMENT_ARRAY_BUFFER, buffer)


@entry_point
def glGetVertexArrayiv(ctx, vaobj, pname):
    _dsa(ctx)
    if pname != E.GL_ELEMENT_ARRAY_BUFFER_BINDING:
        raise GLError(E.GL_INVALID_ENUM, f"bad pname {pname:#x}")
    vao = _vao(ctx, vaobj)
    return [vao.element_buffer.name if vao.element_buffer is not None else 0]


def _binding_point(ctx, vao, index: int):
    check(0 <= index < len(vao.bindings), E.GL_INVALID_VALUE, "binding index out of range")
    return vao.bindings[index]


@entry_point
def glGetVertexArrayIndexediv(ctx, vaobj, index, pname):
    _dsa(ctx)
    vao = _vao(ctx, vaobj)
    if pname == E.GL_VERTEX_BINDING_OFFSET:
        raise GLError(E.GL_INVALID_ENUM, "GL_VERTEX_BINDING_OFFSET is a 64-bit query")
    if pname == E.GL_VERTEX_BINDING_STRIDE:
        return [_binding_point(ctx, vao, index).stride]
    if pname == E.GL_VERTEX_BINDING_DIVISOR:
        return [_binding_point(ctx, vao, index).divisor]
    if pname == E.GL_VERTEX_BINDING_BUFFER:
        buf = _binding_point(ctx, vao, index).buffer
        return [buf.name if buf is not None else 0]
    with _attr_bound(ctx, "vao", vao):
        return call(ctx, "glGetVertexAttribiv", index, pname)[:1]


@entry_point
def glGetVertexArrayIndexed64iv(ctx, vaobj, index, pname):
    _dsa(ctx)
    if pname != E.GL_VERTEX_BINDING_OFFSET:
        raise GLError(E.GL_INVALID_ENUM, f"bad pname {pname:#x}")
    return [_binding_point(ctx, _vao(ctx, vaobj), index).offset]


# -- samplers, program pipelines, queries, transform feedback ------------------------------------


@entry_point
def glCreateSamplers(ctx, n):
    _dsa(ctx)
    return _created(ctx.samplers, n)


@entry_point
def glCreateProgramPipelines(ctx, n):
    _dsa(ctx)
    return _created(ctx.pipelines, n)


_QUERY_TARGETS = (E.GL_SAMPLES_PASSED, E.GL_ANY_SAMPLES_PASSED, E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE,
                  E.GL_TIME_ELAPSED, E.GL_TIMESTAMP, E.GL_PRIMITIVES_GENERATED,
                  E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)


@entry_point
def glCreateQueries(ctx, target, n):
    _dsa(ctx)
    if target not in _QUERY_TARGETS:
        raise GLError(E.GL_INVALID_ENUM, f"bad query target {target:#x}")

    def make(name):
        q = ctx.queries.get_or_create(name)
        q.target = target
        q.ever_used = True
        return q
    return _created(ctx.queries, n, make)


@entry_point
def glCreateTransformFeedbacks(ctx, n):
    _dsa(ctx)
    # transform feedback objects are GL 4.0's (ARB_transform_feedback2), as glGenTransformFeedbacks
    check(ctx.api.gl_or_es((4, 0), (3, 0)), E.GL_INVALID_OPERATION, "transform feedback objects need GL 4.0")
    return _created(ctx.transform_feedbacks, n)


def _xfb(ctx, name):
    return ctx.default_xfb if name == 0 else _object(ctx.transform_feedbacks, name, "transform feedback")


def _xfb_output_buffer(ctx, buffer):
    """GL 4.6 section 13.2.2: a name that is neither zero nor an existing buffer
    object is INVALID_VALUE for glTransformFeedbackBuffer{Base,Range} (the object
    lookups of other DSA commands say INVALID_OPERATION)."""
    check(buffer == 0 or ctx.buffers.get(buffer) is not None, E.GL_INVALID_VALUE,
          f"{buffer} is not the name of an existing buffer object")


@entry_point
def glTransformFeedbackBufferBase(ctx, xfb, index, buffer):
    _dsa(ctx)
    obj = _xfb(ctx, xfb)
    _xfb_output_buffer(ctx, buffer)
    target = E.GL_TRANSFORM_FEEDBACK_BUFFER
    with _attr_bound(ctx, "xfb", obj), _buffer_bound(ctx, ctx.buffer_bindings.get(target), target):
        return call(ctx, "glBindBufferBase", target, index, buffer)


@entry_point
def glTransformFeedbackBufferRange(ctx, xfb, index, buffer, offset, size):
    _dsa(ctx)
    obj = _xfb(ctx, xfb)
    _xfb_output_buffer(ctx, buffer)
    target = E.GL_TRANSFORM_FEEDBACK_BUFFER
    with _attr_bound(ctx, "xfb", obj), _buffer_bound(ctx, ctx.buffer_bindings.get(target), target):
        return call(ctx, "glBindBufferRange", target, index, buffer, offset, size)


@entry_point
def glGetTransformFeedbackiv(ctx, xfb, pname):
    _dsa(ctx)
    obj = _xfb(ctx, xfb)
    if pname == E.GL_TRANSFORM_FEEDBACK_PAUSED:
        return [int(bool(obj.active and obj.paused))]
    if pname == E.GL_TRANSFORM_FEEDBACK_ACTIVE:
        return [int(bool(obj.active))]
    raise GLError(E.GL_INVALID_ENUM, f"bad pname {pname:#x}")


@entry_point
def glGetTransformFeedbacki_v(ctx, xfb, pname, index):
    _dsa(ctx)
    if pname != E.GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
        raise GLError(E.GL_INVALID_ENUM, f"bad pname {pname:#x}")
    with _attr_bound(ctx, "xfb", _xfb(ctx, xfb)):
        return call(ctx, "glGetIntegeri_v", pname, index)


@entry_point
def glGetTransformFeedbacki64_v(ctx, xfb, pname, index):
    _dsa(ctx)
    if pname not in (E.GL_TRANSFORM_FEEDBACK_BUFFER_START, E.GL_TRANSFORM_FEEDBACK_BUFFER_SIZE):
        raise GLError(E.GL_INVALID_ENUM, f"bad pname {pname:#x}")
    with _attr_bound(ctx, "xfb", _xfb(ctx, xfb)):
        return call(ctx, "glGetInteger64i_v", pname, index)
