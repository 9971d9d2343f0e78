"""`shimgl asm` and `shimgl disasm`."""

from driver.cli import main

import uapi.isa as isa


def test_asm_then_disasm(tmp_path, capsys):
    src = tmp_path / "prog.s"
    src.write_text("top:\n  fadd r0, r1, 1.5 ; comment\n  jmp_exec_any top\n  stop\n")
    assert main(["asm", str(src), "-o", str(tmp_path / "prog.bin")]) == 0
    code = (tmp_path / "prog.bin").read_bytes()
    assert code == isa.assemble(src.read_text())
    assert main(["disasm", str(tmp_path / "prog.bin")]) == 0
    assert capsys.readouterr().out.splitlines() == ["fadd r0, r1, 1.5", "jmp_exec_any -8", "stop"]


def test_asm_error_and_forgiving_disasm(tmp_path, capsys):
    bad = tmp_path / "bad.s"
    bad.write_text("fadd r0, r1\n")
    assert main(["asm", str(bad)]) == 1
    assert "line 1" in capsys.readouterr().err
    garbage = tmp_path / "g.bin"
    garbage.write_bytes(b"\xff\xff" + isa.assemble("stop"))
    assert main(["disasm", "--hex", str(garbage)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "???" in out[0] and out[1].endswith("stop")
