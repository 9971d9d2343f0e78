"""SPIR-V -> the compiler's IR (the idea of Mesa's spirv_to_nir).

``SpirvShader(binary, stage, entry, spec)`` parses the module, picks the entry
point of ``stage`` named ``entry``, folds the specialization constants with
``spec`` (SpecId -> 32-bit word), and writes the entry point's interface as a
GLSL shader (``compiler.spirv.interface``), which the GL driver links like any
other (locations, bindings, blocks). ``front_half(key)`` -> (optimised IR,
ShaderInfo) is what a hardware driver calls, as for compiler.arb's programs:
the interface's prologue (``compiler.lower.io``), the translated function, the
interface's output stores, then the GLSL path's pass pipeline.

Translation (``_Translator``):

- values: a scalar or vector is an IR ``Def`` (bool = 1 bit); a matrix, array or
  struct a Python list of columns / elements / members (as compiler.lower);
  constants are materialised at each use (so a use never depends on where the
  constant was first emitted);
- pointers (``Ptr``) are resolved on OpLoad/OpStore/atomics: interface and
  function variables become IR deref chains; uniform and storage blocks are
  addressed by byte offset from the SPIR-V ``Offset``/``ArrayStride``/
  ``MatrixStride``/``RowMajor`` decorations and read with ``load_ubo`` /
  ``load_ssbo`` (written with ``store_ssbo``), the block index being the one
  the interface's block got (``IOLowering.ubos/ssbos``);
- structured control flow: a selection (OpSelectionMerge) becomes an IR if, a
  switch an if chain (fall-through runs the next case's blocks), a loop
  (OpLoopMerge) an IR loop whose body is the header, the body up to the
  continue target and the continue construct; a branch to the loop's merge is a
  break, a branch to its continue target from inside the body emits the
  continue construct and a continue; OpPhi values go through a function_temp
  variable written on every incoming edge;
- function calls are inlined; a function with several returns runs in a
  once-loop and a return breaks out of it (with a flag carrying it out of inner
  loops, as nir_lower_returns);
- GLSL.std.450 and texture instructions reuse the GLSL front end's built-in
  lowerings (``compiler.lower.builtins``), called with the operands' GLSL types.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from compiler.glsl import GLSLCompileError, parse
from compiler.glsl import types as GT
from compiler.ir import Def

from .interface import Interface, stage_layout
from .module import Module, SpirvError, parse_module
from .spec import EXECUTION_MODE, EXECUTION_MODEL, GLSL_STD_450, STORAGE_NAME
from .types import SpirvTypes, evaluate_constants, null_value

__all__ = ["SpirvShader", "spirv_front_half", "STAGE_MODELS"]

STAGE_MODELS = {"vertex": EXECUTION_MODEL["Vertex"], "fragment": EXECUTION_MODEL["Fragment"],
                "compute": EXECUTION_MODEL["GLCompute"], "geometry": EXECUTION_MODEL["Geometry"],
                "tess_control": EXECUTION_MODEL["TessellationControl"],
                "tess_evaluation": EXECUTION_MODEL["TessellationEvaluation"]}


class SpirvShader:
    """One specialized SPIR-V entry point as a pipe shader's ``ir``: ``source`` (the
    interface shader's GLSL), ``unit`` (its typed AST, which the GL linker reads),
    ``front_half(key)``. Raises ``SpirvError`` for modules it rejects."""

    def __init__(self, binary: bytes, stage: str, entry: str = "main", spec: dict[int, int] | None = None):
        self.binary = bytes(binary)
        self.stage = stage
        self.entry = entry
        self.spec = dict(spec or {})
        m = self.module = parse_module(self.binary)
        model = STAGE_MODELS[stage]
        found = [e for e in m.entry_points if e[2] == entry and e[0] == model]
        if not found:
            raise SpirvError(f'the module has no {stage} entry point named "{entry}"')
        _model, self.entry_fn, _name, self.entry_iface = found[0]
        if self.entry_fn not in m.functions:
            raise SpirvError(f"the entry point's function %{self.entry_fn} is not defined")
        spec_ids = {w[0] for id_, decs in m.decorations.items() for d, w in decs if d == "SpecId"}
        unknown = sorted(set(self.spec) - spec_ids)
        if unknown:
            raise SpirvError(f"specialization constant {unknown[0]} does not exist in the module")
        self.types = SpirvTypes(m)
        self.constants = evaluate_constants(m, self.types, self.spec)
        local_size, early = None, False
        for mode, ops in m.execution_modes.get(self.entry_fn, []):
            if mode == EXECUTION_MODE["LocalSize"]:
                local_size = tuple(ops[:3])
            elif mode == EXECUTION_MODE["EarlyFragmentTests"]:
                early = True
        for ins in m.globals:       # a WorkgroupSize built-in constant overrides LocalSize
            b = m.decoration(ins.result, "BuiltIn") if ins.result is not None else None
            if b and b[0] == 25 and ins.result in self.constants:
                local_size = tuple(int(v) for v in self.constants[ins.result])
        if stage == "compute" and local_size is None:
            raise SpirvError("the compute entry point has no LocalSize execution mode")
        digest = hashlib.sha256(self.binary).hexdigest() + f" {stage} {entry} {sorted(self.spec.items())}"
        layout = stage_layout(stage, m.execution_modes.get(self.entry_fn, []))
        self.interface = Interface(m, self.types, stage, self.entry_fn, self.entry_iface, local_size, early,
                                   digest, self.constants, tuple(layout))
        self.source = self.interface.source
        try:
            self.unit = parse(self.source, stage, compat_context=False, require_main=True)
        except GLSLCompileError as e:
            raise SpirvError(f"the module's interface is not supported ({e.info_log.strip()})") from None
        if stage == "geometry":             # the streams the code emits to (GLSL's come from its calls)
            import dataclasses
            streams = {int(self.constants.get(ins.operands[0], 0)) for instrs in m.functions.values()
                       for ins in instrs if ins.op in ("EmitStreamVertex", "EndStreamPrimitive")}
            self.unit.geometry = dataclasses.replace(self.unit.geometry, emit_streams=frozenset(streams))
        for g in self.unit.globals:         # every interface variable is active (linked by location/binding)
            g.used = True
        for block in self.unit.interface_blocks:
            for v in list(block.member_variables) + [block.variable]:
                if v is not None:
                    v.used = True

    @property
    def version(self):
        return self.unit.version

    def block_sizes(self) -> dict[str, int]:
        """Interface block name (arrays: each element's ``name[i]...``) -> its data size in
        bytes from the module's explicit layout (Offset, ArrayStride, MatrixStride), which
        GLSL's declaration cannot express (GL's BUFFER_DATA_SIZE)."""
        import itertools
        out = {}
        for g in self.interface.globals.values():
            if g.kind not in ("ubo", "ssbo"):
                continue
            tid = g.type_id
            while self.types.info(tid).kind == "array":
                tid = self.types.info(tid).element
            size = (self.types.layout_size_B(tid) + 15) // 16 * 16      # (rounded to a vec4, as Mesa)
            if not g.array_dims:
                out[g.block_name] = size
            for idx in itertools.product(*(range(d) for d in g.array_dims)) if g.array_dims else ():
                out[g.block_name + "".join(f"[{i}]" for i in idx)] = size
        return out

    def front_half(self, key=None):
        """(optimised IR, ShaderInfo) for variant ``key``; a geometry or tessellation
        entry point without a key is compiled as ``shimgl compile`` compiles such a GLSL
        stage on its own (a non-indexed draw of its input primitive or patch)."""
        if key is None and self.stage == "geometry":
            from compiler.ir import ShaderKey
            from compiler.lower.geometry import standalone_key
            key = ShaderKey.make(gs=standalone_key(self.unit))
        elif key is None and self.stage in ("tess_control", "tess_evaluation"):
            from compiler.ir import ShaderKey
            from compiler.lower.tessellation import standalone_tess_key
            name, tess_key = standalone_tess_key(self.unit)
            key = ShaderKey.make(**{name: tess_key})
        return spirv_front_half(self, key)


def spirv_front_half(shader: SpirvShader, key=None):
    """(optimised IR, ShaderInfo) of a SPIR-V entry point for variant ``key``."""
    from compiler.variant import shader_info
    from compiler.scope import bugs_as
    from compiler.ir.passes import optimize, run_pass
    from compiler.lower import LoweringError
    from compiler.lower.lower64 import lower_64bit
    from compiler.lower.stage import translated_front_half

    unit = shader.unit
    with bugs_as(LoweringError, SpirvError):
        ir, io = translated_front_half(unit, key, lambda L: _Translator(shader, L).run())
        if run_pass(ir, lower_64bit):
            optimize(ir)
        return ir, shader_info(ir, io, unit)


@dataclass
class Ptr:
    """A SPIR-V pointer value. ``kind``: var (``root()`` gives the IR deref of the
    variable, ``path`` the indices after it: ints or Defs), per_vertex (``root`` is
    the interface Global: path[0] picks the built-in), buf (``mode`` ubo/ssbo,
    ``index`` the block index Def, ``offset`` bytes: int or Def, ``row_major``,
    ``mstride`` of the matrix reached, ``vstride`` bytes between a vector's
    components), opaque (``opaque``: compiler.lower.Opaque)."""
    kind: str
    type_id: int
    root: Any = None
    path: tuple = ()
    mode: str = ""
    index: Any = None
    offset: Any = 0
    row_major: bool = False
    mstride: int = 16
    vstride: int = 4
    opaque: Any = None
    root_tid: int = 0           # var: the SPIR-V type of the variable ``root()`` reaches
    name: str = ""              # var: the interface variable's GLSL name (uniform leaves of opaque members)


@dataclass
class _Loop:
    header: int
    merge: int
    cont: int


@dataclass
class _Fn:
    ret_var: Any
    ret_flag: Any
    wrapped: bool
    ret_type: int


@dataclass
class _Block:
    label: int
    phis: list = field(default_factory=list)
    body: list = field(default_factory=list)
    merge: Any = None          # the OpSelectionMerge / OpLoopMerge instruction
    term: Any = None


# one-operand instructions: the IR's ALU op of each (component by component)
_UNARY = {"FNegate": "fneg", "SNegate": "ineg", "Not": "inot", "LogicalNot": "inot", "BitCount": "bit_count",
          "BitReverse": "bitfield_reverse", "DPdx": "fddx", "DPdxFine": "fddx", "DPdxCoarse": "fddx",
          "DPdy": "fddy", "DPdyFine": "fddy", "DPdyCoarse": "fddy"}
# conversions: the source's kind (float, signed, unsigned); the destination is the result type's
_CONVERT = {"ConvertFToU": "f", "ConvertFToS": "f", "ConvertSToF": "i", "ConvertUToF": "u", "FConvert": "f",
            "SConvert": "i", "UConvert": "u"}

_FLOAT_BIN = {"FAdd": "fadd", "FSub": "fsub", "FMul": "fmul", "FDiv": "fdiv"}
_INT_BIN = {"IAdd": "iadd", "ISub": "isub", "IMul": "imul", "UDiv": "udiv", "SDiv": "idiv", "UMod": "umod",
            "SRem": "irem", "SMod": "imod", "ShiftLeftLogical": "ishl", "ShiftRightLogical": "ushr",
            "ShiftRightArithmetic": "ishr", "BitwiseOr": "ior", "BitwiseAnd": "iand", "BitwiseXor": "ixor"}
_CMP = {"IEqual": ("ieq", False), "INotEqual": ("ine", False), "SLessThan": ("ilt", False),
        "SGreaterThanEqual": ("ige", False), "SGreaterThan": ("ilt", True), "SLessThanEqual": ("ige", True),
        "ULessThan": ("ult", False), "UGreaterThanEqual": ("uge", False), "UGreaterThan": ("ult", True),
        "ULessThanEqual": ("uge", True), "FOrdEqual": ("feq", False), "FUnordEqual": ("feq", False),
        "FOrdNotEqual": ("fneu", False), "FUnordNotEqual": ("fneu", False), "FOrdLessThan": ("flt", False),
        "FUnordLessThan": ("flt", False), "FOrdGreaterThanEqual": ("fge", False),
        "FUnordGreaterThanEqual": ("fge", False), "FOrdGreaterThan": ("flt", True),
        "FUnordGreaterThan": ("flt", True), "FOrdLessThanEqual": ("fge", True),
        "FUnordLessThanEqual": ("fge", True), "LogicalEqual": ("ieq", False), "LogicalNotEqual": ("ine", False),
        "LogicalAnd": ("iand", False), "LogicalOr": ("ior", False)}
# GLSL.std.450 -> the GLSL built-in lowering (compiler.lower.builtins f_<name>) taking the same operands
_STD = {"Round": "round", "RoundEven": "roundEven", "Trunc": "trunc", "FAbs": "abs", "SAbs": "abs",
        "FSign": "sign", "SSign": "sign", "Floor": "floor", "Ceil": "ceil", "Fract": "fract",
        "Radians": "radians", "Degrees": "degrees", "Sin": "sin", "Cos": "cos", "Tan": "tan", "Asin": "asin",
        "Acos": "acos", "Atan": "atan", "Sinh": "sinh", "Cosh": "cosh", "Tanh": "tanh", "Asinh": "asinh",
        "Acosh": "acosh", "Atanh": "atanh", "Atan2": "atan", "Pow": "pow", "Exp": "exp", "Log": "log",
        "Exp2": "exp2", "Log2": "log2", "Sqrt": "sqrt", "InverseSqrt": "inversesqrt",
        "Determinant": "determinant", "MatrixInverse": "inverse", "FMin": "min", "UMin": "min", "SMin": "min",
        "FMax": "max", "UMax": "max", "SMax": "max", "FClamp": "clamp", "UClamp": "clamp", "SClamp": "clamp",
        "NMin": "min", "NMax": "max", "NClamp": "clamp", "FMix": "mix", "Step": "step",
        "SmoothStep": "smoothstep", "Fma": "fma", "Ldexp": "ldexp", "PackSnorm4x8": "packSnorm4x8",
        "PackUnorm4x8": "packUnorm4x8", "PackSnorm2x16": "packSnorm2x16", "PackUnorm2x16": "packUnorm2x16",
        "PackHalf2x16": "packHalf2x16", "UnpackSnorm2x16": "unpackSnorm2x16",
        "UnpackUnorm2x16": "unpackUnorm2x16", "UnpackHalf2x16": "unpackHalf2x16",
        "UnpackSnorm4x8": "unpackSnorm4x8", "UnpackUnorm4x8": "unpackUnorm4x8", "Length": "length",
        "Distance": "distance", "Cross": "cross", "Normalize": "normalize", "FaceForward": "faceforward",
        "Reflect": "reflect", "Refract": "refract", "FindILsb": "findLSB", "FindSMsb": "findMSB",
        "FindUMsb": "findMSB", "PackDouble2x32": "packDouble2x32", "UnpackDouble2x32": "unpackDouble2x32"}
#: atomic operation -> the GLSL image atomic that does it on an image texel
_IMAGE_ATOMIC = {"add": "imageAtomicAdd", "and": "imageAtomicAnd", "or": "imageAtomicOr", "xor": "imageAtomicXor",
                 "xchg": "imageAtomicExchange", "cmpxchg": "imageAtomicCompSwap", "imin": "imageAtomicMin",
                 "umin": "imageAtomicMin", "imax": "imageAtomicMax", "umax": "imageAtomicMax"}
_ATOMICS = {"AtomicIAdd": "add", "AtomicISub": "add", "AtomicSMin": "imin", "AtomicUMin": "umin",
            "AtomicSMax": "imax", "AtomicUMax": "umax", "AtomicAnd": "and", "AtomicOr": "or", "AtomicXor": "xor",
            "AtomicExchange": "xchg", "AtomicCompareExchange": "cmpxchg", "AtomicIIncrement": "add",
            "AtomicIDecrement": "add"}


class _Translator:
    def __init__(self, shader: SpirvShader, L):
        self.sh = shader
        self.m: Module = shader.module
        self.types = shader.types
        self.consts = shader.constants
        self.L = L
        self.b = L.b
        self.iface = shader.interface
        self.symbols = {g.name: g for g in L.unit.globals}
        self.symbols.update({v.name: v for v in L.unit.builtin_variables})
        self.values: dict[int, Any] = {}
        self.phi_vars: dict[int, Any] = {}
        self.loops: list[_Loop] = []
        self.fns: list[_Fn] = []
        self.cur_label = 0
        self.blocks: dict[int, _Block] = {}
        self.call_depth = 0

    # ------------------------------------------------------------ setup
    def run(self) -> None:
        L = self.L
        for vid, g in self.iface.globals.items():
            if g.kind == "per_vertex":
                self.values[vid] = Ptr("per_vertex", g.type_id, root=g)
            elif g.kind == "builtin" and g.name == "gl_WorkGroupSize":
                self.values[vid] = Ptr("const", g.type_id, root=vid)
            elif g.kind in ("builtin", "in", "out", "uniform", "shared"):
                sym = self.symbols.get(g.name)
                if sym is None:
                    raise SpirvError(f"the interface lost {g.name}")
                self.values[vid] = Ptr("var", g.type_id, root=(lambda s=sym: L.var_deref(s)), root_tid=g.type_id,
                                       name=g.name)
            elif g.kind in ("sampler", "image"):
                sym = self.symbols[g.name]
                self.values[vid] = Ptr("opaque", g.type_id, opaque=L.io.opaque_symbol(L, sym, None))
            elif g.kind in ("in_block", "out_block"):
                sym = self.symbols[f"{g.name}_i"]
                self.values[vid] = Ptr("var", g.type_id, root=(lambda s=sym: L.var_deref(s)), root_tid=g.type_id,
                                       name=f"{g.name}_i")
            elif g.kind in ("ubo", "ssbo"):
                self.values[vid] = self._block_ptr(g)
            elif g.kind == "atomic":
                sym = self.symbols[g.name]
                o = L.io.opaque_symbol(L, sym, None)
                index = L.io.atomic_counter_ssbo(o)         # the counter buffer's SSBO index
                self.values[vid] = Ptr("buf", g.type_id, mode="ssbo", index=index, offset=o.offset_B,
                                       root=None, opaque="atomic")
            elif g.kind == "private":
                var = L.new_local(f"spv.private{vid}", self.types.glsl(g.type_id))
                self.values[vid] = Ptr("var", g.type_id, root=(lambda v=var: self.b.deref_var(v)), root_tid=g.type_id)
                init = self.m.defs[vid].operands[1:] if len(self.m.defs[vid].operands) > 1 else ()
                if init:
                    L.store(self.b.deref_var(var), self.types.glsl(g.type_id), self.val(init[0]))
        self.inline(self.sh.entry_fn, [])

    def _block_ptr(self, g) -> Ptr:
        L = self.L
        table = L.io.ubos if g.kind == "ubo" else L.io.ssbos
        sym = self.symbols[f"{g.name}_i"]
        if sym not in L.vars:
            L.io._block(L, None, sym)
        if g.array_dims:
            first = "".join("[0]" for _ in g.array_dims)
            base = table[g.block_name + first]
        else:
            base = table[g.block_name]
        return Ptr("buf", g.type_id, mode=g.kind, index=base, offset=0, root=g)

    # ------------------------------------------------------------ values
    def val(self, id_: int):
        if id_ in self.consts:
            return self.const(self.m.defs[id_].type_id, self.consts[id_])
        v = self.values.get(id_)
        if v is None:
            ins = self.m.defs.get(id_)
            if ins is not None and ins.op == "Undef":
                return self.const(ins.type_id, null_value(self.types, ins.type_id))
            raise SpirvError(f"%{id_} is used before it is defined")
        return v

    def const(self, tid: int, value):
        t = self.types.info(tid)
        if t.kind in ("matrix", "array", "struct"):
            members = t.members if t.kind == "struct" else [t.element] * t.count
            return [self.const(mt, v) for mt, v in zip(members, value)]
        base = self.types.scalar_base(tid)
        bits = 1 if base == "bool" else (64 if base.endswith("64") or base == "double" else 32)
        ibase = {"double": "float", "int64": "int", "uint64": "uint"}.get(base, base)
        vals = value if isinstance(value, list) else [value]
        return self.b.imm(list(vals), ibase, bits)

    def gt(self, tid: int) -> GT.GLSLType:
        return self.types.glsl(tid)

    # ------------------------------------------------------------ functions
    def inline(self, fid: int, args: list):
        b, m = self.b, self.m
        instrs = m.functions.get(fid)
        if instrs is None:
            raise SpirvError(f"function %{fid} is not defined")
        self.call_depth += 1
        if self.call_depth > 64:
            raise SpirvError("function calls nest too deep (recursion is not allowed)")
        fn_ins = instrs[0]
        params = [i for i in instrs if i.op == "FunctionParameter"]
        for p, a in zip(params, args):
            self.values[p.result] = a
        blocks = self._split_blocks(instrs)
        saved_blocks, self.blocks = self.blocks, blocks
        returns = sum(1 for bl in blocks.values() if bl.term.op in ("Return", "ReturnValue"))
        rt = fn_ins.type_id
        ret_var = None
        if self.types.info(rt).kind != "void":
            ret_var = self.L.new_local(f"spv.ret{fid}", self.gt(rt))
        wrapped = returns > 1
        flag = None
        saved_loops, self.loops = self.loops, []
        if wrapped:
            flag = self.L.new_local("spv.returned", GT.BOOL)
            b.store_var(flag, b.bimm(False))
        self.fns.append(_Fn(ret_var, flag, wrapped, rt))
        first = next(iter(blocks))
        if wrapped:
            loop = b.push_loop()
            self.loops.append(_Loop(-1, -1, -1))       # the once-loop: a return breaks it
            if self.region(first, None) is not None:
                b.break_()
            self.loops.pop()
            b.pop_loop(loop)
        else:
            self.region(first, None)
        self.fns.pop()
        self.loops = saved_loops
        self.blocks = saved_blocks
        self.call_depth -= 1
        if ret_var is not None:
            return self.L.load(b.deref_var(ret_var), self.gt(rt))
        return None

    def _split_blocks(self, instrs) -> dict[int, _Block]:
        blocks: dict[int, _Block] = {}
        cur = None
        for ins in instrs[1:]:
            if ins.op == "Label":
                cur = _Block(ins.result)
                blocks[ins.result] = cur
            elif ins.op in ("FunctionParameter", "FunctionEnd", "Line", "NoLine"):
                continue
            elif cur is None:
                raise SpirvError(f"Op{ins.op} before the function's first OpLabel")
            elif ins.op == "Phi":
                cur.phis.append(ins)
            elif ins.op in ("SelectionMerge", "LoopMerge"):
                cur.merge = ins
            elif ins.op in ("Branch", "BranchConditional", "Switch", "Return", "ReturnValue", "Kill",
                            "Unreachable", "TerminateInvocation"):
                cur.term = ins
                cur = None
            else:
                cur.body.append(ins)
        for bl in blocks.values():
            if bl.term is None:
                raise SpirvError(f"block %{bl.label} has no terminator")
        if not blocks:
            raise SpirvError("a function has no blocks")
        return blocks

    # ------------------------------------------------------------ control flow
    def region(self, label: int | None, stop: int | None):
        """Emit blocks from ``label`` until ``stop``; returns ``stop`` when reached,
        None when the region ended with a jump (break, continue, return, kill)."""
        while label is not None and label != stop:
            label = self.block(label)
        return label

    def block(self, label: int):
        bl = self.blocks.get(label)
        if bl is None:
            raise SpirvError(f"branch to %{label}, which is not a block of the function")
        b = self.b
        self.cur_label = label
        if bl.merge is not None and bl.merge.op == "LoopMerge":
            return self.loop(bl)        # (its phis are read inside the loop)
        self.load_phis(bl)
        for ins in bl.body:
            self.instruction(ins)
        return self.terminator(bl)

    def load_phis(self, bl: _Block) -> None:
        for phi in bl.phis:
            self.values[phi.result] = self.L.load(self.b.deref_var(self._phi_var(phi)), self.gt(phi.type_id))

    def _phi_var(self, phi):
        var = self.phi_vars.get(phi.result)
        if var is None:
            var = self.phi_vars[phi.result] = self.L.new_local(f"spv.phi{phi.result}", self.gt(phi.type_id))
        return var

    def jump(self, target: int):
        """Leave the current block for ``target``: write ``target``'s phis, then a
        break/continue when ``target`` is the loop's merge / continue target / header;
        returns ``target`` when control simply goes on there, else None."""
        b = self.b
        tb = self.blocks.get(target)
        if tb is None:
            raise SpirvError(f"branch to %{target}, which is not a block of the function")
        src = self.cur_label
        for phi in tb.phis:
            o = phi.operands
            for k in range(0, len(o), 2):
                if o[k + 1] == src:
                    self.L.store(b.deref_var(self._phi_var(phi)), self.gt(phi.type_id), self.val(o[k]))
                    break
        if self.loops and self.loops[-1].header >= 0:
            lp = self.loops[-1]
            if target == lp.merge:
                b.break_()
                return None
            if target == lp.header:
                b.continue_()
                return None
            if target == lp.cont and not self._in_continue:
                saved = self._in_continue
                self._in_continue = True
                self.region(lp.cont, lp.header)
                self._in_continue = saved
                return None
        return target

    _in_continue = False

    def terminator(self, bl: _Block):
        b = self.b
        t = bl.term
        op = t.op
        if op == "Branch":
            return self.jump(t.operands[0])
        if op == "BranchConditional":
            cond = self.val(t.operands[0])
            tl, fl = t.operands[1], t.operands[2]
            merge = bl.merge.operands[0] if bl.merge is not None and bl.merge.op == "SelectionMerge" else None
            if merge is None:
                # a break / continue / back edge on one side (a loop's exit test): control goes
                # on at the other side's target after the if
                node = b.push_if(cond)
                on_true = self.jump(tl)
                b.push_else(node)
                self.cur_label = bl.label
                on_false = self.jump(fl)
                b.pop_if(node)
                if on_true is not None and on_false is not None:
                    raise SpirvError(f"unstructured branch to %{tl} or %{fl} (no merge block)")
                return on_true if on_true is not None else on_false
            node = b.push_if(cond)
            self.cur_label = bl.label
            self._arm(tl, merge)
            b.push_else(node)
            self.cur_label = bl.label
            self._arm(fl, merge)
            b.pop_if(node)
            return merge
        if op == "Switch":
            if bl.merge is None:
                raise SpirvError("OpSwitch without OpSelectionMerge")
            merge = bl.merge.operands[0]
            sel = self.val(t.operands[0])
            default = t.operands[1]
            lit_words = 2 if self.types.info(self.m.defs[t.operands[0]].type_id).width == 64 else 1
            cases: dict[int, list] = {}
            o = t.operands[2:]
            step = lit_words + 1
            for k in range(0, len(o), step):
                cases.setdefault(o[k + lit_words], []).append(o[k])
            nodes = []
            for target, lits in cases.items():
                if target == default:
                    continue
                c = None
                for lit in lits:
                    e = b.ieq(sel, b.imm(lit, "uint", 32))
                    c = e if c is None else b.ior(c, e)
                nodes.append(b.push_if(c))
                self.cur_label = bl.label
                self._arm(target, merge)
                b.push_else(nodes[-1])
            self.cur_label = bl.label
            self._arm(default, merge)
            for n in reversed(nodes):
                b.pop_if(n)
            return merge
        if op in ("Return", "ReturnValue"):
            fn = self.fns[-1]
            if op == "ReturnValue":
                self.L.store(b.deref_var(fn.ret_var), self.gt(fn.ret_type), self.val(t.operands[0]))
            if fn.wrapped:
                if len(self.loops) > 1:
                    b.store_var(fn.ret_flag, b.bimm(True))
                b.break_()
            return None
        if op in ("Kill", "TerminateInvocation"):
            b.discard()
            return None
        if op == "Unreachable":
            return None
        raise SpirvError(f"Op{op} is not supported")

    def _arm(self, target: int, merge: int | None) -> None:
        nxt = self.jump(target)
        if nxt is None:
            return
        if merge is None:
            raise SpirvError(f"unstructured branch to %{target} (no merge block)")
        self.region(nxt, merge)

    def loop(self, bl: _Block):
        b = self.b
        merge, cont = bl.merge.operands[0], bl.merge.operands[1]
        node = b.push_loop()
        self.loops.append(_Loop(bl.label, merge, cont))
        saved = self._in_continue
        self._in_continue = False
        self.load_phis(bl)
        for ins in bl.body:
            self.instruction(ins)
        t = bl.term
        if t.op == "Branch":
            nxt = self.jump(t.operands[0]) if t.operands[0] != cont else None
            if t.operands[0] == cont:
                self._in_continue = True
                self.region(cont, bl.label)
            elif nxt is not None:
                end = self.region(nxt, cont)
                if end == cont:
                    self._in_continue = True
                    self.region(cont, bl.label)
        elif t.op == "BranchConditional":
            cond = self.val(t.operands[0])
            tl, fl = t.operands[1], t.operands[2]
            if fl == merge:
                inner = tl
                n2 = b.push_if(cond)
                b.push_else(n2)
                self.cur_label = bl.label
                self.jump(merge)
                b.pop_if(n2)
            elif tl == merge:
                inner = fl
                n2 = b.push_if(cond)
                self.cur_label = bl.label
                self.jump(merge)
                b.push_else(n2)
                b.pop_if(n2)
            else:
                raise SpirvError("a loop header's conditional branch must have the merge block as one target")
            self.cur_label = bl.label
            if inner == cont:
                self._in_continue = True
                self.region(cont, bl.label)
            else:
                nxt = self.jump(inner)
                if nxt is not None and self.region(nxt, cont) == cont:
                    self._in_continue = True
                    self.region(cont, bl.label)
        else:
            raise SpirvError(f"a loop header ends with Op{t.op}")
        self._in_continue = saved
        self.loops.pop()
        b.pop_loop(node)
        fn = self.fns[-1]
        if fn.wrapped and fn.ret_flag is not None:
            n3 = b.push_if(b.load_var(fn.ret_flag))
            if self.loops and self.loops[-1].header == -1 and len(self.loops) == 1:
                b.break_()
            else:
                b.break_()
            b.pop_if(n3)
        return merge

    # ------------------------------------------------------------ pointers
    def walk_var(self, p: Ptr):
        """(deref, GLSL type of the deref, component or None) of a var pointer."""
        b, L = self.b, self.L
        d = p.root()
        tid = p.root_tid or p.type_id
        comp = None
        for idx in p.path:
            t = self.types.info(tid)
            if t.kind == "struct":
                d = b.deref_struct(d, L._ir_field_index(self.gt(tid), idx))
                tid = t.members[idx]
            elif t.kind in ("array", "runtime_array", "matrix"):
                d = b.deref_array(d, idx)
                tid = t.element
            elif t.kind == "vector":
                comp = idx
                return d, self.gt(tid), comp
            else:
                raise SpirvError("an access chain indexes a scalar")
        return d, self.gt(tid), comp

    def access_chain(self, base: Ptr, indices: list, result_tid: int) -> Ptr:
        t_ptr = self.types.info(result_tid)
        pointee = t_ptr.element
        if base.kind in ("var", "per_vertex", "const"):
            p = Ptr(base.kind, pointee, root=base.root, path=base.path + tuple(indices), name=base.name)
            p.root_tid = base.root_tid or base.type_id
            inner = pointee
            while self.types.info(inner).kind == "array":
                inner = self.types.info(inner).element
            if base.kind == "var" and self.types.info(inner).kind in ("image", "sampled_image"):
                return self._opaque_member(p, pointee)
            return p
        if base.kind == "opaque":
            if len(indices) != 1:
                raise SpirvError("arrays of arrays of samplers are not supported")
            o = base.opaque
            import copy
            n = copy.copy(o)
            i = indices[0]
            if isinstance(i, int):
                n.slot = o.slot + i
                n.length = 1
            else:
                n.index = i
            return Ptr("opaque", pointee, opaque=n)
        if base.kind == "buf":
            return self._buf_chain(base, indices, pointee)
        raise SpirvError(f"access chain into a {base.kind} pointer")

    def _opaque_member(self, p: Ptr, pointee: int) -> Ptr:
        """A sampler or image inside a uniform struct: its own uniform leaf (``name.m1``,
        ``name[2].m0``, as the GL linker names the struct's members)."""
        if not p.name:
            raise SpirvError("a sampler inside a struct that is not a uniform")

        def slot_of(path):
            """The uniform leaf (an array of samplers is one leaf: the GL linker's
            ``s.m1[0]`` of ``sampler2D[3]``) and the slot of ``path``'s element in it."""
            leaf, tid = p.name, p.root_tid
            for k, i in enumerate(path):
                t = self.types.info(tid)
                if t.kind == "struct":
                    leaf += f".m{i}"
                    tid = t.members[i]
                elif self.types.info(t.element).kind in ("image", "sampled_image") and k == len(path) - 1:
                    return io.opaque_leaf(L, leaf, self.gt(tid)).slot + i, leaf
                else:
                    leaf += f"[{i}]"
                    tid = t.element
            return io.opaque_leaf(L, leaf, self.gt(tid)).slot, leaf
        io, L, gt = self.L.io, self.L, self.gt(pointee)
        dynamic = [k for k, i in enumerate(p.path) if not isinstance(i, int)]
        if not dynamic:
            slot, leaf = slot_of(p.path)
            o = io.opaque_leaf(L, leaf, self.gt(pointee))
            o.slot, o.length = slot, 1
            return Ptr("opaque", pointee, opaque=o)
        if gt.is_array:
            raise SpirvError("arrays of samplers inside structs indexed with non-constant indices are not supported")
        # non-constant indices into arrays of structs: the candidate leaves in row-major order and
        # the flattened index choosing among them (compiler.lower's Opaque.choices)
        lengths, tid = [], p.root_tid
        for k, i in enumerate(p.path):
            t = self.types.info(tid)
            if k in dynamic:
                lengths.append(t.count)
            tid = t.members[i] if t.kind == "struct" else t.element
        import itertools
        slots = []
        for combo in itertools.product(*(range(n) for n in lengths)):
            path = list(p.path)
            for k, v in zip(dynamic, combo):
                path[k] = v
            slots.append(slot_of(path)[0])
        b = self.b
        flat = p.path[dynamic[0]]
        for k, n in zip(dynamic[1:], lengths[1:]):
            flat = b.iadd(b.imul(flat, b.iimm(n)), p.path[k])
        _slot, leaf = slot_of([0 if k in dynamic else i for k, i in enumerate(p.path)])
        first = io.opaque_leaf(L, leaf, self.gt(pointee))
        first.slot, first.index, first.length, first.choices = slots[0], flat, len(slots), tuple(slots)
        return Ptr("opaque", pointee, opaque=first)

    def _buf_chain(self, base: Ptr, indices, pointee) -> Ptr:
        b, m, types = self.b, self.m, self.types
        tid = base.type_id
        index, offset = base.index, base.offset
        rm, ms, vs = base.row_major, base.mstride, base.vstride
        indices = list(indices)
        dims = base.root.array_dims if base.root is not None else ()
        if dims:
            # an array (of arrays) of blocks: each element is a block of its own, the elements'
            # buffer indices consecutive in row-major order from the first element's
            if len(indices) < len(dims):
                raise SpirvError("an array of blocks is accessed without indexing it down to a block")
            flat = 0
            for idx, d in zip(indices, dims):
                flat = _add(b, _mul(b, flat, d), idx)
                tid = types.info(tid).element
            index = _add(b, flat, base.index)
            indices = indices[len(dims):]
        for idx in indices:
            t = types.info(tid)
            if t.kind == "struct":
                off = m.decoration(tid, "Offset", idx)
                if off is None:
                    raise SpirvError(f"member {idx} of block type %{tid} has no Offset decoration")
                offset = _add(b, offset, off[0])
                rm = m.has(tid, "RowMajor", idx)
                mst = m.decoration(tid, "MatrixStride", idx)
                ms = mst[0] if mst else 16
                tid = t.members[idx]
            elif t.kind in ("array", "runtime_array"):
                stride = m.decoration(tid, "ArrayStride") or \
                    ((4 * self._counters_in(t.element),) if base.opaque == "atomic" else None)
                if stride is None:
                    raise SpirvError(f"array type %{tid} in a block has no ArrayStride decoration")
                offset = _add(b, offset, _mul(b, idx, stride[0]))
                tid = t.element
            elif t.kind == "matrix":
                offset = _add(b, offset, _mul(b, idx, 4 if rm else ms))
                vs = ms if rm else 4
                tid = t.element
            elif t.kind == "vector":
                offset = _add(b, offset, _mul(b, idx, vs))
                tid = t.element
            else:
                raise SpirvError("an access chain indexes a scalar")
        return Ptr("buf", tid, mode=base.mode, index=index, offset=offset, row_major=rm, mstride=ms, vstride=vs,
                   root=None, opaque=base.opaque)

    def _counters_in(self, tid: int) -> int:
        """The atomic counters in a value of type ``tid`` (arrays of arrays of counters are
        consecutive 4-byte counters, innermost index fastest)."""
        t = self.types.info(tid)
        return t.count * self._counters_in(t.element) if t.kind == "array" else 1

    def load(self, p: Ptr, tid: int):
        b = self.b
        if p.kind == "var":
            d, gt, comp = self.walk_var(p)
            if comp is None:
                return self.L.load(d, gt)
            v = b.load_deref(d)
            return b.channel(v, comp) if isinstance(comp, int) else self.L.dyn_component(v, comp)
        if p.kind == "per_vertex":
            return self.load(self._per_vertex_ptr(p), tid)
        if p.kind == "buf":
            return self.buf_load(p, tid)
        if p.kind == "const":
            return self.const(tid, self.consts.get(p.root))
        if p.kind == "opaque":
            return p.opaque
        raise SpirvError(f"load through a {p.kind} pointer")

    def store(self, p: Ptr, value) -> None:
        b = self.b
        if p.kind == "var":
            d, gt, comp = self.walk_var(p)
            if comp is None:
                self.L.store(d, gt, value)
                return
            if isinstance(comp, int):
                n = gt.vector_size
                parts = [value] * n
                b.store_deref(d, b.vec(*parts) if n > 1 else value, 1 << comp)
                return
            old = b.load_deref(d)
            parts = [b.bcsel(b.ieq(comp, c), value, b.channel(old, c)) for c in range(old.num_components)]
            b.store_deref(d, b.vec(*parts))
            return
        if p.kind == "per_vertex":
            self.store(self._per_vertex_ptr(p), value)
            return
        if p.kind == "buf":
            if p.mode != "ssbo":
                raise SpirvError("a store to a uniform block")
            self.buf_store(p, p.type_id, value)
            return
        raise SpirvError(f"store through a {p.kind} pointer")

    def _per_vertex_ptr(self, p: Ptr) -> Ptr:
        """The var pointer of a gl_PerVertex member: the GLSL built-in itself, or for an
        array of blocks (gl_in[], gl_out[]) the member of the block at the vertex index."""
        g = p.root
        path = p.path
        if g.array_dims:
            if len(path) < 2:
                raise SpirvError(f"{g.name} is accessed without indexing it down to a member")
            vertex, path = path[0], path[1:]
        if not path or not isinstance(path[0], int):
            raise SpirvError("a per-vertex block is accessed without a constant member index")
        name = g.members[path[0]]
        block_tid = self.types.info(g.type_id).element if g.array_dims else g.type_id
        if g.array_dims:
            sym = self.symbols[g.name]
            block = sym.type.element
            field = [f.name for f in block.fields].index(name)

            def root(s=sym, v=vertex, f=field, t=block):
                b = self.b
                return b.deref_struct(b.deref_array(self.L.var_deref(s), v), self.L._ir_field_index(t, f))
        else:
            sym = self.symbols[name]

            def root(s=sym):
                return self.L.var_deref(s)
        q = Ptr("var", 0, root=root, path=path[1:])
        q.root_tid = self.types.info(block_tid).members[path[0]]
        return q

    # -- buffers ---------------------------------------------------------------
    def _off(self, off):
        return self.b.iimm(off) if isinstance(off, int) else off

    def _idx(self, index):
        return self.b.iimm(index) if isinstance(index, int) else index

    def buf_load(self, p: Ptr, tid: int, offset=None, rm=None, ms=None, vs=None):
        b, types, m = self.b, self.types, self.m
        offset = p.offset if offset is None else offset
        rm = p.row_major if rm is None else rm
        ms = p.mstride if ms is None else ms
        vs = p.vstride if vs is None else vs
        t = types.info(tid)
        name = f"load_{p.mode}"
        if t.kind in ("bool", "int", "float") or (t.kind == "vector" and vs == 4):
            n = t.count if t.kind == "vector" else 1
            base = types.scalar_base(tid)
            bits = 64 if base in ("double", "int64", "uint64") else 32
            v = b.intrinsic(name, self._idx(p.index), self._off(offset), num_components=n, bit_size=bits,
                            align=4)
            return b.ine(v, b.iimm(0)) if base == "bool" else v
        if t.kind == "vector":
            comps = [self.buf_load(p, t.element, _add(b, offset, c * vs)) for c in range(t.count)]
            return b.vec(*comps)
        if t.kind == "matrix":
            col = types.info(t.element)
            cols = []
            for c in range(t.count):
                if rm:
                    cols.append(self.buf_load(p, t.element, _add(b, offset, 4 * c), vs=ms))
                else:
                    cols.append(self.buf_load(p, t.element, _add(b, offset, ms * c), vs=4))
            del col
            return cols
        if t.kind == "array":
            stride = m.decoration(tid, "ArrayStride")[0]
            return [self.buf_load(p, t.element, _add(b, offset, i * stride), rm, ms) for i in range(t.count)]
        if t.kind == "struct":
            out = []
            for i, mt in enumerate(t.members):
                off = m.decoration(tid, "Offset", i)[0]
                mst = m.decoration(tid, "MatrixStride", i)
                out.append(self.buf_load(p, mt, _add(b, offset, off), m.has(tid, "RowMajor", i),
                                         mst[0] if mst else 16))
            return out
        raise SpirvError(f"a load of %{tid} ({t.kind}) from a buffer")

    def buf_store(self, p: Ptr, tid: int, value, offset=None, rm=None, ms=None, vs=None):
        b, types, m = self.b, self.types, self.m
        offset = p.offset if offset is None else offset
        rm = p.row_major if rm is None else rm
        ms = p.mstride if ms is None else ms
        vs = p.vstride if vs is None else vs
        t = types.info(tid)
        if t.kind in ("bool", "int", "float") or (t.kind == "vector" and vs == 4):
            n = t.count if t.kind == "vector" else 1
            if value.bit_size == 1:
                value = b.b2i32(value)
            b.store_ssbo(value, self._idx(p.index), self._off(offset), write_mask=(1 << n) - 1, align=4)
            return
        if t.kind == "vector":
            for c in range(t.count):
                self.buf_store(p, t.element, b.channel(value, c), _add(b, offset, c * vs))
            return
        if t.kind == "matrix":
            for c in range(t.count):
                if rm:
                    self.buf_store(p, t.element, value[c], _add(b, offset, 4 * c), vs=ms)
                else:
                    self.buf_store(p, t.element, value[c], _add(b, offset, ms * c), vs=4)
            return
        if t.kind == "array":
            stride = m.decoration(tid, "ArrayStride")[0]
            for i in range(t.count):
                self.buf_store(p, t.element, value[i], _add(b, offset, i * stride), rm, ms)
            return
        if t.kind == "struct":
            for i, mt in enumerate(t.members):
                off = m.decoration(tid, "Offset", i)[0]
                mst = m.decoration(tid, "MatrixStride", i)
                self.buf_store(p, mt, value[i], _add(b, offset, off), m.has(tid, "RowMajor", i),
                               mst[0] if mst else 16)
            return
        raise SpirvError(f"a store of %{tid} ({t.kind}) to a buffer")

    # ------------------------------------------------------------ instructions
    def instruction(self, ins) -> None:
        op = ins.op
        fn = getattr(self, "op_" + op, None)
        if fn is not None:
            r = fn(ins)
        elif op in _UNARY:
            r = self._unary(ins, _UNARY[op])
        elif op in _CONVERT:
            r = self._convert(ins, _CONVERT[op])
        elif op in _FLOAT_BIN:
            r = self._binary(ins, _FLOAT_BIN[op])
        elif op in _INT_BIN:
            r = self._binary(ins, _INT_BIN[op])
        elif op in _CMP:
            name, swap = _CMP[op]
            a, c = self.val(ins.operands[0]), self.val(ins.operands[1])
            if swap:
                a, c = c, a
            a, c = self._splat(a, c)
            r = self.b.alu(name, a, c)
        elif op in _ATOMICS:
            r = self.atomic(ins)
        elif op in ("Nop", "Line", "NoLine", "Name", "MemberName", "Source", "String"):
            return
        else:
            raise SpirvError(f"Op{op} is not supported by the SPIR-V front end")
        if ins.result is not None:
            self.values[ins.result] = r

    def _splat(self, a, c):
        b = self.b
        if isinstance(a, Def) and isinstance(c, Def) and a.num_components != c.num_components:
            if a.num_components == 1:
                a = b.vec(*[a] * c.num_components)
            elif c.num_components == 1:
                c = b.vec(*[c] * a.num_components)
        return a, c

    def _binary(self, ins, name):
        a, c = self.val(ins.operands[0]), self.val(ins.operands[1])
        if isinstance(a, list):
            return [self.b.alu(name, x, y) for x, y in zip(a, c)]
        a, c = self._splat(a, c)
        return self.b.alu(name, a, c)

    def _unary(self, ins, name):
        a = self.val(ins.operands[0])
        if isinstance(a, list):
            return [self.b.alu(name, x) for x in a]
        return self.b.alu(name, a)

    def op_Variable(self, ins):
        storage = STORAGE_NAME.get(ins.operands[0])
        if storage != "Function":
            raise SpirvError(f"a {storage} variable inside a function")
        tid = self.types.info(ins.type_id).element
        var = self.L.new_local(f"spv.v{ins.result}", self.gt(tid))
        p = Ptr("var", tid, root=(lambda v=var: self.b.deref_var(v)))
        p.root_tid = tid
        if len(ins.operands) > 1:
            self.L.store(self.b.deref_var(var), self.gt(tid), self.val(ins.operands[1]))
        return p

    def op_Load(self, ins):
        p = self.val(ins.operands[0])
        if not isinstance(p, Ptr):
            raise SpirvError(f"OpLoad from %{ins.operands[0]}, which is not a pointer")
        if p.kind == "var" and not p.root_tid:
            p.root_tid = p.type_id
        return self.load(p, ins.type_id)

    def op_Store(self, ins):
        p = self.val(ins.operands[0])
        if not isinstance(p, Ptr):
            raise SpirvError(f"OpStore to %{ins.operands[0]}, which is not a pointer")
        if p.kind == "var" and not p.root_tid:
            p.root_tid = p.type_id
        self.store(p, self.val(ins.operands[1]))

    def op_CopyMemory(self, ins):
        dst, src = self.val(ins.operands[0]), self.val(ins.operands[1])
        for p in (dst, src):
            if p.kind == "var" and not p.root_tid:
                p.root_tid = p.type_id
        self.store(dst, self.load(src, src.type_id))

    def op_AccessChain(self, ins):
        base = self.val(ins.operands[0])
        if not isinstance(base, Ptr):
            raise SpirvError(f"OpAccessChain on %{ins.operands[0]}, which is not a pointer")
        idx = []
        for i in ins.operands[1:]:
            if i in self.consts:
                idx.append(int(self.consts[i]))
            else:
                idx.append(self.val(i))
        return self.access_chain(base, idx, ins.type_id)

    op_InBoundsAccessChain = op_AccessChain

    def op_ArrayLength(self, ins):
        b = self.b
        base = self.val(ins.operands[0])
        member = ins.operands[1]
        if base.kind != "buf":
            raise SpirvError("OpArrayLength of a non-buffer")
        tid = base.type_id
        off = self.m.decoration(tid, "Offset", member)[0]
        arr = self.types.info(tid).members[member]
        stride = self.m.decoration(arr, "ArrayStride")[0]
        size = b.intrinsic("get_ssbo_size", self._idx(base.index), num_components=1)
        return b.udiv(b.isub(b.umax(size, b.iimm(off)), b.iimm(off)), b.iimm(stride))

    def op_FunctionCall(self, ins):
        args = [self.val(a) for a in ins.operands[1:]]
        saved = self.cur_label
        r = self.inline(ins.operands[0], args)
        self.cur_label = saved
        return r

    def op_CopyObject(self, ins):
        return self.val(ins.operands[0])

    def op_Undef(self, ins):
        return self.const(ins.type_id, null_value(self.types, ins.type_id))

    # -- composites --------------------------------------------------------------
    def op_CompositeConstruct(self, ins):
        t = self.types.info(ins.type_id)
        parts = [self.val(x) for x in ins.operands]
        if t.kind == "vector":
            comps = []
            for p in parts:
                comps += [self.b.channel(p, i) for i in range(p.num_components)] if p.num_components > 1 else [p]
            return self.b.vec(*comps)
        return parts

    def op_CompositeExtract(self, ins):
        v = self.val(ins.operands[0])
        for i in ins.operands[1:]:
            v = v[i] if isinstance(v, list) else self.b.channel(v, i)
        return v

    def op_CompositeInsert(self, ins):
        obj = self.val(ins.operands[0])
        comp = self.val(ins.operands[1])
        return self._insert(comp, obj, list(ins.operands[2:]))

    def _insert(self, container, obj, path):
        i = path[0]
        if isinstance(container, list):
            out = list(container)
            out[i] = obj if len(path) == 1 else self._insert(container[i], obj, path[1:])
            return out
        b = self.b
        chans = [b.channel(container, c) for c in range(container.num_components)]
        chans[i] = obj
        return b.vec(*chans)

    def op_VectorShuffle(self, ins):
        b = self.b
        a, c = self.val(ins.operands[0]), self.val(ins.operands[1])
        pool = [b.channel(a, i) for i in range(a.num_components)] + [b.channel(c, i) for i in range(c.num_components)]
        comps = [pool[i] if i != 0xFFFFFFFF else b.undef(1, pool[0].bit_size) for i in ins.operands[2:]]
        return b.vec(*comps) if len(comps) > 1 else comps[0]

    def op_VectorExtractDynamic(self, ins):
        return self.L.dyn_component(self.val(ins.operands[0]), self.val(ins.operands[1]))

    def op_VectorInsertDynamic(self, ins):
        b = self.b
        v, x, i = self.val(ins.operands[0]), self.val(ins.operands[1]), self.val(ins.operands[2])
        return b.vec(*[b.bcsel(b.ieq(i, b.iimm(c)), x, b.channel(v, c)) for c in range(v.num_components)])

    def op_Transpose(self, ins):
        b = self.b
        m = self.val(ins.operands[0])
        rows = m[0].num_components
        return [b.vec(*[b.channel(col, r) for col in m]) if len(m) > 1 else b.channel(m[0], r)
                for r in range(rows)]

    # -- arithmetic ----------------------------------------------------------------
    def op_FMod(self, ins):
        b = self.b
        x, y = self._splat(self.val(ins.operands[0]), self.val(ins.operands[1]))
        return b.fsub(x, b.fmul(y, b.ffloor(b.fdiv(x, y))))

    def op_FRem(self, ins):
        b = self.b
        x, y = self._splat(self.val(ins.operands[0]), self.val(ins.operands[1]))
        return b.fsub(x, b.fmul(y, b.ftrunc(b.fdiv(x, y))))

    def op_Select(self, ins):
        c, a, d = (self.val(x) for x in ins.operands)
        if isinstance(a, list):
            return self.L.select(c, a, d)
        if c.num_components == 1 and a.num_components > 1:
            c = self.b.vec(*[c] * a.num_components)
        return self.b.bcsel(c, a, d)

    # -- SPV_KHR_subgroup_vote (GLSL's anyInvocation, allInvocations, allInvocationsEqual) ----
    def _vote(self, ins, mode: str):
        x = self.val(ins.operands[-1])          # (the KHR instructions take no scope operand)
        if not isinstance(x, Def) or x.bit_size != 1 or x.num_components != 1:
            raise SpirvError(f"Op{ins.op} of a value that is not a scalar bool")
        return self.b.intrinsic("vote", x, mode=mode)

    def op_SubgroupAnyKHR(self, ins):
        return self._vote(ins, "any")

    def op_SubgroupAllKHR(self, ins):
        return self._vote(ins, "all")

    def op_SubgroupAllEqualKHR(self, ins):
        return self._vote(ins, "eq")

    def op_Any(self, ins):
        v = self.val(ins.operands[0])
        b = self.b
        r = b.channel(v, 0)
        for i in range(1, v.num_components):
            r = b.ior(r, b.channel(v, i))
        return r

    def op_All(self, ins):
        v = self.val(ins.operands[0])
        b = self.b
        r = b.channel(v, 0)
        for i in range(1, v.num_components):
            r = b.iand(r, b.channel(v, i))
        return r

    def op_IsNan(self, ins):
        v = self.val(ins.operands[0])
        return self.b.fneu(v, v)

    def op_IsInf(self, ins):
        v = self.val(ins.operands[0])
        inf = self.b.fimm([float("inf")] * v.num_components)
        return self.b.feq(self.b.fabs(v), inf)

    def op_Dot(self, ins):
        a, c = self.val(ins.operands[0]), self.val(ins.operands[1])
        n = a.num_components
        return self.b.alu(f"fdot{n}", a, c) if n > 1 else self.b.fmul(a, c)

    def op_VectorTimesScalar(self, ins):
        return self._binary(ins, "fmul")

    def op_MatrixTimesScalar(self, ins):
        m, s = self.val(ins.operands[0]), self.val(ins.operands[1])
        return [self.b.fmul(col, s) for col in m]

    def op_MatrixTimesVector(self, ins):
        return self.L.mat_vec(self.val(ins.operands[0]), self.val(ins.operands[1]))

    def op_VectorTimesMatrix(self, ins):
        b = self.b
        v, m = self.val(ins.operands[0]), self.val(ins.operands[1])
        n = v.num_components
        dots = [b.alu(f"fdot{n}", v, col) if n > 1 else b.fmul(v, col) for col in m]
        return b.vec(*dots) if len(dots) > 1 else dots[0]

    def op_MatrixTimesMatrix(self, ins):
        a, c = self.val(ins.operands[0]), self.val(ins.operands[1])
        return [self.L.mat_vec(a, col) for col in c]

    def op_OuterProduct(self, ins):
        b = self.b
        c, r = self.val(ins.operands[0]), self.val(ins.operands[1])
        return [b.fmul(c, b.channel(r, j)) for j in range(r.num_components)]

    # -- conversions ------------------------------------------------------------------
    def _convert(self, ins, prefix):
        v = self.val(ins.operands[0])
        base = self.types.scalar_base(ins.type_id)
        bits = 64 if base in ("double", "int64", "uint64") else 32
        dst = {"float": "f", "double": "f", "int": "i", "uint": "u", "int64": "i", "uint64": "u"}[base]
        return self.b.alu(f"{prefix}2{dst}{bits}", v)

    def op_Bitcast(self, ins):
        v = self.val(ins.operands[0])
        return self.b.alu("mov", v)

    # -- bits ----------------------------------------------------------------------------
    def op_BitFieldInsert(self, ins):
        return self.b.bitfield_insert(*(self.val(x) for x in ins.operands))

    def op_BitFieldSExtract(self, ins):
        return self.b.ibitfield_extract(*(self.val(x) for x in ins.operands))

    def op_BitFieldUExtract(self, ins):
        return self.b.ubitfield_extract(*(self.val(x) for x in ins.operands))

    # -- derivatives (DPdx/DPdy: _UNARY) ---------------------------------------------
    def op_Fwidth(self, ins):
        b = self.b
        v = self.val(ins.operands[0])
        return b.fadd(b.fabs(b.fddx(v)), b.fabs(b.fddy(v)))

    op_FwidthFine = op_FwidthCoarse = op_Fwidth

    # -- barriers -------------------------------------------------------------------------
    # -- geometry stage ------------------------------------------------------------
    def op_EmitVertex(self, ins):
        self.L.io.geometry.emit_vertex(self.b)

    def op_EndPrimitive(self, ins):
        self.L.io.geometry.end_primitive(self.b)

    def _stream(self, ins) -> int:
        if ins.operands[0] not in self.consts:
            raise SpirvError("the stream of OpEmitStreamVertex / OpEndStreamPrimitive is not a constant")
        return int(self.consts[ins.operands[0]])

    def op_EmitStreamVertex(self, ins):
        self.L.io.geometry.emit_vertex(self.b, self._stream(ins))

    def op_EndStreamPrimitive(self, ins):
        self.L.io.geometry.end_primitive(self.b, self._stream(ins))

    def op_ControlBarrier(self, ins):
        self.b.barrier(execution_scope="workgroup", memory_scope="workgroup")

    def op_MemoryBarrier(self, ins):
        self.b.barrier(execution_scope="none", memory_scope="device")

    # -- extended instructions ----------------------------------------------------------
    def op_ExtInst(self, ins):
        set_name = self.m.ext_imports.get(ins.operands[0])
        if set_name != "GLSL.std.450":
            raise SpirvError(f"extended instruction set {set_name!r} is not supported")
        name = GLSL_STD_450.get(ins.operands[1], str(ins.operands[1]))
        args = [self.val(x) for x in ins.operands[2:]]
        if name.startswith("InterpolateAt"):
            return self._interpolate_at(ins, name, args)
        if name in ("Modf", "Frexp", "ModfStruct", "FrexpStruct"):
            return self._with_out_value(ins, name, args, self._type_of(ins.operands[2]))
        arg_types = [self._type_of(x) for x in ins.operands[2:]]
        if name == "IMix":
            raise SpirvError("GLSL.std.450 IMix is reserved (the instruction set gives it no meaning)")
        g = _STD.get(name)
        if g is None:
            raise SpirvError(f"GLSL.std.450 {name} is not supported")
        bi = self.L.builtins
        f = getattr(bi, "f_" + g, None)
        if f is None:
            raise SpirvError(f"GLSL.std.450 {name} is not supported")
        if name in ("UMin", "UMax", "UClamp", "FindUMsb") or name in ("SMin", "SMax", "SClamp", "FindSMsb", "SAbs",
                                                                   "SSign"):
            want = "uint" if name.startswith(("U", "FindU")) else "int"
            arg_types = [GT.vector(want, t.vector_size) if t.base in ("int", "uint") else t for t in arg_types]
        # scalar operands where a vector is expected (FMix's a, Step's edge) splat as GLSL does
        e = SimpleNamespace(args=[SimpleNamespace(type=t) for t in arg_types], type=self.gt(ins.type_id),
                            name=g)
        return f(e, *args)

    def _interpolate_at(self, ins, name: str, args):
        """InterpolateAtCentroid / AtSample / AtOffset of a fragment input (its pointer: the
        variable, an element of an input array, a component of either) through GLSL's
        interpolateAt* lowering; another interpolant (a block member) is GLSL's fallback."""
        b, bi = self.b, self.L.builtins
        p = args[0]
        loc, where = {"InterpolateAtCentroid": ("centroid", None), "InterpolateAtSample": ("at_sample", 1),
                      "InterpolateAtOffset": ("at_offset", 1)}[name]
        extra = args[1] if where else None
        at = b.iimm(0) if extra is None else (b.pack_half_2x16(extra) if loc == "at_offset" else extra)
        sym = self.symbols.get(p.name) if p.kind == "var" and p.name else None
        index, comps, path = None, None, list(p.path)
        if sym is not None and sym.type.is_array and path:
            index = path.pop(0)
        if path:
            comps = (path.pop(0),) if isinstance(path[0], int) and len(path) == 1 else None
            if comps is None:
                sym = None
        got = bi.interpolated_input(sym, loc, at, index, comps) if sym is not None else None
        if got is not None:
            return got
        x = self.load(p, self.types.info(self.m.defs[ins.operands[2]].type_id).element)
        x_type = self.gt(ins.type_id)
        e = SimpleNamespace(args=[SimpleNamespace(type=x_type)] + ([SimpleNamespace(type=GT.INT)] if extra else []),
                            type=x_type, name=name)
        f = getattr(bi, "f_interpolate" + name[len("Interpolate"):])
        return f(e, x, *([extra] if extra is not None else []))

    def _with_out_value(self, ins, name: str, args, x_type):
        """modf / frexp: the GLSL lowering's, its out parameter a temporary; Modf and Frexp
        store that to their pointer operand, the Struct forms return (result, it)."""
        if name.endswith("Struct"):
            out_type = self.gt(self.types.info(ins.type_id).members[1])
        else:
            out_type = self.gt(self.types.info(self.m.defs[ins.operands[3]].type_id).element)
        tmp = self.L.new_local(f"spv.out{ins.result}", out_type)
        from compiler.lower.from_ast import LValue
        lv = LValue(self.b.deref_var(tmp), out_type)
        fn = self.L.builtins.f_modf if name.startswith("Modf") else self.L.builtins.f_frexp
        e = SimpleNamespace(args=[SimpleNamespace(type=x_type), SimpleNamespace(type=out_type)], type=x_type,
                            name=fn.__name__[2:])
        result = fn(e, args[0], lv)
        out = self.L.load(self.b.deref_var(tmp), out_type)
        if name.endswith("Struct"):
            return [result, out]
        self.store(args[1], out)
        return result

    def _type_of(self, id_: int) -> GT.GLSLType:
        ins = self.m.defs.get(id_)
        if ins is None or ins.type_id is None:
            raise SpirvError(f"%{id_} has no type")
        return self.gt(ins.type_id)

    # -- atomics ------------------------------------------------------------------------
    def atomic(self, ins):
        b = self.b
        op = ins.op
        p = self.val(ins.operands[0])
        if op in ("AtomicIIncrement", "AtomicIDecrement"):
            data = [b.iimm(1 if op == "AtomicIIncrement" else -1)]
        elif op == "AtomicCompareExchange":
            data = [self.val(ins.operands[5]), self.val(ins.operands[4])]
        else:
            data = [self.val(ins.operands[3])]
        if op == "AtomicISub":
            data = [b.ineg(data[0])]
        aop = _ATOMICS[op]
        swap = aop == "cmpxchg"
        if p.kind == "texel":
            return self._image_atomic(ins, p, aop, data)
        if p.kind == "buf":
            if p.mode != "ssbo":
                raise SpirvError("an atomic operation on a uniform block")
            return b.intrinsic("ssbo_atomic_swap" if swap else "ssbo_atomic", self._idx(p.index),
                               self._off(p.offset), *data, atomic_op=aop)
        if p.kind == "var":
            if not p.root_tid:
                p.root_tid = p.type_id
            d, _gt, comp = self.walk_var(p)
            mode, index, offset, base_B = self.L.io.memory_address(self.L, d)
            if mode == "ssbo":
                return b.intrinsic("ssbo_atomic_swap" if swap else "ssbo_atomic", index, offset, *data,
                                   atomic_op=aop)
            return b.intrinsic("shared_atomic_swap" if swap else "shared_atomic", offset, *data, base=base_B,
                               atomic_op=aop)
        raise SpirvError(f"an atomic operation on a {p.kind} pointer")

    def op_AtomicLoad(self, ins):
        p = self.val(ins.operands[0])
        if p.kind == "texel":               # an atomic read of a texel: add 0
            return self._image_atomic(ins, p, "add", [self.b.iimm(0)])
        return self.load(p, ins.type_id)

    def op_AtomicStore(self, ins):
        p = self.val(ins.operands[0])
        if p.kind == "texel":               # an atomic write of a texel: exchange, the old value unused
            self._image_atomic(ins, p, "xchg", [self.val(ins.operands[3])])
            return
        self.store(p, self.val(ins.operands[3]))

    # -- image atomics (OpImageTexelPointer) ------------------------------------------------
    def op_ImageTexelPointer(self, ins):
        """A pointer to one texel of an image variable (operands: the image pointer, the
        coordinate, the sample); only atomic instructions may use it."""
        img = self.val(ins.operands[0])
        if img.kind != "opaque":
            raise SpirvError("OpImageTexelPointer of something that is not an image variable")
        pointee = self.types.info(ins.type_id).element
        return Ptr("texel", pointee, opaque=img.opaque, path=(self.val(ins.operands[1]), self.val(ins.operands[2])))

    def _image_atomic(self, ins, p: Ptr, aop: str, data: list):
        """GLSL's imageAtomic* lowering of an atomic on an OpImageTexelPointer (the image
        format's signedness picks min/max as in GLSL)."""
        img = p.opaque
        coord, sample = p.path
        name = _IMAGE_ATOMIC.get(aop)
        if name is None:
            raise SpirvError(f"Op{ins.op} on an image texel is not supported")
        args = [img, coord] + ([sample] if img.type.sampler_dim == "2DMS" else []) + list(data)
        rtype = self.gt(ins.type_id) if ins.type_id else self.gt(p.type_id)
        e = SimpleNamespace(type=rtype, name=name)
        return self.L.builtins.image_atomic(name, e, args)

    # -- images ------------------------------------------------------------------------
    def op_SampledImage(self, ins):
        return self.val(ins.operands[0])

    def op_Image(self, ins):
        return self.val(ins.operands[0])

    def _texture(self, name, ins, sampler, args, arg_ids_types):
        bi = self.L.builtins
        from compiler.lower.builtins import _TextureCall
        e = SimpleNamespace(args=[SimpleNamespace(type=sampler.type)] + [SimpleNamespace(type=t)
                                                                          for t in arg_ids_types],
                            type=self.gt(ins.type_id), name=name)
        return _TextureCall(bi, name, e, [sampler] + list(args)).emit()

    def _image_operands(self, ins, first: int):
        """The optional image operands (Bias, Lod, Grad, ConstOffset, Offset, Sample) from word ``first``."""
        o = ins.operands
        out = {}
        if len(o) <= first:
            return out
        mask = o[first]
        k = first + 1
        for bit, name, n in ((0x1, "bias", 1), (0x2, "lod", 1), (0x4, "grad", 2), (0x8, "offset", 1),
                             (0x10, "offset", 1), (0x20, "offsets", 1), (0x40, "sample", 1), (0x80, "minlod", 1)):
            if mask & bit:
                out[name] = [o[k + i] for i in range(n)]
                k += n
        return out

    def _sample(self, ins, dref: bool, proj: bool, explicit: bool):
        b = self.b
        sampler = self.val(ins.operands[0])
        coord_id = ins.operands[1]
        coord = self.val(coord_id)
        first = 3 if dref else 2
        ops = self._image_operands(ins, first)
        if dref:
            ref = self.val(ins.operands[2])
            st = sampler.type
            # GLSL folds the reference into the coordinate (shadow samplers), except cube arrays
            chans = [b.channel(coord, i) for i in range(coord.num_components)]
            if proj:
                chans = chans[:-1] + [ref, chans[-1]]
            elif not (st.sampler_dim == "Cube" and st.sampler_array):
                ncoord = {"1D": 1, "2D": 2, "3D": 3, "Cube": 3, "Rect": 2}[st.sampler_dim] + int(st.sampler_array)
                chans = chans[:ncoord] + [ref]
                if st.sampler_dim == "1D" and not st.sampler_array:
                    chans = chans[:1] + [b.fimm(0.0)] + [ref]
            coord = b.vec(*chans)
            ctype = GT.vector("float", len(chans))
        else:
            ctype = self._type_of(coord_id)
        name = "texture" + ("Proj" if proj else "")
        args, types = [coord], [ctype]
        if "lod" in ops:
            name += "Lod"
            args.append(self.val(ops["lod"][0]))
            types.append(GT.FLOAT)
        elif "grad" in ops:
            name += "Grad"
            for x in ops["grad"]:
                args.append(self.val(x))
                types.append(self._type_of(x))
        if "offset" in ops:
            name += "Offset"
            args.append(self.val(ops["offset"][0]))
            types.append(self._type_of(ops["offset"][0]))
        if "bias" in ops:
            args.append(self.val(ops["bias"][0]))
            types.append(GT.FLOAT)
        if dref and not explicit and sampler.type.sampler_dim == "Cube" and sampler.type.sampler_array:
            args.insert(1, self.val(ins.operands[2]))
            types.insert(1, GT.FLOAT)
        return self._texture(name, ins, sampler, args, types)

    def op_ImageSampleImplicitLod(self, ins):
        return self._sample(ins, False, False, False)

    def op_ImageSampleExplicitLod(self, ins):
        return self._sample(ins, False, False, True)

    def op_ImageSampleDrefImplicitLod(self, ins):
        return self._sample(ins, True, False, False)

    def op_ImageSampleDrefExplicitLod(self, ins):
        return self._sample(ins, True, False, True)

    def op_ImageSampleProjImplicitLod(self, ins):
        return self._sample(ins, False, True, False)

    def op_ImageSampleProjExplicitLod(self, ins):
        return self._sample(ins, False, True, True)

    def op_ImageFetch(self, ins):
        sampler = self.val(ins.operands[0])
        coord_id = ins.operands[1]
        ops = self._image_operands(ins, 2)
        args, types = [self.val(coord_id)], [self._type_of(coord_id)]
        dim = sampler.type.sampler_dim
        if "sample" in ops:
            args.append(self.val(ops["sample"][0]))
            types.append(GT.INT)
        elif dim not in ("Rect", "Buffer"):
            args.append(self.val(ops["lod"][0]) if "lod" in ops else self.b.iimm(0))
            types.append(GT.INT)
        name = "texelFetch"
        if "offset" in ops:
            name += "Offset"
            args.append(self.val(ops["offset"][0]))
            types.append(self._type_of(ops["offset"][0]))
        return self._texture(name, ins, sampler, args, types)

    def op_ImageQuerySizeLod(self, ins):
        sampler = self.val(ins.operands[0])
        return self._texture("textureSize", ins, sampler, [self.val(ins.operands[1])], [GT.INT])

    def op_ImageQuerySize(self, ins):
        sampler = self.val(ins.operands[0])
        if sampler.kind == "image":
            e = SimpleNamespace(args=[SimpleNamespace(type=sampler.type)], type=self.gt(ins.type_id))
            return self.L.builtins.f_imageSize(e, sampler)
        return self._texture("textureSize", ins, sampler, [], [])

    def _image_call(self, name, ins, img, args, arg_types):
        e = SimpleNamespace(args=[SimpleNamespace(type=img.type)] + [SimpleNamespace(type=t) for t in arg_types],
                            type=self.gt(ins.type_id) if ins.type_id else GT.VOID, name=name)
        return getattr(self.L.builtins, "f_" + name)(e, img, *args)

    def op_ImageRead(self, ins):
        img = self.val(ins.operands[0])
        ops = self._image_operands(ins, 2)
        args = [self.val(ins.operands[1])] + ([self.val(ops["sample"][0])] if "sample" in ops else [])
        return self._image_call("imageLoad", ins, img, args, [self._type_of(ins.operands[1])] * len(args))

    def op_ImageWrite(self, ins):
        img = self.val(ins.operands[0])
        ops = self._image_operands(ins, 3)
        args = [self.val(ins.operands[1])] + ([self.val(ops["sample"][0])] if "sample" in ops else []) + \
            [self.val(ins.operands[2])]
        self._image_call("imageStore", ins, img, args, [self._type_of(ins.operands[1])] * len(args))

    def op_ImageQueryLevels(self, ins):
        return self._texture("textureQueryLevels", ins, self.val(ins.operands[0]), [], [])

    def op_ImageQuerySamples(self, ins):
        img = self.val(ins.operands[0])
        if img.kind == "image":
            return self._image_call("imageSamples", ins, img, [], [])
        return self._texture("textureSamples", ins, img, [], [])

    def op_ImageGather(self, ins):
        sampler = self.val(ins.operands[0])
        coord_id = ins.operands[1]
        args = [self.val(coord_id), self.val(ins.operands[2])]
        types = [self._type_of(coord_id), GT.INT]
        ops = self._image_operands(ins, 3)
        name = "textureGather"
        if "offset" in ops:
            name += "Offset"
            args.insert(1, self.val(ops["offset"][0]))
            types.insert(1, self._type_of(ops["offset"][0]))
        return self._texture(name, ins, sampler, args, types)

    def op_ImageDrefGather(self, ins):
        """textureGather(samplerShadow, P, refZ) (and its Offset form)."""
        sampler = self.val(ins.operands[0])
        coord_id, dref_id = ins.operands[1], ins.operands[2]
        args = [self.val(coord_id), self.val(dref_id)]
        types = [self._type_of(coord_id), GT.FLOAT]
        ops = self._image_operands(ins, 3)
        name = "textureGather"
        if "offset" in ops:
            name += "Offset"
            args.append(self.val(ops["offset"][0]))
            types.append(self._type_of(ops["offset"][0]))
        return self._texture(name, ins, sampler, args, types)


def _add(b, x, y):
    if isinstance(x, int) and isinstance(y, int):
        return x + y
    if isinstance(y, int):
        return x if y == 0 else b.iadd(x, b.iimm(y))
    if isinstance(x, int):
        return y if x == 0 else b.iadd(b.iimm(x), y)
    return b.iadd(x, y)


def _mul(b, idx, k: int):
    if isinstance(idx, int):
        return idx * k
    return b.imul(idx, b.iimm(k))
