"""The C entry points of compressed images under ARB_compressed_texture_pixel_storage:
glCompressedTex(Sub)Image* read as much client memory as the unpack state lays the
image out over (not imageSize bytes from the pointer), and glGetCompressedTexImage
writes the rows where the pack state puts them, leaving the bytes between them. In
process with a plain cffi FFI (as test_marshal.py); blocks by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cffi
import pytest

import driver
from driver.abi import marshal as M
from driver.gl import enums as E

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"
RGTC1 = E.GL_COMPRESSED_RED_RGTC1


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_compressed", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


def _block(r, c) -> bytes:
    return bytes([16 * r + c + 1] * 8)


def test_upload_and_readback_through_the_c_entry_points(ffi):
    client = b"".join(_block(r, c) for r in range(3) for c in range(4))
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        for name, v in (("WIDTH", 4), ("HEIGHT", 4), ("DEPTH", 1), ("SIZE", 8)):
            ctx.glPixelStorei(getattr(E, f"GL_UNPACK_COMPRESSED_BLOCK_{name}"), v)
            ctx.glPixelStorei(getattr(E, f"GL_PACK_COMPRESSED_BLOCK_{name}"), v)
        ctx.glPixelStorei(E.GL_UNPACK_ROW_LENGTH, 16)
        ctx.glPixelStorei(E.GL_UNPACK_SKIP_ROWS, 4)
        ctx.glPixelStorei(E.GL_UNPACK_SKIP_PIXELS, 4)
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        src = ffi.new("char[]", client)
        M.OVERRIDES["glCompressedTexImage2D"](ctx, E.GL_TEXTURE_2D, 0, RGTC1, 8, 8, 0, 32, src)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glPixelStorei(E.GL_PACK_ROW_LENGTH, 12)
        ctx.glPixelStorei(E.GL_PACK_SKIP_PIXELS, 4)
        dst = ffi.new("char[]", b"\xee" * 64)
        M.OVERRIDES["glGetCompressedTexImage"](ctx, E.GL_TEXTURE_2D, 0, dst)
        assert ctx.glGetError() == E.GL_NO_ERROR
        got = ffi.buffer(dst, 64)[:]
        want = bytearray(b"\xee" * 64)
        want[8:24] = _block(1, 1) + _block(1, 2)                 # row 0 after one skipped block
        want[32:48] = _block(2, 1) + _block(2, 2)                # row 1: 3 blocks (12 px) further
        assert got == bytes(want)


def test_compressed_sub_image_follows_the_pack_state(ffi):
    """glGetCompressedTextureSubImage lays its blocks out as the pack state's compressed
    block says (GL 4.6 section 8.11.4 with ARB_compressed_texture_pixel_storage), into
    client memory in place and into a pixel pack buffer (piglit
    arb_get_texture_sub_image-getcompressed; they were written tightly at the pointer)."""
    # a 16 x 8 RGTC1 image: 4 x 2 blocks, block (r, c) filled with 16 r + c + 1
    blocks = b"".join(_block(r, c) for r in range(2) for c in range(4))
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, RGTC1, 16, 8, 0, len(blocks), blocks)
        for name, v in (("WIDTH", 4), ("HEIGHT", 4), ("DEPTH", 1), ("SIZE", 8)):
            ctx.glPixelStorei(getattr(E, f"GL_PACK_COMPRESSED_BLOCK_{name}"), v)
        ctx.glPixelStorei(E.GL_PACK_ROW_LENGTH, 16)       # 4 blocks, 32 bytes a block row
        ctx.glPixelStorei(E.GL_PACK_SKIP_PIXELS, 8)       # 2 blocks
        ctx.glPixelStorei(E.GL_PACK_SKIP_ROWS, 4)         # 1 block row
        # the upper-right 8 x 4 texels: blocks (1, 2) and (1, 3), at byte 32 + 16 = 48
        get = M.OVERRIDES["glGetCompressedTextureSubImage"]
        dst = ffi.new("char[]", b"\xee" * 64)
        get(ctx, tex, 0, 8, 4, 0, 8, 4, 1, 64, dst)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert ffi.buffer(dst, 64)[:] == b"\xee" * 48 + _block(1, 2) + _block(1, 3)
        get(ctx, tex, 0, 8, 4, 0, 8, 4, 1, 63, dst)              # one byte short
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
        # the same into a pack buffer at offset 8: the bytes around keep theirs
        pbo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pbo)
        ctx.glBufferData(E.GL_PIXEL_PACK_BUFFER, 72, b"\x55" * 72, E.GL_STREAM_READ)
        get(ctx, tex, 0, 8, 4, 0, 8, 4, 1, 0, ffi.cast("void *", 8))
        assert ctx.glGetError() == E.GL_NO_ERROR
        got = bytes(ctx.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 0, 72))
        assert got == b"\x55" * 56 + _block(1, 2) + _block(1, 3)
