"""`shimgl piglit`: run the system's piglit against shimgl (and llvmpipe), with reports.

    shimgl piglit --tier 1 --sample 100 --reference     # sampled tier 1, shimgl vs llvmpipe
    shimgl piglit --list my.txt --jobs 2 --timeout 60   # a list of root-relative test paths

Writes OUT/results.json, OUT/results.csv (one row per test and driver: result,
time, message) and OUT/summary.md (pass/fail/skip/crash/timeout per directory;
with --reference, the tests shimgl fails that llvmpipe passes first)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

__all__ = ["register"]


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "piglit", help="run installed piglit tests on shimgl (and llvmpipe) and write reports",
        description=__doc__.split("\n\n")[0])
    p.add_argument("--tier", type=int, action="append", choices=(1, 2, 3, 4),
                   help="tier to run (repeatable; default 1 unless --list is given)")
    p.add_argument("--list", metavar="FILE", help="file of piglit-root-relative test paths")
    p.add_argument("--sample", type=int, metavar="N", help="run a reproducible sample of N tests per tier/list")
    p.add_argument("--filter", metavar="TEXT", help="only tests whose path contains TEXT")
    p.add_argument("--all", action="store_true",
                   help="keep geometry/tessellation, fp64/int64 and rlimit tests")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="parallel processes")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per-test timeout in seconds")
    p.add_argument("--reference", action="store_true", help="also run the list on Mesa's llvmpipe and compare")
    p.add_argument("--reference-only", action="store_true", help="run only on llvmpipe (checks the machinery)")
    p.add_argument("--out", default="piglit-results", metavar="DIR", help="output directory")
    p.add_argument("--piglit-dir", metavar="DIR", help="piglit install root (default: Debian's)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)


def _run(args) -> int:
    from driver.piglit import (find_piglit, load_list, run_tests, sample, tier_tests, write_results,
                               write_summary)
    root = find_piglit(args.piglit_dir)
    if root is None:
        print("shimgl piglit: piglit is not installed (Debian package `piglit`; `make optional-deps`)",
              file=sys.stderr)
        return 2
    groups = []
    if args.list:
        groups.append(("list " + Path(args.list).name, load_list(root, args.list)))
    for t in args.tier or ([] if args.list else [1]):
        groups.append((f"tier {t}", tier_tests(root, t, include_all=args.all)))
    tests, seen = [], set()
    for _, ts in groups:
        ts = [t for t in ts if not args.filter or args.filter in t.path]
        for t in sample(ts, args.sample):
            if t.path not in seen:
                seen.add(t.path)
                tests.append(t)
    if not tests:
        print("shimgl piglit: no tests selected", file=sys.stderr)
        return 2
    drivers = ["llvmpipe"] if args.reference_only else ["shimgl"] + (["llvmpipe"] if args.reference else [])
    title = ", ".join(name for name, _ in groups) + (f" (sample of {args.sample})" if args.sample else "")
    print(f"shimgl piglit: {len(tests)} tests ({title}) from {root} on {', '.join(drivers)}, "
          f"{args.jobs} jobs, {args.timeout:g} s timeout", file=sys.stderr)
    outcomes = []
    t0 = time.time()
    for d in drivers:
        try:
            outcomes += run_tests(root, tests, d, jobs=args.jobs, timeout_s=args.timeout,
                                  progress=not args.no_progress)
        except RuntimeError as e:
            print(f"shimgl piglit: {e}", file=sys.stderr)
            return 2
    out = Path(args.out)
    j, c = write_results(outcomes, out)
    s = write_summary(outcomes, out, f"piglit: {title}", reference="llvmpipe" if len(drivers) > 1 else None,
                      subject=drivers[0])
    print(f"shimgl piglit: {time.time() - t0:.0f} s; wrote {j}, {c}, {s}", file=sys.stderr)
    print(s.read_text().split("## Per directory")[0].strip())
    return 0
