"""Lowering texture operations the ISA has no instruction for.

``lower_tex_lod``: ``textureQueryLod`` (Tex op ``lod``) computed in the shader from
derivatives, as NIR's ``nir_lower_tex`` does for hardware without a LOD query
(GLSL 4.00 section 8.9.1, ARB_texture_query_lod; the LOD of GL 4.6 section 8.14.1).
The sampler's state comes from ``load_sampler_lod_parameters`` (the driver's values
of the sampler bound to the unit: min LOD, max LOD, LOD bias with the texture unit's
bias added and clamped to MAX_TEXTURE_LOD_BIAS, mip filter 0 none / 1 nearest /
2 linear):

    size    = textureSize(t, 0)                 (texels; 1 for rectangle textures)
    rho^2   = max(|dP/dx * size|^2, |dP/dy * size|^2)
    lambda  = log2(rho) = 0.5 * log2(rho^2)     (-inf for a constant coordinate)
    lambda' = lambda + bias                     -> y
    c       = clamp(lambda', min_lod, max_lod), then clamp(c, 0, levels - 1)
    x       = 0 (no mip filter), ceil(c + 0.5) - 1 (nearest), c (linear)

``y`` is lambda' relative to the base level, after the bias and before the LOD
clamps; ``x`` the level(s) a lookup would read (the extension's ComputeAccessedLod;
``levels`` counts the view's levels from BASE_LEVEL, so MAX_LEVEL and BASE_LEVEL
bound it). Cube maps project the direction on its major axis first (face
coordinates in [-1, 1], so the face size is ``size / 2`` per unit). Array layers are
not part of the coordinate.
"""

from __future__ import annotations

from ..builder import Builder
from ..core import Def, Shader, Tex, replace_uses, walk_instrs

__all__ = ["lower_tex_lod"]

_COORDS = {"1d": 1, "2d": 2, "3d": 3, "cube": 3, "rect": 2}


def _lod(b: Builder, t: Tex) -> Def:
    n = _COORDS[t.dim]
    coord = t.src("coord")
    p = b.swizzle(coord, tuple(range(n))) if coord.num_components != n else coord
    common = dict(texture=t.texture, sampler=t.sampler, dim=t.dim, is_array=t.is_array)
    if t.dim == "cube":
        # face coordinates: the direction over its largest magnitude (2 units per face)
        ax = b.fabs(p)
        major = b.fmax(b.channel(ax, 0), b.fmax(b.channel(ax, 1), b.channel(ax, 2)))
        p = b.fmul(p, b.frcp(major))
        n_size = 2
    else:
        n_size = n
    dx, dy = b.fddx(p), b.fddy(p)
    if t.dim != "rect":
        size = b.i2f32(b.tex("txs", lod=b.iimm(0), num_components=n_size, dest_type="int", **common))
        if t.dim == "cube":       # both face axes have the face's size; 2 units per face
            size = b.fmul(b.swizzle(size, (0, 0, 0)), b.fimm(0.5))
        dx, dy = b.fmul(dx, size), b.fmul(dy, size)
    dot = getattr(b, f"fdot{n}") if n > 1 else b.fmul
    rho2 = b.fmax(dot(dx, dx), dot(dy, dy))
    lam = b.fmul(b.flog2(rho2), b.fimm(0.5))
    params = b.intrinsic("load_sampler_lod_parameters", sampler=t.sampler)
    min_lod, max_lod, bias, mip = (b.channel(params, k) for k in range(4))
    lam_prime = b.fadd(lam, bias)
    levels = b.i2f32(b.tex("query_levels", num_components=1, dest_type="int", **common))
    top = b.fmax(b.fadd(levels, b.fimm(-1.0)), b.fimm(0.0))
    c = b.fmin(b.fmax(lam_prime, min_lod), max_lod)
    c = b.fmin(b.fmax(c, b.fimm(0.0)), top)
    nearest = b.fadd(b.fceil(b.fadd(c, b.fimm(0.5))), b.fimm(-1.0))
    x = b.bcsel(b.flt(mip, b.fimm(0.5)), b.fimm(0.0), b.bcsel(b.flt(mip, b.fimm(1.5)), nearest, c))
    return b.vec2(x, lam_prime)


def lower_tex_lod(shader: Shader) -> bool:
    """Replace every Tex ``lod`` by its computation from derivatives."""
    progress = False
    for func in shader.functions:
        mapping: dict[Def, Def] = {}
        for instr in list(walk_instrs(func.body)):
            if isinstance(instr, Tex) and instr.op == "lod":
                mapping[instr.dest] = _lod(Builder(func, shader).before(instr), instr)
                instr.block.remove(instr)
                progress = True
        replace_uses(func.body, mapping)
    return progress
