"""MemoryImage against a byte-by-byte reference; merge_ranges against a set of bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drmshim.capture.memimage import PAGE_SIZE_B, MappingInfo, MemoryImage, NotCaptured, merge_ranges

PAGE = PAGE_SIZE_B


def _reference(mappings, objects, ranges) -> dict[int, int]:
    """va -> byte, the obvious way: objects through mappings, then ranges on top."""
    out = {}
    for m in mappings:
        data = objects.get(m.gem)
        if data is None:
            continue
        for va in range(m.va, m.end):
            off = m.gem_offset_B + ((va - m.va) % PAGE if m.single_page else va - m.va)
            out[va] = data[off]
    for va, data in ranges:
        for i, b in enumerate(data):
            out[va + i] = b
    return out


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_reads_match_the_reference(data):
    objects = {1: bytes(range(256)) * (2 * PAGE // 256), 2: bytes(255 - b for b in range(256)) * (PAGE // 256)}
    mappings = [MappingInfo(0x10 * PAGE, 2 * PAGE, 1, 0),
                MappingInfo(0x12 * PAGE, 3 * PAGE, 2, 0, single_page=True),
                MappingInfo(0x20 * PAGE, PAGE, 3, 0)]  # object 3 not saved
    if data.draw(st.booleans()):
        mappings.append(MappingInfo(0x16 * PAGE, PAGE, 1, PAGE))
    ranges = [(0x11 * PAGE + 100, bytes([7]) * 300), (0x20 * PAGE + 8, b"saved")]
    image = MemoryImage(mappings, objects, ranges)
    ref = _reference(mappings, objects, ranges)
    va = data.draw(st.integers(0x0F * PAGE, 0x21 * PAGE))
    n = data.draw(st.integers(0, 3 * PAGE))
    if all(v in ref for v in range(va, va + n)):
        assert image.read_bytes(va, n) == bytes(ref[v] for v in range(va, va + n))
    else:
        with pytest.raises(NotCaptured):
            image.read_bytes(va, n)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 5000)), max_size=12), st.sampled_from([1, 64, 4096]))
def test_merge_ranges_covers_exactly_the_aligned_bytes(ranges, align):
    merged = merge_ranges(ranges, align)
    want = set()
    for va, n in ranges:
        if n:
            want.update(range(va // align * align, -(-(va + n) // align) * align))
    got = set()
    for va, n in merged:
        assert va % align == 0 and n % align == 0 and n > 0
        got.update(range(va, va + n))
    assert got == want
    assert all(a[0] + a[1] < b[0] for a, b in zip(merged, merged[1:]))  # sorted, disjoint, not touching
