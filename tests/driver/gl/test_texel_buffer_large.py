"""Buffer textures and buffer images beyond one descriptor row (16,384 texels).

GL 3.1+ requires MAX_TEXTURE_BUFFER_SIZE >= 65,536; a TEXTURE descriptor's row holds
16,384 texels, so the compiler addresses element i as texel (i % W, i // W) of a 2D
image and checks i against the real element count (compiler/backend/texel_buffers.py).
A compute shader fetches chosen indices (across row boundaries, the last element, out
of range) and the values are compared with numpy's view of the same bytes; out-of-range
fetches read 0 and out-of-range image stores change nothing (GL 4.6 section 8.9 under
robust access; Mesa's Asahi driver behaves so)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source

ROW = 16384     # texels in a descriptor row (the TEXTURE descriptor's widest image)

FETCH_CS = """#version 430
layout(local_size_x = 64) in;
uniform {p}samplerBuffer tb;
layout(std430, binding = 0) readonly buffer Indices {{ int idx[]; }};
layout(std430, binding = 1) writeonly buffer Results {{ int size; {p}vec4 res[]; }};
void main() {{
    uint k = gl_GlobalInvocationID.x;
    if (k < uint(idx.length())) res[k] = texelFetch(tb, idx[k]);
    if (k == 0u) size = textureSize(tb);
}}
"""


def _program(ctx, src):
    sh, ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER, src)
    assert ok, log
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    return prog


def _buffer(ctx, target, data: bytes):
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(target, buf)
    ctx.glBufferData(target, len(data), data, E.GL_STATIC_DRAW)
    return buf


def _read(ctx, buf, size_B):
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
    view = ctx.glMapBufferRange(E.GL_SHADER_STORAGE_BUFFER, 0, size_B, E.GL_MAP_READ_BIT)
    out = bytes(view)
    ctx.glUnmapBuffer(E.GL_SHADER_STORAGE_BUFFER)
    return out


def _fetch(ctx, prefix, tex, indices):
    """(the 4-component values texelFetch gives at ``indices`` as raw uint32 bits, textureSize)."""
    _program(ctx, FETCH_CS.format(p=prefix))
    idx = np.asarray(indices, np.int32)
    ibuf = _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, idx.tobytes())
    out_B = 16 * len(idx) + 16
    rbuf = _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, np.full(out_B // 4, 0x5A5A5A5A, np.uint32).tobytes())
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, ibuf)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, rbuf)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
    ctx.glDispatchCompute(-(-len(idx) // 64), 1, 1)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    raw = np.frombuffer(_read(ctx, rbuf, out_B), np.uint32)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    return raw[4:4 + 4 * len(idx)].reshape(-1, 4), int(raw[0].view(np.int32))


def _texture(ctx, internal_format, buf, offset_B=None, size_B=None):
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
    if offset_B is None:
        ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, internal_format, buf)
    else:
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, internal_format, buf, offset_B, size_B)
    return tex


# (internal format, sampler prefix, numpy type of a channel, channels, what texelFetch gives for
# missing channels as raw bits: 0 for G/B, 1 for A (integer 1 or float 1.0))
FORMATS = [
    (E.GL_R8UI, "u", np.uint8, 1, 1),
    (E.GL_RG16I, "i", np.int16, 2, 1),
    (E.GL_RGB32F, "", np.float32, 3, 0x3F800000),
    (E.GL_RGBA32UI, "u", np.uint32, 4, None),
]


def _expected_bits(texels: np.ndarray, dtype, one_bits) -> np.ndarray:
    """(n, 4) uint32 register bits of texels (n, channels) as texelFetch returns them."""
    n, ch = texels.shape
    out = np.zeros((n, 4), np.uint32)
    if np.issubdtype(dtype, np.floating):
        out[:, :ch] = texels.astype(np.float32).view(np.uint32)
    else:
        out[:, :ch] = texels.astype(np.int64).astype(np.uint32)   # sign-extended to 32 bits
    if ch < 4:
        out[:, 3] = one_bits
    return out


@pytest.mark.parametrize("internal_format,prefix,dtype,channels,one_bits", FORMATS,
                         ids=["r8ui", "rg16i", "rgb32f", "rgba32ui"])
def test_fetch_across_rows_and_out_of_range(internal_format, prefix, dtype, channels, one_bits):
    """texelFetch at 0, 16,383, 16,384, 65,535, 2^20 and the last element of a buffer of
    2^20 + 4,099 texels equals the buffer's texels (numpy); indices at and past the end,
    negative, or far past every row read (0, 0, 0, 0); textureSize is the texel count."""
    n = (1 << 20) + 4099
    rng = np.random.default_rng(7)
    if np.issubdtype(dtype, np.floating):
        texels = rng.standard_normal((n, channels)).astype(dtype)
    else:
        info = np.iinfo(dtype)
        texels = rng.integers(info.min, info.max, (n, channels), dtype=np.int64, endpoint=True).astype(dtype)
    inside = [0, 1, ROW - 1, ROW, ROW + 1, 2 * ROW, 65535, 65536, 1 << 20, n - 2, n - 1]
    outside = [n, n + 1, n + ROW, -1, -ROW, 1 << 28, (1 << 31) - 1]
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        buf = _buffer(ctx, E.GL_TEXTURE_BUFFER, texels.tobytes())
        tex = _texture(ctx, internal_format, buf)
        got, size = _fetch(ctx, prefix, tex, inside + outside)
    assert size == n
    np.testing.assert_array_equal(got[:len(inside)], _expected_bits(texels[inside], dtype, one_bits))
    np.testing.assert_array_equal(got[len(inside):], 0)


def test_every_texel_of_three_rows():
    """Every index of a 3.5-row buffer, in one dispatch: texel i reads value i."""
    n = 3 * ROW + ROW // 2
    values = (np.arange(n, dtype=np.uint64) * 2654435761 % (1 << 32)).astype(np.uint32)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        buf = _buffer(ctx, E.GL_TEXTURE_BUFFER, values.tobytes())
        tex = _texture(ctx, E.GL_R32UI, buf)
        got, size = _fetch(ctx, "u", tex, np.arange(n + 64))
    assert size == n
    np.testing.assert_array_equal(got[:n, 0], values)
    np.testing.assert_array_equal(got[:n, 1:], [[0, 0, 1]] * n)
    np.testing.assert_array_equal(got[n:], 0)


def test_ranges_with_offsets():
    """ARB_texture_buffer_range: a range starting 1,000 texels into a large buffer and
    crossing row boundaries reads the buffer's texels from its offset; indices past
    the range's size read 0 although the buffer holds texels there; textureSize is
    the range's texel count."""
    total = 200_000
    values = (np.arange(total, dtype=np.uint32) * 7 + 3).astype(np.uint32)
    first, count = 1000, 70_000
    idx = [0, ROW - 1, ROW, 65535, count - 1, count, count + 5, -1]
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        align = ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT)[0]
        assert (4 * first) % align == 0
        buf = _buffer(ctx, E.GL_TEXTURE_BUFFER, values.tobytes())
        tex = _texture(ctx, E.GL_R32UI, buf, 4 * first, 4 * count)
        got, size = _fetch(ctx, "u", tex, idx)
    assert size == count
    np.testing.assert_array_equal(got[:5, 0], values[[first + i for i in idx[:5]]])
    np.testing.assert_array_equal(got[5:], 0)


IMAGE_CS = """#version 430
layout(local_size_x = 64) in;
layout(r32ui) uniform readonly uimageBuffer src;
layout(r32ui) uniform uimageBuffer dst;
layout(std430, binding = 0) readonly buffer Indices { int idx[]; };
layout(std430, binding = 1) writeonly buffer Results { int sizes[2]; uint old[]; };
void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k < uint(idx.length())) {
        int i = idx[k];
        imageStore(dst, i, imageLoad(src, i) + uvec4(1u));
        old[k] = imageAtomicAdd(dst, i + 1, 0u);
    }
    if (k == 0u) { sizes[0] = imageSize(src); sizes[1] = imageSize(dst); }
}
"""


def test_large_buffer_images():
    """imageLoad/imageStore/imageAtomicAdd on buffer images of more than 16,384 texels:
    dst[i] = src[i] + 1 at indices across rows (dst a range in the middle of a larger
    buffer); stores at or past the range's end, or at negative indices, change no byte
    of the buffer (the texels after the range keep their values); atomics past the end
    return 0; imageSize is each image's texel count."""
    n = 100_000
    src_vals = (np.arange(n, dtype=np.uint64) * 40503 % (1 << 32)).astype(np.uint32)
    guard = 1024                        # texels of the dst buffer before and after its range
    dst_init = np.full(n + 2 * guard, 0xDEADBEEF, np.uint32)
    inside = [0, ROW - 1, ROW, 2 * ROW + 3, 65535, n - 2]
    outside = [n, n + 1, n + 500, -1, -5000]
    idx = inside + outside
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        sbuf = _buffer(ctx, E.GL_TEXTURE_BUFFER, src_vals.tobytes())
        dbuf = _buffer(ctx, E.GL_TEXTURE_BUFFER, dst_init.tobytes())
        stex = _texture(ctx, E.GL_R32UI, sbuf)
        dtex = _texture(ctx, E.GL_R32UI, dbuf, 4 * guard, 4 * n)
        ctx.glBindImageTexture(0, stex, 0, False, 0, E.GL_READ_ONLY, E.GL_R32UI)
        ctx.glBindImageTexture(1, dtex, 0, False, 0, E.GL_READ_WRITE, E.GL_R32UI)
        prog = _program(ctx, IMAGE_CS)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "src"), 0)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "dst"), 1)
        ibuf = _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, np.asarray(idx, np.int32).tobytes())
        rbuf = _buffer(ctx, E.GL_SHADER_STORAGE_BUFFER, np.full(len(idx) + 2, 7, np.uint32).tobytes())
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, ibuf)
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, rbuf)
        ctx.glDispatchCompute(1, 1, 1)
        ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
        res = np.frombuffer(_read(ctx, rbuf, 4 * (len(idx) + 2)), np.uint32)
        ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, dbuf)
        dst = np.frombuffer(_read(ctx, dbuf, dst_init.nbytes), np.uint32)
        assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    expected = dst_init.copy()
    for i in inside:
        expected[guard + i] = src_vals[i] + 1
    np.testing.assert_array_equal(dst, expected)
    assert res[:2].tolist() == [n, n]
    # the atomic at i + 1 returns the texel there (inside the range) or 0 (outside)
    olds = res[2:]
    for k, i in enumerate(idx):
        j = i + 1
        want = (expected[guard + j] if 0 <= j < n else 0)
        assert olds[k] == want, (i, olds[k], want)


def test_the_claimed_maximum_holds():
    """MAX_TEXTURE_BUFFER_SIZE is what a descriptor can address (16,384 x 16,384 texels),
    at least GL's 65,536."""
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        assert ctx.glGetIntegerv(E.GL_MAX_TEXTURE_BUFFER_SIZE)[0] == ROW * ROW


@pytest.mark.slow
def test_the_last_element_at_the_claimed_maximum():
    """A 256 MiB R8UI buffer of MAX_TEXTURE_BUFFER_SIZE + 64 texels: the texel count is
    clamped to the maximum (GL 4.6 section 8.9), texelFetch of the last element (and of
    the first of the last row) reads the buffer's byte there, the element after the
    maximum reads 0."""
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        limit = ctx.glGetIntegerv(E.GL_MAX_TEXTURE_BUFFER_SIZE)[0]
        data = np.zeros(limit + 64, np.uint8)
        marks = {0: 11, ROW: 12, limit - ROW: 13, limit - 2: 14, limit - 1: 15, limit: 16, limit + 1: 17}
        for i, v in marks.items():
            data[i] = v
        buf = _buffer(ctx, E.GL_TEXTURE_BUFFER, data)
        del data
        tex = _texture(ctx, E.GL_R8UI, buf)
        got, size = _fetch(ctx, "u", tex, list(marks))
    assert size == limit
    assert got[:, 0].tolist() == [11, 12, 13, 14, 15, 0, 0]

