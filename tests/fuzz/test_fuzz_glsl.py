"""A mutation fuzzer for the GLSL compiler (GraphicsFuzz-style, over our own corpus).

The seeds are valid shaders of our own: ``tests/compiler/glsl/corpus/valid`` and
``tests/compiler/glsl/fuzz_seeds`` (shaders collected from the project's tests, plus
larger ones written for the fuzzer). Each mutant is made from one seed by one to three
mutations: delete, duplicate, swap or replace tokens, truncate the text, or nest deeply
(parentheses, unary operators, calls, ternaries, blocks, ifs, loops, long operator chains,
an infinite loop at the end of ``main``).

The rule checked: the whole compiler (``compiler.compile.compile_glsl``: preprocess,
parse, check, lower, optimise, select, allocate, encode) ends every input in one of

- a binary,
- ``GLSLCompileError`` whose info log is all ``SOURCE:LINE(COL): error: ...`` lines (or
  whole-shader ``error: ...`` lines),
- ``LoweringError``/``BackendError``: valid GLSL the code generator does not support (the
  driver reports these as compile failures too; counted separately),

never any other Python exception, and never the compiler's safety net ("internal compiler
error", which turns a bug into an error report at the public entry points): those count
as internal exceptions, by the exception behind them. The fuzzer is seeded, so a run is reproducible: the
short run is part of the normal suite, the long one is marked slow. Run it by hand with
``python -m tests.fuzz.test_fuzz_glsl --count 10000 [--seed N]``, which prints the counts
by outcome and each internal exception's kind with a reproducer.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler.backend import BackendError
from compiler.compile import compile_glsl
from compiler.glsl import GLSLCompileError
from compiler.lower import LoweringError

ROOT = Path(__file__).resolve().parents[2]
SEED_DIRS = [ROOT / "tests/compiler/glsl/corpus/valid", ROOT / "tests/compiler/glsl/fuzz_seeds"]
STAGES = {".vert": "vertex", ".frag": "fragment", ".comp": "compute"}

_TOKEN = re.compile(r"""
    (?P<ws>\s+) | (?P<comment>//[^\n]*|/\*.*?\*/) | (?P<pp>\#[^\n]*)
  | (?P<word>[A-Za-z_]\w*)
  | (?P<number>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[fFuU]?|0[xX][0-9a-fA-F]+[uU]?)
  | (?P<punct><<=|>>=|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\^\^|[-+*/%&|^]=|.)
""", re.S | re.X)

# Words and operators a replacement may insert (GraphicsFuzz also splices in tokens of
# other kinds than the one removed).
_VOCABULARY = tuple(("float int uint bool vec2 vec3 vec4 ivec3 mat3 mat4 sampler2D struct in out inout "
               "uniform const flat layout location if else for while do return break continue "
               "discard switch case default true false void main precision highp ; , ( ) [ ] "
               "{ } = + - * / % < > ! ? : . ++ -- 0 1 2.0 -1 0x7fffffff 1e38 "
               "gl_Position gl_FragColor gl_FragCoord texture x y xyz").split())
_NESTING_DEPTHS = (30, 80, 150, 300, 600, 1200, 5000)


@dataclass(frozen=True)
class Seed:
    name: str
    stage: str
    text: str


def load_seeds() -> list[Seed]:
    seeds = []
    for d in SEED_DIRS:
        for p in sorted(d.iterdir()):
            if p.suffix in STAGES:
                seeds.append(Seed(p.name, STAGES[p.suffix], p.read_text()))
    return seeds


def tokens(text: str) -> list[str]:
    return [m.group(0) for m in _TOKEN.finditer(text)]


def _significant(toks: list[str]) -> list[int]:
    """Indices of the tokens a mutation may touch (not whitespace, comments or directives)."""
    return [i for i, t in enumerate(toks) if not t.isspace() and not t.startswith(("#", "//", "/*"))]


def _main_body(toks: list[str]) -> tuple[int, int] | None:
    """(index of main's '{', index of its matching '}') or None."""
    for i, t in enumerate(toks):
        if t == "main":
            j = i
            while j < len(toks) and toks[j] != "{":
                if toks[j] == ";":
                    break
                j += 1
            if j < len(toks) and toks[j] == "{":
                depth = 0
                for k in range(j, len(toks)):
                    depth += {"{": 1, "}": -1}.get(toks[k], 0)
                    if depth == 0:
                        return j, k
    return None


def _operand_in_main(rng: random.Random, toks: list[str]) -> int | None:
    body = _main_body(toks)
    if body is None:
        return None
    cands = [i for i in range(body[0] + 1, body[1]) if re.fullmatch(r"[A-Za-z_]\w*|\d[\w.]*", toks[i])
             and toks[i] not in ("if", "else", "for", "while", "do", "return", "break", "continue",
                                 "discard", "switch", "case", "default", "const", "struct")]
    return rng.choice(cands) if cands else None


def mutate(rng: random.Random, text: str) -> tuple[str, str]:
    """One mutation of ``text``: (new text, name of the mutation)."""
    toks = tokens(text)
    sig = _significant(toks)
    kind = rng.choice(("delete", "delete_range", "duplicate", "duplicate_range", "swap", "replace",
                       "truncate", "nest_parens", "nest_unary", "nest_calls", "nest_ternary",
                       "long_chain", "nest_blocks", "nest_ifs", "nest_loops", "infinite_loop"))
    if not sig:
        return text[: rng.randrange(len(text) + 1)], "truncate"
    if kind == "delete":
        del toks[rng.choice(sig)]
    elif kind == "delete_range":
        i = rng.randrange(len(sig))
        j = min(len(sig) - 1, i + rng.randint(1, 8))
        del toks[sig[i]: sig[j] + 1]
    elif kind == "duplicate":
        i = rng.choice(sig)
        toks.insert(i, toks[i])
    elif kind == "duplicate_range":
        i = rng.randrange(len(sig))
        j = min(len(sig) - 1, i + rng.randint(1, 12))
        toks[sig[i]:sig[i]] = toks[sig[i]: sig[j] + 1]
    elif kind == "swap":
        i, j = rng.choice(sig), rng.choice(sig)
        toks[i], toks[j] = toks[j], toks[i]
    elif kind == "replace":
        i = rng.choice(sig)
        toks[i] = rng.choice(_VOCABULARY + tuple(toks[k] for k in sig[:50]))
        toks.insert(i + 1, " ")
        toks.insert(i, " ")
    elif kind == "truncate":
        cut = rng.choice(sig)
        toks = toks[:cut]
    else:
        return _nest(rng, toks, kind), kind
    return "".join(toks), kind


def _nest(rng: random.Random, toks: list[str], kind: str) -> str:
    n = rng.choice(_NESTING_DEPTHS)
    body = _main_body(toks)
    if body is None:
        return "".join(toks)
    open_i, close_i = body
    if kind in ("nest_blocks", "nest_ifs", "nest_loops", "infinite_loop"):
        inner = "".join(toks[open_i + 1: close_i])
        if kind == "infinite_loop":
            inner = inner + rng.choice((" for(;;){} ", " while(true){} ", " for(;;); ", " do{}while(true); "))
        else:
            head = {"nest_blocks": "{", "nest_ifs": "if (true) {", "nest_loops": "for (int i = 0; i < 1; ++i) {"}[kind]
            inner = head * n + inner + "}" * n
        return "".join(toks[: open_i + 1]) + inner + "".join(toks[close_i:])
    i = _operand_in_main(rng, toks)
    if i is None:
        return "".join(toks)
    x = toks[i]
    if kind == "nest_parens":
        toks[i] = "(" * n + x + ")" * n
    elif kind == "nest_unary":
        toks[i] = "(" + "- " * n + x + ")"
    elif kind == "nest_calls":
        fn = rng.choice(("abs", "float", "f", "vec4", "sin"))
        toks[i] = (fn + "(") * n + x + ")" * n
    elif kind == "nest_ternary":
        toks[i] = "(true ? " * n + x + " : " + x + ")" * n
    elif kind == "long_chain":
        op = rng.choice(("+", "*", "-", "&&", "==", ","))
        toks[i] = "(" + (" " + op + " ").join([x] * n) + ")"
    return "".join(toks)


def make_mutant(rng: random.Random, seed: Seed) -> tuple[str, list[str]]:
    text, kinds = seed.text, []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        text, kind = mutate(rng, text)
        kinds.append(kind)
    return text, kinds


_LOG_LINE = re.compile(r"(\d+:\d+\(\d+\): )?(preprocessor )?(error|warning): .+")


class _Timeout(BaseException):
    """The compile spent its CPU-time budget. A BaseException, so that no safety net of the
    compiler (``except Exception``) turns it into an internal compiler error."""


def _alarm(signum, frame):
    raise _Timeout()


def classify(text: str, stage: str, time_budget_s: float | None = None) -> tuple[str, str]:
    """Compile ``text``: ("binary" | "compile_error" | "unsupported" | "internal" | "hang", detail).
    "internal" covers any other exception and a compile error whose info log has a line
    not in Mesa's format."""
    old = None
    if time_budget_s:       # CPU time (ITIMER_PROF): a loaded host does not make a hang
        old = signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, time_budget_s)
    try:
        compile_glsl(text, stage)
        return "binary", ""
    except GLSLCompileError as e:
        lines = e.info_log.splitlines()
        bad = [ln for ln in lines if not _LOG_LINE.fullmatch(ln)]
        if not lines or bad or "error" not in e.info_log:
            return "internal", f"malformed info log: {e.info_log[:300]!r}"
        if "internal compiler error" in e.info_log:     # the safety net caught a bug
            return "internal", _cause(e)
        return "compile_error", lines[0]
    except (LoweringError, BackendError) as e:
        if "internal compiler error" in str(e):
            return "internal", _cause(e)
        return "unsupported", f"{type(e).__name__}: {e}"
    except _Timeout:
        return "hang", f"over {time_budget_s} s"
    except Exception as e:  # noqa: BLE001 - the point of the fuzzer
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else "?"
        return "internal", f"{type(e).__name__} at {where}: {str(e)[:120]}"
    finally:
        if time_budget_s:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)


def _cause(e: BaseException) -> str:
    """The original exception behind the compiler's internal-error report, and where."""
    cause = e.__cause__ or e
    tb = traceback.extract_tb(cause.__traceback__)
    where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else "?"
    return f"{type(cause).__name__} at {where}: {str(cause)[:120]}"


@dataclass
class Report:
    runs: int
    outcomes: collections.Counter
    internal: dict            # kind -> (count, first mutant text, stage)
    seconds: float


def run(count: int, seed: int = 0, time_budget_s: float | None = None, log=None) -> Report:
    rng = random.Random(seed)
    seeds = load_seeds()
    outcomes: collections.Counter = collections.Counter()
    internal: dict = {}
    t0 = time.perf_counter()
    for n in range(count):
        s = rng.choice(seeds)
        text, kinds = make_mutant(rng, s)
        outcome, detail = classify(text, s.stage, time_budget_s)
        outcomes[outcome] += 1
        if outcome in ("internal", "hang"):
            key = re.sub(r"\d+", "N", detail)[:100] if outcome == "internal" else "hang"
            if key not in internal:
                internal[key] = [0, text, s.stage, s.name, kinds]
                if log:
                    print(f"[{n}] {s.name} {kinds}: {detail}", file=log, flush=True)
            internal[key][0] += 1
        if log and (n + 1) % 500 == 0:
            print(f"[{n + 1}] {time.perf_counter() - t0:.0f} s: " +
                  ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())), file=log, flush=True)
    return Report(count, outcomes, internal, time.perf_counter() - t0)


def test_every_seed_compiles():
    """The seeds are valid: each compiles to a binary (else mutants would start broken)."""
    failed = []
    for s in load_seeds():
        outcome, detail = classify(s.text, s.stage)
        if outcome not in ("binary", "unsupported"):
            failed.append((s.name, outcome, detail))
    assert not failed


def test_short_fuzz_run_has_no_internal_exception():
    report = run(150, seed=1)
    assert sum(report.outcomes.values()) == 150
    assert report.outcomes["internal"] == 0, {k: v[:1] + v[2:] for k, v in report.internal.items()}
    # the mutations reach every outcome the compiler has, not only syntax errors
    assert report.outcomes["binary"] > 0 and report.outcomes["compile_error"] > 0


@pytest.mark.slow
def test_long_fuzz_run_has_no_internal_exception():
    report = run(3000, seed=2, time_budget_s=60)
    assert report.outcomes["internal"] == 0 and report.outcomes["hang"] == 0, \
        {k: v[:1] + v[2:] for k, v in report.internal.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget-s", type=float, default=60.0, help="CPU-time budget per shader (more: a hang)")
    ap.add_argument("--save", type=Path, help="write one reproducer per internal kind here")
    args = ap.parse_args(argv)
    report = run(args.count, args.seed, args.budget_s, log=sys.stdout)
    print(f"{report.runs} shaders in {report.seconds:.0f} s: " +
          ", ".join(f"{k} {v}" for k, v in sorted(report.outcomes.items())))
    print(f"{len(report.internal)} kinds of internal exception or hang:")
    for i, (k, (c, text, stage, name, kinds)) in enumerate(sorted(report.internal.items(), key=lambda kv: -kv[1][0])):
        print(f"  {c:5d}  {k}   (from {name}, {kinds})")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{i:02d}.{ {'vertex': 'vert', 'fragment': 'frag', 'compute': 'comp'}[stage]}").write_text(text)
    return 1 if report.internal else 0


if __name__ == "__main__":
    sys.exit(main())
