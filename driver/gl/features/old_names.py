"""Old extension names of features shimgl has under their core names (compatibility
contexts, as Mesa lists them): the commands of those extensions that the Khronos
registry does not mark as aliases of core commands, because their names or their
parameters differ. (The registry's aliases need nothing here: features/aliases.py
installs them from the extension table.)

- GL_NV_texture_barrier: glTextureBarrierNV is GL 4.5's glTextureBarrier.
- GL_ATI_blend_equation_separate: glBlendEquationSeparateATI is glBlendEquationSeparate.
- GL_ATI_separate_stencil: glStencilFuncSeparateATI(frontfunc, backfunc, ref, mask) sets
  the front and the back function with one reference and mask (glStencilOpSeparateATI is
  an alias).
- GL_EXT_texture_object: glGenTexturesEXT, glDeleteTexturesEXT, glIsTextureEXT,
  glAreTexturesResidentEXT are GL 1.1's commands (glBindTextureEXT and
  glPrioritizeTexturesEXT are aliases).
- GL_MESA_window_pos: glWindowPos4*MESA set the raster position's w as well (the 2- and
  3-component commands are aliases of GL 1.4's glWindowPos).
- GL_EXT_compiled_vertex_array: glLockArraysEXT/glUnlockArraysEXT. Locking promises the
  application will not change the locked elements; shimgl reads the arrays at every draw
  anyway, so the lock is state only (the specification allows it): its range is answered
  by ARRAY_ELEMENT_LOCK_FIRST_EXT/COUNT_EXT (driver/gl/legacy/get.py).
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features import call, entry_point, forward
from driver.gl.state import COMPARE_FUNCS

__all__: list[str] = []



def _needs(extension: str):
    """A guard: the command exists only in contexts listing `extension`."""
    def guard(ctx, name):
        if not ctx.api.has_extension(extension):
            raise GLError(E.GL_INVALID_OPERATION, f"{name} needs {extension}")
    return guard


forward("glTextureBarrierNV", "glTextureBarrier", guard=_needs("GL_NV_texture_barrier"))
forward("glBlendEquationSeparateATI", "glBlendEquationSeparate", guard=_needs("GL_ATI_blend_equation_separate"))
for _name in ("glGenTextures", "glDeleteTextures", "glIsTexture", "glAreTexturesResident"):
    forward(_name + "EXT", _name, guard=_needs("GL_EXT_texture_object"))


@entry_point
def glStencilFuncSeparateATI(ctx, frontfunc, backfunc, ref, mask):
    _needs("GL_ATI_separate_stencil")(ctx, "glStencilFuncSeparateATI")
    check_enum(frontfunc, COMPARE_FUNCS)          # both checked before either face changes
    check_enum(backfunc, COMPARE_FUNCS)
    call(ctx, "glStencilFuncSeparate", E.GL_FRONT, frontfunc, ref, mask)
    call(ctx, "glStencilFuncSeparate", E.GL_BACK, backfunc, ref, mask)


def _window_pos4(ctx, name, x, y, z, w):
    _needs("GL_MESA_window_pos")(ctx, name)
    call(ctx, "glWindowPos3f", float(x), float(y), float(z))
    raster = ctx.legacy.raster
    raster.window = (*raster.window[:3], float(w))


def _window_pos4_command(suffix: str, vector: bool):
    name = f"glWindowPos4{suffix}MESA"
    if vector:
        def entry(ctx, v):
            _window_pos4(ctx, name, *list(v)[:4])
    else:
        def entry(ctx, x, y, z, w):
            _window_pos4(ctx, name, x, y, z, w)
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"{name}: the raster position in window coordinates with its w (GL_MESA_window_pos)."
    entry_point(entry)


for _suffix in ("d", "f", "i", "s"):
    _window_pos4_command(_suffix, False)
    _window_pos4_command(_suffix + "v", True)


@entry_point
def glLockArraysEXT(ctx, first, count):
    _needs("GL_EXT_compiled_vertex_array")(ctx, "glLockArraysEXT")
    check(first >= 0, E.GL_INVALID_VALUE, "negative first")
    check(count > 0, E.GL_INVALID_VALUE, "count not positive")
    check(ctx.legacy.array_lock is None, E.GL_INVALID_OPERATION, "the arrays are locked already")
    ctx.legacy.array_lock = (int(first), int(count))


@entry_point
def glUnlockArraysEXT(ctx):
    _needs("GL_EXT_compiled_vertex_array")(ctx, "glUnlockArraysEXT")
    check(ctx.legacy.array_lock is not None, E.GL_INVALID_OPERATION, "the arrays are not locked")
    ctx.legacy.array_lock = None
