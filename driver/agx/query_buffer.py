"""Query results written into a buffer by the GPU (ARB_query_buffer_object;
Gallium's ``get_query_result_resource``, Mesa's agx_get_query_result_resource).

The driver never reads the result on the CPU to store it: a one-thread compute
kernel, launched in the context's compute batch after the render batches that
count into the query's slot, loads the 64-bit counter from the occlusion slot
(or takes a value the driver already knows, passed as a uniform), converts it
to the requested type and stores it at the buffer's address. Its submission
waits for the render submissions through a sync object (``in_fences``), so no
CPU wait happens here; reading the buffer later waits for that submission like
any other GPU write.

Conversions (GL 4.6 section 4.2.4): a 32-bit destination receives the value
clamped to its range (unsigned: 0xFFFFFFFF, signed: 0x7FFFFFFF); a predicate
query (ANY_SAMPLES_PASSED*) gives 0 or 1; QUERY_RESULT_AVAILABLE of a query
counted in an occlusion slot gives 1, because the kernel runs after the commands
the query counted (one queue, in order) so the result exists when it is written;
of a query the driver learns from command feedback (timer queries), whether the
result is known when the write is asked for, as a QUERY_RESULT_NO_WAIT write
would find it (never 1 beside a result left unwritten).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

import uapi.packets as P
from driver.gallium import PipeQueryType
from uapi.isa import assemble

__all__ = ["RESULT_TYPES", "query_copy_program", "write_query_result"]


# The C type of the destination, as glGetQueryObject{ui,i,ui64,i64}v name it.
RESULT_TYPES = ("u32", "s32", "u64", "s64")
_PREDICATES = (PipeQueryType.OCCLUSION_PREDICATE, PipeQueryType.OCCLUSION_PREDICATE_CONSERVATIVE)


@lru_cache(maxsize=None)
def query_copy_program(source: str, predicate: bool, rtype: str) -> bytes:
    """The kernel for one case. `source`: "slot" (load 64 bits at u0_u1),
    "value" (the 64-bit value u4, u5) or "available" (the constant 1).
    Stores at u2_u3: 4 bytes for "u32"/"s32", 8 for "u64"/"s64"."""
    assert rtype in RESULT_TYPES, rtype
    lines = ["mov_imm r4, 0"]
    if source == "slot":
        lines += ["device_load.i32 r6_r7, u0_u1, r4, 2, 0", "wait 0"]
    elif source == "value":
        lines += ["mov r6, u4", "mov r7, u5"]
    else:
        lines += ["mov_imm r6, 1", "mov_imm r7, 0"]
    if predicate and source != "available":
        lines += ["bitop r8, r6, r7, 14",                 # lo | hi
                  "icmpsel.ne r6, r8, 0, 1, 0", "mov_imm r7, 0"]
    if rtype == "u32":
        lines += ["mov_imm r9, 4294967295", "icmpsel.ne r6, r7, 0, r9, r6",
                  "device_store.i32 r6, u2_u3, r4, 2, 0"]
    elif rtype == "s32":
        lines += ["mov_imm r9, 2147483647", "icmpsel.ugt r6, r6, r9, r9, r6",
                  "icmpsel.ne r6, r7, 0, r9, r6", "device_store.i32 r6, u2_u3, r4, 2, 0"]
    else:
        lines += ["device_store.i32 r6_r7, u2_u3, r4, 2, 0"]
    lines += ["wait 0", "stop"]
    return assemble("\n".join(lines))


def write_query_result(pipe, query, wait: bool, rtype: str, available_only: bool,
                       resource, offset_B: int) -> bool:
    """Make the GPU write `query`'s result (or, with `available_only`, its
    availability) at `offset_B` of the buffer `resource`; `query` may be an int,
    a value the state tracker knows (the query's target, a result read before). Returns False when
    nothing is written: a result the driver computes from command feedback
    (timer queries) not yet known and `wait` false (QUERY_RESULT_NO_WAIT)."""
    predicate = not isinstance(query, int) and query.type in _PREDICATES
    if isinstance(query, int):
        source, value = "value", query
    elif available_only and query.slot is not None and query.result is None:
        source, value = "available", 0
    elif available_only:
        # a result from command feedback (timer queries): available when it is known now, so
        # a QUERY_RESULT_NO_WAIT write after this one writes a result whenever this wrote 1
        source, value = "value", int(pipe.get_query_result(query, False) is not None)
    elif query.slot is not None and query.result is None:
        source, value = "slot", 0
    else:
        # counted by the driver (transform feedback primitives) or from command feedback
        # (timer queries, primitives generated): the value is known on the CPU, or becomes
        # known once the feedback arrives
        result = pipe.get_query_result(query, wait)
        if result is None:
            return False
        source, value = "value", int(result)
    if source == "slot":
        # the render batches that may count into the slot run first: submit them and make
        # the compute submission wait for them on the GPU
        for key, batch in list(pipe.batches.items()):
            if key is not None:
                pipe._flush_batch(batch)
        if pipe.last_submission is not None and not pipe.last_submission.done:
            pipe.in_fences.append(pipe.last_submission)
    batch = pipe._batch_for(None)
    pipe.write(batch, resource)
    code = pipe._internal_code(f"query_copy_{source}_{predicate}_{rtype}",
                               query_copy_program(source, predicate, rtype))
    u = np.zeros(6, np.uint32)
    if source == "slot":
        src = pipe.occlusion_bo.va + 8 * query.slot
        u[0:2] = [src & 0xFFFFFFFF, src >> 32]
    dst = resource.va + offset_B
    u[2:4] = [dst & 0xFFFFFFFF, dst >> 32]
    u[4:6] = [value & 0xFFFFFFFF, (value >> 32) & 0xFFFFFFFF]
    words = (P.pack("USC_SHADER", register_count=12, code=code)
             + P.pack("USC_UNIFORM", start_halves=0, size_halves=12,
                      buffer=batch.pool.upload(u.tobytes(), 16))
             + P.pack("USC_END"))
    if batch.launches:
        batch.cdm += P.pack("CDM_BARRIER")
    batch.cdm += P.pack("CDM_LAUNCH", pipeline=batch.pool.upload(words, 64), grid_x_tg=1,
                        threadgroup_x_threads=1)
    batch.launches += 1
    if source == "slot":
        pipe._flush_batch(batch)          # submitted now, so it takes the in-fences above
    return True
