"""Packed words remembered by their field values.

Sole responsibility: ``packed(what, **fields)`` gives ``uapi.packets.pack(what,
**fields)``, packing each distinct set of values once (or, for values with
integers that change, from a template: below). A run of draws packs the
same USC, PPP and VDM words with the same values draw after draw (only an
address or a count changes), and packing walks every field of the packet in
Python; the bytes depend on nothing but the packet and the values.

Invariant: two calls share bytes only when their values would pack identically.
A key holds each value's type beside it, floats (Python's and numpy's) by their
bits (``0.0 == -0.0`` and ``1 == 1.0 == True`` pack differently in places),
nested dicts (a group's members) and sequences by their items. A value that
cannot be part of a key (an array) is packed every time; values that do not
pack raise as ``pack`` does, and nothing is kept.

A packet whose integer fields change draw after draw (an address: each draw's
uniforms, tables and PPP state are uploaded afresh) misses that memo every time.
Its bytes are then its template's (the bytes of the same non-integer values,
packed once, with the integer fields cleared) with each integer field encoded by
its own ``Field.encode`` (range checks and modifiers included; for unsigned,
address and signed fields with no modifier, a ``minus`` or an ``shr``, the same
checks inlined, ``Field.encode`` raising for a value they refuse): the same bytes
as a full ``pack``, without walking every field of the packet. Those bytes are not
kept (an address rarely recurs, and the memo would fill and empty itself every
few draws). A group is its header (by which members are present) and its members,
each packed here; the group's own bytes are not kept.
"""

from __future__ import annotations

import struct

import numpy as np

from uapi import packets as P

__all__ = ["packed"]

#: Entries kept at most; the memo starts again empty when full.
MAX_ENTRIES = 8192

_PACKED: dict = {}
_F64 = struct.Struct("<d")


def _key(value):
    t = type(value)
    if t is int or t is bool or t is bytes or t is str:
        return t, value
    if t is float:
        return t, _F64.pack(value)
    if t is dict:
        return t, tuple((k, _key(v)) for k, v in value.items())
    if t is tuple or t is list:
        return t, tuple(_key(v) for v in value)
    if isinstance(value, np.generic):
        return t, value.tobytes()
    return t, value                      # enums and other hashable values; TypeError if not


def packed(what, **fields) -> bytes:
    """``P.pack(what, **fields)`` (``what``: a packet or group, or its name), packed
    once per distinct values."""
    if type(what) is P.Group or (type(what) is str and what in P.GROUPS):
        return _pack_group(P.lookup(what), fields)
    try:         # (an int's key inline: most fields are, and this runs for every packet of a draw)
        items = tuple([(k, (int, v)) if type(v) is int else (k, _key(v)) for k, v in fields.items()])
        key = (what, items)
        hit = _PACKED.get(key)
    except TypeError:                    # a value that cannot be a key
        return P.pack(what, **fields)
    if hit is None:
        hit, templated = _pack_from_template(what, fields, items)
        if not templated:       # (bytes made from a template are not kept: their addresses rarely recur,
            if len(_PACKED) >= MAX_ENTRIES:     # and the memo would fill and empty itself every few draws)
                _PACKED.clear()
            _PACKED[key] = hit
    return hit


_TEMPLATES: dict = {}


def _pack_from_template(what, fields: dict, items: tuple) -> tuple[bytes, bool]:
    """(``P.pack(what, **fields)``, whether from a template): a packet with integer fields
    from its template (the bytes for the same other values with those fields cleared,
    and how each integer field is encoded). ``items``: the fields' keys (``packed``'s)."""
    packet = P.lookup(what)
    if isinstance(packet, P.Group):
        return _pack_group(packet, fields), False
    tkey = (packet.name, tuple([(k, None) if kv[0] is int else (k, kv) for k, kv in items]))
    template = _TEMPLATES.get(tkey)
    if template is None:
        ints = [k for k, kv in items if kv[0] is int]
        raw = packet.pack(**fields)      # checks every name and value
        if not ints:
            return raw, False
        encoded = [packet.by_name[k] for k in ints]
        if any(f.exact is not None for f in encoded):
            return raw, False
        mask = 0
        for f in encoded:
            mask |= f.mask
        if len(_TEMPLATES) >= MAX_ENTRIES:
            _TEMPLATES.clear()
        _TEMPLATES[tkey] = (int.from_bytes(raw, "little") & ~mask, [_encoder(f) for f in encoded])
        return raw, False
    bits, encoders = template
    for name, start, shift, minus, lo, hi, f in encoders:
        v = fields[name]
        if shift is not None and lo <= (v := v - minus) and not v & shift[0] and (v := v >> shift[1]) < hi:
            bits |= (v & shift[2]) << start
        else:                            # a log2, enum or bool field, or a value out of range: raises
            bits |= f.encode(fields[name], packet.name) << start
    return bits.to_bytes(packet.size_B, "little"), True


def _pack_group(group, fields: dict) -> bytes:
    """A group's bytes: its header (by which members are present) and its members'
    records, each packed as a packet is here (the group as a whole is not kept: a
    member with an address would make every group a new entry)."""
    if not fields.keys() <= group.members.keys():
        return group.pack(**fields)      # (raises: no such member)
    out = [packed(group.header, **{m: True for m in group.members if m in fields})]
    for m, member in group.members.items():
        if m in fields:
            v = fields[m]
            out.append(packed(member, **v) if type(v) is dict else
                       bytes(v) if isinstance(v, (bytes, bytearray)) else member.pack(**v))
    return b"".join(out)


def _encoder(f) -> tuple:
    """(name, start, shift, minus, lo, hi, field) of an integer field: ``Field.encode`` of an
    int, inlined for unsigned, address and signed fields with no modifier, a ``minus`` or an ``shr``
    (shift = (low bits that must be clear, shift, the field's mask), lo..hi the encoded range
    before the mask); shift None: ``Field.encode`` itself."""
    m = f.modifier
    if f.type not in ("uint", "int", "address") or (m is not None and m.kind not in ("minus", "shr")):
        return f.name, f.start, None, 0, 0, 0, f
    minus = m.amount if m is not None and m.kind == "minus" else 0
    shr = m.amount if m is not None and m.kind == "shr" else 0
    if f.type == "int":
        lo, hi = -(1 << (f.size - 1)), 1 << (f.size - 1)
    else:
        lo, hi = 0, 1 << f.size
    if minus:
        lo = 0                            # (a minus modifier refuses values below its amount)
    return f.name, f.start, ((1 << shr) - 1, shr, (1 << f.size) - 1), minus, (lo << shr), hi, f
