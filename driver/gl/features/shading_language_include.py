"""ARB_shading_language_include: named strings and ``glCompileShaderIncludeARB``.

A named string is a text at a *tree location* (the path's tokens walked from the
root, ``compiler.glsl.include``); the strings belong to the share group
(``ShareGroup.named_strings``; the extension's appendix D makes them shared
objects). ``glCompileShaderIncludeARB`` compiles a shader whose ``#include``
directives name them, relative paths searched from the given search paths;
``glCompileShader`` is the same command without search paths. What a compile
included is copied into the shader's compiled source (the preprocessor's flat
source), so changing or deleting a string later changes no compiled shader.

Errors (the extension's section 2.11.1-2.11.2 and 6.1.10): a NULL or invalid
name, or a type other than SHADER_INCLUDE_ARB, is INVALID_VALUE; deleting or
querying a location without a string is INVALID_OPERATION; IsNamedStringARB
never fails.
"""

from __future__ import annotations

from compiler.glsl.include import Includes, tree_location
from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features import entry_point
from driver.gl.objects import Shader

__all__ = ["includes_for"]

EXTENSION = "GL_ARB_shading_language_include"


def _name(name: str | None, namelen: int) -> str | None:
    if name is None:
        return None
    return name if namelen is None or namelen < 0 else name[:namelen]


def _location(name: str | None, namelen: int, what: str = "name") -> tuple[str, ...]:
    loc = tree_location(_name(name, namelen))
    check(loc is not None, E.GL_INVALID_VALUE, f"{what} {name!r} is not a valid path beginning with '/'")
    return loc


def _strings(ctx) -> dict:
    return ctx.share_group.named_strings


def includes_for(ctx, search_paths: tuple = ()) -> Includes | None:
    """What a compile in ``ctx`` may include (a snapshot of the share group's named
    strings and the search locations), or None when the context lacks the extension."""
    if not ctx.api.has_extension(EXTENSION):
        return None
    return Includes({loc: text for loc, (_type, text) in _strings(ctx).items()}, tuple(search_paths))


@entry_point
def glNamedStringARB(ctx, type, namelen, name, stringlen, string) -> None:
    check(type == E.GL_SHADER_INCLUDE_ARB, E.GL_INVALID_VALUE, "type must be GL_SHADER_INCLUDE_ARB")
    loc = _location(name, namelen)
    check(string is not None, E.GL_INVALID_VALUE, "string is NULL")
    _strings(ctx)[loc] = (type, _name(string, stringlen))


@entry_point
def glDeleteNamedStringARB(ctx, namelen, name) -> None:
    loc = _location(name, namelen)
    check(loc in _strings(ctx), E.GL_INVALID_OPERATION, f"no string is associated with {name!r}")
    del _strings(ctx)[loc]


@entry_point
def glIsNamedStringARB(ctx, namelen, name) -> bool:
    loc = tree_location(_name(name, namelen))
    return loc is not None and loc in _strings(ctx)


def _named(ctx, namelen, name) -> tuple[int, str]:
    loc = _location(name, namelen)
    got = _strings(ctx).get(loc)
    check(got is not None, E.GL_INVALID_OPERATION, f"no string is associated with {name!r}")
    return got


@entry_point
def glGetNamedStringivARB(ctx, namelen, name, pname) -> int:
    type_, text = _named(ctx, namelen, name)
    check_enum(pname, (E.GL_NAMED_STRING_LENGTH_ARB, E.GL_NAMED_STRING_TYPE_ARB))
    return len(text.encode()) + 1 if pname == E.GL_NAMED_STRING_LENGTH_ARB else type_


@entry_point
def glGetNamedStringARB(ctx, namelen, name, bufSize=None):
    """(characters written without the NUL, the string cut to bufSize - 1 bytes);
    the C ABI writes both (``stringlen`` may be NULL)."""
    _type, text = _named(ctx, namelen, name)
    check(bufSize is None or bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
    if bufSize is None:
        return len(text.encode()), text
    if bufSize == 0:
        return 0, None
    raw = text.encode()[:bufSize - 1]
    return len(raw), raw.decode("utf-8", "ignore")


@entry_point
def glCompileShaderIncludeARB(ctx, shader, count, path, length=None) -> None:
    """``path``: the search paths (the C ABI gives [] for a NULL array and "" for a
    NULL element, both INVALID_VALUE as the extension says)."""
    sh = ctx.shader_objects.get(shader)
    check(isinstance(sh, Shader), E.GL_INVALID_OPERATION, f"{shader} is not a shader object")
    check(count >= 0, E.GL_INVALID_VALUE, "negative count")
    paths = [] if path is None else list(path)[:count]
    check(len(paths) == count, E.GL_INVALID_VALUE, "path is NULL")
    if length is not None:
        paths = [p if n is None or n < 0 else p[:n] for p, n in zip(paths, length)]
    search = tuple(_location(p, -1, "search path") for p in paths)
    ctx.compile_shader_object(sh, search)
