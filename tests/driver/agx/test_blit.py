"""Blits: GPU (BLIT commands) against the CPU path and numpy."""

import numpy as np
import pytest

from driver.agx.blit import cpu_blit
from driver.agx.pipe import AgxScreen
from driver.gallium import (BlitImage, BlitInfo, Box, PipeBind, PipeFormat, PipeMap, PipeMask, PipeTexFilter,
                            PipeTextureTarget, ResourceTemplate, ScissorState)


@pytest.fixture(scope="module")
def screen():
    s = AgxScreen()
    yield s
    s.destroy()


def tex(screen, ctx, w, h, data=None, samples=0, fmt=PipeFormat.R8G8B8A8_UNORM):
    r = screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_2D, fmt, w, h, nr_samples=samples,
                                                bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW))
    if data is not None:
        bpp = data.shape[-1] * data.dtype.itemsize
        ctx.texture_subdata(r, 0, PipeMap.WRITE, Box(0, 0, 0, w, h, 1), data.tobytes(), w * bpp, w * h * bpp)
    return r


def read(ctx, r, w, h):
    tr = ctx.transfer_map(r, 0, PipeMap.READ, Box(0, 0, 0, w, h, 1))
    return np.frombuffer(bytes(tr.data), np.uint8).reshape(h, w, -1).copy()


@pytest.mark.parametrize("case", ["copy", "scale_nearest", "mirror", "scissor_mask", "linear"])
def test_gpu_blit_matches_cpu_blit(screen, case):
    ctx = screen.context_create()
    rng = np.random.default_rng(7)
    src_data = rng.integers(0, 256, (12, 16, 4), np.uint8)
    dst_data = rng.integers(0, 256, (20, 24, 4), np.uint8)
    outs = []
    for path in ("gpu", "cpu"):
        src, dst = tex(screen, ctx, 16, 12, src_data), tex(screen, ctx, 24, 20, dst_data)
        sbox, dbox = Box(2, 1, 0, 8, 6), Box(5, 3, 0, 8, 6)
        filt, mask, sc = PipeTexFilter.NEAREST, PipeMask.RGBA, None
        if case == "scale_nearest":
            dbox = Box(1, 2, 0, 16, 12)
        elif case == "mirror":
            dbox = Box(13, 3, 0, -8, 6)
        elif case == "scissor_mask":
            sc, mask = ScissorState(6, 4, 10, 20), PipeMask.R | PipeMask.A
        elif case == "linear":
            dbox, filt = Box(0, 0, 0, 24, 20), PipeTexFilter.LINEAR
        info = BlitInfo(BlitImage(dst, 0, dbox, PipeFormat.R8G8B8A8_UNORM), BlitImage(src, 0, sbox, PipeFormat.R8G8B8A8_UNORM),
                        mask=mask, filter=filt, scissor=sc)
        if path == "gpu":
            submits = ctx.stats["submits"]
            ctx.blit(info)
            assert ctx.stats["submits"] == submits + 1          # a BLIT command, not the CPU
        else:
            ctx._sync_resource(dst, True)
            cpu_blit(info)
        outs.append(read(ctx, dst, 24, 20).astype(int))
    tol = 2 if case == "linear" else 0
    assert np.abs(outs[0] - outs[1]).max() <= tol


def test_gpu_resolve_averages_samples(screen):
    ctx = screen.context_create()
    ms = tex(screen, ctx, 8, 8, samples=4)
    samples = np.zeros((8, 8, 4, 4), np.uint8)
    samples[..., 0] = [[0, 100, 200, 100]]          # red per sample
    samples[..., 3] = 255
    tr = ctx.transfer_map(ms, 0, PipeMap.WRITE, Box(0, 0, 0, 8, 8, 1))
    tr.data[:] = samples.tobytes()
    ctx.transfer_unmap(tr)
    one = tex(screen, ctx, 8, 8)
    ctx.blit(BlitInfo(BlitImage(one, 0, Box(0, 0, 0, 8, 8), PipeFormat.R8G8B8A8_UNORM),
                      BlitImage(ms, 0, Box(0, 0, 0, 8, 8), PipeFormat.R8G8B8A8_UNORM)))
    px = read(ctx, one, 8, 8)
    assert (px[..., 0] == 100).all() and (px[..., 3] == 255).all()


def test_cross_context_gpu_dependency(screen):
    """Context B's blit reads what context A cleared: A's batch is flushed, and B's submission
    (on its own queue) waits for A's through an in-sync."""
    from driver.gallium import FramebufferState, PipeClear, Surface
    a, b = screen.context_create(), screen.context_create()
    assert a.queue_id != b.queue_id
    src, dst = tex(screen, a, 16, 16), tex(screen, b, 16, 16)
    a.set_framebuffer_state(FramebufferState(16, 16, cbufs=(Surface(src, PipeFormat.R8G8B8A8_UNORM),)))
    a.clear(PipeClear.COLOR0, None, (1.0, 0.0, 1.0, 1.0), 1.0, 0)
    b.blit(BlitInfo(BlitImage(dst, 0, Box(0, 0, 0, 16, 16), PipeFormat.R8G8B8A8_UNORM),
                    BlitImage(src, 0, Box(0, 0, 0, 16, 16), PipeFormat.R8G8B8A8_UNORM)))
    assert a.stats["submits"] == 1 and b.stats["submits"] == 1
    assert (read(b, dst, 16, 16) == [255, 0, 255, 255]).all()


@pytest.mark.parametrize("fmt, dtype", [(PipeFormat.R8G8B8A8_UNORM, np.uint8), (PipeFormat.R32G32B32A32_UINT, np.uint32),
                                        (PipeFormat.R16G16_FLOAT, np.uint16), (PipeFormat.R8G8B8A8_SRGB, np.uint8)])
def test_gpu_texture_copy_is_exact(screen, fmt, dtype):
    ctx = screen.context_create()
    rng = np.random.default_rng(9)
    comps = 2 if fmt == PipeFormat.R16G16_FLOAT else 4
    src_data = rng.integers(0, np.iinfo(dtype).max, (10, 12, comps), dtype=np.int64).astype(dtype)
    if fmt == PipeFormat.R16G16_FLOAT:
        src_data = rng.random((10, 12, comps)).astype(np.float16).view(np.uint16)
    dst_data = np.zeros((16, 16, comps), dtype)
    src, dst = tex(screen, ctx, 12, 10, src_data, fmt=fmt), tex(screen, ctx, 16, 16, dst_data, fmt=fmt)
    submits = ctx.stats["submits"]
    ctx.resource_copy_region(dst, 0, 3, 5, 0, src, 0, Box(2, 1, 0, 7, 6))
    assert ctx.stats["submits"] == submits + 1                 # a BLIT command
    got = read(ctx, dst, 16, 16).view(dtype).reshape(16, 16, comps)
    want = dst_data.copy()
    want[5:11, 3:10] = src_data[1:7, 2:9]
    assert (got == want).all()


@pytest.mark.parametrize("offsets", [(0, 0, 64), (4, 8, 1000), (3, 5, 77)])
def test_gpu_buffer_copy(screen, offsets):
    ctx = screen.context_create()
    src_off, dst_off, size = offsets
    a = screen.resource_create(ResourceTemplate(PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, 2048))
    b = screen.resource_create(ResourceTemplate(PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, 2048))
    data = np.random.default_rng(1).integers(0, 256, 2048, np.uint8)
    ctx.buffer_subdata(a, PipeMap.WRITE, 0, data.tobytes())
    ctx.buffer_subdata(b, PipeMap.WRITE, 0, bytes(2048))
    ctx.resource_copy_region(b, 0, dst_off, 0, 0, a, 0, Box(src_off, 0, 0, size))
    if "flush" not in ctx.debug:                                       # (SHIMGL_DEBUG=flush submits at once)
        assert ctx.stats["launches"] == 0 and ctx.batches             # queued in the compute batch
    tr = ctx.transfer_map(b, 0, PipeMap.READ, Box(0, 0, 0, 2048))
    got = np.frombuffer(bytes(tr.data), np.uint8)
    want = np.zeros(2048, np.uint8)
    want[dst_off:dst_off + size] = data[src_off:src_off + size]
    assert (got == want).all()


def test_gpu_mipmap_of_a_3d_texture_filters_in_depth(screen):
    """Each level of a 3D texture made by linear blits (gen_mipmap_by_blit) is the
    2x2x2 box average of the level above: a destination slice samples the source
    volume between its two slices (before, slice k copied the 2D filter of source
    slice k, so 2x2x2 -> 1x1x1 kept slice 0's average)."""
    from driver.gallium import gen_mipmap_by_blit
    ctx = screen.context_create()
    r = screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_3D, PipeFormat.R8G8B8A8_UNORM, 8, 8,
                                                depth_px=4, last_level=3,
                                                bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW))
    data = np.random.default_rng(3).integers(0, 256, (4, 8, 8, 4), np.uint8)
    ctx.texture_subdata(r, 0, PipeMap.WRITE, Box(0, 0, 0, 8, 8, 4), data.tobytes(), 8 * 4, 8 * 8 * 4)
    submits = ctx.stats["submits"]
    gen_mipmap_by_blit(ctx, r, 0, 3, 0, 0)
    assert ctx.stats["submits"] > submits                   # BLIT commands, not the CPU
    expected = data.astype(float)
    for level in (1, 2, 3):
        d, h, w = max(1, expected.shape[0] // 2), expected.shape[1] // 2, expected.shape[2] // 2
        dz = expected.shape[0] // d
        expected = expected.reshape(d, dz, h, 2, w, 2, 4).mean(axis=(1, 3, 5))
        tr = ctx.transfer_map(r, level, PipeMap.READ, Box(0, 0, 0, w, h, d))
        got = np.frombuffer(bytes(tr.data), np.uint8).reshape(d, h, w, 4).astype(float)
        ctx.transfer_unmap(tr)
        assert np.abs(got - expected).max() <= 1.5, level
        expected = got
