"""``shimgl demo``: render the built-in scenes to PNG files and say what each exercised.

Each scene runs as its own PyOpenGL program (``python -m driver.demo.scenes``) with the
environment of ``shimgl env``, so it reaches shimgl through the C ABI (glvnd's libEGL ->
libEGL_shimgl -> libshimgl.so) exactly as a user's program would. Without the ABI
(not built), only the cube is rendered, through ``driver.Context`` in this process,
and the output says so."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from driver.demo import SCENES

__all__ = ["register", "run_scene"]


def register(subparsers) -> None:
    p = subparsers.add_parser("demo", help="render the built-in scenes through the C ABI to PNG files",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="shimgl-demo", help="folder for the PNG files (default ./shimgl-demo)")
    p.add_argument("--size", type=int, default=256, help="width and height in pixels (multiple of 8)")
    p.add_argument("--scenes", default=",".join(SCENES), help=f"comma list of scenes ({','.join(SCENES)})")
    p.set_defaults(func=_run)


def run_scene(scene: str, out: Path, size: int, env: dict, timeout: float = 120) -> dict:
    """Run one scene in a PyOpenGL subprocess; its JSON record (or one with "error")."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "driver.demo.scenes", scene, str(out / f"{scene}.png"), str(size)],
                          env=env, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            rec = json.loads(line)
            rec["wall_s"] = wall
            return rec
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return {"scene": scene, "error": f"exit {proc.returncode}: {tail}", "wall_s": wall}


def _describe(rec: dict) -> str:
    if "error" in rec:
        return f"{rec['scene']:8s} FAILED ({rec['error']})"
    c = rec.get("counters")
    work = f"{rec['draws']} draw/dispatch call(s)"
    if c:
        work += (f", {c['primitives']} triangles, {c['fragments']} fragments shaded, {c['tiles']} tiles, "
                 f"{c['partial_renders']} partial renders, {c['commands']} GPU commands")
    if rec["gl_error"]:
        work += f", GL error 0x{rec['gl_error']:04x}"
    return (f"{rec['scene']:8s} {rec['file']}: {rec['what']}. {work}; "
            f"render {rec['render_s'] * 1000:.0f} ms (process {rec['wall_s']:.1f} s)")


def _fallback(out: Path, size: int) -> int:
    from driver.abi.paths import missing_reason
    from driver.agx.demo import render
    print(f"shimgl demo: the C ABI is not available ({missing_reason()}); rendering only the cube, "
          "through driver.Context in this process (the other scenes need the ABI and PyOpenGL)")
    t0 = time.perf_counter()
    ctx = render(size)
    path = out / "cube.png"
    ctx.save_png(str(path))
    print(f"cube     {path}: lit, textured, depth-tested cube through driver.Context (no ABI); "
          f"1 draw; {time.perf_counter() - t0:.1f} s")
    return 0


def _run(args: argparse.Namespace) -> int:
    from driver.abi.paths import environment
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    scenes = [s for s in args.scenes.split(",") if s]
    unknown = [s for s in scenes if s not in SCENES]
    if unknown or args.size <= 0 or args.size % 8:
        print(f"shimgl demo: unknown scene(s) {unknown} or size not a positive multiple of 8", file=sys.stderr)
        return 2
    abi = environment(os.environ)
    print(f"shimgl demo: writing {len(scenes)} scene(s) at {args.size}x{args.size} to {out}")
    if abi is None:
        return _fallback(out, args.size)
    env = dict(os.environ)
    env.update(abi)
    env.setdefault("XDG_RUNTIME_DIR", os.environ.get("TMPDIR", "/tmp"))
    root = str(Path(__file__).resolve().parents[2])       # `-m driver.demo.scenes` from any cwd
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    print("each scene is a PyOpenGL program on EGL (glvnd) -> shimgl's C ABI; counters are the "
          "kernel's per-queue counters read through the driver")
    t0 = time.perf_counter()
    failed = 0
    for scene in scenes:
        rec = run_scene(scene, out, args.size, env)
        failed += "error" in rec
        print(_describe(rec), flush=True)
    print(f"done in {time.perf_counter() - t0:.1f} s: {out}")
    return 1 if failed else 0
