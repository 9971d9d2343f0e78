"""Facts of the shader interface that the IO lowering of every stage shares
(io.py for vertex inputs and outputs, blend.py for fragment outputs,
geometry.py for the geometry stage's records): how a GLSL interpolation
qualifier names the varying's mode, and which elements of an array a shader
uses. A module of its own so that those lowerings depend on it, not on each
other."""

from __future__ import annotations

from compiler.glsl import ast

__all__ = ["INTERPOLATION", "const_indices"]

#: GLSL interpolation qualifier (None: none written) -> the varying's mode
INTERPOLATION = {None: "smooth", "smooth": "smooth", "flat": "flat", "noperspective": "noperspective"}


def const_indices(unit, sym, length: int) -> list[int]:
    """Constant indices the shader uses on array ``sym`` (all when one is dynamic)."""
    found = set()
    for n in ast.walk(unit):
        if isinstance(n, ast.Index) and isinstance(n.base, ast.VariableRef) and n.base.symbol is sym:
            if n.index.const is None:
                return list(range(length))
            found.add(n.index.const[0])
        elif isinstance(n, ast.VariableRef) and n.symbol is sym:
            pass
    for n in ast.walk(unit):
        if isinstance(n, ast.VariableRef) and n.symbol is sym:
            parent_ok = any(isinstance(p, ast.Index) and p.base is n for p in ast.walk(unit))
            if not parent_ok:
                return list(range(length))
    return sorted(found)
