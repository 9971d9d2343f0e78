"""Shader subroutines (GLSL 4.00 section 6.1.2; GL_ARB_shader_subroutine).

    subroutine vec4 Shade(float x);                 // a subroutine type
    subroutine(Shade) vec4 red(float x) { ... }      // functions of that type
    layout(index = 3) subroutine(Shade) vec4 blue(float x) { ... }
    subroutine uniform Shade shade;                  // a subroutine uniform (or an array)
    ... shade(0.5) ... shades[i](0.5) ...            // a call through it

Semantic analysis (called from ``semantic.Analyzer`` / ``expressions``): a subroutine
type is a type name whose values are subroutine indices (a ``uint`` underneath, with its
own identity, so nothing but a call and a uniform declaration accepts it); a subroutine
uniform is a ``uniform`` of that type marked ``Variable.subroutine``; a call through it
is an ``ast.SubroutineCall`` whose compatible functions are filled in once the whole
shader is read (``finish``), when every function has its index: explicit
``layout(index)`` first, then the lowest free index in declaration order. The lowering
(``compiler.lower.from_ast``) turns the call into a chain of ifs on the uniform's value,
the last compatible function taking every other value. ``summary`` is what GL needs:
``TranslationUnit.subroutines``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import types as T
from .symbols import FunctionSignature, Variable

if TYPE_CHECKING:
    from . import ast as A

# The AST module (A) is imported in the functions that build or test nodes: the GL
# driver reads the limits below when it makes a GL 4 context, and loading the AST
# (48 dataclasses, ~8 ms of CPU) at every start for them is not needed.

__all__ = ["SubroutineInfo", "MAX_SUBROUTINES", "MAX_SUBROUTINE_UNIFORM_LOCATIONS", "external", "uniform_declaration",
           "call", "finish", "summary"]

#: GL 4.6 table 23.66 minimums (Mesa's values)
MAX_SUBROUTINES = 256
MAX_SUBROUTINE_UNIFORM_LOCATIONS = 1024


@dataclass
class SubroutineInfo:
    """A shader's subroutines: ``types`` the subroutine type names in declaration order;
    ``functions`` (name, index, compatible type names) sorted by index; ``uniforms``
    (name, type name, array size or 0, explicit location or None) in declaration order."""

    types: list[str] = field(default_factory=list)
    functions: list[tuple[str, int, tuple[str, ...]]] = field(default_factory=list)
    uniforms: list[tuple[str, str, int, int | None]] = field(default_factory=list)


@dataclass
class _State:
    types: dict = field(default_factory=dict)        # name -> (GLSLType, prototype FunctionSignature)
    functions: list = field(default_factory=list)    # FunctionSignature, declaration order
    explicit: dict = field(default_factory=dict)     # FunctionSignature -> layout(index)
    kinds: dict = field(default_factory=dict)        # FunctionSignature -> type names
    uniforms: list = field(default_factory=list)     # Variable
    calls: list = field(default_factory=list)        # (SubroutineCall, type name, args, function, loc)
    index: dict = field(default_factory=dict)        # FunctionSignature -> index


def _state(an) -> _State:
    st = getattr(an, "_subroutines", None)
    if st is None:
        st = an._subroutines = _State()
    return st


def _plain(q: A.TypeQualifier, keep: tuple[str, ...]) -> A.TypeQualifier:
    """``q`` without the subroutine qualifier (and the kinds not in ``keep``)."""
    from . import ast as A
    return A.TypeQualifier(storage=q.storage if "storage" in keep else None,
                           precision=q.precision if "precision" in keep else None,
                           layout=list(q.layout) if "layout" in keep else [],
                           order=[o for o in q.order if o in keep], loc=q.loc)


def external(an, d: A.Node) -> None:
    """A function declaration or definition carrying ``subroutine``."""
    from . import ast as A
    p = d.prototype
    q = p.return_qualifier
    st = _state(an)
    if q.subroutine == []:
        if isinstance(d, A.FunctionDefinition):
            an.error(p.loc, f"subroutine type `{p.name}' cannot have a body")
            return
        p.return_qualifier = _plain(q, ("precision",))
        sig = an.function_prototype(p, defining=False)
        p.return_qualifier = q
        if sig is None:
            return
        an.user_functions[p.name].remove(sig)        # a type, not a function
        if not an.user_functions[p.name]:
            del an.user_functions[p.name]
        if p.name in st.types:
            an.error(p.loc, f"subroutine type `{p.name}' redeclared")
            return
        t = T.GLSLType(p.name, "uint")              # its values: subroutine indices
        an.symbols.declare(p.name, t)
        st.types[p.name] = (t, sig)
        return
    if not isinstance(d, A.FunctionDefinition):
        an.error(p.loc, f"subroutine function `{p.name}' must be defined where it is declared")
        return
    kinds = []
    for name in q.subroutine:
        if name not in st.types:
            an.error(p.loc, f"`{name}' is not a subroutine type")
            return
        kinds.append(name)
    layout = an.layout_values(q) if q.layout else {}
    unknown = set(layout) - {"index"}
    if unknown:
        an.error(p.loc, f"layout qualifier `{sorted(unknown)[0]}' is not allowed on a subroutine function")
    p.return_qualifier = _plain(q, ("precision",))
    an.function_definition(d)
    p.return_qualifier = q
    sig = p.signature
    if sig is None:
        return
    for name in kinds:
        proto = st.types[name][1]
        same = proto.return_type == sig.return_type and len(proto.parameters) == len(sig.parameters) and all(
            a.type == b.type and a.storage == b.storage for a, b in zip(proto.parameters, sig.parameters))
        if not same:
            an.error(p.loc, f"function `{p.name}' does not match the subroutine type `{name}'")
    st.functions.append(sig)
    st.kinds[sig] = tuple(kinds)
    sig.used = True
    if "index" in layout and not (an.version.at_least(430) or "GL_ARB_explicit_uniform_location" in an.enabled):
        an.error(p.loc, "layout(index) on a subroutine function requires GLSL 4.30 or "
                        "GL_ARB_explicit_uniform_location")
    elif "index" in layout:
        index = int(layout["index"])
        if not 0 <= index < MAX_SUBROUTINES:
            an.error(p.loc, f"subroutine index {index} out of range (MAX_SUBROUTINES is {MAX_SUBROUTINES})")
        elif index in st.explicit.values():
            an.error(p.loc, f"subroutine index {index} used twice")
        else:
            st.explicit[sig] = index


def uniform_declaration(an, d: A.VariableDeclaration, global_scope: bool) -> None:
    """``subroutine uniform T name[, ...];`` (``layout(location)`` allowed)."""
    q = d.qualifier
    st = _state(an)
    if q.subroutine != [] or q.storage != "uniform" or not global_scope:
        an.error(d.loc, "the subroutine qualifier declares subroutine types, functions and uniforms "
                        "(`subroutine uniform T name;` at global scope)")
        return
    name = d.type_spec.name
    if name not in st.types:
        an.error(d.loc, f"`{name}' is not a subroutine type")
        return
    d.qualifier = _plain(q, ("storage", "layout", "precision"))
    an.variable_declaration(d, global_scope)
    d.qualifier = q
    for dc in d.declarators:
        var = getattr(dc, "variable", None) or an.symbols.lookup(dc.name)
        if isinstance(var, Variable):
            var.subroutine = name
            st.uniforms.append(var)


def is_type(an, name: str) -> bool:
    """Whether ``name`` is a subroutine type of the shader (not callable, not constructible)."""
    st = getattr(an, "_subroutines", None)
    return st is not None and name in st.types and an.symbols.lookup(name) is st.types[name][0]


def call(an, e: A.Call, var: Variable, args: list) -> A.Expression:
    """A call through subroutine uniform ``var`` (``e.selector``: an element of a uniform
    array); its compatible functions are bound by ``finish``."""
    from . import ast as A
    st = _state(an)
    selector = an.expr(e.selector) if e.selector is not None else an.expr(A.VariableRef(e.name, e.loc))
    if selector.type is None:
        return e
    if selector.type.is_array:
        an.error(e.loc, f"subroutine uniform array `{e.name}' must be indexed to be called")
        return e
    t, proto = st.types[var.subroutine]
    if len(args) != len(proto.parameters):
        an.error(e.loc, f"subroutine `{e.name}' takes {len(proto.parameters)} arguments")
        return e
    for a, p in zip(args, proto.parameters):
        if a.type != p.type and not an.can_convert(a.type, p.type):
            an.error(a.loc, f"argument of type `{a.type}' does not match subroutine `{e.name}' "
                            f"parameter of type `{p.type}'")
            return e
    node = A.SubroutineCall(selector, [], [], e.loc, type=proto.return_type)
    st.calls.append((node, var.subroutine, args, an.function, e.loc))
    return node


def finish(an) -> None:
    """After the whole shader: subroutine indices, and each call's compatible functions."""
    st = getattr(an, "_subroutines", None)
    if st is None:
        return
    for sig in st.functions:     # GLSL 4.60 section 6.1.2: a subroutine function has one signature
        if len(an.user_functions.get(sig.name, ())) > 1:
            an.error(sig.loc, f"subroutine function `{sig.name}' cannot be overloaded")
    used = set(st.explicit.values())
    nxt = 0
    for sig in st.functions:
        if sig in st.explicit:
            st.index[sig] = st.explicit[sig]
            continue
        while nxt in used:
            nxt += 1
        st.index[sig] = nxt
        used.add(nxt)
    if len(st.functions) > MAX_SUBROUTINES:
        an.log.shader_error(f"too many subroutine functions ({len(st.functions)} > {MAX_SUBROUTINES})")
    saved = an.function
    for node, kind, args, function, loc in st.calls:
        compatible = sorted((f for f in st.functions if kind in st.kinds[f]), key=lambda f: st.index[f])
        if not compatible:
            an.error(loc, f"no subroutine function has the type `{kind}'")
            continue
        an.function = function
        node.calls = [an.make_call(f, args, loc) for f in compatible]
        node.indices = [st.index[f] for f in compatible]
    an.function = saved


def summary(an) -> SubroutineInfo | None:
    st = getattr(an, "_subroutines", None)
    if st is None:
        return None
    info = SubroutineInfo(types=list(st.types))
    info.functions = sorted(((f.name, st.index[f], st.kinds[f]) for f in st.functions if f in st.index),
                            key=lambda x: x[1])
    for v in st.uniforms:
        size = v.type.length or 0 if v.type.is_array else 0
        info.uniforms.append((v.name, v.subroutine, size, v.layout.get("location")))
    return info

