"""The advanced blend equations in the fragment epilogue (KHR_blend_equation_advanced,
GLES 3.2 section 15.1.5.2), each against a scalar reference written from the
specification's tables, pixel by pixel, on values that cross every branch of the
piecewise equations (0, 0.25, 0.5, 1, zero alpha)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from compiler.ir import ShaderKey
from compiler.lower import Blend, RenderTarget
from compiler.lower.blend_advanced import ADVANCED_EQUATIONS
from tests.compiler.lower.harness import as_f32, f32, run_fragment

LANES = 64
FS = "#version 330\nin vec4 c; out vec4 o;\nvoid main() { o = c; }\n"


def _values(seed):
    rng = np.random.default_rng(seed)
    v = rng.uniform(0, 1, (4, LANES))
    edges = np.array([0.0, 0.25, 0.5, 1.0, 0.2, 0.75])
    v[:, :24] = rng.choice(edges, (4, 24))         # exactly on the branch boundaries
    v[3, 24:28] = 0.0                              # zero alpha: Cs' / Cd' are 0
    return v


# premultiplied colours: rgb <= alpha keeps the unpremultiplied colour in [0, 1]
_S = _values(1)
_D = _values(2)
SRC = np.concatenate([_S[:3] * _S[3:], _S[3:]]).astype(np.float32)
DST = np.concatenate([_D[:3] * _D[3:], _D[3:]]).astype(np.float32)
SRC[:, 40:44] = np.array([[1.0, 0.0, 0.5, 1.0]] * 4, np.float32).T      # HSL: saturated source
DST[:, 40:44] = np.array([[0.5, 0.5, 0.5, 1.0]] * 4, np.float32).T


def _f(eq, cs, cd):
    """Table 15.1's f(Cs, Cd) for one component."""
    if eq == "multiply":
        return cs * cd
    if eq == "screen":
        return cs + cd - cs * cd
    if eq == "overlay":
        return 2 * cs * cd if cd <= 0.5 else 1 - 2 * (1 - cs) * (1 - cd)
    if eq == "darken":
        return min(cs, cd)
    if eq == "lighten":
        return max(cs, cd)
    if eq == "colordodge":
        if cd <= 0:
            return 0.0
        return min(1.0, cd / (1 - cs)) if cs < 1 else 1.0
    if eq == "colorburn":
        if cd >= 1:
            return 1.0
        return 1 - min(1.0, (1 - cd) / cs) if cs > 0 else 0.0
    if eq == "hardlight":
        return 2 * cs * cd if cs <= 0.5 else 1 - 2 * (1 - cs) * (1 - cd)
    if eq == "softlight":
        if cs <= 0.5:
            return cd - (1 - 2 * cs) * cd * (1 - cd)
        if cd <= 0.25:
            return cd + (2 * cs - 1) * cd * ((16 * cd - 12) * cd + 3)
        return cd + (2 * cs - 1) * (math.sqrt(cd) - cd)
    if eq == "difference":
        return abs(cd - cs)
    assert eq == "exclusion"
    return cs + cd - 2 * cs * cd


def _lum(c):
    return 0.30 * c[0] + 0.59 * c[1] + 0.11 * c[2]


def _clip_color(c):
    lum, mn, mx = _lum(c), min(c), max(c)
    if mn < 0:
        c = [lum + (x - lum) * lum / (lum - mn) for x in c]
    if mx > 1:
        c = [lum + (x - lum) * (1 - lum) / (mx - lum) for x in c]
    return c


def _set_lum(cbase, clum):
    diff = _lum(clum) - _lum(cbase)
    return _clip_color([x + diff for x in cbase])


def _set_lum_sat(cbase, csat, clum):
    mn, sbase = min(cbase), max(cbase) - min(cbase)
    ssat = max(csat) - min(csat)
    c = [(x - mn) * ssat / sbase for x in cbase] if sbase > 0 else [0.0, 0.0, 0.0]
    return _set_lum(c, clum)


def _f_hsl(eq, cs, cd):
    """Table 15.2's colour functions."""
    return {"hsl_hue": lambda: _set_lum_sat(cs, cd, cd), "hsl_saturation": lambda: _set_lum_sat(cd, cs, cd),
            "hsl_color": lambda: _set_lum(cs, cd), "hsl_luminosity": lambda: _set_lum(cd, cs)}[eq]()


def reference(eq, src, dst):
    """One pixel: RGB = f*p0 + Cs'*p1 + Cd'*p2, A = p0 + p1 + p2 (X = Y = Z = 1)."""
    a_s, a_d = float(src[3]), float(dst[3])
    cs = [float(x) / a_s if a_s else 0.0 for x in src[:3]]
    cd = [float(x) / a_d if a_d else 0.0 for x in dst[:3]]
    p0, p1, p2 = a_s * a_d, a_s * (1 - a_d), a_d * (1 - a_s)
    f = _f_hsl(eq, cs, cd) if eq.startswith("hsl_") else [_f(eq, s, d) for s, d in zip(cs, cd)]
    rgb = [f[i] * p0 + cs[i] * p1 + cd[i] * p2 for i in range(3)]
    return rgb + [p0 + p1 + p2]


def test_fifteen_equations():
    assert len(ADVANCED_EQUATIONS) == 15 and ADVANCED_EQUATIONS[0] == "multiply"
    assert ADVANCED_EQUATIONS[-1] == "hsl_luminosity"


@pytest.mark.parametrize("eq", ADVANCED_EQUATIONS)
def test_advanced_equation_matches_the_specification(eq):
    rt = RenderTarget(format="i32", components=4, blend=Blend(rgb_func=eq))
    key = ShaderKey.make(render_targets=(rt,))
    tiles, _info, _it = run_fragment(FS, {"c": SRC}, LANES, key=key, tiles={0: f32(DST).copy()})
    got = as_f32(tiles[0])
    want = np.array([reference(eq, SRC[:, i], DST[:, i]) for i in range(LANES)]).T
    np.testing.assert_allclose(got, want, atol=2e-6, rtol=2e-6)


def test_unorm_target_clamps_the_source_first():
    """A normalized target clamps the source to [0, 1] before blending (as the other
    equations): MULTIPLY of (2, -1, 0.5, 1) over (0.5, 0.5, 0.5, 1) is (0.5, 0, 0.25, 1)."""
    rt = RenderTarget(blend=Blend(rgb_func="multiply"))
    src = np.tile(np.array([[2.0], [-1.0], [0.5], [1.0]], np.float32), (1, LANES))
    dst = np.tile(np.array([[0.5], [0.5], [0.5], [1.0]], np.float32), (1, LANES))
    tiles, _info, _it = run_fragment(FS, {"c": src}, LANES, key=ShaderKey.make(render_targets=(rt,)),
                                     tiles={0: f32(dst).copy()})
    np.testing.assert_allclose(as_f32(tiles[0])[:, 0], [0.5, 0.0, 0.25, 1.0], atol=1e-6)


def test_advanced_blend_needs_one_equation():
    with pytest.raises(AssertionError):
        Blend(rgb_func="multiply", alpha_func="screen")
