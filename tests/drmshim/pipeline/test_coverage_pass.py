"""The coverage-only pass (one uniform program, no depth/stencil: pixels from
``covered_pixels`` instead of fragments) against the general HSR path and the
in-order path: same image, same counters. A full-screen quad over a hidden
background takes render's uniform draw pass (the target stored as a fill, no
tile memory)."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu.pipeline import Executor
from drmshim.gpu.pipeline import fragment, render

from .gpu import Scene, Space, constant_fs

W, H = 96, 80


def _scene(kind: str) -> Scene:
    sc = Scene(Space(), W, H, clear=(0, 0, 0, 1))
    if kind == "quad":
        verts = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, 1, 0, 1]], np.float32)
        sc.draw(verts, constant_fs((1, 0.5, 0.25, 1)), primitive="TRIANGLE_STRIP")
    else:                                     # overlapping, partly off-screen triangles
        rng = np.random.default_rng(7)
        xy = rng.uniform(-0.5, 0.5, (30, 1, 2)) + rng.uniform(-0.7, 0.7, (30, 3, 2))
        verts = np.concatenate([xy, np.zeros((30, 3, 1)), np.ones((30, 3, 1))], 2).reshape(-1, 4)
        sc.draw(verts.astype(np.float32), constant_fs((0.2, 0.4, 0.6, 0.8)))
    return sc


@pytest.mark.parametrize("kind", ["quad", "triangles"])
def test_coverage_pass_gives_the_general_paths_image_and_counters(kind, monkeypatch):
    taken = []

    def spy(module, name):
        fast = getattr(module, name)

        def run(*args):
            lanes = fast(*args)
            taken.append((name, lanes is not None))
            return lanes
        monkeypatch.setattr(module, name, run)
    spy(fragment, "_uniform_coverage_pass")
    spy(render, "_uniform_draw_pass")           # the quad's pass: its tile memory never materialised
    a = _scene(kind)
    img_fast = a.render(Executor(hsr=True))
    assert ("_uniform_draw_pass" if kind == "quad" else "_uniform_coverage_pass", True) in taken, \
        "the coverage-only pass ran"
    monkeypatch.setattr(fragment, "_uniform_coverage_pass", lambda *args: None)
    monkeypatch.setattr(render, "_uniform_draw_pass", lambda *args: None)
    for hsr in (True, False):                 # the general HSR path, then layer by layer
        b = _scene(kind)
        np.testing.assert_array_equal(b.render(Executor(hsr=hsr)), img_fast)
        if hsr:
            assert b.last.counters.snapshot() == a.last.counters.snapshot()
