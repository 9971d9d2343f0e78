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
few draws). ``packer(what, *names, **fixed)`` gives a call site that packs the same
packet draw after draw with only the integer fields ``names`` changing the
template's encoding directly (no key built, no memo looked up): the same bytes as
``packed``. A group is its header (by which members are present) and its members,
each packed here; the group's own bytes are not kept.
"""

from __future__ import annotations

import struct

import numpy as np

from uapi import packets as P

__all__ = ["packed", "packer"]

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
        raw, template = _template_of(packet, fields, tuple(k for k, kv in items if kv[0] is int))
        if template is not None:
            if len(_TEMPLATES) >= MAX_ENTRIES:
                _TEMPLATES.clear()
            _TEMPLATES[tkey] = template
        return raw, False
    bits, encoders, _, _ = template
    for name, start, shift, minus, lo, hi, f in encoders:
        v = fields[name]
        if shift is not None and lo <= (v := v - minus) and not v & shift[0] and (v := v >> shift[1]) < hi:
            bits |= (v & shift[2]) << start
        else:                            # a log2, enum or bool field, or a value out of range: raises
            bits |= f.encode(fields[name], packet.name) << start
    return bits.to_bytes(packet.size_B, "little"), True


class _Packer:
    """``packer``'s function: the bits and integer encoders of the template of ``what``
    with ``fixed`` (made from the first call's values, by ``_pack_from_template``'s
    rules), each call encoding only the ``names`` fields; ``packed`` itself for a
    value that is not an int, a packet no template serves, or before the template."""

    __slots__ = ("what", "names", "fixed", "template")

    def __init__(self, what, names: tuple, fixed: dict):
        self.what, self.names, self.fixed, self.template = what, names, fixed, None

    def __call__(self, *values) -> bytes:
        template = self.template
        if template and len(values) == len(self.names):
            bits, encoders, size_B, name = template
            for value, (_, start, shift, minus, lo, hi, f) in zip(values, encoders):
                if type(value) is not int:
                    break                # (packed below)
                if shift is not None and lo <= (v := value - minus) and not v & shift[0] and (v := v >> shift[1]) < hi:
                    bits |= (v & shift[2]) << start
                else:                    # a log2, enum or bool field, or a value out of range: raises
                    bits |= f.encode(value, name) << start
            else:
                return bits.to_bytes(size_B, "little")
        if len(values) != len(self.names):
            raise TypeError(f"{self.what}: {len(self.names)} values expected ({self.names}), got {len(values)}")
        fields = dict(self.fixed, **dict(zip(self.names, values)))
        if template is None and all(type(v) is int for v in values):
            raw, self.template = _template_of(self.what, fields, self.names)
            self.template = self.template or False
            return raw
        return packed(self.what, **fields)


def _template_of(what, fields: dict, names: tuple) -> tuple[bytes, tuple | None]:
    """(``P.pack(what, **fields)``, the template: (bits with the ``names`` fields cleared,
    their encoders in that order, bytes, packet name), or None when no template serves:
    a group, no such field, a field with an exact value). Raises as ``pack`` does."""
    packet = P.lookup(what)
    if isinstance(packet, P.Group):
        return _pack_group(packet, fields), None
    raw = packet.pack(**fields)          # checks every name and value
    encoded = [packet.by_name[k] for k in names]
    if not encoded or any(f.exact is not None for f in encoded):
        return raw, None
    mask = 0
    for f in encoded:
        mask |= f.mask
    return raw, (int.from_bytes(raw, "little") & ~mask, [_encoder(f) for f in encoded], packet.size_B, packet.name)


def packer(what, *names: str, **fixed):
    """A function of the integer fields ``names`` (positional, in that order) giving
    ``packed(what, **fixed, **{names: values})``, the same bytes, for a call site that
    packs ``what`` with the same ``fixed`` values draw after draw and only ``names``
    changing (addresses, counts). For a group, ``names`` are ``"member.field"``
    of one member, ``fixed`` its members' fields. Raises as ``pack`` does."""
    group = P.lookup(what) if type(what) is str and what in P.GROUPS else what
    if type(group) is P.Group:
        return _GroupPacker(group, tuple(names), dict(fixed))
    return _Packer(what, tuple(names), dict(fixed))


def _pack_group(group, fields: dict) -> bytes:
    """A group's bytes: its header (by which members are present) and its members'
    records, each packed as a packet is here (the group as a whole is not kept: a
    member with an address would make every group a new entry)."""
    if not fields.keys() <= group.members.keys():
        return group.pack(**fields)      # (raises: no such member)
    return b"".join(record for _, record in _group_records(group, fields))


def _group_records(group, fields: dict) -> list:
    """(member name or None for the header, bytes) of each record of a group, in order."""
    out = [(None, packed(group.header, **{m: True for m in group.members if m in fields}))]
    for m, member in group.members.items():
        if m in fields:
            v = fields[m]
            out.append((m, packed(member, **v) if type(v) is dict else
                        bytes(v) if isinstance(v, (bytes, bytearray)) else member.pack(**v)))
    return out


class _GroupPacker:
    """``packer``'s function for a group whose integer fields ``names`` are all of one
    member (``"member.field"``): the records of the first call's values once, that
    member's record from its own ``packer`` on each call."""

    __slots__ = ("group", "member", "names", "fixed", "records", "at", "member_packer")

    def __init__(self, group, names: tuple, fixed: dict):
        members = {n.partition(".")[0] for n in names}
        if len(members) != 1 or not all("." in n for n in names):
            raise ValueError(f"{group.name}: packer names must be fields of one member, got {names}")
        (self.member,) = members
        if self.member not in group.members:
            raise ValueError(f"{group.name} has no member {self.member!r}")
        self.group, self.names, self.fixed, self.records = group, names, fixed, None
        self.member_packer = packer(group.members[self.member], *(n.partition(".")[2] for n in names),
                                    **fixed.get(self.member, {}))

    def __call__(self, *values) -> bytes:
        record = self.member_packer(*values)             # checks the values (raises as pack does)
        if self.records is None:
            fields = dict(self.fixed)
            fields[self.member] = dict(fields.get(self.member, {}),
                                       **{n.partition(".")[2]: v for n, v in zip(self.names, values)})
            if not fields.keys() <= self.group.members.keys():
                return self.group.pack(**fields)         # (raises: no such member)
            records = _group_records(self.group, fields)
            self.at = [m for m, _ in records].index(self.member)
            self.records = [r for _, r in records]
        records = self.records
        return b"".join((*records[:self.at], record, *records[self.at + 1:]))


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
