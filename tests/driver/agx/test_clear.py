"""Clears through the background program and readback through transfers."""

import numpy as np
import pytest

from driver.agx.pipe import AgxScreen
from driver.gallium import (Box, FramebufferState, PipeBind, PipeClear, PipeFormat, PipeMap,
                            PipeTextureTarget, ResourceTemplate, ScissorState, Surface, PIPE_TIMEOUT_INFINITE)


@pytest.fixture(scope="module")
def screen():
    s = AgxScreen()
    yield s
    s.destroy()


def target(screen, w, h, fmt=PipeFormat.R8G8B8A8_UNORM, samples=0, bind=PipeBind.RENDER_TARGET):
    return screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_2D, fmt, w, h, nr_samples=samples,
                                                   bind=bind | PipeBind.SAMPLER_VIEW))


def read(ctx, res, w, h):
    tr = ctx.transfer_map(res, 0, PipeMap.READ, Box(0, 0, 0, w, h, 1))
    out = np.frombuffer(bytes(tr.data), np.uint8).reshape(h, w, -1).copy()
    ctx.transfer_unmap(tr)
    return out


def test_clear_color_and_read_back(screen):
    ctx = screen.context_create()
    rt = target(screen, 70, 45)
    ctx.set_framebuffer_state(FramebufferState(70, 45, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (1.0, 0.5, 0.25, 1.0), 1.0, 0)
    fence = ctx.flush()
    assert screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)
    px = read(ctx, rt, 70, 45)
    assert (px == [255, 128, 64, 255]).all()
    assert ctx.stats["submits"] == 1


def test_second_clear_loads_nothing_and_scissored_clear(screen):
    ctx = screen.context_create()
    rt = target(screen, 32, 32)
    ctx.set_framebuffer_state(FramebufferState(32, 32, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (0.0, 0.0, 1.0, 1.0), 1.0, 0)
    ctx.clear(PipeClear.COLOR0, ScissorState(4, 8, 12, 20), (1.0, 0.0, 0.0, 1.0), 1.0, 0)
    px = read(ctx, rt, 32, 32)
    expect = np.zeros((32, 32, 4), np.uint8)
    expect[...] = [0, 0, 255, 255]
    expect[8:20, 4:12] = [255, 0, 0, 255]
    assert (px == expect).all()
    assert ctx.stats["submits"] == 2          # the scissored clear is a second render command (GPU)


@pytest.mark.parametrize("fmt, color, expect", [
    (PipeFormat.R32G32B32A32_FLOAT, (0.1, -2.0, 3.5, 1.0), np.array([0.1, -2.0, 3.5, 1.0], np.float32).view(np.uint8)),
    (PipeFormat.R16G16B16A16_FLOAT, (0.5, 2.0, -1.0, 0.0), np.array([0.5, 2.0, -1.0, 0.0], np.float16).view(np.uint8)),
    (PipeFormat.R32_UINT, (123456, 0, 0, 0), np.array([123456], np.uint32).view(np.uint8)),
    (PipeFormat.R8G8_UNORM, (1.0, 0.0, 0, 0), np.array([255, 0], np.uint8)),
])
def test_clear_formats(screen, fmt, color, expect):
    ctx = screen.context_create()
    rt = target(screen, 20, 20, fmt)
    ctx.set_framebuffer_state(FramebufferState(20, 20, cbufs=(Surface(rt, fmt),)))
    ctx.clear(PipeClear.COLOR0, None, color, 1.0, 0)
    px = read(ctx, rt, 20, 20)
    assert (px == expect).all(), (px[0, 0], expect)


def test_mrt_and_depth_stencil_clear(screen):
    ctx = screen.context_create()
    a, b = target(screen, 40, 24), target(screen, 40, 24, PipeFormat.R32_FLOAT)
    zs = target(screen, 40, 24, PipeFormat.Z24_UNORM_S8_UINT, bind=PipeBind.DEPTH_STENCIL)
    ctx.set_framebuffer_state(FramebufferState(40, 24, cbufs=(Surface(a, PipeFormat.R8G8B8A8_UNORM),
                                                              Surface(b, PipeFormat.R32_FLOAT)),
                                               zsbuf=Surface(zs, PipeFormat.Z24_UNORM_S8_UINT)))
    ctx.clear(PipeClear.COLOR | PipeClear.DEPTHSTENCIL, None, (0.0, 1.0, 0.0, 1.0), 0.25, 0x5A)
    assert (read(ctx, a, 40, 24) == [0, 255, 0, 255]).all()
    assert (read(ctx, b, 40, 24).view(np.float32) == 0.0).all()
    z = read(ctx, zs, 40, 24).view(np.uint32)[..., 0]
    assert ((z & 0xFFFFFF) == round(0.25 * 0xFFFFFF)).all() and ((z >> 24) == 0x5A).all()


def test_msaa_clear(screen):
    ctx = screen.context_create()
    rt = target(screen, 16, 16, samples=4)
    ctx.set_framebuffer_state(FramebufferState(16, 16, samples=4, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (0.0, 0.0, 0.0, 1.0), 1.0, 0)
    px = read(ctx, rt, 16, 16).reshape(16, 16, 4, 4)
    assert (px == [0, 0, 0, 255]).all()


def test_texture_upload_roundtrip_every_layout(screen):
    ctx = screen.context_create()
    rng = np.random.default_rng(1)
    for target_, dims in ((PipeTextureTarget.TEXTURE_2D, (37, 19, 1, 1)), (PipeTextureTarget.TEXTURE_2D_ARRAY, (16, 8, 1, 3)),
                          (PipeTextureTarget.TEXTURE_3D, (8, 8, 5, 1))):
        w, h, d, layers = dims
        res = screen.resource_create(ResourceTemplate(target_, PipeFormat.R8G8B8A8_UNORM, w, h, d, layers,
                                                      last_level=2, bind=PipeBind.SAMPLER_VIEW))
        n = max(d, layers)
        data = rng.integers(0, 256, (n, h, w, 4), np.uint8)
        ctx.texture_subdata(res, 0, PipeMap.WRITE, Box(0, 0, 0, w, h, n), data.tobytes(), w * 4, w * h * 4)
        tr = ctx.transfer_map(res, 0, PipeMap.READ, Box(1, 2, 0, w - 1, h - 2, n))
        got = np.frombuffer(bytes(tr.data), np.uint8).reshape(n, h - 2, w - 1, 4)
        assert (got == data[:, 2:, 1:]).all()


def test_two_contexts_share_a_resource(screen):
    """A read in one context flushes and waits for the other context's unsubmitted clear."""
    a, b = screen.context_create(), screen.context_create()
    rt = target(screen, 16, 16)
    a.set_framebuffer_state(FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    a.clear(PipeClear.COLOR0, None, (0.0, 1.0, 1.0, 1.0), 1.0, 0)
    assert a.batches and a.stats["submits"] == 0
    assert (read(b, rt, 16, 16) == [0, 255, 255, 255]).all()
    assert not a.batches and a.stats["submits"] == 1
    assert rt.write_sync is not None and rt.write_sync.done


def test_bo_cache_reuses_transient_memory_across_frames(screen):
    ctx = screen.context_create()
    rt = target(screen, 16, 16)
    ctx.set_framebuffer_state(FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    dev = screen.device
    for i in range(3):
        ctx.clear(PipeClear.COLOR0, None, (i / 4, 0.0, 0.0, 1.0), 1.0, 0)
        screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    allocs = dev.bo_allocs
    for i in range(5):
        ctx.clear(PipeClear.COLOR0, None, (i / 8, 0.0, 0.0, 1.0), 1.0, 0)
        screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    assert dev.bo_allocs == allocs          # nothing new: constants, pools and feedback reused
    # every frame's feedback record came back to the context's slots once retired
    assert len(ctx.feedback.bos) == 1


def test_fence_poll_and_wait(screen):
    ctx = screen.context_create()
    rt = target(screen, 64, 64)
    ctx.set_framebuffer_state(FramebufferState(64, 64, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (1.0, 1.0, 1.0, 1.0), 1.0, 0)
    fence = ctx.flush()
    assert screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)
    assert screen.fence_finish(fence, 0)
    empty = screen.context_create().flush()
    assert screen.fence_finish(empty, 0)


def test_gpu_fault_is_reported_from_the_feedback(screen):
    """A render target whose memory is gone (unbound VA): the PBE faults, the kernel's
    feedback says so, and the context reports it."""
    ctx = screen.context_create()
    rt = target(screen, 16, 16)
    rt.bo.device.unbind(rt.bo.va, rt.bo.size_B)          # pull the pages out from under the GPU
    ctx.set_framebuffer_state(FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (1.0, 0.0, 0.0, 1.0), 1.0, 0)
    with pytest.warns(RuntimeWarning, match="fault"):
        screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    assert ctx.stats["faults"] == 1
    label, fb = ctx.faults[0]
    assert fb["status"] == "FAULT" and fb["fault"][1] == "PBE" and rt.va <= fb["fault"][0] < rt.va + rt.bo.size_B
    rt.bo.device.bind(rt.bo.handle, rt.bo.va, rt.bo.size_B)    # restore, so the BO can be freed


def test_fence_sync_file_round_trip(screen):
    """A fence exported as a sync file and imported back gates another context's work."""
    a, b = screen.context_create(), screen.context_create()
    rt = target(screen, 256, 256)
    a.set_framebuffer_state(FramebufferState(256, 256, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    a.clear(PipeClear.COLOR0, None, (0.5, 0.5, 0.5, 1.0), 1.0, 0)
    fence = a.flush()
    fd = fence.export_sync_file()
    imported = screen.fence_from_sync_file(fd) if fd is not None else fence
    b.fence_server_sync(imported)
    assert screen.fence_finish(imported, PIPE_TIMEOUT_INFINITE)
    assert screen.fence_finish(fence, 0)
    if fd is not None:
        import uapi
        uapi.close(fd)


def test_shared_resources_record_their_writer(screen):
    ctx = screen.context_create()
    rt = target(screen, 16, 16, bind=PipeBind.RENDER_TARGET | PipeBind.SHARED)
    assert rt.bo.shared and rt.bo not in screen.device.cache.buckets.get(("user", 16 << 10), [])
    ctx.set_framebuffer_state(FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (0.0, 0.0, 0.0, 1.0), 1.0, 0)
    ctx.flush()
    assert rt.bo.writer is not None and rt.bo.writer[0] == ctx.queue_id


def test_export_to_another_device_file(screen):
    """A render target exported as a dma-buf (VM-private made shared with GEM_SHARE) and
    imported by a second screen (another DRM file, another VM) reads the same pixels."""
    other = AgxScreen()
    try:
        ctx = screen.context_create()
        rt = target(screen, 24, 16)
        assert not rt.bo.shared
        ctx.set_framebuffer_state(FramebufferState(24, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
        ctx.clear(PipeClear.COLOR0, None, (0.0, 0.5, 1.0, 1.0), 1.0, 0)
        screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
        fd = screen.resource_get_handle(rt)
        assert rt.bo.shared
        imported = other.resource_from_handle(rt.template, fd)
        assert imported.bo.device is other.device and imported.va != 0
        assert (read(other.context_create(), imported, 24, 16) == [0, 128, 255, 255]).all()
        import uapi
        uapi.close(fd)
    finally:
        other.destroy()


def test_implicit_sync_between_device_files(screen):
    """The importer's GPU work waits for the exporter's unfinished write (through a sync
    file imported as a temporary syncobj), without any explicit fence from the app."""
    from driver.gallium import BlitImage, BlitInfo
    other = AgxScreen()
    try:
        ctx = screen.context_create()
        rt = target(screen, 64, 64)
        fd = screen.resource_get_handle(rt)
        imported = other.resource_from_handle(rt.template, fd, exporter=rt)
        ctx.set_framebuffer_state(FramebufferState(64, 64, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
        ctx.clear(PipeClear.COLOR0, None, (1.0, 1.0, 0.0, 1.0), 1.0, 0)
        ctx.flush()                                   # submitted, maybe still running
        octx = other.context_create()
        copy = target(other, 64, 64)
        octx.blit(BlitInfo(BlitImage(copy, 0, Box(0, 0, 0, 64, 64), PipeFormat.R8G8B8A8_UNORM),
                           BlitImage(imported, 0, Box(0, 0, 0, 64, 64), PipeFormat.R8G8B8A8_UNORM)))
        assert (read(octx, copy, 64, 64) == [255, 255, 0, 255]).all()
        import uapi
        uapi.close(fd)
    finally:
        other.destroy()


def test_render_targets_are_compressed_and_start_uncompressed(screen):
    import layout
    rt = target(screen, 64, 64)
    assert rt.lay.tiling == "twiddled_compressed"
    pl = rt.planes["color"]
    modes = layout.tile_modes(pl.lay, rt.memory()[pl.offset_B:pl.offset_B + pl.lay.size_B], 0)
    assert (modes == layout.subtile_uncompressed_mode("R8G8B8A8_UNORM")).all()
    small = target(screen, 8, 8)
    assert small.lay.tiling == "twiddled"                     # too small to compress
    ctx = screen.context_create()
    ctx.set_framebuffer_state(FramebufferState(64, 64, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (0.25, 0.5, 0.75, 1.0), 1.0, 0)
    assert (read(ctx, rt, 64, 64) == [64, 128, 191, 255]).all()
