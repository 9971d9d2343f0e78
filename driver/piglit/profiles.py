"""piglit's installed test profiles (``tests/<name>.xml.gz``) as lists of tests.

piglit ships each profile it can run as an XML list: one ``<Test>`` per test,
with its type, its name (``spec@arb_foo@bar``) and options (``command``, a
Python list literal; ``run_concurrent``; ``require_platforms`` /
``exclude_platforms``). This module reads those lists (pure file work, no GL)
and turns each test into the command piglit itself would run, for a headless
run on ``surfaceless_egl``:

- ``gl`` (C API tests): ``bin/<command> -auto -fbo``. piglit adds ``-fbo`` only
  to tests it runs concurrently; here every test gets it, because the
  surfaceless platform has no window-system framebuffer to fall back to.
- ``gl_builtin`` (built-in constants): the list file argument is under ``tests/``.
- ``shader`` (shader_runner): the file is under the root; ``-auto -fbo``.
- ``glsl_parser``: the command as listed.
- ``asm_parser`` (ARB assembly parser, in the ``glslparser`` list): ``bin/asmparsertest
  TYPE FILE -auto``, from the test's ``type_`` and ``filename`` options.

A test whose ``require_platforms`` lacks ``surfaceless_egl`` but names ``glx``
(piglit's ``glx/`` directory and the GLX tests of other directories) runs on the
``glx`` platform under the X server of the run (``PiglitTest.platform``; the
runner starts Xvfb), with ``-auto`` and, as piglit gives it only to the tests it
runs concurrently, ``-fbo`` only when ``run_concurrent`` says so; so does an
EGL test whose binary opens the X display itself (``opens_x_display``), on
``x11_egl``. A test
whose platforms are none of these (``wgl``), or whose ``exclude_platforms`` names
``surfaceless_egl``, is a skip, without running (as piglit does).

Profiles: every installed ``*.xml.gz`` by its name (``opengl``, ``quick_gl``,
``shader``, ``quick_shader``, ``glslparser``, ``llvmpipe_gl``, ``sanity``, ...)
and ``gpu``, which piglit builds in Python and does not install: the quick
profiles minus the compiler tests (GLSL parser, ARB assembly parser), i.e.
``quick_gl`` + ``quick_shader`` without ``asmparsertest``,
``spec@arb_vertex_program`` and ``spec@arb_fragment_program``.

A test's ``path`` is its piglit name with ``@`` written as ``/``, so reports
group profile tests by directory as they group tier tests.

A list file (``shimgl piglit --list FILE``, ``load_list``) may name profile tests
as well as test files: a report's sample of the ``opengl`` profile is rerun by
one command."""

from __future__ import annotations

import ast
import functools
import gzip
from pathlib import Path
from xml.etree import ElementTree

from .tests import PiglitTest, list_lines, test_for_path_line

__all__ = ["NAME_LOOKUP_ORDER", "PLATFORM", "available_profiles", "load_list", "profile_tests",
           "tests_named"]

PLATFORM = "surfaceless_egl"
#: platforms a test that cannot run surfaceless may run on under the run's X server, by preference
X11_PLATFORMS = ("glx",)
#: where a list file's test names are looked up first (then every other installed list, by name)
NAME_LOOKUP_ORDER = ("opengl", "shader", "glslparser")
#: profiles piglit composes in Python rather than installing: name -> (parts, name prefixes left out)
COMPOSED = {
    "gpu": (("quick_gl", "quick_shader"),
            ("asmparsertest", "spec@arb_vertex_program", "spec@arb_fragment_program")),
}


def _lists_dir(root: Path) -> Path:
    return root / "tests"


def available_profiles(root: Path) -> list[str]:
    """Names of the profiles this piglit install can run (installed lists plus composed ones)."""
    names = sorted(p.name[:-len(".xml.gz")] for p in _lists_dir(root).glob("*.xml.gz"))
    for name, (parts, _) in COMPOSED.items():
        if all(p in names for p in parts):
            names.append(name)
    return sorted(names)


def _options(test: ElementTree.Element) -> dict[str, object]:
    out: dict[str, object] = {}
    for opt in test.findall("option"):
        name, value = opt.get("name"), opt.get("value")
        if name is None or value is None:
            continue
        try:
            out[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[name] = value
    return out


def _platform(opts: dict) -> tuple[str, str]:
    """(platform, skip reason): "" for the run's surfaceless platform, or an
    X11 platform the test requires (``X11_PLATFORMS``); a reason when neither."""
    required = opts.get("require_platforms") or ()
    excluded = opts.get("exclude_platforms") or ()
    if required and PLATFORM not in required:
        for p in X11_PLATFORMS:
            if p in required and p not in excluded:
                return p, ""
        return "", f"needs one of the platforms {', '.join(required)} (this run: {PLATFORM})"
    if PLATFORM in excluded:
        return "", f"excluded on {PLATFORM}"
    return "", ""


@functools.lru_cache(maxsize=None)
def opens_x_display(binary: Path) -> bool:
    """Whether an EGL test binary (named egl*) calls XOpenDisplay itself: piglit's
    EGL tests built on its egl-util open the X display and a window whatever the
    platform (on a surfaceless run they say "couldn't open display"), and take
    no -fbo. Only egl* binaries are read (GLX tests have their platform)."""
    if not binary.name.startswith("egl"):
        return False
    try:
        return b"XOpenDisplay" in binary.read_bytes()
    except OSError:
        return False


def _command(root: Path, kind: str, opts: dict) -> tuple[str, tuple[str, ...]] | None:
    if kind == "asm_parser":
        # ARB assembly parser tests name a program type and a file instead of a command
        kind_, filename = opts.get("type_"), opts.get("filename")
        if not isinstance(kind_, str) or not isinstance(filename, str):
            return None
        return "asmparsertest", (kind_, str(root / filename), "-auto")
    command = opts.get("command")
    if not isinstance(command, (list, tuple)) or not command:
        return None
    binary, args = str(command[0]), [str(a) for a in command[1:]]
    if kind == "gl":
        args = [a for a in args if a not in ("-auto", "-fbo")] + ["-auto", "-fbo"]
    elif kind == "gl_builtin":
        if args:
            args[0] = str(root / "tests" / args[0])
    elif kind == "shader":
        args = [str(root / a) if a.endswith(".shader_test") else a for a in args
                if a not in ("-auto", "-fbo")] + ["-auto", "-fbo"]
    elif kind == "glsl_parser":
        args = [str(root / a) if a.endswith((".vert", ".frag", ".geom", ".tesc", ".tese", ".comp"))
                else a for a in args]
    else:
        return None
    return binary, tuple(args)


def _read(root: Path, name: str) -> list[PiglitTest]:
    path = _lists_dir(root) / f"{name}.xml.gz"
    with gzip.open(path) as f:
        tree = ElementTree.parse(f)
    tests = []
    for t in tree.getroot().iter("Test"):
        kind, test_name = t.get("type", ""), t.get("name", "")
        opts = _options(t)
        cmd = _command(root, kind, opts)
        if cmd is None or not test_name:
            continue
        platform, skip = _platform(opts)
        binary, args = cmd
        if not platform and not skip and kind == "gl" and opens_x_display(root / "bin" / binary):
            platform = "x11_egl"      # an EGL test that opens the X display itself (egl-util tests)
        if platform and kind == "gl" and not opts.get("run_concurrent"):
            args = tuple(a for a in args if a != "-fbo")      # a window, as piglit runs it
        tests.append(PiglitTest(test_name.replace("@", "/"), binary, args, skip=skip, platform=platform))
    return tests


def profile_tests(root: Path, name: str) -> list[PiglitTest]:
    """The tests of profile ``name``, sorted by path (ValueError for an unknown profile)."""
    if name in COMPOSED:
        parts, dropped = COMPOSED[name]
        prefixes = tuple(p.replace("@", "/").lower() for p in dropped)
        tests = [t for part in parts for t in _read(root, part)
                 if not t.path.lower().startswith(prefixes)]
    elif (_lists_dir(root) / f"{name}.xml.gz").exists():
        tests = _read(root, name)
    else:
        raise ValueError(f"no piglit profile {name!r} (available: {', '.join(available_profiles(root))})")
    unique = {t.path: t for t in tests}
    return [unique[p] for p in sorted(unique)]


def _name_key(name: str) -> str:
    """A profile test's name as the runner writes it (``@`` as ``/``); piglit's names are lower case."""
    return name.strip().replace("@", "/").lower()


def tests_named(root: Path, names: list[str]) -> tuple[list[PiglitTest], list[str]]:
    """The profile tests called ``names`` (piglit's ``spec@arb_foo@bar`` or the
    runner's ``spec/arb_foo/bar``), in the order given, and the names found in no
    installed list. Lists are read in ``NAME_LOOKUP_ORDER``, then the other
    installed ones by name, and only until every name is found; a name in two
    lists takes the first list's command."""
    wanted = {_name_key(n) for n in names}
    found: dict[str, PiglitTest] = {}
    installed = [p for p in available_profiles(root) if p not in COMPOSED]
    order = [p for p in NAME_LOOKUP_ORDER if p in installed] + \
            [p for p in installed if p not in NAME_LOOKUP_ORDER]
    for profile in order:
        if wanted <= found.keys():
            break
        for t in _read(root, profile):
            key = t.path.lower()
            if key in wanted and key not in found:
                found[key] = t
    tests = [found[_name_key(n)] for n in names if _name_key(n) in found]
    return tests, [n for n in names if _name_key(n) not in found]


def load_list(root: Path, list_file) -> list[PiglitTest]:
    """The tests of a list file, one a line (``#`` comments): a piglit-root-relative
    test file (``tests/spec/.../x.shader_test``), ``BINARY PATH`` (forces the
    binary), or a profile test's name as piglit's lists and this runner's reports
    write it (``spec@arb_foo@bar`` / ``spec/arb_foo/bar``, spaces included), so a
    sample from a report is rerun by one command. A line that is none of these is
    a ValueError naming it (a misspelt name is not dropped silently); a test named
    twice runs once."""
    lines = list_lines(list_file)
    by_line: dict[str, PiglitTest] = {}
    names = []
    for line in lines:
        t = test_for_path_line(root, line)
        if t is None:
            names.append(line)
        else:
            by_line[line] = t
    if names:
        named, unknown = tests_named(root, names)
        if unknown:
            shown = "; ".join(repr(n) for n in unknown[:5]) + (f" (and {len(unknown) - 5} more)"
                                                               if len(unknown) > 5 else "")
            raise ValueError(f"{Path(list_file).name}: {len(unknown)} line(s) name no test file under {root} "
                             f"and no test of an installed profile: {shown}")
        for line, t in zip(names, named):       # every name found, so one test per name, in order
            by_line[line] = t
    out, seen = [], set()
    for line in lines:
        t = by_line[line]
        if t.path not in seen:
            seen.add(t.path)
            out.append(t)
    return out
