"""Typed GLSL AST -> IR (Mesa's glsl_to_nir in spirit, without the GLSL IR step).

Shape of the result (``glsl_to_ir``):

* one IR function, ``main``: user functions are inlined while translating (GLSL has
  no recursion), ``out``/``inout`` arguments are copied back after the inlined body,
  early ``return`` becomes a break out of a once-loop wrapped around the body (a
  flag carries it out of inner loops, as nir_lower_returns does);
* every GLSL variable (globals, locals, parameters, the shader's inputs and
  outputs) is a ``function_temp`` IR variable read and written through derefs, so
  ``lower_vars_to_ssa`` builds the SSA form; inputs are copied from ``shader_in``
  variables in a prologue and outputs to ``shader_out`` variables (or the blend
  epilogue) at the end (``io.py``), as nir_lower_io_to_temporaries does;
* values: a scalar or vector is a ``Def`` (bool = 1-bit); a matrix, array or struct
  is a Python list of its columns / elements / members.

Loops: ``for`` is ``loop { if (!cond) break; body; step }`` with ``continue``
emitting the step first; ``do``-``while``'s ``continue`` evaluates the condition.
``switch`` is a once-loop whose cases are guarded by a fall-through flag.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

from compiler.glsl import ast
from compiler.glsl import types as GT
from compiler.ir import ArrayType, Builder, Def, Function, Shader, StructType, VecType
from compiler.ir.core import Variable as IRVariable

from .builtins import Builtins
from .errors import LoweringError
from .intrinsics import LOWER_INTRINSICS  # noqa: F401 (checks the IR's table has the intrinsics the lowering emits)

__all__ = ["Lowerer", "ir_type", "LoweringError"]

_BASE = {"float": ("float", 32), "double": ("float", 64), "int": ("int", 32), "uint": ("uint", 32),
         "bool": ("bool", 1), "int64": ("int", 64), "uint64": ("uint", 64)}


def ir_type(t: GT.GLSLType, row_major: bool = False):
    """The IR variable type of a GLSL type (None for opaque types). A matrix is an array
    of its column vectors; with ``row_major`` (in a uniform or storage block, GLSL 4.60
    section 4.4.5) an array of its row vectors, as the buffer holds it (section 7.6.2.2,
    rule 7), and so are the matrices inside an array or structure of it."""
    if t.base in _BASE:
        base, bits = _BASE[t.base]
        if t.is_matrix and row_major:
            return ArrayType(VecType(base, bits, t.columns), t.vector_size)
        vec = VecType(base, bits, t.vector_size)
        return ArrayType(vec, t.columns) if t.is_matrix else vec
    if t.is_array:
        inner = ir_type(t.element, row_major)
        return None if inner is None else ArrayType(inner, t.length or 1)
    if t.is_struct or t.is_block:
        fields, offsets = [], []
        for f in t.fields:
            ft = ir_type(f.type, field_row_major(t, f, row_major))
            if ft is not None:
                fields.append((f.name, ft))
                offsets.append((f.qualifiers or {}).get("offset_B") if isinstance(f.qualifiers, dict) else None)
        # a block whose members the shader placed (offset/align qualifiers) keeps their offsets
        return StructType(tuple(fields), tuple(offsets) if t.is_block and None not in offsets and offsets
                          else None)
    return None


def field_row_major(t: GT.GLSLType, f: GT.StructField, inherited: bool) -> bool:
    """Whether the matrices of member ``f`` of ``t`` are row-major in memory: a member of
    a uniform or storage block by its layout (its own qualifier, else its block's, else
    the default's, merged by the front end; column_major when none), a member of a
    structure as the structure is."""
    if t.is_block and t.block_kind in ("uniform", "buffer"):
        layout = f.qualifiers.get("layout", {}) if isinstance(f.qualifiers, dict) else {}
        return bool(layout.get("row_major")) and not layout.get("column_major")
    return inherited


def base_of(t: GT.GLSLType) -> str:
    """IR base (float/int/uint/bool) of a scalar, vector or matrix type."""
    return _BASE[t.base][0]


@dataclass
class LValue:
    """A place: a deref (``deref``) of GLSL type ``type``; for vectors optionally the
    components ``comps`` (a swizzle) or one dynamically chosen component ``dyn``."""
    deref: Def
    type: GT.GLSLType
    comps: tuple[int, ...] | None = None
    dyn: Def | None = None
    # the matrices of the place are row-major in memory (see ir_type)
    row_major: bool = False
    # column ``column[0]`` (constant value ``column[1]`` or None) of the row-major matrix
    # of type ``column[2]`` at ``deref``: its components are one of each row
    column: tuple | None = None


@dataclass
class Opaque:
    """A sampler, image or atomic counter: the slot it is bound to (see io.py).
    ``index`` is a dynamic element index into an array of them (None if constant)."""
    kind: str                # sampler / image / atomic
    type: GT.GLSLType        # the element type (sampler2D, image2D, atomic_uint)
    slot: int                # first slot of the (array) variable + constant index
    name: str
    index: Def | None = None
    length: int = 1          # elements from slot on (for dynamic indexing)
    binding: int = 0         # atomic counters: buffer binding and byte offset
    offset_B: int = 0
    # With a dynamic ``index``: the candidate slots it selects among when they are not
    # ``slot .. slot + length - 1`` (opaque members of an array of structs, each a
    # uniform leaf of its own, ``lights[0].shadow``, ``lights[1].shadow``, ...).
    choices: tuple[int, ...] | None = None

    def slots(self) -> list[int]:
        """The slots a dynamic ``index`` selects among, in index order."""
        if self.choices is not None:
            return list(self.choices)
        return [self.slot + i for i in range(self.length)]


@dataclass
class _Ctx:
    kind: str                           # "loop", "switch", "func"
    on_continue: Callable | None = None
    saw_return: bool = False
    saw_continue: bool = False
    cont_flag: IRVariable | None = None


@dataclass
class _Func:
    ret_var: IRVariable | None
    ret_flag: IRVariable | None
    wrapped: bool


class Lowerer:
    """Translates one TranslationUnit. ``io`` (an ``io.IOLowering``) owns the
    interface: it is asked for the variable standing for every global symbol."""

    def __init__(self, unit: ast.TranslationUnit, io):
        self.unit = unit
        self.io = io
        self.shader = Shader("compute" if unit.stage in ("geometry", "tess_control", "tess_evaluation") else unit.stage,
                             "main")  # geometry, tessellation: kernels
        self.func = Function("main")
        self.shader.functions.append(self.func)
        self.b = Builder(self.func, self.shader)
        self.vars: dict[Any, tuple[IRVariable, tuple[int, ...]]] = {}
        self.opaque: dict[Any, Opaque] = {}
        self.block_arrays: dict[Any, list[IRVariable]] = {}   # arrays of UBO/SSBO blocks
        self.block_array_vars: dict[Any, IRVariable] = {}     # ... and each whole array (dynamic indices)
        self.ctx: list[_Ctx] = []
        self.funcs: list[_Func] = []
        self.ended = False              # the current block ended with break/continue
        self._serial = itertools.count()
        self.builtins = Builtins(self)

    # ------------------------------------------------------------ variables
    def new_local(self, name: str, t) -> IRVariable:
        irt = t if not isinstance(t, GT.GLSLType) else ir_type(t)
        return self.b.local_var(f"{name}.{next(self._serial)}" if name else f"tmp.{next(self._serial)}", irt)

    def bind(self, symbol, var: IRVariable, path: tuple[int, ...] = ()) -> None:
        self.vars[symbol] = (var, path)

    def var_deref(self, symbol) -> Def:
        if symbol not in self.vars:
            self.io.global_symbol(self, symbol)
        var, path = self.vars[symbol]
        d = self.b.deref_var(var)
        for f in path:
            d = self.b.deref_struct(d, f)
        return d

    # ------------------------------------------------------------ values
    def const(self, t: GT.GLSLType, value) -> Any:
        if t.is_array:
            return [self.const(t.element, v) for v in value]
        if t.is_struct:
            return [self.const(f.type, v) for f, v in zip(t.fields, value)]
        base, bits = _BASE[t.base]
        if t.is_matrix:
            r = t.vector_size
            return [self.b.imm(list(value[c * r:(c + 1) * r]), base, bits) for c in range(t.columns)]
        return self.b.imm(list(value), base, bits)

    def load(self, deref: Def, t: GT.GLSLType, row_major: bool = False) -> Any:
        b = self.b
        if t.is_matrix and row_major:
            rows = [b.load_deref(b.deref_array(deref, r)) for r in range(t.vector_size)]
            return [self._gather(rows, c) for c in range(t.columns)]
        if t.is_array or t.is_matrix:
            n = t.columns if t.is_matrix else (t.length or 1)
            et = t.column_type if t.is_matrix else t.element
            return [self.load(b.deref_array(deref, i), et, row_major) for i in range(n)]
        if t.is_struct or t.is_block:
            out, i = [], 0
            for f in t.fields:
                if ir_type(f.type) is None:
                    out.append(None)
                    continue
                out.append(self.load(b.deref_struct(deref, i), f.type, field_row_major(t, f, row_major)))
                i += 1
            return out
        return b.load_deref(deref)

    def _gather(self, vectors: list[Def], c) -> Def:
        """The vector of component ``c`` (an int or a Def) of each of ``vectors``: a
        column of a matrix held as its rows (or a row of one held as its columns)."""
        b = self.b
        parts = [b.channel(v, c) if isinstance(c, int) else self.dyn_component(v, c) for v in vectors]
        return b.vec(*parts) if len(parts) > 1 else parts[0]

    def store(self, deref: Def, t: GT.GLSLType, value, write_mask: int | None = None,
              row_major: bool = False) -> None:
        b = self.b
        if t.is_matrix and row_major:
            for r in range(t.vector_size):
                b.store_deref(b.deref_array(deref, r), self._gather(value, r))
        elif t.is_array or t.is_matrix:
            et = t.column_type if t.is_matrix else t.element
            for i, v in enumerate(value):
                self.store(b.deref_array(deref, i), et, v, row_major=row_major)
        elif t.is_struct or t.is_block:
            fields = [f for f in t.fields if ir_type(f.type) is not None]
            values = [v for v in value if v is not None] if len(value) != len(fields) else value
            for i, (f, v) in enumerate(zip(fields, values)):
                if v is not None:
                    self.store(b.deref_struct(deref, i), f.type, v, row_major=field_row_major(t, f, row_major))
        else:
            b.store_deref(deref, value, write_mask)

    def _block_array_element(self, e: ast.Index):
        """The deref of one block of an array (of arrays) of interface blocks, when ``e``
        indexes such an array down to a block: constant indices pick the element's own
        variable, others index the whole array's (flattened row-major). None otherwise."""
        indices = []
        n = e
        while isinstance(n, ast.Index):
            indices.append(n.index)
            n = n.base
        if not (isinstance(n, ast.VariableRef) and n.symbol in self.block_arrays):
            return None
        indices.reverse()
        dims = []
        t = n.symbol.type
        while t.is_array:
            dims.append(t.length or 1)
            t = t.element
        if len(indices) != len(dims):
            raise LoweringError("an array of interface blocks used without indexing it down to a block")
        b = self.b
        if all(i.const is not None for i in indices):
            flat = 0
            for i, d in zip(indices, dims):
                flat = flat * d + i.const[0]
            return b.deref_var(self.block_arrays[n.symbol][flat])
        flat = self.expr(indices[0])    # dynamically uniform: the whole array's variable
        for i, d in zip(indices[1:], dims[1:]):
            flat = b.iadd(b.imul(flat, b.iimm(d)), self.expr(i))
        return b.deref_array(b.deref_var(self.block_array_vars[n.symbol]), flat)

    def select(self, cond: Def, a, c):
        if isinstance(a, list):
            return [self.select(cond, x, y) for x, y in zip(a, c)]
        return self.b.bcsel(cond, a, c)

    def temp_of(self, t: GT.GLSLType, value) -> Def:
        var = self.new_local("", t)
        d = self.b.deref_var(var)
        self.store(d, t, value)
        return self.b.deref_var(var)

    # ------------------------------------------------------------ l-values
    def lvalue(self, e: ast.Expression) -> LValue:
        b = self.b
        if isinstance(e, ast.VariableRef):
            return LValue(self.var_deref(e.symbol), e.type, row_major=self._symbol_row_major(e.symbol))
        if isinstance(e, ast.FieldAccess):
            base = self.lvalue(e.base)
            idx = e.field_index if e.field_index >= 0 else [f.name for f in e.base.type.fields].index(e.field)
            if e.base.type.is_block and e.base.type.fields and self._ir_field_index(e.base.type, idx) is None:
                raise LoweringError(f"opaque member {e.field} used as a value")
            return LValue(b.deref_struct(base.deref, self._ir_field_index(e.base.type, idx)), e.type,
                          row_major=field_row_major(e.base.type, e.base.type.fields[idx], base.row_major))
        if isinstance(e, ast.Index):
            bt = e.base.type
            element = self._block_array_element(e)
            if element is not None:
                return LValue(element, e.type)
            if bt.is_matrix:
                base = self.lvalue(e.base)
                index = self.expr(e.index)
                if base.row_major:          # a column of a matrix held as its rows
                    const = e.index.const[0] if e.index.const is not None else None
                    return LValue(base.deref, e.type, column=(index, const, bt))
                return LValue(b.deref_array(base.deref, index), e.type)
            if bt.is_array:
                base = self.lvalue(e.base)
                return LValue(b.deref_array(base.deref, self.expr(e.index)), e.type, row_major=base.row_major)
            base = self.lvalue(e.base)          # a vector
            if base.column is not None:
                # one component of a column of a row-major matrix: that column's component
                # of one row
                index, const, mt = base.column
                if base.comps is not None:
                    if e.index.const is None:
                        raise LoweringError("a dynamic index into a swizzle of a row-major matrix column")
                    row = b.deref_array(base.deref, b.iimm(base.comps[e.index.const[0]]))
                else:
                    row = b.deref_array(base.deref, self.expr(e.index))
                row_t = GT.vector(mt.base, mt.columns)
                if const is not None:
                    return LValue(row, row_t, (const,))
                return LValue(row, row_t, None, index)
            if e.index.const is not None:
                c = e.index.const[0]
                comps = (c,) if base.comps is None else (base.comps[c],)
                return LValue(base.deref, bt if base.comps is None else base.type, comps)
            assert base.comps is None, "dynamic index into a swizzle"
            return LValue(base.deref, bt, None, self.expr(e.index))
        if isinstance(e, ast.Swizzle):
            base = self.lvalue(e.base)
            comps = tuple(e.components) if base.comps is None else tuple(base.comps[c] for c in e.components)
            return LValue(base.deref, base.type, comps, column=base.column)
        if isinstance(e, ast.Conversion):
            return self.lvalue(e.operand)
        # Not a place (a call result, a constructor...): a temporary holds it.
        return LValue(self.temp_of(e.type, self.expr(e)), e.type)

    @staticmethod
    def _ir_field_index(t: GT.GLSLType, idx: int) -> int | None:
        """The IR field index of GLSL member ``idx`` (opaque members are not in the IR struct)."""
        if ir_type(t.fields[idx].type) is None:
            return None
        return sum(1 for f in t.fields[:idx] if ir_type(f.type) is not None)

    def _symbol_row_major(self, sym) -> bool:
        """Whether ``sym``, a member of an instance-less uniform or storage block, holds
        row-major matrices (an instance's members are decided at their field access)."""
        blk = getattr(sym, "block", None)
        if not isinstance(blk, ast.InterfaceBlock) or blk.variable is sym or blk.type is None:
            return False
        f = next((f for f in blk.type.fields if f.name == sym.name), None)
        return f is not None and field_row_major(blk.type, f, False)

    def read(self, lv: LValue):
        if lv.column is not None:
            index, const, mt = lv.column
            rows = [self.b.load_deref(self.b.deref_array(lv.deref, r)) for r in range(mt.vector_size)]
            v = self._gather(rows, const if const is not None else index)
        else:
            v = self.load(lv.deref, lv.type, lv.row_major)
        if lv.dyn is not None:
            return self.dyn_component(v, lv.dyn)
        if lv.comps is not None:
            return self.b.swizzle(v, lv.comps)
        return v

    def dyn_component(self, vec: Def, index: Def) -> Def:
        b = self.b
        result = b.channel(vec, vec.num_components - 1)
        for c in range(vec.num_components - 2, -1, -1):
            result = b.bcsel(b.ieq(index, c), b.channel(vec, c), result)
        return result

    def write(self, lv: LValue, value) -> None:
        b = self.b
        if lv.column is not None:
            # the column's components live one in each row: write each row's component
            index, const, mt = lv.column
            rows = lv.comps if lv.comps is not None else tuple(range(mt.vector_size))
            row_t = GT.vector(mt.base, mt.columns)
            for j, r in enumerate(rows):
                part = value if value.num_components == 1 else b.channel(value, j)
                row = LValue(b.deref_array(lv.deref, b.iimm(r)), row_t,
                             (const,) if const is not None else None, None if const is not None else index)
                self.write(row, part)
            return
        if lv.dyn is not None:
            old = b.load_deref(lv.deref)
            parts = [b.bcsel(b.ieq(lv.dyn, c), value, b.channel(old, c)) for c in range(old.num_components)]
            b.store_deref(lv.deref, b.vec(*parts) if len(parts) > 1 else parts[0])
        elif lv.comps is not None:
            n = lv.type.vector_size
            if n == 1:
                b.store_deref(lv.deref, value if value.num_components == 1 else b.channel(value, 0))
                return
            parts = [None] * n
            for j, c in enumerate(lv.comps):
                parts[c] = b.swz(value, (j if value.num_components > 1 else 0,))
            filler = b.swz(value, (0,))
            full = b.alu(f"vec{n}", *[p if p is not None else filler for p in parts])
            mask = sum(1 << c for c in lv.comps)
            b.store_deref(lv.deref, full, mask)
        else:
            self.store(lv.deref, lv.type, value, row_major=lv.row_major)

    # ------------------------------------------------------------ expressions
    def expr(self, e: ast.Expression):
        if e.const is not None and not (e.type.is_opaque or e.type.is_void) and _pure(e):
            return self.const(e.type, e.const)
        m = getattr(self, "x_" + type(e).__name__, None)
        if m is None:
            raise LoweringError(f"cannot lower {type(e).__name__}")
        return m(e)

    def x_Literal(self, e):
        return self.const(e.type, e.const if e.const is not None else (e.value,))

    def x_VariableRef(self, e):
        if e.type.is_opaque:
            return self.opaque_of(e)
        sym = e.symbol
        if sym.const_value is not None and sym not in self.vars and not e.type.is_array:
            return self.const(e.type, sym.const_value)
        return self.load(self.var_deref(sym), e.type, self._symbol_row_major(sym))

    def x_FieldAccess(self, e):
        if e.type.is_opaque:
            return self.opaque_of(e)
        if _is_place(e):
            return self.read(self.lvalue(e))
        base = self.expr(e.base)
        idx = e.field_index if e.field_index >= 0 else [f.name for f in e.base.type.fields].index(e.field)
        return base[idx]

    def x_Index(self, e):
        if e.type.is_opaque:
            return self.opaque_of(e)
        bt = e.base.type
        if _is_place(e):
            return self.read(self.lvalue(e))
        if e.index.const is not None:
            i = e.index.const[0]
            base = self.expr(e.base)
            return self.b.channel(base, i) if bt.is_vector else base[i]
        if bt.is_vector:
            return self.dyn_component(self.expr(e.base), self.expr(e.index))
        return self.read(self.lvalue(e))

    def x_Swizzle(self, e):
        base = self.expr(e.base)
        return self.b.swizzle(base, tuple(e.components))

    def x_Sequence(self, e):
        v = None
        for x in e.expressions:
            v = self.expr(x)
        return v

    def x_Conversion(self, e):
        return self.convert(self.expr(e.operand), e.operand.type, e.type)

    def convert(self, v, src: GT.GLSLType, dst: GT.GLSLType):
        if src.is_matrix:
            return [self.convert_vec(c, src.base, dst.base) for c in v]
        return self.convert_vec(v, src.base, dst.base)

    def convert_vec(self, v: Def, sb: str, db: str) -> Def:
        b = self.b
        if sb == db:
            return v
        fbits = {"float": 32, "double": 64}
        if db in ("float", "double"):
            op = {"float": "f", "double": "f", "int": "i", "uint": "u", "bool": "b", "int64": "i",
                  "uint64": "u"}[sb] + f"2f{fbits[db]}"
            return b.alu(op, v)
        if db in ("int", "uint", "int64", "uint64"):
            dbits = _BASE[db][1]
            if sb in ("float", "double"):
                return b.alu(f"f2{db[0]}{dbits}", v)
            if sb == "bool":
                return b.alu(f"b2i{dbits}", v)
            if _BASE[sb][1] != dbits:                   # widen by the source's signedness, or truncate
                k = "i" if sb in ("int", "int64") else "u"
                return b.alu(f"{k}2{k}{dbits}", v)
            return v                                    # int <-> uint: same bits
        if db == "bool":
            return b.f2b1(v) if sb in ("float", "double") else b.i2b1(v)
        raise LoweringError(f"no conversion {sb} -> {db}")

    def x_Constructor(self, e):
        t = e.type
        if t.is_array:
            return [self.expr(a) for a in e.args]
        if t.is_struct:
            return [self.expr(a) for a in e.args]
        b = self.b
        base = t.base
        args = [(self.expr(a), a.type) for a in e.args]
        if t.is_matrix:
            rows, cols = t.vector_size, t.columns
            if len(args) == 1 and args[0][1].is_matrix:
                m, mt = args[0]
                m = [self.convert_vec(c, mt.base, base) for c in m]
                out = []
                for c in range(cols):
                    comps = []
                    for r in range(rows):
                        if c < mt.columns and r < mt.vector_size:
                            comps.append(b.channel(m[c], r))
                        else:
                            comps.append(b.fimm(1.0 if r == c else 0.0))
                    out.append(b.vec(*comps))
                return out
            if len(args) == 1 and args[0][1].is_scalar:
                s = self.convert_vec(args[0][0], args[0][1].base, base)
                zero = b.fimm(0.0)
                return [b.vec(*[s if r == c else zero for r in range(rows)]) for c in range(cols)]
            scalars = self._scalars(args, base)
            return [b.vec(*scalars[c * rows:(c + 1) * rows]) for c in range(cols)]
        if len(args) == 1 and args[0][1].is_scalar and t.vector_size > 1:
            s = self.convert_vec(args[0][0], args[0][1].base, base)
            return b.vec(*[s] * t.vector_size)
        scalars = self._scalars(args, base)[:t.vector_size]
        return b.vec(*scalars) if len(scalars) > 1 else scalars[0]

    def _scalars(self, args, base: str) -> list[Def]:
        out = []
        for v, at in args:
            cols = v if at.is_matrix else [v]
            for col in cols:
                col = self.convert_vec(col, at.base, base)
                out.extend(self.b.channel(col, i) if col.num_components > 1 else col
                           for i in range(col.num_components))
        return out

    def x_Unary(self, e):
        b = self.b
        if e.op in ("++", "--"):
            lv = self.lvalue(e.operand)
            new = self._incdec(self.read(lv), e.type, e.op)
            self.write(lv, new)
            return new
        v = self.expr(e.operand)
        if e.op == "+":
            return v
        if e.op == "-":
            f = b.fneg if e.type.is_float else b.ineg
            return [f(c) for c in v] if e.type.is_matrix else f(v)
        if e.op in ("!", "~"):
            return b.inot(v)
        raise LoweringError(f"unary {e.op}")

    def _incdec(self, v, t, op):
        one = 1.0 if t.is_float else 1
        binop = "+" if op == "++" else "-"
        if t.is_matrix:
            return [self.arith(binop, c, self.b.imm(one, base_of(t)), t.base) for c in v]
        return self.arith(binop, v, self.b.imm(one, base_of(t), _BASE[t.base][1]), t.base)

    def x_Postfix(self, e):
        lv = self.lvalue(e.operand)
        old = self.read(lv)
        self.write(lv, self._incdec(old, e.type, e.op))
        return old

    def x_Assignment(self, e):
        lv = self.lvalue(e.target)
        if e.op == "=":
            v = self.expr(e.value)
        else:
            cur = self.read(lv)
            v = self.binary(e.op[:-1], cur, self.expr(e.value), e.target.type, e.value.type, e.target.type)
        self.write(lv, v)
        return v

    def x_Conditional(self, e):
        b = self.b
        if e.type.is_opaque:
            raise LoweringError("?: on opaque types")
        cond = self.expr(e.condition)
        if _pure(e.true_expr) and _pure(e.false_expr) and not e.type.is_void:
            return self.select(cond, self.expr(e.true_expr), self.expr(e.false_expr))
        var = self.new_local("cond", e.type) if not e.type.is_void else None
        node = b.push_if(cond)
        v = self.expr(e.true_expr)
        if var is not None:
            self.store(b.deref_var(var), e.type, v)
        b.push_else(node)
        v = self.expr(e.false_expr)
        if var is not None:
            self.store(b.deref_var(var), e.type, v)
        b.pop_if(node)
        return self.load(b.deref_var(var), e.type) if var is not None else None

    def x_Binary(self, e):
        """A chain of binary operators is lowered along its left spine in a loop (no
        recursion per term); each left operand is evaluated before its right one."""
        spine = []
        node = e
        while isinstance(node, ast.Binary) and (node is e or self._lowered_by_spine(node)):
            spine.append(node)
            node = node.left
        left = self.expr(node)
        for n in reversed(spine):
            left = self._binary_step(n, left)
        return left

    def _lowered_by_spine(self, e) -> bool:
        """Whether ``expr(e)`` would lower the operator itself (not a folded constant)."""
        return not (e.const is not None and not (e.type.is_opaque or e.type.is_void) and _pure(e))

    def _binary_step(self, e, left):
        b = self.b
        if e.op in ("&&", "||") and not _pure(e.right):
            var = self.new_local("sc", GT.BOOL)
            b.store_var(var, left)
            node = b.push_if(left if e.op == "&&" else b.inot(left))
            b.store_var(var, self.expr(e.right))
            b.pop_if(node)
            return b.load_var(var)
        return self.binary(e.op, left, self.expr(e.right), e.left.type, e.right.type, e.type)

    # Arithmetic on scalars/vectors of one base.
    _ARITH = {
        "float": {"+": "fadd", "-": "fsub", "*": "fmul", "/": "fdiv"},
        "int": {"+": "iadd", "-": "isub", "*": "imul", "/": "idiv", "%": "irem", "&": "iand", "|": "ior",
                "^": "ixor", "<<": "ishl", ">>": "ishr"},
        "uint": {"+": "iadd", "-": "isub", "*": "imul", "/": "udiv", "%": "umod", "&": "iand", "|": "ior",
                 "^": "ixor", "<<": "ishl", ">>": "ushr"},
    }

    def arith(self, op: str, a: Def, c: Def, base: str) -> Def:
        base = {"double": "float", "int64": "int", "uint64": "uint"}.get(base, base)
        return self.b.alu(self._ARITH[base][op], a, c)

    def binary(self, op, l, r, lt: GT.GLSLType, rt: GT.GLSLType, t: GT.GLSLType):
        b = self.b
        if op in ("&&", "||", "^^"):
            return {"&&": b.iand, "||": b.ior, "^^": b.ixor}[op](l, r)
        if op in ("==", "!="):
            eq = self.equal(l, r, lt)
            return eq if op == "==" else b.inot(eq)
        if op in ("<", ">", "<=", ">="):
            base = lt.base
            lo, ge = {"float": ("flt", "fge"), "double": ("flt", "fge"), "int": ("ilt", "ige"),
                      "int64": ("ilt", "ige"), "uint64": ("ult", "uge"),
                      "uint": ("ult", "uge")}[base]
            if op == "<":
                return b.alu(lo, l, r)
            if op == ">":
                return b.alu(lo, r, l)
            if op == "<=":
                return b.alu(ge, r, l)
            return b.alu(ge, l, r)
        if op == "<<" or op == ">>":
            return self.arith(op, l, r, lt.base)
        if lt.is_matrix or rt.is_matrix:
            return self.matrix_op(op, l, r, lt, rt)
        return self.arith(op, l, r, t.base)

    def equal(self, l, r, t: GT.GLSLType) -> Def:
        b = self.b
        if t.is_array or t.is_matrix or t.is_struct:
            types = ([t.column_type] * t.columns if t.is_matrix else
                     [t.element] * (t.length or 1) if t.is_array else [f.type for f in t.fields])
            result = None
            for x, y, et in zip(l, r, types):
                if x is None:
                    continue
                eq = self.equal(x, y, et)
                result = eq if result is None else b.iand(result, eq)
            return result if result is not None else b.bimm(True)
        n = t.vector_size
        if t.is_float:
            return b.feq(l, r) if n == 1 else b.alu(f"ball_fequal{n}", l, r)
        return b.ieq(l, r) if n == 1 else b.alu(f"ball_iequal{n}", l, r)

    def matrix_op(self, op, l, r, lt, rt):
        b = self.b
        if op == "*" and lt.is_matrix and rt.is_matrix:
            return [self.mat_vec(l, c) for c in r]
        if op == "*" and lt.is_matrix and rt.is_vector:
            return self.mat_vec(l, r)
        if op == "*" and lt.is_vector and rt.is_matrix:
            n = lt.vector_size
            return b.vec(*[b.alu(f"fdot{n}", l, col) for col in r]) if len(r) > 1 else b.alu(f"fdot{n}", l, r[0])
        fop = {"+": "fadd", "-": "fsub", "*": "fmul", "/": "fdiv"}[op]
        if lt.is_matrix and rt.is_matrix:
            return [b.alu(fop, x, y) for x, y in zip(l, r)]
        if lt.is_matrix:
            return [b.alu(fop, x, r) for x in l]
        return [b.alu(fop, l, y) for y in r]

    def mat_vec(self, cols: list[Def], v: Def) -> Def:
        b = self.b
        acc = b.fmul(cols[0], b.channel(v, 0))
        for k in range(1, len(cols)):
            acc = b.ffma(cols[k], b.channel(v, k), acc)
        return acc

    def x_ArrayLength(self, e):
        if e.const is not None:
            return self.const(e.type, e.const)
        return self.io.runtime_array_length(self, e)

    def x_FunctionCall(self, e):
        if e.is_builtin:
            return self.builtins.call(e)
        return self.call_user(e)

    def x_SubroutineCall(self, e):
        """A call through a subroutine uniform: an if chain on the uniform's value (a
        subroutine index); the last compatible function takes every other value."""
        b = self.b
        sel = self.expr(e.selector)
        var = None if e.type.is_void else self.new_local("subroutine.ret", e.type)
        nodes = []
        for k, (call, index) in enumerate(zip(e.calls, e.indices)):
            last = k == len(e.calls) - 1
            if not last:
                nodes.append(b.push_if(b.ieq(sel, b.iimm(index))))
            v = self.call_user(call)
            if var is not None:
                self.store(b.deref_var(var), e.type, v)
            if not last:
                b.push_else(nodes[-1])
        for node in reversed(nodes):
            b.pop_if(node)
        return self.load(b.deref_var(var), e.type) if var is not None else None

    # ------------------------------------------------------------ opaque values
    def opaque_of(self, e) -> Opaque:
        if isinstance(e, ast.VariableRef):
            if e.symbol in self.opaque:
                return self.opaque[e.symbol]
            return self.io.opaque_symbol(self, e.symbol, e)
        if isinstance(e, ast.Index):
            base = self.opaque_of(e.base)
            if base.choices is not None:
                return self._index_choices(base, e)
            stride = _opaque_count(e.type)          # leaf elements per element of e.base
            if e.index.const is not None:
                i = e.index.const[0]
                return Opaque(base.kind, e.type.innermost_element, base.slot + i * stride, base.name,
                              base.index, stride, base.binding, base.offset_B + 4 * i * stride)
            # a dynamic index counts leaf elements from ``slot`` (an atomic counter's byte
            # offset is ``offset_B + 4 * index``)
            idx = self.expr(e.index)
            if stride != 1:
                idx = self.b.imul(idx, stride)
            if base.index is not None:
                idx = self.b.iadd(base.index, idx)
            length = base.length if base.index is not None else _opaque_count(e.base.type)
            return Opaque(base.kind, e.type.innermost_element, base.slot, base.name, idx,
                          length, base.binding, base.offset_B)
        if isinstance(e, ast.FieldAccess):
            if _constant_path(e):
                return self.io.opaque_leaf(self, _leaf_name(e), e.type)
            return self._member_choices(e)
        raise LoweringError(f"cannot take an opaque value from {type(e).__name__}")

    def _member_choices(self, e) -> Opaque:
        """An opaque member reached through dynamic indices into arrays of structs
        (``lights[i].shadow``, GLSL 4.00's dynamically uniform indexing): every leaf
        the indices may name gets its slot, and the row-major combination of the
        indices selects among them (the texture call becomes a select over the
        candidates, as for a dynamically indexed sampler array)."""
        steps = []
        n = e
        while isinstance(n, (ast.FieldAccess, ast.Index)):
            steps.append(n)
            n = n.base
        if not isinstance(n, ast.VariableRef):
            raise LoweringError(f"cannot take an opaque value from {type(n).__name__}")
        b = self.b
        names, index = [n.name], None
        for st in reversed(steps):
            if isinstance(st, ast.FieldAccess):
                names = [f"{x}.{st.field}" for x in names]
            elif st.index.const is not None:
                names = [f"{x}[{st.index.const[0]}]" for x in names]
            else:
                length = st.base.type.length
                if not length:
                    raise LoweringError("an opaque member of an unsized array")
                i = self.expr(st.index)
                index = i if index is None else b.iadd(b.imul(index, b.iimm(length)), i)
                names = [f"{x}[{k}]" for x in names for k in range(length)]
        leaves = [self.io.opaque_leaf(self, name, e.type) for name in names]
        first = leaves[0]
        return Opaque(first.kind, first.type, first.slot, first.name, index, first.length,
                      choices=tuple(x.slot for x in leaves))

    def _index_choices(self, base: Opaque, e) -> Opaque:
        """``lights[i].shadows[j]``: an index into the opaque arrays among which a
        dynamic index already selects."""
        stride = _opaque_count(e.type)
        per_choice = base.length // stride
        if e.index.const is not None:
            k = e.index.const[0]
            choices = tuple(c + k * stride for c in base.choices)
            return Opaque(base.kind, e.type.innermost_element, choices[0], base.name, base.index, stride,
                          choices=choices)
        b = self.b
        index = b.iadd(b.imul(base.index, b.iimm(per_choice)), self.expr(e.index))
        choices = tuple(c + k * stride for c in base.choices for k in range(per_choice))
        return Opaque(base.kind, e.type.innermost_element, choices[0], base.name, index, stride,
                      choices=choices)

    # ------------------------------------------------------------ calls
    def call_user(self, e: ast.FunctionCall):
        b = self.b
        sig = e.signature
        fdef = sig.definition
        if fdef is None:
            raise LoweringError(f"function {sig.name} has no body")
        params = fdef.prototype.parameters
        binds, copy_out = [], []
        for p, a in zip(params, e.args):
            sym = p.variable
            if sym is None:
                continue
            if sym.type.is_opaque:
                binds.append((sym, "opaque", self.opaque_of(a)))
                continue
            var = self.new_local(f"{sig.name}.{sym.name}", sym.type)
            if sym.storage in ("out", "inout"):
                # The argument's l-value is evaluated at call time (its indices
                # before the body runs); the copy back converts the formal's type
                # to the argument's (GLSL 1.30 section 6.1: `out int` into a float).
                lv = self.lvalue(a)
                copy_out.append((lv, var, sym.type, a.type))
                if sym.storage == "inout":
                    self.store(b.deref_var(var), sym.type, self._convert_arg(self.read(lv), a.type, sym.type))
            else:
                self.store(b.deref_var(var), sym.type, self.expr(a))
            binds.append((sym, "var", var))
        # Bind the parameters for this inlined copy; restore the outer bindings afterwards
        # (a function can be inlined again from inside its own arguments: f(f(x))).
        saved = []
        for sym, kind, v in binds:
            table = self.opaque if kind == "opaque" else self.vars
            saved.append((table, sym, table.get(sym)))
            table[sym] = v if kind == "opaque" else (v, ())
        ret = None if sig.return_type.is_void else self.new_local(f"{sig.name}.ret", sig.return_type)
        self.inline_body(fdef.body, ret)
        for table, sym, old in reversed(saved):
            if old is None:
                table.pop(sym, None)
            else:
                table[sym] = old
        for lv, var, t, at in copy_out:
            self.write(lv, self._convert_arg(self.load(b.deref_var(var), t), t, at))
        return self.load(b.deref_var(ret), sig.return_type) if ret is not None else None

    def _convert_arg(self, v, src: GT.GLSLType, dst: GT.GLSLType):
        """An implicit conversion between a parameter and its argument (same shape)."""
        if src == dst or src.is_array or src.is_struct or dst.is_array or dst.is_struct:
            return v
        return self.convert(v, src, dst)

    def inline_body(self, body: ast.CompoundStatement, ret: IRVariable | None) -> None:
        """Emit a function body in place; returns leave through a once-loop."""
        stmts = body.statements
        early = any(isinstance(n, ast.Return) for s in stmts[:-1] for n in ast.walk(s)) or (
            stmts and not isinstance(stmts[-1], ast.Return)
            and any(isinstance(n, ast.Return) for n in ast.walk(stmts[-1])))
        if not early:
            self.funcs.append(_Func(ret, None, False))
            saved_ctx, self.ctx = self.ctx, []
            self.statement(body)
            self.ctx = saved_ctx
            self.funcs.pop()
            self.ended = False
            return
        b = self.b
        flag = self.new_local("returned", GT.BOOL)
        b.store_var(flag, b.bimm(False))
        self.funcs.append(_Func(ret, flag, True))
        saved_ctx, self.ctx = self.ctx, [_Ctx("func")]
        loop = b.push_loop()
        self.statement(body)
        if not self.ended:
            b.break_()
        b.pop_loop(loop)
        self.ended = False
        self.ctx = saved_ctx
        self.funcs.pop()

    # ------------------------------------------------------------ statements
    def statement(self, s: ast.Statement) -> None:
        if self.ended:
            return                      # unreachable after break/continue/return
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is None:
            raise LoweringError(f"cannot lower statement {type(s).__name__}")
        m(s)

    def s_CompoundStatement(self, s):
        for x in s.statements:
            if isinstance(x, ast.CaseLabel):
                raise LoweringError("case label outside a switch")
            self.statement(x)

    def s_DeclarationStatement(self, s):
        d = s.declaration
        if isinstance(d, ast.VariableDeclaration):
            self.declare(d)

    def declare(self, d: ast.VariableDeclaration) -> None:
        for decl in d.declarators:
            sym = decl.variable
            if sym is None:
                continue
            if sym.type.is_opaque:
                if decl.initializer is not None:
                    self.opaque[sym] = self.opaque_of(decl.initializer)
                continue
            var = self.new_local(sym.name, sym.type)
            self.bind(sym, var)
            init = decl.initializer
            if init is not None:
                self.store(self.b.deref_var(var), sym.type, self.expr(init))
            elif sym.const_value is not None:
                self.store(self.b.deref_var(var), sym.type, self.const(sym.type, sym.const_value))

    def s_ExpressionStatement(self, s):
        if s.expression is not None:
            self.expr(s.expression)

    def s_If(self, s):
        b = self.b
        c = s.condition
        if c.const is not None and _pure(c):
            taken = s.then if c.const[0] else s.otherwise
            if taken is not None:
                self.statement(taken)
            return
        cond = self.expr(c)
        node = b.push_if(cond)
        self.statement(s.then)
        self.ended = False
        b.push_else(node)
        if s.otherwise is not None:
            self.statement(s.otherwise)
        self.ended = False
        b.pop_if(node)

    def _loop(self, pre_cond: Callable | None, body: ast.Statement, step: Callable | None,
              post_cond: Callable | None) -> None:
        b = self.b

        def cond_break(fn):
            cond = fn()
            if cond is None:
                return
            node = b.push_if(b.inot(cond))
            b.break_()
            b.pop_if(node)

        def on_continue():
            if step is not None:
                step()
            if post_cond is not None:
                cond_break(post_cond)

        ctx = _Ctx("loop", on_continue)
        self.ctx.append(ctx)
        loop = b.push_loop()
        if pre_cond is not None:
            cond_break(pre_cond)
        self.statement(body)
        if not self.ended:
            on_continue()
        self.ended = False
        b.pop_loop(loop)
        self.ctx.pop()
        self._after_loop(ctx)

    def _after_loop(self, ctx: _Ctx) -> None:
        """Carry a return (or a continue out of a switch) past the loop just closed."""
        b = self.b
        if ctx.saw_return:
            f = self.funcs[-1]
            node = b.push_if(b.load_var(f.ret_flag))
            self._jump_out_for_return()
            b.pop_if(node)
        if ctx.kind == "switch" and ctx.saw_continue:
            node = b.push_if(b.load_var(ctx.cont_flag))
            self._continue()
            self.ended = False
            b.pop_if(node)

    def _jump_out_for_return(self) -> None:
        self.ctx[-1].saw_return = self.ctx[-1].kind != "func"
        self.b.break_()

    def s_While(self, s):
        if isinstance(s.condition, ast.ConditionDeclaration):
            cd = s.condition

            def pre():
                var = self.new_local(cd.name, cd.variable.type)
                self.bind(cd.variable, var)
                v = self.expr(cd.initializer)
                self.b.store_var(var, v)
                return v
        else:
            def pre():
                return self.expr(s.condition)
        self._loop(pre, s.body, None, None)

    def s_DoWhile(self, s):
        self._loop(None, s.body, None, lambda: self.expr(s.condition))

    def s_For(self, s):
        if s.init is not None:
            self.statement(s.init)
        cond = s.condition
        if cond is None:
            pre = None
        elif isinstance(cond, ast.ConditionDeclaration):
            def pre():
                var = self.new_local(cond.name, cond.variable.type)
                self.bind(cond.variable, var)
                v = self.expr(cond.initializer)
                self.b.store_var(var, v)
                return v
        else:
            def pre():
                return self.expr(cond)
        step = (lambda: self.expr(s.step)) if s.step is not None else None
        self._loop(pre, s.body, step, None)

    def s_Break(self, s):
        self.b.break_()
        self.ended = True

    def _continue(self) -> None:
        ctx = self.ctx[-1]
        if ctx.kind == "loop":
            ctx.on_continue()
            self.b.continue_()
        else:                               # inside a switch: leave it, then continue
            ctx.saw_continue = True
            if ctx.cont_flag is None:
                raise LoweringError("continue outside a loop")
            self.b.store_var(ctx.cont_flag, self.b.bimm(True))
            self.b.break_()
        self.ended = True

    def s_Continue(self, s):
        self._continue()

    def s_Return(self, s):
        b = self.b
        f = self.funcs[-1]
        if s.value is not None and f.ret_var is not None:
            self.store(b.deref_var(f.ret_var), s.value.type, self.expr(s.value))
        elif s.value is not None:
            self.expr(s.value)
        if f.wrapped:
            b.store_var(f.ret_flag, b.bimm(True))
            self._jump_out_for_return()
            self.ended = True
        else:
            self.ended = True       # the last statement of an unwrapped body

    def s_Discard(self, s):
        self.b.discard()

    def s_Switch(self, s):
        b = self.b
        sel = self.expr(s.selector)
        stmts = s.body.statements
        labels = [x for x in stmts if isinstance(x, ast.CaseLabel)]
        case_values = [x.value.const[0] for x in labels if x.value is not None]
        fall = self.new_local("fall", GT.BOOL)
        b.store_var(fall, b.bimm(False))
        cont_flag = None
        if any(c.kind == "loop" for c in self.ctx):
            cont_flag = self.new_local("cont", GT.BOOL)
            b.store_var(cont_flag, b.bimm(False))
        elif self.ctx and self.ctx[-1].kind == "switch":
            cont_flag = self.ctx[-1].cont_flag
        ctx = _Ctx("switch", cont_flag=cont_flag)
        self.ctx.append(ctx)
        loop = b.push_loop()
        i = 0
        while i < len(stmts) and not self.ended:
            if isinstance(stmts[i], ast.CaseLabel):
                match = b.load_var(fall)
                while i < len(stmts) and isinstance(stmts[i], ast.CaseLabel):
                    lab = stmts[i]
                    if lab.value is None:
                        hit = b.bimm(True)
                        for v in case_values:
                            hit = b.iand(hit, b.ine(sel, b.imm(v, "int")))
                    else:
                        hit = b.ieq(sel, b.imm(lab.value.const[0], "int"))
                    match = b.ior(match, hit)
                    i += 1
                b.store_var(fall, match)
                continue
            # a run of statements up to the next label, run when falling through
            j = i
            while j < len(stmts) and not isinstance(stmts[j], ast.CaseLabel):
                j += 1
            node = b.push_if(b.load_var(fall))
            for x in stmts[i:j]:
                self.statement(x)
            self.ended = False
            b.pop_if(node)
            i = j
        if not self.ended:
            b.break_()
        self.ended = False
        b.pop_loop(loop)
        self.ctx.pop()
        if ctx.saw_continue and self.ctx and self.ctx[-1].kind == "switch":
            self.ctx[-1].saw_continue = True
        self._after_loop(ctx)


def _leaf_name(e) -> str:
    """``s.t``, ``a[1].t``: the uniform-leaf name of an opaque struct member (constant indices)."""
    if isinstance(e, ast.VariableRef):
        return e.name
    if isinstance(e, ast.FieldAccess):
        return f"{_leaf_name(e.base)}.{e.field}"
    if isinstance(e, ast.Index) and e.index.const is not None:
        return f"{_leaf_name(e.base)}[{e.index.const[0]}]"
    raise LoweringError("opaque struct members need constant indices")


def _constant_path(e) -> bool:
    while isinstance(e, (ast.FieldAccess, ast.Index)):
        if isinstance(e, ast.Index) and e.index.const is None:
            return False
        e = e.base
    return True


def _opaque_count(t: GT.GLSLType) -> int:
    return (t.length or 1) * _opaque_count(t.element) if t.is_array else 1


def _is_place(e) -> bool:
    """Whether ``e`` is a variable reference with field/index/swizzle steps."""
    while isinstance(e, (ast.FieldAccess, ast.Index, ast.Swizzle)):
        e = e.base
    return isinstance(e, ast.VariableRef) and not e.type.is_opaque


_IMPURE_BUILTINS = ("atomic", "image", "barrier", "memoryBarrier", "groupMemoryBarrier", "EmitVertex",
                    "uaddCarry", "usubBorrow", "umulExtended", "imulExtended", "modf", "frexp",
                    # cross-invocation: the result depends on which invocations run it
                    "anyInvocation", "allInvocations", "ballotARB", "readInvocationARB", "readFirstInvocationARB")


def _pure(e) -> bool:
    """No side effects and nothing that may not be evaluated speculatively."""
    for n in ast.walk(e):
        if isinstance(n, (ast.Assignment, ast.Postfix)):
            return False
        if isinstance(n, ast.Unary) and n.op in ("++", "--"):
            return False
        if isinstance(n, ast.FunctionCall):
            if not n.is_builtin or n.name.startswith(_IMPURE_BUILTINS):
                return False
    return True
