"""Vertex attribute fetch in the shader (AGX has no fixed-function vertex fetch;
Mesa's agx_nir_lower_vbo), used when the vertex key carries the attribute
descriptors: ``key["vertex_attribs"]`` = tuple of ``VertexAttrib``.

For an attribute at a location with a descriptor, the element index is the vertex
id (divisor 0) or ``instance_id / divisor + base_instance``; the byte offset is
``offset_B + index * stride_B`` into vertex buffer ``buffer``; ``load_vbo`` reads
the element in a uapi.isa memory format and the shader turns it into the
attribute's values as GL 4.6 section 10.2.1 (table 10.3) and equation 2.2 say:

- ``ubyte``/``ushort``/``byte``/``short`` normalized: the hardware's unorm/snorm
  formats (``max(c / (2^(b-1) - 1), -1)`` for signed); not normalized: the raw
  integer, sign-extended, converted to float for a float attribute (SCALED);
- ``int``/``uint`` normalized: the 32-bit word converted and scaled in the shader;
- ``fixed``: 16.16 fixed point, ``int / 65536`` (exact: a power of two);
- ``half``/``float``: the hardware's f16 / the raw word; ``double``: two words,
  rounded to the nearest float in integer operations (no fp64 on the GPU);
- the packed ``int_2_10_10_10_rev``/``uint_2_10_10_10_rev`` (one word, fields at
  bits 0, 10, 20, 30) and ``uint_10f_11f_11f_rev`` (the hardware's rg11b10f);
- ``bgra``: the first and third component swap (GL_BGRA size).

Missing components are filled with (0, 0, 0, 1); integer attributes fed float data
get the value truncated (what the GL leaves undefined, made deterministic).
Attributes without a descriptor stay ``load_input`` (slot ``ATTR<loc>``) for the
driver to provide as raw 32-bit words.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["VertexAttrib", "FORMATS", "PACKED_FORMATS", "fetch_attribute"]

# GL component type -> (memory format when normalized, when not, bits, signed)
FORMATS = {
    "float": ("i32", "i32", 32, True), "half": ("f16", "f16", 16, True),
    "byte": ("snorm8", "i8", 8, True), "ubyte": ("unorm8", "i8", 8, False),
    "short": ("snorm16", "i16", 16, True), "ushort": ("unorm16", "i16", 16, False),
    "int": ("i32", "i32", 32, True), "uint": ("i32", "i32", 32, False),
    "fixed": ("i32", "i32", 32, True), "double": ("i32", "i32", 64, True),
}

# packed GL types (one 32-bit word per element) -> (field widths from bit 0, signed)
PACKED_FORMATS = {
    "int_2_10_10_10_rev": ((10, 10, 10, 2), True),
    "uint_2_10_10_10_rev": ((10, 10, 10, 2), False),
    "uint_10f_11f_11f_rev": ((11, 11, 10), False),
}

_FLOAT_DATA = ("float", "half", "fixed", "double", "uint_10f_11f_11f_rev")


@dataclass(frozen=True)
class VertexAttrib:
    """One vertex attribute's array (glVertexAttribPointer state at draw time):
    ``format`` a GL component type of ``FORMATS`` or ``PACKED_FORMATS`` (then
    ``components`` counts the fields used), ``bgra`` for GL_BGRA arrays."""
    location: int
    buffer: int
    format: str = "float"
    components: int = 4
    normalized: bool = False
    offset_B: int = 0
    stride_B: int = 16
    divisor: int = 0
    bgra: bool = False

    def __post_init__(self):
        assert self.format in FORMATS or self.format in PACKED_FORMATS, \
            f"unknown attribute format {self.format!r}"
        assert 1 <= self.components <= 4, "attributes have 1-4 components"

    @property
    def float_data(self) -> bool:
        """Whether the fetched values are floats (else integers to convert)."""
        return self.format in _FLOAT_DATA or self.normalized

    @property
    def signed(self) -> bool:
        return FORMATS[self.format][3] if self.format in FORMATS else PACKED_FORMATS[self.format][1]


def _element_index(b, attr: VertexAttrib):
    if attr.divisor == 0:
        return b.load_vertex_id()
    d = attr.divisor
    inst = b.load_instance_id()
    step = b.ushr(inst, d.bit_length() - 1) if d & (d - 1) == 0 else b.udiv(inst, d)
    return b.iadd(step, b.load_base_instance())


def _channels(b, value, n: int) -> list:
    return [b.channel(value, i) for i in range(n)] if n > 1 else [value]


def _double_to_float(b, lo, hi):
    """The binary32 nearest the binary64 (hi:lo words), rounding to even, in 32-bit
    integer operations; results below binary32's normal range flush to zero (the
    GPU's float operations flush denormals too), overflow gives infinity, NaN stays
    NaN."""
    sign = b.iand(hi, 0x80000000)
    exp64 = b.ubitfield_extract(hi, 20, 11)
    mant = b.ior(b.ishl(b.iand(hi, 0xFFFFF), 3), b.ushr(lo, 29))      # the top 23 mantissa bits
    rest = b.iand(lo, 0x1FFFFFFF)                                       # the 29 dropped bits
    halfway = 0x10000000
    up = b.ior(b.ult(halfway, rest), b.iand(b.ieq(rest, halfway), b.ine(b.iand(mant, 1), 0)))
    exp32 = b.isub(exp64, 1023 - 127)
    bits = b.iadd(b.ior(b.ishl(exp32, 23), mant), b.b2i32(up))          # a carry bumps the exponent
    bits = b.bcsel(b.ige(exp32, 255), 0x7F800000, bits)
    bits = b.bcsel(b.ilt(exp32, 1), 0, bits)
    nan = b.ine(b.ior(b.iand(hi, 0xFFFFF), lo), 0)
    special = b.bcsel(nan, 0x7FC00000, 0x7F800000)
    bits = b.bcsel(b.ieq(exp64, 0x7FF), special, bits)
    return b.ior(sign, bits)


def _fetch(b, attr: VertexAttrib, offset) -> list:
    """The element's components in memory order: floats when ``attr.float_data``,
    else integers (sign-extended when signed)."""
    n = attr.components
    if attr.format in PACKED_FORMATS:
        if attr.format == "uint_10f_11f_11f_rev":
            return _channels(b, b.intrinsic("load_vbo", offset, num_components=3, buffer=attr.buffer,
                                            format="rg11b10f"), 3)[:n]
        widths, signed = PACKED_FORMATS[attr.format]
        if attr.normalized and not signed:
            v = b.intrinsic("load_vbo", offset, num_components=4, buffer=attr.buffer, format="rgb10a2")
            return _channels(b, v, 4)[:n]
        word = b.intrinsic("load_vbo", offset, num_components=1, buffer=attr.buffer, format="i32")
        out, shift = [], 0
        for bits in widths[:n]:
            field = (b.ibitfield_extract if signed else b.ubitfield_extract)(word, shift, bits)
            if attr.normalized:       # signed: max(c / (2^(b-1) - 1), -1)
                field = b.fmax(b.fmul(b.i2f32(field), 1.0 / ((1 << (bits - 1)) - 1)), -1.0)
            out.append(field)
            shift += bits
        return out
    norm_fmt, raw_fmt, bits, signed = FORMATS[attr.format]
    if attr.format == "double":
        out = []
        for c in range(n):
            at = b.iadd(offset, 8 * c) if c else offset
            w = b.intrinsic("load_vbo", at, num_components=2, buffer=attr.buffer, format="i32")
            out.append(_double_to_float(b, b.channel(w, 0), b.channel(w, 1)))
        return out
    fmt = norm_fmt if attr.normalized or attr.format == "half" else raw_fmt
    v = _channels(b, b.intrinsic("load_vbo", offset, num_components=n, buffer=attr.buffer, format=fmt), n)
    if fmt in ("i8", "i16") and signed:
        v = [b.ibitfield_extract(c, 0, bits) for c in v]     # sign-extend the zero-extended raw value
    if attr.format == "fixed":
        v = [b.fmul(b.i2f32(c), 2.0 ** -16) for c in v]
    elif attr.normalized and bits == 32:
        if signed:
            v = [b.fmax(b.fmul(b.i2f32(c), 1.0 / 0x7FFFFFFF), -1.0) for c in v]
        else:
            v = [b.fmul(b.u2f32(c), 1.0 / 0xFFFFFFFF) for c in v]
    return v


def fetch_attribute(b, attr: VertexAttrib, base: str, comps: int):
    """Emit the fetch of ``attr`` for a shader attribute of IR base ``base``
    (float/int/uint) with ``comps`` components; returns the value."""
    offset = b.iadd(b.imul(_element_index(b, attr), attr.stride_B), attr.offset_B)
    chans = _fetch(b, attr, offset)
    if attr.bgra and len(chans) >= 3:
        chans[0], chans[2] = chans[2], chans[0]
    if base == "float" and not attr.float_data:
        chans = [b.i2f32(c) if attr.signed else b.u2f32(c) for c in chans]
    elif base != "float" and attr.float_data:
        chans = [b.f2i32(c) for c in chans]
    one = b.fimm(1.0) if base == "float" else b.iimm(1)
    zero = b.fimm(0.0) if base == "float" else b.iimm(0)
    while len(chans) < 4:
        chans.append(one if len(chans) == 3 else zero)
    chans = chans[:comps]
    return b.vec(*chans) if comps > 1 else chans[0]
