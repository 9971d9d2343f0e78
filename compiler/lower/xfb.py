"""Transform feedback capture in the vertex shader (the GPU has no fixed-function
stream output; Mesa's asahi also lowers it to memory stores), used when the vertex
key carries ``key["xfb"]`` = tuple of ``XfbOutput``.

Each captured vertex of a non-indexed draw is record ``r = instance_id * count +
(vertex_id - base_vertex)`` of the draw, where ``count`` (vertices per instance) is
word 0 of buffer ``XFB_PARAMS`` (``load_ssbo``). Component ``c`` of an entry goes to
byte ``4 * (r * stride_dw + offset_dw + c)`` of buffer ``XFB_BUFFER_BASE + buffer``
(``store_ssbo``, 32-bit words): the driver binds those buffer indices to the
stream-output targets at their current write offset. Indexed draws are not
captured this way (a vertex shared by primitives runs once).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["XfbOutput", "XFB_BUFFER_BASE", "XFB_PARAMS", "emit_xfb"]

XFB_BUFFER_BASE = 48        # store_ssbo buffer index of stream-output buffer b: 48 + b (b < 4)
XFB_PARAMS = 52             # word 0: vertices per instance of the draw


@dataclass(frozen=True)
class XfbOutput:
    """One captured varying (a pipe StreamOutputInfo entry with the output's name)."""
    name: str               # GLSL name of the vertex output, or gl_Position / gl_PointSize
    component: int          # first component captured
    components: int
    buffer: int
    offset_dw: int          # in the vertex's record
    stride_dw: int          # the buffer's record size

    def __post_init__(self):
        assert 0 <= self.buffer < 4 and 1 <= self.components <= 4 and self.component + self.components <= 4


def emit_xfb(b, entries, value_of) -> None:
    """Emit the stores of ``entries``; ``value_of(name)`` -> (IR value, component
    count) of a vertex output, or None (then zeros are captured)."""
    if not entries:
        return
    count = b.load_ssbo(b.iimm(XFB_PARAMS), b.iimm(0), num_components=1, align=4)
    record = b.iadd(b.imul(b.load_instance_id(), count), b.isub(b.load_vertex_id(), b.load_base_vertex()))
    for e in entries:
        got = value_of(e.name)
        base = b.imul(record, 4 * e.stride_dw)
        for c in range(e.components):
            k = e.component + c
            if got is None or k >= got[1]:
                x = b.iimm(0)
            else:
                v, n = got
                x = b.channel(v, k) if n > 1 else v
            off = b.iadd(base, 4 * (e.offset_dw + c))
            b.store_ssbo(x, b.iimm(XFB_BUFFER_BASE + e.buffer), off, write_mask=1, align=4)
