"""The fragment shader's ``layout(blend_support_*) out;`` qualifiers
(KHR_blend_equation_advanced; core in GLSL ES 3.20, section 4.4.2.3).

A fragment shader names the advanced blend equations it may be used with in
default output declarations: ``layout(blend_support_multiply, blend_support_screen) out;``
or ``layout(blend_support_all_equations) out;``. The qualifiers are not allowed
on a variable declaration nor in another stage (compile errors). A draw with an
advanced equation the fragment shader does not name is GL_INVALID_OPERATION
(the GL front end asks `declared_equations`).

The equations' names are one list, ``compiler.keys.ADVANCED_EQUATIONS`` (a
variant key names them too): the qualifiers here, the lowering
(compiler/lower/blend_advanced.py), the pipe state and the GL tokens derive
theirs from it.
"""

from __future__ import annotations

from compiler.keys import ADVANCED_EQUATIONS

__all__ = ["ADVANCED_EQUATIONS", "BLEND_SUPPORT", "EXTENSION", "available", "blend_support_layout",
           "declared_equations"]

EXTENSION = "GL_KHR_blend_equation_advanced"
_ALL = "blend_support_all_equations"
#: layout identifier -> the equations it allows
BLEND_SUPPORT: dict[str, tuple[str, ...]] = {
    **{f"blend_support_{e}": (e,) for e in ADVANCED_EQUATIONS}, _ALL: ADVANCED_EQUATIONS}


def available(version, enabled) -> bool:
    """The identifiers exist in GLSL ES 3.20 and with the extension enabled."""
    return version.at_least(0, 320) or EXTENSION in enabled


def blend_support_layout(an, loc, storage: str, layout: dict) -> bool:
    """``layout(blend_support_*) out;`` of analyzer `an`; returns whether the
    declaration was one (errors reported)."""
    ours = [k for k in layout if k in BLEND_SUPPORT]
    if not ours:
        return False
    if an.stage != "fragment":
        an.error(loc, "blend_support qualifiers may only be used in fragment shaders")
    elif storage != "out":
        an.error(loc, "blend_support qualifiers may only be used on `out'")
    elif set(layout) - set(BLEND_SUPPORT):
        an.error(loc, "invalid layout qualifiers in default declaration")
    return True


def declared_equations(unit) -> frozenset[str]:
    """The advanced equations fragment shader `unit` (a compiled TranslationUnit)
    declares support for: the union of its ``layout(blend_support_*) out;``."""
    from . import ast as A      # not at import: the GL front end reads the names above at start
    found: set[str] = set()
    for d in unit.declarations:
        if isinstance(d, A.QualifierDeclaration) and d.qualifier.storage == "out":
            for lid in d.qualifier.layout:
                found.update(BLEND_SUPPORT.get(lid.name, ()))
    return frozenset(found)
