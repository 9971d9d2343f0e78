"""state_block_bytes (the compatibility state block, built with a plan of
flat index groups and a matrix cache) gives the same bytes as a
straightforward reference that writes each leaf by name from the compiler's
layout, for random states: matrices (singular and identity ones too),
lights, materials, fog, texture environment colours, texgen planes, clip
planes, point parameters, depth range and both stipples."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl.legacy.state import Light, Material
from driver.gl.legacy.stateblock import MAX_LIGHTS, MAX_UNITS, state_block_bytes, state_layout
from tests.driver.gl.conftest import make_ctx
from compiler.link import state_block


def _reference_bytes(ctx) -> bytes:
    """Each leaf written by name, one `put` at a time, from the layout."""
    L = ctx.legacy
    layout = state_layout()
    flat = np.zeros(-(-state_block().size_B // 16) * 16 // 4, np.float64)

    def put(name, value, element=0):
        off, stride, _ = layout[name]
        start = (off + element * stride) // 4
        v = np.ravel(np.asarray(value, np.float64))[:stride // 4]
        flat[start:start + len(v)] = v

    def inv(m):
        try:
            return np.linalg.inv(m)
        except np.linalg.LinAlgError:
            return np.zeros_like(m)

    def put_matrix(base, m, element=0):
        i = inv(m)
        for sfx, x in zip(("", "Inverse", "Transpose", "InverseTranspose"), (m, i, m.T, i.T)):
            put(base + sfx, x.T, element)          # column-major: column c in slot c

    mv, p = L.stacks[0][-1], L.stacks[1][-1]
    put_matrix("gl_ModelViewMatrix", mv)
    put_matrix("gl_ProjectionMatrix", p)
    put_matrix("gl_ModelViewProjectionMatrix", p @ mv)
    for u in range(MAX_UNITS):
        put_matrix("gl_TextureMatrix", L.stacks[2][u][-1], u)
    nm = inv(mv[:3, :3]).T
    put("gl_NormalMatrix", [nm[0, 0], nm[1, 0], nm[2, 0], 0, nm[0, 1], nm[1, 1], nm[2, 1], 0,
                            nm[0, 2], nm[1, 2], nm[2, 2], 0])
    row = inv(mv[:3, :3])[2]
    n = float(np.sqrt(row @ row))
    put("gl_NormalScale", [1.0 / n if n else 1.0])
    for i, pl in enumerate(list(ctx.clip_planes)[:8]):
        put("gl_ClipPlane", pl, i)
    near, far = ctx.state.depth_range
    put("gl_DepthRange.near", near)
    put("gl_DepthRange.far", far)
    put("gl_DepthRange.diff", far - near)
    pt = L.point
    put("gl_Point.size", ctx.state.point_size)
    put("gl_Point.sizeMin", pt.size_min)
    put("gl_Point.sizeMax", pt.size_max)
    put("gl_Point.fadeThresholdSize", pt.fade_threshold)
    put("gl_Point.distanceConstantAttenuation", pt.attenuation[0])
    put("gl_Point.distanceLinearAttenuation", pt.attenuation[1])
    put("gl_Point.distanceQuadraticAttenuation", pt.attenuation[2])
    for side, m in zip(("Front", "Back"), L.materials):
        for f in ("emission", "ambient", "diffuse", "specular", "shininess"):
            put(f"gl_{side}Material.{f}", getattr(m, f))
    for i, li in enumerate(L.lights):
        s = f"gl_LightSource[{i}]."
        put(s + "ambient", li.ambient)
        put(s + "diffuse", li.diffuse)
        put(s + "specular", li.specular)
        put(s + "position", li.position)
        put(s + "halfVector", li.half_vector())
        put(s + "spotDirection", li.spot_direction)
        put(s + "spotExponent", li.spot_exponent)
        put(s + "spotCutoff", li.spot_cutoff)
        put(s + "spotCosCutoff", np.cos(np.radians(li.spot_cutoff)))
        put(s + "constantAttenuation", li.attenuation[0])
        put(s + "linearAttenuation", li.attenuation[1])
        put(s + "quadraticAttenuation", li.attenuation[2])
    put("gl_LightModel.ambient", L.light_model_ambient)
    for side, m in zip(("Front", "Back"), L.materials):
        scene = np.asarray(m.emission) + np.asarray(m.ambient) * np.asarray(L.light_model_ambient)
        scene[3] = m.diffuse[3]
        put(f"gl_{side}LightModelProduct.sceneColor", scene)
        for i, li in enumerate(L.lights):
            for f in ("ambient", "diffuse", "specular"):
                put(f"gl_{side}LightProduct[{i}].{f}",
                    np.asarray(getattr(m, f)) * np.asarray(getattr(li, f)))
    for u, env in enumerate(L.texenv):
        put("gl_TextureEnvColor", env.color, u)
    for u, g in enumerate(L.texgen):
        for c, coord in zip("STRQ", g):
            put(f"gl_EyePlane{c}", coord.eye_plane, u)
            put(f"gl_ObjectPlane{c}", coord.object_plane, u)
    fog = L.fog
    put("gl_Fog.color", fog.color)
    put("gl_Fog.density", fog.density)
    put("gl_Fog.start", fog.start)
    put("gl_Fog.end", fog.end)
    put("gl_Fog.scale", 1.0 / (fog.end - fog.start) if fog.end != fog.start else np.inf)
    with np.errstate(over="ignore"):
        return flat.astype(np.float32).tobytes()


def _vec(rng, n=4):
    return tuple(float(x) for x in rng.uniform(-4, 4, n))


def _matrix(rng):
    kind = rng.integers(4)
    if kind == 0:
        return np.identity(4)
    m = rng.uniform(-3, 3, (4, 4))
    if kind == 1:
        m[:, 2] = 0.0                                   # singular: a zero inverse
    return m


def _randomise(ctx, rng):
    L = ctx.legacy
    for stack in L.stacks[:2]:
        stack[-1] = _matrix(rng)
    for u in range(MAX_UNITS):
        L.stacks[2][u][-1] = _matrix(rng)
    L.lights = [Light(ambient=_vec(rng), diffuse=_vec(rng), specular=_vec(rng),
                      position=_vec(rng) if rng.integers(2) else (*_vec(rng, 3), 0.0),
                      spot_direction=_vec(rng, 3), spot_exponent=float(rng.uniform(0, 128)),
                      spot_cutoff=float(rng.choice([180.0, rng.uniform(0, 90)])),
                      attenuation=tuple(float(x) for x in rng.uniform(0, 2, 3)))
                for _ in range(MAX_LIGHTS)]
    L.materials = [Material(ambient=_vec(rng), diffuse=_vec(rng), specular=_vec(rng),
                            emission=_vec(rng), shininess=float(rng.uniform(0, 128)))
                   for _ in range(2)]
    L.light_model_ambient = _vec(rng)
    for env in L.texenv:
        env.color = _vec(rng)
    for g in L.texgen:
        for coord in g:
            coord.eye_plane, coord.object_plane = _vec(rng), _vec(rng)
    L.fog.color = _vec(rng)
    L.fog.density = float(rng.uniform(0, 2))
    L.fog.start = float(rng.uniform(-5, 5))
    L.fog.end = L.fog.start if rng.integers(3) == 0 else float(rng.uniform(-5, 5))
    L.point.size_min, L.point.size_max = sorted(float(x) for x in rng.uniform(0, 64, 2))
    L.point.fade_threshold = float(rng.uniform(0, 4))
    L.point.attenuation = tuple(float(x) for x in rng.uniform(0, 2, 3))
    ctx.state.point_size = float(rng.uniform(1, 64))
    ctx.state.depth_range = tuple(float(x) for x in rng.uniform(0, 1, 2))
    ctx.clip_planes = [_vec(rng) for _ in ctx.clip_planes]
    L.polygon_stipple = rng.integers(0, 256, 128, dtype=np.uint8).tobytes()
    ctx.state.line_stipple = (int(rng.integers(1, 257)), int(rng.integers(0, 0x10000)))


@pytest.mark.parametrize("seed", range(12))
def test_random_state_matches_reference(seed):
    ctx = make_ctx("compat")
    _randomise(ctx, np.random.default_rng(seed))
    got = state_block_bytes(ctx)
    want = _reference_bytes(ctx)
    assert len(got) == len(want)
    diff = np.flatnonzero(np.frombuffer(got, np.uint32) != np.frombuffer(want, np.uint32))
    names = {(off + e * stride) // 4 + k: f"{n}[{e}]"
             for n, (off, stride, count) in state_layout().items()
             for e in range(count) for k in range(stride // 4)}
    assert not len(diff), [names.get(int(i), int(i)) for i in diff[:10]]


def test_initial_state_matches_reference_and_known_values():
    ctx = make_ctx("compat")
    got = np.frombuffer(state_block_bytes(ctx), np.float32)
    assert state_block_bytes(ctx) == _reference_bytes(ctx)
    off, _, _ = state_layout()["gl_ModelViewMatrixInverse"]
    assert got[off // 4:off // 4 + 16].tolist() == np.identity(4).ravel().tolist()
    off, _, _ = state_layout()["gl_LightSource[0].diffuse"]
    assert got[off // 4:off // 4 + 4].tolist() == [1.0, 1.0, 1.0, 1.0]      # table 6.11
    off, _, _ = state_layout()["gl_LightSource[0].halfVector"]
    # directional light along +z: normalize((0,0,1) + (0,0,1)) = (0,0,1)
    assert got[off // 4:off // 4 + 4].tolist() == [0.0, 0.0, 1.0, 1.0]


def test_state_changes_between_calls_are_seen():
    """The matrix cache is keyed by the matrices' bytes: a matrix changed in
    place (glLoadMatrix writes into the stack's top) gives new bytes."""
    ctx = make_ctx("compat")
    rng = np.random.default_rng(99)
    _randomise(ctx, rng)
    first = state_block_bytes(ctx)
    ctx.legacy.stacks[0][-1][0, 3] += 1.5
    ctx.legacy.stacks[2][5][-1][1, 1] = 7.0
    ctx.legacy.lights[3].position = (1.0, 2.0, 3.0, 1.0)
    second = state_block_bytes(ctx)
    assert second != first
    assert second == _reference_bytes(ctx)
