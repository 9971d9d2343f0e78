"""Facts of the shader interface that the IO lowering of every stage shares
(io.py for vertex inputs and outputs, blend.py for fragment outputs,
geometry.py for the geometry stage's records): how a GLSL interpolation
qualifier names the varying's mode, and which elements of an array a shader
uses. A module of its own so that those lowerings depend on it, not on each
other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.glsl import ast

__all__ = ["INTERPOLATION", "InterfaceSymbol", "const_index_use", "const_indices"]

#: GLSL interpolation qualifier (None: none written) -> the varying's mode
INTERPOLATION = {None: "smooth", "smooth": "smooth", "flat": "flat", "noperspective": "noperspective"}


def const_index_use(unit, sym) -> tuple[bool, tuple[int, ...]]:
    """(whether the shader indexes array ``sym`` dynamically or uses it whole, the
    constant indices it uses)."""
    found = set()
    for n in ast.walk(unit):
        if isinstance(n, ast.Index) and isinstance(n.base, ast.VariableRef) and n.base.symbol is sym:
            if n.index.const is None:
                return True, ()
            found.add(n.index.const[0])
    for n in ast.walk(unit):
        if isinstance(n, ast.VariableRef) and n.symbol is sym:
            parent_ok = any(isinstance(p, ast.Index) and p.base is n for p in ast.walk(unit))
            if not parent_ok:
                return True, ()
    return False, tuple(sorted(found))


def const_indices(unit, sym, length: int) -> list[int]:
    """Constant indices the shader uses on array ``sym`` (all when one is dynamic).
    ``sym`` may be an ``InterfaceSymbol`` (``unit`` is then not read)."""
    if isinstance(sym, InterfaceSymbol):
        dynamic, found = sym.index_use
    else:
        dynamic, found = const_index_use(unit, sym)
    return list(range(length)) if dynamic else list(found)


@dataclass(frozen=True, eq=False)
class InterfaceSymbol:
    """What the variant passes (``compiler.lower.stage``) know of one interface
    variable of a lowered stage: the facts of its declaration, copied from the
    typed AST when the stage is lowered, so the key passes never read the AST.
    ``index_use``: ``const_index_use`` for the arrays whose used elements decide
    the interface (gl_TexCoord, gl_FragData, gl_ClipDistance, gl_CullDistance), else None.
    Compared by identity: one object per variable of the stage."""
    name: str
    type: Any
    storage: str
    builtin: bool = False
    layout: Any = field(default_factory=dict)
    interpolation: str | None = None
    precision: str | None = None
    sample: bool = False
    centroid: bool = False
    used: bool = True
    index_use: tuple | None = None
    block: Any = None
    block_name: str | None = None       # the block of a member of an instance-less block
    fetch: bool = False                 # an `inout' fragment output (EXT_shader_framebuffer_fetch)

    @classmethod
    def of(cls, unit, sym) -> "InterfaceSymbol":
        use = const_index_use(unit, sym) if sym.type.is_array and sym.name in _INDEXED_INTERFACE else None
        return cls(sym.name, sym.type, sym.storage, bool(getattr(sym, "builtin", False)),
                   dict(getattr(sym, "layout", None) or {}), getattr(sym, "interpolation", None),
                   getattr(sym, "precision", None), bool(getattr(sym, "sample", False)),
                   bool(getattr(sym, "centroid", False)), bool(getattr(sym, "used", True)), use,
                   block_name=getattr(getattr(sym, "block", None), "block_name", None),
                   fetch=bool(getattr(sym, "fetch", False)))


#: arrays whose constant indices decide which interface slots exist
_INDEXED_INTERFACE = frozenset({"gl_TexCoord", "gl_FragData", "gl_CullDistance", "gl_ClipDistance", "gl_ClipPlane",
                                "gl_SecondaryFragDataEXT"})
