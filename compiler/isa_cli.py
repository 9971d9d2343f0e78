"""``shimgl asm FILE.s -o FILE.bin`` and ``shimgl disasm FILE.bin``: the ISA's
assembler and disassembler (both derived from the table in ``uapi.isa``)."""

from __future__ import annotations

import argparse
import sys

__all__ = ["register_asm", "register_disasm"]


def _asm(args: argparse.Namespace) -> int:
    from uapi.isa import AsmError, assemble

    text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    try:
        code = assemble(text)
    except AsmError as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 1
    out = args.output or (args.file.rsplit(".", 1)[0] + ".bin" if args.file != "-" else None)
    if out is None:
        sys.stdout.buffer.write(code)
    else:
        with open(out, "wb") as f:
            f.write(code)
    return 0


def _disasm(args: argparse.Namespace) -> int:
    from uapi.isa import DecodeError, decode_one

    data = open(args.file, "rb").read()[args.offset:]
    off = 0
    while off < len(data):
        try:
            ins = decode_one(data, off)
        except DecodeError as e:  # a forgiving walker: show the bytes, resync 2 bytes on
            print(f"{off:6x}:  {data[off:off + 2].hex():<32}  ; ??? {e}")
            off += 2
            continue
        raw = data[off:off + ins.op.length_B].hex()
        print(f"{off:6x}:  {raw:<32}  {ins}" if args.hex else f"{ins}")
        off += ins.op.length_B
    return 0


def register_asm(subparsers) -> None:
    p = subparsers.add_parser("asm", help="assemble shader ISA text to a binary",
                              description="Assemble shader ISA text (one instruction per line, labels, ; comments).")
    p.add_argument("file", help="assembly source (- for stdin)")
    p.add_argument("-o", "--output", help="output binary (default: FILE with .bin; stdout for stdin)")
    p.set_defaults(func=_asm)


def register_disasm(subparsers) -> None:
    p = subparsers.add_parser("disasm", help="disassemble a shader ISA binary",
                              description="Disassemble a shader binary; undecodable bytes are shown and skipped.")
    p.add_argument("file", help="binary file")
    p.add_argument("--offset", type=lambda s: int(s, 0), default=0, help="start offset in bytes")
    p.add_argument("--hex", action="store_true", help="show offsets and instruction bytes")
    p.set_defaults(func=_disasm)
