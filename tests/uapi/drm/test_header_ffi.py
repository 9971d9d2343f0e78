"""The out-of-line (build-time) cffi declarations of the DRM header are the
header: every struct, union and enum has the same layout and values as a
run-time parse of the same text, and a stale build is never used."""

from __future__ import annotations

import importlib.util
import re

import cffi
import pytest

from uapi.drm import ffi_build, header


def _parsed(text: str):
    f = cffi.FFI()
    f.cdef(text)
    return f


def _load(path):
    spec = importlib.util.spec_from_file_location("_shimgl_test_header_ffi", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return _load(ffi_build.build(tmp_path_factory.mktemp("ffi")))


def _records(text):
    return sorted(set(re.findall(r"^\s*(struct|union)\s+(\w+)\s*\{", text, re.M)))


def test_every_record_has_the_parsed_layout(built):
    parsed = _parsed(header.HEADER)
    records = _records(header.HEADER)
    assert len(records) > 10
    for kind, name in records:
        t = f"{kind} {name}"
        assert built.ffi.sizeof(t) == parsed.sizeof(t), t
        assert built.ffi.alignof(t) == parsed.alignof(t), t
        fields_built = [(n, f.offset, f.type.cname) for n, f in built.ffi.typeof(t).fields]
        fields_parsed = [(n, f.offset, f.type.cname) for n, f in parsed.typeof(t).fields]
        assert fields_built == fields_parsed, t


def test_every_enum_has_the_parsed_values(built):
    parsed = _parsed(header.HEADER)
    enums = re.findall(r"^enum\s+(\w+)\s*\{", header.HEADER, re.M)
    assert enums
    for e in enums:
        assert built.ffi.typeof(f"enum {e}").relements == parsed.typeof(f"enum {e}").relements


def test_the_build_records_its_header(built):
    assert built.HEADER_SOURCE == header.HEADER


def test_a_stale_build_is_not_used(tmp_path, monkeypatch):
    """A module built from another header text (the header was edited since the
    install) is ignored: the loader parses the header on disk instead."""
    other = tmp_path / "other.h"
    other.write_text(header.HEADER + "\nstruct shimgl_test_only { int x; };\n")
    stale = _load(ffi_build.build(tmp_path, header=other))
    import sys
    import uapi.drm
    monkeypatch.setitem(sys.modules, "uapi.drm._header_ffi", stale)
    monkeypatch.setattr(uapi.drm, "_header_ffi", stale, raising=False)
    refreshed = []
    monkeypatch.setattr(header, "_refresh", refreshed.append)
    ffi, precompiled = header._load_ffi()
    assert not precompiled
    assert refreshed == [ffi]          # and the stale module is rewritten from the parse
    with pytest.raises(ValueError):      # unknown to the header on disk: opaque, no size
        ffi.sizeof("struct shimgl_test_only")
    assert stale.ffi.sizeof("struct shimgl_test_only") == 4
    assert ffi.sizeof("struct drm_asahi_vm_bind") == _parsed(header.HEADER).sizeof("struct drm_asahi_vm_bind")


def test_the_loaded_ffi_matches_the_header():
    """Whichever way it was loaded, uapi's ffi knows the header's records."""
    parsed = _parsed(header.HEADER)
    for kind, name in _records(header.HEADER):
        assert header.ffi.sizeof(f"{kind} {name}") == parsed.sizeof(f"{kind} {name}")


def test_write_module_from_a_parse_round_trips(tmp_path):
    """What the loader writes after a run-time parse loads back with the same layouts."""
    parsed = _parsed(header.HEADER)
    again = _load(ffi_build.write_module(parsed, header.HEADER, tmp_path))
    assert again.HEADER_SOURCE == header.HEADER
    assert again.ffi.sizeof("struct drm_asahi_vm_bind") == parsed.sizeof("struct drm_asahi_vm_bind")
    assert [p.name for p in tmp_path.iterdir()] == ["_header_ffi.py"]     # no temporary left behind
