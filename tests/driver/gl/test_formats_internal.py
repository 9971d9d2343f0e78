"""Internal formats through the whole stack (driver.Context: GL front end, AGX
driver, software GPU): upload with glTexImage2D/glTexStorage2D, read back with
glGetTexImage/glReadPixels, sample in a draw. Expected values are worked out
by hand from GL 4.6 section 2.3.5 (normalised conversions) and the format tables."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.formats import ES_ONLY, GENERIC, INTERNAL_FORMATS, LEGACY, UNSIZED

from .helpers import expect

T2 = E.GL_TEXTURE_2D


def _texture(ctx) -> int:
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    for pname, value in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)):
        ctx.glTexParameteri(T2, pname, value)
    return t


def _roundtrip(ifmt, fmt, type, data: np.ndarray, w: int, h: int, read_type=None, read_fmt=None) -> np.ndarray:
    """Upload ``data`` (compat context), read it back with glGetTexImage."""
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
        ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
        ctx.glTexImage2D(T2, 0, ifmt, w, h, 0, fmt, type, np.ascontiguousarray(data).tobytes())
        expect(ctx, E.GL_NO_ERROR)
        read_type = type if read_type is None else read_type
        raw = ctx.glGetTexImage(T2, 0, fmt if read_fmt is None else read_fmt, read_type)
        expect(ctx, E.GL_NO_ERROR)
        return raw


def test_rgb16_keeps_every_16_bit_value():
    data = np.array([[0, 1, 65535], [12345, 54321, 32768], [7, 65534, 256]], np.uint16)   # 3 px x RGB
    raw = _roundtrip(E.GL_RGB16, E.GL_RGB, E.GL_UNSIGNED_SHORT, data, 3, 1)
    assert np.frombuffer(raw, np.uint16).reshape(3, 3).tolist() == data.tolist()


@pytest.mark.parametrize("ifmt,fmt,n", [(E.GL_R16_SNORM, E.GL_RED, 1), (E.GL_RG16_SNORM, E.GL_RG, 2),
                                        (E.GL_RGB16_SNORM, E.GL_RGB, 3), (E.GL_RGBA16_SNORM, E.GL_RGBA, 4)])
def test_snorm16_round_trip_and_float_values(ifmt, fmt, n):
    shorts = np.array([-32768, -32767, -1, 0, 1, 16384, 32767, -12345], np.int16)[:2 * n * 2]
    data = np.resize(shorts, (2, 2, n)).astype(np.int16)
    raw = _roundtrip(ifmt, fmt, E.GL_SHORT, data, 2, 2)
    # -32768 and -32767 both mean -1.0 (GL 4.6 equation 2.2); -1.0 reads back as -32767
    want = np.where(data == -32768, -32767, data)
    assert np.frombuffer(raw, np.int16).reshape(data.shape).tolist() == want.tolist()
    as_float = np.frombuffer(_roundtrip(ifmt, fmt, E.GL_SHORT, data, 2, 2, read_type=E.GL_FLOAT), np.float32)
    np.testing.assert_allclose(as_float.reshape(data.shape), np.maximum(data / 32767.0, -1.0), rtol=0, atol=1e-7)


def test_snorm16_texture_sampled_in_a_draw_gles():
    """GLES 3 (EXT_texture_norm16): TexStorage2D + TexSubImage2D of R16_SNORM, sampled."""
    with driver.Context(api="gles3", width=4, height=1) as ctx:
        _texture(ctx)
        ctx.glTexStorage2D(T2, 1, E.GL_RG16_SNORM, 4, 1)
        vals = np.array([[32767, -32767], [16384, 0], [-16384, 32767], [0, -32768]], np.int16)
        ctx.glTexSubImage2D(T2, 0, 0, 0, 4, 1, E.GL_RG, E.GL_SHORT, vals.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        got = _draw_sampled(ctx, 4, 1, "vec4(t.rg * 0.5 + 0.5, 0.0, 1.0)", es=True)
    want = np.rint((np.maximum(vals / 32767.0, -1.0) * 0.5 + 0.5) * 255)
    np.testing.assert_allclose(got[0, :, :2], want, atol=1)


def _draw_sampled(ctx, w, h, expr="t", es=False, sampler="sampler2D"):
    """Draw a full-window quad whose colour is ``expr`` of ``t = texelFetch(tex, pixel, 0)``
    and read the window back as RGBA8 (rows bottom-up)."""
    from tests.driver.agx import glhelp
    head = "#version 300 es\nprecision highp float;\n" if es else "#version 330\n"
    vs = head + "in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
    fs = (head + f"uniform highp {sampler} tex; out vec4 c;\n"
          f"void main() {{ vec4 t = vec4(texelFetch(tex, ivec2(gl_FragCoord.xy), 0)); c = {expr}; }}")
    prog = glhelp.program(ctx, vs, fs)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [-1, 1], [1, -1], [1, 1]], np.float32)
    glhelp.vertices(ctx, prog, quad, {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    raw = ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(h, w, 4).astype(np.int64)


def test_depth_component32_texture_and_renderbuffer():
    # texture: unsigned-int upload of values a float plane keeps exactly, read back as float and uint
    u = np.array([0, 0x40000000, 0x80000000, 0xFFFFFFFF], np.uint32)
    raw = _roundtrip(E.GL_DEPTH_COMPONENT32, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT, u, 2, 2,
                     read_type=E.GL_FLOAT)
    np.testing.assert_allclose(np.frombuffer(raw, np.float32), u / 4294967295.0, rtol=0, atol=2 ** -30)
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT32, 1, 1, 0, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT, None)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_DEPTH_SIZE) == [32]


@pytest.mark.parametrize("samples", [0, 4])
def test_depth_component32_renderbuffer_clear_and_read(samples):
    """VTK's pattern: a DEPTH_COMPONENT32 renderbuffer (multisampled too), cleared, resolved
    by a blit when multisampled, read back."""
    w, h = 6, 4
    with driver.Context(api="gl43", width=w, height=h) as ctx:
        def fbo(ns):
            f = ctx.glGenFramebuffers(1)[0]
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, f)
            colour, depth = ctx.glGenRenderbuffers(2)
            for rb, fmt, point in ((colour, E.GL_RGBA8, E.GL_COLOR_ATTACHMENT0),
                                   (depth, E.GL_DEPTH_COMPONENT32, E.GL_DEPTH_ATTACHMENT)):
                ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
                ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, ns, fmt, w, h)
                ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, point, E.GL_RENDERBUFFER, rb)
            assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
            assert ctx.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_DEPTH_SIZE) == [32]
            return f
        single = fbo(0)
        src = fbo(samples) if samples else single
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, src)
        ctx.glClearDepth(0.375)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
        if samples:
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src)
            ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, single)
            ctx.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, E.GL_DEPTH_BUFFER_BIT, E.GL_NEAREST)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, single)
        expect(ctx, E.GL_NO_ERROR)
        f = np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
        u = np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT), np.uint32)
    assert (f == 0.375).all()
    assert (u == 1610612736).all()       # round(0.375 * (2^32 - 1)) = 1610612735.625 -> ...736


@pytest.mark.parametrize("ifmt,fmt,type,dtype", [
    (E.GL_RGB8, E.GL_RGB, E.GL_UNSIGNED_BYTE, np.uint8),
    (E.GL_SRGB8, E.GL_RGB, E.GL_UNSIGNED_BYTE, np.uint8),          # transfers keep the encoding
    (E.GL_RGB8_SNORM, E.GL_RGB, E.GL_BYTE, np.int8),
    (E.GL_RGB8UI, E.GL_RGB_INTEGER, E.GL_UNSIGNED_BYTE, np.uint8),
    (E.GL_RGB8I, E.GL_RGB_INTEGER, E.GL_BYTE, np.int8),
    (E.GL_RGB16UI, E.GL_RGB_INTEGER, E.GL_UNSIGNED_SHORT, np.uint16),
    (E.GL_RGB16I, E.GL_RGB_INTEGER, E.GL_SHORT, np.int16),
    (E.GL_RGB16F, E.GL_RGB, E.GL_HALF_FLOAT, np.float16),
    (E.GL_RGB32F, E.GL_RGB, E.GL_FLOAT, np.float32),
    (E.GL_RGB32UI, E.GL_RGB_INTEGER, E.GL_UNSIGNED_INT, np.uint32),
    (E.GL_RGB32I, E.GL_RGB_INTEGER, E.GL_INT, np.int32),
])
def test_three_component_formats_round_trip(ifmt, fmt, type, dtype):
    """Odd width and UNPACK_ALIGNMENT 1: rows of 5 x 3 components (these raised a
    layout error before: three-component texels cannot be twiddled)."""
    rng = np.random.default_rng(ifmt)
    if np.dtype(dtype).kind == "f":
        data = (rng.integers(-64, 64, (3, 5, 3)) / 8).astype(dtype)
    else:
        info = np.iinfo(dtype)
        data = rng.integers(info.min, info.max, (3, 5, 3), endpoint=True).astype(dtype)
        if ifmt == E.GL_RGB8_SNORM:
            data[data == -128] = -127          # -128 reads back as -127 (both are -1.0)
    raw = _roundtrip(ifmt, fmt, type, data, 5, 3)
    assert np.array_equal(np.frombuffer(raw, dtype).reshape(data.shape), data)


def test_rgb8_texture_sampled_alpha_is_one():
    with driver.Context(api="gles3", width=3, height=1) as ctx:
        _texture(ctx)
        ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
        ctx.glTexImage2D(T2, 0, E.GL_RGB8, 3, 1, 0, E.GL_RGB, E.GL_UNSIGNED_BYTE, bytes([10, 20, 30, 40, 50, 60,
                                                                                        250, 0, 128]))
        got = _draw_sampled(ctx, 3, 1, es=True)
    assert got[0].tolist() == [[10, 20, 30, 255], [40, 50, 60, 255], [250, 0, 128, 255]]


@pytest.mark.parametrize("ifmt,fmt,type,dtype,stored", [
    (E.GL_LUMINANCE8, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE, np.uint8, 8),
    (E.GL_LUMINANCE16, E.GL_LUMINANCE, E.GL_UNSIGNED_SHORT, np.uint16, 16),
    (E.GL_LUMINANCE4, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE, np.uint8, 8),
    (E.GL_ALPHA8, E.GL_ALPHA, E.GL_UNSIGNED_BYTE, np.uint8, 8),
    (E.GL_ALPHA16, E.GL_ALPHA, E.GL_UNSIGNED_SHORT, np.uint16, 16),
    (E.GL_ALPHA12, E.GL_ALPHA, E.GL_UNSIGNED_SHORT, np.uint16, 16),
    (E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE, np.uint8, 8),
    (E.GL_LUMINANCE16_ALPHA16, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_SHORT, np.uint16, 16),
    (E.GL_LUMINANCE, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE, np.uint8, 8),
    (E.GL_LUMINANCE_ALPHA, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE, np.uint8, 8),
    (E.GL_ALPHA, E.GL_ALPHA, E.GL_UNSIGNED_BYTE, np.uint8, 8),
    (E.GL_SLUMINANCE8, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE, np.uint8, 8),
])
def test_legacy_formats_round_trip(ifmt, fmt, type, dtype, stored):
    n = 2 if fmt == E.GL_LUMINANCE_ALPHA else 1
    data = np.random.default_rng(ifmt).integers(0, np.iinfo(dtype).max, (2, 3, n), endpoint=True).astype(dtype)
    raw = _roundtrip(ifmt, fmt, type, data, 3, 2)
    assert np.array_equal(np.frombuffer(raw, dtype).reshape(data.shape), data)


@pytest.mark.parametrize("ifmt,want", [
    (E.GL_LUMINANCE8, lambda v: (v, v, v, 255)),
    (E.GL_INTENSITY8, lambda v: (v, v, v, v)),
    (E.GL_INTENSITY16, lambda v: (v, v, v, v)),
    (E.GL_INTENSITY, lambda v: (v, v, v, v)),
    (E.GL_ALPHA8, lambda v: (0, 0, 0, v)),
    (E.GL_ALPHA16, lambda v: (0, 0, 0, v)),
])
def test_legacy_formats_sampled(ifmt, want):
    """Sampling gives GL's table 15.1 expansion: L -> (L, L, L, 1), I -> (I, I, I, I),
    A -> (0, 0, 0, A); the client data is given as luminance or alpha bytes."""
    values = [0, 51, 204, 255]
    fmt = E.GL_ALPHA if ifmt in (E.GL_ALPHA8, E.GL_ALPHA16) else E.GL_LUMINANCE
    with driver.Context(api="compat", width=4, height=1) as ctx:
        _texture(ctx)
        ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
        ctx.glTexImage2D(T2, 0, ifmt, 4, 1, 0, fmt, E.GL_UNSIGNED_BYTE, bytes(values))
        got = _draw_sampled(ctx, 4, 1)
    assert got[0].tolist() == [list(want(v)) for v in values]


def test_rgb10_a2ui_rgb9_e5_r11f_g11f_b10f_srgb8_alpha8_and_stencil8():
    data = np.array([1023 | 512 << 10 | 1 << 20 | 3 << 30, 5 | 6 << 10 | 7 << 20 | 2 << 30], np.uint32)
    raw = _roundtrip(E.GL_RGB10_A2UI, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT_2_10_10_10_REV, data, 2, 1,
                     read_type=E.GL_UNSIGNED_INT)
    assert np.frombuffer(raw, np.uint32).reshape(2, 4).tolist() == [[1023, 512, 1, 3], [5, 6, 7, 2]]
    # RGB9_E5 keeps 9 mantissa bits under a shared exponent: 1, 0.5, 0.25 exactly; 0.001 is below
    # the largest channel's 2^-9 step (1/512) so it becomes 0
    rgb = np.array([[1.0, 0.5, 0.25], [0.75, 0.001, 3.0]], np.float32)
    raw = _roundtrip(E.GL_RGB9_E5, E.GL_RGB, E.GL_FLOAT, rgb, 2, 1)
    assert np.frombuffer(raw, np.float32).reshape(2, 3).tolist() == [[1.0, 0.5, 0.25], [0.75, 0.0, 3.0]]
    # 11/10-bit floats: 6 and 5 mantissa bits; 1 + 2^-6 is kept by 11 bits and is a tie
    # between 1 and 1 + 2^-5 for 10 bits (to even: 1); negatives clamp to 0
    rgb = np.array([[1.015625, 1.015625, 1.015625], [-1.0, 65000.0, 0.5]], np.float32)
    raw = _roundtrip(E.GL_R11F_G11F_B10F, E.GL_RGB, E.GL_FLOAT, rgb, 2, 1)
    assert np.frombuffer(raw, np.float32).reshape(2, 3).tolist() == [[1.015625, 1.015625, 1.0],
                                                                    [0.0, 65024.0, 0.5]]
    px = bytes([0, 128, 255, 7])
    assert _roundtrip(E.GL_SRGB8_ALPHA8, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.frombuffer(px, np.uint8), 1, 1) == px
    st = np.array([0, 1, 128, 255], np.uint8)
    raw = _roundtrip(E.GL_STENCIL_INDEX8, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE, st, 4, 1)
    assert np.frombuffer(raw, np.uint8).tolist() == st.tolist()


def _grid_values(bits: int, n: int) -> np.ndarray:
    """n values a ``bits``-bit unorm channel holds exactly: k / (2^bits - 1)."""
    top = (1 << bits) - 1
    return np.linspace(0, top, n).round() / top


_SWEEP = sorted((f for f in {**INTERNAL_FORMATS, **GENERIC, **LEGACY, **UNSIZED}.values() if f.enum not in ES_ONLY),
                key=lambda f: f.enum)


@pytest.mark.parametrize("info", [f for f in _SWEEP if f.kind == "unorm" and f.enum > 4],
                         ids=lambda f: hex(f.enum))
def test_every_unorm_format_keeps_its_bits(info):
    """For each normalised colour format: values on its channels' grids (sizes from
    TEXTURE_*_SIZE) uploaded as floats come back exactly; channels it lacks read
    as GL's defaults."""
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, info.enum, 4, 1, 0, E.GL_RGBA, E.GL_FLOAT, None)
        expect(ctx, E.GL_NO_ERROR)
        sizes = [ctx.glGetTexLevelParameteriv(T2, 0, p)[0] for p in
                 (E.GL_TEXTURE_RED_SIZE, E.GL_TEXTURE_GREEN_SIZE, E.GL_TEXTURE_BLUE_SIZE, E.GL_TEXTURE_ALPHA_SIZE)]
        if info.base in (E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_INTENSITY):
            # L and I have sizes of their own (R, G, B and, for I, A report 0)
            sizes[0] = max(ctx.glGetTexLevelParameteriv(T2, 0, p)[0]
                           for p in (E.GL_TEXTURE_LUMINANCE_SIZE, E.GL_TEXTURE_INTENSITY_SIZE))
        assert max(sizes) > 0
        cols = [_grid_values(b, 4) if b else np.zeros(4) for b in sizes]
        if info.base in (E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_INTENSITY):
            cols[1] = cols[2] = cols[0]                 # one luminance value per texel
            if info.base == E.GL_INTENSITY:
                cols[3] = cols[0]
        rgba = np.stack(cols, -1).astype(np.float32)
        ctx.glTexSubImage2D(T2, 0, 0, 0, 4, 1, E.GL_RGBA, E.GL_FLOAT, rgba.tobytes())
        got = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4)
        expect(ctx, E.GL_NO_ERROR)
    if info.base in (E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_INTENSITY):
        rgba[:, 1:3] = 0                           # L and I read back in red only (GL 4.6 compat 8.11.4)
        sizes[1] = sizes[2] = 0
        assert (got[:, 1:3] == 0).all()
    if info.base == E.GL_INTENSITY:                # one component: alpha reads as 1 (as llvmpipe)
        sizes[3] = 0
    for c, bits in enumerate(sizes):
        if bits:
            np.testing.assert_allclose(got[:, c], rgba[:, c], rtol=0, atol=1e-6, err_msg=f"channel {c}")
        elif c == 3:
            assert (got[:, 3] == 1.0).all()


@pytest.mark.parametrize("name,fmt", [
    ("GL_ALPHA16F_ARB", E.GL_ALPHA), ("GL_ALPHA32F_ARB", E.GL_ALPHA), ("GL_LUMINANCE16F_ARB", E.GL_LUMINANCE),
    ("GL_LUMINANCE32F_ARB", E.GL_LUMINANCE), ("GL_INTENSITY16F_ARB", E.GL_LUMINANCE),
    ("GL_INTENSITY32F_ARB", E.GL_LUMINANCE), ("GL_LUMINANCE_ALPHA16F_ARB", E.GL_LUMINANCE_ALPHA),
    ("GL_LUMINANCE_ALPHA32F_ARB", E.GL_LUMINANCE_ALPHA),
    ("GL_ALPHA8_SNORM", E.GL_ALPHA), ("GL_LUMINANCE8_SNORM", E.GL_LUMINANCE), ("GL_INTENSITY8_SNORM", E.GL_LUMINANCE),
    ("GL_LUMINANCE8_ALPHA8_SNORM", E.GL_LUMINANCE_ALPHA), ("GL_ALPHA16_SNORM", E.GL_ALPHA),
    ("GL_LUMINANCE16_SNORM", E.GL_LUMINANCE), ("GL_INTENSITY16_SNORM", E.GL_LUMINANCE),
    ("GL_LUMINANCE16_ALPHA16_SNORM", E.GL_LUMINANCE_ALPHA),
    # the unsized ones (stored in 8 bits)
    ("GL_ALPHA_SNORM", E.GL_ALPHA), ("GL_LUMINANCE_SNORM", E.GL_LUMINANCE), ("GL_INTENSITY_SNORM", E.GL_LUMINANCE),
    ("GL_LUMINANCE_ALPHA_SNORM", E.GL_LUMINANCE_ALPHA),
])
def test_legacy_float_and_snorm_formats(name, fmt):
    """ARB_texture_float / EXT_texture_snorm legacy rows: floats keep -0.5 and 1.5 (16 bits:
    exactly representable); snorm clamps to [-1, 1] on its 8- or 16-bit grid."""
    from driver.gl import formats
    n = 2 if fmt == E.GL_LUMINANCE_ALPHA else 1
    data = np.resize(np.array([-0.5, 0.25, 1.5, 0.75], np.float32), (1, 4, n))
    got = np.frombuffer(_roundtrip(getattr(formats, name), fmt, E.GL_FLOAT, data, 4, 1), np.float32).reshape(data.shape)
    if "SNORM" in name:
        scale = 32767.0 if "16" in name else 127.0
        want = np.floor(np.clip(data, -1, 1) * scale + 0.5) / scale      # nearest, halves up
    else:
        want = data
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-7)


@pytest.mark.parametrize("enum,sizes", [(0x9010, (0, 8, 0)), (0x9011, (8, 0, 0)), (0x9012, (8, 8, 0)),
                                         (0x9013, (0, 0, 8))])
def test_unsized_legacy_snorm_formats_compat_only(enum, sizes):
    """EXT_texture_snorm's ALPHA_SNORM, LUMINANCE_SNORM, LUMINANCE_ALPHA_SNORM and
    INTENSITY_SNORM (0x9010-0x9013): taken by a compatibility context, which reads back
    the unsized name and 8 bits of luminance/alpha/intensity; INVALID_VALUE in core."""
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, enum, 2, 2, 0, E.GL_RGBA, E.GL_FLOAT, None)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [enum]
        got = tuple(ctx.glGetTexLevelParameteriv(T2, 0, p)[0] for p in (
            E.GL_TEXTURE_LUMINANCE_SIZE, E.GL_TEXTURE_ALPHA_SIZE, E.GL_TEXTURE_INTENSITY_SIZE))
        assert got == sizes
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, enum, 2, 2, 0, E.GL_RGBA, E.GL_FLOAT, None)
        expect(ctx, E.GL_INVALID_VALUE)


def test_norm16_renderbuffer_read_as_unsigned_short_gles():
    """EXT_texture_norm16: a cleared R16 renderbuffer reads back as RGBA / UNSIGNED_SHORT."""
    with driver.Context(api="gles3", width=2, height=2) as ctx:
        fb = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_R16, 2, 2)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClearColor(0.25, 0.5, 0.5, 0.5)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        got = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_SHORT), np.uint16)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_SHORT)
        expect(ctx, E.GL_INVALID_OPERATION)
    assert got.reshape(4, 4).tolist() == [[16384, 0, 0, 65535]] * 4     # round(0.25 * 65535)


def test_luminance_reads_as_red_and_rgba_reads_as_luminance_sum():
    """glGetTexImage of a LUMINANCE texture as RGBA gives (L, 0, 0, 1) and as LUMINANCE gives L;
    of an RGBA texture as LUMINANCE gives R; glReadPixels of an RGBA buffer as LUMINANCE
    gives R + G + B (GL 4.6 compatibility sections 8.11.4 and 18.2.8)."""
    v, a = 51 / 255, 102 / 255                      # exactly representable in 8 bits
    lum = np.full(4, v, np.float32)
    as_rgba = np.frombuffer(_roundtrip(E.GL_LUMINANCE, E.GL_LUMINANCE, E.GL_FLOAT, lum, 2, 2,
                                       read_fmt=E.GL_RGBA), np.float32).reshape(4, 4)
    np.testing.assert_allclose(as_rgba, [[v, 0.0, 0.0, 1.0]] * 4, atol=1e-7)
    as_lum = np.frombuffer(_roundtrip(E.GL_LUMINANCE, E.GL_LUMINANCE, E.GL_FLOAT, lum, 2, 2), np.float32)
    np.testing.assert_allclose(as_lum, [v] * 4, atol=1e-7)
    la = np.array([v, a], np.float32)
    got = np.frombuffer(_roundtrip(E.GL_LUMINANCE_ALPHA, E.GL_LUMINANCE_ALPHA, E.GL_FLOAT, la, 1, 1,
                                   read_fmt=E.GL_RGBA), np.float32)
    np.testing.assert_allclose(got, [v, 0.0, 0.0, a], atol=1e-7)
    rgba = np.array([0.5, 0.25, 0.125, 1.0], np.float32)
    got = np.frombuffer(_roundtrip(E.GL_RGBA, E.GL_RGBA, E.GL_FLOAT, rgba, 1, 1, read_fmt=E.GL_LUMINANCE), np.float32)
    np.testing.assert_allclose(got, [128 / 255], atol=1e-7)      # RGBA is stored in 8 bits: 0.5 -> 128
    with driver.Context(api="compat", width=2, height=1) as ctx:
        ctx.glClearColor(0.5, 0.25, 0.125, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        summed = np.frombuffer(ctx.glReadPixels(0, 0, 2, 1, E.GL_LUMINANCE, E.GL_FLOAT), np.float32)
        ctx.glClearColor(0.5, 0.5, 0.5, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        clamped = np.frombuffer(ctx.glReadPixels(0, 0, 2, 1, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE), np.uint8)
    # the window is RGBA8: 0.5, 0.25, 0.125 are stored as 128, 64, 32 (/255)
    assert summed.tolist() == pytest.approx([(128 + 64 + 32) / 255] * 2, abs=1e-6)
    assert clamped.tolist() == [255, 255] * 2


def _client_for(info):
    """A client (format, type) GL accepts for every texture of ``info``'s kind (compat)."""
    if info.kind in ("int", "uint"):
        return E.GL_RGBA_INTEGER, E.GL_INT if info.kind == "int" else E.GL_UNSIGNED_INT
    if info.kind == "depth":
        return E.GL_DEPTH_COMPONENT, E.GL_FLOAT
    if info.kind == "depthstencil":
        return E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8
    if info.kind == "stencil":
        return E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE
    return E.GL_RGBA, E.GL_FLOAT


@pytest.mark.parametrize("info", [f for f in _SWEEP if f.kind != "unorm" and f.enum > 4], ids=lambda f: hex(f.enum))
def test_every_other_format_uploads_and_reads_back(info):
    """Snorm, float, integer, depth and stencil formats: an image uploaded from values
    each format holds exactly (small integers, halves, 0/1 depth) reads back unchanged."""
    fmt, type = _client_for(info)
    if info.kind == "depth":
        values = np.array([0.0, 1.0, 1.0, 0.0], np.float32)    # exact in every depth format
    elif info.kind == "snorm":
        values = np.array([-1.0, 0.0, 1.0, -1.0] * 4, np.float32)
    elif type == E.GL_FLOAT:
        values = np.array([0.5, -2.0, 1.5, 0.25] * 4, np.float32)
        if info.pipe.name.startswith(("R11G11B10", "R9G9B9E5")):
            values = np.abs(values)                 # unsigned floats
    elif info.kind in ("int", "uint"):
        values = np.array([1, 2, 3, 1] * 4, np.int32 if info.kind == "int" else np.uint32)
    elif info.kind == "depthstencil":
        values = np.array([0xFFFFFF00 | 7, 0x00000000 | 200, 0x80000000 | 1, 0x40000000 | 3], np.uint32)
    else:
        values = np.array([0, 1, 128, 255], np.uint8)
    n = values.size // 4 if fmt in (E.GL_RGBA, E.GL_RGBA_INTEGER) else values.size
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
        ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
        ctx.glTexImage2D(T2, 0, info.enum, n, 1, 0, fmt, type, values.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        got = np.frombuffer(ctx.glGetTexImage(T2, 0, fmt, type), values.dtype)
        expect(ctx, E.GL_NO_ERROR)
    if fmt in (E.GL_RGBA, E.GL_RGBA_INTEGER):
        sizes = np.array([info.base in bases for bases in (
            (E.GL_RED, E.GL_RG, E.GL_RGB, E.GL_RGBA, E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_INTENSITY),
            (E.GL_RG, E.GL_RGB, E.GL_RGBA), (E.GL_RGB, E.GL_RGBA),
            (E.GL_RGBA, E.GL_ALPHA, E.GL_LUMINANCE_ALPHA))])      # an intensity's alpha reads as 1
        got, want = got.reshape(-1, 4), values.reshape(-1, 4).copy()
        for c in range(4):
            if sizes[c]:
                assert got[:, c].tolist() == want[:, c].tolist(), f"channel {c}"
            else:
                assert (got[:, c] == (1 if c == 3 else 0)).all(), f"missing channel {c}"
    else:
        assert got.tolist() == values.tolist()


@pytest.mark.parametrize("api", ["gles2", "gles3"])
def test_bgra8888_in_gles_only(api):
    """EXT_texture_format_BGRA8888: BGRA texels (B, G, R, A bytes) sample as RGBA in GLES;
    desktop GL refuses BGRA as an internal format."""
    texel = bytes([30, 20, 10, 255, 0, 0, 255, 128])            # (R 10, G 20, B 30), (R 255, A 128)
    with driver.Context(api=api, width=2, height=1) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, E.GL_BGRA, 2, 1, 0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, texel)
        expect(ctx, E.GL_NO_ERROR)
        if api == "gles3":
            got = _draw_sampled(ctx, 2, 1, es=True)
            assert got[0].tolist() == [[10, 20, 30, 255], [255, 0, 0, 128]]
        ctx.glTexImage2D(T2, 0, E.GL_BGRA, 2, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texel)
        expect(ctx, E.GL_INVALID_OPERATION)
    with driver.Context(api="gl43", width=2, height=1) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, E.GL_BGRA, 2, 1, 0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, texel)
        expect(ctx, E.GL_INVALID_VALUE)


def test_generic_compressed_formats_report_their_base_format():
    """GL 4.6 section 8.7: a generic compressed format the GL stores uncompressed reads back
    as its base format (TEXTURE_INTERNAL_FORMAT: GL_RGBA for GL_COMPRESSED_RGBA, as Mesa and
    piglit's internal-format-query expect; the sRGB ones their linear base, GL_RGB for
    GL_COMPRESSED_SRGB), stored like it (sRGB-encoded for the sRGB ones), and
    TEXTURE_COMPRESSED is false."""
    from driver.gl.formats import GENERIC_STORED_AS, lookup
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        for generic, specific in GENERIC_STORED_AS.items():
            assert lookup(generic).pipe.name.replace("SRGB", "UNORM") == lookup(specific).pipe.name
            ctx.glTexImage2D(T2, 0, generic, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
            expect(ctx, E.GL_NO_ERROR)
            assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [specific]
            assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_COMPRESSED) == [0]
        ctx.glTexImage2D(T2, 0, E.GL_RGB16, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [E.GL_RGB16]
