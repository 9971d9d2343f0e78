"""uapi.drm.record_format: struct formats derived from the header's layouts agree with cffi."""

from __future__ import annotations

import random

import pytest

import uapi
from uapi.drm import record_format

ffi = uapi.ffi
RECORDS = ["struct drm_asahi_sync", "struct drm_asahi_cmd_header", "struct drm_asahi_attachment",
           "struct drm_asahi_cmd_feedback", "struct drm_syncobj_wait"]


@pytest.mark.parametrize("ctype", RECORDS)
def test_a_record_reads_and_packs_as_cffi_lays_it_out(ctype):
    fmt = record_format(ctype)
    assert fmt.size == ffi.sizeof(ctype)
    rng = random.Random(ctype)
    for _ in range(20):
        raw = bytes(rng.randrange(256) for _ in range(fmt.size))
        record = ffi.from_buffer(f"{ctype} *", raw)
        fields = [name for name, _ in ffi.typeof(ctype).fields]
        expected = tuple(getattr(record, name) for name in fields)
        assert fmt.unpack(raw) == expected             # signedness and offsets (timeout_nsec is signed)
        built = ffi.new(f"{ctype} *", dict(zip(fields, expected)))
        assert fmt.pack(*expected) == bytes(ffi.buffer(built))   # padding packs as zeros


def test_a_struct_with_other_fields_is_refused():
    with pytest.raises(TypeError, match="not an integer field"):
        record_format("struct drm_asahi_cmd_render")       # nested timestamp structs
