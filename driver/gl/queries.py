"""Query objects, sync objects and transform feedback objects
(GL 4.6 sections 4.1-4.3 and 13.2; GLES 3.2 sections 4.1-4.2 and 12.1)."""

from __future__ import annotations

from driver.gallium import PIPE_TIMEOUT_INFINITE, PipeFlush, PipeQueryType
from driver.gl import enums as E
from driver.gl.errors import check, check_buf_size, check_enum
from driver.gl.features.gl_spirv import reported_name
from driver.gl.features.gles_ext import es_has
from driver.gallium.defines import PipeStatistic
from driver.gl.objects import Namespace, Query, Sync
from driver.gl.programs import program_object

__all__ = ["QueryMixin"]

_PIPE_QUERY = {E.GL_SAMPLES_PASSED: PipeQueryType.OCCLUSION_COUNTER,
               E.GL_ANY_SAMPLES_PASSED: PipeQueryType.OCCLUSION_PREDICATE,
               E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE: PipeQueryType.OCCLUSION_PREDICATE_CONSERVATIVE,
               E.GL_PRIMITIVES_GENERATED: PipeQueryType.PRIMITIVES_GENERATED,
               E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: PipeQueryType.PRIMITIVES_EMITTED,
               E.GL_TIME_ELAPSED: PipeQueryType.TIME_ELAPSED,
               E.GL_TIMESTAMP: PipeQueryType.TIMESTAMP,
               # ARB_transform_feedback_overflow_query (one vertex stream: both are stream 0)
               E.GL_TRANSFORM_FEEDBACK_OVERFLOW: PipeQueryType.SO_OVERFLOW_PREDICATE,
               E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW: PipeQueryType.SO_OVERFLOW_PREDICATE}
# ARB_pipeline_statistics_query: each target is one counter of PIPELINE_STATISTICS
_STATISTICS = {E.GL_VERTICES_SUBMITTED: PipeStatistic.IA_VERTICES,
               E.GL_PRIMITIVES_SUBMITTED: PipeStatistic.IA_PRIMITIVES,
               E.GL_VERTEX_SHADER_INVOCATIONS: PipeStatistic.VS_INVOCATIONS,
               E.GL_TESS_CONTROL_SHADER_PATCHES: PipeStatistic.HS_INVOCATIONS,
               E.GL_TESS_EVALUATION_SHADER_INVOCATIONS: PipeStatistic.DS_INVOCATIONS,
               E.GL_GEOMETRY_SHADER_INVOCATIONS: PipeStatistic.GS_INVOCATIONS,
               E.GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED: PipeStatistic.GS_PRIMITIVES,
               E.GL_FRAGMENT_SHADER_INVOCATIONS: PipeStatistic.PS_INVOCATIONS,
               E.GL_COMPUTE_SHADER_INVOCATIONS: PipeStatistic.CS_INVOCATIONS,
               E.GL_CLIPPING_INPUT_PRIMITIVES: PipeStatistic.C_INVOCATIONS,
               E.GL_CLIPPING_OUTPUT_PRIMITIVES: PipeStatistic.C_PRIMITIVES}


class QueryMixin:
    def _init_family(self) -> None:
        self.queries = Namespace(Query)
        self.active_queries: dict[int, Query] = {}
        self.syncs: dict[int, Sync] = {}
        self._next_sync = 1

    # -- queries ----------------------------------------------------------------
    def _query_targets(self) -> set[int]:
        t = set()
        if self.api.gl_or_es((3, 0), (3, 0)):             # (EXT_transform_feedback's, core in 3.0)
            t.add(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
        # ARB_occlusion_query2 / ARB_ES3_compatibility: listed below 3.3 / 4.3 too
        if self.api.gl_or_es((3, 3), (3, 0)) or self.api.has_extension("GL_ARB_occlusion_query2"):
            t.add(E.GL_ANY_SAMPLES_PASSED)
        if self.api.gl_or_es((4, 3), (3, 0)) or self.api.has_extension("GL_ARB_ES3_compatibility"):
            t.add(E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE)
        if not self.api.es:
            t |= {E.GL_SAMPLES_PASSED, E.GL_PRIMITIVES_GENERATED, E.GL_TIME_ELAPSED}
        if es_has(self.api, "geometry_shader"):          # GLES 3.2 / OES_geometry_shader's query
            t.add(E.GL_PRIMITIVES_GENERATED)
        if es_has(self.api, "occlusion_query_boolean"):       # GLES 2.0 with the extension
            t |= {E.GL_ANY_SAMPLES_PASSED, E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE}
        if es_has(self.api, "timer_query"):
            t.add(E.GL_TIME_ELAPSED)
        if self.api.has_extension("GL_ARB_pipeline_statistics_query"):
            t |= set(_STATISTICS)
        if self.api.has_extension("GL_ARB_transform_feedback_overflow_query"):
            t |= {E.GL_TRANSFORM_FEEDBACK_OVERFLOW, E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW}
        return t

    def glGenQueries(self, n: int) -> list[int]:
        check(self.api.gl_or_es((1, 5), (3, 0)) or es_has(self.api, "occlusion_query_boolean")
              or es_has(self.api, "timer_query"), E.GL_INVALID_OPERATION)
        check(n >= 0, E.GL_INVALID_VALUE)
        return self.queries.gen(n)

    def glIsQuery(self, id: int) -> bool:
        q = self.queries.get(id)
        return q is not None and q.ever_used

    def glDeleteQueries(self, n: int, ids) -> None:
        check(n >= 0, E.GL_INVALID_VALUE)
        for name in list(ids)[:n]:
            q = self.queries.get(name)
            if q is not None:
                if q.active:                       # GL 4.6 section 4.2.1: ends the query
                    self.pipe.end_query(q.pipe_query)
                    del self.active_queries[self._stream_query_key(q)]
                if q.pipe_query is not None:
                    self.pipe.destroy_query(q.pipe_query)
            self.queries.delete(name)

    def glBeginQuery(self, target: int, id: int) -> None:
        check_enum(target, self._query_targets(), f"bad query target {target:#x}")
        check(id != 0, E.GL_INVALID_OPERATION, "query name 0")
        check(target not in self.active_queries, E.GL_INVALID_OPERATION,
              "a query of that target is active")
        if target in (E.GL_ANY_SAMPLES_PASSED, E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE,
                      E.GL_SAMPLES_PASSED):
            # GL 4.6 section 4.2: the occlusion targets share one active slot
            check(not any(t in self.active_queries for t in (
                E.GL_ANY_SAMPLES_PASSED, E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE, E.GL_SAMPLES_PASSED)),
                E.GL_INVALID_OPERATION, "an occlusion query is active")
        check(self.queries.is_generated(id), E.GL_INVALID_OPERATION, "not a query name")
        q = self.queries.get_or_create(id)
        check(not q.active, E.GL_INVALID_OPERATION, "query already active")
        check(q.target in (0, target), E.GL_INVALID_OPERATION, "query has another target")
        if q.pipe_query is None:
            q.pipe_query = (self.pipe.create_query(PipeQueryType.PIPELINE_STATISTICS, _STATISTICS[target])
                            if target in _STATISTICS else self.pipe.create_query(_PIPE_QUERY[target]))
        q.target, q.active, q.ever_used, q.result = target, True, True, None
        q.stream, q.geometry_adjust, q.overflowed_before = 0, 0, False
        self.active_queries[target] = q
        self.pipe.begin_query(q.pipe_query)
        from driver.gl.geometry import COUNTED_QUERIES, primitives_generated_counters
        if target in COUNTED_QUERIES:           # the geometry stage's passes change these counters
            q.geometry_counters = primitives_generated_counters(self, target)

    def glEndQuery(self, target: int) -> None:
        check_enum(target, self._query_targets())
        q = self.active_queries.get(target)
        check(q is not None, E.GL_INVALID_OPERATION, "no active query of that target")
        self.pipe.end_query(q.pipe_query)
        if getattr(q, "geometry_counters", None) is not None:
            from driver.gl.geometry import primitives_generated_counters
            (pass0, gs0), (pass1, gs1) = q.geometry_counters, primitives_generated_counters(self, target)
            q.geometry_adjust = (gs1 - gs0) - (pass1 - pass0)
        q.active = False
        del self.active_queries[target]

    def glQueryCounter(self, id: int, target: int) -> None:
        check(self.api.gl(3, 3) or es_has(self.api, "timer_query"), E.GL_INVALID_OPERATION)
        check_enum(target, (E.GL_TIMESTAMP,))
        check(self.queries.is_generated(id), E.GL_INVALID_OPERATION, "not a query name")
        q = self.queries.get_or_create(id)
        check(not q.active, E.GL_INVALID_OPERATION)
        check(q.target in (0, E.GL_TIMESTAMP), E.GL_INVALID_OPERATION)
        if q.pipe_query is None:
            q.pipe_query = self.pipe.create_query(PipeQueryType.TIMESTAMP)
        q.target, q.ever_used, q.result = E.GL_TIMESTAMP, True, None
        self.pipe.end_query(q.pipe_query)

    def glGetQueryiv(self, target: int, pname: int) -> list[int]:
        timers = not self.api.es or es_has(self.api, "timer_query")
        targets = self._query_targets() | ({E.GL_TIMESTAMP} if timers else set())
        check_enum(target, targets)
        if pname == E.GL_CURRENT_QUERY:
            q = self.active_queries.get(target)
            return [q.name if q else 0]
        check(pname == E.GL_QUERY_COUNTER_BITS and timers, E.GL_INVALID_ENUM)
        return [64 if target in (E.GL_TIMESTAMP, E.GL_TIME_ELAPSED) or target in _STATISTICS else 32]

    def _query_result(self, id: int, pname: int, params=None, rtype: str = "u64") -> int | None:
        """The answer to `pname` for query `id`; with a buffer bound to
        GL_QUERY_BUFFER, the GPU writes it at byte offset `params` of that
        buffer instead (features/query_buffer.py) and None is returned."""
        q = self.queries.get(id)
        check(q is not None and q.ever_used, E.GL_INVALID_OPERATION, "not a query object")
        check(not q.active, E.GL_INVALID_OPERATION, "query is active")
        valid = {E.GL_QUERY_RESULT, E.GL_QUERY_RESULT_AVAILABLE}
        if self.api.gl(4, 4) or self.api.has_extension("GL_ARB_query_buffer_object"):
            valid.add(E.GL_QUERY_RESULT_NO_WAIT)
        if self.api.gl(4, 5):
            valid.add(E.GL_QUERY_TARGET)
        check_enum(pname, valid)
        qbo = self.buffer_bindings.get(E.GL_QUERY_BUFFER)
        if qbo is not None:
            self._query_to_buffer(q, pname, qbo, int(params or 0), rtype)
            return None
        if pname == E.GL_QUERY_TARGET:
            return q.target
        value = self._query_value(q, pname == E.GL_QUERY_RESULT)
        if pname == E.GL_QUERY_RESULT_AVAILABLE:
            return int(value is not None)
        return int(value or 0)

    def _query_value(self, q, wait: bool) -> int | None:
        """Query `q`'s result as GL defines it (None: not available yet and `wait` False):
        the pipe query's, changed by what the front end's own passes counted
        (`geometry_adjust`); a query of vertex stream 1..3 counts what the passes measured
        only; an overflow query of stream 0 is also true when a part of it before a
        stream pass overflowed (`overflowed_before`)."""
        if q.result is None and q.pipe_query is None:
            q.result = 0        # created by glCreateQueries and never begun: available, 0
        if q.result is None:
            r = self.pipe.get_query_result(q.pipe_query, wait)
            if r is not None:
                q.result = (0 if q.stream else r) + q.geometry_adjust
                if q.overflowed_before:
                    q.result = 1
        return q.result

    def _query_differs_from_pipe(self, q) -> bool:
        """The pipe query's own result is not `q`'s (see _query_value)."""
        return bool(q.stream or q.geometry_adjust or q.overflowed_before)

    # `params`: only with a GL_QUERY_BUFFER bound, the byte offset the result goes to
    def glGetQueryObjectuiv(self, id: int, pname: int, params=None) -> list[int] | None:
        r = self._query_result(id, pname, params, "u32")
        return None if r is None else [min(r, 0xFFFFFFFF)]

    def glGetQueryObjectiv(self, id: int, pname: int, params=None) -> list[int] | None:
        check(not self.api.es or es_has(self.api, "timer_query"), E.GL_INVALID_OPERATION)
        r = self._query_result(id, pname, params, "s32")
        return None if r is None else [min(r, 0x7FFFFFFF)]

    def glGetQueryObjectui64v(self, id: int, pname: int, params=None) -> list[int] | None:
        check(self.api.gl(3, 3) or es_has(self.api, "timer_query"), E.GL_INVALID_OPERATION)
        r = self._query_result(id, pname, params, "u64")
        return None if r is None else [r]

    def glGetQueryObjecti64v(self, id: int, pname: int, params=None) -> list[int] | None:
        check(self.api.gl(3, 3) or es_has(self.api, "timer_query"), E.GL_INVALID_OPERATION)
        r = self._query_result(id, pname, params, "s64")
        return None if r is None else [r]

    # -- syncs (GL 4.6 section 4.1) --------------------------------------------------------
    def glFenceSync(self, condition: int, flags: int) -> int:
        """Returns the sync handle as an int (the C ABI hands it out as GLsync)."""
        check(self.api.gl_or_es((3, 2), (3, 0)), E.GL_INVALID_OPERATION)
        check_enum(condition, (E.GL_SYNC_GPU_COMMANDS_COMPLETE,))
        check(flags == 0, E.GL_INVALID_VALUE, "flags must be 0")
        fence = self.pipe.flush(PipeFlush.ASYNC)
        handle = self._next_sync
        while handle in self.syncs:        # a sharing context's sync has that name
            handle += 1
        self._next_sync = handle + 1
        self.syncs[handle] = Sync(handle, fence)
        return handle

    def _sync(self, sync: int) -> Sync:
        obj = self.syncs.get(sync)
        check(obj is not None, E.GL_INVALID_VALUE, "not a sync object")
        return obj

    def glIsSync(self, sync: int) -> bool:
        return sync in self.syncs

    def glDeleteSync(self, sync: int) -> None:
        if sync == 0:
            return
        self._sync(sync)
        del self.syncs[sync]

    def glClientWaitSync(self, sync: int, flags: int, timeout: int) -> int:
        obj = self._sync(sync)
        check(flags & ~E.GL_SYNC_FLUSH_COMMANDS_BIT == 0, E.GL_INVALID_VALUE, "bad flags")
        if obj.signaled or self.screen.fence_finish(obj.fence, 0):
            obj.signaled = True
            return E.GL_ALREADY_SIGNALED
        if timeout == 0:
            return E.GL_TIMEOUT_EXPIRED
        if self.screen.fence_finish(obj.fence, min(int(timeout), PIPE_TIMEOUT_INFINITE)):
            obj.signaled = True
            return E.GL_CONDITION_SATISFIED
        return E.GL_TIMEOUT_EXPIRED

    def glWaitSync(self, sync: int, flags: int, timeout: int) -> None:
        obj = self._sync(sync)
        check(flags == 0, E.GL_INVALID_VALUE, "flags must be 0")
        check(timeout == E.GL_TIMEOUT_IGNORED, E.GL_INVALID_VALUE, "timeout must be TIMEOUT_IGNORED")
        self.pipe.fence_server_sync(obj.fence)

    def glGetSynciv(self, sync: int, pname: int) -> list[int]:
        obj = self._sync(sync)
        if not obj.signaled and self.screen.fence_finish(obj.fence, 0):
            obj.signaled = True
        values = {E.GL_OBJECT_TYPE: E.GL_SYNC_FENCE, E.GL_SYNC_CONDITION: obj.condition,
                  E.GL_SYNC_FLAGS: 0,
                  E.GL_SYNC_STATUS: E.GL_SIGNALED if obj.signaled else E.GL_UNSIGNALED}
        check_enum(pname, values)
        return [values[pname]]

    # -- transform feedback objects (GL 4.6 section 13.2) ---------------------------------
    def glGenTransformFeedbacks(self, n: int) -> list[int]:
        check(self.api.gl_or_es((4, 0), (3, 0)), E.GL_INVALID_OPERATION)
        check(n >= 0, E.GL_INVALID_VALUE)
        return self.transform_feedbacks.gen(n)

    def glBindTransformFeedback(self, target: int, id: int) -> None:
        check(self.api.gl_or_es((4, 0), (3, 0)), E.GL_INVALID_OPERATION)
        check_enum(target, (E.GL_TRANSFORM_FEEDBACK,))
        check(not (self.xfb.active and not self.xfb.paused), E.GL_INVALID_OPERATION,
              "transform feedback active")
        if id == 0:
            self.xfb = self.default_xfb
            return
        check(self.transform_feedbacks.is_generated(id), E.GL_INVALID_OPERATION, "not a name")
        obj = self.transform_feedbacks.get_or_create(id)
        obj.ever_bound = True
        self.xfb = obj

    def glIsTransformFeedback(self, id: int) -> bool:
        obj = self.transform_feedbacks.get(id)
        return obj is not None and obj.ever_bound

    def glDeleteTransformFeedbacks(self, n: int, ids) -> None:
        check(n >= 0, E.GL_INVALID_VALUE)
        for name in list(ids)[:n]:
            obj = self.transform_feedbacks.get(name)
            if obj is not None:
                check(not obj.active, E.GL_INVALID_OPERATION, "deleting an active object")
        for name in list(ids)[:n]:
            obj = self.transform_feedbacks.get(name)
            if obj is self.xfb:
                self.xfb = self.default_xfb
            if name:
                self.transform_feedbacks.delete(name)

    def glBeginTransformFeedback(self, primitiveMode: int) -> None:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        check_enum(primitiveMode, (E.GL_POINTS, E.GL_LINES, E.GL_TRIANGLES))
        x = self.xfb
        check(not x.active, E.GL_INVALID_OPERATION, "already active")
        prog = self.current_program
        if prog is None and self.bound_pipeline is not None:       # the last vertex-processing stage's
            prog = self.bound_pipeline.stages.get("geometry") or self.bound_pipeline.stages.get("vertex")
        check(prog is not None and prog.linked_state.tf_varyings, E.GL_INVALID_OPERATION,
              "no program with transform feedback varyings")
        for i in range(prog.linked_state.tf_layout.buffers):
            # (a buffer no output is captured into may stay unbound: xfb_buffer numbers may skip)
            check(x.buffers[i][0] is not None or not prog.linked_state.tf_layout.stride_dw[i], E.GL_INVALID_OPERATION,
                  f"no buffer bound to transform feedback binding {i}")
        x.active, x.paused, x.primitive_mode, x.program = True, False, primitiveMode, prog
        x.first_emit = True
        x.vertices_written = 0

    def glEndTransformFeedback(self) -> None:
        check(self.xfb.active, E.GL_INVALID_OPERATION, "not active")
        x = self.xfb
        x.active = x.paused = False
        x.ended = True
        self.pipe.set_stream_output_targets([], [])

    def glPauseTransformFeedback(self) -> None:
        check(self.xfb.active and not self.xfb.paused, E.GL_INVALID_OPERATION)
        self.xfb.paused = True

    def glResumeTransformFeedback(self) -> None:
        x = self.xfb
        check(x.active and x.paused, E.GL_INVALID_OPERATION)
        check(self.current_program is x.program, E.GL_INVALID_OPERATION, "program changed")
        x.paused = False

    def glGetTransformFeedbackVarying(self, program: int, index: int, bufSize: int | None = None):
        """Returns (name, size, type) of a captured varying (GL 4.6 section 11.1.2.1)."""
        check_buf_size(bufSize)
        prog = program_object(self, program)
        ls = prog.linked_state
        entries = ls.tf_layout.varyings if ls is not None and ls.tf_layout is not None else ()
        check(0 <= index < len(entries), E.GL_INVALID_VALUE)
        v = entries[index]
        return (reported_name(prog, v.name), v.size, v.type)
