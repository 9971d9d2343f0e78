"""SPIR-V shaders (GL 4.6 sections 7.2.1 and 7.2.2, GL_ARB_gl_spirv, GL_ARB_spirv_extensions).

A shader object gets a SPIR-V module with ``glShaderBinary(...,
GL_SHADER_BINARY_FORMAT_SPIR_V, ...)`` (its SPIR_V_BINARY becomes TRUE and its
compile status FALSE) and is made usable by ``glSpecializeShader``, which picks
the entry point and sets specialization constants; the compiler's
``compiler.spirv.SpirvShader`` checks and translates the module there, and a
failure is a FALSE compile status with the reason in the info log. A later
``glShaderSource`` turns the object back into a GLSL shader.

Linking: the interface shader the SPIR-V front end writes (locations and
bindings, generated names) is linked like GLSL; a program may not mix SPIR-V
and GLSL shader objects, nor have two SPIR-V objects of one stage. The pipe is
handed the ``SpirvShader`` itself (its ``front_half``), not the interface.

The SPIR-V extensions the front end implements (``compiler.spirv.spec.EXTENSIONS``,
read when first asked: the compiler is not imported at start-up) are listed by
``glGetStringi(GL_SPIR_V_EXTENSIONS, i)`` (ARB_spirv_extensions); a module using another
fails to specialize.
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import context_method, entry_point
from driver.gl.objects import shader_object

__all__ = ["spirv_extensions", "is_spirv", "names_hidden", "reported_name", "spirv_shader_binary",
           "spirv_link_stages", "spirv_shader_iv"]


def spirv_extensions() -> tuple[str, ...]:
    """The SPV_* extensions the front end implements (GL_SPIR_V_EXTENSIONS)."""
    from compiler.spirv.spec import EXTENSIONS
    return EXTENSIONS

_EXTENSION = "GL_ARB_gl_spirv"


def _enabled(ctx) -> bool:
    return ctx.api.gl(4, 6) or ctx.api.has_extension(_EXTENSION)


def names_hidden(prog) -> bool:
    """GL 4.6 section 7.3.1 (ARB_gl_spirv): a program linked from SPIR-V shaders has no
    name reflection information (OpName is not reported): each active resource's name is
    "" (NAME_LENGTH 1), the *_MAX_LENGTH queries give 1 when there are resources, and
    every query by name finds nothing (-1, INVALID_INDEX). The link's generated names
    (``compiler.spirv.interface``) stay internal."""
    ls = getattr(prog, "linked_state", None)
    return bool(getattr(ls, "spirv_stages", None))


def reported_name(prog, name: str) -> str:
    """``name`` as the name queries report it for ``prog`` (see ``names_hidden``)."""
    return "" if names_hidden(prog) else name


def is_spirv(sh) -> bool:
    """The shader object holds a SPIR-V module (SPIR_V_BINARY is TRUE)."""
    return getattr(sh, "spirv_binary", None) is not None


@context_method
def spirv_shader_binary(ctx, shaders: list, binary, length: int) -> bool:
    """glShaderBinary with GL_SHADER_BINARY_FORMAT_SPIR_V: the module replaces each
    shader's source; returns False when SPIR-V is not available in this context (the
    caller reports the unknown format)."""
    if not _enabled(ctx):
        return False
    objs = [shader_object(ctx, s) for s in shaders]
    types = [sh.type for sh in objs]
    check(len(set(types)) == len(types), E.GL_INVALID_VALUE, "two shaders of one type get one SPIR-V module")
    data = bytes(binary)[:length] if binary is not None else b""
    for sh in objs:
        sh.spirv_binary = data
        sh.spirv_shader = None
        sh.source = None
        sh.compiled, sh.ast, sh.info_log = False, None, ""
        sh.compiled_source = None
    return True


@context_method
def spirv_shader_iv(ctx, sh, values: dict) -> None:
    """Add GL_SPIR_V_BINARY to a glGetShaderiv answer table."""
    if _enabled(ctx):
        values[E.GL_SPIR_V_BINARY] = int(is_spirv(sh))


@context_method
def spirv_link_stages(ctx, prog) -> dict:
    """stage -> SpirvShader of a program's SPIR-V shader objects; raises LinkError
    (compiler.link) for a program that mixes SPIR-V and GLSL objects or has two SPIR-V
    objects of one stage."""
    from compiler.link import LinkError
    from driver.gl.objects import STAGES
    spirv = [sh for sh in prog.shaders if is_spirv(sh)]
    if not spirv:
        return {}
    if len(spirv) != len(prog.shaders):
        raise LinkError("a program may not mix SPIR-V and GLSL shader objects")
    stages = {}
    for sh in spirv:
        stage = STAGES[sh.type]
        if stage in stages:
            raise LinkError(f"two SPIR-V shader objects of the {stage} stage")
        if sh.spirv_shader is None:
            raise LinkError(f"SPIR-V shader {sh.name} is not specialized")
        stages[stage] = sh.spirv_shader
    return stages


@context_method
def spirv_block_sizes(ctx, blocks: list, spirv: dict) -> None:
    """A SPIR-V program's uniform/storage blocks take their data size from the modules'
    explicit layouts (GL 4.6 section 7.6.2.1: BUFFER_DATA_SIZE)."""
    sizes = {}
    for shader in spirv.values():
        sizes.update(shader.block_sizes())
    for b in blocks:
        if b.name in sizes:
            b.data_size_B = sizes[b.name]


@entry_point
def glSpecializeShader(ctx, shader: int, pEntryPoint, numSpecializationConstants: int,
                       pConstantIndex=None, pConstantValue=None) -> None:
    """GL 4.6 section 7.2.1: specialize a SPIR-V shader object. Errors: INVALID_VALUE /
    INVALID_OPERATION for a bad name (``shader_object``), INVALID_OPERATION when the object
    holds no SPIR-V module or is already specialized. A module that does not
    specialize (no such entry point, an unknown specialization constant, a module
    the front end rejects) leaves COMPILE_STATUS FALSE with the reason in the log."""
    check(_enabled(ctx), E.GL_INVALID_OPERATION, "SPIR-V is not supported in this context")
    sh = shader_object(ctx, shader)
    check(is_spirv(sh), E.GL_INVALID_OPERATION, "the shader holds no SPIR-V module")
    check(not sh.compiled, E.GL_INVALID_OPERATION, "the shader is already specialized")
    check(numSpecializationConstants >= 0, E.GL_INVALID_VALUE, "negative count")
    entry = pEntryPoint.decode() if isinstance(pEntryPoint, (bytes, bytearray)) else str(pEntryPoint or "")
    n = numSpecializationConstants
    indices = list(pConstantIndex or [])[:n]
    values = list(pConstantValue or [])[:n]
    check(len(indices) == n and len(values) == n, E.GL_INVALID_VALUE, "missing specialization constants")
    spec = {int(i): int(v) & 0xFFFFFFFF for i, v in zip(indices, values)}
    _specialize(sh, entry, spec)


def _specialize(sh, entry: str, spec: dict[int, int]) -> bool:
    """Check and translate the shader object's module for ``entry`` and ``spec``; the
    compile status and info log say how it went."""
    from compiler.spirv import SpirvError, SpirvShader
    from driver.gl.objects import STAGES
    from compiler.lower import LoweringError
    sh.spirv_entry, sh.spirv_spec = entry, dict(spec)
    try:
        spv = SpirvShader(sh.spirv_binary, STAGES[sh.type], entry, spec)
        spv.front_half(None)        # translate once now: what the front end rejects is a compile error
    except (SpirvError, LoweringError) as e:
        sh.compiled, sh.ast, sh.spirv_shader = False, None, None
        sh.info_log = f"error: {e}\n"
        return False
    sh.spirv_shader = spv
    sh.compiled, sh.ast, sh.info_log = True, spv.unit, ""
    sh.compiled_source = spv.source
    return True


@context_method
def spirv_image(ctx, shaders: list) -> tuple:
    """``ProgramImage.spirv`` of a link's shader objects: (index, module, entry point,
    specialization constants) of each SPIR-V one (driver/gl/binary.py)."""
    return tuple((i, sh.spirv_binary, sh.spirv_entry, tuple(sorted(sh.spirv_spec.items())))
                 for i, sh in enumerate(shaders) if is_spirv(sh))


@context_method
def spirv_restore(ctx, sh, module: bytes, entry: str, spec: tuple) -> str | None:
    """A shader object of a program binary made from a SPIR-V module again (glProgramBinary):
    None, or the reason it does not specialize."""
    if not _enabled(ctx):
        return "SPIR-V is not supported in this context"
    sh.spirv_binary, sh.spirv_shader, sh.source = bytes(module), None, None
    return None if _specialize(sh, entry, dict(spec)) else sh.info_log.strip()


@context_method
def spirv_binary_formats(ctx) -> tuple[int, ...]:
    """GL_SHADER_BINARY_FORMATS: SPIR-V where it is available (GL 4.6 section 7.2)."""
    return (E.GL_SHADER_BINARY_FORMAT_SPIR_V,) if _enabled(ctx) else ()


@context_method
def spirv_extension_count(ctx) -> int:
    """GL_NUM_SPIR_V_EXTENSIONS (INVALID_ENUM where SPIR-V is not available)."""
    check(_enabled(ctx), E.GL_INVALID_ENUM, "SPIR-V is not supported in this context")
    return len(spirv_extensions())


@context_method
def spirv_extension_string(ctx, index: int) -> str:
    """glGetStringi(GL_SPIR_V_EXTENSIONS, index)."""
    check(_enabled(ctx), E.GL_INVALID_ENUM, "SPIR-V is not supported in this context")
    names = spirv_extensions()
    check(0 <= index < len(names), E.GL_INVALID_VALUE, "index out of range")
    return names[index]
