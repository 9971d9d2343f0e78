"""Shader variants through the compiler (Mesa's agx_compile_variant).

Sole responsibility: compile one pipe shader CSO for one variant key with
``compiler.variant.compile_stage`` (the CSO holds the compiler's linked stage as
IR, ``compiler.variant.StageIR``: the variant key's passes run on a copy of it; no
GLSL is parsed and no AST read here, and nothing imported reaches the GLSL front
end) or the CSO's own front half (``front_half(key)``: ARB programs, SPIR-V,
geometry and tessellation kernels) and translate the result into an
``AgxShader``: the binary, the uniform registers the driver fills (the default
block, buffer and attribute addresses), the maps from the compiler's binding
slots to pipe slots (textures/samplers, UBOs, SSBOs, images), the vertex
outputs and the coefficient bindings of a fragment shader.

The default uniform block has one layout, the program's (``compiler.link.
DefaultBlock``, ``ShaderState.info["default_block"]``): the compiler places each
uniform at its offset there and the GL front end stores the values in it, so
constant buffer 0 is the block the shader reads, uploaded with one copy. The
compatibility profile's built-in state uniforms have one layout too, the
compiler's state block (``compiler.link.state_block``, bound at
``compiler.keys.STATE_BLOCK_UBO``), which the GL front end writes to the state
constant buffer: the compiler lists the ranges of it the
shader reads from uniform registers (``state_ranges``, one copy each, Mesa's
push ranges) and the shader reads the rest from that buffer itself."""

from __future__ import annotations

import importlib.util
import struct

from . import shader_cache
from .shader import AgxShader, CFBinding, Push

__all__ = ["compile_variant", "link_fragment_bindings", "available", "is_compile_error"]

# The compiler is imported on the first shader the cache does not hold (a
# process whose shaders all come from the on-disk cache never imports it).
available = importlib.util.find_spec("compiler.backend") is not None


def _compile_errors() -> tuple:
    if not available:
        return (NotImplementedError,)
    from compiler.backend import BackendError
    from compiler.lower.errors import LoweringError
    return (BackendError, LoweringError, NotImplementedError)


def is_compile_error(err: BaseException) -> bool:
    """Whether ``err`` is the compiler refusing a variant (the draw is skipped)."""
    return isinstance(err, _compile_errors())


def __getattr__(name):
    if name == "COMPILE_ERRORS":       # what a failed variant raises (imports the compiler)
        return _compile_errors()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _compile_stage(shader, key):
    from compiler.variant import compile_stage
    return compile_stage(shader, key)


def _block_options(state) -> dict:
    """The compile options placing the uniforms at the program's default block."""
    block = (state.info or {}).get("default_block")
    return block.lowering_options() if block is not None else {}


def _compile_front_half(front_half, key, source: str):
    """A shader whose ``ir`` has its own front half (``front_half(key) -> (IR,
    ShaderInfo)``, e.g. an ARB assembly program): the backend from its IR."""
    from compiler.backend import compile_ir
    return compile_ir(*front_half(key), source=source)


STAGE_NAMES = {0: "vertex", 4: "fragment", 5: "compute"}


def _memory_writes() -> frozenset:
    """The ISA operations whose writes other invocations or the API can see: stores
    and atomics of the ISA table, but those of threadgroup memory and the lane's stack."""
    from uapi.isa.table import OPS
    return frozenset(o.name for o in OPS if o.schedule_class in ("store", "atomic")
                     and not o.name.startswith(("local_", "stack_")))


def writes_memory(assembly: str) -> bool:
    """Whether a compiled program stores to buffers or images or runs atomics on them
    (a side effect that occluded fragments have too, unless the shader asks for early
    fragment tests)."""
    writes = _memory_writes()
    return any(line.split(None, 1)[0].split(".")[0] in writes for line in assembly.splitlines() if line.strip())


def _front_entry(front: dict, name: str):
    for cand in (name, name + "[0]", name[:-3] if name.endswith("[0]") else None):
        if cand and cand in front:
            return front[cand]
    return None


def _block_size(slots: dict) -> int:
    """Bytes of the default block (registers and UBO 0) the compiler's uniform slots reach."""
    return max([u.offset_B + u.size_B for u in slots.values() if u.ubo == 0] + [0])


def _with_profile(state, key):
    """The key plus the GLSL profile the GL front end compiled ``state.ir`` with
    (a bare ``#version 150`` in a compatibility context is compatibility): the
    front halves that parse their own source (geometry and tessellation kernels,
    ``front_half(key)``) read it from the key."""
    profile = getattr(state.ir, "profile", None)        # StageIR, LinkedShader
    if profile not in ("core", "compatibility"):
        profile = getattr(getattr(state.ir, "version", None), "profile", None)
    if profile not in ("core", "compatibility"):
        return key
    if key is None:
        from compiler.ir import ShaderKey
        return ShaderKey.make(profile=profile)
    return key.replace(profile=profile) if hasattr(key, "replace") else {**key, "profile": profile}


def _with_options(key, options: dict):
    """The key plus compile ``options`` (a front half reads them from its key)."""
    if not options:
        return key
    if key is None:
        from compiler.ir import ShaderKey
        return ShaderKey.make(**options)
    return key.replace(**options) if hasattr(key, "replace") else {**key, **options}


def _with_frag_outputs(key, info: dict):
    """The key plus the fragment outputs' locations and dual-source indices the
    link decided (layout qualifiers, glBindFragDataLocation[Indexed]), which the
    shader's colour stores follow."""
    fields = {}
    if info.get("frag_outputs"):
        fields["frag_output_locations"] = dict(info["frag_outputs"])
    if info.get("frag_output_indices"):
        fields["frag_output_indices"] = dict(info["frag_output_indices"])
    if not fields:
        return key
    if key is None:
        from compiler.ir import ShaderKey
        return ShaderKey.make(**fields)
    return key.replace(**fields) if hasattr(key, "replace") else {**key, **fields}


def compile_variant(state, key) -> AgxShader:
    if not available:
        raise NotImplementedError("the compiler backend is not available")
    stage = STAGE_NAMES[int(state.stage)]
    full_key = _with_profile(state, key)
    if stage == "fragment":
        full_key = _with_frag_outputs(full_key, state.info or {})
    front_half = getattr(state.ir, "front_half", None)   # another front end (compiler.arb's ARBShader)
    if front_half is not None:
        full_key = _with_options(full_key, _block_options(state))
        c = shader_cache.cached_compile("front_half\n" + state.source, stage, full_key,
                                        lambda: _compile_front_half(front_half, full_key, state.source))
    else:
        from compiler.variant import StageIR
        sir = state.ir
        if not isinstance(sir, StageIR):
            raise TypeError(f"a pipe shader's ir is a compiler.variant.StageIR or has its own front half, "
                            f"not {type(sir).__name__}")
        c = shader_cache.cached_compile(sir.digest, stage, full_key, lambda: _compile_stage(sir, full_key))
    info = c.info
    pinfo = state.info or {}
    default_words = (getattr(info, "uniform_regs_B", 0) + 3) // 4
    push = []
    if default_words:
        push.append(Push(0, 2 * default_words, "default"))
    for s in c.uniforms:
        if s.kind == "constant":        # a promoted constant: the value itself
            push.append(Push(2 * s.index, 2, "const", data=struct.pack("<I", s.binding)))
            continue
        push.append(Push(2 * s.index, 2 * s.words, s.kind, index=s.binding))
    # binding maps: compiler slot -> pipe slot
    texture_map = {}
    for name, o in info.samplers.items():
        entry = _front_entry(pinfo.get("samplers", {}), name)
        first = entry[0] if entry else o.slot
        for i in range(o.count):
            texture_map[o.slot + i] = first + i
    image_units = {}
    for name, o in info.images.items():
        entry = _front_entry(pinfo.get("images", {}), name)
        for i in range(o.count):
            image_units[o.slot + i] = (entry[0] + 16 * i) if entry else None
    ubo_map = {0: None}
    from compiler.keys import STATE_BLOCK as state_block
    for name, idx in info.ubos.items():
        # (the built-in state block: the state constant buffer the GL front end fills)
        ubo_map[idx] = pinfo.get("state_constant_buffer", 15) if name == state_block else \
            pinfo.get("uniform_blocks", {}).get(name, idx)
    ssbo_map = {}
    for name, idx in info.ssbos.items():
        ssbo_map[idx] = pinfo.get("storage_blocks", {}).get(name, idx)
    for name, o in getattr(info, "atomic_counters", {}).items():
        if o.binding is not None:
            ssbo_map.setdefault(32 + o.binding, pinfo.get("atomic_counter_buffers", {}).get(o.binding, o.binding))
    shader = AgxShader(stage=stage, binary=c.binary, register_count=max(8, c.regs32 + 1),
                       scratch_size_B=c.scratch_B, push=tuple(push),
                       textures=max(list(texture_map) + [-1]) + 1, samplers=max(list(texture_map) + [-1]) + 1,
                       writes_depth=c.writes_depth, writes_sample_mask=c.writes_sample_mask, discards=c.discards,
                       reads_tile=c.reads_tile, reads_zs=getattr(c, "reads_zs", False), per_sample=c.per_sample,
                       shared_B=c.local_memory_B,
                       local_size=tuple(c.local_size) if c.local_size else (1, 1, 1))
    shader.info.update(compiled=c, shader_info=info,
                       program_block=pinfo.get("default_block") is not None,
                       state_ranges=tuple(getattr(info, "state_ranges", ())),
                       state_cb=pinfo.get("state_constant_buffer", 15),
                       registers_base_B=getattr(info, "uniform_regs_base_B", 0), registers_B=4 * default_words,
                       default_size_B=max(_block_size(info.uniforms),
                                          getattr(info, "uniform_regs_base_B", 0) + 4 * default_words),
                       texture_map=texture_map, image_units=image_units, ubo_map=ubo_map, ssbo_map=ssbo_map,
                       uses_instance_id="instance_id" in c.assembly,
                       writes_memory=writes_memory(c.assembly),
                       early_fragment_tests=bool(pinfo.get("early_fragment_tests")),
                       post_depth_coverage=bool(pinfo.get("post_depth_coverage")),
                       blend_color=info.uniforms.get("shimgl_BlendColor"),
                       draw_id=info.uniforms.get("shimgl_DrawID"),
                       alpha_ref=info.uniforms.get("shimgl_AlphaRef"),
                       poly_stipple=info.uniforms.get("shimgl_PolygonStippleRows"),
                       output_filter=info.uniforms.get("shimgl_OutputFilter"))
    if stage == "vertex":
        _vertex_outputs(shader, c, info)
    elif stage == "fragment":
        shader.cf_count = max(c.cf_count, 2)
        shader.info["point_coord_cf"] = getattr(c, "point_coord_cf", None)
        shader.info["line_stipple_cf"] = getattr(c, "line_stipple_cf", None)
        shader.info["line_smooth"] = bool(full_key.get("line_smooth", False))    # the PPP's line_smooth
    return shader


def _vertex_outputs(shader: AgxShader, c, info) -> None:
    counts = {"smooth": 0, "flat": 0, "noperspective": 0}
    words = {}
    for v in info.varyings:
        if v.slot == "POS":
            continue
        if v.slot == "PSIZ":
            shader.point_size = True
            continue
        if v.slot.startswith("CLIP"):
            shader.clip_distances |= (1 << v.words) - 1
            continue
        if v.slot == "CULL":
            shader.cull_distances |= (1 << v.words) - 1
            continue
        counts[v.interp] += v.words
        words[v.name] = v
    shader.smooth_32, shader.flat_32, shader.linear_32 = counts["smooth"], counts["flat"], counts["noperspective"]
    shader.output_count_words = max(4, c.vertex_outputs or info.vertex_outputs)
    shader.info["varyings"] = words
    shader.info["attributes"] = {a.location: a for a in info.attributes.values()}


_SHADE = {"flat": "FLAT", "noperspective": "LINEAR", "smooth": "PERSPECTIVE"}


def _texcoord_unit(name: str) -> int:
    """First unit of a gl_TexCoord input: "gl_TexCoord[3]" -> 3, "gl_TexCoord" -> 0."""
    return int(name[len("gl_TexCoord["):-1]) if name.endswith("]") else 0


def link_fragment_bindings(vs: AgxShader, fs: AgxShader, flat_shade: bool = False,
                           sprite_coords: int = 0) -> tuple[CFBinding, ...]:
    """Coefficient bindings of a (vertex, fragment) pair: cf0 = W (slot 0), cf1 = window Z,
    then each fragment input from the vertex output of the same location (both
    explicit, GLSL 4.60 section 4.4.1: separable programs meet that way), else of
    the same name (remapped slot =
    output word - 3: slot 0 is W and the user words follow). `sprite_coords` bit u
    (points with GL_COORD_REPLACE on unit u, compatibility profile): s, t of
    gl_TexCoord[u] come from the POINT_COORD source instead (r, q stay the vertex's)."""
    out = [CFBinding(0, 0, 1, "LINEAR"), CFBinding(0, 1, 1, "LINEAR", "FRAGCOORD_Z")]
    fsi = fs.info.get("shader_info")
    vouts = vs.info.get("varyings", {})
    vouts_by_location = {w.location: w for w in vouts.values() if w.location is not None}
    pc = fs.info.get("point_coord_cf")
    if pc is not None:
        out.append(CFBinding(0, pc, 2, "LINEAR", "POINT_COORD"))
    stipple = fs.info.get("line_stipple_cf")
    if stipple is not None:
        out.append(CFBinding(0, stipple, 1, "LINEAR", "LINE_STIPPLE"))
    if fsi is None:
        return tuple(out)
    for v in fsi.varyings:
        w = vouts_by_location.get(v.location) if v.location is not None else None
        w = w or vouts.get(v.name)
        replaced = [loc for loc in range(v.locations) if sprite_coords >> (_texcoord_unit(v.name) + loc) & 1] \
            if sprite_coords and v.name.startswith("gl_TexCoord") else []
        for loc in replaced:
            out.append(CFBinding(0, v.index + loc * v.components, 2, "LINEAR", "POINT_COORD"))
        if w is None:
            continue
        per = v.components
        shade = _SHADE.get(v.interp, "PERSPECTIVE")
        if flat_shade and v.name in ("gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor",
                                     "gl_BackSecondaryColor", "gl_Color", "gl_SecondaryColor"):
            shade = "FLAT"
        for loc in range(v.locations):
            if loc in replaced:
                if per > 2:
                    out.append(CFBinding(w.index + loc * w.components - 3 + 2, v.index + loc * per + 2,
                                         per - 2, shade))
                continue
            out.append(CFBinding(w.index + loc * w.components - 3, v.index + loc * per, per, shade))
    return tuple(out)
