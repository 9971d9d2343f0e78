"""Variants of a linked stage: what a hardware driver calls to compile a shader.

    compiled = compile_stage(stage_ir, key)        # a CompiledShader (binary, ShaderInfo)

The pipe carries each linked vertex, fragment or compute stage as a ``StageIR``:
the stage's IR, lowered once for every variant, named by a digest. A variant
is that IR copied with the key's passes applied (``compiler.lower.stage``
lists them; Mesa's ``agx_compile_variant`` runs NIR passes on a clone of the
linked shader the same way), optimised here (``optimise``) and compiled by the
backend (``compiler.backend.compile_ir``). ``ShaderInfo`` is what the driver
reads of the result.

Nothing here parses GLSL or reads a typed AST, and nothing imports the GLSL
front end (``compiler.glsl``, ``compiler.compile``, ``compiler.lower.from_ast``
and the interface lowering): the front end that links a stage hands its
``StageIR`` the lowering to run on first use (``StageIR.lower``, a callable:
``compiler.link``'s), and the lowered stage brings its own variant passes
(``LoweredStage.variant``). So the driver modules that import this one reach
the IR, the key-dependent passes' results and the backend, never the front end
(pyproject.toml's import-linter contract; tests/driver/test_pipe_reads_no_ast.py
checks the modules a process loads too).

Other front ends (ARB assembly programs, SPIR-V, the geometry and tessellation
kernels, which are lowered with their draw's key) hand the pipe an object with
its own ``front_half(key) -> (IR, ShaderInfo)``, which ends in ``optimise`` too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.scope import bugs_as, recursion_headroom

# The IR passes, the lowering's 64-bit and robustness passes and the backend are
# imported by the functions that run them: the GL front end links (and makes
# StageIRs) at start-up, and a process whose variants all come from the on-disk
# shader cache never imports them.

__all__ = ["ShaderInfo", "StageIR", "compile_stage", "front_half_stage", "optimise", "shader_info"]


@dataclass(frozen=True, eq=False)
class StageIR:
    """One linked vertex, fragment or compute stage as the pipe carries it: IR
    lowered once for every variant (``lowered``: a ``compiler.lower.LoweredStage``,
    the IR and the interface description the variant passes read) and ``digest``,
    which stands for that IR in caches (the IR is made from the link's serialised
    form by the compiler of one build id, so the form's digest names it).
    ``source`` is the GLSL, for messages only; ``profile`` the GLSL profile.

    ``lowered`` is made on its first use (``lower``: a callable returning the
    ``LoweredStage``) and raises ``compiler.lower.LoweringError`` (every time) when
    the stage cannot be lowered. Equality and hash go by digest. Another front end
    hands the pipe the same type with its own ``LoweredStage``
    (``compiler.lower.stage.lowered_from``) and a digest of its own input.

    Nothing here lowers: the front end that makes a StageIR hands it ``lower``
    (``compiler.link``: the GLSL link's lowering of its typed AST), so the pipe
    that compiles variants of it never imports the front end."""
    stage: str
    digest: str
    profile: str
    source: str = field(repr=False, default="")
    lower: Any = field(repr=False, default=None)

    @property
    def lowered(self):
        return self.lower()

    def __eq__(self, other) -> bool:
        return isinstance(other, StageIR) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)


@dataclass
class ShaderInfo:
    """What the driver and the backend need to know about a compiled shader.

    - ``varyings``: vertex outputs (VS: ``index`` = first st_var output index, in
      the AGX order POS, 32-bit smooth/flat/linear, 16-bit ..., PSIZ, CLIP) or
      fragment inputs (FS: ``index`` = first coefficient register; cf0 = W, cf1 = Z);
      ``varying(slot)`` finds one by slot name. ``vertex_outputs``: total VS words.
    - ``uniforms``: leaf name -> ``UniformSlot`` (file "regs": byte offset from u0;
      "ubo": in UBO 0, the default uniform buffer); ``uniform_regs_B``: bytes of
      uniform registers used (including ``shimgl_BlendColor``/``shimgl_AlphaRef``), the
      first ``uniform_regs_B`` bytes of the program's default block from byte
      ``uniform_regs_base_B`` (the offsets of "regs" uniforms count from there);
      ``state_ranges``: (register offset_B, state block offset_B, size_B) of the
      built-in state uniforms in registers, which the driver fills from the state
      block (``compiler.link.state_block``).
    - ``attributes``: VS input name -> ``Attribute`` (location, type, components).
    - ``outputs``: FS: render target index -> output name, "DEPTH", "SAMPLE_MASK".
    - ``samplers``/``images``/``atomic_counters``: name -> ``OpaqueSlot``.
    - ``ubos``/``ssbos``: block name -> UBO index (binding + 1) / SSBO index (binding).
    - ``local_size``: compute work-group size; ``shared_size_B``, ``scratch_size_B``.
    - ``discards``: the shader may discard (it has discard/discard_if).
    - ``system_values``: the system-value intrinsics the optimised IR reads
      (``load_sample_id`` means per-sample shading, ``load_frag_coord``, ...).
    """
    stage: str
    version: int
    varyings: list = field(default_factory=list)  # of compiler.lower.io.Varying
    vertex_outputs: int = 0
    uniforms: dict = field(default_factory=dict)  # str -> compiler.lower.io.UniformSlot
    uniform_regs_B: int = 0
    state_ranges: tuple = ()
    uniform_regs_base_B: int = 0
    attributes: dict = field(default_factory=dict)  # str -> compiler.lower.io.Attribute
    outputs: dict = field(default_factory=dict)
    samplers: dict = field(default_factory=dict)  # str -> compiler.lower.io.OpaqueSlot
    images: dict = field(default_factory=dict)
    atomic_counters: dict = field(default_factory=dict)
    ubos: dict[str, int] = field(default_factory=dict)
    ssbos: dict[str, int] = field(default_factory=dict)
    local_size: tuple[int, int, int] | None = None
    shared_size_B: int = 0
    scratch_size_B: int = 0
    discards: bool = False
    system_values: frozenset = frozenset()
    info_log: str = ""
    geometry: object = None     # a geometry shader's kernel: compiler.lower.geometry.GeometryInterface

    def varying(self, slot: str) -> Varying:
        for v in self.varyings:
            if v.slot == slot:
                return v
        raise KeyError(slot)


def shader_info(shader, io, unit) -> ShaderInfo:
    """The ShaderInfo of an optimised shader from its interface lowering ``io``
    (``compiler.lower.IOLowering``) and ``unit``: the typed AST the interface came
    from, or its ``compiler.lower.StageFacts`` (version, local_size, info_log; front
    ends other than GLSL's, e.g. compiler.arb, share it)."""
    from compiler.ir import INTRINSICS, Intrinsic, walk_instrs
    used = {i.name for f in shader.functions for i in walk_instrs(f.body) if isinstance(i, Intrinsic)}
    discards = bool(used & {"discard", "discard_if"})
    sysvals = frozenset(n for n in used if n.startswith("load_") and not INTRINSICS[n].src_components
                        and INTRINSICS[n].can_reorder)
    return ShaderInfo(
        stage=shader.stage, version=unit.version.number, varyings=list(io.varyings),
        vertex_outputs=shader.info.get("vertex_outputs", 0), uniforms=dict(io.uniforms),
        uniform_regs_B=getattr(io, "uniform_regs_used_B", 0), attributes=dict(io.attributes),
        state_ranges=io.state_push_ranges(), uniform_regs_base_B=io.regs_base_B or 0,
        outputs=dict(io.outputs), samplers=dict(io.samplers), images=dict(io.images),
        atomic_counters=dict(io.atomic_counters), ubos=dict(io.ubos), ssbos=dict(io.ssbos),
        local_size=shader.info.get("local_size", unit.local_size), shared_size_B=shader.info.get("shared_size_B", 0),
        scratch_size_B=shader.info.get("scratch_size_B", 0), discards=discards, system_values=sysvals,
        info_log=unit.info_log, geometry=shader.info.get("geometry"))


def front_half_stage(lowered, key=None) -> tuple[Any, ShaderInfo]:
    """``front_half`` of a stage already lowered for every variant
    (``compiler.lower.LoweredStage``): variant ``key``'s passes on a copy of its IR,
    then the optimisation pipeline. ``lowered`` is only read. Raises ``LoweringError``."""
    from compiler.lower.errors import LoweringError
    with recursion_headroom(), bugs_as(LoweringError):
        shader, io = lowered.variant(key)
        return optimise(shader, io, lowered.facts, key)


def optimise(shader, io, facts, key) -> tuple[Any, ShaderInfo]:
    """The pipeline after a variant's lowering (``shader``, its ``IOLowering`` ``io``
    and the stage's ``facts``): preprocessing and the optimisation loop (scalarised
    when ``key["scalarize"]``), fp64/int64 to 32-bit code, robust buffer access for a
    robust context's variant; then the ``ShaderInfo``."""
    from compiler.ir.passes import optimize, preprocess, run_pass
    from compiler.lower.lower64 import lower_64bit
    scalarize = bool(key.get("scalarize", False)) if key is not None else False
    preprocess(shader, scalarize=scalarize)
    if run_pass(shader, lower_64bit):          # no fp64 in the GPU: doubles become 32-bit integer code
        optimize(shader)
    if key is not None and key.get("robust_buffer_access"):     # a robust context's variant
        from compiler.lower.robust_access import lower_robust_buffer_access
        run_pass(shader, lower_robust_buffer_access)
        shader.info["robust_buffer_access"] = True       # the backend bounds vertex fetches too
    info = shader_info(shader, io, facts)
    return shader, info


def compile_stage(stage: StageIR, key=None, **kw):
    """One stage as the pipe carries it (``StageIR``) -> CompiledShader for variant
    ``key``: the key's passes on a copy of the IR and the optimisation pipeline
    (:func:`front_half_stage`), then ``compiler.backend.compile_ir``. What a driver
    calls: no GLSL is parsed, no AST read. Raises ``LoweringError`` or
    ``compiler.backend.BackendError``."""
    from compiler.backend import compile_ir
    ir, info = front_half_stage(stage.lowered, key)
    return compile_ir(ir, info, source=stage.source, **kw)
