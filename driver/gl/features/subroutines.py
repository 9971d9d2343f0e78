"""Shader subroutines (GL 4.6 section 7.9, GL_ARB_shader_subroutine): the queries of a
linked program's subroutines and subroutine uniforms per stage, and the subroutine
uniforms' values.

The compiler gives each stage's subroutine functions their indices and turns a call
through a subroutine uniform into a choice on the uniform's value
(``compiler.glsl.subroutines``); the uniform itself is a ``uint`` of the program's
default uniform block, which this module writes. Subroutine uniform *locations* are a
space of their own per stage: explicit ``layout(location)`` first, then the lowest
free ones in declaration order, one per array element. The values are context state:
``glUniformSubroutinesuiv`` sets every location of a stage of the current program at
once, and ``glUseProgram`` resets them (GL 4.6 section 7.9: "arbitrary, but valid"
values; here each location's compatible function with the lowest index)."""

from __future__ import annotations

from dataclasses import dataclass, field

from driver.gl import enums as E
from driver.gl.errors import check, check_buf_size, check_enum
from driver.gl.features import context_method, entry_point
from driver.gl.objects import program_object

__all__ = ["SubroutineStage", "is_subroutine_uniform", "stage_subroutines"]

_STAGES = {E.GL_VERTEX_SHADER: "vertex", E.GL_FRAGMENT_SHADER: "fragment", E.GL_GEOMETRY_SHADER: "geometry",
           E.GL_TESS_CONTROL_SHADER: "tess_control", E.GL_TESS_EVALUATION_SHADER: "tess_evaluation",
           E.GL_COMPUTE_SHADER: "compute"}


@dataclass
class SubroutineUniform:
    name: str                 # as declared ("f"; an array's base name)
    type_name: str            # its subroutine type
    size: int                 # array elements, 1 for a single uniform
    is_array: bool
    location: int             # of element 0
    compatible: list[int]     # the indices of the functions of its type


@dataclass
class SubroutineStage:
    """One stage's subroutines: ``functions`` name -> index, ``uniforms`` in declaration
    order, ``locations`` location -> (uniform, element), ``n_locations`` =
    ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS (highest used location + 1)."""

    functions: dict[str, int] = field(default_factory=dict)
    uniforms: list[SubroutineUniform] = field(default_factory=list)
    locations: dict[int, tuple] = field(default_factory=dict)
    n_locations: int = 0

    def defaults(self) -> list[int]:
        return [self.locations[k][0].compatible[0] if k in self.locations and self.locations[k][0].compatible
                else 0 for k in range(self.n_locations)]


def stage_subroutines(linked, stage: str) -> SubroutineStage:
    """The subroutines of ``stage`` of a linked program (built once per link)."""
    cache = linked.__dict__.setdefault("_subroutine_stages", {})
    st = cache.get(stage)
    if st is not None:
        return st
    st = cache[stage] = SubroutineStage()
    unit = linked.units.get(stage)
    info = getattr(unit, "subroutines", None) if unit is not None else None
    if info is None:
        return st
    st.functions = {name: index for name, index, _ in info.functions}
    taken: set[int] = set()
    pending = []
    for name, type_name, size, location in info.uniforms:
        compatible = sorted(i for _, i, kinds in info.functions if type_name in kinds)
        u = SubroutineUniform(name, type_name, max(size, 1), size > 0, -1, compatible)
        st.uniforms.append(u)
        if location is not None:
            u.location = int(location)
            taken.update(range(u.location, u.location + u.size))
        else:
            pending.append(u)
    for u in pending:
        loc = 0
        while any(x in taken for x in range(loc, loc + u.size)):
            loc += 1
        u.location = loc
        taken.update(range(loc, loc + u.size))
    for u in st.uniforms:
        for e in range(u.size):
            st.locations[u.location + e] = (u, e)
    st.n_locations = max(st.locations, default=-1) + 1
    return st


def is_subroutine_uniform(linked, name: str) -> bool:
    """Whether default-block uniform ``name`` ("f", "f[0]") is a subroutine uniform of some
    stage (those are not active uniforms of the program: GL 4.6 section 7.3.1)."""
    base = name[:-3] if name.endswith("[0]") else name
    return any(base == u.name for stage in linked.units for u in stage_subroutines(linked, stage).uniforms)


def _stage_of(ctx, shadertype: int) -> str:
    check(ctx.api.gl(4, 0) or ctx.api.has_extension("GL_ARB_shader_subroutine"), E.GL_INVALID_OPERATION,
          "subroutines need GL 4.0 or GL_ARB_shader_subroutine")
    check_enum(shadertype, _STAGES)
    return _STAGES[shadertype]


def _linked_stage(ctx, program: int, shadertype: int) -> SubroutineStage:
    stage = _stage_of(ctx, shadertype)
    prog = program_object(ctx, program)
    check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
    return stage_subroutines(prog.linked_state, stage)


def _split(name: str) -> tuple[str, int] | None:
    if name.endswith("]") and "[" in name:
        head, _, idx = name[:-1].rpartition("[")
        return (head, int(idx)) if idx.isdigit() else None
    return name, 0


@entry_point
def glGetSubroutineIndex(ctx, program, shadertype, name):
    st = _linked_stage(ctx, program, shadertype)
    return st.functions.get(name, E.GL_INVALID_INDEX)


@entry_point
def glGetSubroutineUniformLocation(ctx, program, shadertype, name):
    st = _linked_stage(ctx, program, shadertype)
    parts = _split(name) if name is not None else None     # a NULL name names no uniform
    if parts is None:
        return -1
    base, index = parts
    for u in st.uniforms:
        if u.name == base and (u.is_array or (index == 0 and base == name)) and index < u.size:
            return u.location + index
    return -1


def _sorted_functions(st: SubroutineStage) -> dict[int, str]:
    return {index: name for name, index in st.functions.items()}


@entry_point
def glGetActiveSubroutineName(ctx, program, shadertype, index, bufSize=None):
    st = _linked_stage(ctx, program, shadertype)
    check_buf_size(bufSize)
    names = _sorted_functions(st)
    check(index in names, E.GL_INVALID_VALUE, f"no active subroutine {index}")
    return names[index]


@entry_point
def glGetActiveSubroutineUniformName(ctx, program, shadertype, index, bufSize=None):
    st = _linked_stage(ctx, program, shadertype)
    check_buf_size(bufSize)
    check(0 <= index < len(st.uniforms), E.GL_INVALID_VALUE, f"no active subroutine uniform {index}")
    u = st.uniforms[index]
    return u.name + ("[0]" if u.is_array else "")


@entry_point
def glGetActiveSubroutineUniformiv(ctx, program, shadertype, index, pname):
    st = _linked_stage(ctx, program, shadertype)
    check_enum(pname, (E.GL_NUM_COMPATIBLE_SUBROUTINES, E.GL_COMPATIBLE_SUBROUTINES, E.GL_UNIFORM_SIZE,
                       E.GL_UNIFORM_NAME_LENGTH))
    check(0 <= index < len(st.uniforms), E.GL_INVALID_VALUE, f"no active subroutine uniform {index}")
    u = st.uniforms[index]
    if pname == E.GL_NUM_COMPATIBLE_SUBROUTINES:
        return [len(u.compatible)]
    if pname == E.GL_COMPATIBLE_SUBROUTINES:
        return list(u.compatible)
    if pname == E.GL_UNIFORM_SIZE:
        return [u.size]
    return [len(u.name + ("[0]" if u.is_array else "")) + 1]


@entry_point
def glGetProgramStageiv(ctx, program, shadertype, pname):
    """A program never linked has no subroutines in any stage: 0, as the program interface
    queries answer (ARB_shader_subroutine names no error for it; Mesa refuses only the
    location count, which needs a link)."""
    stage = _stage_of(ctx, shadertype)
    prog = program_object(ctx, program)
    check_enum(pname, (E.GL_ACTIVE_SUBROUTINES, E.GL_ACTIVE_SUBROUTINE_UNIFORMS,
                       E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS, E.GL_ACTIVE_SUBROUTINE_MAX_LENGTH,
                       E.GL_ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH))
    if not prog.linked:
        check(pname != E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS, E.GL_INVALID_OPERATION, "program not linked")
        return [0]
    st = stage_subroutines(prog.linked_state, stage)
    if pname == E.GL_ACTIVE_SUBROUTINES:
        return [len(st.functions)]
    if pname == E.GL_ACTIVE_SUBROUTINE_UNIFORMS:
        return [len(st.uniforms)]
    if pname == E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS:
        return [st.n_locations]
    if pname == E.GL_ACTIVE_SUBROUTINE_MAX_LENGTH:
        return [max((len(n) + 1 for n in st.functions), default=0)]
    return [max((len(u.name + ("[0]" if u.is_array else "")) + 1 for u in st.uniforms), default=0)]


def _current_stage(ctx, shadertype: int):
    stage = _stage_of(ctx, shadertype)
    prog = ctx.current_program
    check(prog is not None, E.GL_INVALID_OPERATION, "no current program")
    return prog, stage, stage_subroutines(prog.linked_state, stage)


def _write(prog, st: SubroutineStage, values: list[int]) -> None:
    """The values into the program's default-block storage of the subroutine uniforms."""
    ls = prog.linked_state
    by_name = {(u.name[:-3] if u.is_array else u.name): u for u in ls.uniforms}
    for loc, value in enumerate(values):
        if loc not in st.locations:
            continue
        su, element = st.locations[loc]
        u = by_name.get(su.name)
        if u is None or element >= u.size:
            continue       # (not used by the shader: no storage)
        at = u.offset_B + element * u.stride_B
        ls.uniform_storage.write(at, int(value).to_bytes(4, "little"))


def _values(ctx) -> dict:
    return ctx.__dict__.setdefault("_subroutine_values", {})


@entry_point
def glUniformSubroutinesuiv(ctx, shadertype, count, indices):
    prog, stage, st = _current_stage(ctx, shadertype)
    check(count == st.n_locations, E.GL_INVALID_VALUE,
          f"count {count} != ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS ({st.n_locations})")
    values = [int(v) for v in list(indices)[:count]]
    check(len(values) == count, E.GL_INVALID_VALUE, "not enough indices")
    active = set(st.functions.values())
    for loc, v in enumerate(values):
        check(v in active, E.GL_INVALID_VALUE, f"{v} is not an active subroutine index")
        if loc in st.locations:
            check(v in st.locations[loc][0].compatible, E.GL_INVALID_VALUE,
                  f"subroutine {v} is not compatible with the uniform at location {loc}")
    _values(ctx)[stage] = values
    _write(prog, st, values)


@entry_point
def glGetUniformSubroutineuiv(ctx, shadertype, location):
    prog, stage, st = _current_stage(ctx, shadertype)
    check(0 <= location < st.n_locations, E.GL_INVALID_VALUE, f"no subroutine uniform location {location}")
    values = _values(ctx).get(stage) or st.defaults()
    return [values[location]]


@context_method
def _reset_subroutines(ctx, prog) -> None:
    """glUseProgram: every stage's subroutine uniforms back to their defaults."""
    _values(ctx).clear()
    if prog is None or not prog.linked:
        return
    for stage in prog.linked_state.units:
        st = stage_subroutines(prog.linked_state, stage)
        if st.n_locations:
            _write(prog, st, st.defaults())

