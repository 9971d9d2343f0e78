"""Shader and program objects: compile, attach, link (interface matching,
attribute / fragment output / uniform locations, uniform blocks), program
queries (GL 4.6 chapter 7, GLES 3.2 chapter 7)."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field

from compiler import link
from compiler.glsl.types import block_packing
from driver.gallium import PipeShaderType, ShaderState
from driver.gl import enums as E
from driver.gl.binary import available as binary_available
from driver.gl.features.gl_spirv import names_hidden, reported_name
from driver.gl.features.gles_ext import GL_COMPLETION_STATUS_KHR, es_has, parallel_compile
from driver.gl.features.shading_language_include import includes_for
from driver.gl.pointers import pack_into
from driver.gl.errors import check, check_buf_size, check_enum
from driver.gl.glsl import (
    UniformLeaf, column_slot_B, compile_glsl, gl_type_enum, leaf_uniforms, std140_members, std140_size,
    type_slots,
)
from driver.gl.compat import STATE_CONSTANT_BUFFER
from driver.gl.objects import STAGES, Namespace, Program, Shader, program_object, shader_object  # noqa: F401
from driver.gl.uniform_storage import UniformStorage
from driver.gl.limits import glsl_limits

__all__ = ["ProgramMixin", "LinkedProgram", "UniformInfo", "STAGES"]

# Stages the claimed desktop versions include but the compiler cannot build yet
# (tessellation: GL 4.0): shader objects of these types exist, and
# compiling one fails with an info log saying so.
LATER_STAGES: dict = {}


def stage_label(type: int) -> str:
    return STAGES[type] if type in STAGES else LATER_STAGES[type][0]
PIPE_STAGES = {"vertex": PipeShaderType.VERTEX, "fragment": PipeShaderType.FRAGMENT,
               "compute": PipeShaderType.COMPUTE}


@dataclass
class UniformInfo:
    """An active uniform of the default block. Element i of it has location
    `location + i` and its data at `offset_B + i * stride_B` in the
    program's uniform storage, column c of a matrix `matrix_stride_B * c` further
    (the program's default block, std430: compiler.link.DefaultBlock; samplers and
    images keep their units after it, one 16-byte slot per element)."""
    name: str
    gl_type: int
    type: object
    size: int
    is_array: bool
    location: int
    offset_B: int
    stride_B: int
    kind: str                # float int uint bool sampler image atomic
    # samplers: the elements the shaders use (GL 4.6 section 11.1.3.11's active
    # samplers), None when every element may be (a non-constant index, a whole array)
    active_elements: tuple | None = None
    matrix_stride_B: int = 16
    # the stages whose shaders use it (GL 4.6 section 7.3.1.1's REFERENCED_BY_*_SHADER)
    stages: frozenset = frozenset()

    @property
    def components(self) -> int:
        return self.type.vector_size if self.kind not in ("sampler", "image", "atomic") else 1

    @property
    def columns(self) -> int:
        return self.type.columns


def _sampler_elements_used(merged: dict) -> dict:
    """Sampler array uniform name -> the flat elements (arrays of arrays in row-major
    order) the stages' shader objects index with constant indices, or None when one
    of them uses it otherwise (a non-constant index, the whole array as an argument)."""
    from compiler.glsl.ast import Index, VariableRef, walk
    used: dict = {}
    for stage in merged.values():
        for unit in stage.get("units") or []:
            nodes = list(walk(unit))
            bases = {id(n.base) for n in nodes if isinstance(n, Index)}
            chained = set()
            for n in nodes:
                if not isinstance(n, Index) or id(n) in bases:
                    continue            # only whole chains a[i][j], from their outermost index
                chain, node = [], n
                while isinstance(node, Index):
                    chain.append(node)
                    chained.add(id(node.base))
                    node = node.base
                sym = getattr(node, "symbol", None) if isinstance(node, VariableRef) else None
                t = getattr(sym, "type", None)
                if sym is None or getattr(sym, "storage", None) != "uniform" or t is None or not t.is_array \
                        or not t.innermost_element.is_sampler:
                    continue
                dims, inner = [], t
                while inner.is_array:
                    dims.append(inner.length or 0)
                    inner = inner.element
                consts = [c.index.const for c in reversed(chain)]
                if len(consts) != len(dims) or any(not isinstance(k, int) and not (
                        isinstance(k, (list, tuple)) and len(k) == 1) for k in consts):
                    used[sym.name] = None
                    continue
                flat = 0
                for k, d in zip(consts, dims):
                    flat = flat * d + int(k[0] if isinstance(k, (list, tuple)) else k)
                if sym.name not in used or used[sym.name] is not None:
                    used.setdefault(sym.name, set()).add(flat)
            for n in nodes:                 # a sampler array used whole, not indexed
                sym = getattr(n, "symbol", None) if isinstance(n, VariableRef) else None
                t = getattr(sym, "type", None)
                if sym is not None and id(n) not in chained and getattr(sym, "storage", None) == "uniform" \
                        and t is not None and t.is_array and t.innermost_element.is_sampler:
                    used[sym.name] = None
    return used


def _uniform_array_extents(merged: dict) -> dict:
    """Array uniform name -> one past the highest constant index any stage's shader
    objects read it with, or None when one reads it otherwise (a non-constant index, the
    whole array). Mesa's linker sizes such an array's active uniform so (its
    update_array_sizes: piglit glsl-getactiveuniform-array-size, ``color[50]`` read as
    ``color[24]`` is active with 25 elements and ``color[25]`` has no location)."""
    from compiler.glsl.ast import Index, VariableRef, walk
    extent: dict = {}
    for stage in merged.values():
        for unit in stage.get("units") or []:
            nodes = list(walk(unit))
            indexed = set()
            for n in nodes:
                sym = getattr(n.base, "symbol", None) if isinstance(n, Index) and isinstance(n.base, VariableRef) \
                    else None
                if sym is None or getattr(sym, "storage", None) != "uniform" or not sym.type.is_array:
                    continue
                k = n.index.const
                k = k[0] if isinstance(k, (list, tuple)) and len(k) == 1 else k
                if not isinstance(k, int):
                    continue
                indexed.add(id(n.base))
                if sym.name not in extent or extent[sym.name] is not None:
                    extent[sym.name] = max(extent.get(sym.name) or 0, k + 1)
            for n in nodes:
                sym = getattr(n, "symbol", None) if isinstance(n, VariableRef) else None
                if sym is not None and id(n) not in indexed and getattr(sym, "storage", None) == "uniform" \
                        and getattr(sym.type, "is_array", False):
                    extent[sym.name] = None
    return extent


def _active_size(leaf, extents: dict, explicit_location: bool) -> int:
    """The elements of an active uniform: its declared size, or for a plain array of a
    non-opaque basic type without an explicit location read only with constant indices,
    one past the highest (``_uniform_array_extents``). Its storage in the default block
    keeps the declared size."""
    n = max(1, leaf.size)
    var = leaf.variable
    t = getattr(var, "type", None)
    if (not leaf.is_array or explicit_location or t is None or not t.is_array or t.element.is_array
            or t.element.base == "struct" or t.element.is_opaque or leaf.name != f"{var.name}[0]"):
        return n
    used = extents.get(var.name)
    return n if used is None else max(1, min(n, used))


def _active_sampler_elements(leaf, leaves: list, used: dict) -> tuple | None:
    """The elements of sampler uniform ``leaf`` (of ``leaves``, the uniforms' leaves in
    order) that are active; None: all of them (not an array of samplers, or used other
    than by constant indices)."""
    var = leaf.variable
    t = getattr(var, "type", None)
    if t is None or not t.is_array or not t.innermost_element.is_sampler or var.name not in used \
            or used[var.name] is None:
        return None
    siblings = [lf for lf in leaves if lf.variable is var]
    first = sum(max(1, lf.size) for lf in siblings[:siblings.index(leaf)])
    return tuple(i for i in range(max(1, leaf.size)) if first + i in used[var.name])


# GL 4.6 section 11.1.1: "For GetActiveAttrib, all active vertex shader input variables are
# enumerated, including the special built-in inputs gl_VertexID and gl_InstanceID" (Mesa:
# these two, not gl_BaseVertex & co.); they have no location
_SPECIAL_VERTEX_INPUTS = ("gl_VertexID", "gl_InstanceID")


def _active_attributes(ls) -> list:
    """The active attributes by name, as glGetActiveAttrib indexes them: (name, (location,
    type or None for a built-in, locations)), the generic ones and compatibility built-ins
    of ``ls.attributes`` and the special inputs the vertex stage reads."""
    if ls is None:
        return []
    out = dict(ls.attributes)
    for v in getattr(ls.units.get("vertex"), "builtin_variables", ()):
        if v.name in _SPECIAL_VERTEX_INPUTS and v.storage == "in" and v.used:
            out.setdefault(v.name, (-1, None, 0))
    return sorted(out.items())


@dataclass(frozen=True)
class BuiltinUniform:
    """An active built-in uniform of the compatibility profile (``gl_ModelViewMatrix``,
    ``gl_LightSource[2].diffuse``, ...): GL state the shaders read, which glGetActiveUniform
    and the UNIFORM resources list as Mesa does, without a location (GL 4.6 section
    7.3.1.1: a name beginning with "gl_" has none) and outside the default block."""
    name: str
    gl_type: int
    size: int
    stages: frozenset
    location: int = -1


def _builtin_uniforms(merged: dict) -> list[BuiltinUniform]:
    """The built-in uniforms the stages of ``merged`` (no fixed-function stage) read,
    ``ftransform()`` reading ``gl_ModelViewProjectionMatrix``, flattened as user uniforms
    (``leaf_uniforms``; measured on llvmpipe: struct members one each, ``gl_Fog.color``);
    an array read only with constant indices has one past the highest (as
    ``_uniform_array_extents``: ``gl_TextureMatrix[1]`` alone makes ``gl_TextureMatrix[0]``
    of 2 elements, ``gl_LightSource[2].diffuse`` lists lights 0 to 2)."""
    from compiler.glsl.types import array_of, matrix
    extents = _uniform_array_extents(merged)
    found: dict[str, list] = {}                     # name -> [type, stages]
    for stage, m in merged.items():
        unit = m["unit"]
        read = {v.name: v.type for v in unit.builtin_variables if v.storage == "uniform" and v.used}
        if any(getattr(f, "name", "") == "ftransform" for f in unit.builtin_functions):
            read.setdefault("gl_ModelViewProjectionMatrix", matrix("float", 4, 4))
        for name, t in read.items():
            found.setdefault(name, [t, set()])[1].add(stage)
    out = []
    for name, (t, stages) in found.items():
        if t.is_array and extents.get(name):
            t = array_of(t.element, min(t.length or extents[name], extents[name]))
        out += [BuiltinUniform(lf.name, gl_type_enum(lf.type), max(1, lf.size), frozenset(stages))
                for lf in leaf_uniforms(name, t, None)]
    return out


@dataclass
class UniformBlockInfo:
    name: str
    binding: int
    data_size_B: int
    stages: set = field(default_factory=set)
    members: list = field(default_factory=list)
    is_storage: bool = False
    active: list = field(default_factory=list)     # BlockMember, std140 offsets


@dataclass
class AtomicBufferInfo:
    """An active atomic counter buffer: counters are (name, offset_B, count)."""
    binding: int
    counters: list = field(default_factory=list)
    data_size_B: int = 0
    stages: set = field(default_factory=set)


def _check_es100_builtin_invariance(vs_unit, fs_unit, vs_outputs=(), fs_inputs=()) -> None:
    """GLSL ES 1.00 section 4.6.4: gl_FragCoord may be invariant only if gl_Position
    is, gl_PointCoord only if gl_PointSize is, and a varying declared in both stages
    is invariant in both or in neither (a link error otherwise; GLSL ES 3.00 dropped
    these rules with fragment-input invariance)."""
    if fs_unit.version.number >= 300:
        return
    outs = {v.name: v for v in vs_outputs}
    for v in fs_inputs:
        o = outs.get(v.name)
        if o is not None and bool(o.invariant or vs_unit.invariant_all) != bool(v.invariant):
            raise LinkError(f"varying `{v.name}' is invariant in one stage and not in the other "
                            "(GLSL ES 1.00 section 4.6.4)")
    def invariant(unit, name, output):
        v = next((b for b in unit.builtin_variables if b.name == name), None)
        return bool(v is not None and (v.invariant or (output and unit.invariant_all)))
    for frag, vert in (("gl_FragCoord", "gl_Position"), ("gl_PointCoord", "gl_PointSize")):
        if invariant(fs_unit, frag, False) and not invariant(vs_unit, vert, True):
            raise LinkError(f"`{frag}' is invariant but the vertex shader's `{vert}' is not "
                            "(GLSL ES 1.00 section 4.6.4)")


@dataclass
class LinkedProgram:
    """Everything a successful link establishes (and draws use)."""
    units: dict                       # stage -> TranslationUnit
    attributes: dict                  # name -> (location, gl type, size)
    frag_outputs: dict                # name -> location
    uniforms: list                    # UniformInfo in location order
    locations: dict                   # location -> (UniformInfo, element index)
    uniform_storage: UniformStorage   # the default block's bytes (write through it: its generation moves)
    blocks: list                      # UniformBlockInfo
    local_size: tuple | None = None
    pipe_shaders: dict = field(default_factory=dict)   # PipeShaderType -> handle
    tf_varyings: list = field(default_factory=list)
    tf_layout: object = None          # driver.gl.feedback.FeedbackLayout when tf_varyings
    image: object = None              # driver.gl.binary.ProgramImage: what glGetProgramBinary saves
    atomic_buffers: list = field(default_factory=list)  # AtomicBufferInfo by binding
    geometry: object = None           # compiler.glsl.geometry.GeometryLayout of a geometry stage
    geometry_interface: object = None  # compiler.lower.geometry.GeometryInterface (its output records)
    tessellation: object = None       # driver.gl.tessellation.TessellationLink of tessellation stages
    frag_output_indices: dict = field(default_factory=dict)  # name -> 1: dual-source second colours
    # generic attribute location -> vertex element (compiler.link.attribute_fetch_slots: a
    # dvec3/dvec4 location takes two elements); empty: every location is its own element
    fetch_slots: dict = field(default_factory=dict)
    stages: dict = field(default_factory=dict)   # stage -> compiler.link.LinkedShader (what the pipe compiles)
    default_block: object = None      # compiler.link.DefaultBlock: the layout of uniform_data the shaders read
    builtin_uniforms: list = field(default_factory=list)  # BuiltinUniform: active, after the others
    fixed_function: frozenset = frozenset()  # the stages the link added as fixed-function ones (compat)

    @property
    def uniform_data(self) -> memoryview:
        """The default block's bytes, read-only (write with ``uniform_storage``)."""
        return self.uniform_storage.view


_VERSION_RE = re.compile(r"^[ \t]*#[ \t]*version\b", re.M)


# the compiler's link error: a program's info log line (GL 4.6 section 7.3)
LinkError = link.LinkError


@dataclass
class _AtomicCounter:
    """An active atomic counter as an active uniform (location -1)."""
    name: str
    offset_B: int
    size: int


def _base_type(t):
    while t.base == "array":
        t = t.element
    return t


def _is_builtin(v) -> bool:
    return getattr(v, "builtin", False) or v.name.startswith("gl_")


def _attribute_element(attributes: dict, name: str):
    """The (location, element type, locations) of ``name`` = ``input[k]``, element k of
    an array vertex input (GL 4.6 section 7.3.1.1: an array element's name is a resource
    name, so GetAttribLocation answers it): the array's location plus k times the
    locations an element takes (two for a mat2 element). None when it is not one."""
    base, bracket, rest = name.partition("[")
    if not bracket or not rest.endswith("]") or not rest[:-1].isdigit():
        return None
    entry = attributes.get(base)
    if entry is None or entry[1] is None or entry[1].base != "array":
        return None
    loc, t, n = entry
    k = int(rest[:-1])
    if k >= (t.length or 0):
        return None
    per = n // t.length
    return loc + k * per, t.element, per



def _block_element_suffixes(t) -> list[str]:
    """``[0]``, ``[1]``, ... (``[0][0]``, ``[0][1]``, ... for arrays of arrays, row-major) of
    an array of interface blocks."""
    if not t.is_array:
        return [""]
    return [f"[{i}]{rest}" for i in range(t.length or 1) for rest in _block_element_suffixes(t.element)]

# -- lookups (GL 4.6 section 7.1: INVALID_VALUE for unknown names, INVALID_OPERATION
#    for the other kind of object; shaders and programs share one name space) -----------------
class ProgramMixin:
    def _init_family(self) -> None:
        # GL 4.6 section 7.1: shaders and programs share one name space
        self.shader_objects = Namespace(lambda n, *a: None)
        self.current_program = None
        self._ff_cache: dict = {}
        self._ff_sources: dict = {}       # id(unit) -> generated GLSL of a fixed-function stage

    # -- lookups (GL 4.6 section 7.1: INVALID_VALUE for unknown names,
    #    INVALID_OPERATION for the other kind of object) ----------------------------
    def _shader_types(self):
        t = {E.GL_VERTEX_SHADER, E.GL_FRAGMENT_SHADER}
        if self.api.gl_or_es((4, 3), (3, 1)):
            t.add(E.GL_COMPUTE_SHADER)
        if self.api.gl(3, 2) or es_has(self.api, "geometry_shader"):
            t.add(E.GL_GEOMETRY_SHADER)       # driver/gl/geometry.py: lowered to compute passes
        if self.api.gl(4, 0) or es_has(self.api, "tessellation_shader"):     # driver/gl/tessellation.py
            t |= {E.GL_TESS_CONTROL_SHADER, E.GL_TESS_EVALUATION_SHADER}
        t |= {k for k, (_n, v) in LATER_STAGES.items() if self.api.gl(*v)}
        return t

    # -- shaders ---------------------------------------------------------------
    def glCreateShader(self, type: int) -> int:
        check_enum(type, self._shader_types())
        name = self.shader_objects.gen(1)[0]
        self.shader_objects.objects[name] = Shader(name, type)
        return name

    def glShaderSource(self, shader: int, count: int, strings, lengths=None) -> None:
        """`strings`: a sequence of str/bytes; `lengths` None or per-string
        lengths (negative: up to the string's end), as in C."""
        sh = shader_object(self, shader)
        check(count >= 0, E.GL_INVALID_VALUE, "negative count")
        sh.spirv_binary = sh.spirv_shader = None      # a GLSL shader again (GL 4.6 section 7.2)
        parts = []
        for i, s in enumerate(list(strings)[:count]):
            s = s.decode() if isinstance(s, (bytes, bytearray)) else str(s)
            if lengths is not None and lengths[i] is not None and lengths[i] >= 0:
                s = s[:lengths[i]]
            parts.append(s)
        sh.source = "".join(parts)

    def glCompileShader(self, shader: int) -> None:
        # glCompileShaderIncludeARB(shader, 0, NULL, NULL) (features/shading_language_include.py)
        self.compile_shader_object(shader_object(self, shader))

    def compile_shader_object(self, sh: Shader, search_paths: tuple = ()) -> None:
        """Compile ``sh``, its ``#include`` directives searching the tree locations
        ``search_paths`` first (ARB_shading_language_include)."""
        # a SPIR-V module is specialized, not compiled (features/gl_spirv.py)
        check(getattr(sh, "spirv_binary", None) is None, E.GL_INVALID_OPERATION, "the shader holds SPIR-V")
        source = sh.source or ""
        if sh.type in LATER_STAGES:
            sh.compiled, sh.ast, sh.compiled_source = False, None, None
            sh.info_log = (f"0:0(0): error: {LATER_STAGES[sh.type][0]} shaders are not supported "
                           f"by shimgl yet (its compiler has vertex, fragment and compute stages only)\n")
            return
        if self.api.es and not _VERSION_RE.search(source):
            # GLSL ES 1.00 section 3.4: no #version means version 100 in a
            # GLES context; "#line 0" keeps the messages' line numbers.
            source = "#version 100\n#line 0\n" + source
        includes = includes_for(self, search_paths) if "include" in source else None
        if includes is not None:
            # what the #include directives name, copied in: the compiled source is
            # complete without the named strings (glsl.expand_includes)
            from compiler.glsl import GLSLCompileError, expand_includes
            try:
                source = expand_includes(source, STAGES[sh.type], includes, compat_context=self.api.compat,
                                         extensions=self.api.glsl_extensions)
            except GLSLCompileError as err:
                sh.compiled, sh.info_log, sh.ast, sh.compiled_source = False, err.info_log, None, None
                return
        res = compile_glsl(source, STAGES[sh.type], compat_context=self.api.compat,
                           extensions=self.api.glsl_extensions,
                           limits=glsl_limits(self.api, self.limits, self.caps))
        if res.ok and not self._version_supported(res.version, res.profile):
            res.ok = False
            res.info_log = (f"0:1(10): error: GLSL {res.version}{' ES' if res.profile == 'es' else ''}"
                            f" is not supported. Supported versions are: "
                            f"{', '.join(self.api.glsl)}\n")
        sh.compiled, sh.info_log = res.ok, res.info_log
        sh.ast = res.unit if res.ok else None
        sh.compiled_source = source if res.ok else None   # what the AST was built from

    def _version_supported(self, version: int, profile: str) -> bool:
        tag = f"{version} es" if profile == "es" and version != 100 else str(version)
        if tag in self.api.glsl:
            return True
        # GL 4.3 core includes ARB_ES3_compatibility: GLSL ES 3.00 shaders; GL 4.5
        # ARB_ES3_1_compatibility: GLSL ES 3.10 shaders
        if tag == "310 es":
            return not self.api.es and self.api.has_extension("GL_ARB_ES3_1_compatibility")
        if tag == "320 es":
            return not self.api.es and self.api.has_extension("GL_ARB_ES3_2_compatibility")
        return self.api.gl(4, 3) and tag in ("100", "300 es")

    def glDeleteShader(self, shader: int) -> None:
        if shader == 0:
            return
        sh = shader_object(self, shader)
        attached = any(sh in p.shaders for p in self._programs())
        if attached:
            sh.delete_pending = True
        else:
            self.shader_objects.delete(shader)

    def _programs(self):
        return [o for o in self.shader_objects if isinstance(o, Program)]

    def glIsShader(self, shader: int) -> bool:
        return isinstance(self.shader_objects.get(shader), Shader)

    def glGetShaderiv(self, shader: int, pname: int) -> list[int]:
        sh = shader_object(self, shader)
        values = {E.GL_SHADER_TYPE: sh.type, E.GL_DELETE_STATUS: int(sh.delete_pending),
                  E.GL_COMPILE_STATUS: int(sh.compiled),
                  E.GL_INFO_LOG_LENGTH: len(sh.info_log.encode()) + 1 if sh.info_log else 0,
                  E.GL_SHADER_SOURCE_LENGTH: len(sh.source.encode()) + 1 if sh.source else 0}
        if parallel_compile(self.api):
            values[GL_COMPLETION_STATUS_KHR] = 1      # compiled inside glCompileShader
        self.spirv_shader_iv(sh, values)
        check_enum(pname, values)
        return [values[pname]]

    def glGetShaderInfoLog(self, shader: int, bufSize: int | None = None) -> str:
        check_buf_size(bufSize)
        return shader_object(self, shader).info_log

    def glGetShaderSource(self, shader: int, bufSize: int | None = None) -> str:
        check_buf_size(bufSize)
        return shader_object(self, shader).source or ""

    def glReleaseShaderCompiler(self) -> None:
        pass

    def glGetShaderPrecisionFormat(self, shadertype: int, precisiontype: int):
        """Returns (range[2], precision): IEEE float32 / int32 for all precisions."""
        check_enum(shadertype, (E.GL_VERTEX_SHADER, E.GL_FRAGMENT_SHADER))
        floats = (E.GL_LOW_FLOAT, E.GL_MEDIUM_FLOAT, E.GL_HIGH_FLOAT)
        ints = (E.GL_LOW_INT, E.GL_MEDIUM_INT, E.GL_HIGH_INT)
        check_enum(precisiontype, floats + ints)
        return ([127, 127], 23) if precisiontype in floats else ([31, 30], 0)

    # -- programs -----------------------------------------------------------------
    def glCreateProgram(self) -> int:
        name = self.shader_objects.gen(1)[0]
        self.shader_objects.objects[name] = Program(name)
        return name

    def glAttachShader(self, program: int, shader: int) -> None:
        prog, sh = program_object(self, program), shader_object(self, shader)
        check(sh not in prog.shaders, E.GL_INVALID_OPERATION, "already attached")
        if self.api.es:
            # GLES 3.2 section 7.3: one shader object per stage
            check(all(s.type != sh.type for s in prog.shaders), E.GL_INVALID_OPERATION,
                  "a shader of that type is already attached")
        prog.shaders.append(sh)

    def glDetachShader(self, program: int, shader: int) -> None:
        prog, sh = program_object(self, program), shader_object(self, shader)
        check(sh in prog.shaders, E.GL_INVALID_OPERATION, "not attached")
        prog.shaders.remove(sh)
        if sh.delete_pending and not any(sh in p.shaders for p in self._programs()):
            self.shader_objects.delete(sh.name)

    def glGetAttachedShaders(self, program: int, maxcount: int) -> list[int]:
        check(maxcount >= 0, E.GL_INVALID_VALUE)
        return [s.name for s in program_object(self, program).shaders][:maxcount]

    def glDeleteProgram(self, program: int) -> None:
        if program == 0:
            return
        prog = program_object(self, program)
        if self.share_group.in_use(prog):       # current in this or a sharing context
            prog.delete_pending = True
            return
        self._destroy_program(prog)

    def _destroy_program(self, prog: Program) -> None:
        for sh in list(prog.shaders):
            prog.shaders.remove(sh)
            if sh.delete_pending and not any(sh in p.shaders for p in self._programs()):
                self.shader_objects.delete(sh.name)
        if prog.linked_state is not None:
            for handle in prog.linked_state.pipe_shaders.values():
                self.pipe.delete_shader_state(handle)
        self.shader_objects.delete(prog.name)

    def glIsProgram(self, program: int) -> bool:
        return isinstance(self.shader_objects.get(program), Program)

    def glUseProgram(self, program: int) -> None:
        prog = None
        if program:
            prog = program_object(self, program)
            check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        check(not (self.xfb.active and not self.xfb.paused), E.GL_INVALID_OPERATION,
              "transform feedback active")
        old = self.current_program
        self.current_program = prog
        self._reset_subroutines(prog)          # GL 4.6 section 7.9 (features/subroutines.py)
        if (old is not None and old is not prog and old.delete_pending
                and not self.share_group.in_use(old)):
            self._destroy_program(old)

    def glBindAttribLocation(self, program: int, index: int, name: str) -> None:
        prog = program_object(self, program)
        check(name is not None, E.GL_INVALID_VALUE, "NULL name")
        check(0 <= index < self.caps.max_vertex_attribs, E.GL_INVALID_VALUE)
        check(not name.startswith("gl_"), E.GL_INVALID_OPERATION, "reserved name")
        prog.attrib_bindings[name] = index

    def glBindFragDataLocation(self, program: int, color: int, name: str) -> None:
        # GLES: glBindFragDataLocationEXT of EXT_blend_func_extended
        check(not self.api.es or es_has(self.api, "blend_func_extended"), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check(name is not None, E.GL_INVALID_VALUE, "NULL name")
        check(0 <= color < self.caps.max_render_targets, E.GL_INVALID_VALUE)
        check(not name.startswith("gl_"), E.GL_INVALID_OPERATION, "reserved name")
        prog.frag_data_bindings[name] = color

    def glTransformFeedbackVaryings(self, program: int, count: int, varyings, buffermode: int):
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check(count >= 0, E.GL_INVALID_VALUE)
        check_enum(buffermode, (E.GL_INTERLEAVED_ATTRIBS, E.GL_SEPARATE_ATTRIBS))
        if buffermode == E.GL_SEPARATE_ATTRIBS:
            check(count <= self.caps.max_stream_output_buffers, E.GL_INVALID_VALUE)
        names = [str(v) for v in list(varyings)[:count]]
        if self.api.gl(4, 0):
            # ARB_transform_feedback3: the buffer separators and skips are interleaved-mode names
            special = {"gl_NextBuffer"} | {f"gl_SkipComponents{n}" for n in range(1, 5)}
            check(buffermode == E.GL_INTERLEAVED_ATTRIBS or not special & set(names), E.GL_INVALID_OPERATION,
                  "gl_NextBuffer / gl_SkipComponents need GL_INTERLEAVED_ATTRIBS")
            check(names.count("gl_NextBuffer") < self.caps.max_stream_output_buffers, E.GL_INVALID_OPERATION,
                  "as many gl_NextBuffer as MAX_TRANSFORM_FEEDBACK_BUFFERS")
        prog.tf_varyings = names
        prog.tf_buffer_mode = buffermode

    # -- linking ------------------------------------------------------------------------
    def glLinkProgram(self, program: int) -> None:
        prog = program_object(self, program)
        check(not (self.xfb.active and prog is self.current_program), E.GL_INVALID_OPERATION)
        prog.link_attempted = True
        # GL 4.6 section 7.5: the retrievable hint set by glProgramParameteri takes effect
        # at the next link (a query before it still reports the old value, as Mesa)
        prog.binary_retrievable = getattr(prog, "binary_retrievable_pending", prog.binary_retrievable)
        try:
            linked = self._link(prog)
        except LinkError as err:
            prog.linked, prog.info_log = False, f"error: {err}\n"
            # GL 4.6 section 7.3: a failed relink of the current program keeps
            # its executable in use; the program object loses its state
            if prog is not self.current_program and prog.linked_state is not None:
                prog.linked_state = None
            return
        self._install_link(prog, prog, linked)

    def _install_link(self, prog: Program, source: Program, linked: LinkedProgram) -> None:
        """Make ``linked`` (linked from ``source``'s shaders and settings) ``prog``'s executable."""
        from driver.gl.binary import ProgramImage
        linked.image = ProgramImage(
            tuple((s.type, getattr(s, "compiled_source", None) or s.source or "") for s in source.shaders),
            dict(source.attrib_bindings), dict(source.frag_data_bindings), tuple(source.tf_varyings),
            source.tf_buffer_mode, bool(source.separable), self.spirv_image(source.shaders))
        old = prog.linked_state
        prog.linked, prog.info_log, prog.linked_state = True, "", linked
        if old is not None:
            for handle in old.pipe_shaders.values():
                self.pipe.delete_shader_state(handle)
        self._create_pipe_shaders(source if source is not prog else prog, linked)

    def _create_pipe_shaders(self, prog: Program, linked: LinkedProgram | None = None) -> None:
        linked = linked if linked is not None else prog.linked_state
        for stage, shader in linked.stages.items():
            if stage in ("geometry", "tess_control", "tess_evaluation"):
                continue                # no pipe stage: kernels made per draw (geometry.py, tessellation.py)
            # the pipe is handed the compiler's linked stage as IR (compiler.variant.StageIR:
            # lowered once, each variant key's passes run on a copy), never GLSL or the AST
            ir = getattr(linked, "spirv_stages", {}).get(stage) or \
                shader.stage_ir(linked.default_block.lowering_options())   # SPIR-V: its own front half
            linked.pipe_shaders[PIPE_STAGES[stage]] = self.pipe.create_shader_state(ShaderState(
                PIPE_STAGES[stage], ir, shader.source, self.pipe_shader_info(linked, stage)))

    def pipe_shader_info(self, linked: LinkedProgram, stage: str) -> dict:
        """The binding model a hardware driver needs to compile one stage;
        see ShaderState in driver.gallium.state for the keys."""
        samplers, images, slot = {}, {}, 0
        for u in linked.uniforms:
            if u.kind == "sampler":
                samplers[u.name] = (slot, u.size)
                slot += u.size
            elif u.kind == "image":
                images[u.name] = (u.offset_B, u.size)
        ubos = [b for b in linked.blocks if not b.is_storage]
        ssbos = [b for b in linked.blocks if b.is_storage]
        return {"attributes": {k: linked.fetch_slots.get(v[0], v[0]) for k, v in linked.attributes.items()},
                "frag_outputs": dict(linked.frag_outputs),
                "frag_output_indices": dict(linked.frag_output_indices),
                "default_block": linked.default_block,
                "uniform_blocks": {b.name: 1 + i for i, b in enumerate(ubos)},
                "storage_blocks": {b.name: i for i, b in enumerate(ssbos)},
                "atomic_counter_buffers": {a.binding: len(ssbos) + i
                                           for i, a in enumerate(linked.atomic_buffers)},
                "samplers": samplers,
                "images": images,
                "local_size": linked.local_size,
                "state_constant_buffer": STATE_CONSTANT_BUFFER,
                "early_fragment_tests": stage == "fragment" and bool(getattr(
                    getattr(linked.stages.get(stage), "unit", None), "early_fragment_tests", False)),
                "post_depth_coverage": stage == "fragment" and bool(getattr(
                    getattr(linked.stages.get(stage), "unit", None), "post_depth_coverage", False)),
                # gl_FragCoord measured from the top: the variant key needs the framebuffer's height
                "frag_coord_origin_upper_left": stage == "fragment" and any(
                    v.name == "gl_FragCoord" and (v.layout or {}).get("origin_upper_left")
                    for v in getattr(getattr(linked.stages.get(stage), "unit", None), "builtin_variables", ()))}

    def _link(self, prog: Program) -> LinkedProgram:
        if not prog.shaders and not self.api.compat:
            # (the compatibility profile links it: both stages are then the fixed-function
            # ones, GL 4.6 compat section 7.3, as Mesa; name 0 is fixed function itself)
            raise LinkError("no shaders attached to the program")
        units: dict[str, list] = {}
        spirv = self.spirv_link_stages(prog)      # stage -> SpirvShader (features/gl_spirv.py)
        for sh in prog.shaders:
            if not sh.compiled:
                raise LinkError(f"{stage_label(sh.type)} shader {sh.name} is not compiled")
            units.setdefault(STAGES[sh.type], []).append(sh.ast)
        fixed_function = set()
        if self.api.compat and "compute" not in units and not prog.separable:
            # (a separable program's missing stages come from the pipeline's other programs)
            fixed_function = self._add_fixed_function_stages(units, bool(prog.tf_varyings))
        if "compute" in units and len(units) > 1:
            raise LinkError("compute shaders may not be linked with other stages")
        if self.api.es and "compute" not in units and not {"vertex", "fragment"} <= set(units) \
                and not prog.separable:
            raise LinkError("GLSL ES programs need both a vertex and a fragment shader")
        # GL 4.6 section 7.3: geometry and tessellation stages need a vertex stage unless the
        # program is separable; a fragment shader alone links (vertex processing is undefined)
        if "vertex" not in units and not prog.separable and \
                {"geometry", "tess_control", "tess_evaluation"} & set(units):
            raise LinkError("a program with geometry or tessellation shaders needs a vertex shader "
                            "unless it is separable")
        stages = {stage: self._link_stage(prog, stage, us) for stage, us in units.items()}
        if prog.separable and (problem := link.separable_per_vertex_error(units)) is not None:
            raise LinkError(problem)
        merged = {stage: self._merge_stage(stage, us, stages[stage]) for stage, us in units.items()}
        versions = {u.version.number for us in units.values() for u in us}
        if self.api.es and len(versions) > 1:
            raise LinkError("all shaders must use the same GLSL ES version")
        geometry = tessellation = None
        if "tess_control" in merged or "tess_evaluation" in merged:
            tessellation = self._link_tessellation(units, merged, prog.separable)
        if "geometry" in merged:
            geometry = self._link_geometry(units["geometry"], merged)
        elif "tess_evaluation" in merged and "fragment" in merged:
            self._match_interfaces(merged["tess_evaluation"], merged["fragment"], self.api.es)
        elif "vertex" in merged and "fragment" in merged:
            self._match_interfaces(merged["vertex"], merged["fragment"], self.api.es, "vertex" in fixed_function)
            if self.api.es:
                _check_es100_builtin_invariance(merged["vertex"]["unit"], merged["fragment"]["unit"],
                                                merged["vertex"]["outputs"], merged["fragment"]["inputs"])
        attributes = self._assign_attributes(prog, merged.get("vertex"))
        frag_outputs = self._assign_frag_outputs(prog, merged.get("fragment"))
        uniforms, locations, data, default_block = self._assign_uniforms(merged)
        builtins = _builtin_uniforms({s: m for s, m in merged.items() if s not in fixed_function})
        blocks = self._collect_blocks(merged)
        uses: dict = {}
        for blk in blocks:
            for stage in blk.stages:
                key = (stage, "buffer" if blk.is_storage else "uniform")
                uses[key] = uses.get(key, 0) + 1
        problem = link.block_limit_error(uses, self.limits)
        if problem is not None:
            raise LinkError(problem)
        self.spirv_block_sizes(blocks, spirv)       # SPIR-V: the modules' explicit layouts
        atomics = self._collect_atomic_counters(merged)
        tf, tf_layout = [], None
        if prog.tf_varyings:
            # the last vertex-processing stage's outputs are captured (GL 4.6 section 13.3)
            tf_layout = self._feedback_layout(prog, merged.get("geometry") or merged.get("tess_evaluation")
                                              or merged.get("vertex"))
            tf = list(prog.tf_varyings)
        else:
            # ARB_enhanced_layouts: the stage's xfb_offset qualifiers name what it captures
            tf_layout = self._qualifier_feedback_layout(merged.get("geometry") or merged.get("tess_evaluation")
                                                        or merged.get("vertex"))
            tf = [v.name for v in tf_layout.varyings] if tf_layout is not None else []
        if {"vertex", "fragment"} <= set(merged) and not tf and \
                not {"geometry", "tess_control", "tess_evaluation"} & set(merged):
            # the vertex outputs the fragment stage does not read take no output slots
            unread = link.unread_outputs(merged["vertex"]["outputs"], merged["fragment"]["inputs"])
            if unread:
                stages["vertex"] = link.without_outputs(stages["vertex"], unread)
        else:
            unread = []
        for stage, m in merged.items():
            outputs = [v for v in m["outputs"] if not (stage == "vertex" and v.name in unread)]
            problem = link.resource_limit_error(stage, m["inputs"], outputs, m["uniforms"], self.limits,
                                                getattr(getattr(m["unit"], "tessellation", None), "vertices", None))
            if problem is not None:
                raise LinkError(problem)
        local_size = None
        if "compute" in merged:
            local_size = merged["compute"]["unit"].local_size
            if local_size is None:
                raise LinkError("compute shader has no local_size layout")
        linked = LinkedProgram({s: m["unit"] for s, m in merged.items()}, attributes, frag_outputs,
                               uniforms, locations, UniformStorage(data), blocks, local_size, tf_varyings=tf,
                               tf_layout=tf_layout,
                               atomic_buffers=atomics, builtin_uniforms=builtins)
        if geometry is not None:
            linked.geometry, linked.geometry_interface = geometry
        linked.tessellation = tessellation
        linked.stages = stages
        linked.default_block = default_block
        linked.fixed_function = frozenset(fixed_function)
        linked.fetch_slots = link.attribute_fetch_slots(attributes)
        linked.spirv_stages = spirv
        linked.frag_output_indices = {name: 1 for name, i in self._frag_output_indices(
            prog, merged.get("fragment")).items() if i == 1}
        return linked

    def _link_tessellation(self, units: dict, merged: dict, separable: bool):
        """GL 4.6 sections 7.3, 11.2: the tessellation stages' layouts and interfaces
        (driver/gl/tessellation.py)."""
        from compiler.lower import LoweringError
        from driver.gl.tessellation import link_tessellation
        if "tess_evaluation" not in merged and not separable:
            raise LinkError("a program with a tessellation control shader needs a tessellation evaluation "
                            "shader")
        try:
            return link_tessellation(units, merged, self.limits)
        except (ValueError, LoweringError) as e:
            raise LinkError(str(e)) from None

    def _link_geometry(self, units: list, merged: dict) -> tuple:
        """GL 4.6 section 7.3 / 11.3: the geometry stage's layout, its interfaces with the
        vertex and fragment stages, and its output record layout."""
        from compiler.lower import LoweringError
        from compiler.lower.geometry import geometry_interface
        from driver.gl.geometry import check_output_limits, link_geometry
        try:
            layout = link_geometry(units, merged.get("tess_evaluation") or merged.get("vertex"), merged["geometry"],
                                   merged.get("fragment"))
            iface = geometry_interface(merged["geometry"]["unit"], layout)
            check_output_limits(iface)
        except (ValueError, LoweringError) as e:
            raise LinkError(str(e)) from None
        if "fragment" in merged:
            self._match_interfaces(merged["geometry"], merged["fragment"], self.api.es)
        return layout, iface

    def _add_fixed_function_stages(self, units: dict, captures: bool = False) -> set:
        """Compatibility profile: a missing vertex or fragment stage is the
        fixed-function one (GL 4.6 compat section 7.3). Returns the stages added.
        The vertex stage writes the texture coordinates the fragment stage can read
        (all eight when ``captures``: transform feedback may name any of them)."""
        from driver.gl.compat import fixed_function_source
        # the fragment stage's inputs_read (compiler.link): Mesa's fixed-function vertex
        # program likewise writes only the outputs the fragment stage reads
        read = link.inputs_read(units.get("fragment", [])).get("gl_TexCoord", 0)
        texcoords = 8 if captures or read is None else min(read, 8)
        added = set()
        for stage in ("vertex", "fragment"):
            if stage not in units:
                src = fixed_function_source(stage, texcoords)
                res = self._ff_cache.get(src)
                if res is None:
                    res = self._ff_cache[src] = compile_glsl(src, stage)
                    assert res.ok, f"fixed-function {stage} shader: {res.info_log}"
                    self._ff_sources[id(res.unit)] = src
                units[stage] = [res.unit]
                added.add(stage)
        return added

    def _feedback_layout(self, prog, vertex: dict | None):
        """The transform feedback layout (driver.gl.feedback) of the varyings named with
        glTransformFeedbackVaryings; LinkError for names the rules reject."""
        from compiler.glsl import types as GT
        from driver.gl.feedback import FeedbackError, feedback_layout, stage_outputs
        outputs, streams = stage_outputs(vertex["outputs"] if vertex else [])
        if vertex:
            outputs.update({"gl_Position": GT.vector("float", 4), "gl_PointSize": GT.FLOAT})
            clip = [v for u in vertex["units"] for v in u.builtin_variables
                    if v.name == "gl_ClipDistance" and v.type.is_array]
            if clip:
                outputs["gl_ClipDistance"] = min((v.type for v in clip), key=lambda t: t.length or 99)
            if vertex["unit"].stage == "vertex":
                # the compatibility varyings a vertex stage writes (gl_FrontColor, gl_TexCoord[],
                # ...) are captured as its other outputs (GL 4.6 compatibility section 13.3)
                from driver.gl.geometry import _COMPAT_OUTPUTS
                outputs.update({v.name: v.type for u in vertex["units"] for v in u.builtin_variables
                                if v.name in _COMPAT_OUTPUTS})
        caps = self.caps
        try:
            return feedback_layout(prog.tf_varyings, prog.tf_buffer_mode == E.GL_INTERLEAVED_ATTRIBS,
                                   outputs, advanced=self.api.gl(4, 0),
                                   max_buffers=caps.max_stream_output_buffers,
                                   max_separate=caps.max_stream_output_separate_components,
                                   max_interleaved=caps.max_stream_output_interleaved_components,
                                   streams=streams)
        except FeedbackError as e:
            raise LinkError(str(e)) from None

    def _qualifier_feedback_layout(self, last: dict | None):
        """The transform feedback layout the last vertex-processing stage declares with
        xfb qualifiers (``driver.gl.feedback.qualifier_layout``), None without any."""
        from driver.gl.feedback import FeedbackError, qualifier_layout
        if last is None:
            return None
        captures, strides = link.xfb_captures(last["unit"])
        if not captures:
            return None
        try:
            return qualifier_layout(captures, strides, max_buffers=self.caps.max_stream_output_buffers,
                                    max_interleaved=self.caps.max_stream_output_interleaved_components)
        except FeedbackError as e:
            raise LinkError(str(e)) from None

    def _link_stage(self, prog: Program, stage: str, units: list):
        """The shader objects of one stage (GL allows several) linked by the compiler
        (``compiler.link.link_stage``: one main, every called function's body found in
        one of them, globals of one name one variable): a ``LinkedShader``."""
        sources = {id(sh.ast): getattr(sh, "compiled_source", None) or sh.source or "" for sh in prog.shaders}
        objects = [(u, sources.get(id(u)) or self._ff_sources.get(id(u), "")) for u in units]
        # (the fixed-function stages are parsed with every extension: their digest says so)
        parsed_with = None if all(id(u) in self._ff_sources for u in units) else self.api.glsl_extensions
        return link.link_stage(stage, objects, link.extension_set_digest(parsed_with))

    @staticmethod
    def _merge_stage(stage: str, units: list, linked) -> dict:
        """The interface of one linked stage (``linked``: its ``LinkedShader``; ``units``:
        its shader objects' own units)."""
        unit = linked.unit
        vs = list(unit.globals)
        return {"unit": unit, "units": units, "globals": vs,
                "inputs": [g for g in vs if g.storage == "in" and not _is_builtin(g)],
                "outputs": [g for g in vs if g.storage == "out" and not _is_builtin(g)],
                "uniforms": [g for g in vs if g.storage == "uniform" and g.block is None
                             and g.type.base != "block"],
                "blocks": list(unit.interface_blocks)}

    @staticmethod
    def _match_interfaces(vs: dict, fs: dict, es: bool, fixed_function: bool = False) -> None:
        """The previous stage's outputs feed the fragment stage's inputs
        (``compiler.link.match_interfaces``; LinkError otherwise; ``fixed_function``:
        the previous stage is the fixed-function vertex stage)."""
        link.match_interfaces(vs["outputs"], fs["inputs"], es, fixed_function)
        version = getattr(fs.get("unit"), "version", None)      # (a pipeline's stages: none given)
        if not es and version is not None and version.number < 440:
            # ARB_gpu_shader5 / GLSL 4.00-4.30 section 4.5: the `sample' qualifier matches
            # between the stages (GLSL 4.40 lifts it)
            outs = {v.name: v for v in vs["outputs"]}
            for inp in fs["inputs"]:
                out = outs.get(inp.name)
                if out is not None and bool(out.sample) != bool(inp.sample):
                    raise LinkError(f"`{inp.name}' is {'' if inp.sample else 'not '}qualified `sample' in the "
                                    f"fragment shader but {'' if out.sample else 'not '}in the previous stage")

    def _assign_attributes(self, prog: Program, vs: dict | None) -> dict:
        """Vertex input locations (``compiler.link.assign_attributes``, GL 4.6 section
        11.1.1) with the program's glBindAttribLocation bindings and this context's limit."""
        if vs is None:
            return {}
        legacy = None
        if self.api.compat:
            from driver.gl.compat import LEGACY_ATTRIBS
            legacy = LEGACY_ATTRIBS
        return link.assign_attributes(vs["inputs"], vs["unit"], bindings=prog.attrib_bindings,
                                      max_attribs=self.caps.max_vertex_attribs, es=self.api.es,
                                      legacy_attribs=legacy)

    def _assign_frag_outputs(self, prog: Program, fs: dict | None) -> dict:
        """Fragment output locations (``compiler.link.assign_frag_outputs``) with the
        program's glBindFragDataLocation[Indexed] bindings and this context's limits."""
        if fs is None:
            return {}
        return link.assign_frag_outputs(fs["outputs"], bindings=prog.frag_data_bindings,
                                        index_bindings=getattr(prog, "frag_data_index", {}),
                                        max_render_targets=self.caps.max_render_targets,
                                        max_dual_source=self.caps.max_dual_source_render_targets)

    @staticmethod
    def _frag_output_indices(prog: Program, fs: dict | None) -> dict:
        """Fragment output name -> dual-source index (``compiler.link.frag_output_indices``)."""
        if fs is None:
            return {}
        return link.frag_output_indices(fs["outputs"], getattr(prog, "frag_data_index", {}))

    def _assign_uniforms(self, merged: dict):
        """Leaves of every used default-block uniform across stages, with
        explicit locations first (GL 4.6 section 7.6), their storage (the program's
        default block as the shaders read it, ``compiler.link.default_block_layout``;
        the units of samplers and images after it) and that layout."""
        seen: dict[str, object] = {}
        used_by: dict[str, set] = {}              # uniform -> the stages that use it
        for stage_name, stage in merged.items():
            es100 = stage["unit"].version.number < 300
            for v in stage["uniforms"]:
                if v.used:
                    used_by.setdefault(v.name, set()).add(stage_name)
                prev = seen.get(v.name)
                if prev is not None and not link.same_type(prev.type, v.type):
                    raise LinkError(f"uniform `{v.name}' has different types in different stages")
                # GLSL ES: one uniform, one precision (written or the default in scope) in every
                # stage; GLSL ES 1.00 only where both stages use it (Mesa: a warning otherwise)
                if (prev is not None and self.api.es and prev.precision != v.precision
                        and (not es100 or (prev.used and v.used))):
                    raise LinkError(f"declarations for uniform `{v.name}' have mismatching precision "
                                    f"qualifiers ({prev.precision} and {v.precision})")
                if prev is None or (v.used and not prev.used):
                    seen[v.name] = v
        # a subroutine uniform's layout(location) is in its stage's subroutine location
        # space (GL 4.6 section 7.9; features/subroutines.py), not the uniforms': its
        # default-block slot takes an implicit uniform location
        subroutine = {u[0] for stage in merged.values()
                      for u in getattr(getattr(stage["unit"], "subroutines", None), "uniforms", ())}

        def location(v):
            return None if v.name in subroutine else v.layout.get("location")
        leaves: list[UniformLeaf] = []
        for v in seen.values():
            if _base_type(v.type).base == "atomic_uint":
                continue                      # atomic counters live in buffers
            if v.used or location(v) is not None:
                leaves += leaf_uniforms(v.name, v.type, v)
        taken: set[int] = set()
        infos: list[UniformInfo] = []
        block = link.default_block_layout([(v.name, v.type) for v in seen.values()
                                           if (v.used or location(v) is not None)
                                           and not _base_type(v.type).is_opaque])
        offset = -(-block.size_B // 16) * 16          # opaque units: after the block
        explicit = [lf for lf in leaves if location(lf.variable) is not None]
        implicit = [lf for lf in leaves if location(lf.variable) is None]
        var_next: dict[int, int] = {}
        used_elements = _sampler_elements_used(merged)
        extents = _uniform_array_extents(merged)
        for leaf in explicit + implicit:
            n = _active_size(leaf, extents, location(leaf.variable) is not None)
            if location(leaf.variable) is not None:
                base = var_next.get(id(leaf.variable), location(leaf.variable))
                if any(x in taken for x in range(base, base + n)):
                    raise LinkError(f"uniform `{leaf.name}' location {base} overlaps another")
            else:
                base = 0
                while any(x in taken for x in range(base, base + n)):
                    base += 1
            var_next[id(leaf.variable)] = base + n
            taken.update(range(base, base + n))
            t = leaf.type
            kind = {"sampler": "sampler", "image": "image", "atomic_uint": "atomic"}.get(t.base, t.base)
            placed = block.leaf(leaf.name) if kind not in ("sampler", "image") else None
            if placed is not None:
                at, stride, matrix_stride, _n = placed
                stride = stride or column_slot_B(t) * type_slots(t)
            else:
                at, stride, matrix_stride = offset, column_slot_B(t) * type_slots(t), column_slot_B(t)
                offset += stride * n
            infos.append(UniformInfo(leaf.name, gl_type_enum(t), t, n, leaf.is_array, base,
                                     at, stride, kind,
                                     _active_sampler_elements(leaf, leaves, used_elements)
                                     if kind == "sampler" else None, matrix_stride or column_slot_B(t),
                                     frozenset(used_by.get(leaf.variable.name, ()))))
        infos.sort(key=lambda u: u.location)
        locations = {}
        for u in infos:
            for i in range(u.size):
                locations[u.location + i] = (u, i)
        data = bytearray(offset)
        self._apply_initializers(merged, locations, infos, data)
        for u in infos:              # layout(binding=N) initialises sampler units
            binding = u.type and getattr(next((lf.variable for lf in leaves if lf.name == u.name),
                                              None), "layout", {}).get("binding")
            if u.kind in ("sampler", "image") and binding is not None:
                for i in range(u.size):
                    data[u.offset_B + i * u.stride_B:u.offset_B + i * u.stride_B + 4] = \
                        int(binding + i).to_bytes(4, "little", signed=True)
        return infos, locations, data, block

    def _apply_initializers(self, merged, locations, infos, data) -> None:
        """GLSL 1.20 section 4.3.5: a uniform's initializer is its value after
        a successful link."""
        from compiler.glsl import ast as A
        inits = {}
        for stage in merged.values():
            for unit in stage["units"]:
                for d in unit.declarations:
                    if isinstance(d, A.VariableDeclaration) and d.qualifier.storage == "uniform":
                        for dc in d.declarators:
                            if dc.initializer is not None and dc.initializer.const is not None:
                                inits[dc.name] = (dc.variable.type if dc.variable else None,
                                                  dc.initializer.const)
        by_name = {}
        for u in infos:
            by_name[u.name[:-3] if u.is_array else u.name] = u

        def write(name, t, value):
            if t.base == "array":
                el = t.element
                if el.base in ("struct", "array"):
                    for i, v in enumerate(value):
                        write(f"{name}[{i}]", el, v)
                    return
                u = by_name.get(name)
                if u is not None:
                    for i, v in enumerate(value[:u.size]):
                        store(u, i, v)
                return
            if t.base == "struct":
                for f, v in zip(t.fields, value):
                    write(f"{name}.{f.name}", f.type, v)
                return
            u = by_name.get(name)
            if u is not None:
                store(u, 0, value)

        def store(u, index, comps):
            comps = list(comps)
            rows = u.components
            letter = {"float": "f", "int": "i", "uint": "I", "bool": "i", "double": "d", "int64": "q",
                      "uint64": "Q"}.get(u.kind)
            if letter is None:
                return
            base = u.offset_B + index * u.stride_B
            for c in range(u.columns):
                col = comps[c * rows:(c + 1) * rows]
                col = [int(bool(v)) if u.kind == "bool" else v for v in col]
                pack_into(data, base + u.matrix_stride_B * c, letter, col)

        for name, (t, value) in inits.items():
            if t is not None:
                write(name, t, value)

    def _collect_atomic_counters(self, merged: dict) -> list:
        """GLSL 4.30 section 4.4.6.2: counters at layout(binding, offset);
        offsets default to the next free 4-byte slot of their binding in the same shader.
        A counter declared by several stages must have the same binding and offset in each
        (GLSL 4.30 section 4.4.6.2, as Mesa's linker checks)."""
        from compiler.lower.io import atomic_counter_offsets
        buffers: dict[int, AtomicBufferInfo] = {}
        seen: dict[str, tuple] = {}
        counters: dict[str, int] = {}           # stage -> active counters it declares (array elements)
        bindings: dict[str, set] = {}           # stage -> the buffer bindings they are in
        for stage, m in merged.items():
            placed = atomic_counter_offsets(m["uniforms"])       # implicit offsets count within one stage
            for v in m["uniforms"]:
                if v.name not in placed:
                    continue
                binding, offset = placed[v.name]
                dims, t = [], v.type
                while t.base == "array":
                    dims.append(t.length or 1)
                    t = t.element
                count = math.prod(dims)
                if getattr(v, "used", True):         # the limits count active counters (as Mesa)
                    counters[stage] = counters.get(stage, 0) + count
                    bindings.setdefault(stage, set()).add(binding)
                if v.name in seen:
                    if seen[v.name][:3] != (binding, offset, v.type):
                        raise LinkError(f"atomic counter `{v.name}' declared with a different binding, "
                                        "offset or type in another stage")
                    buffers[binding].stages.add(stage)
                    continue
                if binding >= self.limits.get("GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", 0):
                    raise LinkError(f"atomic counter `{v.name}' binding {binding} out of range")
                buf = buffers.setdefault(binding, AtomicBufferInfo(binding))
                for other in buf.counters:
                    if other[1] < offset + 4 * count and offset < other[1] + 4 * other[2]:
                        raise LinkError(f"atomic counters `{other[0]}' and `{v.name}' overlap")
                # an active uniform per innermost array (GL 4.6 section 7.3.1.1: a[i][0] of an
                # array of arrays), its counters consecutive from ``offset``
                inner = dims[-1] if dims else 1
                for k, outer in enumerate(itertools.product(*(range(d) for d in dims[:-1]))):
                    name = v.name + "".join(f"[{i}]" for i in outer) + ("[0]" if dims else "")
                    buf.counters.append((name, offset + 4 * inner * k, inner))
                buf.stages.add(stage)
                buf.data_size_B = max(buf.data_size_B, offset + 4 * count)
                seen[v.name] = (binding, offset, v.type, 4 * count)
        self._check_atomic_counter_limits(counters, {stage: len(b) for stage, b in bindings.items()})
        return [buffers[b] for b in sorted(buffers)]

    def _check_atomic_counter_limits(self, counters: dict, buffers: dict) -> None:
        """GL 4.6 section 7.6.2 (table 23.57 limits) link errors, as Mesa's linker
        checks them: a stage declaring more atomic counters (array elements each) than
        MAX_<STAGE>_ATOMIC_COUNTERS or counters in more buffers than
        MAX_<STAGE>_ATOMIC_COUNTER_BUFFERS, or the stages together more than the
        MAX_COMBINED_ limits (a buffer two stages use counts twice)."""
        for what, per_stage in (("ATOMIC_COUNTERS", counters), ("ATOMIC_COUNTER_BUFFERS", buffers)):
            label = what.lower().replace("_", " ")
            for stage, n in sorted(per_stage.items()):
                name = f"GL_MAX_{stage.upper()}_{what}"
                if n > self.limits.get(name, n):
                    raise LinkError(f"too many {stage.replace('tess_', 'tessellation ')} shader {label} "
                                    f"({n} > {name} {self.limits[name]})")
            name, total = f"GL_MAX_COMBINED_{what}", sum(per_stage.values())
            if total > self.limits.get(name, total):
                raise LinkError(f"too many combined {label} ({total} > {name} {self.limits[name]})")

    def _collect_blocks(self, merged: dict) -> list:
        blocks: dict[str, UniformBlockInfo] = {}
        for stage, m in merged.items():
            for b in m["blocks"]:
                kind = b.qualifier.storage
                if kind not in ("uniform", "buffer"):
                    continue
                if b.variable is not None:
                    layout = b.variable.layout
                else:
                    layout = b.member_variables[0].layout if b.member_variables else {}
                # an array of blocks is one block per element, Block[i] (Block[i][j]: row-major),
                # bound at consecutive binding points (GL 4.6 sections 7.3.1.1, 7.6.2)
                var_t = b.variable.type if b.variable is not None else None
                suffixes = _block_element_suffixes(var_t) if var_t is not None and var_t.is_array else [""]
                for element, suffix in enumerate(suffixes):
                    name = b.block_name + suffix
                    prev = blocks.get(name)
                    if prev is None:
                        binding = layout.get("binding")
                        # std430 unless std140 is asked for (shared/packed: our choice)
                        std430 = block_packing(layout) == "std430"
                        prev = blocks[name] = UniformBlockInfo(
                            name, (binding if isinstance(binding, int) else 0) + element,
                            std140_size(b.type, std430), is_storage=kind == "buffer",
                            members=[f.name for f in b.type.fields])
                        # GL 4.6 section 7.3.1.1: members are named Block.member
                        # when the block has an instance name
                        prefix = f"{b.block_name}." if b.instance_name else ""
                        # an array's members are active uniforms once, in its first element
                        prev.active = std140_members(b.type, prefix, std430, kind == "buffer") \
                            if element == 0 else []
                    elif prev.members != [f.name for f in b.type.fields] or (
                            element == 0 and prev.active != std140_members(
                                b.type, f"{b.block_name}." if b.instance_name else "",
                                block_packing(layout) == "std430", kind == "buffer")):
                        # (the members' offsets too: ARB_enhanced_layouts' offset/align)
                        raise LinkError(f"interface block `{b.block_name}' differs between stages")
                    prev.stages.add(stage)
        return list(blocks.values())

    # -- program queries ----------------------------------------------------------------
    def _linked(self, prog: Program) -> LinkedProgram:
        check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        return prog.linked_state

    def glGetProgramiv(self, program: int, pname: int) -> list[int]:
        prog = program_object(self, program)
        ls = prog.linked_state
        ub = [b for b in ls.blocks if not b.is_storage] if ls else []
        values = {
            E.GL_DELETE_STATUS: int(prog.delete_pending), E.GL_LINK_STATUS: int(prog.linked),
            E.GL_VALIDATE_STATUS: int(prog.validated),
            E.GL_INFO_LOG_LENGTH: len(prog.info_log.encode()) + 1 if prog.info_log else 0,
            E.GL_ATTACHED_SHADERS: len(prog.shaders),
            E.GL_ACTIVE_ATTRIBUTES: len(_active_attributes(ls)),
            E.GL_ACTIVE_ATTRIBUTE_MAX_LENGTH: max((len(n) + 1 for n, _ in _active_attributes(ls)), default=0),
            E.GL_ACTIVE_UNIFORMS: len(self._active_uniforms(ls)),
            E.GL_ACTIVE_UNIFORM_MAX_LENGTH: max(
                (len(u[0].name if isinstance(u, tuple) else u.name) + 1
                 for u in self._active_uniforms(ls)), default=0),
        }
        if self.api.gl_or_es((3, 0), (3, 0)):
            values |= {
                E.GL_ACTIVE_UNIFORM_BLOCKS: len(ub),
                E.GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH: max((len(b.name) + 1 for b in ub), default=0),
                E.GL_TRANSFORM_FEEDBACK_BUFFER_MODE: prog.tf_buffer_mode,
                E.GL_TRANSFORM_FEEDBACK_VARYINGS: len(ls.tf_varyings) if ls else 0,
                E.GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH:
                    max((len(n) + 1 for n in ls.tf_varyings), default=0) if ls else 0,
                E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT: int(prog.binary_retrievable),
            }
        if binary_available(self.api):
            values[E.GL_PROGRAM_BINARY_LENGTH] = None
        if self.api.gl_or_es((4, 2), (3, 1)):     # GL 4.6 table 23.26 (ARB_shader_atomic_counters)
            values[E.GL_ACTIVE_ATOMIC_COUNTER_BUFFERS] = len(ls.atomic_buffers) if ls else 0
        if self.api.gl_or_es((4, 3), (3, 1)):
            values[E.GL_COMPUTE_WORK_GROUP_SIZE] = None
            values[E.GL_PROGRAM_SEPARABLE] = int(prog.separable)
        if parallel_compile(self.api):
            values[GL_COMPLETION_STATUS_KHR] = 1      # linked inside glLinkProgram
        from driver.gl.geometry import geometry_program_queries
        geometry_queries = geometry_program_queries(self, prog)
        values.update(geometry_queries)
        from driver.gl.tessellation import tessellation_program_queries
        tess_queries = tessellation_program_queries(self, prog)
        values.update(tess_queries)
        if names_hidden(prog):          # SPIR-V: no name reflection (features/gl_spirv.py)
            for q in (E.GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, E.GL_ACTIVE_UNIFORM_MAX_LENGTH,
                      E.GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH, E.GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH):
                if values.get(q):
                    values[q] = 1
        check_enum(pname, values)
        if pname in geometry_queries:
            check(geometry_queries[pname] is not None, E.GL_INVALID_OPERATION, "no linked geometry shader")
        if pname in tess_queries:
            check(tess_queries[pname] is not None, E.GL_INVALID_OPERATION, "no linked tessellation shader")
            return [tess_queries[pname]]
        if pname == E.GL_PROGRAM_BINARY_LENGTH:
            return [len(self._program_binary(prog)) if prog.linked and ls is not None else 0]
        if pname == E.GL_COMPUTE_WORK_GROUP_SIZE:
            check(ls is not None and ls.local_size is not None, E.GL_INVALID_OPERATION,
                  "no linked compute shader")
            return list(ls.local_size)
        return [values[pname]]

    def glGetProgramInfoLog(self, program: int, bufSize: int | None = None) -> str:
        check_buf_size(bufSize)
        return program_object(self, program).info_log

    def glValidateProgram(self, program: int) -> None:
        """GL 4.6 section 11.1.3.11: would a draw with this program succeed?"""
        prog = program_object(self, program)
        prog.validated = prog.linked and self._sampler_units_consistent(prog.linked_state)
        if not prog.linked:
            prog.info_log = prog.info_log or "error: program not linked\n"
        elif not prog.validated:
            prog.info_log = "error: samplers of different types use the same texture unit\n"

    def glGetAttribLocation(self, program: int, name: str) -> int:
        prog = program_object(self, program)
        ls = self._linked(prog)
        if names_hidden(prog) or name.startswith("gl_"):
            # GL 4.6 section 11.1.1: a name with the reserved prefix gl_ (a built-in input such as
            # gl_Vertex, active though it is) has no location
            return -1
        entry = ls.attributes.get(name) or _attribute_element(ls.attributes, name)
        return entry[0] if entry else -1

    def glGetFragDataLocation(self, program: int, name: str) -> int:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        ls = self._linked(prog)
        return -1 if names_hidden(prog) else ls.frag_outputs.get(name, -1)

    def glGetActiveAttrib(self, program: int, index: int, bufSize: int | None = None):
        """Returns (name, size, type)."""
        check_buf_size(bufSize)
        prog = program_object(self, program)
        ls = prog.linked_state
        attrs = _active_attributes(ls)
        check(0 <= index < len(attrs), E.GL_INVALID_VALUE, "index out of range")
        name, (loc, t, n) = attrs[index]
        if t is None:       # a built-in input (gl_VertexID, compatibility's gl_Color): its declared type
            v = next((v for v in getattr(ls.units.get("vertex"), "builtin_variables", ()) if v.name == name), None)
            return (name, 1, gl_type_enum(v.type) if v is not None else E.GL_FLOAT_VEC4)
        el = t.element if t.base == "array" else t
        return (reported_name(prog, name), t.length if t.base == "array" else 1, gl_type_enum(el))

    @staticmethod
    def _active_uniforms(ls) -> list:
        """Every active uniform: the default block's in location order, then
        uniform block members as (BlockMember, block index), atomic counters as
        (_AtomicCounter, -1, buffer index), then the built-in uniforms (BuiltinUniform)."""
        if ls is None:
            return []
        from driver.gl.features.subroutines import is_subroutine_uniform
        out = [u for u in ls.uniforms if not is_subroutine_uniform(ls, u.name)]
        ubs = [b for b in ls.blocks if not b.is_storage]
        for i, b in enumerate(ubs):
            out += [(m, i) for m in b.active]
        for i, a in enumerate(ls.atomic_buffers):
            out += [(_AtomicCounter(name, offset, count), -1, i) for name, offset, count in a.counters]
        return out + ls.builtin_uniforms

    def glGetActiveAtomicCounterBufferiv(self, program: int, bufferIndex: int, pname: int) -> list:
        """GL 4.6 section 7.3.1.1 (atomic counter buffers)."""
        check(self.api.gl_or_es((4, 2), (3, 1)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check(prog.linked, E.GL_INVALID_OPERATION)
        bufs = prog.linked_state.atomic_buffers
        check(0 <= bufferIndex < len(bufs), E.GL_INVALID_VALUE, "buffer index out of range")
        a = bufs[bufferIndex]
        first = len(prog.linked_state.uniforms) + sum(
            len(b.active) for b in prog.linked_state.blocks if not b.is_storage)
        first += sum(len(b.counters) for b in bufs[:bufferIndex])
        values = {E.GL_ATOMIC_COUNTER_BUFFER_BINDING: a.binding,
                  E.GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE: a.data_size_B,
                  E.GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS: len(a.counters),
                  E.GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES:
                      tuple(range(first, first + len(a.counters))),
                  E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER: int("vertex" in a.stages),
                  E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER: int("fragment" in a.stages),
                  E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER: int("compute" in a.stages)}
        if self.api.gl_or_es((4, 2), (3, 2)):        # the stages GLES 3.1 lacks
            values |= {
                E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_CONTROL_SHADER: int("tess_control" in a.stages),
                E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_EVALUATION_SHADER:
                    int("tess_evaluation" in a.stages),
                E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_GEOMETRY_SHADER: int("geometry" in a.stages)}
        check_enum(pname, values)
        v = values[pname]
        return list(v) if isinstance(v, tuple) else [v]

    def glGetActiveUniform(self, program: int, index: int, bufSize: int | None = None):
        """Returns (name, size, type); array names end in "[0]"."""
        check_buf_size(bufSize)
        prog = program_object(self, program)
        us = self._active_uniforms(prog.linked_state)
        check(0 <= index < len(us), E.GL_INVALID_VALUE, "index out of range")
        u = us[index]
        if isinstance(u, tuple):
            m = u[0]
            if isinstance(m, _AtomicCounter):
                return (reported_name(prog, m.name), m.size, E.GL_UNSIGNED_INT_ATOMIC_COUNTER)
            return (reported_name(prog, m.name), m.size, gl_type_enum(m.type))
        return (reported_name(prog, u.name), u.size, u.gl_type)

    def glGetActiveUniformName(self, program: int, index: int, bufSize: int | None = None) -> str:
        check(not self.api.es, E.GL_INVALID_OPERATION)
        check_buf_size(bufSize)
        r = self.glGetActiveUniform(program, index)
        check(r is not None, E.GL_INVALID_VALUE)
        return r[0]

    def glGetUniformIndices(self, program: int, count: int, names) -> list[int]:
        check(self.api.gl_or_es((3, 1), (3, 0)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check(count >= 0, E.GL_INVALID_VALUE)
        us = self._active_uniforms(prog.linked_state) if prog.linked and not names_hidden(prog) else []
        index = {}
        for i, u in enumerate(us):
            n = u[0].name if isinstance(u, tuple) else u.name
            index[n] = i
            if n.endswith("[0]"):
                index[n[:-3]] = i
        return [index.get(str(n), E.GL_INVALID_INDEX) for n in list(names)[:count]]

    def glGetActiveUniformsiv(self, program: int, count: int, indices, pname: int) -> list[int]:
        """GL 4.6 section 7.3.1.1, table 7.6."""
        check(self.api.gl_or_es((3, 1), (3, 0)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        check(count >= 0, E.GL_INVALID_VALUE)
        us = self._active_uniforms(prog.linked_state)
        idx = list(indices)[:count]
        check(all(0 <= i < len(us) for i in idx), E.GL_INVALID_VALUE, "index out of range")
        names = {E.GL_UNIFORM_TYPE, E.GL_UNIFORM_SIZE, E.GL_UNIFORM_NAME_LENGTH,
                 E.GL_UNIFORM_BLOCK_INDEX, E.GL_UNIFORM_OFFSET, E.GL_UNIFORM_ARRAY_STRIDE,
                 E.GL_UNIFORM_MATRIX_STRIDE, E.GL_UNIFORM_IS_ROW_MAJOR}
        if self.api.gl_or_es((4, 2), (3, 1)):        # ARB_shader_atomic_counters
            names.add(E.GL_UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX)
        check_enum(pname, names)
        out = []
        for i in idx:
            u = us[i]
            if isinstance(u, tuple) and isinstance(u[0], _AtomicCounter):
                m = u[0]
                v = {E.GL_UNIFORM_TYPE: E.GL_UNSIGNED_INT_ATOMIC_COUNTER, E.GL_UNIFORM_SIZE: m.size,
                     E.GL_UNIFORM_NAME_LENGTH: len(m.name) + 1, E.GL_UNIFORM_BLOCK_INDEX: -1,
                     E.GL_UNIFORM_OFFSET: m.offset_B, E.GL_UNIFORM_ARRAY_STRIDE: 4 if m.size > 1 else 0,
                     E.GL_UNIFORM_MATRIX_STRIDE: 0, E.GL_UNIFORM_IS_ROW_MAJOR: 0,
                     E.GL_UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX: u[2]}
            elif isinstance(u, tuple):
                m, block = u
                v = {E.GL_UNIFORM_TYPE: gl_type_enum(m.type), E.GL_UNIFORM_SIZE: m.size,
                     E.GL_UNIFORM_NAME_LENGTH: len(m.name) + 1, E.GL_UNIFORM_BLOCK_INDEX: block,
                     E.GL_UNIFORM_OFFSET: m.offset_B, E.GL_UNIFORM_ARRAY_STRIDE: m.array_stride_B,
                     E.GL_UNIFORM_MATRIX_STRIDE: m.matrix_stride_B, E.GL_UNIFORM_IS_ROW_MAJOR: int(m.row_major)}
            else:
                v = {E.GL_UNIFORM_TYPE: u.gl_type, E.GL_UNIFORM_SIZE: u.size,
                     E.GL_UNIFORM_NAME_LENGTH: len(u.name) + 1, E.GL_UNIFORM_BLOCK_INDEX: -1,
                     E.GL_UNIFORM_OFFSET: -1, E.GL_UNIFORM_ARRAY_STRIDE: -1,
                     E.GL_UNIFORM_MATRIX_STRIDE: -1, E.GL_UNIFORM_IS_ROW_MAJOR: 0}
            out.append(v.get(pname, -1))        # ATOMIC_COUNTER_BUFFER_INDEX: -1 unless a counter
        return out

    def glProgramParameteri(self, program: int, pname: int, value: int) -> None:
        check(binary_available(self.api), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        names = {E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT}
        if self.api.gl_or_es((4, 1), (3, 1)):
            names.add(E.GL_PROGRAM_SEPARABLE)
        check_enum(pname, names)
        check(value in (0, 1), E.GL_INVALID_VALUE, "value must be TRUE or FALSE")
        if pname == E.GL_PROGRAM_SEPARABLE:
            prog.separable = bool(value)
        else:
            prog.binary_retrievable_pending = bool(value)       # applied by the next link

    def _binaries(self) -> None:
        check(binary_available(self.api), E.GL_INVALID_OPERATION,
              "program binaries need GL 4.1, GLES 3.0 or GL_ARB_get_program_binary")

    def _program_binary(self, prog: Program) -> bytes:
        from driver.gl.binary import pack
        return pack(prog.linked_state.image, self.api.name)

    def glGetProgramBinary(self, program: int, bufSize: int):
        """(length, format, bytes) of shimgl's binary of the linked program (GL 4.6
        section 7.5): INVALID_OPERATION if it is not linked or bufSize is too small."""
        self._binaries()
        prog = program_object(self, program)
        check(bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
        check(prog.linked and prog.linked_state is not None, E.GL_INVALID_OPERATION, "program not linked")
        from driver.gl.binary import PROGRAM_BINARY_FORMAT
        data = self._program_binary(prog)
        check(len(data) <= bufSize, E.GL_INVALID_OPERATION, "bufSize is smaller than PROGRAM_BINARY_LENGTH")
        return (len(data), PROGRAM_BINARY_FORMAT, data)

    def glProgramBinary(self, program: int, binaryFormat: int, binary, length: int) -> None:
        """Relink ``program`` from a binary of glGetProgramBinary; one that this build
        and context flavour cannot load leaves the program unlinked with an info log."""
        self._binaries()
        prog = program_object(self, program)
        from driver.gl.binary import PROGRAM_BINARY_FORMAT, BinaryError, unpack
        check(binaryFormat == PROGRAM_BINARY_FORMAT, E.GL_INVALID_ENUM, "unknown program binary format")
        check(length >= 0, E.GL_INVALID_VALUE, "negative length")
        check(not (self.xfb.active and prog is self.xfb.program), E.GL_INVALID_OPERATION,
              "program in use by active transform feedback")
        prog.link_attempted = True
        try:
            data = bytes(binary if binary is not None else b"")[:length]
            image = unpack(data, self.api.name)
            source = Program(prog.name, attrib_bindings=dict(image.attrib_bindings),
                             frag_data_bindings=dict(image.frag_data_bindings),
                             separable=image.separable, tf_varyings=list(image.tf_varyings),
                             tf_buffer_mode=image.tf_buffer_mode)
            spirv = {i: rest for i, *rest in image.spirv}
            for i, (type, text) in enumerate(image.shaders):
                if type not in STAGES:
                    raise BinaryError("program binary names an unknown shader stage")
                sh = Shader(-1 - i, type, text)
                if i in spirv:              # a SPIR-V module: specialized again (features/gl_spirv.py)
                    why = self.spirv_restore(sh, *spirv[i])
                    if why is not None:
                        raise BinaryError(f"program binary does not specialize: {why}")
                    source.shaders.append(sh)
                    continue
                res = compile_glsl(text, STAGES[type], compat_context=self.api.compat,
                                   extensions=self.api.glsl_extensions,
                                   limits=glsl_limits(self.api, self.limits, self.caps))
                if not res.ok:
                    raise BinaryError(f"program binary does not compile: {res.info_log.strip()}")
                sh.compiled, sh.ast, sh.compiled_source = True, res.unit, text
                source.shaders.append(sh)
            linked = self._link(source)
            # the binary's transform feedback setup becomes the program's (its queries
            # report the restored mode and varyings)
            prog.tf_varyings, prog.tf_buffer_mode = list(source.tf_varyings), source.tf_buffer_mode
        except (BinaryError, LinkError) as err:
            prog.linked, prog.info_log = False, f"error: {err}\n"
            if prog is not self.current_program and prog.linked_state is not None:
                prog.linked_state = None
            return
        self._install_link(prog, source, linked)
        # PROGRAM_SEPARABLE is part of what the binary restores (a separable program
        # saved and loaded again can be used in a pipeline)
        prog.separable = image.separable

    def glShaderBinary(self, count: int, shaders, binaryformat: int, binary, length: int) -> None:
        check(count >= 0 and length >= 0, E.GL_INVALID_VALUE)
        for s in list(shaders)[:count]:
            shader_object(self, s)
        if binaryformat == E.GL_SHADER_BINARY_FORMAT_SPIR_V and \
                self.spirv_shader_binary(list(shaders)[:count], binary, length):
            return
        check(False, E.GL_INVALID_ENUM, "no shader binary formats are supported")

    def glGetUniformLocation(self, program: int, name: str) -> int:
        """GL 4.6 section 7.3.1.1: "a", "a[0]" and "a[i]" name array elements."""
        prog = program_object(self, program)
        ls = self._linked(prog)
        if name is None or names_hidden(prog):       # a NULL name names no uniform
            return -1
        base, index = name, 0
        if name.endswith("]") and "[" in name:
            head, _, idx = name[:-1].rpartition("[")
            if not idx.isdigit() or (len(idx) > 1 and idx[0] == "0"):
                return -1               # a decimal index without sign, spaces or leading zeros
            base, index = head, int(idx)
        from driver.gl.features.subroutines import is_subroutine_uniform
        for u in ls.uniforms:
            uname = u.name[:-3] if u.is_array else u.name
            if uname == base and (u.is_array or (index == 0 and base == name)):
                if is_subroutine_uniform(ls, u.name):
                    return -1                    # not a uniform of the default block to GL
                return u.location + index if index < u.size else -1
        return -1

    def glGetUniformBlockIndex(self, program: int, name: str) -> int:
        check(self.api.gl_or_es((3, 1), (3, 0)), E.GL_INVALID_OPERATION)
        prog = program_object(self, program)
        ls = self._linked(prog)
        ub = [b for b in ls.blocks if not b.is_storage]
        for i, b in enumerate(ub):
            if b.name == name and not names_hidden(prog):
                return i
        return E.GL_INVALID_INDEX

    def glUniformBlockBinding(self, program: int, index: int, binding: int) -> None:
        ls = self._linked(program_object(self, program))
        ub = [b for b in ls.blocks if not b.is_storage]
        check(0 <= index < len(ub), E.GL_INVALID_VALUE, "block index out of range")
        check(0 <= binding < self.limits["GL_MAX_UNIFORM_BUFFER_BINDINGS"], E.GL_INVALID_VALUE)
        ub[index].binding = binding

    def glGetActiveUniformBlockiv(self, program: int, index: int, pname: int) -> list[int]:
        prog = program_object(self, program)
        ls = self._linked(prog)
        ub = [b for b in ls.blocks if not b.is_storage]
        check(0 <= index < len(ub), E.GL_INVALID_VALUE, "block index out of range")
        b = ub[index]
        values = {E.GL_UNIFORM_BLOCK_BINDING: b.binding, E.GL_UNIFORM_BLOCK_DATA_SIZE: b.data_size_B,
                  E.GL_UNIFORM_BLOCK_NAME_LENGTH: len(reported_name(prog, b.name)) + 1,
                  E.GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS: len(b.active),
                  E.GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER: int("vertex" in b.stages),
                  E.GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER: int("fragment" in b.stages)}
        if self.api.gl_or_es((4, 3), (3, 1)):
            values[E.GL_UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER] = int("compute" in b.stages)
        if not self.api.es or self.api.es_(3, 2):
            values[E.GL_UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER] = int("geometry" in b.stages)
        if self.api.gl(4, 0) or self.api.es_(3, 2):
            values[E.GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER] = int("tess_control" in b.stages)
            values[E.GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER] = int("tess_evaluation" in b.stages)
        if pname == E.GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES:
            # the members' indices among the program's active uniforms (glGetActiveUniform)
            return [i for i, u in enumerate(self._active_uniforms(ls))
                    if isinstance(u, tuple) and len(u) == 2 and u[1] == index]
        check_enum(pname, values)
        return [values[pname]]

    def glGetActiveUniformBlockName(self, program: int, index: int, bufSize: int | None = None) -> str:
        prog = program_object(self, program)
        check_buf_size(bufSize)
        ls = self._linked(prog)
        ub = [b for b in ls.blocks if not b.is_storage]
        check(0 <= index < len(ub), E.GL_INVALID_VALUE)
        return reported_name(prog, ub[index].name)
