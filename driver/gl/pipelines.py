"""Program pipeline objects and separable programs (GL 4.6 section 7.4,
GLES 3.1 section 7.4): glUseProgramStages, glCreateShaderProgramv,
glValidateProgramPipeline, and which program feeds each stage of a draw."""

from __future__ import annotations

from dataclasses import dataclass, field

from driver.gallium import PipeShaderType
from driver.gl import enums as E
from driver.gl.errors import check, check_buf_size, check_enum
from driver.gl.objects import Namespace
from driver.gl.programs import program_object, shader_object

__all__ = ["PipelineMixin", "ProgramPipeline"]

_BITS = {E.GL_VERTEX_SHADER_BIT: "vertex", E.GL_FRAGMENT_SHADER_BIT: "fragment",
         E.GL_COMPUTE_SHADER_BIT: "compute"}
_PIPE = {"vertex": PipeShaderType.VERTEX, "fragment": PipeShaderType.FRAGMENT,
         "compute": PipeShaderType.COMPUTE, "geometry": PipeShaderType.GEOMETRY,
         "tess_control": PipeShaderType.TESS_CTRL, "tess_evaluation": PipeShaderType.TESS_EVAL}


@dataclass(eq=False)
class ProgramPipeline:
    name: int
    stages: dict = field(default_factory=dict)       # "vertex" -> Program
    active_program: object = None
    validated: bool = False
    info_log: str = ""
    ever_bound: bool = False


#: The stages of a pipeline in the order vertices flow through them
_STAGE_ORDER = ("vertex", "tess_control", "tess_evaluation", "geometry", "fragment")


def _stages_problem(stages: dict) -> str | None:
    """GL 4.6 section 11.1.3.11: a program is active for all the stages it was linked
    with, and another program never sits between two stages of one program (a
    geometry program between the vertex and fragment stages of one program)."""
    for prog in set(stages.values()):
        image = getattr(prog.linked_state, "image", None)
        if not prog.linked or (image is not None and not image.separable):
            return f"program {prog.name} was relinked without PROGRAM_SEPARABLE"
        linked = set(prog.linked_state.units) - {"compute"}
        if any(stages.get(s) is not prog for s in linked):
            return f"program {prog.name} is active for some of its stages only"
    order = [stages.get(s) for s in _STAGE_ORDER]
    prev = None
    for i, cur in enumerate(order):
        if cur is None or cur is prev:
            continue
        if prev is not None and prev in order[i + 1:]:
            return f"program {cur.name} sits between two stages of program {prev.name}"
        prev = cur
    return None


class PipelineMixin:
    def _init_family(self) -> None:
        self.pipelines = Namespace(ProgramPipeline)
        self.bound_pipeline = None

    def _sso(self) -> None:
        check(self.api.gl_or_es((4, 1), (3, 1)), E.GL_INVALID_OPERATION)

    def glGenProgramPipelines(self, n: int) -> list[int]:
        self._sso()
        check(n >= 0, E.GL_INVALID_VALUE)
        names = self.pipelines.gen(n)
        for name in names:
            self.pipelines.get_or_create(name)
        return names

    def glIsProgramPipeline(self, pipeline: int) -> bool:
        p = self.pipelines.get(pipeline)
        return p is not None and p.ever_bound

    def glDeleteProgramPipelines(self, n: int, pipelines) -> None:
        self._sso()
        check(n >= 0, E.GL_INVALID_VALUE)
        for name in list(pipelines)[:n]:
            p = self.pipelines.get(name)
            if p is not None and p is self.bound_pipeline:
                self.bound_pipeline = None
            if name:
                self.pipelines.delete(name)

    def _pipeline(self, pipeline: int) -> ProgramPipeline:
        p = self.pipelines.get(pipeline)
        check(p is not None, E.GL_INVALID_OPERATION, "not a program pipeline name")
        return p

    def glBindProgramPipeline(self, pipeline: int) -> None:
        self._sso()
        check(not (self.xfb.active and not self.xfb.paused), E.GL_INVALID_OPERATION)
        if pipeline == 0:
            self.bound_pipeline = None
            return
        p = self._pipeline(pipeline)
        p.ever_bound = True
        self.bound_pipeline = p

    def glUseProgramStages(self, pipeline: int, stages: int, program: int) -> None:
        self._sso()
        bits = dict(_BITS)
        from driver.gl.features.gles_ext import es_has
        if self.api.gl(3, 2) or es_has(self.api, "geometry_shader"):
            bits[E.GL_GEOMETRY_SHADER_BIT] = "geometry"
        if self.api.gl(4, 0) or es_has(self.api, "tessellation_shader"):     # driver/gl/tessellation.py
            bits[E.GL_TESS_CONTROL_SHADER_BIT] = "tess_control"
            bits[E.GL_TESS_EVALUATION_SHADER_BIT] = "tess_evaluation"
        allowed = 0
        for bit in bits:
            allowed |= bit
        if self.api.gl(4, 1):
            # stages the version includes but no program can contain yet (programs.LATER_STAGES)
            allowed |= E.GL_GEOMETRY_SHADER_BIT | E.GL_TESS_CONTROL_SHADER_BIT | E.GL_TESS_EVALUATION_SHADER_BIT
        check(stages == E.GL_ALL_SHADER_BITS or stages & ~allowed == 0, E.GL_INVALID_VALUE,
              "unknown stage bits")
        p = self._pipeline(pipeline)
        # GL 4.6 section 7.4: not on the bound pipeline while transform feedback is active and
        # not paused (as glUseProgram and glBindProgramPipeline)
        check(not (p is self.bound_pipeline and self.xfb.active and not self.xfb.paused),
              E.GL_INVALID_OPERATION, "transform feedback is active")
        prog = None
        if program:
            prog = program_object(self, program)
            check(prog.separable, E.GL_INVALID_OPERATION, "program is not separable")
            check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        for bit, stage in bits.items():
            if stages & bit:
                if prog is not None and stage in prog.linked_state.units:
                    p.stages[stage] = prog
                else:
                    p.stages.pop(stage, None)
        p.ever_bound = True

    def glActiveShaderProgram(self, pipeline: int, program: int) -> None:
        self._sso()
        p = self._pipeline(pipeline)
        prog = None
        if program:
            prog = program_object(self, program)
            check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        p.active_program = prog
        p.ever_bound = True         # the name now has state (as glUseProgramStages)

    def glCreateShaderProgramv(self, type: int, count: int, strings) -> int:
        """GL 4.6 section 7.3: compile, make separable, link; returns the program."""
        self._sso()
        check(count >= 0, E.GL_INVALID_VALUE)
        shader = self.glCreateShader(type)
        if shader is None:
            return 0
        self.glShaderSource(shader, count, strings)
        self.glCompileShader(shader)
        program = self.glCreateProgram()
        self.glProgramParameteri(program, E.GL_PROGRAM_SEPARABLE, 1)
        sh = shader_object(self, shader)
        if sh.compiled:
            self.glAttachShader(program, shader)
            self.glLinkProgram(program)
            self.glDetachShader(program, shader)
        prog = program_object(self, program)
        prog.info_log = sh.info_log + prog.info_log
        self.glDeleteShader(shader)
        return program

    def _pipeline_problem(self, p: ProgramPipeline) -> str | None:
        """GL 4.6 section 11.1.3.11 validation of a pipeline, or None."""
        if not p.stages:
            return "no program in the pipeline"
        if self.api.es and ("vertex" in p.stages) != ("fragment" in p.stages):
            return "GLES pipelines need both a vertex and a fragment program"
        vs, fs = p.stages.get("vertex"), p.stages.get("fragment")
        gs = p.stages.get("geometry")
        tcs, tes = p.stages.get("tess_control"), p.stages.get("tess_evaluation")
        if vs is None and (tcs is not None or tes is not None or gs is not None):
            return "a tessellation or geometry program without a vertex program"
        if tcs is not None and tes is None:
            return "a tessellation control program without a tessellation evaluation program"
        problem = _stages_problem(p.stages)
        if problem is not None:
            return problem
        last = tes if gs is None and tes is not None else None
        if last is not None and fs is not None and last is not fs:
            from driver.gl.programs import LinkError
            try:
                self._match_interfaces(self._stage_view(last, "tess_evaluation"), self._stage_view(fs, "fragment"),
                                       self.api.es)
            except LinkError as err:
                return str(err)
        elif gs is not None and fs is not None and gs is not fs:
            from driver.gl.programs import LinkError
            try:
                self._match_interfaces(self._stage_view(gs, "geometry"), self._stage_view(fs, "fragment"),
                                       self.api.es)
            except LinkError as err:
                return str(err)
        elif vs is not None and fs is not None and vs is not fs:
            from driver.gl.programs import LinkError
            try:
                self._match_interfaces(self._stage_view(vs, "vertex"), self._stage_view(fs, "fragment"),
                                       self.api.es)
            except LinkError as err:
                return str(err)
        for prog in set(p.stages.values()):
            if not self._sampler_units_consistent(prog.linked_state):
                return "samplers of different types use the same texture unit"
        return None

    @staticmethod
    def _stage_view(prog, stage: str) -> dict:
        unit = prog.linked_state.units[stage]
        vs = [g for g in unit.globals]
        builtin = lambda v: getattr(v, "builtin", False) or v.name.startswith("gl_")  # noqa: E731
        return {"inputs": [g for g in vs if g.storage == "in" and not builtin(g)],
                "outputs": [g for g in vs if g.storage == "out" and not builtin(g)]}

    def glValidateProgramPipeline(self, pipeline: int) -> None:
        self._sso()
        p = self._pipeline(pipeline)
        problem = self._pipeline_problem(p)
        p.validated = problem is None
        p.info_log = "" if problem is None else f"error: {problem}\n"

    def glGetProgramPipelineiv(self, pipeline: int, pname: int) -> list[int]:
        self._sso()
        p = self._pipeline(pipeline)
        p.ever_bound = True         # a query gives a generated name its state, as Mesa

        def name(stage):
            prog = p.stages.get(stage)
            return prog.name if prog else 0
        values = {E.GL_ACTIVE_PROGRAM: p.active_program.name if p.active_program else 0,
                  E.GL_VERTEX_SHADER: name("vertex"), E.GL_FRAGMENT_SHADER: name("fragment"),
                  E.GL_COMPUTE_SHADER: name("compute"), E.GL_VALIDATE_STATUS: int(p.validated),
                  **({E.GL_GEOMETRY_SHADER: name("geometry")} if self.api.gl(3, 2) else {}),
                  **({E.GL_TESS_CONTROL_SHADER: name("tess_control"),
                      E.GL_TESS_EVALUATION_SHADER: name("tess_evaluation")} if self.api.gl(4, 0) else {}),
                  E.GL_INFO_LOG_LENGTH: len(p.info_log.encode()) + 1 if p.info_log else 0}
        check_enum(pname, values)
        return [values[pname]]

    def glGetProgramPipelineInfoLog(self, pipeline: int, bufSize: int | None = None) -> str:
        self._sso()
        check_buf_size(bufSize)
        return self._pipeline(pipeline).info_log

    def _stage_programs(self) -> dict:
        """PipeShaderType -> Program for the next draw/dispatch: the current
        program for every stage it has, else the bound pipeline's."""
        prog = self._program_for_draw()
        if prog is not None:
            return {_PIPE[s]: prog for s in prog.linked_state.units}
        if self.bound_pipeline is not None:
            return {_PIPE[s]: p for s, p in self.bound_pipeline.stages.items()}
        return {}
