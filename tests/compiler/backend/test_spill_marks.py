"""The spill search's incremental block pressure (ra._BlockMarks) against the plain
backward scans it replaces (ra._block_pressure / ra._live_after), before and after
values are spilled, and the spill-round loop giving the same code as spilling
with a whole-program recomputation per round."""

import pytest

from compiler.backend import ra
from compiler.backend.isel import select
from compiler.backend.pipeline import dce
from compiler.backend.spill import spill_value
from compiler.compile import front_half
from compiler.ir import ShaderKey
from compiler.ir.core import clone_shader
from compiler.lower import RenderTarget

N = 20
# every temporary first, then the sum: all 20 are live at once
SRC = "#version 330\nin vec4 v;\nlayout(location = 0) out uvec4 o;\nvoid main() {\n" + "\n".join(
    f"  float a{k} = v.x * {k + 1}.5 + v.y * {k + 2}.25;" for k in range(N)) + \
    "\n  o = floatBitsToUint(vec4(" + " + ".join(f"a{k}" for k in range(N)) + "));\n}"


def _func():
    shader, info = front_half(SRC, "fragment",
                              ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))
    func, _sel = select(clone_shader(shader), {"info": info})
    dce(func)
    return func


def _reference(cfg, b, live_out, start, budget):
    need = ra._block_pressure(cfg, b, live_out)
    for k in range(start, len(b.instrs)):
        if need[k] > budget:
            return k, ra._live_after(cfg, b, live_out, k)
    return None, None


@pytest.mark.parametrize("every", [1, 3, 7, 256])
def test_marks_agree_with_full_scans_across_spills(monkeypatch, every):
    monkeypatch.setattr(ra, "MARK_EVERY_INSTRS", every)
    func = _func()
    cfg, blocks, _live_in, live_out = ra.liveness(func)
    (b,) = [x for x in blocks if len(x.instrs) > 40]
    marks = ra._BlockMarks(cfg, b, live_out[b])
    need = ra._block_pressure(cfg, b, live_out[b])
    budget = max(need) // 2                      # many points over it
    checked = spilled = 0
    for _round in range(12):
        for start in (0, len(b.instrs) // 3, len(b.instrs) // 2, len(b.instrs) - 1):
            got = marks.first_over(live_out[b], start, budget)
            assert got == _reference(cfg, b, live_out[b], start, budget)
            checked += 1
        k, live = marks.first_over(live_out[b], 0, budget)
        if k is None:
            break
        victim = max((v for v in live - ra._busy(b.instrs[k]) if v.spillable), key=lambda v: (v.halves, -v.id))
        spill_value(func, victim)
        spilled += 1
        marks.spilled(victim, func.spilled[victim][0] == "remat")
        cfg, blocks, _live_in, live_out = ra.liveness(func)
    assert spilled >= 3 and checked >= 12


def _reduce_by_full_rounds(func, budget_halves, max_rounds=400):
    """The spill search as it was: liveness and the block's pressure recomputed from
    scratch in every round, the first point over the budget searched from the top."""
    for _round in range(max_rounds):
        cfg, blocks, live_in, live_out = ra.liveness(func)
        n = 0
        victim = None
        for b in blocks:
            entry = set(live_in[b]) | {p.dst for p in b.phis}
            if sum(v.halves for v in entry) > budget_halves:
                p = n if b.instrs else 0
                victim = ra._victim_near(func, blocks, cfg, entry - {p_.dst for p_ in b.phis}, p) or \
                    ra._victim_near(func, blocks, cfg, entry, p)
                break
            need = ra._block_pressure(cfg, b, live_out[b])
            for k, ins in enumerate(b.instrs):
                if need[k] > budget_halves:
                    live = ra._live_after(cfg, b, live_out[b], k) | set(ins.defs())
                    victim = ra._victim_near(func, blocks, cfg, live - ra._busy(ins), n + 1 + k) or \
                        ra._phi_victim(cfg, b, live)
                    break
            if victim is not None:
                break
            n += len(b.instrs) + 2
        if victim is None:
            return
        spill_value(func, victim)
    raise AssertionError("did not converge")


@pytest.mark.parametrize("regs", [8, 10, 14])
def test_incremental_spill_search_spills_what_full_rounds_spill(monkeypatch, regs):
    monkeypatch.setattr(ra, "MARK_EVERY_INSTRS", 5)
    budget = 2 * (regs - ra.RESERVED_REGS32)
    fast, slow = _func(), _func()
    ra._reduce_pressure(fast, budget, 400)
    _reduce_by_full_rounds(slow, budget)
    assert fast.spills == slow.spills > 0 and fast.fills == slow.fills
    text = [[str(i) for i in b.instrs] for b in ra.linear_blocks(fast)]
    ids = {}                                   # vreg numbers differ between the two runs: compare shapes

    def shape(lines):
        import re
        return [re.sub(r"%\d+", lambda m: ids.setdefault(m.group(0), f"v{len(ids)}"), s) for s in lines]
    fast_shape = [shape(b) for b in text]
    ids.clear()
    slow_shape = [shape([str(i) for i in b.instrs]) for b in ra.linear_blocks(slow)]
    assert fast_shape == slow_shape
