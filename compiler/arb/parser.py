"""Recursive-descent parser and semantic checks of !!ARBvp1.0 / !!ARBfp1.0.

``parse_program(text, limits=None) -> Program`` or raises ``ARBProgramError``
(byte offset + message). The grammar and the rules checked are those of the
GL_ARB_vertex_program and GL_ARB_fragment_program specifications:

- the header at byte 0, OPTIONs before any other statement (vertex:
  ARB_position_invariant; fragment: ARB_fog_linear/exp/exp2 (one of them),
  ARB_precision_hint_fastest/nicest (one of them), ARB_draw_buffers), END;
  text after END is ignored;
- declarations (ATTRIB, PARAM single/array with sizes checked against the
  initialiser, TEMP, ADDRESS (vertex), OUTPUT, ALIAS), unique names that are not
  reserved words of the program's language;
- every instruction of each language with its operand forms: scalar operands
  need a one-component suffix, SWZ takes an extended swizzle (one component set),
  ARL writes only an address register's .x, TEX/TXP/TXB name a texture unit
  and target (one target per unit; SHADOW1D/2D/RECT with OPTION
  ARB_fragment_program_shadow), _SAT only in fragment programs;
- sources: temporaries, attributes (named or inline bindings), parameters
  (named, indexed, relative ``a[A0.x + k]`` in vertex programs with
  -address_offset <= k < address_offset (the grammar's -64..63 widened as Mesa does),
  inline state, program.env/local, constants); no reads of outputs or address
  registers; destinations: temporaries and outputs only;
- a vertex program may not use a conventional attribute and the generic one it
  aliases; ARB_position_invariant programs may not write result.position;
- limits (instructions, ALU/TEX instructions, temporaries, parameters, attribs,
  address registers, env/local indices, texture units and coordinates).
"""

from __future__ import annotations

from .lexer import ARBProgramError, Token, tokenize
from .program import ATTRIB_ALIASES, Dst, Instruction, Limits, ParamArray, ParamBinding, Program, Src

__all__ = ["parse_program", "VERTEX_OPCODES", "FRAGMENT_OPCODES"]

# opcode -> operand form: v = vector source, s = scalar source; "swz", "arl", "tex", "kil".
_COMMON = {"ABS": "v", "FLR": "v", "FRC": "v", "LIT": "v", "MOV": "v",
           "EX2": "s", "LG2": "s", "RCP": "s", "RSQ": "s", "POW": "ss",
           **{op: "vv" for op in ("ADD", "DP3", "DP4", "DPH", "DST", "MAX", "MIN", "MUL", "SGE", "SLT", "SUB",
                                  "XPD")},
           "MAD": "vvv", "SWZ": "swz"}
VERTEX_OPCODES = {**_COMMON, "EXP": "s", "LOG": "s", "ARL": "arl"}
FRAGMENT_OPCODES = {**_COMMON, "COS": "s", "SIN": "s", "SCS": "s", "CMP": "vvv", "LRP": "vvv",
                    "TEX": "tex", "TXP": "tex", "TXB": "tex", "KIL": "kil"}
_TEX_TARGETS = ("1D", "2D", "3D", "CUBE", "RECT")
_SHADOW_TARGETS = ("SHADOW1D", "SHADOW2D", "SHADOWRECT")      # OPTION ARB_fragment_program_shadow

_VERTEX_RESERVED = set(VERTEX_OPCODES) | {"ADDRESS", "ALIAS", "ATTRIB", "END", "OPTION", "OUTPUT", "PARAM",
                                          "TEMP", "program", "result", "state", "vertex"}
_FRAGMENT_RESERVED = set(FRAGMENT_OPCODES) | {op + "_SAT" for op in FRAGMENT_OPCODES} | {
    "ALIAS", "ATTRIB", "END", "OPTION", "OUTPUT", "PARAM", "TEMP", "fragment", "program", "result", "state",
    "texture", "CUBE", "RECT"}

_OPTIONS = {"vertex": {"ARB_position_invariant"},
            "fragment": {"ARB_fog_linear", "ARB_fog_exp", "ARB_fog_exp2", "ARB_precision_hint_fastest",
                         "ARB_precision_hint_nicest", "ARB_draw_buffers", "ARB_fragment_program_shadow",
                         # ATI_draw_buffers' name of ARB_draw_buffers' option (the same result.color[n])
                         "ATI_draw_buffers",
                         # ARB_fragment_coord_conventions: fragment.position's origin and centre
                         "ARB_fragment_coord_origin_upper_left", "ARB_fragment_coord_pixel_center_integer"}}
_EXCLUSIVE = ({"ARB_fog_linear", "ARB_fog_exp", "ARB_fog_exp2"},
              {"ARB_precision_hint_fastest", "ARB_precision_hint_nicest"})

_XYZW = {"x": 0, "y": 1, "z": 2, "w": 3}
_RGBA = {"r": 0, "g": 1, "b": 2, "a": 3}
_MAX_LIGHTS = 8
_MAX_CLIP_PLANES = 8
_MAX_PROGRAM_MATRICES = 8
_MATRIX_NAMES = ("modelview", "projection", "mvp", "texture", "palette", "program")
_MATRIX_MODIFIERS = ("inverse", "transpose", "invtrans")


def parse_program(text: str, limits: Limits | None = None, target: str | None = None) -> Program:
    """Parse and check one program string (``str``; bytes are decoded as Latin-1).
    ``target`` "vertex"/"fragment": the header must name that language."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        text = bytes(text).decode("latin-1")
    p = _Parser(text, limits or Limits())
    if target is not None and p.target != target:
        raise ARBProgramError(0, f"a {target} program must start with "
                                 f"{'!!ARBvp1.0' if target == 'vertex' else '!!ARBfp1.0'}", text)
    return p.program()


class _Parser:
    def __init__(self, text: str, limits: Limits):
        self.text = text
        self.limits = limits
        if text.startswith("!!ARBvp1.0"):
            self.target = "vertex"
        elif text.startswith("!!ARBfp1.0"):
            self.target = "fragment"
        else:
            raise ARBProgramError(0, "invalid program header (expected !!ARBvp1.0 or !!ARBfp1.0)", text)
        self.vp = self.target == "vertex"
        self.opcodes = VERTEX_OPCODES if self.vp else FRAGMENT_OPCODES
        self.reserved = _VERTEX_RESERVED if self.vp else _FRAGMENT_RESERVED
        self._stream = tokenize(text, len("!!ARBvp1.0"))
        self.toks: list[Token] = []
        self.i = 0
        self.prog = Program(self.target, text)
        # name -> ("temp"|"address"|"attrib"|"param"|"output", payload)
        self.names: dict[str, tuple[str, object]] = {}
        self._anon = 0

    # ------------------------------------------------------------ tokens
    def _at(self, k: int) -> Token:
        while len(self.toks) <= k:
            self.toks.append(next(self._stream))
        return self.toks[k]

    @property
    def tok(self) -> Token:
        return self._at(self.i)

    def peek(self, k: int = 1) -> Token:
        return self._at(self.i + k)

    def error(self, msg: str, tok: Token | None = None):
        raise ARBProgramError((tok or self.tok).pos, msg, self.text)

    def next(self) -> Token:
        t = self.tok
        if t.kind != "eof":
            self.i += 1
        return t

    def accept(self, kind: str, text: str | None = None) -> Token | None:
        t = self.tok
        if t.kind == kind and (text is None or t.text == text):
            return self.next()
        return None

    def expect(self, kind: str, text: str | None = None, what: str | None = None) -> Token:
        t = self.accept(kind, text)
        if t is None:
            want = what or repr(text or kind)
            got = "end of program" if self.tok.kind == "eof" else repr(self.tok.text)
            self.error(f"syntax error: expected {want}, found {got}")
        return t

    def ident(self, what: str = "an identifier") -> Token:
        return self.expect("ident", what=what)

    def keyword(self, *words: str) -> str:
        t = self.tok
        if t.kind == "ident" and t.text in words:
            return self.next().text
        self.error(f"syntax error: expected one of {', '.join(words)}")

    def dot_keyword(self, *words: str) -> str | None:
        """Consume ``. word`` when the word after the dot is one of ``words``."""
        if self.tok.kind == "." and self.peek().kind == "ident" and self.peek().text in words:
            self.next()
            return self.next().text
        return None

    def integer(self, what: str = "an integer") -> int:
        return self.expect("int", what=what).value

    def index(self, what: str = "an index") -> int:
        self.expect("[")
        v = self.integer(what)
        self.expect("]")
        return v

    def opt_index(self, default: int = 0) -> int:
        return self.index() if self.tok.kind == "[" else default

    # ------------------------------------------------------------ program
    def program(self) -> Program:
        p = self.prog
        statements = 0
        while True:
            t = self.tok
            if t.kind == "eof":
                self.error("missing END")
            if t.kind != "ident":
                self.error(f"syntax error: unexpected {t.text!r}")
            word = t.text
            if word == "END":
                break
            if word == "OPTION":
                if statements:
                    self.error("OPTION must come before any other statement")
                self.next()
                self.option()
            elif word == "ATTRIB":
                self.next()
                self.attrib_decl()
            elif word == "PARAM":
                self.next()
                self.param_decl()
            elif word == "TEMP":
                self.next()
                self.var_list("temp")
            elif word == "ADDRESS" and self.vp:
                self.next()
                self.var_list("address")
            elif word == "OUTPUT":
                self.next()
                self.output_decl()
            elif word == "ALIAS":
                self.next()
                self.alias_decl()
            else:
                self.instruction()
                statements += 1
                self.expect(";")
                continue
            statements += 1 if word != "OPTION" else 0
            self.expect(";")
        self.check_program()
        return p

    def check_program(self) -> None:
        p, lim = self.prog, self.limits
        if p.num_instructions > lim.instructions:
            self.error(f"too many instructions ({p.num_instructions} > {lim.instructions})")
        if not self.vp:
            if p.num_alu_instructions > lim.alu_instructions:
                self.error(f"too many ALU instructions ({p.num_alu_instructions} > {lim.alu_instructions})")
            if p.num_tex_instructions > lim.tex_instructions:
                self.error(f"too many texture instructions ({p.num_tex_instructions} > {lim.tex_instructions})")
        if p.num_attribs > lim.attribs:
            self.error(f"too many attributes ({p.num_attribs} > {lim.attribs})")
        if self.vp:
            generic = {int(b[len("vertex.attrib["):-1]) for b in p.inputs if b.startswith("vertex.attrib[")}
            for b in p.inputs:
                if ATTRIB_ALIASES.get(b) in generic:
                    self.error(f"{b} and the generic attribute vertex.attrib[{ATTRIB_ALIASES[b]}] alias")

    # ------------------------------------------------------------ declarations
    def option(self) -> None:
        t = self.ident("an option name")
        if t.text not in _OPTIONS[self.target]:
            self.error(f"unsupported option {t.text}", t)
        for group in _EXCLUSIVE:
            if t.text in group and (self.prog.options & group) - {t.text}:
                self.error(f"option {t.text} conflicts with an earlier option", t)
        self.prog.options.add(t.text)
        if t.text == "ATI_draw_buffers":
            self.prog.options.add("ARB_draw_buffers")

    def new_name(self) -> Token:
        t = self.ident("a name")
        if t.text in self.reserved or ("ARB_fragment_program_shadow" in self.prog.options
                                       and t.text in _SHADOW_TARGETS):
            self.error(f"{t.text} is a reserved word", t)
        if t.text in self.names:
            self.error(f"redeclaration of {t.text}", t)
        return t

    def var_list(self, kind: str) -> None:
        while True:
            t = self.new_name()
            self.names[t.text] = (kind, t.text)
            if kind == "temp":
                self.prog.temps.append(t.text)
                if len(self.prog.temps) > self.limits.temporaries:
                    self.error(f"too many temporaries (> {self.limits.temporaries})", t)
            else:
                self.prog.address_regs.append(t.text)
                if len(self.prog.address_regs) > self.limits.address_registers:
                    self.error(f"too many address registers (> {self.limits.address_registers})", t)
            if not self.accept(","):
                return

    def attrib_decl(self) -> None:
        t = self.new_name()
        self.expect("=")
        binding = self.attrib_binding()
        self.names[t.text] = ("attrib", binding)

    def output_decl(self) -> None:
        t = self.new_name()
        self.expect("=")
        start = self.tok
        if not (start.kind == "ident" and start.text == "result"):
            self.error("syntax error: expected a result binding")
        self.names[t.text] = ("output", self.result_binding())

    def alias_decl(self) -> None:
        t = self.new_name()
        self.expect("=")
        target = self.ident("a declared name")
        if target.text not in self.names:
            self.error(f"undefined variable {target.text}", target)
        self.names[t.text] = self.names[target.text]

    def param_decl(self) -> None:
        t = self.new_name()
        if self.accept("["):
            size = None
            if self.tok.kind != "]":
                st = self.tok
                size = self.integer("an array size")
                if size <= 0 or size > self.limits.parameters:
                    self.error(f"invalid PARAM array size {size}", st)
            self.expect("]")
            self.expect("=")
            self.expect("{")
            elems: list[ParamBinding] = []
            while True:
                elems += self.param_items(multiple=True)
                if not self.accept(","):
                    break
            self.expect("}")
            if size is not None and len(elems) != size:
                self.error(f"PARAM {t.text}[{size}] initialised with {len(elems)} elements", t)
            arr = ParamArray(t.text, elems, True)
        else:
            self.expect("=")
            elems = self.param_items(multiple=False)
            arr = ParamArray(t.text, elems, False)
        self.add_params(len(arr.elements), t)
        self.prog.params[t.text] = arr
        self.names[t.text] = ("param", t.text)

    def add_params(self, n: int, tok: Token) -> None:
        self.prog.param_slots += n
        if self.prog.param_slots > self.limits.parameters:
            self.error(f"too many parameters (> {self.limits.parameters})", tok)

    def param_items(self, multiple: bool) -> list[ParamBinding]:
        """One initialiser item: state, program.env/local, or a constant.
        ``multiple``: ranges and whole matrices are allowed (array initialiser)."""
        t = self.tok
        if t.kind == "ident" and t.text == "state":
            items = self.state_binding()
        elif t.kind == "ident" and t.text == "program":
            items = self.program_binding()
        elif t.kind == "{":
            return [self.const_vector()]
        elif t.kind in ("int", "float", "+", "-"):
            v = self.signed_number()
            return [ParamBinding("const", value=(v, v, v, v))]
        else:
            self.error("syntax error: expected a parameter binding")
        if not multiple and len(items) != 1:
            self.error("a binding of several vec4s needs a PARAM array", t)
        return items

    def signed_number(self) -> float:
        sign = -1.0 if self.accept("-") else (self.accept("+") and 1.0) or 1.0
        t = self.tok
        if t.kind not in ("int", "float"):
            self.error("syntax error: expected a number")
        self.next()
        return sign * float(t.text)

    def const_vector(self) -> ParamBinding:
        self.expect("{")
        vals = [self.signed_number()]
        while self.accept(","):
            if len(vals) == 4:
                self.error("a constant vector has at most 4 components")
            vals.append(self.signed_number())
        self.expect("}")
        full = vals + [0.0, 0.0, 0.0, 1.0][len(vals):]
        return ParamBinding("const", value=tuple(full))

    def program_binding(self) -> list[ParamBinding]:
        self.keyword("program")
        self.expect(".")
        kind = self.keyword("env", "local")
        limit = self.limits.env_parameters if kind == "env" else self.limits.local_parameters
        self.expect("[")
        st = self.tok
        a = self.integer()
        b = a
        if self.accept(".."):
            bt = self.tok
            b = self.integer()
            if b < a:
                self.error(f"invalid range program.{kind}[{a}..{b}]", bt)
        self.expect("]")
        if b >= limit:
            self.error(f"program.{kind} index {b} out of range (max {limit - 1})", st)
        return [ParamBinding(kind, index=i) for i in range(a, b + 1)]

    # ------------------------------------------------------------ state bindings
    def state_binding(self) -> list[ParamBinding]:
        self.keyword("state")
        self.expect(".")
        t = self.ident("a state name")
        w = t.text

        def one(*state):
            return [ParamBinding("state", state=state)]

        def face():
            return self.dot_keyword("front", "back") or "front"

        if w == "material":
            f = face()
            self.expect(".")
            prop = self.keyword("ambient", "diffuse", "specular", "emission", "shininess")
            return one("material", f, prop)
        if w == "light":
            n = self.light_index()
            self.expect(".")
            prop = self.keyword("ambient", "diffuse", "specular", "position", "attenuation", "spot", "half")
            if prop == "spot":
                self.expect(".")
                self.keyword("direction")
                prop = "spot.direction"
            return one("light", n, prop)
        if w == "lightmodel":
            self.expect(".")
            nt = self.ident()
            if nt.text == "ambient":
                return one("lightmodel", "ambient")
            if nt.text == "scenecolor":
                return one("lightmodel", "front", "scenecolor")
            if nt.text in ("front", "back"):
                self.expect(".")
                self.keyword("scenecolor")
                return one("lightmodel", nt.text, "scenecolor")
            self.error("syntax error: expected ambient or scenecolor", nt)
        if w == "lightprod":
            n = self.light_index()
            f = face()
            self.expect(".")
            prop = self.keyword("ambient", "diffuse", "specular")
            return one("lightprod", n, f, prop)
        if w == "texgen":
            n = self.unit_index(self.limits.texture_coords, "texture coordinate set")
            self.expect(".")
            space = self.keyword("eye", "object")
            self.expect(".")
            coord = self.keyword("s", "t", "r", "q")
            return one("texgen", n, space, coord)
        if w == "texenv":
            n = self.unit_index(self.limits.texture_coords, "texture unit")
            self.expect(".")
            self.keyword("color")
            return one("texenv", n, "color")
        if w == "fog":
            self.expect(".")
            return one("fog", self.keyword("color", "params"))
        if w == "clip":
            it = self.tok
            n = self.index()
            if n >= _MAX_CLIP_PLANES:
                self.error(f"clip plane {n} out of range", it)
            self.expect(".")
            self.keyword("plane")
            return one("clip", n, "plane")
        if w == "point":
            self.expect(".")
            return one("point", self.keyword("size", "attenuation"))
        if w == "depth":
            self.expect(".")
            self.keyword("range")
            return one("depth", "range")
        if w == "matrix":
            return self.matrix_binding()
        self.error(f"unknown state {w}", t)

    def light_index(self) -> int:
        it = self.tok
        n = self.index("a light number")
        if n >= _MAX_LIGHTS:
            self.error(f"light {n} out of range", it)
        return n

    def unit_index(self, limit: int, what: str) -> int:
        it = self.tok
        n = self.opt_index()
        if n >= limit:
            self.error(f"{what} {n} out of range", it)
        return n

    def matrix_binding(self) -> list[ParamBinding]:
        self.expect(".")
        t = self.ident("a matrix name")
        name = t.text
        if name not in _MATRIX_NAMES:
            self.error(f"unknown matrix {name}", t)
        index = 0
        it = self.tok
        if name == "modelview":
            index = self.opt_index()
            if index != 0:
                self.error(f"modelview matrix {index} needs ARB_vertex_blend", it)
        elif name == "texture":
            index = self.unit_index(self.limits.texture_coords, "texture matrix")
        elif name == "palette":
            self.error("matrix palette (ARB_matrix_palette) is not supported", t)
        elif name == "program":
            index = self.index()
            if index >= _MAX_PROGRAM_MATRICES:
                self.error(f"program matrix {index} out of range", it)
        modifier = self.dot_keyword(*_MATRIX_MODIFIERS) or ""
        rows = range(4)
        if self.dot_keyword("row"):
            self.expect("[")
            rt = self.tok
            a = self.integer("a row number")
            b = a
            if self.accept(".."):
                b = self.integer("a row number")
            self.expect("]")
            if not 0 <= a <= b <= 3:
                self.error(f"invalid matrix row range {a}..{b}", rt)
            rows = range(a, b + 1)
        return [ParamBinding("state", state=("matrix", name, index, modifier, r)) for r in rows]

    # ------------------------------------------------------------ attribute / result bindings
    def attrib_binding(self) -> str:
        t = self.tok
        if self.vp:
            if not (t.kind == "ident" and t.text == "vertex"):
                self.error("syntax error: expected a vertex attribute binding")
            self.next()
            self.expect(".")
            w = self.ident("an attribute name")
            name = w.text
            if name in ("position", "normal", "fogcoord"):
                b = f"vertex.{name}"
            elif name == "color":
                b = f"vertex.color.{self.dot_keyword('primary', 'secondary') or 'primary'}"
            elif name == "texcoord":
                n = self.unit_index(self.limits.texture_coords, "texture coordinate set")
                b = f"vertex.texcoord[{n}]"
            elif name == "attrib":
                it = self.tok
                n = self.index()
                if n >= self.limits.attribs:
                    self.error(f"generic attribute {n} out of range", it)
                b = f"vertex.attrib[{n}]"
            elif name in ("weight", "matrixindex"):
                self.error(f"vertex.{name} needs ARB_vertex_blend / ARB_matrix_palette", w)
            else:
                self.error(f"unknown vertex attribute {name}", w)
        else:
            if not (t.kind == "ident" and t.text == "fragment"):
                self.error("syntax error: expected a fragment attribute binding")
            self.next()
            self.expect(".")
            w = self.ident("an attribute name")
            name = w.text
            if name in ("fogcoord", "position"):
                b = f"fragment.{name}"
            elif name == "color":
                b = f"fragment.color.{self.dot_keyword('primary', 'secondary') or 'primary'}"
            elif name == "texcoord":
                n = self.unit_index(self.limits.texture_coords, "texture coordinate set")
                b = f"fragment.texcoord[{n}]"
            else:
                self.error(f"unknown fragment attribute {name}", w)
        self.prog.inputs.add(b)
        return b

    def result_binding(self) -> str:
        self.keyword("result")
        self.expect(".")
        w = self.ident("a result name")
        name = w.text
        if self.vp:
            if name in ("position", "fogcoord", "pointsize"):
                b = f"result.{name}"
            elif name == "color":
                f = self.dot_keyword("front", "back") or "front"
                c = self.dot_keyword("primary", "secondary") or "primary"
                b = f"result.color.{f}.{c}"
            elif name == "texcoord":
                n = self.unit_index(self.limits.texture_coords, "texture coordinate set")
                b = f"result.texcoord[{n}]"
            else:
                self.error(f"unknown result {name}", w)
            if b == "result.position" and self.prog.position_invariant:
                self.error("result.position is written by ARB_position_invariant programs", w)
        else:
            if name == "depth":
                b = "result.depth"
            elif name == "color":
                it = self.tok
                n = 0
                if it.kind == "[":
                    if "ARB_draw_buffers" not in self.prog.options:
                        self.error("result.color[n] needs OPTION ARB_draw_buffers", it)
                    n = self.index()
                    if n >= self.limits.draw_buffers:
                        self.error(f"result.color[{n}] out of range", it)
                b = f"result.color[{n}]"
            else:
                self.error(f"unknown result {name}", w)
        return b

    # ------------------------------------------------------------ instructions
    def instruction(self) -> None:
        t = self.ident()
        word, sat = t.text, False
        if not self.vp and word.endswith("_SAT") and word[:-4] in self.opcodes:
            word, sat = word[:-4], True
        form = self.opcodes.get(word)
        if form is None:
            self.error(f"syntax error: unknown instruction or statement {t.text}", t)
        ins = Instruction(word, sat, None, [], t.pos)
        if form == "kil":
            ins.srcs.append(self.src(scalar=False))
        elif form == "arl":
            ins.dst = self.address_dst()
            self.expect(",")
            ins.srcs.append(self.src(scalar=True))
        else:
            ins.dst = self.dst()
            if form == "swz":
                self.expect(",")
                ins.srcs.append(self.swz_src())
            elif form == "tex":
                self.expect(",")
                ins.srcs.append(self.src(scalar=False))
                self.expect(",")
                ins.unit, ins.target = self.texture_operand()
            else:
                for c in form:
                    self.expect(",")
                    ins.srcs.append(self.src(scalar=c == "s"))
        self.prog.instructions.append(ins)
        if len(self.prog.instructions) > self.limits.instructions:
            self.error(f"too many instructions (> {self.limits.instructions})", t)

    def texture_operand(self) -> tuple[int, str]:
        t = self.tok
        if not (t.kind == "ident" and t.text == "texture"):
            self.error("syntax error: expected texture[n]")
        self.next()
        it = self.tok
        unit = self.opt_index()
        if unit >= self.limits.texture_image_units:
            self.error(f"texture image unit {unit} out of range", it)
        self.expect(",")
        tt = self.tok
        target = self.ident("a texture target").text
        shadow = "ARB_fragment_program_shadow" in self.prog.options
        if target not in _TEX_TARGETS and not (shadow and target in _SHADOW_TARGETS):
            self.error(f"invalid texture target {target}", tt)
        old = self.prog.textures.get(unit)
        if old is not None and old != target:
            self.error(f"texture unit {unit} used with targets {old} and {target}", tt)
        self.prog.textures[unit] = target
        return unit, target

    def address_dst(self) -> Dst:
        t = self.ident("an address register")
        entry = self.names.get(t.text)
        if entry is None or entry[0] != "address":
            self.error(f"{t.text} is not an address register", t)
        if self.accept("."):
            m = self.ident("x")
            if m.text != "x":
                self.error("an address register write mask must be .x", m)
        return Dst("address", t.text, 1)

    def dst(self) -> Dst:
        t = self.tok
        if t.kind != "ident":
            self.error("syntax error: expected a destination register")
        if t.text == "result":
            d = Dst("output", self.result_binding())
        else:
            self.next()
            entry = self.names.get(t.text)
            if entry is None:
                self.error(f"undefined variable {t.text}", t)
            kind, payload = entry
            if kind == "temp":
                d = Dst("temp", payload)
            elif kind == "output":
                d = Dst("output", payload)
            else:
                self.error(f"{t.text} cannot be written", t)
        if self.tok.kind == "." and self.peek().kind == "ident":
            self.next()
            mt = self.next()
            d.mask = self.write_mask(mt)
        if d.file == "output":
            self.prog.outputs.add(d.name)
        return d

    def write_mask(self, t: Token) -> int:
        s = t.text
        table = _XYZW if all(c in _XYZW for c in s) else _RGBA if not self.vp else None
        if table is None or not all(c in table for c in s) or not 1 <= len(s) <= 4:
            self.error(f"invalid write mask .{s}", t)
        comps = [table[c] for c in s]
        if comps != sorted(set(comps)):
            self.error(f"invalid write mask .{s}", t)
        return sum(1 << c for c in comps)

    def swizzle(self, t: Token) -> tuple:
        s = t.text
        for table in (_XYZW,) if self.vp else (_XYZW, _RGBA):
            if all(c in table for c in s):
                if len(s) == 1:
                    return (table[s],) * 4
                if len(s) == 4:
                    return tuple(table[c] for c in s)
        self.error(f"invalid swizzle .{s}", t)

    def src(self, scalar: bool) -> Src:
        negate = False
        if self.accept("-"):
            negate = True
        else:
            self.accept("+")
        src = self.src_reg()
        src.negate = negate
        if self.tok.kind == "." and self.peek().kind == "ident":
            self.next()
            st = self.next()
            src.swizzle = self.swizzle(st)
            if scalar and len(st.text) != 1:
                self.error("a scalar operand needs a single component (.x, .y, .z or .w)", st)
        elif scalar:
            self.error("a scalar operand needs a single component (.x, .y, .z or .w)")
        return src

    def swz_src(self) -> Src:
        src = self.src_reg()
        comps, letters = [], set()
        for _k in range(4):
            self.expect(",")
            neg = bool(self.accept("-"))
            if not neg:
                self.accept("+")
            t = self.tok
            if t.kind == "int" and t.text in ("0", "1"):
                comps.append((t.text, neg))
            elif t.kind == "ident" and len(t.text) == 1 and (t.text in _XYZW or (not self.vp and t.text in _RGBA)):
                comps.append(((_XYZW | _RGBA)[t.text], neg))
                letters.add("xyzw" if t.text in _XYZW else "rgba")
            else:
                self.error("invalid extended swizzle component")
            if len(letters) > 1:
                self.error("an extended swizzle mixes xyzw and rgba components")
            self.next()
        src.extended = tuple(comps)
        return src

    def inline_param(self, items: list[ParamBinding], tok: Token) -> Src:
        self._anon += 1
        name = f"${self._anon}"
        self.prog.params[name] = ParamArray(name, items, False)
        self.add_params(len(items), tok)
        return Src("param", name)

    def src_reg(self) -> Src:
        t = self.tok
        if t.kind in ("int", "float"):
            self.next()
            v = float(t.text)
            return self.inline_param([ParamBinding("const", value=(v, v, v, v))], t)
        if t.kind == "{":
            return self.inline_param([self.const_vector()], t)
        if t.kind != "ident":
            self.error("syntax error: expected a source register")
        w = t.text
        if w == "state":
            items = self.param_items(multiple=False)
            return self.inline_param(items, t)
        if w == "program":
            items = self.param_items(multiple=False)
            return self.inline_param(items, t)
        if (w == "vertex" and self.vp) or (w == "fragment" and not self.vp):
            return Src("input", self.attrib_binding())
        if w == "result":
            self.error("result registers cannot be read", t)
        self.next()
        entry = self.names.get(w)
        if entry is None:
            self.error(f"undefined variable {w}", t)
        kind, payload = entry
        if kind == "temp":
            if self.tok.kind == "[":
                self.error(f"{w} is not a PARAM array", self.tok)
            return Src("temp", payload)
        if kind == "attrib":
            if self.tok.kind == "[":
                self.error(f"{w} is not a PARAM array", self.tok)
            return Src("input", payload)
        if kind == "param":
            arr = self.prog.params[payload]
            if self.tok.kind != "[":
                if arr.is_array:
                    self.error(f"the PARAM array {w} must be indexed", t)
                return Src("param", payload)
            if not arr.is_array:
                self.error(f"{w} is not a PARAM array", self.tok)
            self.next()
            it = self.tok
            if it.kind == "int":
                idx = self.integer()
                self.expect("]")
                if idx >= len(arr.elements):
                    self.error(f"index {idx} out of range for {w}[{len(arr.elements)}]", it)
                return Src("param", payload, index=idx)
            if not self.vp:
                self.error("relative addressing needs a vertex program", it)
            at = self.ident("an address register")
            ae = self.names.get(at.text)
            if ae is None or ae[0] != "address":
                self.error(f"{at.text} is not an address register", at)
            self.expect(".")
            ct = self.ident("x")
            if ct.text != "x":
                self.error("an address register is read as .x", ct)
            offset = 0
            if self.tok.kind in ("+", "-"):
                sign = self.next().text
                ot = self.tok
                off = self.integer("an offset")
                limit = self.limits.address_offset
                if sign == "+" and off > limit - 1:
                    self.error(f"relative offset {off} out of range (max {limit - 1})", ot)
                if sign == "-" and off > limit:
                    self.error(f"relative offset -{off} out of range (min -{limit})", ot)
                offset = off if sign == "+" else -off
            self.expect("]")
            seen = set()
            for e in arr.elements:
                if e.kind != "const" and e in seen:
                    self.error(f"{w} binds one parameter twice and is addressed relatively", t)
                seen.add(e)
            return Src("param", payload, relative=(at.text, offset))
        self.error(f"{w} cannot be read", t)
