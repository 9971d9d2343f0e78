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
stay as they were) with its serialised form and digest. What crosses the pipe to a
hardware driver is its ``stage_ir()`` (a ``compiler.variant.StageIR``, which this
module hands the lowering of the unit to run on first use): the driver compiles
variants from it (``compiler.variant.compile_stage``) and never sees GLSL text nor
imports this module; the ``digest`` keys the shader caches.

Invariants: a ``LinkedShader`` is frozen and hashable (by digest); its ``unit``
is only read after the link (every variant is lowered from the same unit, see
``compiler.compile.front_half_unit``).
"""

from __future__ import annotations

import copy
import hashlib
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from compiler.variant import StageIR

__all__ = ["BlockMember", "BuiltinInput", "DefaultBlock", "LinkError", "LinkedShader", "XfbCapture",
           "default_block_layout", "program_default_block", "stage_ir_of", "state_block",
           "assign_attributes",
           "assign_frag_outputs", "xfb_captures",
           "attribute_fetch_slots", "attribute_slots", "block_members", "block_size", "extension_set_digest",
           "frag_output_indices",
           "link_stage", "linked_shader", "match_interfaces", "same_interface_type", "same_type",
           "separable_per_vertex_error", "shader_from_source", "PIPELINE_ORDER", "inputs_read", "unread_outputs",
           "without_outputs", "components_of", "rank_matches", "resource_limit_error", "block_limit_error"]

#: separates the shader objects of a stage in the serialised form
_OBJECT_SEPARATOR = "\n// -- next shader object of the stage --\n"


class LinkError(Exception):
    """A program that does not link (GL 4.6 section 7.3); the text is the info log's line."""


@dataclass(frozen=True, eq=False)
class LinkedShader:
    """One linked stage: the typed AST ``unit`` (``compiler.glsl.ast.TranslationUnit``)
    made from the GLSL ``sources`` of the stage's shader objects, in attach order.

    ``text`` is the serialised form (stage, profile, ``extensions``, the objects'
    sources): the same text gives the same unit, so ``digest`` (its SHA-256) stands
    for the shader in caches. ``extensions`` names what else the parse depended on:
    the GLSL extensions the context offered (they decide ``#extension`` and the
    predefined macros), as a digest; "" when the parse offered all.
    ``private_outputs`` names user outputs the link made private globals (the next
    stage of the program does not read them: ``without_outputs``). Equality and
    hash go by digest."""
    stage: str
    unit: Any
    sources: tuple[str, ...]
    profile: str = ""
    extensions: str = ""
    private_outputs: tuple[str, ...] = ()
    text: str = field(init=False, repr=False)
    digest: str = field(init=False)

    def __post_init__(self):
        text = f"linked {self.stage} shader, profile {self.profile or 'default'}" + \
            (f", extensions {self.extensions}" if self.extensions else "") + \
            (f", private outputs {','.join(self.private_outputs)}" if self.private_outputs else "") + "\n" + \
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

    @property
    def inputs_read(self) -> dict[str, int | None]:
        """The stage's inputs and how many elements of each it reads (``inputs_read``)."""
        got = self.__dict__.get("_inputs_read")
        if got is None:
            got = self.__dict__["_inputs_read"] = inputs_read([self.unit])
        return dict(got)

    def __eq__(self, other) -> bool:
        return isinstance(other, LinkedShader) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def stage_ir(self, options: dict | None = None) -> "StageIR":
        """What crosses the pipe for this stage (``StageIR``), lowered with the compile
        ``options`` (``DefaultBlock.lowering_options``: where the program's default
        block puts each uniform); one per LinkedShader and options, whose digest
        names both."""
        text = repr(sorted((options or {}).items()))
        made = self.__dict__.setdefault("_stage_irs", {})
        got = made.get(text)
        if got is None:
            digest = "ir of " + self.digest + \
                (", options " + hashlib.sha256(text.encode()).hexdigest() if options else "")
            got = made[text] = StageIR(self.stage, digest, self.profile, self.source, _Lowering(self, options))
        return got


def stage_ir_of(shader, source: str = "", block: "DefaultBlock | None" = None) -> StageIR:
    """The ``StageIR`` a GL path hands the pipe for a stage: a ``LinkedShader``'s, or
    the linked form of one typed unit its caller parsed or built (internal kernels,
    the transform feedback vertex stage, pass-through stages; ``source`` is the
    unit's text), lowered with ``block``'s placement of the default uniforms (the
    program's ``DefaultBlock``; None: the compiler's own). A driver passes the
    object on and never reads it."""
    if isinstance(shader, StageIR):
        return shader
    if not isinstance(shader, LinkedShader):
        shader = linked_shader(shader, source)
    return shader.stage_ir(block.lowering_options() if block is not None else None)


class _Lowering:
    """Lowers a LinkedShader once, on first use (a process whose variants all come
    from the on-disk shader cache never lowers): the compiler's, never the driver's."""

    def __init__(self, linked: LinkedShader, options: dict | None = None):
        self._linked, self._options = linked, options
        self._result = None
        self._lock = threading.Lock()

    def __call__(self):
        with self._lock:
            if self._result is None:
                from compiler.lower import LoweringError, lower_stage
                try:
                    self._result = (lower_stage(self._linked.unit, self._options), None)
                except LoweringError as e:
                    self._result = (None, e)
                self._linked = None         # the AST is not needed any more
        lowered, error = self._result
        if error is not None:
            raise error
        return lowered


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


def extension_set_digest(extensions: Collection[str] | None) -> str:
    """The ``LinkedShader.extensions`` of units parsed with the GLSL extension set
    ``extensions`` (None: all the compiler knows)."""
    if extensions is None:
        return ""
    return hashlib.sha256(",".join(sorted(extensions)).encode()).hexdigest()[:16]


def link_stage(stage: str, objects: Sequence[tuple[Any, str]], extensions: str = "") -> LinkedShader:
    """Link the shader objects ``objects`` ((typed unit, its source) in attach order)
    of one stage, parsed with the extension set of digest ``extensions``
    (``extension_set_digest``). Raises ``LinkError`` with the reason."""
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
        _check_io_layouts(stage, units)
        if stage == "fragment":
            _check_fragment_redeclarations(units)
        unit = _merge(stage, units, mains[0])
    from compiler.glsl.enhanced_layouts import location_aliasing_error
    err = location_aliasing_error(unit)
    if err:
        raise LinkError(err)
    return LinkedShader(stage, unit, tuple(s for _u, s in objects), _profile(mains[0]), extensions)


def _check_io_layouts(stage: str, units: list) -> None:
    """An input or output declared in several objects of a stage has one location and
    component (ARB_enhanced_layouts: the objects may not place it differently). A
    declaration without a location takes the one another object gives it (Mesa's
    cross_validate_globals: ``attribute vec4 v;`` in one object and
    ``layout(location = 0) in vec4 v;`` in another link, with location 0: ``_merge``
    keeps the declaration with the location)."""
    explicit: dict = {}
    for u in units:
        for g in _io_globals(u):
            layout = g.layout or {}
            if layout.get("location") is None:
                continue
            place = (layout.get("location"), layout.get("component", 0))
            prev = explicit.setdefault((g.storage, g.name), place)
            if prev != place:
                raise LinkError(f"`{g.name}' has different locations or components in the {stage} shader objects")
    for u in units:
        for g in _io_globals(u):
            place = explicit.get((g.storage, g.name))
            if place is not None and (g.layout or {}).get("location") is None \
                    and (g.layout or {}).get("component", 0) != place[1]:
                raise LinkError(f"`{g.name}' has different locations or components in the {stage} shader objects")


def _io_globals(unit):
    return [g for g in unit.globals if g.storage in ("in", "out") and not getattr(g, "builtin", False)]


def _check_fragment_redeclarations(units: list) -> None:
    """gl_FragDepth (ARB/AMD_conservative_depth; gl_FragCoord: ``_check_frag_coord``): once a
    fragment shader object that uses it redeclares it, every object using it redeclares
    it, with the same layout qualifiers."""
    for name in ("gl_FragDepth",):
        used = [v for u in units for v in u.builtin_variables if v.name == name]
        declared = [v for v in used if getattr(v, "redeclared", False)]
        if not declared:
            continue
        if len(declared) != len(used):
            raise LinkError(f"`{name}' is redeclared in some fragment shader objects using it and not in others")
        if any(dict(v.layout) != dict(declared[0].layout) for v in declared):
            raise LinkError(f"`{name}' is redeclared with different layout qualifiers in the fragment shader objects")


# -- several objects of one stage ---------------------------------------------------------

def _signature_key(sig) -> str:
    return f"{sig.name}({', '.join(str(t) for t in sig.parameter_types)})"


def _placed_offsets(block) -> tuple:
    """The offsets offset/align qualifiers gave a block's members (None where none)."""
    t = block.type
    return tuple((f.qualifiers or {}).get("offset_B") if isinstance(f.qualifiers, dict) else None
                 for f in (t.fields if t is not None else ()))


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
    implicit: dict[int, Any] = {}           # id(variable) -> what its object sized by use
    for u in units:
        implicit.update(_implicitly_sized(u, A))
    declared: dict[str, list] = {}          # name -> (type, implicitly sized part) per object
    merged_types: dict[str, Any] = {}       # name -> the type several objects' sizes give it
    for u in units:
        for g in list(u.globals) + list(u.builtin_variables):
            prev = canonical.get(g.name)
            if not g.builtin:
                declared.setdefault(g.name, []).append((g.type, implicit.get(id(g))))
            if prev is None:
                canonical[g.name] = g
            elif prev is not g and not same_type(prev.type, g.type) and not g.builtin:
                merged = _merged_implicit_type(declared[g.name])
                if merged is not None:
                    merged_types[g.name] = merged
                elif not _unsized_pair(prev.type, g.type):
                    raise LinkError(f"`{g.name}' declared as different types in {stage} shaders")
                elif (g.type.length or 0) > (prev.type.length or 0):
                    canonical[g.name] = g       # an array left unsized in one object: the sized one
            elif prev is not g and not g.builtin and (g.layout or {}).get("location") is not None \
                    and (prev.layout or {}).get("location") is None:
                canonical[g.name] = g           # the object that placed it (_check_io_layouts)
            used[g.name] = used.get(g.name, False) or bool(getattr(g, "used", False))
    _check_initializers(units, A)
    if stage == "fragment":
        _check_frag_coord(units, A)
    _check_per_vertex(stage, units, A)
    blocks: dict[tuple, Any] = {}
    for u in units:
        for b in u.interface_blocks:
            first = blocks.setdefault(_block_key(b), b)
            if first is not b and _placed_offsets(first) != _placed_offsets(b):
                # ARB_enhanced_layouts: one block, its members placed the same way in every object
                raise LinkError(f"block `{b.block_name}' has members at different offsets in the {stage} shader "
                                "objects")
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
    _check_recursion(stage, units)

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
    for name, t in merged_types.items():
        memo[id(canonical[name])].type = t
        block = t.element if t.is_array else t
        for b in blocks.values():
            if b.variable is canonical[name] and block.is_block:
                memo[id(b)].type = block

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
    out.early_fragment_tests = any(getattr(u, "early_fragment_tests", False) for u in units)
    out.post_depth_coverage = any(getattr(u, "post_depth_coverage", False) for u in units)
    out.info_log = "".join(u.info_log for u in units)
    for name in ("local_size", "geometry", "tessellation", "subroutines"):
        if getattr(out, name, None) is None:
            out.__dict__[name] = next((cp(getattr(u, name)) for u in units
                                       if getattr(u, name, None) is not None), None)
    for name in ("geometry", "tessellation"):
        out.__dict__[name] = _merged_stage_layout([getattr(u, name, None) for u in units])
    return out


def _merged_stage_layout(layouts: list):
    """The geometry or tessellation layout of a stage whose declarations are spread over
    its shader objects (a geometry shader's primitives in one object, its max_vertices in
    another; a control stage's ``vertices``): each field from the first object that
    declares it, the emitted streams of all (the driver's link checks that the objects
    agree). None when no object has one."""
    from dataclasses import fields, replace
    given = [lay for lay in layouts if lay is not None]
    if not given:
        return None
    merged = {}
    for f in fields(given[0]):
        values = [getattr(lay, f.name) for lay in given]
        if isinstance(values[0], frozenset):
            merged[f.name] = frozenset().union(*values)
        else:
            merged[f.name] = next((v for v in values if v is not None and v != f.default), values[0])
    return replace(given[0], **merged)


def _check_recursion(stage: str, units: list) -> None:
    """GLSL 4.60 section 6.1: static recursion is an error, also when the cycle runs
    through functions of several shader objects (each object's compile saw only its
    own part of it)."""
    graph: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    for u in units:
        for caller, callees in getattr(u, "call_graph", {}).items():
            k = _signature_key(caller)
            names[k] = caller.name
            graph.setdefault(k, set()).update(_signature_key(c) for c in callees)
    state: dict[str, int] = {}

    def cycle_at(k: str) -> str | None:
        """A function on a cycle reachable from ``k`` (the one that closes it), or None."""
        state[k] = 1
        for n in sorted(graph.get(k, ())):
            if state.get(n) == 1:
                return n
            if n not in state and (found := cycle_at(n)) is not None:
                return found
        state[k] = 2
        return None

    for k in sorted(graph):
        if k not in state and (found := cycle_at(k)) is not None:
            raise LinkError(f"function `{names.get(found, found)}' has static recursion across the {stage} "
                            "shader objects")


def _implicitly_sized(unit, A) -> dict[int, Any]:
    """The variables of one shader object that it declared without an array size (GLSL
    1.20 section 4.1.9: sized by their uses, the largest constant index, when the
    object was compiled): id(variable) -> True for an array, or the names of the members
    of a block instance declared so."""
    out: dict[int, Any] = {}
    for d in unit.declarations:
        if isinstance(d, A.VariableDeclaration):
            for x in d.declarators:
                if x.variable is not None and len(x.array_dims) == 1 and x.array_dims[0] is None:
                    out[id(x.variable)] = True
    for b in unit.interface_blocks:
        names = {x.name for m in b.members for x in m.declarators
                 if len(x.array_dims) == 1 and x.array_dims[0] is None}
        if not names:
            continue
        if b.variable is not None:
            out[id(b.variable)] = frozenset(names)
        for v in b.member_variables:
            if v.name in names:
                out[id(v)] = True
    return out


def _merged_array_size(decls: list) -> int | None:
    """The size of one array several objects declare ((array type, declared without size)
    each), as Mesa's linker: the one explicit size, which every size implied by use must
    not exceed, else the largest implied one; None when they disagree."""
    explicit = {t.length for t, imp in decls if not imp}
    implied = max((t.length or 0 for t, imp in decls if imp), default=0)
    if len(explicit) > 1:
        return None
    if explicit:
        n = explicit.pop()
        return n if implied <= n else None
    return implied


def _merged_implicit_type(decls: list):
    """The type of a global that several objects of a stage declare, some of them (or
    some members of its block) without size and sized by their own uses: the arrays at
    ``_merged_array_size``; None when the declarations differ otherwise (or no object
    sized any by use)."""
    if not any(imp for _t, imp in decls):
        return None
    first = decls[0][0]
    if first.is_array and not first.element.is_block:
        if not all(t.is_array and same_type(t.element, first.element) for t, _i in decls):
            return None
        n = _merged_array_size([(t, bool(imp)) for t, imp in decls])
        return None if n is None else _array_of(first.element, n)
    outer = first.length if first.is_array else None
    blocks = [(t.element if t.is_array else t, imp) for t, imp in decls]
    bt = blocks[0][0]
    if not bt.is_block or any(t.is_array != first.is_array or (t.length if t.is_array else None) != outer
                              for t, _i in decls):
        return None
    if any(not b.is_block or b.name != bt.name or len(b.fields) != len(bt.fields) for b, _i in blocks):
        return None
    from compiler.glsl.types import StructField, block_type
    fields = []
    for k, f in enumerate(bt.fields):
        members = [(b.fields[k].type, isinstance(imp, frozenset) and f.name in imp) for b, imp in blocks]
        if any(b.fields[k].name != f.name for b, _i in blocks):
            return None
        if all(same_type(t, f.type) for t, _i in members):
            fields.append(f)
            continue
        if not all(t.is_array and same_type(t.element, f.type.element) for t, _i in members):
            return None
        n = _merged_array_size(members)
        if n is None:
            return None
        fields.append(StructField(f.name, _array_of(f.type.element, n), f.qualifiers))
    merged = block_type(bt.name, bt.block_kind, fields)
    return _array_of(merged, outer) if first.is_array else merged


def _array_of(element, n):
    from compiler.glsl.types import array_of
    return array_of(element, n)


def _unsized_pair(a, b) -> bool:
    """Two declarations of one global array of which one object left the size out
    (GLSL 1.10 section 4.1.9: an unsized array is sized by its uses; the link
    takes the size the other object gives it)."""
    return a.is_array and b.is_array and a.element == b.element and None in (a.length, b.length)


def _check_initializers(units: list, A) -> None:
    """A global initialised in several objects of a stage (GLSL 4.60 section 4.3:
    one variable) must be initialised by constant expressions of one value in each,
    as Mesa's linker requires: two non-constant initialisers are an error even when
    they read the same."""
    seen: dict[str, list] = {}
    for u in units:
        for d in u.declarations:
            if not isinstance(d, A.VariableDeclaration):
                continue
            for x in d.declarators:
                if x.variable is not None and x.initializer is not None and x.variable.scope == "global":
                    seen.setdefault(x.variable.name, []).append(x)
    for name, inits in seen.items():
        if len(inits) < 2:
            continue
        values = [x.initializer.const if x.initializer.const is not None else x.variable.const_value
                  for x in inits]
        if any(v is None for v in values):
            raise LinkError(f"shared global variable `{name}' has multiple non-constant initializers")
        if len({repr(v) for v in values}) > 1:
            raise LinkError(f"initializers for global variable `{name}' have differing values")


def _check_frag_coord(units: list, A) -> None:
    """GLSL 1.50 section 4.3.8.1: when one fragment shader object redeclares
    gl_FragCoord, every object that uses it redeclares it, all with the same
    layout qualifiers."""
    uses = [v for u in units for v in u.builtin_variables if v.name == "gl_FragCoord"]
    redeclared = [x.variable for u in units for d in u.declarations if isinstance(d, A.VariableDeclaration)
                  for x in d.declarators if x.name == "gl_FragCoord" and x.variable is not None]
    if not redeclared:
        return
    if len({tuple(sorted(dict(v.layout).items())) for v in redeclared}) > 1:
        raise LinkError("gl_FragCoord redeclared with different layout qualifiers in the fragment shader objects")
    if any(v.used and not getattr(v, "redeclared", False) for v in uses):
        raise LinkError("gl_FragCoord is redeclared in one fragment shader object and used without "
                        "the redeclaration in another")


#: the members of the built-in gl_PerVertex output block
_PER_VERTEX_OUT = frozenset({"gl_Position", "gl_PointSize", "gl_ClipDistance", "gl_CullDistance"})


def _check_per_vertex(stage: str, units: list, A) -> None:
    """GLSL 4.10 section 7.1 (a clarification of 1.50's gl_PerVertex): the shader
    objects of a stage that use members of a built-in block must all redeclare it
    the same way, when one of them redeclares it."""
    for storage in ("in", "out"):
        redeclared, users = {}, []
        for i, u in enumerate(units):
            for d in u.declarations:
                if isinstance(d, A.InterfaceBlock) and d.block_name == "gl_PerVertex" and \
                        d.qualifier.storage == storage and d.type is not None:
                    redeclared[i] = tuple((f.name, str(f.type)) for f in d.type.fields)
            names = _PER_VERTEX_OUT if storage == "out" else {"gl_in"}
            if any(v.name in names and v.storage == storage and v.used for v in u.builtin_variables):
                users.append(i)
        if not redeclared:
            continue
        if len(set(redeclared.values())) > 1:
            raise LinkError(f"the {stage} shader objects redeclare the built-in `{storage} gl_PerVertex' "
                            "block differently")
        if any(i not in redeclared for i in users):
            raise LinkError(f"a {stage} shader object uses the built-in `{storage} gl_PerVertex' block "
                            "without the redeclaration another object makes")


#: the stages of a program in the order vertices flow through them
PIPELINE_ORDER = ("vertex", "tess_control", "tess_evaluation", "geometry", "fragment")


def _redeclares_per_vertex(units: list, storage: str) -> bool:
    from compiler.glsl import ast as A
    return any(isinstance(d, A.InterfaceBlock) and d.block_name == "gl_PerVertex" and d.qualifier.storage == storage
               for u in units for d in u.declarations)


def _uses_per_vertex(units: list, storage: str) -> bool:
    """Whether a stage's objects use members of its built-in ``storage`` gl_PerVertex
    block (outputs: gl_Position, ..., or the control stage's gl_out; inputs: gl_in)."""
    names = _PER_VERTEX_OUT | {"gl_out"} if storage == "out" else {"gl_in"}
    return any(v.name in names and v.storage == storage and v.used for u in units for v in u.builtin_variables)


def separable_per_vertex_error(stage_units: dict) -> str | None:
    """ARB_separate_shader_objects ("Shader Interface Matching", GL 4.6 section 7.4.1 and
    GLSL 4.60 section 7.1): a separable program of GLSL 1.50 or later (desktop) whose
    shaders use members of the built-in gl_PerVertex blocks must redeclare them.
    As Mesa, the rule is checked at the interfaces inside the program: between each two
    consecutive stages it links (``stage_units``: stage -> its shader objects' units),
    the earlier one's outputs and the later one's inputs. The message, or None."""
    units = [u for us in stage_units.values() for u in us]
    if any(u.version.es for u in units) or max(u.version.number for u in units) < 150:
        return None
    present = [s for s in PIPELINE_ORDER if s in stage_units]
    for producer, consumer in zip(present, present[1:]):
        for stage, storage in ((producer, "out"), (consumer, "in")):
            us = stage_units[stage]
            if _uses_per_vertex(us, storage) and not _redeclares_per_vertex(us, storage):
                return (f"the {stage.replace('tess_', 'tessellation ')} shader of a separable program uses "
                        f"the built-in `{storage} gl_PerVertex' block without redeclaring it")
    return None


def _unique(items) -> list:
    out, seen = [], set()
    for x in items:
        if id(x) not in seen:
            seen.add(id(x))
            out.append(x)
    return out


# -- the interface between stages -----------------------------------------------------------

def same_type(a, b) -> bool:
    """GLSL 4.60 section 4.3.9's type match across stages (a uniform declared in
    several stages): structures declared in each stage match by name and members
    (each stage's declaration is a type of its own)."""
    if a == b:
        return True
    if a.is_array or b.is_array:
        return a.is_array and b.is_array and a.length == b.length and same_type(a.element, b.element)
    if (a.is_struct and b.is_struct) or (a.is_block and b.is_block and a.block_kind == b.block_kind):
        # (a block declared by several shader objects of a stage: one block)
        return a.name == b.name and len(a.fields) == len(b.fields) and all(
            fa.name == fb.name and same_type(fa.type, fb.type) for fa, fb in zip(a.fields, b.fields))
    return False


def same_interface_type(a, b) -> bool:
    """Types match across stages: each shader declares its own struct and
    block types, so those compare by name and members (GLSL 1.50 sections
    4.3.7 and 7.x: same name, member names, types and order)."""
    if a == b:
        return True
    if a.base != b.base:
        return False
    if a.base == "array":
        return a.length == b.length and same_interface_type(a.element, b.element)
    if a.fields or b.fields:
        # a structure's name need not match (GLSL 4.60 section 4.3.4: members in name, type
        # and order), a block's must
        return ((a.name == b.name or not (a.is_block or b.is_block)) and len(a.fields) == len(b.fields)
                and all(f.name == g.name and same_interface_type(f.type, g.type)
                        for f, g in zip(a.fields, b.fields)))
    return False


def inputs_read(units: Sequence) -> dict[str, int | None]:
    """The inputs the shader objects ``units`` of one stage read, as Mesa's linker's
    ``inputs_read``: input name (built-in ones included: ``gl_TexCoord``, ``gl_Color``,
    ...) -> how many of its elements a read may reach: 1 for a plain input, one past the
    highest constant index of an array, or the whole declared array when it is indexed
    by a variable or used whole (None: an array whose size is implicit, every element
    its limit allows). An input no expression names is absent. Several
    objects read what any of them reads. (The previous stage need produce nothing else:
    the fixed-function vertex stage computes only the texture coordinates listed.)"""
    from compiler.glsl.ast import Index, VariableRef, walk
    read: dict[str, int | None] = {}

    def more(name, n):
        old = read.get(name, 0)
        read[name] = None if n is None or old is None else max(old, n)

    for unit in units:
        inputs = {v.name: v for v in list(unit.globals) + list(unit.builtin_variables)
                  if getattr(v, "storage", None) == "in"}
        nodes = list(walk(unit))
        constant_bases = set()
        for node in nodes:
            if isinstance(node, Index) and isinstance(node.base, VariableRef) and node.base.name in inputs \
                    and node.index.const is not None and inputs[node.base.name].type.is_array:
                constant_bases.add(id(node.base))
                more(node.base.name, int(node.index.const[0]) + 1)
        for node in nodes:
            if isinstance(node, VariableRef) and node.name in inputs and id(node) not in constant_bases:
                t = inputs[node.name].type
                more(node.name, (t.length or None) if t.is_array else 1)
    return read


def unread_outputs(outputs: Sequence, inputs: Sequence) -> list[str]:
    """The plain user outputs (not blocks nor their members) of a stage that no input
    of the next stage of the same program reads: none has its name, nor (both located)
    a location it covers. As Mesa's link, they take no output slots (GL 4.6 section
    11.1.2.1 counts the active outputs against MAX_*_OUTPUT_COMPONENTS)."""
    from compiler.glsl.types import type_size_slots
    names = {v.name for v in inputs}
    taken: set[int] = set()
    for v in inputs:
        loc = v.layout.get("location")
        if isinstance(loc, int):
            taken.update(range(loc, loc + type_size_slots(v.type)))
    out = []
    for v in outputs:
        if v.type.innermost_element.is_block or getattr(v, "block", None) is not None or v.name in names:
            continue
        loc = v.layout.get("location")
        if isinstance(loc, int) and taken & set(range(loc, loc + type_size_slots(v.type))):
            continue
        out.append(v.name)
    return out


def without_outputs(linked: LinkedShader, names: Collection[str]) -> LinkedShader:
    """``linked`` with its user outputs ``names`` made private globals (the writes stay,
    as writes to a variable nobody reads): a copy of the unit, which other programs may
    link as it is."""
    unit = _merge(linked.stage, [linked.unit], linked.unit)
    for g in unit.globals:
        if g.name in names and g.storage == "out":
            g.storage = "temporary"
    return LinkedShader(linked.stage, unit, linked.sources, linked.profile, linked.extensions,
                        tuple(sorted(set(names) | set(linked.private_outputs))))


#: stage -> the GL limits (in components) of its inputs and of its outputs; the geometry
#: stage's outputs are checked with its output record (driver.gl.geometry)
_IO_LIMITS = {"vertex": (None, "GL_MAX_VERTEX_OUTPUT_COMPONENTS"),
              "tess_control": ("GL_MAX_TESS_CONTROL_INPUT_COMPONENTS", "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS"),
              "tess_evaluation": ("GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS",
                                  "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS"),
              "geometry": ("GL_MAX_GEOMETRY_INPUT_COMPONENTS", None),
              "fragment": ("GL_MAX_FRAGMENT_INPUT_COMPONENTS", None)}
#: stage -> the GL limit of its default-block uniforms, in components
_UNIFORM_LIMITS = {"vertex": "GL_MAX_VERTEX_UNIFORM_COMPONENTS",
                   "tess_control": "GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS",
                   "tess_evaluation": "GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS",
                   "geometry": "GL_MAX_GEOMETRY_UNIFORM_COMPONENTS",
                   "fragment": "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS",
                   "compute": "GL_MAX_COMPUTE_UNIFORM_COMPONENTS"}


def components_of(t) -> int:
    """The 32-bit components a value of GLSL type ``t`` holds (a double takes two):
    what an input, output or default-block uniform counts against a component limit."""
    from compiler.glsl.types import BASES_64
    if t.is_array:
        return (t.length or 0) * components_of(t.element)
    if t.is_struct or t.is_block:
        return sum(components_of(f.type) for f in t.fields)
    return t.components * (2 if t.base in BASES_64 else 1)


def _per_vertex_components(stage: str, storage: str, v) -> int:
    """Components of one input/output, the per-vertex array of an arrayed interface
    (geometry and tessellation inputs, control outputs) stripped; patch variables: 0."""
    if getattr(v, "patch", False):
        return 0
    arrayed = (storage == "in" and stage in ("geometry", "tess_control", "tess_evaluation")) or \
        (storage == "out" and stage == "tess_control")
    t = v.type.element if arrayed and v.type.is_array else v.type
    return components_of(t)


def resource_limit_error(stage: str, inputs: Sequence, outputs: Sequence, uniforms: Sequence,
                         limits: dict, patch_vertices: int | None = None) -> str | None:
    """GL 4.6 sections 7.6 and 11.1.2.1 link errors: a stage whose user inputs or outputs
    (the ones it keeps: ``unread_outputs`` removed) or whose active default-block
    uniforms take more components than the context's ``limits`` (GL limit name ->
    value) allow; the tessellation stages' patch variables beyond
    GL_MAX_TESS_PATCH_COMPONENTS, and a control stage's outputs for its
    ``patch_vertices`` output vertices beyond GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS
    (section 11.2.1.2). The message naming the limit, or None."""
    in_limit, out_limit = _IO_LIMITS.get(stage, (None, None))
    label = stage.replace("tess_", "tessellation ")
    for storage, variables, name in (("in", inputs, in_limit), ("out", outputs, out_limit)):
        if name is None or name not in limits:
            continue
        used = sum(_per_vertex_components(stage, storage, v) for v in variables)
        if used > limits[name]:
            return (f"{label} shader uses too many {'input' if storage == 'in' else 'output'} components "
                    f"({used} > {name} {limits[name]})")
    if stage in ("tess_control", "tess_evaluation"):
        storage, variables = ("out", outputs) if stage == "tess_control" else ("in", inputs)
        patch = sum(components_of(v.type) for v in variables if getattr(v, "patch", False))
        name = "GL_MAX_TESS_PATCH_COMPONENTS"
        if name in limits and patch > limits[name]:
            return (f"{label} shader uses too many patch {'input' if storage == 'in' else 'output'} components "
                    f"({patch} > {name} {limits[name]})")
        name = "GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS"
        if stage == "tess_control" and patch_vertices and name in limits:
            total = patch + patch_vertices * sum(_per_vertex_components(stage, "out", v) for v in outputs)
            if total > limits[name]:
                return (f"{label} shader outputs {total} components for its {patch_vertices} output vertices and "
                        f"patch (> {name} {limits[name]})")
    name = _UNIFORM_LIMITS.get(stage)
    if name in limits:
        used = sum(components_of(v.type) for v in uniforms if v.used and not v.type.contains_opaque)
        if used > limits[name]:
            return f"{label} shader uses too many default uniform block components ({used} > {name} {limits[name]})"
    return None


def block_limit_error(uses: dict, limits: dict) -> str | None:
    """GL 4.6 sections 7.6.2 and 7.8 link errors: a stage using more uniform (or
    shader storage) blocks than GL_MAX_<STAGE>_UNIFORM_BLOCKS (_SHADER_STORAGE_BLOCKS)
    allow, or the stages together more than GL_MAX_COMBINED_UNIFORM_BLOCKS
    (_SHADER_STORAGE_BLOCKS; a block every stage uses counts once per stage).
    ``uses``: (stage, "uniform" or "buffer") -> blocks (array elements counted one
    by one); ``limits``: GL limit name -> value. The message naming the limit, or None."""
    kinds = {"uniform": ("UNIFORM_BLOCKS", "uniform"), "buffer": ("SHADER_STORAGE_BLOCKS", "shader storage")}
    total = {}
    for (stage, kind), n in sorted(uses.items()):
        suffix, what = kinds[kind]
        name = f"GL_MAX_{stage.upper()}_{suffix}"
        if name in limits and n > limits[name]:
            label = stage.replace("tess_", "tessellation ")
            return f"{label} shader uses too many {what} blocks ({n} > {name} {limits[name]})"
        total[kind] = total.get(kind, 0) + n
    for kind, n in sorted(total.items()):
        suffix, what = kinds[kind]
        name = f"GL_MAX_COMBINED_{suffix}"
        if name in limits and n > limits[name]:
            return f"the program uses too many {what} blocks ({n} > {name} {limits[name]})"
    return None


def rank_matches(outputs: Sequence, inputs: Sequence) -> dict[str, str]:
    """Between two separable programs (GL 4.6 section 7.4.1 leaves the value of an input
    that matches no output by name or location undefined): Mesa gives the user outputs
    and inputs without a location on a program's boundary consecutive slots in the
    order of their names, so such an input reads the output of the same rank there.
    The same pairing for the inputs (plain, not located) no output matches by name:
    input name -> output name."""
    def plain(vs):
        return sorted(v.name for v in vs if "location" not in (v.layout or {}) and not v.type.innermost_element.is_block
                      and getattr(v, "block", None) is None and not getattr(v, "patch", False))
    outs, ins = plain(outputs), plain(inputs)
    return {i: o for i, o in zip(ins, outs) if i not in outs}


@dataclass(frozen=True)
class _BlockMember:
    """A member of an output block as the interface matching sees it."""
    name: str
    type: Any
    layout: dict
    interpolation: str | None = None


def _located_block_members(v) -> list:
    """The members of the plain (not arrayed) user interface block ``v`` when they have
    locations (the block's or their own; the analysis then gives each member one,
    GLSL 4.60 section 4.4.1), as ``_BlockMember``s; [] otherwise."""
    t = v.type
    if not t.is_block or t.name.startswith("gl_"):
        return []
    layouts = [dict((f.qualifiers or {}).get("layout") or {}) for f in t.fields]
    if not layouts or any("location" not in lay for lay in layouts):
        return []
    return [_BlockMember(f.name, f.type, lay, (f.qualifiers or {}).get("interpolation") or v.interpolation)
            for f, lay in zip(t.fields, layouts)]


def match_interfaces(outputs: Sequence, inputs: Sequence, es: bool, fixed_function: bool = False) -> None:
    """GLSL 4.30 section 4.3.4 / GLSL ES 3.00 section 4.3.10: each used input of
    a stage (``inputs``: its user input variables) needs an output of the previous
    stage (``outputs``) of the same name (or location) and type; GLSL ES also
    requires matching interpolation. Interface blocks match by block name, not
    instance name (GLSL 1.50 section 4.3.7: `out Data {...} vs_out;` feeds
    `in Data {...} fs_in;`). ``fixed_function``: the previous stage is the
    compatibility profile's fixed-function one, which writes no user outputs: an
    input it does not feed is undefined, no error (as Mesa links it). Raises ``LinkError``."""
    def link_name(v):
        if v.type.innermost_element.is_block:
            return "block", v.type.innermost_element.name
        if getattr(v, "block", None) is not None:       # a member of an unnamed block
            return "member", v.block.block_name, v.name
        return v.name
    by_name = {link_name(v): v for v in outputs}
    # a block matches by block name with or without an instance name (GLSL 1.50 section
    # 4.3.7): an output block instance's members stand for an instance-less input block's,
    # an instance-less output block's members for the block an input instance names
    for v in outputs:
        t = v.type
        if t.is_block and not t.name.startswith("gl_"):
            for f in t.fields:
                q = f.qualifiers or {}
                by_name.setdefault(("member", t.name, f.name), _BlockMember(
                    f.name, f.type, dict(q.get("layout") or {}), q.get("interpolation") or v.interpolation))
        block = getattr(v, "block", None)
        if block is not None and not t.is_block and getattr(block, "type", None) is not None:
            by_name.setdefault(("block", block.block_name), _BlockMember(block.block_name, block.type, {},
                                                                         v.interpolation))
    # (ARB_enhanced_layouts: several variables share a location in different components;
    # the members of an output block with locations are at theirs, GLSL 4.60 section 4.4.1,
    # where plain located inputs find them; an input block still needs the output block
    # of its name)
    by_loc = {(v.layout["location"], v.layout.get("component", 0)): v for v in outputs
              if "location" in v.layout and not _located_block_members(v)}
    for v in outputs:
        for m in _located_block_members(v):
            by_loc.setdefault((m.layout["location"], m.layout.get("component", 0)), m)
    for inp in inputs:
        loc = inp.layout.get("location")
        if isinstance(link_name(inp), tuple) or loc is None:
            # blocks match by block name also when located (ARB_separate_shader_objects: the
            # location places the members; the values go by location, the check by name)
            out = by_name.get(link_name(inp))
        else:
            out = by_loc.get((loc, inp.layout.get("component", 0)))
        if out is None:
            if not inp.used or fixed_function:
                continue
            raise LinkError(f"fragment shader input `{inp.name}' has no matching output "
                            f"in the previous stage")
        if not same_interface_type(out.type, inp.type):
            raise LinkError(f"`{inp.name}' is declared as type `{inp.type.name}' in the "
                            f"fragment shader and `{out.type.name}' in the vertex shader")
        bo, bi = out.type.innermost_element, inp.type.innermost_element
        if bo.is_block and bi.is_block:
            # ARB_enhanced_layouts: a block's members at the same locations and components
            def places(bt):
                return [tuple(((f.qualifiers or {}).get("own_layout") or {}).get(k) for k in ("location", "component"))
                        for f in bt.fields]
            if places(bo) != places(bi):
                raise LinkError(f"members of block `{bi.name}' have different locations or components in the "
                                "two stages")
        if es and (out.interpolation or "smooth") != (inp.interpolation or "smooth"):
            raise LinkError(f"interpolation qualifier mismatch for `{inp.name}'")


# -- locations --------------------------------------------------------------------------------

@dataclass(frozen=True)
class BuiltinInput:
    """A built-in vertex input of the compatibility profile (gl_Color, ...) being
    given a location."""
    name: str
    type: Any = None


def attribute_slots(t) -> int:
    """Generic attribute locations a vertex input takes (GLSL 4.60 section 4.4.1:
    one per matrix column or array element; a dvec3/dvec4 takes one too, and counts
    twice only against MAX_VERTEX_ATTRIBS, GL 4.6 section 11.1.1)."""
    from compiler.glsl.types import vertex_input_locations
    return vertex_input_locations(t)


def attribute_fetch_slots(attributes: dict) -> dict[int, int]:
    """Generic attribute location -> first vertex element (32-bit fetch slot) of the
    locations ``attributes`` (``assign_attributes``' result) take: a location with a
    dvec3/dvec4 input (or such a matrix column or array element) takes two
    (``compiler.glsl.types.vertex_fetch_slots``). The shaders' attribute locations
    and the draw's vertex elements are these slots; GL's queries give locations."""
    from compiler.glsl.types import is_dual_slot, vertex_fetch_slots
    dual: dict[int, bool] = {}
    for loc, t, n in attributes.values():
        for s in range(loc, loc + n):
            dual[s] = dual.get(s, False) or (t is not None and is_dual_slot(t))
    return vertex_fetch_slots(dual)


def assign_attributes(inputs: Sequence, unit, *, bindings: dict, max_attribs: int, es: bool,
                      legacy_attribs: Collection[str] | None = None) -> dict:
    """Vertex input name -> (location, type, slots) (GL 4.6 section 11.1.1):
    explicit layout locations, then ``bindings`` (glBindAttribLocation), then the
    lowest free slots. ``inputs``: the vertex stage's user inputs (desktop GL
    gives locations to the used ones only); ``legacy_attribs``: the built-in
    inputs of the compatibility profile (None elsewhere), which ``unit`` (the
    linked vertex stage) may read: ``gl_Vertex`` (or ``ftransform()``) aliases
    location 0, the others take free slots. Raises ``LinkError``."""
    from compiler.glsl.types import is_dual_slot
    used: dict[int, str] = {}
    used_comps: dict[int, int] = {}
    dual: set[int] = set()          # locations of dvec3/dvec4 inputs: they count twice
    out: dict[str, tuple] = {}
    pending = []
    for v in inputs:
        if not v.used and not es:
            continue
        n = attribute_slots(v.type)
        loc = v.layout.get("location", bindings.get(v.name))
        if loc is None:
            pending.append((v, n))
            continue
        if loc + n > max_attribs:
            raise LinkError(f"attribute `{v.name}' location {loc} exceeds MAX_VERTEX_ATTRIBS")
        # ARB_enhanced_layouts: inputs with component qualifiers share a location's components
        comps = (v.layout.get("component", 0), v.type.innermost_element.vector_size) \
            if "component" in v.layout or any(
                "component" in (w.layout or {}) and w.layout.get("location") == loc for w in inputs) else None
        for s in range(loc, loc + n):
            # GLSL 4.60 section 4.4.1: vertex inputs (not block members) are the one place where
            # aliasing is allowed, in desktop GL (GL 4.6 section 11.1.1: "aliasing"); GLSL ES
            # 3.00 section 12.46 forbids it, and component qualifiers may alias in both
            if s in used and es and not (comps is not None and s in used_comps):
                raise LinkError(f"attributes `{used[s]}' and `{v.name}' alias location {s}")
            used[s] = v.name
            if comps is not None:
                used_comps[s] = used_comps.get(s, 0) | _mask(comps)
        if is_dual_slot(v.type):
            dual.update(range(loc, loc + n))
        out[v.name] = (loc, v.type, n)
    if legacy_attribs is not None:
        names = {v.name for v in unit.builtin_variables if v.name in legacy_attribs}
        if any(getattr(f, "name", "") == "ftransform" for f in unit.builtin_functions):
            names.add("gl_Vertex")
        if "gl_Vertex" in names:      # gl_Vertex aliases generic attribute 0
            out["gl_Vertex"] = (0, None, 1)
            used.setdefault(0, "gl_Vertex")
            names.discard("gl_Vertex")
        for name in sorted(names):
            pending.append((BuiltinInput(name), 1))
    for v, n in pending:
        loc = next((s for s in range(max_attribs - n + 1)
                    if all(x not in used for x in range(s, s + n))), None)
        if loc is None:
            raise LinkError(f"too many vertex attributes (`{v.name}')")
        for s in range(loc, loc + n):
            used[s] = v.name
        if v.type is not None and is_dual_slot(v.type):
            dual.update(range(loc, loc + n))
        out[v.name] = (loc, v.type, n)
    if len(used) + len(dual) > max_attribs:
        # GL 4.6 section 11.1.1: dvec3, dvec4 and the matrices of such columns "may count as
        # consuming twice as many attributes"; they do here (two fetch slots each)
        raise LinkError(f"too many vertex attributes: {len(used)} locations, {len(dual)} of them of "
                        f"dvec3/dvec4 columns counting twice, exceed MAX_VERTEX_ATTRIBS ({max_attribs})")
    return out


def _mask(comps: tuple[int, int]) -> int:
    """The bit mask of components (first, count) of a location."""
    first, count = comps
    return ((1 << count) - 1) << first


def frag_output_indices(outputs: Sequence, index_bindings: dict) -> dict:
    """Fragment output name -> dual-source index (GL 4.6 section 15.2.3):
    layout(index), else ``index_bindings``' (glBindFragDataLocationIndexed), else 0."""
    out = {}
    for v in outputs:
        index = v.layout.get("index", index_bindings.get(v.name, 0))
        out[v.name] = index[0] if isinstance(index, tuple) else index
    return out


def assign_frag_outputs(outputs: Sequence, *, bindings: dict, index_bindings: dict, max_render_targets: int,
                        max_dual_source: int) -> dict:
    """Fragment output name -> colour location (GL 4.6 section 15.2.3): layout
    locations, then ``bindings`` (glBindFragDataLocation[Indexed]), then the free
    locations in declaration order. Also in GLSL ES, whose section 4.3.8.2 wants
    a location on every output when there are several: Mesa links such shaders
    this way, and programs written against it rely on that. Two outputs may share
    a location only with different indices; index 1 only below ``max_dual_source``.
    Raises ``LinkError``."""
    res = {}
    unassigned = []
    for v in outputs:
        loc = v.layout.get("location", bindings.get(v.name))
        if loc is None:
            unassigned.append(v)
        else:
            n = v.type.length if v.type.base == "array" else 1
            if loc + n > max_render_targets:
                raise LinkError(f"fragment output `{v.name}' location {loc} out of range")
            res[v.name] = loc
    if unassigned:
        free = [i for i in range(max_render_targets) if i not in res.values()]
        for v, loc in zip(unassigned, free):
            res[v.name] = loc
    index = frag_output_indices(outputs, index_bindings)
    # ARB_enhanced_layouts: outputs of one location in disjoint components (of one base type)
    taken: dict[tuple, tuple[int, str]] = {}
    for v in outputs:
        if v.name not in res:
            continue
        n = v.type.length if v.type.base == "array" else 1
        el = v.type.innermost_element
        mask = _mask((v.layout.get("component", 0), el.vector_size))
        for k in range(n):
            key = (res[v.name] + k, index[v.name])
            prev_mask, prev_base = taken.get(key, (0, el.base))
            if prev_mask & mask:
                raise LinkError("two fragment outputs share a location")
            if prev_base != el.base:
                raise LinkError(f"fragment output `{v.name}' shares location {key[0]} with an output of "
                                "another type")
            taken[key] = (prev_mask | mask, el.base)
    for name, loc in res.items():
        if index[name] == 1 and loc >= max_dual_source:
            raise LinkError(f"fragment output `{name}' of index 1 at location {loc}: only "
                            f"{max_dual_source} dual-source draw buffer(s)")
    return res


# -- block layouts ------------------------------------------------------------------------------

def _align_size(t, std430: bool = False, row_major: bool = False) -> tuple[int, int]:
    """(base alignment, size) in bytes of GLSL type ``t`` under std140, or std430
    when asked (GL 4.6 section 7.6.2.2), its matrices row-major when asked. The rules
    are written once, in ``compiler.ir.passes.io.type_layout``, which lays out the
    blocks the shaders read; applied here to the type's IR form, so the offsets GL
    reports are the ones the shader uses."""
    from compiler.ir.passes.io import type_layout
    from compiler.lower.from_ast import ir_type
    size, align = type_layout(ir_type(t, row_major), "std430" if std430 else "std140")
    return align, size


def _array_stride_B(element, std430: bool, row_major: bool = False) -> int:
    """The stride of an array of ``element`` (one element's size, rounded to the
    array's alignment): the size of a one-element array."""
    from compiler.glsl import types as GT
    return _align_size(GT.array_of(element, 1), std430, row_major)[1]


def block_size(t, std430: bool = False) -> int:
    """Bytes of a block (or member) of GLSL type ``t`` under std140 (std430)."""
    return _align_size(t, std430)[1]


@dataclass(frozen=True)
class BlockMember:
    """An active member of a uniform or storage block: a basic type (arrays of
    basic types are one member "a[0]" of ``size`` elements), its offset and strides."""
    name: str
    type: Any             # the element GLSLType (basic)
    size: int
    offset_B: int
    array_stride_B: int
    matrix_stride_B: int
    row_major: bool = False         # a matrix held as its rows (matrix_stride_B apart)
    # a storage block's member within a top-level array of aggregates (GL 4.6 section
    # 7.3.1.1): its elements (0: unsized) and their stride; else 1 and 0
    top_level_size: int = 1
    top_level_stride_B: int = 0


def block_members(block_type, prefix: str = "", std430: bool = False, storage: bool = False) -> list[BlockMember]:
    """A block's active members with their std140 (or std430) offsets, structures
    and arrays of them flattened (GL 4.6 sections 7.3.1.1 and 7.6.2.2); row_major
    matrices (the member's layout, its block's, the default's) as the lowering holds
    them (compiler.lower.from_ast.field_row_major). ``storage``: a shader storage
    block, whose top-level arrays of aggregates (structures, arrays) list their first
    element only, each member with the array's TOP_LEVEL_ARRAY_SIZE and _STRIDE (section
    7.3.1.1; measured on llvmpipe: an unsized one is walked too, size 0; a top-level array
    of a basic type is no such array: size 1, stride 0)."""
    from compiler.lower.from_ast import field_row_major
    out: list[BlockMember] = []
    top = (1, 0)                # the top-level array (size, stride) of the member walked

    def walk(name, t, base, rm, elements=None):
        if t.base == "array":
            el = t.element
            stride = _array_stride_B(el, std430, rm)
            if el.base in ("struct", "array"):
                for i in range(t.length or 0) if elements is None else elements:
                    walk(f"{name}[{i}]", el, base + i * stride, rm)
            else:
                ms = _align_size(el, std430, rm)[0] if el.columns > 1 else 0
                out.append(BlockMember(f"{name}[0]", el, t.length or 0, base, stride, ms, rm and el.columns > 1,
                                       *top))
            return
        if t.base == "struct":
            off = base
            for f in t.fields:
                a, s = _align_size(f.type, std430, rm)
                off = -(-off // a) * a
                walk(f"{name}.{f.name}", f.type, off, rm)
                off += s
            return
        ms = _align_size(t, std430, rm)[0] if t.columns > 1 else 0
        out.append(BlockMember(name, t, 1, base, 0, ms, rm and t.columns > 1, *top))

    off = 0
    for f in block_type.fields:
        rm = field_row_major(block_type, f, False)
        a, s = _align_size(f.type, std430, rm)
        placed = (f.qualifiers or {}).get("offset_B") if isinstance(f.qualifiers, dict) else None
        off = placed if placed is not None else -(-off // a) * a     # offset/align qualifiers placed it
        t = f.type
        if storage and t.base == "array" and t.element.base in ("struct", "array"):
            top = (t.length or 0, _array_stride_B(t.element, std430, rm))
            walk(prefix + f.name, t, off, rm, elements=(0,))
            top = (1, 0)
        else:
            walk(prefix + f.name, t, off, rm)
        off += s
    return out


# -- transform feedback from the shader (ARB_enhanced_layouts) ------------------------------

@dataclass(frozen=True)
class XfbCapture:
    """One captured leaf of an output qualified with ``xfb_offset`` (GLSL 4.40 section
    4.4.2.1): ``name`` as GL reports it (``s.f``, a named block's ``Block.member``, an
    unnamed block's member alone), ``output`` the output the lowering reads (a variable
    or ``Block.member``), ``slot`` the first location of the leaf within that output,
    ``type`` the leaf's GLSL type (an array of basic types stays one leaf)."""
    name: str
    output: str
    slot: int
    type: Any
    buffer: int
    offset_B: int
    stream: int = 0


def xfb_captures(unit) -> tuple[list[XfbCapture], dict[int, int]]:
    """The outputs a stage captures by its own qualifiers and each buffer's stride in
    bytes (explicit ``xfb_stride``, else the end of its last capture, rounded to 8 when
    it holds doubles). Empty when the stage qualifies nothing with ``xfb_offset``."""
    from compiler.glsl.enhanced_layouts import xfb_size_B
    from compiler.glsl.types import type_size_slots
    out: list[XfbCapture] = []

    def leaves(name, output, t, slot, buffer, offset, stream):
        if t.is_struct:
            for f in t.fields:
                leaves(f"{name}.{f.name}", output, f.type, slot, buffer, offset, stream)
                slot += type_size_slots(f.type)
                offset += xfb_size_B(f.type)
            return
        if t.is_array and (t.element.is_struct or t.element.is_array):
            for i in range(t.length or 0):
                leaves(f"{name}[{i}]", output, t.element, slot, buffer, offset, stream)
                slot += type_size_slots(t.element)
                offset += xfb_size_B(t.element)
            return
        out.append(XfbCapture(name, output, slot, t, buffer, offset, stream))

    for v in unit.globals:
        if v.storage != "out" or getattr(v, "builtin", False):
            continue
        layout = v.layout or {}
        block = v.block
        if block is None and "xfb_offset" in layout and not v.type.is_block:
            leaves(v.name, v.name, v.type, 0, layout.get("xfb_buffer", 0), layout["xfb_offset"],
                   layout.get("stream", 0))
            continue
        bt = v.type.element if v.type.is_array else v.type
        if block is None or not bt.is_block:
            continue
        if v.type.is_array:         # an array of instances: element i captures to xfb_buffer + i
            for i in range(v.type.length or 0):     # (GLSL 4.60 section 4.4.2.1), Block[i].member
                for f in bt.fields:
                    fl = (f.qualifiers or {}).get("layout", {})
                    if "xfb_offset" in fl:
                        leaves(f"{bt.name}[{i}].{f.name}", f"{bt.name}[{i}].{f.name}", f.type, 0,
                               fl.get("xfb_buffer", 0) + i, fl["xfb_offset"], fl.get("stream", 0))
            continue
        for f in bt.fields:         # a named block instance: Block.member
            fl = (f.qualifiers or {}).get("layout", {})
            if "xfb_offset" in fl:
                leaves(f"{bt.name}.{f.name}", f"{bt.name}.{f.name}", f.type, 0, fl.get("xfb_buffer", 0),
                       fl["xfb_offset"], fl.get("stream", 0))
    for b in unit.interface_blocks:  # unnamed blocks: each member is a global of its own
        if b.instance_name or b.type is None or b.type.block_kind != "out":
            continue
        for f in b.type.fields:
            fl = (f.qualifiers or {}).get("layout", {})
            if "xfb_offset" in fl:
                leaves(f.name, f.name, f.type, 0, fl.get("xfb_buffer", 0), fl["xfb_offset"], fl.get("stream", 0))
    if not out:
        return [], {}
    strides = dict(getattr(unit, "xfb_strides", {}) or {})
    for c in out:
        if c.buffer not in strides:
            end = max(x.offset_B + xfb_size_B(x.type) for x in out if x.buffer == c.buffer)
            wide = any(x.type.innermost_element.base in ("double", "int64", "uint64") for x in out
                       if x.buffer == c.buffer)
            strides[c.buffer] = -(-end // 8) * 8 if wide else end
    return out, strides


@dataclass(frozen=True)
class DefaultBlock:
    """The default uniform block of a program as its shaders read it: the one layout
    of the block, assigned at link (``default_block_layout``). GL's uniform storage
    is these bytes (``glUniform*`` writes them); every stage's lowering places each
    uniform it uses at its offset here (``lowering_options``), in uniform registers
    when it fits below the register budget (register r holds byte r of the storage)
    and read from the default uniform buffer (UBO 0, the storage itself) otherwise.

    ``offsets``: (variable name, offset_B) in block order, std430 (a matrix is an
    array of column vectors; the compiler's ``type_layout``); ``size_B`` the block's
    bytes; ``leaves``: every leaf as GL names it ("m", "s.f", "a[2].f"; an array of a
    basic type is one leaf) -> (offset_B, stride_B, matrix_stride_B, elements), the
    stride an array's (elements apart) or else the leaf's size.
    Hashable; equal layouts compare equal."""
    offsets: tuple[tuple[str, int], ...] = ()
    size_B: int = 0
    leaves: tuple[tuple[str, tuple[int, int, int, int]], ...] = field(default=(), compare=False, repr=False)

    def lowering_options(self) -> dict:
        """The compile options that make a stage's lowering place its uniforms here."""
        return {"default_block": self.offsets, "default_block_size_B": self.size_B}

    def leaf(self, name: str) -> tuple[int, int, int, int] | None:
        """(offset_B, stride_B, matrix_stride_B, elements) of a leaf; "a[0]" and
        "a" name the same array leaf."""
        table = self.__dict__.get("_leaf_table")
        if table is None:
            table = dict(self.leaves)
            object.__setattr__(self, "_leaf_table", table)
        got = table.get(name)
        if got is None and name.endswith("[0]"):
            got = table.get(name[:-3])
        return got


def default_block_layout(variables: Sequence[tuple[str, Any]]) -> DefaultBlock:
    """The default block of a program whose active default-block uniforms are
    ``variables`` ((name, GLSL type) in block order, each name once; no opaque
    types, no block members): std430, each variable at the next offset its
    alignment allows."""
    from compiler.lower.io import std430_block
    offsets, slots, end = std430_block(variables)
    leaves = tuple((s.name, (s.offset_B, s.array_stride_B or s.size_B, s.matrix_stride_B, s.count)) for s in slots)
    return DefaultBlock(tuple(offsets), end, leaves)


def state_block() -> DefaultBlock:
    """The compatibility profile's built-in state block (gl_ModelViewMatrix,
    gl_LightSource, ...; ``compiler.lower.io.state_block_variables``) as shaders read
    it: the GL front end writes these bytes, the shaders load from them (UBO
    ``STATE_BLOCK_UBO``), nothing copies between layouts."""
    from compiler.lower.io import state_block_variables
    got = _STATE_BLOCK.get("block")
    if got is None:
        got = _STATE_BLOCK["block"] = default_block_layout(state_block_variables())
    return got


_STATE_BLOCK: dict = {}


def program_default_block(stages: Sequence[Any]) -> DefaultBlock:
    """The default block of the stages of one program (each a ``LinkedShader`` or a
    typed unit): every non-opaque default-block uniform they declare, first
    declaration first; for programs a driver builds itself (blits, pass-through
    stages)."""
    seen: dict[str, Any] = {}
    for stage in stages:
        unit = stage.unit if isinstance(stage, LinkedShader) else stage
        for g in unit.globals:
            inner = g.type.innermost_element
            if g.storage != "uniform" or g.builtin or getattr(g, "block", None) is not None or \
                    inner.is_opaque or inner.is_block:
                continue
            seen.setdefault(g.name, g.type)
    return default_block_layout(list(seen.items()))
