"""Helpers for before/after pass tests (Mesa's CASE / NEGCASE) and semantic checks."""

from __future__ import annotations

import textwrap

import numpy as np

from compiler.ir.interp import run_function
from compiler.ir.parser import parse_shader
from compiler.ir.passes import run_pass
from compiler.ir.printer import print_shader
from compiler.ir.validate import validate_shader


def program(body: str, stage: str = "fragment", header: str = "") -> str:
    """A shader with one ``main`` whose body is ``body`` (indentation free)."""
    return f"shader {stage}\n{textwrap.dedent(header)}\nfunction main {{\n{textwrap.dedent(body)}\n}}\n"


def _as_shader(text: str):
    if not text.lstrip().startswith("shader"):
        text = program(text)
    s = parse_shader(text)
    validate_shader(s)
    return s


def CASE(pass_fn, before: str, after: str, **options):
    """Running ``pass_fn`` on ``before`` gives ``after`` (compared as printed text)."""
    shader = _as_shader(before)
    progress = run_pass(shader, pass_fn, **options)
    expected = print_shader(_as_shader(after))
    got = print_shader(shader)
    assert got == expected, f"\n--- got\n{got}\n--- expected\n{expected}"
    return progress


def NEGCASE(pass_fn, unchanged: str, **options):
    """``pass_fn`` leaves ``unchanged`` as it is and reports no progress."""
    shader = _as_shader(unchanged)
    before = print_shader(shader)
    progress = run_pass(shader, pass_fn, **options)
    assert print_shader(shader) == before
    assert not progress, f"{pass_fn.__name__} reported progress without a change"


def outputs(shader, lanes=16, **kw):
    it, ret = run_function(shader, lanes=lanes, **kw)
    return it.outputs, ret, it


def assert_same_outputs(before, after, lanes=16, **kw):
    """Both shaders write the same outputs for the same inputs."""
    out_a, _, _ = outputs(before, lanes, **{k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kw.items()})
    out_b, _, _ = outputs(after, lanes, **kw)
    assert out_a.keys() == out_b.keys()
    for k in out_a:
        np.testing.assert_array_equal(out_a[k], out_b[k], err_msg=f"output {k}")
