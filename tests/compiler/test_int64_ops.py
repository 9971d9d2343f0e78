"""64-bit integer division and remainder lowered to 32-bit word pairs
(compiler.lower.int64) on the IR interpreter, against numpy int64/uint64."""

import numpy as np
import pytest

from compiler.ir import Builder, Function, Shader
from compiler.ir.interp import run_function
from compiler.lower import int64
from compiler.lower.fp64 import F64
from compiler.lower.words import Words


def _run(op, n, d):
    lanes = len(n)
    sh = Shader("compute", "int64")
    f = Function("main", params=[(2, 32), (2, 32)])
    sh.functions.append(f)
    b = Builder(f, sh)
    ps = [b.load_param(num_components=2, bit_size=32, param_idx=k) for k in range(2)]
    r = int64.lower_op(Words(b), op, [F64(b.channel(p, 0), b.channel(p, 1)) for p in ps])
    b.return_value(b.vec(b.unpack_64_2x32_split_x(r), b.unpack_64_2x32_split_y(r)))
    params = [np.ascontiguousarray(x).view(np.uint32).reshape(lanes, 2).T.copy() for x in (n, d)]
    _it, ret = run_function(sh, lanes=lanes, params=params)
    ret = np.asarray(ret).astype(np.uint64)
    return ret[0] | (ret[1] << np.uint64(32))


def _operands(seed, count=400):
    rng = np.random.default_rng(seed)
    n = rng.integers(-2 ** 63, 2 ** 63, count, dtype=np.int64) >> rng.integers(0, 63, count)
    d = rng.integers(-2 ** 63, 2 ** 63, count, dtype=np.int64) >> rng.integers(0, 63, count)
    n[:6] = [-2 ** 63, 2 ** 63 - 1, 7, -7, 0, 123456789012345]
    d[:6] = [3, -1, -2, 2, 5, 0]
    return n, d


@pytest.mark.parametrize("op", ["udiv", "umod"])
def test_unsigned_division(op):
    n, d = _operands(1)
    un, ud = n.view(np.uint64), d.view(np.uint64)
    safe = np.where(ud == 0, 1, ud)
    expected = np.where(ud == 0, 0, un // safe if op == "udiv" else un % safe).astype(np.uint64)
    np.testing.assert_array_equal(_run(op, n, d), expected)


@pytest.mark.parametrize("op", ["idiv", "irem", "imod"])
def test_signed_division(op):
    n, d = _operands(2)
    expected = []
    for x, y in zip(n.tolist(), d.tolist()):
        if y == 0:
            expected.append(0)
            continue
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)     # truncating
        v = {"idiv": q, "irem": x - q * y, "imod": x - y * (x // y)}[op]
        expected.append(v & (2 ** 64 - 1))
    np.testing.assert_array_equal(_run(op, n, d), np.array(expected, np.uint64))
