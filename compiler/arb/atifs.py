"""GL_ATI_fragment_shader programs -> the parsed form of an ARB fragment program.

An ATI fragment shader (the GL driver records it between
glBeginFragmentShaderATI and glEndFragmentShaderATI) is one or two passes;
each pass has *routing* instructions (PassTexCoordATI, SampleMapATI) that fill
registers REG_0..5 from texture coordinates, textures or, in the second pass,
the registers of the first, then up to eight *pairs* of a colour and an alpha
instruction. ``to_arb_program`` rewrites it as an ARB fragment ``Program`` of
plain ARB opcodes (MOV, ADD, SUB, MUL, MAD, LRP, CMP, DP3, DP4, RCP, TEX), so it
goes through ``compiler.arb.to_ir`` and the same backend as ARB programs and
GLSL (the idea of Mesa's ``st_atifs_to_nir``, which builds NIR directly).

Semantics (the ATI_fragment_shader specification, section 3.8.11):

- argument replication (NONE/RED/GREEN/BLUE/ALPHA) is a source swizzle; the
  argument modifiers apply in the order COMP (1 - s), BIAS (s - 0.5), 2X, NEGATE;
- MAD = a1 * a2 + a3, LERP = a1 * a2 + (1 - a1) * a3, CND = a3 > 0.5 ? a1 : a2,
  CND0 = a3 >= 0 ? a1 : a2, DOT2_ADD = a1.r * a2.r + a1.g * a2.g + a3.b
  (replicated), DOT3, DOT4 replicated;
- the destination modifier scales (2X, 4X, 8X, HALF, QUARTER, EIGHTH) and then
  SATURATE clamps to [0, 1]; a colour instruction writes the masked r, g, b of
  its register, an alpha instruction its a;
- the two instructions of a pair run in parallel: both read the registers as
  they were before the pair; an alpha DOT2_ADD/DOT3/DOT4 takes the result of
  its colour instruction (its own arguments are ignored, as the specification
  says);
- routing: PassTexCoord copies, SampleMap samples texture unit <dst> with the
  coordinates (swizzles STR, STQ and the projective STR_DR, STQ_DQ); in the
  second pass a register source is its value at the end of the first pass; a
  register the current pass has not written reads 0 (only registers routed
  into the second pass survive into it);
- the result is REG_0 of the last pass (0 when that pass leaves it unwritten;
  the specification leaves it undefined).

The texture target of each sampled unit and the fog mode are draw-time state:
they are arguments, and the driver keeps one program per combination.
"""

from __future__ import annotations

from dataclasses import dataclass

from .program import Dst, Instruction, ParamArray, ParamBinding, Program, Src

__all__ = ["Arg", "Op", "Pair", "Routing", "Pass", "FragmentShader", "to_arb_program", "OPS", "ARG_COUNTS",
           "DOT_OPS", "SCALES", "NUM_REGISTERS", "NUM_CONSTANTS", "MAX_PAIRS_PER_PASS", "MAX_PASSES"]

NUM_REGISTERS = 6          # REG_0_ATI .. REG_5_ATI
NUM_CONSTANTS = 8          # CON_0_ATI .. CON_7_ATI
MAX_PAIRS_PER_PASS = 8
MAX_PASSES = 2

# op -> number of arguments
ARG_COUNTS = {"MOV": 1, "ADD": 2, "SUB": 2, "MUL": 2, "DOT3": 2, "DOT4": 2,
              "MAD": 3, "LERP": 3, "CND": 3, "CND0": 3, "DOT2_ADD": 3}
OPS = tuple(ARG_COUNTS)
DOT_OPS = ("DOT2_ADD", "DOT3", "DOT4")
# destination modifier -> scale
SCALES = {"": 1.0, "2X": 2.0, "4X": 4.0, "8X": 8.0, "HALF": 0.5, "QUARTER": 0.25, "EIGHTH": 0.125}
_SWIZZLES = ("STR", "STQ", "STR_DR", "STQ_DQ")


@dataclass(frozen=True)
class Arg:
    """One source argument. ``source``: "reg" (``index`` 0-5), "con" (0-7),
    "zero", "one", "primary", "secondary"; ``rep``: None or the component
    0-3 replicated; the modifiers."""
    source: str
    index: int = 0
    rep: int | None = None
    comp: bool = False
    bias: bool = False
    scale2x: bool = False
    negate: bool = False


@dataclass(frozen=True)
class Op:
    """A colour or alpha instruction. ``mask``: components written (bit 0 =
    red .. bit 3 = alpha); ``scale`` one of SCALES' values."""
    op: str
    dst: int
    mask: int
    args: tuple[Arg, ...]
    scale: float = 1.0
    saturate: bool = False


@dataclass(frozen=True)
class Pair:
    color: Op | None = None
    alpha: Op | None = None


@dataclass(frozen=True)
class Routing:
    """A PassTexCoordATI ("pass") or SampleMapATI ("sample") into register
    ``dst``. ``source``: "texcoord" (set ``index``) or "reg" (first-pass
    register ``index``, second pass only); ``swizzle`` one of STR, STQ,
    STR_DR, STQ_DQ."""
    kind: str
    dst: int
    source: str
    index: int
    swizzle: str


@dataclass(frozen=True)
class Pass:
    routing: tuple[Routing, ...]
    pairs: tuple[Pair, ...]


@dataclass(frozen=True)
class FragmentShader:
    """A complete shader: one or two passes; ``constants[n]`` is the value
    the shader itself set for CON_n (None: the global constant, read from the
    program's local parameter n)."""
    passes: tuple[Pass, ...]
    constants: tuple[tuple[float, float, float, float] | None, ...] = (None,) * NUM_CONSTANTS

    def texture_units(self) -> tuple[int, ...]:
        """The texture units SampleMap reads (each samples the unit of its register)."""
        return tuple(sorted({r.dst for p in self.passes for r in p.routing if r.kind == "sample"}))

    def texcoord_sets(self) -> tuple[int, ...]:
        return tuple(sorted({r.index for p in self.passes for r in p.routing if r.source == "texcoord"}))

    def listing(self) -> str:
        """A readable text of the shader (the program's ``source``: it names the
        shader in caches and in the compiled interface's comment)."""
        lines = ["ATI_fragment_shader"]
        for n, c in enumerate(self.constants):
            if c is not None:
                lines.append(f"CON{n} = {tuple(float(x) for x in c)}")
        for k, p in enumerate(self.passes):
            lines.append(f"pass {k}")
            lines += [f"  {r}" for r in p.routing]
            lines += [f"  {q}" for q in p.pairs]
        return "\n".join(lines)


_ARB_TARGETS = ("1D", "2D", "3D", "CUBE", "RECT")


class _Builder:
    def __init__(self, shader: FragmentShader, targets: dict[int, str | None], fog: str | None):
        self.shader = shader
        self.targets = targets
        # the source names everything the program depends on: compiled-shader caches key on it
        self.prog = Program("fragment", f"{shader.listing()}\ntargets {sorted(targets.items())} fog {fog}")
        if fog is not None:
            assert fog in ("linear", "exp", "exp2"), fog
            self.prog.options.add(f"ARB_fog_{fog}")
        self.written: set[int] = set()       # registers the current pass has written
        self.first_pass_written: set[int] = set()

    # -- operands ------------------------------------------------------------------------
    def temp(self, name: str) -> str:
        if name not in self.prog.temps:
            self.prog.temps.append(name)
        return name

    def const(self, value: tuple) -> Src:
        value = tuple(float(v) for v in value)
        name = "k" + "_".join(repr(v).replace("-", "m").replace(".", "p") for v in value)
        if name not in self.prog.params:
            self.prog.params[name] = ParamArray(name, [ParamBinding("const", value=value)], False)
            self.prog.param_slots += 1
        return Src("param", name)

    def splat(self, x: float) -> Src:
        return self.const((x, x, x, x))

    def global_constant(self, n: int) -> Src:
        name = f"con{n}"
        if name not in self.prog.params:
            self.prog.params[name] = ParamArray(name, [ParamBinding("local", index=n)], False)
            self.prog.param_slots += 1
        return Src("param", name)

    def emit(self, opcode: str, dst: Dst | None, *srcs: Src, sat: bool = False, unit=None, target=None) -> None:
        self.prog.instructions.append(Instruction(opcode, sat, dst, list(srcs), 0, unit, target))

    def input(self, binding: str) -> Src:
        self.prog.inputs.add(binding)
        return Src("input", binding)

    def register(self, r: int) -> Src:
        """REG_r as the current pass sees it (0 when the pass has not written it)."""
        return Src("temp", self.temp(f"R{r}")) if r in self.written else self.splat(0.0)

    # -- routing -------------------------------------------------------------------------
    def routing(self, routes: tuple[Routing, ...], second: bool) -> None:
        if second:      # a register source is its first-pass value, whatever this pass writes first
            for r in sorted({x.index for x in routes if x.source == "reg"} & self.first_pass_written):
                self.emit("MOV", Dst("temp", self.temp(f"P{r}")), Src("temp", f"R{r}"))
        for x in routes:
            if x.source == "texcoord":
                src = self.input(f"fragment.texcoord[{x.index}]")
            elif x.index in self.first_pass_written:
                src = Src("temp", f"P{x.index}")
            else:
                src = self.splat(0.0)
            coord = self.swizzled(src, x.swizzle)
            dst = Dst("temp", self.temp(f"R{x.dst}"))
            if x.kind == "pass":
                self.emit("MOV", dst, coord)
            else:
                target = self.targets.get(x.dst)
                if target is None:          # no texture enabled on the unit: black
                    self.emit("MOV", dst, self.const((0.0, 0.0, 0.0, 1.0)))
                else:
                    assert target in _ARB_TARGETS, target
                    self.prog.textures[x.dst] = target
                    self.emit("TEX", dst, coord, unit=x.dst, target=target)
            self.written.add(x.dst)

    def swizzled(self, src: Src, swizzle: str) -> Src:
        """Table 3.20: (s, t, r), (s, t, q), (s/r, t/r, 1/r), (s/q, t/q, 1/q)."""
        assert swizzle in _SWIZZLES, swizzle
        if swizzle == "STR":
            return src
        if swizzle == "STQ":
            return _compose(src, (0, 1, 3, 2))
        d = 2 if swizzle == "STR_DR" else 3
        s = self.temp("S")
        self.emit("RCP", Dst("temp", s), _compose(src, (d, d, d, d)))
        self.emit("MUL", Dst("temp", s, 0x3), src, Src("temp", s))
        return Src("temp", s)

    # -- arithmetic ----------------------------------------------------------------------
    def argument(self, a: Arg, k: int) -> Src:
        if a.source == "reg":
            src = self.register(a.index)
        elif a.source == "con":
            value = self.shader.constants[a.index]
            src = self.const(value) if value is not None else self.global_constant(a.index)
        elif a.source in ("zero", "one"):
            src = self.splat(0.0 if a.source == "zero" else 1.0)
        else:
            src = self.input("fragment.color.primary" if a.source == "primary" else "fragment.color.secondary")
        if a.rep is not None:
            src = _compose(src, (a.rep,) * 4)
        if a.comp or a.bias or a.scale2x:
            t = self.temp(f"A{k}")
            if a.comp:
                self.emit("SUB", Dst("temp", t), self.splat(1.0), src)
                src = Src("temp", t)
            if a.bias:
                self.emit("SUB", Dst("temp", t), src, self.splat(0.5))
                src = Src("temp", t)
            if a.scale2x:
                self.emit("ADD", Dst("temp", t), src, src)
                src = Src("temp", t)
        if a.negate:
            src = Src(src.file, src.name, src.index, src.relative, src.swizzle, not src.negate)
        return src

    def operation(self, op: Op, result: str) -> None:
        """``result`` (all four components) = op's value after its destination modifier."""
        args = [self.argument(a, k) for k, a in enumerate(op.args)]
        d = Dst("temp", self.temp(result))
        plain = op.scale == 1.0
        sat = op.saturate and plain
        o = op.op
        if o == "MOV":
            self.emit("MOV", d, args[0], sat=sat)
        elif o in ("ADD", "SUB", "MUL"):
            self.emit(o, d, args[0], args[1], sat=sat)
        elif o == "MAD":
            self.emit("MAD", d, *args, sat=sat)
        elif o == "LERP":
            self.emit("LRP", d, *args, sat=sat)
        elif o == "CND":            # a3 > 0.5 <=> 0.5 - a3 < 0
            t = self.temp("A3")
            self.emit("SUB", Dst("temp", t), self.splat(0.5), args[2])
            self.emit("CMP", d, Src("temp", t), args[0], args[1], sat=sat)
        elif o == "CND0":           # a3 >= 0 ? a1 : a2 == a3 < 0 ? a2 : a1
            self.emit("CMP", d, args[2], args[1], args[0], sat=sat)
        elif o == "DOT3":
            self.emit("DP3", d, args[0], args[1], sat=sat)
        elif o == "DOT4":
            self.emit("DP4", d, args[0], args[1], sat=sat)
        elif o == "DOT2_ADD":
            t = self.temp("A3")
            self.emit("MUL", Dst("temp", t), args[0], args[1])
            self.emit("ADD", Dst("temp", t), _compose(Src("temp", t), (0, 0, 0, 0)),
                      _compose(Src("temp", t), (1, 1, 1, 1)))
            self.emit("ADD", d, Src("temp", t), _compose(args[2], (2, 2, 2, 2)), sat=sat)
        else:
            raise ValueError(f"unknown ATI_fragment_shader op {o}")
        if not plain:
            self.emit("MUL", d, Src("temp", result), self.splat(op.scale), sat=op.saturate)

    def pair(self, p: Pair) -> None:
        writes = []
        if p.color is not None:
            self.operation(p.color, "C")
            writes.append((p.color, "C"))
        if p.alpha is not None:
            if p.alpha.op in DOT_OPS and p.color is not None and p.color.op == p.alpha.op:
                writes.append((p.alpha, "C"))         # the colour instruction's result
            else:
                self.operation(p.alpha, "L")
                writes.append((p.alpha, "L"))
        for op, value in writes:
            if op.dst not in self.written:     # unwritten components read 0, as the whole register
                self.emit("MOV", Dst("temp", self.temp(f"R{op.dst}")), self.splat(0.0))
            self.emit("MOV", Dst("temp", self.temp(f"R{op.dst}"), op.mask), Src("temp", value))
            self.written.add(op.dst)

    def build(self) -> Program:
        for k, p in enumerate(self.shader.passes):
            if k == 1:
                self.first_pass_written, self.written = self.written, set()
            self.routing(p.routing, k == 1)
            for q in p.pairs:
                self.pair(q)
        self.prog.outputs.add("result.color[0]")
        self.emit("MOV", Dst("output", "result.color[0]"), self.register(0))
        return self.prog


def _compose(src: Src, swizzle: tuple) -> Src:
    """``src`` read through a further swizzle."""
    return Src(src.file, src.name, src.index, src.relative, tuple(src.swizzle[c] for c in swizzle), src.negate)


def to_arb_program(shader: FragmentShader, targets: dict[int, str | None], fog: str | None = None) -> Program:
    """The ARB fragment program of ``shader`` when texture unit u samples
    target ``targets[u]`` ("1D", "2D", "3D", "CUBE", "RECT"; None or absent:
    no texture enabled, the sample reads (0, 0, 0, 1)) and the fog blend
    ``fog`` ("linear", "exp", "exp2" or None) follows. Global constants
    (CON_n the shader did not set) are the program's local parameter n."""
    assert 1 <= len(shader.passes) <= MAX_PASSES
    return _Builder(shader, targets, fog).build()
