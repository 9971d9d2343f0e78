"""Desktop GL stages and features the claimed versions include but the compiler
cannot build yet (geometry, tessellation, subroutines, fp64): their entry points
with the specification's state and errors (see ``LaterStagesMixin``); the shader
types themselves are in ``programs.LATER_STAGES``."""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError, check, check_enum

__all__ = ["LaterStagesMixin"]


class LaterStagesMixin:
    """Entry points of stages and features the claimed desktop versions include but the
    compiler cannot build yet: tessellation (GL 4.0: patch parameters, GL_PATCHES draws)
    and shader subroutines (GL 4.0). The state and errors are the specification's; as
    no program can contain a tessellation stage or a subroutine, GL_PATCHES draws fail
    with INVALID_OPERATION and no subroutine is ever active."""

    MAX_PATCH_VERTICES = 32

    def _patch_state(self) -> dict:
        st = self.__dict__.get("_patch")
        if st is None:
            st = self.__dict__["_patch"] = {"vertices": 3, "outer": (1.0,) * 4, "inner": (1.0,) * 2}
        return st

    def glPatchParameteri(self, pname: int, value: int) -> None:
        check(self.api.gl(4, 0), E.GL_INVALID_OPERATION, "tessellation needs GL 4.0")
        check_enum(pname, (E.GL_PATCH_VERTICES,))
        check(0 < value <= self.MAX_PATCH_VERTICES, E.GL_INVALID_VALUE, "bad patch vertex count")
        self._patch_state()["vertices"] = int(value)

    def glPatchParameterfv(self, pname: int, values) -> None:
        check(self.api.gl(4, 0), E.GL_INVALID_OPERATION, "tessellation needs GL 4.0")
        check_enum(pname, (E.GL_PATCH_DEFAULT_OUTER_LEVEL, E.GL_PATCH_DEFAULT_INNER_LEVEL))
        n = 4 if pname == E.GL_PATCH_DEFAULT_OUTER_LEVEL else 2
        key = "outer" if n == 4 else "inner"
        self._patch_state()[key] = tuple(float(v) for v in list(values)[:n])

    # -- subroutines (GL 4.6 section 7.9): never active here ------------------------------
    _SUBROUTINE_STAGES = (E.GL_VERTEX_SHADER, E.GL_FRAGMENT_SHADER, E.GL_GEOMETRY_SHADER,
                          E.GL_TESS_CONTROL_SHADER, E.GL_TESS_EVALUATION_SHADER, E.GL_COMPUTE_SHADER)

    def _subroutine_program(self, program: int, shadertype: int):
        check(self.api.gl(4, 0), E.GL_INVALID_OPERATION, "subroutines need GL 4.0")
        check_enum(shadertype, self._SUBROUTINE_STAGES)
        prog = self._program(program)
        check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        return prog

    def glGetSubroutineIndex(self, program: int, shadertype: int, name: str) -> int:
        self._subroutine_program(program, shadertype)
        return E.GL_INVALID_INDEX

    def glGetSubroutineUniformLocation(self, program: int, shadertype: int, name: str) -> int:
        self._subroutine_program(program, shadertype)
        return -1

    def glGetActiveSubroutineName(self, program: int, shadertype: int, index: int):
        self._subroutine_program(program, shadertype)
        raise GLError(E.GL_INVALID_VALUE, "no active subroutines")

    def glGetActiveSubroutineUniformName(self, program: int, shadertype: int, index: int):
        self._subroutine_program(program, shadertype)
        raise GLError(E.GL_INVALID_VALUE, "no active subroutine uniforms")

    def glGetActiveSubroutineUniformiv(self, program: int, shadertype: int, index: int, pname: int):
        self._subroutine_program(program, shadertype)
        check_enum(pname, (E.GL_NUM_COMPATIBLE_SUBROUTINES, E.GL_COMPATIBLE_SUBROUTINES,
                           E.GL_UNIFORM_SIZE, E.GL_UNIFORM_NAME_LENGTH))
        raise GLError(E.GL_INVALID_VALUE, "no active subroutine uniforms")

    def glGetProgramStageiv(self, program: int, shadertype: int, pname: int) -> list[int]:
        self._subroutine_program(program, shadertype)
        check_enum(pname, (E.GL_ACTIVE_SUBROUTINES, E.GL_ACTIVE_SUBROUTINE_UNIFORMS,
                           E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS, E.GL_ACTIVE_SUBROUTINE_MAX_LENGTH,
                           E.GL_ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH))
        return [0]

    def glUniformSubroutinesuiv(self, shadertype: int, count: int, indices) -> None:
        check(self.api.gl(4, 0), E.GL_INVALID_OPERATION, "subroutines need GL 4.0")
        check_enum(shadertype, self._SUBROUTINE_STAGES)
        check(self.current_program is not None, E.GL_INVALID_OPERATION, "no current program")
        check(count == 0, E.GL_INVALID_VALUE, "count != ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS (0)")

    def glGetUniformSubroutineuiv(self, shadertype: int, location: int) -> list[int]:
        check(self.api.gl(4, 0), E.GL_INVALID_OPERATION, "subroutines need GL 4.0")
        check_enum(shadertype, self._SUBROUTINE_STAGES)
        check(self.current_program is not None, E.GL_INVALID_OPERATION, "no current program")
        raise GLError(E.GL_INVALID_VALUE, "no active subroutine uniform locations")
