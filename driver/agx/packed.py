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
        hit = P.pack(what, **fields)
        if len(_PACKED) >= MAX_ENTRIES:
            _PACKED.clear()
        _PACKED[key] = hit
    return hit
