"""Pixel-by-pixel reads of a colour level (piglit's probes: one glReadPixels per
pixel) detile the level whole once, on the KEEP_AFTER_READS-th read under the
same contents, and then slice it (``AgxResource._kept_level``), until its bytes can have changed:
a GPU write (a new write_sync), a CPU write (write_region), new memory
(decompress). Expected values: the bytes written, by hand; detiles counted."""

from __future__ import annotations

import numpy as np
import pytest

import layout
import driver.agx.resource as resource_module
from driver.agx.pipe import AgxScreen
from driver.gallium import (Box, FramebufferState, PipeBind, PipeClear, PipeFormat, PipeMap, PipeTextureTarget,
                            ResourceTemplate, Surface, PIPE_TIMEOUT_INFINITE)

W, H = 64, 32
PATTERN = np.random.default_rng(7).integers(0, 256, (H, W, 4), dtype=np.uint8)


@pytest.fixture(scope="module")
def screen():
    s = AgxScreen()
    yield s
    s.destroy()


@pytest.fixture
def detiles(monkeypatch):
    count = [0]
    real = layout.detile

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(layout, "detile", counted)
    return count


def _setup(screen, bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW):
    ctx = screen.context_create()
    rt = screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_2D, PipeFormat.R8G8B8A8_UNORM, W, H,
                                                 bind=bind))
    ctx.set_framebuffer_state(FramebufferState(W, H, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    rt.write_region(0, 0, 0, 0, W, H, 1, PATTERN[np.newaxis])
    return ctx, rt


def _pixel(ctx, rt, x, y) -> list[int]:
    """One pixel through a read-only mapping (glReadPixels' path)."""
    tr = ctx.transfer_map(rt, 0, PipeMap.READ, Box(x, y, 0, 1, 1, 1))
    try:
        return list(np.frombuffer(tr.data, np.uint8))
    finally:
        ctx.transfer_unmap(tr)


def _clear(screen, ctx, color):
    ctx.clear(PipeClear.COLOR0, None, color, 1.0, 0)
    assert screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)


def test_pixel_reads_detile_the_level_once(screen, detiles):
    ctx, rt = _setup(screen)
    assert resource_module.KEEP_AFTER_READS == 4
    spots = [(0, 0), (63, 31), (5, 17), (40, 2), (5, 17), (7, 7)]
    for x, y in spots:
        assert _pixel(ctx, rt, x, y) == list(PATTERN[y, x])
    # the first three reads their pixel, the fourth the whole level; the others none
    assert detiles[0] == 4
    # regions, into a client's buffer too (texture_read: glGetTexImage's path)
    out = bytearray(3 * 2 * 4)
    ctx.texture_read(rt, 0, Box(10, 20, 0, 3, 2, 1), out)
    assert (np.frombuffer(out, np.uint8).reshape(2, 3, 4) == PATTERN[20:22, 10:13]).all()
    assert detiles[0] == 4
    ctx.destroy()


def test_a_gpu_write_between_reads_is_seen(screen, detiles):
    ctx, rt = _setup(screen)
    for _ in range(resource_module.KEEP_AFTER_READS):
        assert _pixel(ctx, rt, 3, 4) == list(PATTERN[4, 3])
    _clear(screen, ctx, (0.0, 1.0, 0.0, 1.0))
    assert _pixel(ctx, rt, 3, 4) == [0, 255, 0, 255]
    assert _pixel(ctx, rt, 60, 30) == [0, 255, 0, 255]
    ctx.destroy()


def test_a_cpu_write_between_reads_is_seen(screen, detiles):
    ctx, rt = _setup(screen)
    for _ in range(resource_module.KEEP_AFTER_READS):
        assert _pixel(ctx, rt, 11, 5) == list(PATTERN[5, 11])
    rt.write_region(0, 10, 4, 0, 5, 3, 1, np.full((1, 3, 5, 4), 7, np.uint8))
    assert _pixel(ctx, rt, 11, 5) == [7, 7, 7, 7]
    assert _pixel(ctx, rt, 9, 5) == list(PATTERN[5, 9])
    ctx.destroy()


def test_new_memory_between_reads_is_seen(screen, detiles):
    ctx, rt = _setup(screen)
    for _ in range(resource_module.KEEP_AFTER_READS):
        assert _pixel(ctx, rt, 1, 1) == list(PATTERN[1, 1])
    assert rt.decompress() or True          # (a plain level already: nothing to do)
    assert _pixel(ctx, rt, 1, 1) == list(PATTERN[1, 1])
    ctx.destroy()


def test_the_caller_gets_its_own_bytes(screen, detiles):
    ctx, rt = _setup(screen)
    for _ in range(resource_module.KEEP_AFTER_READS):
        first = rt.read_region(0, 2, 3, 0, 2, 2, 1)
    again = rt.read_region(0, 2, 3, 0, 2, 2, 1)         # from the kept level
    again[...] = 0                                      # the caller writes its copy
    assert (rt.read_region(0, 2, 3, 0, 2, 2, 1) == PATTERN[3:5, 2:4]).all()
    assert (first == PATTERN[3:5, 2:4]).all()
    ctx.destroy()


def test_shared_memory_is_never_kept(screen, detiles):
    ctx, rt = _setup(screen, PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW | PipeBind.SHARED)
    assert rt.bo.shared
    for _ in range(6):
        assert _pixel(ctx, rt, 2, 2) == list(PATTERN[2, 2])
    assert detiles[0] == 6                              # another process may write it: read each time
    ctx.destroy()


def test_a_few_reads_after_each_change_never_detile_the_level(screen, detiles):
    ctx, rt = _setup(screen)
    for i in range(3):
        rt.write_region(0, i, 0, 0, 1, 1, 1, np.full((1, 1, 1, 4), i, np.uint8))
        for _ in range(resource_module.KEEP_AFTER_READS - 1):
            assert _pixel(ctx, rt, i, 0) == [i] * 4
    assert detiles[0] == 3 * (resource_module.KEEP_AFTER_READS - 1)      # each a pixel's, none whole
    ctx.destroy()
