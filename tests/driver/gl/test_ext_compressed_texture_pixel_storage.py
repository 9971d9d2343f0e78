"""GL_ARB_compressed_texture_pixel_storage (core GL 4.2; listed in core GL 3.2+ and
compatibility): with UNPACK_/PACK_COMPRESSED_BLOCK_SIZE and _WIDTH set, ROW_LENGTH and
SKIP_PIXELS apply to compressed images in whole blocks; with _HEIGHT too SKIP_ROWS and
IMAGE_HEIGHT; with _DEPTH too SKIP_IMAGES (GL 4.6 sections 8.4.1, 8.7, 8.11.4). A stated
block size other than the format's, or a skip that is not whole blocks, is
INVALID_OPERATION and uploads nothing. RGTC1 blocks (4x4 texels, 8 bytes) of distinct
bytes, so every block's place is checked by hand."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

RGTC1 = E.GL_COMPRESSED_RED_RGTC1
T2, T2A = E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY
PARAMS = ("WIDTH", "HEIGHT", "DEPTH", "SIZE")


def _block(*ids) -> bytes:
    return bytes([sum(i * 16 ** k for k, i in enumerate(ids)) % 251 + 1] * 8)


def _store(ctx, side, width=4, height=4, depth=1, size=8, **modes):
    for name, v in zip(PARAMS, (width, height, depth, size)):
        ctx.glPixelStorei(getattr(E, f"GL_{side}_COMPRESSED_BLOCK_{name}"), v)
    for name, v in modes.items():
        ctx.glPixelStorei(getattr(E, f"GL_{side}_{name.upper()}"), v)


@pytest.fixture
def ctx():
    with driver.Context(api="gl46", width=4, height=4) as c:
        yield c


def test_the_names_and_queries_exist():
    for api in ("gl32", "gl46", "compat"):
        with driver.Context(api=api, width=4, height=4) as c:
            n = c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
            assert "GL_ARB_compressed_texture_pixel_storage" in {c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
            for side in ("UNPACK", "PACK"):
                for name in PARAMS:
                    pname = getattr(E, f"GL_{side}_COMPRESSED_BLOCK_{name}")
                    assert c.glGetIntegerv(pname) == [0]
                    c.glPixelStorei(pname, 16)
                    assert c.glGetIntegerv(pname) == [16]
                    c.glPixelStorei(pname, -1)
                    expect(c, E.GL_INVALID_VALUE)
                    assert c.glGetIntegerv(pname) == [16]


def test_upload_takes_rows_and_skips_in_blocks(ctx):
    """Client image: 3 rows of 4 blocks (ROW_LENGTH 16 px); the 8x8 image is the 2x2
    blocks from row 1, column 1 (SKIP_ROWS 4, SKIP_PIXELS 4)."""
    client = b"".join(_block(r, c) for r in range(3) for c in range(4))
    _store(ctx, "UNPACK", row_length=16, skip_pixels=4, skip_rows=4)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(T2, tex)
    ctx.glCompressedTexImage2D(T2, 0, RGTC1, 8, 8, 0, 32, client)
    expect(ctx, E.GL_NO_ERROR)
    want = _block(1, 1) + _block(1, 2) + _block(2, 1) + _block(2, 2)
    assert ctx.glGetCompressedTexImage(T2, 0) == want
    # a sub-image of one block from row 0, column 3
    _store(ctx, "UNPACK", row_length=16, skip_pixels=12, skip_rows=0)
    ctx.glCompressedTexSubImage2D(T2, 0, 4, 0, 4, 4, RGTC1, 8, client)
    assert ctx.glGetCompressedTexImage(T2, 0) == _block(1, 1) + _block(0, 3) + _block(2, 1) + _block(2, 2)
    expect(ctx, E.GL_NO_ERROR)


def test_without_a_block_size_the_modes_do_not_apply(ctx):
    ctx.glPixelStorei(E.GL_UNPACK_ROW_LENGTH, 16)
    ctx.glPixelStorei(E.GL_UNPACK_SKIP_PIXELS, 4)
    tight = b"".join(_block(0, c) for c in range(4))
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(T2, tex)
    ctx.glCompressedTexImage2D(T2, 0, RGTC1, 8, 8, 0, 32, tight)
    assert ctx.glGetCompressedTexImage(T2, 0) == tight


def test_errors_change_nothing(ctx):
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(T2, tex)
    first = b"".join(_block(0, c) for c in range(4))
    ctx.glCompressedTexImage2D(T2, 0, RGTC1, 8, 8, 0, 32, first)
    for store in (dict(size=16), dict(skip_pixels=2), dict(skip_rows=6)):
        _store(ctx, "UNPACK", **store)
        ctx.glCompressedTexSubImage2D(T2, 0, 0, 0, 8, 8, RGTC1, 32, bytes(range(200)))
        expect(ctx, E.GL_INVALID_OPERATION)
        _store(ctx, "UNPACK", skip_pixels=0, skip_rows=0)
    assert ctx.glGetCompressedTexImage(T2, 0) == first


def test_array_layers_skip_images_and_image_height(ctx):
    """2 layers of 1x1 block from a client volume of IMAGE_HEIGHT 8 px (2 block rows
    per image), SKIP_IMAGES 1 (depth block 1): layers come from images 1 and 2, row 0."""
    client = b"".join(_block(i, r) for i in range(3) for r in range(2))
    _store(ctx, "UNPACK", image_height=8, skip_images=1)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(T2A, tex)
    ctx.glCompressedTexImage3D(T2A, 0, RGTC1, 4, 4, 2, 0, 16, client)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetCompressedTexImage(T2A, 0) == _block(1, 0) + _block(2, 0)


def test_readback_lays_rows_out_and_leaves_the_gaps(ctx):
    blocks = b"".join(_block(0, c) for c in range(4))
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(T2, tex)
    ctx.glCompressedTexImage2D(T2, 0, RGTC1, 8, 8, 0, 32, blocks)
    _store(ctx, "PACK", row_length=12, skip_pixels=4, skip_rows=4)
    out = bytearray(b"\xee" * 80)
    ctx.glGetCompressedTexImage(T2, 0, dest=lambda n: memoryview(out)[:n])
    expect(ctx, E.GL_NO_ERROR)
    row_B = 3 * 8                                            # ROW_LENGTH 12 px: 3 blocks
    want = bytearray(b"\xee" * 80)
    for r in range(2):
        at = row_B + 8 + r * row_B                           # SKIP_ROWS one block row, SKIP_PIXELS one block
        want[at:at + 16] = blocks[16 * r:16 * r + 16]
    assert out == want
    # through a pixel pack buffer, at an offset
    pbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pbo)
    ctx.glBufferData(E.GL_PIXEL_PACK_BUFFER, 96, b"\xee" * 96, E.GL_STATIC_READ)
    ctx.glGetCompressedTexImage(T2, 0, 16)
    expect(ctx, E.GL_NO_ERROR)
    assert bytes(ctx.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 16, 80)) == bytes(want)


def test_upload_from_a_pixel_unpack_buffer(ctx):
    client = b"".join(_block(r, c) for r in range(3) for c in range(4))
    pbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, pbo)
    ctx.glBufferData(E.GL_PIXEL_UNPACK_BUFFER, 8 + len(client), b"\0" * 8 + client, E.GL_STATIC_DRAW)
    _store(ctx, "UNPACK", row_length=16, skip_pixels=8, skip_rows=4)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(T2, tex)
    ctx.glCompressedTexImage2D(T2, 0, RGTC1, 8, 8, 0, 32, 8)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
    assert ctx.glGetCompressedTexImage(T2, 0) == _block(1, 2) + _block(1, 3) + _block(2, 2) + _block(2, 3)
