"""The compiler from GLSL text: source -> optimised IR + ShaderInfo -> binary.

    shader, info = front_half(source, stage, key)
    compiled = compile_glsl(source, stage, key)        # front_half, then the backend

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

from compiler.backend import CompiledShader, compile_ir
from compiler.glsl import GLSLCompileError, parse
from compiler.ir import Shader
from compiler.lower import KERNEL_STAGES, LoweringError, glsl_to_ir, lower_stage, lowering_options
from compiler.scope import bugs_as, recursion_headroom
from compiler.variant import ShaderInfo, compile_stage, optimise

__all__ = ["compile_glsl", "compile_linked", "front_half", "front_half_unit"]

_COMPAT_CONTEXT = {"compatibility": True, "core": False}


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


def _front_half_unit(unit, key) -> tuple[Shader, ShaderInfo]:
    if unit.stage in KERNEL_STAGES:           # kernels shaped by the draw: lowered with the key
        shader = glsl_to_ir(unit, key)
        return optimise(shader, shader.info.pop("io"), unit, key)
    shader, io = lower_stage(unit, lowering_options(key)).variant(key)
    return optimise(shader, io, unit, key)


def compile_linked(shader, key=None, **kw) -> CompiledShader:
    """One linked stage (``compiler.link.LinkedShader``) -> CompiledShader for variant
    ``key``: ``compiler.variant.compile_stage`` of its ``stage_ir()``; geometry and
    tessellation stages, lowered with their draw's key, through :func:`front_half_unit`."""
    if shader.stage not in KERNEL_STAGES:
        return compile_stage(shader.stage_ir(), key, **kw)
    ir, info = front_half_unit(shader.unit, key)
    return compile_ir(ir, info, source=shader.source, **kw)


def compile_glsl(source: str, stage: str, key=None, **kw) -> CompiledShader:
    """GLSL source -> CompiledShader: :func:`front_half` then
    ``compiler.backend.compile_ir``. Raises ``GLSLCompileError`` on invalid source."""
    shader, info = front_half(source, stage, key)
    return compile_ir(shader, info, source=source, **kw)
