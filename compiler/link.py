"""Linking: the compiled shader objects of a program -> one checked shader per stage.

    shader = link_stage("fragment", [(unit_a, source_a), (unit_b, source_b)])

GL lets a stage be made of several shader objects (GL 4.6 section 7.3; GLSL 4.60
section 4.3: a function may be declared in one object and defined in another, and
globals of the same name in several objects are one variable). Each object is
parsed on its own with ``compiler.glsl.parse(..., shader_object=True)``, which
leaves calls to functions without a body in the unit's ``unresolved_calls``. This
module puts the objects of one stage together:

- exactly one object defines ``main``;
- every called function has exactly one body among the objects; a prototype is
  bound to the body of the same signature in another object;
- globals (and built-ins, interface blocks) of the same name in several objects
  are one symbol, of one type;

and returns a ``LinkedShader``: the stage's typed AST (one unit; a copy when the
stage has several objects, so the objects, which other programs may link too,
stay as they were) with its serialised form and digest. It is what crosses the
pipe to a hardware driver: the driver compiles variants from it
(``compiler.backend.compile_linked``) and never sees GLSL text; its ``digest``
keys the shader caches.

Invariants: a ``LinkedShader`` is frozen and hashable (by digest); its ``unit``
is only read after the link (every variant is lowered from the same unit, see
``compiler.compile.front_half_unit``).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LinkError", "LinkedShader", "link_stage", "linked_shader", "shader_from_source"]

#: separates the shader objects of a stage in the serialised form
_OBJECT_SEPARATOR = "\n// -- next shader object of the stage --\n"


class LinkError(Exception):
    """A program that does not link (GL 4.6 section 7.3); the text is the info log's line."""


@dataclass(frozen=True, eq=False)
class LinkedShader:
    """One linked stage: the typed AST ``unit`` (``compiler.glsl.ast.TranslationUnit``)
    made from the GLSL ``sources`` of the stage's shader objects, in attach order.

    ``text`` is the serialised form (stage, profile, the objects' sources): the same
    text gives the same unit, so ``digest`` (its SHA-256) stands for the shader in
    caches. Equality and hash go by digest."""
    stage: str
    unit: Any
    sources: tuple[str, ...]
    profile: str = ""
    text: str = field(init=False, repr=False)
    digest: str = field(init=False)

    def __post_init__(self):
        text = f"linked {self.stage} shader, profile {self.profile or 'default'}\n" + \
            _OBJECT_SEPARATOR.join(self.sources)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "digest", hashlib.sha256(text.encode()).hexdigest())

    @property
    def source(self) -> str:
        """The GLSL of the stage's objects (for messages and debugging)."""
        return _OBJECT_SEPARATOR.join(self.sources)

    @property
    def version(self):
        """The unit's ``GLSLVersion``."""
        return self.unit.version

    def __eq__(self, other) -> bool:
        return isinstance(other, LinkedShader) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)


def _profile(unit) -> str:
    v = getattr(unit, "version", None)
    return "es" if getattr(v, "es", False) else (getattr(v, "profile", "") or "")


def linked_shader(unit, source: str) -> LinkedShader:
    """The LinkedShader of a stage made of one already checked unit (no main or
    resolution checks: for units a driver builds itself)."""
    return LinkedShader(unit.stage, unit, (source,), _profile(unit))


def shader_from_source(source: str, stage: str) -> LinkedShader:
    """Parse and link a stage of one GLSL object: for shaders a driver builds itself
    (blits, clears), so that the pipe is handed the compiler's result, not text.
    Raises ``compiler.glsl.GLSLCompileError`` or ``LinkError``."""
    from compiler.glsl import parse
    unit = parse(source, stage, shader_object=True)
    return link_stage(stage, [(unit, source)])


def link_stage(stage: str, objects: Sequence[tuple[Any, str]]) -> LinkedShader:
    """Link the shader objects ``objects`` ((typed unit, its source) in attach order)
    of one stage. Raises ``LinkError`` with the reason."""
    if not objects:
        raise LinkError(f"{stage} shader: no shader objects")
    units = [u for u, _s in objects]
    mains = [u for u in units if u.main is not None]
    if len(mains) != 1:
        raise LinkError(f"{stage} shader: {'no' if not mains else 'more than one'} definition of main()")
    if len(units) == 1:
        unit = units[0]
        for sig, _loc in getattr(unit, "unresolved_calls", ()):
            raise LinkError(f"unresolved reference to function `{sig.name}'")
    else:
        unit = _merge(stage, units, mains[0])
    return LinkedShader(stage, unit, tuple(s for _u, s in objects), _profile(mains[0]))


# -- several objects of one stage ---------------------------------------------------------

def _signature_key(sig) -> str:
    return f"{sig.name}({', '.join(str(t) for t in sig.parameter_types)})"


def _block_key(block) -> tuple:
    storage = getattr(block.variable, "storage", None) if block.variable is not None else None
    if storage is None and block.member_variables:
        storage = block.member_variables[0].storage
    return block.block_name, storage


def _merge(stage: str, units: list, main_unit):
    """One unit from several: a copy in which the objects' symbols of one name are
    one symbol and prototypes are bound to their bodies."""
    from compiler.glsl import ast as A
    from compiler.glsl.symbols import FunctionSignature, Variable

    memo: dict[int, Any] = {}
    shells: list[tuple[Any, Any]] = []

    def copyable(obj) -> bool:
        return isinstance(obj, (A.Node, Variable, FunctionSignature)) and not getattr(obj, "builtin", False)

    def shell(obj):
        """The copy of ``obj``, its fields filled later (``fill``): other objects'
        symbols can be pointed at it before anything refers to it."""
        if id(obj) in memo:
            return memo[id(obj)]
        new = memo[id(obj)] = copy.copy(obj)
        shells.append((obj, new))
        return new

    def fill():
        while shells:
            obj, new = shells.pop()
            for k, v in vars(obj).items():
                new.__dict__[k] = cp(v)

    def cp(obj):
        oid = id(obj)
        hit = memo.get(oid)
        if hit is not None:
            return hit
        if isinstance(obj, list):
            new = memo[oid] = []
            new.extend(cp(x) for x in obj)
            return new
        if isinstance(obj, dict):
            new = memo[oid] = {}
            for k, v in obj.items():
                new[cp(k)] = cp(v)
            return new
        if isinstance(obj, tuple):
            return tuple(cp(x) for x in obj)
        if isinstance(obj, (set, frozenset)):
            return type(obj)(cp(x) for x in obj)
        if copyable(obj):
            new = memo[oid] = copy.copy(obj)
            for k, v in vars(obj).items():
                new.__dict__[k] = cp(v)
            return new
        return obj          # types, locations, constants, built-in symbols: shared, never changed

    # globals and built-ins of one name are one symbol (the first object's), of one type
    canonical: dict[str, Any] = {}
    used: dict[str, bool] = {}
    for u in units:
        for g in list(u.globals) + list(u.builtin_variables):
            prev = canonical.get(g.name)
            if prev is None:
                canonical[g.name] = g
            elif prev is not g and prev.type != g.type and not g.builtin:
                raise LinkError(f"`{g.name}' declared as different types in {stage} shaders")
            used[g.name] = used.get(g.name, False) or bool(getattr(g, "used", False))
    blocks: dict[tuple, Any] = {}
    for u in units:
        for b in u.interface_blocks:
            blocks.setdefault(_block_key(b), b)
    # one body per signature
    bodies: dict[str, Any] = {}
    for u in units:
        for sig in u.functions:
            if sig.definition is None:
                continue
            k = _signature_key(sig)
            if k in bodies and bodies[k] is not sig:
                raise LinkError(f"function `{sig}' is defined in more than one {stage} shader object")
            bodies[k] = sig
    for u in units:
        for sig, _loc in getattr(u, "unresolved_calls", ()):
            if _signature_key(sig) not in bodies:
                raise LinkError(f"unresolved reference to function `{sig.name}'")

    # the canonical symbols' copies first (as shells), the other objects' symbols
    # pointed at them, then everything copied
    for name, g in canonical.items():
        if copyable(g):
            shell(g)
    for b in blocks.values():
        shell(b)
    for sig in bodies.values():
        shell(sig)
    for u in units:
        for g in list(u.globals) + list(u.builtin_variables):
            memo.setdefault(id(g), memo.get(id(canonical[g.name]), canonical[g.name]))
        for b in u.interface_blocks:
            memo.setdefault(id(b), memo[id(blocks[_block_key(b)])])
        for sig in u.functions:
            if sig.definition is None and _signature_key(sig) in bodies:
                memo[id(sig)] = memo[id(bodies[_signature_key(sig)])]
    fill()
    for name, g in canonical.items():
        if copyable(g):
            memo[id(g)].used = used[name]

    declarations, seen_vars = [], set()
    for u in units:
        for d in cp(u.declarations):
            if isinstance(d, A.VariableDeclaration):
                vs = [id(x.variable) for x in d.declarators if x.variable is not None]
                if vs and all(v in seen_vars for v in vs):
                    continue            # the same globals declared again by another object
                seen_vars.update(vs)
            declarations.append(d)
    out = copy.copy(main_unit)
    out.declarations = declarations
    out.extensions = {k: v for u in units for k, v in u.extensions.items()}
    out.globals = _unique(cp(g) for u in units for g in u.globals)
    out.builtin_variables = _unique(cp(g) for u in units for g in u.builtin_variables)
    out.functions = _unique(cp(s) for u in units for s in u.functions if s.definition is not None or
                            _signature_key(s) not in bodies)
    out.builtin_functions = _unique(s for u in units for s in u.builtin_functions)
    out.interface_blocks = _unique(cp(b) for b in blocks.values())
    out.main = cp(main_unit.main)
    out.unresolved_calls = []
    out.invariant_all = any(u.invariant_all for u in units)
    out.info_log = "".join(u.info_log for u in units)
    for name in ("local_size", "geometry", "tessellation", "subroutines"):
        if getattr(out, name, None) is None:
            out.__dict__[name] = next((cp(getattr(u, name)) for u in units
                                       if getattr(u, name, None) is not None), None)
    return out


def _unique(items) -> list:
    out, seen = [], set()
    for x in items:
        if id(x) not in seen:
            seen.add(id(x))
            out.append(x)
    return out
