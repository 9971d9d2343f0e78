"""Programs built with the builder, the way the front end will build them (through
variables), shared by the pass tests."""

from __future__ import annotations

from compiler.ir.builder import Builder
from compiler.ir.core import Function, Shader, Variable
from compiler.ir.types import ArrayType, VecType

F32 = VecType("float", 32)
I32 = VecType("int", 32)
VEC4 = VecType("float", 32, 4)


def new_shader(stage="fragment"):
    s = Shader(stage)
    f = Function("main")
    s.functions.append(f)
    return s, Builder(f, s)


def load_in(b, slot="VAR0", comps=4):
    return b.load_input(b.iimm(0), num_components=comps, base=0, slot=slot)


def store_out(b, value, slot="VAR0"):
    b.store_output(value, b.iimm(0), base=0, slot=slot, write_mask=(1 << value.num_components) - 1)


def counted_loop(b, n, body, start=0, step=1, cmp="ilt"):
    """for (int i = start; i cmp n; i += step) body(i) -- through a variable."""
    i = b.local_var(f"i{len(b.func.locals)}", I32)
    b.store_var(i, b.iimm(start))
    loop = b.push_loop()
    iv = b.load_var(i)
    cond = getattr(b, cmp)(iv, b.iimm(n))
    nif = b.push_if(cond)
    b.push_else(nif)
    b.break_()
    b.pop_if(nif)
    body(b.load_var(i))
    b.store_var(i, b.iadd(b.load_var(i), b.iimm(step)))
    b.pop_loop(loop)


def sum_of_positive():
    """sum over i<4 of (x[i] > 0.5 ? x[i] : 0) with an array indexed by the loop counter."""
    s, b = new_shader()
    x = load_in(b)
    arr = b.local_var("arr", ArrayType(F32, 4))
    for c in range(4):
        b.store_deref(b.deref_array(b.deref_var(arr), c), b.channel(x, c))
    total = b.local_var("total", F32)
    b.store_var(total, b.fimm(0.0))

    def body(i):
        v = b.load_deref(b.deref_array(b.deref_var(arr), i))
        nif = b.push_if(b.flt(b.fimm(0.5), v))
        b.store_var(total, b.fadd(b.load_var(total), v))
        b.pop_if(nif)

    counted_loop(b, 4, body)
    store_out(b, b.vec(b.load_var(total), 0.0, 0.0, 1.0))
    return s


def indirect_array(length=4):
    """out = table[int(x.w * length)] + (table written at an indirect index first)."""
    s, b = new_shader()
    x = load_in(b)
    arr = b.local_var("table", ArrayType(VEC4, length))
    for c in range(length):
        b.store_deref(b.deref_array(b.deref_var(arr), c), b.fmul(x, float(c + 1)))
    idx = b.f2i32(b.fmul(b.channel(x, 3), float(length)))
    idx = b.imin(b.imax(idx, 0), length - 1)
    j = b.imod(b.iadd(idx, 1), length)
    b.store_deref(b.deref_array(b.deref_var(arr), j), b.fadd(x, 100.0), 0b0011)
    v = b.load_deref(b.deref_array(b.deref_var(arr), idx))
    w = b.load_deref(b.deref_array(b.deref_var(arr), j))
    store_out(b, b.fadd(v, w))
    return s


def random_inputs(rng, lanes=16, slots=("VAR0", "VAR1")):
    import numpy as np
    return {slot: rng.uniform(0, 1, (4, lanes)).astype(np.float32).view(np.uint32) for slot in slots}


def do_while_loop(b, n, body):
    """int i = 0; do { body(i); i++; } while (i < n);  -- through a variable."""
    i = b.local_var(f"i{len(b.func.locals)}", I32)
    b.store_var(i, b.iimm(0))
    loop = b.push_loop()
    body(b.load_var(i))
    b.store_var(i, b.iadd(b.load_var(i), b.iimm(1)))
    nif = b.push_if(b.ilt(b.load_var(i), b.iimm(n)))
    b.push_else(nif)
    b.break_()
    b.pop_if(nif)
    b.pop_loop(loop)


def early_return():
    """void main() { vec4 v = in; if (v.x < 0.5) { out = 0; return; }
    if (v.y < 0.5) { out = v; return; } else { v *= 2; } out = v + 1; }
    as the front end lowers it: a once-loop with breaks."""
    s, b = new_shader()
    out = b.local_var("out", VEC4)
    v = b.local_var("v", VEC4)
    b.store_var(out, b.fimm([9.0, 9.0, 9.0, 9.0]))
    loop = b.push_loop()
    b.store_var(v, load_in(b))
    nif = b.push_if(b.flt(b.channel(b.load_var(v), 0), 0.5))
    b.store_var(out, b.fimm([0.0, 0.0, 0.0, 0.0]))
    b.break_()
    b.pop_if(nif)
    nif = b.push_if(b.flt(b.channel(b.load_var(v), 1), 0.5))
    b.store_var(out, b.load_var(v))
    b.break_()
    b.push_else(nif)
    b.store_var(v, b.fmul(b.load_var(v), 2.0))
    b.pop_if(nif)
    b.store_var(out, b.fadd(b.load_var(v), 1.0))
    b.break_()
    b.pop_loop(loop)
    store_out(b, b.load_var(out))
    return s
