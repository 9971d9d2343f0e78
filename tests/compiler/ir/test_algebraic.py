"""Before/after tests of the algebraic pattern table, and a semantic check."""

import numpy as np
import pytest

from compiler.ir.passes import run_pass
from compiler.ir.passes import algebraic
from compiler.ir.passes.algebraic import PATTERNS, opt_algebraic
from compiler.ir.parser import parse_shader
from compiler.ir.validate import validate_shader

from .irtest import CASE, NEGCASE, assert_same_outputs, program

HEAD = """
block b0:
  32x1 %z = load_const (0)
  32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
  32x4 %j = intrinsic load_input (%z) (base=0, slot=VAR1)
"""


def body(lines, out="%r"):
    return HEAD + "\n".join("  " + ln for ln in lines) + \
        f"\n  intrinsic store_output ({out}, %z) (base=0, slot=VAR0, write_mask=xyzw)"


def test_fmul_one_is_the_source():
    CASE(opt_algebraic, body(["32x1 %one = load_const (1.0)", "32x4 %r = fmul %one.xxxx, %i"]),
         body(["32x1 %one = load_const (1.0)"], out="%i"))


def test_double_negation_through_swizzles():
    CASE(opt_algebraic, body(["32x4 %n = fneg %i.wzyx", "32x4 %r = fneg %n.wzyx"]),
         body(["32x4 %n = fneg %i.wzyx"], out="%i"))


def test_partial_swizzle_result_becomes_a_mov():
    CASE(opt_algebraic, body(["32x1 %zero = load_const (0)", "32x4 %r = iadd %i.yyxx, %zero.xxxx"]),
         body(["32x1 %zero = load_const (0)", "32x4 %r = mov %i.yyxx"]))


def test_clamp_becomes_fsat():
    CASE(opt_algebraic, body([
        "32x1 %zero = load_const (0.0)", "32x1 %one = load_const (1.0)",
        "32x4 %m = fmax %i, %zero.xxxx", "32x4 %r = fmin %one.xxxx, %m",
    ]), body([
        "32x1 %zero = load_const (0.0)", "32x1 %one = load_const (1.0)",
        "32x4 %m = fmax %i, %zero.xxxx", "32x4 %r = fsat %i",
    ]))


def test_inverted_comparison_and_select():
    CASE(opt_algebraic, body([
        "1x4 %c = flt %i, %j", "1x4 %n = inot %c", "32x4 %r = bcsel %n, %i, %j",
    ]), body([
        "1x4 %c = flt %i, %j", "1x4 %n = fge %i, %j", "32x4 %r = bcsel %n, %i, %j",
    ]))


def test_select_on_inverted_bool():
    CASE(opt_algebraic, body([
        "1x4 %c = f2b1 %i", "1x4 %n = inot %c", "32x4 %r = bcsel %n, %i, %j",
    ]), body([
        "1x4 %c = f2b1 %i", "1x4 %n = inot %c", "32x4 %r = bcsel %c, %j, %i",
    ]))


def test_iand_minus_one_matches_all_ones():
    CASE(opt_algebraic, body(["32x1 %m = load_const (0xffffffff)", "32x4 %r = iand %i, %m.xxxx"]),
         body(["32x1 %m = load_const (0xffffffff)"], out="%i"))


def test_exact_instructions_skip_inexact_rules():
    NEGCASE(opt_algebraic, body(["32x1 %zero = load_const (0.0)", "32x4 %r = exact fmul %i, %zero.xxxx"]))


def test_no_rule_for_plain_arithmetic():
    NEGCASE(opt_algebraic, body(["32x4 %r = fadd %i, %j", "32x4 %s = fmul %r, %j.xxxx"]))


def test_different_swizzles_are_not_the_same_variable():
    NEGCASE(opt_algebraic, body(["32x4 %r = fmin %i, %i.yxzw"]))


def test_table_has_no_unknown_ops():
    from compiler.ir.opcodes import OPS
    for entry in PATTERNS:
        assert entry[0][0] in OPS


# Every rule that is exact keeps the meaning of a program built from it.
EXACT_RULES = [e for e in PATTERNS if len(e) < 3 or "inexact" not in e[2]]


def _program_for(search):
    """A fragment shader evaluating ``search`` on inputs (floats VAR0/VAR1 or ints)."""
    lines, counter, bound = [], [0], {}
    ints = search[0][0] in "iu" or search[0] in ("bcsel", "inot") or any(
        isinstance(a, tuple) and a[0][0] in "iub" for a in search[1:])

    def emit(e, kind):
        counter[0] += 1
        name = f"%t{counter[0]}"
        if isinstance(e, str):
            if e in bound:
                return bound[e]
            if e.startswith("#"):           # a constant variable
                value = {"#a": 2, "#b": 3, "#c": 5}[e]
                lines.append(f"32x4 {name} = load_const ({value}, {value}, {value}, {value})")
                bound[e] = name
                return name
            src = {"a": "%i", "b": "%j", "c": "%k", "x": "%i", "y": "%j"}[e]
            if kind == "bool":
                lines.append(f"1x4 {name} = flt {src}, %j")
            else:
                lines.append(f"32x4 {name} = mov {src}")
            bound[e] = name
            return name
        if isinstance(e, tuple):
            from compiler.ir.opcodes import OPS, parse_type_spec
            info = OPS[e[0]]
            logic = e[0] in ("inot", "iand", "ior", "ixor")
            args = [emit(a, kind if logic else "bool" if parse_type_spec(t)[0] == "bool" else "num")
                    for a, t in zip(e[1:], info.input_types)]
            size = parse_type_spec(info.output_type)[1] or 32
            if logic:
                size = 1 if any(ln.startswith(f"1x4 {args[0]} ") for ln in lines) else 32
            lines.append(f"{size}x4 {name} = {e[0]} {', '.join(args)}")
            return name
        if isinstance(e, bool) or kind == "bool":
            lines.append(f"1x4 {name} = load_const ({'true' if e else 'false'}, {'true' if e else 'false'}, "
                         f"{'true' if e else 'false'}, {'true' if e else 'false'})")
            return name
        lines.append(f"32x4 {name} = load_const ({e}, {e}, {e}, {e})")
        return name

    root = emit(search, "num")
    out = root
    if search[0] in ("flt", "fge", "feq", "fneu", "ieq", "ine", "ilt", "ige", "ult", "uge", "inot",
                     "i2b1", "f2b1") and not lines[-1].startswith("32x4"):
        lines.append(f"32x4 %out = b2i32 {root}")
        out = "%out"
    text = HEAD + "  32x4 %k = intrinsic load_input (%z) (base=0, slot=VAR2)\n" + \
        "\n".join("  " + ln for ln in lines) + \
        f"\n  intrinsic store_output ({out}, %z) (base=0, slot=VAR0, write_mask=xyzw)"
    return program(text), ints


@pytest.mark.parametrize("entry", EXACT_RULES, ids=lambda e: str(e[0]))
def test_exact_rule_keeps_meaning(entry, monkeypatch):
    text, ints = _program_for(entry[0])
    rng = np.random.default_rng(7)
    if ints:
        vals = [rng.integers(-5, 5, (4, 16)).astype(np.int32).view(np.uint32) for _ in range(3)]
    else:
        vals = [rng.choice([0.0, 1.0, -1.0, 0.5, 2.0, -3.25], (4, 16)).astype(np.float32).view(np.uint32)
                for _ in range(3)]
    inputs = {"VAR0": vals[0], "VAR1": vals[1], "VAR2": vals[2]}
    before = parse_shader(text)
    validate_shader(before)
    after = parse_shader(text)
    monkeypatch.setattr(algebraic, "PATTERNS", [entry])     # this rule alone
    assert run_pass(after, opt_algebraic)
    assert_same_outputs(before, after, inputs=inputs)


def test_constants_reassociate_for_associative_ops():
    from compiler.ir.passes import opt_constant_folding, run_pass
    from compiler.ir.printer import print_shader
    s = parse_shader(program(body(["32x1 %c1 = load_const (3)", "32x1 %c2 = load_const (4)",
                                   "32x4 %t = iadd %i, %c1.xxxx", "32x4 %r = iadd %c2.xxxx, %t"])))
    assert run_pass(s, opt_algebraic)
    assert run_pass(s, opt_constant_folding)
    text = print_shader(s)
    assert "load_const (7, 7, 7, 7)" in text and text.count("iadd") == 2      # one dead iadd left for DCE
