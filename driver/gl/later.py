"""Desktop GL stages and features the claimed versions include but the compiler
cannot build yet (geometry, tessellation, fp64): their entry points with the
specification's state and errors (see ``LaterStagesMixin``); the shader types
themselves are in ``programs.LATER_STAGES``. (Subroutines: features/subroutines.py.)"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check, check_enum

__all__ = ["LaterStagesMixin"]


class LaterStagesMixin:
    """The patch parameters of tessellation (GL 4.0: glPatchParameteri/fv) with the
    specification's state and errors; the GL_PATCHES draws are driver/gl/tessellation.py's."""

    @property
    def MAX_PATCH_VERTICES(self) -> int:
        from compiler.glsl.builtin_variables import LIMITS
        return LIMITS["gl_MaxPatchVertices"]

    def _patch_state(self) -> dict:
        st = self.__dict__.get("_patch")
        if st is None:
            st = self.__dict__["_patch"] = {"vertices": 3, "outer": (1.0,) * 4, "inner": (1.0,) * 2}
        return st

    def glPatchParameteri(self, pname: int, value: int) -> None:
        from driver.gl.features.gles_ext import es_has
        check(self.api.gl(4, 0) or es_has(self.api, "tessellation_shader"), E.GL_INVALID_OPERATION,
              "tessellation needs GL 4.0, GLES 3.2 or a tessellation shader extension")
        check_enum(pname, (E.GL_PATCH_VERTICES,))
        check(0 < value <= self.MAX_PATCH_VERTICES, E.GL_INVALID_VALUE, "bad patch vertex count")
        self._patch_state()["vertices"] = int(value)

    def glPatchParameterfv(self, pname: int, values) -> None:
        check(self.api.gl(4, 0), E.GL_INVALID_OPERATION, "tessellation needs GL 4.0")
        check_enum(pname, (E.GL_PATCH_DEFAULT_OUTER_LEVEL, E.GL_PATCH_DEFAULT_INNER_LEVEL))
        n = 4 if pname == E.GL_PATCH_DEFAULT_OUTER_LEVEL else 2
        key = "outer" if n == 4 else "inner"
        self._patch_state()[key] = tuple(float(v) for v in list(values)[:n])
