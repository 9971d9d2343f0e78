"""Results files and the Markdown summary of a piglit run (pure; no processes).

results.json / results.csv: one row per (test, driver): path, driver, result,
time_s, returncode, message, binary. summary.md: pass/fail/skip/warn/crash/
timeout per directory for each driver, totals with pass rates, and, when a
reference driver ran too, the differences: tests shimgl fails (fail, crash or
timeout) that the reference passes first, then the other differences."""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from pathlib import Path

from .runner import Outcome

__all__ = ["RESULTS", "merge_results", "read_results", "summarise", "write_results", "write_summary"]

RESULTS = ("pass", "fail", "skip", "warn", "crash", "timeout")
_BAD = ("fail", "crash", "timeout")


def write_results(outcomes: list[Outcome], out_dir: Path, meta: dict | None = None) -> tuple[Path, Path]:
    """results.json (one row per outcome; ``meta``, e.g. the run's title and
    shard, in run.json beside it) and results.csv."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = [o.row() for o in outcomes]
    j = out_dir / "results.json"
    j.write_text(json.dumps(rows, indent=1) + "\n")
    if meta is not None:
        (out_dir / "run.json").write_text(json.dumps(meta, indent=1) + "\n")
    c = out_dir / "results.csv"
    with c.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["path"])
        w.writeheader()
        w.writerows(rows)
    return j, c


def read_results(out_dir: Path) -> tuple[list[Outcome], dict]:
    """The outcomes of one output directory and its run metadata ({} when absent)."""
    rows = json.loads((Path(out_dir) / "results.json").read_text())
    fields = set(Outcome.__dataclass_fields__)
    outcomes = [Outcome(**{k: v for k, v in row.items() if k in fields}) for row in rows]
    meta_path = Path(out_dir) / "run.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    return outcomes, meta


def merge_results(out_dirs: list[Path]) -> tuple[list[Outcome], dict]:
    """The outcomes of several runs (shards of one run) as one, sorted by
    (path, driver). A (test, driver) present twice is an error unless both
    outcomes agree on the result (a shard given twice). The metadata is the
    first run's with the shard removed and the runs' seconds summed."""
    by_key: dict[tuple[str, str], Outcome] = {}
    meta: dict = {}
    seconds = 0.0
    for d in out_dirs:
        outcomes, m = read_results(d)
        if not meta:
            meta = dict(m)
            if m.get("title"):
                meta["title"] = m["title"].split(" [shard")[0]
        seconds += float(m.get("seconds") or 0)
        for o in outcomes:
            key = (o.path, o.driver)
            if key in by_key and by_key[key].result != o.result:
                raise ValueError(f"{o.path} on {o.driver} is {by_key[key].result} in one result set "
                                 f"and {o.result} in {d}")
            by_key[key] = o
    meta.pop("shard", None)
    meta["seconds"] = round(seconds, 1)
    return [by_key[k] for k in sorted(by_key)], meta


def _group(path: str) -> str:
    return "/".join(Path(path).parent.parts[:4])


def summarise(outcomes: list[Outcome]) -> dict[str, dict[str, Counter]]:
    """driver -> group -> Counter of results (group "TOTAL" for all)."""
    table: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for o in outcomes:
        table[o.driver][_group(o.path)][o.result] += 1
        table[o.driver]["TOTAL"][o.result] += 1
    return table


def _rate(c: Counter) -> str:
    n = sum(c.values())
    return f"{100.0 * c['pass'] / n:.1f}%" if n else "-"


def write_summary(outcomes: list[Outcome], out_dir: Path, title: str, reference: str | None = None,
                  subject: str = "shimgl") -> Path:
    table = summarise(outcomes)
    drivers = [d for d in (subject, reference) if d and d in table] or sorted(table)
    lines = [f"# {title}", ""]
    lines.append("| driver | tests | " + " | ".join(RESULTS) + " | pass rate |")
    lines.append("|---|---|" + "---|" * len(RESULTS) + "---|")
    for d in drivers:
        c = table[d]["TOTAL"]
        lines.append(f"| {d} | {sum(c.values())} | " + " | ".join(str(c[r]) for r in RESULTS)
                     + f" | {_rate(c)} |")
    lines += ["", "## Per directory", ""]
    head = "| directory | " + " | ".join(f"{d} pass/fail/skip/crash/timeout" for d in drivers) + " |"
    lines += [head, "|---|" + "---|" * len(drivers)]
    groups = sorted({g for d in drivers for g in table[d] if g != "TOTAL"})
    for g in groups:
        cells = []
        for d in drivers:
            c = table[d].get(g, Counter())
            cells.append("/".join(str(c[r]) for r in ("pass", "fail", "skip", "crash", "timeout"))
                         + (f" (+{c['warn']} warn)" if c["warn"] else ""))
        lines.append(f"| {g} | " + " | ".join(cells) + " |")
    if reference and reference in table and subject in table:
        by = {(o.driver, o.path): o for o in outcomes}
        paths = sorted({o.path for o in outcomes})
        regress, other = [], []
        for p in paths:
            a, b = by.get((subject, p)), by.get((reference, p))
            if a is None or b is None or a.result == b.result:
                continue
            (regress if a.result in _BAD and b.result == "pass" else other).append((p, a, b))
        lines += ["", f"## Differences from {reference}", "",
                  f"{len(regress)} tests fail on {subject} and pass on {reference}; "
                  f"{len(other)} other differences.", ""]
        if regress or other:
            lines += [f"| test | {subject} | {reference} | {subject} message |", "|---|---|---|---|"]
            for p, a, b in regress + other:
                msg = a.message.replace("|", "\\|")[:160]
                lines.append(f"| {p} | {a.result} | {b.result} | {msg} |")
    path = out_dir / "summary.md"
    out_dir.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path
