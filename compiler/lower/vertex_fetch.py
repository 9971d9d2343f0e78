"""Vertex attribute fetch in the shader (AGX has no fixed-function vertex fetch;
Mesa's agx_nir_lower_vbo), used when the vertex key carries the attribute
descriptors: ``key["vertex_attribs"]`` = tuple of ``VertexAttrib``.

For an attribute at a location with a descriptor, the element index is the vertex
id (divisor 0) or ``instance_id / divisor + base_instance``; the byte offset is
``offset_B + index * stride_B`` into vertex buffer ``buffer``; ``load_vbo`` reads
``components`` values in a uapi.isa memory format (the hardware converts
normalized and half formats to float, integer formats are raw and zero-extended);
the shader sign-extends, converts integers to float for float attributes, and fills
missing components with (0, 0, 0, 1). Attributes without a descriptor stay
``load_input`` (slot ``ATTR<loc>``) for the driver to provide.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["VertexAttrib", "FORMATS", "fetch_attribute"]

# GL component type -> (memory format when normalized, when not, bits, signed)
FORMATS = {
    "float": ("i32", "i32", 32, True), "half": ("f16", "f16", 16, True),
    "byte": ("snorm8", "i8", 8, True), "ubyte": ("unorm8", "i8", 8, False),
    "short": ("snorm16", "i16", 16, True), "ushort": ("unorm16", "i16", 16, False),
    "int": ("i32", "i32", 32, True), "uint": ("i32", "i32", 32, False),
}


@dataclass(frozen=True)
class VertexAttrib:
    """One vertex attribute's array (glVertexAttribPointer state at draw time)."""
    location: int
    buffer: int
    format: str = "float"
    components: int = 4
    normalized: bool = False
    offset_B: int = 0
    stride_B: int = 16
    divisor: int = 0

    def __post_init__(self):
        assert self.format in FORMATS, f"unknown attribute format {self.format!r}"
        assert 1 <= self.components <= 4, "attributes have 1-4 components"


def fetch_attribute(b, attr: VertexAttrib, base: str, comps: int):
    """Emit the fetch of ``attr`` for a shader attribute of IR base ``base``
    (float/int/uint) with ``comps`` components; returns the value."""
    if attr.divisor == 0:
        index = b.load_vertex_id()
    else:
        d = attr.divisor
        inst = b.load_instance_id()
        step = b.ushr(inst, d.bit_length() - 1) if d & (d - 1) == 0 else b.udiv(inst, d)
        index = b.iadd(step, b.load_base_instance())
    offset = b.iadd(b.imul(index, attr.stride_B), attr.offset_B)
    norm_fmt, raw_fmt, bits, signed = FORMATS[attr.format]
    fmt = norm_fmt if attr.normalized or attr.format in ("float", "half") else raw_fmt
    n = attr.components
    v = b.intrinsic("load_vbo", offset, num_components=n, buffer=attr.buffer, format=fmt)
    if fmt in ("i8", "i16") and signed:
        v = b.ibitfield_extract(v, 0, bits)              # sign-extend the zero-extended raw value
    is_float_data = attr.format in ("float", "half") or attr.normalized
    if base == "float" and not is_float_data:
        v = b.i2f32(v) if signed else b.u2f32(v)
    chans = [b.channel(v, i) for i in range(n)] if n > 1 else [v]
    one = b.fimm(1.0) if base == "float" else b.iimm(1)
    zero = b.fimm(0.0) if base == "float" else b.iimm(0)
    while len(chans) < 4:
        chans.append(one if len(chans) == 3 else zero)
    chans = chans[:comps]
    return b.vec(*chans) if comps > 1 else chans[0]
