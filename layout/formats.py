"""The pixel-format table: one line per format, everything else derived.

Names follow Gallium (``R8G8B8A8_UNORM``, ``B5G6R5_UNORM``, ``Z24_UNORM_S8_UINT``).
For every plain (non block-compressed) format the name *is* the description: it is
parsed into bitfields, and that parse is the single source of truth for the
channel list, the block size and the pack/unpack code in ``pack.py``.

Bit order (Gallium's, on a little-endian machine): a block is read as one
little-endian bit string and the channels named in the format occupy consecutive
bitfields starting at bit 0, in the order they are named. This one rule covers
both array formats (``R8G8B8A8``: R is byte 0) and packed formats (``B5G6R5``: B is
bits 0-4, R bits 11-15; ``R10G10B10A2``: R is bits 0-9; ``Z24_UNORM_S8_UINT``: Z is
bits 0-23, S bits 24-31; ``Z32_FLOAT_S8X24_UINT``: Z is bytes 0-3, S byte 4).

Channel letters: R G B A (colour), L (luminance), I (intensity), Z (depth),
S (stencil), E (shared exponent of ``R9G9B9E5``), X (unused padding).
Channel types: UNORM, SNORM, UINT, SINT, FLOAT (16 or 32 bits; 10 and 11 bits are
the unsigned small floats of ``R11G11B10_FLOAT``), and X for padding. ``_SRGB`` in a
name means UNORM storage with the sRGB transfer on the colour channels (not alpha).

Block-compressed formats (ETC1/ETC2/EAC, BC1-7 as ``DXT*``/``RGTC*``/``BPTC*``, ASTC)
have a block of ``block_width_px`` x ``block_height_px`` pixels stored in
``block_size_B`` bytes; their ``channels`` are nominal (bits = 0): the channels
they decode to, not bitfields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Channel", "Format", "FORMATS", "get_format", "CHANNEL_TYPES", "ASTC_BLOCKS"]

CHANNEL_TYPES = ("UNORM", "SNORM", "UINT", "SINT", "FLOAT", "X")

#: ASTC's 2D block footprints (width, height) in texels, in the order KHR_texture_compression_astc_ldr
#: numbers them
ASTC_BLOCKS = ((4, 4), (5, 4), (5, 5), (6, 5), (6, 6), (8, 5), (8, 6), (8, 8),
               (10, 5), (10, 6), (10, 8), (10, 10), (12, 10), (12, 12))


@dataclass(frozen=True)
class Channel:
    """One channel of a format: a bitfield ``[shift_bits, shift_bits + bits)`` of the
    block's little-endian bit string (``bits == 0`` for the nominal channels of a
    block-compressed format)."""

    name: str
    bits: int
    type: str
    shift_bits: int = 0

    @property
    def signed(self) -> bool:
        """Whether the channel's values carry a sign: SNORM, SINT and the 16/32-bit
        floats; the 10/11-bit floats and ``R9G9B9E5``'s mantissas have no sign bit."""
        return self.type in ("SNORM", "SINT") or (self.type == "FLOAT" and self.bits >= 16)


@dataclass(frozen=True)
class Format:
    """One pixel format. A block is ``block_width_px`` x ``block_height_px`` pixels
    in ``block_size_B`` bytes (1 x 1 for every plain format)."""

    name: str
    block_size_B: int
    block_width_px: int
    block_height_px: int
    channels: tuple[Channel, ...]
    is_srgb: bool
    is_depth: bool
    is_stencil: bool
    is_compressed: bool
    family: str = ""  # "etc", "bc", "astc", "fxt1" for block-compressed formats, else ""

    @property
    def bytes_per_block(self) -> int:
        return self.block_size_B

    @property
    def is_depth_or_stencil(self) -> bool:
        return self.is_depth or self.is_stencil

    @property
    def is_integer(self) -> bool:
        """True when every stored channel is UINT or SINT (and the format is not Z/S)."""
        types = {c.type for c in self.channels if c.type != "X"}
        return bool(types) and types <= {"UINT", "SINT"} and not self.is_depth_or_stencil

    def channel(self, name: str) -> Channel | None:
        for c in self.channels:
            if c.name == name:
                return c
        return None


# ---------------------------------------------------------------------------
# The table. Plain formats are listed by name only (the name is parsed).

_PLAIN = """
R8_UNORM R8_SNORM R8_UINT R8_SINT R8_SRGB
R8G8_UNORM R8G8_SNORM R8G8_UINT R8G8_SINT R8G8_SRGB
R8G8B8_UNORM R8G8B8_SNORM R8G8B8_UINT R8G8B8_SINT R8G8B8_SRGB
R8G8B8A8_UNORM R8G8B8A8_SNORM R8G8B8A8_UINT R8G8B8A8_SINT R8G8B8A8_SRGB
R8G8B8X8_UNORM R8G8B8X8_SNORM R8G8B8X8_UINT R8G8B8X8_SINT R8G8B8X8_SRGB
B8G8R8A8_UNORM B8G8R8A8_SRGB B8G8R8X8_UNORM B8G8R8X8_SRGB
A8B8G8R8_UNORM A8B8G8R8_SRGB X8B8G8R8_UNORM
A8_UNORM A8_SNORM A8_UINT A8_SINT L8_UNORM L8_SNORM L8_SRGB L8A8_UNORM L8A8_SNORM L8A8_SRGB
I8_UNORM I8_SNORM A16_UNORM L16_UNORM L16A16_UNORM I16_UNORM
A16_FLOAT L16_FLOAT L16A16_FLOAT I16_FLOAT A32_FLOAT L32_FLOAT L32A32_FLOAT I32_FLOAT
L8_UINT L8_SINT L8A8_UINT L8A8_SINT I8_UINT I8_SINT
A16_UINT A16_SINT L16_UINT L16_SINT L16A16_UINT L16A16_SINT I16_UINT I16_SINT
A32_UINT A32_SINT L32_UINT L32_SINT L32A32_UINT L32A32_SINT I32_UINT I32_SINT
R16_UNORM R16_SNORM R16_UINT R16_SINT R16_FLOAT
R16G16_UNORM R16G16_SNORM R16G16_UINT R16G16_SINT R16G16_FLOAT
R16G16B16_UNORM R16G16B16_SNORM R16G16B16_UINT R16G16B16_SINT R16G16B16_FLOAT
R16G16B16A16_UNORM R16G16B16A16_SNORM R16G16B16A16_UINT R16G16B16A16_SINT R16G16B16A16_FLOAT
R16G16B16X16_UNORM R16G16B16X16_SNORM R16G16B16X16_UINT R16G16B16X16_SINT R16G16B16X16_FLOAT
R32_UNORM R32_SNORM R32_UINT R32_SINT R32_FLOAT
R32G32_UINT R32G32_SINT R32G32_FLOAT
R32G32B32_UINT R32G32B32_SINT R32G32B32_FLOAT
R32G32B32A32_UNORM R32G32B32A32_UINT R32G32B32A32_SINT R32G32B32A32_FLOAT
R32G32B32X32_UINT R32G32B32X32_SINT R32G32B32X32_FLOAT
B5G6R5_UNORM R5G6B5_UNORM B5G5R5A1_UNORM B5G5R5X1_UNORM A1B5G5R5_UNORM R5G5B5A1_UNORM A1R5G5B5_UNORM
B4G4R4A4_UNORM B4G4R4X4_UNORM A4B4G4R4_UNORM R4G4B4A4_UNORM A4R4G4B4_UNORM
B2G3R3_UNORM R3G3B2_UNORM
R10G10B10A2_UNORM R10G10B10A2_SNORM R10G10B10A2_UINT R10G10B10A2_SINT R10G10B10X2_UNORM
B10G10R10A2_UNORM B10G10R10A2_UINT B10G10R10X2_UNORM
R11G11B10_FLOAT R9G9B9E5_FLOAT
Z16_UNORM Z32_FLOAT Z24X8_UNORM X8Z24_UNORM Z32_UNORM
Z24_UNORM_S8_UINT S8_UINT_Z24_UNORM Z32_FLOAT_S8X24_UINT S8_UINT X24S8_UINT S8X24_UINT
"""

# Block-compressed formats: name, family, block w x h (px), block size (B), the
# channels they decode to, sRGB.
_COMPRESSED = [
    ("ETC1_RGB8", "etc", 4, 4, 8, "RGB", False),
    ("ETC2_RGB8", "etc", 4, 4, 8, "RGB", False),
    ("ETC2_SRGB8", "etc", 4, 4, 8, "RGB", True),
    ("ETC2_RGB8A1", "etc", 4, 4, 8, "RGBA", False),
    ("ETC2_SRGB8A1", "etc", 4, 4, 8, "RGBA", True),
    ("ETC2_RGBA8", "etc", 4, 4, 16, "RGBA", False),
    ("ETC2_SRGBA8", "etc", 4, 4, 16, "RGBA", True),
    ("ETC2_R11_UNORM", "etc", 4, 4, 8, "R", False),
    ("ETC2_R11_SNORM", "etc", 4, 4, 8, "R", False),
    ("ETC2_RG11_UNORM", "etc", 4, 4, 16, "RG", False),
    ("ETC2_RG11_SNORM", "etc", 4, 4, 16, "RG", False),
    ("DXT1_RGB", "bc", 4, 4, 8, "RGB", False),
    ("DXT1_RGBA", "bc", 4, 4, 8, "RGBA", False),
    ("DXT3_RGBA", "bc", 4, 4, 16, "RGBA", False),
    ("DXT5_RGBA", "bc", 4, 4, 16, "RGBA", False),
    ("DXT1_SRGB", "bc", 4, 4, 8, "RGB", True),
    ("DXT1_SRGBA", "bc", 4, 4, 8, "RGBA", True),
    ("DXT3_SRGBA", "bc", 4, 4, 16, "RGBA", True),
    ("DXT5_SRGBA", "bc", 4, 4, 16, "RGBA", True),
    ("RGTC1_UNORM", "bc", 4, 4, 8, "R", False),
    ("RGTC1_SNORM", "bc", 4, 4, 8, "R", False),
    ("RGTC2_UNORM", "bc", 4, 4, 16, "RG", False),
    ("RGTC2_SNORM", "bc", 4, 4, 16, "RG", False),
    ("BPTC_RGBA_UNORM", "bc", 4, 4, 16, "RGBA", False),
    ("BPTC_SRGBA", "bc", 4, 4, 16, "RGBA", True),
    ("BPTC_RGB_FLOAT", "bc", 4, 4, 16, "RGB", False),
    ("BPTC_RGB_UFLOAT", "bc", 4, 4, 16, "RGB", False),
] + [
    (f"ASTC_{w}x{h}{suffix}", "astc", w, h, 16, "RGBA", suffix == "_SRGB")
    for (w, h) in ASTC_BLOCKS
    for suffix in ("", "_SRGB")
]

_GROUP = re.compile(r"([RGBALIZSEX])(\d+)")


def _parse_plain(name: str) -> Format:
    """Derive a plain format's bitfields from its Gallium name."""
    parts = name.split("_")
    if len(parts) % 2:
        raise ValueError(f"format name {name!r}: expected CHANNELS_TYPE pairs")
    channels: list[Channel] = []
    shift = 0
    srgb = False
    for spec, typ in zip(parts[0::2], parts[1::2]):
        if _GROUP.sub("", spec):
            raise ValueError(f"format name {name!r}: bad channel group {spec!r}")
        if typ == "SRGB":
            srgb, typ = True, "UNORM"
        if typ not in CHANNEL_TYPES:
            raise ValueError(f"format name {name!r}: unknown channel type {typ!r}")
        for letter, bits in _GROUP.findall(spec):
            ctype = "X" if letter == "X" else ("UINT" if letter == "E" else typ)
            channels.append(Channel(letter, int(bits), ctype, shift))
            shift += int(bits)
    if shift % 8:
        raise ValueError(f"format name {name!r}: {shift} bits is not a whole number of bytes")
    letters = {c.name for c in channels}
    return Format(name=name, block_size_B=shift // 8, block_width_px=1, block_height_px=1,
                  channels=tuple(channels), is_srgb=srgb, is_depth="Z" in letters,
                  is_stencil="S" in letters, is_compressed=False)


def _make_compressed(name, family, bw, bh, size_B, letters, srgb) -> Format:
    typ = "SNORM" if "SNORM" in name else ("FLOAT" if "FLOAT" in name else "UNORM")
    return Format(name=name, block_size_B=size_B, block_width_px=bw, block_height_px=bh,
                  channels=tuple(Channel(c, 0, typ) for c in letters), is_srgb=srgb,
                  is_depth=False, is_stencil=False, is_compressed=True, family=family)


# Plain formats added later: listed after the block-compressed ones so that every
# earlier format keeps its id (a format's id is its position in the table).
_PLAIN_ADDED = """
A16_SNORM L16_SNORM L16A16_SNORM I16_SNORM
"""

# Block-compressed formats added later (after ``_PLAIN_ADDED``, ids kept): LATC
# (EXT_texture_compression_latc) is RGTC's BC4/BC5 blocks read as luminance
# (and alpha): LATC1 one BC4 block of L, LATC2 a BC4 block of L then one of A.
_COMPRESSED_ADDED = [
    ("LATC1_UNORM", "bc", 4, 4, 8, "L", False),
    ("LATC1_SNORM", "bc", 4, 4, 8, "L", False),
    ("LATC2_UNORM", "bc", 4, 4, 16, "LA", False),
    ("LATC2_SNORM", "bc", 4, 4, 16, "LA", False),
    # FXT1 (3DFX_texture_compression_FXT1): 128-bit blocks of 8 x 4 texels (fxt1.py)
    ("FXT1_RGB", "fxt1", 8, 4, 16, "RGB", False),
    ("FXT1_RGBA", "fxt1", 8, 4, 16, "RGBA", False),
]


def _build() -> dict[str, Format]:
    table: dict[str, Format] = {}
    for name in _PLAIN.split():
        assert name not in table, f"format {name} listed twice"
        table[name] = _parse_plain(name)
    for entry in _COMPRESSED:
        assert entry[0] not in table, f"format {entry[0]} listed twice"
        table[entry[0]] = _make_compressed(*entry)
    for name in _PLAIN_ADDED.split():
        assert name not in table, f"format {name} listed twice"
        table[name] = _parse_plain(name)
    for entry in _COMPRESSED_ADDED:
        assert entry[0] not in table, f"format {entry[0]} listed twice"
        table[entry[0]] = _make_compressed(*entry)
    return table


FORMATS: dict[str, Format] = _build()


def get_format(name: str | Format) -> Format:
    """The format record for a Gallium-style name (a ``Format`` is returned as is)."""
    if isinstance(name, Format):
        return name
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown pixel format {name!r}") from None


#: The format id that texture, sampler-view and PBE descriptors carry: the
#: format's index in this table (the one definition of that numbering).
FORMAT_NAMES: tuple[str, ...] = tuple(FORMATS)
_FORMAT_IDS = {name: i for i, name in enumerate(FORMAT_NAMES)}


def format_id(name: str | Format) -> int:
    """The descriptor format id of a format."""
    return _FORMAT_IDS[get_format(name).name]


def format_by_id(fid: int) -> Format:
    """The format a descriptor format id names; ValueError if none."""
    if not 0 <= fid < len(FORMAT_NAMES):
        raise ValueError(f"format id {fid} names no format (the table has {len(FORMAT_NAMES)})")
    return FORMATS[FORMAT_NAMES[fid]]
