"""The front half of the compiler: GLSL source -> optimised IR + ShaderInfo.

    shader, info = front_half(source, stage, key)

runs ``compiler.glsl.parse`` -> ``compiler.lower.glsl_to_ir`` (which lowers the
shader interface to I/O intrinsics) -> ``compiler.ir.passes.preprocess``
(inline, vars->SSA, the optimisation loop, indirect arrays; scalarised when
``key["scalarize"]``). The backend takes ``shader`` from here; the driver reads
``info``. The conventions (slots, indices, uniform files, render targets) are
documented in compiler/lower/io.py and compiler/lower/blend.py.

Key fields read (``compiler.ir.ShaderKey`` or None): vertex — ``clip_planes``,
``attribute_locations``, ``vertex_attribs`` (``compiler.lower.VertexAttrib``),
``fp16_varyings``, ``flat_shade``; fragment —
``render_targets`` (tuple of ``compiler.lower.RenderTarget``), ``frag_output_locations``, ``logic_op``, ``alpha_func``,
``alpha_to_coverage``, ``alpha_to_one``, ``samples``, ``two_side``,
``flat_shade``, ``sample_shading`` (glMinSampleShading asks for more than one sample:
every input is interpolated at the sample, which makes the program per sample); all — ``uniform_regs_B``, ``atomic_counter_ssbo_base``,
``scalarize``, ``profile`` (the GLSL profile the GL front end compiled the
source with: "core" or "compatibility"; a ``#version`` profile token still
wins. Absent: 1.40 compatibility, 1.50+ core, as ``compiler.glsl.parse`` with
no context).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.glsl import GLSLCompileError, parse, recursion_headroom
from compiler.glsl.errors import bugs_as
from compiler.ir import Shader
from compiler.ir.passes import optimize, preprocess, run_pass
from compiler.lower import KERNEL_STAGES, LoweringError, glsl_to_ir, lower_stage, lowering_options
from compiler.lower.lower64 import lower_64bit
from compiler.lower.io import Attribute, OpaqueSlot, UniformSlot, Varying

__all__ = ["ShaderInfo", "front_half", "front_half_stage", "front_half_unit", "shader_info"]


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
    varyings: list[Varying] = field(default_factory=list)
    vertex_outputs: int = 0
    uniforms: dict[str, UniformSlot] = field(default_factory=dict)
    uniform_regs_B: int = 0
    state_ranges: tuple = ()
    uniform_regs_base_B: int = 0
    attributes: dict[str, Attribute] = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    samplers: dict[str, OpaqueSlot] = field(default_factory=dict)
    images: dict[str, OpaqueSlot] = field(default_factory=dict)
    atomic_counters: dict[str, OpaqueSlot] = field(default_factory=dict)
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


_COMPAT_CONTEXT = {"compatibility": True, "core": False}


def shader_info(shader: Shader, io, unit) -> ShaderInfo:
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


def front_half(source: str, stage: str, key=None) -> tuple[Shader, ShaderInfo]:
    """Parse, lower and optimise one shader for variant ``key``. Raises
    ``GLSLCompileError`` for invalid GLSL and ``LoweringError`` for what the
    lowering does not support."""
    with recursion_headroom(), bugs_as(LoweringError, GLSLCompileError):
        return _front_half(source, stage, key)


def front_half_unit(unit, key=None) -> tuple[Shader, ShaderInfo]:
    """``front_half`` of an already typed AST (one linked stage, ``compiler.link``):
    lower, optimise and describe it for variant ``key``. ``unit`` is only read (the
    same unit gives every variant). Raises ``LoweringError``."""
    with recursion_headroom(), bugs_as(LoweringError):
        return _front_half_unit(unit, key)


def _front_half(source: str, stage: str, key) -> tuple[Shader, ShaderInfo]:
    profile = key.get("profile") if key is not None else None
    unit = parse(source, stage, compat_context=_COMPAT_CONTEXT.get(profile), require_main=True)
    return _front_half_unit(unit, key)


def front_half_stage(lowered, key=None) -> tuple[Shader, ShaderInfo]:
    """``front_half`` of a stage already lowered for every variant
    (``compiler.lower.LoweredStage``): variant ``key``'s passes on a copy of its IR,
    then the optimisation pipeline. ``lowered`` is only read. Raises ``LoweringError``."""
    with recursion_headroom(), bugs_as(LoweringError):
        shader, io = lowered.variant(key)
        return _optimise(shader, io, lowered.facts, key)


def _front_half_unit(unit, key) -> tuple[Shader, ShaderInfo]:
    if unit.stage in KERNEL_STAGES:           # kernels shaped by the draw: lowered with the key
        shader = glsl_to_ir(unit, key)
        return _optimise(shader, shader.info.pop("io"), unit, key)
    shader, io = lower_stage(unit, lowering_options(key)).variant(key)
    return _optimise(shader, io, unit, key)


def _optimise(shader, io, facts, key) -> tuple[Shader, ShaderInfo]:
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
