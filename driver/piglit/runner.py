"""Run piglit binaries in parallel with per-test timeouts and a progress bar.

Each test is one process (`bin/<binary> <args>`), as piglit's own framework
runs them; or, with `isolation=False` (piglit's `--process-isolation false`),
shader_runner tests of one binary and directory run many to a process
(`shader_runner A B C ... -auto -fbo -report-subtests`, see `run_batch`). Its status is read as piglit reads it: the last
`PIGLIT: {"result": ...}` line of stdout; a process killed by a signal or
ending with no result line is a `crash`; a process still running at the
timeout is killed (with its process group) and is a `timeout`; `pass` with a
non-zero exit status is `warn`.

Tests run on piglit's surfaceless EGL platform, but for the GLES 1 binaries
(linked to libpiglitutil_gles1): those abort on that platform before any GL
call, on Mesa's drivers too, and run on `x11_egl` against an Xvfb server the
run starts for them and stops at its end (`_Xvfb`; without Xvfb they stay on
surfaceless)."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

from .tests import PiglitTest

__all__ = ["Outcome", "batches", "classify", "driver_environment", "run_batch", "run_tests"]

_RESULT_RE = re.compile(r"^PIGLIT:\s*(\{.*\})\s*$", re.M)


@dataclass
class Outcome:
    path: str
    driver: str
    result: str          # pass / fail / skip / warn / crash / timeout
    time_s: float
    returncode: int | None
    message: str         # first useful output line, for triage
    binary: str = ""

    def row(self) -> dict:
        return asdict(self)


def classify(stdout: str, returncode: int | None, timed_out: bool) -> str:
    if timed_out:
        return "timeout"
    found = _RESULT_RE.findall(stdout)
    status = None
    if found:
        try:
            status = json.loads(found[-1].replace("'", '"')).get("result")
        except ValueError:
            status = None
    if returncode is not None and returncode < 0:
        return "crash"
    if status is None:
        return "crash"
    if status == "pass" and returncode not in (0, None):
        return "warn"
    return status


def _message(stdout: str, stderr: str, result: str) -> str:
    lines = [ln.strip() for ln in (stdout + "\n" + stderr).splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("PIGLIT:")]
    if result in ("crash", "fail"):
        for ln in reversed(lines):           # a Python traceback ends with the exception line
            if re.match(r"^[A-Za-z_.]*(Error|Exception)\b", ln):
                return ln[:300]
    if result != "pass":                     # the line that says why, when there is one
        for ln in lines:
            if re.search(r"fail|error|expected|requires|unsupported|probe|mismatch", ln, re.I) \
                    and not ln.startswith("Shader source"):
                return ln[:300]
    return (lines[0] if lines else "")[:300]


def driver_environment(driver: str, base: dict | None = None) -> dict:
    """The environment that points piglit at `driver` ("shimgl" or "llvmpipe")."""
    env = dict(os.environ if base is None else base)
    env["PIGLIT_PLATFORM"] = "surfaceless_egl"
    # tests that call eglGetDisplay(EGL_DEFAULT_DISPLAY) get the surfaceless platform on
    # both drivers (shimgl's default; Mesa's follows EGL_PLATFORM, else looks for X11)
    env["EGL_PLATFORM"] = "surfaceless"
    if driver == "shimgl":
        from driver.abi.paths import environment, missing_reason
        extra = environment(env)
        if extra is None:
            raise RuntimeError(f"the shimgl C ABI is not available: {missing_reason()}")
        env.update(extra)
    else:
        for k in ("__EGL_VENDOR_LIBRARY_FILENAMES", "LD_LIBRARY_PATH"):
            env.pop(k, None)
        env["GALLIUM_DRIVER"] = driver
    return env


def run_one(root: Path, test: PiglitTest, driver: str, env: dict, timeout_s: float) -> Outcome:
    if test.skip:
        return Outcome(test.path, driver, "skip", 0.0, None, test.skip, test.binary)
    argv = [str(root / "bin" / test.binary), *test.args]
    t0 = time.perf_counter()
    timed_out = False
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                cwd=str(root), start_new_session=True, text=True, errors="replace")
    except OSError as e:
        return Outcome(test.path, driver, "crash", 0.0, None, f"cannot start {argv[0]}: {e}", test.binary)
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    dt = time.perf_counter() - t0
    result = classify(out, proc.returncode, timed_out)
    msg = f"timed out after {timeout_s:g} s" if timed_out else _message(out, err, result)
    return Outcome(test.path, driver, result, round(dt, 3), proc.returncode, msg, test.binary)


class _Progress:
    """A one-line progress bar on stderr (plain lines when stderr is not a terminal)."""

    def __init__(self, total: int, label: str, stream=None):
        self.total, self.label, self.done = total, label, 0
        self.counts: dict[str, int] = {}
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.t0 = time.perf_counter()
        self.last = 0.0

    def update(self, outcome: Outcome) -> None:
        self.done += 1
        self.counts[outcome.result] = self.counts.get(outcome.result, 0) + 1
        now = time.perf_counter()
        if not self.tty and now - self.last < 10 and self.done != self.total:
            return
        self.last = now
        width = 30
        fill = width * self.done // max(self.total, 1)
        counts = " ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        line = (f"{self.label} [{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} "
                f"{now - self.t0:5.0f}s  {counts}")
        if self.tty:
            self.stream.write("\r" + line[:160].ljust(100))
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


_SUBTEST_START = re.compile(r"^PIGLIT TEST:\s*(\d+)\s*-")
_SUBTEST_RESULT = re.compile(r'^PIGLIT:\s*\{\s*"subtest"\s*:\s*\{\s*"(.*)"\s*:\s*"(\w+)"\s*\}\s*\}')
_BATCHABLE = ("shader_runner", "shader_runner_gles2", "shader_runner_gles3")


def _batchable(test: PiglitTest) -> bool:
    return (not test.skip and test.binary in _BATCHABLE and len(test.args) == 3
            and test.args[0].endswith(".shader_test") and test.args[1:] == ("-auto", "-fbo"))


def batches(tests: list[PiglitTest], size: int) -> list[list[PiglitTest]]:
    """Units of work for a run without process isolation: shader_runner tests
    of the same binary and directory in groups of at most ``size`` (piglit's
    no-isolation lists group them the same way: tests of one directory share
    their requirements); every other test alone."""
    groups: dict[tuple[str, str], list[PiglitTest]] = {}
    out: list[list[PiglitTest]] = []
    for t in tests:
        if size > 1 and _batchable(t):
            groups.setdefault((t.binary, str(Path(t.args[0]).parent)), []).append(t)
        else:
            out.append([t])
    for group in groups.values():
        out += [group[i:i + size] for i in range(0, len(group), size)]
    return out


def _read_lines(stream, sink: "queue.Queue") -> None:
    for line in stream:
        sink.put(line)
    sink.put(None)


def run_batch(root: Path, tests: list[PiglitTest], driver: str, env: dict,
              timeout_s: float) -> list[Outcome]:
    """Run shader_runner tests of one binary in one process, piglit's
    no-isolation protocol: ``-report-subtests`` prints ``PIGLIT TEST: i - name``
    before test i and ``PIGLIT: {"subtest": {"name": "result"}}`` after it. When
    the process ends early (a test skipped, failed fatally or crashed) or a test
    runs past ``timeout_s``, that test gets skip (the process's last line says
    skip), fail (exit status > 0), crash or timeout, and the runner resumes with a
    new process at the next test, as piglit does. Each test's time is the time
    between its start marker and its result."""
    import queue
    import threading

    if len(tests) == 1:
        return [run_one(root, tests[0], driver, env, timeout_s)]
    outcomes: list[Outcome] = []
    pending = list(tests)
    while pending:
        argv = [str(root / "bin" / pending[0].binary), *(t.args[0] for t in pending),
                "-auto", "-fbo", "-report-subtests"]
        try:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                    cwd=str(root), start_new_session=True, text=True, errors="replace")
        except OSError as e:
            return outcomes + [Outcome(t.path, driver, "crash", 0.0, None, f"cannot start {argv[0]}: {e}",
                                       t.binary) for t in pending]
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True).start()
        current, started, log, results = -1, time.perf_counter(), [], {}
        timed_out = False
        while True:
            try:
                line = lines.get(timeout=max(0.0, started + timeout_s - time.perf_counter()))
            except queue.Empty:
                timed_out = True
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                break
            if line is None:
                break
            m = _SUBTEST_START.match(line)
            if m:
                index = int(m.group(1)) - 1
                if index != current and index not in results:
                    current, started, log = index, time.perf_counter(), []
                continue
            m = _SUBTEST_RESULT.match(line)
            if m and 0 <= current < len(pending) and current not in results:
                results[current] = (m.group(2), time.perf_counter() - started, log)
                continue
            log.append(line)
        proc.wait()
        done = 0
        for i, t in enumerate(pending):
            if i not in results:
                break
            status, dt, out = results[i]
            outcomes.append(Outcome(t.path, driver, status, round(dt, 3), 0,
                                    _message("".join(out), "", status), t.binary))
            done = i + 1
        if done == len(pending):
            break
        # the process stopped during test `done` (or before starting it)
        t = pending[done]
        text = "".join(log)
        if timed_out:
            status, msg = "timeout", f"timed out after {timeout_s:g} s"
        else:
            last = _RESULT_RE.findall(text)
            if last and '"skip"' in last[-1]:
                status = "skip"
            elif proc.returncode is not None and proc.returncode > 0:
                status = "fail"
            else:
                status = "crash"
            msg = _message(text, "", status)
        outcomes.append(Outcome(t.path, driver, status, round(time.perf_counter() - started, 3),
                                proc.returncode, msg, t.binary))
        pending = pending[done + 1:]
    return outcomes


@functools.lru_cache(maxsize=None)
def needs_x11(binary_path: str) -> bool:
    """Whether a piglit binary is a GLES 1 test (linked to libpiglitutil_gles1), which
    must run on x11_egl: piglit's surfaceless platform aborts it before any GL call."""
    try:
        with open(binary_path, "rb") as f:
            return b"libpiglitutil_gles1" in f.read()
    except OSError:
        return False


def x11_environment(env: dict, driver: str, platform: str, display: str) -> dict:
    """`env` for a test on an X11 platform (``glx``, ``x11_egl``) of X server
    `display`. GLX: glvnd's libGLX picks the vendor the server names (Xvfb's
    GLX names Mesa, so llvmpipe runs), unless __GLX_VENDOR_LIBRARY_NAME names
    one: shimgl's for the shimgl run."""
    out = {**env, "PIGLIT_PLATFORM": platform, "DISPLAY": display}
    out.pop("EGL_PLATFORM", None)          # the default display is the X server's again
    if driver == "shimgl":
        out["__GLX_VENDOR_LIBRARY_NAME"] = "shimgl"
    else:
        out.pop("__GLX_VENDOR_LIBRARY_NAME", None)
    return out


class _Xvfb:
    """An Xvfb server for the run's x11_egl tests (started on first use, stopped by
    `close`); `display` is ":N", or None when Xvfb is missing or does not start."""

    def __init__(self):
        self.proc: subprocess.Popen | None = None
        self.display: str | None = None
        self.tried = False

    def start(self) -> str | None:
        if self.tried:
            return self.display
        self.tried = True
        exe = shutil.which("Xvfb")
        if exe is None:
            return None
        r, w = os.pipe()
        try:
            self.proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                         pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
        finally:
            os.close(w)
        with os.fdopen(r) as f:            # Xvfb writes its display number once it accepts clients
            number = f.readline().strip()
        if number.isdigit():
            self.display = f":{number}"
        else:
            self.close()
        return self.display

    def close(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


def run_tests(root: Path, tests: list[PiglitTest], driver: str, jobs: int = 2, timeout_s: float = 60.0,
              progress: bool = True, env: dict | None = None, isolation: bool = True,
              batch_size: int = 64) -> list[Outcome]:
    """Run every test on `driver`; outcomes come back in the order of `tests`.
    `isolation=False`: shader_runner tests run up to `batch_size` to a process.
    GLES 1 binaries run on x11_egl, and tests of an X11 `platform` (glx) on it,
    under an Xvfb of this run (`needs_x11`, `x11_environment`)."""
    env = driver_environment(driver) if env is None else env
    # as piglit's own runner: tests find their data files (KTX images, ...) under it
    env = {**env, "PIGLIT_SOURCE_DIR": env.get("PIGLIT_SOURCE_DIR") or str(root)}
    bar = _Progress(len(tests), driver) if progress else None
    index = {t.path: i for i, t in enumerate(tests)}
    units = batches(tests, batch_size if not isolation else 1)
    results: dict[int, Outcome] = {}
    xvfb = _Xvfb()

    def unit_env(unit):
        if len(unit) != 1 or unit[0].skip:
            return env
        platform = unit[0].platform or ("x11_egl" if needs_x11(str(root / "bin" / unit[0].binary)) else "")
        if platform:
            display = xvfb.start()
            if display is not None:
                return x11_environment(env, driver, platform, display)
        return env

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futs = [pool.submit(run_batch, root, unit, driver, unit_env(unit), timeout_s) for unit in units]
            for fut in as_completed(futs):
                for o in fut.result():
                    results[index[o.path]] = o
                    if bar:
                        bar.update(o)
    finally:
        xvfb.close()
    return [results[i] for i in range(len(tests))]
