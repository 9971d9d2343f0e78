"""Regenerate astc_reference.npz: ASTC blocks encoded by ARM's astcenc and the texels
its decoder gives for them, the reference tests/layout/test_astc.py compares
layout's decoder with. Needs the astc-encoder-py package (not a dependency of
shimgl): ``python tests/layout/data/make_astc_reference.py`` in an environment
that has it. Deterministic (fixed seed)."""

from pathlib import Path

import numpy as np

import astc_encoder as A

BLOCKS = [(4, 4), (5, 4), (5, 5), (6, 5), (6, 6), (8, 5), (8, 6), (8, 8), (10, 5), (10, 6), (10, 8),
          (10, 10), (12, 10), (12, 12)]


def images(rng, w, h):
    """Content that makes the encoder use many block features: noise (many
    partitions, dual planes), patches of flat colour (partitions, void extents),
    grey with varying alpha (luminance-alpha modes), a smooth gradient."""
    y, x = np.mgrid[0:h, 0:w]
    yield "noise", rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    patches = rng.integers(0, 256, (h // 3 + 1, w // 5 + 1, 4), dtype=np.uint8)
    yield "patches", patches[y // 3, x // 5]
    grey = np.repeat(rng.integers(0, 256, (h, w, 1), dtype=np.uint8), 4, -1)
    grey[..., 3] = rng.integers(0, 256, (h, w))
    yield "la", grey
    yield "gradient", np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x ^ y) * 7 % 256,
                                255 - x * 3 % 256], -1).astype(np.uint8)


def main() -> None:
    rng = np.random.default_rng(20261128)
    out = {}
    for bw, bh in BLOCKS:
        w, h = 3 * bw, 2 * bh
        for name, img in images(rng, w, h):
            for profile, tag, dtype, np_dtype in ((A.ASTCProfile.LDR, "ldr", A.ASTCType.F16, np.float16),
                                                  (A.ASTCProfile.LDR_SRGB, "srgb", A.ASTCType.U8, np.uint8)):
                ctx = A.ASTCContext(A.ASTCConfig(profile, bw, bh, 1, A.ASTCQualityPreset.THOROUGH))
                blocks = ctx.compress(A.ASTCImage(A.ASTCType.U8, w, h, 1, np.ascontiguousarray(img).tobytes()),
                                      A.ASTCSwizzle())
                decoded = ctx.decompress(blocks, A.ASTCImage(dtype, w, h, 1), A.ASTCSwizzle())
                key = f"{bw}x{bh}_{name}_{tag}"
                out[key + "_blocks"] = np.frombuffer(blocks, np.uint8).reshape(h // bh, w // bw, 16)
                out[key + "_texels"] = np.frombuffer(decoded.data, np_dtype).reshape(h, w, 4)
    np.savez_compressed(Path(__file__).with_name("astc_reference.npz"), **out)


if __name__ == "__main__":
    main()
