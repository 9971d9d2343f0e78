"""`shimgl bench`: glbench on shimgl (and llvmpipe when installed) prints a table."""

from __future__ import annotations

import argparse
import contextlib
import io
import os

import numpy as np
import pytest

from driver import bench_cli
from driver.abi.paths import environment


def test_image_diff(tmp_path):
    a = np.zeros((4, 4, 4), np.uint8)
    b = a.copy()
    b[0, 0, 1] = 5
    b[1, 1, 2] = 2
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    assert bench_cli.image_diff(tmp_path / "a.npy", tmp_path / "b.npy") == (5, 100 / 16)
    assert bench_cli.image_diff(tmp_path / "a.npy", tmp_path / "missing.npy") is None


def test_missing_glbench_is_not_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bench_cli, "find_glbench", lambda explicit=None: None)
    parser = argparse.ArgumentParser()
    bench_cli.register(parser.add_subparsers())
    args = parser.parse_args(["bench"])
    assert args.func(args) == 0
    assert "not found" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.skipif(bench_cli.find_glbench() is None, reason="glbench.py not found")
@pytest.mark.skipif(environment(os.environ) is None, reason="the C ABI is not built")
@pytest.mark.parametrize("api", ["gles", "gl"])
def test_bench_smoke(api, tmp_path):
    parser = argparse.ArgumentParser()
    bench_cli.register(parser.add_subparsers())
    args = parser.parse_args(["bench", "--api", api, "--size", "32", "--frames", "1", "--drivers", "shimgl,llvmpipe",
                              "--dump", str(tmp_path), "--extra",
                              "--tris 100 --overdraw-tris 4 --compute-n 4096 --tex-size 32"])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert args.func(args) == 0
    text = buf.getvalue()
    rows = {ln.split("|")[1].strip(): ln for ln in text.splitlines() if ln.startswith("| ")}
    for w in ("clear", "fill_simple", "fill_alu", "tex", "tris_small", "tris_big_overdraw", "compute", "readback"):
        assert w in rows, text
        float(rows[w].split("|")[2])            # shimgl's ms per frame is a number
    assert (tmp_path / "shimgl" / "fill_simple.npy").is_file()
    assert ("(Core Profile) shimgl" in text) == (api == "gl"), text     # glbench asks 4.5, then 4.3
    if "llvmpipe ms" in text:
        assert rows["fill_simple"].rstrip(" |").endswith("0, 0.000%")   # identical to llvmpipe's image
        # the ms columns are process CPU, the ratio is theirs; wall time has columns of its own
        head = [c.strip() for c in next(ln for ln in text.splitlines() if ln.startswith("| workload")).split("|")]
        assert "shimgl wall" in head and "llvmpipe wall" in head, head
        cells = [c.strip() for c in rows["fill_alu"].split("|")]
        ours, theirs = float(cells[head.index("shimgl ms")]), float(cells[head.index("llvmpipe ms")])
        ratio = float(cells[head.index("shimgl/llvmpipe")].rstrip("x"))
        assert abs(ratio - ours / theirs) <= 0.05 * ours / theirs + 0.05, cells     # the cells are rounded
