"""layout: pixel formats and image layouts (the equivalent of Mesa's ail).

Owns the pixel-format table (bytes per block, channels, pack/unpack with numpy),
block-compressed formats and their decompression, miptree layouts (linear,
twiddled, twiddled+compressed), vectorised addressing and tile/detile copies.

Must never import anything of ours: it is a leaf used by both the driver and the
GPU model. See README.md."""

__all__: list[str] = []
