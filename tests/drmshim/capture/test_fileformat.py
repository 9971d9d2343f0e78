"""The capture file format: round trip, and a forgiving reader."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drmshim.capture.fileformat import MAGIC, Writer, read_bytes, read_file


def test_round_trip(tmp_path):
    w = Writer(tmp_path / "f.cap")
    w.write({"type": "header", "version": 1})
    w.write({"type": "blobby", "n": 3}, [("a", b"\x00\x01\n\x02"), ("b", b"")])
    w.write({"type": "after"})
    w.close()
    f = read_file(tmp_path / "f.cap")
    assert f.problems == []
    assert f.version == 1
    assert [r.type for r in f.records] == ["header", "blobby", "after"]
    assert f.records[1].blobs == {"a": b"\x00\x01\n\x02", "b": b""}
    assert f.records[1].meta["n"] == 3
    assert (tmp_path / "f.cap").read_bytes().startswith(MAGIC)


def test_truncated_blob_keeps_what_came_before(tmp_path):
    w = Writer(tmp_path / "f.cap")
    w.write({"type": "one"})
    w.write({"type": "two"}, [("data", bytes(100))])
    w.close()
    data = (tmp_path / "f.cap").read_bytes()
    f = read_bytes(data[:-10])
    assert [r.type for r in f.records] == ["one", "two"]
    assert f.records[1].meta["truncated"] is True
    assert len(f.records[1].blobs["data"]) == 90
    assert any("truncated" in p for p in f.problems)


def test_bad_magic_and_garbage_lines():
    assert read_bytes(b"hello").records == []
    assert "not a shimgl capture" in read_bytes(b"hello").problems[0]
    f = read_bytes(MAGIC + b'{"type":"ok"}\n' + b"not json\n" + b'{"type":"never"}\n')
    assert [r.type for r in f.records] == ["ok"]
    assert "not JSON" in f.problems[0]
    f = read_bytes(MAGIC + b'{"type":"x","blobs":[{"name":1}]}\n')
    assert f.records == [] and "blob 0" in f.problems[0]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=512))
def test_random_bytes_never_raise(data):
    read_bytes(data)
    read_bytes(MAGIC + data)
