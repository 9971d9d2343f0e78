"""Image load/store/atomics: sequential semantics on duplicate texels, checked
against a plain loop that applies the lanes one after another."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu import texture as tex
from tests.drmshim.texture.texenv import DESC_VA, new_memory, put_texture


def make_image(mem, fmt="R32_UINT", w=8, h=4, layers=1, init=None, target="TEXTURE_2D"):
    dtype = {"R32_UINT": np.uint32, "R32_SINT": np.int32, "R32_FLOAT": np.float32}.get(fmt, np.float32)
    data = np.zeros((layers, h, w, 4), dtype) if init is None else init
    put_texture(mem, [data], fmt=fmt, target=target)
    return data


def test_store_then_load_and_last_lane_wins():
    mem = new_memory()
    make_image(mem, "R8G8B8A8_UNORM", layers=2, target="TEXTURE_2D_ARRAY")
    coords = np.array([[1, 1, 0], [1, 1, 0], [7, 3, 1], [8, 0, 0], [2, 2, 1]])
    vals = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1], [0.5, 0.5, 0.5, 0.5]], np.float32)
    tex.image_store(mem, DESC_VA, coords, vals)
    got = tex.image_load(mem, DESC_VA, np.array([[1, 1, 0], [7, 3, 1], [2, 2, 1], [0, 0, 0], [8, 0, 0]]))
    np.testing.assert_allclose(got, [[0, 1, 0, 1], [0, 0, 1, 1], [128 / 255] * 4, [0, 0, 0, 0], [0, 0, 0, 0]])


def sequential(op, mem_vals, idx, values, compare):
    """The definition: lanes in order, each sees the value left by the previous."""
    mem_vals = mem_vals.copy()
    old = np.zeros(len(idx), mem_vals.dtype)
    for lane, (i, v) in enumerate(zip(idx, values)):
        cur = mem_vals[i]
        old[lane] = cur
        if op == "add":
            new = cur + v
        elif op == "min":
            new = min(cur, v)
        elif op == "max":
            new = max(cur, v)
        elif op == "and":
            new = cur & v
        elif op == "or":
            new = cur | v
        elif op == "xor":
            new = cur ^ v
        elif op == "exchange":
            new = v
        else:
            new = v if cur == compare[lane] else cur
        mem_vals[i] = new
    return old, mem_vals


@pytest.mark.parametrize("fmt, dtype", [("R32_UINT", np.uint32), ("R32_SINT", np.int32)])
@pytest.mark.parametrize("op", ["add", "min", "max", "and", "or", "xor", "exchange", "compare_exchange"])
def test_atomics_are_sequential_in_lane_order(op, fmt, dtype):
    rng = np.random.default_rng(20)
    mem = new_memory()
    info = np.iinfo(dtype)
    init = rng.integers(info.min, info.max, (1, 4, 8, 1), dtype=np.int64).astype(dtype)
    init = np.repeat(init, 4, axis=3)
    make_image(mem, fmt, init=init)
    n = 300
    texel = rng.integers(0, 6, n)  # heavy duplication over 6 texels
    coords = np.stack([texel % 8, texel // 8], 1)
    values = rng.integers(info.min, info.max, n, dtype=np.int64).astype(dtype)
    if op == "compare_exchange":  # make some compares succeed: compare against plausible values
        pool = np.concatenate([init[0, 0, :6, 0], values[:50]])
        compare = rng.choice(pool, n).astype(dtype)
    else:
        compare = None
    old = tex.image_atomic(mem, DESC_VA, coords, op, values, compare)
    with np.errstate(over="ignore"):
        expect_old, expect_mem = sequential(op, init[0, 0, :, 0].copy(), texel, values, compare)
    assert old.dtype == np.uint32  # register bits
    np.testing.assert_array_equal(old.view(dtype), expect_old)
    after = tex.image_load(mem, DESC_VA, np.stack([np.arange(8), np.zeros(8, int)], 1))[:, 0]
    np.testing.assert_array_equal(after.astype(dtype), expect_mem)


def test_float_atomic_add_and_exchange():
    mem = new_memory()
    make_image(mem, "R32_FLOAT")
    coords = np.array([[0, 0]] * 5 + [[1, 0]])
    vals = np.array([0.1, 0.2, 0.3, 1e8, -1e8, 7], np.float32)
    old = tex.image_atomic(mem, DESC_VA, coords, "add", vals)
    acc, expect = np.float32(0), []
    for v in vals[:5]:
        expect.append(acc)
        acc = np.float32(acc + v)
    np.testing.assert_array_equal(old[:5].view(np.float32), expect)
    assert tex.image_load(mem, DESC_VA, np.array([[0, 0]]))[0, 0] == acc
    old = tex.image_atomic(mem, DESC_VA, np.array([[1, 0], [1, 0]]), "exchange", np.array([1.5, 2.5], np.float32))
    assert old.view(np.float32).tolist() == [7, 1.5]


def test_out_of_range_atomics_are_dropped():
    mem = new_memory()
    make_image(mem, "R32_UINT")
    old = tex.image_atomic(mem, DESC_VA, np.array([[8, 0], [0, 0], [-1, 2]]), "add", np.array([5, 6, 7], np.uint32))
    assert old.tolist() == [0, 0, 0]
    assert tex.image_load(mem, DESC_VA, np.array([[0, 0]]))[0, 0] == 6


def test_isa_op_names_signedness_and_raw_bits():
    mem = new_memory()
    make_image(mem, "R32_UINT")
    one = np.array([[0, 0]])
    minus_one = np.array([0xFFFFFFFF], np.uint32)
    tex.image_atomic(mem, DESC_VA, one, "xchg", np.array([5], np.uint32))
    assert tex.image_atomic(mem, DESC_VA, one, "smin", minus_one).tolist() == [5]    # -1 < 5 signed
    assert tex.image_atomic(mem, DESC_VA, one, "umin", np.array([7], np.uint32)).tolist() == [0xFFFFFFFF]
    assert tex.image_atomic(mem, DESC_VA, one, "sub", np.array([10], np.uint32)).tolist() == [7]
    assert tex.image_atomic(mem, DESC_VA, one, "cmpxchg", np.array([1], np.uint32),
                            compare=np.array([2**32 - 3], np.uint32)).tolist() == [2**32 - 3]
    assert tex.image_load(mem, DESC_VA, one)[0, 0] == 1
    make_image(mem, "R32_FLOAT")
    bits = np.array([1.5, 2.25], np.float32).view(np.uint32)
    tex.image_store(mem, DESC_VA, np.array([[0, 0], [1, 0]]), np.stack([bits] * 4, 1))  # raw register bits
    assert tex.image_load(mem, DESC_VA, np.array([[0, 0], [1, 0]]))[:, 0].tolist() == [1.5, 2.25]
    old = tex.image_atomic(mem, DESC_VA, one, "sub", np.array([0.5], np.float32).view(np.uint32))
    assert old.view(np.float32).tolist() == [1.5] and tex.image_load(mem, DESC_VA, one)[0, 0] == 1.0
