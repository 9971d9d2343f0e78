"""The IR ops the 64-bit lowering adds (umul_high, pack/unpack of word pairs),
compiled by the backend and run on the shader core, against numpy."""

import numpy as np

from compiler.ir.passes import lower_vars_to_ssa
from compiler.lower import fp64
from compiler.lower.words import Words

from .backend.harness import Run, interp, new_shader

LANES = 64


def _run(build, inputs):
    sh, b = new_shader()
    vid = b.load_vertex_id()
    base = b.imul(vid, 4 * len(inputs))
    xs = [b.load_ssbo(b.iimm(0), b.iadd(base, 4 * k), num_components=1, bit_size=32, align=4)
          for k in range(len(inputs))]
    r = build(b, xs)
    b.store_output(r, b.iimm(0), base=0, component=0, slot="O", write_mask=(1 << r.num_components) - 1)
    lower_vars_to_ssa(sh)            # the division's loop runs over local variables
    data = np.stack([np.asarray(x).view(np.uint32) for x in inputs], axis=1).reshape(-1).view(np.uint8)
    run = Run(sh)
    ctx, _ = run.core(LANES, ssbos={0: data})
    it = interp(sh, LANES, ssbos={0: data})
    n = r.num_components
    return ctx.varyings[:n].copy(), it.outputs["O"][:n].astype(np.uint32), run


def test_umul_high_and_word_pairs_on_the_core():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2 ** 32, LANES, dtype=np.uint64).astype(np.uint32)
    y = rng.integers(0, 2 ** 32, LANES, dtype=np.uint64).astype(np.uint32)
    x[:3] = [0xFFFFFFFF, 0, 1]
    y[:3] = [0xFFFFFFFF, 5, 0xFFFFFFFF]

    def build(b, v):
        pair = b.pack_64_2x32_split(v[0], v[1])
        shifted = b.ushr(pair, 4)                    # a 64-bit op on the register pair
        return b.vec(b.umul_high(v[0], v[1]), b.unpack_64_2x32_split_x(shifted), b.unpack_64_2x32_split_y(shifted))
    got, exp, _ = _run(build, [x, y])
    np.testing.assert_array_equal(got, exp)
    wide = x.astype(np.uint64) | (y.astype(np.uint64) << np.uint64(32))
    np.testing.assert_array_equal(got[0], ((x.astype(np.uint64) * y.astype(np.uint64)) >> np.uint64(32)))
    np.testing.assert_array_equal(got[1], (wide >> np.uint64(4)).astype(np.uint32))


def test_soft_double_division_on_the_core():
    rng = np.random.default_rng(4)
    a, d = rng.uniform(-100, 100, (2, LANES))
    a[:3] = [1.0, 5e-324, -0.0]
    d[:3] = [3.0, 0.5, 7.0]
    aw, dw = a.view(np.uint32).reshape(LANES, 2).T, d.view(np.uint32).reshape(LANES, 2).T

    def build(b, v):
        q = fp64.fdiv(Words(b), fp64.F64(v[0], v[1]), fp64.F64(v[2], v[3]))
        return b.vec(q.lo, q.hi)
    got, exp, _ = _run(build, [aw[0].copy(), aw[1].copy(), dw[0].copy(), dw[1].copy()])
    np.testing.assert_array_equal(got, exp)
    np.testing.assert_array_equal(got.T.copy().view(np.float64).reshape(-1), a / d)
