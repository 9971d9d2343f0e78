"""compiler.lower: the typed GLSL AST -> the SSA IR, with built-in functions and
shader-interface lowering (varyings, uniforms, vertex inputs, fragment outputs and
blending in the shader).

Public API:
- ``lower_stage(unit) -> LoweredStage``: the stage lowered once, key-independent;
  ``LoweredStage.variant(key) -> (shader, IOLowering)``: a copy with the variant
  key's passes applied (stage.py lists them), I/O lowered, not optimised.
- ``glsl_to_ir(unit, key=None) -> ir.Shader`` (``shader.info["io"]`` holds the maps);
  ``lower_unit(unit, key) -> (shader, IOLowering)`` before ``lower_io``: both in one
  pass (geometry and tessellation kernels, tests).
- ``Varying``, ``UniformSlot``, ``Attribute``, ``OpaqueSlot``: the maps (io.py);
  ``link_varyings(vs_info.varyings, fs_info.varyings) -> [CfBinding]``.
- ``RenderTarget``, ``Blend``: the fragment key's render-target state (blend.py).
- ``VertexAttrib``: the vertex key's attribute descriptors (vertex_fetch.py).
- ``LowerInterpreter``: the IR interpreter plus this package's intrinsics.

Modules: ``from_ast`` (expressions, statements, control flow, inlining),
``builtins`` (one definition per GLSL built-in function), ``io`` (interface and the
conventions the backend and the driver rely on), ``blend`` (fragment epilogue),
``intrinsics`` (intrinsics added to the IR's table). May import: compiler.glsl,
compiler.ir (and uapi).
"""

from __future__ import annotations

from compiler.glsl import ast

from .intrinsics import LOWER_INTRINSICS  # checks the intrinsics the lowering emits
from .blend import DEFAULT_RENDER_TARGETS, Blend, RenderTarget
from .from_ast import Lowerer, LoweringError
from .interp import LowerInterpreter
from .io import (Attribute, CfBinding, IOLowering, OpaqueSlot, UniformSlot, Varying, link_varyings,
                 options_from_key, order_varyings)
from .stage import KERNEL_STAGES, LoweredStage, kernel_shape, lower_globals_and_main, lower_stage
from .vertex_fetch import VertexAttrib

__all__ = ["glsl_to_ir", "lower_unit", "LoweringError", "Varying", "UniformSlot", "Attribute", "OpaqueSlot",
           "RenderTarget", "Blend", "DEFAULT_RENDER_TARGETS", "LowerInterpreter", "order_varyings",
           "VertexAttrib", "CfBinding", "link_varyings", "LOWER_INTRINSICS", "LoweredStage", "lower_stage",
           "KERNEL_STAGES", "lowering_options"]


def lowering_options(key) -> dict:
    """The compile options (not variant state) a standalone caller may pass in its
    key (``compiler.lower.io.COMPILE_OPTIONS``)."""
    return options_from_key(key)


def lower_unit(unit: ast.TranslationUnit, key=None):
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


def glsl_to_ir(unit: ast.TranslationUnit, key=None):
    """The IR of ``unit`` for variant ``key`` (a ``compiler.ir.ShaderKey`` or None),
    with interface variables already lowered to I/O intrinsics (``lower_io``) but
    not optimised. ``shader.info["io"]`` holds the ``IOLowering`` with the maps."""
    from compiler.ir.passes import lower_io
    shader, io = lower_unit(unit, key)
    lower_io(shader)
    shader.info["io"] = io
    return shader
