"""Render pipeline end to end on a flat address space: coverage, fill rule, clear."""

import numpy as np

from .gpu import Scene, Space, constant_fs


def inside(vx, vy, W, H):
    """Pixel centres strictly inside the triangle (vertices in pixels)."""
    y, x = np.mgrid[0:H, 0:W] + 0.5
    e = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        e.append((vx[k] - vx[j]) * (y - vy[j]) - (vy[k] - vy[j]) * (x - vx[j]))
    e = np.array(e)
    return (e > 0).all(0) | (e < 0).all(0)


def ndc(px, W):
    return np.asarray(px) / W * 2 - 1


def test_single_triangle_coverage_matches_edge_functions():
    sp = Space()
    W = H = 64
    vx, vy = np.array([3.3, 60.1, 20.7]), np.array([5.2, 17.9, 58.6])
    verts = np.stack([ndc(vx, W), ndc(vy, H), np.zeros(3), np.ones(3)], 1)
    sc = Scene(sp, W, H, clear=(0, 0, 1, 1))
    sc.draw(verts, constant_fs((1, 0, 0, 1)))
    img = sc.render()
    red = (img[..., 0] == 255) & (img[..., 2] == 0)
    blue = (img[..., 0] == 0) & (img[..., 2] == 255)
    assert (red | blue).all()
    np.testing.assert_array_equal(red, inside(vx, vy, W, H))
