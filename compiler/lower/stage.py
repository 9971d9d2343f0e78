"""A stage lowered once for every variant, and the variant passes on a copy of it.

    lowered = lower_stage(unit)            # key-independent: AST -> IR, once per linked stage
    shader, io = lowered.variant(key)      # a copy of the IR, the key's passes applied

Mesa's asahi driver gets one NIR shader per linked stage and applies each
variant key as NIR passes on a clone of it (``agx_compile_variant``). Here the
typed AST is lowered once (``lower_stage``: expressions, statements, control
flow, built-in functions, uniforms, buffers, textures, images and the
interface variables' local copies); what depends on the variant key is left
for ``LoweredStage.variant``, which copies the IR and runs the key's passes on
the copy:

- **samples** (``key["samples"]``): the value of gl_NumSamples;
- **primitive ID source** (``primitive_id_varying``): a fragment shader's
  gl_PrimitiveID from the rasteriser or from a flat varying a geometry stage wrote;
- **vertex inputs** (``attribute_locations``, ``vertex_attribs``): attribute
  locations, and for the attributes the key lists the fetch and format
  conversion in the shader (``vertex_fetch.py``), else ``load_input``;
- **varyings** (``flat_shade``, ``fp16_varyings``, ``two_side``): the slot
  order and interpolation of the vertex outputs and fragment inputs, the
  compatibility colours' flat shading and two-sided selection (front or back
  colour by ``load_front_face``);
- **clip planes** (``clip_planes``): the clip distances the vertex stage writes
  (gl_ClipDistance, or dot(gl_ClipPlane[i], gl_ClipVertex));
- **transform feedback** (``xfb``): the vertex stage's stores of captured outputs;
- **fragment outputs** (``render_targets``, ``frag_output_locations``,
  ``frag_output_indices``, ``alpha_func``, ``alpha_to_coverage``,
  ``alpha_to_one``, ``clamp_fragment_color``, ``logic_op``): the end-of-shader
  epilogue that tests alpha, blends, converts and stores each render target;
- **register fit**: the default block's uniforms that do not fit the registers
  left by the buffer and attribute addresses the variant needs move to UBO 0.

The key-independent half never reads the key (``io.NO_KEY`` raises), and after
it the lowering's state refers to no AST: the interface variables are
``InterfaceSymbol`` records (their declaration's facts), and the stage's facts
(version, work-group size, info log) are copied. ``scalarize`` and ``profile``
are read by the pipeline after this (``compiler.compile``).

Geometry and tessellation shaders are lowered to compute kernels whose shape
depends on the draw (topology, strides: ``key["gs"]``, ``key["tcs"]``,
``key["tes"]``) from the start; they keep the one-pass ``lower_unit``.

Invariants: ``LoweredStage`` is never changed after ``lower_stage``; every
``variant`` works on its own copy, so variants can be made in any order and
give the IR the one-pass lowering gives for the same key.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from compiler.ir.builder import Builder
from compiler.ir.core import Block, Def, Function, Instr, Shader, Variable, clone_cf_list, walk_instrs

from .from_ast import Lowerer
from .interface import InterfaceSymbol
from .io import NO_KEY, IOLowering, options_from_key

__all__ = ["KERNEL_STAGES", "LoweredStage", "StageFacts", "glsl_to_ir", "kernel_shape", "lower_stage",
           "lower_globals_and_main", "lower_unit", "lowered_from", "lowering_options", "translated_front_half"]

#: stages lowered to compute kernels shaped by the draw: lowered with their key, in one pass
KERNEL_STAGES = frozenset({"geometry", "tess_control", "tess_evaluation"})


@dataclass(frozen=True)
class StageFacts:
    """What the pipeline reads of the typed AST after lowering (``compiler.variant.shader_info``)."""
    stage: str
    version: Any            # compiler.glsl.GLSLVersion
    local_size: tuple | None
    info_log: str


def lower_globals_and_main(unit, L, io) -> None:
    """Global initialisers in declaration order, then main's body (inlined)."""
    from compiler.glsl import ast
    from .errors import LoweringError
    for d in unit.declarations:
        if isinstance(d, ast.VariableDeclaration):
            for decl in d.declarators:
                sym = decl.variable
                if sym is None or sym.type.is_opaque or sym.storage not in ("temporary", "const"):
                    continue
                if sym not in L.vars:
                    io.global_symbol(L, sym)
                init = decl.initializer
                var, _path = L.vars[sym]
                if init is not None:
                    L.store(L.b.deref_var(var), sym.type, L.expr(init))
                elif sym.const_value is not None:
                    L.store(L.b.deref_var(var), sym.type, L.const(sym.type, sym.const_value))
    main = unit.main
    if main is None or main.definition is None:
        raise LoweringError("the shader has no main()")
    L.inline_body(main.definition.body, None)


def lowering_options(key) -> dict:
    """The compile options (not variant state) a standalone caller may pass in its
    key (``compiler.lower.io.COMPILE_OPTIONS``)."""
    return options_from_key(key)


def lower_unit(unit, key=None):
    """Translate ``unit`` for variant ``key`` in one pass; returns ``(shader, io)``
    where ``io`` (an ``IOLowering``) holds the maps (attributes, varyings, uniforms,
    samplers, images, atomic counters, ubos, ssbos, outputs). The IR still has
    variables (run ``compiler.ir.passes.lower_io`` and ``preprocess``;
    ``compiler.compile.front_half`` does all of it). Vertex, fragment and compute
    stages give the IR ``lower_stage(unit).variant(key)`` gives (stage.py)."""
    io = IOLowering(unit, key, lowering_options(key))
    L = Lowerer(unit, io)
    io.begin(L)
    lower_globals_and_main(unit, L, io)
    io.finish(L)
    io.fit_uniform_registers()
    kernel_shape(unit, L, io)
    return L.shader, io


def glsl_to_ir(unit, key=None):
    """The IR of ``unit`` for variant ``key`` (a ``compiler.ir.ShaderKey`` or None),
    with interface variables already lowered to I/O intrinsics (``lower_io``) but
    not optimised. ``shader.info["io"]`` holds the ``IOLowering`` with the maps."""
    from compiler.ir.passes import lower_io
    shader, io = lower_unit(unit, key)
    lower_io(shader)
    shader.info["io"] = io
    return shader


def translated_front_half(unit, key, translate) -> tuple[Shader, IOLowering]:
    """(IR after ``lower_io`` and ``preprocess``, the ``IOLowering``) of a front end
    that emits its own instructions (ARB assembly, SPIR-V) inside the GLSL lowering of
    its interface unit ``unit``, for variant ``key``: the interface's prologue and
    globals, the unit's main, ``translate(L)`` with the ``Lowerer``, then the
    interface's output stores and fragment epilogue and the GLSL path's first passes."""
    from compiler.ir.passes import lower_io, preprocess
    io = IOLowering(unit, key, options_from_key(key))
    L = Lowerer(unit, io)
    io.begin(L)
    for g in unit.globals:
        if g.storage == "temporary" and g not in L.vars:
            io.global_symbol(L, g)
    L.inline_body(unit.main.definition.body, None)
    translate(L)
    io.finish(L)
    io.fit_uniform_registers()
    kernel_shape(unit, L, io)
    ir = L.shader
    lower_io(ir)
    preprocess(ir, scalarize=bool(key.get("scalarize", False)) if key is not None else False)
    return ir, io


def kernel_shape(unit, L, io) -> None:
    """The work-group size of the lowered shader; geometry and tessellation stages
    become compute kernels (geometry.py, tessellation.py)."""
    L.shader.info["local_size"] = unit.local_size
    if unit.stage in ("tess_control", "tess_evaluation"):
        L.shader.stage = "compute"
        L.shader.info["local_size"] = io.tess.local_size
    if unit.stage == "geometry":
        from .geometry import LOCAL_SIZE_X
        L.shader.stage = "compute"
        L.shader.info["local_size"] = (LOCAL_SIZE_X, 1, 1)


def lower_stage(unit, options=None) -> "LoweredStage":
    """Lower ``unit`` (a linked vertex, fragment or compute stage) once for all
    its variants. ``options``: compile options that are not variant state
    (``uniform_regs_B``, ``atomic_counter_ssbo_base``). Raises ``LoweringError``
    (also for a bug of the lowering: an internal compiler error); runs with the
    recursion headroom deep expressions need."""
    if unit.stage in KERNEL_STAGES:
        raise ValueError(f"a {unit.stage} shader is lowered with its draw's key (compiler.lower.lower_unit)")
    from compiler.scope import bugs_as, recursion_headroom
    from .errors import LoweringError
    with recursion_headroom(), bugs_as(LoweringError):
        return _lower_stage(unit, options)


def _lower_stage(unit, options) -> "LoweredStage":
    io = IOLowering(unit, NO_KEY, options)
    L = Lowerer(unit, io)
    io.begin(L)
    lower_globals_and_main(unit, L, io)
    return lowered_from(unit, L, io)


def lowered_from(unit, L, io) -> "LoweredStage":
    """The ``LoweredStage`` of a front end that has lowered ``unit``'s body with
    ``L`` (a ``Lowerer``) and ``io`` (an ``IOLowering`` made with ``NO_KEY``), up to
    the end of main but not ``io.finish``: what another front end (SPIR-V: its
    interface unit, then its own instructions through ``L``) hands on, to be
    wrapped in a ``compiler.variant.StageIR``. ``unit`` is not kept."""
    return LoweredStage(L.shader, io, L, StageFacts(unit.stage, unit.version, unit.local_size, unit.info_log),
                        _builtin_symbols(unit, io, L))


def _builtin_symbols(unit, io, L) -> dict:
    """The built-ins a variant pass may reference that the shader need not have:
    gl_ClipPlane (user clip planes of a vertex stage, where the version has it)."""
    if unit.stage != "vertex":
        return {}
    try:
        sym = io.builtin_symbol("gl_ClipPlane")
    except StopIteration:
        return {}
    return {"gl_ClipPlane": sym}


class LoweredStage:
    """The key-independent IR of one stage and the interface lowering's state
    (``IOLowering``, the ``Lowerer``'s variables and builders) at the end of
    main, holding no AST. Never changed: ``variant`` copies it."""

    def __init__(self, shader: Shader, io: IOLowering, L: Lowerer, facts: StageFacts, builtins: dict):
        snaps: dict[int, InterfaceSymbol] = {}

        def snap(sym):
            if isinstance(sym, InterfaceSymbol):
                return sym
            got = snaps.get(id(sym))
            if got is None:
                got = snaps[id(sym)] = InterfaceSymbol.of(io.unit, sym)
            return got

        io.builtin_symbols = {name: snap(s) for name, s in builtins.items()}
        io.out_symbols = [(snap(s), v) for s, v in io.out_symbols]
        io._input_vars = [(snap(s), v) for s, v in io._input_vars]
        io.interpolate_at = [(i, snap(s)) for i, s in io.interpolate_at]
        io._deferred = [(w, v, snap(s)) for w, v, s in io._deferred]
        # the finish passes look built-ins up by name (gl_ClipPlane) and bind new ones
        L.vars = {snap(s): vp for s, vp in L.vars.items() if getattr(s, "builtin", False)}
        L.opaque, L.block_arrays, L.block_array_vars = {}, {}, {}
        L.unit = io.unit = None
        L.builtins = None
        self.serial_next = next(L._serial)
        L._serial = None
        self.shader, self.io, self.L, self.facts = shader, io, L, facts
        self.stage = facts.stage
        _check_no_ast(io.__dict__, L.__dict__)

    def variant(self, key) -> tuple[Shader, IOLowering]:
        """A copy of the IR with variant ``key``'s passes applied (``finish``: the
        interface; ``fit_uniform_registers``) and the interface variables lowered to
        I/O intrinsics (``compiler.ir.passes.lower_io``); not optimised. Returns
        ``(shader, io)``: ``io`` holds the maps (attributes, varyings, uniforms, ...)."""
        from compiler.ir.passes import lower_io
        shader, io, L = self._copy()
        io.key = key
        io.finish(L)
        io.fit_uniform_registers()
        shader.info["local_size"] = self.facts.local_size
        lower_io(shader)
        return shader, io

    def _copy(self) -> tuple[Shader, IOLowering, Lowerer]:
        old = self.shader
        new = Shader(old.stage, old.name)
        new.info = dict(old.info)
        var_map: dict[Variable, Variable] = {}
        for v in old.variables:
            var_map[v] = Variable(v.name, v.type, v.mode, dict(v.data))
            new.variables.append(var_map[v])
        func_map: dict[Function, Function] = {}
        def_map: dict[Def, Def] = {}
        block_map: dict[Block, Block] = {}
        instr_map: dict[Instr, Instr] = {}
        for f in old.functions:
            nf = func_map[f] = Function(f.name, f.params, f.ret)
            new.functions.append(nf)
            for v in f.locals:
                var_map[v] = Variable(v.name, v.type, v.mode, dict(v.data))
                nf.locals.append(var_map[v])
            nf.body = clone_cf_list(f.body, def_map, block_map, var_map)
            instr_map.update(zip(walk_instrs(f.body), walk_instrs(nf.body)))
        io = IOLowering.__new__(IOLowering)
        L = Lowerer.__new__(Lowerer)
        objects = {id(old): new, id(self.io): io, id(self.L): L}

        def remap(x):
            got = objects.get(id(x))
            if got is not None:
                return got
            if isinstance(x, Variable):
                return var_map.get(x, x)
            if isinstance(x, Def):
                return def_map.get(x, x)
            if isinstance(x, Instr):
                return instr_map.get(x, x)
            if isinstance(x, Block):
                return block_map.get(x, x)
            if isinstance(x, Function):
                return func_map.get(x, x)
            if isinstance(x, Builder):
                b = Builder.__new__(Builder)
                b.__dict__.update({k: remap(v) for k, v in x.__dict__.items()})
                return b
            if isinstance(x, list):
                return [remap(v) for v in x]
            if type(x) is tuple:
                return tuple(remap(v) for v in x)
            if isinstance(x, dict):
                return {remap(k): remap(v) for k, v in x.items()}
            return x

        io.__dict__.update({k: remap(v) for k, v in self.io.__dict__.items()})
        L.__dict__.update({k: remap(v) for k, v in self.L.__dict__.items()})
        L._serial = itertools.count(self.serial_next)
        return new, io, L


def _check_no_ast(*states) -> None:
    """The lowering's state after the key-independent half holds no typed-AST node or symbol."""
    from compiler.glsl import ast
    from compiler.glsl.symbols import FunctionSignature, Variable as Symbol
    seen: set[int] = set()

    def walk(x, path):
        if id(x) in seen:
            return
        seen.add(id(x))
        if isinstance(x, (ast.Node, Symbol, FunctionSignature)):
            raise AssertionError(f"the lowered stage still refers to the AST at {path}: {type(x).__name__}")
        if isinstance(x, dict):
            for k, v in x.items():
                walk(k, path + "{}")
                walk(v, f"{path}[{k!r}]"[:200])
        elif isinstance(x, (list, tuple, set, frozenset)):
            for v in x:
                walk(v, path + "[]")
    for state in states:
        for k, v in state.items():
            walk(v, k)
