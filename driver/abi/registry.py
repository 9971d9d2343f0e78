"""Read the Khronos XML registry (gl.xml, egl.xml) at build time.

Used only by driver/abi/build.py while the package is installed: nothing parses
XML at run time. Standard library only (the build runs in an isolated
environment where neither numpy nor the rest of shimgl is importable).

The registry copy comes from the glad2 package (a build requirement in
pyproject.toml, which bundles gl.xml and egl.xml), or a directory named by
SHIMGL_KHRONOS_XML holding gl.xml and egl.xml."""

from __future__ import annotations

import importlib.util
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Command", "Param", "command_apis", "find_registry", "read_commands"]


@dataclass(frozen=True)
class Param:
    c_type: str      # the C type, e.g. "const GLfloat *"
    name: str
    length: str      # the registry's len attribute ("" when absent)

    @property
    def decl(self) -> str:
        return f"{self.c_type} {self.name}"


@dataclass(frozen=True)
class Command:
    name: str
    ret: str                 # the C return type
    params: tuple[Param, ...]
    family: str              # "gl" or "egl"

    def c_params(self) -> str:
        return ", ".join(p.decl for p in self.params) or "void"


def find_registry() -> Path:
    """The directory holding gl.xml and egl.xml; raises FileNotFoundError with
    what to install when there is none."""
    env = os.environ.get("SHIMGL_KHRONOS_XML")
    candidates = [Path(env)] if env else []
    spec = importlib.util.find_spec("glad")     # glad2 (no import of glad itself)
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) / "files" for p in spec.submodule_search_locations]
    for c in candidates:
        if (c / "gl.xml").is_file() and (c / "egl.xml").is_file():
            return c
    raise FileNotFoundError(
        "no Khronos XML registry: install the glad2 package (pip install glad2; it is a "
        "build requirement of shimgl) or set SHIMGL_KHRONOS_XML to a directory with "
        "gl.xml and egl.xml")


def _c_text(elem, skip_name: bool) -> tuple[str, str]:
    """(C type, name) of a <proto> or <param> element."""
    name = elem.find("name").text
    parts = [elem.text or ""]
    for child in elem:
        if child.tag == "name":
            parts.append(child.tail or "")
            continue
        parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    c_type = " ".join("".join(parts).split())
    c_type = c_type.replace(" *", "*").replace("*", " *").replace("* ", "*").strip()
    c_type = " ".join(c_type.split())
    return c_type, name


def read_commands(registry_dir: Path) -> list[Command]:
    """Every command of gl.xml and egl.xml, sorted by name."""
    commands: dict[str, Command] = {}
    for family in ("gl", "egl"):
        root = ET.parse(registry_dir / f"{family}.xml").getroot()
        for cmd in root.findall("commands/command"):
            ret, name = _c_text(cmd.find("proto"), True)
            params = []
            for p in cmd.findall("param"):
                c_type, pname = _c_text(p, False)
                params.append(Param(c_type, pname, p.get("len", "")))
            commands[name] = Command(name, ret, tuple(params), family)
    return [commands[n] for n in sorted(commands)]


def command_apis(registry_dir: Path) -> dict[str, set[str]]:
    """GL command name -> the APIs that have it, of "gl" (desktop OpenGL, any
    profile) and "gles2" (OpenGL ES 2.0 and later): from the <feature> and
    <extension> elements requiring it. Commands of neither (ES 1.x, SC) are
    absent."""
    root = ET.parse(registry_dir / "gl.xml").getroot()
    apis: dict[str, set[str]] = {}

    def add(elem, api_names) -> None:
        for req in elem.findall("require"):
            wanted = {a for a in (req.get("api") or "").split("|") if a}
            for api in api_names:
                if wanted and api not in wanted:
                    continue
                for cmd in req.findall("command"):
                    apis.setdefault(cmd.get("name"), set()).add(api)

    for feature in root.findall("feature"):
        api = {"gl": "gl", "gles2": "gles2"}.get(feature.get("api"))
        if api is not None:
            add(feature, [api])
    for ext in root.findall("extensions/extension"):
        supported = set(ext.get("supported", "").split("|"))
        names = (["gl"] if supported & {"gl", "glcore"} else []) + \
                (["gles2"] if "gles2" in supported else [])
        add(ext, names)
    return apis
