"""Resource references (Mesa's pipe_resource_reference): a resource with more
holders stays alive until each has released it (EGL images share one resource
between textures and renderbuffers of several contexts)."""

import numpy as np
import pytest

from driver.agx.pipe import AgxScreen
from driver.gallium import (Box, FramebufferState, PipeBind, PipeClear, PipeFormat, PipeMap,
                            PipeTextureTarget, ResourceTemplate, Surface, PIPE_TIMEOUT_INFINITE)


@pytest.fixture(scope="module")
def screen():
    s = AgxScreen()
    yield s
    s.destroy()


def _target(screen, w, h):
    return screen.resource_create(ResourceTemplate(PipeTextureTarget.TEXTURE_2D, PipeFormat.R8G8B8A8_UNORM,
                                                   w, h, bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW))


def _read(ctx, res, w, h):
    tr = ctx.transfer_map(res, 0, PipeMap.READ, Box(0, 0, 0, w, h, 1))
    out = np.frombuffer(bytes(tr.data), np.uint8).reshape(h, w, -1).copy()
    ctx.transfer_unmap(tr)
    return out


def test_a_referenced_resource_outlives_its_first_holders_release(screen):
    ctx = screen.context_create()
    rt = _target(screen, 8, 4)
    screen.resource_reference(rt)            # a second holder
    ctx.set_framebuffer_state(FramebufferState(8, 4, cbufs=(Surface(rt, PipeFormat.R8G8B8A8_UNORM),)))
    ctx.clear(PipeClear.COLOR0, None, (1.0, 0.0, 1.0, 1.0), 1.0, 0)
    screen.fence_finish(ctx.flush(), PIPE_TIMEOUT_INFINITE)
    screen.resource_destroy(rt)              # the first holder lets go: the memory stays
    assert rt.bo is not None
    assert (_read(ctx, rt, 8, 4) == [255, 0, 255, 255]).all()
    screen.resource_destroy(rt)              # the last one: released
    assert rt.bo is None
    ctx.destroy()


def test_without_references_destroy_releases_at_once(screen):
    rt = _target(screen, 4, 4)
    assert screen.release_reference(rt) is True      # no extra holder: the caller frees it
    screen.resource_destroy(rt)
    assert rt.bo is None
