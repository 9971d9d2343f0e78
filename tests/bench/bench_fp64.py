"""Soft-fp64 draws against the GPU watchdog: the heaviest of piglit's
``arb_gpu_shader_fp64`` execution tests, drawn in-process.

For each test (a fragment shader computing a dmat4 product or inverse per
fragment, piglit's 250 x 250 window): the shader-db line of its fragment shader
(instructions, spills:fills) and the compile CPU, then two full-window draws with
the test's first uniform values, each reported as the **firmware-thread CPU of its
fragment half**: what the watchdog (``drmshim.firmware.watchdog``, 10 s by default)
charges the command. The first draw also pays for loading the program (fetch and
decode, the native tier's plan); the second is the steady state. Each draw's
pixel is checked green (the test's own verdict).

The two extensions are not listed yet (``STAGE``), so the benchmark exposes them
with ``MESA_EXTENSION_OVERRIDE`` in its own process, and uses an empty shader
cache of its own (compile figures are cold). Rows are skipped with the reason
when piglit's generated tests are missing.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from pathlib import Path

PIGLIT = Path("/usr/lib/x86_64-linux-gnu/piglit")
TESTS = ("fs-op-mult-dmat4-dmat4", "fs-inverse-dmat4")
_DIR = "generated_tests/spec/arb_gpu_shader_fp64/execution/built-in-functions"
WINDOW = 250


def _sections(text: str) -> tuple[str, str, list[str]]:
    sec = dict(re.findall(r"\[(vertex shader|fragment shader)\]\n(.*?)(?=\n\[)", text, re.S))
    versioned = [s if s.lstrip().startswith("#version") else "#version 150\n" + s
                 for s in (sec["vertex shader"], sec["fragment shader"])]
    return versioned[0], versioned[1], text.split("[test]")[1].splitlines()


def _set_uniform(ctx, prog: int, words: list[str]) -> None:
    kind, name, values = words[1], words[2], [float(v) for v in words[3:]]
    loc = ctx.glGetUniformLocation(prog, name)
    if kind.startswith("dmat"):
        cols, rows = int(kind[4]), int(kind[-1])
        getattr(ctx, f"glUniformMatrix{cols if cols == rows else f'{cols}x{rows}'}dv")(loc, 1, False, values)
    elif kind == "double":
        ctx.glUniform1d(loc, values[0])
    else:
        raise ValueError(f"uniform type {kind} not handled by this benchmark")


class _FragmentCPU:
    """Records the firmware-thread CPU of each command half (wraps the firmware's
    ``run_budgeted``, which measures it for the watchdog)."""

    def __init__(self):
        import drmshim.firmware.queues as queues
        self.queues, self.original = queues, queues.run_budgeted
        self.runs: list[tuple[str, float]] = []

    def __enter__(self):
        def run_budgeted(timeout_ms, work, *args):
            error, budget = self.original(timeout_ms, work, *args)
            self.runs.append((getattr(work, "__name__", ""), budget.used_ns() / 1e6))
            return error, budget
        self.queues.run_budgeted = run_budgeted
        return self

    def __exit__(self, *exc):
        self.queues.run_budgeted = self.original

    def fragment_ms(self) -> float:
        return sum(ms for name, ms in self.runs if name == "run_fragment")


def _one(name: str) -> list[tuple[str, float, str]]:
    import numpy as np

    from compiler.compile_cli import main as compile_main
    from tests.driver.agx.glhelp import context, program, vertices

    text = (PIGLIT / _DIR / f"{name}.shader_test").read_text()
    vs, fs, test = _sections(text)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        frag = Path(tmp) / "shader.frag"
        frag.write_text(fs)
        start = time.process_time()
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            compile_main(["--stats", str(frag), "-o", str(Path(tmp) / "shader.bin")])
        stats = out.getvalue().strip().splitlines()[-1]
        rows.append((f"fp64 {name}: compile fragment shader (CPU)", 1000 * (time.process_time() - start), stats))
        ctx = context(WINDOW, WINDOW, api="compat")
        prog = program(ctx, vs, fs)
        vertices(ctx, prog, np.array([-1, -1, 1, -1, 1, 1, -1, 1], np.float32), {"vertex": (2, 0)}, 2)
        ctx.glUseProgram(prog)
        draws = 0
        for line in test:
            words = line.split()
            if words and words[0] == "uniform":
                _set_uniform(ctx, prog, words)
            elif words and words[0] == "draw":
                with _FragmentCPU() as cpu:
                    ctx.glDrawArrays(ctx.GL_TRIANGLE_FAN, 0, 4)
                    pixel = ctx.read_pixels()[0, 0].tolist()
                draws += 1
                ok = "green" if pixel == [0, 255, 0, 255] else f"WRONG pixel {pixel}"
                what = "first draw (with program load)" if draws == 1 else "second draw"
                rows.append((f"fp64 {name}: {what}, firmware-thread CPU", cpu.fragment_ms(),
                             f"{WINDOW}x{WINDOW}, watchdog 10,000 ms; {ok}"))
                if draws == 2:
                    break
    return rows


def run() -> list[tuple[str, float, str]]:
    if not (PIGLIT / _DIR).is_dir():
        return [("fp64 draws", 0.0, f"skipped: no piglit generated tests under {PIGLIT}")]
    saved = {k: os.environ.get(k) for k in ("MESA_EXTENSION_OVERRIDE", "SHIMGL_SHADER_CACHE_DIR")}
    rows: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory() as cache:
        os.environ["MESA_EXTENSION_OVERRIDE"] = "+GL_ARB_gpu_shader_fp64 +GL_ARB_vertex_attrib_64bit"
        os.environ["SHIMGL_SHADER_CACHE_DIR"] = cache
        try:
            for name in TESTS:
                rows += _one(name)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    return rows


if __name__ == "__main__":
    for what, ms, note in run():
        print(f"{what:<75} {ms:>10.1f}  {note}", file=sys.stdout)
