"""The tessellation stages' language rules (GLSL 4.00 sections 4.3.4-4.3.6, 4.3.8.1-2,
7.1, 8.15; GL_ARB_tessellation_shader brings them to GLSL 1.50).

A mixin of ``semantic.Analyzer``:

- tessellation control (stage "tess_control"): ``layout(vertices = N) out;`` is the
  output patch size (1..gl_MaxPatchVertices); every per-vertex output (``gl_out``
  and user outputs without ``patch``) is an array of N (an unsized one takes N, a
  sized one must equal it); every input is an array of gl_MaxPatchVertices.
  ``barrier()`` may only be a statement of ``main``'s outermost block, before any
  ``return``.
- tessellation evaluation (stage "tess_evaluation"): ``layout(<mode>, <spacing>,
  <order>, point_mode) in;`` with mode triangles, quads or isolines, spacing
  equal_spacing, fractional_even_spacing or fractional_odd_spacing, order cw or ccw;
  every per-vertex input is an array of gl_MaxPatchVertices.
- ``patch`` applies only to tessellation control outputs and tessellation
  evaluation inputs.
- Each layout identifier may be given several times if the values agree.

The result is ``TessLayout`` on the translation unit (``TranslationUnit.tessellation``);
the defaults (equal_spacing, ccw, no point mode) are applied when linking
(``TessLayout.linked``), since a stage may be made of several shader objects.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import ast as A
from . import types as T
from .builtin_variables import limits
from .symbols import Variable

__all__ = ["TESS_STAGES", "TESS_MODES", "TESS_SPACINGS", "TESS_ORDERS", "TessLayout", "TessellationRules",
           "check_tcs_output_indexing"]

TESS_STAGES = ("tess_control", "tess_evaluation")
TESS_MODES = ("triangles", "quads", "isolines")
TESS_SPACINGS = ("equal_spacing", "fractional_even_spacing", "fractional_odd_spacing")
TESS_ORDERS = ("cw", "ccw")
# layout identifiers of the evaluation stage's input declaration
TES_IDENTIFIERS = frozenset(TESS_MODES + TESS_SPACINGS + TESS_ORDERS + ("point_mode",))
# identifiers no other stage uses (``triangles`` is also a geometry input primitive)
TESS_ONLY_IDENTIFIERS = (TES_IDENTIFIERS - {"triangles"}) | {"vertices"}


@dataclass(frozen=True)
class TessLayout:
    """The tessellation layout declarations of one shader (None: not declared here)."""
    vertices: int | None = None          # control stage: output patch size
    mode: str | None = None              # evaluation stage: triangles, quads, isolines
    spacing: str | None = None
    order: str | None = None
    point_mode: bool | None = None

    def linked(self) -> "TessLayout":
        """With the defaults of what was not declared (GLSL 4.00 section 4.3.8.1)."""
        return replace(self, spacing=self.spacing or "equal_spacing", order=self.order or "ccw",
                       point_mode=bool(self.point_mode))

    def merge(self, other: "TessLayout") -> "TessLayout":
        """This layout and another shader object's of the same stage; raises ValueError
        when a field is declared differently (a link error)."""
        fields = {}
        for name in ("vertices", "mode", "spacing", "order", "point_mode"):
            a, b = getattr(self, name), getattr(other, name)
            if a is not None and b is not None and a != b:
                raise ValueError(f"tessellation layout `{name}' declared differently ({a} and {b})")
            fields[name] = a if a is not None else b
        return TessLayout(**fields)


class TessellationRules:
    """Mixin of ``semantic.Analyzer``: see the module docstring."""

    tess_vertices: int | None = None
    tess_mode: str | None = None
    tess_spacing: str | None = None
    tess_order: str | None = None
    tess_point_mode: bool | None = None

    def tessellation_layout(self) -> TessLayout:
        return TessLayout(self.tess_vertices, self.tess_mode, self.tess_spacing, self.tess_order,
                          self.tess_point_mode)

    # ------------------------------------------------------------ layouts
    def tess_default_layout(self, loc, storage: str, layout: dict) -> bool:
        """``layout(vertices = N) out;`` / ``layout(quads, ...) in;``; returns whether the
        declaration was one of the tessellation stages' (errors reported)."""
        keys = set(layout)
        ours = keys & (TESS_ONLY_IDENTIFIERS | ({"triangles"} if self.stage in TESS_STAGES else set()))
        if not ours:
            return False
        if self.stage == "tess_control":
            if storage != "out" or keys != {"vertices"}:
                self.error(loc, f"layout qualifiers ({', '.join(sorted(keys))}) are not allowed on "
                           f"tessellation control shader {'outputs' if storage == 'out' else 'inputs'}; "
                           "only `vertices' on outputs")
                return True
            n = layout["vertices"]
            limit = limits()["gl_MaxPatchVertices"]
            if not isinstance(n, int) or not 1 <= n <= limit:
                self.error(loc, f"invalid vertices count ({n}): must be between 1 and "
                           f"gl_MaxPatchVertices ({limit})")
                return True
            if self.tess_vertices is not None and self.tess_vertices != n:
                self.error(loc, f"tessellation control shader output vertices ({n}) conflicts with an "
                           f"earlier declaration ({self.tess_vertices})")
                return True
            self.tess_vertices = n
            self._size_tcs_outputs(loc)
            return True
        if self.stage == "tess_evaluation":
            if storage != "in" or not keys <= TES_IDENTIFIERS:
                self.error(loc, f"layout qualifiers ({', '.join(sorted(keys))}) are not allowed on "
                           f"tessellation evaluation shader {'outputs' if storage == 'out' else 'inputs'}")
                return True
            for group, attr, what in ((TESS_MODES, "tess_mode", "primitive mode"),
                                      (TESS_SPACINGS, "tess_spacing", "vertex spacing"),
                                      (TESS_ORDERS, "tess_order", "vertex order")):
                given = [k for k in layout if k in group]
                if len(given) > 1:
                    self.error(loc, f"more than one tessellation {what} ({', '.join(given)})")
                    return True
                if given:
                    old = getattr(self, attr)
                    if old is not None and old != given[0]:
                        self.error(loc, f"tessellation {what} ({given[0]}) conflicts with an earlier "
                                   f"declaration ({old})")
                        return True
                    setattr(self, attr, given[0])
            if "point_mode" in layout:
                self.tess_point_mode = True
            return True
        where = "tessellation control" if "vertices" in keys else "tessellation evaluation"
        self.error(loc, f"layout qualifiers ({', '.join(sorted(ours))}) may only be used in "
                   f"{where} shaders")
        return True

    # ------------------------------------------------------------ variables
    def tess_variable(self, var: Variable, loc) -> None:
        """A global ``in``/``out`` of a tessellation stage (or any ``patch`` global)."""
        patch = bool(getattr(var, "patch", False))
        if patch and not ((self.stage == "tess_control" and var.storage == "out") or
                          (self.stage == "tess_evaluation" and var.storage == "in")):
            self.error(loc, "`patch' can only be applied to tessellation control shader outputs and "
                       "tessellation evaluation shader inputs")
            return
        if var.builtin or var.storage not in ("in", "out") or self.stage not in TESS_STAGES:
            return
        t = var.type
        per_vertex_in = var.storage == "in" and not patch
        per_vertex_out = self.stage == "tess_control" and var.storage == "out" and not patch
        if not (per_vertex_in or per_vertex_out):
            return
        what = "input" if var.storage == "in" else "output"
        stage = "tessellation control" if self.stage == "tess_control" else "tessellation evaluation"
        if not t.is_array:
            self.error(loc, f"{stage} shader {what} `{var.name}' must be declared as an array")
            return
        if per_vertex_in:
            n = limits()["gl_MaxPatchVertices"]
            if t.length is None:
                var.type = T.array_of(t.element, n)
            elif t.length != n:
                self.error(loc, f"per-vertex tessellation shader input arrays must be sized to "
                           f"gl_MaxPatchVertices ({n}); `{var.name}' has {t.length}")
            return
        n = self.tess_vertices
        if n is None:
            return                          # sized when the layout comes (or at link time)
        if t.length is None:
            var.type = T.array_of(t.element, n)
        elif t.length != n:
            self.error(loc, f"size of tessellation control shader output `{var.name}' ({t.length}) "
                       f"must match the output patch size ({n})")

    def _size_tcs_outputs(self, loc) -> None:
        """The output patch size is now known: size the unsized per-vertex outputs."""
        n = self.tess_vertices
        candidates = [v for v in self.globals if v.storage == "out" and not getattr(v, "patch", False)]
        gl_out = self.symbols.lookup("gl_out")
        if isinstance(gl_out, Variable):
            candidates.append(gl_out)
        for var in candidates:
            if not var.type.is_array:
                continue
            if var.type.length is None:
                used = self.implicit_arrays.get(var)
                if used is not None and used[0] > n:
                    self.error(loc, f"`{var.name}' is indexed with {used[0] - 1}, but the output patch "
                               f"has {n} vertices")
                var.type = T.array_of(var.type.element, n)
                for ref in (used[1] if used is not None else ()):
                    ref.type = var.type
            elif var.type.length != n:
                self.error(loc, f"size of tessellation control shader output `{var.name}' "
                           f"({var.type.length}) must match the output patch size ({n})")

    def redeclare_tess_per_vertex(self, var: Variable, loc) -> None:
        """``in gl_PerVertex { ... } gl_in[];`` (and the control stage's ``out ... gl_out[]``):
        the members must be the built-in block's; the built-in keeps its full type (the
        records between the stages keep every member)."""
        builtin = self.symbols.lookup(var.name)
        want_storage = "out" if var.name == "gl_out" else "in"
        if var.block.block_name != "gl_PerVertex" or not isinstance(builtin, Variable) or \
                var.storage != want_storage:
            self.error(loc, f"{var.name} can only be redeclared as `{want_storage} gl_PerVertex {{ ... }} "
                       f"{var.name}[]'")
            return
        if builtin.used:
            self.error(loc, f"{var.name} redeclared after it was used")
        known = {f.name: f.type for f in builtin.type.element.fields}
        inner = var.type.element if var.type.is_array else var.type
        for f in inner.fields:
            want = known.get(f.name)
            if f.name in ("gl_ClipDistance", "gl_CullDistance", "gl_TexCoord") and f.type.is_array and \
                    want is not None and f.type.element == want.element and (f.type.length or 0) <= want.length:
                continue
            if want != f.type:
                self.error(loc, f"`{f.name}' is not a member of the built-in block gl_PerVertex")
        if not var.type.is_array:
            self.error(loc, f"{var.name} must be redeclared as an array")
            return
        from .geometry import with_redeclared_distances
        builtin.type = with_redeclared_distances(builtin.type, inner)

    # ------------------------------------------------------------ barrier()
    def check_tess_barriers(self, decls) -> None:
        """GLSL 4.00 section 8.15: in the tessellation control stage, barrier() only as a
        statement of main's outermost block, before any return; elsewhere (but compute)
        it does not exist."""
        if self.stage != "tess_control":
            return
        allowed = set()
        for d in decls:
            if isinstance(d, A.FunctionDefinition) and d.prototype.name == "main":
                returned = False            # a return anywhere before, even inside control flow
                for s in d.body.statements:
                    if isinstance(s, A.ExpressionStatement) and _is_barrier(s.expression) and not returned:
                        allowed.add(id(s.expression))
                    returned = returned or any(isinstance(n, A.Return) for n in A.walk(s))
        for d in decls:
            for node in A.walk(d):
                if _is_barrier(node) and id(node) not in allowed:
                    self.error(node.loc, "barrier() may only be used in main() of a tessellation control "
                               "shader, outside control flow and before any return")


def check_tcs_output_indexing(an, decls) -> None:
    """GLSL 4.00 section 4.3.6 (Mesa's rule): in the control stage a per-vertex output is
    written only through the index gl_InvocationID itself (the invocation's own vertex)."""
    if an.stage != "tess_control":
        return
    for d in decls:
        for node in A.walk(d):
            if isinstance(node, A.Assignment):
                target = node.target
            elif isinstance(node, (A.Unary, A.Postfix)) and node.op in ("++", "--"):
                target = node.operand
            else:
                continue
            while isinstance(target, (A.FieldAccess, A.Swizzle)) or (
                    isinstance(target, A.Index) and not _per_vertex_output(target.base)):
                target = target.base
            if not isinstance(target, A.Index) or not _per_vertex_output(target.base):
                continue
            index = target.index
            if not (isinstance(index, A.VariableRef) and index.name == "gl_InvocationID" and
                    getattr(index.symbol, "builtin", False)):
                an.error(node.loc, "tessellation control shader outputs can only be indexed by gl_InvocationID")


def _per_vertex_output(expr) -> bool:
    sym = getattr(expr, "symbol", None) if isinstance(expr, A.VariableRef) else None
    return sym is not None and sym.storage == "out" and not getattr(sym, "patch", False) and sym.type.is_array \
        and sym.name not in ("gl_TessLevelOuter", "gl_TessLevelInner")


def _is_barrier(node) -> bool:
    """A call of the built-in barrier() (after analysis a FunctionCall of its signature)."""
    if isinstance(node, A.FunctionCall):
        sig = node.signature
        return sig.name == "barrier" and getattr(sig, "builtin", False)
    return isinstance(node, A.Call) and node.name == "barrier"
