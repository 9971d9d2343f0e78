"""EXT_shader_framebuffer_fetch and EXT_shader_framebuffer_fetch_non_coherent, the GL
side (the shading-language side and the lowering: compiler/glsl/framebuffer_fetch.py).

A fragment program that reads the framebuffer loads its render targets from the tile
buffer (``ld_tile``), as AGX does and as blending does; the GPU shades a pixel's
fragments in primitive order whenever a program reads the tile, so every read sees
the colour the previous fragment left: the non-coherent extension's barrier,
``glFramebufferFetchBarrierEXT``, has nothing to order. Such a program runs once per
covered sample, so a discard drops the samples of its invocation only:
``GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT`` is TRUE."""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import entry_point

__all__ = ["COHERENT", "NON_COHERENT", "available", "discards_samples"]

COHERENT = "GL_EXT_shader_framebuffer_fetch"
NON_COHERENT = "GL_EXT_shader_framebuffer_fetch_non_coherent"


def available(api) -> bool:
    return api.has_extension(COHERENT) or api.has_extension(NON_COHERENT)


def discards_samples(ctx) -> bool:
    """GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT: a program reading the framebuffer runs per
    sample (compiler/backend/isel.py), so its discard drops single samples."""
    return True


@entry_point
def glFramebufferFetchBarrierEXT(ctx):
    """Orders framebuffer reads after earlier writes: they are ordered already (above)."""
    check(ctx.api.has_extension(NON_COHERENT), E.GL_INVALID_OPERATION, f"needs {NON_COHERENT}")
