"""Transform feedback capture in the vertex shader (the GPU has no fixed-function
stream output; Mesa's asahi also lowers it to memory stores), used when the vertex
key carries ``key["xfb"]`` = tuple of ``XfbOutput``.

The GPU shades each distinct vertex of a draw once, but transform feedback records
a vertex once per primitive that uses it, in primitive order (strips, fans, loops
and indexed draws decomposed into independent points, lines or triangles). So the
driver writes, per draw, a *record table* into buffer ``XFB_PARAMS`` (32-bit words):

====== ===============================================================
word 0 records per instance (``count``)
word 1 records that fit in every bound buffer (``limit``): later ones are dropped
word 2 first vertex id of the table (``lo``)
word 3 word index of the positions list (``positions``)
4 + k  first entry in the positions list of vertex ``lo + k``; entry ``4 + k + 1``
       ends it (so vertex ``v`` is recorded at positions ``[start, end)``)
====== ===============================================================

Vertex ``v`` of instance ``i`` then writes record ``r = i * count + p`` for each of
its positions ``p`` with ``r < limit``: component ``c`` of an entry goes to byte
``4 * (r * stride_dw + offset_dw + c)`` of buffer ``XFB_BUFFER_BASE + buffer``
(``store_ssbo``, 32-bit words), which the driver binds at the target's current
write offset.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["XfbOutput", "XfbPlace", "XFB_BUFFER_BASE", "XFB_PARAMS", "XFB_TABLE_WORD", "emit_xfb",
           "output_locations"]

XFB_BUFFER_BASE = 48        # store_ssbo buffer index of stream-output buffer b: 48 + b (b < 4)
XFB_PARAMS = 52             # the record table above
XFB_TABLE_WORD = 4          # first per-vertex start word of the table


@dataclass(frozen=True)
class XfbOutput:
    """One captured location of a varying (a pipe StreamOutputInfo entry with the output's name).

    ``slot`` is the location within the output: the column of a matrix, the element of
    an array (times the columns of its matrices). ``component`` counts 32-bit words of
    that value: a dvec3/dvec4 column is 6/8 words, captured as two entries of at most 4."""
    name: str               # GLSL name of the vertex output, or gl_Position / gl_PointSize / gl_ClipDistance
    component: int          # first component captured
    components: int
    buffer: int
    offset_dw: int          # in the vertex's record
    stride_dw: int          # the buffer's record size
    slot: int = 0

    def __post_init__(self):
        assert 0 <= self.buffer < 4 and 1 <= self.components <= 4 and self.component + self.components <= 8, \
            f"bad stream output entry {self}"


@dataclass(frozen=True)
class XfbPlace:
    """A part of an output variable (a member of a block instance): its deref and IR type."""
    deref: object
    type: object


def output_locations(b, var) -> list:
    """The per-location values ``[(IR value, components), ...]`` of an output variable
    (or an ``XfbPlace``) of several locations (a matrix is an array of column vectors;
    arrays nest; a block instance gives its members' locations in declaration order)."""
    from compiler.ir.types import ArrayType, StructType
    out = []

    def walk(deref, t):
        if isinstance(t, ArrayType):
            for k in range(t.length):
                walk(b.deref_array(deref, k), t.element)
        elif isinstance(t, StructType):          # an interface block instance: members in order
            for k, (_name, ft) in enumerate(t.fields):
                walk(b.deref_struct(deref, k), ft)
        else:
            out.append((b.load_deref(deref), t.components))
    if isinstance(var, XfbPlace):
        walk(var.deref, var.type)
    else:
        walk(b.deref_var(var), var.type)
    return out


def _words(b, value) -> tuple:
    """A 64-bit value as (the list of its 32-bit words, low word first; their count): a
    dvec3 or dvec4 is 6 or 8 words, more than an IR vector holds."""
    n = value.num_components
    words = []
    for k in range(n):
        c = b.channel(value, k) if n > 1 else value
        words += [b.unpack_64_2x32_split_x(c), b.unpack_64_2x32_split_y(c)]
    return words, len(words)


def _word(b, index):
    """Word ``index`` (an IR value) of the record table."""
    return b.load_ssbo(b.iimm(XFB_PARAMS), b.imul(index, 4), num_components=1, align=4)


def emit_xfb(b, entries, value_of) -> None:
    """Emit the stores of ``entries``; ``value_of(name)`` -> (IR value, component count)
    of a vertex output, or its IR variable (``XfbPlace``) when it spans several locations
    (then ``output_locations`` reads each), or None (then zeros are captured)."""
    if not entries:
        return
    values = {}
    for e in entries:
        if e.name not in values:
            got = value_of(e.name)
            values[e.name] = [got] if got is None or isinstance(got, tuple) else output_locations(b, got)
    count = _word(b, b.iimm(0))
    limit = _word(b, b.iimm(1))
    lo = _word(b, b.iimm(2))
    positions = _word(b, b.iimm(3))
    k = b.iadd(b.isub(b.load_vertex_id(), lo), XFB_TABLE_WORD)
    start = _word(b, k)
    end = _word(b, b.iadd(k, 1))
    first_record = b.imul(b.load_instance_id(), count)
    from compiler.ir.types import VecType
    j = b.local_var("xfb.position", VecType("uint", 32, 1))
    b.store_var(j, start)
    loop = b.push_loop()
    jv = b.load_var(j)
    done = b.push_if(b.uge(jv, end))
    b.break_()
    b.pop_if(done)
    record = b.iadd(first_record, _word(b, b.iadd(positions, jv)))
    fits = b.push_if(b.ult(record, limit))
    for e in entries:
        locs = values[e.name]
        got = locs[e.slot] if e.slot < len(locs) else None
        if got is not None and getattr(got[0], "bit_size", 32) == 64:
            got = _words(b, got[0])             # doubles (int64) are captured as 32-bit words, low first
        base = b.imul(record, 4 * e.stride_dw)
        for c in range(e.components):
            kc = e.component + c
            if got is None or kc >= got[1]:
                x = b.iimm(0)
            else:
                v, n = got
                x = v[kc] if isinstance(v, list) else b.channel(v, kc) if n > 1 else v
            off = b.iadd(base, 4 * (e.offset_dw + c))
            b.store_ssbo(x, b.iimm(XFB_BUFFER_BASE + e.buffer), off, write_mask=1, align=4)
    b.pop_if(fits)
    b.store_var(j, b.iadd(jv, 1))
    b.pop_loop(loop)
