"""Integer ALU instructions at 16, 32 and 64 bits against Python-integer references
(wrap-around on overflow, shift counts modulo the size, GLSL bitfield rules)."""

import numpy as np
import pytest

from .helpers import run

RNG = np.random.default_rng(5)


def edge_values(n: int) -> list[int]:
    m = (1 << n) - 1
    vals = [0, 1, 2, 3, 7, m, m - 1, 1 << (n - 1), (1 << (n - 1)) - 1, (1 << (n - 1)) + 1, n, n + 1, 2 * n]
    vals += [int(x) for x in RNG.integers(0, m, 12, dtype=np.uint64, endpoint=True)]
    return vals


def signed(x: int, n: int) -> int:
    return x - (1 << n) if x >> (n - 1) else x


def run_int(op: str, n: int, *cols: list[int], extra: str = "") -> list[int]:
    """dst = op(srcs) with each source column preloaded as an n-bit value."""
    lanes = len(cols[0])
    inputs, names = {}, []
    for i, col in enumerate(cols):
        v = np.array(col, dtype=np.uint64)
        if n == 64:
            inputs[2 * i], inputs[2 * i + 1] = (v & 0xFFFFFFFF).astype(np.uint32), (v >> 32).astype(np.uint32)
            names.append(f"r{2 * i}_r{2 * i + 1}")
        else:
            inputs[2 * i] = v.astype(np.uint32)
            names.append(f"r{2 * i}l" if n == 16 else f"r{2 * i}")
    dst = {16: "r10l", 32: "r10", 64: "r10_r11"}[n]
    ctx = run(f"{op} {dst}, {', '.join(names)}{extra}", lanes=lanes, inputs=inputs)
    lo = ctx.registers[10].astype(np.uint64)
    if n == 16:
        return [int(x) for x in lo & 0xFFFF]
    if n == 64:
        lo = lo | (ctx.registers[11].astype(np.uint64) << 32)
    return [int(x) for x in lo]


def pairs(n: int):
    v = edge_values(n)
    a, b = np.meshgrid(np.array(v, dtype=object), np.array(v, dtype=object))
    return [int(x) for x in a.reshape(-1)], [int(x) for x in b.reshape(-1)]


SIZES = [16, 32, 64]

BINARY = {
    "iadd": lambda a, b, n: a + b,
    "isub": lambda a, b, n: a - b,
    "imul": lambda a, b, n: a * b,
    "ishl": lambda a, b, n: a << (b % n),
    "ushr": lambda a, b, n: a >> (b % n),
    "ishr": lambda a, b, n: signed(a, n) >> (b % n),
    "umin": lambda a, b, n: min(a, b),
    "umax": lambda a, b, n: max(a, b),
    "imin": lambda a, b, n: min(signed(a, n), signed(b, n)),
    "imax": lambda a, b, n: max(signed(a, n), signed(b, n)),
    "umulhi": lambda a, b, n: (a * b) >> n,
    "imulhi": lambda a, b, n: (signed(a, n) * signed(b, n)) >> n,
}


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_integer_ops(op, n):
    a, b = pairs(n)
    m = (1 << n) - 1
    assert run_int(op, n, a, b) == [BINARY[op](x, y, n) & m for x, y in zip(a, b)]


@pytest.mark.parametrize("n", SIZES)
def test_imad_wraps(n):
    a, b = pairs(n)
    c = list(reversed(a))
    m = (1 << n) - 1
    assert run_int("imad", n, a, b, c) == [(x * y + z) & m for x, y, z in zip(a, b, c)]


@pytest.mark.parametrize("tt", range(16))
def test_bitop_truth_tables(tt):
    a, b = pairs(32)

    def ref(x, y):
        r = 0
        for bit in range(32):
            i = ((y >> bit & 1) << 1) | (x >> bit & 1)
            r |= (tt >> i & 1) << bit
        return r
    assert run_int("bitop", 32, a, b, extra=f", {tt}") == [ref(x, y) for x, y in zip(a, b)]


def ref_bfi(base, ins, off, cnt, n):
    off %= n
    cnt = min(cnt, n - off)
    mask = ((1 << cnt) - 1) << off
    return (base & ~mask | (ins << off) & mask) & ((1 << n) - 1)


def ref_ubfe(v, off, cnt, n):
    off %= n
    cnt = min(cnt, n - off)
    return (v >> off) & ((1 << cnt) - 1)


def ref_ibfe(v, off, cnt, n):
    f = ref_ubfe(v, off, cnt, n)
    cnt = min(cnt, n - off % n)
    if cnt and f >> (cnt - 1) & 1:
        f -= 1 << cnt
    return f & ((1 << n) - 1)


@pytest.mark.parametrize("n", SIZES)
def test_bitfield_insert_and_extract(n):
    vals = edge_values(n)[:8]
    offs = [0, 1, 5, n - 1, n, n + 3]
    cnts = [0, 1, 4, n - 1, n, n + 7]
    grid = [(v, o, c) for v in vals for o in offs for c in cnts]
    v, o, c = ([g[i] for g in grid] for i in range(3))
    ins = [x ^ 0x5A5A for x in v]
    assert run_int("ubfe", n, v, o, c) == [ref_ubfe(*t, n) for t in grid]
    assert run_int("ibfe", n, v, o, c) == [ref_ibfe(*t, n) for t in grid]
    assert run_int("bfi", n, v, ins, o, c) == [ref_bfi(x, y, oo, cc, n) for x, y, oo, cc in zip(v, ins, o, c)]


@pytest.mark.parametrize("n", SIZES)
def test_bit_counting(n):
    v = edge_values(n)
    m = (1 << n) - 1
    assert run_int("popcount", n, v) == [bin(x).count("1") for x in v]
    assert run_int("bitrev", n, v) == [int(format(x, f"0{n}b")[::-1], 2) for x in v]
    assert run_int("ffs", n, v) == [m if x == 0 else (x & -x).bit_length() - 1 for x in v]
    assert run_int("clz", n, v) == [n - x.bit_length() for x in v]


def test_integer_immediates_and_mixed_sizes():
    ctx = run("iadd r1, r0, 255\niadd r2, r0l, 1\nmov r3l, r0\nmov r4, r0l\nmov_imm r5, 0xdeadbeef\n"
              "mov_imm r6l, 0x12345", lanes=2, inputs={0: np.array([0xFFFFFFFF, 0x00012345], np.uint32)})
    r = ctx.registers
    assert list(r[1]) == [254, 0x12345 + 255]
    assert list(r[2]) == [0x10000, 0x2346]          # 16-bit source zero-extended
    assert list(r[3] & 0xFFFF) == [0xFFFF, 0x2345]  # truncation
    assert list(r[4]) == [0xFFFF, 0x2345]
    assert list(r[5]) == [0xDEADBEEF] * 2
    assert list(r[6] & 0xFFFF) == [0x2345] * 2
