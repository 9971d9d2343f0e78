"""More texture specification: compressed images, copies from the read
framebuffer, multisample textures, buffer textures, integer border colours,
image units, texture image queries (GL 4.6 sections 8.6-8.9, 8.20, 8.26;
GLES 3.2 sections 8.6-8.9, 8.22)."""

from __future__ import annotations

import struct

import numpy as np

from driver.gallium import (
    BlitImage, BlitInfo, Box, ImageView, PipeMap, PipeMask, PipeShaderType,
    PipeTexFilter,
)
from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features.gles_ext import es_has, texture_view_state, view_offsets
from driver.gl.formats import (ATTACHABLE_UNRENDERED, COMPAT_RENDERABLE_LEGACY, ES_ONLY, compressed_targets,
                               IMAGE_FORMATS, INTERNAL_FORMATS, LEGACY, LEGACY_BASES, LEGACY_UNSIZED,
                               LEGACY_TEXTURE_BUFFER_FORMATS, TEXTURE_BUFFER_FORMATS, UNSIZED,
                               compressed_formats, lookup, view_compatible)
from driver.gl.objects import TexImage
from driver.gl.pointers import ClientMemory, as_bytes
from driver.gl.textures import LAYERED_TARGETS, bound_texture, texture_resource, texture_targets
from driver.gl.buffers import read_buffer
from driver.gl.framebuffers import framebuffer_status, sample_count
import layout

__all__ = ["TexImageExtraMixin"]


_OES_MS_ARRAY = "GL_OES_texture_storage_multisample_2d_array"
_ARB_MS_STORAGE = "GL_ARB_texture_storage_multisample"


def _check_copy_internal_format(internalformat: int) -> None:
    """GL 4.6 compatibility section 8.6: CopyTexImage takes TexImage's internal
    formats except the legacy component counts 1, 2, 3 and 4 (INVALID_ENUM, as Mesa)."""
    check(internalformat not in (1, 2, 3, 4), E.GL_INVALID_ENUM, "a component count is no copy format")


def _encode_image(name: str, rgba: np.ndarray, bw: int, bh: int) -> bytes:
    """Texels (layers, h, w, 4) encoded into the blocks of compressed format ``name``
    (bw x bh texels each), layer by layer, rows of blocks in order; a partial block
    repeats the image's last column and row (as the extensions ask of encoders)."""
    d, h, w, _ = rgba.shape
    ph, pw = -(-h // bh) * bh, -(-w // bw) * bw
    rgba = np.pad(rgba, ((0, 0), (0, ph - h), (0, pw - w), (0, 0)), mode="edge")
    blocks = rgba.reshape(d, ph // bh, bh, pw // bw, bw, 4).transpose(0, 1, 3, 2, 4, 5).reshape(-1, bh, bw, 4)
    return layout.compress(name, blocks).tobytes()


class TexImageExtraMixin:
    def _compressed_formats(self) -> dict:
        """internal format -> (format info, block width px, block height px, bytes per block)."""
        return {enum: (cf.info, *cf.block)
                for enum, cf in compressed_formats(self.api.es, self.api.version, self.api.compat).items()}

    # -- compressed images (GL 4.6 section 8.7) ----------------------------------------------
    def _compressed_size(self, ifmt, w, h, d) -> int:
        info, bw, bh, bb = self._compressed_formats()[ifmt]
        return -(-w // bw) * -(-h // bh) * d * bb

    def _compressed_image(self, dims, target, level, internalformat, w, h, d, border, size, data,
                          encoded: bool = False):
        """glCompressedTexImage*; ``encoded``: ``data`` is blocks the GL itself
        encoded (glTexImage* of a specific compressed format), not the client's."""
        tex_target, face = self._image_target(target, dims)
        check(level >= 0, E.GL_INVALID_VALUE, "negative level")
        fmts = self._compressed_formats()
        check(internalformat in fmts, E.GL_INVALID_ENUM, "not a compressed format")
        check(tex_target != E.GL_TEXTURE_RECTANGLE and (tex_target != E.GL_TEXTURE_3D or E.GL_TEXTURE_3D in
              compressed_targets(internalformat, self.api.has_extension("GL_KHR_texture_compression_astc_sliced_3d"))),
              E.GL_INVALID_OPERATION, "target does not take this compressed format")
        maxsz = self._max_size(target)
        check(0 <= w <= maxsz and 0 <= h <= maxsz and 0 <= d <= maxsz, E.GL_INVALID_VALUE, "bad size")
        check(border == 0, E.GL_INVALID_VALUE, "border must be 0")
        check(size == self._compressed_size(internalformat, w, h, d), E.GL_INVALID_VALUE,
              "imageSize does not match the image")
        if tex_target in (E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY):
            check(w == h, E.GL_INVALID_VALUE, "cube map faces must be square")
        if tex_target == E.GL_TEXTURE_CUBE_MAP_ARRAY:
            check(d % 6 == 0, E.GL_INVALID_VALUE, "a cube map array's depth counts layer-faces: a multiple of 6")
        tex = bound_texture(self, tex_target)
        check(not tex.immutable, E.GL_INVALID_OPERATION, "immutable texture")
        raw = data if encoded else self._compressed_source(size, data, dims, internalformat, w, h, d)
        tex.set_image(face, level, TexImage(w, h, d, internalformat, compressed=True))
        if raw is not None:
            self._pending_compressed(tex).append((face, level, (0, 0, 0, w, h, d), raw))
        self._auto_mipmap(tex, tex_target, level)       # GL_GENERATE_MIPMAP: regenerate (encoded again)

    # -- the GL's own compression (EXT_texture_compression_s3tc, ARB_texture_compression_rgtc:
    # glTexImage*/glTexSubImage* of uncompressed client data into a specific compressed format)
    def _encodes(self, internalformat: int) -> bool:
        """Whether glTexImage* compresses client data into ``internalformat``: the S3TC
        and RGTC families, which layout encodes, wherever their extensions exist (they
        name glTexImage2D in GLES too; GLES 3's core ETC2 formats never take client
        data)."""
        cf = self._compressed_formats().get(internalformat)
        return cf is not None and cf[0].pipe.name in layout.ENCODABLE

    def _encoded_blocks(self, dims, internalformat, fmt, type, pixels, w, h, d) -> bytes | None:
        """The client image (or PIXEL_UNPACK buffer data) in ``fmt``/``type``, encoded
        into the blocks of ``internalformat``; None without data."""
        from driver.gl.formats import INTEGER_PIXEL_FORMATS, PIXEL_FORMATS, PIXEL_TYPES, pixel_type_matches
        from driver.gl.pixels import read_client_image
        check_enum(fmt, PIXEL_FORMATS, f"bad pixel format {fmt:#x}")
        check_enum(type, PIXEL_TYPES, f"bad pixel type {type:#x}")
        check(pixel_type_matches(fmt, type), E.GL_INVALID_OPERATION, "format/type mismatch")
        check(fmt not in INTEGER_PIXEL_FORMATS and fmt not in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL,
                                                                E.GL_STENCIL_INDEX),
              E.GL_INVALID_OPERATION, "a compressed colour format needs colour pixel data")
        unpack = self._unpack_for(dims)
        data = self._unpack_source(pixels, fmt, type, w, h, d, unpack)
        if data is None:
            return None
        rgba = read_client_image(data, unpack, fmt, type, w, h, d)     # (d, h, w, 4)
        info, bw, bh, _ = self._compressed_formats()[internalformat]
        return _encode_image(info.pipe.name, rgba, bw, bh)

    def _tex_image_encoded(self, dims, target, level, internalformat, w, h, d, border, fmt, type, pixels):
        check(dims >= 2, E.GL_INVALID_ENUM, "no 1D compressed formats are supported")
        check(0 <= w and 0 <= h and 0 <= d, E.GL_INVALID_VALUE, "bad size")
        raw = self._encoded_blocks(dims, internalformat, fmt, type, pixels, w, h, d)
        self._compressed_image(dims, target, level, internalformat, w, h, d, border,
                               self._compressed_size(internalformat, w, h, d), raw, encoded=True)

    def _tex_sub_image_encoded(self, dims, target, level, x, y, z, w, h, d, fmt, type, pixels, internalformat):
        check(0 <= w and 0 <= h and 0 <= d, E.GL_INVALID_VALUE, "negative size")
        raw = self._encoded_blocks(dims, internalformat, fmt, type, pixels, w, h, d)
        self._compressed_sub_image(dims, target, level, x, y, z, w, h, d, internalformat,
                                   self._compressed_size(internalformat, w, h, d), raw, encoded=True)

    def _compressed_placement(self, store, dims, fmt, w, h, d):
        """Where a compressed image's blocks are in client memory under ``store``
        (driver.gl.compressed_store), after ARB_compressed_texture_pixel_storage's
        errors: a stated block size other than the format's, or skips that are not
        whole stated blocks, are INVALID_OPERATION (as Mesa)."""
        from driver.gl.compressed_store import placement
        info, bw, bh, bb = self._compressed_formats()[fmt]
        if not self.api.es and store.compressed_block_size:
            check(store.compressed_block_size == bb, E.GL_INVALID_OPERATION,
                  "COMPRESSED_BLOCK_SIZE differs from the format's block")
            for skip, block, used in ((store.skip_pixels, store.compressed_block_width, True),
                                      (store.skip_rows, store.compressed_block_height, dims > 1),
                                      (store.skip_images, store.compressed_block_depth, dims > 2)):
                check(not (used and block and skip % block), E.GL_INVALID_OPERATION,
                      "pixel-store skip is not a whole number of compressed blocks")
        return placement(store, dims, (bw, bh, bb), w, h, d)

    def _compressed_source(self, size, data, dims=2, fmt=None, w=0, h=0, d=1):
        """The image's tight blocks (``size`` bytes) from the client or the pixel
        unpack buffer, laid out by the unpack state's compressed block (desktop GL)."""
        from driver.gl.compressed_store import gather
        where = self._compressed_placement(self.state.unpack, dims, fmt, w, h, d) if fmt is not None else None
        span = size if where is None or where.tight else where.span_B
        pbo = self.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER)
        if pbo is not None:
            check(isinstance(data, int) and data + span <= pbo.size, E.GL_INVALID_OPERATION)
            raw = read_buffer(self, pbo, data, span)
        elif data is None:
            return None
        else:
            raw = data.read(0, span) if isinstance(data, ClientMemory) else as_bytes(data)
            check(len(raw) >= span, E.GL_INVALID_VALUE, "data shorter than imageSize")
        return gather(raw, where)[:size] if where is not None else raw[:size]

    def _generate_compressed_mipmaps(self, tex, first: int, last: int, layer0: int, layers: int) -> None:
        """glGenerateMipmap of a compressed image the GL can encode (desktop GL;
        GLES refuses compressed formats): each level is the previous one's texels
        (decoded) averaged over 2 x 2 texels (edge texels repeated on an odd
        side), encoded again into the image's format. Levels ``first + 1 ..
        last`` of the resource, layers ``layer0 ..`` (``layers`` faces or array
        layers)."""
        from driver.gl.box_filter import box_filtered_levels
        res = texture_resource(self, tex)
        fmt = res.format
        lay = layout.get_format(fmt.name)
        bw, bh = lay.block_width_px, lay.block_height_px
        for level, w, h, rgba in box_filtered_levels(self.pipe, res, first, last, layer0, layers):
            encoded = _encode_image(fmt.name, rgba, bw, bh)
            row = -(-w // bw) * lay.block_size_B
            self.pipe.texture_subdata(res, level, PipeMap.WRITE, Box(0, 0, layer0, w, h, layers),
                                      encoded, row, row * -(-h // bh))

    def _pending_compressed(self, tex):
        if not hasattr(tex, "pending_compressed"):
            tex.pending_compressed = []
        return tex.pending_compressed

    def _upload_compressed(self, tex) -> None:
        """Called when the resource exists: raw blocks go in unchanged."""
        for face, level, (x, y, z, w, h, d), raw in getattr(tex, "pending_compressed", []):
            info, bw, bh, bb = self._compressed_formats()[tex.images[face][level].internal_format]
            row = -(-w // bw) * bb
            self.pipe.texture_subdata(tex.resource, level, PipeMap.WRITE,
                                      Box(x, y, z + face, w, h, d), raw, row, row * -(-h // bh))
        tex.pending_compressed = []

    def glCompressedTexImage2D(self, target, level, internalformat, width, height, border,
                               imageSize, data) -> None:
        from driver.gl.features.gles1 import PALETTED, paletted_tex_image
        if self.api.es1 and internalformat in PALETTED:      # OES_compressed_paletted_texture
            return paletted_tex_image(self, target, level, internalformat, width, height, border,
                                      imageSize, data)
        self._compressed_image(2, target, level, internalformat, width, height, 1, border,
                               imageSize, data)

    def glCompressedTexImage3D(self, target, level, internalformat, width, height, depth, border,
                               imageSize, data) -> None:
        check(self.api.gl_or_es((1, 3), (3, 0)), E.GL_INVALID_OPERATION)
        self._compressed_image(3, target, level, internalformat, width, height, depth, border,
                               imageSize, data)

    def glCompressedTexImage1D(self, target, level, internalformat, width, border, imageSize, data):
        check(not self.api.es, E.GL_INVALID_OPERATION)
        check_enum(target, (E.GL_TEXTURE_1D,))
        check(False, E.GL_INVALID_ENUM, "no 1D compressed formats are supported")

    def _compressed_sub_image(self, dims, target, level, x, y, z, w, h, d, fmt, size, data,
                              encoded: bool = False):
        tex_target, face = self._image_target(target, dims)
        tex = bound_texture(self, tex_target)
        check(level >= 0, E.GL_INVALID_VALUE, "negative level")     # as glTexSubImage*
        img = tex.image(face, level)
        check(fmt in self._compressed_formats(), E.GL_INVALID_ENUM, "not a compressed format")
        check(img is not None, E.GL_INVALID_OPERATION, "level undefined")
        check(img.internal_format == fmt, E.GL_INVALID_OPERATION, "format differs from the image")
        check(x >= 0 and y >= 0 and z >= 0 and w >= 0 and h >= 0 and d >= 0 and
              x + w <= img.width and y + h <= img.height and z + d <= img.depth,
              E.GL_INVALID_VALUE, "region outside the image")
        info, bw, bh, bb = self._compressed_formats()[fmt]
        # GL 4.6 section 8.7: regions must be block-aligned (or reach the edge)
        check(x % bw == 0 and y % bh == 0 and (w % bw == 0 or x + w == img.width) and
              (h % bh == 0 or y + h == img.height), E.GL_INVALID_OPERATION, "not block aligned")
        check(size == self._compressed_size(fmt, w, h, d), E.GL_INVALID_VALUE, "bad imageSize")
        raw = data if encoded else self._compressed_source(size, data, dims, fmt, w, h, d)
        if raw is not None:
            self._pending_compressed(tex).append((face, level, (x, y, z, w, h, d), raw))
        self._auto_mipmap(tex, tex_target, level)

    def glCompressedTexSubImage2D(self, target, level, xoffset, yoffset, width, height, format,
                                  imageSize, data) -> None:
        from driver.gl.features.gles1 import PALETTED
        check(not (self.api.es1 and format in PALETTED), E.GL_INVALID_OPERATION,
              "paletted images take no sub-image updates")
        from driver.gl.formats import GL_ETC1_RGB8_OES
        check(format != GL_ETC1_RGB8_OES, E.GL_INVALID_OPERATION,
              "ETC1 images take no sub-image updates (OES_compressed_ETC1_RGB8_texture)")
        self._compressed_sub_image(2, target, level, xoffset, yoffset, 0, width, height, 1, format,
                                   imageSize, data)

    def glCompressedTexSubImage3D(self, target, level, xoffset, yoffset, zoffset, width, height,
                                  depth, format, imageSize, data) -> None:
        check(self.api.gl_or_es((1, 3), (3, 0)), E.GL_INVALID_OPERATION)
        self._compressed_sub_image(3, target, level, xoffset, yoffset, zoffset, width, height,
                                   depth, format, imageSize, data)

    # -- copies from the read framebuffer (GL 4.6 section 8.6) -----------------------------------
    def _copy_source(self, info=None):
        """(resource, level, layer, format info) the copy reads: the read buffer, or for a
        depth/stencil texture format the read framebuffer's depth/stencil image (GL 4.6
        section 8.6: CopyTexImage of a depth format reads depth values)."""
        status = framebuffer_status(self, self.read_framebuffer)
        check(status == E.GL_FRAMEBUFFER_COMPLETE, E.GL_INVALID_FRAMEBUFFER_OPERATION,
              "read framebuffer incomplete")
        # GL 4.6 section 8.6: a framebuffer object's samples are an error (the window's resolve)
        check(self.read_framebuffer is None or self._read_samples() <= 1, E.GL_INVALID_OPERATION,
              "multisampled read framebuffer")
        if info is not None and info.is_depth_or_stencil:
            check(not self.api.es, E.GL_INVALID_OPERATION, "depth/stencil copies (GLES)")
            point = E.GL_STENCIL_ATTACHMENT if info.kind == "stencil" else E.GL_DEPTH_ATTACHMENT
            surf = self._zs_surface(self.read_framebuffer, point, resolved=True)
            check(surf is not None and surf.resource is not None, E.GL_INVALID_OPERATION,
                  "no depth/stencil buffer to copy from")
            from driver.gl.formats import INTERNAL_FORMATS
            rinfo = next((f for f in INTERNAL_FORMATS.values() if f.pipe == surf.resource.format), info)
            check(rinfo.is_depth_or_stencil and (info.kind != "depthstencil" or rinfo.kind == "depthstencil"),
                  E.GL_INVALID_OPERATION, "the read framebuffer lacks the copied planes")
            return surf.resource, surf.level, surf.first_layer, rinfo
        check(self._read_buffer_enum() != E.GL_NONE, E.GL_INVALID_OPERATION, "read buffer NONE")
        src = self._read_surface(resolved=True)
        check(src is not None, E.GL_INVALID_OPERATION, "no read image")
        if info is not None:
            check(not src[3].is_depth_or_stencil, E.GL_INVALID_OPERATION)
            # GL 4.6 section 8.6: integer and non-integer colour cannot be copied into each other
            check(info.integer == src[3].integer, E.GL_INVALID_OPERATION,
                  "integer and non-integer colour formats do not mix in a copy")
        return src

    def glCopyTexImage2D(self, target, level, internalformat, x, y, width, height, border) -> None:
        tex_target, face = self._image_target(target, 2)
        check(level >= 0, E.GL_INVALID_VALUE)
        _check_copy_internal_format(internalformat)
        info = lookup(internalformat)
        # GLES 1.1/2.0 name CopyTexImage2D's internal formats as enums: another is INVALID_ENUM there
        bad_value = E.GL_INVALID_ENUM if self.api.es and self.api.version < (3, 0) else E.GL_INVALID_VALUE
        check(info is not None and not info.is_depth_or_stencil or not self.api.es,
              bad_value if info is None else E.GL_INVALID_OPERATION, "bad internal format")
        if border:      # not stored (TextureMixin._strip_border): the copy skips the border's pixels
            width, height, _, _ = self._strip_border(tex_target, 2, border, width, height, 1)
            x, y = x + 1, y + (tex_target != E.GL_TEXTURE_1D_ARRAY)     # a 1D array's rows are layers
        maxsz = self._max_size(target)
        check(0 <= width <= maxsz and 0 <= height <= maxsz, E.GL_INVALID_VALUE)
        if tex_target == E.GL_TEXTURE_CUBE_MAP:
            check(width == height, E.GL_INVALID_VALUE)
        res, rlevel, rlayer, rinfo = self._copy_source(info)
        if self.api.es:
            # GLES 3.2 table 8.16: the copy may drop components, never add them
            comps = {E.GL_ALPHA: "A", E.GL_LUMINANCE: "R", E.GL_LUMINANCE_ALPHA: "RA",
                     E.GL_RED: "R", E.GL_RG: "RG", E.GL_RGB: "RGB", E.GL_RGBA: "RGBA"}
            have = comps.get(rinfo.base, "RGBA")
            check(set(comps.get(info.base, "RGBA")) <= set(have), E.GL_INVALID_OPERATION,
                  "the read buffer lacks components")
            check(info.integer == rinfo.integer, E.GL_INVALID_OPERATION)
        tex = bound_texture(self, tex_target)
        check(not tex.immutable, E.GL_INVALID_OPERATION, "immutable texture")
        tex.set_image(face, level, TexImage(width, height, 1, internalformat))
        if width and height:
            self._blit_from_read(tex, face, level, 0, 0, 0, x, y, width, height, res, rlevel, rlayer)
        self._auto_mipmap(tex, tex_target, level)

    def _blit_from_read(self, tex, face, level, dx, dy, dz, x, y, w, h, res, rlevel, rlayer):
        dst = texture_resource(self, tex)
        if dst is None:
            # No miptree yet (the base level is undefined): keep the pixels
            # as a pending upload, as an image specified with data would be.
            import copy as _copy
            import numpy as np
            rgba = self._read_rgba(res, rlevel, rlayer, x, y, w, h, self._read_view_format())
            integer = rgba.dtype.kind in "iu"
            fmt, type = ((E.GL_RGBA_INTEGER, E.GL_INT) if integer else (E.GL_RGBA, E.GL_FLOAT))
            data = rgba.astype(np.int32 if integer else np.float32).tobytes()
            from driver.gl.state import PixelStore
            self._pending_uploads(tex).append((face, level, (dx, dy, dz, w, h, 1), fmt, type,
                                               _copy.copy(PixelStore(alignment=1)), data))
            return
        if tex.target == E.GL_TEXTURE_1D_ARRAY and (h > 1 or dy):
            # a 1D array's rows are its layers: row y + i of the read buffer goes to layer dy + i
            for i in range(h):
                self._blit_from_read(tex, face, level, dx, 0, dz + dy + i, x, y + i, w, 1, res, rlevel, rlayer)
            return
        zs = dst.format.value.startswith(("Z", "S8"))
        level0, layer0, view_format = view_offsets(tex)         # into a texture view: its part of the storage
        read_view = None if zs else self._read_view_format()
        self.pipe.blit(BlitInfo(
            dst=BlitImage(dst, level0 + level, Box(dx, dy, layer0 + dz + face, w, h, 1), view_format or dst.format),
            src=BlitImage(res, rlevel, Box(x, y, rlayer, w, h, 1), read_view or res.format),
            mask=PipeMask.ZS if zs else PipeMask.RGBA, filter=PipeTexFilter.NEAREST,
            # GL 4.6 section 10.9: conditional rendering discards draws, clears and
            # blits, never texture copies
            render_condition_enable=False))

    def _copy_sub(self, dims, target, level, dx, dy, dz, x, y, w, h) -> None:
        tex_target, face = self._image_target(target, dims)
        check(level >= 0, E.GL_INVALID_VALUE)
        check(w >= 0 and h >= 0, E.GL_INVALID_VALUE)
        tex = bound_texture(self, tex_target)
        img = tex.image(face, level)
        check(img is not None, E.GL_INVALID_OPERATION, "level undefined")
        check(dx >= 0 and dy >= 0 and dz >= 0 and dx + w <= img.width and dy + h <= img.height
              and dz < img.depth, E.GL_INVALID_VALUE, "region outside the image")
        info = lookup(img.internal_format)
        check(info is not None, E.GL_INVALID_OPERATION, "copy into a compressed image")
        res, rlevel, rlayer, rinfo = self._copy_source(info)
        check(info.integer == rinfo.integer, E.GL_INVALID_OPERATION)
        if w and h:
            self._blit_from_read(tex, face, level, dx, dy, dz, x, y, w, h, res, rlevel, rlayer)
        self._auto_mipmap(tex, tex_target, level)

    def glCopyTexSubImage2D(self, target, level, xoffset, yoffset, x, y, width, height) -> None:
        self._copy_sub(2, target, level, xoffset, yoffset, 0, x, y, width, height)

    def glCopyTexSubImage3D(self, target, level, xoffset, yoffset, zoffset, x, y, width, height):
        check(self.api.gl_or_es((1, 2), (3, 0)), E.GL_INVALID_OPERATION)
        self._copy_sub(3, target, level, xoffset, yoffset, zoffset, x, y, width, height)

    def glCopyTexImage1D(self, target, level, internalformat, x, y, width, border) -> None:
        check(not self.api.es, E.GL_INVALID_OPERATION)
        check_enum(target, (E.GL_TEXTURE_1D,))
        check(level >= 0, E.GL_INVALID_VALUE)
        _check_copy_internal_format(internalformat)
        info = lookup(internalformat)
        check(info is not None, E.GL_INVALID_VALUE, "bad internal format")
        if border:
            width, _, _, _ = self._strip_border(target, 1, border, width, 1, 1)
            x += 1
        check(0 <= width <= self._max_size(target), E.GL_INVALID_VALUE)
        res, rlevel, rlayer, rinfo = self._copy_source(info)
        check(info.integer == rinfo.integer, E.GL_INVALID_OPERATION)
        tex = bound_texture(self, target)
        check(not tex.immutable, E.GL_INVALID_OPERATION, "immutable texture")
        tex.set_image(0, level, TexImage(width, 1, 1, internalformat))
        if width:
            self._blit_from_read(tex, 0, level, 0, 0, 0, x, y, width, 1, res, rlevel, rlayer)

    def glCopyTexSubImage1D(self, target, level, xoffset, x, y, width) -> None:
        check(not self.api.es, E.GL_INVALID_OPERATION)
        check_enum(target, (E.GL_TEXTURE_1D,))
        tex = bound_texture(self, target)
        img = tex.image(0, level)
        check(level >= 0 and width >= 0, E.GL_INVALID_VALUE)
        check(img is not None, E.GL_INVALID_OPERATION, "level undefined")
        check(xoffset >= 0 and xoffset + width <= img.width, E.GL_INVALID_VALUE)
        res, rlevel, rlayer, rinfo = self._copy_source(lookup(img.internal_format))
        if width:
            self._blit_from_read(tex, 0, level, xoffset, 0, 0, x, y, width, 1, res, rlevel, rlayer)

    def glCompressedTexSubImage1D(self, target, level, xoffset, width, format, imageSize, data):
        check(not self.api.es, E.GL_INVALID_OPERATION)
        check_enum(target, (E.GL_TEXTURE_1D,))
        # no compressed format supports 1D textures (GL 4.6 section 8.7)
        check(False, E.GL_INVALID_ENUM if format not in self._compressed_formats()
              else E.GL_INVALID_OPERATION, "no 1D compressed formats")

    def glGetCompressedTexImage(self, target: int, level: int, pixels=None, dest=None):
        """The raw compressed blocks of a level (GL 4.6 section 8.11.4), laid out by the
        pack state's compressed block (the bytes between rows untouched): into the pixel
        pack buffer at offset ``pixels`` when one is bound, else into ``dest(n)`` (the
        client's writable memory, the C ABI's) or returned."""
        check(not self.api.es, E.GL_INVALID_OPERATION)
        from driver.gl.textures import CUBE_FACES
        check_enum(target, {E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY,
                            E.GL_TEXTURE_3D, *CUBE_FACES})      # 3D: sliced ASTC images
        face = target - CUBE_FACES[0] if target in CUBE_FACES else 0
        tex = bound_texture(self, E.GL_TEXTURE_CUBE_MAP if target in CUBE_FACES else target)
        check(level >= 0, E.GL_INVALID_VALUE)
        img = tex.image(face, level)
        check(img is not None and img.compressed, E.GL_INVALID_OPERATION, "not a compressed image")
        res = texture_resource(self, tex)
        info, bw, bh, bb = self._compressed_formats()[img.internal_format]
        size = self._compressed_size(img.internal_format, img.width, img.height, img.depth)
        dims = 3 if target in (E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_3D) else 2
        where = self._compressed_placement(self.state.pack, dims, img.internal_format,
                                           img.width, img.height, img.depth)
        pbo = self.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
        if pbo is not None:
            check(isinstance(pixels, int) and pixels + where.span_B <= pbo.size, E.GL_INVALID_OPERATION,
                  "the image does not fit the pixel pack buffer")
        tr = self.pipe.transfer_map(res, level, PipeMap.READ,
                                    Box(0, 0, face, img.width, img.height, img.depth))
        try:
            blocks = bytes(tr.data[:size])
        finally:
            self.pipe.transfer_unmap(tr)
        from driver.gl.compressed_store import scatter
        if pbo is not None:
            out = bytearray(read_buffer(self, pbo, pixels, where.span_B))
            scatter(blocks, where, out)
            self.pipe.buffer_subdata(pbo.resource, PipeMap.WRITE, pixels, bytes(out))
            return None
        if where.tight and dest is None:
            return blocks
        out = dest(where.span_B) if dest is not None else bytearray(where.span_B)
        scatter(blocks, where, out)
        return None if dest is not None else bytes(out)

    # -- multisample textures (GL 4.6 section 8.8) -------------------------------------------------
    def _multisample_format(self, internalformat: int, immutable: bool = False):
        """The format of a multisample texture of ``internalformat`` in this context, or
        None when glTex*Multisample refuses it (``immutable``: glTexStorage*Multisample,
        sized formats only): the colour-, depth- and stencil-renderable formats, in desktop
        GL also the attachable ones the driver does not render (RGB9_E5), in the
        compatibility profile the alpha, luminance and intensity ones (as Mesa)."""
        info = INTERNAL_FORMATS.get(internalformat)
        if info is None and not immutable:
            # glTexImage*Multisample also takes the unsized colour-, depth- and
            # stencil-renderable base formats (GL 4.6 section 8.8; glTexStorage: sized only)
            info = UNSIZED.get(internalformat) if internalformat not in ES_ONLY else None
        if info is not None and info.base in LEGACY_BASES and not self.api.compat:
            info = None         # alpha, luminance, intensity: compatibility formats only
        if info is None and self.api.compat and internalformat in COMPAT_RENDERABLE_LEGACY \
                and not (immutable and internalformat in LEGACY_UNSIZED):
            info = LEGACY[internalformat]    # GL_LUMINANCE8, GL_ALPHA16, GL_INTENSITY8 ... (as Mesa)
        attachable = not self.api.es and internalformat in ATTACHABLE_UNRENDERED
        ok = info is not None and (info.color_renderable or info.is_depth_or_stencil or attachable)
        return info if ok else None

    def _ms_storage(self, target, samples, internalformat, w, h, d, fixed, immutable, array=False):
        real = {E.GL_TEXTURE_2D_MULTISAMPLE} | ({E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY} if not self.api.es or
                                                self.api.has_extension(_OES_MS_ARRAY) else set())
        proxies = {E.GL_PROXY_TEXTURE_2D_MULTISAMPLE, E.GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY} \
            if not self.api.es and not immutable else set()
        # the 2D commands take the 2D targets, the 3D ones (``array``) the array targets
        arrays = {E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, E.GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY}
        check_enum(target, {t for t in real | proxies if (t in arrays) == array})
        check(samples >= 1, E.GL_INVALID_VALUE, "samples must be positive")
        check(self._multisample_format(internalformat, immutable) is not None,
              E.GL_INVALID_ENUM, "not a renderable format")
        check(samples <= max(self.caps.sample_counts), E.GL_INVALID_OPERATION, "too many samples")
        maxsz = self.limits["GL_MAX_TEXTURE_SIZE"]
        check(1 <= w <= maxsz and 1 <= h <= maxsz, E.GL_INVALID_VALUE)
        if target in (E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, E.GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY):
            check(1 <= d <= self.caps.max_texture_array_layers, E.GL_INVALID_VALUE, "bad layer count")
        if target in proxies:
            return       # a proxy only asks whether the image could be made: it could
        tex = bound_texture(self, target)
        check(tex.name != 0 or not immutable, E.GL_INVALID_OPERATION)
        check(not tex.immutable, E.GL_INVALID_OPERATION, "immutable texture")
        actual = sample_count(self.caps, samples)
        tex.images = []
        tex.set_image(0, 0, TexImage(w, h, d, internalformat, actual, bool(fixed)))
        tex.immutable, tex.immutable_levels = immutable, 1 if immutable else 0
        if tex.resource is not None:
            self.screen.resource_destroy(tex.resource)
            tex.resource = None
        texture_resource(self, tex)

    def glTexStorage2DMultisample(self, target, samples, internalformat, width, height,
                                  fixedsamplelocations) -> None:
        # GL 4.3, or ARB_texture_storage_multisample (GL 3.2 contexts); GLES 3.1
        check(self.api.gl(4, 3) or self.api.has_extension(_ARB_MS_STORAGE) or self.api.es_(3, 1),
              E.GL_INVALID_OPERATION)
        self._ms_storage(target, samples, internalformat, width, height, 1, fixedsamplelocations, True)

    def glTexImage2DMultisample(self, target, samples, internalformat, width, height,
                                fixedsamplelocations) -> None:
        check(self.api.gl(3, 2), E.GL_INVALID_OPERATION)
        self._ms_storage(target, samples, internalformat, width, height, 1, fixedsamplelocations, False)

    def glTexStorage3DMultisample(self, target, samples, internalformat, width, height, depth,
                                  fixedsamplelocations) -> None:
        # GL 4.3 or ARB_texture_storage_multisample; GLES 3.1 with
        # OES_texture_storage_multisample_2d_array (glTexStorage3DMultisampleOES)
        check(self.api.gl(4, 3) or not self.api.es and self.api.has_extension(_ARB_MS_STORAGE)
              or self.api.es_(3, 1) and self.api.has_extension(_OES_MS_ARRAY),
              E.GL_INVALID_OPERATION)
        self._ms_storage(target, samples, internalformat, width, height, depth,
                         fixedsamplelocations, True, array=True)

    def glTexImage3DMultisample(self, target, samples, internalformat, width, height, depth,
                                fixedsamplelocations) -> None:
        check(self.api.gl(3, 2), E.GL_INVALID_OPERATION)
        self._ms_storage(target, samples, internalformat, width, height, depth,
                         fixedsamplelocations, False, array=True)

    def glGetMultisamplefv(self, pname: int, index: int) -> list[float]:
        """Standard sample positions (GL 4.6 section 14.3.1; D3D's patterns)."""
        check(self.api.gl_or_es((3, 2), (3, 1)), E.GL_INVALID_OPERATION)
        check_enum(pname, (E.GL_SAMPLE_POSITION,))
        from uapi.samples import SAMPLE_POSITIONS_16THS, sample_position_px
        n = max(1, self._draw_fb_samples())
        check(n in SAMPLE_POSITIONS_16THS and 0 <= index < n, E.GL_INVALID_VALUE, "sample index out of range")
        return list(sample_position_px(n, index))

    # -- texture views (GL 4.6 section 8.18) ---------------------------------------------------
    _VIEW_TARGETS = {
        E.GL_TEXTURE_1D: {E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY},
        E.GL_TEXTURE_1D_ARRAY: {E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY},
        E.GL_TEXTURE_2D: {E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY},
        E.GL_TEXTURE_2D_ARRAY: {E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP,
                                E.GL_TEXTURE_CUBE_MAP_ARRAY},
        E.GL_TEXTURE_3D: {E.GL_TEXTURE_3D},
        E.GL_TEXTURE_CUBE_MAP: {E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY,
                                E.GL_TEXTURE_CUBE_MAP_ARRAY},
        E.GL_TEXTURE_RECTANGLE: {E.GL_TEXTURE_RECTANGLE},
        E.GL_TEXTURE_CUBE_MAP_ARRAY: {E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY,
                                      E.GL_TEXTURE_CUBE_MAP_ARRAY},
        E.GL_TEXTURE_2D_MULTISAMPLE: {E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY},
        E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY: {E.GL_TEXTURE_2D_MULTISAMPLE,
                                            E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY},
    }

    def glTextureView(self, texture, target, origtexture, internalformat, minlevel, numlevels,
                      minlayer, numlayers) -> None:
        check(self.api.gl(4, 3) or es_has(self.api, "texture_view"), E.GL_INVALID_OPERATION)
        check(texture != 0, E.GL_INVALID_VALUE, "texture 0")
        orig = self.textures.get(origtexture)
        check(orig is not None and orig.target != 0, E.GL_INVALID_VALUE, "origtexture is not a texture")
        check(self.textures.is_generated(texture), E.GL_INVALID_OPERATION, "texture not generated")
        view = self.textures.get(texture)
        check(view is None or view.target == 0, E.GL_INVALID_OPERATION, "texture already has a target")
        check(orig.immutable, E.GL_INVALID_OPERATION, "origtexture is not immutable")
        check(target in self._VIEW_TARGETS.get(orig.target, ()), E.GL_INVALID_OPERATION,
              "incompatible view target (GL 4.6 table 8.21)")
        src_format = orig.images[0][0].internal_format
        dst_info = self._format_info(internalformat)
        check(dst_info is not None, E.GL_INVALID_OPERATION, "bad view format")
        check(view_compatible(src_format, internalformat), E.GL_INVALID_OPERATION,
              "format not in the view class of the original (GL 4.6 table 8.22)")
        # minlevel/minlayer are relative to origtexture's own view of the storage
        # (its TEXTURE_VIEW_NUM_LEVELS/_NUM_LAYERS; a chain of views adds up)
        state = texture_view_state(orig)
        levels, layers = state[E.GL_TEXTURE_VIEW_NUM_LEVELS], state[E.GL_TEXTURE_VIEW_NUM_LAYERS]
        faces = len(orig.images)
        check(0 <= minlevel < levels and 0 <= minlayer < layers, E.GL_INVALID_VALUE,
              "minlevel/minlayer out of range")
        numlevels = min(numlevels, levels - minlevel)
        numlayers = min(numlayers, layers - minlayer)
        if target == E.GL_TEXTURE_CUBE_MAP:
            check(numlayers == 6, E.GL_INVALID_VALUE, "cube views take 6 layers")
        if target in (E.GL_TEXTURE_1D, E.GL_TEXTURE_2D, E.GL_TEXTURE_RECTANGLE,
                      E.GL_TEXTURE_2D_MULTISAMPLE):
            check(numlayers == 1, E.GL_INVALID_VALUE, "non-array views take one layer")
        view = self.textures.get_or_create(texture)
        view.target, view.immutable, view.immutable_levels = target, True, numlevels
        view.images = []
        for face in range(6 if target == E.GL_TEXTURE_CUBE_MAP else 1):
            src_face = face if faces == 6 else 0
            for lv in range(numlevels):
                img = orig.images[src_face][minlevel + lv]
                depth = img.depth if target == E.GL_TEXTURE_3D else (
                    numlayers if target not in (E.GL_TEXTURE_CUBE_MAP,) else 1)
                view.set_image(face, lv, TexImage(img.width, img.height, depth,
                                                         internalformat, img.samples))
        view.view_parent, view.view_format = orig, dst_info.pipe
        # GL 4.6 section 8.18: TEXTURE_IMMUTABLE_LEVELS is origtexture's (the storage's),
        # while the view's own levels are TEXTURE_VIEW_NUM_LEVELS
        view.view_immutable_levels = getattr(orig, "view_immutable_levels", orig.immutable_levels)
        # offsets into the shared storage: a view of a view adds its parent's
        view.view_min_level = getattr(orig, "view_min_level", 0) + minlevel
        view.view_min_layer = getattr(orig, "view_min_layer", 0) + minlayer
        view.view_num_levels, view.view_num_layers = numlevels, numlayers

    # -- buffer textures (GL 4.6 section 8.9) --------------------------------------------------
    def glTexBufferRange(self, target, internalformat, buffer, offset, size) -> None:
        check(self.api.gl(4, 3) or es_has(self.api, "texture_buffer"), E.GL_INVALID_OPERATION)
        check_enum(target, (E.GL_TEXTURE_BUFFER,))
        if not buffer:
            # GL 4.6 section 8.9: buffer zero detaches; offset and size are ignored and reset to zero
            offset = size = 0
        else:
            check(offset >= 0 and size > 0, E.GL_INVALID_VALUE)
            check(offset % self.caps.texture_buffer_offset_alignment_B == 0, E.GL_INVALID_VALUE)
        self._tex_buffer(target, internalformat, buffer, offset, size)

    def glTexBuffer(self, target, internalformat, buffer) -> None:
        check(self.api.gl(3, 1) or es_has(self.api, "texture_buffer"), E.GL_INVALID_OPERATION)
        self._tex_buffer(target, internalformat, buffer, 0, 0)

    def _tex_buffer(self, target, internalformat, buffer, offset, size) -> None:
        check_enum(target, (E.GL_TEXTURE_BUFFER,))
        check(internalformat in TEXTURE_BUFFER_FORMATS
              or (self.api.compat and internalformat in LEGACY_TEXTURE_BUFFER_FORMATS), E.GL_INVALID_ENUM,
              "not a texture buffer format (GL 4.6 table 8.18; compatibility: ARB_texture_buffer_object's)")
        buf = None
        if buffer:
            buf = self.buffers.get(buffer)
            check(buf is not None, E.GL_INVALID_OPERATION, "not a buffer object")
            if size:
                check(offset + size <= buf.size, E.GL_INVALID_VALUE)
        tex = bound_texture(self, E.GL_TEXTURE_BUFFER)
        tex.buffer, tex.buffer_internal_format = buf, internalformat
        tex.buffer_offset, tex.buffer_size = offset, size

    # -- integer border colours / parameters (GL 4.6 section 8.10) ---------------------------
    def glTexParameterIiv(self, target, pname, params) -> None:
        check(self.api.gl(3, 0) or es_has(self.api, "texture_border_clamp"), E.GL_INVALID_OPERATION)
        if pname == E.GL_TEXTURE_BORDER_COLOR:
            check_enum(target, texture_targets(self.api))
            bound_texture(self, target).params.border_color = tuple(int(v) for v in list(params)[:4])
            return
        self._tex_parameter(target, pname, [int(v) for v in params])

    glTexParameterIuiv = glTexParameterIiv

    def glGetTexParameterIiv(self, target, pname) -> list:
        if pname == E.GL_TEXTURE_BORDER_COLOR:
            check_enum(target, texture_targets(self.api))
            return [int(v) for v in bound_texture(self, target).params.border_color]
        return self.glGetTexParameteriv(target, pname)

    glGetTexParameterIuiv = glGetTexParameterIiv

    def glSamplerParameterIiv(self, sampler, pname, params) -> None:
        if pname == E.GL_TEXTURE_BORDER_COLOR:
            self._sampler(sampler).params.border_color = tuple(int(v) for v in list(params)[:4])
            return
        self._sampler_parameter(sampler, pname, [int(v) for v in params])

    glSamplerParameterIuiv = glSamplerParameterIiv

    def glGetSamplerParameterIiv(self, sampler, pname) -> list:
        if pname == E.GL_TEXTURE_BORDER_COLOR:
            return [int(v) for v in self._sampler(sampler).params.border_color]
        return self.glGetSamplerParameteriv(sampler, pname)

    glGetSamplerParameterIuiv = glGetSamplerParameterIiv

    def glGetTexLevelParameterfv(self, target, level, pname) -> list:
        return [float(v) for v in (self.glGetTexLevelParameteriv(target, level, pname) or [])]

    # -- image units (GL 4.6 section 8.26) ------------------------------------------------------
    def glBindImageTexture(self, unit, texture, level, layered, layer, access, format) -> None:
        check(self.api.gl_or_es((4, 2), (3, 1)), E.GL_INVALID_OPERATION)
        check(0 <= unit < self.caps.max_combined_images, E.GL_INVALID_VALUE, "unit out of range")
        check(level >= 0 and layer >= 0, E.GL_INVALID_VALUE)
        check_enum(access, (E.GL_READ_ONLY, E.GL_WRITE_ONLY, E.GL_READ_WRITE))
        check(format in IMAGE_FORMATS, E.GL_INVALID_VALUE, "not an image format (GL 4.6 table 8.27)")
        if not hasattr(self, "image_units"):
            self.image_units = {}
        if texture == 0:
            self.image_units.pop(unit, None)
            return
        tex = self.textures.get(texture)
        check(tex is not None, E.GL_INVALID_VALUE, "not a texture")
        if self.api.es:
            # GLES 3.1 section 8.22; OES_EGL_image_external_essl3 (issue 10): an external
            # texture, never immutable, is taken too
            check(tex.immutable or tex.target == E.GL_TEXTURE_EXTERNAL_OES, E.GL_INVALID_OPERATION,
                  "GLES: images need immutable textures")
        self.image_units[unit] = (tex, level, bool(layered), layer, access, format)

    def _image_view(self, unit):
        entry = getattr(self, "image_units", {}).get(unit)
        if entry is None:
            return None
        tex, level, layered, layer, access, fmt = entry
        rw = {E.GL_READ_ONLY: PipeMap.READ, E.GL_WRITE_ONLY: PipeMap.WRITE,
              E.GL_READ_WRITE: PipeMap.READ | PipeMap.WRITE}[access]
        if tex.target == E.GL_TEXTURE_BUFFER:
            # a buffer image is the texture's range of its buffer (GL 4.6 section 8.26)
            buf = tex.buffer
            if buf is None or buf.resource is None:
                return None
            return ImageView(buf.resource, INTERNAL_FORMATS[fmt].pipe, int(rw), offset_B=tex.buffer_offset,
                             size_B=tex.buffer_size or buf.size - tex.buffer_offset)
        res = texture_resource(self, tex)
        if res is None:
            return None
        if tex.target not in LAYERED_TARGETS:
            layered, layer = True, 0        # no layers: the whole level (GL 4.6 section 8.26)
        # a texture view (GL 4.6 section 8.18): its level and layers are offsets into the
        # parent's storage, a layered binding has the view's layers only
        layer0 = getattr(tex, "view_min_layer", 0)
        nlayers = getattr(tex, "view_num_layers", 0) or res.template.array_size - layer0
        first = layer0 if layered else layer0 + layer
        last = layer0 + nlayers - 1 if layered else first
        return ImageView(res, INTERNAL_FORMATS[fmt].pipe, int(rw), getattr(tex, "view_min_level", 0) + level,
                         first, last)

    def emit_images(self, stage: PipeShaderType, ls) -> None:
        units = []
        for u in ls.uniforms:
            if u.kind != "image":
                continue
            for i in range(u.size):
                units.append(struct.unpack_from("<i", ls.uniform_data, u.offset_B + i * u.stride_B)[0])
        if units or getattr(self, "image_units", None):
            n = max(units, default=-1) + 1
            self.pipe.set_shader_images(stage, 0, [self._image_view(i) for i in range(n)])

    def glMemoryBarrierByRegion(self, barriers: int) -> None:
        """GL 4.6 section 7.13.2 / GLES 3.2 section 7.11.2: only the barriers
        fragment shaders can need (or ALL_BARRIER_BITS), else INVALID_VALUE."""
        check(self.api.has_extension("GL_ARB_ES3_1_compatibility") or self.api.es_(3, 1),
              E.GL_INVALID_OPERATION)
        by_region = (E.GL_ATOMIC_COUNTER_BARRIER_BIT | E.GL_FRAMEBUFFER_BARRIER_BIT
                     | E.GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | E.GL_SHADER_STORAGE_BARRIER_BIT
                     | E.GL_TEXTURE_FETCH_BARRIER_BIT | E.GL_UNIFORM_BARRIER_BIT)
        check(barriers == E.GL_ALL_BARRIER_BITS or barriers & ~by_region == 0, E.GL_INVALID_VALUE,
              f"barrier bits {barriers & ~by_region:#x} cannot be given by region")
        self.glMemoryBarrier(barriers)
