"""Pixel transfers through layout's format table (GL 4.6 section 8.4.4)."""

import numpy as np

from driver.gl import enums as E
from driver.gl.textures import texture_resource
from driver.gl.pixels import client_format, image_size_B, read_client_image, write_client_image
from driver.gl.state import PixelStore
from tests.driver.gl.test_textures import tex


def test_client_formats():
    assert client_format(E.GL_RGBA, E.GL_UNSIGNED_BYTE) == "R8G8B8A8_UNORM"
    assert client_format(E.GL_BGRA, E.GL_UNSIGNED_BYTE) == "B8G8R8A8_UNORM"
    assert client_format(E.GL_RGBA_INTEGER, E.GL_SHORT) == "R16G16B16A16_SINT"
    assert client_format(E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5) == "B5G6R5_UNORM"
    assert client_format(E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4) == "A4B4G4R4_UNORM"


def test_image_size_with_unpack_state():
    # GL 4.6 section 8.4.4.1: rows padded to ALIGNMENT, skips in front
    st = PixelStore(alignment=4, row_length=5, skip_rows=1, skip_pixels=2)
    # row = ceil(5*3/4)*4 = 16 B; first = 1*16 + 2*3 = 22; + 1 row + 3 px * 3 B
    assert image_size_B(st, E.GL_RGB, E.GL_UNSIGNED_BYTE, 3, 2, 1) == 22 + 16 + 9
    # colour indices span what stencil indices do (the C ABI copied 0 bytes of them)
    assert image_size_B(st, E.GL_COLOR_INDEX, E.GL_UNSIGNED_SHORT, 3, 2, 1) == \
        image_size_B(st, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_SHORT, 3, 2, 1) == 1 * 12 + 4 + 12 + 6
    # BITMAP: rows of ceil(5 / 8) = 1 byte padded to 4, skip_rows + height rows, and the
    # skipped pixels' bytes (GL 2.1 section 3.7)
    assert image_size_B(st, E.GL_COLOR_INDEX, E.GL_BITMAP, 3, 2, 1) == (1 + 2) * 4 + 1


def test_read_and_write_roundtrip_with_padding():
    st = PixelStore(alignment=4)
    raw = bytes([10, 20, 30, 40, 50, 60, 0, 0, 70, 80, 90, 100, 110, 120])   # 2x2 RGB8
    rgba = read_client_image(raw, st, E.GL_RGB, E.GL_UNSIGNED_BYTE, 2, 2, 1)
    assert rgba.shape == (1, 2, 2, 4)
    assert np.allclose(rgba[0, 1, 0], [70 / 255, 80 / 255, 90 / 255, 1.0])
    out = write_client_image(rgba, st, E.GL_RGB, E.GL_UNSIGNED_BYTE)
    assert out == raw


def test_packed_565_decodes_msb_red():
    st = PixelStore(alignment=1)
    raw = np.array([0xF800], np.uint16).tobytes()            # GL: red in bits 11-15
    rgba = read_client_image(raw, st, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5, 1, 1, 1)
    assert np.allclose(rgba[0, 0, 0], [1, 0, 0, 1])


def test_tex_image_converts_to_the_resource_format(es3):
    t = tex(es3)
    es3.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    es3.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA16F, 1, 1, 0, E.GL_RGBA, E.GL_FLOAT,
                     np.array([0.5, -2.0, 1.0, 0.25], np.float32))
    es3.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    res = texture_resource(es3, es3.textures.get(t))
    half = np.frombuffer(bytes(res.levels[0][3]), np.float16)
    assert list(half) == [0.5, -2.0, 1.0, 0.25]


def _all_client_pairs():
    from driver.gl.pixels import _CHANNELS, _PACKED, _PACKED_FIELDS, _TYPES
    pairs = {(f, t) for f in _CHANNELS for t in (*_TYPES, *_PACKED_FIELDS)} | {(f, t) for t, f in _PACKED}
    return sorted(p for p in pairs if client_format(*p) is not None)


def test_passthrough_reads_give_the_bytes_of_the_rgba_round_trip():
    """Wherever passthrough_format allows copying a resource's bytes to the client,
    the copy equals unpacking to RGBA and packing again (random bytes, pack state
    with alignment, row length and skips)."""
    from driver.gl.pixels import from_resource_bytes, passthrough_format, write_client_bytes
    import layout
    rng = np.random.default_rng(3)
    stores = [PixelStore(alignment=8, row_length=7, skip_rows=1, skip_pixels=2), PixelStore(alignment=1)]
    allowed = []
    for fmt, type_ in _all_client_pairs():
        name = passthrough_format(client_format(fmt, type_), fmt, type_)
        if name is None:
            continue
        allowed.append(name)
        bpp = layout.get_format(name).block_size_B
        raw = rng.integers(0, 256, (1, 3, 5, bpp), dtype=np.uint8)
        rgba = from_resource_bytes(raw.tobytes(), name, (1, 3, 5))
        for st in stores:                               # padded and skipped; tightly packed
            want = write_client_image(rgba, st, fmt, type_)
            assert write_client_bytes(raw, st, fmt, type_) == want, name
    assert {"R8G8B8A8_UNORM", "B8G8R8A8_UNORM", "R16G16B16A16_UINT", "R10G10B10A2_UNORM"} <= set(allowed)
    # conversions are never passed through
    assert passthrough_format("R8G8B8A8_UNORM", E.GL_RGBA, E.GL_FLOAT) is None
    assert passthrough_format("R8G8B8A8_SRGB", E.GL_RGBA, E.GL_UNSIGNED_BYTE) == "R8G8B8A8_UNORM"
    assert passthrough_format("R8G8B8A8_SNORM", E.GL_RGBA, E.GL_BYTE) is None       # -128 reads as -127
    assert passthrough_format("R32G32B32A32_FLOAT", E.GL_RGBA, E.GL_FLOAT) is None  # NaN payloads


def test_green_blue_and_bgr_client_data_through_textures_and_readback():
    """GL 4.6 table 8.3: GREEN and BLUE carry one component, BGR three in reverse
    order (and their integer forms); the others read as 0 and alpha as 1."""
    import driver
    data = bytes([10, 20, 30, 40])
    with driver.Context("compat", 4, 4) as ctx:
        g = ctx.gl
        g.glBindTexture(E.GL_TEXTURE_2D, g.glGenTextures(1)[0])
        for fmt, component in ((E.GL_GREEN, 1), (E.GL_BLUE, 2)):
            g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 1, 0, fmt, E.GL_UNSIGNED_BYTE, data)
            rgba = np.frombuffer(g.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
            expected = np.zeros((4, 4), np.uint8)
            expected[:, 3] = 255
            expected[:, component] = [10, 20, 30, 40]
            np.testing.assert_array_equal(rgba.reshape(4, 4), expected)
            assert g.glGetTexImage(E.GL_TEXTURE_2D, 0, fmt, E.GL_UNSIGNED_BYTE) == data
        bgr = bytes(range(12))
        g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 1, 0, E.GL_BGR, E.GL_UNSIGNED_BYTE, bgr)
        rgba = np.frombuffer(g.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        np.testing.assert_array_equal(rgba.reshape(4, 4)[:, :3], np.arange(12).reshape(4, 3)[:, ::-1])
        g.glClearColor(0.2, 0.4, 0.6, 1.0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        assert g.glReadPixels(0, 0, 2, 1, E.GL_GREEN, E.GL_UNSIGNED_BYTE) == bytes([102, 102])
        assert g.glReadPixels(0, 0, 2, 1, E.GL_BLUE, E.GL_UNSIGNED_BYTE) == bytes([153, 153])
        assert g.glReadPixels(0, 0, 1, 1, E.GL_BGR, E.GL_UNSIGNED_BYTE) == bytes([153, 102, 51])
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    # the integer forms, as the client image functions see them
    st = PixelStore(alignment=1)
    rgba = read_client_image(bytes([7, 9]), st, E.GL_BLUE_INTEGER, E.GL_UNSIGNED_BYTE, 2, 1, 1)
    np.testing.assert_array_equal(rgba[0, 0], [[0, 0, 7, 1], [0, 0, 9, 1]])
    assert write_client_image(rgba, st, E.GL_BLUE_INTEGER, E.GL_UNSIGNED_BYTE) == bytes([7, 9])


def test_client_formats_layout_lacks_convert_with_gls_rules():
    """Client data of formats the hardware has no format for: 32-bit normalised
    luminance-alpha (c / (2^32 - 1), GL 4.6 section 2.3.5) and packed types with the
    other component order (BGRA with 4_4_4_4, RGBA with 10_10_10_2: the first
    component in the most significant bits, table 8.8), read and written back."""
    st = PixelStore(alignment=1)
    la = np.array([0xC0000000, 0x40000000], np.uint32)
    rgba = read_client_image(la.tobytes(), st, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_INT, 1, 1, 1)
    l, a = 0xC0000000 / 0xFFFFFFFF, 0x40000000 / 0xFFFFFFFF
    np.testing.assert_allclose(rgba[0, 0, 0], [l, l, l, a], rtol=1e-7)
    ends = np.array([0xFFFFFFFF, 0], np.uint32)        # exact in float32 (0.75 is not exact)
    back = read_client_image(ends.tobytes(), st, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_INT, 1, 1, 1)
    assert write_client_image(back, st, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_INT) == ends.tobytes()
    word = np.array([0x1234], np.uint16)                     # B=1, G=2, R=3, A=4 (of 15)
    rgba = read_client_image(word.tobytes(), st, E.GL_BGRA, E.GL_UNSIGNED_SHORT_4_4_4_4, 1, 1, 1)
    np.testing.assert_allclose(rgba[0, 0, 0], np.array([3, 2, 1, 4]) / 15, rtol=1e-6)
    assert write_client_image(rgba, st, E.GL_BGRA, E.GL_UNSIGNED_SHORT_4_4_4_4) == word.tobytes()
    r, g, b, alpha = 1023, 512, 1, 2
    word = np.array([r << 22 | g << 12 | b << 2 | alpha], np.uint32)
    rgba = read_client_image(word.tobytes(), st, E.GL_RGBA, E.GL_UNSIGNED_INT_10_10_10_2, 1, 1, 1)
    np.testing.assert_allclose(rgba[0, 0, 0], [r / 1023, g / 1023, b / 1023, alpha / 3], rtol=1e-6)
    assert write_client_image(rgba, st, E.GL_RGBA, E.GL_UNSIGNED_INT_10_10_10_2) == word.tobytes()
    # through the GL: a texture upload and glReadPixels of such data
    import driver
    with driver.Context("compat", 2, 2) as ctx:
        g = ctx.gl
        g.glBindTexture(E.GL_TEXTURE_2D, g.glGenTextures(1)[0])
        g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RG32F, 1, 1, 0, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_INT, la.tobytes())
        got = np.frombuffer(g.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RG, E.GL_FLOAT), np.float32)
        np.testing.assert_allclose(got, [l, l], rtol=1e-6)
        g.glClearColor(0.0, 1.0, 0.0, 1.0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        out = np.frombuffer(g.glReadPixels(0, 0, 1, 1, E.GL_RGB, E.GL_UNSIGNED_INT), np.uint32)
        assert list(out) == [0, 0xFFFFFFFF, 0]
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []


def test_ext_abgr_client_data():
    """GL_EXT_abgr: ABGR_EXT client pixels are alpha, blue, green, red in memory order,
    for textures and glReadPixels, with array and packed types; listed in desktop
    contexts, unknown to GLES."""
    import driver
    from driver.gl.formats import GL_ABGR_EXT
    for api in ("compat", "gl46"):
        with driver.Context(api, 2, 2) as ctx:
            g = ctx.gl
            assert "GL_EXT_abgr" in [g.glGetStringi(E.GL_EXTENSIONS, i)
                                     for i in range(g.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
            g.glBindTexture(E.GL_TEXTURE_2D, g.glGenTextures(1)[0])
            g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, GL_ABGR_EXT, E.GL_UNSIGNED_BYTE,
                           bytes([40, 30, 20, 10]))                  # A=40, B=30, G=20, R=10
            assert g.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE) == bytes([10, 20, 30, 40])
            g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, 1, 1, 0, GL_ABGR_EXT, E.GL_FLOAT,
                           np.array([0.25, 0.5, 0.75, 1.0], np.float32).tobytes())
            got = np.frombuffer(g.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_FLOAT), np.float32)
            assert list(got) == [1.0, 0.75, 0.5, 0.25]
            g.glClearColor(0.2, 0.4, 0.6, 0.8)
            g.glClear(E.GL_COLOR_BUFFER_BIT)
            assert g.glReadPixels(0, 0, 1, 1, GL_ABGR_EXT, E.GL_UNSIGNED_BYTE) == bytes([204, 153, 102, 51])
            word = np.frombuffer(g.glReadPixels(0, 0, 1, 1, GL_ABGR_EXT, E.GL_UNSIGNED_SHORT_4_4_4_4), np.uint16)[0]
            assert word == (12 << 12 | 9 << 8 | 6 << 4 | 3)          # A, B, G, R from the top
            assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    with driver.Context("gles3", 2, 2) as ctx:
        g = ctx.gl
        g.glReadPixels(0, 0, 1, 1, GL_ABGR_EXT, E.GL_UNSIGNED_BYTE)
        assert g.glGetError() != E.GL_NO_ERROR
