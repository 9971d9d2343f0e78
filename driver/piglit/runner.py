"""Run piglit binaries in parallel with per-test timeouts and a progress bar.

Each test is one process (`bin/<binary> <args>`), as piglit's own framework
runs them. Its status is read as piglit reads it: the last
`PIGLIT: {"result": ...}` line of stdout; a process killed by a signal or
ending with no result line is a `crash`; a process still running at the
timeout is killed (with its process group) and is a `timeout`; `pass` with a
non-zero exit status is `warn`."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

from .tests import PiglitTest

__all__ = ["Outcome", "classify", "driver_environment", "run_tests"]

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


def run_tests(root: Path, tests: list[PiglitTest], driver: str, jobs: int = 2, timeout_s: float = 60.0,
              progress: bool = True, env: dict | None = None) -> list[Outcome]:
    """Run every test on `driver`; outcomes come back in the order of `tests`."""
    env = driver_environment(driver) if env is None else env
    bar = _Progress(len(tests), driver) if progress else None
    results: dict[int, Outcome] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = {pool.submit(run_one, root, t, driver, env, timeout_s): i for i, t in enumerate(tests)}
        for fut in as_completed(futs):
            o = fut.result()
            results[futs[fut]] = o
            if bar:
                bar.update(o)
    return [results[i] for i in range(len(tests))]
