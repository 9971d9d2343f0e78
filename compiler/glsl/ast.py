"""The typed AST: what `parse()` returns and what the IR builder walks.

The parser builds these nodes; semantic analysis (`semantic.py`) then fills in
every `type`, binds every name to a symbol (`symbols.py`), folds constants and
replaces the generic forms of the parser by precise ones:

    parser produces            after semantic analysis
    -------------------------  ------------------------------------------------
    FieldAccess on a vector    Swizzle (components as indices)
    Call                       FunctionCall (user or built-in signature),
                               Constructor (type + arguments), or
                               ArrayLength (for `a.length()`)
    (operand of another type)  Conversion wrapped around it, so every operator's
                               operands already have the types the operator needs

Every expression node has `loc` (a SourceLoc), `type` (a GLSLType) and `const`
(the folded value or None). Constant values: a scalar, vector or matrix is a
tuple of Python scalars in column-major order (bool, int, float); an array is a
tuple of element values; a struct a tuple of member values.

Walking: `node.children()` yields direct child nodes in source order;
`walk(node)` yields all nodes depth first; `NodeVisitor` dispatches to
`visit_<ClassName>` methods; `dump(node)` prints an indented tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Iterator

from .errors import SourceLoc
from .types import GLSLType


class Node:
    """Base of every AST node."""

    loc: SourceLoc

    def children(self) -> Iterator["Node"]:
        for f in fields(self):  # type: ignore[arg-type]
            if f.name in ("loc", "type", "const", "symbol", "signature", "variable", "function"):
                continue
            v = getattr(self, f.name)
            if isinstance(v, Node):
                yield v
            elif isinstance(v, (list, tuple)):
                for item in v:
                    if isinstance(item, Node):
                        yield item


def walk(node: Node) -> Iterator[Node]:
    """Every node under `node` (itself included), depth first, in source order."""
    stack = [node]
    while stack:      # a loop, not recursion: operator chains may be thousands deep
        n = stack.pop()
        yield n
        stack.extend(reversed(list(n.children())))


def _describe(node: Node) -> str:
    """One line for `dump`: class name, the node's own scalar facts, its type and constant."""
    parts = [type(node).__name__]
    for f in fields(node):  # type: ignore[arg-type]
        v = getattr(node, f.name)
        if f.name in ("loc", "type", "const") or isinstance(v, (Node, list, tuple)) or v is None:
            continue
        if f.name in ("symbol", "variable"):
            parts.append(f"{f.name}={v.storage}:{v.name}")
        elif f.name == "signature":
            parts.append(("builtin " if v.builtin else "") + str(v))
        elif isinstance(v, (str, int, float, bool)) and v not in ("", -1, False):
            parts.append(f"{f.name}={v!r}")
    t = getattr(node, "type", None)
    if t is not None:
        parts.append(f": {t}")
    c = getattr(node, "const", None)
    if c is not None:
        parts.append(f"= {c!r}")
    return " ".join(parts)


def dump(node: Node, indent: str = "") -> str:
    """An indented text tree of `node` (for debugging and SHIMGL_DEBUG output)."""
    lines = [indent + _describe(node)]
    for c in node.children():
        lines.append(dump(c, indent + "  "))
    return "\n".join(lines)


class NodeVisitor:
    """`visit(node)` calls `visit_<ClassName>(node)`, else `generic_visit`."""

    def visit(self, node: Node) -> Any:
        return getattr(self, "visit_" + type(node).__name__, self.generic_visit)(node)

    def generic_visit(self, node: Node) -> Any:
        for c in node.children():
            self.visit(c)


# ---------------------------------------------------------------------------
# Types and qualifiers as written


@dataclass(eq=False)
class LayoutId(Node):
    """One `name` or `name = value` inside layout(...)."""

    name: str
    value: "Expression | None"
    loc: SourceLoc = SourceLoc()
    group: int = 0  # which layout(...) of the declaration it is in (0 = the first)


@dataclass(eq=False)
class TypeQualifier(Node):
    """The qualifiers written before a type, in source order in `order`."""

    storage: str | None = None  # const in out inout attribute varying uniform buffer shared
    centroid: bool = False
    sample: bool = False
    patch: bool = False
    interpolation: str | None = None  # smooth flat noperspective
    invariant: bool = False
    precise: bool = False
    precision: str | None = None  # lowp mediump highp
    memory: list[str] = field(default_factory=list)  # coherent volatile restrict readonly writeonly
    layout: list[LayoutId] = field(default_factory=list)
    # `subroutine` (a subroutine type or uniform): []; `subroutine(T1, T2)` (a function
    # of those subroutine types): the type names; None: not written
    subroutine: list[str] | None = None
    order: list[str] = field(default_factory=list)  # kinds in written order, for order rules
    loc: SourceLoc = SourceLoc()

    @property
    def empty(self) -> bool:
        return not self.order


@dataclass(eq=False)
class StructSpecifier(Node):
    name: str | None
    members: list["VariableDeclaration"]
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None


@dataclass(eq=False)
class TypeSpecifier(Node):
    """A type as written: a name (built-in or struct) or a struct body, maybe with [..]."""

    name: str | None
    struct: StructSpecifier | None = None
    array_dims: list["Expression | None"] = field(default_factory=list)  # None: unsized []
    precision: str | None = None
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None  # resolved, arrays included


# ---------------------------------------------------------------------------
# Expressions


@dataclass(eq=False)
class Expression(Node):
    pass


@dataclass(eq=False)
class Literal(Expression):
    """true/false, 1, 1u, 1.0, 1.0lf. `type` is set by the parser."""

    value: Any
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class VariableRef(Expression):
    name: str
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None
    symbol: Any = None  # symbols.Variable


@dataclass(eq=False)
class Unary(Expression):
    """op: '-', '+', '!', '~', or prefix '++' / '--'."""

    op: str
    operand: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Postfix(Expression):
    """op: postfix '++' / '--'."""

    op: str
    operand: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Binary(Expression):
    """op: * / % + - << >> < > <= >= == != & ^ | && ^^ ||."""

    op: str
    left: Expression
    right: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Assignment(Expression):
    """op: '=' or a compound '+=' ... ; `value` is already converted to the target's type."""

    op: str
    target: Expression
    value: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Conditional(Expression):
    condition: Expression
    true_expr: Expression
    false_expr: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Sequence(Expression):
    """The comma operator; the value is the last expression's."""

    expressions: list[Expression]
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Index(Expression):
    """a[i] on arrays, vectors (a component) and matrices (a column)."""

    base: Expression
    index: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class FieldAccess(Expression):
    """s.member on a struct or an interface block instance; `field_index` after analysis."""

    base: Expression
    field: str
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None
    field_index: int = -1


@dataclass(eq=False)
class Swizzle(Expression):
    """v.xyz: `components` are indices 0-3 into the base vector (or scalar)."""

    base: Expression
    name: str
    components: tuple[int, ...] = ()
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Call(Expression):
    """A call as parsed: a function name or a constructor type (`type_spec`)."""

    name: str
    args: list[Expression]
    type_spec: TypeSpecifier | None = None
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None
    selector: Expression | None = None   # `u[i](...)`: the element of subroutine uniform array u


@dataclass(eq=False)
class SubroutineCall(Expression):
    """A call through a subroutine uniform (GLSL 4.60 section 6.1.2): ``selector`` (the
    uniform or an element of a uniform array; a uint holding a subroutine index) picks
    which of ``calls`` runs: ``calls[k]`` calls the compatible function whose index is
    ``indices[k]``, with the call's arguments (exactly one of them runs)."""

    selector: Expression
    calls: list["FunctionCall"]
    indices: list[int]
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class MethodCall(Expression):
    """base.name(args) as parsed; only `length()` exists in GLSL."""

    base: Expression
    name: str
    args: list[Expression]
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class FunctionCall(Expression):
    """A resolved call. `signature.builtin` tells built-in functions apart.

    Arguments are converted to the parameter types (for `in` parameters);
    `out`/`inout` arguments are l-values of exactly the parameter type.
    """

    signature: Any  # symbols.FunctionSignature
    args: list[Expression]
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None

    @property
    def name(self) -> str:
        return self.signature.name

    @property
    def is_builtin(self) -> bool:
        return self.signature.builtin


@dataclass(eq=False)
class Constructor(Expression):
    """type(args): scalar/vector/matrix conversion and assembly, struct or array."""

    args: list[Expression]
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class ArrayLength(Expression):
    """a.length(); `const` is set unless the array is unsized (an SSBO's last member)."""

    base: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


@dataclass(eq=False)
class Conversion(Expression):
    """An implicit conversion inserted by semantic analysis (int -> float, ...)."""

    operand: Expression
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    const: Any = None


# ---------------------------------------------------------------------------
# Declarations


@dataclass(eq=False)
class Declarator(Node):
    """One name of a declaration: `a[3] = init`. `variable` after analysis.

    Members of structs and interface blocks are Declarators too; they have no
    `variable` (they are fields of the struct or block type; the variables of
    an instance-less block are in `InterfaceBlock.member_variables`).
    A global array declared without size (desktop GLSL allows it) gets, at the
    end of analysis, the size implied by the largest constant index used (as
    Mesa's linker does); only a storage block's last member stays unsized.
    """

    name: str
    array_dims: list[Expression | None] = field(default_factory=list)
    initializer: Expression | None = None
    loc: SourceLoc = SourceLoc()
    variable: Any = None  # symbols.Variable


@dataclass(eq=False)
class VariableDeclaration(Node):
    """`qualifier type a, b[2] = ...;` (no declarators: a bare struct definition)."""

    qualifier: TypeQualifier
    type_spec: TypeSpecifier
    declarators: list[Declarator]
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class ParameterDeclaration(Node):
    qualifier: TypeQualifier
    type_spec: TypeSpecifier
    name: str | None
    array_dims: list[Expression | None] = field(default_factory=list)
    loc: SourceLoc = SourceLoc()
    variable: Any = None  # symbols.Variable (direction in variable.storage)


@dataclass(eq=False)
class FunctionPrototype(Node):
    return_qualifier: TypeQualifier
    return_type: TypeSpecifier
    name: str
    parameters: list[ParameterDeclaration]
    loc: SourceLoc = SourceLoc()
    signature: Any = None  # symbols.FunctionSignature


@dataclass(eq=False)
class FunctionDeclaration(Node):
    """A prototype without body."""

    prototype: FunctionPrototype
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class FunctionDefinition(Node):
    prototype: FunctionPrototype
    body: "CompoundStatement"
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class InterfaceBlock(Node):
    """`qualifier BlockName { members } instance[dims];` (uniform/buffer/in/out).

    After analysis: `type` is the block type; `variable` is the instance
    variable, or None for a block without instance name, whose members are then
    global variables (`member_variables`) with `variable.block` set.
    """

    qualifier: TypeQualifier
    block_name: str
    members: list[VariableDeclaration]
    instance_name: str | None = None
    array_dims: list[Expression | None] = field(default_factory=list)
    loc: SourceLoc = SourceLoc()
    type: GLSLType | None = None
    variable: Any = None
    member_variables: list = field(default_factory=list)


@dataclass(eq=False)
class PrecisionDeclaration(Node):
    """`precision highp float;`"""

    precision: str
    type_spec: TypeSpecifier
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class QualifierDeclaration(Node):
    """Qualifiers alone: `invariant gl_Position;`, `layout(local_size_x = 8) in;`."""

    qualifier: TypeQualifier
    names: list[tuple[str, SourceLoc]] = field(default_factory=list)
    loc: SourceLoc = SourceLoc()
    variables: list = field(default_factory=list)


# ---------------------------------------------------------------------------
# Statements


@dataclass(eq=False)
class Statement(Node):
    pass


@dataclass(eq=False)
class CompoundStatement(Statement):
    statements: list[Statement]
    loc: SourceLoc = SourceLoc()
    new_scope: bool = True


@dataclass(eq=False)
class DeclarationStatement(Statement):
    declaration: Node  # VariableDeclaration or PrecisionDeclaration or QualifierDeclaration
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class ExpressionStatement(Statement):
    expression: Expression | None  # None: the empty statement `;`
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class ConditionDeclaration(Node):
    """`while (bool b = f())`, `for (; int i = g(); )`: declares and tests."""

    type_spec: TypeSpecifier
    name: str
    initializer: Expression
    qualifier: TypeQualifier = field(default_factory=TypeQualifier)
    loc: SourceLoc = SourceLoc()
    variable: Any = None


@dataclass(eq=False)
class If(Statement):
    condition: Expression
    then: Statement
    otherwise: Statement | None = None
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class Switch(Statement):
    """`body` holds CaseLabel statements between ordinary statements."""

    selector: Expression
    body: CompoundStatement
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class CaseLabel(Statement):
    """`case value:` (`value` folded into `const`) or `default:` (value None)."""

    value: Expression | None
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class While(Statement):
    condition: Expression | ConditionDeclaration
    body: Statement
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class DoWhile(Statement):
    body: Statement
    condition: Expression
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class For(Statement):
    """The init statement's names are scoped to the loop."""

    init: Statement | None
    condition: Expression | ConditionDeclaration | None
    step: Expression | None
    body: Statement
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class Return(Statement):
    value: Expression | None = None
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class Break(Statement):
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class Continue(Statement):
    loc: SourceLoc = SourceLoc()


@dataclass(eq=False)
class Discard(Statement):
    loc: SourceLoc = SourceLoc()


# ---------------------------------------------------------------------------
# The whole shader


@dataclass(eq=False)
class TranslationUnit(Node):
    """One compiled shader.

    declarations: the external declarations in source order.
    After analysis:
      globals: every user global variable (uniforms, inputs, outputs, ...),
               block members of instance-less blocks included;
      builtin_variables: the built-in variables the shader uses (gl_Position, ...)
      functions: user function signatures, in declaration order;
      builtin_functions: built-in signatures the shader calls;
      main: the signature of `void main()`;
      local_size: compute work-group size, or None.
    """

    version: Any  # versions.GLSLVersion
    stage: str  # "vertex", "fragment", "compute"
    declarations: list[Node]
    extensions: dict[str, str] = field(default_factory=dict)
    loc: SourceLoc = SourceLoc()
    globals: list = field(default_factory=list)
    builtin_variables: list = field(default_factory=list)
    functions: list = field(default_factory=list)
    builtin_functions: list = field(default_factory=list)
    interface_blocks: list = field(default_factory=list)
    main: Any = None
    local_size: tuple[int, int, int] | None = None
    geometry: Any = None  # geometry stage: compiler.glsl.geometry.GeometryLayout
    tessellation: Any = None  # tessellation stages: compiler.glsl.tessellation.TessLayout
    invariant_all: bool = False
    early_fragment_tests: bool = False  # fragment: layout(early_fragment_tests) in (GLSL 4.60 section 4.4.1.3)
    post_depth_coverage: bool = False   # fragment: layout(post_depth_coverage) in (ARB_post_depth_coverage)
    subroutines: Any = None  # compiler.glsl.subroutines.SubroutineInfo, when the shader has any
    info_log: str = ""  # warnings of a successful compilation
    # (signature, loc) of calls to functions declared without a body, in a unit parsed as
    # a shader object (parse(shader_object=True)): another object of the stage may define them
    unresolved_calls: list = field(default_factory=list)
