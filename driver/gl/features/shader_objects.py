"""GL_ARB_shader_objects, GL_ARB_vertex_shader, GL_ARB_fragment_shader and
GL_ARB_shading_language_100: GLSL as it first was, before GL 2.0 (compatibility
contexts, as Mesa lists them).

Shaders and programs were one kind of "object" named by a ``GLhandleARB``; as in
Mesa, a handle is the shader's or program's GL 2.0 name (one namespace), so the
registry's aliases (glCreateShaderObjectARB = glCreateShader, glUniform*ARB, ...,
installed from the extension table) work on either. The commands that take any
object and look at its kind are here:

- glDeleteObjectARB: glDeleteProgram or glDeleteShader by the object's kind; 0 and
  names of neither are ignored (Mesa's answer: the specification names no error).
- glGetHandleARB(PROGRAM_OBJECT_ARB): the program in use (0 for none); another name
  is INVALID_ENUM.
- glGetObjectParameter{iv,fv}ARB: OBJECT_TYPE_ARB (PROGRAM_OBJECT_ARB or
  SHADER_OBJECT_ARB), OBJECT_SUBTYPE_ARB (a shader's type: GL_SHADER_TYPE's value), and
  the OBJECT_*_ARB names whose values are GL 2.0's glGetShaderiv/glGetProgramiv names,
  with the errors of those; a name of neither kind is INVALID_VALUE.
- glGetInfoLogARB, glGetAttachedObjectsARB: the log of either kind, the shaders
  attached to a program (a shader's name there is INVALID_OPERATION, as
  glGetAttachedShaders).
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import call, entry_point

__all__ = ["E.GL_OBJECT_TYPE_ARB", "E.GL_OBJECT_SUBTYPE_ARB", "E.GL_PROGRAM_OBJECT_ARB", "E.GL_SHADER_OBJECT_ARB"]

_EXT = "GL_ARB_shader_objects"


def _needs(ctx, name):
    if not ctx.api.has_extension(_EXT):
        raise GLError(E.GL_INVALID_OPERATION, f"{name} needs {_EXT}")


def _kind(ctx, obj) -> str | None:
    if obj and call(ctx, "glIsProgram", obj):
        return "program"
    if obj and call(ctx, "glIsShader", obj):
        return "shader"
    return None


@entry_point
def glDeleteObjectARB(ctx, obj):
    _needs(ctx, "glDeleteObjectARB")
    kind = _kind(ctx, obj)
    if kind is not None:
        call(ctx, "glDeleteProgram" if kind == "program" else "glDeleteShader", obj)


@entry_point
def glGetHandleARB(ctx, pname):
    _needs(ctx, "glGetHandleARB")
    check(pname == E.GL_PROGRAM_OBJECT_ARB, E.GL_INVALID_ENUM, "glGetHandleARB takes E.GL_PROGRAM_OBJECT_ARB")
    return call(ctx, "glGetIntegerv", E.GL_CURRENT_PROGRAM)[0]


@entry_point
def glGetObjectParameterivARB(ctx, obj, pname):
    _needs(ctx, "glGetObjectParameterivARB")
    kind = _kind(ctx, obj)
    check(kind is not None, E.GL_INVALID_VALUE, f"{obj} is neither a shader nor a program")
    if pname == E.GL_OBJECT_TYPE_ARB:
        return [E.GL_PROGRAM_OBJECT_ARB if kind == "program" else E.GL_SHADER_OBJECT_ARB]
    if kind == "program":
        check(pname != E.GL_OBJECT_SUBTYPE_ARB, E.GL_INVALID_ENUM, "a program has no subtype")
        return call(ctx, "glGetProgramiv", obj, pname)
    return call(ctx, "glGetShaderiv", obj, pname)      # OBJECT_SUBTYPE_ARB is GL_SHADER_TYPE


@entry_point
def glGetObjectParameterfvARB(ctx, obj, pname):
    return [float(v) for v in glGetObjectParameterivARB(ctx, obj, pname)]


@entry_point
def glGetInfoLogARB(ctx, obj):
    _needs(ctx, "glGetInfoLogARB")
    kind = _kind(ctx, obj)
    check(kind is not None, E.GL_INVALID_VALUE, f"{obj} is neither a shader nor a program")
    return call(ctx, "glGetProgramInfoLog" if kind == "program" else "glGetShaderInfoLog", obj)


@entry_point
def glGetAttachedObjectsARB(ctx, containerObj, maxCount):
    _needs(ctx, "glGetAttachedObjectsARB")
    return call(ctx, "glGetAttachedShaders", containerObj, maxCount)
