"""Semantic analysis of expressions: types, implicit conversions, overloads, folding.

`ExpressionAnalyzer.expr(e)` returns the typed replacement of `e` (often `e`
itself): every operand already converted (Conversion nodes), calls resolved
to FunctionCall / Constructor / ArrayLength, vector field selections turned
into Swizzle, constant values folded into `.const`.

Messages follow Mesa's ast_to_hir / ast_function wording.
"""

from __future__ import annotations

from . import ast as A
from . import constant as C
from . import framebuffer_fetch, subroutines
from . import types as T
from .symbols import FunctionSignature, Variable

_SWIZZLE_SETS = ("xyzw", "rgba", "stpq")
_ARITH = ("+", "-", "*", "/")
# Built-ins whose parameter at this index must be a constant expression
# (-1: the last one; texelFetchOffset has no lod on rectangle samplers).
_CONST_PARAMS = {
    "textureOffset": (2,), "textureProjOffset": (2,), "textureLodOffset": (3,),
    "textureProjLodOffset": (3,), "texelFetchOffset": (-1,), "textureGradOffset": (4,),
    "textureProjGradOffset": (4,), "textureGatherOffsets": (-1,),
    "EmitStreamVertex": (0,), "EndStreamPrimitive": (0,),
}


class ExpressionAnalyzer:
    """Mixin of `semantic.Analyzer`; see there for the state it uses."""

    # -- helpers -------------------------------------------------------------

    def error(self, loc, msg: str) -> None:
        self.log.error(loc, msg)

    def warning(self, loc, msg: str) -> None:
        self.log.warning(loc, msg)

    def require_version(self, loc, desktop: int, es: int, problem: str, extension: str = "") -> bool:
        """Mesa's check_version: "PROBLEM in GLSL 1.10 (GLSL 1.30 or GLSL ES 3.00 required)".
        An enabled `extension` that brings the feature to earlier versions also satisfies it."""
        if self.version.at_least(desktop, es) or extension and extension in self.enabled:
            return True
        needs = []
        if desktop:
            needs.append(f"GLSL {desktop // 100}.{desktop % 100:02d}")
        if es:
            needs.append(f"GLSL ES {es // 100}.{es % 100:02d}")
        self.error(loc, f"{problem} in {self.version} ({' or '.join(needs)} required)")
        return False

    def can_convert(self, src: T.GLSLType, dst: T.GLSLType) -> bool:
        return T.implicit_conversion_allowed(src, dst, self.version, self.enabled)

    def convert(self, e: A.Expression, dst: T.GLSLType) -> A.Expression:
        """`e` as type `dst` (a Conversion node when needed; caller checked it is allowed)."""
        if e.type == dst or e.type is None:
            return e
        node = A.Conversion(e, e.loc, type=dst)
        if e.const is not None:
            node.const = C.convert(e.const, dst)
        return node

    @staticmethod
    def error_type() -> None:
        return None

    # -- dispatch ------------------------------------------------------------

    def expr(self, e: A.Expression) -> A.Expression:
        """Analyze `e`; on error the result has type None (errors are not repeated)."""
        method = getattr(self, "expr_" + type(e).__name__)
        return method(e)

    def expr_Literal(self, e: A.Literal) -> A.Expression:
        e.const = (e.value,)
        return e

    def expr_VariableRef(self, e: A.VariableRef) -> A.Expression:
        sym = self.symbols.lookup(e.name)
        if not isinstance(sym, Variable):
            self.error(e.loc, f"`{e.name}' undeclared")
            return e
        e.symbol = sym
        e.type = sym.type
        if sym.builtin and e.name == framebuffer_fetch.LAST_FRAG_DATA:
            framebuffer_fetch.check_last_frag_data_use(self, sym, e.loc)
        sym.used = True
        if sym.scope == "global" and sym.storage == "uniform":
            # which function reads it (None: a global initializer): a uniform read only by
            # functions main never calls is not active (semantic._prune_unreachable_uniforms)
            self.uniform_refs.setdefault(self.function, set()).add(sym)
        if sym.builtin and e.name == "gl_WorkGroupSize" and self.local_size == [None, None, None]:
            # ARB_compute_shader / GLSL 4.30 section 7.1: its value comes from the layout
            self.error(e.loc, "gl_WorkGroupSize cannot be used before the local size layout is declared")
        if sym.type.is_array and sym.type.length is None and sym.storage != "buffer":
            self.implicit_arrays.setdefault(sym, [0, []])[1].append(e)
        if sym.builtin and sym not in self.used_builtins:
            self.used_builtins.append(sym)
        if sym.storage == "const" and sym.const_value is not None:
            e.const = sym.const_value
        return e

    def expr_Conversion(self, e: A.Conversion) -> A.Expression:
        return e

    # -- operators -----------------------------------------------------------

    def arithmetic_type(self, op, a: A.Expression, b: A.Expression, loc):
        """Result type and converted operands of a binary arithmetic operator, or None."""
        ta, tb = a.type, b.type
        if not ta.is_numeric or not tb.is_numeric or ta.is_array or tb.is_array:
            self.error(loc, "operands to arithmetic operators must be numeric")
            return None
        if ta.base != tb.base:
            if self.can_convert(ta.scalar_type, tb.scalar_type):
                a = self.convert(a, ta.with_base(tb.base))
            elif self.can_convert(tb.scalar_type, ta.scalar_type):
                b = self.convert(b, tb.with_base(ta.base))
            else:
                self.error(loc, "could not implicitly convert operands to arithmetic operator")
                return None
            ta, tb = a.type, b.type
        if ta.is_scalar:
            return tb, a, b
        if tb.is_scalar:
            return ta, a, b
        if ta.is_vector and tb.is_vector:
            if ta.vector_size != tb.vector_size:
                self.error(loc, "vector size mismatch for arithmetic operator")
                return None
            return ta, a, b
        if op != "*":
            if ta != tb:
                self.error(loc, "type mismatch" if not (ta.is_matrix and tb.is_matrix) else
                           "vector size mismatch for arithmetic operator")
                return None
            return ta, a, b
        # linear-algebra multiply
        if ta.is_matrix and tb.is_matrix:
            if ta.columns != tb.vector_size:
                self.error(loc, "size mismatch for matrix multiplication")
                return None
            return T.matrix(ta.base, tb.columns, ta.vector_size), a, b
        if ta.is_matrix:  # mat * column vector
            if ta.columns != tb.vector_size:
                self.error(loc, "size mismatch for matrix multiplication")
                return None
            return T.vector(ta.base, ta.vector_size), a, b
        if ta.vector_size != tb.vector_size:  # row vector * mat
            self.error(loc, "size mismatch for matrix multiplication")
            return None
        return T.vector(ta.base, tb.columns), a, b

    def integer_binary_type(self, op, a, b, loc):
        """% & | ^ : integer operands (GLSL 1.30 / ES 3.00)."""
        if op == "%":
            if not self.require_version(loc, 130, 300, "operator '%' is reserved",
                                        "GL_EXT_gpu_shader4"):
                return None
        elif not self.require_version(loc, 130, 300, "bit-wise operations are forbidden",
                                        "GL_EXT_gpu_shader4"):
            return None
        ta, tb = a.type, b.type
        what = "operator %" if op == "%" else f"`{op}'"
        for side, t in (("LHS", ta), ("RHS", tb)):
            if not t.is_integer or t.is_array:
                self.error(loc, f"{side} of {what} must be an integer")
                return None
        if ta.base != tb.base:
            if self.can_convert(ta.scalar_type, tb.scalar_type):
                a = self.convert(a, ta.with_base(tb.base))
            elif self.can_convert(tb.scalar_type, ta.scalar_type):
                b = self.convert(b, tb.with_base(ta.base))
            else:
                self.error(loc, "could not implicitly convert operands to modulus (%) operator"
                           if op == "%" else f"operands of `{op}' must have the same base type")
                return None
            ta, tb = a.type, b.type
        if ta.is_vector and tb.is_vector and ta.vector_size != tb.vector_size:
            self.error(loc, "type mismatch" if op == "%" else
                       f"operands of `{op}' cannot be vectors of different sizes")
            return None
        return (tb if ta.is_scalar else ta), a, b

    def shift_type(self, op, a, b, loc):
        if not self.require_version(loc, 130, 300, "bit-wise operations are forbidden",
                                        "GL_EXT_gpu_shader4"):
            return None
        ta, tb = a.type, b.type
        if not ta.is_integer or ta.is_array:
            self.error(loc, f"LHS of operator {op} must be an integer or integer vector")
            return None
        if not tb.is_integer or tb.is_array:
            self.error(loc, f"RHS of operator {op} must be an integer or integer vector")
            return None
        if ta.is_scalar and not tb.is_scalar:
            self.error(loc, f"if the first operand of {op} is scalar, the second must be scalar as well")
            return None
        if ta.is_vector and tb.is_vector and ta.vector_size != tb.vector_size:
            self.error(loc, f"vector operands to operator {op} must have same number of elements")
            return None
        return ta, a, b

    def expr_Binary(self, e: A.Binary) -> A.Expression:
        """A chain of binary operators is checked along its left spine in a loop, so
        a sum of thousands of terms needs no deep recursion (see limits.py)."""
        spine = []
        node: A.Expression = e
        while isinstance(node, A.Binary):
            spine.append(node)
            node = node.left
        left = self.expr(node)
        for b in reversed(spine):
            b.left = left
            b.right = self.expr(b.right)
            left = self.binary_operands_checked(b)
        return left

    def binary_operands_checked(self, e: A.Binary) -> A.Expression:
        """Type `e` whose operands are already analyzed."""
        a, b, op = e.left, e.right, e.op
        if a.type is None or b.type is None:
            return e
        if op in ("&&", "||", "^^"):
            for side, x in (("LHS", a), ("RHS", b)):
                if x.type is not T.BOOL:
                    self.error(x.loc, f"{side} of `{op}' must be scalar boolean")
                    return e
            e.type = T.BOOL
        elif op in ("==", "!="):
            ta, tb = a.type, b.type
            if ta != tb:
                if ta.base in T.SCALAR_BASES and tb.base in T.SCALAR_BASES and \
                        self.can_convert(ta, ta.with_base(tb.base)) and ta.with_base(tb.base) == tb:
                    a = self.convert(a, tb)
                elif ta.base in T.SCALAR_BASES and tb.base in T.SCALAR_BASES and \
                        tb.with_base(ta.base) == ta and self.can_convert(tb, ta):
                    b = self.convert(b, ta)
                else:
                    self.error(e.loc, f"`{op}':  wrong operand types: no operation `{op}' exists that "
                               f"takes a left-hand operand of type '{ta}' or a right operand of type "
                               f"'{tb}' (or there is no acceptable conversion)")
                    return e
            if a.type.contains_opaque:
                self.error(e.loc, f"`{op}' cannot be applied to opaque types")
                return e
            if a.type.is_array and not self.version.at_least(120, 300):
                self.error(e.loc, f"array comparisons forbidden in {self.version}")
            e.left, e.right = a, b
            e.type = T.BOOL
        elif op in ("<", ">", "<=", ">="):
            if not (a.type.is_scalar and b.type.is_scalar and a.type.is_numeric and b.type.is_numeric):
                self.error(e.loc, "operands to relational operators must be scalar and numeric")
                return e
            if a.type.base != b.type.base:
                if self.can_convert(a.type, b.type):
                    a = self.convert(a, b.type)
                elif self.can_convert(b.type, a.type):
                    b = self.convert(b, a.type)
                else:
                    self.error(e.loc, "could not implicitly convert operands to relational operator")
                    return e
            e.left, e.right = a, b
            e.type = T.BOOL
        elif op in _ARITH:
            r = self.arithmetic_type(op, a, b, e.loc)
            if r is None:
                return e
            e.type, e.left, e.right = r
        elif op in ("%", "&", "|", "^"):
            r = self.integer_binary_type(op, a, b, e.loc)
            if r is None:
                return e
            e.type, e.left, e.right = r
        elif op in ("<<", ">>"):
            r = self.shift_type(op, a, b, e.loc)
            if r is None:
                return e
            e.type, e.left, e.right = r
        if e.left.const is not None and e.right.const is not None and e.type is not None:
            e.const = C.fold_binary(op, e.left.type, e.left.const, e.right.type, e.right.const, e.type)
        return e

    def expr_Unary(self, e: A.Unary) -> A.Expression:
        e.operand = self.expr(e.operand)
        x = e.operand
        if x.type is None:
            return e
        if e.op in ("+", "-"):
            if not x.type.is_numeric or x.type.is_array:
                self.error(e.loc, "operands to arithmetic operators must be numeric")
                return e
        elif e.op == "!":
            if x.type is not T.BOOL:
                self.error(e.loc, "operand of `!' must be scalar boolean")
                return e
        elif e.op == "~":
            if not self.require_version(e.loc, 130, 300, "bit-wise operations are forbidden",
                                        "GL_EXT_gpu_shader4"):
                return e
            if not x.type.is_integer or x.type.is_array:
                self.error(e.loc, "operand of `~' must be an integer")
                return e
        else:  # prefix ++ / --
            if not x.type.is_numeric or x.type.is_array:
                self.error(e.loc, "operands to arithmetic operators must be numeric")
                return e
            self.check_lvalue(x, e.loc)
            e.type = x.type
            return e
        e.type = x.type
        if x.const is not None:
            e.const = C.fold_unary(e.op, x.type, x.const)
        return e

    def expr_Postfix(self, e: A.Postfix) -> A.Expression:
        e.operand = self.expr(e.operand)
        x = e.operand
        if x.type is None:
            return e
        if not x.type.is_numeric or x.type.is_array:
            self.error(e.loc, "operands to arithmetic operators must be numeric")
            return e
        self.check_lvalue(x, e.loc)
        e.type = x.type
        return e

    def lvalue_root(self, x: A.Expression):
        """The variable an l-value expression writes, or None when it is not an l-value."""
        while True:
            if isinstance(x, A.VariableRef):
                return x.symbol
            if isinstance(x, (A.Index, A.FieldAccess)):
                x = x.base
            elif isinstance(x, A.Swizzle):
                if len(set(x.components)) != len(x.components):
                    return None
                x = x.base
            else:
                return None

    def check_lvalue(self, x: A.Expression, loc) -> bool:
        var = self.lvalue_root(x)
        if var is None:
            self.error(loc, "non-lvalue in assignment")
            return False
        if var.read_only or var.storage in ("const", "uniform") or (
                var.storage == "in" and var.scope != "parameter"):
            self.error(loc, f"assignment to read-only variable '{var.name}'")
            return False
        if var.storage == "buffer" and ("readonly" in var.memory or _readonly_member(x)):
            self.error(loc, f"assignment to read-only variable '{var.name}'")
            return False
        var.assigned = True
        return True

    def assign_convert(self, value: A.Expression, target_type: T.GLSLType, loc, what="value"):
        """`value` converted for assignment to `target_type`, or None after an error."""
        if value.type is None or target_type is None:
            return None
        if value.type == target_type:
            return value
        if value.type.base in T.SCALAR_BASES and self.can_convert(value.type, target_type):
            return self.convert(value, target_type)
        self.error(loc, f"{what} of type {value.type} cannot be assigned to variable of type {target_type}")
        return None

    def expr_Assignment(self, e: A.Assignment) -> A.Expression:
        e.target = self.expr(e.target)
        e.value = self.expr(e.value)
        t, v = e.target, e.value
        if t.type is None or v.type is None:
            return e
        self.check_lvalue(t, e.loc)
        if e.op == "=":
            if t.type.is_array:
                self.require_version(e.loc, 120, 300, "whole array assignment forbidden")
            if t.type.contains_opaque:
                self.error(e.loc, "cannot assign to a variable of opaque type")
            conv = self.assign_convert(v, t.type, e.loc)
            if conv is not None:
                e.value = conv
            e.type = t.type
            return e
        op = e.op[:-1]
        if op in _ARITH:
            r = self.arithmetic_type(op, t, v, e.loc)
        elif op in ("<<", ">>"):
            r = self.shift_type(op, t, v, e.loc)
        else:
            r = self.integer_binary_type(op, t, v, e.loc)
        if r is None:
            return e
        rtype, _, conv_v = r
        if rtype != t.type:
            self.error(e.loc, f"value of type {rtype} cannot be assigned to variable of type {t.type}")
            return e
        e.value = conv_v
        e.type = t.type
        return e

    def expr_Conditional(self, e: A.Conditional) -> A.Expression:
        e.condition = self.expr(e.condition)
        e.true_expr = self.expr(e.true_expr)
        e.false_expr = self.expr(e.false_expr)
        c, a, b = e.condition, e.true_expr, e.false_expr
        if c.type is None or a.type is None or b.type is None:
            return e
        if c.type is not T.BOOL:
            self.error(c.loc, "?: condition must be scalar boolean")
            return e
        if a.type != b.type:
            if a.type.base in T.SCALAR_BASES and self.can_convert(a.type, b.type):
                a = self.convert(a, b.type)
            elif b.type.base in T.SCALAR_BASES and self.can_convert(b.type, a.type):
                b = self.convert(b, a.type)
            else:
                self.error(e.loc, "second and third operands of ?: operator must have matching types")
                return e
        if a.type.is_array and not self.version.at_least(120, 300):
            self.error(e.loc, f"second and third operands of ?: operator cannot be arrays in {self.version}")
        e.true_expr, e.false_expr = a, b
        e.type = a.type
        if c.const is not None and a.const is not None and b.const is not None:
            e.const = a.const if c.const[0] else b.const
        return e

    def expr_Sequence(self, e: A.Sequence) -> A.Expression:
        e.expressions = [self.expr(x) for x in e.expressions]
        e.type = e.expressions[-1].type
        if all(x.const is not None for x in e.expressions) and self.version.number in (100, 110):
            # a sequence of constant expressions is one in GLSL 1.10 and ES 1.00 only; GLSL
            # ES 3.00 section 4.3.3 excludes the sequence operator from constant
            # expressions, and desktop 1.20+ compilers (Mesa, piglit) treat it the same
            e.const = e.expressions[-1].const
        return e

    # -- access --------------------------------------------------------------

    def expr_Index(self, e: A.Index) -> A.Expression:
        e.base = self.expr(e.base)
        e.index = self.expr(e.index)
        b, i = e.base, e.index
        if b.type is None or i.type is None:
            return e
        bt = b.type
        if not (bt.is_array or bt.is_vector or bt.is_matrix):
            name = b.name if isinstance(b, A.VariableRef) else ""
            self.error(e.loc, f"cannot dereference non-array / non-vector / non-matrix `{name}'"
                       if name else "cannot dereference non-array / non-vector / non-matrix")
            return e
        if not (i.type.is_scalar and i.type.is_integer):
            self.error(i.loc, "array index must be integer type")
            return e
        if bt.is_array:
            size, what = bt.length, "array"
            e.type = bt.element
        elif bt.is_matrix:
            size, what = bt.columns, "matrix"
            e.type = bt.column_type
        else:
            size, what = bt.vector_size, "vector"
            e.type = bt.scalar_type
        if i.const is not None:
            idx = i.const[0]
            entry = self.implicit_array_entry(b)
            if entry is not None:
                entry[0] = max(entry[0], idx + 1)
            if idx < 0:
                self.error(e.loc, f"{what} index must be >= 0")
                e.type = None
                return e
            if size is not None and idx >= size:
                self.error(e.loc, f"{what} index must be < {size}")
                e.type = None
                return e
            if b.const is not None:
                if bt.is_array:
                    e.const = b.const[idx]
                elif bt.is_matrix:
                    r = bt.vector_size
                    e.const = tuple(b.const[idx * r:(idx + 1) * r])
                else:
                    e.const = (b.const[idx],)
        else:
            if bt.is_array and bt.length is None and self.implicit_array_entry(b) is not None and not (
                    self.stage == "tess_control" and getattr(getattr(b, "symbol", None), "storage", None) == "out"):
                # GLSL 1.20 section 4.1.9: indexed with a non-constant expression, an
                # array must have been given its size first (not a control stage's per-vertex
                # output, gl_out[] included: the link sizes it by the stage's layout(vertices),
                # which another shader object of the stage may declare, GLSL 4.00 section 4.3.8.2)
                self.error(e.loc, f"unsized array `{_array_name(b)}' index must be constant")
                e.type = None
                return e
            self.check_dynamic_index(b, e.loc)
        return e

    def implicit_array_entry(self, e: A.Expression) -> list | None:
        """The [size implied so far, references] of the implicitly sized array `e` names
        (a global variable, an instance-less block member, or a member of a uniform block
        instance), or None."""
        if isinstance(e, A.VariableRef):
            return self.implicit_arrays.get(e.symbol)
        if isinstance(e, A.FieldAccess) and e.base.type is not None and e.base.type.is_block:
            return self.implicit_arrays.get((e.base.type, e.field))
        return None

    def check_dynamic_index(self, base: A.Expression, loc) -> None:
        """Opaque arrays need constant (or, from 4.00, dynamically uniform) indices."""
        t = base.type
        if "GL_ARB_gpu_shader5" in self.enabled:
            return               # dynamically uniform indices, as GLSL 4.00
        if t.is_array and t.element.is_block and t.element.block_kind == "uniform" and \
                not self.version.at_least(400, 320):
            # GLSL 4.00 / ES 3.20 section 4.3.9: before them a uniform block array takes constant indices
            self.error(loc, "uniform block arrays indexed with non-constant expressions are forbidden "
                       f"in {self.version}")
        if t.is_array and t.element.is_sampler:
            if self.version.es and not self.version.at_least(0, 320):
                self.error(loc, "sampler arrays indexed with non-constant expressions are forbidden "
                           f"in {self.version}")
            elif not self.version.es and not self.version.at_least(400):
                if self.version.at_least(130):
                    self.error(loc, "sampler arrays indexed with non-constant expressions are forbidden "
                               "in GLSL 1.30 and later")

    def expr_FieldAccess(self, e: A.FieldAccess) -> A.Expression:
        e.base = self.expr(e.base)
        b = e.base
        if b.type is None:
            return e
        bt = b.type
        if bt.is_struct or bt.is_block:
            for idx, f in enumerate(bt.fields):
                if f.name == e.field:
                    e.field_index = idx
                    e.type = f.type
                    if bt.is_block and f.type.is_array and f.type.length is None and \
                            bt.block_kind in ("uniform", "in", "out"):
                        # an implicitly sized member of a uniform block instance: sized with
                        # its block at the end of analysis
                        self.implicit_arrays.setdefault((bt, f.name), [0, []])[1].append(e)
                    if b.const is not None:
                        e.const = b.const[idx]
                    return e
            self.error(e.loc, f"structure `{bt.name}' has no field `{e.field}'" if bt.is_struct else
                       f"interface block `{bt.name}' has no member `{e.field}'")
            return e
        if bt.is_vector or (bt.is_scalar and bt.base in T.SCALAR_BASES):
            return self.swizzle(e)
        self.error(e.loc, "invalid swizzle / mask" if bt.is_matrix else
                   f"cannot access field `{e.field}' of non-structure / non-vector")
        return e

    def swizzle(self, e: A.FieldAccess) -> A.Expression:
        b = e.base
        bt = b.type
        name = e.field
        comps: list[int] = []
        ok = 1 <= len(name) <= 4
        if ok:
            for s in _SWIZZLE_SETS:
                if all(ch in s for ch in name):
                    comps = [s.index(ch) for ch in name]
                    break
            else:
                ok = False
        if ok and any(c >= bt.vector_size for c in comps):
            ok = False
        if not ok:
            self.error(e.loc, f"invalid swizzle / mask `{name}'")
            return e
        if bt.is_scalar and not self.version.at_least(420, 0) and \
                "GL_ARB_shading_language_420pack" not in self.enabled:
            self.error(e.loc, f"scalar swizzles require GLSL 4.20")
        node = A.Swizzle(b, name, tuple(comps), e.loc, type=T.vector(bt.base, len(comps)))
        if b.const is not None:
            node.const = tuple(b.const[c] for c in comps)
        return node

    def expr_Swizzle(self, e: A.Swizzle) -> A.Expression:
        return e

    # -- calls ---------------------------------------------------------------

    def expr_MethodCall(self, e: A.MethodCall) -> A.Expression:
        e.base = self.expr(e.base)
        b = e.base
        if e.name != "length":
            self.error(e.loc, f"unknown method: `{e.name}'")
            return e
        if e.args:
            self.error(e.loc, "length method takes no arguments")
            return e
        if b.type is None:
            return e
        node = A.ArrayLength(b, e.loc, type=T.INT)
        bt = b.type
        if bt.is_array:
            if not self.version.at_least(120, 300):
                self.error(e.loc, f"length method requires GLSL 1.20 or GLSL ES 3.00")
            if bt.length is not None:
                node.const = (bt.length,)
            elif self.implicit_array_entry(b) is not None:
                # an implicitly sized array has no size yet (only a storage block's
                # last member has a run-time length)
                self.error(e.loc, f"length called on unsized array `{_array_name(b)}'")
                return e
        elif bt.is_vector or bt.is_matrix:
            if not self.version.at_least(420, 300) and \
                    "GL_ARB_shading_language_420pack" not in self.enabled:
                self.error(e.loc, "length called on scalar or vector.")
            node.const = (bt.columns if bt.is_matrix else bt.vector_size,)
        else:
            self.error(e.loc, "length called on scalar.")
            return e
        return node

    def expr_Call(self, e: A.Call) -> A.Expression:
        if e.name == "{}":
            self.error(e.loc, "initializer list must be used to initialize a variable of known type")
            return e
        if e.type_spec is not None or isinstance(self.symbols.lookup(e.name), T.GLSLType):
            if subroutines.is_type(self, e.name):
                self.error(e.loc, f"subroutine type `{e.name}' cannot be called or constructed")
                return e
            return self.constructor(e)
        args = [self.expr(a) for a in e.args]
        if any(a.type is None for a in args):
            return e
        sym = self.symbols.lookup(e.name)
        if isinstance(sym, Variable) and sym.subroutine is not None:
            return subroutines.call(self, e, sym, args)
        if isinstance(sym, Variable) or e.selector is not None:
            self.error(e.loc, f"`{e.name}' is not a function")
            return e
        candidates = self.function_candidates(e.name)
        if not candidates:
            self.error(e.loc, f"no function with name '{e.name}'")
            return e
        sig = self.resolve_overload(e.name, candidates, args, e.loc)
        if sig is None:
            return e
        return self.make_call(sig, args, e.loc)

    def function_candidates(self, name: str) -> list[FunctionSignature]:
        user = self.user_functions.get(name, [])
        if name in self.hidden_builtins:
            return list(user)
        return list(user) + self.builtin_signatures(name)

    def resolve_overload(self, name, candidates, args, loc) -> FunctionSignature | None:
        """GLSL 4.60 section 6.1 (1.20 section 6.1 before 4.00): an exact match wins;
        otherwise the signatures the arguments reach by implicit conversions. One
        such signature is the answer; among several, before GLSL 4.00 (and without
        ARB_gpu_shader5 / MESA_shader_integer_functions / EXT_shader_implicit_conversions)
        the call is ambiguous; from 4.00 the one better than every other wins
        (`_best_inexact`). Built-in prototypes listed twice (``max(genType, genType)``
        and ``max(genType, float)`` both give ``max(float, float)``) count once."""
        arg_types = [a.type for a in args]
        exact = [s for s in candidates if list(s.parameter_types) == arg_types]
        if exact:
            return exact[0]
        viable: list[FunctionSignature] = []
        seen: set = set()
        for s in candidates:
            if len(s.parameters) != len(args):
                continue
            key = tuple(s.parameter_types)
            if key in seen:
                continue
            for p, t in zip(s.parameters, arg_types):
                if p.type == t:
                    continue
                ok_in = self.can_convert(t, p.type) if p.storage in ("in", "const in", "inout") else True
                ok_out = self.can_convert(p.type, t) if p.storage in ("out", "inout") else True
                if not (ok_in and ok_out) or t.base not in T.SCALAR_BASES:
                    break
            else:
                seen.add(key)
                viable.append(s)
        if not viable:
            arglist = ", ".join(str(t) for t in arg_types)
            self.error(loc, f"no matching function for call to `{name}({arglist})'; candidates are:")
            for s in candidates:
                self.error(loc, f"   {s}")
            return None
        if len(viable) == 1:
            return viable[0]
        best = self._best_inexact(viable, arg_types) if self._has_best_match_rules() else None
        if best is None:
            arglist = ", ".join(str(t) for t in arg_types)
            self.error(loc, f"parameter ambiguity in call to `{name}({arglist})'")
        return best

    def _has_best_match_rules(self) -> bool:
        return self.version.at_least(400, 0) or any(
            x in self.enabled for x in ("GL_ARB_gpu_shader5", "GL_ARB_gpu_shader_fp64",
                                        "GL_MESA_shader_integer_functions",
                                        "GL_EXT_shader_implicit_conversions"))

    # Ranks of one argument's match (GLSL 4.60 section 6.1): an exact match is better than
    # any conversion; float->double better than any other conversion; int/uint->float
    # better than int/uint->double; no other pair is ordered.
    _EXACT, _FLOAT_TO_DOUBLE, _INT_TO_FLOAT, _INT_TO_DOUBLE, _OTHER = range(5)

    @classmethod
    def _match_kind(cls, param, arg_type) -> int:
        src, dst = (param.type, arg_type) if param.storage == "out" else (arg_type, param.type)
        if src == dst:
            return cls._EXACT
        if dst.base == "double":
            return cls._FLOAT_TO_DOUBLE if src.base == "float" else cls._INT_TO_DOUBLE \
                if src.base in ("int", "uint") else cls._OTHER
        if dst.base == "float" and src.base in ("int", "uint"):
            return cls._INT_TO_FLOAT
        return cls._OTHER

    @classmethod
    def _better_kind(cls, a: int, b: int) -> bool:
        return (a == cls._EXACT and b != cls._EXACT) or \
            (a == cls._FLOAT_TO_DOUBLE and b not in (cls._EXACT, cls._FLOAT_TO_DOUBLE)) or \
            (a == cls._INT_TO_FLOAT and b == cls._INT_TO_DOUBLE)

    def _best_inexact(self, sigs, arg_types):
        """The signature better than each other one: for every argument its match is
        not worse, and for at least one it is better; None when there is none."""
        kinds = [[self._match_kind(p, t) for p, t in zip(s.parameters, arg_types)] for s in sigs]
        for i, a in enumerate(kinds):
            if all(j == i or (not any(self._better_kind(y, x) for x, y in zip(a, b))
                              and any(self._better_kind(x, y) for x, y in zip(a, b)))
                   for j, b in enumerate(kinds)):
                return sigs[i]
        return None

    def make_call(self, sig: FunctionSignature, args, loc) -> A.FunctionCall:
        conv = []
        for idx, (p, a) in enumerate(zip(sig.parameters, args)):
            if p.storage in ("out", "inout"):
                var = self.lvalue_root(a)
                what = f"{p.storage} {p.name}"
                if var is not None and (var.read_only or var.storage in ("const", "uniform") or (
                        var.storage == "in" and var.scope != "parameter")):
                    self.error(a.loc, f"function parameter '{what}' references the read-only "
                               f"variable '{var.name}'")
                elif var is None:
                    self.error(a.loc, f"function parameter '{what}' is not an lvalue")
                else:
                    var.assigned = True
                conv.append(a)
            else:
                conv.append(self.convert(a, p.type))
        sig.used = True
        call = A.FunctionCall(sig, conv, loc, type=sig.return_type)
        if not sig.builtin and self.function is not None:
            self.call_graph.setdefault(self.function, set()).add(sig)
            self.call_sites.setdefault(sig, loc)
        if sig.builtin:
            if sig not in self.used_builtin_functions:
                self.used_builtin_functions.append(sig)
            self.check_builtin_call(call)
            # GLSL 1.10 has no function calls in constant expressions.
            if all(a.const is not None for a in conv) and self.version.at_least(120, 100):
                call.const = C.fold_builtin(sig.name, sig.return_type, [(a.type, a.const) for a in conv])
        return call

    def check_interpolant(self, arg: A.Expression) -> None:
        """interpolateAt*'s first argument: an l-value of a fragment input (a variable, block or
        structure member, array element; GLSL 4.00 section 8.13); component selection only
        from GLSL 4.40 (ARB_gpu_shader5 forbids it)."""
        x, swizzled = arg, False
        while isinstance(x, (A.Index, A.FieldAccess, A.Swizzle)):
            swizzled = swizzled or isinstance(x, A.Swizzle)
            x = x.base
        var = x.symbol if isinstance(x, A.VariableRef) else None
        if var is None or var.storage != "in":
            self.error(arg.loc, "parameter `interpolant' must be a shader input")
        elif swizzled and not self.version.es and not self.version.at_least(440):
            self.error(arg.loc, "component selection may not be used on `interpolant' before GLSL 4.40")

    def check_builtin_call(self, call: A.FunctionCall) -> None:
        name = call.signature.name
        for idx in _CONST_PARAMS.get(name, ()):
            arg = call.args[idx] if idx >= 0 else call.args[-1]
            if arg.const is None:
                self.error(arg.loc, f"parameter `offset' must be a constant expression"
                           if "ffset" in name else "parameter must be a constant expression")
        if name.startswith("interpolateAt"):
            self.check_interpolant(call.args[0])
        if name in ("EmitStreamVertex", "EndStreamPrimitive"):
            self.stream_call(call)              # geometry.py: the streams a shader emits to
        if name.startswith("textureGather") and len(call.args) >= 3:
            last = call.args[-1]
            if last.type is T.INT and last.const is None and not call.signature.parameters[1].type.is_scalar:
                self.error(last.loc, "parameter `comp' must be a constant expression")
        if name.startswith("image") and name != "imageSize":
            var = self.lvalue_root(call.args[0])
            if var is not None:
                if name == "imageStore" and "readonly" in var.memory:
                    self.error(call.loc, f"image variable `{var.name}' is readonly; imageStore is not allowed")
                elif name != "imageStore" and "writeonly" in var.memory:
                    self.error(call.loc, f"image variable `{var.name}' is writeonly; {name} is not allowed")
        if name.startswith("atomic") and not name.startswith("atomicCounter"):
            var = self.lvalue_root(call.args[0])
            if var is None or var.storage not in ("buffer", "shared"):
                self.error(call.loc, "First argument to atomic function must be a buffer or shared variable")

    # -- constructors --------------------------------------------------------

    def constructor(self, e: A.Call) -> A.Expression:
        if e.type_spec is not None:
            t = self.resolve_type(e.type_spec, allow_unsized=True)
        else:
            t = self.symbols.lookup(e.name)
        args = [self.expr(a) for a in e.args]
        if t is None or any(a.type is None for a in args):
            return e
        return self.build_constructor(t, args, e.loc)

    def build_constructor(self, t: T.GLSLType, args: list[A.Expression], loc) -> A.Expression:
        node = A.Constructor(args, loc, type=t)
        if t.is_void:
            self.error(loc, "cannot construct `void' type")
            return A.Constructor(args, loc)
        if t.is_opaque:
            self.error(loc, f"cannot construct opaque type `{t}'")
            return A.Constructor(args, loc)
        if t.is_array:
            if not self.require_version(loc, 120, 300, "array constructors forbidden"):
                return A.Constructor(args, loc)
            if t.length is None:
                t = T.array_of(t.element, len(args))
                node.type = t
            if len(args) != t.length:
                self.error(loc, f"array constructor must have {t.length} parameters (found {len(args)})")
                return A.Constructor(args, loc)
            conv = []
            for a in args:
                if a.type != t.element and not (a.type.base in T.SCALAR_BASES and self.can_convert(a.type, t.element)):
                    self.error(loc, f"type error in array constructor: expected: {t.element}, found {a.type}")
                    return A.Constructor(args, loc)
                conv.append(self.convert(a, t.element))
            node.args = conv
        elif t.is_struct:
            if len(args) != len(t.fields):
                self.error(loc, f"parameter count mismatch in constructor for `{t.name}'")
                return A.Constructor(args, loc)
            conv = []
            for f, a in zip(t.fields, args):
                if a.type != f.type and not (a.type.base in T.SCALAR_BASES and self.can_convert(a.type, f.type)):
                    self.error(loc, f"parameter type mismatch in constructor for `{t.name}.{f.name}' "
                               f"({a.type} vs {f.type})")
                    return A.Constructor(args, loc)
                conv.append(self.convert(a, f.type))
            node.args = conv
        else:
            if not args:
                self.error(loc, f"too few components to construct `{t}'")
                return A.Constructor(args, loc)
            for a in args:
                if a.type.base not in T.SCALAR_BASES or a.type.is_array:
                    self.error(loc, f"cannot construct `{t}' from a non-numeric data type")
                    return A.Constructor(args, loc)
            if t.is_matrix and any(a.type.is_matrix for a in args):
                if len(args) > 1:
                    self.error(loc, f"for matrix `{t}' constructor, matrix argument must be only argument")
                    return A.Constructor(args, loc)
                if not self.version.at_least(120, 100):
                    self.error(loc, f"cannot construct matrix type {t} from matrix type {args[0].type} "
                               f"in {self.version}")
                    return A.Constructor(args, loc)
            elif not (len(args) == 1 and args[0].type.is_scalar):
                needed = t.components
                total = 0
                for idx, a in enumerate(args):
                    if total >= needed:
                        self.error(loc, f"too many parameters to `{t}' constructor")
                        return A.Constructor(args, loc)
                    total += a.type.components
                if total < needed:
                    self.error(loc, f"too few components to construct `{t}'")
                    return A.Constructor(args, loc)
        if all(a.const is not None for a in node.args):
            node.const = C.construct(node.type, [(a.type, a.const) for a in node.args])
        return node


def _readonly_member(x: A.Expression) -> bool:
    """Whether the l-value ``x`` goes through a storage-block member declared readonly."""
    while isinstance(x, (A.Index, A.FieldAccess, A.Swizzle)):
        if isinstance(x, A.FieldAccess) and x.base.type is not None and x.base.type.is_block:
            fields = [f for f in x.base.type.fields if f.name == x.field]
            info = fields[0].qualifiers if fields else None
            if isinstance(info, dict) and "readonly" in (info.get("memory") or ()):
                return True
        x = x.base
    return False


def _array_name(e: A.Expression) -> str:
    """The name an error gives an array: a variable's or a block member's."""
    return e.field if isinstance(e, A.FieldAccess) else getattr(e, "name", "")
