"""VDM: the vertex data master. Walks a render command's VDM control stream,
keeps the state it sets, fetches indices and runs vertex shading in bulk.

State: ``VDM_STATE`` binds the vertex pipeline (USC words) and its output count;
``VDM_PPP_STATE_UPDATE`` merges a ``PPP_STATE`` group into the current PPP state
(only the records present change). Each ``VDM_INDEX_LIST`` is a draw that
snapshots both.

A draw: indices (8/16/32-bit, from ``index_buffer``; reads past
``index_buffer_size_B`` give 0) or consecutive vertex ids; primitive restart
(``restart_index`` compared with the index at its size); ``base_vertex`` added to
every index (or the first vertex); ``instances`` from ``base_instance``; indirect
draws read GL's ``Draw*Indirect`` records. The distinct vertex ids of the draw
are shaded once per instance, all lanes in one shader-core run (a part of the
instances, from ``first_instance``, when the vertex half splits a draw).

Vertex shader ABI: special registers ``vertex_id`` (index + base vertex) and
``instance_id`` (0-based, as gl_InstanceID); preloaded r1 = base_instance (so
attribute fetch with divisors computes ``base_instance + instance_id / divisor``
itself, also for indirect draws) and r2 = the base vertex of an indexed draw, 0 for
a non-indexed one (GL's gl_BaseVertex: ``base_vertex`` is then the first vertex,
which vertex_id already counts from);
outputs with ``st_var`` in the notes' order (position x, y, z, w first).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from uapi import packets as P

from ..usc import ExecContext
from .streams import walk
from .scratch import run_program
from .usc_words import ShaderPipeline, decoded, read_pipeline, read_words

__all__ = ["Draw", "walk_draws", "shade_vertices", "VertexBatch"]

INDEX_BYTES = {P.IndexSize.U8: 1, P.IndexSize.U16: 2, P.IndexSize.U32: 4}
INDEX_DTYPES = {1: "<u1", 2: "<u2", 4: "<u4"}


@dataclass
class Draw:
    """One draw with the state in force when the VDM reached it."""

    index: int                      # draw number within the command
    va: int                         # address of its VDM_INDEX_LIST
    record: object                  # the VDM_INDEX_LIST record
    vertex_pipeline: int            # USC words of the vertex shader
    output_count_words: int
    ppp: dict = field(default_factory=dict)   # PPP_STATE member name -> record
    count: int = 0
    instances: int = 1
    first_index: int = 0
    base_vertex: int = 0
    base_instance: int = 0
    statistics_va: int = 0          # VDM_STATE_STATISTICS counters (0: none)
    # a part of a draw with many instances (the vertex half shades such a draw in
    # parts): the instances and the primitives of the parts before this one
    first_instance: int = 0
    first_primitive: int = 0
    # the fragment shader's coefficient bindings, read once (ppp.draw_cf_bindings)
    cf_bindings: tuple | None = field(default=None, repr=False, compare=False)


@dataclass
class VertexBatch:
    """The shaded vertices of a draw and how the draw's index stream reaches them.

    ``outputs`` uint32[n_outputs, lanes]; ``stream`` int64: the lane of each
    element of the draw's vertex stream, instance after instance, with -1 where a
    primitive restarts (restart markers and instance boundaries).
    """

    outputs: np.ndarray
    stream: np.ndarray
    lanes: int


def walk_draws(memory, stream_va: int) -> list[Draw]:
    """Walk the VDM stream; every draw with its state snapshot (unit VDM)."""
    draws: list[Draw] = []
    vertex_pipeline, outputs, statistics = 0, 0, 0
    ppp: dict = {}
    for va, rec in walk(memory, stream_va, P.VDM_STREAM, "VDM"):
        if isinstance(rec, P.GroupRecord):      # VDM_STATE
            vs = rec.members.get("vertex_shader")
            if vs is not None:
                vertex_pipeline = vs.pipeline
            vo = rec.members.get("vertex_outputs")
            if vo is not None:
                outputs = vo.output_count_words
            st = rec.members.get("statistics")
            if st is not None:
                statistics = st.counters
            continue
        if rec.name == "VDM_PPP_STATE_UPDATE":
            state = decoded(P.PPP_STATE, memory.read(rec.state, 4 * rec.size_words, "PPP").tobytes())
            ppp = {**ppp, **state.members}
        elif rec.name == "VDM_INDEX_LIST":
            d = Draw(len(draws), va, rec, vertex_pipeline, outputs, dict(ppp), count=rec.count,
                     instances=rec.instances, base_vertex=rec.base_vertex, base_instance=rec.base_instance,
                     statistics_va=statistics)
            if rec.indirect:
                n = 5 if rec.indexed else 4
                w = read_words(memory, rec.indirect_buffer, n, "VDM").astype(np.int64)
                d.count, d.instances = int(w[0]), int(w[1])
                if rec.indexed:
                    d.first_index, d.base_vertex = int(w[2]), int(np.int32(np.uint32(w[3])))
                    d.base_instance = int(w[4])
                else:
                    d.base_vertex, d.base_instance = int(w[2]), int(w[3])
            draws.append(d)
    return draws


def _indices(memory, draw: Draw) -> tuple[np.ndarray, np.ndarray | None]:
    """(vertex ids int64, restart mask or None) of one instance's stream."""
    rec = draw.record
    n = draw.count
    if not rec.indexed:
        return draw.base_vertex + np.arange(n, dtype=np.int64), None
    size = INDEX_BYTES[rec.index_size]
    start_B = draw.first_index * size
    avail = max(0, min(n, (rec.index_buffer_size_B - start_B) // size)) if rec.index_buffer_size_B else n
    raw = np.zeros(n, np.int64)
    if avail:
        data = memory.read(rec.index_buffer + start_B, avail * size, "VDM")
        raw[:avail] = data.view(INDEX_DTYPES[size])
    restart = None
    if rec.restart_enable:
        restart = raw == (rec.restart_index & ((1 << (8 * size)) - 1))
    return raw + draw.base_vertex, restart


def shade_vertices(core, memory, draw: Draw, sampler_heap_va: int) -> VertexBatch:
    """Run the vertex shader over the distinct vertices of every instance."""
    small = _small(draw)
    if small is not None:
        ids, nu, per_instance, uniq, block = small
    else:
        ids, restart = _indices(memory, draw)
        nu, per_instance, uniq = _lanes_of(ids, restart, draw.record.indexed)
        block = None
    ni = max(draw.instances, 0)
    lanes = nu * ni
    pipe: ShaderPipeline = read_pipeline(memory, draw.vertex_pipeline, "VDM", sampler_heap_va)
    n_out = max(draw.output_count_words, pipe.output_count_words, 4)
    if lanes == 0:
        return VertexBatch(np.zeros((n_out, 0), np.uint32), np.zeros(0, np.int64), 0)
    if ni == 1:
        vertex_id = uniq.astype(np.uint32)
        instance_id = np.full(nu, np.uint32(draw.first_instance & 0xFFFFFFFF), np.uint32)
    else:
        vertex_id = np.tile(uniq, ni).astype(np.uint32)
        instance_id = np.repeat(np.arange(draw.first_instance, draw.first_instance + ni,
                                          dtype=np.int64).astype(np.uint32), nu)
    ctx = ExecContext(
        lanes=lanes, n_varyings=n_out, specials={"vertex_id": vertex_id, "instance_id": instance_id},
        preload={1: np.uint32(draw.base_instance),
                 2: np.uint32(np.int64(draw.base_vertex if draw.record.indexed else 0) & 0xFFFFFFFF)},
        **_fragment_outputs(lanes), **pipe.context_fields())
    run_program(core, pipe, ctx)
    # the stream of lanes: instance i uses lanes i*nu + inverse, instances split by restarts
    if block is None:
        block = np.concatenate([per_instance, [-1]])
    if ni == 1:
        return VertexBatch(ctx.varyings, block, lanes)
    offsets = np.repeat(np.arange(ni, dtype=np.int64) * nu, len(block))
    stream = np.tile(block, ni)
    stream = np.where(stream >= 0, stream + offsets, -1)
    return VertexBatch(ctx.varyings, stream, lanes)


#: Draws of at most this many vertices (non-indexed) take their lane arrays from
#: ``_small`` (read-only, shared: one set per count).
SMALL_DRAW_VERTICES = 64
_SMALL: dict = {}


def _small(draw: Draw):
    """(vertex ids, lanes, the lane of each stream entry, vertex ids in lane order,
    the stream block with its end marker) of a small non-indexed draw, as
    ``_indices`` and ``_lanes_of`` give them, without building them per draw: the
    consecutive ids are ``base_vertex`` plus the shared ``arange``. None otherwise."""
    n = draw.count
    if draw.record.indexed or not 0 < n <= SMALL_DRAW_VERTICES:
        return None
    known = _SMALL.get(n)
    if known is None:
        lanes = np.arange(n, dtype=np.int64)
        block = np.append(lanes, -1)
        lanes.flags.writeable = block.flags.writeable = False
        known = _SMALL[n] = (lanes, block)
    lanes, block = known
    ids = lanes + draw.base_vertex if draw.base_vertex else lanes
    return ids, n, lanes, ids, block


#: Read-only fragment outputs (depth, stencil, sample mask, discard) a vertex run
#: never writes, by lane count (``ExecContext.allocate_outputs`` keeps read-only
#: arrays a program without those instructions leaves alone).
_OUTPUTS: dict = {}


def _fragment_outputs(lanes: int) -> dict:
    if lanes > SMALL_DRAW_VERTICES:
        return {}
    known = _OUTPUTS.get(lanes)
    if known is None:
        known = _OUTPUTS[lanes] = {}
        for name, value, dtype in (("depth", 0, np.float32), ("stencil", 0, np.uint8), ("depth_written", False, bool),
                                   ("stencil_written", False, bool), ("sample_mask", 0xFFFF, np.uint16),
                                   ("discarded", False, bool)):
            a = np.full(lanes, value, dtype)
            a.flags.writeable = False
            known[name] = a
    return known


def _lanes_of(ids: np.ndarray, restart: np.ndarray | None, indexed: bool):
    """(distinct vertices, the lane of each stream entry with -1 at restarts, the
    distinct vertex ids in lane order) of one instance's stream."""
    if restart is None and not indexed:     # consecutive vertex ids: each shaded once already
        n = len(ids)
        return n, np.arange(n, dtype=np.int64), ids
    valid = ids if restart is None else ids[~restart]
    if indexed:
        uniq, inverse = np.unique(valid, return_inverse=True)
    else:
        uniq, inverse = valid, np.arange(len(valid), dtype=np.int64)
    per_instance = np.full(len(ids), -1, np.int64)
    if restart is None:
        per_instance[:] = inverse
    else:
        per_instance[~restart] = inverse
    return len(uniq), per_instance, uniq
