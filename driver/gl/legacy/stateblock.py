"""The built-in uniform state block of the compatibility profile (GLSL 1.20
section 7.5): one layout, written once, that both the GLSL built-ins
(gl_ModelViewMatrix, gl_LightSource[i].diffuse, gl_Fog.scale, ...) and the
generated fixed-function stages read, so the two always agree.

The layout is the compiler's (``compiler.link.state_block``: std430, the
built-in variables in a fixed order): shaders read these bytes where the
front end writes them, from constant buffer 15. `state_layout()` maps each leaf
name as the compiler reports it ("gl_TextureMatrix", "gl_LightSource[3].position",
"gl_Fog.density") to (offset_B, element stride_B, elements)."""

from __future__ import annotations

import struct
from functools import lru_cache

import numpy as np

__all__ = ["state_layout", "state_block_bytes", "MAX_LIGHTS", "MAX_UNITS"]

MAX_LIGHTS = 8
MAX_UNITS = 8

_MATS = ("gl_ModelViewMatrix", "gl_ProjectionMatrix", "gl_ModelViewProjectionMatrix")
_SFX = ("", "Inverse", "Transpose", "InverseTranspose")
_LIGHT = ("ambient", "diffuse", "specular", "position", "halfVector", "spotDirection",
          "spotExponent", "spotCutoff", "spotCosCutoff", "constantAttenuation",
          "linearAttenuation", "quadraticAttenuation")
_MATERIAL = ("emission", "ambient", "diffuse", "specular", "shininess")
_POINT = ("size", "sizeMin", "sizeMax", "fadeThresholdSize", "distanceConstantAttenuation",
          "distanceLinearAttenuation", "distanceQuadraticAttenuation")


@lru_cache(maxsize=1)
def state_layout() -> dict[str, tuple[int, int, int]]:
    """leaf name -> (offset_B, element stride_B, elements) in the compiler's state block."""
    from compiler.link import state_block
    return {name: (off, stride, n) for name, (off, stride, _matrix_stride, n) in state_block().leaves}


def _state_block_B() -> int:
    from compiler.link import state_block
    return -(-state_block().size_B // 16) * 16


_IDENTITY = np.identity(4)


def _inv(m: np.ndarray) -> np.ndarray:
    try:
        return np.linalg.inv(m)
    except np.linalg.LinAlgError:
        return np.zeros_like(m)


class _Plan:
    """Where each group of the block's values goes, as flat float indices
    (offset_B // 4) in the order the per-draw code lists the group's values.

    Derived once from `state_layout()` and the field tuples above; a field
    shorter than its stride (a vec3 in a 16-byte slot) contributes only its
    own components, so the order of a group's values is: for each element
    (light, side, unit, row) in turn, each field's components in turn."""

    def __init__(self):
        layout = state_layout()
        self.size_floats = _state_block_B() // 4

        def idx(name, element=0):
            off, stride, _ = layout[name]
            start = (off + element * stride) // 4
            return list(range(start, start + stride // 4))

        def group(names_per_element):
            return np.array([i for names in names_per_element for name, element in names
                             for i in idx(name, element)], np.intp)

        # the matrix-derived part: every leaf before the clip planes, contiguous from 0
        self.matrix_floats = layout["gl_ClipPlane"][0] // 4
        self.matrices = group([[(m + sfx, 0)] for m in _MATS for sfx in _SFX])
        self.texture_matrices = group([[("gl_TextureMatrix" + sfx, u)] for sfx in _SFX
                                       for u in range(MAX_UNITS)])
        self.normal_matrix = group([[("gl_NormalMatrix", 0)]])
        self.normal_scale = group([[("gl_NormalScale", 0)]])
        self.clip_plane = [group([[("gl_ClipPlane", i)] for i in range(n)]) for n in range(9)]
        self.scalars = group([[("gl_DepthRange." + f, 0) for f in ("near", "far", "diff")]
                              + [("gl_Point." + f, 0) for f in _POINT]])
        self.materials = group([[(f"gl_{side}Material.{f}", 0) for f in _MATERIAL]
                                for side in ("Front", "Back")])
        self.lights = group([[(f"gl_LightSource[{i}].{f}", 0) for f in _LIGHT]
                             for i in range(MAX_LIGHTS)])
        self.light_model = group([[("gl_LightModel.ambient", 0)]]
                                 + [[(f"gl_{side}LightModelProduct.sceneColor", 0)]
                                    for side in ("Front", "Back")])
        self.light_products = group([[(f"gl_{side}LightProduct[{i}].{f}", 0)
                                      for f in ("ambient", "diffuse", "specular")]
                                     for side in ("Front", "Back") for i in range(MAX_LIGHTS)])
        self.texenv = group([[("gl_TextureEnvColor", u)] for u in range(MAX_UNITS)])
        self.texgen = group([[(f"gl_{kind}Plane{c}", u) for c in "STRQ" for kind in ("Eye", "Object")]
                             for u in range(MAX_UNITS)])
        self.fog = group([[("gl_Fog." + f, 0) for f in ("color", "density", "start", "end", "scale")]])


@lru_cache(maxsize=1)
def _plan() -> _Plan:
    return _Plan()


def _matrix_set(m: np.ndarray) -> np.ndarray:
    """(4, 16): m, its inverse, transpose and inverse transpose, each column-major
    (column c in slot c); an identity matrix skips the inversion, a singular
    one has a zero inverse."""
    if m is _IDENTITY or np.array_equal(m, _IDENTITY):
        return np.broadcast_to(_IDENTITY.ravel(), (4, 16))
    inv = _inv(m)
    return np.stack([x.T.ravel() for x in (m, inv, m.T, inv.T)])


@lru_cache(maxsize=16)
def _matrix_part(key: bytes) -> np.ndarray:
    """The block's floats [0, matrix_floats) (the matrices, their inverses and
    transposes, gl_NormalMatrix, gl_NormalScale) for the modelview, projection
    and eight texture matrices packed in `key` (float64, that order); cached
    by those bytes, since most draws change no matrix."""
    plan = _plan()
    ms = np.frombuffer(key, np.float64).reshape(2 + MAX_UNITS, 4, 4)
    mv, p = ms[0], ms[1]
    out = np.zeros(plan.matrix_floats, np.float64)
    out[plan.matrices] = np.concatenate([_matrix_set(m).ravel() for m in (mv, p, p @ mv)])
    out[plan.texture_matrices] = np.stack([_matrix_set(m) for m in ms[2:]], axis=1).ravel()
    inv3 = _inv(mv[:3, :3])
    nm = inv3.T
    out[plan.normal_matrix] = np.concatenate([np.append(nm[:, c], 0.0) for c in range(3)])
    # GL 2.1 section 2.11.3: rescale factor 1 / |third row of the inverse|
    row = inv3[2]
    n = float(np.sqrt(row @ row))
    out[plan.normal_scale] = 1.0 / n if n else 1.0
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _half_vector(position: tuple) -> tuple:
    """Light.half_vector, which depends on the position only."""
    from driver.gl.legacy.state import Light
    return Light(position=position).half_vector()


def state_block_bytes(ctx) -> bytes:
    """The block for the current state of a compatibility context `ctx`
    (matrix stacks, clip planes and depth range from driver.gl.compat; the
    rest from ctx.legacy, a driver.gl.legacy.state.LegacyState). The same
    state gives the same bytes; the values go where `_plan()` says, a few
    vectorised stores per group of fields."""
    L = ctx.legacy
    stacks = L.stacks
    key = b"".join(np.asarray(m, np.float64).tobytes()
                   for m in (stacks[0][-1], stacks[1][-1], *(s[-1] for s in stacks[2][:MAX_UNITS])))
    try:
        values = _values_key(ctx)
    except (struct.error, TypeError):          # a value that is not a number: built, not kept
        return _block(ctx, key)
    whole = key + values
    block = _BLOCKS.get(whole)
    if block is None:
        if len(_BLOCKS) >= 64:
            _BLOCKS.clear()
        block = _BLOCKS[whole] = _block(ctx, key)
    return block


#: state_block_bytes' blocks by the bytes of everything they are built from
#: (_values_key: floats by their bits, so -0.0 and 0.0 are two keys): draw after draw
#: the same state builds the same block
_BLOCKS: dict = {}


def _values_key(ctx) -> bytes:
    """The numbers ``_block`` reads besides the matrices, packed as float64 in the
    order it reads them (with the clip plane count): struct.error or TypeError for a
    value that is not a number."""
    L = ctx.legacy
    planes = list(ctx.clip_planes)[:8]
    pt = L.point
    vals = [len(planes), *ctx.state.depth_range, ctx.state.point_size, pt.size_min, pt.size_max,
            pt.fade_threshold, *pt.attenuation]
    for p in planes:
        vals += p[:4]
    for m in L.materials:
        vals += (*m.emission, *m.ambient, *m.diffuse, *m.specular, m.shininess)
    for li in L.lights:
        vals += (*li.ambient, *li.diffuse, *li.specular, *li.position, *li.spot_direction[:3],
                 li.spot_exponent, li.spot_cutoff, *li.attenuation)
    vals += L.light_model_ambient
    for env in L.texenv:
        vals += env.color
    for g in L.texgen:
        for coord in g:
            vals += (*coord.eye_plane, *coord.object_plane)
    fog = L.fog
    vals += (*fog.color, fog.density, fog.start, fog.end)
    return struct.pack(f"<{len(vals)}d", *vals)


def _block(ctx, key: bytes) -> bytes:
    """state_block_bytes, built (``key``: the matrices' bytes)."""
    L = ctx.legacy
    plan = _plan()
    flat = np.zeros(plan.size_floats, np.float64)
    flat[:plan.matrix_floats] = _matrix_part(key)

    planes = list(ctx.clip_planes)[:8]
    if planes:
        flat[plan.clip_plane[len(planes)]] = np.ravel(np.asarray(planes, np.float64)[:, :4])
    near, far = ctx.state.depth_range
    pt = L.point
    flat[plan.scalars] = (near, far, far - near, ctx.state.point_size, pt.size_min, pt.size_max,
                          pt.fade_threshold, *pt.attenuation)
    mats = L.materials
    flat[plan.materials] = [x for m in mats for x in (*m.emission, *m.ambient, *m.diffuse,
                                                        *m.specular, m.shininess)]
    lights = L.lights
    cutoffs = np.array([li.spot_cutoff for li in lights], np.float64)
    cos_cutoffs = np.cos(np.radians(cutoffs))
    flat[plan.lights] = [x for li, cc in zip(lights, cos_cutoffs)
                         for x in (*li.ambient, *li.diffuse, *li.specular, *li.position,
                                   *_half_vector(tuple(li.position)), *li.spot_direction[:3],
                                   li.spot_exponent, li.spot_cutoff, cc, *li.attenuation)]
    # (side, ambient/diffuse/specular, 4) and (light, ambient/diffuse/specular, 4)
    mat_colors = np.array([(m.ambient, m.diffuse, m.specular) for m in mats], np.float64)
    light_colors = np.array([(li.ambient, li.diffuse, li.specular) for li in lights], np.float64)
    model_ambient = np.asarray(L.light_model_ambient, np.float64)
    scene = np.array([m.emission for m in mats], np.float64) + mat_colors[:, 0] * model_ambient
    scene[:, 3] = mat_colors[:, 1, 3]
    flat[plan.light_model] = np.concatenate([model_ambient, scene.ravel()])
    flat[plan.light_products] = (mat_colors[:, None] * light_colors[None]).ravel()
    flat[plan.texenv] = [x for env in L.texenv for x in env.color]
    flat[plan.texgen] = [x for g in L.texgen for coord in g
                         for x in (*coord.eye_plane, *coord.object_plane)]
    fog = L.fog
    # gl_Fog.scale = 1 / (end - start), an infinity when they are equal (as Mesa's
    # STATE_FOG_PARAMS); the fog blends use compiler.arb.to_ir.FOG_BLEND_SCALE
    flat[plan.fog] = (*fog.color, fog.density, fog.start, fog.end,
                      1.0 / (fog.end - fog.start) if fog.end != fog.start else float("inf"))
    with np.errstate(over="ignore"):          # beyond float's range: an infinity, as a C cast
        return flat.astype(np.float32).tobytes()
