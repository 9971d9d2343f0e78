"""The images of piglit's texture commands, as numpy arrays (pure; no GL).

Colours and layouts follow piglit's descriptions of its helpers:
- rgbw: quadrants red (bottom left), green (bottom right), blue (top left),
  white (top right); alpha 1 everywhere (shader_runner asks for no alpha).
- checkerboard: squares of w/2 x h/2 texels; "black" where row and column
  parity agree, "white" elsewhere.
- depth (shadow*): a gradient along x, x / (w - 1), the same on every row/layer.
- miptree: 8x8, 4 levels, each level one solid colour (red, green, blue, white).
- array (rgbw 2DArray/1DArray): layer i solid color_wheel[i % 4].
- rgbw 3D: 2x2x2 of red, green, blue, white, yellow, magenta, cyan, black.
- integer: R = x, G = y, B = b, A = a.
Rows are in GL order (row 0 = t = 0 = bottom)."""

from __future__ import annotations

import numpy as np

__all__ = ["COLOR_WHEEL", "array_layers", "checkerboard", "depth_gradient", "integer_image",
           "miptree_levels", "rgbw", "rgbw_1d", "rgbw_3d"]

RED, GREEN, BLUE, WHITE = (1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)
COLOR_WHEEL = (RED, GREEN, BLUE, WHITE)


def rgbw(w: int, h: int) -> np.ndarray:
    img = np.empty((h, w, 4), np.float32)
    y = np.arange(h)[:, None] < h // 2
    x = np.arange(w)[None, :] < w // 2
    img[...] = WHITE
    img[y & x] = RED
    img[y & ~x] = GREEN
    img[~y & x] = BLUE
    return img


def checkerboard(w: int, h: int, black, white) -> np.ndarray:
    sq_w, sq_h = max(w // 2, 1), max(h // 2, 1)
    row = (np.arange(h)[:, None] // sq_h) & 1
    col = (np.arange(w)[None, :] // sq_w) & 1
    img = np.empty((h, w, 4), np.float32)
    img[...] = white
    img[row == col] = black
    return img


def depth_gradient(w: int, h: int) -> np.ndarray:
    row = np.arange(w, dtype=np.float32) / np.float32(max(w - 1, 1))
    return np.broadcast_to(row, (h, w)).astype(np.float32).copy()


def miptree_levels() -> list[np.ndarray]:
    return [np.broadcast_to(np.float32(COLOR_WHEEL[lv]), (8 >> lv, 8 >> lv, 4)).copy()
            for lv in range(4)]


def array_layers(w: int, h: int, layers: int) -> np.ndarray:
    out = np.empty((layers, h, w, 4), np.float32)
    for i in range(layers):
        out[i] = COLOR_WHEEL[i % 4]
    return out


def rgbw_1d() -> np.ndarray:
    return np.array(COLOR_WHEEL, np.float32)


def rgbw_3d() -> np.ndarray:
    return np.array([RED, GREEN, BLUE, WHITE, (1, 1, 0, 1), (1, 0, 1, 1), (0, 1, 1, 1), (0, 0, 0, 1)],
                    np.float32).reshape(2, 2, 2, 4)


def integer_image(w: int, h: int, b: int, a: int) -> np.ndarray:
    img = np.empty((h, w, 4), np.int32)
    img[..., 0] = np.arange(w)[None, :]
    img[..., 1] = np.arange(h)[:, None]
    img[..., 2] = b
    img[..., 3] = a
    return img
