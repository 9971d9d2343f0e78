"""What fuzzing the GLSL compiler found, kept as tests: each input ends in a binary
or in a compile error in Mesa's format, never an internal exception."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest

from compiler.compile import compile_glsl
from compiler.glsl import MAX_NESTING_DEPTH, GLSLCompileError, parse
from compiler.scope import MAX_LOOP_DEPTH

from tests.compiler.lower.harness import as_f32, run_vertex

HEAD = "#version 330\nuniform float u;\nuniform int k;\nout vec4 o;\n"


def _fs(body: str) -> str:
    return HEAD + "void main() {\n" + body + "\n}\n"


def _error_line(src: str, stage: str = "fragment") -> str:
    with pytest.raises(GLSLCompileError) as e:
        compile_glsl(src, stage)
    first = e.value.info_log.splitlines()[0]
    assert re.fullmatch(r"0:\d+\(\d+\): error: .+", first), e.value.info_log
    return first


# -- nesting: an explicit limit with a proper error, below it everything compiles ----------

@pytest.mark.parametrize("kind,make", [
    ("parentheses", lambda n: "o = vec4(" + "(" * n + "u" + ")" * n + ");"),
    ("unary", lambda n: "o = vec4(" + "- " * n + "u);"),
    ("calls", lambda n: "o = vec4(" + "abs(" * n + "u" + ")" * n + ");"),
    ("ternaries", lambda n: "o = vec4(" + "(u > 0.5 ? " * n + "u" + " : 1.0)" * n + ");"),
    ("right-nested sums", lambda n: "o = vec4(" + "u + (" * n + "u" + ")" * n + ");"),
    ("ifs", lambda n: "o = vec4(0.0);" + "if (u > 0.5) {" * n + "o += vec4(1.0);" + "}" * n),
    ("blocks", lambda n: "o = vec4(0.0);" + "{" * n + "o += vec4(1.0);" + "}" * n),
])
def test_deep_nesting_compiles_below_the_limit_and_is_an_error_above(kind, make):
    # the fuzzer's RecursionErrors were at 139 nested parentheses and 326 nested ifs
    assert compile_glsl(_fs(make(100)), "fragment").binary
    line = _error_line(_fs(make(MAX_NESTING_DEPTH + 50)))
    assert line.endswith(f"error: nesting too deep: more than {MAX_NESTING_DEPTH} levels of nested "
                         "expressions and statements")


def test_nested_loops_have_their_own_limit():
    loops = lambda n: "o = vec4(0.0);" + "for (int i = 0; i < k; ++i) {" * n + "o += vec4(1.0);" + "}" * n  # noqa: E731
    assert compile_glsl(_fs(loops(12)), "fragment").binary
    assert _error_line(_fs(loops(MAX_LOOP_DEPTH + 1))).endswith(
        f"error: loops nested too deep: more than {MAX_LOOP_DEPTH} levels")


@pytest.mark.parametrize("op", ["+", "*", "&&", "==", ","])
def test_long_operator_chains_compile(op):
    """A chain of binary operators does not nest: 491 terms raised RecursionError."""
    term = {"&&": "u > 0.5", "==": "true", ",": "u"}.get(op, "u")
    expr = f" {op} ".join([term] * 600)
    value = f"float({expr})" if op in ("&&", "==") else f"({expr})"
    assert compile_glsl(_fs(f"o = vec4({value});"), "fragment").binary


def test_a_long_sum_computes_the_sequential_float32_sum():
    n = 1000
    src = ("#version 330\nin float x;\nout float r;\nvoid main() {\n    r = " + " + ".join(["x"] * n) +
           ";\n    gl_Position = vec4(0.0);\n}\n")
    xs = np.array([0.1, -3.7, 1e-3, 12345.678], np.float32)
    outs, _info, _it = run_vertex(src, {"x": xs[None, :]}, lanes=4)
    want = np.zeros(4, np.float32)
    for _ in range(n):      # left to right, rounding at each step, as the tree says
        want = (want + xs).astype(np.float32)
    np.testing.assert_array_equal(as_f32(outs["r"])[0], want)


def test_the_interpreter_recursion_limit_is_restored():
    before = sys.getrecursionlimit()
    compile_glsl(_fs("o = vec4(" + "(" * 200 + "u" + ")" * 200 + ");"), "fragment")
    assert sys.getrecursionlimit() == before


def test_deep_shader_compiles_from_a_deep_caller():
    """The headroom is above the caller's own depth (a driver deep in its stack)."""
    src = _fs("o = vec4(" + "(" * 200 + "u" + ")" * 200 + ");")

    def nest(d):
        return nest(d - 1) if d else compile_glsl(src, "fragment")
    limit = sys.getrecursionlimit()
    assert nest(limit - 100).binary


# -- truncated input -------------------------------------------------------------------

@pytest.mark.parametrize("tail", ["void main() { float[2", "void main() { vec4[", "void main() { vec4[2] a",
                                  "uniform B { vec4", "void f(float["])
def test_truncated_declarations_are_syntax_errors(tail):
    # `float[` at the end ran the declaration look-ahead off the token list (IndexError)
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 330\n" + tail, "vertex")
    assert "error: syntax error" in e.value.info_log


# -- endless loops: the backend handles them ---------------------------------------------

@pytest.mark.parametrize("stage,head,before", [
    ("vertex", "#version 330\nuniform vec4 c;\nin vec4 p;\n", "gl_Position = p * c;"),
    ("fragment", "#version 330\nuniform vec4 c;\nout vec4 o;\n", "o = c;"),
    ("vertex", "#version 300 es\nuniform vec4 c;\nin vec4 p;\n", "gl_Position = p * c;"),
])
@pytest.mark.parametrize("loop", ["for (;;) {}", "while (true) {}", "do {} while (true);", "for (;;);",
                                  "if (c.x > 0.0) { for (;;) { c.y; } }",
                                  "for (;;) { if (c.x > 1.0) continue; }"])
def test_a_shader_ending_in_an_endless_loop_compiles(stage, head, before, loop):
    # the register allocator asserted on the unreachable code after such a loop
    src = head + "void main() {\n    " + before + "\n    " + loop + "\n}\n"
    assert compile_glsl(src, stage).binary


@pytest.mark.parametrize("depth", [1, 2, 30])
@pytest.mark.parametrize("endless", ["for (;;);", "while (true) { o.x += 1.0; }"])
def test_an_endless_loop_inside_loops_compiles(depth, endless):
    """Found by a 5,000-shader run (a mutant nesting 30 one-pass loops around
    an endless one): dead-control-flow removal replaced the code after the
    inner loop by an empty block, repair_phis put an undef there for the outer
    loop's header phi, and the pass saw fresh code to remove, forever."""
    src = _fs("for (int i = 0; i < k; ++i) {" * depth + " o = vec4(u); " + endless + " " + "}" * depth)
    assert compile_glsl(src, "fragment").binary


# -- the safety net: a bug still ends in the documented errors ------------------------------

def test_a_front_end_bug_is_an_info_log_not_a_traceback(monkeypatch):
    import compiler.glsl.semantic as semantic

    def bug(self):
        raise KeyError("injected")
    monkeypatch.setattr(semantic.Analyzer, "check_whole_shader", bug)
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 330\nvoid main() {}\n", "vertex")
    assert e.value.info_log == "0:0(0): error: internal compiler error: KeyError: 'injected'\n"
    assert isinstance(e.value.__cause__, KeyError)


def test_lowering_and_backend_bugs_are_their_stage_errors(monkeypatch):
    from compiler.backend import BackendError
    from compiler.lower import LoweringError
    import compiler.backend.pipeline as pipeline
    import compiler.compile as front

    src = _fs("o = vec4(u);")

    def bug(*args, **kw):
        raise IndexError("injected")
    monkeypatch.setattr(front, "lower_stage", bug)          # the AST lowering of a vertex/fragment stage
    with pytest.raises(LoweringError, match="internal compiler error: IndexError: injected"):
        compile_glsl(src, "fragment")
    monkeypatch.undo()
    import compiler.lower.stage as stage
    monkeypatch.setattr(stage.IOLowering, "finish", bug)       # a variant pass
    with pytest.raises(LoweringError, match="internal compiler error: IndexError: injected"):
        compile_glsl(src, "fragment")
    monkeypatch.undo()
    monkeypatch.setattr(pipeline, "allocate", bug)
    with pytest.raises(BackendError, match="internal compiler error: IndexError: injected"):
        compile_glsl(src, "fragment")


def test_dead_chains_go_in_one_backend_dce_pass(monkeypatch):
    """A vec4 product of many terms whose .x alone is read leaves three dead chains
    after instruction selection. The backend's dead-code elimination removes a chain
    in one pass (it removed one link per pass: a 5000-term product took minutes, the
    fuzzer's hang); counted as instructions looked at, not time."""
    import compiler.backend.mir as mir
    import compiler.backend.pipeline as pipeline

    looked_at = []
    real_dce, real_defs = pipeline.dce, mir.MInstr.defs

    def counting_dce(func):
        n = [0]

        def defs(ins):
            n[0] += 1
            return real_defs(ins)
        monkeypatch.setattr(mir.MInstr, "defs", defs)
        before = sum(len(b.instrs) for b in mir.walk_mblocks(func.body))
        real_dce(func)
        monkeypatch.setattr(mir.MInstr, "defs", real_defs)
        looked_at.append((n[0], before))

    monkeypatch.setattr(pipeline, "dce", counting_dce)
    terms = 400
    src = ("#version 330\nin vec4 v;\nout vec4 o;\nvoid main() {\n  o = vec4((" +
           " * ".join(["v"] * terms) + ").x);\n}\n")
    compile_glsl(src, "fragment")
    assert looked_at
    for calls, instructions in looked_at:
        assert calls <= 4 * instructions + 64, (calls, instructions)     # was ~instructions * terms


def test_a_long_comma_chain_of_uniform_reads_compiles():
    """GLSL fuzz seed 9, mutant 2,860: a comma chain of thousands of uniform reads. The I/O
    lowering and the dead-deref removal searched and removed each access in its block's
    list (quadratic: minutes of compile CPU for 5,000 terms); both are one pass per block.
    The value is the last operand's."""
    n = 5000
    src = ("#version 130\nuniform mat4 mvp;\nin vec4 p;\n"
           "void main() { mat4 m = (" + ", ".join(["mvp"] * n) + "); gl_Position = m * p; }\n")
    assert compile_glsl(src, "vertex").binary
