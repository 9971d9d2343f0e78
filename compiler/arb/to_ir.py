"""ARB programs -> the compiler's IR (the idea of Mesa's prog_to_nir).

The interface of a program -- which GL inputs it reads, which outputs it
writes, which GL state, program.env and program.local vectors it binds, which
texture units it samples -- is written once as a small GLSL 1.20 compatibility
*interface* shader (``interface_source``): globals ``shimgl_in<k>`` /
``shimgl_p<k>`` assigned from the GL built-ins (``gl_Vertex``,
``gl_LightSource[n].diffuse``, rows of ``gl_ModelViewProjectionMatrix``, ...),
the outputs it writes, one ``uniform vec4`` array for program.env and one for
program.local (``env_uniform``/``local_uniform``) and one sampler per texture unit. The GL driver links
that shader like any other (uniform locations, samplers, attribute locations,
the compatibility state block), and the compiler lowers it with the GLSL
front end's interface lowering (``compiler.lower.io``: the same varying slots,
uniform files and fragment epilogue as GLSL). The *instructions* are translated
here straight to IR with the IR builder, between the interface's prologue and
its output stores: every ARB register is a vec4 ``function_temp`` variable
(address registers an int), every instruction one or a few IR ops with the
swizzle, negation, write mask and saturation of the operands, and
``lower_vars_to_ssa`` turns the registers into SSA.

``ARBShader(program)`` carries the program, the interface source and its
typed AST; ``front_half(key) -> (ir.Shader, ShaderInfo)`` is what a hardware
driver calls instead of compiling GLSL text.

Instruction semantics follow the two specifications (section 2.14.5 of
ARB_vertex_program, 3.11.5 of ARB_fragment_program): RSQ and LOG take |x|,
EXP/LOG give their four-component approximations, LIT clamps and computes the
specular term only for positive N.L, DST, XPD (w = 1), SCS (z = 0, w = 1),
CMP, LRP, KIL (discard when any component < 0), TEX/TXP/TXB (projective
divide by w, LOD bias from w), ARL (floor to int), ARB_fog_* (the fog blend
after the program, from fragment.fogcoord.x and state.fog).
"""

from __future__ import annotations

from compiler.glsl import parse
from compiler.ir import ArrayType, VecType

from .program import ParamBinding, Program

# the linear fog blend's scale (ARB_fog_linear here, the fixed-function fog of
# driver/gl/legacy/ffgen.py): gl_Fog.scale, 1 / (end - start), but 1 when start == end,
# where gl_Fog.scale is infinite and Mesa's blend takes 1 (f = end - c)
FOG_BLEND_SCALE = "(gl_Fog.end == gl_Fog.start ? 1.0 : gl_Fog.scale)"

__all__ = ["ARBShader", "interface_source", "arb_front_half", "env_uniform", "local_uniform",
           "program_matrix_uniform", "sampler_uniform", "attrib_name"]
_VEC4 = VecType("float", 32, 4)
_INT = VecType("int", 32, 1)

_SAMPLER_TYPES = {"1D": "sampler1D", "2D": "sampler2D", "3D": "sampler3D", "CUBE": "samplerCube",
                  "RECT": "sampler2DRect", "SHADOW1D": "sampler1DShadow", "SHADOW2D": "sampler2DShadow",
                  "SHADOWRECT": "sampler2DRectShadow"}
# target -> (IR dimension, coordinate components); SHADOW* compare against the coordinate's r (z)
_TEX_DIMS = {"1D": ("1d", 1), "2D": ("2d", 2), "3D": ("3d", 3), "CUBE": ("cube", 3), "RECT": ("rect", 2),
             "SHADOW1D": ("1d", 1), "SHADOW2D": ("2d", 2), "SHADOWRECT": ("rect", 2)}
_MATRICES = {"modelview": "gl_ModelViewMatrix", "projection": "gl_ProjectionMatrix",
             "mvp": "gl_ModelViewProjectionMatrix", "texture": "gl_TextureMatrix"}
_MODIFIERS = {"": "", "inverse": "Inverse", "transpose": "Transpose", "invtrans": "InverseTranspose"}


def env_uniform(target: str) -> str:
    """The uniform array holding program.env of ``target`` ("vertex"/"fragment"):
    the two stages of a draw have separate env (and local) arrays, so the names differ."""
    return f"shimgl_{target.capitalize()}ProgramEnv"


def local_uniform(target: str) -> str:
    return f"shimgl_{target.capitalize()}ProgramLocal"


def program_matrix_uniform(target: str) -> str:
    """The uniform array of the program-matrix rows (state.matrix.program[n]...)
    a program of ``target`` reads: element k is row ``rows[k] = (n, modifier,
    row)`` of ``ARBShader.interface.matrix_rows`` (the compatibility state block
    has no program matrices; the driver writes these rows)."""
    return f"shimgl_{target.capitalize()}ProgramMatrixRows"


def sampler_uniform(unit: int) -> str:
    """The interface shader's sampler of texture image unit ``unit``."""
    return f"shimgl_Texture{unit}"


def attrib_name(n: int) -> str:
    """The interface shader's generic attribute ``vertex.attrib[n]`` (n > 0;
    attribute 0 is the vertex position, ``gl_Vertex``)."""
    return f"shimgl_Attrib{n}"


def _input_expr(binding: str) -> str:
    if binding.startswith("vertex.texcoord["):
        return f"gl_MultiTexCoord{binding[len('vertex.texcoord['):-1]}"
    if binding.startswith("vertex.attrib["):
        n = int(binding[len("vertex.attrib["):-1])
        return "gl_Vertex" if n == 0 else attrib_name(n)
    if binding.startswith("fragment.texcoord["):
        return f"gl_TexCoord[{binding[len('fragment.texcoord['):-1]}]"
    return {"vertex.position": "gl_Vertex", "vertex.normal": "vec4(gl_Normal, 1.0)",
            "vertex.color.primary": "gl_Color", "vertex.color.secondary": "gl_SecondaryColor",
            "vertex.fogcoord": "vec4(gl_FogCoord, 0.0, 0.0, 1.0)",
            "fragment.color.primary": "gl_Color", "fragment.color.secondary": "gl_SecondaryColor",
            "fragment.fogcoord": "vec4(gl_FogFragCoord, 0.0, 0.0, 1.0)",
            "fragment.position": "gl_FragCoord"}[binding]


def _state_expr(state: tuple) -> str:
    """The GLSL expression of one vec4 of GL state (ARB_vertex_program tables
    X.2.3-X.2.14, ARB_fragment_program table 3.x) over the compatibility
    built-in uniforms."""
    kind = state[0]
    if kind == "material":
        _k, face, prop = state
        m = f"gl_{'Front' if face == 'front' else 'Back'}Material"
        return f"vec4({m}.shininess, 0.0, 0.0, 1.0)" if prop == "shininess" else f"{m}.{prop}"
    if kind == "light":
        _k, n, prop = state
        li = f"gl_LightSource[{n}]"
        if prop == "attenuation":
            return (f"vec4({li}.constantAttenuation, {li}.linearAttenuation, {li}.quadraticAttenuation, "
                    f"{li}.spotExponent)")
        if prop == "spot.direction":
            return f"vec4({li}.spotDirection.xyz, {li}.spotCosCutoff)"
        if prop == "half":
            return f"vec4({li}.halfVector.xyz, 1.0)"
        return f"{li}.{prop}"
    if kind == "lightmodel":
        if state[1] == "ambient":
            return "gl_LightModel.ambient"
        return f"gl_{'Front' if state[1] == 'front' else 'Back'}LightModelProduct.sceneColor"
    if kind == "lightprod":
        _k, n, face, prop = state
        side = "Front" if face == "front" else "Back"
        # rgb: light x material; alpha: the material's (as Mesa and NVIDIA; piglit checks it)
        return f"vec4(gl_{side}LightProduct[{n}].{prop}.rgb, gl_{side}Material.{prop}.a)"
    if kind == "texgen":
        _k, n, space, coord = state
        return f"gl_{'Eye' if space == 'eye' else 'Object'}Plane{coord.upper()}[{n}]"
    if kind == "texenv":
        return f"gl_TextureEnvColor[{state[1]}]"
    if kind == "fog":
        return "gl_Fog.color" if state[1] == "color" else \
            "vec4(gl_Fog.density, gl_Fog.start, gl_Fog.end, gl_Fog.scale)"
    if kind == "clip":
        return f"gl_ClipPlane[{state[1]}]"
    if kind == "point":
        if state[1] == "size":
            return "vec4(gl_Point.size, gl_Point.sizeMin, gl_Point.sizeMax, gl_Point.fadeThresholdSize)"
        return ("vec4(gl_Point.distanceConstantAttenuation, gl_Point.distanceLinearAttenuation, "
                "gl_Point.distanceQuadraticAttenuation, 1.0)")
    if kind == "depth":
        return "vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 1.0)"
    if kind == "matrix":
        _k, name, index, modifier, row = state
        m = _MATRICES[name] + _MODIFIERS[modifier]
        if name == "texture":
            m += f"[{index}]"
        return f"vec4({m}[0][{row}], {m}[1][{row}], {m}[2][{row}], {m}[3][{row}])"
    raise ValueError(f"unknown state {state}")


_OUTPUTS = {"result.position": "gl_Position", "result.color.front.primary": "gl_FrontColor",
            "result.color.front.secondary": "gl_FrontSecondaryColor", "result.color.back.primary": "gl_BackColor",
            "result.color.back.secondary": "gl_BackSecondaryColor", "result.fogcoord": "gl_FogFragCoord",
            "result.pointsize": "gl_PointSize", "result.depth": "gl_FragDepth"}
_SCALAR_OUTPUTS = {"gl_FogFragCoord": 0, "gl_PointSize": 0, "gl_FragDepth": 2}   # component stored


class _Interface:
    """The interface shader's text and where each binding's value lives."""

    def __init__(self, prog: Program):
        self.prog = prog
        self.inputs: dict[str, str] = {}          # input binding -> global name
        self.params: dict[ParamBinding, str] = {}  # non-constant param element -> global name
        self.outputs: dict[str, str] = {}          # output binding -> GLSL lvalue
        vp = prog.target == "vertex"
        decls, body = ["#version 120"], []
        if any(t in ("RECT", "SHADOWRECT") for t in prog.textures.values()):
            decls.insert(1, "#extension GL_ARB_texture_rectangle : enable")
        coord = [q for o, q in (("ARB_fragment_coord_origin_upper_left", "origin_upper_left"),
                                ("ARB_fragment_coord_pixel_center_integer", "pixel_center_integer"))
                 if o in prog.options]
        if coord:       # ARB_fragment_coord_conventions' options: gl_FragCoord's layout
            decls.insert(1, "#extension GL_ARB_fragment_coord_conventions : enable")
            decls.append(f"layout({', '.join(coord)}) in vec4 gl_FragCoord;")
        # the parameter elements instructions read (a relatively addressed array: all of it)
        used: list[ParamBinding] = []
        for ins in prog.instructions:
            for src in ins.srcs:
                if src.file == "param":
                    elements = prog.params[src.name].elements
                    for e in (elements if src.relative is not None else [elements[src.index]]):
                        if e not in used:
                            used.append(e)
        env = [e.index for e in used if e.kind == "env"]
        local = [e.index for e in used if e.kind == "local"]
        env_name, local_name = env_uniform(prog.target), local_uniform(prog.target)
        self.matrix_rows: list[tuple] = []       # (program matrix, modifier, row) per element
        for e in used:
            if e.kind == "state" and e.state[:2] == ("matrix", "program") and e.state[2:] not in self.matrix_rows:
                self.matrix_rows.append(e.state[2:])
        if self.matrix_rows:
            decls.append(f"uniform vec4 {program_matrix_uniform(prog.target)}[{len(self.matrix_rows)}];")
        if env:
            decls.append(f"uniform vec4 {env_name}[{max(env) + 1}];")
        if local:
            decls.append(f"uniform vec4 {local_name}[{max(local) + 1}];")
        for unit, target in sorted(prog.textures.items()):
            decls.append(f"uniform {_SAMPLER_TYPES[target]} {sampler_uniform(unit)};")
            coord = {"1D": "0.0", "2D": "vec2(0.0)", "RECT": "vec2(0.0)"}.get(target, "vec3(0.0)")
            fn = {"1D": "texture1D", "2D": "texture2D", "3D": "texture3D", "CUBE": "textureCube",
                  "RECT": "texture2DRect", "SHADOW1D": "shadow1D", "SHADOW2D": "shadow2D",
                  "SHADOWRECT": "shadow2DRect"}[target]
            # a use, so the linker keeps the sampler active (the result is dead)
            body.append(f"shimgl_unused += {fn}({sampler_uniform(unit)}, {coord});")
        if prog.textures:
            decls.append("vec4 shimgl_unused;")
        for k, binding in enumerate(sorted(prog.inputs)):
            if binding.startswith("vertex.attrib[") and binding != "vertex.attrib[0]":
                decls.append(f"attribute vec4 {attrib_name(int(binding[len('vertex.attrib['):-1]))};")
            name = f"shimgl_in{k}"
            decls.append(f"vec4 {name};")
            body.append(f"{name} = {_input_expr(binding)};")
            self.inputs[binding] = name
        for e in used:
            if e.kind == "const":
                continue
            name = f"shimgl_p{len(self.params)}"
            decls.append(f"vec4 {name};")
            if e.kind in ("env", "local"):
                value = f"{env_name if e.kind == 'env' else local_name}[{e.index}]"
            elif e.state[:2] == ("matrix", "program"):
                value = f"{program_matrix_uniform(prog.target)}[{self.matrix_rows.index(e.state[2:])}]"
            else:
                value = _state_expr(e.state)
            body.append(f"{name} = {value};")
            self.params[e] = name
        for binding in sorted(prog.outputs):
            if binding.startswith("result.texcoord["):
                lv = f"gl_TexCoord[{binding[len('result.texcoord['):-1]}]"
            elif binding.startswith("result.color["):
                n = int(binding[len("result.color["):-1])
                lv = f"gl_FragData[{n}]" if "ARB_draw_buffers" in prog.options else "gl_FragColor"
            else:
                lv = _OUTPUTS[binding]
            self.outputs[binding] = lv
            zero = "0.0" if lv in _SCALAR_OUTPUTS else "vec4(0.0)"
            body.append(f"{lv} = {zero};")
        if vp and prog.position_invariant:
            # the fixed-function transform, and user clip planes in eye space as it has them
            body += ["gl_Position = ftransform();", "gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;"]
        if prog.fog_option:
            decls += ["vec4 shimgl_fog_params;", "vec4 shimgl_fog_color;", "float shimgl_fog_coord;"]
            body += [f"shimgl_fog_params = vec4(gl_Fog.density, gl_Fog.start, gl_Fog.end, {FOG_BLEND_SCALE});",
                     "shimgl_fog_color = gl_Fog.color;", "shimgl_fog_coord = gl_FogFragCoord;"]
        # The program's text closes the source as a comment: two programs with the same
        # interface still have different sources (compiled-shader caches key on it).
        text = "".join(ch if " " <= ch <= "~" or ch == "\n" else " " for ch in prog.source.replace("\r\n", "\n"))
        listing = ["// " + line.rstrip("\\ ") for line in text.split("\n")]
        self.source = "\n".join(decls + ["void main() {"] + ["    " + s for s in body] + ["}"] + listing + [""])


def interface_source(prog: Program) -> str:
    """The GLSL 1.20 interface shader of ``prog`` (see the module docstring)."""
    return _Interface(prog).source


class ARBShader:
    """One ARB program as a pipe shader's ``ir``: ``source`` (the interface
    shader's GLSL), ``unit`` (its typed AST, which the GL linker reads),
    ``front_half(key)``."""

    def __init__(self, prog: Program):
        self.program = prog
        self.interface = _Interface(prog)
        self.source = self.interface.source
        self.unit = parse(self.source, prog.target, compat_context=True, require_main=True)

    @property
    def version(self):
        return self.unit.version

    def front_half(self, key=None):
        return arb_front_half(self, key)


def arb_front_half(shader: ARBShader, key=None):
    """(optimised IR, ShaderInfo) of an ARB program for variant ``key``: the
    interface's prologue, the translated instructions, the interface's output
    stores and fragment epilogue, then the GLSL path's pass pipeline."""
    from compiler.variant import shader_info
    from compiler.lower.stage import translated_front_half

    ir, io = translated_front_half(shader.unit, key, lambda L: _Translator(shader, L).run())
    return ir, shader_info(ir, io, shader.unit)


class _Translator:
    def __init__(self, shader: ARBShader, L):
        self.prog = shader.program
        self.iface = shader.interface
        self.L = L
        self.b = L.b
        self.globals = {g.name: g for g in L.unit.globals}
        self.builtins = {v.name: v for v in L.unit.builtin_variables}

    def global_var(self, name):
        var, path = self.L.vars[self.globals[name]]
        assert not path
        return var

    # ------------------------------------------------------------ registers
    def run(self) -> None:
        b, prog = self.b, self.prog
        self.regs = {}
        for t in prog.temps:
            self.regs[t] = b.local_var(f"arb.{t}", _VEC4)
            b.store_var(self.regs[t], b.fimm([0.0, 0.0, 0.0, 0.0]))
        for a in prog.address_regs:
            self.regs[a] = b.local_var(f"arb.{a}", _INT)
            b.store_var(self.regs[a], b.iimm(0))
        self.outs = {}
        for binding in prog.outputs:
            self.outs[binding] = b.local_var(f"arb.{binding}", _VEC4)
            b.store_var(self.outs[binding], b.fimm([0.0, 0.0, 0.0, 1.0]))
        self.arrays = {}
        for ins in prog.instructions:
            for s in ins.srcs:
                if s.relative is not None and s.name not in self.arrays:
                    arr = prog.params[s.name]
                    var = b.local_var(f"arb.{s.name}", ArrayType(_VEC4, len(arr.elements)))
                    for i, e in enumerate(arr.elements):
                        b.store_deref(b.deref_array(b.deref_var(var), i), self.param_value(e))
                    self.arrays[s.name] = var
        for ins in prog.instructions:
            self.instruction(ins)
        self.store_outputs()

    def param_value(self, e: ParamBinding):
        if e.kind == "const":
            return self.b.fimm(list(e.value))
        return self.b.load_var(self.global_var(self.iface.params[e]))

    def read(self, s):
        b = self.b
        if s.file == "temp":
            v = b.load_var(self.regs[s.name])
        elif s.file == "input":
            v = b.load_var(self.global_var(self.iface.inputs[s.name]))
        elif s.relative is not None:
            addr, offset = s.relative
            idx = b.load_var(self.regs[addr])
            if offset:
                idx = b.iadd(idx, b.iimm(offset))
            n = len(self.prog.params[s.name].elements)
            # out-of-range relative reads are undefined (spec); clamp so the load stays inside
            idx = b.imax(b.imin(idx, b.iimm(n - 1)), b.iimm(0))
            v = b.load_deref(b.deref_array(b.deref_var(self.arrays[s.name]), idx))
        else:
            v = self.param_value(self.prog.params[s.name].elements[s.index])
        if s.extended is not None:
            comps = []
            for c, neg in s.extended:
                x = b.fimm(float(c)) if isinstance(c, str) else b.channel(v, c)
                comps.append(b.fneg(x) if neg else x)
            return b.vec(*comps)
        if s.swizzle != (0, 1, 2, 3):
            v = b.swizzle(v, s.swizzle)
        return b.fneg(v) if s.negate else v

    def write(self, ins, value) -> None:
        b, d = self.b, ins.dst
        if value.num_components == 1:
            value = b.vec(value, value, value, value)
        if ins.sat:
            value = b.fsat(value)
        var = self.regs[d.name] if d.file == "temp" else self.outs[d.name]
        b.store_var(var, value, write_mask=d.mask)

    # ------------------------------------------------------------ instructions
    def instruction(self, ins) -> None:
        b = self.b
        op = ins.opcode
        src = [self.read(s) for s in ins.srcs]

        def x(v):
            return b.channel(v, 0)

        def xyz(v):
            return b.swizzle(v, (0, 1, 2))
        if op == "ARL":
            b.store_var(self.regs[ins.dst.name], b.f2i32(b.ffloor(x(src[0]))))
            return
        if op == "KIL":
            v = src[0]
            low = b.fmin(b.fmin(b.channel(v, 0), b.channel(v, 1)), b.fmin(b.channel(v, 2), b.channel(v, 3)))
            b.intrinsic("discard_if", b.flt(low, b.fimm(0.0)))
            return
        one, zero = b.fimm(1.0), b.fimm(0.0)
        simple = {"ABS": b.fabs, "FLR": b.ffloor, "FRC": b.ffract, "MOV": lambda a: a, "SWZ": lambda a: a}
        if op in simple:
            r = simple[op](src[0])
        elif op in ("ADD", "SUB", "MUL", "MAX", "MIN"):
            r = {"ADD": b.fadd, "SUB": b.fsub, "MUL": b.fmul, "MAX": b.fmax, "MIN": b.fmin}[op](src[0], src[1])
        elif op == "MAD":
            r = b.fadd(b.fmul(src[0], src[1]), src[2])
        elif op == "DP3":
            r = b.fdot3(xyz(src[0]), xyz(src[1]))
        elif op == "DP4":
            r = b.fdot4(src[0], src[1])
        elif op == "DPH":
            r = b.fadd(b.fdot3(xyz(src[0]), xyz(src[1])), b.channel(src[1], 3))
        elif op == "DST":
            a, c = src
            r = b.vec(one, b.fmul(b.channel(a, 1), b.channel(c, 1)), b.channel(a, 2), b.channel(c, 3))
        elif op == "SGE":
            r = b.b2f32(b.fge(src[0], src[1]))
        elif op == "SLT":
            r = b.b2f32(b.flt(src[0], src[1]))
        elif op == "EX2":
            r = b.fexp2(x(src[0]))
        elif op == "LG2":
            r = b.flog2(x(src[0]))
        elif op == "RCP":
            r = b.frcp(x(src[0]))
        elif op == "RSQ":
            r = b.frsq(b.fabs(x(src[0])))
        elif op == "POW":
            r = b.fpow(x(src[0]), x(src[1]))
        elif op == "SIN":
            r = b.fsin(x(src[0]))
        elif op == "COS":
            r = b.fcos(x(src[0]))
        elif op == "SCS":
            r = b.vec(b.fcos(x(src[0])), b.fsin(x(src[0])), zero, one)
        elif op == "EXP":
            t = x(src[0])
            fl = b.ffloor(t)
            r = b.vec(b.fexp2(fl), b.fsub(t, fl), b.fexp2(t), one)
        elif op == "LOG":
            t = b.fabs(x(src[0]))
            lg = b.flog2(t)
            fl = b.ffloor(lg)
            r = b.vec(fl, b.fmul(t, b.fexp2(b.fneg(fl))), lg, one)
        elif op == "LIT":
            s = src[0]
            nl = b.fmax(b.channel(s, 0), zero)
            nh = b.fmax(b.channel(s, 1), zero)
            e = b.fmin(b.fmax(b.channel(s, 3), b.fimm(-128.0)), b.fimm(128.0))
            spec = b.bcsel(b.flt(zero, nl), b.fpow(nh, e), zero)
            r = b.vec(one, nl, spec, one)
        elif op == "XPD":
            a, c = src

            def ch(v, i):
                return b.channel(v, i)
            r = b.vec(b.fsub(b.fmul(ch(a, 1), ch(c, 2)), b.fmul(ch(a, 2), ch(c, 1))),
                      b.fsub(b.fmul(ch(a, 2), ch(c, 0)), b.fmul(ch(a, 0), ch(c, 2))),
                      b.fsub(b.fmul(ch(a, 0), ch(c, 1)), b.fmul(ch(a, 1), ch(c, 0))), one)
        elif op == "CMP":
            r = b.bcsel(b.flt(src[0], b.fimm([0.0] * 4)), src[1], src[2])
        elif op == "LRP":
            a, c, d = src
            r = b.fadd(b.fmul(a, c), b.fmul(b.fsub(b.fimm([1.0] * 4), a), d))
        elif op in ("TEX", "TXP", "TXB"):
            r = self.texture(ins, src[0])
        else:
            raise NotImplementedError(f"ARB instruction {op}")
        self.write(ins, r)

    def texture(self, ins, coord):
        b = self.b
        dim, n = _TEX_DIMS[ins.target]
        slot = self.L.io.samplers[sampler_uniform(ins.unit)].slot
        shadow = ins.target.startswith("SHADOW")
        c = coord
        if ins.opcode == "TXP" and ins.target != "CUBE":
            c = b.fmul(coord, b.frcp(b.channel(coord, 3)))
        kw = dict(texture=slot, sampler=slot, dim=dim, num_components=1 if shadow else 4,
                  coord=b.channel(c, 0) if n == 1 else b.swizzle(c, tuple(range(n))))
        if shadow:
            kw.update(is_shadow=True, comparator=b.channel(c, 2))
        if self.prog.target == "vertex":
            r = b.tex("txl", lod=b.fimm(0.0), **kw)
        elif ins.opcode == "TXB":
            r = b.tex("txb", bias=b.channel(coord, 3), **kw)
        else:
            r = b.tex("tex", **kw)
        # a comparison result reads as depth texture mode LUMINANCE: (r, r, r, 1)
        return b.vec(r, r, r, b.fimm(1.0)) if shadow else r

    # ------------------------------------------------------------ outputs
    def store_outputs(self) -> None:
        b, L = self.b, self.L
        fog = self.prog.fog_option
        for binding, lv in self.iface.outputs.items():
            value = b.load_var(self.outs[binding])
            if fog and binding == "result.color[0]":
                value = self.apply_fog(value, fog)
            if lv.startswith("gl_TexCoord["):
                var = L.vars[self.builtins["gl_TexCoord"]][0]
                b.store_deref(b.deref_array(b.deref_var(var), int(lv[len("gl_TexCoord["):-1])), value)
            elif lv.startswith("gl_FragData["):
                var = L.vars[self.builtins["gl_FragData"]][0]
                b.store_deref(b.deref_array(b.deref_var(var), int(lv[len("gl_FragData["):-1])), value)
            else:
                var = L.vars[self.builtins[lv]][0]
                if lv in _SCALAR_OUTPUTS:
                    value = b.channel(value, _SCALAR_OUTPUTS[lv])
                b.store_var(var, value)

    def apply_fog(self, colour, mode: str):
        """ARB_fog_*: colour.rgb = mix(fog colour, colour, f), f from the fog
        coordinate and state.fog.params (density, start, end, 1/(end-start))."""
        b = self.b
        params = b.load_var(self.global_var("shimgl_fog_params"))
        fog_colour = b.load_var(self.global_var("shimgl_fog_color"))
        c = b.load_var(self.global_var("shimgl_fog_coord"))
        if mode == "linear":
            f = b.fmul(b.fsub(b.channel(params, 2), c), b.channel(params, 3))
        else:
            d = b.fmul(b.channel(params, 0), c)
            if mode == "exp2":
                d = b.fmul(d, d)
            f = b.fexp2(b.fmul(b.fneg(d), b.fimm(1.4426950408889634)))
        f = b.fsat(f)
        rgb = b.swizzle(colour, (0, 1, 2))
        frgb = b.swizzle(fog_colour, (0, 1, 2))
        mixed = b.fadd(frgb, b.fmul(b.vec(f, f, f), b.fsub(rgb, frgb)))
        return b.vec(b.channel(mixed, 0), b.channel(mixed, 1), b.channel(mixed, 2), b.channel(colour, 3))
