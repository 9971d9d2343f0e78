"""Count the private calls across files of the GL front end: a call
``<name>._method(...)`` in one file of driver/gl (legacy/ and features/
included) of a private method that another file of driver/gl defines and the
calling file does not. These are the calls that tie one family's code to
another's internals; state objects read directly make many unnecessary.

``python -m tests.bench.count_private_calls [--pairs]`` prints the number of
call sites, of distinct (calling file, method) pairs, and with ``--pairs`` the
pairs by count."""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "driver" / "gl"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def count(root: Path = ROOT) -> tuple[int, Counter]:
    """(call sites, Counter of (file, method) -> sites)."""
    trees = {p.relative_to(root).as_posix(): ast.parse(p.read_text(), str(p))
             for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}
    defined: dict[str, set[str]] = {}
    for path, tree in trees.items():
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for fn in cls.body:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(fn.name):
                    defined.setdefault(path, set()).add(fn.name)
    everywhere = set().union(*defined.values())
    pairs: Counter = Counter()
    for path, tree in trees.items():
        own = defined.get(path, set())
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and _private(node.func.attr)
                    and node.func.attr in everywhere and node.func.attr not in own):
                pairs[(path, node.func.attr)] += 1
    return sum(pairs.values()), pairs


def main(argv: list[str]) -> int:
    sites, pairs = count()
    print(f"private cross-file calls in driver/gl: {sites} call sites, {len(pairs)} (file, method) pairs")
    if "--pairs" in argv:
        for (path, name), n in pairs.most_common():
            print(f"{n:4d}  {path}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
