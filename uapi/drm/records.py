"""Flat UAPI records decoded with ``struct``, not one cffi struct per record.

Sole responsibility: :func:`record_format`, the ``struct.Struct`` of a header
struct made only of integer fields, derived from its cffi layout (the header is
the one source of offsets, sizes and signedness). Arrays of records (a SUBMIT's
syncs and attachments, its command headers, a feedback record) decode in one
``iter_unpack``/``unpack_from`` each. Imports nothing of ours but the header.
"""

from __future__ import annotations

import struct

from .header import ffi

__all__ = ["record_format"]

_INTEGER_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}


def record_format(ctype: str) -> struct.Struct:
    """A ``struct.Struct`` that reads a ``ctype`` record (a struct of integer fields)
    as the tuple of its fields in order (``ffi.typeof(ctype).fields``), and packs
    one from such a tuple: offsets, sizes, signedness and padding as the header lays
    them out. TypeError for a struct with any other kind of field."""
    kind = ffi.typeof(ctype)
    fmt, at = ["="], 0
    for name, field in kind.fields:
        if field.type.kind != "primitive" or field.bitsize != -1 or ffi.sizeof(field.type) not in _INTEGER_CODES:
            raise TypeError(f"{ctype}.{name} is not an integer field")
        size_B = ffi.sizeof(field.type)
        unsigned = int(ffi.cast(field.type, -1)) > 0
        if field.offset > at:
            fmt.append(f"{field.offset - at}x")
        code = _INTEGER_CODES[size_B]
        fmt.append(code.upper() if unsigned else code)
        at = field.offset + size_B
    if ffi.sizeof(kind) > at:
        fmt.append(f"{ffi.sizeof(kind) - at}x")
    return struct.Struct("".join(fmt))
