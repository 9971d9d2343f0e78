"""The GL front end's view of the GLSL compiler: compile one shader object to a
typed AST, and describe GLSL types as GL type enums and the default uniform
block's storage.

Uses `compiler.glsl.parse(source, stage, shader_object=True)`; block layouts
(`std140_members`, `std140_size`) are `compiler.link`'s."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from compiler.glsl.types import BASES_64
# block layouts are the compiler's (compiler.link: the one std140/std430 implementation)
from compiler.link import BlockMember
from compiler.link import block_members as std140_members
from compiler.link import block_size as std140_size
from driver.gl import enums as E

__all__ = ["BlockMember", "CompileResult", "compile_glsl", "gl_type_enum", "leaf_uniforms",
           "std140_members", "std140_size", "type_slots", "UniformLeaf"]


@dataclass
class CompileResult:
    ok: bool
    info_log: str
    unit: object = None      # compiler.glsl.ast.TranslationUnit when ok
    version: int = 0
    profile: str = ""


def compile_glsl(source: str, stage: str, compat_context: bool | None = None,
                 extensions: Collection[str] | None = None, limits=None) -> CompileResult:
    """stage: "vertex", "fragment" or "compute". `compat_context`: whether the
    GL context is a compatibility one, so a desktop 1.40+ shader without a
    `core` token keeps the deprecated features (None: unknown). `extensions`:
    the context's extensions with a shading-language part (Api.glsl_extensions;
    None for the driver's internal shaders: every one the compiler knows). `limits`: the
    context's gl_Max* values (driver.gl.limits.glsl_limits; None: the compiler's defaults).

    Through the on-disk shader cache (driver.shader_cache.cached_unit): a source
    compiled before with the same options (by any process) is read back, AST
    included, without preprocessing, parsing or type-checking it again."""
    from driver.shader_cache import cached_unit
    options = {"compat_context": compat_context,
               "extensions": None if extensions is None else sorted(extensions), "limits": limits}
    ok, info_log, unit, version, profile = cached_unit(
        source, stage, options, lambda: _compile(source, stage, compat_context, extensions, limits),
        (_builtin_type_name, _builtin_type))
    return CompileResult(ok, info_log, unit, version, profile)


_builtin_type_names: dict[int, str] | None = None


def _builtin_type_name(obj) -> str | None:
    """The name of ``obj`` if it is one of the GLSL front end's built-in types
    (one object per type per process: they compare by identity), else None."""
    global _builtin_type_names
    if _builtin_type_names is None:
        from compiler.glsl import types as T
        _builtin_type_names = {id(T.lookup(n)): n for n in T.all_builtin_type_names()}
    return _builtin_type_names.get(id(obj))


def _builtin_type(name: str):
    from compiler.glsl import types as T
    return T.lookup(name)


def _compile(source: str, stage: str, compat_context, extensions, limits) -> tuple:
    """(ok, info log, typed AST or None, version number, profile) of compile_glsl."""
    import compiler.glsl as glsl
    from compiler.glsl.builtin_variables import use_limits
    try:
        # a shader object: calls to functions another object defines are the link's
        with use_limits(limits):
            unit = glsl.parse(source, stage, compat_context=compat_context, extensions=extensions,
                              shader_object=True)
    except glsl.GLSLCompileError as err:
        return False, err.info_log, None, 0, ""
    v = unit.version
    return True, getattr(unit, "info_log", ""), unit, v.number, "es" if v.es else v.profile


_VEC = {"float": (E.GL_FLOAT, E.GL_FLOAT_VEC2, E.GL_FLOAT_VEC3, E.GL_FLOAT_VEC4),
        "int": (E.GL_INT, E.GL_INT_VEC2, E.GL_INT_VEC3, E.GL_INT_VEC4),
        "uint": (E.GL_UNSIGNED_INT, E.GL_UNSIGNED_INT_VEC2, E.GL_UNSIGNED_INT_VEC3,
                 E.GL_UNSIGNED_INT_VEC4),
        "bool": (E.GL_BOOL, E.GL_BOOL_VEC2, E.GL_BOOL_VEC3, E.GL_BOOL_VEC4),
        "double": (E.GL_DOUBLE, E.GL_DOUBLE_VEC2, E.GL_DOUBLE_VEC3, E.GL_DOUBLE_VEC4),
        "int64": (E.GL_INT64_ARB, E.GL_INT64_VEC2_ARB, E.GL_INT64_VEC3_ARB, E.GL_INT64_VEC4_ARB),
        "uint64": (E.GL_UNSIGNED_INT64_ARB, E.GL_UNSIGNED_INT64_VEC2_ARB, E.GL_UNSIGNED_INT64_VEC3_ARB,
                   E.GL_UNSIGNED_INT64_VEC4_ARB)}
_MAT_NAME_SUFFIX = {(c, r): f"{c}" if c == r else f"{c}x{r}" for c in (2, 3, 4) for r in (2, 3, 4)}
_SAMPLER_DIMS = {"1D": "1D", "2D": "2D", "3D": "3D", "Cube": "CUBE", "Rect": "2D_RECT",
                 "Buffer": "BUFFER", "2DMS": "2D_MULTISAMPLE"}


def gl_type_enum(t) -> int:
    """The GL type enum of a non-array, non-struct GLSL type (GL 4.6 table 7.3)."""
    if t.base in _VEC:
        if t.columns > 1:
            name = _MAT_NAME_SUFFIX[(t.columns, t.vector_size)]
            return getattr(E, f"GL_{'DOUBLE' if t.base == 'double' else 'FLOAT'}_MAT{name}")
        return _VEC[t.base][t.vector_size - 1]
    if t.base == "sampler" and t.sampler_external:
        return E.GL_SAMPLER_EXTERNAL_OES
    if t.base in ("sampler", "image"):
        prefix = {"float": "", "int": "INT_", "uint": "UNSIGNED_INT_"}[t.sampled_base or "float"]
        kind = "SAMPLER" if t.base == "sampler" else "IMAGE"
        name = f"GL_{prefix}{kind}_{_SAMPLER_DIMS[t.sampler_dim]}"
        if t.sampler_array:     # cube arrays are CUBE_MAP_ARRAY (ARB_texture_cube_map_array's names)
            name += "_MAP_ARRAY" if t.sampler_dim == "Cube" else "_ARRAY"
        if t.sampler_shadow:
            name += "_SHADOW"
        return getattr(E, name)
    if t.base == "atomic_uint":
        return E.GL_UNSIGNED_INT_ATOMIC_COUNTER
    raise ValueError(f"no GL type enum for {t.name}")


def column_slot_B(t) -> int:
    """Bytes of one slot of the default uniform block storage (see type_slots):
    16, or 32 for doubles (a dvec4 column)."""
    return 32 if t.base in BASES_64 else 16


def type_slots(t) -> int:
    """16-byte slots one element of a basic type takes in the default uniform
    block: one per matrix column, one for a scalar/vector/opaque."""
    return t.columns if t.columns > 1 else 1


@dataclass
class UniformLeaf:
    """One active uniform as GL reports it: arrays of basic types are one
    entry named "a[0]" with `size` elements; structs are flattened."""
    name: str
    type: object          # the element GLSLType (basic)
    size: int             # array length (1 for non-arrays)
    is_array: bool
    variable: object


def leaf_uniforms(name: str, t, variable) -> list[UniformLeaf]:
    """GL 4.6 section 7.3.1.1: the active-resource names of a uniform."""
    if t.base == "array":
        el = t.element
        if el.base in ("struct", "array"):
            out = []
            for i in range(t.length or 0):
                out += leaf_uniforms(f"{name}[{i}]", el, variable)
            return out
        return [UniformLeaf(f"{name}[0]", el, t.length or 0, True, variable)]
    if t.base == "struct":
        out = []
        for f in t.fields:
            out += leaf_uniforms(f"{name}.{f.name}", f.type, variable)
        return out
    return [UniformLeaf(name, t, 1, False, variable)]
