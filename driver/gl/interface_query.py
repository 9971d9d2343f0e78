"""Program interface queries (GL 4.6 section 7.3.1, GLES 3.2 section 7.3.1):
glGetProgramInterfaceiv, glGetProgramResourceIndex/Name/iv/Location, and the
storage-block binding and buffer bindings compute and fragment shaders use."""

from __future__ import annotations

import re

from driver.gallium import PipeShaderType, ShaderBuffer
from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features.gl_spirv import names_hidden, reported_name
from driver.gl.features.gles_ext import es_has
from driver.gl.glsl import gl_type_enum
from driver.gl.programs import UniformInfo, program_object

__all__ = ["InterfaceQueryMixin"]


class _Res:
    """One active resource of an interface, with its properties."""

    def __init__(self, name: str, props: dict):
        self.name = name
        self.props = props


def _feedback_buffers(layout) -> list[int]:
    """The transform feedback bindings a program's layout captures into, in order."""
    if layout is None:
        return []
    return sorted({v.buffer for v in layout.varyings if v.output is not None})


# GL 4.6 table 7.2: the resource properties (another value is INVALID_ENUM; one the
# interface lacks, INVALID_OPERATION)
_PROPERTIES = frozenset(getattr(E, "GL_" + n) for n in (
    "NAME_LENGTH", "TYPE", "ARRAY_SIZE", "OFFSET", "BLOCK_INDEX", "ARRAY_STRIDE", "MATRIX_STRIDE", "IS_ROW_MAJOR",
    "ATOMIC_COUNTER_BUFFER_INDEX", "BUFFER_BINDING", "BUFFER_DATA_SIZE", "NUM_ACTIVE_VARIABLES",
    "ACTIVE_VARIABLES", "REFERENCED_BY_VERTEX_SHADER", "REFERENCED_BY_TESS_CONTROL_SHADER",
    "REFERENCED_BY_TESS_EVALUATION_SHADER", "REFERENCED_BY_GEOMETRY_SHADER", "REFERENCED_BY_FRAGMENT_SHADER",
    "REFERENCED_BY_COMPUTE_SHADER", "TOP_LEVEL_ARRAY_SIZE", "TOP_LEVEL_ARRAY_STRIDE", "LOCATION",
    "LOCATION_INDEX", "IS_PER_PATCH", "LOCATION_COMPONENT", "TRANSFORM_FEEDBACK_BUFFER_INDEX",
    "TRANSFORM_FEEDBACK_BUFFER_STRIDE", "NUM_COMPATIBLE_SUBROUTINES", "COMPATIBLE_SUBROUTINES"))

# the graphics stages in pipeline order: a program's first and last stages of these
# give GL_PROGRAM_INPUT and GL_PROGRAM_OUTPUT
_GRAPHICS_STAGES = ("vertex", "tess_control", "tess_evaluation", "geometry", "fragment")


def _basic_entries(name: str, t):
    """(resource name, element type, array size) of a variable of type ``t`` (GL 4.6
    section 7.3.1.1): one entry for a basic type, ``name[0]`` for an array of basic
    types, an entry per member for a structure and per element for an array of them."""
    if t.base == "array" and t.element.base not in ("array", "struct"):
        return [(name + "[0]", t.element, t.length or 1)]
    if t.base == "array":
        return [e for i in range(t.length or 1) for e in _basic_entries(f"{name}[{i}]", t.element)]
    if t.base == "struct":
        return [e for f in t.fields for e in _basic_entries(f"{name}.{f.name}", f.type)]
    return [(name, t, 1)]


def _used_members(unit, variable: str) -> set[str]:
    """The members of a built-in block array (gl_in, gl_out) the shader accesses."""
    from compiler.glsl.ast import FieldAccess, Index, VariableRef, walk
    used = set()
    for decl in getattr(unit, "declarations", ()):
        for node in walk(decl):
            if isinstance(node, FieldAccess):
                base = node.base.base if isinstance(node.base, Index) else node.base
                if isinstance(base, VariableRef) and base.name == variable:
                    used.add(node.field)
    return used


def _stage_io(ls, stage: str, storage: str, builtins_only: bool = False) -> list[tuple[str, dict]]:
    """(name, properties) of the active inputs (``storage`` "in") or outputs ("out") of
    a program stage other than the vertex inputs and fragment outputs, as Mesa lists
    them: user variables (a per-vertex array keeps its array: ``v[0]``, ARRAY_SIZE its
    length), members of a named block as ``Block.member``, the built-ins the stage
    uses, gl_in[]/gl_out[]'s used members as ``gl_PerVertex.member``. LOCATION is an
    explicit layout location, else -1 (GL 4.6 section 7.3.1.1). ``builtins_only``: the
    built-ins alone (beside the vertex attributes and fragment outputs listed apart)."""
    unit = ls.units[stage]
    out = []

    def add(name, t, size, location, patch):
        out.append((name, {E.GL_TYPE: gl_type_enum(t), E.GL_ARRAY_SIZE: size, E.GL_LOCATION: location,
                           E.GL_IS_PER_PATCH: int(patch)}))

    per_vertex = (stage in ("tess_control", "tess_evaluation", "geometry") and storage == "in") or \
        (stage == "tess_control" and storage == "out")
    for g in getattr(unit, "globals", ()):
        if g.storage != storage or builtins_only:
            continue
        location = (g.layout or {}).get("location", -1)
        t = g.type
        block = g.block
        if block is not None and block.instance_name is not None:
            el = t.element if t.base == "array" and per_vertex else t
            el = el.element if el.base == "array" else el          # an array of blocks: one entry
            for f in el.fields:
                for name, ft, size in _basic_entries(f"{block.block_name}.{f.name}", f.type):
                    add(name, ft, size, -1, g.patch)
            continue
        for name, et, size in _basic_entries(g.name, t):
            add(name, et, size, location, g.patch)
    for v in getattr(unit, "builtin_variables", ()):      # (none known of a SPIR-V module)
        if v.storage != storage:
            continue
        t = v.type
        if t.base == "array" and t.element.base == "struct":       # gl_in[] / gl_out[]: gl_PerVertex
            used = _used_members(unit, v.name) or {f.name for f in t.element.fields}
            for f in t.element.fields:
                if f.name in used:
                    for name, ft, size in _basic_entries(f"{t.element.name}.{f.name}", f.type):
                        add(name, ft, size, -1, False)
            continue
        patch = v.name in ("gl_TessLevelOuter", "gl_TessLevelInner")
        for name, et, size in _basic_entries(v.name, t):
            add(name, et, size, -1, patch)
    return out


class InterfaceQueryMixin:
    def _interfaces(self):
        i = {E.GL_UNIFORM, E.GL_UNIFORM_BLOCK, E.GL_PROGRAM_INPUT, E.GL_PROGRAM_OUTPUT,
             E.GL_TRANSFORM_FEEDBACK_VARYING, E.GL_BUFFER_VARIABLE, E.GL_SHADER_STORAGE_BLOCK,
             E.GL_ATOMIC_COUNTER_BUFFER}
        if self.api.gl(4, 4) or self.api.has_extension("GL_ARB_enhanced_layouts"):
            i.add(E.GL_TRANSFORM_FEEDBACK_BUFFER)
        i |= set(self._subroutine_interfaces())
        return i

    def _subroutine_interfaces(self) -> dict[int, tuple[str, bool]]:
        """GL_<STAGE>_SUBROUTINE(_UNIFORM) -> (stage, is the uniform interface), for GL 4.0
        or ARB_shader_subroutine (GL 4.6 section 7.3.1: a stage's subroutine functions and
        subroutine uniforms, driver.gl.features.subroutines)."""
        if not (self.api.gl(4, 0) or self.api.has_extension("GL_ARB_shader_subroutine")):
            return {}
        return {getattr(E, f"GL_{prefix}_SUBROUTINE{suffix}"): (stage, bool(suffix))
                for prefix, stage in (("VERTEX", "vertex"), ("TESS_CONTROL", "tess_control"),
                                      ("TESS_EVALUATION", "tess_evaluation"), ("GEOMETRY", "geometry"),
                                      ("FRAGMENT", "fragment"), ("COMPUTE", "compute"))
                for suffix in ("", "_UNIFORM")}

    def _resources(self, prog, interface) -> list[_Res]:
        ls = prog.linked_state
        if ls is None:
            return []
        stages = set(ls.units)

        def refs(st):
            out = {E.GL_REFERENCED_BY_VERTEX_SHADER: int("vertex" in st),
                   E.GL_REFERENCED_BY_FRAGMENT_SHADER: int("fragment" in st),
                   E.GL_REFERENCED_BY_COMPUTE_SHADER: int("compute" in st)}
            if self.api.gl(4, 0) or es_has(self.api, "tessellation_shader"):     # driver/gl/tessellation.py
                out[E.GL_REFERENCED_BY_TESS_CONTROL_SHADER] = int("tess_control" in st)
                out[E.GL_REFERENCED_BY_TESS_EVALUATION_SHADER] = int("tess_evaluation" in st)
            if self.api.gl(3, 2) or es_has(self.api, "geometry_shader"):
                out[E.GL_REFERENCED_BY_GEOMETRY_SHADER] = int("geometry" in st)
            return out
        out = []
        subroutine = self._subroutine_interfaces().get(interface)
        if subroutine is not None:
            from driver.gl.features.subroutines import stage_subroutines
            stage, uniforms = subroutine
            st = stage_subroutines(ls, stage)
            if not uniforms:        # a function's resource index is its subroutine index
                for name, _ in sorted(st.functions.items(), key=lambda kv: kv[1]):
                    out.append(_Res(name, {}))
                return out
            for u in st.uniforms:
                out.append(_Res(u.name + ("[0]" if u.is_array else ""), {
                    E.GL_NUM_COMPATIBLE_SUBROUTINES: len(u.compatible),
                    E.GL_COMPATIBLE_SUBROUTINES: tuple(u.compatible),
                    E.GL_LOCATION: u.location, E.GL_ARRAY_SIZE: u.size if u.is_array else 1}))
            return out
        if interface == E.GL_UNIFORM:
            ubs = [b for b in ls.blocks if not b.is_storage]
            for u in self._active_uniforms(ls):
                if isinstance(u, tuple) and len(u) == 3:
                    m, _, abi = u
                    out.append(_Res(m.name, {
                        E.GL_TYPE: E.GL_UNSIGNED_INT_ATOMIC_COUNTER, E.GL_ARRAY_SIZE: m.size,
                        E.GL_OFFSET: m.offset_B, E.GL_BLOCK_INDEX: -1,
                        E.GL_ARRAY_STRIDE: 4 if m.size > 1 else 0, E.GL_MATRIX_STRIDE: 0,
                        E.GL_IS_ROW_MAJOR: 0, E.GL_LOCATION: -1,
                        E.GL_ATOMIC_COUNTER_BUFFER_INDEX: abi,
                        **refs(ls.atomic_buffers[abi].stages)}))
                    continue
                if isinstance(u, tuple):
                    m, bi = u
                    out.append(_Res(m.name, {
                        E.GL_TYPE: gl_type_enum(m.type), E.GL_ARRAY_SIZE: m.size,
                        E.GL_OFFSET: m.offset_B, E.GL_BLOCK_INDEX: bi,
                        E.GL_ARRAY_STRIDE: m.array_stride_B, E.GL_MATRIX_STRIDE: m.matrix_stride_B,
                        E.GL_IS_ROW_MAJOR: int(m.row_major), E.GL_LOCATION: -1,
                        E.GL_ATOMIC_COUNTER_BUFFER_INDEX: -1, **refs(ubs[bi].stages)}))
                else:
                    out.append(_Res(u.name, {
                        E.GL_TYPE: u.gl_type, E.GL_ARRAY_SIZE: u.size, E.GL_OFFSET: -1,
                        E.GL_BLOCK_INDEX: -1, E.GL_ARRAY_STRIDE: -1, E.GL_MATRIX_STRIDE: -1,
                        E.GL_IS_ROW_MAJOR: 0, E.GL_LOCATION: u.location,
                        E.GL_ATOMIC_COUNTER_BUFFER_INDEX: -1,
                        # the stages using it (a built-in state uniform: the program's)
                        **refs(u.stages if isinstance(u, UniformInfo) else stages)}))
        elif interface in (E.GL_UNIFORM_BLOCK, E.GL_SHADER_STORAGE_BLOCK):
            storage = interface == E.GL_SHADER_STORAGE_BLOCK
            blocks = [b for b in ls.blocks if b.is_storage == storage]
            # a block's active variables: the indices of its members in the UNIFORM or
            # BUFFER_VARIABLE list (GL 4.6 section 7.3.1.1), whose BLOCK_INDEX names it
            members = self._resources(prog, E.GL_BUFFER_VARIABLE if storage else E.GL_UNIFORM)
            by_block: dict[int, list[int]] = {}
            for i, r in enumerate(members):
                by_block.setdefault(r.props.get(E.GL_BLOCK_INDEX, -1), []).append(i)
            members_of: dict[str, tuple[int, ...]] = {}     # array of blocks -> its members' indices
            for bi, b in enumerate(blocks):
                variables = tuple(by_block.get(bi, ()))
                # the members of an array of blocks are listed once, with its first element; every
                # element has them as its active variables (GL 4.6 section 7.3.1)
                base = re.sub(r"(\[\d+\])+$", "", b.name)
                if base != b.name:
                    variables = members_of.setdefault(base, variables)
                out.append(_Res(b.name, {
                    E.GL_BUFFER_BINDING: b.binding, E.GL_BUFFER_DATA_SIZE: b.data_size_B,
                    E.GL_NUM_ACTIVE_VARIABLES: len(variables),
                    E.GL_ACTIVE_VARIABLES: variables, **refs(b.stages)}))
        elif interface == E.GL_BUFFER_VARIABLE:
            for bi, b in enumerate(bl for bl in ls.blocks if bl.is_storage):
                for m in b.active:
                    out.append(_Res(m.name, {
                        E.GL_TYPE: gl_type_enum(m.type), E.GL_ARRAY_SIZE: m.size,
                        E.GL_OFFSET: m.offset_B, E.GL_BLOCK_INDEX: bi,
                        E.GL_ARRAY_STRIDE: m.array_stride_B, E.GL_MATRIX_STRIDE: m.matrix_stride_B,
                        E.GL_IS_ROW_MAJOR: int(m.row_major), E.GL_TOP_LEVEL_ARRAY_SIZE: m.top_level_size,
                        E.GL_TOP_LEVEL_ARRAY_STRIDE: m.top_level_stride_B, **refs(b.stages)}))
        elif interface == E.GL_PROGRAM_INPUT:
            first = next((st for st in _GRAPHICS_STAGES if st in stages), None)
            if first is not None and first != "vertex":
                # GL 4.6 section 7.3.1: the first stage's active inputs, built-ins included
                components = self._location_components(ls, first, "in")
                out += [_Res(name, {**props, **refs({first}), **components(name)})
                        for name, props in _stage_io(ls, first, "in")]
            if first == "vertex":
                components = self._location_components(ls, "vertex", "in")
                for name, (loc, t, n) in sorted(ls.attributes.items()):
                    el = t.element if t is not None and t.base == "array" else t
                    # GL 4.6 section 7.3.1.1: an array of basic types is named `name[0]'
                    out.append(_Res(name + "[0]" if el is not t else name, {
                        E.GL_TYPE: gl_type_enum(el) if el is not None else E.GL_FLOAT_VEC4,
                        E.GL_ARRAY_SIZE: t.length if t is not None and t.base == "array" else 1,
                        E.GL_LOCATION: -1 if name.startswith("gl_") else loc,
                        E.GL_IS_PER_PATCH: 0, **refs({"vertex"}), **components(name)}))
                # the built-in inputs the stage uses that are no attributes (gl_VertexID, ...)
                listed = {r.name.split("[")[0] for r in out}
                out += [_Res(name, {**props, **refs({"vertex"}), **components(name)})
                        for name, props in _stage_io(ls, "vertex", "in", builtins_only=True)
                        if name.split("[")[0] not in listed]
        elif interface == E.GL_PROGRAM_OUTPUT:
            fs = ls.units.get("fragment")
            last = next((st for st in reversed(_GRAPHICS_STAGES) if st in stages), None)
            if last is not None and last != "fragment":
                # the last stage's active outputs, built-ins included (a separable program's)
                components = self._location_components(ls, last, "out")
                # (GL_LOCATION_INDEX: -1, not a fragment output)
                out += [_Res(name, {**props, E.GL_LOCATION_INDEX: -1, **refs({last}), **components(name)})
                        for name, props in _stage_io(ls, last, "out")]
            if fs is not None:
                outs = {g.name: g for g in fs.globals if g.storage == "out"}
                components = self._location_components(ls, "fragment", "out")
                for name, loc in sorted(ls.frag_outputs.items()):
                    t = outs[name].type if name in outs else None
                    el = t.element if t is not None and t.base == "array" else t
                    out.append(_Res(name + "[0]" if el is not t else name, {
                        E.GL_TYPE: gl_type_enum(el) if el is not None else E.GL_FLOAT_VEC4,
                        E.GL_ARRAY_SIZE: t.length if t is not None and t.base == "array" else 1,
                        E.GL_LOCATION: loc, E.GL_LOCATION_INDEX: ls.frag_output_indices.get(name, 0),
                        E.GL_IS_PER_PATCH: 0,
                        **refs({"fragment"}), **components(name)}))
                # the built-in outputs written (gl_FragColor, gl_FragData[0], gl_FragDepth, ...)
                listed = {r.name.split("[")[0] for r in out}
                out += [_Res(name, {**props, E.GL_LOCATION_INDEX: -1, **refs({"fragment"}), **components(name)})
                        for name, props in _stage_io(ls, "fragment", "out", builtins_only=True)
                        if name.split("[")[0] not in listed]
        elif interface == E.GL_ATOMIC_COUNTER_BUFFER:
            for i, a in enumerate(ls.atomic_buffers):
                vals = self.glGetActiveAtomicCounterBufferiv(
                    prog.name, i, E.GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES)
                out.append(_Res("", {E.GL_BUFFER_BINDING: a.binding,
                                     E.GL_BUFFER_DATA_SIZE: a.data_size_B,
                                     E.GL_NUM_ACTIVE_VARIABLES: len(a.counters),
                                     E.GL_ACTIVE_VARIABLES: tuple(vals or ()), **refs(a.stages)}))
        elif interface == E.GL_TRANSFORM_FEEDBACK_VARYING:
            # GL_TRANSFORM_FEEDBACK_BUFFER_INDEX: the index of the buffer's resource (below)
            index_of = {b: i for i, b in enumerate(_feedback_buffers(ls.tf_layout))}
            for v in (ls.tf_layout.varyings if ls.tf_layout is not None else ()):
                out.append(_Res(v.name, {E.GL_TYPE: v.type, E.GL_ARRAY_SIZE: v.size,
                                         E.GL_OFFSET: 4 * v.offset_dw,
                                         E.GL_TRANSFORM_FEEDBACK_BUFFER_INDEX: index_of.get(v.buffer, v.buffer)}))
        elif interface == E.GL_TRANSFORM_FEEDBACK_BUFFER:
            # GL 4.6 section 7.3.1.1: one resource per binding the program captures into
            varyings = ls.tf_layout.varyings if ls.tf_layout is not None else ()
            for b in _feedback_buffers(ls.tf_layout):
                members = tuple(i for i, v in enumerate(varyings) if v.output is not None and v.buffer == b)
                out.append(_Res("", {E.GL_BUFFER_BINDING: b, E.GL_NUM_ACTIVE_VARIABLES: len(members),
                                     E.GL_ACTIVE_VARIABLES: members,
                                     E.GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE: 4 * ls.tf_layout.stride_dw[b]}))
        return out

    def _location_components(self, ls, stage: str, storage: str):
        """name -> {GL_LOCATION_COMPONENT: first component} of a stage's inputs or outputs
        (GL 4.4 / ARB_enhanced_layouts: the component qualifier, 0 without one); {} before."""
        if not (self.api.gl(4, 4) or self.api.has_extension("GL_ARB_enhanced_layouts")):
            return lambda name: {}
        unit = ls.units.get(stage)
        comps = {g.name: (g.layout or {}).get("component", 0) for g in (unit.globals if unit is not None else ())
                 if g.storage == storage}
        return lambda name: {E.GL_LOCATION_COMPONENT: comps.get(name.split("[")[0].split(".")[0], 0)}

    def _pi_program(self, program, interface):
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check_enum(interface, self._interfaces())
        return prog

    def glGetProgramInterfaceiv(self, program: int, programInterface: int, pname: int) -> list[int]:
        # an interface or pname this query does not take is INVALID_OPERATION here, not
        # INVALID_ENUM ("pname is not supported for the interface", ARB_program_interface_query;
        # Mesa's answer for an unknown interface too); the other queries keep INVALID_ENUM
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check(programInterface in self._interfaces(), E.GL_INVALID_OPERATION,
              f"bad program interface {programInterface:#x}")
        res = self._resources(prog, programInterface)
        check(pname in (E.GL_ACTIVE_RESOURCES, E.GL_MAX_NAME_LENGTH, E.GL_MAX_NUM_ACTIVE_VARIABLES,
                        E.GL_MAX_NUM_COMPATIBLE_SUBROUTINES), E.GL_INVALID_OPERATION, f"bad pname {pname:#x}")
        if pname == E.GL_ACTIVE_RESOURCES:
            return [len(res)]
        if pname == E.GL_MAX_NUM_COMPATIBLE_SUBROUTINES:
            check(self._subroutine_interfaces().get(programInterface, (None, False))[1], E.GL_INVALID_OPERATION,
                  "only the subroutine uniform interfaces")
            return [max((r.props[E.GL_NUM_COMPATIBLE_SUBROUTINES] for r in res), default=0)]
        if pname == E.GL_MAX_NAME_LENGTH:
            check(programInterface != E.GL_ATOMIC_COUNTER_BUFFER, E.GL_INVALID_OPERATION)
            return [max((len(reported_name(prog, r.name)) + 1 for r in res), default=0)]
        check(programInterface in (E.GL_UNIFORM_BLOCK, E.GL_SHADER_STORAGE_BLOCK,
                                   E.GL_ATOMIC_COUNTER_BUFFER, E.GL_TRANSFORM_FEEDBACK_BUFFER), E.GL_INVALID_OPERATION)
        return [max((r.props.get(E.GL_NUM_ACTIVE_VARIABLES, 0) for r in res), default=0)]

    def glGetProgramResourceIndex(self, program: int, programInterface: int, name: str) -> int:
        prog = self._pi_program(program, programInterface)
        check(programInterface not in (E.GL_ATOMIC_COUNTER_BUFFER, E.GL_TRANSFORM_FEEDBACK_BUFFER), E.GL_INVALID_ENUM)
        if names_hidden(prog):          # SPIR-V: no name reflection (features/gl_spirv.py)
            return E.GL_INVALID_INDEX
        for i, r in enumerate(self._resources(prog, programInterface)):
            if r.name == name or (r.name.endswith("[0]") and r.name[:-3] == name):
                return i
        return E.GL_INVALID_INDEX

    def glGetProgramResourceName(self, program: int, programInterface: int, index: int,
                                 bufSize: int) -> str:
        prog = self._pi_program(program, programInterface)
        check(programInterface not in (E.GL_ATOMIC_COUNTER_BUFFER, E.GL_TRANSFORM_FEEDBACK_BUFFER), E.GL_INVALID_ENUM)
        res = self._resources(prog, programInterface)
        check(0 <= index < len(res), E.GL_INVALID_VALUE, "index out of range")
        check(bufSize >= 0, E.GL_INVALID_VALUE)
        return reported_name(prog, res[index].name)[:max(0, bufSize - 1)]

    def glGetProgramResourceiv(self, program: int, programInterface: int, index: int,
                               propCount: int, props, bufSize: int) -> list[int]:
        prog = self._pi_program(program, programInterface)
        res = self._resources(prog, programInterface)
        check(0 <= index < len(res), E.GL_INVALID_VALUE, "index out of range")
        check(propCount > 0 and bufSize >= 0, E.GL_INVALID_VALUE)
        r = res[index]
        out = []
        for p in list(props)[:propCount]:
            if p == E.GL_NAME_LENGTH:
                out.append(len(reported_name(prog, r.name)) + 1)
                continue
            # GL 4.6 table 7.2: a property the interface lacks is INVALID_OPERATION
            check(p in _PROPERTIES, E.GL_INVALID_ENUM, f"{p:#x} is no resource property")
            check(p in r.props, E.GL_INVALID_OPERATION, f"property {p:#x} not of this interface")
            v = r.props[p]
            out += list(v) if isinstance(v, tuple) else [v]
        return out[:bufSize]

    def glGetProgramResourceLocation(self, program: int, programInterface: int, name: str) -> int:
        # the subroutine uniforms' locations are their stage's (GL 4.6 section 7.9; the
        # other resource queries do not list these interfaces yet)
        subroutine_stage = {E.GL_VERTEX_SUBROUTINE_UNIFORM: E.GL_VERTEX_SHADER,
                            E.GL_TESS_CONTROL_SUBROUTINE_UNIFORM: E.GL_TESS_CONTROL_SHADER,
                            E.GL_TESS_EVALUATION_SUBROUTINE_UNIFORM: E.GL_TESS_EVALUATION_SHADER,
                            E.GL_GEOMETRY_SUBROUTINE_UNIFORM: E.GL_GEOMETRY_SHADER,
                            E.GL_FRAGMENT_SUBROUTINE_UNIFORM: E.GL_FRAGMENT_SHADER,
                            E.GL_COMPUTE_SUBROUTINE_UNIFORM: E.GL_COMPUTE_SHADER}
        if not (self.api.gl(4, 0) or self.api.has_extension("GL_ARB_shader_subroutine")):
            subroutine_stage = {}
        if programInterface in subroutine_stage:
            check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
            prog = program_object(self, program)
        else:
            prog = self._pi_program(program, programInterface)
        check(programInterface in (E.GL_UNIFORM, E.GL_PROGRAM_INPUT, E.GL_PROGRAM_OUTPUT, *subroutine_stage),
              E.GL_INVALID_ENUM)
        check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        if name is None or names_hidden(prog):       # a NULL name names no resource
            return -1
        if programInterface in subroutine_stage:
            return self.glGetSubroutineUniformLocation(program, subroutine_stage[programInterface], name)
        if programInterface == E.GL_UNIFORM:
            return self.glGetUniformLocation(program, name)
        stages = prog.linked_state.units
        if programInterface == E.GL_PROGRAM_INPUT and "vertex" in stages:
            return self.glGetAttribLocation(program, name) if not name.startswith("gl_") else -1
        if programInterface == E.GL_PROGRAM_OUTPUT and "fragment" in stages:
            return prog.linked_state.frag_outputs.get(name, -1)
        for r in self._resources(prog, programInterface):      # another stage's: as listed
            if r.name == name or (r.name.endswith("[0]") and r.name[:-3] == name):
                return r.props[E.GL_LOCATION]
        return -1

    def glShaderStorageBlockBinding(self, program: int, index: int, binding: int) -> None:
        check(self.api.gl(4, 3), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check(prog.linked, E.GL_INVALID_OPERATION)
        blocks = [b for b in prog.linked_state.blocks if b.is_storage]
        check(0 <= index < len(blocks), E.GL_INVALID_VALUE, "block index out of range")
        check(0 <= binding < self.limits["GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS"], E.GL_INVALID_VALUE)
        blocks[index].binding = binding

    def emit_shader_buffers(self, stage: PipeShaderType, ls, stage_name: str | None = None) -> None:
        """Storage blocks of the program, in block order, bound from the
        indexed SHADER_STORAGE_BUFFER bindings their binding points name
        (``stage_name``: the program stage, when the pipe stage differs)."""
        name = stage_name or {PipeShaderType.VERTEX: "vertex", PipeShaderType.FRAGMENT: "fragment",
                              PipeShaderType.COMPUTE: "compute"}[stage]
        ssbos = self.indexed_buffers[E.GL_SHADER_STORAGE_BUFFER]
        bufs = []
        for b in (bl for bl in ls.blocks if bl.is_storage):
            if name not in b.stages:
                bufs.append(None)
                continue
            buf, off, size = ssbos.get(b.binding, (None, 0, 0))
            bufs.append(ShaderBuffer(buf.resource, off, size or buf.size - off)
                        if buf is not None and buf.resource is not None else None)
        acbs = self.indexed_buffers[E.GL_ATOMIC_COUNTER_BUFFER]
        for a in ls.atomic_buffers:
            if name not in a.stages:
                bufs.append(None)
                continue
            buf, off, size = acbs.get(a.binding, (None, 0, 0))
            bufs.append(ShaderBuffer(buf.resource, off, size or buf.size - off)
                        if buf is not None and buf.resource is not None else None)
        if bufs:
            self.pipe.set_shader_buffers(stage, 0, bufs, (1 << len(bufs)) - 1)
