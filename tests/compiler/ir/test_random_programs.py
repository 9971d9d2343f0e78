"""Random front-end-style programs (variables, ifs, counted loops, indirectly
indexed arrays) keep their meaning through every pass pipeline: the interpreter
gives the same outputs before and after."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.ir.core import clone_shader
from compiler.ir.passes import optimize, preprocess, run_pass
from compiler.ir.passes.basic import opt_copy_prop, opt_dce
from compiler.ir.passes.vars import lower_vars_to_ssa
from compiler.ir.types import ArrayType
from compiler.ir.validate import validate_shader

from . import programs


class Gen:
    def __init__(self, data):
        self.data = data
        self.s, self.b = programs.new_shader()
        b = self.b
        self.inputs = [programs.load_in(b, "VAR0"), programs.load_in(b, "VAR1")]
        self.vars = [b.local_var(f"v{i}", programs.VEC4) for i in range(3)]
        self.arr = b.local_var("arr", ArrayType(programs.VEC4, 3))
        for v in self.vars:
            b.store_var(v, self.inputs[0])
        for k in range(3):
            b.store_deref(b.deref_array(b.deref_var(self.arr), k), self.inputs[1])
        self.loop_vars = []
        self.contexts = []      # "loop" or "once" (a front end's once-loop for early returns)

    def draw(self, strategy):
        return self.data.draw(strategy)

    def index(self):
        b = self.b
        if self.loop_vars and self.draw(st.booleans()):
            return b.imod(self.draw(st.sampled_from(self.loop_vars)), 3)
        e = self.expr(1)
        return b.imin(b.imax(b.f2i32(b.fmul(b.channel(e, 0), 3.0)), 0), 2)

    def expr(self, depth):
        b = self.b
        kinds = ["input", "var", "const"] + (["unary", "binary", "select", "swizzle", "array"] if depth < 3 else [])
        kind = self.draw(st.sampled_from(kinds))
        if kind == "input":
            return self.draw(st.sampled_from(self.inputs))
        if kind == "var":
            return b.load_var(self.draw(st.sampled_from(self.vars)))
        if kind == "const":
            return b.fimm([float(self.draw(st.sampled_from([0.0, 1.0, 0.5, -2.0, 3.0]))) for _ in range(4)])
        if kind == "unary":
            return b.alu(self.draw(st.sampled_from(["fneg", "fabs", "ffloor", "fsat", "ffract"])), self.expr(depth + 1))
        if kind == "binary":
            op = self.draw(st.sampled_from(["fadd", "fsub", "fmul", "fmin", "fmax"]))
            return b.alu(op, self.expr(depth + 1), self.expr(depth + 1))
        if kind == "select":
            c = b.flt(self.expr(depth + 1), self.expr(depth + 1))
            return b.bcsel(c, self.expr(depth + 1), self.expr(depth + 1))
        if kind == "swizzle":
            sw = self.draw(st.lists(st.sampled_from("xyzw"), min_size=4, max_size=4))
            return b.swizzle(self.expr(depth + 1), "".join(sw))
        return b.load_deref(b.deref_array(b.deref_var(self.arr), self.index()))

    def stmts(self, depth):
        for _ in range(self.draw(st.integers(1, 3))):
            self.stmt(depth)

    def stmt(self, depth):
        b = self.b
        kinds = ["assign", "assign_masked", "array_store"] + (["if", "loop", "once"] if depth < 2 else [])
        if self.contexts and self.contexts[-1] == "once":
            kinds.append("early_break")
        if self.contexts and isinstance(self.contexts[-1], tuple):
            kinds.append("continue")
        kind = self.draw(st.sampled_from(kinds))
        if kind == "assign":
            b.store_var(self.draw(st.sampled_from(self.vars)), self.expr(0))
        elif kind == "assign_masked":
            b.store_var(self.draw(st.sampled_from(self.vars)), self.expr(0), self.draw(st.integers(1, 15)))
        elif kind == "array_store":
            idx = self.index()
            b.store_deref(b.deref_array(b.deref_var(self.arr), idx), self.expr(0))
        elif kind == "once":
            loop = b.push_loop()
            self.contexts.append("once")
            self.stmts(depth + 1)
            self.contexts.pop()
            b.break_()
            b.pop_loop(loop)
        elif kind == "continue":          # for (...; i++) { ... if (c) { x = e; continue; } ... }
            counter = self.contexts[-1][1]
            nif = b.push_if(b.flt(b.channel(self.expr(1), 0), b.channel(self.expr(1), 1)))
            b.store_var(self.draw(st.sampled_from(self.vars)), self.expr(0))
            b.store_var(counter, b.iadd(b.load_var(counter), 1))
            b.continue_()
            b.pop_if(nif)
        elif kind == "early_break":
            nif = b.push_if(b.flt(b.channel(self.expr(1), 0), b.channel(self.expr(1), 1)))
            b.store_var(self.draw(st.sampled_from(self.vars)), self.expr(0))
            b.break_()
            b.pop_if(nif)
        elif kind == "if":
            nif = b.push_if(b.flt(b.channel(self.expr(1), 0), b.channel(self.expr(1), 1)))
            self.stmts(depth + 1)
            if self.draw(st.booleans()):
                b.push_else(nif)
                self.stmts(depth + 1)
            b.pop_if(nif)
        else:
            n = self.draw(st.integers(0, 3))

            def body(i):
                self.loop_vars.append(i)
                self.contexts.append("loop")
                self.stmts(depth + 1)
                self.contexts.pop()
                self.loop_vars.pop()
            if self.draw(st.booleans()):
                self.for_loop(n, depth)
            else:
                programs.do_while_loop(b, n, body)

    def for_loop(self, n, depth):
        """for (int i = 0; i < n; i++) { stmts } as the front end lowers it."""
        b = self.b
        i = b.local_var(f"i{len(b.func.locals)}", programs.I32)
        b.store_var(i, b.iimm(0))
        loop = b.push_loop()
        nif = b.push_if(b.ilt(b.load_var(i), n))
        b.push_else(nif)
        b.break_()
        b.pop_if(nif)
        self.loop_vars.append(b.load_var(i))
        self.contexts.append(("loop", i))
        self.stmts(depth + 1)
        self.contexts.pop()
        self.loop_vars.pop()
        b.store_var(i, b.iadd(b.load_var(i), 1))
        b.pop_loop(loop)

    def finish(self):
        b = self.b
        total = b.load_var(self.vars[0])
        for v in self.vars[1:]:
            total = b.fadd(total, b.load_var(v))
        programs.store_out(b, total)
        validate_shader(self.s)
        return self.s


def _compare(before, after, seed):
    inputs = programs.random_inputs(np.random.default_rng(seed))
    from compiler.ir.interp import run_function
    a, _ = run_function(before, lanes=16, inputs={k: v.copy() for k, v in inputs.items()})
    c, _ = run_function(after, lanes=16, inputs=inputs)
    # Compare as floats with a rounding's slack: the optimiser may turn -0.0 into 0.0 and
    # regroup float constants ((a + b) + c -> a + (b + c)), as NIR's inexact rules do.
    np.testing.assert_allclose(a.outputs["VAR0"].view(np.float32), c.outputs["VAR0"].view(np.float32),
                               rtol=1e-5, atol=1e-6)


PIPELINES = {
    "vars_to_ssa": lambda s: (run_pass(s, lower_vars_to_ssa), run_pass(s, opt_copy_prop), run_pass(s, opt_dce)),
    "optimize": optimize,
    "preprocess": preprocess,
    "preprocess_scalar": lambda s: preprocess(s, scalarize=True),
    "preprocess_scratch": lambda s: preprocess(s, max_ladder_length=0),
}


def _check(pipeline, data):
    gen = Gen(data)
    gen.stmts(0)
    before = gen.finish()
    after = clone_shader(before)
    try:
        PIPELINES[pipeline](after)
        validate_shader(after)
        _compare(before, after, seed=data.draw(st.integers(0, 1000)))
    except Exception:
        import os
        if os.environ.get("IR_DUMP"):
            from compiler.ir.printer import print_shader
            open(os.environ["IR_DUMP"], "w").write(print_shader(before) + "\n=====\n" + print_shader(after))
        raise


@pytest.mark.parametrize("pipeline", list(PIPELINES))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_program_keeps_meaning(pipeline, data):
    _check(pipeline, data)


@pytest.mark.slow
@pytest.mark.parametrize("pipeline", list(PIPELINES))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_many_random_programs_keep_meaning(pipeline, data):
    _check(pipeline, data)
