"""``layout.unpack``/``layout.pack`` remember the results of small inputs by
everything they depend on (direction, format, precision, dtype, shape, bytes).
Expected values by hand; each part of the key is shown to matter by two inputs
that differ only there."""

from __future__ import annotations

import numpy as np
import pytest

import layout
import importlib

P = importlib.import_module("layout.pack")


@pytest.fixture(autouse=True)
def fresh():
    P._SMALL.clear()
    yield
    P._SMALL.clear()


def test_unpack_twice_gives_the_value_and_a_private_copy():
    raw = np.array([[255, 128, 0, 51]], np.uint8)
    want = [1.0, 128 / 255, 0.0, 51 / 255]
    first = layout.unpack("R8G8B8A8_UNORM", raw)
    assert np.allclose(first, [want]) and first.dtype == np.float32
    first[...] = -1                                     # the caller's to write
    again = layout.unpack("R8G8B8A8_UNORM", raw)
    assert np.allclose(again, [want])
    assert len(P._SMALL) == 1


def test_pack_twice_gives_the_bytes_and_a_private_copy():
    rgba = np.array([[1.0, 0.5, 0.0, 0.2]], np.float32)
    first = layout.pack("R8G8B8A8_UNORM", rgba)
    assert first.tolist() == [[255, 128, 0, 51]]
    first[...] = 9
    assert layout.pack("R8G8B8A8_UNORM", rgba).tolist() == [[255, 128, 0, 51]]


def test_the_format_is_part_of_the_key():
    raw = np.array([[1, 2, 3, 4]], np.uint8)
    assert layout.unpack("R8G8B8A8_UNORM", raw)[0, 0] == pytest.approx(1 / 255)
    assert layout.unpack("B8G8R8A8_UNORM", raw)[0, 0] == pytest.approx(3 / 255)


def test_the_precision_is_part_of_the_key():
    raw = np.array([[0x55, 0x55, 0x55, 0x55]], np.uint8)
    assert layout.unpack("R8G8B8A8_UNORM", raw).dtype == np.float32
    assert layout.unpack("R8G8B8A8_UNORM", raw, precise=True).dtype == np.float64


def test_the_dtype_is_part_of_the_key():
    # the same 16 bytes: uint32 1065353216 and float32 1.0 in alpha
    as_float = np.array([[0.0, 0.0, 0.0, 1.0]], np.float32)
    as_uint = as_float.view(np.uint32)
    assert as_float.tobytes() == as_uint.tobytes()
    assert layout.pack("R32G32B32A32_FLOAT", as_float).view(np.float32)[0, 3] == 1.0
    assert layout.pack("R32G32B32A32_FLOAT", as_uint).view(np.float32)[0, 3] == 1065353216.0


def test_the_shape_is_part_of_the_key():
    raw = np.arange(8, dtype=np.uint8)
    assert layout.unpack("R8G8B8A8_UINT", raw.reshape(1, 2, 4)).shape == (1, 2, 4)
    assert layout.unpack("R8G8B8A8_UINT", raw.reshape(2, 1, 4)).shape == (2, 1, 4)


def test_large_inputs_are_not_kept():
    raw = np.zeros((P.SMALL_B // 4 + 1, 4), np.uint8)
    layout.unpack("R8G8B8A8_UNORM", raw)
    assert not P._SMALL
