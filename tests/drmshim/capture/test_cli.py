"""The shimgl decode / crashdec / replay subcommands, through driver.cli's entry points."""

from __future__ import annotations

import pytest

import drmshim
from driver.cli import main
from tests.drmshim.capture import scene
from tests.drmshim.capture.conftest import submit_and_wait


def _capture(toy, tmp_path, monkeypatch, cmdbuf, opts="full"):
    kernel, d, vm, queue, handle, cpu = toy
    path = tmp_path / "c.cap"
    monkeypatch.setenv("SHIMGL_CAPTURE", str(path))
    monkeypatch.setenv("SHIMGL_CAPTURE_OPTS", opts)
    submit_and_wait(d, queue, cmdbuf)
    monkeypatch.delenv("SHIMGL_CAPTURE")
    return path


def test_decode_command(toy, tmp_path, monkeypatch, capsys):
    path = _capture(toy, tmp_path, monkeypatch, scene.render_cmd())
    assert main(["decode", str(path)]) == 0
    out = capsys.readouterr().out
    assert "VDM_INDEX_LIST" in out and "1 submits" in out


def test_decode_of_missing_and_garbage_files(tmp_path, capsys):
    assert main(["decode", str(tmp_path / "nope")]) == 1
    garbage = tmp_path / "g"
    garbage.write_bytes(b"\x00garbage" * 10)
    assert main(["decode", str(garbage)]) == 1
    assert "not a shimgl capture" in capsys.readouterr().out


def test_crashdec_command(toy, tmp_path, capsys):
    kernel, d, vm, queue, handle, cpu = toy
    cpu[:] = bytes(scene.scene_bytes(index_va=scene.BASE + 0x300000))
    submit_and_wait(d, queue, scene.render_cmd())
    (dump,) = (tmp_path / "dumps").glob("*.dump")
    capsys.readouterr()
    assert main(["crashdec", str(dump)]) == 0
    assert "ESTIMATED CRASH LOCATION: VDM stream block VDM_INDEX_LIST" in capsys.readouterr().out


def test_replay_command_writes_pngs(toy, tmp_path, monkeypatch, capsys):
    path = _capture(toy, tmp_path, monkeypatch, scene.render_cmd() + scene.compute_cmd())
    drmshim.set_gpu_factory(lambda kernel: scene.ToyGPU())
    try:
        assert main(["replay", str(path), "--png", str(tmp_path / "png"), "--first", "0", "--last", "0"]) == 0
    finally:
        drmshim.set_gpu_factory(None)
    out = capsys.readouterr().out
    assert "submit 0 (seq" in out and ": ok" in out
    assert [p.name for p in (tmp_path / "png").iterdir()] == ["submit0000-cmd0-rt0.png"]


def test_replay_of_a_file_without_submits(tmp_path):
    from drmshim.capture import Writer
    w = Writer(tmp_path / "empty.cap")
    w.write({"type": "header", "version": 1})
    w.close()
    assert main(["replay", str(tmp_path / "empty.cap")]) == 1


@pytest.mark.parametrize("cmd", ["decode", "crashdec", "replay"])
def test_help(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        main([cmd, "--help"])
    assert e.value.code == 0
    assert cmd in capsys.readouterr().out
