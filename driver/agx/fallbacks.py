"""The draw path's CPU fallbacks, in one place, each counted (Mesa's perf_debug).

Sole responsibility: the few things encoding a draw still does on the CPU because
the GPU model has no unit or kernel for them yet. Each reads memory the GPU may be
writing, so it first waits for that work (``AgxContext._sync_resource``): a stall
of the whole pipeline. Every call counts its kind in ``COUNTS``; with
``SHIMGL_DEBUG=perf`` the first use of each kind prints one line to stderr.

Kinds:
- ``indices``: the index list read back to be rewritten (quads and quad strips
  into triangles, adjacency primitives without a geometry stage into their base
  primitives) when primitive restart is on, or when the draw's own render batch
  writes the index buffer, or to build transform feedback's record table; every
  other indexed rewrite is a gather kernel on the GPU (``index_rewrite.py``);
- ``indirect``: the records (and an ARB_indirect_parameters draw count) of the
  indirect draws the VDM cannot take as they are (quads and adjacency rewritten
  into other primitives, transform feedback's records, client indices, a
  driver-built vertex shader that cannot fetch its attributes); every other
  indirect draw has the VDM read its record (``VDM_INDEX_LIST.indirect``), a draw
  count filtering the records on the GPU (``index_rewrite.filter_records``);
- ``constants``: a default uniform block bound as a GPU buffer read back to fill
  the uniform registers (the GL front end binds client memory, which needs no wait);
- ``attributes``: attribute rows converted for a driver-built shader that cannot
  fetch for itself (user shaders fetch every format in the shader,
  ``compiler/lower/vertex_fetch.py``).
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np

import layout
import uapi

__all__ = ["COUNTS", "note", "read_indices", "read_indirect", "read_word", "read_bytes", "attribute_rows"]

#: uses per kind since the process started
COUNTS: Counter = Counter()
_REASONS = {
    "indices": "index list read back on the CPU (quads, adjacency or transform feedback records)",
    "indirect": "indirect draw parameters read back on the CPU",
    "constants": "a default uniform block read back from a GPU buffer",
    "attributes": "vertex attributes converted on the CPU for a driver shader",
}


def note(kind: str) -> None:
    """Count one use of fallback ``kind``; the first one prints under SHIMGL_DEBUG=perf."""
    assert kind in _REASONS, f"unknown fallback {kind!r}"
    COUNTS[kind] += 1
    if COUNTS[kind] == 1 and "perf" in uapi.debug_flags():
        print(f"shimgl perf: {_REASONS[kind]} (stalls on the GPU)", file=sys.stderr)


_INDEX_DT = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def read_indices(ctx, info, start: int, count: int) -> np.ndarray:
    """Indices [start, start + count) of the draw's index buffer as int64 (a list
    in client memory is read as it is and counts as no fallback: nothing on the GPU
    to wait for)."""
    dt = _INDEX_DT[info.index_size]
    if info.index_user_buffer is not None:
        raw = np.frombuffer(bytes(info.index_user_buffer), dt)
    else:
        note("indices")
        ctx._sync_resource(info.index_resource, write=False)
        raw = np.frombuffer(info.index_resource.bo.map, dt)
    return raw[start:start + count].astype(np.int64)


def read_indirect(ctx, ind, indexed: bool) -> list[np.ndarray]:
    """The ``ind.draw_count`` records of an indirect draw buffer (5 words when
    ``indexed``: count, instances, first, bias, base instance; else 4: count,
    instances, first, base instance), each as int64 words."""
    note("indirect")
    ctx._sync_resource(ind.buffer, write=False)
    n = 5 if indexed else 4
    stride = ind.stride_B or 4 * n
    words = np.frombuffer(ind.buffer.bo.map, np.uint32)
    return [words[(ind.offset_B + k * stride) // 4:(ind.offset_B + k * stride) // 4 + n].astype(np.int64)
            for k in range(ind.draw_count)]


def read_word(ctx, resource, offset_B: int) -> int:
    """The uint32 at ``offset_B`` of a buffer (an indirect draw count)."""
    note("indirect")
    ctx._sync_resource(resource, write=False)
    return int(np.frombuffer(resource.bo.map, np.uint32)[offset_B // 4])


def read_bytes(ctx, resource, offset_B: int, size_B: int) -> bytes:
    """Bytes [offset_B, offset_B + size_B) of a buffer (a default uniform block)."""
    note("constants")
    ctx._sync_resource(resource, write=False)
    return bytes(resource.bo.map[offset_B:offset_B + size_B])


def attribute_rows(ctx, fmt_name: str, el, vb, rows: range, comps: int, want_int: bool) -> np.ndarray:
    """Rows of one attribute (layout format ``fmt_name``) converted to ``comps``
    32-bit words, missing components (0, 0, 0, 1); rows past the buffer read zeros."""
    note("attributes")
    f = layout.get_format(fmt_name)
    bpp = f.block_size_B
    n = len(rows)
    if vb.user_buffer is not None:
        src = np.frombuffer(bytes(vb.user_buffer), np.uint8)
    else:
        ctx._sync_resource(vb.resource, write=False)
        src = np.frombuffer(vb.resource.bo.map, np.uint8)
    offs = vb.offset_B + el.src_offset_B + np.arange(rows.start, rows.stop, dtype=np.int64) * el.src_stride_B
    idx = offs[:, None] + np.arange(bpp)
    valid = (idx < src.size).all(axis=1)
    raw = np.zeros((n, bpp), np.uint8)
    raw[valid] = src[idx[valid]]
    rgba = layout.unpack(fmt_name, raw)
    out = np.zeros((n, 4), np.uint32)
    if want_int:
        out[:] = rgba.astype(np.int64).astype(np.uint32)
        out[:, 3] = np.where(len(f.channels) >= 4, out[:, 3], 1)
    else:
        out[:] = rgba.astype(np.float32).view(np.uint32)
    return np.ascontiguousarray(out[:, :comps])
