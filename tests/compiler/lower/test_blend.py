"""The fragment epilogue: blending in the shader (every factor and equation against a
numpy reference), write masks, tile formats, multiple render targets, alpha test,
alpha to coverage, sample mask and depth output."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.compile import front_half
from compiler.ir import Intrinsic, ShaderKey, walk_instrs
from compiler.lower import Blend, RenderTarget
from compiler.keys import EQUATIONS, FACTORS
from tests.compiler.lower.harness import as_f32, f32, run_fragment

LANES = 16
rng = np.random.default_rng(5)
SRC = rng.uniform(-0.2, 1.2, (4, LANES)).astype(np.float32)
DST = rng.uniform(0, 1, (4, LANES)).astype(np.float32)
CONST = np.array([0.2, 0.4, 0.6, 0.8], np.float32)
FS = "#version 330\nin vec4 c; out vec4 o;\nvoid main() { o = c; }\n"
SRC1 = rng.uniform(-0.2, 1.2, (4, LANES)).astype(np.float32)
# dual-source blending: the output of index 1 is the second colour (SRC1 factors)
FS_DUAL = ("#version 330\nin vec4 c; in vec4 c1;\nlayout(location = 0, index = 0) out vec4 o;\n"
           "layout(location = 0, index = 1) out vec4 o1;\nvoid main() { o = c; o1 = c1; }\n")


def ref_factor(name, s, d, k, alpha, s1=None):
    """A factor, per GL 4.6 table 17.2, for the rgb (alpha=False) or alpha part."""
    part = (lambda v: v[3:4]) if alpha else (lambda v: v[:3])
    s1 = np.zeros_like(s) if s1 is None else s1
    table = {
        "src1_color": part(s1), "one_minus_src1_color": 1 - part(s1),
        "src1_alpha": s1[3:4], "one_minus_src1_alpha": 1 - s1[3:4],
        "zero": 0.0, "one": 1.0,
        "src_color": part(s), "one_minus_src_color": 1 - part(s),
        "dst_color": part(d), "one_minus_dst_color": 1 - part(d),
        "src_alpha": s[3:4], "one_minus_src_alpha": 1 - s[3:4],
        "dst_alpha": d[3:4], "one_minus_dst_alpha": 1 - d[3:4],
        "constant_color": part(k), "one_minus_constant_color": 1 - part(k),
        "constant_alpha": k[3:4], "one_minus_constant_alpha": 1 - k[3:4],
        "src_alpha_saturate": 1.0 if alpha else np.minimum(s[3:4], 1 - d[3:4]),
    }
    return table[name]


def ref_blend(bl: Blend, s, d, k, s1=None):
    s = np.clip(s, 0, 1)                      # unorm target: sources clamped first
    s1 = None if s1 is None else np.clip(s1, 0, 1)
    out = []
    for alpha, func, sf, df in ((False, bl.rgb_func, bl.rgb_src, bl.rgb_dst),
                                (True, bl.alpha_func, bl.alpha_src, bl.alpha_dst)):
        sp, dp = (s[3:4], d[3:4]) if alpha else (s[:3], d[:3])
        fs, fd = ref_factor(sf, s, d, k, alpha, s1), ref_factor(df, s, d, k, alpha, s1)
        out.append({"add": sp * fs + dp * fd, "subtract": sp * fs - dp * fd, "reverse_subtract": dp * fd - sp * fs,
                    "min": np.minimum(sp, dp), "max": np.maximum(sp, dp)}[func])
    return np.clip(np.concatenate(out), 0, 1)


def run_blend(rt: RenderTarget, src=SRC, dst=DST, fs=FS, src1=None, **key):
    k = ShaderKey.make(render_targets=(rt,), **key)
    tiles0 = {0: f32(dst).copy()}
    uniforms = {"shimgl_BlendColor": CONST} if rt.blend and rt.blend.uses_constant else {}
    varyings = {"c": src} if src1 is None else {"c": src, "c1": src1}
    tiles, info, it = run_fragment(fs, varyings, LANES, key=k, tiles=tiles0, uniforms=uniforms)
    return tiles, info, it


@pytest.mark.parametrize("factor", FACTORS)
def test_every_blend_factor(factor):
    for bl in (Blend(rgb_src=factor, rgb_dst="one_minus_src_alpha", alpha_src=factor, alpha_dst="zero"),
               Blend(rgb_src="src_alpha", rgb_dst=factor, alpha_src="one", alpha_dst=factor)):
        tiles, info, _it = run_blend(RenderTarget(blend=bl), fs=FS_DUAL, src1=SRC1)
        want = ref_blend(bl, SRC.astype(np.float64), DST.astype(np.float64), CONST.astype(np.float64)[:, None],
                         SRC1.astype(np.float64))
        np.testing.assert_allclose(as_f32(tiles[0]), want, atol=2e-7)
        assert ("shimgl_BlendColor" in info.uniforms) == bl.uses_constant


@pytest.mark.parametrize("eq", EQUATIONS)
def test_every_blend_equation(eq):
    bl = Blend(rgb_func=eq, rgb_src="src_alpha", rgb_dst="one_minus_src_alpha", alpha_func=eq,
               alpha_src="one", alpha_dst="dst_alpha")
    tiles, _info, _it = run_blend(RenderTarget(blend=bl))
    want = ref_blend(bl, SRC.astype(np.float64), DST.astype(np.float64), CONST[:, None].astype(np.float64))
    np.testing.assert_allclose(as_f32(tiles[0]), want, atol=2e-7)


def test_no_blend_clamps_for_unorm_and_respects_the_write_mask():
    tiles, _i, _it = run_blend(RenderTarget(write_mask=0b0101))
    got = as_f32(tiles[0])
    np.testing.assert_array_equal(got[[0, 2]], np.clip(SRC[[0, 2]], 0, 1))
    np.testing.assert_array_equal(got[[1, 3]], DST[[1, 3]])


def test_formats_float16_and_integer_clamping():
    shader, _info = front_half(FS, "fragment", ShaderKey.make(render_targets=(RenderTarget(format="f16"),)))
    st = [i for i in walk_instrs(shader.main.body) if isinstance(i, Intrinsic) and i.name == "store_tile"]
    assert st[0].srcs[0].bit_size == 16 and st[0].indices["format"] == "f16"
    fs = "#version 330\nflat in ivec4 c; out ivec4 o;\nvoid main() { o = c; }\n"
    vals = np.array([[-300, -5, 5, 300]] * 4, np.int32).T.repeat(4, 1)
    key = ShaderKey.make(render_targets=(RenderTarget(format="i8", base_type="int"),))
    tiles, _i, _it = run_fragment(fs, {"c": vals}, LANES, key=key)
    np.testing.assert_array_equal(tiles[0].view(np.int32), np.clip(vals, -128, 127))
    fs = "#version 330\nflat in uvec4 c; out uvec4 o;\nvoid main() { o = c; }\n"
    key = ShaderKey.make(render_targets=(RenderTarget(format="i16", base_type="uint", components=2),))
    uv = np.array([[5, 70000, 3, 4]] * LANES, np.uint32).T
    tiles, _i, _it = run_fragment(fs, {"c": uv}, LANES, key=key)
    np.testing.assert_array_equal(tiles[0][:2], np.minimum(uv[:2], 65535))


def test_multiple_render_targets_and_frag_color_broadcast():
    fs = """#version 330
in vec4 c; layout(location = 0) out vec4 a; layout(location = 2) out vec4 b;
void main() { a = c; b = c * 0.5; }"""
    rts = (RenderTarget(format="i32", offset_B=0), RenderTarget(format="i32", offset_B=16),
           RenderTarget(format="i32", offset_B=32))
    tiles, info, _it = run_fragment(fs, {"c": SRC}, LANES, key=ShaderKey.make(render_targets=rts))
    assert info.outputs == {0: "a", 2: "b"} and set(tiles) == {0, 2}
    np.testing.assert_array_equal(as_f32(tiles[2]), SRC * 0.5)
    fs = "#version 110\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n"
    tiles, info, _it = run_fragment(fs, {"c": SRC}, LANES, key=ShaderKey.make(render_targets=rts))
    assert set(tiles) == {0, 1, 2}
    np.testing.assert_array_equal(as_f32(tiles[1]), SRC)
    fs = "#version 110\nvarying vec4 c;\nvoid main() { gl_FragData[1] = c; }\n"
    tiles, info, _it = run_fragment(fs, {"c": SRC}, LANES, key=ShaderKey.make(render_targets=rts))
    assert set(tiles) == {1}


def test_alpha_test_discards():
    fs = "#version 110\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n"
    key = ShaderKey.make(alpha_func="greater")
    tiles, info, it = run_fragment(fs, {"c": SRC}, LANES, key=key, uniforms={"shimgl_AlphaRef": np.float32(0.5)})
    np.testing.assert_array_equal(it.alive, SRC[3] > 0.5)
    assert info.discards


def test_alpha_to_coverage_and_sample_mask():
    fs = """#version 400
in vec4 c; out vec4 o;
void main() { o = c; gl_SampleMask[0] = 0x5; gl_FragDepth = c.x * 0.5; }"""
    key = ShaderKey.make(alpha_to_coverage=True, samples=4)
    _t, info, it = run_fragment(fs, {"c": SRC}, LANES, key=key)
    cov = (1 << np.rint(np.clip(SRC[3], 0, 1) * 4).astype(int)) - 1
    np.testing.assert_array_equal(it.outputs["SAMPLE_MASK"][0], cov & 5)
    np.testing.assert_array_equal(as_f32(it.outputs["DEPTH"][0]), SRC[0] * 0.5)
    assert info.outputs == {0: "o", "DEPTH": "gl_FragDepth", "SAMPLE_MASK": "gl_SampleMask"}


def test_fragment_output_locations_from_the_key():
    fs = "#version 130\nin vec4 c; out vec4 first; out vec4 second;\nvoid main() { first = c; second = c * 2.0; }\n"
    rts = (RenderTarget(format="i32"), RenderTarget(format="i32", offset_B=16))
    key = ShaderKey.make(render_targets=rts, frag_output_locations={"first": 1, "second": 0})
    tiles, info, _it = run_fragment(fs, {"c": SRC}, LANES, key=key)
    assert info.outputs == {0: "second", 1: "first"}
    np.testing.assert_array_equal(as_f32(tiles[0]), SRC * 2)


@pytest.mark.parametrize("op", ["clear", "and", "and_reverse", "and_inverted", "noop", "xor", "or", "nor",
                                "equiv", "invert", "or_reverse", "copy_inverted", "or_inverted", "nand", "set"])
def test_logic_ops_on_unorm8(op):
    s8 = np.rint(np.clip(SRC, 0, 1) * 255).astype(np.int64)
    d8 = np.rint(DST * 255).astype(np.int64)
    ref = {"clear": 0 * s8, "and": s8 & d8, "and_reverse": s8 & ~d8, "and_inverted": ~s8 & d8, "noop": d8,
           "xor": s8 ^ d8, "or": s8 | d8, "nor": ~(s8 | d8), "equiv": ~(s8 ^ d8), "invert": ~d8,
           "or_reverse": s8 | ~d8, "copy_inverted": ~s8, "or_inverted": ~s8 | d8, "nand": ~(s8 & d8),
           "set": s8 | 255}[op] & 255
    tiles, _i, _it = run_blend(RenderTarget(), logic_op=op)
    np.testing.assert_allclose(as_f32(tiles[0]), ref / 255.0, rtol=1e-6)
