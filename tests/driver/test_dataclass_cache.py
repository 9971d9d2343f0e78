"""driver.dataclass_cache: the code @dataclass compiles comes from a disk table
after the first process; dataclasses behave exactly as without it; damaged
records are skipped; concurrent processes append safely."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from driver import dataclass_cache as dc

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SHIMGL_SHADER_CACHE_DISABLE", raising=False)
    dc.reset()
    yield tmp_path
    dc.reset()


def _define(n: int):
    @dataclasses.dataclass(frozen=True, order=True)
    class Point:
        x: int
        y: int = n
        tags: tuple = ()

        def norm1(self) -> int:
            return abs(self.x) + abs(self.y)
    return Point


def test_installed_by_importing_driver():
    assert dc.installed()
    assert dataclasses.exec is dc._exec


def test_dataclasses_behave_the_same_and_hit_the_table(table):
    before = dict(dc.stats)
    first = _define(123456789)          # a default no other test uses: new source text
    assert dc.stats["misses"] > before["misses"]
    dc.reset()                           # as a new process: read the table from disk
    hits = dc.stats["hits"]
    again = _define(123456789)
    assert dc.stats["hits"] > hits
    for P in (first, again):
        p = P(1)
        assert (p.x, p.y, p.norm1()) == (1, 123456789, 123456790)
        assert repr(p) == "_define.<locals>.Point(x=1, y=123456789, tags=())"
        assert P(1) == P(1) and P(1) < P(2) and hash(P(1)) == hash(P(1))
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.x = 2
        with pytest.raises(TypeError):
            P()
    assert dc.cache_path().exists()


def test_damaged_records_are_skipped(table):
    _define(987654321)
    path = dc.cache_path()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF                 # damage one record
    path.write_bytes(bytes(data[:-7]))           # and tear the last one
    dc.reset()
    P = _define(987654321)
    assert P(2).y == 987654321 and repr(P(2)).endswith("Point(x=2, y=987654321, tags=())")


def test_disabled_writes_nothing(table, monkeypatch):
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DISABLE", "1")
    dc.reset()
    P = _define(55555)
    assert P(1).y == 55555
    assert not (table / "pycode").exists()


_PROCESS = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import dataclasses, driver
    from driver import dataclass_cache as dc
    for k in range(30):
        ns = {}
        exec("import dataclasses\\n@dataclasses.dataclass\\nclass C:\\n    a: int = %d\\n" % k, ns)
        assert ns["C"]().a == k
    print(dc.stats["hits"], dc.stats["misses"])
    """)


def test_processes_share_the_table_and_append_concurrently(table):
    env = dict(os.environ, SHIMGL_SHADER_CACHE_DIR=str(table))
    procs = [subprocess.Popen([sys.executable, "-c", _PROCESS, str(ROOT)], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    later = subprocess.run([sys.executable, "-c", _PROCESS, str(ROOT)], env=env, text=True,
                           capture_output=True, timeout=120)
    assert later.returncode == 0, later.stderr
    hits, misses = map(int, later.stdout.split())
    assert misses == 0 and hits >= 30             # every class's code came from the table
