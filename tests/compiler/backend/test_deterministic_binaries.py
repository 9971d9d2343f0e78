"""The same source compiles to the same binary in every process (the shader cache
stores what one process compiled for every later one).

Virtual registers hash by identity (their memory address), so any decision that
depends on the iteration order of a set of vregs can change from run to run. The
tests compile the same shader twice with two different vreg hash functions: every
order-dependent decision then has a chance to differ, as between two processes.
The shader is a double-precision 4x4 inverse checked against a reference (the
largest shader of the start-up corpus has this form): its blocks pass the register
budget, so the pressure scheduler runs, whose costs are float sums over each
instruction's operands (their order changed the rounding, which changed ties)."""

import hashlib

import pytest

from compiler.backend import compile_ir, mir
from compiler.backend.isel import select
from compiler.backend.peephole import peephole
from compiler.backend.pipeline import RESERVED_REGS32, dce
from compiler.backend.promote import promote_constants
from compiler.backend.schedule import schedule
from compiler.compile import front_half
from compiler.ir.core import clone_shader

_SQUARES = " + ".join(f"d[{c}][{r}] * d[{c}][{r}]" for c in range(4) for r in range(4))
SRC = f"""#version 400
uniform dmat4 m;
uniform double tol;
uniform dmat4 ref;
out vec4 colour;
void main()
{{
    dmat4 d = inverse(m) - ref;
    double e = {_SQUARES};
    colour = e <= tol * tol ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""
# two hash functions giving sets of vregs different iteration orders
HASHES = (lambda v: v.id, lambda v: (v.id * 7919) & 0xFFFFFFF)


def _scheduled_order(shader, info) -> list:
    """Each block's instructions after scheduling as (op, results, operands), vregs
    numbered from the first one of this compile (creation order is deterministic)."""
    func, sel = select(clone_shader(shader), {"info": info})
    dce(func)
    peephole(func, dce)
    promote_constants(func, sel.layout)
    schedule(func, 2 * (128 - RESERVED_REGS32))
    blocks = list(mir.walk_mblocks(func.body))
    first = min(v.id for b in blocks for i in b.instrs for v in (*i.defs(), *i.uses()))
    return [[(i.op, tuple(v.id - first for v in i.defs()), tuple(v.id - first for v in i.uses()))
             for i in b.instrs] for b in blocks]


def test_the_pressure_schedule_does_not_depend_on_vreg_hashes(monkeypatch):
    shader, info = front_half(SRC, "fragment", None)
    orders = []
    for h in HASHES:
        monkeypatch.setattr(mir.VReg, "__hash__", h)
        orders.append(_scheduled_order(shader, info))
    assert sum(len(b) for b in orders[0]) > 1000          # large enough to be scheduled for pressure
    assert orders[0] == orders[1]


@pytest.mark.slow
def test_the_binary_does_not_depend_on_vreg_hashes(monkeypatch):
    shader, info = front_half(SRC, "fragment", None)
    digests = []
    for h in HASHES:
        monkeypatch.setattr(mir.VReg, "__hash__", h)
        compiled = compile_ir(shader, info)
        assert compiled.stats.spills > 0                  # the register budget is passed
        digests.append(hashlib.sha256(compiled.binary).hexdigest())
    assert digests[0] == digests[1]
