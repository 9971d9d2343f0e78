"""The group-vote built-ins through the compiler: GLSL -> IR (`vote` intrinsics,
never flattened out of the if that guards them, never merged across control
flow) -> the IR interpreter, whose vote is the ISA's (32-lane groups, active lanes
only), against results computed group by group in the test."""

from __future__ import annotations

import numpy as np

from compiler.compile import front_half
from compiler.ir import validate_shader
from compiler.ir.core import If, Intrinsic, walk_blocks, walk_cf
from compiler.ir.passes.control import opt_peephole_select
from tests.compiler.lower.harness import run_vertex

SHADER = """#version 460
in float x;
out vec4 r;
void main() {
    bool b = x > 0.5;
    float any_all = anyInvocation(b) ? 1.0 : 0.0;
    float inside = -1.0;
    if (x < 0.75)
        inside = allInvocations(b) ? 1.0 : 0.0;
    r = vec4(any_all, inside, allInvocationsEqual(b) ? 1.0 : 0.0, 0.0);
}
"""


def _votes(shader):
    return [i for f in shader.functions for blk in walk_blocks(f.body) for i in blk.instrs
            if isinstance(i, Intrinsic) and i.name == "vote"]


def test_votes_stay_inside_their_if():
    shader, _ = front_half(SHADER, "vertex", None)
    validate_shader(shader)
    assert sorted(v.indices["mode"] for v in _votes(shader)) == ["all", "any", "eq"]
    opt_peephole_select(shader, max_instrs=64)      # an if with a vote is not flattened
    ifs = [n for f in shader.functions for n in walk_cf(f.body) if isinstance(n, If)]
    assert any(isinstance(i, Intrinsic) and i.name == "vote"
               for n in ifs for blk in walk_blocks(n.then_list) for i in blk.instrs)


def test_interpreted_votes_match_the_groups():
    lanes = 96
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, lanes).astype(np.float32)
    x[0:32] = 0.9                    # group 0: every b true; nobody takes the if (x >= 0.75)
    x[32:64] = np.where(np.arange(32) % 2 == 0, 0.1, 0.6)   # group 1: in the if b alternates
    outs, _, _ = run_vertex(SHADER, {"x": x[None]}, lanes)
    r = outs["r"].view(np.float32)
    for g in range(3):
        lanes_g = slice(32 * g, 32 * g + 32)
        b = x[lanes_g] > 0.5
        inside = x[lanes_g] < 0.75
        assert (r[0, lanes_g] == float(b.any())).all()
        assert (r[2, lanes_g] == float(b.all() or not b.any())).all()
        want = np.where(inside, float(b[inside].all()) if inside.any() else 0.0, -1.0)
        assert r[1, lanes_g].tolist() == want.tolist()
    assert r[0, 0] == 1.0 and r[1, 0] == -1.0 and r[2, 0] == 1.0
    assert r[1, 32] == 0.0 and r[1, 33] == 0.0       # the voters inside the if disagree
