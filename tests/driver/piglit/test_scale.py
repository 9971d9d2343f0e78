"""shimgl piglit at scale: profiles read from piglit's XML lists, runs without
process isolation (and their resume after a test ends the process), shards and
their merge. A fake piglit tree (XML lists and small Python scripts standing in
for the binaries) checks the machinery against hand-written expectations; the
real piglit, when installed, checks that the installed lists are read."""

from __future__ import annotations

import gzip
import json
import os
import stat
import sys
import textwrap
from pathlib import Path

import pytest

from driver.piglit import find_piglit
from driver.piglit.profiles import available_profiles, profile_tests
from driver.piglit.report import merge_results, write_results
from driver.piglit.runner import Outcome, batches, run_batch, run_tests
from driver.piglit.tests import PiglitTest, shard

REAL = find_piglit()

# A stand-in for shader_runner: each file says what its test does (pass, fail,
# skip, crash, hang, fatal). With several files and -report-subtests it follows
# the no-isolation protocol; one file: a plain result line.
FAKE_RUNNER = textwrap.dedent("""\
    #!{python}
    import os, sys, time
    files = [a for a in sys.argv[1:] if not a.startswith("-")]
    multi = "-report-subtests" in sys.argv
    open(os.environ["FAKE_LOG"], "a").write(" ".join(os.path.basename(f) for f in files) + "\\n")
    for i, f in enumerate(files, 1):
        name = os.path.basename(f).rsplit(".", 1)[0]
        what = open(f).read().strip()
        if multi:
            print(f"PIGLIT TEST: {{i}} - {{name}}", flush=True)
        if what == "crash":
            os.abort()
        if what == "hang":
            time.sleep(60)
        if what == "skip":
            print('PIGLIT: {{"result": "skip" }}', flush=True); sys.exit(0)
        if what == "fatal":
            print("could not read file", flush=True); print('PIGLIT: {{"result": "fail" }}', flush=True)
            sys.exit(1)
        if multi:
            print(f'PIGLIT: {{{{"subtest": {{{{"{{name}}" : "{{what}}"}}}}}}}}', flush=True)
        else:
            print(f'PIGLIT: {{{{"result": "{{what}}" }}}}', flush=True)
            sys.exit(0 if what == "pass" else 1)
    if multi:
        print('PIGLIT: {{"result": "pass" }}')
    """)

FAKE_GL_TEST = textwrap.dedent("""\
    #!{python}
    import sys
    print("args", " ".join(sys.argv[1:]))
    print('PIGLIT: {{"result": "%s" }}' % ("pass" if "-fbo" in sys.argv and "-auto" in sys.argv else "fail"))
    """)


def _exe(path: Path, text: str) -> None:
    path.write_text(text.format(python=sys.executable))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _xml(tests: list[str]) -> bytes:
    body = "".join(tests)
    return (f"<?xml version='1.0' encoding='utf-8'?>\n<PiglitTestList count=\"{len(tests)}\" name=\"x\">"
            f"{body}</PiglitTestList>").encode()


def _gl(name, command, concurrent=True, require=None, exclude=None):
    opts = f'<option name="command" value="{command!r}" />' \
           f'<option name="run_concurrent" value="{concurrent}" />'
    if require:
        opts += f'<option name="require_platforms" value="{require!r}" />'
    if exclude:
        opts += f'<option name="exclude_platforms" value="{exclude!r}" />'
    return f'<Test type="gl" name="{name}">{opts}</Test>'


def _shader(name, file):
    return (f'<Test type="shader" name="{name}"><option name="command" value="{["shader_runner", file]!r}" />'
            f'<option name="run_concurrent" value="True" /></Test>')


@pytest.fixture
def fake_piglit(tmp_path, monkeypatch):
    root = tmp_path / "piglit"
    (root / "bin").mkdir(parents=True)
    (root / "tests" / "spec" / "d").mkdir(parents=True)
    _exe(root / "bin" / "shader_runner", FAKE_RUNNER)
    _exe(root / "bin" / "api-test", FAKE_GL_TEST)
    for kind in ("pass", "fail", "skip", "crash", "hang", "fatal"):
        for k in range(2):
            (root / "tests" / "spec" / "d" / f"{kind}{k}.shader_test").write_text(kind)
    lists = {
        "quick_gl": [_gl("spec@api@one", ["api-test", "x"]),
                     _gl("spec@api@wgl-only", ["api-test"], require=["wgl"]),
                     _gl("spec@api@not-here", ["api-test"], exclude=["surfaceless_egl"]),
                     _gl("asmparsertest@a", ["api-test"]),
                     _gl("spec@api@serial", ["api-test"], concurrent=False)],
        "quick_shader": [_shader("spec@d@pass0", "tests/spec/d/pass0.shader_test"),
                         _shader("spec@arb_vertex_program@x", "tests/spec/d/pass1.shader_test")],
    }
    for name, tests in lists.items():
        (root / "tests" / f"{name}.xml.gz").write_bytes(gzip.compress(_xml(tests)))
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "processes.log"))
    return root


def _processes(root: Path) -> list[list[str]]:
    log = Path(os.environ["FAKE_LOG"])
    return [line.split() for line in log.read_text().splitlines()] if log.exists() else []


def test_profiles_are_read_from_the_installed_lists(fake_piglit):
    assert available_profiles(fake_piglit) == ["gpu", "quick_gl", "quick_shader"]
    tests = {t.path: t for t in profile_tests(fake_piglit, "quick_gl")}
    one = tests["spec/api/one"]
    assert (one.binary, one.args, one.skip) == ("api-test", ("x", "-auto", "-fbo"), "")
    assert tests["spec/api/serial"].args == ("-auto", "-fbo")      # headless: -fbo even when serial
    assert "wgl" in tests["spec/api/wgl-only"].skip        # (GLX tests run under Xvfb: test_glx_platform.py)
    assert "excluded" in tests["spec/api/not-here"].skip
    shader = {t.path: t for t in profile_tests(fake_piglit, "quick_shader")}["spec/d/pass0"]
    assert shader.args == (str(fake_piglit / "tests/spec/d/pass0.shader_test"), "-auto", "-fbo")
    gpu = [t.path for t in profile_tests(fake_piglit, "gpu")]    # without the compiler tests
    assert gpu == sorted(["spec/api/one", "spec/api/wgl-only", "spec/api/not-here", "spec/api/serial",
                          "spec/d/pass0"])
    with pytest.raises(ValueError, match="no piglit profile 'nope'"):
        profile_tests(fake_piglit, "nope")


def test_a_profile_run_skips_other_platforms_without_running(fake_piglit):
    tests = profile_tests(fake_piglit, "quick_gl")
    out = {o.path: o for o in run_tests(fake_piglit, tests, "fake", jobs=2, progress=False, env=dict(os.environ))}
    assert out["spec/api/one"].result == "pass"            # it was given -auto -fbo
    assert out["spec/api/wgl-only"].result == "skip" and out["spec/api/wgl-only"].time_s == 0.0


def _files(root, names):
    return [PiglitTest(f"tests/spec/d/{n}.shader_test", "shader_runner",
                       (str(root / "tests/spec/d" / f"{n}.shader_test"), "-auto", "-fbo")) for n in names]


def test_a_batch_reports_each_test_and_resumes_after_one_ends_the_process(fake_piglit):
    names = ["pass0", "fail0", "skip0", "pass1", "crash0", "fatal0", "fail1", "pass0"]
    tests = _files(fake_piglit, names)
    out = run_batch(fake_piglit, tests, "fake", dict(os.environ), timeout_s=30)
    assert [o.result for o in out] == ["pass", "fail", "skip", "pass", "crash", "fail", "fail", "pass"]
    assert [o.path for o in out] == [t.path for t in tests]
    # one process for the first three, then a new one after the skip, the crash and the fatal error
    assert [len(p) for p in _processes(fake_piglit)] == [8, 5, 3, 2]


def test_a_hanging_test_times_out_and_the_batch_goes_on(fake_piglit):
    tests = _files(fake_piglit, ["pass0", "hang0", "pass1"])
    out = run_batch(fake_piglit, tests, "fake", dict(os.environ), timeout_s=3)
    assert [o.result for o in out] == ["pass", "timeout", "pass"]


def test_no_isolation_runs_fewer_processes_with_the_same_results(fake_piglit):
    tests = _files(fake_piglit, ["pass0", "fail0", "pass1", "fail1", "skip0", "skip1", "crash0", "crash1"])
    env = dict(os.environ)
    isolated = run_tests(fake_piglit, tests, "fake", jobs=2, progress=False, env=env)
    n_isolated = len(_processes(fake_piglit))
    Path(os.environ["FAKE_LOG"]).unlink()
    shared = run_tests(fake_piglit, tests, "fake", jobs=2, progress=False, env=env, isolation=False,
                       batch_size=4)
    assert [o.result for o in shared] == [o.result for o in isolated] == \
        ["pass", "fail", "pass", "fail", "skip", "skip", "crash", "crash"]
    assert n_isolated == 8 and len(_processes(fake_piglit)) < 8


def test_batches_group_shader_runner_tests_by_directory():
    def t(path, binary="shader_runner", args=None):
        return PiglitTest(path, binary, args or (f"/r/{path}", "-auto", "-fbo"))
    tests = [t("a/1.shader_test"), t("a/2.shader_test"), t("b/1.shader_test"),
             t("a/3.shader_test", "shader_runner_gles3"), t("api", "api-test", ("-auto", "-fbo")),
             t("a/4.shader_test"), t("a/5.shader_test")]
    units = batches(tests, 2)
    assert sorted(sorted(x.path for x in u) for u in units) == sorted([
        ["a/1.shader_test", "a/2.shader_test"], ["a/4.shader_test", "a/5.shader_test"], ["b/1.shader_test"],
        ["a/3.shader_test"], ["api"]])
    assert [len(u) for u in batches(tests, 1)] == [1] * len(tests)


def test_shards_are_disjoint_deterministic_and_complete():
    tests = [PiglitTest(f"t/{i:02d}", "b", ()) for i in (7, 3, 11, 0, 5, 9, 1, 2, 10, 4, 8, 6)]
    parts = [shard(tests, i, 5) for i in range(1, 6)]
    assert [t.path for t in parts[0]] == ["t/00", "t/05", "t/10"]
    assert sorted(t.path for p in parts for t in p) == sorted(t.path for t in tests)
    assert shard(list(reversed(tests)), 2, 5) == parts[1]
    with pytest.raises(ValueError):
        shard(tests, 0, 5)


def test_merged_shards_equal_the_whole_run(tmp_path):
    rows = [Outcome(f"t/{i}", d, r, 0.1, 0, "", "b") for i, r in enumerate(["pass", "fail", "skip", "crash"])
            for d in ("shimgl", "llvmpipe")]
    write_results(rows[:3], tmp_path / "s1", {"title": "profile x [shard 1/2]", "seconds": 2.0, "shard": [1, 2]})
    write_results(rows[3:], tmp_path / "s2", {"title": "profile x [shard 2/2]", "seconds": 3.0, "shard": [2, 2]})
    merged, meta = merge_results([tmp_path / "s1", tmp_path / "s2"])
    assert sorted(merged, key=lambda o: (o.path, o.driver)) == sorted(rows, key=lambda o: (o.path, o.driver))
    assert meta == {"title": "profile x", "seconds": 5.0}
    write_results([Outcome("t/0", "shimgl", "fail", 0.1, 1, "", "b")], tmp_path / "s3")
    with pytest.raises(ValueError, match="t/0 on shimgl"):
        merge_results([tmp_path / "s1", tmp_path / "s3"])


def test_cli_shards_and_merge(fake_piglit, tmp_path, capsys):
    from tests.driver.piglit.test_piglit import _cli_main
    outs = []
    for i in (1, 2):
        out = tmp_path / f"shard{i}"
        assert _cli_main(["piglit", "--profile", "quick_gl", "--piglit-dir", str(fake_piglit), "--shard",
                          f"{i}/2", "--reference-only", "--no-progress", "--out", str(out)]) == 0
        outs.append(out)
    merged = tmp_path / "merged"
    assert _cli_main(["piglit", "--merge", *map(str, outs), "--out", str(merged)]) == 0
    rows = json.loads((merged / "results.json").read_text())
    assert sorted(r["path"] for r in rows) == sorted(t.path for t in profile_tests(fake_piglit, "quick_gl"))
    assert "merged from 2 result sets" in (merged / "summary.md").read_text()


@pytest.mark.skipif(REAL is None, reason="Debian's piglit is not installed")
def test_the_installed_c_api_profiles_are_read():
    names = available_profiles(REAL)
    assert {"opengl", "quick_gl", "gpu"} <= set(names)
    opengl = profile_tests(REAL, "opengl")
    assert len(opengl) > 5000
    # (Debian's piglit lists glx-tfp without shipping it: GLX tests left out here)
    assert all((REAL / "bin" / t.binary).exists() for t in opengl[:200] if not t.skip and not t.platform)
    assert all(t.args[-2:] == ("-auto", "-fbo") for t in opengl if t.binary not in ("built-in-constants",
                                                                                    "built-in-constants_gles2",
                                                                                    "built-in-constants_gles3")
               and not t.platform)
    glx = [t for t in opengl if t.platform == "glx"]     # the GLX tests: on glx, -fbo as piglit gives it
    assert len(glx) > 100 and all(t.path.startswith("glx/") and "-auto" in t.args for t in glx)
    x11_egl = [t for t in opengl if t.platform == "x11_egl"]    # EGL tests opening the X display
    assert x11_egl and all(t.binary.startswith("egl") for t in x11_egl)


def test_asm_parser_tests_run_asmparsertest_with_their_type_and_file(tmp_path):
    root = tmp_path / "piglit"
    (root / "tests").mkdir(parents=True)
    (root / "bin").mkdir()
    asm = ('<Test type="asm_parser" name="asmparsertest@arbfp1.0@abs.txt">'
           '<option name="type_" value="\'ARBfp1.0\'" />'
           '<option name="filename" value="\'tests/asmparsertest/shaders/ARBfp1.0/abs.txt\'" /></Test>')
    (root / "tests" / "glslparser.xml.gz").write_bytes(gzip.compress(_xml([asm])))
    [t] = profile_tests(root, "glslparser")
    assert t.path == "asmparsertest/arbfp1.0/abs.txt"
    assert (t.binary, t.args) == ("asmparsertest", ("ARBfp1.0", str(root / "tests/asmparsertest/shaders/ARBfp1.0/abs.txt"),
                                                    "-auto"))


def test_repeated_filters_select_tests_matching_any(fake_piglit, tmp_path):
    from tests.driver.piglit.test_piglit import _cli_main
    out = tmp_path / "out"
    assert _cli_main(["piglit", "--profile", "quick_gl", "--piglit-dir", str(fake_piglit), "--filter", "one",
                      "--filter", "serial", "--reference-only", "--no-progress", "--out", str(out)]) == 0
    rows = json.loads((out / "results.json").read_text())
    assert sorted(r["path"] for r in rows) == ["spec/api/one", "spec/api/serial"]


def test_tests_find_their_data_files_through_piglit_source_dir(tmp_path):
    """piglit's runner sets PIGLIT_SOURCE_DIR to its root (the ETC2 miptree tests
    read tests/spec/gles-3.0/*.ktx through it): so does ours."""
    root = tmp_path / "piglit"
    (root / "bin").mkdir(parents=True)
    _exe(root / "bin" / "where", textwrap.dedent("""\
        #!{python}
        import os
        ok = os.environ.get("PIGLIT_SOURCE_DIR") == os.getcwd()
        print('PIGLIT: {{"result": "%s" }}' % ("pass" if ok else "fail"))
        """))
    [o] = run_tests(root, [PiglitTest("spec/x/where", "where", ())], "llvmpipe", jobs=1, progress=False)
    assert o.result == "pass"


def test_a_list_names_profile_tests_as_piglit_and_the_reports_write_them(fake_piglit, tmp_path):
    """A list line that is no test file under the root is a profile test's name:
    piglit's `spec@api@one`, the reports' `spec/api/one`, names with spaces; files
    and `BINARY PATH` lines work as before; a test named twice runs once."""
    from driver.piglit import load_list
    gl = [_gl("spec@api@one", ["api-test", "x"]), _gl("spec@!opengl 1.0@two words", ["api-test", "2"])]
    (fake_piglit / "tests" / "quick_gl.xml.gz").write_bytes(gzip.compress(_xml(gl)))
    lst = tmp_path / "names.txt"
    lst.write_text("# a sample\nspec@api@one\nspec/!opengl 1.0/two words   # a comment\n\n"
                   "tests/spec/d/pass0.shader_test\nshader_runner_gles2 tests/spec/d/fail0.shader_test\n"
                   "spec/api/one\n")
    tests = load_list(fake_piglit, lst)
    assert [(t.path, t.binary, t.args[:1]) for t in tests] == [
        ("spec/api/one", "api-test", ("x",)),
        ("spec/!opengl 1.0/two words", "api-test", ("2",)),
        ("tests/spec/d/pass0.shader_test", "shader_runner", (str(fake_piglit / "tests/spec/d/pass0.shader_test"),)),
        ("tests/spec/d/fail0.shader_test", "shader_runner_gles2",
         (str(fake_piglit / "tests/spec/d/fail0.shader_test"),))]


def test_a_name_in_two_lists_takes_the_opengl_lists_command(fake_piglit, tmp_path):
    from driver.piglit.profiles import tests_named
    (fake_piglit / "tests" / "opengl.xml.gz").write_bytes(gzip.compress(_xml([_gl("spec@api@one", ["api-test", "y"])])))
    tests, unknown = tests_named(fake_piglit, ["SPEC@API@ONE", "spec/d/pass0", "spec/api/none"])
    assert [(t.path, t.args[0]) for t in tests] == [("spec/api/one", "y"),
                                                    ("spec/d/pass0", str(fake_piglit / "tests/spec/d/pass0.shader_test"))]
    assert unknown == ["spec/api/none"]


def test_a_list_line_naming_nothing_is_an_error_not_dropped(fake_piglit, tmp_path, capsys):
    from driver.piglit import load_list
    from tests.driver.piglit.test_piglit import _cli_main
    lst = tmp_path / "names.txt"
    lst.write_text("spec@api@one\nspec@api@onr\ntests/spec/d/none.shader_test\n")
    with pytest.raises(ValueError, match=r"2 line\(s\) name no test.*'spec@api@onr'; 'tests/spec/d/none.shader_test'"):
        load_list(fake_piglit, lst)
    assert _cli_main(["piglit", "--list", str(lst), "--piglit-dir", str(fake_piglit), "--reference-only",
                      "--no-progress", "--out", str(tmp_path / "o")]) == 2
    assert "spec@api@onr" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_cli_reruns_a_list_of_profile_test_names(fake_piglit, tmp_path):
    from tests.driver.piglit.test_piglit import _cli_main
    lst = tmp_path / "names.txt"
    lst.write_text("spec/api/one\nspec@api@wgl-only\nspec@d@pass0\n")
    out = tmp_path / "out"
    assert _cli_main(["piglit", "--list", str(lst), "--piglit-dir", str(fake_piglit), "--reference-only",
                      "--no-progress", "--jobs", "1", "--out", str(out)]) == 0
    rows = json.loads((out / "results.json").read_text())
    assert sorted((r["path"], r["result"]) for r in rows) == [
        ("spec/api/one", "pass"), ("spec/api/wgl-only", "skip"), ("spec/d/pass0", "pass")]


@pytest.mark.skipif(REAL is None, reason="Debian's piglit is not installed")
def test_installed_opengl_names_resolve_to_their_profile_commands(tmp_path):
    from driver.piglit import load_list
    names = ["spec@!opengl 1.0@gl-1.0-dlist-bitmap", "spec/arb_direct_state_access/getcompressedtextureimage",
             "shaders/glsl-max-varyings >max_varying_components"]
    lst = tmp_path / "names.txt"
    lst.write_text("\n".join(names) + "\n")
    by_path = {t.path: t for t in profile_tests(REAL, "opengl")}
    assert load_list(REAL, lst) == [by_path[n.replace("@", "/")] for n in names]
