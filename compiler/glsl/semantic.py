"""Semantic analysis: declarations, qualifiers, statements, built-ins.

`analyze(decls, version, stage, extensions, log)` walks the parser's AST once,
in source order, with a scoped symbol table whose outermost scope holds the
built-in variables of this version and stage, and fills in the typed AST
described in ast.py. Expression rules live in expressions.py, layout and
storage-qualifier rules in qualifiers.py.
"""

from __future__ import annotations

from . import ast as A
from . import framebuffer_fetch
from . import types as T
from .builtin_functions import builtin_functions
from .builtin_variables import builtin_variables, limits
from .errors import InfoLog
from .enhanced_layouts import EnhancedLayoutRules
from .expressions import ExpressionAnalyzer
from .geometry import GeometryRules
from .tessellation import TESS_STAGES, TessellationRules, check_tcs_output_indexing
from .qualifiers import PER_VERTEX, QualifierRules
from . import subroutines
from .symbols import FunctionSignature, SymbolTable, Variable
from .versions import GLSLVersion

_ES_DEFAULT_PRECISION = {
    "vertex": {"float": "highp", "int": "highp", "sampler2D": "lowp", "samplerCube": "lowp",
               "atomic_uint": "highp"},
    "fragment": {"int": "mediump", "sampler2D": "lowp", "samplerCube": "lowp", "atomic_uint": "highp"},
    "compute": {"float": "highp", "int": "highp", "sampler2D": "lowp", "samplerCube": "lowp",
                "atomic_uint": "highp"},
}
# OES_EGL_image_external: samplerExternalOES is predeclared lowp in every stage
for _defaults in _ES_DEFAULT_PRECISION.values():
    _defaults["samplerExternalOES"] = "lowp"
# GLSL ES 3.20 section 4.7.4: the geometry and tessellation stages have the vertex stage's defaults
_ES_DEFAULT_PRECISION.update({s: _ES_DEFAULT_PRECISION["vertex"]
                              for s in ("geometry", "tess_control", "tess_evaluation")})


class Analyzer(ExpressionAnalyzer, QualifierRules, GeometryRules, TessellationRules, EnhancedLayoutRules):
    def __init__(self, version: GLSLVersion, stage: str, extensions: dict[str, str], log: InfoLog):
        self.version = version
        self.stage = stage
        self.log = log
        self.enabled = {n for n, b in extensions.items() if b in ("require", "enable", "warn")}
        self.symbols = SymbolTable()
        self._builtin_table = builtin_functions(version, stage, frozenset(self.enabled))
        self._builtin_sig_cache: dict[str, list[FunctionSignature]] = {}
        for v in builtin_variables(version, stage, frozenset(self.enabled)):
            self.symbols.declare(v.name, v)
        self.symbols.push()  # user globals live in scope 1, above the built-ins
        self.user_functions: dict[str, list[FunctionSignature]] = {}
        self.hidden_builtins: set[str] = set()
        self.used_builtins: list[Variable] = []
        self.used_builtin_functions: list[FunctionSignature] = []
        self.globals: list[Variable] = []
        self.blocks: list[A.InterfaceBlock] = []
        self.function: FunctionSignature | None = None
        self.loop_depth = 0
        self.switch_stack: list[dict] = []
        self.precision_stack: list[dict[str, str]] = [
            dict(_ES_DEFAULT_PRECISION.get(stage, {})) if version.es else {}]
        self.local_size: list[int | None] = [None, None, None]
        self.default_block_layout: dict[str, dict] = {"uniform": {}, "buffer": {}}
        self.found_return = False
        self.call_graph: dict[FunctionSignature, set[FunctionSignature]] = {}
        self.uniform_refs: dict[FunctionSignature | None, set[Variable]] = {}
        self.call_sites: dict[FunctionSignature, object] = {}
        self.shader_object = False      # calls without a body are the link's (see parse)
        self.unresolved_calls: list = []
        self.early_fragment_tests = False
        self.post_depth_coverage = False
        # unsized global arrays -> [size implied by constant indices, VariableRefs]
        self.implicit_arrays: dict[Variable, list] = {}

    # -- built-ins -----------------------------------------------------------

    def builtin_signatures(self, name: str) -> list[FunctionSignature]:
        sigs = self._builtin_sig_cache.get(name)
        if sigs is None:
            sigs = [f.signature() for f in self._builtin_table.get(name, ())]
            self._builtin_sig_cache[name] = sigs
        return sigs

    # -- scopes --------------------------------------------------------------

    def push_scope(self) -> None:
        self.symbols.push()
        self.precision_stack.append({})

    def pop_scope(self) -> None:
        self.symbols.pop()
        self.precision_stack.pop()

    def default_precision(self, t: T.GLSLType) -> str | None:
        key = t.innermost_element
        key_name = key.base if key.base in ("float", "int", "uint") else key.name
        if key_name == "uint":
            key_name = "int"
        for scope in reversed(self.precision_stack):
            if key_name in scope:
                return scope[key_name]
        return None

    def is_block_name(self, name: str) -> bool:
        """GLSL 1.50 section 4.3.7: a block name may be used at global scope only as
        that block's name (not for a variable, a function or a structure)."""
        return any(self.symbols.scopes[1].get(f"#block {k} {name}") is not None
                   for k in ("in", "out", "uniform", "buffer"))

    def check_precision_type(self, t: T.GLSLType, precision: str | None, loc) -> None:
        """GLSL 1.30 / ES 1.00 section 4.5.2: a precision qualifier applies to float, int
        and opaque types only (not bool, not a structure)."""
        if precision is None or t is None:
            return
        inner = t.innermost_element
        if inner.is_struct or inner.is_boolean or inner.base not in ("float", "int", "uint") \
                and not inner.is_opaque:
            self.error(loc, "precision qualifiers apply only to floating point, integer and opaque "
                       f"types, not `{inner}'")

    def check_precision(self, t: T.GLSLType, precision: str | None, loc) -> None:
        """ES: a float or opaque declaration needs a precision (explicit or default)."""
        if not self.version.es or precision is not None or t is None:
            return
        inner = t.innermost_element
        if inner.is_struct or inner.is_block:
            return
        needs = inner.base in ("float", "int", "uint") or inner.is_sampler or inner.is_image
        if needs and self.default_precision(inner) is None:
            self.error(loc, f"No precision specified in this scope for type `{inner}'")

    # -- types ---------------------------------------------------------------

    def array_size(self, e2: A.Expression | None) -> int | None:
        """The length given by an analyzed array-size expression (None: unsized)."""
        if e2 is None:
            return None
        e = e2
        if e2.type is None:
            return 1
        if not (e2.type.is_scalar and e2.type.is_integer):
            self.error(e.loc, "array size must be integer type")
            return 1
        if e2.const is None:
            self.error(e.loc, "array size must be a constant valued expression")
            return 1
        if e2.const[0] <= 0:
            self.error(e.loc, "array size must be > 0")
            return 1
        return e2.const[0]

    def apply_array_dims(self, t: T.GLSLType, dims: list, loc, allow_unsized: bool) -> T.GLSLType:
        if not dims:
            return t
        total = len(dims) + (1 if t.is_array else 0)
        if total > 1 and not self.version.at_least(430, 310) and "GL_ARB_arrays_of_arrays" not in self.enabled:
            self.error(loc, "arrays of arrays require GLSL 4.30, GLSL ES 3.10 or GL_ARB_arrays_of_arrays")
        for i in reversed(range(len(dims))):
            if dims[i] is not None:
                dims[i] = self.expr(dims[i])  # the typed expression replaces the parsed one
            size = self.array_size(dims[i])
            if size is None and not allow_unsized:
                self.error(loc, "unsized array declarations are not allowed here")
            t = T.array_of(t, size)
        return t

    def resolve_type(self, spec: A.TypeSpecifier, allow_unsized: bool = False) -> T.GLSLType | None:
        if spec.struct is not None:
            t = self.declare_struct(spec.struct)
        else:
            sym = self.symbols.lookup(spec.name)
            if isinstance(sym, T.GLSLType):
                t = sym
            else:
                try:
                    t = T.lookup(spec.name)
                except KeyError:
                    self.error(spec.loc, f"unknown type `{spec.name}'")
                    return None
        if spec.array_dims and not self.version.at_least(120, 300):
            self.error(spec.loc, f"array type specifiers are not allowed in {self.version}")
        t = self.apply_array_dims(t, spec.array_dims, spec.loc, allow_unsized)
        spec.type = t
        return t

    def declare_struct(self, s: A.StructSpecifier) -> T.GLSLType:
        fields: list[T.StructField] = []
        names: set[str] = set()
        for m in s.members:
            if m.type_spec.struct is not None and self.version.at_least(120, 100):
                self.error(m.loc, "embedded structure declarations are not allowed")
            if not m.qualifier.empty and set(m.qualifier.order) != {"precision"}:
                self.error(m.loc, "only precision qualifiers may be applied to structure members")
            base = self.resolve_type(m.type_spec)
            if base is None:
                continue
            for d in m.declarators:
                t = self.apply_array_dims(base, d.array_dims, d.loc, allow_unsized=False)
                if t.is_void:
                    self.error(d.loc, f"void type in struct field `{d.name}'")
                if d.name in names:
                    self.error(d.loc, f"duplicate field name `{d.name}' in structure")
                names.add(d.name)
                fields.append(T.StructField(d.name, t))
        name = s.name or f"#anon_struct_{id(s):x}"
        t = T.struct_type(name, fields)
        s.type = t
        if s.name:
            if s.name.startswith("gl_"):
                self.error(s.loc, f"identifier `{s.name}' uses reserved `gl_' prefix")
            if self.symbols.lookup_current(s.name) is not None:
                self.error(s.loc, f"struct `{s.name}' previously defined")
            elif len(self.symbols.scopes) <= 2 and self.is_block_name(s.name):
                self.error(s.loc, f"`{s.name}' is already the name of an interface block")
            elif self.version.es and self.version.number == 100 and len(self.symbols.scopes) <= 2 \
                    and self.user_functions.get(s.name):
                # ES 1.00 section 4.2.7: functions and structures share one name space
                self.error(s.loc, f"struct `{s.name}' redeclares function `{s.name}'")
            else:
                self.symbols.declare(s.name, t)
        return t

    # -- translation unit ----------------------------------------------------

    def run(self, decls: list[A.Node]) -> None:
        for d in decls:
            self.external(d)
        subroutines.finish(self)
        self.check_whole_shader()
        self.check_clip_and_cull_sizes(decls)
        if self.stage == "compute" and None in self.local_size and not self.shader_object:
            # (a GL shader object: another object may give the size; the link requires one, as Mesa)
            if self.local_size == [None, None, None]:
                self.log.shader_error("compute shader must contain a fixed work group size")

    def size_implicit_block_members(self) -> None:
        """Uniform block members declared without size (desktop GLSL) get the size their
        largest constant index implies (1 when never indexed), as global arrays do.

        A block type is complete only now: its fields are replaced in place, so the block's
        one type object (its identity is the block's: the instance variable, the block-name
        symbol and every reference hold it) gives the sized members everywhere; the
        references to the members take the sized type, and explicit offsets are placed again.
        """
        for b in self.blocks:
            bt = b.type
            if bt is None or bt.block_kind not in ("uniform", "in", "out") or \
                    not any(f.type.is_array and f.type.length is None for f in bt.fields):
                continue
            members = {v.name: v for v in b.member_variables}
            fields = []
            for f in bt.fields:
                if f.type.is_array and f.type.length is None:
                    var = members.get(f.name)
                    if var is not None:      # instance-less: the member variable was sized above
                        if var.type.length is None:
                            var.type = T.array_of(f.type.element, 1)
                        sized, refs = var.type, ()
                    else:
                        size, refs = self.implicit_arrays.get((bt, f.name), (0, ()))
                        sized = T.array_of(f.type.element, max(size, 1))
                    for ref in refs:
                        ref.type = sized
                    f = T.StructField(f.name, sized, f.qualifiers)
                fields.append(f)
            object.__setattr__(bt, "fields", tuple(fields))
            if bt.block_kind == "uniform":
                self.place_block_members("uniform", {}, fields, [b.loc] * len(fields))  # (never std430)

    def check_whole_shader(self) -> None:
        """Rules Mesa checks at link time, for a shader that is its own program."""
        for var, (size, refs) in self.implicit_arrays.items():
            if not isinstance(var, Variable) or var.type.length is not None:
                continue  # a block instance's member (below), or sized later by a redeclaration
            if self.stage == "tess_control" and var.storage == "out" and not var.patch:
                continue  # a per-vertex output: the link sizes it by layout(vertices) of another object
            var.type = T.array_of(var.type.element, max(size, 1))
            for ref in refs:
                ref.type = var.type
        self.size_implicit_block_members()
        for sig, loc in self.call_sites.items():
            if sig.definition is None:
                if self.shader_object:
                    self.unresolved_calls.append((sig, loc))
                else:
                    self.error(loc, f"unresolved reference to function `{sig.name}'")
        # static recursion: a cycle in the call graph
        state: dict[FunctionSignature, int] = {}

        def visit(f: FunctionSignature) -> bool:
            state[f] = 1
            for g in self.call_graph.get(f, ()):
                if state.get(g) == 1 or (state.get(g) is None and visit(g)):
                    return True
            state[f] = 2
            return False

        for f in list(self.call_graph):
            if state.get(f) is None and visit(f):
                self.log.shader_error(f"function `{f.name}' has static recursion")
                break
        if self.stage == "fragment":
            written = {v.name for v in self.used_builtins if v.assigned}
            if {"gl_FragColor", "gl_FragData"} <= written:
                self.log.shader_error("fragment shader writes to both gl_FragColor and gl_FragData")
            # EXT_blend_func_extended: the second colours follow the first ones' form
            for colour, data in (("gl_FragColor", "gl_SecondaryFragDataEXT"),
                                 ("gl_SecondaryFragColorEXT", "gl_FragData"),
                                 ("gl_SecondaryFragColorEXT", "gl_SecondaryFragDataEXT")):
                if {colour, data} <= written:
                    self.log.shader_error(f"fragment shader writes to both {colour} and {data}")
            user_out = [v for v in self.globals if v.storage == "out" and v.assigned]
            if user_out and written & {"gl_FragColor", "gl_FragData"}:
                self.log.shader_error("fragment shader writes to both a user-defined output and "
                                      + ("gl_FragColor" if "gl_FragColor" in written else "gl_FragData"))

    def check_clip_and_cull_sizes(self, decls: list[A.Node]) -> None:
        """GL_ARB_cull_distance (GLSL 4.50 section 7.1): the sizes of gl_ClipDistance and
        gl_CullDistance together are at most gl_MaxCombinedClipAndCullDistances. A size is
        the redeclared one, else one more than the largest constant index used (the whole
        array when it is indexed with a variable or used whole), 0 when unused."""
        sizes = {}
        for name in ("gl_ClipDistance", "gl_CullDistance"):
            var = self.symbols.scopes[0].get(name)
            if not isinstance(var, Variable) or not var.type.is_array:
                continue
            if var.redeclared:
                sizes[name] = var.type.length or 0
                continue
            used, indexed = -1, set()
            for d in decls:
                for n in A.walk(d):
                    if isinstance(n, A.Index) and isinstance(n.base, A.VariableRef) and n.base.symbol is var:
                        indexed.add(id(n.base))
                        used = max(used, n.index.const[0] if n.index.const is not None else var.type.length - 1)
            for d in decls:
                for n in A.walk(d):
                    if isinstance(n, A.VariableRef) and n.symbol is var and id(n) not in indexed:
                        used = var.type.length - 1          # used whole
            sizes[name] = used + 1
        if len(sizes) < 2:
            return
        combined = limits()["gl_MaxCombinedClipAndCullDistances"]
        if sum(sizes.values()) > combined:
            self.log.shader_error(
                f"gl_ClipDistance (size {sizes['gl_ClipDistance']}) and gl_CullDistance (size "
                f"{sizes['gl_CullDistance']}) together have more than gl_MaxCombinedClipAndCullDistances "
                f"({combined}) elements")

    def external(self, d: A.Node) -> None:
        if isinstance(d, (A.FunctionDefinition, A.FunctionDeclaration)) and \
                d.prototype.return_qualifier.subroutine is not None:
            subroutines.external(self, d)
        elif isinstance(d, A.FunctionDefinition):
            self.function_definition(d)
        elif isinstance(d, A.FunctionDeclaration):
            self.function_prototype(d.prototype, defining=False)
        else:
            self.declaration(d, global_scope=True)

    def declaration(self, d: A.Node, global_scope: bool) -> None:
        if isinstance(d, A.VariableDeclaration):
            self.variable_declaration(d, global_scope)
        elif isinstance(d, A.PrecisionDeclaration):
            self.precision_declaration(d)
        elif isinstance(d, A.QualifierDeclaration):
            self.qualifier_declaration(d, global_scope)
        elif isinstance(d, A.InterfaceBlock):
            if not global_scope:
                self.error(d.loc, "interface blocks must be declared at global scope")
            self.interface_block(d)
        elif isinstance(d, (A.FunctionDeclaration, A.FunctionDefinition)):
            self.error(d.loc, "function declarations must be at global scope")

    def precision_declaration(self, d: A.PrecisionDeclaration) -> None:
        if not self.version.at_least(130, 100):
            self.error(d.loc, f"precision qualifiers are not supported in {self.version}")
            return
        t = self.resolve_type(d.type_spec)
        if t is None:
            return
        if d.type_spec.array_dims or not (t in (T.FLOAT, T.INT) or t.is_opaque):
            self.error(d.loc, "default precision statements apply only to float, int, and opaque types")
            return
        key = t.name if t.is_opaque else t.base
        self.precision_stack[-1][key] = d.precision

    # -- variables -----------------------------------------------------------

    def variable_declaration(self, d: A.VariableDeclaration, global_scope: bool) -> None:
        q = d.qualifier
        if q.subroutine is not None:
            return subroutines.uniform_declaration(self, d, global_scope)
        base = self.resolve_type(d.type_spec, allow_unsized=True)
        if base is None:
            return
        if not d.declarators:
            if not q.empty and d.type_spec.struct is None:
                self.warning(d.loc, "empty declaration")
            elif q.precision is not None and d.type_spec.struct is not None:
                self.check_precision_type(base, q.precision, d.loc)
            return
        self.check_qualifier_order(q)
        for decl in d.declarators:
            t = self.apply_array_dims(base, decl.array_dims, decl.loc, allow_unsized=True)
            var = self.make_variable(decl.name, t, q, decl.loc, global_scope)
            decl.variable = var
            if var is None:
                continue
            if decl.initializer is not None:
                self.initialize(var, decl)
            elif var.storage == "const":
                self.error(decl.loc, f"const declaration of `{decl.name}' must be initialized")
            if var.type.is_array and var.type.length is None and self.version.es and \
                    decl.initializer is None and not _sized_by_the_stage(self.stage, var.storage):
                self.error(decl.loc, "unsized array declarations are not allowed in GLSL ES")
            if var.type.is_array and decl.initializer is None and _unsized_inner_dimension(var.type):
                # arrays of arrays: only the outermost size may come from later use
                self.error(decl.loc, f"array `{decl.name}' has an unsized inner dimension; only "
                                     f"the outermost dimension may be unsized")
            self.declare_variable(var, decl.loc, global_scope)

    def make_variable(self, name, t, q: A.TypeQualifier, loc, global_scope: bool) -> Variable | None:
        if t.is_void:
            self.error(loc, f"variable `{name}' declared as type `void'")
            return None
        var = Variable(name, t, scope="global" if global_scope else "local", loc=loc)
        self.apply_qualifiers(var, q, loc, global_scope)
        self.check_precision_type(t, q.precision, loc)
        self.check_precision(t, q.precision, loc)
        if self.version.es and var.precision is None and not t.innermost_element.is_struct:
            var.precision = self.default_precision(t)
        return var

    def declare_variable(self, var: Variable, loc, global_scope: bool) -> None:
        name = var.name
        if name == "gl_in" and self.stage == "geometry" and var.block is not None:
            self.redeclare_gl_in(var, loc)
            return
        if name in ("gl_in", "gl_out") and self.stage in TESS_STAGES and var.block is not None:
            self.redeclare_tess_per_vertex(var, loc)
            return
        if name.startswith("gl_"):
            if self.redeclare_builtin(var, loc):
                return
            self.error(loc, f"identifier `{name}' uses reserved `gl_' prefix")
            return
        existing = self.symbols.lookup_current(name)
        if isinstance(existing, Variable) and self.size_unsized_array(existing, var, loc):
            return
        if existing is not None or (global_scope and name in self.user_functions):
            self.error(loc, f"`{name}' redeclared")
            return
        if global_scope and var.block is None and self.is_block_name(name):
            self.error(loc, f"`{name}' is already the name of an interface block")
            return
        if global_scope and self.stage == "geometry" and var.storage == "in":
            self.geometry_input(var, loc)
        if global_scope and (self.stage in TESS_STAGES or var.patch):
            self.tess_variable(var, loc)
        self.symbols.declare(name, var)
        if global_scope:
            self.globals.append(var)

    def size_unsized_array(self, old: Variable, new: Variable, loc) -> bool:
        """GLSL 1.20 section 4.1.9: an array declared without a size may be declared
        again in the same scope with one (same element type, desktop GLSL). Returns
        whether ``new`` was such a redeclaration (reported errors included)."""
        ot, nt = old.type, new.type
        if self.version.es or not (ot.is_array and ot.length is None and nt.is_array and
                                   nt.length is not None and ot.element == nt.element and
                                   old.storage == new.storage and not old.builtin):
            return False
        used = self.implicit_arrays.get(old)
        if used is not None and used[0] > nt.length:
            self.error(loc, f"array `{new.name}' redeclared with size {nt.length} but indexed "
                            f"with {used[0] - 1}")
            return True
        old.type = nt
        for ref in (used[1] if used is not None else ()):
            ref.type = nt
        return True

    def redeclare_builtin(self, var: Variable, loc) -> bool:
        """Permitted redeclarations of built-ins (sizes, interpolation, layout)."""
        if var.block is None and getattr(self, "per_vertex_redeclared", False) and var.name in PER_VERTEX:
            self.error(loc, f"`{var.name}' redeclared after gl_PerVertex")
            return True
        old = self.symbols.lookup(var.name)
        if not isinstance(old, Variable) or not old.builtin:
            return False
        if framebuffer_fetch.redeclare_last_frag_data(self, var, old, loc):
            return True
        same = old.type == var.type or (
            old.type.is_array and var.type.is_array and old.type.element == var.type.element)
        allowed = var.name in ("gl_TexCoord", "gl_ClipDistance", "gl_CullDistance", "gl_FragDepth", "gl_FragCoord",
                               "gl_Color", "gl_SecondaryColor", "gl_FrontColor", "gl_BackColor",
                               "gl_FrontSecondaryColor", "gl_BackSecondaryColor", "gl_Position",
                               "gl_PointSize") or (
            # a member of a redeclared gl_PerVertex where an extension makes them vertex outputs
            var.block is not None and var.name in ("gl_Layer", "gl_ViewportIndex"))
        if same and allowed and var.storage != old.storage:
            # a redeclaration keeps the built-in's storage (gl_TexCoord stays varying)
            self.error(loc, f"`{var.name}' redeclared with a different storage qualifier")
            return True
        # GLSL ES 3.20 / OES_shader_io_blocks: a gl_PerVertex block may be redeclared (members only)
        es_block = self.version.es and var.block is not None and (
            self.version.number >= 320 or "GL_OES_shader_io_blocks" in self.enabled
            or "GL_EXT_shader_io_blocks" in self.enabled)
        if not (same and allowed) or (self.version.es and not es_block):
            if self.version.es:
                self.error(loc, f"redeclaration of built-in variable `{var.name}' is not allowed in GLSL ES")
                return True
            return False
        if old.used:
            self.error(loc, f"`{var.name}' redeclared after use")
        if var.name == "gl_FragCoord" and getattr(old, "redeclared", False) and \
                dict(old.layout) != dict(var.layout):
            # GLSL 1.50 section 4.3.8.1: every redeclaration has the same qualifiers
            self.error(loc, "gl_FragCoord redeclared with different layout qualifiers")
        limit = {"gl_ClipDistance": "gl_MaxClipDistances", "gl_CullDistance": "gl_MaxCullDistances"}.get(var.name)
        if limit is not None and (var.type.length or 0) > limits()[limit]:
            self.error(loc, f"`{var.name}' redeclared with size {var.type.length}, more than {limit} "
                       f"({limits()[limit]})")
            return True
        old.redeclared = True
        old.type = var.type
        old.interpolation = var.interpolation or old.interpolation
        old.invariant = var.invariant or old.invariant
        old.layout.update(var.layout)
        return True

    def initialize(self, var: Variable, decl: A.Declarator) -> None:
        init = decl.initializer
        if isinstance(init, A.Call) and init.name == "{}":
            init = self.initializer_list(init, var.type)
            if init is None:
                return
        else:
            init = self.expr(init)
        if init.type is None:
            return
        storage = var.storage
        if storage in ("in", "out") or var.written_storage in ("attribute", "varying"):
            what = {"vertex": "vertex shader", "fragment": "fragment shader"}.get(self.stage, self.stage)
            kind = "input" if storage == "in" else "output"
            self.error(decl.loc, f"cannot initialize {what} {kind}")
            return
        if storage == "uniform":
            if not self.require_version(decl.loc, 120, 0, f"cannot initialize uniform {var.name}"):
                return
        if storage in ("buffer", "shared"):
            self.error(decl.loc, f"cannot initialize {storage} variable `{var.name}'")
            return
        if var.type.contains_opaque:
            self.error(decl.loc, f"cannot initialize opaque variable `{var.name}'")
            return
        if var.type.is_array and var.type.length is None and init.type.is_array:
            var.type = T.array_of(var.type.element, init.type.length)
        conv = self.assign_convert(init, var.type, decl.loc, what="initializer")
        if conv is None:
            return
        decl.initializer = conv
        if storage == "const" or storage == "uniform":
            if conv.const is None:
                if storage == "uniform" or var.scope == "global" or not self.version.at_least(420, 0):
                    self.error(decl.loc, f"initializer of {storage} variable `{var.name}' must be a "
                               "constant expression")
            elif storage == "const":
                var.const_value = conv.const
            else:
                var.uniform_initializer = conv.const
        elif var.scope == "global" and self.version.es and conv.const is None and \
                not self.version.at_least(0, 300):
            self.error(decl.loc, "global variable initializers must be constant expressions in GLSL ES 1.00")

    def initializer_list(self, init: A.Call, t: T.GLSLType) -> A.Expression | None:
        """`{a, b}` (GLSL 4.20) as the constructor of the declared type."""
        if not self.version.at_least(420, 0) and "GL_ARB_shading_language_420pack" not in self.enabled:
            self.error(init.loc, "C-style initialization requires the GL_ARB_shading_language_420pack "
                       "extension or GLSL 4.20")
            return None
        # GLSL 4.20 section 4.1.11: an initializer list initializes an aggregate (array,
        # struct, vector, matrix) with exactly one item per element, each of the element's
        # type or implicitly convertible to it
        if t.is_array:
            elem = t.element
            items = [self.initializer_list(x, elem) if isinstance(x, A.Call) and x.name == "{}"
                     else self.expr(x) for x in init.args]
            if any(i is None for i in items):
                return None
            if t.length is not None and len(items) != t.length:
                self.error(init.loc, f"initializer list of {len(items)} elements for an array of {t.length}")
                return None
            if not self.list_items_convert(items, [elem] * len(items), init.loc):
                return None
            if t.length is None:
                t = T.array_of(elem, len(items))
            return self.build_constructor(t, items, init.loc)
        if t.is_struct:
            if len(init.args) != len(t.fields):
                self.error(init.loc, f"initializer list of {len(init.args)} elements for struct `{t.name}' "
                                     f"of {len(t.fields)} fields")
                return None
            items = []
            for f, x in zip(t.fields, init.args):
                items.append(self.initializer_list(x, f.type) if isinstance(x, A.Call) and x.name == "{}"
                             else self.expr(x))
            if any(i is None for i in items):
                return None
            if not self.list_items_convert(items, [f.type for f in t.fields], init.loc):
                return None
            return self.build_constructor(t, items, init.loc)
        if t.is_scalar:
            self.error(init.loc, f"initializer list cannot initialize the scalar type `{t}'")
            return None
        if t.is_matrix:
            items = [self.initializer_list(x, t.column_type) if isinstance(x, A.Call) and x.name == "{}"
                     else self.expr(x) for x in init.args]
            if len(items) != t.columns or any(i is None or i.type != t.column_type for i in items):
                self.error(init.loc, f"initializer list for `{t}' must have {t.columns} columns")
                return None
            return self.build_constructor(t, items, init.loc)
        items = [self.expr(x) for x in init.args]
        if t.is_vector and len(items) != t.vector_size or t.is_scalar and len(items) != 1:
            self.error(init.loc, f"initializer list has the wrong number of components for `{t}'")
            return None
        if any(i.type is None for i in items) or \
                not self.list_items_convert(items, [t.scalar_type] * len(items), init.loc):
            return None
        return self.build_constructor(t, items, init.loc)

    def list_items_convert(self, items, types, loc) -> bool:
        """Each initializer-list item has its element's type or converts to it implicitly."""
        for item, want in zip(items, types):
            if item.type is None:
                return False
            if item.type != want and not (want.base in T.SCALAR_BASES and self.can_convert(item.type, want)):
                self.error(item.loc, f"initializer list item of type `{item.type}' cannot initialize "
                                     f"an element of type `{want}'")
                return False
        return True

    # -- qualifier-only declarations -----------------------------------------

    def qualifier_declaration(self, d: A.QualifierDeclaration, global_scope: bool) -> None:
        q = d.qualifier
        if not d.names:
            self.default_layout_declaration(d)
            return
        for name, loc in d.names:
            sym = self.symbols.lookup(name)
            if not isinstance(sym, Variable):
                self.error(loc, f"`{name}' undeclared")
                continue
            if q.invariant:
                if not global_scope:
                    self.error(loc, "`invariant' qualifier may only be used at global scope")
                ok_out = sym.storage == "out" and (self.stage == "vertex" or self.stage == "fragment")
                # GLSL ES 1.00 section 4.6.1: fragment inputs too (varyings, gl_FragCoord,
                # gl_PointCoord; not gl_FrontFacing), whose link rule programs.py checks
                ok_in = sym.storage == "in" and self.stage == "fragment" and (
                    not self.version.es or (self.version.number < 300 and name != "gl_FrontFacing"))
                if not (ok_out or ok_in):
                    self.error(loc, f"`{name}' cannot be marked invariant; interfaces between shader "
                               "stages only.")
                    continue
                if sym.used:
                    self.error(loc, f"`{name}' cannot be marked invariant after use")
                sym.invariant = True
            if q.precise:
                # GLSL 4.00 section 4.7: `precise x;' in the scope x is declared in
                if not sym.builtin and self.symbols.lookup_current(name) is not sym:
                    self.error(loc, f"`precise' redeclaration of `{name}' outside the scope it is declared in")
                sym.precise = True
            d.variables.append(sym)

    # -- functions -----------------------------------------------------------

    def function_prototype(self, p: A.FunctionPrototype, defining: bool) -> FunctionSignature | None:
        ret = self.resolve_type(p.return_type)
        if ret is None:
            return None
        if not p.return_qualifier.empty and set(p.return_qualifier.order) != {"precision"}:
            self.error(p.loc, "function return type cannot have storage qualifiers other than precision")
        if ret.is_array and not self.version.at_least(120, 300):
            self.error(p.loc, f"functions returning arrays are not allowed in {self.version}")
        if ret.contains_opaque:
            self.error(p.loc, f"function `{p.name}' return type can't contain an opaque type")
        params: list[Variable] = []
        for prm in p.parameters:
            t = self.resolve_type(prm.type_spec)
            if t is None:
                return None
            t = self.apply_array_dims(t, prm.array_dims, prm.loc, allow_unsized=False)
            if t.is_void:
                self.error(prm.loc, "`void' parameter must be only parameter")
                return None
            q = prm.qualifier
            storage = q.storage or "in"
            if storage not in ("in", "out", "inout", "const", "const in"):
                self.error(prm.loc, f"`{storage}' qualifier is not allowed on function parameters")
                storage = "in"
            read_only = storage in ("const", "const in")
            direction = "in" if storage in ("const", "const in", "in") else storage
            if t.contains_opaque and direction != "in":
                self.error(prm.loc, f"opaque parameters cannot be `{direction}'")
            self.check_qualifier_order(q)
            if q.interpolation or q.layout or q.invariant or q.centroid or q.sample or q.patch:
                self.error(prm.loc, "function parameters may only have storage, precision and memory "
                           "qualifiers")
            if t.is_array and direction != "in" and not self.version.at_least(120, 100):
                # GLSL 1.10 section 5.8: arrays are not l-values
                self.error(prm.loc, f"arrays cannot be `{direction}' parameters in {self.version}")
            self.check_precision_type(t, q.precision, prm.loc)
            self.check_precision(t, q.precision, prm.loc)
            precision = q.precision
            if self.version.es and precision is None and not t.innermost_element.is_struct:
                precision = self.default_precision(t)
            var = Variable(prm.name or "", t, storage=direction, scope="parameter", loc=prm.loc,
                           read_only=read_only, precision=precision, memory=frozenset(q.memory))
            prm.variable = var
            params.append(var)
        if p.name.startswith("gl_"):
            self.error(p.loc, f"identifier `{p.name}' uses reserved `gl_' prefix")
        if self.is_block_name(p.name):
            self.error(p.loc, f"`{p.name}' is already the name of an interface block")
        if p.name == "main":
            if ret is not T.VOID:
                self.error(p.loc, "main() must return void")
            if params:
                self.error(p.loc, "main() must not take any parameters")
        if isinstance(self.symbols.lookup(p.name), (Variable, T.GLSLType)) and \
                self.symbols.scopes[1].get(p.name) is not None:
            self.error(p.loc, f"`{p.name}' redeclared")
            return None
        if self.builtin_signatures(p.name):
            # ES 3.00+ forbids it; ES 1.00 adds overloads; on desktop the user's
            # signatures hide every built-in of that name (as in Mesa).
            if self.version.es and self.version.number >= 300:
                self.error(p.loc, f"A shader cannot redefine or overload built-in function `{p.name}' "
                           f"in {self.version}")
            elif not self.version.es:
                self.hidden_builtins.add(p.name)
        ret_precision = p.return_qualifier.precision
        if not ret.is_void:
            self.check_precision_type(ret, ret_precision, p.loc)
            self.check_precision(ret, ret_precision, p.loc)
            if self.version.es and ret_precision is None and not ret.innermost_element.is_struct:
                ret_precision = self.default_precision(ret)
        sigs = self.user_functions.setdefault(p.name, [])
        for s in sigs:
            if list(s.parameter_types) == [x.type for x in params]:
                if s.return_type != ret:
                    self.error(p.loc, f"function `{p.name}' return type doesn't match prototype")
                elif self.version.es and getattr(s, "return_precision", None) != ret_precision:
                    # ES 1.00 section 6.1: the return precision is part of the prototype
                    self.error(p.loc, f"function `{p.name}' return type precision doesn't match prototype")
                if not defining and self.version.es and self.version.number == 100:
                    # ES 1.00 section 4.2.7: a function may be declared only once
                    self.error(p.loc, f"function `{p.name}' redeclared")
                for a, b in zip(s.parameters, params):
                    if a.storage != b.storage or a.read_only != b.read_only:
                        self.error(p.loc, f"function `{p.name}' parameter `{b.name}' qualifiers "
                                   "don't match prototype")
                if defining and s.definition is not None:
                    self.error(p.loc, f"function `{p.name}' redefined")
                    return None
                if defining:
                    s.parameters = params
                p.signature = s
                return s
        sig = FunctionSignature(p.name, ret, params, loc=p.loc)
        sig.return_precision = ret_precision
        sigs.append(sig)
        p.signature = sig
        return sig

    def function_definition(self, d: A.FunctionDefinition) -> None:
        sig = self.function_prototype(d.prototype, defining=True)
        if sig is None:
            return
        sig.definition = d
        self.function = sig
        self.found_return = False
        self.push_scope()
        for prm in d.prototype.parameters:
            v = prm.variable
            if prm.name:
                if self.symbols.lookup_current(prm.name) is not None:
                    self.error(prm.loc, f"`{prm.name}' redeclared")
                else:
                    self.symbols.declare(prm.name, v)
        self.statements(d.body.statements)
        self.pop_scope()
        self.function = None

    # -- statements ----------------------------------------------------------

    def statements(self, stmts: list[A.Statement]) -> None:
        for s in stmts:
            self.statement(s)

    def statement(self, s: A.Statement) -> None:
        getattr(self, "stmt_" + type(s).__name__)(s)

    def stmt_CompoundStatement(self, s: A.CompoundStatement) -> None:
        if s.new_scope:
            self.push_scope()
        self.statements(s.statements)
        if s.new_scope:
            self.pop_scope()

    def stmt_DeclarationStatement(self, s: A.DeclarationStatement) -> None:
        self.declaration(s.declaration, global_scope=False)

    def stmt_ExpressionStatement(self, s: A.ExpressionStatement) -> None:
        if s.expression is not None:
            s.expression = self.expr(s.expression)

    def condition(self, c, what: str):
        if isinstance(c, A.ConditionDeclaration):
            t = self.resolve_type(c.type_spec)
            if t is None:
                return c
            var = self.make_variable(c.name, t, c.qualifier, c.loc, global_scope=False)
            if var is None:
                return c
            decl = A.Declarator(c.name, [], c.initializer, c.loc)
            self.initialize(var, decl)
            c.initializer = decl.initializer
            c.variable = var
            self.declare_variable(var, c.loc, global_scope=False)
            if t is not T.BOOL:
                self.error(c.loc, f"{what} condition must be scalar boolean")
            return c
        c = self.expr(c)
        if c.type is not None and c.type is not T.BOOL:
            self.error(c.loc, f"{what} condition must be scalar boolean" if what == "loop" else
                       "if-statement condition must be scalar boolean")
        return c

    def stmt_If(self, s: A.If) -> None:
        s.condition = self.condition(s.condition, "if-statement")
        self.scoped(s.then)
        if s.otherwise is not None:
            self.scoped(s.otherwise)

    def scoped(self, s: A.Statement) -> None:
        self.push_scope()
        self.statement(s)
        self.pop_scope()

    def stmt_While(self, s: A.While) -> None:
        self.push_scope()
        s.condition = self.condition(s.condition, "loop")
        self.loop_depth += 1
        self.statement(s.body)
        self.loop_depth -= 1
        self.pop_scope()

    def stmt_DoWhile(self, s: A.DoWhile) -> None:
        self.loop_depth += 1
        self.scoped(s.body)
        self.loop_depth -= 1
        s.condition = self.condition(s.condition, "loop")

    def stmt_For(self, s: A.For) -> None:
        self.push_scope()
        if s.init is not None:
            self.statement(s.init)
        if s.condition is not None:
            s.condition = self.condition(s.condition, "loop")
        if s.step is not None:
            s.step = self.expr(s.step)
        self.loop_depth += 1
        self.statement(s.body)
        self.loop_depth -= 1
        self.pop_scope()

    def stmt_Switch(self, s: A.Switch) -> None:
        s.selector = self.expr(s.selector)
        sel = s.selector
        if sel.type is not None and not (sel.type.is_scalar and sel.type.is_integer):
            self.error(sel.loc, "switch-statement expression must be scalar integer")
        self.switch_stack.append({"values": set(), "default": False, "type": sel.type})
        body = s.body.statements
        if body and not isinstance(body[0], A.CaseLabel):
            self.error(body[0].loc, "statement before the first case label in switch")
        if body and isinstance(body[-1], A.CaseLabel):
            # GLSL 1.30 section 6.2 (Mesa's rule): a label needs a statement after it
            self.error(body[-1].loc, "a case or default label at the end of a switch statement must be "
                       "followed by a statement")
        self.stmt_CompoundStatement(s.body)
        self.switch_stack.pop()

    def stmt_CaseLabel(self, s: A.CaseLabel) -> None:
        if not self.switch_stack:
            self.error(s.loc, "case label must be within a switch statement")
            return
        sw = self.switch_stack[-1]
        if s.value is None:
            if sw["default"]:
                self.error(s.loc, "multiple default labels in one switch")
            sw["default"] = True
            return
        s.value = self.expr(s.value)
        v = s.value
        if v.type is None:
            return
        if not (v.type.is_scalar and v.type.is_integer) or v.const is None:
            self.error(v.loc, "case label must be a scalar integer constant expression")
            return
        st = sw["type"]
        if st is not None and v.type is not st:
            if self.version.es or not self.can_convert(v.type, st):
                self.error(v.loc, "type mismatch with switch init-expression and case label "
                           f"({st} != {v.type})")
                return
            s.value = self.convert(v, st)
        value = s.value.const[0] & 0xFFFFFFFF
        if value in sw["values"]:
            self.error(s.loc, "duplicate case value")
        sw["values"].add(value)

    def stmt_Return(self, s: A.Return) -> None:
        f = self.function
        if f is None:
            return
        self.found_return = True
        if s.value is None:
            if f.return_type is not T.VOID:
                self.error(s.loc, f"`return' with no value, in function {f.name} returning non-void")
            return
        s.value = self.expr(s.value)
        v = s.value
        if v.type is None:
            return
        if f.return_type is T.VOID:
            self.error(s.loc, f"`return' with a value, in function `{f.name}' returning void")
            return
        if v.type != f.return_type:
            if v.type.base in T.SCALAR_BASES and self.can_convert(v.type, f.return_type):
                s.value = self.convert(v, f.return_type)
            else:
                self.error(s.loc, f"`return' with wrong type {v.type}, in function `{f.name}' "
                           f"returning {f.return_type}")

    def stmt_Break(self, s: A.Break) -> None:
        if self.loop_depth == 0 and not self.switch_stack:
            self.error(s.loc, "break may only appear in a loop or a switch")

    def stmt_Continue(self, s: A.Continue) -> None:
        if self.loop_depth == 0:
            self.error(s.loc, "continue may only appear in a loop")

    def stmt_Discard(self, s: A.Discard) -> None:
        if self.stage != "fragment":
            self.error(s.loc, "discard may only appear in a fragment shader")


def analyze(decls: list[A.Node], version: GLSLVersion, stage: str, extensions: dict[str, str],
            log: InfoLog, invariant_all: bool = False, shader_object: bool = False) -> A.TranslationUnit:
    """Type-check `decls`; messages go to `log`. Returns the (typed) translation unit."""
    an = Analyzer(version, stage, extensions, log)
    an.shader_object = shader_object
    if stage == "compute" and not version.at_least(430, 310) and "GL_ARB_compute_shader" not in an.enabled:
        log.error(A.SourceLoc(0, 1, 1), "compute shaders require GLSL 4.30 or GLSL ES 3.10")
    if stage == "geometry" and not (version.at_least(150) or "GL_OES_geometry_shader" in an.enabled):
        log.error(A.SourceLoc(0, 1, 1), "geometry shaders require GLSL 1.50, GLSL ES 3.20 or "
                  "GL_OES_geometry_shader")
    if stage in TESS_STAGES and not (version.at_least(400) or "GL_ARB_tessellation_shader" in an.enabled):
        log.error(A.SourceLoc(0, 1, 1), "tessellation shaders require GLSL 4.00 or GL_ARB_tessellation_shader")
    an.run(decls)
    an.check_xfb_strides()                 # enhanced_layouts.py
    tu = A.TranslationUnit(version, stage, decls, dict(extensions))
    tu.xfb_strides = dict(an.xfb_strides)
    tu.globals = an.globals
    tu.builtin_variables = an.used_builtins
    tu.functions = [s for sigs in an.user_functions.values() for s in sigs]
    tu.builtin_functions = an.used_builtin_functions
    tu.interface_blocks = an.blocks
    tu.subroutines = subroutines.summary(an)
    mains = [s for s in an.user_functions.get("main", []) if s.definition is not None]
    tu.main = mains[0] if mains else None
    _prune_unreachable_uniforms(an, tu)
    if stage == "compute" and None not in an.local_size:
        tu.local_size = tuple(an.local_size)
    tu.invariant_all = invariant_all
    tu.early_fragment_tests = an.early_fragment_tests
    if stage == "fragment":
        framebuffer_fetch.check_zs_fetch(an, tu)
    tu.post_depth_coverage = an.post_depth_coverage
    tu.unresolved_calls = an.unresolved_calls
    tu.call_graph = an.call_graph       # caller -> callees: the linker looks for recursion across objects
    if stage == "geometry":
        tu.geometry = an.geometry_layout()
    if stage in TESS_STAGES:
        tu.tessellation = an.tessellation_layout()
        an.check_tess_barriers(decls)
        check_tcs_output_indexing(an, decls)
    return tu


def _sized_by_the_stage(stage: str, storage: str) -> bool:
    """Per-vertex arrays of GLSL ES 3.20's geometry and tessellation stages may be declared
    unsized (their size comes from the input primitive or the patch)."""
    return (storage == "in" and stage in ("geometry", "tess_control", "tess_evaluation")) or \
        (storage == "out" and stage == "tess_control")


def _unsized_inner_dimension(t: T.GLSLType) -> bool:
    """Whether an array type has an unsized dimension below its outermost one."""
    e = t.element
    while e.is_array:
        if e.length is None:
            return True
        e = e.element
    return False


def _prune_unreachable_uniforms(an, tu) -> None:
    """Uniforms read only inside functions that ``main`` never calls are not used
    (GL 4.6 section 7.3.1: active means the compiler found the variable may be
    accessed when the program runs; Mesa drops such functions before it counts
    them): Blender's EEVEE declares many samplers its world shader never reads, all
    on unit 0, which made every draw INVALID_OPERATION as samplers of different
    types on one unit. Only for a whole shader: one with ``main``, no call into
    another shader object and no subroutine (whose functions no call names)."""
    if tu.main is None or an.unresolved_calls or tu.subroutines is not None:
        return
    reachable: set = set()
    todo = [tu.main]
    while todo:
        f = todo.pop()
        if f not in reachable:
            reachable.add(f)
            todo.extend(an.call_graph.get(f, ()))
    keep = set().union(*(syms for f, syms in an.uniform_refs.items() if f is None or f in reachable))
    for syms in an.uniform_refs.values():
        for sym in syms - keep:
            sym.used = False
