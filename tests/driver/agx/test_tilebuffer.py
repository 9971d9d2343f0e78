"""Pure functions of driver.agx.tilebuffer and the resource layouts, with literal values."""

import numpy as np
import pytest

from driver.agx.resource import _pack_zs, _unpack_zs
from driver.agx.tilebuffer import make_tile_layout, tile_format, tile_size_px


@pytest.mark.parametrize("name, expect", [
    ("R8G8B8A8_UNORM", ("unorm8", 4, "float", (0, 1, 2, 3))), ("R8G8B8A8_SRGB", ("srgba8", 4, "float", (0, 1, 2, 3))),
    ("R16G16B16A16_FLOAT", ("f16", 4, "float", (0, 1, 2, 3))), ("R32_FLOAT", ("i32", 1, "float", (0,))),
    ("R32G32B32A32_UINT", ("i32", 4, "uint", (0, 1, 2, 3))), ("R8G8_SINT", ("i8", 2, "int", (0, 1))),
    ("R16_SNORM", ("snorm16", 1, "float", (0,))),
    ("R10G10B10A2_UNORM", ("rgb10a2", 4, "float", (0, 1, 2, 3))), ("R11G11B10_FLOAT", ("rg11b10f", 3, "float", (0, 1, 2))),
    ("Z32_FLOAT", None), ("ETC2_RGB8", None), ("A1B5G5R5_UNORM", None), ("A8B8G8R8_SRGB", None),
    ("B8G8R8A8_UNORM", ("unorm8", 4, "float", (2, 1, 0, 3))), ("B5G6R5_UNORM", ("rgb565", 3, "float", (2, 1, 0))),
    ("A4B4G4R4_UNORM", ("rgba4", 4, "float", (3, 2, 1, 0))), ("B5G5R5A1_UNORM", ("rgb5a1", 4, "float", (2, 1, 0, 3))),
])
def test_tile_formats(name, expect):
    assert tile_format(name) == expect


def test_tile_layout_aligns_each_target_and_pads_the_record():
    tl = make_tile_layout(("R8_UNORM", None, "R32G32_FLOAT", "R16_FLOAT"))
    offsets = [s.offset_B if s else None for s in tl.slots]
    assert offsets == [0, None, 4, 12] and tl.record_B == 16
    assert make_tile_layout(("R8_UNORM",)).record_B == 4


@pytest.mark.parametrize("record, samples, tile", [(4, 1, 32), (16, 1, 32), (16, 2, 16), (32, 4, 8), (64, 4, 8)])
def test_tile_size_selection(record, samples, tile):
    assert tile_size_px(record, samples) == tile


@pytest.mark.parametrize("name", ["Z24_UNORM_S8_UINT", "S8_UINT_Z24_UNORM", "Z32_FLOAT_S8X24_UINT", "Z24X8_UNORM",
                                  "Z16_UNORM", "Z32_FLOAT", "S8_UINT"])
def test_packed_depth_stencil_round_trip(name):
    rng = np.random.default_rng(0)
    h, w = 3, 5
    depth = rng.random(h * w).astype(np.float32)
    stencil = rng.integers(0, 256, h * w, np.uint8)
    if name == "Z16_UNORM":
        depth = (depth * 65535).astype(np.uint16)
    d_plane = None if name == "S8_UINT" else depth.view(np.uint8)
    s_plane = stencil if "S8" in name else None
    packed = _pack_zs(name, d_plane, s_plane, h, w, 1)
    z, s = _unpack_zs(name, packed, h, w, 1)
    if d_plane is not None:
        tol = 0 if name in ("Z16_UNORM", "Z32_FLOAT", "Z32_FLOAT_S8X24_UINT") else 1.0 / 0xFFFFFF
        assert np.abs(np.asarray(z, np.float64) - depth.astype(np.float64)).max() <= tol
    if s_plane is not None:
        assert (s == stencil).all()
    if name == "Z24_UNORM_S8_UINT":                 # Gallium's packing: depth low 24 bits, stencil high 8
        word = packed.reshape(-1, 4).view(np.uint32)[:, 0]
        assert ((word >> 24) == stencil).all()
