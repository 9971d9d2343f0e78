"""IBM's two extensions llvmpipe lists.

- GL_IBM_multimode_draw_arrays: glMultiModeDrawArraysIBM(mode, first, count,
  primcount, modestride) and glMultiModeDrawElementsIBM(mode, count, type, indices,
  primcount, modestride) draw primcount glDrawArrays / glDrawElements, each with its
  own primitive mode; draws whose count is not positive are skipped. The mode of
  draw i is read ``modestride`` bytes after draw i-1's (a GLenum is 4 bytes: a
  Python list of modes takes modestride 4, 0 repeats the first mode). As in Mesa the
  commands are the single draws run in turn: an error of one draw is recorded and the
  others still run, and a display list being compiled records the single draws (with
  their client arrays dereferenced then, driver/gl/legacy/dlist.py). Both contexts
  profiles, as llvmpipe.
- GL_IBM_rasterpos_clip (compatibility): while RASTER_POSITION_UNCLIPPED_IBM is
  enabled, a raster position is invalid only when the near/far planes (or w = 0, or an
  enabled user clip plane) cull it, not when it lies outside the clip volume in x or y
  (driver/gl/legacy/raster.py). The enable is a transform and enable attribute.
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError
from driver.gl.features import call, entry_point

__all__ = ["multimode_draws"]

_GLENUM_B = 4


def _needs(ctx, name: str) -> None:
    if not ctx.api.has_extension("GL_IBM_multimode_draw_arrays"):
        raise GLError(E.GL_INVALID_OPERATION, f"{name} needs GL_IBM_multimode_draw_arrays")


def _mode(mode, i: int, modestride: int) -> int:
    return int(mode[i * int(modestride) // _GLENUM_B])


def multimode_draws(name: str, args: tuple) -> list[tuple[str, tuple]]:
    """The single draws (command name, arguments) a glMultiMode*IBM call stands for."""
    if name == "glMultiModeDrawArraysIBM":
        mode, first, count, primcount, modestride = args
        return [("glDrawArrays", (_mode(mode, i, modestride), int(first[i]), int(count[i])))
                for i in range(max(int(primcount), 0)) if count[i] > 0]
    mode, count, type_, indices, primcount, modestride = args
    return [("glDrawElements", (_mode(mode, i, modestride), int(count[i]), type_, indices[i]))
            for i in range(max(int(primcount), 0)) if count[i] > 0]


def _run(ctx, name: str, args: tuple) -> None:
    _needs(ctx, name)
    first_error = None
    for command, draw_args in multimode_draws(name, args):
        try:
            call(ctx, command, *draw_args)
        except GLError as e:
            first_error = first_error or e
    if first_error is not None:
        raise first_error


@entry_point
def glMultiModeDrawArraysIBM(ctx, mode, first, count, primcount, modestride):
    _run(ctx, "glMultiModeDrawArraysIBM", (mode, first, count, primcount, modestride))


@entry_point
def glMultiModeDrawElementsIBM(ctx, mode, count, type, indices, primcount, modestride):
    _run(ctx, "glMultiModeDrawElementsIBM", (mode, count, type, indices, primcount, modestride))
