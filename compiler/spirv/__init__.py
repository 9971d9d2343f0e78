"""compiler.spirv — SPIR-V modules (GL_ARB_gl_spirv) to the compiler's IR.

    from compiler.spirv import SpirvShader, SpirvError, parse_module
    shader = SpirvShader(binary, "fragment", entry="main", spec={0: 42})
    ir, info = shader.front_half(key)

See README.md in this directory. May import ``compiler.glsl``, ``compiler.lower``,
``compiler.ir``; never ``driver`` or ``drmshim``.
"""

from .module import Module, SpirvError, parse_module
from .to_ir import SpirvShader

__all__ = ["Module", "SpirvError", "SpirvShader", "parse_module"]
