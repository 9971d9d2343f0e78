"""The register-pressure-aware scheduler: a block that would spill in source order
is scheduled bottom-up for pressure; fewer spills, same results on the core."""

import numpy as np

from compiler.backend import compile_ir
from compiler.backend.ra import _term_uses, liveness
from compiler.backend.schedule import peak_pressure, schedule_block, schedule_block_pressure
from compiler.compile import front_half
from compiler.ir import ShaderKey
from compiler.lower import RenderTarget
from drmshim.gpu.usc import ExecContext

from .harness import Run

N = 24
# every temporary first, then the sum: in this order all 24 are live at once
SRC = "#version 330\nin vec4 v;\nlayout(location = 0) out uvec4 o;\nvoid main() {\n" + "\n".join(
    f"  float a{k} = v.x * {k + 1}.5 + v.y * {k + 2}.25;" for k in range(N)) + \
    "\n  o = floatBitsToUint(vec4(" + " + ".join(f"a{k}" for k in range(N)) + "));\n}"


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def _front():
    return front_half(SRC, "fragment", ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))


def test_the_pressure_schedule_lowers_the_peak_and_keeps_dependencies():
    from compiler.backend.isel import select
    from compiler.backend.pipeline import dce
    from compiler.ir.core import clone_shader
    shader, info = _front()
    func, _sel = select(clone_shader(shader), {"info": info})
    dce(func)
    cfg, blocks, _li, live_out = liveness(func)
    (b,) = [b for b in blocks if len(b.instrs) > 50]
    out = set(live_out[b]) | set(_term_uses(cfg, b))
    default = schedule_block(b.instrs)
    alt = schedule_block_pressure(b.instrs, out)
    assert sorted(map(id, alt)) == sorted(map(id, b.instrs))
    assert peak_pressure(alt, out) * 3 < peak_pressure(default, out)
    seen = set()
    for ins in alt:                     # every value is defined before it is read
        assert all(v in seen for v in ins.uses() if any(v in i.defs() for i in b.instrs)), ins
        seen.update(ins.defs())


def test_fewer_spills_and_the_same_results():
    shader, info = _front()
    plain = compile_ir(shader, info, max_regs=10, pressure_schedule=False)
    aware = compile_ir(shader, info, max_regs=10)
    assert plain.stats.spills > 0 and aware.stats.spills < plain.stats.spills
    lanes = 16
    v = np.random.default_rng(4).uniform(-1, 1, (4, lanes)).astype(np.float32)
    index = info.varying("VAR0").index
    results = []
    for c in (plain, aware):
        coef = np.zeros((index + 4, 3, lanes), np.float32)
        coef[0, 2] = 1.0
        coef[index:index + 4, 2] = v
        ctx = ExecContext(lanes=lanes, coefficients=coef, position_px=np.zeros((2, lanes), np.float32),
                          tile_buffer=np.zeros((lanes, 16), np.uint8), tile_index=np.arange(lanes))
        ctx, _ = _Compiled(c).core(lanes, ctx=ctx)
        results.append(ctx.tile_buffer.view(np.float32).copy())
    want = sum(v[0] * np.float32(k + 1.5) + v[1] * np.float32(k + 2.25) for k in range(N))
    np.testing.assert_allclose(results[1][:, 0], want, rtol=1e-5)
    np.testing.assert_allclose(results[1], results[0], rtol=1e-5)
