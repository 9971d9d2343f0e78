"""uapi.packets: the GPU command-stream packet table (VDM, CDM, PPP state, USC words,
coefficient-register bindings, texture/sampler/PBE descriptors, ZLS control), with
pack, unpack and format generated from it, and a forgiving stream walker.

Each packet is described once in ``defs.py``; ``table.py`` generates the rest;
``walker.py`` walks VDM/CDM streams. Layouts are drawn in ``README.md``.

    >>> from uapi import packets as P
    >>> P.pack("VDM_TERMINATE")
    b'\\x00\\x00\\x00\\xc0'
    >>> P.unpack(P.SAMPLER, P.pack(P.SAMPLER, wrap_s="MIRRORED_REPEAT")).wrap_s
    <Wrap.MIRRORED_REPEAT: 2>
"""

from . import defs as _defs
from . import table as _table
from . import walker as _walker
from .defs import *  # noqa: F401,F403 - the table's names are the public API
from .table import (GROUPS, PACKETS, Field, Group, GroupRecord, Packet, Record, bytes_to_words,
                    format_record, lookup, pack, print_record, unpack, words_to_bytes)
from .walker import (CDM_STREAM, USC_STREAM, VDM_STREAM, Stream, StreamItem, decode_cf_bindings,
                     decode_ppp_state, decode_usc_words, format_stream, memory_reader, walk_cdm, walk_vdm)

format = format_record  # noqa: A001 - "print/format(record)" of the table, by its short name

__all__ = list(_defs.__all__) + [
    "Field", "Packet", "Group", "Record", "GroupRecord", "PACKETS", "GROUPS",
    "pack", "unpack", "format", "format_record", "print_record", "lookup", "words_to_bytes", "bytes_to_words",
    "Stream", "StreamItem", "VDM_STREAM", "CDM_STREAM", "USC_STREAM", "walk_vdm", "walk_cdm",
    "decode_usc_words", "decode_ppp_state", "decode_cf_bindings", "format_stream", "memory_reader",
]
del _table, _walker
