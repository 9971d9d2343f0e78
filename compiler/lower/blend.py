"""Fragment outputs and blending, lowered into the shader as on AGX (no
fixed-function blender; Mesa's nir_lower_blend + agx_nir_lower_tilebuffer).

The variant key carries the state (``ShaderKey`` field ``render_targets``: a tuple
of ``RenderTarget``; default: one RGBA unorm8 target at tile offset 0, no
blending). For each render target i the epilogue

1. takes the colour written to location i (``gl_FragData[i]``, the ``out``
   variable at location i, or ``gl_FragColor`` broadcast to every target);
2. applies the compatibility alpha test (``key["alpha_func"]``: never, less,
   equal, lequal, greater, notequal, gequal; reference from the uniform
   ``shimgl_AlphaRef``), alpha-to-coverage (``key["alpha_to_coverage"]`` with
   ``key["samples"]``) and alpha-to-one, on target 0's alpha; before them, with
   ``key["line_smooth"]`` (antialiased lines), every floating-point colour's alpha
   is multiplied by the fragment's coverage, ``clamp(min(u0, u1), 0, 1)`` of the
   distances the rasteriser gives through ``load_point_coord``; with
   ``key["line_stipple"]`` = (factor, pattern), the fragments of a line whose
   pattern bit is clear are discarded (the counter is the rasteriser's,
   ``load_line_stipple``); with ``key["polygon_stipple"]``, the fragments whose bit
   of the 32x32 pattern (the uniform ``shimgl_PolygonStippleRows``: 32 words, row
   y mod 32 of the window, bit 31 - x mod 32) is clear are discarded;
3. blends with the tile buffer's current value (``load_tile``): every GL factor
   (zero, one, src/dst colour and alpha and their one_minus forms,
   src_alpha_saturate, constant colour/alpha and one_minus forms, the constant
   from the uniform ``shimgl_BlendColor``) and equation (add, subtract,
   reverse_subtract, min, max) and the advanced equations (multiply .. hsl_luminosity,
   blend_advanced.py); sources and destination are clamped first for
   normalized formats; or, with ``key["logic_op"]`` (glLogicOp names: clear, and,
   and_reverse, copy, ..., nand, set), combines the integer values instead
   (unorm8/unorm16 and integer formats; float formats ignore it, as in GL);
4. converts to the tile-buffer format (clamps for unorm/snorm and integer formats;
   16-bit floats for f16) and ``store_tile``s with the colour write mask.

A target the key marks ``spilled`` is not in tile memory (the driver's tile record
had no room): its loads and stores are ``image_load``/``image_store`` of its image at
the fragment's pixel, image slot ``SPILLED_RT_IMAGE_BASE`` + its index.

``gl_FragDepth`` becomes ``store_output`` slot ``DEPTH``, ``gl_FragStencilRefARB``
(ARB_shader_stencil_export; ``gl_FragStencilRefAMD``, AMD's name) slot ``STENCIL``; ``gl_SampleMask`` and
alpha-to-coverage ``store_output`` slot ``SAMPLE_MASK`` (an int mask).
"""

from __future__ import annotations

from compiler.glsl import types as GT
from compiler.ir import VecType
from compiler.ir.core import Variable as IRVariable
from compiler.keys import DEFAULT_RENDER_TARGETS, SPILLED_RT_IMAGE_BASE, RenderTarget
from uapi.isa.semantics import PACKED_FORMATS, UNORM_FORMATS

from .blend_advanced import advanced_blend
from .interface import const_indices

# (the key's records, RenderTarget and Blend, are compiler.keys')
__all__ = ["LOGIC_OPS", "emit_framebuffer_fetch", "fragment_outputs", "framebuffer_colour"]

# glLogicOp: name -> f(s, d, mask) on integers (GL 4.6 table 17.3).
LOGIC_OPS = {
    "clear": lambda b, s, d, m: b.iand(s, 0), "and": lambda b, s, d, m: b.iand(s, d),
    "and_reverse": lambda b, s, d, m: b.iand(s, b.inot(d)), "copy": lambda b, s, d, m: s,
    "and_inverted": lambda b, s, d, m: b.iand(b.inot(s), d), "noop": lambda b, s, d, m: d,
    "xor": lambda b, s, d, m: b.ixor(s, d), "or": lambda b, s, d, m: b.ior(s, d),
    "nor": lambda b, s, d, m: b.inot(b.ior(s, d)), "equiv": lambda b, s, d, m: b.inot(b.ixor(s, d)),
    "invert": lambda b, s, d, m: b.inot(d), "or_reverse": lambda b, s, d, m: b.ior(s, b.inot(d)),
    "copy_inverted": lambda b, s, d, m: b.inot(s), "or_inverted": lambda b, s, d, m: b.ior(b.inot(s), d),
    "nand": lambda b, s, d, m: b.inot(b.iand(s, d)), "set": lambda b, s, d, m: b.ior(s, m),
}
_LOGIC_BITS = {"unorm8": 8, "unorm16": 16, "i8": 8, "i16": 16, "i32": 32}
_UNORM = UNORM_FORMATS                 # the ISA's formats whose stores clamp to [0, 1]
_SNORM = ("snorm8", "snorm16")
_INT_RANGE = {("i8", "int"): (-128, 127), ("i8", "uint"): (0, 255), ("i16", "int"): (-32768, 32767),
              ("i16", "uint"): (0, 65535)}




def _output_index(io, s) -> int:
    """The dual-source index of a colour output: layout(index) or the program's
    glBindFragDataLocationIndexed binding (the link's answer, in the key)."""
    index = s.layout.get("index")
    if index is None:
        index = dict(io.k("frag_output_indices", ()) or ()).get(s.name, 0)
    return index[0] if isinstance(index, tuple) else index


#: GLSL ES 1.00's built-in second colours of dual-source blending (EXT_blend_func_extended)
_SECOND_COLOURS = frozenset({"gl_SecondaryFragColorEXT", "gl_SecondaryFragDataEXT"})


def _colour_sources(io, L, index: int = 0) -> dict[int, tuple]:
    """location -> (symbol, local var, element index or None, type) of colour
    outputs of dual-source `index` (0: the colours; 1: the second colours)."""
    out: dict[int, tuple] = {}
    broadcast = None
    next_loc = 0
    given = dict(io.k("frag_output_locations", ()) or ())     # the link's locations
    for s, var in io.out_symbols:
        if not s.builtin and s.name not in ("gl_FragColor", "gl_FragData") and _output_index(io, s) != index:
            continue
        if s.builtin and s.name in _SECOND_COLOURS:
            # GLSL ES 1.00's second colours (EXT_blend_func_extended): index 1 of
            # location 0 (gl_SecondaryFragColorEXT) or of location i (...DataEXT[i])
            if index != 1:
                continue
            if s.name == "gl_SecondaryFragColorEXT":
                out[0] = (s, var, None, GT.VEC4)
            else:
                for i in const_indices(io.unit, s, s.type.length):
                    out[i] = (s, var, i, GT.VEC4)
            continue
        if s.builtin and index == 1 and s.name == "gl_FragData":
            continue                    # never a second colour
        if s.name == "gl_FragColor":
            broadcast = (s, var, None, GT.VEC4)
        elif s.name == "gl_FragData":
            for i in const_indices(io.unit, s, s.type.length):
                out[i] = (s, var, i, GT.VEC4)
        elif not s.builtin:
            loc = s.layout.get("location")
            loc = loc[0] if isinstance(loc, tuple) else loc
            if loc is None:
                loc = given.get(s.name, next_loc)
            comp = _layout_value(s.layout, "component")
            if s.type.is_array:
                for i in range(s.type.length):
                    _put(out, loc + i, (s, var, i, s.type.element), comp)
                next_loc = loc + s.type.length
            else:
                _put(out, loc, (s, var, None, s.type), comp)
                next_loc = loc + 1
    return out, broadcast


def _layout_value(layout: dict, key: str) -> int:
    v = layout.get(key, 0)
    return v[0] if isinstance(v, tuple) else v


def _put(out: dict, loc: int, entry: tuple, component: int) -> None:
    """A colour output at ``loc``; outputs sharing a location in different components
    (ARB_enhanced_layouts' component qualifier) become one entry whose fifth item lists
    (first component, symbol, var, element, type) of each."""
    prev = out.get(loc)
    if prev is None and not component:
        out[loc] = entry
        return
    parts = list(prev[4]) if prev is not None and len(prev) == 5 else \
        ([(0,) + prev] if prev is not None else [])
    parts.append((component,) + entry)
    out[loc] = (entry[0], entry[1], None, GT.vector(entry[3].innermost_element.base, 4), parts)


def fragment_outputs(io, L) -> None:
    b = L.b
    rts = io.k("render_targets", None) or DEFAULT_RENDER_TARGETS
    sources, broadcast = _colour_sources(io, L)
    second, _ = _colour_sources(io, L, index=1)
    outs = {s.name: (s, var) for s, var in io.out_symbols}

    def colour(i, table=None):
        if table is not None:          # the second colours: never gl_FragColor's broadcast
            src = table.get(i)
        else:
            src = sources.get(i) if broadcast is None else broadcast
        if src is None:
            return None, None
        if len(src) == 5:           # outputs packed into the components of one location
            zero = b.fimm(0.0) if src[3].base == "float" else b.iimm(0)
            chans = [zero] * 4
            for first, _s, pvar, pelem, pt in src[4]:
                d = b.deref_var(pvar)
                if pelem is not None:
                    d = b.deref_array(d, pelem)
                value = b.load_deref(d)
                n = pt.vector_size
                for k in range(n):
                    chans[first + k] = b.channel(value, k) if n > 1 else value
            return b.vec(*chans), src[3]
        s, var, elem, t = src
        d = b.deref_var(var)
        if elem is not None:
            d = b.deref_array(d, elem)
        return b.load_deref(d), t

    stipple = io.k("line_stipple", None)
    if stipple:
        # GL 2.1 section 3.5.2: the fragment with stipple counter s is drawn when bit
        # (s / factor) mod 16 of the pattern is set (the counter comes from the rasteriser)
        factor, pattern = stipple
        s = b.intrinsic("load_line_stipple", bit_size=32)
        step = b.udiv(b.f2u32(b.fmax(s, b.fimm(0.0))), b.iimm(int(factor)))
        bit = b.iand(b.ushr(b.iimm(int(pattern)), b.iand(step, b.iimm(15))), b.iimm(1))
        b.discard_if(b.bcsel(b.fge(s, b.fimm(0.0)), b.ieq(bit, b.iimm(0)), b.bimm(False)))

    if io.k("polygon_stipple", False):
        # GL 4.6 compatibility section 14.6.2 (Mesa's pstipple lowering reads the pattern
        # the same way): window position (x, y) takes bit 31 - x mod 32 of row y mod 32
        rows = io.add_uniform("shimgl_PolygonStippleRows", GT.array_of(GT.UINT, 32))
        fc = b.intrinsic("load_frag_coord", bit_size=32)
        x = b.iand(b.f2u32(b.channel(fc, 0)), b.iimm(31))
        y = b.iand(b.f2u32(b.channel(fc, 1)), b.iimm(31))
        row = b.load_deref(b.deref_array(b.deref_var(rows), y))
        bit = b.iand(b.ushr(row, b.isub(b.iimm(31), x)), b.iimm(1))
        b.discard_if(b.ieq(bit, b.iimm(0)))

    if io.k("line_smooth", False):
        # GL 4.6 section 14.5.1.2: an antialiased line's coverage multiplies the fragment's alpha
        edges = b.intrinsic("load_point_coord", bit_size=32)
        coverage = b.fsat(b.fmin(b.channel(edges, 0), b.channel(edges, 1)))
        plain_colour = colour

        def colour(i, table=None):
            c, t = plain_colour(i, table)
            if c is not None and table is None and c.num_components == 4 and getattr(t, "base", "float") == "float":
                c = b.vec(b.channel(c, 0), b.channel(c, 1), b.channel(c, 2), b.fmul(b.channel(c, 3), coverage))
            return c, t

    info = {}
    # Alpha test, alpha to coverage and alpha to one act on render target 0's colour.
    c0, _t0 = colour(0)
    sample_mask = None
    if c0 is not None and c0.num_components == 4:
        alpha = b.channel(c0, 3)
        func = io.k("alpha_func", None)
        if func and func != "always":
            ref = b.load_var(io.add_uniform("shimgl_AlphaRef", GT.FLOAT))
            passed = {"never": lambda: b.bimm(False), "less": lambda: b.flt(alpha, ref),
                      "equal": lambda: b.feq(alpha, ref), "lequal": lambda: b.fge(ref, alpha),
                      "greater": lambda: b.flt(ref, alpha), "notequal": lambda: b.fneu(alpha, ref),
                      "gequal": lambda: b.fge(alpha, ref)}[func]()
            b.discard_if(b.inot(passed))
        if io.k("alpha_to_coverage", False):
            n = io.k("samples", 1) or 1
            k = b.f2i32(b.fround_even(b.fmul(b.fsat(alpha), float(n))))
            sample_mask = b.isub(b.ishl(b.iimm(1), k), 1)
    one_alpha = io.k("alpha_to_one", False)
    blend_colour = None
    for i, rt in enumerate(rts):
        c, t = colour(i)
        if c is None or rt.write_mask & ((1 << rt.components) - 1) == 0:
            continue
        info[i] = sources.get(i, broadcast)[0].name if (sources.get(i) or broadcast) else None
        if rt.base_type == "float" and c.num_components == 4 and one_alpha:
            c = b.vec(b.channel(c, 0), b.channel(c, 1), b.channel(c, 2), b.fimm(1.0))
        if rt.base_type == "float" and io.k("clamp_fragment_color", False):
            c = b.fsat(c)               # glClampColor(CLAMP_FRAGMENT_COLOR, TRUE): every buffer
        logic = io.k("logic_op", None)
        # the logic op combines integer values: integer targets and unorm ones through their
        # encoding; floating-point targets (their 16/32-bit tile words included) ignore it
        if logic and logic != "copy" and rt.format in _LOGIC_BITS and \
                (rt.base_type != "float" or rt.format.startswith("unorm")):
            if rt.swizzle is not None:
                c = _to_memory_order(b, rt, _pad4(b, c))
            value = _logic_op(b, rt, i, logic, c)
            mask = rt.write_mask & ((1 << rt.components) - 1)
            _store_tile(b, rt, i, value, mask)
            continue
        if rt.blend is not None and rt.base_type == "float":
            if rt.blend.uses_constant and blend_colour is None:
                blend_colour = b.load_var(io.add_uniform("shimgl_BlendColor", GT.VEC4))
            src1 = None
            if rt.blend.uses_src1:
                c1, _t1 = colour(i, second)
                if c1 is not None and c1.num_components == 4 and one_alpha:
                    # alpha-to-one replaces the second colour's alpha too (as Mesa's lowering
                    # of every colour output; piglit alpha-to-one-dual-src-blend)
                    c1 = b.vec(b.channel(c1, 0), b.channel(c1, 1), b.channel(c1, 2), b.fimm(1.0))
                src1 = _pad4(b, c1) if c1 is not None else b.vec(*[b.fimm(0.0)] * 4)
            c = _blend(b, rt, i, _pad4(b, c), blend_colour, src1)
        value = _convert(b, rt, _to_memory_order(b, rt, _pad4(b, c)) if rt.base_type == "float" else c)
        value, mask = _whole_word(b, rt, i, value, rt.write_mask & ((1 << rt.components) - 1))
        _store_tile(b, rt, i, value, mask)
    if "gl_SampleMask" in outs:
        m = b.load_deref(b.deref_array(b.deref_var(outs["gl_SampleMask"][1]), 0))
        sample_mask = m if sample_mask is None else b.iand(sample_mask, m)

    def system_output(name: str, base: str, slot: str, value) -> None:
        """One of the fragment's outputs to the ISP (not tile memory), in its slot."""
        var = IRVariable(name, VecType(base, 32, 1), "shader_out", {"slot": slot, "driver_location": 0})
        io.shader.variables.append(var)
        b.store_var(var, value)
        info[slot] = name

    depth = outs.get("gl_FragDepth") or outs.get("gl_FragDepthEXT")      # (EXT: GL_EXT_frag_depth, ES 1.00)
    if depth is not None:
        system_output("gl_FragDepth", "float", "DEPTH", b.load_var(depth[1]))
    # ARB_shader_stencil_export (or AMD's name for it): the ISP's reference
    stencil = outs.get("gl_FragStencilRefARB") or outs.get("gl_FragStencilRefAMD")
    if stencil is not None:
        system_output("gl_FragStencilRefARB", "int", "STENCIL", b.load_var(stencil[1]))
    if sample_mask is not None:
        system_output("gl_SampleMask", "int", "SAMPLE_MASK", sample_mask)
    io.outputs = info


def framebuffer_colour(b, rts, index: int, base: str, n: int = 4):
    """Render target ``index``'s current value for the fragment's sample, as a GLSL
    value of ``n`` components of ``base`` (float/int/uint) (EXT_shader_framebuffer_fetch:
    an ``inout`` output's or gl_LastFragData's first value): the tile buffer's read
    (``load_tile``, the read blending makes) in RGBA order, missing channels 0 and alpha 1;
    0 for a location past the framebuffer's targets."""
    zero = b.fimm(0.0) if base == "float" else b.iimm(0)
    if index >= len(rts):
        chans = [zero] * n
    else:
        rt = rts[index]
        d = _load_tile(b, rt, index, rt.components)
        if rt.base_type == "float":
            rgba = _from_memory_order(b, rt, d)
            chans = [b.channel(rgba, j) for j in range(4)]
        else:
            one = b.iimm(1)
            chans = [b.channel(d, j) if rt.components > 1 else d for j in range(rt.components)]
            bits = {"i8": 8, "i16": 16}.get(rt.format)
            if bits and rt.base_type == "int":      # the tile's raw bits are zero-extended
                chans = [b.ishr(b.ishl(c, b.iimm(32 - bits)), b.iimm(32 - bits)) for c in chans]
            chans += [zero, zero, zero, one][len(chans):]
    chans = chans[:n]
    return chans[0] if n == 1 else b.vec(*chans)


def emit_framebuffer_fetch(io, L, b) -> None:
    """The fragment prologue's reads of the framebuffer (compiler/glsl/framebuffer_fetch.py):
    each ``inout`` colour output (elements of arrays by location) and each element of
    gl_LastFragData starts with its render target's colour."""
    rts = io.k("render_targets", None) or DEFAULT_RENDER_TARGETS
    if io.last_frag_data or any(getattr(s, "fetch", False) for s, _var in io.out_symbols):
        io.shader.info["framebuffer_fetch"] = True      # per-sample shading (compiler/backend/isel.py)
    for s, var in io.last_frag_data:
        for i in range(s.type.length):
            b.store_deref(b.deref_array(b.deref_var(var), i), framebuffer_colour(b, rts, i, "float"))
    if not any(getattr(s, "fetch", False) for s, _var in io.out_symbols):
        return
    sources, _ = _colour_sources(io, L)
    for loc, src in sorted(sources.items()):
        parts = src[4] if len(src) == 5 else [(0,) + tuple(src)]
        for first, s, var, elem, t in parts:
            if not getattr(s, "fetch", False):
                continue
            n = t.vector_size
            value = framebuffer_colour(b, rts, loc, t.base, first + n)
            if first:
                value = b.swizzle(value, tuple(range(first, first + n))) if n > 1 else b.channel(value, first)
            d = b.deref_var(var)
            if elem is not None:
                d = b.deref_array(d, elem)
            b.store_deref(d, value)


def _spilled_pixel(b):
    """The fragment's pixel (uvec2) in a spilled target's image."""
    fc = b.intrinsic("load_frag_coord", bit_size=32)
    return b.vec(b.f2u32(b.channel(fc, 0)), b.f2u32(b.channel(fc, 1)))


def _spilled_access(b, rt: RenderTarget, index: int) -> dict:
    return {"image": SPILLED_RT_IMAGE_BASE + index, "dim": "2d", "is_array": False}


def _load_tile(b, rt: RenderTarget, index: int, n: int):
    """The target's current value, its first ``n`` memory components: ``load_tile``,
    or for a spilled target an image load at the pixel (RGBA, decoded by the
    view's format) put in memory order."""
    if not rt.spilled:
        return b.intrinsic("load_tile", num_components=n, rt=index, format=rt.format, offset_B=rt.offset_B)
    rgba = b.intrinsic("image_load", _spilled_pixel(b), b.iimm(0), num_components=4, **_spilled_access(b, rt, index))
    order = rt.swizzle or tuple(range(rt.components))
    chans = [b.channel(rgba, order[j]) for j in range(n)]
    return chans[0] if n == 1 else b.vec(*chans)


def _store_tile(b, rt: RenderTarget, index: int, value, mask: int) -> None:
    """``store_tile`` of ``value`` (memory components) under ``mask``; for a spilled
    target an image write at the pixel, of the RGBA value (components ``mask``
    leaves out read back first: an image write has no mask), as Mesa's
    agx_nir_lower_tilebuffer does for spilled targets."""
    if not rt.spilled:
        b.intrinsic("store_tile", value, rt=index, format=rt.format, offset_B=rt.offset_B, write_mask=mask)
        return
    n = rt.components
    comps = [b.channel(value, j) if value.num_components > 1 else value for j in range(n)]
    if value.bit_size == 16:                    # f16 targets: the image write takes 32-bit floats
        comps = [b.f2f32(c) for c in comps]
    if mask != (1 << n) - 1:
        old = _load_tile(b, rt, index, n)
        comps = [comps[j] if mask >> j & 1 else (b.channel(old, j) if n > 1 else old) for j in range(n)]
    zero = b.fimm(0.0) if rt.base_type == "float" else b.iimm(0)
    rgba = [zero, zero, zero, b.fimm(1.0) if rt.base_type == "float" else b.iimm(1)]
    for j, ch in enumerate(rt.swizzle or tuple(range(n))):
        rgba[ch] = comps[j]
    b.intrinsic("image_store", _spilled_pixel(b), b.iimm(0), b.vec(*rgba), **_spilled_access(b, rt, index))


def _pad4(b, c):
    if c.num_components == 4:
        return c
    chans = [b.channel(c, i) for i in range(c.num_components)]
    while len(chans) < 4:
        chans.append(b.fimm(1.0 if len(chans) == 3 else 0.0))
    return b.vec(*chans)


def _whole_word(b, rt: RenderTarget, index: int, value, mask: int):
    """(value, mask) to store. A packed format (its components share one word:
    rgb565, rgb10a2, ...) is stored whole: a partial colour mask becomes a read of
    the tile's value and a select of the kept components, as Mesa's agx does for
    formats whose masks the tile buffer does not express."""
    full = (1 << rt.components) - 1
    if rt.format not in PACKED_FORMATS or mask == full:
        return value, mask
    dst = _load_tile(b, rt, index, rt.components)
    return b.vec(*[b.channel(value if mask >> j & 1 else dst, j) for j in range(rt.components)]), full


def _to_memory_order(b, rt: RenderTarget, c):
    """The RGBA vec4 ``c`` as the target's memory components (its ``swizzle``)."""
    if rt.swizzle is None:
        return c
    chans = [b.channel(c, ch) for ch in rt.swizzle]
    return chans[0] if len(chans) == 1 else b.vec(*chans)


def _from_memory_order(b, rt: RenderTarget, d):
    """The target's memory components ``d`` as an RGBA vec4 (missing colour
    channels 0, missing alpha 1, as _pad4)."""
    if rt.swizzle is None:
        return _pad4(b, d)
    chans = [b.fimm(0.0), b.fimm(0.0), b.fimm(0.0), b.fimm(1.0)]
    for j, ch in enumerate(rt.swizzle):
        chans[ch] = b.channel(d, j) if d.num_components > 1 else d
    return b.vec(*chans)


def _factor(b, name, src, dst, const, alpha_channel: bool, src1=None):
    """Factor ``name`` for the colour (vec3) or the alpha (scalar) part
    (``src1``: the second colour of dual-source blending)."""
    def part(v):
        return b.channel(v, 3) if alpha_channel else b.swizzle(v, "xyz")

    def alpha_of(v):
        return b.channel(v, 3)
    one = b.fimm(1.0)
    if name == "zero":
        return b.fimm(0.0)
    if name == "one":
        return one
    if name == "src_alpha_saturate":
        if alpha_channel:
            return one
        return b.fmin(alpha_of(src), b.fsub(one, alpha_of(dst)))
    neg = name.startswith("one_minus_")
    base = name[len("one_minus_"):] if neg else name
    v = {"src_color": lambda: part(src), "dst_color": lambda: part(dst), "src_alpha": lambda: alpha_of(src),
         "dst_alpha": lambda: alpha_of(dst), "constant_color": lambda: part(const),
         "constant_alpha": lambda: alpha_of(const), "src1_color": lambda: part(src1),
         "src1_alpha": lambda: alpha_of(src1)}[base]()
    return b.fsub(one, v) if neg else v


def _equation(b, func, s, sf, d, df):
    if func == "min":
        return b.fmin(s, d)
    if func == "max":
        return b.fmax(s, d)
    ss, dd = b.fmul(s, sf), b.fmul(d, df)
    return {"add": lambda: b.fadd(ss, dd), "subtract": lambda: b.fsub(ss, dd),
            "reverse_subtract": lambda: b.fsub(dd, ss)}[func]()


def _clamp(b, rt, v):
    if rt.format in _UNORM:
        return b.fsat(v)
    if rt.format in _SNORM:
        return b.fmin(b.fmax(v, -1.0), 1.0)
    return v


def _blend(b, rt: RenderTarget, index: int, src, const, src1=None):
    bl = rt.blend
    src = _clamp(b, rt, src)
    dst = _from_memory_order(b, rt, _load_tile(b, rt, index, rt.components))
    if const is not None:
        const = _clamp(b, rt, const)
    if src1 is not None:
        src1 = _clamp(b, rt, src1)
    if bl.advanced:
        return advanced_blend(b, bl.rgb_func, src, _clamp(b, rt, dst))
    rgb = _equation(b, bl.rgb_func, b.swizzle(src, "xyz"), _factor(b, bl.rgb_src, src, dst, const, False, src1),
                    b.swizzle(dst, "xyz"), _factor(b, bl.rgb_dst, src, dst, const, False, src1))
    a = _equation(b, bl.alpha_func, b.channel(src, 3), _factor(b, bl.alpha_src, src, dst, const, True, src1),
                  b.channel(dst, 3), _factor(b, bl.alpha_dst, src, dst, const, True, src1))
    return b.vec(b.channel(rgb, 0), b.channel(rgb, 1), b.channel(rgb, 2), a)


def _convert(b, rt: RenderTarget, c):
    n = rt.components
    if c.num_components > n:
        c = b.swizzle(c, tuple(range(n))) if n > 1 else b.channel(c, 0)
    if rt.base_type == "float":
        c = _clamp(b, rt, c)
        if rt.format == "f16":
            return b.f2f16(c)
        return c
    rng = _INT_RANGE.get((rt.format, rt.base_type))
    if rng is None:
        return c
    lo, hi = rng
    if rt.base_type == "int":
        return b.imin(b.imax(c, lo), hi)
    return b.umin(c, hi)


def _logic_op(b, rt: RenderTarget, index: int, op: str, c):
    """glLogicOp on the target's integer values (normalized formats through their
    integer encoding)."""
    bits = _LOGIC_BITS[rt.format]
    n = rt.components
    c = c if c.num_components <= n else b.swizzle(c, tuple(range(n)))
    dst = _load_tile(b, rt, index, c.num_components)
    mask = (1 << bits) - 1 if bits < 32 else 0xFFFFFFFF
    if rt.base_type == "float":
        scale = float(mask)
        src_i = b.f2u32(b.fround_even(b.fmul(b.fsat(c), scale)))
        dst_i = b.f2u32(b.fround_even(b.fmul(b.fsat(dst), scale)))
    else:
        src_i, dst_i = c, dst
    r = b.iand(LOGIC_OPS[op](b, src_i, dst_i, b.imm(mask, "uint")), b.imm(mask, "uint"))
    if rt.base_type == "float":
        return b.fdiv(b.u2f32(r), float(mask))
    return r
