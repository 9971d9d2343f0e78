"""BASE_LEVEL and MAX_LEVEL select the levels a texture samples (GL 4.6 section
8.14.3), not its storage: moving them within a mipmap chain keeps the texture's one
resource (the sampler view's level range changes), where each change used to allocate
a resource and copy every level into it on the GPU (piglit tex-miplevel-selection sets
both before each of its 5,292 draws: it timed out at 120 s). A level that does not
continue the chain (another size or format) above MAX_LEVEL stays out of the storage.
Colours by hand: level k is filled with COLOURS[k]."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

COLOURS = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 0, 255), (0, 255, 255, 255)]
T2 = E.GL_TEXTURE_2D


def _chain(ctx, size=16, levels=5):
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(T2, tex)
    for k in range(levels):
        d = max(1, size >> k)
        ctx.glTexImage2D(T2, k, E.GL_RGBA8, d, d, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(COLOURS[k]) * (d * d))
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    return tex


def _draw(ctx):
    """A 4x4 quad sampling at its own scale: the texture's base level is minified
    (16 texels to 4 pixels), so NEAREST_MIPMAP_NEAREST picks base + 2, clamped to MAX_LEVEL."""
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)):
        ctx.glTexCoord2f(x, y)
        ctx.glVertex2f(2 * x - 1, 2 * y - 1)
    ctx.glEnd()
    return tuple(int(v) for v in ctx.read_pixels()[2, 2])


@pytest.fixture
def ctx():
    with driver.Context(api="compat", width=4, height=4) as c:
        c.glEnable(T2)
        yield c


def test_moving_base_and_max_level_keeps_the_storage(ctx):
    tex = _chain(ctx)
    obj = ctx.textures.get(tex)
    assert _draw(ctx) == COLOURS[2]
    resource = obj.resource
    for base, top in ((0, 0), (1, 4), (1, 2), (2, 4), (0, 1), (3, 3), (4, 4), (0, 4)):
        ctx.glTexParameteri(T2, E.GL_TEXTURE_BASE_LEVEL, base)
        ctx.glTexParameteri(T2, E.GL_TEXTURE_MAX_LEVEL, top)
        # a 16-texel level 0 minified to 4 pixels wants level 2 (lod log2(16 / 4)
        # from level 0; from the base: 2 - base, magnified when below 0), clamped
        # to [BASE_LEVEL, MAX_LEVEL]
        want = min(max(2, base), top)
        assert _draw(ctx) == COLOURS[want], (base, top)
        assert obj.resource is resource, (base, top)
    expect(ctx, E.GL_NO_ERROR)


def test_a_level_off_the_chain_above_max_level_is_not_stored(ctx):
    tex = _chain(ctx, levels=3)
    ctx.glTexImage2D(T2, 3, E.GL_RGBA8, 7, 7, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(COLOURS[3]) * 49)   # not 2x2
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MAX_LEVEL, 2)
    assert _draw(ctx) == COLOURS[2]
    assert ctx.textures.get(tex).resource.template.last_level == 2
    # brought into the range it makes the texture incomplete: sampled as (0, 0, 0, 1)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MAX_LEVEL, 3)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_BASE_LEVEL, 3)
    assert _draw(ctx) == COLOURS[3]            # alone as the base level it is complete
    expect(ctx, E.GL_NO_ERROR)


def test_a_new_image_that_breaks_the_chain_is_still_sampled():
    """Redefining the base level with another size gives new storage (level 0 is what
    the base implies) and the other levels are dropped from it."""
    with driver.Context(api="compat", width=4, height=4) as ctx:
        ctx.glEnable(T2)
        tex = _chain(ctx)
        assert _draw(ctx) == COLOURS[2]
        ctx.glTexParameteri(T2, E.GL_TEXTURE_MAX_LEVEL, 0)
        ctx.glTexImage2D(T2, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(COLOURS[4]) * 16)
        assert _draw(ctx) == COLOURS[4]
        assert ctx.textures.get(tex).resource.template.width_px == 4
