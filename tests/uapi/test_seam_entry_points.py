"""uapi.seam reads entry points without importlib.metadata: the same values
as importlib.metadata finds for the installed distributions,
and a group nobody declares is empty."""

from __future__ import annotations

import importlib.metadata

import pytest

from uapi import seam


@pytest.mark.parametrize("group", ["shimgl.uapi_backends", "shimgl.commands", "console_scripts"])
def test_same_values_as_importlib_metadata(group):
    expected = [ep.value for ep in importlib.metadata.entry_points(group=group)]
    # distributions in folder-listing order there (unsorted), sorted here: same set
    assert sorted(seam.entry_point_values(group)) == sorted(expected)
    if group.startswith("shimgl."):
        assert expected                 # shimgl is installed: its groups are not empty


def test_unknown_group_is_empty():
    assert seam.entry_point_values("shimgl.no-such-group") == []


def test_first_distribution_of_a_name_wins(tmp_path, monkeypatch):
    for folder, value in (("a", "first:x"), ("b", "second:y")):
        info = tmp_path / folder / "demo_pkg-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "entry_points.txt").write_text(f"[other]\nz = no:z\n\n[g]\nname = {value}\n")
    monkeypatch.setattr("sys.path", [str(tmp_path / "a"), str(tmp_path / "b")])
    assert seam.entry_point_values("g") == ["first:x"]
