"""Start-up: the CPU time of a whole short GL process on shimgl and on Mesa's
llvmpipe, measured interleaved in the same run, as ratios.

Three programs, each a separate process as piglit runs them:
- a trivial EGL program (tests/driver/abi/c/egl_glvnd.c: surfaceless display,
  pbuffer, desktop GL context, one clear, one glReadPixels), built here with cc;
- one piglit shader_runner test (two shaders, a draw, a probe);
- piglit C API tests: a typical one (getuniform-02) and one that draws a lot
  (glsl-routing: dozens of programs and draws).
shimgl's shader cache is warm (one unmeasured run first, cache in a folder of
this benchmark), as Mesa's would be; the shader_runner test is also run with
every cache empty (a new cache folder per run: shader objects, variants, the
dataclass code and native code), interleaved the same way. CPU time is user + system of the process
and its threads (``os.wait4``), the median of ``ROUNDS`` runs per driver, the
drivers alternating. Also the import budget: the CPU time of a Python process
that only imports what the C ABI loads before a program's first call, and the
number of modules (``python -X importtime`` shows where it goes).

Compile time: the shaders of ``COMPILE_CORPUS`` (piglit shader_tests of several
kinds, fp64 ones included) compiled one after the other in one fresh process with
no shader cache: the first compile (cold: the built-in tables are built) and the
total CPU. ``python tests/bench/bench_startup.py --compile-hashes OUT.json``
writes each binary's SHA-256: compare two such files before and after a change
meant to keep the compiler's output (it must be byte-identical).

Before and after a change, in one run: ``SHIMGL_BENCH_STARTUP_REFERENCE=DIR``
(a byte-compiled export of another commit, e.g. ``git archive REV | tar -x -C DIR``
plus the ABI's generated files, then ``python -m compileall``) adds a third driver
to the interleaving: DIR's own library when DIR holds a built one (its
``driver/abi/libshimgl.so``: a change of the C stubs is compared too), else this
tree's library running DIR's Python side; always DIR's Python side
(``PYTHONPATH``) and its own warm caches. Each row then also gives the
reference's median.

Rows are skipped with the reason when cc, piglit, llvmpipe or the ABI are missing."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = int(os.environ.get("SHIMGL_BENCH_STARTUP_ROUNDS", "5"))
#: a tree of another commit run beside this one (see the module's docstring), or None
REFERENCE = os.environ.get("SHIMGL_BENCH_STARTUP_REFERENCE") or None
#: SHIMGL_BENCH_STARTUP_COMPILE=0 leaves out the compile-time rows (minutes of CPU)
COMPILE_ROWS = os.environ.get("SHIMGL_BENCH_STARTUP_COMPILE", "1") != "0"
SHADER_TEST = "tests/spec/glsl-1.10/execution/fs-bool-less-compare-true.shader_test"
#: a typical C API test (a few shaders, uniform queries) and one that draws a lot
C_API_TESTS = (("getuniform-02", "-auto", "-fbo"), ("glsl-routing", "-auto", "-fbo"))
#: what the C ABI imports before the first call returns (the library's init code)
ABI_IMPORTS = "import driver.abi.runtime, driver.abi.egl, driver.abi.marshal, driver.abi._commands"
_FP64 = "generated_tests/spec/arb_gpu_shader_fp64/execution/built-in-functions/"
#: shader_tests (under piglit's root) whose shaders are the compile-time corpus
COMPILE_CORPUS = (
    SHADER_TEST,
    "tests/spec/glsl-1.10/execution/samplers/glsl-fs-shadow2D-02.shader_test",
    "tests/spec/glsl-1.10/execution/temp-array-indexing/"
    "glsl-fs-vec4-indexing-temp-dst-in-nested-loop-combined.shader_test",
    "tests/spec/glsl-1.10/execution/vs-loop-bounds-unrolled.shader_test",
    "tests/spec/glsl-1.20/execution/fs-deref-array-of-matrix-element.shader_test",
    "tests/spec/glsl-1.30/execution/fs-textureSize-compare.shader_test",
    "tests/spec/glsl-1.30/execution/interpolation/interpolation-mixed.shader_test",
    "tests/spec/glsl-es-3.00/execution/varying-struct-copy-local-vs.shader_test",
    "generated_tests/spec/glsl-1.10/execution/variable-indexing/fs-temp-mat3-col-row-rd.shader_test",
    "generated_tests/spec/glsl-1.30/execution/built-in-functions/vs-op-assign-bitand-int-int.shader_test",
    _FP64 + "fs-sqrt-dvec2.shader_test", _FP64 + "fs-op-div-dvec3-double.shader_test",
    _FP64 + "fs-inverse-dmat2.shader_test", _FP64 + "fs-determinant-dmat3.shader_test",
    _FP64 + "vs-inversesqrt-dvec4.shader_test", _FP64 + "fs-refract-dvec3-dvec3-double.shader_test",
    _FP64 + "fs-op-mult-dmat3-dmat3.shader_test",
    _FP64 + "fs-inverse-dmat4.shader_test",         # the largest: ~43,000 instructions, ~100 spills
)
_STAGE_OF = {"vertex shader": "vertex", "fragment shader": "fragment", "compute shader": "compute"}


def _cpu_s(argv, env, cwd=None) -> tuple[float, str]:
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime, out.decode(errors="replace")


def _environments(cache_dir: str) -> tuple[dict, dict] | str:
    from driver.abi.paths import environment, missing_reason
    base = {k: v for k, v in os.environ.items()
            if k not in ("__EGL_VENDOR_LIBRARY_FILENAMES", "LD_LIBRARY_PATH", "PYOPENGL_PLATFORM")}
    base["PIGLIT_PLATFORM"] = "surfaceless_egl"
    extra = environment(dict(base))
    if extra is None:
        return f"the shimgl C ABI is missing: {missing_reason()}"
    shimgl = {**base, **extra, "SHIMGL_SHADER_CACHE_DIR": cache_dir}
    shimgl.pop("SHIMGL_SHADER_CACHE_DISABLE", None)
    llvmpipe = {**base, "GALLIUM_DRIVER": "llvmpipe"}
    return shimgl, llvmpipe


def _reference_environment(shimgl: dict, cache_dir: str) -> dict:
    """The environment of the reference driver (see the module's docstring)."""
    env = {**shimgl, "PYTHONPATH": REFERENCE, "SHIMGL_SHADER_CACHE_DIR": cache_dir}
    if (Path(REFERENCE) / "driver/abi/libshimgl.so").is_file():
        code = "import json; from driver.abi.paths import environment; print(json.dumps(environment({})))"
        out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": REFERENCE},
                             cwd=REFERENCE, capture_output=True, text=True, check=True).stdout
        env.update(json.loads(out.strip().splitlines()[-1]))
    return env


def _programs(tmp: Path) -> list[tuple[str, list[str] | None, str | None, str]]:
    """(name, argv or None, cwd, why it is missing)."""
    from driver.piglit import find_piglit
    out = []
    cc = shutil.which("cc") or shutil.which("gcc")
    exe = tmp / "egl_glvnd"
    if cc and subprocess.run([cc, "-O1", "-o", str(exe), str(ROOT / "tests/driver/abi/c/egl_glvnd.c"),
                              "-lEGL", "-lGL", "-lpthread"], capture_output=True).returncode == 0:
        out.append(("trivial EGL program (clear + readback)", [str(exe), "gl"], None, ""))
    else:
        out.append(("trivial EGL program (clear + readback)", None, None, "no C compiler or EGL/GL headers"))
    piglit = find_piglit()
    if piglit is None:
        why = "piglit is not installed"
        out += [("piglit shader_runner test", None, None, why), ("piglit C API tests", None, None, why)]
    else:
        out.append((f"piglit shader_runner {Path(SHADER_TEST).stem}",
                    [str(piglit / "bin/shader_runner"), str(piglit / SHADER_TEST), "-auto", "-fbo"],
                    str(piglit), ""))
        for name, *args in C_API_TESTS:
            out.append((f"piglit C API {name}", [str(piglit / "bin" / name), *args], str(piglit), ""))
    return out


def _ok(name: str, output: str) -> bool:
    return output.rstrip().endswith("OK") if "EGL" in name else '"pass"' in output


def _import_ms() -> tuple[float, int]:
    """CPU ms of a Python process doing only the C ABI's imports, and how many modules it loads."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    code = ABI_IMPORTS + "; import sys; print(len(sys.modules))"
    cpu, out = _cpu_s([sys.executable, "-c", code], env, str(ROOT))
    try:
        modules = int(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        modules = -1
    return cpu * 1000, modules


def compile_corpus(piglit: Path) -> dict:
    """Compile every vertex/fragment/compute shader of ``COMPILE_CORPUS`` standalone,
    in this process, in order: {"shaders": [(name, sha256 of the binary or the error)],
    "first_ms": CPU of the first compile, "total_s": CPU of all}. Run it in a fresh
    process with SHIMGL_SHADER_CACHE_DISABLE=1 (``--compile-corpus``)."""
    import hashlib
    import time

    from compiler.compile import compile_glsl
    from driver.shader_test.parser import parse_file
    shaders, first_ms, start = [], None, time.process_time()
    for rel in COMPILE_CORPUS:
        test = parse_file(piglit / rel)
        glsl = test.glsl_version
        for section in test.sections:
            stage = _STAGE_OF.get(section.kind)
            if stage is None:
                continue
            source = section.body
            if "#version" not in source and glsl is not None:
                source = f"#version {glsl.num}{' es' if glsl.es and glsl.num >= 300 else ''}\n" + source
            t0 = time.process_time()
            try:
                result = hashlib.sha256(compile_glsl(source, stage).binary).hexdigest()
            except Exception as e:  # noqa: BLE001 - a shader the compiler refuses: its message
                result = f"{type(e).__name__}: {e}"[:200]
            if first_ms is None:
                first_ms = (time.process_time() - t0) * 1000
            shaders.append((f"{Path(rel).stem}:{stage}", result))
    return {"shaders": shaders, "first_ms": first_ms or 0.0, "total_s": time.process_time() - start}


def _compile_rows() -> list[tuple[str, float, str]]:
    from driver.piglit import find_piglit
    piglit = find_piglit()
    if piglit is None:
        return [("compile corpus", float("nan"), "skipped: piglit is not installed")]
    env = {**os.environ, "SHIMGL_SHADER_CACHE_DISABLE": "1", "OPENBLAS_NUM_THREADS": "1"}
    cpu, out = _cpu_s([sys.executable, str(Path(__file__)), "--compile-corpus"], env, str(ROOT))
    try:
        got = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return [("compile corpus", float("nan"), f"failed: {out[-300:]}")]
    n = len(got["shaders"])
    refused = sum(1 for _, h in got["shaders"] if len(h) != 64)
    return [("compile: first shader of a fresh process (cold)", got["first_ms"], "CPU ms, no shader cache"),
            (f"compile: corpus of {n} shaders ({refused} refused)", got["total_s"] * 1000,
             f"CPU ms in one process; the whole process {cpu * 1000:.0f} ms")]


def run() -> list[tuple[str, float, str]]:
    rows: list[tuple[str, float, str]] = []
    ms, modules = min((_import_ms() for _ in range(3)), key=lambda r: r[0])
    rows.append(("start-up: python importing the C ABI's Python side", ms,
                 f"CPU, best of 3; {modules} modules loaded"))
    if COMPILE_ROWS:
        rows += _compile_rows()
    with tempfile.TemporaryDirectory(prefix="shimgl-bench-startup-") as tmp:
        envs = _environments(str(Path(tmp) / "cache"))
        if isinstance(envs, str):
            return rows + [("start-up: shimgl vs llvmpipe", float("nan"), f"skipped: {envs}")]
        shimgl, llvmpipe = envs
        if not Path("/usr/share/glvnd/egl_vendor.d/50_mesa.json").exists():
            return rows + [("start-up: shimgl vs llvmpipe", float("nan"), "skipped: Mesa's EGL is not installed")]
        for name, argv, cwd, why in _programs(Path(tmp)):
            if argv is None:
                rows.append((f"start-up CPU: {name}", float("nan"), f"skipped: {why}"))
                continue
            drivers = [("llvmpipe", llvmpipe), ("shimgl", shimgl)]
            if REFERENCE:
                drivers.append(("reference", _reference_environment(shimgl, str(Path(tmp) / "cache-reference"))))
            for _, env in drivers[1:]:
                _cpu_s(argv, env, cwd)                    # fills the shader cache; not measured
            times: dict[str, list[float]] = {driver: [] for driver, _ in drivers}
            outputs = {}
            cold = "shader_runner" in name        # the warm/cold comparison of the shader cache
            if cold:
                times["cold"] = []
            for round_ in range(ROUNDS):
                for driver, env in drivers:
                    cpu, outputs[driver] = _cpu_s(argv, env, cwd)
                    times[driver].append(cpu)
                if cold:
                    cpu, _ = _cpu_s(argv, {**shimgl, "SHIMGL_SHADER_CACHE_DIR": str(Path(tmp) / f"cold-{round_}")}, cwd)
                    times["cold"].append(cpu)
            s, ll = statistics.median(times["shimgl"]), statistics.median(times["llvmpipe"])
            status = "" if _ok(name, outputs["shimgl"]) else " (shimgl did not pass)"
            if REFERENCE:
                r = statistics.median(times["reference"])
                status += f"; reference {r * 1000:.0f} ms ({r / ll:.1f}x)"
            rows.append((f"start-up CPU: {name}, shimgl", s * 1000,
                         f"llvmpipe {ll * 1000:.0f} ms; ratio {s / ll:.1f}x (target <= 2x){status}"))
            if cold:
                c = statistics.median(times["cold"])
                rows.append((f"start-up CPU: {name}, shimgl, every cache empty", c * 1000,
                             f"warm {s * 1000:.0f} ms; ratio to llvmpipe {c / ll:.1f}x"))
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--compile-corpus"]:          # the child process of _compile_rows
        sys.path.insert(0, str(ROOT))
        from driver.piglit import find_piglit
        print(json.dumps(compile_corpus(find_piglit())))
    elif sys.argv[1:2] == ["--compile-hashes"] and len(sys.argv) == 3:
        sys.path.insert(0, str(ROOT))
        os.environ["SHIMGL_SHADER_CACHE_DISABLE"] = "1"
        from driver.piglit import find_piglit
        Path(sys.argv[2]).write_text(json.dumps(compile_corpus(find_piglit())["shaders"], indent=1) + "\n")
    else:
        for what, ms, note in run():
            print(f"{what:<60} {ms:>10.2f}  {note}")
