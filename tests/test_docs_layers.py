"""docs/ describes the layers: every root package of the import-linter contracts
has its row in docs/architecture.md's package table, and every module a
``layers`` contract of pyproject.toml names is named in docs/architecture.md
(as ``a.b``, ``a/b``, ``a/b.py``, ``a/b/`` or `` `b` ``). The contracts are the
machine-checked layering; this keeps the prose from falling behind them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _contracts() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def undescribed(doc: str, config: dict) -> list[str]:
    """The packages and layer modules of ``config`` that ``doc`` does not name."""
    missing = [p for p in config["root_packages"] if f"| `{p}` |" not in doc]
    for contract in config["contracts"]:
        if contract["type"] != "layers":
            continue
        for container in contract["containers"]:
            for layer in contract["layers"]:
                for name in filter(None, (n.strip() for n in re.split(r"[|:]", layer))):
                    dotted = f"{container}.{name}"
                    path = dotted.replace(".", "/")
                    if not any(s in doc for s in (dotted, f"{path}.py", f"{path}/", f"`{name}`")):
                        missing.append(dotted)
    return missing


def test_every_layer_of_the_contracts_is_described():
    doc = (ROOT / "docs" / "architecture.md").read_text()
    assert undescribed(doc, _contracts()) == []


def test_a_new_layer_without_prose_is_caught():
    config = _contracts()
    layered = next(c for c in config["contracts"] if c["type"] == "layers")
    layered["layers"] = [*layered["layers"], "brand_new_layer | another_one"]
    config["root_packages"] = [*config["root_packages"], "newpkg"]
    doc = (ROOT / "docs" / "architecture.md").read_text()
    container = layered["containers"][0]
    assert undescribed(doc, config) == ["newpkg", f"{container}.brand_new_layer", f"{container}.another_one"]
