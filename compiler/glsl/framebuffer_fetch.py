"""Reading the framebuffer in the fragment stage (EXT_shader_framebuffer_fetch and
EXT_shader_framebuffer_fetch_non_coherent).

Two forms, by version:

- GLSL 1.30+ / GLSL ES 3.00+: a fragment output declared ``inout`` (``inout vec4 c;``,
  arrays too) starts with the colour its render target holds for the fragment's
  sample. Built-in outputs (gl_FragDepth, ...) cannot be ``inout``.
- GLSL 1.10/1.20 / GLSL ES 1.00: the read-only built-in ``gl_LastFragData[gl_MaxDrawBuffers]``
  holds each draw buffer's colour. It may be redeclared (a precision, and
  ``layout(noncoherent)``).

With only the non-coherent extension enabled, each of them must carry
``layout(noncoherent)`` (an ``inout`` output, or gl_LastFragData redeclared before its
first use); the qualifier is an error unless that extension is enabled. On this GPU
the fragment program reads the tile buffer (``ld_tile``) and fragments of a pixel are
shaded in primitive order, so the coherent and the non-coherent forms read the same
value; ``glFramebufferFetchBarrierEXT`` has nothing to wait for.

The lowering (compiler/lower/io.py, ``_emit_framebuffer_fetch``) loads each such
output's render target in the fragment prologue: the variable (``Variable.fetch``)
is then an ordinary output.

ARM_shader_framebuffer_fetch_depth_stencil (GLSL ES and desktop GLSL): the read-only built-ins
``gl_LastFragDepthARM`` and ``gl_LastFragStencilARM`` hold the depth and stencil
buffers at the sample (system values the GPU's PDM gives a program whose tests run
after it); they may be redeclared with a precision only, before use, and a shader
reading them cannot ask for ``layout(early_fragment_tests)``.
"""

from __future__ import annotations

from .errors import SourceLoc

__all__ = ["COHERENT", "NON_COHERENT", "LAST_FRAG_DATA", "LAST_FRAG_DEPTH_STENCIL", "enabled", "inout_output",
           "noncoherent_layout", "redeclare_last_frag_data", "check_last_frag_data_use", "check_zs_fetch"]

COHERENT = "GL_EXT_shader_framebuffer_fetch"
NON_COHERENT = "GL_EXT_shader_framebuffer_fetch_non_coherent"
LAST_FRAG_DATA = "gl_LastFragData"
LAST_FRAG_DEPTH_STENCIL = ("gl_LastFragDepthARM", "gl_LastFragStencilARM")


def enabled(an) -> bool:
    return COHERENT in an.enabled or NON_COHERENT in an.enabled


def _noncoherent_required(an) -> bool:
    return NON_COHERENT in an.enabled and COHERENT not in an.enabled


def noncoherent_layout(an) -> bool:
    """Whether ``layout(noncoherent)`` is an identifier here."""
    return NON_COHERENT in an.enabled


def inout_output(an, var, layout: dict, loc) -> bool:
    """A global ``inout`` declaration of analyzer ``an``: True when it is a framebuffer
    fetch output (errors reported for the forms the extensions refuse); False: not
    one (the caller reports ``inout`` outside parameters)."""
    if not enabled(an):
        return False
    if an.stage != "fragment":
        an.error(loc, f"`inout' qualifier in declaration of `{var.name}' is only valid for fragment "
                 "shader outputs (EXT_shader_framebuffer_fetch)")
        return True
    if not an.version.at_least(130, 300):
        an.error(loc, f"`inout' fragment outputs require GLSL 1.30 or GLSL ES 3.00 (in {an.version}, "
                 "gl_LastFragData reads the framebuffer)")
        return True
    if var.name.startswith("gl_"):
        an.error(loc, f"built-in output `{var.name}' cannot be declared `inout'")
        return True
    if _noncoherent_required(an) and not layout.get("noncoherent"):
        an.error(loc, f"`inout' output `{var.name}' must be qualified layout(noncoherent) with only "
                 f"{NON_COHERENT} enabled")
    return True


def redeclare_last_frag_data(an, var, old, loc) -> bool:
    """``[layout(noncoherent)] [precision] vec4 gl_LastFragData[gl_MaxDrawBuffers];``:
    True when ``var`` redeclares the built-in (errors reported), keeping it a read-only
    input with the precision and layout given."""
    if var.name not in (LAST_FRAG_DATA,) + LAST_FRAG_DEPTH_STENCIL or old is None \
            or not getattr(old, "builtin", False):
        return False
    if var.storage not in ("temporary", "in") or var.type != old.type or (
            var.name in LAST_FRAG_DEPTH_STENCIL and var.layout):
        an.error(loc, f"`{var.name}' redeclared with a different type or storage")
        return True
    if old.used:
        an.error(loc, f"`{var.name}' redeclared after use")
    old.redeclared = True
    old.precision = var.precision or old.precision
    old.layout.update(var.layout)
    return True


def check_last_frag_data_use(an, var, loc) -> None:
    """A read of gl_LastFragData: not in desktop GLSL 1.30+ (the table ends it at GLSL ES
    3.00; desktop versions declare ``inout`` outputs instead, as Mesa); with only the
    non-coherent extension, it must have been redeclared ``layout(noncoherent)`` first."""
    if var.name == LAST_FRAG_DATA and var.builtin and not an.version.es and an.version.number >= 130:
        an.error(loc, f"`{LAST_FRAG_DATA}' is not available in {an.version}: declare an `inout' output")
        return
    if var.name == LAST_FRAG_DATA and var.builtin and _noncoherent_required(an) \
            and not var.layout.get("noncoherent"):
        an.error(loc, f"`{LAST_FRAG_DATA}' must be redeclared layout(noncoherent) before use with only "
                 f"{NON_COHERENT} enabled")


def check_zs_fetch(an, unit) -> None:
    """ARM_shader_framebuffer_fetch_depth_stencil: a fragment shader that reads the depth
    or stencil buffer cannot ask for early tests (the read needs the earlier fragments'
    tests done and its own not yet)."""
    if unit.early_fragment_tests and any(v.name in LAST_FRAG_DEPTH_STENCIL and v.used for v in unit.builtin_variables):
        an.error(getattr(an, "early_fragment_tests_loc", None) or SourceLoc(),
                 "gl_LastFragDepthARM and gl_LastFragStencilARM cannot be read with layout(early_fragment_tests)")
