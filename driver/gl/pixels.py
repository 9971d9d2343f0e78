"""Pixel transfer: client images <-> RGBA arrays <-> resource formats, with
the pixel store state (GL 4.6 sections 8.4.4 and 18.2). Format facts and
conversions come from `layout` (pack/unpack with GL's rules)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

import layout
from driver.gl import enums as E
from driver.gl.formats import (GL_ABGR_EXT, GL_LUMINANCE_ALPHA_INTEGER_EXT, GL_LUMINANCE_INTEGER_EXT,
                               INTEGER_PIXEL_FORMATS, PIXEL_TYPES, bytes_per_pixel)

__all__ = ["bitmap_row_B", "client_format", "from_resource_bytes", "image_size_B", "passthrough_format", "read_client_image",
           "tight_pack", "to_resource_bytes", "transfer_supported", "write_client_bytes", "write_client_bytes_into",
           "write_client_image"]

_CHANNELS = {E.GL_RED: "R", E.GL_RG: "RG", E.GL_RGB: "RGB", E.GL_RGBA: "RGBA", E.GL_BGRA: "BGRA",
             E.GL_RED_INTEGER: "R", E.GL_RG_INTEGER: "RG", E.GL_RGB_INTEGER: "RGB",
             E.GL_RGBA_INTEGER: "RGBA", E.GL_BGRA_INTEGER: "BGRA", E.GL_LUMINANCE: "L",
             E.GL_LUMINANCE_ALPHA: "LA", E.GL_ALPHA: "A",
             E.GL_ALPHA_INTEGER: "A", GL_LUMINANCE_INTEGER_EXT: "L", GL_LUMINANCE_ALPHA_INTEGER_EXT: "LA",
             GL_ABGR_EXT: "ABGR"}
_TYPES = {E.GL_UNSIGNED_BYTE: (8, "UNORM", "UINT"), E.GL_BYTE: (8, "SNORM", "SINT"),
          E.GL_UNSIGNED_SHORT: (16, "UNORM", "UINT"), E.GL_SHORT: (16, "SNORM", "SINT"),
          E.GL_UNSIGNED_INT: (32, "UNORM", "UINT"), E.GL_INT: (32, "SNORM", "SINT"),
          E.GL_HALF_FLOAT: (16, "FLOAT", None), E.GL_FLOAT: (32, "FLOAT", None)}
# Packed types whose components are not plain unsigned fields (the others' layout
# formats are derived from table 8.8's bit placement: ``_packed_format``).
_PACKED = {(E.GL_UNSIGNED_INT_10F_11F_11F_REV, E.GL_RGB): "R11G11B10_FLOAT",
           (E.GL_UNSIGNED_INT_5_9_9_9_REV, E.GL_RGB): "R9G9B9E5_FLOAT",
           (E.GL_UNSIGNED_INT_24_8, E.GL_DEPTH_STENCIL): "S8_UINT_Z24_UNORM",
           (E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV, E.GL_DEPTH_STENCIL): "Z32_FLOAT_S8X24_UINT"}
_DEPTH = {E.GL_UNSIGNED_SHORT: "Z16_UNORM", E.GL_UNSIGNED_INT: "Z32_UNORM", E.GL_FLOAT: "Z32_FLOAT",
          # the other types of GL 4.6 table 8.2: normalized values in the red channel, as depth's
          E.GL_UNSIGNED_BYTE: "R8_UNORM", E.GL_BYTE: "R8_SNORM", E.GL_SHORT: "R16_SNORM", E.GL_INT: "R32_SNORM"}


_STENCIL = {E.GL_UNSIGNED_BYTE: "S8_UINT", E.GL_BYTE: "R8_SINT", E.GL_UNSIGNED_SHORT: "R16_UINT",
            E.GL_SHORT: "R16_SINT", E.GL_UNSIGNED_INT: "R32_UINT", E.GL_INT: "R32_SINT",
            E.GL_FLOAT: "R32_FLOAT"}


# Client formats whose channels are another format's in another order: (that format,
# the RGBA component each client channel holds). GL 4.6 table 8.3 (GREEN, BLUE, BGR
# and their integer forms); layout names formats by memory order, so the data is
# moved between the two orders on the way in and out.
_REORDERED = {E.GL_GREEN: (E.GL_RED, (1,)), E.GL_BLUE: (E.GL_RED, (2,)),
              E.GL_BGR: (E.GL_RGB, (2, 1, 0)),
              E.GL_GREEN_INTEGER: (E.GL_RED_INTEGER, (1,)), E.GL_BLUE_INTEGER: (E.GL_RED_INTEGER, (2,)),
              E.GL_BGR_INTEGER: (E.GL_RGB_INTEGER, (2, 1, 0))}


@lru_cache(maxsize=1024)     # these three are functions of their enums: every pixel call asks
def client_format(fmt: int, type: int) -> str | None:
    """The layout format name describing one client pixel of (format, type),
    or None when layout has no such format. For GREEN, BLUE and BGR (and their
    integer forms) it is the layout format of the same bytes read as RED or RGB;
    `read_client_image` and `write_client_image` move the channels into place."""
    if fmt in _REORDERED:
        return client_format(_REORDERED[fmt][0], type) if type in _TYPES else None
    if (type, fmt) in _PACKED:
        name = _PACKED[(type, fmt)]
    elif (packed := _packed_format(fmt, type)) is not None:
        # layout (like Gallium) names channels from the least significant bits on
        _bits, fields, integer = packed
        name = "".join(f"{letter}{size}" for letter, _shift, size in fields) + ("_UINT" if integer else "_UNORM")
    elif fmt == E.GL_DEPTH_COMPONENT:
        name = _DEPTH.get(type)
    elif fmt == E.GL_STENCIL_INDEX:
        # stencil indices are integers: each integer type holds them as a one-channel value
        name = _STENCIL.get(type)
    elif fmt in _CHANNELS and type in _TYPES:
        bits, norm, integer = _TYPES[type]
        kind = integer if fmt in INTEGER_PIXEL_FORMATS else norm
        if kind is None:
            return None
        name = "".join(f"{c}{bits}" for c in _CHANNELS[fmt]) + "_" + kind
    else:
        return None
    return name if name in layout.FORMATS else None


# Client formats of whole-byte channels of one type that layout has no format for (it
# lists the hardware's formats: no 32-bit normalised RG, RGB, LA, ... among them) are
# converted here with GL's rules (GL 4.6 sections 8.4.4 and 2.3.5: unsigned normalised
# c / (2^b - 1), signed max(c / (2^(b-1) - 1), -1); luminance read as (L, L, L, 1),
# intensity as (I, I, I, I), both written from red, as layout's L and I formats are).
_ARRAY_DTYPES = {(8, False): "<u1", (8, True): "<i1", (16, False): "<u2", (16, True): "<i2",
                 (32, False): "<u4", (32, True): "<i4"}


def _array_format(fmt: int, type: int) -> tuple[str, int, str] | None:
    """(channel letters, bits per channel, channel kind) of a client format whose
    channels are whole bytes of one type, or None (packed, depth, stencil)."""
    if fmt in _REORDERED:
        fmt = _REORDERED[fmt][0]
    if fmt not in _CHANNELS or type not in _TYPES:
        return None
    bits, norm, integer = _TYPES[type]
    kind = integer if fmt in INTEGER_PIXEL_FORMATS else norm
    return None if kind is None else (_CHANNELS[fmt], bits, kind)


# Packed types (GL 4.6 table 8.8): (field sizes from the most significant end, reversed;
# the pixel is their sum): a plain type gives the format's first component the most
# significant field, a _REV type the least significant one.
_PACKED_FIELDS = {E.GL_UNSIGNED_BYTE_3_3_2: ((3, 3, 2), False),
                  E.GL_UNSIGNED_BYTE_2_3_3_REV: ((2, 3, 3), True),
                  E.GL_UNSIGNED_SHORT_5_6_5: ((5, 6, 5), False),
                  E.GL_UNSIGNED_SHORT_5_6_5_REV: ((5, 6, 5), True),
                  E.GL_UNSIGNED_SHORT_4_4_4_4: ((4, 4, 4, 4), False),
                  E.GL_UNSIGNED_SHORT_4_4_4_4_REV: ((4, 4, 4, 4), True),
                  E.GL_UNSIGNED_SHORT_5_5_5_1: ((5, 5, 5, 1), False),
                  E.GL_UNSIGNED_SHORT_1_5_5_5_REV: ((1, 5, 5, 5), True),
                  E.GL_UNSIGNED_INT_8_8_8_8: ((8, 8, 8, 8), False),
                  E.GL_UNSIGNED_INT_8_8_8_8_REV: ((8, 8, 8, 8), True),
                  E.GL_UNSIGNED_INT_10_10_10_2: ((10, 10, 10, 2), False),
                  E.GL_UNSIGNED_INT_2_10_10_10_REV: ((2, 10, 10, 10), True)}


def _packed_format(fmt: int, type: int) -> tuple[int, tuple, bool] | None:
    """(bits per pixel, ((component letter, shift, bits), ...), integer) of a packed
    unsigned (normalised or integer) client format, or None."""
    if type not in _PACKED_FIELDS or fmt not in _CHANNELS:
        return None
    sizes, rev = _PACKED_FIELDS[type]
    bpp_bits = sum(sizes)
    letters = _CHANNELS[fmt]
    if len(letters) != len(sizes) or not set(letters) <= set("RGBA"):
        return None
    fields, shift = [], 0
    if rev:                                   # first component in the least significant bits
        for letter, size in zip(letters, reversed(sizes)):
            fields.append((letter, shift, size))
            shift += size
    else:                                     # last component in the least significant bits
        for letter, size in zip(reversed(letters), reversed(sizes)):
            fields.append((letter, shift, size))
            shift += size
    return bpp_bits, tuple(fields), fmt in INTEGER_PIXEL_FORMATS


def _unpack_packed(bpp_bits: int, fields: tuple, integer: bool, raw: np.ndarray) -> np.ndarray:
    words = np.ascontiguousarray(raw).view(f"<u{bpp_bits // 8}")[..., 0].astype(np.uint64)
    out = np.zeros(words.shape + (4,), np.uint32 if integer else np.float32)
    out[..., 3] = 1
    for letter, shift, size in fields:
        value = (words >> np.uint64(shift)) & np.uint64((1 << size) - 1)
        out[..., "RGBA".index(letter)] = value if integer else value / float((1 << size) - 1)
    return out


def _pack_packed(bpp_bits: int, fields: tuple, integer: bool, rgba: np.ndarray) -> np.ndarray:
    word = np.zeros(rgba.shape[:-1], np.uint64)
    for letter, shift, size in fields:
        top = (1 << size) - 1
        c = rgba[..., "RGBA".index(letter)].astype(np.float64)
        value = np.clip(c, 0, top) if integer else np.rint(np.clip(c, 0.0, 1.0) * top)
        word |= value.astype(np.uint64) << np.uint64(shift)
    return np.ascontiguousarray(word.astype(f"<u{bpp_bits // 8}"))[..., None].view(np.uint8)


@lru_cache(maxsize=1024)
def transfer_supported(fmt: int, type: int) -> bool:
    """Whether client data of (format, type) can be read and written."""
    return client_format(fmt, type) is not None or _array_format(fmt, type) is not None or \
        _packed_format(fmt, type) is not None


def _array_dtype(bits: int, kind: str) -> np.dtype:
    if kind == "FLOAT":
        return np.dtype("<f2" if bits == 16 else "<f4")
    return np.dtype(_ARRAY_DTYPES[(bits, kind in ("SNORM", "SINT"))])


def _unpack_array(letters: str, bits: int, kind: str, raw: np.ndarray) -> np.ndarray:
    """Client bytes (..., channels * bytes) -> RGBA, as layout.unpack shapes it."""
    values = np.ascontiguousarray(raw).view(_array_dtype(bits, kind)).astype(np.float64)
    if kind == "UNORM":
        values = values / float(2 ** bits - 1)
    elif kind == "SNORM":
        values = np.maximum(values / float(2 ** (bits - 1) - 1), -1.0)
    dtype = {"UINT": np.uint32, "SINT": np.int32}.get(kind, np.float32)
    out = np.zeros(values.shape[:-1] + (4,), dtype)
    out[..., 3] = 1
    for j, c in enumerate(letters):
        if c == "L":
            out[..., 0:3] = values[..., j:j + 1]
        elif c == "I":
            out[..., :] = values[..., j:j + 1]
        else:
            out[..., "RGBA".index(c)] = values[..., j]
    return out


def _pack_array(letters: str, bits: int, kind: str, rgba: np.ndarray) -> np.ndarray:
    """RGBA -> client bytes (..., channels * bytes) for `_unpack_array`'s formats."""
    dtype = _array_dtype(bits, kind)
    src = np.stack([rgba[..., "RGBA".index(c) if c in "RGBA" else 0] for c in letters], axis=-1)
    src = src.astype(np.float64)
    if kind == "UNORM":
        src = np.rint(np.clip(src, 0.0, 1.0) * float(2 ** bits - 1))
    elif kind == "SNORM":
        src = np.rint(np.clip(src, -1.0, 1.0) * float(2 ** (bits - 1) - 1))
    elif kind in ("UINT", "SINT"):
        info = np.iinfo(dtype)
        src = np.clip(src, info.min, info.max)
    return np.ascontiguousarray(src.astype(dtype)).view(np.uint8)


def _row_geometry(store, fmt, type, width, height):
    # a colour index spans what a stencil index does: one component of the type
    bpp = bytes_per_pixel(E.GL_STENCIL_INDEX if fmt == E.GL_COLOR_INDEX else fmt, type)
    row_px = store.row_length or width
    row_B = -(-row_px * bpp // store.alignment) * store.alignment
    image_B = row_B * (store.image_height or height)
    first_B = store.skip_images * image_B + store.skip_rows * row_B + store.skip_pixels * bpp
    return bpp, row_B, image_B, first_B


def bitmap_row_B(store, width: int) -> int:
    """Bytes a row of a BITMAP image spans: its bits (ROW_LENGTH, else ``width``)
    rounded up to whole bytes, then to the unpack alignment (GL 2.1 section 3.7)."""
    row_B = -(-(store.row_length or max(width, 0)) // 8)
    return -(-row_B // store.alignment) * store.alignment


def image_size_B(store, fmt, type, width, height, depth) -> int:
    """Bytes the client image spans, skips included (GL 4.6 section 8.4.4.1; BITMAP
    data, one bit per index, whole rows of GL 2.1 section 3.7)."""
    if not (width and height and depth):
        return 0
    if type == E.GL_BITMAP:
        return (store.skip_rows + height) * bitmap_row_B(store, width) + (store.skip_pixels + 7) // 8
    bpp, row_B, image_B, first_B = _row_geometry(store, fmt, type, width, height)
    return first_B + (depth - 1) * image_B + (height - 1) * row_B + width * bpp


def _swap_unit_B(type: int) -> int:
    """The element whose bytes SWAP_BYTES reverses (GL 4.6 section 8.4.4.1): a
    component of the plain types, the whole pixel of a packed one (the two 32-bit words
    of FLOAT_32_UNSIGNED_INT_24_8_REV each); 1 (no swap) for byte types and bitmaps."""
    t = PIXEL_TYPES.get(type, 1)
    return min(t[0], 4) if isinstance(t, tuple) else t


def swapped_bytes(pixels: np.ndarray, store, type: int) -> np.ndarray:
    """``pixels`` (uint8, ..., bytes of a pixel) with each element's bytes reversed when
    the pixel store's SWAP_BYTES is set; ``pixels`` itself otherwise."""
    unit = _swap_unit_B(type)
    if not getattr(store, "swap_bytes", False) or unit == 1:
        return pixels
    shape = pixels.shape
    return np.ascontiguousarray(pixels.reshape(*shape[:-1], -1, unit)[..., ::-1]).reshape(shape)


def _client_rows(buf: np.ndarray, store, fmt, type, width, height, depth) -> np.ndarray:
    """The client image's rows inside ``buf``, as a strided (depth, height,
    width * bpp) view laid out per the pixel-store state (writable if ``buf`` is)."""
    bpp, row_B, image_B, first_B = _row_geometry(store, fmt, type, width, height)
    need_B = image_size_B(store, fmt, type, width, height, depth)
    if buf.size < need_B:
        raise ValueError(f"client image needs {need_B} bytes, got {buf.size}")
    if need_B == 0:
        return np.empty((depth, height, width * bpp), np.uint8)
    if row_B == width * bpp and image_B == height * row_B:     # tight: a plain view (as_strided costs more)
        rows = buf[first_B:first_B + depth * image_B].reshape(depth, height, width * bpp)
    else:
        rows = np.lib.stride_tricks.as_strided(buf[first_B:], shape=(depth, height, width * bpp),
                                               strides=(image_B, row_B, 1))
    # MESA_pack_invert: the image's top row is the first in memory
    return rows[:, ::-1] if getattr(store, "invert", False) else rows


def read_client_image(raw: bytes, store, fmt, type, width, height, depth) -> np.ndarray:
    """Client bytes -> RGBA array (depth, height, width, 4) per layout.unpack."""
    name = client_format(fmt, type)
    array = _array_format(fmt, type) if name is None else None
    packed = _packed_format(fmt, type) if name is None else None
    if name is None and array is None and packed is None:
        raise NotImplementedError(f"pixel format {fmt:#x}/{type:#x} has no layout format")
    buf = np.frombuffer(bytes(raw), np.uint8)
    out = _client_rows(buf, store, fmt, type, width, height, depth).reshape(depth, height, width, -1)
    out = swapped_bytes(out, store, type)
    # channel names place B/G/R/A; result is RGBA
    if name is not None:
        rgba = layout.unpack(name, out)
    else:
        rgba = _unpack_array(*array, out) if array is not None else _unpack_packed(*packed, out)
    if fmt in _REORDERED:             # client channel j is component order[j]; the others 0, alpha 1
        order = _REORDERED[fmt][1]
        moved = np.zeros_like(rgba)
        moved[..., 3] = 1
        moved[..., list(order)] = rgba[..., :len(order)]
        rgba = moved
    return rgba


def write_client_image(rgba: np.ndarray, store, fmt, type, dest: bytearray | None = None) -> bytes:
    """RGBA (depth, height, width, 4) -> client bytes laid out per `store`
    (bytes between rows are left as in `dest`, or zero)."""
    depth, height, width = rgba.shape[:3]
    name = client_format(fmt, type)
    array = _array_format(fmt, type) if name is None else None
    packed_fmt = _packed_format(fmt, type) if name is None else None
    if name is None and array is None and packed_fmt is None:
        raise NotImplementedError(f"pixel format {fmt:#x}/{type:#x} has no layout format")
    if fmt in _REORDERED:             # client channel j takes component order[j]
        order = _REORDERED[fmt][1]
        moved = np.zeros_like(rgba)
        moved[..., :len(order)] = rgba[..., list(order)]
        rgba = moved
    if name is not None:
        packed = layout.pack(name, rgba)
    else:
        packed = _pack_array(*array, rgba) if array is not None else _pack_packed(*packed_fmt, rgba)
    total = image_size_B(store, fmt, type, width, height, depth)
    out = bytearray(total) if dest is None else dest
    if total:
        rows = _client_rows(np.frombuffer(out, np.uint8), store, fmt, type, width, height, depth)
        rows[...] = swapped_bytes(packed.reshape(rows.shape), store, type)
    return bytes(out)


def write_client_bytes(raw: np.ndarray, store, fmt, type, dest: bytearray | None = None) -> bytes:
    """Pixels already in the client's format, uint8 (depth, height, width, bpp) ->
    client bytes laid out per `store`, as `write_client_image` lays them out."""
    depth, height, width = raw.shape[:3]
    total = image_size_B(store, fmt, type, width, height, depth)
    bpp, row_B, image_B, first_B = _row_geometry(store, fmt, type, width, height)
    raw = swapped_bytes(raw, store, type)
    if (dest is None and first_B == 0 and row_B == width * bpp and image_B == height * row_B
            and not getattr(store, "invert", False)):
        return np.ascontiguousarray(raw).tobytes()          # tightly packed: the bytes as they are
    out = bytearray(total) if dest is None else dest
    if total:
        rows = _client_rows(np.frombuffer(out, np.uint8), store, fmt, type, width, height, depth)
        rows[...] = raw.reshape(rows.shape)
    return bytes(out)


def tight_pack(store, fmt, type, width, height, depth=1) -> bool:
    """Whether the client image under `store` is its pixels back to back: no
    skips, no row or image padding (so it spans exactly width*height*depth*bpp), rows in
    the image's order (not MESA_pack_invert's)."""
    bpp, row_B, image_B, first_B = _row_geometry(store, fmt, type, width, height)
    return (first_B == 0 and row_B == width * bpp and (depth == 1 or image_B == height * row_B)
            and not getattr(store, "invert", False))


def write_client_bytes_into(raw: np.ndarray, store, fmt, type, buf) -> None:
    """`write_client_bytes` straight into the client's memory `buf` (a writable
    buffer of at least ``image_size_B`` bytes): the rows are copied once into
    place; bytes between rows are left as they are."""
    depth, height, width = raw.shape[:3]
    if not image_size_B(store, fmt, type, width, height, depth):
        return
    rows = _client_rows(np.frombuffer(buf, np.uint8), store, fmt, type, width, height, depth)
    np.copyto(rows, swapped_bytes(raw, store, type).reshape(rows.shape))


_EXACT_TYPES = {"UNORM": 16, "UINT": 32, "SINT": 32}     # channel type -> most bits unpack+pack keeps


@lru_cache(maxsize=1024)
def passthrough_format(pipe_format_name: str, fmt: int, type: int) -> str | None:
    """The layout format when a colour resource's bytes are already the client's
    bytes for (fmt, type): same format, and unpacking then packing gives every byte
    back (all bits in UNORM channels of at most 16 bits or in integer channels; no
    padding, no sRGB conversion, no depth/stencil). Else None."""
    name = client_format(fmt, type)
    if name is None or fmt in _REORDERED or name != _transfer_format(pipe_format_name):
        return None
    f = layout.get_format(name)
    if f.is_compressed or f.is_depth_or_stencil or f.is_srgb:
        return None
    if sum(c.bits for c in f.channels) != 8 * f.block_size_B:
        return None
    if not all(c.name in "RGBALI" and c.bits <= _EXACT_TYPES.get(c.type, 0) for c in f.channels):
        return None
    return name


def _transfer_format(pipe_format_name: str) -> str:
    """Pixel transfers do no sRGB conversion: client data for an sRGB texture is
    already encoded and is stored as given (GL 4.6 section 8.24: the sRGB decode
    happens when a shader samples), and reads return the stored encoding (with
    FRAMEBUFFER_SRGB disabled, as Mesa). So transfer through the UNORM twin."""
    if layout.get_format(pipe_format_name).is_srgb:
        twin = pipe_format_name.replace("_SRGB", "_UNORM")
        if twin in layout.FORMATS:
            return twin
    return pipe_format_name


def to_resource_bytes(rgba: np.ndarray, pipe_format_name: str) -> bytes:
    """RGBA -> tightly packed bytes in a resource's format."""
    return layout.pack(_transfer_format(pipe_format_name), rgba).tobytes()


def from_resource_bytes(raw: bytes, pipe_format_name: str, shape) -> np.ndarray:
    """Tightly packed resource bytes -> RGBA array of `shape` (d, h, w) pixels.
    Block-compressed resources are rows of blocks covering the image; they are
    decoded (GL 4.6 section 8.11.4 reads compressed images as their texels; sRGB
    ones keep their encoding, as uncompressed sRGB images do)."""
    fmt = layout.get_format(pipe_format_name)
    if fmt.is_compressed:
        d, h, w = shape
        h_el, w_el = -(-h // fmt.block_height_px), -(-w // fmt.block_width_px)
        blocks = np.frombuffer(bytes(raw), np.uint8)[:d * h_el * w_el * fmt.block_size_B]
        blocks = blocks.reshape(d, h_el, w_el, fmt.block_size_B)
        rgba = np.stack([layout.decompress_image(fmt, layer, w, h, decode_srgb=False) for layer in blocks])
        if "L" in {c.name for c in fmt.channels}:
            rgba[..., 1:3] = 0          # luminance (LATC) reads back as (L, 0, 0, A), as below
        return rgba
    name = _transfer_format(pipe_format_name)
    arr = np.frombuffer(bytes(raw), np.uint8).reshape(*shape, layout.get_format(name).block_size_B)
    letters = {c.name for c in fmt.channels}
    if letters & {"L", "I"}:
        # luminance and intensity images read back as (L, 0, 0, 1|A) and (I, 0, 0, 1)
        # (GL 4.6 compatibility section 8.11.4: L and I go to red only; a one-component
        # image's alpha is 1, so an intensity's I is not repeated in alpha)
        rgba = layout.unpack(name, arr)
        rgba[..., 1:3] = 0
        if "I" in letters:
            rgba[..., 3] = 1
        return rgba
    # depth stays float64 to the client's format: one rounding from the stored
    # value (a 24-bit depth read as UNSIGNED_INT is exact, not float32's 2^-24)
    return layout.unpack(name, arr, precise=fmt.is_depth)
