"""Symbols: variables, function signatures, and the scoped symbol table.

Semantic analysis binds every `VariableRef` to a `Variable` and every
`FunctionCall` to a `FunctionSignature`. Built-in variables and functions are
symbols too (`builtin=True`), created from the tables in `builtins*.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import SourceLoc
from .types import GLSLType


@dataclass(eq=False)
class Variable:
    """A variable, parameter, block member or built-in variable.

    storage: "temporary" (locals and non-qualified globals), "const", "in",
      "out", "inout" (parameters only), "uniform", "buffer", "shared".
      `attribute` is stored as "in" and `varying` as "in"/"out" by stage, with
      the written keyword kept in `written_storage`.
    scope: "global", "local", "parameter" or "builtin".
    layout: explicit layout qualifiers, e.g. {"location": 2, "std140": True}.
    block: the InterfaceBlock this is a member of (instance-less blocks), or None.
    const_value: folded initializer of a `const` variable (see ast.py for the form).
    uniform_initializer: folded initializer of a uniform (GLSL 1.20+), the
      value the program's uniform starts with.
    precision: as written, or in GLSL ES the default precision in scope.
    """

    name: str
    type: GLSLType
    storage: str = "temporary"
    scope: str = "global"
    loc: SourceLoc = SourceLoc()
    written_storage: str | None = None
    interpolation: str | None = None
    centroid: bool = False
    sample: bool = False
    patch: bool = False
    invariant: bool = False
    precise: bool = False
    precision: str | None = None
    memory: frozenset[str] = frozenset()
    layout: dict[str, Any] = field(default_factory=dict)
    block: Any = None
    const_value: Any = None
    uniform_initializer: Any = None
    builtin: bool = False
    read_only: bool = False
    used: bool = False
    assigned: bool = False
    redeclared: bool = False  # a built-in the shader redeclared
    subroutine: str | None = None  # a subroutine uniform: its subroutine type's name
    fetch: bool = False  # an `inout' fragment output: starts with the framebuffer's colour (framebuffer_fetch.py)

    def __repr__(self) -> str:
        return f"Variable({self.storage} {self.type} {self.name})"


@dataclass(eq=False)
class FunctionSignature:
    """One overload. Parameters are Variables whose storage is in/out/inout (or const in)."""

    name: str
    return_type: GLSLType
    parameters: list[Variable]
    builtin: bool = False
    loc: SourceLoc = SourceLoc()
    definition: Any = None  # ast.FunctionDefinition once the body is seen
    used: bool = False
    return_precision: str | None = None  # ES: explicit or default precision of the return type

    @property
    def parameter_types(self) -> tuple[GLSLType, ...]:
        return tuple(p.type for p in self.parameters)

    def __str__(self) -> str:
        params = ", ".join(
            (f"{p.storage} " if p.storage in ("out", "inout") else "") + str(p.type)
            for p in self.parameters)
        return f"{self.return_type} {self.name}({params})"

    def __repr__(self) -> str:
        return f"FunctionSignature({self})"


class SymbolTable:
    """Nested scopes of names -> Variable, GLSLType (struct) or list[FunctionSignature].

    Functions live in the global scope only (GLSL has no nested functions).
    """

    def __init__(self) -> None:
        self.scopes: list[dict[str, Any]] = [{}]

    def push(self) -> None:
        self.scopes.append({})

    def pop(self) -> None:
        self.scopes.pop()

    @property
    def depth(self) -> int:
        return len(self.scopes) - 1

    def lookup(self, name: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def lookup_current(self, name: str) -> Any:
        return self.scopes[-1].get(name)

    def declare(self, name: str, symbol: Any) -> None:
        self.scopes[-1][name] = symbol

    def declare_global(self, name: str, symbol: Any) -> None:
        self.scopes[0][name] = symbol
