"""The repository explains itself: no file refers to a path outside it (a
design note, a shared folder, a seed corpus, a benchmark script that lives
elsewhere) nor to the project's issue tracker by number. What a reader needs
is written in the repository (docs/), in our own words. A specification's own
issues ("ARB_separate_shader_objects issue 28", "the extension's issue 8") are
references to public text and stay."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".git", ".venv", "build", "__pycache__", ".pytest_cache", ".grimp_cache", ".hypothesis",
             "shimgl.egg-info", "piglit-results"}
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".cfg", ".ini", ".c", ".h", ".sh", ".json", ".html", ".glsl",
                 ".vert", ".frag", ".geom", ".comp", ".tesc", ".tese", ".shader_test", ".yml", ".yaml", ""}

# (what, pattern): each a reference to something outside the repository, wherever it
# is checked out (those that depend on where: _beside)
OUTSIDE = [
    ("a path above the repository", re.compile(r"\.\./\.\./[A-Za-z]")),
    ("a seed corpus outside the repository", re.compile(r"(?<![\w/])seeds/")),
    ("the design notes outside the repository", re.compile(r"\b(?:DESIGN|STYLE)\.md\b")),
    ("the project's issue tracker", re.compile(r"\bissue #?\d+|(?<![\w&])#1[5-9]\b|(?<![\w&])#2[0-2]\b")),
]
# a line naming a specification may cite that specification's issues
SPEC_ISSUE = re.compile(r"\b(?:GL|GLX|EGL|WGL)?_?(?:ARB|EXT|KHR|OES|NV|AMD|ANGLE|INTEL|MESA|APPLE|ATI)_\w+"
                        r"|extension's issue|spec(?:ification)?'s issue")


@lru_cache(maxsize=None)
def _beside(root: Path) -> tuple:
    """The references that depend on where the repository is checked out, derived
    from it: a folder next to the checkout (``../NAME``, or its absolute path) and the
    checkout's own absolute path. Folders next to a checkout at the file system's
    top are the system's and named freely; so are hidden ones as absolute paths
    (``/tmp/.X11-unix`` beside a clone in /tmp)."""
    parent = root.parent
    try:
        siblings = sorted(p.name for p in parent.iterdir() if p.is_dir() and p != root)
    except OSError:
        siblings = []
    found = []
    if siblings:
        names = "|".join(re.escape(name) for name in siblings)
        found.append(("a folder next to the repository", re.compile(rf"\.\./(?:{names})(?![\w.-])")))
    absolute = [re.escape(str(root))]
    if parent != Path(parent.anchor):
        absolute += [re.escape(str(parent / name)) for name in siblings if not name.startswith(".")]
    found.append(("an absolute path of the checkout or beside it",
                  re.compile(rf"(?<![\w.])(?:{'|'.join(absolute)})(?![\w.-])")))
    return tuple(found)


def _text_files():
    """The repository's text files: git's tracked files in a checkout (built and
    generated files are not the repository's), else every file of the tree."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        listed = None
    if listed:
        for name in listed.decode().split("\0"):
            path = ROOT / name
            if name and path.is_file() and (path.suffix in TEXT_SUFFIXES or path.name == "Makefile"):
                yield path
        return
    ignored = []            # (folder, pattern) of every .gitignore: generated files are not the repository's
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
        if ".gitignore" in filenames:
            for line in Path(dirpath, ".gitignore").read_text().splitlines():
                if line.strip() and not line.startswith("#"):
                    ignored.append((Path(dirpath), line.strip().rstrip("/")))
        for name in filenames:
            path = Path(dirpath, name)
            if (path.suffix in TEXT_SUFFIXES or name == "Makefile") and not _ignored(path, ignored):
                yield path


def _ignored(path: Path, ignored) -> bool:
    """Whether a .gitignore line matches ``path`` (git's simple forms: a name or
    glob anywhere below the file's folder, or '/name' anchored to it)."""
    for folder, pattern in ignored:
        if folder not in path.parents:
            continue
        rel = path.relative_to(folder).as_posix()
        if pattern.startswith("/"):
            if fnmatch.fnmatch(rel, pattern[1:]) or rel.startswith(pattern[1:] + "/"):
                return True
        elif any(fnmatch.fnmatch(part, pattern) for part in rel.split("/")):
            return True
    return False


def references_outside(path: Path) -> list[str]:
    """The lines of ``path`` that refer outside the repository, as 'path:line: what'."""
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in (*OUTSIDE, *_beside(ROOT)):
            if pattern.search(line) and not (what == "the project's issue tracker" and SPEC_ISSUE.search(line)):
                found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {line.strip()[:100]}")
    return found


def test_no_file_refers_outside_the_repository():
    this = Path(__file__).resolve()
    found = [ref for path in _text_files() if path.resolve() != this for ref in references_outside(path)]
    assert found == [], "\n".join(found)


def test_generated_files_are_not_read_outside_a_checkout(tmp_path, monkeypatch):
    """In an exported tree (no git), what a .gitignore names (the C ABI's vendor
    file with its absolute library path) is a build product, not the repository's."""
    monkeypatch.setattr("tests.test_self_contained.ROOT", tmp_path)
    (tmp_path / "abi").mkdir()
    (tmp_path / "abi" / ".gitignore").write_text("/vendor.json\n*.so\n")
    (tmp_path / "abi" / "vendor.json").write_text(f'{{"library_path": "{tmp_path}/abi/lib.so"}}\n')
    (tmp_path / "abi" / "notes.md").write_text(f"see {tmp_path}\n")
    files = {p.relative_to(tmp_path).as_posix() for p in _text_files()}
    assert "abi/vendor.json" not in files and "abi/notes.md" in files


def test_each_kind_of_outside_reference_is_caught(tmp_path, monkeypatch):
    root, beside = tmp_path / "repo", tmp_path / "notes-beside"      # a checkout and a folder next to it
    root.mkdir()
    beside.mkdir()
    monkeypatch.setattr("tests.test_self_contained.ROOT", root)
    lines = ["see ../notes-beside/bench/glbench.py", f"open('{beside}/x')", "corpus: seeds/frag",
             "the rules of DESIGN.md", "fixed for issue 18", "(#18)",
             "ARB_separate_shader_objects issue 28 says so", "random seeds 300 to 319", f"a{beside}/b"]
    (root / "f.md").write_text("\n".join(lines) + "\n")
    found = references_outside(root / "f.md")
    assert [ref.split(":")[1] for ref in found] == ["1", "2", "3", "4", "5", "6"], found
