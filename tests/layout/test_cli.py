"""``shimgl layout``: the printed layout of an image."""

import argparse

from layout.cli import register, run


def parse(argv):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["layout", *argv])


def test_prints_levels_tiles_strides_and_sizes(capsys):
    assert run(parse(["100x70", "--levels", "3"])) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("100x70x1 R8G8B8A8_UNORM (4 B per 1x1 block), 1 sample(s), twiddled, 7 level(s)")
    assert out[2].split() == ["0", "100x70", "0x0", "0x10000", "64x64", "100"]
    assert out[5].split() == ["3", "12x8", "0x15000", "0x400", "8x8", "12"]
    assert out[-2] == "layer stride: 0x15600 B"
    assert out[-1] == "total size: 0x15600 B (87552 B)"


def test_compressed_array_shows_metadata(capsys):
    assert run(parse(["64x64x6", "--tiling", "twiddled_compressed", "--levels", "2"])) == 0
    out = capsys.readouterr().out
    assert "    0       64x64        0x0     0x4000     64x64        64  +0x0 (4x4 tiles)" in out
    assert "(not compressed)" in out
    assert "layer stride: 0x8000 B (page-aligned layers)" in out
    assert "metadata: at 0x30000, 0x180 B per layer, 3 compressed level(s)" in out
    assert "total size: 0x30900 B" in out


def test_linear_and_msaa(capsys):
    assert run(parse(["100x10", "--tiling", "linear", "--format", "R8G8B8A8_UNORM"])) == 0
    assert "row stride: 512 B" in capsys.readouterr().out
    assert run(parse(["64x64", "--samples", "4"])) == 0
    assert "0x10000     32x32" in capsys.readouterr().out


def test_impossible_layout_names_the_rule(capsys):
    assert run(parse(["100x100", "--tiling", "linear", "--levels", "3"])) == 2
    assert capsys.readouterr().out.strip() == "shimgl layout: linear images cannot be mipmapped"
    assert run(parse(["100", "--format", "R8_UNORM"])) == 2
    assert "size must look like WxH" in capsys.readouterr().out
