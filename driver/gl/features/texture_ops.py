"""Texture operations of GL 4.4-4.5: ARB_clear_texture,
ARB_get_texture_sub_image and ARB_texture_barrier.

A texture clear is an upload of the one given texel repeated over the region
(GL 4.6 section 8.21: the data is one element in `format`/`type`, converted
as glTexSubImage* converts it; NULL means zeros), through the same upload
path as glTexSubImage*, with the unpack state at its defaults for the call.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from driver.gl import enums as E
from driver.gl.buffers import read_buffer
from driver.gl.errors import GLError, check
from driver.gl.features import call, entry_point
from driver.gl.features.gles_ext import es_has
from driver.gl.features.dsa import _texture, _texture_bound
from driver.gl.formats import lookup
from driver.gl.pixels import _client_rows, image_size_B, swapped_bytes
from driver.gl.pointers import as_bytes
from driver.gl.state import PixelStore
from driver.gl.objects import TexImage
from driver.gl.textures import texture_resource

__all__: list[str] = []


def _has(ctx, name: str, es_feature: str | None = None) -> None:
    check(ctx.api.has_extension(name) or (es_feature is not None and es_has(ctx.api, es_feature)),
          E.GL_INVALID_OPERATION, f"{name} is not supported")


@contextmanager
def _default_pixel_store(ctx, field: str, buffer_target: int):
    """Tight unpack (or pack) state (defaults, alignment 1) and no pixel buffer bound."""
    saved_store, saved_buf = getattr(ctx.state, field), ctx.buffer_bindings.get(buffer_target)
    setattr(ctx.state, field, PixelStore(alignment=1))
    ctx.buffer_bindings.pop(buffer_target, None)
    try:
        yield
    finally:
        setattr(ctx.state, field, saved_store)
        if saved_buf is not None:
            ctx.buffer_bindings[buffer_target] = saved_buf


_DEPTH_STENCIL_FORMATS = (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL, E.GL_STENCIL_INDEX)


def _level_image(tex, level: int):
    face = 0
    if level < 0 or not tex.images or level >= len(tex.images[face]):
        raise GLError(E.GL_INVALID_OPERATION, f"level {level} of texture {tex.name} is not defined")
    img = tex.images[face][level]
    check(img.width > 0, E.GL_INVALID_OPERATION, f"level {level} of texture {tex.name} is not defined")
    return img


def _element_B(format: int, type: int) -> int:
    return image_size_B(PixelStore(alignment=1), format, type, 1, 1, 1)


def _clear(ctx, texture, level, x, y, z, width, height, depth, format, type, data):
    _has(ctx, "GL_ARB_clear_texture", "clear_texture")
    check(texture != 0, E.GL_INVALID_OPERATION, "texture 0")
    tex = ctx.textures.get(texture)
    check(tex is not None and tex.target != 0, E.GL_INVALID_OPERATION, f"{texture} is not a texture")
    check(tex.target != E.GL_TEXTURE_BUFFER, E.GL_INVALID_OPERATION, "buffer textures cannot be cleared")
    img = _level_image(tex, level)
    check(not img.compressed, E.GL_INVALID_OPERATION, "compressed textures cannot be cleared")
    # GL 4.6 section 8.21: a depth/stencil image takes only its own format, a colour image none of them
    info = lookup(img.internal_format)
    base = info.base if info is not None else None
    if base in _DEPTH_STENCIL_FORMATS:
        check(format == base, E.GL_INVALID_OPERATION, f"a {base:#x} image is cleared with that format only")
    else:
        check(format not in _DEPTH_STENCIL_FORMATS, E.GL_INVALID_OPERATION,
              "a colour image cannot be cleared with a depth/stencil format")
    if width == 0 or height == 0 or depth == 0:
        return
    check(width > 0 and height > 0 and depth > 0, E.GL_INVALID_VALUE, "negative size")
    layers = 6 if tex.target == E.GL_TEXTURE_CUBE_MAP else img.depth
    check(x >= 0 and y >= 0 and z >= 0 and x + width <= img.width and y + height <= img.height
          and z + depth <= layers, E.GL_INVALID_OPERATION, "region outside the level")   # GL 4.6 8.21
    element_B = _element_B(format, type)
    texel = bytes(element_B) if data is None else as_bytes(data)[:element_B]
    check(len(texel) == element_B, E.GL_INVALID_VALUE, "data shorter than one element")
    if ctx.api.es and info is not None and info.es_types:
        # GLES: the value converts into the image's format (EXT_clear_texture takes any
        # format/type of its base, as GL does) while GLES's TexSubImage takes only the pairs
        # of its table 8.2: hand that one an equal value in the image's own format/type
        format, type, texel = _es_natural_texel(info, format, type, texel)
    if tex.target in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
        _clear_multisample(ctx, tex, level, (x, y, z, width, height, depth), format, type, texel, base)
        return
    pixels = np.frombuffer(texel * (width * height * depth), np.uint8)
    dims = {E.GL_TEXTURE_1D: 1, E.GL_TEXTURE_2D: 2, E.GL_TEXTURE_RECTANGLE: 2,
            E.GL_TEXTURE_1D_ARRAY: 2, E.GL_TEXTURE_2D_MULTISAMPLE: 2}.get(tex.target, 3)
    with _texture_bound(ctx, tex) as target, _default_pixel_store(ctx, "unpack", E.GL_PIXEL_UNPACK_BUFFER):
        if tex.target == E.GL_TEXTURE_CUBE_MAP:
            plane = pixels[:width * height * element_B]
            for face in range(z, z + depth):
                call(ctx, "glTexSubImage2D", E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, level, x, y,
                     width, height, format, type, plane)
        elif dims == 1:
            call(ctx, "glTexSubImage1D", target, level, x, width, format, type, pixels)
        elif dims == 2:
            call(ctx, "glTexSubImage2D", target, level, x, y, width, height, format, type, pixels)
        else:
            call(ctx, "glTexSubImage3D", target, level, x, y, z, width, height, depth, format, type, pixels)


_INTEGER_CLIENT_FORMATS = {E.GL_RGBA: E.GL_RGBA_INTEGER, E.GL_RGB: E.GL_RGB_INTEGER,
                           E.GL_RG: E.GL_RG_INTEGER, E.GL_RED: E.GL_RED_INTEGER}


def _es_natural_texel(info, format, type, texel: bytes) -> tuple[int, int, bytes]:
    """(format, type, texel) of the same value in the pair GLES 3.2 table 8.2
    gives ``info`` (FLOAT where it has it, else its first type); the input as
    it is when it already is such a pair."""
    from driver.gl.pixels import read_client_image, write_client_image
    natural = _INTEGER_CLIENT_FORMATS.get(info.base, info.base) if info.integer else info.base
    if format == natural and type in info.es_types:
        return format, type, texel
    new_type = E.GL_FLOAT if E.GL_FLOAT in info.es_types else info.es_types[0]
    rgba = read_client_image(texel, PixelStore(alignment=1), format, type, 1, 1, 1)
    return natural, new_type, bytes(write_client_image(rgba, PixelStore(alignment=1), natural, new_type))


def _clear_multisample(ctx, tex, level, box, format, type, texel: bytes, base) -> None:
    """Every sample of the box of a multisample texture (no TexSubImage reaches
    them): the client value decoded to RGBA (depth in R, stencil in G for
    DEPTH_STENCIL, R for STENCIL_INDEX) and written by the pipe's clears."""
    from driver.gallium import PipeClear, Surface
    from driver.gl.features.gles_ext import view_offsets
    from driver.gl.pixels import read_client_image
    x, y, z, width, height, depth = box
    value = read_client_image(texel, PixelStore(alignment=1), format, type, 1, 1, 1)[0, 0, 0]
    res = texture_resource(ctx, tex)
    level0, layer0, view_format = view_offsets(tex)
    surf = Surface(res, ctx._render_format(view_format or res.format), level0 + level,
                   layer0 + z, layer0 + z + depth - 1)
    if base in _DEPTH_STENCIL_FORMATS:
        flags = {E.GL_DEPTH_COMPONENT: PipeClear.DEPTH, E.GL_STENCIL_INDEX: PipeClear.STENCIL,
                 E.GL_DEPTH_STENCIL: PipeClear.DEPTHSTENCIL}[base]
        stencil = value[0] if base == E.GL_STENCIL_INDEX else value[1]
        ctx.pipe.clear_depth_stencil(surf, flags, float(value[0]), int(stencil), x, y, width, height, False)
    else:
        info = lookup(tex.images[0][level].internal_format)
        color = tuple(int(v) for v in value) if info.integer else tuple(float(v) for v in value)
        ctx.pipe.clear_render_target(surf, color, x, y, width, height, False)


@entry_point
def glClearTexImage(ctx, texture, level, format, type, data):
    _has(ctx, "GL_ARB_clear_texture", "clear_texture")
    tex = ctx.textures.get(texture) if texture else None
    check(tex is not None and tex.target != 0, E.GL_INVALID_OPERATION, f"{texture} is not a texture")
    img = _level_image(tex, level)
    layers = 6 if tex.target == E.GL_TEXTURE_CUBE_MAP else img.depth
    _clear(ctx, texture, level, 0, 0, 0, img.width, img.height, layers, format, type, data)


@entry_point
def glClearTexSubImage(ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth,
                       format, type, data):
    _clear(ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth, format, type, data)


# -- ARB_get_texture_sub_image ----------------------------------------------------------


def _sub_image(ctx, texture, level, x, y, z, width, height, depth, read_level) -> tuple:
    """(level bytes as (layers, height, width * bpp) uint8, the cropped box)."""
    tex = _texture(ctx, texture)
    # GL 4.6 section 8.11.4: a level outside those the target can have is INVALID_VALUE;
    # a level never specified is an image of size 0, as one specified empty (only an empty
    # box at offset 0 lies in it: INVALID_VALUE otherwise, as Mesa)
    levels = {E.GL_TEXTURE_3D: ctx.caps.max_texture_3d_levels,
              E.GL_TEXTURE_CUBE_MAP: ctx.caps.max_texture_cube_levels,
              E.GL_TEXTURE_CUBE_MAP_ARRAY: ctx.caps.max_texture_cube_levels,
              }.get(tex.target, ctx.caps.max_texture_2d_size_px.bit_length())
    check(0 <= level < levels, E.GL_INVALID_VALUE, "level outside the target's possible levels")
    img = tex.images[0][level] if tex.images and level < len(tex.images[0]) else None
    img = img if img is not None else TexImage(0, 0, 0, 0)
    layers = 6 if tex.target == E.GL_TEXTURE_CUBE_MAP else img.depth
    check(min(x, y, z) >= 0 and min(width, height, depth) >= 0, E.GL_INVALID_VALUE, "negative offset or size")
    check(x + width <= img.width and y + height <= img.height and z + depth <= layers,
          E.GL_INVALID_VALUE, "region outside the level")
    if tex.target in (E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY):
        check(tex.target != E.GL_TEXTURE_1D or (y == 0 and height == 1), E.GL_INVALID_VALUE, "1D: y must be 0")
    if tex.target == E.GL_TEXTURE_CUBE_MAP:
        # the level must be cube complete: six faces of one size and format (as Mesa)
        faces = [tex.image(f, level) for f in range(6)]
        check(all(f is not None and (f.width, f.height, f.internal_format) ==
                  (faces[0].width, faces[0].height, faces[0].internal_format) for f in faces),
              E.GL_INVALID_OPERATION, "the cube map's level is not cube complete")
    with _texture_bound(ctx, tex) as target, _default_pixel_store(ctx, "pack", E.GL_PIXEL_PACK_BUFFER):
        if tex.target == E.GL_TEXTURE_CUBE_MAP:
            faces = [read_level(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + f) for f in range(z, z + depth)]
            data = b"".join(faces)
            z0 = 0
        else:
            data = read_level(target)
            z0 = z
    return data, layers if tex.target != E.GL_TEXTURE_CUBE_MAP else depth, img, z0


@entry_point
def glGetTextureSubImage(ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth,
                         format, type, bufSize, pixels=None, dest=None):
    """The packed box (bytes), or with ``dest`` (the C ABI: ``dest(n)`` is the
    client's memory of n bytes) written there in place, leaving the bytes the pack
    state skips as they were (GL 4.6 section 8.4.4.1), and None. With a
    PIXEL_PACK_BUFFER bound the box goes into it at byte offset ``pixels`` (its
    size bounds the write, not ``bufSize``; GL 4.6 section 8.11.4)."""
    _has(ctx, "GL_ARB_get_texture_sub_image")
    data, layers, img, z0 = _sub_image(
        ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth,
        lambda target: call(ctx, "glGetTexImage", target, level, format, type))
    bpp = _element_B(format, type)
    whole = np.frombuffer(data, np.uint8).reshape(layers, img.height, img.width * bpp)
    box = whole[z0:z0 + depth, yoffset:yoffset + height, xoffset * bpp:(xoffset + width) * bpp]
    pack = ctx.state.pack
    box = swapped_bytes(box.reshape(depth, height, width, bpp), pack, type).reshape(box.shape)
    n = image_size_B(pack, format, type, width, height, depth)
    pbo = ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
    if pbo is not None:
        offset = int(pixels or 0)
        check(offset >= 0 and offset + n <= pbo.size, E.GL_INVALID_OPERATION,
              "the image does not fit in the pack buffer")
        check(not pbo.mapped, E.GL_INVALID_OPERATION, "the pack buffer is mapped")
        out = np.frombuffer(bytearray(read_buffer(ctx, pbo, offset, n)), np.uint8)   # the skipped bytes kept
        _client_rows(out, pack, format, type, width, height, depth)[...] = box
        ctx._write_pack_buffer(pbo, offset, out.tobytes())
        return None
    check(n <= bufSize, E.GL_INVALID_OPERATION, f"the image needs {n} bytes, bufSize is {bufSize}")
    out = np.zeros(n, np.uint8) if dest is None else np.frombuffer(dest(n), np.uint8)
    _client_rows(out, pack, format, type, width, height, depth)[...] = box
    return out.tobytes() if dest is None else None


@entry_point
def glGetCompressedTextureSubImage(ctx, texture, level, xoffset, yoffset, zoffset, width, height,
                                   depth, bufSize, pixels=None, dest=None):
    """The stored blocks covering the box. The box must be block-aligned, or end at
    the level's edge (GL 4.6 section 8.11.4). They are laid out by the pack state's
    compressed block (ARB_compressed_texture_pixel_storage: row length, image height
    and skips in blocks), as glGetCompressedTexImage lays them out, into the PIXEL_PACK
    buffer at byte offset ``pixels`` when one is bound, else into ``dest(n)`` (the
    client's memory, the C ABI's: the skipped bytes keep their values) or returned."""
    _has(ctx, "GL_ARB_get_texture_sub_image")
    tex = _texture(ctx, texture)
    img = _level_image(tex, level)
    check(img.compressed, E.GL_INVALID_OPERATION, "the level is not compressed")
    _, bw, bh, block_B = call(ctx, "_compressed_formats")[img.internal_format]
    for offset, size, extent, block in ((xoffset, width, img.width, bw), (yoffset, height, img.height, bh)):
        check(offset % block == 0 and (size % block == 0 or offset + size == extent), E.GL_INVALID_VALUE,
              "the box is not block-aligned")
    data, layers, img, z0 = _sub_image(
        ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth,
        lambda target: call(ctx, "glGetCompressedTexImage", target, level))
    cols, rows = -(-img.width // bw), -(-img.height // bh)
    whole = np.frombuffer(data, np.uint8).reshape(layers, rows, cols * block_B)
    x0, y0 = xoffset // bw, yoffset // bh
    x1, y1 = -(-(xoffset + width) // bw), -(-(yoffset + height) // bh)
    out = whole[z0:z0 + depth, y0:y1, x0 * block_B:x1 * block_B].tobytes()
    dims = 2 if tex.target == E.GL_TEXTURE_2D else 3        # cube maps: an array of faces
    where = call(ctx, "_compressed_placement", ctx.state.pack, dims, img.internal_format, width, height, depth)
    from driver.gl.compressed_store import scatter
    pbo = ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
    if pbo is not None:
        offset = int(pixels or 0)
        check(offset >= 0 and offset + where.span_B <= pbo.size, E.GL_INVALID_OPERATION,
              "the blocks do not fit in the pack buffer")
        check(not pbo.mapped, E.GL_INVALID_OPERATION, "the pack buffer is mapped")
        buf = bytearray(read_buffer(ctx, pbo, offset, where.span_B))     # the skipped bytes kept
        scatter(out, where, buf)
        ctx._write_pack_buffer(pbo, offset, bytes(buf))
        return None
    check(where.span_B <= bufSize, E.GL_INVALID_OPERATION,
          f"the blocks need {where.span_B} bytes, bufSize is {bufSize}")
    if where.tight and dest is None:
        return out
    mem = dest(where.span_B) if dest is not None else bytearray(where.span_B)
    scatter(out, where, mem)
    return None if dest is not None else bytes(mem)


# -- ARB_texture_barrier --------------------------------------------------------------------


@entry_point
def glTextureBarrier(ctx):
    """GL 4.6 section 9.3.1: texels written by rendering are visible to
    later draws' texture fetches."""
    _has(ctx, "GL_ARB_texture_barrier")
    ctx.pipe.texture_barrier()


def _image_internal_format(ctx, name: int, target: int, level: int):
    """The internal format of a texture level or renderbuffer, None when there is none
    (glCopyImageSubData then reports why)."""
    if target == E.GL_RENDERBUFFER:
        rb = ctx.renderbuffers.get(name)
        return rb.internal_format if rb is not None and rb.width else None
    tex = ctx.textures.get(name)
    if tex is None or tex.target != target or level < 0:
        return None
    img = tex.image(0, level)
    return None if img is None else img.internal_format


@entry_point
def glCopyImageSubDataNV(ctx, srcName, srcTarget, srcLevel, srcX, srcY, srcZ, dstName, dstTarget, dstLevel,
                         dstX, dstY, dstZ, width, height, depth):
    """GL_NV_copy_image: glCopyImageSubData between images of one internal format (the
    NV command does not reinterpret: different formats are INVALID_OPERATION, as Mesa)."""
    _has(ctx, "GL_NV_copy_image")
    src = _image_internal_format(ctx, srcName, srcTarget, srcLevel)
    dst = _image_internal_format(ctx, dstName, dstTarget, dstLevel)
    check(src is None or dst is None or src == dst, E.GL_INVALID_OPERATION,
          "glCopyImageSubDataNV between different internal formats")
    call(ctx, "glCopyImageSubData", srcName, srcTarget, srcLevel, srcX, srcY, srcZ, dstName, dstTarget,
         dstLevel, dstX, dstY, dstZ, width, height, depth)
