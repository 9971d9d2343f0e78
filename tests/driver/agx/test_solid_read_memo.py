"""A whole fast-cleared level read into the client's memory looks at its tiles'
copies once (``AgxResource._solid_look``) and then only fills, until its bytes can
have changed: a later GPU write (a new write_sync), a CPU write (write_region), new
memory (decompress). Expected values: the clear colours and the pixels written, by
hand; the looks counted."""

from __future__ import annotations

import numpy as np
import pytest

import driver.agx.resource as resource_module
from driver.agx.pipe import AgxScreen
from driver.gallium import (Box, FramebufferState, PipeBind, PipeClear, PipeFormat, PipeTextureTarget,
                            ResourceTemplate, Surface, PIPE_TIMEOUT_INFINITE)

W, H = 64, 32


@pytest.fixture(scope="module")
def screen():
    s = AgxScreen()
    yield s
    s.destroy()


@pytest.fixture
def looks(monkeypatch):
    count = [0]
    real = resource_module.solid_value

    def counted(*args):
        count[0] += 1
        return real(*args)
    monkeypatch.setattr(resource_module, "solid_value", counted)
    return count


def _setup(screen):
    ctx = screen.context_create()
    rt = screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_2D, PipeFormat.R8G8B8A8_UNORM, W, H,
                                                 bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW))
    assert rt.lay.tiling == "twiddled_compressed"
    ctx.set_framebuffer_state(FramebufferState(W, H, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    return ctx, rt


def _clear(screen, ctx, color):
    ctx.clear(PipeClear.COLOR0, None, color, 1.0, 0)
    assert screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)


def _read(ctx, rt):
    out = bytearray(W * H * 4)
    ctx.texture_read(rt, 0, Box(0, 0, 0, W, H, 1), out)
    return np.frombuffer(out, np.uint8).reshape(H, W, 4)


def test_reads_of_a_cleared_level_look_once(screen, looks):
    ctx, rt = _setup(screen)
    _clear(screen, ctx, (1.0, 0.0, 0.0, 1.0))
    for _ in range(3):
        assert (_read(ctx, rt) == [255, 0, 0, 255]).all()
    assert looks[0] == 1
    _clear(screen, ctx, (0.0, 0.0, 1.0, 0.0))              # a GPU write: looked at again
    assert (_read(ctx, rt) == [0, 0, 255, 0]).all()
    assert looks[0] == 2
    ctx.destroy()


def test_a_cpu_write_after_a_read_is_seen(screen, looks):
    ctx, rt = _setup(screen)
    _clear(screen, ctx, (0.0, 1.0, 0.0, 1.0))
    assert (_read(ctx, rt) == [0, 255, 0, 255]).all()
    patch = np.full((1, 3, 5, 4), 7, np.uint8)
    rt.write_region(0, 10, 4, 0, 5, 3, 1, patch)
    want = np.zeros((H, W, 4), np.uint8)
    want[...] = [0, 255, 0, 255]
    want[4:7, 10:15] = 7
    assert (_read(ctx, rt) == want).all()
    assert looks[0] == 2
    ctx.destroy()


def test_new_memory_after_a_read_is_seen(screen, looks):
    ctx, rt = _setup(screen)
    _clear(screen, ctx, (1.0, 1.0, 0.0, 1.0))
    assert (_read(ctx, rt) == [255, 255, 0, 255]).all()
    assert rt.decompress()                                  # the same texels, plainly, in a new BO
    assert (_read(ctx, rt) == [255, 255, 0, 255]).all()
    assert looks[0] == 1                                    # an uncompressed level has nothing to look at
    rt.write_region(0, 0, 0, 0, 1, 1, 1, np.full((1, 1, 1, 4), 9, np.uint8))
    assert (_read(ctx, rt)[0, 0] == 9).all() and (_read(ctx, rt)[0, 1] == [255, 255, 0, 255]).all()
    ctx.destroy()
