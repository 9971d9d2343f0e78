"""The classic legacy programs rendered through the whole stack
(driver.Context(api="compat") -> driver.agx -> the GPU model), checked three
ways: against analytic expectations computed here with numpy (the lighting
equation per face, texel x colour, the fog blend per pixel), against Mesa's
llvmpipe running the same program through PyOpenGL (`mesa`), and the same
program through PyOpenGL on shimgl's C ABI."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import driver
from tests.driver.gl.legacy import features, scenes

REF = Path(__file__).with_name("mesa_legacy_ref.py")
ROOT = Path(__file__).resolve().parents[4]
W = H = 64
TOL = 2                 # per channel, in 1/255 (piglit's default RGBA8 probe tolerance is ~0.01)


def render(scene, w=W, h=H, **kw) -> np.ndarray:
    ctx = driver.Context(api="compat", width=w, height=h)
    {**scenes.SCENES, **features.FEATURES}[scene](ctx, w, h, **kw)
    assert ctx.glGetError() == ctx.GL_NO_ERROR, ctx.gl.error_log
    return ctx.read_pixels().astype(int)


# -- independent matrix helpers (the GL 2.1 equations 2.3-2.7) ---------------------------------
def rotate(angle_deg, x, y, z):
    u = np.array([x, y, z], float) / math.sqrt(x * x + y * y + z * z)
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    k = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    m = np.identity(4)
    m[:3, :3] = c * np.identity(3) + s * k + (1 - c) * np.outer(u, u)
    return m


def translate(x, y, z):
    m = np.identity(4)
    m[:3, 3] = (x, y, z)
    return m


def frustum(l, r, b, t, n, f):
    return np.array([[2 * n / (r - l), 0, (r + l) / (r - l), 0], [0, 2 * n / (t - b), (t + b) / (t - b), 0],
                     [0, 0, -(f + n) / (f - n), -2 * f * n / (f - n)], [0, 0, -1, 0]])


def to_window(p_clip, w, h):
    ndc = p_clip[:3] / p_clip[3]
    return np.array([(ndc[0] + 1) * w / 2, (ndc[1] + 1) * h / 2])


def inside_convex(poly, w, h, margin_px):
    """Pixel-centre mask of a counter-clockwise convex window polygon, shrunk by margin_px."""
    x, y = np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5)
    mask = np.ones((h, w), bool)
    for a, b in zip(poly, np.roll(poly, -1, axis=0)):
        e = b - a
        dist = (e[0] * (y - a[1]) - e[1] * (x - a[0])) / np.hypot(*e)
        mask &= dist >= margin_px
    return mask


def to_u8(c):
    return np.round(np.clip(np.asarray(c, float), 0, 1) * 255).astype(int)


# -- analytic checks -------------------------------------------------------------------------------
def test_lit_cube_matches_the_lighting_equation():
    """Per face: e + a*(lm_a + l_a) + max(n.L, 0) d + (n.L > 0) (n.h)^s s_m s_l (GL 2.1
    equation 2.1, directional light, infinite viewer, colour material = ambient and diffuse)."""
    angle, c = 30.0, scenes.CUBE
    img = render("lit_cube", angle=angle)
    mv = translate(0, 0, c["translate"]) @ rotate(angle, 1, 1, 0) @ rotate(angle / 2, 0, 0, 1)
    proj = frustum(-1, 1, -1, 1, c["near"], c["far"])
    L = np.array(c["light_dir"]) / np.linalg.norm(c["light_dir"])
    half = (L + [0, 0, 1]) / np.linalg.norm(L + [0, 0, 1])
    checked = 0
    for normal, color, corners in scenes.CUBE_FACES:
        poly = np.array([to_window(proj @ mv @ np.array([*v, 1.0]), W, H) for v in corners])
        e1, e2 = poly[2] - poly[0], poly[3] - poly[1]
        area = e1[0] * e2[1] - e1[1] * e2[0]                  # twice the signed area
        if area <= 0:
            continue                                    # back-facing: culled
        n = mv[:3, :3] @ normal
        nl = n @ L
        cm = np.array(color)
        rgb = cm * 0.2 + cm * c["light_ambient"][:3] + max(nl, 0) * cm
        if nl > 0:
            rgb = rgb + max(n @ half, 0) ** c["shininess"] * np.array(c["mat_specular"][:3])
        mask = inside_convex(poly, W, H, 1.5)
        if mask.sum() < 10:
            continue                                    # seen edge-on: no interior pixels
        got = img[mask][:, :3]
        assert np.abs(got - to_u8(rgb)).max() <= TOL, (color, got[:3], to_u8(rgb))
        assert (img[mask][:, 3] == 255).all()
        checked += 1
    assert checked >= 2


def test_textured_quad_modulates_texels_by_the_colour():
    img = render("textured_quad")
    tex = scenes.checker_texture()
    s = ((np.arange(W) + 0.5) / W * 4).astype(int)
    t = ((np.arange(H) + 0.5) / H * 4).astype(int)
    texel = tex[t[:, None], s[None, :]] / 255.0                  # (H, W, 4); texture row = t
    want = to_u8(texel * scenes.TEXTURED["color"])
    assert np.abs(img - want).max() <= TOL


def test_multitexture_and_linear_fog():
    """prev = colour * tex0; prev.rgb += tex1.rgb (COMBINE ADD); f = (end - |z_eye|) / (end - start);
    C = f prev + (1 - f) fog colour, with z_eye linear across the orthographic quad."""
    f = scenes.FOGGED
    img = render("multitexture_fog")
    s = (np.arange(W) + 0.5) / W
    t = (np.arange(H) + 0.5) / H
    tex0 = f["tex0"][0, (s * 4).astype(int)] / 255.0             # per column
    tex1 = f["tex1"][(t * 4).astype(int), 0] / 255.0             # per row
    prev = np.array(f["color"]) * tex0[None, :, :]                # (1, W, 4)
    rgb = np.clip(prev[..., :3] + tex1[:, None, :3], 0, 1)        # (H, W, 3)
    z = f["z_left"] + (f["z_right"] - f["z_left"]) * s
    fog = np.clip((f["fog_end"] - np.abs(z)) / (f["fog_end"] - f["fog_start"]), 0, 1)[None, :, None]
    want = np.concatenate([fog * rgb + (1 - fog) * np.array(f["fog_color"][:3]),
                           np.broadcast_to(prev[..., 3:], (H, W, 1))], -1)
    assert np.abs(img - to_u8(want)).max() <= TOL


def test_display_listed_gears_front_faces_are_lit_flat():
    """The red gear's front face (normal +z, flat shaded) at points between its hole and
    its teeth: 0.2 * m + max(n.L, 0) * m (light 0 white, no specular)."""
    angle, g = 10.0, scenes.GEARS
    img = render("gears", angle=angle)
    inner, outer, width, _, depth, color, pos, (scale, offset) = g["gears"][0]
    view = translate(0, 0, -40) @ rotate(g["view_rotx"], 1, 0, 0) @ rotate(g["view_roty"], 0, 1, 0)
    mv = view @ translate(*pos) @ rotate(scale * angle + offset, 0, 0, 1)
    proj = frustum(-1, 1, -1, 1, 5, 60)
    n = mv[:3, :3] @ [0, 0, 1]
    L = np.array(g["light"][:3]) / np.linalg.norm(g["light"][:3])
    want = to_u8(np.array(color[:3]) * (0.2 + max(n @ L, 0)))
    r = (inner + outer - depth / 2) / 2
    for phi in (100, 180, 220, 260):
        p = np.array([r * math.cos(math.radians(phi)), r * math.sin(math.radians(phi)), width / 2, 1])
        x, y = to_window(proj @ mv @ p, W, H).astype(int)
        assert np.abs(img[y, x, :3] - want).max() <= TOL, (phi, img[y, x], want)


def test_display_lists_replay_with_new_transforms():
    """The same lists drawn at another angle give the image of freshly compiled ones."""
    ctx = driver.Context(api="compat", width=W, height=H)
    lists = scenes.gears(ctx, W, H, angle=0.0)
    scenes.gears(ctx, W, H, angle=25.0, lists=lists)
    again = ctx.read_pixels().astype(int)
    assert (again == render("gears", angle=25.0)).all()


# -- against llvmpipe and through the C ABI -----------------------------------------------------------
def reference(scene, vendor="mesa", env=None, w=W, h=H) -> np.ndarray:
    res = subprocess.run([sys.executable, str(REF), scene, str(w), str(h), vendor], capture_output=True,
                         env=env, cwd=str(ROOT), timeout=600)
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    return np.frombuffer(res.stdout, np.uint8).reshape(h, w, 4).astype(int)


def assert_images_match(img, ref, tol=3, max_bad_fraction=0.002):
    """piglit-style: per-channel tolerance; a few edge pixels may differ (rasterisation ties)."""
    bad = (np.abs(img - ref) > tol).any(-1)
    assert bad.mean() <= max_bad_fraction, f"{bad.sum()} pixels differ (max {np.abs(img - ref).max()})"


@pytest.mark.mesa
@pytest.mark.parametrize("scene", sorted(scenes.SCENES))
def test_matches_llvmpipe(scene):
    assert_images_match(render(scene), reference(scene))


@pytest.mark.mesa
@pytest.mark.slow
@pytest.mark.parametrize("feature", sorted(set(features.FEATURES) - {"texenv_modes"}))
def test_feature_matches_llvmpipe(feature):
    """Two-sided spot lighting, texgen, combiners, fog modes, stipple and flat
    quads, pixel rectangles, arrays and attribute stacks, clip planes and
    normal rescaling: each a small program, against llvmpipe at 48 x 48."""
    # evaluators: a non-planar quad may be split along either diagonal (GL 2.1 section
    # 2.6.1), so the curved patch differs from llvmpipe's split on a few pixels;
    # line_stipple: the counter is the distance along the major axis from the (fractional)
    # first vertex, so a dash may start one fragment earlier or later than llvmpipe's count
    # of fragments; texture_targets: the cube-mapped fan's spokes at 45 degrees interpolate
    # normals whose |x| and |y| are equal, and GL 4.6 section 8.13 leaves the face of such a
    # tie to the implementation (the 10 pixels that differ lie on those spokes, either way)
    bad = 0.01 if feature in ("evaluators", "line_stipple", "array_primitives", "texture_targets") else 0.002
    assert_images_match(render(feature, 48, 48), reference(feature, w=48, h=48), max_bad_fraction=bad)


@pytest.mark.mesa
@pytest.mark.slow
def test_texenv_modes_match_llvmpipe():
    """5 environment modes x 6 base formats (30 generated fragment programs)."""
    assert_images_match(render("texenv_modes", 48, 48), reference("texenv_modes", w=48, h=48))


@pytest.mark.mesa
@pytest.mark.slow
@pytest.mark.parametrize("scene", ["gears", "lit_cube"])
def test_matches_llvmpipe_larger(scene):
    assert_images_match(render(scene, 160, 120), reference(scene, w=160, h=120))


@pytest.mark.slow
@pytest.mark.parametrize("scene", sorted(scenes.SCENES))
def test_pyopengl_through_the_abi(scene):
    """The same PyOpenGL program unchanged, on shimgl's EGL vendor library."""
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    via_abi = reference(scene, "shimgl", clean_env(**paths.environment({})))
    assert_images_match(via_abi, render(scene), tol=0, max_bad_fraction=0.0)


@pytest.mark.slow
@pytest.mark.parametrize("feature", ["array_primitives", "material_in_begin_end", "pixel_fragments",
                                     "point_sprites", "polygon_modes_split"])
def test_feature_through_the_abi(feature):
    """Client arrays, indices compiled into lists, depth/stencil pixel
    rectangles and per-vertex materials through PyOpenGL on the C ABI."""
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    via_abi = reference(feature, "shimgl", clean_env(**paths.environment({})), 48, 48)
    assert_images_match(via_abi, render(feature, 48, 48), tol=0, max_bad_fraction=0.0)
