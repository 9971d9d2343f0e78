"""Which piglit tests make up a tier, and how each one is run (pure file work; no GL).

Paths are relative to the piglit install root (the directory holding `bin/`,
`tests/` and `generated_tests/`), the convention of piglit's own lists.

Tiers:
  1  GLSL 1.10, 1.20 and ES 1.00 execution tests
  2  GLSL 1.30 to 3.30 and ES 3.00 execution tests
  3  compute, storage buffers and images: arb_compute_shader,
     arb_shader_storage_buffer_object, arb_shader_image_load_store, glsl-4.30
     and glsl-es-3.10 execution tests
  4  compiler tests: glslparsertest over the `compiler` directories
each over `tests/spec/<dir>` and its `generated_tests/spec/<dir>` counterpart.
Every tier leaves out tests of geometry/tessellation stages, fp64/int64 or an
rlimit (see `out_of_scope`; the piglit research notes put them in a separate,
out-of-scope list; shimgl has none of these), unless asked for all.

The binary for a shader_test follows piglit's rule (framework/test/shader_test.py,
re-implemented): a GL ES requirement below 3.0 -> shader_runner_gles2, GL ES
3.x or GLSL ES >= 3.00 -> shader_runner_gles3, otherwise shader_runner. A
glslparsertest file's `[config]` block gives `expect_result`, `glsl_version`
and `require_extensions`; ES versions go to glslparsertest_gles2."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TIERS", "PiglitTest", "command_for", "find_piglit", "list_lines", "out_of_scope", "sample", "shard",
           "test_for_path_line", "tier_tests"]

PIGLIT_DIRS = ("/usr/lib/x86_64-linux-gnu/piglit", "/usr/lib/piglit", "/usr/local/lib/piglit",
               "/usr/share/piglit")

TIERS = {
    1: {"dirs": ("glsl-1.10/execution", "glsl-1.20/execution", "glsl-es-1.00/execution"), "kind": "shader"},
    2: {"dirs": ("glsl-1.30/execution", "glsl-1.40/execution", "glsl-1.50/execution", "glsl-3.30/execution",
                 "glsl-es-3.00/execution"), "kind": "shader"},
    3: {"dirs": ("arb_compute_shader/execution", "arb_shader_storage_buffer_object/execution",
                 "arb_shader_image_load_store/execution", "glsl-4.30/execution", "glsl-es-3.10/execution"),
        "kind": "shader"},
    4: {"dirs": ("glsl-1.10/compiler", "glsl-1.20/compiler", "glsl-1.30/compiler", "glsl-1.40/compiler",
                 "glsl-1.50/compiler", "glsl-3.30/compiler", "glsl-4.00/compiler", "glsl-4.20/compiler",
                 "glsl-4.30/compiler", "glsl-es-1.00/compiler", "glsl-es-3.00/compiler",
                 "glsl-es-3.10/compiler"), "kind": "parser"},
}

PARSER_SUFFIXES = (".vert", ".frag", ".geom", ".tesc", ".tese", ".comp")


@dataclass(frozen=True)
class PiglitTest:
    """One test: `path` relative to the piglit root (profile tests: the piglit
    name with `@` as `/`); `argv` without the root-relative bin prefix; `skip`:
    why it is a skip without running (a platform it does not run on), or "";
    `platform`: the window-system platform it must run on under the run's X
    server (``glx``: piglit's GLX tests), or "" for the run's surfaceless one."""
    path: str
    binary: str
    args: tuple[str, ...]
    skip: str = ""
    platform: str = ""

    @property
    def group(self) -> str:
        """The directory a test is summarised under (at most 4 path components)."""
        parts = Path(self.path).parent.parts
        return "/".join(parts[:4])


def find_piglit(explicit: str | None = None) -> Path | None:
    """The piglit install root: `explicit`, $PIGLIT_DIR, or a Debian/usual location."""
    for cand in (explicit, os.environ.get("PIGLIT_DIR"), *PIGLIT_DIRS):
        if cand and (Path(cand) / "bin").is_dir() and (Path(cand) / "tests").is_dir():
            return Path(cand)
    return None


_GL_RE = re.compile(r"^GL\s+(ES\s*)?(<|<=|=|==|>=|>)\s*(\d+)\.(\d+)")
_GLSL_RE = re.compile(r"^GLSL\s+(ES\s*)?(<|<=|=|==|>=|>)\s*(\d+)\.(\d+)")


def shader_runner_for(text: str) -> str:
    """The shader_runner binary piglit would use for this shader_test text."""
    es = False
    gl_ver = None
    in_req = False
    for line in text.splitlines():
        if line.startswith("["):
            if in_req:
                break
            in_req = line.startswith("[require]")
            continue
        if not in_req:
            continue
        s = line.strip()
        m = _GL_RE.match(s)
        if m and gl_ver is None:
            gl_ver = (int(m.group(3)), int(m.group(4)), m.group(2))
            es = es or bool(m.group(1))
            continue
        m = _GLSL_RE.match(s)
        if m and m.group(1):
            es = True
            if gl_ver is None and int(m.group(3)) >= 3:
                gl_ver = (3, 0, ">=")
    if not es:
        return "shader_runner"
    if gl_ver is None or gl_ver[2] in ("<", "<=") or gl_ver[0] < 3:
        return "shader_runner_gles2"
    return "shader_runner_gles3"


_CFG_KEY = re.compile(r"^\s*(?://|/\*|\*)?\s*([a-z_]+)\s*:\s*(.*?)\s*(?:\*/)?\s*$")


def parser_config(text: str) -> dict[str, str] | None:
    """The `[config]` block of a glslparsertest file, or None when it has none."""
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if re.match(r"\s*(//|/\*|\*)\s*\[config\]", ln)), None)
    if start is None:
        return None
    cfg: dict[str, str] = {"require_extensions": "", "check_link": "false"}
    for ln in lines[start + 1:]:
        if re.match(r"\s*(//|/\*|\*)\s*\[end config\]", ln):
            return cfg
        m = _CFG_KEY.match(ln)
        if m:
            cfg[m.group(1)] = m.group(2)
    return None


def _is_es_glsl(version: str) -> bool:
    v = version.strip()
    return v.endswith("es") or v in ("1.00", "3.00", "3.10", "3.20")


def command_for(root: Path, rel: str) -> PiglitTest | None:
    """The command for one root-relative test path (None if it is not runnable)."""
    path = root / rel
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if rel.endswith(".shader_test"):
        return PiglitTest(rel, shader_runner_for(text), (str(path), "-auto", "-fbo"))
    if rel.endswith(PARSER_SUFFIXES):
        cfg = parser_config(text)
        if cfg is None or "expect_result" not in cfg or "glsl_version" not in cfg:
            return None
        binary = "glslparsertest_gles2" if _is_es_glsl(cfg["glsl_version"]) else "glslparsertest"
        args = [str(path), cfg["expect_result"], cfg["glsl_version"]]
        if cfg.get("check_link", "false").lower() == "true":
            args.append("--check-link")
        args += cfg["require_extensions"].split()
        return PiglitTest(rel, binary, tuple(args))
    return None


_FP64_INT64 = re.compile(r"\b(double|dvec[234]|dmat[234](x[234])?|u?int64_t|[iu]64vec[234])\b"
                        r"|GL_ARB_gpu_shader_(fp64|int64)|GL_AMD_gpu_shader_int64")
_OTHER_STAGES = re.compile(r"^\[(geometry shader|geometry layout|tessellation)", re.M)


def out_of_scope(text: str) -> str | None:
    """Why a shader_test is outside what tiers 1-3 measure (None if it is inside):
    geometry/tessellation stages, fp64/int64 types, or an address-space rlimit
    (a Python process does not fit in the 256 MB those set). shimgl has none of
    these, so such tests would only count as skips; `--all` keeps them."""
    if _OTHER_STAGES.search(text):
        return "geometry/tessellation stage"
    if _FP64_INT64.search(re.sub(r"//.*", "", text)):
        return "fp64/int64"
    if re.search(r"^rlimit\b", text, re.M):
        return "rlimit"
    return None


def tier_tests(root: Path, tier: int, include_all: bool = False) -> list[PiglitTest]:
    """A tier's tests, sorted by path; shader tiers leave out `out_of_scope` files unless `include_all`."""
    spec = TIERS[tier]
    suffixes = (".shader_test",) if spec["kind"] == "shader" else PARSER_SUFFIXES
    rels: list[str] = []
    for top in ("tests", "generated_tests"):
        for d in spec["dirs"]:
            base = root / top / "spec" / d
            if base.is_dir():
                rels += [p.relative_to(root).as_posix() for p in base.rglob("*") if p.name.endswith(suffixes)]
    rels = sorted(set(rels))
    if not include_all:
        rels = [r for r in rels if not r.endswith((".geom", ".tesc", ".tese"))
                and out_of_scope((root / r).read_text(encoding="utf-8", errors="replace")) is None]
    tests = [command_for(root, r) for r in rels]
    return [t for t in tests if t is not None]


def list_lines(list_file) -> list[str]:
    """The entries of a list file: one per line, `#` starts a comment, blank lines skipped."""
    lines = (line.split("#")[0].strip() for line in Path(list_file).read_text().splitlines())
    return [line for line in lines if line]


def test_for_path_line(root: Path, line: str) -> PiglitTest | None:
    """The test a list line names by file: a root-relative test path, or
    `BINARY PATH` (forces the binary). None when the line is not a runnable file
    under the root (it may be a profile test's name: `profiles.load_list`)."""
    words = line.split()
    if len(words) == 2 and not words[0].endswith((".shader_test",) + PARSER_SUFFIXES):
        t = command_for(root, words[1])
        return None if t is None else PiglitTest(t.path, words[0], t.args)
    return command_for(root, line)


def sample(tests: list[PiglitTest], n: int | None) -> list[PiglitTest]:
    """A reproducible subset: the entries at indices floor(k * len / n) of the sorted list."""
    if not n or n >= len(tests):
        return tests
    tests = sorted(tests, key=lambda t: t.path)
    return [tests[(k * len(tests)) // n] for k in range(n)]


def shard(tests: list[PiglitTest], index: int, count: int) -> list[PiglitTest]:
    """Shard ``index`` (1-based) of ``count``: every count-th test of the list
    sorted by path, starting at the index-th, as Mesa CI splits a suite across
    machines. Deterministic; the shards are disjoint and together the whole list."""
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"shard {index}/{count}: need 1 <= I <= N")
    ordered = sorted(tests, key=lambda t: t.path)
    return ordered[index - 1::count]
