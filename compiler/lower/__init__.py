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
- ``RenderTarget``, ``Blend``: the fragment key's render-target state (``compiler.keys``;
  the epilogue is blend.py).
- ``VertexAttrib``: the vertex key's attribute descriptors (vertex_fetch.py).
- ``LowerInterpreter``: the IR interpreter plus this package's intrinsics.

Importing the package (or one of its leaf modules: ``errors``, ``vertex_fetch``,
``xfb``, ``lower64``, ``robust_access``) loads nothing else: the names above are
resolved on first use, so the IR passes a driver's variant compile runs do not
import the GLSL front end. Modules: ``from_ast`` (expressions, statements, control flow, inlining),
``builtins`` (one definition per GLSL built-in function), ``io`` (interface and the
conventions the backend and the driver rely on), ``blend`` (fragment epilogue),
``intrinsics`` (intrinsics added to the IR's table). May import: compiler.glsl,
compiler.ir (and uapi).
"""

from __future__ import annotations

import importlib

# public name -> (module, attribute); resolved on first use
_LAZY = {
    "LoweringError": ("compiler.lower.errors", "LoweringError"),
    "Lowerer": ("compiler.lower.from_ast", "Lowerer"),
    "LowerInterpreter": ("compiler.lower.interp", "LowerInterpreter"),
    "LOWER_INTRINSICS": ("compiler.lower.intrinsics", "LOWER_INTRINSICS"),
    "VertexAttrib": ("compiler.lower.vertex_fetch", "VertexAttrib"),
    "RenderTarget": ("compiler.keys", "RenderTarget"),
    "Blend": ("compiler.keys", "Blend"),
    "DEFAULT_RENDER_TARGETS": ("compiler.keys", "DEFAULT_RENDER_TARGETS"),
    **{name: ("compiler.lower.io", name) for name in (
        "Attribute", "CfBinding", "IOLowering", "OpaqueSlot", "UniformSlot", "Varying", "link_varyings",
        "options_from_key", "order_varyings")},
    **{name: ("compiler.lower.stage", name) for name in (
        "KERNEL_STAGES", "LoweredStage", "glsl_to_ir", "kernel_shape", "lower_globals_and_main", "lower_stage",
        "lower_unit", "lowering_options")},
}

__all__ = ["glsl_to_ir", "lower_unit", "LoweringError", "Varying", "UniformSlot", "Attribute", "OpaqueSlot",
           "RenderTarget", "Blend", "DEFAULT_RENDER_TARGETS", "LowerInterpreter", "order_varyings",
           "VertexAttrib", "CfBinding", "link_varyings", "LOWER_INTRINSICS", "LoweredStage", "lower_stage",
           "KERNEL_STAGES", "lowering_options"]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'compiler.lower' has no attribute {name!r}")
    module_name, attr = _LAZY[name]
    value = getattr(importlib.import_module(module_name), attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
