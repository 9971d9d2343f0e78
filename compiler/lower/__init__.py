"""compiler.lower: the typed GLSL AST -> the SSA IR, with built-in functions and
shader-interface lowering (varyings, uniforms, vertex inputs, fragment outputs and
blending in the shader).

Public API:
- ``glsl_to_ir(unit, key=None) -> ir.Shader`` (``shader.info["io"]`` holds the maps);
  ``lower_unit(unit, key) -> (shader, IOLowering)`` before ``lower_io``.
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
from .io import Attribute, CfBinding, IOLowering, OpaqueSlot, UniformSlot, Varying, link_varyings, order_varyings
from .vertex_fetch import VertexAttrib

__all__ = ["glsl_to_ir", "lower_unit", "LoweringError", "Varying", "UniformSlot", "Attribute", "OpaqueSlot",
           "RenderTarget", "Blend", "DEFAULT_RENDER_TARGETS", "LowerInterpreter", "order_varyings",
           "VertexAttrib", "CfBinding", "link_varyings", "LOWER_INTRINSICS"]


def lower_unit(unit: ast.TranslationUnit, key=None):
    """Translate ``unit``; returns ``(shader, io)`` where ``io`` (an ``IOLowering``)
    holds the maps (attributes, varyings, uniforms, samplers, images, atomic
    counters, ubos, ssbos, outputs). The IR still has variables (run
    ``compiler.ir.passes.lower_io`` and ``preprocess``; ``compiler.compile.front_half``
    does all of it)."""
    io = IOLowering(unit, key)
    L = Lowerer(unit, io)
    io.begin(L)
    # Global initialisers, in declaration order, before main's body.
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
    io.finish(L)
    io.fit_uniform_registers()
    L.shader.info["local_size"] = unit.local_size
    if unit.stage in ("tess_control", "tess_evaluation"):     # compute kernels (tessellation.py)
        L.shader.stage = "compute"
        L.shader.info["local_size"] = io.tess.local_size
    if unit.stage == "geometry":                # lowered to a compute kernel (geometry.py)
        from .geometry import LOCAL_SIZE_X
        L.shader.stage = "compute"
        L.shader.info["local_size"] = (LOCAL_SIZE_X, 1, 1)
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
