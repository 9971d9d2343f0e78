"""Hand-written recursive-descent parser: tokens -> untyped AST (see ast.py).

Why by hand: GLSL's grammar is ambiguous without the symbol table (`S (x);`
is a constructor call when S is a struct name and a call otherwise), so the
parser keeps the scoped set of type names it has seen; recursive descent also
gives precise `0:LINE(COL)` locations for every message. Binary operators
are parsed by precedence climbing over the levels of the GLSL specification
(section 5.1); unary, postfix, conditional and assignment have their own
functions.

The parser reports the first syntax error in the bison style of Mesa
(``syntax error, unexpected X, expecting Y``) and stops.
"""

from __future__ import annotations

from compiler.scope import MAX_LOOP_DEPTH, MAX_NESTING_DEPTH

from . import ast as A
from .errors import FatalError, InfoLog, SourceLoc
from .lexer import Token
from .types import DOUBLE, FLOAT, INT, INT64, UINT, UINT64, BOOL

STORAGE = {"const", "in", "out", "inout", "attribute", "varying", "uniform", "buffer", "shared"}
INTERPOLATION = {"smooth", "flat", "noperspective"}
PRECISION = {"lowp", "mediump", "highp"}
MEMORY = {"coherent", "volatile", "restrict", "readonly", "writeonly"}
AUXILIARY = {"centroid", "sample", "patch"}
QUALIFIER_WORDS = STORAGE | INTERPOLATION | PRECISION | MEMORY | AUXILIARY | {
    "layout", "invariant", "precise", "subroutine"}

ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="}
# Binary operators by precedence, lowest first (GLSL spec 5.1).
BINARY_LEVELS = [("||",), ("^^",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="),
                 ("<", ">", "<=", ">="), ("<<", ">>"), ("+", "-"), ("*", "/", "%")]
_BINARY_LEVEL = {op: level for level, ops in enumerate(BINARY_LEVELS) for op in ops}

_LITERAL_TYPES = {"int": INT, "uint": UINT, "float": FLOAT, "double": DOUBLE, "bool": BOOL, "int64": INT64,
                  "uint64": UINT64}


def _describe(tok: Token) -> str:
    """How bison names a token in Mesa's messages."""
    if tok.kind == "punct":
        return f"'{tok.text}'" if len(tok.text) == 1 else {
            "++": "INC_OP", "--": "DEC_OP", "<=": "LE_OP", ">=": "GE_OP", "==": "EQ_OP",
            "!=": "NE_OP", "&&": "AND_OP", "||": "OR_OP", "^^": "XOR_OP", "<<": "LEFT_OP",
            ">>": "RIGHT_OP", "*=": "MUL_ASSIGN", "/=": "DIV_ASSIGN", "%=": "MOD_ASSIGN",
            "+=": "ADD_ASSIGN", "-=": "SUB_ASSIGN", "<<=": "LEFT_ASSIGN", ">>=": "RIGHT_ASSIGN",
            "&=": "AND_ASSIGN", "^=": "XOR_ASSIGN", "|=": "OR_ASSIGN"}[tok.text]
    if tok.kind == "ident":
        return "NEW_IDENTIFIER"
    if tok.kind in ("int", "uint", "float", "double", "bool", "int64", "uint64"):
        return {"int": "INTCONSTANT", "uint": "UINTCONSTANT", "float": "FLOATCONSTANT",
                "double": "DOUBLECONSTANT", "bool": "BOOLCONSTANT", "int64": "INT64CONSTANT",
                "uint64": "UINT64CONSTANT"}[tok.kind]
    if tok.kind == "eof":
        return "end of file"
    if tok.kind == "type":
        return "BASIC_TYPE_TOK"
    return tok.text.upper()


class Parser:
    def __init__(self, tokens: list[Token], log: InfoLog):
        self.toks = tokens
        self.i = 0
        self.log = log
        # name -> True (type name) / False (non-type) per scope; index 0 = global
        self.type_scopes: list[dict[str, bool]] = [{}]
        # open nested constructs (expressions, unary operators, initializer lists,
        # statements); bounded by MAX_NESTING_DEPTH (see limits.py)
        self.depth = 0
        self.loop_depth = 0     # open loop statements, bounded by MAX_LOOP_DEPTH

    # -- token helpers -------------------------------------------------------

    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def peek(self, n: int = 1) -> Token:
        return self.toks[min(self.i + n, len(self.toks) - 1)]

    def at(self, text: str) -> bool:
        t = self.tok
        return t.text == text and t.kind in ("punct", "keyword")

    def accept(self, text: str) -> Token | None:
        if self.at(text):
            t = self.tok
            self.i += 1
            return t
        return None

    def expect(self, text: str) -> Token:
        t = self.accept(text)
        if t is None:
            self.syntax_error(f"'{text}'" if len(text) == 1 else text.upper())
        return t

    def advance(self) -> Token:
        t = self.tok
        self.i += 1
        return t

    def syntax_error(self, expecting: str | None = None, tok: Token | None = None):
        tok = tok or self.tok
        msg = f"syntax error, unexpected {_describe(tok)}"
        if expecting:
            msg += f", expecting {expecting}"
        self.log.error(tok.loc, msg)
        raise FatalError(msg)

    def enter(self) -> None:
        """One more level of nesting; a compile error past MAX_NESTING_DEPTH. Every
        caller calls `leave` on its normal exit (a FatalError ends the parse)."""
        self.depth += 1
        if self.depth > MAX_NESTING_DEPTH:
            msg = (f"nesting too deep: more than {MAX_NESTING_DEPTH} levels of nested "
                   f"expressions and statements")
            self.log.error(self.tok.loc, msg)
            raise FatalError(msg)

    def leave(self) -> None:
        self.depth -= 1

    def enter_loop(self, tok: Token) -> None:
        self.loop_depth += 1
        if self.loop_depth > MAX_LOOP_DEPTH:
            msg = f"loops nested too deep: more than {MAX_LOOP_DEPTH} levels"
            self.log.error(tok.loc, msg)
            raise FatalError(msg)

    def expect_ident(self) -> Token:
        t = self.tok
        if t.kind != "ident":
            self.syntax_error("IDENTIFIER" if t.kind != "type" else None)
        self.i += 1
        return t

    # -- type-name scopes ----------------------------------------------------

    def is_type_name(self, tok: Token) -> bool:
        if tok.kind == "type":
            return True
        if tok.kind != "ident":
            return False
        for scope in reversed(self.type_scopes):
            if tok.text in scope:
                return scope[tok.text]
        return False

    def declare_name(self, name: str, is_type: bool) -> None:
        self.type_scopes[-1][name] = is_type

    def push_scope(self):
        self.type_scopes.append({})

    def pop_scope(self):
        self.type_scopes.pop()

    # -- translation unit ----------------------------------------------------

    def parse_translation_unit(self) -> list[A.Node]:
        decls = []
        while self.tok.kind != "eof":
            if self.accept(";"):
                continue  # stray semicolons are accepted at global scope (as Mesa does)
            decls.append(self.external_declaration())
        return decls

    def external_declaration(self) -> A.Node:
        return self.declaration(global_scope=True)

    # -- qualifiers ----------------------------------------------------------

    def at_qualifier(self) -> bool:
        t = self.tok
        return t.kind == "keyword" and t.text in QUALIFIER_WORDS

    def type_qualifier(self) -> A.TypeQualifier:
        q = A.TypeQualifier(loc=self.tok.loc)
        while self.at_qualifier():
            t = self.advance()
            w = t.text
            if w == "layout":
                self.expect("(")
                while True:
                    nt = self.tok
                    if nt.kind not in ("ident", "keyword"):
                        self.syntax_error("IDENTIFIER")
                    self.i += 1
                    value = None
                    if self.accept("="):
                        value = self.conditional_expression()
                    q.layout.append(A.LayoutId(nt.text, value, nt.loc, q.order.count("layout")))
                    if not self.accept(","):
                        break
                self.expect(")")
                q.order.append("layout")
            elif w in STORAGE:
                # "const in" (parameters) and EXT_gpu_shader4's "varying out" (fragment
                # outputs, checked with the extension in qualifiers.py) are one qualifier
                pair = (q.storage, w) in (("const", "in"), ("varying", "out"))
                if q.storage is not None and not pair:
                    self.log.error(t.loc, "duplicate storage qualifier" if q.storage == w else
                                   "multiple storage qualifiers are not allowed")
                q.storage = f"{q.storage} {w}" if pair else w
                q.order.append("storage")
            elif w in AUXILIARY:
                setattr(q, w, True)
                q.order.append("auxiliary")
            elif w in INTERPOLATION:
                if q.interpolation is not None:
                    self.log.error(t.loc, "duplicate interpolation qualifier")
                q.interpolation = w
                q.order.append("interpolation")
            elif w in PRECISION:
                if q.precision is not None:
                    self.log.error(t.loc, "duplicate precision qualifier")
                q.precision = w
                q.order.append("precision")
            elif w in MEMORY:
                q.memory.append(w)
                q.order.append("memory")
            elif w == "invariant":
                q.invariant = True
                q.order.append("invariant")
            elif w == "precise":
                q.precise = True
                q.order.append("precise")
            elif w == "subroutine":
                # `subroutine` (type or uniform) or `subroutine(T1, T2, ...)` (a function)
                if q.subroutine is not None:
                    self.log.error(t.loc, "duplicate subroutine qualifier")
                names: list[str] = []
                if self.accept("("):
                    while True:
                        nt = self.tok
                        if nt.kind not in ("ident", "type"):
                            self.syntax_error("IDENTIFIER")
                        self.i += 1
                        names.append(nt.text)
                        if not self.accept(","):
                            break
                    self.expect(")")
                q.subroutine = names
                q.order.append("subroutine")
        return q

    # -- types ---------------------------------------------------------------

    def at_type_specifier(self) -> bool:
        return self.is_type_name(self.tok) or self.at("struct") or self.at("void")

    def type_specifier(self, precision: str | None = None) -> A.TypeSpecifier:
        t = self.tok
        if self.at("struct"):
            spec = A.TypeSpecifier(None, struct=self.struct_specifier(), loc=t.loc)
        elif self.is_type_name(t) or self.at("void"):
            self.i += 1
            spec = A.TypeSpecifier(t.text, loc=t.loc)
        else:
            self.syntax_error()
        spec.precision = precision
        spec.array_dims = self.array_dims()
        return spec

    def array_dims(self) -> list[A.Expression | None]:
        dims: list[A.Expression | None] = []
        while self.at("["):
            self.advance()
            if self.accept("]"):
                dims.append(None)
                continue
            dims.append(self.conditional_expression())
            self.expect("]")
        return dims

    def struct_specifier(self) -> A.StructSpecifier:
        self.enter()
        spec = self._struct_specifier()
        self.leave()
        return spec

    def _struct_specifier(self) -> A.StructSpecifier:
        loc = self.expect("struct").loc
        name = None
        if self.tok.kind in ("ident", "type") and not self.at("{"):
            nt = self.advance()
            if nt.kind == "type":
                self.log.error(nt.loc, f"syntax error, unexpected BASIC_TYPE_TOK, expecting '{{'")
                raise FatalError("struct name")
            name = nt.text
        self.expect("{")
        members = []
        while not self.at("}"):
            mloc = self.tok.loc
            q = self.type_qualifier()
            spec = self.type_specifier()
            decls = [self.member_declarator()]
            while self.accept(","):
                decls.append(self.member_declarator())
            self.expect(";")
            members.append(A.VariableDeclaration(q, spec, decls, mloc))
        self.expect("}")
        if name:
            self.declare_name(name, True)
        return A.StructSpecifier(name, members, loc)

    def member_declarator(self) -> A.Declarator:
        nt = self.expect_ident()
        return A.Declarator(nt.text, self.array_dims(), None, nt.loc)

    # -- declarations --------------------------------------------------------

    def at_declaration(self) -> bool:
        """At a statement: does a declaration (not an expression) start here?"""
        t = self.tok
        if self.at_qualifier() or self.at("struct") or self.at("precision"):
            return True
        if not (self.is_type_name(t) or self.at("void")):
            return False
        j = self.i + 1
        depth = 0
        while j < len(self.toks) - 1:  # skip [..] after the type name (never past eof)
            tt = self.toks[j]
            if tt.text == "[" and tt.kind == "punct":
                depth += 1
            elif tt.text == "]" and tt.kind == "punct":
                depth -= 1
            elif depth == 0:
                break
            j += 1
        nxt = self.toks[j]
        return nxt.kind in ("ident", "type") or (nxt.kind == "punct" and nxt.text == ";")

    def declaration(self, global_scope: bool = False) -> A.Node:
        start = self.tok
        if self.at("precision"):
            self.advance()
            pt = self.tok
            if not (pt.kind == "keyword" and pt.text in PRECISION):
                self.syntax_error("LOWP or MEDIUMP or HIGHP")
            self.advance()
            spec = self.type_specifier()
            self.expect(";")
            return A.PrecisionDeclaration(pt.text, spec, start.loc)
        q = self.type_qualifier()
        if not q.empty:
            if self.at(";"):
                self.advance()
                return A.QualifierDeclaration(q, [], start.loc)
            t = self.tok
            if t.kind == "ident" and not self.is_type_name(t):
                nxt = self.peek()
                if nxt.text == "{":
                    return self.interface_block(q, start.loc)
                if nxt.text in (",", ";"):
                    names = [(self.advance().text, t.loc)]
                    while self.accept(","):
                        nt = self.expect_ident()
                        names.append((nt.text, nt.loc))
                    self.expect(";")
                    return A.QualifierDeclaration(q, names, start.loc)
        if not self.at_type_specifier():
            self.syntax_error()
        spec = self.type_specifier()
        if self.accept(";"):
            return A.VariableDeclaration(q, spec, [], start.loc)
        name_tok = self.expect_ident()
        if self.at("("):
            proto = self.function_prototype(q, spec, name_tok, start.loc)
            if self.at("{"):
                if not global_scope:
                    self.syntax_error("';'")
                body = self.compound_statement(new_scope=False, function_params=proto)
                return A.FunctionDefinition(proto, body, start.loc)
            self.expect(";")
            if q.subroutine == [] and global_scope:
                self.declare_name(name_tok.text, True)      # a subroutine type: a type name from here
            return A.FunctionDeclaration(proto, start.loc)
        decls = [self.init_declarator(name_tok)]
        while self.accept(","):
            decls.append(self.init_declarator(self.expect_ident()))
        if not self.at(";"):
            self.syntax_error("',' or ';'")
        self.advance()
        return A.VariableDeclaration(q, spec, decls, start.loc)

    def init_declarator(self, name_tok: Token) -> A.Declarator:
        dims = self.array_dims()
        init = None
        if self.accept("="):
            init = self.initializer()
        self.declare_name(name_tok.text, False)
        return A.Declarator(name_tok.text, dims, init, name_tok.loc)

    def initializer(self) -> A.Expression:
        self.enter()
        e = self._initializer()
        self.leave()
        return e

    def _initializer(self) -> A.Expression:
        if self.at("{"):
            # GLSL 4.20 / ARB_shading_language_420pack initializer lists; kept as a
            # Call with name "{}" that semantic analysis types from the declaration.
            loc = self.advance().loc
            items = [self.initializer()]
            while self.accept(","):
                if self.at("}"):
                    break
                items.append(self.initializer())
            self.expect("}")
            return A.Call("{}", items, None, loc)
        return self.assignment_expression()

    def interface_block(self, q: A.TypeQualifier, loc: SourceLoc) -> A.InterfaceBlock:
        name = self.advance().text
        self.expect("{")
        members = []
        while not self.at("}"):
            mloc = self.tok.loc
            mq = self.type_qualifier()
            spec = self.type_specifier()      # a struct definition here: the version decides (semantic)
            decls = [self.member_declarator()]
            while self.accept(","):
                decls.append(self.member_declarator())
            self.expect(";")
            members.append(A.VariableDeclaration(mq, spec, decls, mloc))
        self.expect("}")
        instance = None
        dims: list = []
        if self.tok.kind == "ident":
            it = self.advance()
            instance = it.text
            dims = self.array_dims()
            self.declare_name(instance, False)
        self.expect(";")
        return A.InterfaceBlock(q, name, members, instance, dims, loc)

    def function_prototype(self, q, spec, name_tok, loc) -> A.FunctionPrototype:
        self.expect("(")
        params: list[A.ParameterDeclaration] = []
        if self.at("void") and self.peek().text == ")":
            self.advance()
        elif not self.at(")"):
            params.append(self.parameter())
            while self.accept(","):
                params.append(self.parameter())
        self.expect(")")
        return A.FunctionPrototype(q, spec, name_tok.text, params, loc)

    def parameter(self) -> A.ParameterDeclaration:
        loc = self.tok.loc
        q = self.type_qualifier()
        spec = self.type_specifier()
        name = None
        dims: list = []
        if self.tok.kind == "ident":
            name = self.advance().text
            dims = self.array_dims()
        return A.ParameterDeclaration(q, spec, name, dims, loc)

    # -- statements ----------------------------------------------------------

    def compound_statement(self, new_scope: bool = True, function_params=None) -> A.CompoundStatement:
        loc = self.expect("{").loc
        self.push_scope()
        if function_params is not None:
            for p in function_params.parameters:
                if p.name:
                    self.declare_name(p.name, False)
        stmts = []
        while not self.at("}"):
            if self.tok.kind == "eof":
                self.syntax_error()
            stmts.append(self.statement())
        self.advance()
        self.pop_scope()
        return A.CompoundStatement(stmts, loc, new_scope)

    def statement(self) -> A.Statement:
        self.enter()
        s = self._statement()
        self.leave()
        return s

    def _statement(self) -> A.Statement:
        t = self.tok
        if t.kind == "keyword" and t.text in ("while", "do", "for"):
            self.enter_loop(t)
            s = self._statement_kinds()
            self.loop_depth -= 1
            return s
        return self._statement_kinds()

    def _statement_kinds(self) -> A.Statement:
        t = self.tok
        if t.kind == "keyword":
            w = t.text
            if w == "if":
                self.advance()
                self.expect("(")
                cond = self.expression()
                self.expect(")")
                then = self.scoped_statement()
                other = self.scoped_statement() if self.accept("else") else None
                return A.If(cond, then, other, t.loc)
            if w == "switch":
                self.advance()
                self.expect("(")
                sel = self.expression()
                self.expect(")")
                body = self.compound_statement()
                return A.Switch(sel, body, t.loc)
            if w == "case":
                self.advance()
                value = self.expression()
                self.expect(":")
                return A.CaseLabel(value, t.loc)
            if w == "default":
                self.advance()
                self.expect(":")
                return A.CaseLabel(None, t.loc)
            if w == "while":
                self.advance()
                self.expect("(")
                self.push_scope()
                cond = self.condition()
                self.expect(")")
                body = self.statement_no_new_scope()
                self.pop_scope()
                return A.While(cond, body, t.loc)
            if w == "do":
                self.advance()
                body = self.scoped_statement()
                self.expect("while")
                self.expect("(")
                cond = self.expression()
                self.expect(")")
                self.expect(";")
                return A.DoWhile(body, cond, t.loc)
            if w == "for":
                self.advance()
                self.expect("(")
                self.push_scope()
                if self.accept(";"):
                    init = None
                elif self.at_declaration():
                    init = A.DeclarationStatement(self.declaration(), self.tok.loc)
                else:
                    e = self.expression()
                    self.expect(";")
                    init = A.ExpressionStatement(e, e.loc)
                cond = None if self.at(";") else self.condition()
                self.expect(";")
                step = None if self.at(")") else self.expression()
                self.expect(")")
                body = self.statement_no_new_scope()
                self.pop_scope()
                return A.For(init, cond, step, body, t.loc)
            if w == "return":
                self.advance()
                value = None if self.at(";") else self.expression()
                self.expect(";")
                return A.Return(value, t.loc)
            if w in ("break", "continue", "discard"):
                self.advance()
                self.expect(";")
                return {"break": A.Break, "continue": A.Continue, "discard": A.Discard}[w](t.loc)
        if self.at("{"):
            return self.compound_statement()
        if self.accept(";"):
            return A.ExpressionStatement(None, t.loc)
        if self.at_declaration():
            return A.DeclarationStatement(self.declaration(), t.loc)
        e = self.expression()
        if not self.at(";"):
            self.syntax_error("',' or ';'" if self.tok.kind != "eof" else None)
        self.advance()
        return A.ExpressionStatement(e, t.loc)

    def scoped_statement(self) -> A.Statement:
        """A sub-statement (if/else/do body): it has its own scope."""
        self.push_scope()
        s = self.statement()
        self.pop_scope()
        return s

    def statement_no_new_scope(self) -> A.Statement:
        """A loop body: a compound body shares the scope of the loop header."""
        if self.at("{"):
            loc = self.advance().loc
            stmts = []
            while not self.at("}"):
                if self.tok.kind == "eof":
                    self.syntax_error()
                stmts.append(self.statement())
            self.advance()
            return A.CompoundStatement(stmts, loc, new_scope=False)
        return self.statement()

    def condition(self) -> A.Expression | A.ConditionDeclaration:
        if self.at_declaration():
            loc = self.tok.loc
            q = self.type_qualifier()
            spec = self.type_specifier()
            nt = self.expect_ident()
            self.expect("=")
            init = self.initializer()
            self.declare_name(nt.text, False)
            return A.ConditionDeclaration(spec, nt.text, init, q, loc)
        return self.expression()

    # -- expressions ---------------------------------------------------------

    def expression(self) -> A.Expression:
        e = self.assignment_expression()
        if not self.at(","):
            return e
        items = [e]
        while self.accept(","):
            items.append(self.assignment_expression())
        return A.Sequence(items, e.loc)

    def assignment_expression(self) -> A.Expression:
        self.enter()
        left = self.conditional_expression()
        t = self.tok
        if t.kind == "punct" and t.text in ASSIGN_OPS:
            self.advance()
            right = self.assignment_expression()
            left = A.Assignment(t.text, left, right, left.loc)
        self.leave()
        return left

    def conditional_expression(self) -> A.Expression:
        cond = self.binary(0)
        if self.accept("?"):
            a = self.expression()
            self.expect(":")
            b = self.assignment_expression()
            return A.Conditional(cond, a, b, cond.loc)
        return cond

    def binary(self, min_level: int) -> A.Expression:
        """Precedence climbing over BINARY_LEVELS; every binary operator is left-associative."""
        left = self.unary()
        while True:
            t = self.tok
            level = _BINARY_LEVEL.get(t.text) if t.kind == "punct" else None
            if level is None or level < min_level:
                return left
            self.i += 1
            right = self.binary(level + 1)
            left = A.Binary(t.text, left, right, left.loc)

    def unary(self) -> A.Expression:
        t = self.tok
        if t.kind == "punct" and t.text in ("++", "--", "+", "-", "!", "~"):
            self.advance()
            self.enter()
            e = A.Unary(t.text, self.unary(), t.loc)
            self.leave()
            return e
        return self.postfix()

    def postfix(self) -> A.Expression:
        e = self.primary()
        while True:
            t = self.tok
            if self.at("["):
                self.advance()
                idx = self.expression()
                self.expect("]")
                e = A.Index(e, idx, e.loc)
            elif self.at("."):
                self.advance()
                nt = self.tok
                if nt.kind not in ("ident", "type", "keyword"):
                    self.syntax_error("IDENTIFIER")
                self.advance()
                if self.at("("):
                    args = self.call_arguments()
                    e = A.MethodCall(e, nt.text, args, e.loc)
                else:
                    e = A.FieldAccess(e, nt.text, e.loc)
            elif t.kind == "punct" and t.text in ("++", "--"):
                self.advance()
                e = A.Postfix(t.text, e, e.loc)
            elif self.at("(") and isinstance(e, A.Index) and isinstance(e.base, A.VariableRef):
                # `u[i](args)`: a call through an element of a subroutine uniform array
                e = A.Call(e.base.name, self.call_arguments(), None, e.loc, selector=e)
            else:
                return e

    def call_arguments(self) -> list[A.Expression]:
        self.expect("(")
        args: list[A.Expression] = []
        if self.at("void") and self.peek().text == ")":
            self.advance()
        elif not self.at(")"):
            args.append(self.assignment_expression())
            while self.accept(","):
                args.append(self.assignment_expression())
        self.expect(")")
        return args

    def primary(self) -> A.Expression:
        t = self.tok
        if t.kind in _LITERAL_TYPES:
            self.advance()
            return A.Literal(t.value, t.loc, type=_LITERAL_TYPES[t.kind])
        if self.at("("):
            self.advance()
            e = self.expression()
            self.expect(")")
            return e
        if self.is_type_name(t) or self.at("struct"):
            spec = self.type_specifier()
            if not self.at("("):
                self.syntax_error("'('")
            args = self.call_arguments()
            return A.Call(spec.name or "", args, spec, t.loc)
        if t.kind == "ident":
            self.advance()
            if self.at("("):
                args = self.call_arguments()
                return A.Call(t.text, args, None, t.loc)
            return A.VariableRef(t.text, t.loc)
        self.syntax_error()


def parse_tokens(tokens: list[Token], log: InfoLog) -> list[A.Node]:
    """Parse a token list into external declarations; raises FatalError on a syntax error."""
    return Parser(tokens, log).parse_translation_unit()
