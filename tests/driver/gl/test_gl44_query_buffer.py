"""GL_ARB_query_buffer_object (GL 4.4) and glGetQueryBufferObject* (GL 4.5 DSA):
query results written into a buffer by the GPU, checked against hand-counted
samples of real draws."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

QUAD_VS = ("#version 330\nuniform vec4 rect;\n"
           "void main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);"
           " gl_Position = vec4(mix(rect.xy, rect.zw, p), 0.0, 1.0); }\n")
FS = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
W = H = 8


def _setup(api="gl44"):
    ctx = glhelp.context(W, H, api=api)
    glhelp.program(ctx, QUAD_VS, FS)
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    return ctx, ctx.glGetUniformLocation(prog, "rect")


def _count(ctx, loc, target, rect):
    """A query of `target` over one quad covering `rect` (clip coordinates)."""
    (q,) = ctx.glGenQueries(1)
    ctx.glUniform4f(loc, *rect)
    ctx.glBeginQuery(target, q)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndQuery(target)
    return q


def _query_buffer(ctx, size_B=64, fill=0xAB):
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_QUERY_BUFFER, buf)
    ctx.glBufferData(E.GL_QUERY_BUFFER, size_B, bytes([fill]) * size_B, E.GL_DYNAMIC_COPY)
    return buf


def _read(ctx, buf, size_B=64):
    ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, buf)
    return bytes(ctx.glGetBufferSubData(E.GL_COPY_READ_BUFFER, 0, size_B))


def test_results_go_into_the_bound_query_buffer_at_the_offset():
    """A quad over the left half of an 8x8 target: 32 samples. With a buffer on
    GL_QUERY_BUFFER, params is an offset; 32- and 64-bit forms write 4 and 8
    bytes and leave the rest of the buffer as it was."""
    ctx, loc = _setup()
    q = _count(ctx, loc, E.GL_SAMPLES_PASSED, (-1, -1, 0, 1))
    buf = _query_buffer(ctx)
    assert ctx.glGetIntegerv(E.GL_QUERY_BUFFER_BINDING) == [buf]
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT, 4) is None
    ctx.glGetQueryObjectui64v(q, E.GL_QUERY_RESULT_NO_WAIT, 16)
    ctx.glGetQueryObjectiv(q, E.GL_QUERY_RESULT_AVAILABLE, 28)
    ctx.glGetQueryObjecti64v(q, E.GL_QUERY_RESULT, 40)
    expect(ctx, E.GL_NO_ERROR)
    raw = _read(ctx, buf)
    assert np.frombuffer(raw[4:8], np.uint32)[0] == 32
    assert np.frombuffer(raw[16:24], np.uint64)[0] == 32
    assert np.frombuffer(raw[28:32], np.int32)[0] == 1
    assert np.frombuffer(raw[40:48], np.int64)[0] == 32
    untouched = [i for i in range(64) if not (4 <= i < 8 or 16 <= i < 24 or 28 <= i < 32 or 40 <= i < 48)]
    assert all(raw[i] == 0xAB for i in untouched)
    # unbound: the same query answers to client memory again
    ctx.glBindBuffer(E.GL_QUERY_BUFFER, 0)
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [32]


def test_the_gpu_writes_without_a_cpu_wait(monkeypatch):
    """The result of an occlusion query is copied by a GPU kernel: the pipe's
    CPU read-back path is never taken."""
    ctx, loc = _setup()
    q = _count(ctx, loc, E.GL_SAMPLES_PASSED, (-1, -1, 1, 0))           # bottom half: 32
    buf = _query_buffer(ctx)
    pipe = ctx.pipe

    def no_cpu_read(*args):
        raise AssertionError("the driver read the query result on the CPU")
    monkeypatch.setattr(pipe, "get_query_result", no_cpu_read)
    ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT, 0)
    ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT_NO_WAIT, 4)
    expect(ctx, E.GL_NO_ERROR)
    monkeypatch.undo()
    assert list(np.frombuffer(_read(ctx, buf, 8), np.uint32)) == [32, 32]


def test_predicates_and_the_dsa_form():
    """ANY_SAMPLES_PASSED writes 0 or 1; glGetQueryBufferObject* names the
    buffer itself (no binding needed) and QUERY_TARGET writes the target."""
    ctx, loc = _setup("compat")
    hit = _count(ctx, loc, E.GL_ANY_SAMPLES_PASSED, (-1, -1, 1, 1))
    ctx.glEnable(E.GL_SCISSOR_TEST)
    ctx.glScissor(0, 0, 0, 0)
    miss = _count(ctx, loc, E.GL_ANY_SAMPLES_PASSED, (-1, -1, 1, 1))
    ctx.glDisable(E.GL_SCISSOR_TEST)
    buf = _query_buffer(ctx)
    ctx.glBindBuffer(E.GL_QUERY_BUFFER, 0)
    ctx.glGetQueryBufferObjectuiv(hit, buf, E.GL_QUERY_RESULT, 0)
    ctx.glGetQueryBufferObjectuiv(miss, buf, E.GL_QUERY_RESULT, 4)
    ctx.glGetQueryBufferObjecti64v(hit, buf, E.GL_QUERY_RESULT, 8)
    ctx.glGetQueryBufferObjectiv(hit, buf, E.GL_QUERY_TARGET, 16)
    ctx.glGetQueryBufferObjectui64v(miss, buf, E.GL_QUERY_RESULT_AVAILABLE, 24)
    expect(ctx, E.GL_NO_ERROR)
    raw = _read(ctx, buf, 32)
    assert list(np.frombuffer(raw[0:8], np.uint32)) == [1, 0]
    assert np.frombuffer(raw[8:16], np.int64)[0] == 1
    assert np.frombuffer(raw[16:20], np.uint32)[0] == E.GL_ANY_SAMPLES_PASSED
    assert np.frombuffer(raw[24:32], np.uint64)[0] == 1


def test_results_the_driver_knows_are_written_too():
    """Transform-feedback-free counters the driver learns itself (a timestamp
    query's value, a primitives-generated count) go through the same GPU write."""
    ctx, loc = _setup()
    q = _count(ctx, loc, E.GL_PRIMITIVES_GENERATED, (-1, -1, 1, 1))     # a strip of 4: 2 triangles
    buf = _query_buffer(ctx)
    ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT, 8)
    expect(ctx, E.GL_NO_ERROR)
    assert np.frombuffer(_read(ctx, buf, 12)[8:12], np.uint32)[0] == 2


def test_availability_of_a_timer_query_agrees_with_a_no_wait_result():
    """A TIME_ELAPSED result comes from command feedback; while it is not known,
    QUERY_RESULT_AVAILABLE writes 0 and QUERY_RESULT_NO_WAIT writes nothing
    (piglit arb_query_buffer_object-qbo: an availability of 1 beside an
    unwritten result failed it); once known, 1 and the result."""
    ctx, loc = _setup()
    q = _count(ctx, loc, E.GL_TIME_ELAPSED, (-1, -1, 1, 1))
    buf = _query_buffer(ctx)
    pipe = ctx.pipe
    known = pipe.get_query_result

    def still_running(query, wait):
        return known(query, wait) if wait else None
    pipe.get_query_result = still_running
    try:
        ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT_AVAILABLE, 8)
        ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT_NO_WAIT, 0)
    finally:
        del pipe.get_query_result
    expect(ctx, E.GL_NO_ERROR)
    raw = _read(ctx, buf, 12)
    assert raw[0:4] == bytes([0xAB]) * 4
    assert np.frombuffer(raw[8:12], np.uint32)[0] == 0
    ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT_AVAILABLE, 8)
    ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT_NO_WAIT, 0)
    raw = _read(ctx, buf, 12)
    assert np.frombuffer(raw[8:12], np.uint32)[0] == 1
    ctx.glBindBuffer(E.GL_QUERY_BUFFER, 0)
    assert np.frombuffer(raw[0:4], np.uint32)[0] == ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0]


def test_32_bit_forms_clamp():
    """A 64-bit result above 2^32 written through the 32-bit forms is clamped
    (GL 4.6 section 4.2.4): the kernel that converts it, run on the GPU."""
    ctx, _ = _setup()
    buf = _query_buffer(ctx)
    res = ctx.buffers.get(buf).resource
    big = (5 << 32) + 7
    for rtype, offset in (("u32", 0), ("s32", 4), ("u64", 8)):
        ctx.pipe.get_query_result_resource(big, True, rtype, False, res, offset)
    ctx.pipe.get_query_result_resource(0x80000001, True, "s32", False, res, 16)
    ctx.pipe.get_query_result_resource(0x80000001, True, "u32", False, res, 20)
    raw = _read(ctx, buf, 24)
    assert list(np.frombuffer(raw[0:8], np.uint32)) == [0xFFFFFFFF, 0x7FFFFFFF]
    assert np.frombuffer(raw[8:16], np.uint64)[0] == big
    assert list(np.frombuffer(raw[16:24], np.uint32)) == [0x7FFFFFFF, 0x80000001]


def test_errors_change_nothing():
    ctx, loc = _setup()
    q = _count(ctx, loc, E.GL_SAMPLES_PASSED, (-1, -1, 1, 1))
    buf = _query_buffer(ctx, 8)
    ctx.glGetQueryObjectui64v(q, E.GL_QUERY_RESULT, 4)               # 8 bytes at 4 of 8
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glGetQueryBufferObjectuiv(q, buf, E.GL_QUERY_RESULT, -4)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glGetQueryBufferObjectuiv(q, 999, E.GL_QUERY_RESULT, 0)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glGetQueryBufferObjectuiv(12345, buf, E.GL_QUERY_RESULT, 0)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glGetQueryBufferObjectuiv(q, buf, E.GL_QUERY_COUNTER_BITS, 0)
    expect(ctx, E.GL_INVALID_ENUM)
    assert _read(ctx, buf, 8) == bytes([0xAB]) * 8


def test_not_in_gles():
    with driver.Context(api="gles31", width=4, height=4) as ctx:
        ctx.glBindBuffer(E.GL_QUERY_BUFFER, 0)
        expect(ctx, E.GL_INVALID_ENUM)


@pytest.mark.parametrize("api", ["gl43", "compat"])
def test_listed(api):
    with driver.Context(api=api, width=4, height=4) as ctx:
        assert "GL_ARB_query_buffer_object" in ctx.extensions


def test_c_abi_passes_the_pointer_as_an_offset():
    """Through the C ABI's marshalling: with a query buffer bound, the params
    pointer's value is the offset (here 12); without one, client memory gets it."""
    import importlib.util
    from pathlib import Path

    import cffi

    from driver.abi import marshal as M
    spec = importlib.util.spec_from_file_location("_abi_build_for_qbo",
                                                  Path(M.__file__).resolve().parent / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ffi = cffi.FFI()
    ffi.cdef(build.TYPEDEFS)
    M.bind(ffi)
    ctx, loc = _setup()
    q = _count(ctx, loc, E.GL_SAMPLES_PASSED, (-1, -1, 0, 0))           # a quarter: 16
    buf = _query_buffer(ctx)
    M.OVERRIDES["glGetQueryObjectuiv"](ctx, q, E.GL_QUERY_RESULT, ffi.cast("void *", 12))
    expect(ctx, E.GL_NO_ERROR)
    assert np.frombuffer(_read(ctx, buf, 16)[12:16], np.uint32)[0] == 16
    ctx.glBindBuffer(E.GL_QUERY_BUFFER, 0)
    out = ffi.new("GLuint64 *")
    M.OVERRIDES["glGetQueryObjectui64v"](ctx, q, E.GL_QUERY_RESULT, out)
    assert out[0] == 16
