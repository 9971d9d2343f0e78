"""Packed words remembered by their field values.

Sole responsibility: ``packed(what, **fields)`` gives ``uapi.packets.pack(what,
**fields)``, packing each distinct set of values once. A run of draws packs the
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
its own ``Field.encode`` (range checks and modifiers included): the same bytes as
a full ``pack``, without walking every field of the packet.
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
    try:
        key = (what, tuple((k, _key(v)) for k, v in fields.items()))
        hit = _PACKED.get(key)
    except TypeError:                    # a value that cannot be a key
        return P.pack(what, **fields)
    if hit is None:
        hit = _pack_from_template(what, fields)
        if len(_PACKED) >= MAX_ENTRIES:
            _PACKED.clear()
        _PACKED[key] = hit
    return hit


_TEMPLATES: dict = {}


def _pack_from_template(what, fields: dict) -> bytes:
    """``P.pack(what, **fields)``: a packet with integer fields from its template (the
    bytes for the same other values with those fields cleared, and their Fields)."""
    packet = P.lookup(what)
    if isinstance(packet, P.Group):      # its members' records, each packed as a packet is here
        return packet.pack(**{m: packed(packet.members[m], **v) if type(v) is dict else v
                              for m, v in fields.items() if m in packet.members} |
                           {m: v for m, v in fields.items() if m not in packet.members})
    ints = [k for k, v in fields.items() if type(v) is int]
    if not ints:
        return packet.pack(**fields)
    tkey = (packet.name, tuple((k, None if type(v) is int else _key(v)) for k, v in fields.items()))
    template = _TEMPLATES.get(tkey)
    if template is None:
        raw = packet.pack(**fields)      # checks every name and value
        encoded = [packet.by_name[k] for k in ints]
        if any(f.exact is not None for f in encoded):
            return raw
        mask = 0
        for f in encoded:
            mask |= f.mask
        if len(_TEMPLATES) >= MAX_ENTRIES:
            _TEMPLATES.clear()
        _TEMPLATES[tkey] = (int.from_bytes(raw, "little") & ~mask, encoded)
        return raw
    bits, encoded = template
    for f in encoded:
        bits |= f.encode(fields[f.name], packet.name) << f.start
    return bits.to_bytes(packet.size_B, "little")
