"""The compiler's entry scope (compiler.scope.recursion_headroom): the garbage
collector's thresholds are eased while any compile runs and the caller's come back
when the last one leaves, also after an error; a compile inside sees them eased."""

import gc

import pytest

from compiler import scope


def test_thresholds_are_eased_inside_and_restored_after_nesting_and_errors():
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with scope.recursion_headroom():
            assert gc.get_threshold() == scope.COMPILE_GC_THRESHOLDS
            with scope.recursion_headroom():
                assert gc.get_threshold() == scope.COMPILE_GC_THRESHOLDS
            assert gc.get_threshold() == scope.COMPILE_GC_THRESHOLDS   # the outer compile still runs
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(500, 7, 3)                  # the caller's own choice comes back, not a default
        with pytest.raises(ValueError):
            with scope.recursion_headroom():
                raise ValueError("a compile that fails")
        assert gc.get_threshold() == (500, 7, 3)
    finally:
        gc.set_threshold(*saved)


def test_a_compile_runs_with_the_eased_thresholds(monkeypatch):
    from compiler.compile import compile_glsl
    import compiler.backend.pipeline as pipeline
    seen = []
    real = pipeline.schedule

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)
    monkeypatch.setattr(pipeline, "schedule", spy)
    before = gc.get_threshold()
    compile_glsl("#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }", "fragment")
    assert seen == [scope.COMPILE_GC_THRESHOLDS]
    assert gc.get_threshold() == before
