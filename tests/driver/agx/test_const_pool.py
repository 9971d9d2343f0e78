"""The context's pool of constants (driver/agx/pool.py ConstPool): the background,
end-of-tile and partial-background words, uniforms and descriptors are uploaded once
and found again by content; a batch holds the slabs it uses until its submission
retires, also across a reset of the pool. Expected values: the bytes uploaded, the
BO references counted by hand, clear colours read back."""

from __future__ import annotations

import numpy as np
import pytest

from driver.agx.pipe import AgxScreen
from driver.agx.pool import ConstPool
from driver.gallium import (Box, FramebufferState, PipeBind, PipeClear, PipeFormat, PipeMap,
                            PipeTextureTarget, ResourceTemplate, Surface, PIPE_TIMEOUT_INFINITE)


@pytest.fixture(scope="module")
def screen():
    s = AgxScreen()
    yield s
    s.destroy()


class User:
    """Keeps BOs as a batch does (one reference each), and gives them back."""

    def __init__(self):
        self.bos = {}

    def keep(self, bo):
        if id(bo) not in self.bos:
            bo.ref()
            self.bos[id(bo)] = bo

    def release(self):
        for bo in self.bos.values():
            bo.release()
        self.bos = {}


def _bytes_at(device, bo, va, n):
    return bytes(bo.map[va - bo.va:va - bo.va + n])


def test_blobs_are_found_by_content(screen):
    dev = screen.device
    pool = ConstPool(dev, label="test")
    user = User()
    a = pool.upload(b"\x01" * 40, 64, user)
    b = pool.upload(b"\x02" * 40, 64, user)
    assert a != b and a % 64 == 0 and b % 64 == 0
    assert pool.upload(b"\x01" * 40, 64, user) == a
    assert pool.upload(b"\x01" * 40, 16, user) != a          # another alignment is another blob
    u = pool.upload(b"\x01" * 40, 64, user, usc=True)
    assert dev.usc_base <= u < dev.usc_base + (4 << 30) and u != a
    bo = next(iter(user.bos.values()))
    assert _bytes_at(dev, bo, a, 40) == b"\x01" * 40 and _bytes_at(dev, bo, b, 40) == b"\x02" * 40
    assert (pool.uploads, pool.hits) == (4, 1)
    user.release()
    pool.release()


def test_a_reset_keeps_the_slabs_users_hold(screen):
    dev = screen.device
    pool = ConstPool(dev, label="test", limit_B=1)      # every new blob starts afresh
    first, second = User(), User()
    a = pool.upload(b"\x05" * 64, 64, first)
    (bo,) = first.bos.values()
    assert bo.refs == 2                                   # the pool's and the user's
    pool.memo("k", 123, [bo], pool.generation)
    assert pool.recall("k", second) == 123 and bo.refs == 3
    second.release()
    pool.upload(b"\x06" * 64, 64, second)                 # past the limit: the pool resets
    assert pool.generation == 1 and bo.refs == 1 and not bo.freed
    assert pool.recall("k", second) is None               # memos go with the reset
    pool.memo("stale", 1, [bo], 0)                        # built before the reset: not remembered
    assert pool.recall("stale", second) is None
    # the slab still holds the first blob for its user, and is nobody else's
    assert _bytes_at(dev, bo, a, 64) == b"\x05" * 64
    assert all(bo is not other for other in second.bos.values())
    first.release()
    assert bo.refs == 0                                   # back to the BO cache (or freed)
    second.release()
    pool.release()


def target(screen, w, h):
    return screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_2D, PipeFormat.R8G8B8A8_UNORM, w, h,
                                                   bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW))


def read(ctx, res, w, h):
    tr = ctx.transfer_map(res, 0, PipeMap.READ, Box(0, 0, 0, w, h, 1))
    out = np.frombuffer(bytes(tr.data), np.uint8).reshape(h, w, -1).copy()
    ctx.transfer_unmap(tr)
    return out


def _clear(screen, ctx, color):
    ctx.clear(PipeClear.COLOR0, None, color, 1.0, 0)
    fence = ctx.flush()
    sub = fence.submission
    assert screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)
    return sub


def test_clears_share_their_words_and_read_back_right(screen):
    ctx = screen.context_create()
    rt = target(screen, 40, 24)
    ctx.set_framebuffer_state(FramebufferState(40, 24, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    colors = [(1.0, 0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 1.0), (1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 0.0)]
    uploads = []
    for color in colors:
        _clear(screen, ctx, color)
        assert (read(ctx, rt, 40, 24) == np.array(color) * 255).all()
        uploads.append(ctx.consts.uploads)
    # the third clear is the first's again: nothing new uploaded
    assert uploads[2] == uploads[1] and uploads[1] > uploads[0] and uploads[3] > uploads[2]
    ctx.destroy()


def test_a_resource_with_new_memory_gets_new_words(screen):
    # decompress() gives the target a new BO and layout: the next batch's end-of-tile
    # store must name the new memory, not the remembered fields of the old one
    ctx = screen.context_create()
    rt = target(screen, 32, 32)
    assert rt.lay.tiling == "twiddled_compressed"
    ctx.set_framebuffer_state(FramebufferState(32, 32, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    _clear(screen, ctx, (1.0, 0.0, 0.0, 1.0))
    old = rt.bo
    assert rt.decompress() and rt.bo is not old
    green = np.zeros((1, 32, 32, 4), np.uint8)
    green[..., 1:] = 255
    rt.write_region(0, 0, 0, 0, 32, 32, 1, green)
    _clear(screen, ctx, (1.0, 0.0, 0.0, 1.0))           # the same clear as before, into the new memory
    assert (read(ctx, rt, 32, 32) == [255, 0, 0, 255]).all()
    ctx.destroy()


def test_batches_in_flight_hold_their_slabs(screen):
    ctx = screen.context_create()
    rt = target(screen, 16, 16)
    ctx.set_framebuffer_state(FramebufferState(16, 16, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (0.0, 0.0, 1.0, 1.0), 1.0, 0)
    (batch,) = ctx.batches.values()
    fence = ctx.flush()
    slabs = [bo for bo in batch.bo_refs.values() if bo.label.startswith("context constants")]
    assert slabs
    held = [bo.refs for bo in slabs]
    ctx.consts.release()                                  # the pool lets go; the submission does not
    assert [bo.refs for bo in slabs] == [r - 1 for r in held] and all(r >= 1 for r in held)
    assert screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)
    assert all(bo.refs == 0 for bo in slabs)
    assert (read(ctx, rt, 16, 16) == [0, 0, 255, 255]).all()
    ctx.destroy()
