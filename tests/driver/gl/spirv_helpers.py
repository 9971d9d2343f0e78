"""SPIR-V shader objects for the GL tests: a module assembled with spirv-as
(tests/compiler/spirv/spirv_asm.py), given to glShaderBinary and specialized."""

from driver.gl import enums as E
from tests.compiler.spirv.spirv_asm import assemble


def specialized(ctx, kind, text, entry="main", spec=None) -> int:
    """A shader object holding ``text``'s module after glSpecializeShader (its
    compile status not checked)."""
    sh = ctx.glCreateShader(kind)
    data = assemble(text)
    ctx.glShaderBinary(1, [sh], E.GL_SHADER_BINARY_FORMAT_SPIR_V, data, len(data))
    spec = spec or {}
    ctx.glSpecializeShader(sh, entry, len(spec), list(spec), list(spec.values()))
    return sh


def compiled(ctx, kind, text, entry="main", spec=None) -> int:
    """``specialized``, its compile status asserted (with the info log)."""
    sh = specialized(ctx, kind, text, entry, spec)
    assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
    return sh
