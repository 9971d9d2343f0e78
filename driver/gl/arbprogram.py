"""GL_ARB_vertex_program and GL_ARB_fragment_program (compatibility contexts).

Program objects (one name space for both targets; name 0 of each target is
the default object), glProgramStringARB through ``compiler.arb`` (a program
that fails to load sets GL_INVALID_OPERATION, GL_PROGRAM_ERROR_POSITION_ARB
and GL_PROGRAM_ERROR_STRING_ARB and leaves the object unchanged; a loaded
one sets the position to -1), env parameters per target, local parameters
per object, glGetProgramivARB (counts and limits), glGetProgramStringARB, and
the GL_VERTEX_PROGRAM_ARB / GL_FRAGMENT_PROGRAM_ARB enables.

Drawing: with no GLSL program current, an enabled target replaces that
fixed-function stage (the other stage stays the generated fixed-function
one). The pair is linked once per (ARB program load, fixed-function key) as a
driver-internal program from the ARB stage's interface shader
(``compiler.arb.to_ir``) and the fixed-function stage's GLSL; the ARB stage's
pipe shader carries the ``ARBShader`` itself, whose ``front_half`` the
hardware driver compiles instead of GLSL text. GL state the program binds
comes from the compatibility state block (the same values the fixed-function
pipeline and GLSL built-ins read); program.env / program.local are written
into the program's default uniform block before each draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from compiler.arb import ARBProgramError, Limits, parse_program
import numpy as np

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.compat import _DEPTHS as _MATRIX_STACK_DEPTHS
from driver.gl.errors import GLError, check, check_enum
from driver.gl.objects import MAX_NAMES_PER_CALL

if TYPE_CHECKING:       # imported where used: the compiler's IR is needed only with ARB programs
    from compiler.arb.to_ir import ARBShader

__all__ = ["ARBProgramMixin", "ARBProgramObject", "ARB_LIMITS", "install_arb_aliases"]

_TARGETS = {E.GL_VERTEX_PROGRAM_ARB: "vertex", E.GL_FRAGMENT_PROGRAM_ARB: "fragment"}

# Implementation limits (GL_MAX_PROGRAM_*_ARB; the specifications' minimums are
# 128/72 instructions, 12/16 temporaries, 96/24 parameters, 16/10 attribs, 96/24
# env and local parameters; Mesa allows 256 env and 4096 local parameters).
ARB_LIMITS = {
    "vertex": Limits(instructions=4096, temporaries=256, parameters=4096, attribs=16, address_registers=1,
                     env_parameters=256, local_parameters=4096, texture_coords=8, texture_image_units=16),
    "fragment": Limits(instructions=4096, alu_instructions=4096, tex_instructions=4096, tex_indirections=4096,
                       temporaries=256, parameters=4096, attribs=16, env_parameters=256, local_parameters=4096,
                       texture_coords=8, texture_image_units=16),
}

# GL_ARB_vertex_program's vertex attribute commands are the GL 2.0 ones.
_ATTRIB_ALIASES = tuple(
    [f"glVertexAttrib{n}{t}{v}" for n in "1234" for t in "sfd" for v in ("", "v")] +
    [f"glVertexAttrib4{t}v" for t in ("b", "i", "ub", "us", "ui")] +
    [f"glVertexAttrib4N{t}v" for t in ("b", "s", "i", "ub", "us", "ui")] +
    ["glVertexAttrib4Nub", "glVertexAttribPointer", "glEnableVertexAttribArray",
     "glDisableVertexAttribArray", "glGetVertexAttribdv", "glGetVertexAttribfv", "glGetVertexAttribiv",
     "glGetVertexAttribPointerv"])


@dataclass(eq=False)
class ARBProgramObject:
    """One program object. ``program`` is None until a string loads;
    ``shader`` (its ``ARBShader``, whose interface shader costs a GLSL parse)
    is made on the first draw that uses it; ``serial`` changes with every
    successful load (draw caches key on it); ``local`` holds the set local
    parameters (others read 0)."""
    name: int
    target: int
    string: bytes = b""
    program: object = None
    serial: int = 0
    local: dict = field(default_factory=dict)
    _shader: ARBShader | None = None

    @property
    def shader(self) -> ARBShader:
        if self._shader is None or self._shader.program is not self.program:
            from compiler.arb.to_ir import ARBShader    # the compiler's IR: only with ARB programs
            self._shader = ARBShader(self.program)
        return self._shader


def _alias(core: str):
    def alias(self, *args):
        return getattr(self, core)(*args)
    alias.__name__ = core + "ARB"
    alias.__doc__ = f"GL_ARB_vertex_program's name of {core}."
    return alias


def install_arb_aliases(cls):
    """ARB_vertex_program's names of the generic-attribute commands the
    composed class ``cls`` has (glVertexAttrib4fARB, ...)."""
    for core in _ATTRIB_ALIASES:
        if hasattr(cls, core) and not hasattr(cls, core + "ARB"):
            setattr(cls, core + "ARB", _alias(core))


class ARBProgramMixin:
    """The ARB assembly program entry points and their draw-time hook."""

    def _init_family(self) -> None:
        self._arb_objects: dict[int, ARBProgramObject] = {}
        self._arb_generated: set[int] = set()
        self._arb_defaults = {t: ARBProgramObject(0, t) for t in _TARGETS}
        self._arb_bound = dict(self._arb_defaults)
        self._arb_env = {t: {} for t in _TARGETS}
        self._arb_error_position = -1
        self._arb_error_string = ""
        self._arb_draw_programs: dict = {}
        self._arb_serial = 0

    # -- helpers ---------------------------------------------------------------------------
    def _arb_target(self, target: int) -> str:
        check(self.api.compat, E.GL_INVALID_OPERATION, "ARB programs need a compatibility context")
        check_enum(target, _TARGETS, f"bad program target {target:#x}")
        return _TARGETS[target]

    def _arb_limits(self, target: int) -> Limits:
        """ARB_LIMITS with the context's texture units, coordinate sets and
        vertex attributes (the GL limits the rest of the context reports)."""
        cache = self.__dict__.setdefault("_arb_limits_cache", {})     # a context's limits never change
        limits = cache.get(target)
        if limits is None:
            import dataclasses
            lim = self.limits
            limits = cache[target] = dataclasses.replace(ARB_LIMITS[_TARGETS[target]],
                                                         texture_image_units=lim["GL_MAX_TEXTURE_IMAGE_UNITS"],
                                                         texture_coords=lim["GL_MAX_TEXTURE_COORDS"],
                                                         attribs=lim["GL_MAX_VERTEX_ATTRIBS"])
        return limits

    @extends
    def _enable_caps(self, core) -> set[int]:
        caps = core()
        if self.api.compat:
            caps |= set(_TARGETS)
        return caps

    # -- objects ---------------------------------------------------------------------------
    def glGenProgramsARB(self, n: int) -> list[int]:
        self._arb_target(E.GL_VERTEX_PROGRAM_ARB)
        check(n >= 0, E.GL_INVALID_VALUE, "negative count")
        check(n <= MAX_NAMES_PER_CALL, E.GL_OUT_OF_MEMORY,
              f"{n} names in one call (at most {MAX_NAMES_PER_CALL})")
        out, name = [], 1
        while len(out) < n:
            if name not in self._arb_objects and name not in self._arb_generated:
                out.append(name)
            name += 1
        self._arb_generated.update(out)
        return out

    def glDeleteProgramsARB(self, n: int, programs) -> None:
        self._arb_target(E.GL_VERTEX_PROGRAM_ARB)
        check(n >= 0, E.GL_INVALID_VALUE, "negative count")
        for name in list(programs)[:n]:
            obj = self._arb_objects.pop(name, None)
            self._arb_generated.discard(name)
            if obj is None:
                continue
            if self._arb_bound[obj.target] is obj:       # deleting a bound program binds 0
                self._arb_bound[obj.target] = self._arb_defaults[obj.target]
            self._arb_drop_draw_programs(obj)

    def glBindProgramARB(self, target: int, program: int) -> None:
        self._arb_target(target)
        if program == 0:
            self._arb_bound[target] = self._arb_defaults[target]
            return
        obj = self._arb_objects.get(program)
        if obj is None:
            obj = self._arb_objects[program] = ARBProgramObject(program, target)
            self._arb_generated.discard(program)
        check(obj.target == target, E.GL_INVALID_OPERATION,
              f"program {program} is a {_TARGETS[obj.target]} program")
        self._arb_bound[target] = obj

    def glIsProgramARB(self, program: int) -> bool:
        self._arb_target(E.GL_VERTEX_PROGRAM_ARB)
        return program in self._arb_objects

    def glProgramStringARB(self, target: int, format: int, length: int, string) -> None:
        kind = self._arb_target(target)
        check(format == E.GL_PROGRAM_FORMAT_ASCII_ARB, E.GL_INVALID_ENUM, "format must be PROGRAM_FORMAT_ASCII_ARB")
        check(length >= 0, E.GL_INVALID_VALUE, "negative length")
        data = string.encode("latin-1") if isinstance(string, str) else bytes(string)
        data = data[:length]
        try:
            prog = parse_program(data, self._arb_limits(target), target=kind)
        except ARBProgramError as e:
            self._arb_error_position = e.position
            self._arb_error_string = e.error_string
            raise GLError(E.GL_INVALID_OPERATION, f"glProgramStringARB: {e.error_string}") from None
        obj = self._arb_bound[target]
        self._arb_drop_draw_programs(obj)
        self._arb_serial += 1
        obj.string, obj.program, obj.serial = data, prog, self._arb_serial
        self._arb_error_position = -1
        self._arb_error_string = ""

    # -- parameters ------------------------------------------------------------------------
    def _arb_param_index(self, target: int, index: int, local: bool) -> None:
        lim = self._arb_limits(target)
        check(0 <= index < (lim.local_parameters if local else lim.env_parameters), E.GL_INVALID_VALUE,
              f"parameter index {index} out of range")

    def _arb_set(self, target: int, index: int, values, local: bool) -> None:
        self._arb_target(target)
        self._arb_param_index(target, index, local)
        v = tuple(float(x) for x in list(values)[:4])
        check(len(v) == 4, E.GL_INVALID_VALUE, "4 values needed")
        (self._arb_bound[target].local if local else self._arb_env[target])[index] = v

    def _arb_get(self, target: int, index: int, local: bool) -> list[float]:
        self._arb_target(target)
        self._arb_param_index(target, index, local)
        table = self._arb_bound[target].local if local else self._arb_env[target]
        return list(table.get(index, (0.0, 0.0, 0.0, 0.0)))

    def glProgramEnvParameter4fARB(self, target, index, x, y, z, w) -> None:
        self._arb_set(target, index, (x, y, z, w), False)

    def glProgramEnvParameter4dARB(self, target, index, x, y, z, w) -> None:
        self._arb_set(target, index, (x, y, z, w), False)

    def glProgramEnvParameter4fvARB(self, target, index, params) -> None:
        self._arb_set(target, index, params, False)

    def glProgramEnvParameter4dvARB(self, target, index, params) -> None:
        self._arb_set(target, index, params, False)

    def glProgramLocalParameter4fARB(self, target, index, x, y, z, w) -> None:
        self._arb_set(target, index, (x, y, z, w), True)

    def glProgramLocalParameter4dARB(self, target, index, x, y, z, w) -> None:
        self._arb_set(target, index, (x, y, z, w), True)

    def glProgramLocalParameter4fvARB(self, target, index, params) -> None:
        self._arb_set(target, index, params, True)

    def glProgramLocalParameter4dvARB(self, target, index, params) -> None:
        self._arb_set(target, index, params, True)

    # EXT_gpu_program_parameters: count consecutive parameters from one array, all
    # checked (target, count, the last index) before any is set
    def _arb_set_many(self, name: str, target, index, count, params, local: bool) -> None:
        check(self.api.has_extension("GL_EXT_gpu_program_parameters"), E.GL_INVALID_OPERATION,
              f"{name} needs GL_EXT_gpu_program_parameters")
        self._arb_target(target)
        check(count >= 0, E.GL_INVALID_VALUE, "negative count")
        if count == 0:
            return
        self._arb_param_index(target, index, local)
        self._arb_param_index(target, index + count - 1, local)
        values = [float(x) for x in list(params)[:4 * count]]
        check(len(values) == 4 * count, E.GL_INVALID_VALUE, f"{count} parameters need {4 * count} values")
        for k in range(count):
            self._arb_set(target, index + k, values[4 * k:4 * k + 4], local)

    def glProgramEnvParameters4fvEXT(self, target, index, count, params) -> None:
        self._arb_set_many("glProgramEnvParameters4fvEXT", target, index, count, params, False)

    def glProgramLocalParameters4fvEXT(self, target, index, count, params) -> None:
        self._arb_set_many("glProgramLocalParameters4fvEXT", target, index, count, params, True)

    def glGetProgramEnvParameterfvARB(self, target, index) -> list[float]:
        return self._arb_get(target, index, False)

    def glGetProgramEnvParameterdvARB(self, target, index) -> list[float]:
        return self._arb_get(target, index, False)

    def glGetProgramLocalParameterfvARB(self, target, index) -> list[float]:
        return self._arb_get(target, index, True)

    def glGetProgramLocalParameterdvARB(self, target, index) -> list[float]:
        return self._arb_get(target, index, True)

    # -- queries ---------------------------------------------------------------------------
    def glGetProgramivARB(self, target: int, pname: int) -> list[int]:
        kind = self._arb_target(target)
        obj = self._arb_bound[target]
        p = obj.program
        lim = self._arb_limits(target)
        n_instr = p.num_instructions if p else 0
        values = {
            E.GL_PROGRAM_LENGTH_ARB: len(obj.string), E.GL_PROGRAM_FORMAT_ARB: E.GL_PROGRAM_FORMAT_ASCII_ARB,
            E.GL_PROGRAM_BINDING_ARB: obj.name,
            E.GL_PROGRAM_INSTRUCTIONS_ARB: n_instr, E.GL_PROGRAM_NATIVE_INSTRUCTIONS_ARB: n_instr,
            E.GL_MAX_PROGRAM_INSTRUCTIONS_ARB: lim.instructions,
            E.GL_MAX_PROGRAM_NATIVE_INSTRUCTIONS_ARB: lim.instructions,
            E.GL_PROGRAM_TEMPORARIES_ARB: len(p.temps) if p else 0,
            E.GL_PROGRAM_NATIVE_TEMPORARIES_ARB: len(p.temps) if p else 0,
            E.GL_MAX_PROGRAM_TEMPORARIES_ARB: lim.temporaries, E.GL_MAX_PROGRAM_NATIVE_TEMPORARIES_ARB: lim.temporaries,
            E.GL_PROGRAM_PARAMETERS_ARB: p.param_slots if p else 0,
            E.GL_PROGRAM_NATIVE_PARAMETERS_ARB: p.param_slots if p else 0,
            E.GL_MAX_PROGRAM_PARAMETERS_ARB: lim.parameters, E.GL_MAX_PROGRAM_NATIVE_PARAMETERS_ARB: lim.parameters,
            E.GL_PROGRAM_ATTRIBS_ARB: p.num_attribs if p else 0,
            E.GL_PROGRAM_NATIVE_ATTRIBS_ARB: p.num_attribs if p else 0,
            E.GL_MAX_PROGRAM_ATTRIBS_ARB: lim.attribs, E.GL_MAX_PROGRAM_NATIVE_ATTRIBS_ARB: lim.attribs,
            E.GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB: lim.local_parameters,
            E.GL_MAX_PROGRAM_ENV_PARAMETERS_ARB: lim.env_parameters,
            E.GL_PROGRAM_UNDER_NATIVE_LIMITS_ARB: int(p is not None),
        }
        if kind == "vertex":
            regs = len(p.address_regs) if p else 0
            values.update({E.GL_PROGRAM_ADDRESS_REGISTERS_ARB: regs, E.GL_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB: regs,
                           E.GL_MAX_PROGRAM_ADDRESS_REGISTERS_ARB: lim.address_registers,
                           E.GL_MAX_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB: lim.address_registers})
        else:
            # a fragment program has no address registers; the queries answer 0 (as Mesa's)
            values.update(dict.fromkeys((E.GL_PROGRAM_ADDRESS_REGISTERS_ARB, E.GL_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB,
                                         E.GL_MAX_PROGRAM_ADDRESS_REGISTERS_ARB,
                                         E.GL_MAX_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB), 0))
            alu = p.num_alu_instructions if p else 0
            tex = p.num_tex_instructions if p else 0
            ind = _tex_indirections(p) if p else 0
            values.update({
                E.GL_PROGRAM_ALU_INSTRUCTIONS_ARB: alu, E.GL_PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB: alu,
                E.GL_PROGRAM_TEX_INSTRUCTIONS_ARB: tex, E.GL_PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB: tex,
                E.GL_PROGRAM_TEX_INDIRECTIONS_ARB: ind, E.GL_PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB: ind,
                E.GL_MAX_PROGRAM_ALU_INSTRUCTIONS_ARB: lim.alu_instructions,
                E.GL_MAX_PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB: lim.alu_instructions,
                E.GL_MAX_PROGRAM_TEX_INSTRUCTIONS_ARB: lim.tex_instructions,
                E.GL_MAX_PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB: lim.tex_instructions,
                E.GL_MAX_PROGRAM_TEX_INDIRECTIONS_ARB: lim.tex_indirections,
                E.GL_MAX_PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB: lim.tex_indirections})
        check_enum(pname, values, f"glGetProgramivARB: bad pname {pname:#x}")
        return [values[pname]]

    def glGetProgramStringARB(self, target: int, pname: int) -> bytes:
        self._arb_target(target)
        check_enum(pname, (E.GL_PROGRAM_STRING_ARB,))
        return self._arb_bound[target].string

    @extends
    def _legacy_get_entries(self, core) -> dict:
        t = core()
        if self.api.compat:
            t.update({
                E.GL_PROGRAM_ERROR_POSITION_ARB: lambda c: c._arb_error_position,
                E.GL_MAX_PROGRAM_MATRICES_ARB: lambda c: len(c.legacy.stacks) - 3,     # after MODELVIEW/PROJECTION/TEXTURE
                E.GL_MAX_PROGRAM_MATRIX_STACK_DEPTH_ARB: lambda c: _MATRIX_STACK_DEPTHS[3],
                E.GL_CURRENT_MATRIX_ARB: lambda c: tuple(c._stack()[-1].T.ravel()),
                E.GL_TRANSPOSE_CURRENT_MATRIX_ARB: lambda c: tuple(c._stack()[-1].ravel()),
                E.GL_CURRENT_MATRIX_STACK_DEPTH_ARB: lambda c: len(c._stack()),
                E.GL_VERTEX_PROGRAM_ARB: lambda c: E.GL_VERTEX_PROGRAM_ARB in c.state.enabled,
                E.GL_FRAGMENT_PROGRAM_ARB: lambda c: E.GL_FRAGMENT_PROGRAM_ARB in c.state.enabled,
            })
        return t

    @extends
    def glGetString(self, core, name: int) -> str:
        if name == E.GL_PROGRAM_ERROR_STRING_ARB and self.api.compat:
            return self._arb_error_string
        return core(name)

    # -- drawing ---------------------------------------------------------------------------
    def _arb_glsl_stages(self) -> set[str]:
        """The stages the current GLSL program has shaders for (not the
        fixed-function stage the link added)."""
        prog = self.current_program
        if prog is None or prog.linked_state is None:
            return set()
        return {stage for stage, unit in prog.linked_state.units.items() if id(unit) not in self._ff_sources}

    def _arb_active(self) -> dict[str, ARBProgramObject]:
        """stage -> bound program of each enabled target whose stage the current
        GLSL program does not have (GL 2.0 section 2.15: a GLSL stage wins)."""
        if not self.api.compat or self.bound_pipeline is not None:
            return {}
        en, glsl = self.state.enabled, self._arb_glsl_stages()
        return {_TARGETS[t]: self._arb_bound[t] for t in _TARGETS if t in en and _TARGETS[t] not in glsl}

    @extends
    def validate_draw(self, core, mode: int, count: int, instances: int = 1) -> None:
        for stage, obj in self._arb_active().items():
            check(obj.program is not None, E.GL_INVALID_OPERATION,
                  f"GL_{stage.upper()}_PROGRAM_ARB is enabled and the bound program is not valid")
        core(mode, count, instances)

    @extends
    def _program_for_draw(self, core):
        active = self._arb_active()
        if not active or any(obj.program is None for obj in active.values()):
            return core()
        self.state.sprite_coord_mask = sum(1 << u for u in range(8) if self.legacy.texenv[u].coord_replace)
        glsl = self.current_program if self._arb_glsl_stages() else None
        self._track_color_material()
        vkey, fkey = self._ff_keys(self._ff_texture_units())
        fp = active.get("fragment")
        if fp is not None and "vertex" not in active:
            vkey = self._arb_vertex_key_for(fp.program)
        fixed_vs = "vertex" not in active and glsl is None
        self.state.ff_two_side = fixed_vs and vkey.two_side
        self.state.ff_point_size = fixed_vs and vkey.point_attenuation

        def part(stage, k):
            if stage in active:
                return ("arb", active[stage].serial)
            if glsl is not None and stage in glsl.linked_state.units:
                return ("glsl", id(glsl.linked_state))
            return ("fixed", k)
        key = (part("vertex", vkey), part("fragment", fkey))
        prog = self._arb_draw_programs.get(key)
        if prog is None:
            prog = self._arb_draw_programs[key] = self._arb_link(active, vkey, fkey, glsl)
        self._arb_upload_parameters(prog, active)
        if glsl is not None:
            self._arb_copy_glsl_state(prog, glsl)
        return prog

    def _arb_vertex_key_for(self, fprog):
        """The fixed-function vertex stage under a fragment program: texture
        coordinates for every set the program reads (whatever the texture
        enables), the fog coordinate when it reads it or asks for fog."""
        import dataclasses
        from types import SimpleNamespace
        sets = sorted(int(b[len("fragment.texcoord["):-1]) for b in fprog.inputs
                      if b.startswith("fragment.texcoord["))
        vkey, _f = self._ff_keys(tuple(SimpleNamespace(unit=u) for u in sets))
        if "fragment.fogcoord" in fprog.inputs or fprog.fog_option:
            vkey = dataclasses.replace(vkey, fog_coord=self.legacy.fog.coord_src)
        return vkey

    def _arb_link(self, active: dict, vkey, fkey, glsl=None):
        """The internal program of one pair of stages: ARB stage(s) with the
        fixed-function stage or the current GLSL program's stage."""
        from driver.gallium import ShaderState
        from driver.gl.glsl import compile_glsl
        from driver.gl.legacy.ffgen import fragment_source, vertex_source
        from driver.gl.objects import Program, Shader
        from driver.gl.programs import PIPE_STAGES
        prog = Program(0)
        sources = {}
        for stage, gl_type, ff_src in (("vertex", E.GL_VERTEX_SHADER, lambda: vertex_source(vkey)),
                                       ("fragment", E.GL_FRAGMENT_SHADER, lambda: fragment_source(fkey))):
            obj = active.get(stage)
            if obj is None and glsl is not None and stage in glsl.linked_state.units:
                shaders = [sh for sh in glsl.shaders if sh.type == gl_type]
                prog.shaders += shaders
                sources[stage] = "".join(getattr(sh, "compiled_source", None) or sh.source or "" for sh in shaders)
                continue
            if obj is not None:
                src, unit = obj.shader.source, obj.shader.unit
            else:
                src = ff_src()
                res = compile_glsl(src, stage)
                assert res.ok, f"fixed-function {stage} shader: {res.info_log}\n{src}"
                unit = res.unit
            sources[stage] = src
            prog.shaders.append(Shader(0, gl_type, src, True, ast=unit))
        if glsl is not None:      # the GLSL program's attribute and fragment output locations
            prog.attrib_bindings.update({n: v[0] for n, v in glsl.linked_state.attributes.items()
                                         if not n.startswith("gl_")})
            prog.frag_data_bindings.update(glsl.frag_data_bindings)
        vp = active.get("vertex")
        if vp is not None:
            from compiler.arb.to_ir import attrib_name
            for b in vp.program.inputs:
                if b.startswith("vertex.attrib[") and b != "vertex.attrib[0]":
                    n = int(b[len("vertex.attrib["):-1])
                    prog.attrib_bindings[attrib_name(n)] = n
        ls = prog.linked_state = self._link(prog)
        prog.linked = True
        for u in ls.uniforms:                          # samplers: shimgl_Texture<u> reads unit u
            if u.kind == "sampler" and u.name.startswith("shimgl_Texture"):
                ls.uniform_storage.pack("<i", u.offset_B, int(u.name[len("shimgl_Texture"):]))
        from compiler.link import stage_ir_of
        for stage, unit in ls.units.items():
            obj = active.get(stage)
            info = self.pipe_shader_info(ls, stage)
            # an ARB stage has its own front half; the pipe gets a GLSL stage as IR, never the AST
            ir = obj.shader if obj is not None else stage_ir_of(unit, sources[stage], info.get("default_block"))
            ls.pipe_shaders[PIPE_STAGES[stage]] = self.pipe.create_shader_state(ShaderState(
                PIPE_STAGES[stage], ir, sources[stage], info))
        prog.arb_objects = tuple(active.values())
        prog.arb_glsl_state = glsl.linked_state if glsl is not None else None   # keeps the id in the key unique
        return prog

    def _arb_matrix_row(self, n: int, modifier: str, row: int) -> tuple:
        """Row ``row`` of program matrix ``n`` (GL_MATRIXn_ARB's stack top) after
        ``modifier`` ("", "inverse", "transpose", "invtrans")."""
        m = self.legacy.stacks[3 + n][-1]
        if modifier in ("inverse", "invtrans"):
            m = np.linalg.inv(m) if abs(np.linalg.det(m)) > 1e-30 else np.zeros((4, 4))
        if modifier in ("transpose", "invtrans"):
            m = m.T
        return tuple(float(x) for x in m[row])

    def _arb_upload_parameters(self, prog, active: dict) -> None:
        """program.env / program.local and the program-matrix rows of each ARB
        stage into the default block."""
        from compiler.arb.to_ir import env_uniform, local_uniform, program_matrix_uniform
        ls = prog.linked_state
        for stage, obj in active.items():
            env, local = self._arb_env[_target_of(stage)], obj.local
            rows = {k: self._arb_matrix_row(*r) for k, r in enumerate(obj.shader.interface.matrix_rows)}
            for u in ls.uniforms:
                base = u.name.split("[")[0]
                table = env if base == env_uniform(stage) else local if base == local_uniform(stage) else \
                    rows if base == program_matrix_uniform(stage) else None
                if table is None:
                    continue
                first = int(u.name[len(base) + 1:-1]) if u.name != base else 0
                for i in range(u.size):
                    ls.uniform_storage.pack("<4f", u.offset_B + i * u.stride_B,
                                     *table.get(first + i, (0.0, 0.0, 0.0, 0.0)))

    def _arb_copy_glsl_state(self, prog, glsl) -> None:
        """The GLSL stage's uniform values (set on the application's program)
        and uniform block bindings into the combined program."""
        dst, src = prog.linked_state, glsl.linked_state
        by_name = {u.name: u for u in src.uniforms}
        for u in dst.uniforms:
            v = by_name.get(u.name)
            if v is not None and v.stride_B == u.stride_B:    # one layout rule: the same shape
                size_B = min(u.size, v.size) * u.stride_B
                dst.uniform_storage.write(u.offset_B, src.uniform_data[v.offset_B:v.offset_B + size_B])
        bindings = {b.name: b.binding for b in src.blocks}
        for b in dst.blocks:
            if b.name in bindings:
                b.binding = bindings[b.name]

    def _arb_drop_draw_programs(self, obj: ARBProgramObject) -> None:
        """Release the draw programs built from ``obj``'s current string."""
        for key, prog in list(self._arb_draw_programs.items()):
            if obj in getattr(prog, "arb_objects", ()):
                del self._arb_draw_programs[key]
                for handle in prog.linked_state.pipe_shaders.values():
                    self.pipe.delete_shader_state(handle)


def _target_of(stage: str) -> int:
    return E.GL_VERTEX_PROGRAM_ARB if stage == "vertex" else E.GL_FRAGMENT_PROGRAM_ARB


def _tex_indirections(p) -> int:
    """ARB_fragment_program section 3.11.6: texture instructions form one
    indirection until one reads a temporary written (by any instruction)
    since the current indirection began; 1 for a program without TEX."""
    count, written = 1, set()
    for ins in p.instructions:
        if ins.opcode in ("TEX", "TXP", "TXB", "KIL"):
            if any(s.file == "temp" and s.name in written for s in ins.srcs):
                count += 1
                written = set()
        if ins.dst is not None and ins.dst.file == "temp":
            written.add(ins.dst.name)
    return count
