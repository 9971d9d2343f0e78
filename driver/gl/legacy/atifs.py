"""GL_ATI_fragment_shader (compatibility contexts).

Shader objects (name 0 is the context's default shader; glBindFragmentShaderATI
of an unused name creates it, glGenFragmentShadersATI reserves a contiguous
range), the recording of a shader between glBeginFragmentShaderATI and
glEndFragmentShaderATI with the errors of the specification's Errors section,
constants (set inside a definition: the shader's own; outside: the global
ones), the GL_FRAGMENT_SHADER_ATI enable and the fixed limits' queries.

The recording follows the passes as the specification describes them: routing
instructions (glPassTexCoordATI, glSampleMapATI) open a pass, colour and alpha
instructions fill up to eight pairs per pass (an alpha instruction completes
the pair of the colour instruction just before it, else it starts a pair); a
second group of routing instructions opens the second pass. An instruction that
raises an error is not recorded. glEndFragmentShaderATI closes the definition
even when it reports an error (no arithmetic instruction in a pass, or a colour
interpolator read in the first pass of a two-pass shader); such a shader is
invalid.

Drawing: with GL_FRAGMENT_SHADER_ATI enabled, no GLSL program current and no
ARB fragment program enabled (ARB programs, then GLSL, take precedence), the
bound shader replaces the texture environment stages. ``compiler.arb.atifs``
rewrites it as an ARB fragment program for the enabled texture target of each
unit it samples and the fog mode (GL_FOG enabled: the fixed-function fog blend
follows the shader), and the ARB program path links it with the
fixed-function vertex stage (``driver.gl.arbprogram``). An invalid or still
undefined shader draws with the fixed-function texture stages (the
specification leaves the result undefined; Mesa does the same). The global
constants are the pseudo program's local parameters, written at every draw.

Not compiled into display lists except glBindFragmentShaderATI and
glSetFragmentShaderConstantATI (section 5.4 as the extension amends it). Shader
objects are per context, not shared with a share group (Mesa shares them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.arb import atifs as A

from driver.gl import enums as E
from driver.gl.arbprogram import ARBProgramObject
from driver.gl.compose import extends
from driver.gl.errors import GLError, check

__all__ = ["AtiFragmentShaderMixin", "AtiShaderObject"]

_REG0, _CON0 = E.GL_REG_0_ATI, E.GL_CON_0_ATI
_OPS = {E.GL_MOV_ATI: "MOV", E.GL_ADD_ATI: "ADD", E.GL_MUL_ATI: "MUL", E.GL_SUB_ATI: "SUB",
        E.GL_DOT3_ATI: "DOT3", E.GL_DOT4_ATI: "DOT4", E.GL_MAD_ATI: "MAD", E.GL_LERP_ATI: "LERP",
        E.GL_CND_ATI: "CND", E.GL_CND0_ATI: "CND0", E.GL_DOT2_ADD_ATI: "DOT2_ADD"}
_SWIZZLES = {E.GL_SWIZZLE_STR_ATI: "STR", E.GL_SWIZZLE_STQ_ATI: "STQ", E.GL_SWIZZLE_STR_DR_ATI: "STR_DR",
             E.GL_SWIZZLE_STQ_DQ_ATI: "STQ_DQ"}
_REPS = {E.GL_NONE: None, E.GL_RED: 0, E.GL_GREEN: 1, E.GL_BLUE: 2, E.GL_ALPHA: 3}
_DST_MODS = {E.GL_NONE: "", E.GL_2X_BIT_ATI: "2X", E.GL_4X_BIT_ATI: "4X", E.GL_8X_BIT_ATI: "8X",
             E.GL_HALF_BIT_ATI: "HALF", E.GL_QUARTER_BIT_ATI: "QUARTER", E.GL_EIGHTH_BIT_ATI: "EIGHTH"}
_ARB_TARGETS = {E.GL_TEXTURE_1D: "1D", E.GL_TEXTURE_2D: "2D", E.GL_TEXTURE_3D: "3D",
                E.GL_TEXTURE_CUBE_MAP: "CUBE", E.GL_TEXTURE_RECTANGLE: "RECT"}
_FOG_MODES = {E.GL_LINEAR: "linear", E.GL_EXP: "exp", E.GL_EXP2: "exp2"}
_COLOR, _ALPHA = 0, 1
# the fixed resources glGet reports (the specification's deprecated queries, now constants)
_LIMITS = {E.GL_NUM_FRAGMENT_REGISTERS_ATI: A.NUM_REGISTERS, E.GL_NUM_FRAGMENT_CONSTANTS_ATI: A.NUM_CONSTANTS,
           E.GL_NUM_PASSES_ATI: A.MAX_PASSES, E.GL_NUM_INSTRUCTIONS_PER_PASS_ATI: A.MAX_PAIRS_PER_PASS,
           E.GL_NUM_INSTRUCTIONS_TOTAL_ATI: A.MAX_PASSES * A.MAX_PAIRS_PER_PASS,
           E.GL_COLOR_ALPHA_PAIRING_ATI: True, E.GL_NUM_LOOPBACK_COMPONENTS_ATI: 3,
           E.GL_NUM_INPUT_INTERPOLATOR_COMPONENTS_ATI: 3}


@dataclass(eq=False)
class _Recording:
    """A definition in progress. ``stage``: 0 = routing of the first pass, 1 =
    its arithmetic, 2 = routing of the second pass, 3 = its arithmetic."""
    stage: int = 0
    routing: tuple = ([], [])
    pairs: tuple = ([], [])                      # per pass: [color Op | None, alpha Op | None]
    assigned: tuple = (set(), set())             # registers routed per pass
    coord_swizzle: dict = field(default_factory=dict)    # texture coordinate set -> "STR"/"STQ" family
    last_type: int | None = None
    color_in_first_pass: bool = False
    constants: list = field(default_factory=lambda: [None] * A.NUM_CONSTANTS)


@dataclass(eq=False)
class AtiShaderObject:
    """One shader. ``shader`` is the compiled description (None: never defined
    or invalid); ``serial`` changes with every definition (draw caches key on
    it); ``programs`` caches the ARB form per (targets, fog)."""
    name: int
    shader: A.FragmentShader | None = None
    serial: int = 0
    programs: dict = field(default_factory=dict)


def _register(value: int) -> int | None:
    r = value - _REG0
    return r if 0 <= r < A.NUM_REGISTERS else None


class AtiFragmentShaderMixin:
    """The GL_ATI_fragment_shader entry points and their draw-time hook."""

    def _init_family(self) -> None:
        self._atifs_objects: dict[int, AtiShaderObject] = {}
        self._atifs_reserved: set[int] = set()
        self._atifs_default = AtiShaderObject(0)
        self._atifs_bound = self._atifs_default
        self._atifs_recording: _Recording | None = None
        self._atifs_serial = 0
        # the global constants: the local parameters of every shader's ARB form
        self._atifs_constants: dict[int, tuple] = {}

    # -- objects ---------------------------------------------------------------------------
    def _atifs_outside(self, name: str) -> None:
        check(self._atifs_recording is None, E.GL_INVALID_OPERATION, f"{name} inside a shader definition")

    def _atifs_inside(self, name: str) -> _Recording:
        check(self._atifs_recording is not None, E.GL_INVALID_OPERATION, f"{name} outside a shader definition")
        return self._atifs_recording

    def glGenFragmentShadersATI(self, range: int) -> int:
        check(range != 0, E.GL_INVALID_VALUE, "range is 0")
        self._atifs_outside("glGenFragmentShadersATI")
        check(range <= 1 << 20, E.GL_OUT_OF_MEMORY, f"{range} names in one call")
        used = self._atifs_objects.keys() | self._atifs_reserved
        first = 1
        for name in sorted(n for n in used if n >= 1):       # the first gap of `range` free names
            if name - first >= range:
                break
            first = max(first, name + 1)
        check(first + range - 1 < 1 << 32, E.GL_OUT_OF_MEMORY, "no contiguous range of names left")
        self._atifs_reserved.update(_names(first, range))
        return first

    def glBindFragmentShaderATI(self, id: int) -> None:
        self._atifs_outside("glBindFragmentShaderATI")
        if id == 0:
            self._atifs_bound = self._atifs_default
            return
        obj = self._atifs_objects.get(id)
        if obj is None:
            obj = self._atifs_objects[id] = AtiShaderObject(id)
            self._atifs_reserved.discard(id)
        self._atifs_bound = obj

    def glDeleteFragmentShaderATI(self, id: int) -> None:
        self._atifs_outside("glDeleteFragmentShaderATI")
        if id == 0:                  # the default shader cannot be deleted (silently ignored)
            return
        self._atifs_reserved.discard(id)
        obj = self._atifs_objects.pop(id, None)
        if obj is None:
            return
        if self._atifs_bound is obj:
            self._atifs_bound = self._atifs_default
        self._atifs_release(obj)

    def _atifs_release(self, obj: AtiShaderObject) -> None:
        for pseudo in obj.programs.values():
            self._arb_drop_draw_programs(pseudo)
        obj.programs.clear()

    # -- definition ------------------------------------------------------------------------
    def glBeginFragmentShaderATI(self) -> None:
        self._atifs_outside("glBeginFragmentShaderATI")
        self._atifs_recording = _Recording(routing=([], []), pairs=([], []), assigned=(set(), set()))

    def glEndFragmentShaderATI(self) -> None:
        rec = self._atifs_inside("glEndFragmentShaderATI")
        self._atifs_recording = None        # closed even when an error is reported below
        obj = self._atifs_bound
        self._atifs_release(obj)
        self._atifs_serial += 1
        obj.serial, obj.shader = self._atifs_serial, None
        two_pass = rec.stage >= 2
        check(not (two_pass and rec.color_in_first_pass), E.GL_INVALID_OPERATION,
              "PRIMARY_COLOR_ARB or SECONDARY_INTERPOLATOR_ATI read in the first pass of a two-pass shader")
        check(rec.stage in (1, 3), E.GL_INVALID_OPERATION, "a pass without arithmetic instructions")
        passes = tuple(A.Pass(tuple(rec.routing[k]), tuple(A.Pair(*p) for p in rec.pairs[k]))
                       for k in range(2 if two_pass else 1))
        obj.shader = A.FragmentShader(passes, tuple(rec.constants))

    def _atifs_routing(self, name: str, kind: str, dst: int, source: int, swizzle: int) -> None:
        rec = self._atifs_inside(name)
        stage = 2 if rec.stage == 1 else rec.stage
        r = _register(dst)
        check(stage <= 2, E.GL_INVALID_OPERATION, f"{name}: both passes are already specified")
        check(r is None or r not in rec.assigned[stage >> 1], E.GL_INVALID_OPERATION,
              f"{name}: register {r} is routed twice in one pass")
        units = self.limits["GL_MAX_TEXTURE_UNITS"]
        check(r is not None and r < units, E.GL_INVALID_ENUM, f"{name}: bad destination {dst:#x}")
        src_reg = _register(source)
        coord = source - E.GL_TEXTURE0
        check(src_reg is not None or 0 <= coord < min(8, units), E.GL_INVALID_ENUM,
              f"{name}: bad source {source:#x}")
        check(src_reg is None or stage == 2, E.GL_INVALID_OPERATION,
              f"{name}: a register source in the first pass")
        check(swizzle in _SWIZZLES, E.GL_INVALID_ENUM, f"{name}: bad swizzle {swizzle:#x}")
        sw = _SWIZZLES[swizzle]
        check(src_reg is None or sw in ("STR", "STR_DR"), E.GL_INVALID_OPERATION,
              f"{name}: a register source takes only SWIZZLE_STR_ATI or SWIZZLE_STR_DR_ATI")
        if src_reg is None:         # one coordinate set reads STR or STQ throughout the shader
            family = sw[:3]
            seen = rec.coord_swizzle.get(coord)
            check(seen is None or seen == family, E.GL_INVALID_OPERATION,
                  f"{name}: texture coordinate set {coord} used with {seen} and {family} swizzles")
            rec.coord_swizzle[coord] = family
        if rec.stage == 1:
            rec.last_type = None
        rec.stage = stage
        rec.assigned[stage >> 1].add(r)
        rec.routing[stage >> 1].append(A.Routing(kind, r, "texcoord" if src_reg is None else "reg",
                                                 coord if src_reg is None else src_reg, sw))

    def glPassTexCoordATI(self, dst: int, coord: int, swizzle: int) -> None:
        self._atifs_routing("glPassTexCoordATI", "pass", dst, coord, swizzle)

    def glSampleMapATI(self, dst: int, interp: int, swizzle: int) -> None:
        self._atifs_routing("glSampleMapATI", "sample", dst, interp, swizzle)

    def _atifs_arg(self, name: str, kind: int, arg: int, rep: int, mod: int) -> A.Arg:
        r, c = _register(arg), arg - _CON0
        sources = {E.GL_ZERO: "zero", E.GL_ONE: "one", E.GL_PRIMARY_COLOR: "primary",
                   E.GL_SECONDARY_INTERPOLATOR_ATI: "secondary"}
        check(r is not None or 0 <= c < A.NUM_CONSTANTS or arg in sources, E.GL_INVALID_ENUM,
              f"{name}: bad argument {arg:#x}")
        check(rep in _REPS, E.GL_INVALID_ENUM, f"{name}: bad replication {rep:#x}")
        if arg == E.GL_SECONDARY_INTERPOLATOR_ATI:
            bad = (E.GL_ALPHA,) if kind == _COLOR else (E.GL_ALPHA, E.GL_NONE)
            check(rep not in bad, E.GL_INVALID_OPERATION,
                  f"{name}: the secondary interpolator has no alpha")
        if r is not None:
            return A.Arg("reg", r, _REPS[rep], bool(mod & E.GL_COMP_BIT_ATI), bool(mod & E.GL_BIAS_BIT_ATI),
                         bool(mod & E.GL_2X_BIT_ATI), bool(mod & E.GL_NEGATE_BIT_ATI))
        src, index = (("con", c) if 0 <= c < A.NUM_CONSTANTS else (sources[arg], 0))
        return A.Arg(src, index, _REPS[rep], bool(mod & E.GL_COMP_BIT_ATI), bool(mod & E.GL_BIAS_BIT_ATI),
                     bool(mod & E.GL_2X_BIT_ATI), bool(mod & E.GL_NEGATE_BIT_ATI))

    def _atifs_op(self, name: str, kind: int, op: int, dst: int, mask: int, dst_mod: int, args) -> None:
        rec = self._atifs_inside(name)
        stage = {0: 1, 2: 3}.get(rec.stage, rec.stage)
        pairs = rec.pairs[stage >> 1]
        new_pair = kind == _COLOR or rec.last_type == kind or not pairs
        check(not new_pair or len(pairs) < A.MAX_PAIRS_PER_PASS, E.GL_INVALID_OPERATION,
              f"{name}: more than {A.MAX_PAIRS_PER_PASS} instructions in a pass")
        r = _register(dst)
        check(r is not None, E.GL_INVALID_ENUM, f"{name}: bad destination {dst:#x}")
        scale = dst_mod & ~E.GL_SATURATE_BIT_ATI
        check(scale in _DST_MODS, E.GL_INVALID_ENUM, f"{name}: bad destination modifier {dst_mod:#x}")
        check(op in _OPS, E.GL_INVALID_ENUM, f"{name}: bad op {op:#x}")
        o = _OPS[op]
        check(len(args) == A.ARG_COUNTS[o], E.GL_INVALID_ENUM,
              f"{name}: {o} takes {A.ARG_COUNTS[o]} arguments")
        paired = pairs[-1][_COLOR] if pairs and not new_pair else None
        if kind == _ALPHA:
            check(not (o in A.DOT_OPS and (paired is None or paired.op != o)), E.GL_INVALID_OPERATION,
                  f"{name}: an alpha {o} needs the same colour instruction just before it")
            check(not (o != "DOT4" and paired is not None and paired.op == "DOT4"), E.GL_INVALID_OPERATION,
                  f"{name}: only DOT4_ATI may follow a colour DOT4_ATI")
        if kind == _COLOR and o == "DOT4":
            check(not any(a == E.GL_SECONDARY_INTERPOLATOR_ATI and rep in (E.GL_ALPHA, E.GL_NONE)
                          for a, rep, _m in args), E.GL_INVALID_OPERATION,
                  f"{name}: DOT4_ATI reads the secondary interpolator's alpha")
        parsed = tuple(self._atifs_arg(name, kind, a, rep, m) for a, rep, m in args)
        cons = {a.index for a in parsed if a.source == "con"}
        check(not (len(parsed) == 3 and len(cons) == 3), E.GL_INVALID_OPERATION,
              f"{name}: three different constants in one instruction")
        mask_bits = 0x8 if kind == _ALPHA else (0x7 if mask == E.GL_NONE else mask & 0x7)
        instr = A.Op(o, r, mask_bits, parsed, A.SCALES[_DST_MODS[scale]], bool(dst_mod & E.GL_SATURATE_BIT_ATI))
        if stage == 1 and any(a.source in ("primary", "secondary") for a in parsed):
            rec.color_in_first_pass = True
        if new_pair:
            pairs.append([None, None])
        pairs[-1][kind] = instr
        rec.last_type = kind
        rec.stage = stage

    def glColorFragmentOp1ATI(self, op, dst, dstMask, dstMod, arg1, arg1Rep, arg1Mod) -> None:
        self._atifs_op("glColorFragmentOp1ATI", _COLOR, op, dst, dstMask, dstMod, ((arg1, arg1Rep, arg1Mod),))

    def glColorFragmentOp2ATI(self, op, dst, dstMask, dstMod, arg1, arg1Rep, arg1Mod,
                              arg2, arg2Rep, arg2Mod) -> None:
        self._atifs_op("glColorFragmentOp2ATI", _COLOR, op, dst, dstMask, dstMod,
                       ((arg1, arg1Rep, arg1Mod), (arg2, arg2Rep, arg2Mod)))

    def glColorFragmentOp3ATI(self, op, dst, dstMask, dstMod, arg1, arg1Rep, arg1Mod,
                              arg2, arg2Rep, arg2Mod, arg3, arg3Rep, arg3Mod) -> None:
        self._atifs_op("glColorFragmentOp3ATI", _COLOR, op, dst, dstMask, dstMod,
                       ((arg1, arg1Rep, arg1Mod), (arg2, arg2Rep, arg2Mod), (arg3, arg3Rep, arg3Mod)))

    def glAlphaFragmentOp1ATI(self, op, dst, dstMod, arg1, arg1Rep, arg1Mod) -> None:
        self._atifs_op("glAlphaFragmentOp1ATI", _ALPHA, op, dst, E.GL_NONE, dstMod, ((arg1, arg1Rep, arg1Mod),))

    def glAlphaFragmentOp2ATI(self, op, dst, dstMod, arg1, arg1Rep, arg1Mod, arg2, arg2Rep, arg2Mod) -> None:
        self._atifs_op("glAlphaFragmentOp2ATI", _ALPHA, op, dst, E.GL_NONE, dstMod,
                       ((arg1, arg1Rep, arg1Mod), (arg2, arg2Rep, arg2Mod)))

    def glAlphaFragmentOp3ATI(self, op, dst, dstMod, arg1, arg1Rep, arg1Mod, arg2, arg2Rep, arg2Mod,
                              arg3, arg3Rep, arg3Mod) -> None:
        self._atifs_op("glAlphaFragmentOp3ATI", _ALPHA, op, dst, E.GL_NONE, dstMod,
                       ((arg1, arg1Rep, arg1Mod), (arg2, arg2Rep, arg2Mod), (arg3, arg3Rep, arg3Mod)))

    def glSetFragmentShaderConstantATI(self, dst: int, value) -> None:
        n = dst - _CON0
        check(0 <= n < A.NUM_CONSTANTS, E.GL_INVALID_ENUM, f"bad constant {dst:#x}")
        v = tuple(float(x) for x in list(value)[:4])
        check(len(v) == 4, E.GL_INVALID_VALUE, "4 values needed")
        if self._atifs_recording is not None:
            self._atifs_recording.constants[n] = v
        else:
            self._atifs_constants[n] = v

    # -- state -----------------------------------------------------------------------------
    @extends
    def _enable_caps(self, core) -> set[int]:
        caps = core()
        if self.api.compat and self.api.has_extension("GL_ATI_fragment_shader"):
            caps |= {E.GL_FRAGMENT_SHADER_ATI}
        return caps

    @extends
    def _legacy_get_entries(self, core) -> dict:
        t = core()
        if self.api.compat and self.api.has_extension("GL_ATI_fragment_shader"):
            t[E.GL_FRAGMENT_SHADER_ATI] = lambda c: E.GL_FRAGMENT_SHADER_ATI in c.state.enabled
            t.update({pname: (lambda c, v=v: v) for pname, v in _LIMITS.items()})
        return t

    # -- drawing ---------------------------------------------------------------------------
    def _atifs_active(self) -> AtiShaderObject | None:
        """The bound shader when it replaces the texture stages of this draw."""
        if (not self.api.compat or E.GL_FRAGMENT_SHADER_ATI not in self.state.enabled
                or self.current_program is not None or self.bound_pipeline is not None
                or E.GL_FRAGMENT_PROGRAM_ARB in self.state.enabled):
            return None
        obj = self._atifs_bound
        return obj if obj.shader is not None and self._atifs_recording is None else None

    @extends
    def _program_for_draw(self, core):
        obj = self._atifs_active()
        if obj is None:
            return core()
        units = self._ff_texture_units()
        sampled = obj.shader.texture_units()
        targets = {u.unit: _ARB_TARGETS.get(u.target) for u in units if u.unit in sampled}
        fog = _FOG_MODES.get(self.legacy.fog.mode) if E.GL_FOG in self.state.enabled else None
        key = (tuple(sorted(targets.items())), fog)
        pseudo = obj.programs.get(key)
        if pseudo is None:
            self._arb_serial += 1
            program = A.to_arb_program(obj.shader, targets, fog)
            pseudo = obj.programs[key] = ARBProgramObject(obj.name, E.GL_FRAGMENT_PROGRAM_ARB,
                                                          program.source.encode(), program, self._arb_serial,
                                                          self._atifs_constants)
        self.state.sprite_coord_mask = sum(1 << u for u in range(8) if self.legacy.texenv[u].coord_replace)
        self._track_color_material()
        vkey = self._arb_vertex_key_for(pseudo.program)
        self.state.ff_two_side = vkey.two_side
        self.state.ff_point_size = vkey.point_attenuation
        active = {"fragment": pseudo}
        draw_key = (("fixed", vkey), ("arb", pseudo.serial))
        prog = self._arb_draw_programs.get(draw_key)
        if prog is None:
            prog = self._arb_draw_programs[draw_key] = self._arb_link(active, vkey, None)
        self._arb_upload_parameters(prog, active)
        return prog


def _names(first: int, count: int):
    return range(first, first + count)
