"""``shimgl bench``: the project's glbench (``driver/bench/glbench.py``, a PyOpenGL EGL
benchmark) on shimgl through the C ABI, on shimgl with its shader core interpreted
(``shimgl-interp``: ``SHIMGL_DEBUG=interp``, no native code), and on Mesa's llvmpipe
and softpipe when installed, at one or more sizes in one run.

Each driver runs glbench as a subprocess (shimgl with the environment of ``shimgl
env``; Mesa with glvnd's default vendors and GALLIUM_DRIVER). Prints, per size, a
table of ms per frame, shimgl's ratios to the others, whether shimgl's image is the
interpreter's bit for bit (sha256), and each image's difference from llvmpipe's
(glbench ``--dump``): the largest channel difference and the share of pixels off by
more than 2. Exit status 0 even when the benchmark or a driver is missing (it says why)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["register", "find_glbench", "run_glbench", "image_diff"]

DRIVERS = ("shimgl", "shimgl-interp", "llvmpipe", "softpipe")
GLBENCH = Path(__file__).resolve().parent / "bench" / "glbench.py"
_SHIMGL_VARS = ("__EGL_VENDOR_LIBRARY_FILENAMES", "LD_LIBRARY_PATH", "PIGLIT_PLATFORM")


def register(subparsers) -> None:
    p = subparsers.add_parser("bench", help="glbench.py on shimgl (C ABI), llvmpipe and softpipe: ms per frame",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", default="256", help="framebuffer width=height (glbench --size); a comma list runs each")
    p.add_argument("--api", choices=("gles", "gl"), default="gles",
                   help="glbench --api: OpenGL ES 3.0/3.1, or desktop OpenGL 3.3/4.3 core")
    p.add_argument("--frames", type=int, default=3, help="timed frames per workload (glbench --frames etc.)")
    p.add_argument("--warmup-frames", type=int, default=2,
                   help="untimed frames first (shader compiles, native code; glbench --warmup-frames)")
    p.add_argument("--only", default=None, help="comma list of glbench workloads (default: all)")
    p.add_argument("--drivers", default=",".join(DRIVERS), help="comma list of: " + ",".join(DRIVERS))
    p.add_argument("--glbench", default=None, help="path of glbench.py (default: the project's, driver/bench)")
    p.add_argument("--dump", default=None, help="keep the images here (default: a temporary folder)")
    p.add_argument("--extra", default="", help="more glbench arguments, one string (e.g. '--tris 2000')")
    p.add_argument("--timeout", type=float, default=900, help="seconds per driver run")
    p.set_defaults(func=_run)


def find_glbench(explicit: str | None = None) -> Path | None:
    """``explicit``, else ``$SHIMGL_GLBENCH``, else the project's glbench."""
    for cand in (explicit, os.environ.get("SHIMGL_GLBENCH"), GLBENCH):
        if cand and Path(cand).is_file():
            return Path(cand)
    return None


def driver_env(driver: str) -> tuple[dict | None, str]:
    """The environment running glbench on ``driver``, or (None, why not)."""
    env = {k: v for k, v in os.environ.items() if k not in _SHIMGL_VARS}
    env["PYOPENGL_PLATFORM"] = "egl"
    env.setdefault("XDG_RUNTIME_DIR", os.environ.get("TMPDIR", "/tmp"))
    if driver in ("shimgl", "shimgl-interp"):
        from driver.abi.paths import environment, missing_reason
        abi = environment(os.environ)
        if abi is None:
            return None, f"the C ABI is not available: {missing_reason()}"
        env.update(abi)
        if driver == "shimgl-interp":   # the numpy shader core only (the native tier's specification)
            env["SHIMGL_DEBUG"] = ",".join(w for w in (env.get("SHIMGL_DEBUG", ""), "interp") if w)
        return env, ""
    env["GALLIUM_DRIVER"] = driver
    return env, ""


def run_glbench(glbench: Path, driver: str, args: list[str], dump: Path | None, timeout: float) -> dict:
    """{"info": {...}, "workloads": {name: record}} or {"error": why}."""
    env, why = driver_env(driver)
    if env is None:
        return {"error": why}
    cmd = [sys.executable, str(glbench), *args]
    if dump is not None:
        cmd += ["--dump", str(dump)]
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    out = {"info": {}, "workloads": {}}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            rec = json.loads(line)
            if rec.get("name") == "_info":
                out["info"] = rec
            else:
                out["workloads"][rec["name"]] = rec
    if not out["info"]:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"exit {proc.returncode}: {tail}"}
    renderer = out["info"].get("renderer", "")
    if not driver.startswith("shimgl") and driver not in renderer.lower():
        return {"error": f"not installed (EGL gave renderer {renderer!r})"}
    return out


def image_diff(a: Path, b: Path) -> tuple[int, float] | None:
    """(largest channel difference, % of pixels off by more than 2) of two dumps."""
    import numpy as np
    if not (a.is_file() and b.is_file()):
        return None
    x, y = np.load(a).astype(np.int16), np.load(b).astype(np.int16)
    if x.shape != y.shape:
        return None
    d = np.abs(x - y).reshape(-1, x.shape[-1]).max(axis=1)
    return int(d.max()), float((d > 2).mean() * 100)


def _per_frame_s(rec: dict | None) -> float | None:
    """A workload's seconds per frame as the table compares them: the process's CPU time
    (``cpu_s_per_frame``: every thread, which a loaded host disturbs far less than the
    wall clock), or the wall time of a record without it."""
    if not rec or "skipped" in rec:
        return None
    return rec.get("cpu_s_per_frame", rec.get("sec_per_frame"))


def _ms(rec: dict | None, key: str | None = None) -> str:
    if not rec:
        return "-"
    if "skipped" in rec:
        return "skipped"
    s = _per_frame_s(rec) if key is None else rec.get(key)
    return "-" if s is None else f"{s * 1000:.2f}"


def _run(args: argparse.Namespace) -> int:
    glbench = find_glbench(args.glbench)
    if glbench is None:
        print("shimgl bench: glbench.py not found (SHIMGL_GLBENCH or --glbench); nothing to run")
        return 0
    drivers = [d for d in args.drivers.split(",") if d]
    tmp = None
    if args.dump:
        base = Path(args.dump)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="shimgl-bench-")
        base = Path(tmp.name)
    sizes = [int(x) for x in str(args.size).split(",") if x]
    for k, size in enumerate(sizes):
        _run_size(args, glbench, drivers, size, base if len(sizes) == 1 else base / str(size))
        if k + 1 < len(sizes):
            print()
    if tmp is not None:
        tmp.cleanup()
    return 0


def _run_size(args: argparse.Namespace, glbench: Path, drivers: list[str], size: int, base: Path) -> None:
    f = str(args.frames)
    gargs = ["--api", args.api, "--size", str(size), "--frames", f, "--clear-frames", f,
             "--readback-frames", f, "--dispatches", f, "--warmup-frames", str(args.warmup_frames),
             *args.extra.split()]
    if args.only:
        gargs += ["--only", args.only]
    print(f"shimgl bench: {glbench.name} {' '.join(gargs)}")
    results = {}
    for d in drivers:
        r = run_glbench(glbench, d, gargs, base / d, args.timeout)
        results[d] = r
        if "error" in r:
            print(f"  {d}: {r['error']}")
        else:
            i = r["info"]
            print(f"  {d}: {i.get('renderer')} / {i.get('version')}, context {i.get('context_s', 0):.2f} s")
    ok = [d for d in drivers if "error" not in results[d]]
    if not ok:
        print("shimgl bench: no driver ran")
        return
    names = list(dict.fromkeys(n for d in ok for n in results[d]["workloads"]))
    mesa = [d for d in ok if not d.startswith("shimgl")]
    print("  ms: process CPU per frame (all threads); wall: elapsed ms per frame")
    head = ["workload", *[f"{d} ms" for d in ok], *[f"{d} wall" for d in ok]]
    if "shimgl" in ok:
        head += [f"shimgl/{d}" for d in mesa]
        if "shimgl-interp" in ok:
            head += ["interp/native", "image = interp"]
        if "llvmpipe" in ok:
            head += ["vs llvmpipe: max diff, % px > 2"]
    rows = []
    for n in names:
        recs = {d: results[d]["workloads"].get(n) for d in ok}
        row = [n, *[_ms(recs[d]) for d in ok], *[_ms(recs[d], "sec_per_frame") for d in ok]]
        if "shimgl" in ok:
            s = recs["shimgl"]
            for d in mesa:
                row.append(_ratio(s, recs[d]))
            if "shimgl-interp" in ok:
                i = recs["shimgl-interp"]
                row.append(_ratio(i, s))
                row.append("-" if not (s and i and "sha256" in s and "sha256" in i)
                           else "yes" if s["sha256"] == i["sha256"] else "NO")
            if "llvmpipe" in ok:
                diff = image_diff(base / "shimgl" / f"{n}.npy", base / "llvmpipe" / f"{n}.npy")
                if diff:
                    row.append(f"{diff[0]}, {diff[1]:.3f}%")
                elif s and "max_abs_err_vs_numpy" in s:
                    row.append(f"max |err| vs numpy {s['max_abs_err_vs_numpy']:g}")
                else:
                    row.append("-")
        rows.append(row)
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def _ratio(a: dict | None, b: dict | None) -> str:
    x, y = _per_frame_s(a), _per_frame_s(b)
    return f"{x / y:.1f}x" if x is not None and y else "-"
