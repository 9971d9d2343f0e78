"""`shimgl piglit`: run the system's piglit against shimgl (and llvmpipe), with reports.

    shimgl piglit --tier 1 --sample 100 --reference     # sampled tier 1, shimgl vs llvmpipe
    shimgl piglit --list my.txt --jobs 2 --timeout 60   # a list of test paths or profile test names
    shimgl piglit --profile opengl --reference          # piglit's C API tests (installed XML lists)
    shimgl piglit --tier 2 --no-isolation               # many shader tests per shader_runner process
    shimgl piglit --profile gpu --shard 3/8 --out s3    # one machine's eighth of a run (Mesa CI style)
    shimgl piglit --merge s1 s2 ... --out all           # one report from the shards' results

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
    p.add_argument("--list", metavar="FILE",
                   help="file of tests, one a line: piglit-root-relative test paths or profile test names "
                        "(spec@arb_foo@bar or spec/arb_foo/bar, as the reports print them)")
    p.add_argument("--profile", action="append", metavar="NAME",
                   help="a piglit profile: an installed list tests/NAME.xml.gz (opengl, quick_gl, shader, "
                        "quick_shader, glslparser, ...) or gpu (quick_gl + quick_shader without compiler "
                        "tests); repeatable")
    p.add_argument("--sample", type=int, metavar="N", help="run a reproducible sample of N tests per tier/list")
    p.add_argument("--filter", metavar="TEXT", action="append",
                   help="only tests whose path contains TEXT (repeat: any of them)")
    p.add_argument("--all", action="store_true",
                   help="keep geometry/tessellation, fp64/int64 and rlimit tests")
    p.add_argument("--jobs", "-j", type=int, default=_cores(), help="parallel processes (default: all cores)")
    p.add_argument("--no-isolation", action="store_true",
                   help="run shader_runner tests of one directory many to a process, as piglit's "
                        "--process-isolation false (the runner resumes after a crash)")
    p.add_argument("--batch-size", type=int, default=64, metavar="N",
                   help="with --no-isolation: at most N tests per process")
    p.add_argument("--shard", metavar="I/N", type=_shard_arg,
                   help="run only shard I of N (deterministic: every N-th test by path from the I-th)")
    p.add_argument("--merge", nargs="+", metavar="DIR",
                   help="merge the results.json of these output directories (e.g. shards) into one report")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per-test timeout in seconds")
    p.add_argument("--reference", action="store_true", help="also run the list on Mesa's llvmpipe and compare")
    p.add_argument("--reference-only", action="store_true", help="run only on llvmpipe (checks the machinery)")
    p.add_argument("--out", default="piglit-results", metavar="DIR", help="output directory")
    p.add_argument("--piglit-dir", metavar="DIR", help="piglit install root (default: Debian's)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 2
    except (AttributeError, OSError):
        return os.cpu_count() or 2


def _shard_arg(text: str) -> tuple[int, int]:
    import argparse
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected I/N, e.g. 2/8") from None
    if n < 1 or not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: need 1 <= I <= N")
    return i, n


def _merge(args) -> int:
    from driver.piglit.report import merge_results, write_results, write_summary
    try:
        outcomes, meta = merge_results([Path(d) for d in args.merge])
    except (OSError, ValueError) as e:
        print(f"shimgl piglit: cannot merge: {e}", file=sys.stderr)
        return 2
    drivers = list(dict.fromkeys(o.driver for o in outcomes))
    subject = "shimgl" if "shimgl" in drivers else (drivers[0] if drivers else "shimgl")
    reference = next((d for d in drivers if d != subject), None)
    title = meta.get("title") or "piglit"
    out = Path(args.out)
    j, c = write_results(outcomes, out, {**meta, "merged_from": [str(d) for d in args.merge]})
    s = write_summary(outcomes, out, f"{title} (merged from {len(args.merge)} result sets)",
                      reference=reference, subject=subject)
    print(f"shimgl piglit: merged {len(outcomes)} results; wrote {j}, {c}, {s}", file=sys.stderr)
    print(s.read_text().split("## Per directory")[0].strip())
    return 0


def _run(args) -> int:
    if args.merge:
        return _merge(args)
    from driver.piglit import (find_piglit, load_list, run_tests, sample, tier_tests, write_results,
                               write_summary)
    from driver.piglit.profiles import profile_tests
    from driver.piglit.tests import shard
    root = find_piglit(args.piglit_dir)
    if root is None:
        print("shimgl piglit: piglit is not installed (Debian package `piglit`; `make optional-deps`)",
              file=sys.stderr)
        return 2
    groups = []
    if args.list:
        try:
            groups.append(("list " + Path(args.list).name, load_list(root, args.list)))
        except (OSError, ValueError) as e:
            print(f"shimgl piglit: {e}", file=sys.stderr)
            return 2
    for name in args.profile or []:
        try:
            groups.append((f"profile {name}", profile_tests(root, name)))
        except (OSError, ValueError) as e:
            print(f"shimgl piglit: {e}", file=sys.stderr)
            return 2
    for t in args.tier or ([] if args.list or args.profile else [1]):
        groups.append((f"tier {t}", tier_tests(root, t, include_all=args.all)))
    tests, seen = [], set()
    for _, ts in groups:
        ts = [t for t in ts if not args.filter or any(f in t.path for f in args.filter)]
        for t in sample(ts, args.sample):
            if t.path not in seen:
                seen.add(t.path)
                tests.append(t)
    if args.shard:
        tests = shard(tests, *args.shard)
    if not tests:
        print("shimgl piglit: no tests selected", file=sys.stderr)
        return 2
    drivers = ["llvmpipe"] if args.reference_only else ["shimgl"] + (["llvmpipe"] if args.reference else [])
    title = ", ".join(name for name, _ in groups) + (f" (sample of {args.sample})" if args.sample else "")
    if args.shard:
        title += f" [shard {args.shard[0]}/{args.shard[1]}]"
    print(f"shimgl piglit: {len(tests)} tests ({title}) from {root} on {', '.join(drivers)}, "
          f"{args.jobs} jobs, {args.timeout:g} s timeout"
          + (f", up to {args.batch_size} shader tests per process" if args.no_isolation else ""), file=sys.stderr)
    outcomes = []
    t0 = time.time()
    for d in drivers:
        try:
            outcomes += run_tests(root, tests, d, jobs=args.jobs, timeout_s=args.timeout,
                                  progress=not args.no_progress, isolation=not args.no_isolation,
                                  batch_size=args.batch_size)
        except RuntimeError as e:
            print(f"shimgl piglit: {e}", file=sys.stderr)
            return 2
    out = Path(args.out)
    meta = {"title": title, "piglit": str(root), "drivers": drivers,
            "shard": list(args.shard) if args.shard else None, "seconds": round(time.time() - t0, 1)}
    j, c = write_results(outcomes, out, meta)
    s = write_summary(outcomes, out, f"piglit: {title}", reference="llvmpipe" if len(drivers) > 1 else None,
                      subject=drivers[0])
    print(f"shimgl piglit: {time.time() - t0:.0f} s; wrote {j}, {c}, {s}", file=sys.stderr)
    print(s.read_text().split("## Per directory")[0].strip())
    return 0
