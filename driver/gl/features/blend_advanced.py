"""KHR_blend_equation_advanced (core in GLES 3.2, section 15.1.5.2) and
KHR_blend_equation_advanced_coherent.

The equations MULTIPLY .. HSL_LUMINOSITY are set with ``glBlendEquation`` /
``glBlendEquationi`` (the colour and the alpha equation at once; the separate
forms refuse them: GL_INVALID_ENUM). They are blended in the fragment shader's
epilogue, which reads the destination from the tile buffer
(compiler/lower/blend_advanced.py); the GL factors do not apply.

A draw with blending enabled and an advanced equation on an active draw buffer is
GL_INVALID_OPERATION when (`advanced_blend_validate`)

- more than one draw buffer is active, or draw buffer 0 selects several colour
  buffers (FRONT_AND_BACK of a window);
- the fragment shader does not declare the equation with
  ``layout(blend_support_<equation>) out;`` or ``blend_support_all_equations``.

Coherence: the tile buffer is read and written in primitive order within a draw
and between draws, so blending is always coherent: ``GL_BLEND_ADVANCED_COHERENT_KHR``
(enabled by default) may be disabled, and ``glBlendBarrier`` has nothing to wait for.

Invariant: nothing here is reachable without the extension (``has_advanced_blend``)
except ES 3.2's core ``glBlendBarrier``.
"""

from __future__ import annotations

from compiler.glsl.blend_support import ADVANCED_EQUATIONS, declared_equations
from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import entry_point

__all__ = ["ADVANCED_TOKENS", "GL_BLEND_ADVANCED_COHERENT_KHR", "advanced_blend_validate",
           "advanced_equation_name", "advanced_equations", "has_advanced_blend", "has_coherent"]

EXTENSION = "GL_KHR_blend_equation_advanced"
COHERENT_EXTENSION = "GL_KHR_blend_equation_advanced_coherent"
#: the capability of KHR_blend_equation_advanced_coherent (not in the core registry names)
GL_BLEND_ADVANCED_COHERENT_KHR = 0x9285
#: GL token -> equation name (the tokens are GLES 3.2's names: GL_MULTIPLY, ..., GL_HSL_LUMINOSITY)
ADVANCED_TOKENS: dict[int, str] = {getattr(E, f"GL_{name.upper()}"): name for name in ADVANCED_EQUATIONS}


def has_advanced_blend(ctx) -> bool:
    return ctx.api.has_extension(EXTENSION) or (ctx.api.es and ctx.api.version >= (3, 2))


def has_coherent(ctx) -> bool:
    return ctx.api.has_extension(COHERENT_EXTENSION)


def advanced_equations(ctx) -> set[int]:
    """The equation tokens glBlendEquation[i] accepts beyond the basic ones."""
    return set(ADVANCED_TOKENS) if has_advanced_blend(ctx) else set()


def advanced_equation_name(token: int) -> str | None:
    """The lowering's name of an advanced equation token (None for the others)."""
    return ADVANCED_TOKENS.get(token)


def _fragment_equations(stage_programs: dict) -> frozenset[str]:
    from driver.gallium import PipeShaderType
    prog = stage_programs.get(PipeShaderType.FRAGMENT)
    linked = getattr(prog, "linked_state", None)
    unit = linked.units.get("fragment") if linked is not None else None
    return declared_equations(unit) if unit is not None else frozenset()


def advanced_blend_validate(ctx, stage_programs: dict) -> None:
    """The draw-time errors of an advanced equation (module docstring)."""
    if not has_advanced_blend(ctx):
        return
    fb = ctx.draw_framebuffer
    buffers = ctx.window.draw_buffers if fb is None else fb.draw_buffers
    used = [name for i, b in enumerate(buffers) if b != E.GL_NONE and i < len(ctx.state.rt)
            and ctx.state.rt[i].enabled and (name := ADVANCED_TOKENS.get(ctx.state.rt[i].eq_rgb))]
    if not used:
        return
    active = [b for b in buffers if b != E.GL_NONE]
    check(len(active) <= 1, E.GL_INVALID_OPERATION,
          "an advanced blend equation with more than one active draw buffer")
    check(active[:1] != [E.GL_FRONT_AND_BACK], E.GL_INVALID_OPERATION,
          "an advanced blend equation with draw buffer FRONT_AND_BACK")
    declared = _fragment_equations(stage_programs)
    missing = sorted(set(used) - declared)
    check(not missing, E.GL_INVALID_OPERATION,
          f"the fragment shader does not declare layout(blend_support_{missing[0] if missing else ''}) out")


@entry_point
def glBlendBarrier(ctx) -> None:
    """GLES 3.2 / glBlendBarrierKHR: the epilogue's tile reads already see every earlier
    fragment's result (module docstring); nothing to wait for."""
    check(has_advanced_blend(ctx), E.GL_INVALID_OPERATION, "glBlendBarrier needs GLES 3.2 or "
          "GL_KHR_blend_equation_advanced")
