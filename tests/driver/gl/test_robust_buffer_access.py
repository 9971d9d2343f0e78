"""ARB_robust_buffer_access_behavior (and KHR_robust_buffer_access_behavior, also in
GLES) in robust contexts (GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT,
as EGL_CONTEXT_OPENGL_ROBUST_ACCESS asks for): shader reads past a bound uniform or
storage buffer range return zero (or values from inside the range), writes and atomics
past it change nothing and never reach the bytes after the range, and nothing faults
(GL 4.6 section 6.4). The buffers here are ranges in the middle of larger buffers with
marked bytes around them, so an access that leaves its range shows. Without robust
access the far index faults the GPU and the near ones write into the marked bytes."""

from __future__ import annotations

import numpy as np
import pytest

from driver.agx.face import default_screen
from driver.gl import Context as GLContext
from driver.gl import enums as E
from driver.gl.api import api_for_request

from .helpers import compile_source

GUARD = 0xDEADBEEF
CS = """#version 430
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer Src { uint a[]; };
layout(std140, binding = 1) uniform U { uvec4 u[4]; };
layout(std430, binding = 2) buffer Out { uint r[]; };
layout(std430, binding = 3) readonly buffer Idx { int idx[]; };
layout(std430, binding = 4) buffer Dst { uint d[]; };
layout(std430, binding = 5) buffer Atom { uint c[]; };
void main() {
    uint k = gl_GlobalInvocationID.x;
    int i = idx[k];
    r[k] = a[i];                      // storage read
    r[16u + k] = u[i].y;              // uniform read (a dynamic index)
    r[32u + k] = atomicAdd(c[i], 1000u);
    d[i] = 7u;                        // storage write
}
"""
# distinct indices: each in-range word is read, written and added to by one lane only
INDICES = [0, 5, 14, 15, 16, 17, 40, 1000, 100000, -1, -3, -100000, 2, 3, 1, 9]
WORDS = 16                  # each storage range: 16 words (64 bytes)
GUARD_WORDS = 64            # marked words before and after each range


def _context(robust: bool, es: bool = False):
    api = api_for_request(es, 3 if es else 4, 2 if es else 3, not es, robust=robust)
    return GLContext(default_screen("/dev/dri/renderD128").context_create(), api, 4, 4)


def _buffer(ctx, target, data):
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(target, buf)
    ctx.glBufferData(target, data.nbytes, data, E.GL_STATIC_DRAW)
    return buf


def _read(ctx, buf, n_words):
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
    view = ctx.glMapBufferRange(E.GL_SHADER_STORAGE_BUFFER, 0, 4 * n_words, E.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.uint32).copy()
    ctx.glUnmapBuffer(E.GL_SHADER_STORAGE_BUFFER)
    return out


def _guarded(values):
    """A buffer of marked words with ``values`` in its middle (the bound range)."""
    data = np.full(2 * GUARD_WORDS + len(values), GUARD, np.uint32)
    data[GUARD_WORDS:GUARD_WORDS + len(values)] = values
    return data


def _run(ctx, indices, cs=CS):
    sh, ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER, cs)
    assert ok, log
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    src = _guarded(np.arange(WORDS, dtype=np.uint32) + 100)
    ubo = _guarded(np.arange(16, dtype=np.uint32) + 500)
    dst = _guarded(np.arange(WORDS, dtype=np.uint32) + 300)
    atom = _guarded(np.arange(WORDS, dtype=np.uint32) + 900)
    bufs = {0: _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, src), 4: _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, dst),
            5: _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, atom)}
    for binding, buf in bufs.items():
        ctx.glBindBufferRange(E.GL_SHADER_STORAGE_BUFFER, binding, buf, 4 * GUARD_WORDS, 4 * WORDS)
    ctx.glBindBufferRange(E.GL_UNIFORM_BUFFER, 1, _buffer(ctx, E.GL_UNIFORM_BUFFER, ubo), 4 * GUARD_WORDS, 64)
    obuf = _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, np.full(48, 0x5A5A5A5A, np.uint32))
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 2, obuf)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 3, _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER,
                                                                  np.array(indices, np.int32)))
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    out = _read(ctx, obuf, 48)
    after_dst, after_atom = _read(ctx, bufs[4], dst.size), _read(ctx, bufs[5], atom.size)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    return out, dst, after_dst, atom, after_atom


@pytest.mark.parametrize("es", [False, True])
def test_out_of_range_accesses_read_zero_and_write_nothing(es):
    """Reads outside a range give 0; writes and atomics outside leave every byte of the
    buffer as it was (the marked words around the range too) and atomics return 0;
    inside, each access does what it says. The far indices (+-100000 words) faulted
    the GPU before, the near ones wrote into the marked words. The same in a robust
    GLES 3.2 context (KHR_robust_buffer_access_behavior, the extension's GLES name)."""
    ctx = _context(robust=True, es=es)
    assert ctx.glGetIntegerv(E.GL_CONTEXT_FLAGS)[0] & E.GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT
    names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
    assert "GL_KHR_robust_buffer_access_behavior" in names
    assert ("GL_ARB_robust_buffer_access_behavior" in names) is not es
    out, dst, after_dst, atom, after_atom = _run(ctx, INDICES, CS.replace("#version 430", "#version 310 es")
                                                 if es else CS)
    assert ctx.glGetGraphicsResetStatus() == E.GL_NO_ERROR
    want_read, want_ubo, want_old = [], [], []
    want_dst, want_atom = dst.copy(), atom.copy()
    for i in INDICES:
        inside = 0 <= i < WORDS
        want_read.append(100 + i if inside else 0)
        want_ubo.append(500 + 4 * i + 1 if 0 <= i < 4 else 0)        # u[i].y: word 4 i + 1 of 16
        want_old.append(900 + i if inside else 0)
        if inside:
            want_dst[GUARD_WORDS + i] = 7
            want_atom[GUARD_WORDS + i] += 1000
    assert out[:16].tolist() == want_read
    assert out[16:32].tolist() == want_ubo
    assert out[32:48].tolist() == want_old
    np.testing.assert_array_equal(after_dst, want_dst)
    np.testing.assert_array_equal(after_atom, want_atom)


def test_the_checks_belong_to_robust_contexts():
    """A context without robust access compiles the accesses unchecked (the variant of
    robust contexts only): a write one word past the range lands in the marked word
    after it there."""
    ctx = _context(robust=False)
    assert ctx.pipe.robust_buffer_access is False
    indices = [16] + [0] * 15
    out, dst, after_dst, atom, after_atom = _run(ctx, indices)
    assert after_dst[GUARD_WORDS + WORDS] == 7
    assert _context(robust=True).pipe.robust_buffer_access is True


VS = """#version 430
layout(location = 0) in vec2 p;
layout(location = 1) in vec4 c;
layout(location = 2) in uvec2 packed_;      // 16-bit integers: fetched and converted by the shader
out vec4 vc;
void main() { gl_Position = vec4(p, 0.0, 1.0); vc = c + vec4(0.0, 0.0, float(packed_.x + packed_.y), 0.0); }
"""
FS = "#version 430\nin vec4 vc;\nout vec4 o;\nvoid main() { o = vc; }\n"


def _draw(ctx, first, colour_stride_B):
    """A window-covering triangle of 3 positions, a colour buffer of one RGBA element read
    with ``colour_stride_B`` and a 16-bit integer pair of one element at stride 4; drawn
    from vertex ``first``. Returns the RGBA8 pixels."""
    from .helpers import link_sources
    link_sources(ctx, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)])
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    pos = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)
    for loc, data, size, type_, stride in ((0, pos, 2, E.GL_FLOAT, 0),
                                           (1, np.array([1, 0, 0, 1], np.float32), 4, E.GL_FLOAT, colour_stride_B)):
        _buffer(ctx, E.GL_ARRAY_BUFFER, data)
        ctx.glVertexAttribPointer(loc, size, type_, False, stride, 0)
        ctx.glEnableVertexAttribArray(loc)
    _buffer(ctx, E.GL_ARRAY_BUFFER, np.array([0, 0], np.uint16))
    ctx.glVertexAttribIPointer(2, 2, E.GL_UNSIGNED_SHORT, 4, 0)
    ctx.glEnableVertexAttribArray(2)
    ctx.glClearColor(0, 1, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLES, first, 3)
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(4, 4, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    return px


def test_vertex_fetches_past_the_buffers_read_inside_them():
    """Vertices 1 and 2 read past the one-element colour and integer buffers: in a robust
    context they read the element inside (the triangle is red all over: no blend with
    whatever follows the buffer); vertices 100,000 on read the first elements of every
    buffer (a point triangle: nothing drawn, no GPU fault, and the context draws on)."""
    ctx = _context(robust=True)
    assert (_draw(ctx, 0, 16).reshape(-1, 4) == [255, 0, 0, 255]).all()
    assert (_draw(ctx, 100_000, 16).reshape(-1, 4) == [0, 255, 0, 255]).all()       # the clear colour
    assert ctx.glGetGraphicsResetStatus() == E.GL_NO_ERROR
    assert (_draw(ctx, 0, 0).reshape(-1, 4) == [255, 0, 0, 255]).all()


def test_the_drivers_own_buffers_are_left_to_the_driver():
    """A robust context's geometry-stage draw with transform feedback: the passes' own
    buffers (vertex records, primitive lists, feedback records) are not the program's
    and keep working: the 5 points' values captured are 2 i + 1."""
    vs = "#version 430\nout float v;\nvoid main() { v = float(gl_VertexID) * 2.0; gl_Position = vec4(0.0); }\n"
    gs = ("#version 430\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\nin float v[];\n"
          "out float g;\nvoid main() { g = v[0] + 1.0; gl_Position = vec4(0.0); EmitVertex(); }\n")
    ctx = _context(robust=True)
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glTransformFeedbackVaryings(prog, 1, ["g"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    tbuf = _buffer(ctx, E.GL_TRANSFORM_FEEDBACK_BUFFER, np.full(8, -1.0, np.float32))
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, tbuf)
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, 0, 5)
    ctx.glEndTransformFeedback()
    got = _read(ctx, tbuf, 8).view(np.float32)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    assert got.tolist() == [1.0, 3.0, 5.0, 7.0, 9.0, -1.0, -1.0, -1.0]


def test_default_block_arrays_indexed_far_past_their_end():
    """A default-block uniform array read at dynamic indices: inside it the values set,
    millions of elements past either end 0 (it faulted the GPU before: the block is read
    from memory at a dynamic offset)."""
    cs = """#version 430
layout(local_size_x = 4) in;
uniform uint big[8];
layout(std430, binding = 3) readonly buffer Idx { int idx[]; };
layout(std430, binding = 2) buffer Out { uint r[]; };
void main() { uint k = gl_GlobalInvocationID.x; r[k] = big[idx[k]]; }
"""
    ctx = _context(robust=True)
    sh, ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER, cs)
    assert ok, log
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    ctx.glUniform1uiv(ctx.glGetUniformLocation(prog, "big"), 8, list(range(10, 18)))
    obuf = _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, np.full(4, 7, np.uint32))
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 2, obuf)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 3, _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER,
                                                                  np.array([3, 7, 10_000_000, -10_000_000], np.int32)))
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    assert _read(ctx, obuf, 4).tolist() == [13, 17, 0, 0]
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]


def test_listed():
    """Listed in GL 3.2+ core and compatibility contexts (GL 4.3 core feature)."""
    for robust in (False, True):
        for core in (True, False):
            api = api_for_request(False, 4, 3 if core else 0, core, robust=robust)
            ctx = GLContext(default_screen("/dev/dri/renderD128").context_create(), api, 4, 4)
            n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
            assert "GL_ARB_robust_buffer_access_behavior" in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
