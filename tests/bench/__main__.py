"""Run every ``tests/bench/bench_*.py`` module and print its figures.

A benchmark module defines ``run() -> list[tuple[str, float, str]]``: rows of
(what was measured, milliseconds, a note such as the reference it is compared
with). Modules are run in name order; ``python -m tests.bench NAME...`` runs some.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import tests.bench as package


def main(argv: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    if not names:
        print("no benchmarks yet")
        return 0
    print(f"{'benchmark':<60} {'ms':>10}  note")
    for name in names:
        start = time.perf_counter()
        rows = importlib.import_module(f"tests.bench.{name}").run()
        for what, ms, note in rows:
            print(f"{what:<60} {ms:>10.2f}  {note}")
        print(f"  ({name}: {time.perf_counter() - start:.1f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
