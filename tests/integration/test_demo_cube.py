"""The demo command renders the cube and writes a PNG."""

import argparse

import numpy as np

from driver.agx import demo


def test_demo_writes_a_cube_png(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    demo.register(parser.add_subparsers())
    out = tmp_path / "cube.png"
    args = parser.parse_args(["demo", "--out", str(out), "--size", "48"])
    assert args.func(args) == 0
    from PIL import Image
    img = np.asarray(Image.open(out))
    assert img.shape == (48, 48, 4)
    background = np.array([13, 13, 26, 255])
    covered = (np.abs(img.astype(int) - background).max(axis=-1) > 8).mean()
    assert 0.1 < covered < 0.6                      # the cube, not the whole image
    assert "wrote" in capsys.readouterr().out
