"""Parse piglit's shader_test text format into a `ShaderTest`.

A shader_test file is a list of sections, each opened by a `[name]` line:

    [require]                    one requirement per line (see `Requirement`)
    [vertex shader]              GLSL source; also [fragment shader], [compute shader],
                                 [geometry shader], [tessellation control shader], ...
    [vertex shader passthrough]  no body: a built-in VS passing piglit_vertex through
    [vertex data]                columns `name/type/count`, then one row per vertex
    [test]                       one command per line, run in order

Parsing is pure text work: no GL. Unknown sections are kept (`Section.kind`
is the bracket text) so the executor, not the parser, decides what is
unsupported. Line numbers are 1-based file lines, for messages."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = [
    "Command", "Requirement", "Section", "ShaderTest", "Version",
    "parse", "parse_file", "parse_floats", "parse_ints", "parse_uints",
    "SHADER_STAGES",
]

# section name -> GL shader stage enum name (the executor maps names to enums)
SHADER_STAGES = {
    "vertex shader": "GL_VERTEX_SHADER",
    "fragment shader": "GL_FRAGMENT_SHADER",
    "compute shader": "GL_COMPUTE_SHADER",
    "geometry shader": "GL_GEOMETRY_SHADER",
    "tessellation control shader": "GL_TESS_CONTROL_SHADER",
    "tessellation evaluation shader": "GL_TESS_EVALUATION_SHADER",
}


@dataclass(frozen=True)
class Version:
    """A GL (num = 10*major+minor) or GLSL (num = 100*major+minor) version."""
    num: int
    es: bool = False
    core: bool = False
    compat: bool = False

    def __str__(self) -> str:
        return str(self.num)


@dataclass(frozen=True)
class Requirement:
    """One [require] line. `kind` is one of:
    'gl' / 'glsl' (op, version), 'extension' (name, negate), 'limit'
    (name = GL enum name, op, value), 'size' (value = (w, h)), 'depthbuffer',
    'sso', 'separable', 'spirv', 'rlimit', 'ignore_missing_uniforms', 'other'."""
    kind: str
    line: int
    text: str
    op: str = ">="
    version: Version | None = None
    name: str = ""
    negate: bool = False
    value: object = None


@dataclass(frozen=True)
class Section:
    kind: str          # text between the brackets, e.g. "vertex shader"
    line: int          # line of the [header]
    body: str          # raw text up to the next section


@dataclass(frozen=True)
class Command:
    line: int
    text: str          # stripped command text, comments removed


@dataclass
class ShaderTest:
    """A parsed shader_test file."""
    path: str
    requirements: list[Requirement] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)

    @property
    def gl_version(self) -> Version | None:
        for r in self.requirements:
            if r.kind == "gl" and r.op in (">=", ">", "=="):
                return r.version
        return None

    @property
    def glsl_version(self) -> Version | None:
        for r in self.requirements:
            if r.kind == "glsl" and r.op == ">=":
                return r.version
        return None

    @property
    def size(self) -> tuple[int, int]:
        for r in self.requirements:
            if r.kind == "size":
                return r.value
        return (250, 250)

    @property
    def shaders(self) -> list[Section]:
        return [s for s in self.sections if s.kind in SHADER_STAGES
                or s.kind == "vertex shader passthrough"]

    def section(self, kind: str) -> Section | None:
        for s in self.sections:
            if s.kind == kind:
                return s
        return None


_OPS = ("<=", ">=", "==", "!=", "<", ">", "=")
_VERSION_RE = re.compile(
    r"^(?P<what>GLSL|GL)\s+(?P<profile>(?:ES|CORE|COMPAT)\s*)?(?P<op><=|>=|==|!=|<|>|=)\s*"
    r"(?P<major>\d+)\.(?P<minor>\d+)\s*$")


def _parse_requirement(text: str, line: int) -> Requirement:
    m = _VERSION_RE.match(text)
    if m:
        profile = (m.group("profile") or "").strip()
        glsl = m.group("what") == "GLSL"
        major, minor = int(m.group("major")), int(m.group("minor"))
        num = major * 100 + minor if glsl else major * 10 + minor
        op = "==" if m.group("op") == "=" else m.group("op")
        v = Version(num, es=profile == "ES", core=profile == "CORE", compat=profile == "COMPAT")
        return Requirement("glsl" if glsl else "gl", line, text, op=op, version=v)
    words = text.split()
    if text.startswith("INT "):
        words = words[1:]
        text = " ".join(words)
    if words and words[0].startswith(("GL_MAX_", "GL_NUM_")) and len(words) >= 3 and words[1] in _OPS:
        return Requirement("limit", line, text, op=words[1], name=words[0], value=int(words[2], 0))
    if words and (words[0].startswith("GL_") or words[0].startswith("!GL_")):
        neg = words[0].startswith("!")
        return Requirement("extension", line, text, name=words[0].lstrip("!"), negate=neg)
    if words and words[0] == "SIZE" and len(words) >= 3:
        return Requirement("size", line, text, value=(int(words[1]), int(words[2])))
    simple = {"depthbuffer": "depthbuffer", "rlimit": "rlimit", "SPIRV": "spirv",
              "ignore_missing_uniforms": "ignore_missing_uniforms"}
    if words and words[0] in simple:
        return Requirement(simple[words[0]], line, text, value=" ".join(words[1:]))
    if text.startswith("SSO"):
        return Requirement("sso", line, text)
    if text.startswith("SEPARABLE PROGRAM"):
        return Requirement("separable", line, text)
    return Requirement("other", line, text)


def _strip_comment(line: str) -> str:
    i = line.find("#")
    return (line if i < 0 else line[:i]).strip()


def parse(text: str, path: str = "<string>") -> ShaderTest:
    """Parse shader_test text. Raises ValueError (with the line) on a malformed file."""
    test = ShaderTest(path)
    lines = text.splitlines(keepends=True)
    headers: list[tuple[int, str]] = []
    for i, raw in enumerate(lines):
        if raw.startswith("["):
            end = raw.find("]")
            if end < 0:
                raise ValueError(f"{path}:{i + 1}: unterminated section header {raw.strip()!r}")
            headers.append((i, raw[1:end].strip()))
    if not any(kind == "require" for _, kind in headers):
        raise ValueError(f"{path}: [require] section missing")
    for n, (i, kind) in enumerate(headers):
        stop = headers[n + 1][0] if n + 1 < len(headers) else len(lines)
        body = "".join(lines[i + 1:stop])
        test.sections.append(Section(kind, i + 1, body))
        if kind == "require":
            for j in range(i + 1, stop):
                t = _strip_comment(lines[j])
                if t:
                    test.requirements.append(_parse_requirement(t, j + 1))
        elif kind == "test":
            for j in range(i + 1, stop):
                t = lines[j].strip()
                if t and not t.startswith("#"):
                    test.commands.append(Command(j + 1, _strip_comment(t) if " #" in t else t))
    return test


def parse_file(path) -> ShaderTest:
    return parse(Path(path).read_text(encoding="utf-8", errors="replace"), str(path))


# -- numbers, as piglit's parser reads them ---------------------------------------

_NUM = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|(?:inf(?:inity)?|nan)|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)",
                  re.IGNORECASE)


def _tokens(text: str) -> list[str]:
    return _NUM.findall(text.replace(",", " ").replace("(", " ").replace(")", " "))


def parse_floats(text: str, n: int | None = None) -> list[float]:
    """Floats separated by spaces/commas/parentheses. `0x...` is an exact bit
    pattern (reinterpreted as a 32-bit float), as piglit's parser does."""
    out = []
    for tok in _tokens(text):
        t = tok.lstrip("+")
        if t.lower().startswith(("0x", "-0x")):
            bits = int(t, 16) & 0xFFFFFFFF
            out.append(struct.unpack("=f", struct.pack("=I", bits))[0])
        else:
            out.append(_to_f32(float(t)))
        if n is not None and len(out) == n:
            break
    return out


def _to_f32(v: float) -> float:
    """The float32 that C's double -> float conversion gives (round to nearest; beyond
    the largest float by more than half a step: +-inf)."""
    with np.errstate(over="ignore"):
        return float(np.float32(v))


def parse_ints(text: str, n: int | None = None) -> list[int]:
    """Integers (decimal, 0x hex, leading-0 octal as C's strtol base 0), wrapped to int32."""
    out = []
    for tok in _tokens(text):
        v = _c_int(tok)
        v = (v + 2**31) % 2**32 - 2**31
        out.append(v)
        if n is not None and len(out) == n:
            break
    return out


def parse_uints(text: str, n: int | None = None) -> list[int]:
    """Unsigned integers (C strtoul base 0; negative values wrap), as uint32."""
    out = [_c_int(t) % 2**32 for t in _tokens(text)]
    return out[:n] if n is not None else out


def _c_int(tok: str) -> int:
    t = tok.lower()
    neg = t.startswith("-")
    t = t.lstrip("+-")
    if t.startswith("0x"):
        v = int(t, 16)
    elif "." in t or "e" in t:
        v = int(float(t))
    elif len(t) > 1 and t.startswith("0"):
        v = int(t, 8)
    else:
        v = int(t)
    return -v if neg else v
