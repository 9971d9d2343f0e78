"""The GL API fuzzer (tests/fuzz/gl_fuzzer.py) over every API: no Python
exception leaves an entry point, and none needs the last-resort guard.

A short deterministic run is part of the normal suite; the long run is
marked slow (`python -m tests.fuzz.gl_fuzzer --calls 20000 [--expensive]` by hand)."""

import pytest

from tests.fuzz import gl_fuzzer

pytest.importorskip("driver.abi._commands", reason="the C ABI's generated marshalling is not built")


def _assert_clean(report):
    bugs = {k: n for k, n in report.escaped.items() if "NULL" not in k[1]}
    bugs.update(report.guarded)
    detail = "\n".join(f"{cmd}: {kind} x{n}; e.g. {report.examples.get((cmd, kind))}"
                       for (cmd, kind), n in bugs.items())
    assert not bugs, f"{report.api}: {sum(bugs.values())} driver exceptions\n{detail}"
    assert not report.harness, f"the fuzzer itself failed: {dict(report.harness)}"


@pytest.mark.parametrize("api", gl_fuzzer.APIS)
def test_short_random_call_sequence(api):
    report = gl_fuzzer.run(api, seed=11, calls=150, cheap=True)
    assert report.calls >= 120          # most calls were made as C would make them
    _assert_clean(report)


@pytest.mark.slow
@pytest.mark.parametrize("api", gl_fuzzer.APIS)
@pytest.mark.parametrize("seed", range(4))
def test_long_random_call_sequence(api, seed):
    report = gl_fuzzer.run(api, seed=1000 + seed, calls=2500, cheap=True)
    _assert_clean(report)


def test_fuzzer_sees_an_exception_through_the_guard():
    """The harness is not blind: an entry point that raises shows up as a
    guarded driver exception with its command and kind."""
    import driver.gl.families as fam

    original = fam.Context.glFlush
    try:
        def broken(self):
            raise ZeroDivisionError("planted")
        from driver.gl.errors import wrap_entry_points
        fam.Context.glFlush = broken
        wrap_entry_points(fam.Context)
        report = gl_fuzzer.run("gles3", seed=1, calls=20, commands=["glFlush"])
    finally:
        fam.Context.glFlush = original
    assert report.guarded[("glFlush", "ZeroDivisionError")] == 20


def test_ext_direct_state_access_commands():
    """The EXT DSA commands (listed in compatibility contexts) through their derived C
    marshalling (each table command runs its core command's, driver.abi.marshal._ext_dsa):
    a short run of them alone, among a few commands that make objects to name."""
    from driver.abi import _commands
    from driver.gl.legacy.ext_dsa import ExtDirectStateAccessMixin
    ext = sorted(n for n in dir(ExtDirectStateAccessMixin)
                 if n.startswith("gl") and n.endswith("EXT") and n in _commands.MARSHAL)
    assert len(ext) > 150
    report = gl_fuzzer.run("compat", seed=5, calls=200, cheap=True,
                           commands=ext + ["glGenTextures", "glGenBuffers", "glGenFramebuffers",
                                           "glGenVertexArrays", "glGenProgramsARB"])
    assert report.calls >= 160
    _assert_clean(report)
