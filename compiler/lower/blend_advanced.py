"""Advanced blend equations (KHR_blend_equation_advanced, GLES 3.2 section 15.1.5.2)
lowered into the fragment epilogue, as Mesa does for tilers (``nir_lower_blend``'s
advanced modes reading the destination through the tile buffer).

The blend reads the destination with ``load_tile`` like the other equations
(blend.py); GL's fixed factors do not apply. With premultiplied source and
destination colours (Cs, As) and (Cd, Ad), both clamped to [0, 1] for
normalized targets, and the unpremultiplied colours

    Cs' = Cs / As (0 when As = 0),   Cd' = Cd / Ad (0 when Ad = 0),

the result is (the specification's X = Y = Z = 1 for every equation)

    RGB = f(Cs', Cd') * p0 + Cs' * p1 + Cd' * p2
    A   =               p0 +       p1 +       p2
    p0 = As * Ad,  p1 = As * (1 - Ad),  p2 = Ad * (1 - As)

where f is the equation's per-component function (table 15.1: MULTIPLY ..
EXCLUSION) or its colour function on the whole RGB triple (table 15.2: the
four HSL equations, built from lum/sat/ClipColor/SetLum/SetLumSat).

`ADVANCED_EQUATIONS` (compiler/glsl/blend_support.py) is the one list of their names.
"""

from __future__ import annotations

from compiler.keys import ADVANCED_EQUATIONS

__all__ = ["ADVANCED_EQUATIONS", "advanced_blend"]

_LUMA = (0.30, 0.59, 0.11)


def _select(b, cond, a, c):
    """cond ? a : c, per component."""
    return b.bcsel(cond, a, c)


def _hard(b, s, d, selector):
    """2*s*d where selector <= 0.5, else 1 - 2*(1-s)*(1-d) (OVERLAY: selector d, HARDLIGHT: s)."""
    low = b.fmul(b.fmul(s, d), 2.0)
    high = b.fsub(1.0, b.fmul(b.fmul(b.fsub(1.0, s), b.fsub(1.0, d)), 2.0))
    return _select(b, b.fge(0.5, selector), low, high)


def _colordodge(b, s, d):
    # d <= 0: 0;  d > 0 and s < 1: min(1, d / (1 - s));  d > 0 and s >= 1: 1
    ratio = b.fmin(b.fdiv(d, b.fmax(b.fsub(1.0, s), 1e-30)), 1.0)
    inner = _select(b, b.flt(s, 1.0), ratio, b.fimm(1.0))
    return _select(b, b.fge(0.0, d), b.fimm(0.0), inner)


def _colorburn(b, s, d):
    # d >= 1: 1;  d < 1 and s > 0: 1 - min(1, (1 - d) / s);  d < 1 and s <= 0: 0
    ratio = b.fsub(1.0, b.fmin(b.fdiv(b.fsub(1.0, d), b.fmax(s, 1e-30)), 1.0))
    inner = _select(b, b.flt(0.0, s), ratio, b.fimm(0.0))
    return _select(b, b.fge(d, 1.0), b.fimm(1.0), inner)


def _softlight(b, s, d):
    # s <= 0.5: d - (1 - 2s) d (1 - d)
    # s > 0.5, d <= 0.25: d + (2s - 1) d ((16d - 12) d + 3)
    # s > 0.5, d > 0.25: d + (2s - 1) (sqrt(d) - d)
    two_s_1 = b.fsub(b.fmul(s, 2.0), 1.0)
    low = b.fsub(d, b.fmul(b.fmul(b.fsub(1.0, b.fmul(s, 2.0)), d), b.fsub(1.0, d)))
    poly = b.fadd(b.fmul(b.fsub(b.fmul(d, 16.0), 12.0), d), 3.0)
    mid = b.fadd(d, b.fmul(b.fmul(two_s_1, d), poly))
    high = b.fadd(d, b.fmul(two_s_1, b.fsub(b.fsqrt(b.fmax(d, 0.0)), d)))
    return _select(b, b.fge(0.5, s), low, _select(b, b.fge(0.25, d), mid, high))


_PER_COMPONENT = {
    "multiply": lambda b, s, d: b.fmul(s, d),
    "screen": lambda b, s, d: b.fsub(b.fadd(s, d), b.fmul(s, d)),
    "overlay": lambda b, s, d: _hard(b, s, d, d),
    "darken": lambda b, s, d: b.fmin(s, d),
    "lighten": lambda b, s, d: b.fmax(s, d),
    "colordodge": _colordodge,
    "colorburn": _colorburn,
    "hardlight": lambda b, s, d: _hard(b, s, d, s),
    "softlight": _softlight,
    "difference": lambda b, s, d: b.fabs(b.fsub(d, s)),
    "exclusion": lambda b, s, d: b.fsub(b.fadd(s, d), b.fmul(b.fmul(s, d), 2.0)),
}


def _min3(b, c):
    return b.fmin(b.fmin(b.channel(c, 0), b.channel(c, 1)), b.channel(c, 2))


def _max3(b, c):
    return b.fmax(b.fmax(b.channel(c, 0), b.channel(c, 1)), b.channel(c, 2))


def _lum(b, c):
    return b.fdot3(c, b.vec(*[b.fimm(w) for w in _LUMA]))


def _clip_color(b, c):
    """ClipColor: pull a colour whose components left [0, 1] back along the line to its
    luminosity, keeping that luminosity."""
    lum, mn, mx = _lum(b, c), _min3(b, c), _max3(b, c)
    centred = b.fsub(c, lum)
    low = b.fadd(lum, b.fdiv(b.fmul(centred, lum), b.fmax(b.fsub(lum, mn), 1e-30)))
    c = _select(b, b.flt(mn, 0.0), low, c)
    centred = b.fsub(c, lum)
    high = b.fadd(lum, b.fdiv(b.fmul(centred, b.fsub(1.0, lum)), b.fmax(b.fsub(mx, lum), 1e-30)))
    return _select(b, b.flt(1.0, mx), high, c)


def _set_lum(b, base, lum_of):
    """SetLum(base, lum_of): base shifted to lum_of's luminosity, then clipped."""
    return _clip_color(b, b.fadd(base, b.fsub(_lum(b, lum_of), _lum(b, base))))


def _set_lum_sat(b, base, sat_of, lum_of):
    """SetLumSat: base scaled to sat_of's saturation (max - min), then SetLum to lum_of."""
    mn = _min3(b, base)
    sat_base = b.fsub(_max3(b, base), mn)
    sat = b.fsub(_max3(b, sat_of), _min3(b, sat_of))
    scaled = b.fdiv(b.fmul(b.fsub(base, mn), sat), b.fmax(sat_base, 1e-30))
    zero = b.vec(b.fimm(0.0), b.fimm(0.0), b.fimm(0.0))
    return _set_lum(b, _select(b, b.flt(0.0, sat_base), scaled, zero), lum_of)


_WHOLE_COLOUR = {
    "hsl_hue": lambda b, s, d: _set_lum_sat(b, s, d, d),
    "hsl_saturation": lambda b, s, d: _set_lum_sat(b, d, s, d),
    "hsl_color": lambda b, s, d: _set_lum(b, s, d),
    "hsl_luminosity": lambda b, s, d: _set_lum(b, d, s),
}
assert set(_PER_COMPONENT) | set(_WHOLE_COLOUR) == set(ADVANCED_EQUATIONS)


def _unpremultiply(b, rgb, alpha):
    inv = b.bcsel(b.feq(alpha, 0.0), b.fimm(0.0), b.frcp(b.fmax(alpha, 1e-30)))
    return b.fmul(rgb, inv)


def advanced_blend(b, equation: str, src, dst):
    """The blended RGBA (premultiplied) of vec4s `src` and `dst` (already clamped as the
    target's format requires) under advanced equation `equation`."""
    a_s, a_d = b.channel(src, 3), b.channel(dst, 3)
    cs = _unpremultiply(b, b.swizzle(src, "xyz"), a_s)
    cd = _unpremultiply(b, b.swizzle(dst, "xyz"), a_d)
    f = (_PER_COMPONENT.get(equation) or _WHOLE_COLOUR[equation])(b, cs, cd)
    p0 = b.fmul(a_s, a_d)
    p1 = b.fmul(a_s, b.fsub(1.0, a_d))
    p2 = b.fmul(a_d, b.fsub(1.0, a_s))
    rgb = b.fadd(b.fadd(b.fmul(f, p0), b.fmul(cs, p1)), b.fmul(cd, p2))
    alpha = b.fadd(b.fadd(p0, p1), p2)
    return b.vec(b.channel(rgb, 0), b.channel(rgb, 1), b.channel(rgb, 2), alpha)
