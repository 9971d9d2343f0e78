"""Queries, sync objects, transform feedback (GL 4.6 sections 4.1-4.2, 13.2;
GLES 3.2 sections 4.1-4.2, 12.1)."""

from driver.gallium import PipeQueryType
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_programs import VS300, FS300, program

ASP = E.GL_ANY_SAMPLES_PASSED


def test_query_lifecycle(es3):
    (q,) = es3.glGenQueries(1)
    assert not es3.glIsQuery(q)                             # no object until Begin
    es3.glBeginQuery(ASP, q)
    assert es3.glIsQuery(q)
    assert es3.glGetQueryiv(ASP, E.GL_CURRENT_QUERY) == [q]
    es3.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)
    expect(es3, E.GL_INVALID_OPERATION)                     # active
    es3.glEndQuery(ASP)
    es3.pipe.query_results[PipeQueryType.OCCLUSION_PREDICATE] = 1
    assert es3.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT_AVAILABLE) == [1]
    assert es3.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [1]
    names = es3.pipe.names()
    assert names.index("create_query") < names.index("begin_query") < names.index("end_query")


def test_query_errors(es3):
    a, b = es3.glGenQueries(2)
    es3.glBeginQuery(ASP, 0)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glBeginQuery(E.GL_SAMPLES_PASSED, a)                # desktop only
    expect(es3, E.GL_INVALID_ENUM)
    es3.glBeginQuery(ASP, 77)
    expect(es3, E.GL_INVALID_OPERATION)                     # not generated
    es3.glBeginQuery(ASP, a)
    es3.glBeginQuery(E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE, b)
    expect(es3, E.GL_INVALID_OPERATION)                     # occlusion slot busy
    es3.glEndQuery(ASP)
    es3.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, a)
    expect(es3, E.GL_INVALID_OPERATION)                     # other target
    es3.glEndQuery(ASP)
    expect(es3, E.GL_INVALID_OPERATION)                     # nothing active
    es3.glGetQueryObjectuiv(b, E.GL_QUERY_RESULT)
    expect(es3, E.GL_INVALID_OPERATION)                     # never begun


def test_timer_queries_desktop(core):
    (q,) = core.glGenQueries(1)
    core.glQueryCounter(q, E.GL_TIMESTAMP)
    assert core.pipe.last("create_query")[0] == PipeQueryType.TIMESTAMP
    assert core.glGetQueryiv(E.GL_TIMESTAMP, E.GL_QUERY_COUNTER_BITS) == [64]
    core.glQueryCounter(q, E.GL_TIME_ELAPSED)
    expect(core, E.GL_INVALID_ENUM)


def test_fence_sync(es3):
    s = es3.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    assert es3.glIsSync(s) and es3.pipe.names()[-1] == "flush"
    assert es3.glGetSynciv(s, E.GL_OBJECT_TYPE) == [E.GL_SYNC_FENCE]
    assert es3.glClientWaitSync(s, E.GL_SYNC_FLUSH_COMMANDS_BIT, 1000) == E.GL_ALREADY_SIGNALED
    assert es3.glGetSynciv(s, E.GL_SYNC_STATUS) == [E.GL_SIGNALED]
    es3.glWaitSync(s, 0, E.GL_TIMEOUT_IGNORED)
    assert es3.pipe.last("fence_server_sync")
    es3.glWaitSync(s, 0, 5)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glClientWaitSync(s, 0x10, 0)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 1)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glFenceSync(0, 0)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glDeleteSync(s)
    assert not es3.glIsSync(s)
    es3.glDeleteSync(s)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glDeleteSync(0)
    assert es3.glGetError() == E.GL_NO_ERROR


def test_unsignalled_fence_times_out():
    c = make_ctx("gles3")
    c.screen.fence_finish = lambda fence, timeout: False
    s = c.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    assert c.glClientWaitSync(s, 0, 0) == E.GL_TIMEOUT_EXPIRED
    assert c.glGetSynciv(s, E.GL_SYNC_STATUS) == [E.GL_UNSIGNALED]


def xfb_ready(c):
    p = program(c, link=False)
    c.glTransformFeedbackVaryings(p, 1, ["v_uv"], E.GL_INTERLEAVED_ATTRIBS)
    c.glLinkProgram(p)
    c.glUseProgram(p)
    (b,) = c.glGenBuffers(1)
    c.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
    c.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 256, None, E.GL_STREAM_READ)
    return p, b


def test_transform_feedback_begin_end(es3):
    es3.glBeginTransformFeedback(E.GL_TRIANGLES)
    expect(es3, E.GL_INVALID_OPERATION)                     # no program
    p, b = xfb_ready(es3)
    es3.glBeginTransformFeedback(E.GL_TRIANGLES)
    expect(es3, E.GL_INVALID_OPERATION)                     # binding 0 empty
    es3.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, b)
    es3.glBeginTransformFeedback(E.GL_QUADS)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glBeginTransformFeedback(E.GL_TRIANGLES)
    assert es3.glGetBooleanv(E.GL_TRANSFORM_FEEDBACK_ACTIVE) == [True]
    es3.glBeginTransformFeedback(E.GL_TRIANGLES)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glUseProgram(0)
    expect(es3, E.GL_INVALID_OPERATION)                     # program change while active
    es3.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, b)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glDrawArrays(E.GL_LINES, 0, 2)
    expect(es3, E.GL_INVALID_OPERATION)                     # mode mismatch
    es3.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, bytes(48))
    es3.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    targets, offsets = es3.pipe.last("set_stream_output_targets")
    assert targets[0].resource is es3.buffers.get(b).resource and offsets == [0]
    es3.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert es3.pipe.last("set_stream_output_targets")[1] == [-1]   # appends
    es3.glPauseTransformFeedback()
    assert es3.glGetBooleanv(E.GL_TRANSFORM_FEEDBACK_PAUSED) == [True]
    es3.glPauseTransformFeedback()
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glResumeTransformFeedback()
    es3.glEndTransformFeedback()
    es3.glEndTransformFeedback()
    expect(es3, E.GL_INVALID_OPERATION)


def test_transform_feedback_objects(es3):
    (t,) = es3.glGenTransformFeedbacks(1)
    assert not es3.glIsTransformFeedback(t)
    es3.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, t)
    assert es3.glIsTransformFeedback(t)
    assert es3.glGetIntegerv(E.GL_TRANSFORM_FEEDBACK_BINDING) == [t]
    es3.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 55)
    expect(es3, E.GL_INVALID_OPERATION)
    p, b = xfb_ready(es3)
    es3.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, b)
    es3.glBeginTransformFeedback(E.GL_POINTS)
    es3.glDeleteTransformFeedbacks(1, [t])
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 0)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glEndTransformFeedback()
    es3.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 0)
    # bindings are per object: the default object has none
    assert es3.glGetIntegeri_v(E.GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0) == [0]
    assert es3.glGetTransformFeedbackVarying(p, 0) == ("v_uv", 1, E.GL_FLOAT_VEC2)


def test_feedback_overflow_is_an_error_in_es3(es3):
    p, b = xfb_ready(es3)                                   # v_uv: vec2 = 8 bytes per vertex
    es3.glBindBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 0, 48)   # room for 6 vertices
    es3.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, bytes(16 * 9))
    es3.glBeginTransformFeedback(E.GL_TRIANGLES)
    es3.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    es3.glDrawArrays(E.GL_TRIANGLES, 0, 4)                  # 3 more (the 4th is dropped): fits
    assert es3.glGetError() == E.GL_NO_ERROR
    es3.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(es3, E.GL_INVALID_OPERATION)


def test_timestamp_get_reads_the_gpu_clock(core):
    core.screen.get_timestamp_ns = lambda: 123456789012
    assert core.glGetInteger64v(E.GL_TIMESTAMP) == [123456789012]
