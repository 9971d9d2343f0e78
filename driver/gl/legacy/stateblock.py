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


def state_block_bytes(ctx) -> bytes:
    """The block for the current state of a compatibility context `ctx`
    (matrix stacks, clip planes and depth range from driver.gl.compat; the
    rest from ctx.legacy, a driver.gl.legacy.state.LegacyState)."""
    L = ctx.legacy
    layout = state_layout()
    flat = np.zeros(_state_block_B() // 4, np.float64)

    def put(name, value, element=0):
        off, stride, _ = layout[name]
        start = (off + element * stride) // 4
        v = np.ravel(value) if isinstance(value, np.ndarray) else value
        v = v[:stride // 4]                 # (a vec3 given as 4 values: the 4th is not its own)
        flat[start:start + len(v)] = v

    def put_matrix(base, m, element=0):
        if m is _IDENTITY or np.array_equal(m, _IDENTITY):
            for sfx in _SFX:
                put(base + sfx, _IDENTITY, element)
            return
        inv = _inv(m)
        for sfx, x in zip(_SFX, (m, inv, m.T, inv.T)):
            put(base + sfx, x.T, element)          # column-major: column c in slot c

    mv, p = ctx.legacy.stacks[0][-1], ctx.legacy.stacks[1][-1]
    put_matrix("gl_ModelViewMatrix", mv)
    put_matrix("gl_ProjectionMatrix", p)
    put_matrix("gl_ModelViewProjectionMatrix", p @ mv)
    for u in range(MAX_UNITS):
        put_matrix("gl_TextureMatrix", ctx.legacy.stacks[2][u][-1], u)
    nm = _inv(mv[:3, :3]).T
    put("gl_NormalMatrix", np.concatenate([np.append(nm[:, c], 0.0) for c in range(3)]))
    # GL 2.1 section 2.11.3: rescale factor 1 / |third row of the inverse|
    row = _inv(mv[:3, :3])[2]
    n = float(np.sqrt(row @ row))
    put("gl_NormalScale", [1.0 / n if n else 1.0])
    planes = list(ctx.clip_planes)[:8]
    for i, pl in enumerate(planes):
        put("gl_ClipPlane", pl, i)
    near, far = ctx.state.depth_range
    put("gl_DepthRange.near", [near])
    put("gl_DepthRange.far", [far])
    put("gl_DepthRange.diff", [far - near])
    pt = L.point
    for f, v in zip(_POINT, (ctx.state.point_size, pt.size_min, pt.size_max, pt.fade_threshold,
                             *pt.attenuation)):
        put(f"gl_Point.{f}", [v])
    for side, m in zip(("Front", "Back"), L.materials):
        for f in _MATERIAL:
            put(f"gl_{side}Material.{f}", getattr(m, f) if f != "shininess" else [m.shininess])
    for i, li in enumerate(L.lights):
        put(f"gl_LightSource[{i}].ambient", li.ambient)
        put(f"gl_LightSource[{i}].diffuse", li.diffuse)
        put(f"gl_LightSource[{i}].specular", li.specular)
        put(f"gl_LightSource[{i}].position", li.position)
        put(f"gl_LightSource[{i}].halfVector", li.half_vector())
        put(f"gl_LightSource[{i}].spotDirection", li.spot_direction)
        put(f"gl_LightSource[{i}].spotExponent", [li.spot_exponent])
        put(f"gl_LightSource[{i}].spotCutoff", [li.spot_cutoff])
        put(f"gl_LightSource[{i}].spotCosCutoff", [np.cos(np.radians(li.spot_cutoff))])
        put(f"gl_LightSource[{i}].constantAttenuation", [li.attenuation[0]])
        put(f"gl_LightSource[{i}].linearAttenuation", [li.attenuation[1]])
        put(f"gl_LightSource[{i}].quadraticAttenuation", [li.attenuation[2]])
    put("gl_LightModel.ambient", L.light_model_ambient)
    for side, m in zip(("Front", "Back"), L.materials):
        scene = np.asarray(m.emission) + np.asarray(m.ambient) * np.asarray(L.light_model_ambient)
        scene[3] = m.diffuse[3]
        put(f"gl_{side}LightModelProduct.sceneColor", scene)
        for i, li in enumerate(L.lights):
            for f in ("ambient", "diffuse", "specular"):
                put(f"gl_{side}LightProduct[{i}].{f}", np.asarray(getattr(m, f)) * np.asarray(getattr(li, f)))
    for u, env in enumerate(L.texenv):
        put("gl_TextureEnvColor", env.color, u)
    for u, g in enumerate(L.texgen):
        for c, coord in zip("STRQ", g):
            put(f"gl_EyePlane{c}", coord.eye_plane, u)
            put(f"gl_ObjectPlane{c}", coord.object_plane, u)
    fog = L.fog
    put("gl_Fog.color", fog.color)
    put("gl_Fog.density", [fog.density])
    put("gl_Fog.start", [fog.start])
    put("gl_Fog.end", [fog.end])
    put("gl_Fog.scale", [1.0 / (fog.end - fog.start) if fog.end != fog.start else 0.0])
    bits = np.unpackbits(np.frombuffer(L.polygon_stipple, np.uint8)).reshape(32, 32)
    # each row as 4 bytes (floats hold 8 bits exactly): the shader extracts bit x
    rows = np.packbits(bits, axis=1).astype(np.float64)
    for r in range(32):
        put("shimgl_PolygonStipple", rows[r], r)
    put("shimgl_LineStipple", [L.line_stipple[0], L.line_stipple[1], 0, 0])
    with np.errstate(over="ignore"):          # beyond float's range: an infinity, as a C cast
        return flat.astype(np.float32).tobytes()
