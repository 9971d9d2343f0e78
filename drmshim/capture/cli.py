"""``shimgl decode``, ``shimgl crashdec`` and ``shimgl replay``.

Sole responsibility: argument parsing and exit codes; the work is in ``report``
and ``replay`` (imported inside the handlers, so ``shimgl --help`` stays fast).
Exit status: 0; 1 when the file cannot be read or holds nothing usable; for
replay, 2 when a submission was rejected or timed out.
"""

from __future__ import annotations

import sys

__all__ = ["register_decode", "register_crashdec", "register_replay"]


def _read(path: str):
    from .fileformat import read_file
    try:
        return read_file(path)
    except OSError as e:
        print(f"shimgl: cannot read {path}: {e.strerror}", file=sys.stderr)
        return None


def register_decode(subparsers) -> None:
    p = subparsers.add_parser("decode", help="print every command stream of a capture (SHIMGL_CAPTURE)",
                              description="Decode a capture (or core dump) through the packet table: command "
                              "buffer headers, cmd_render/cmd_compute fields, VDM/CDM streams, PPP state, USC "
                              "words, descriptors, programs disassembled. Undecodable data is hexdumped.")
    p.add_argument("file", help="the capture file")
    p.add_argument("--first", type=int, default=0, metavar="N", help="first submit to print (0-based)")
    p.add_argument("--last", type=int, default=None, metavar="M", help="last submit to print (inclusive)")
    p.set_defaults(func=_decode)


def _decode(args) -> int:
    from .report import decode_text
    capture = _read(args.file)
    if capture is None:
        return 1
    sys.stdout.write(decode_text(capture, first=args.first, last=args.last))
    return 0 if capture.records else 1


def register_crashdec(subparsers) -> None:
    p = subparsers.add_parser("crashdec", help="decode a GPU core dump and estimate where the GPU stopped",
                              description="Decode a core dump written on a GPU fault (SHIMGL_DUMP_DIR): the "
                              "fault, the memory around it, the faulting command's streams and an ESTIMATED "
                              "CRASH LOCATION.")
    p.add_argument("dump", help="the core dump file")
    p.set_defaults(func=_crashdec)


def _crashdec(args) -> int:
    from .report import crashdec_text
    capture = _read(args.dump)
    if capture is None:
        return 1
    sys.stdout.write(crashdec_text(capture))
    return 0 if capture.of_type("fault") else 1


def register_replay(subparsers) -> None:
    p = subparsers.add_parser("replay", help="run captured submissions on a fresh kernel",
                              description="Replay a capture on a fresh mock kernel with the default GPU executor, "
                              "one submission after another, and optionally write each render command's colour "
                              "attachments as PNG. Exact with SHIMGL_CAPTURE_OPTS=full captures.")
    p.add_argument("file", help="the capture file")
    p.add_argument("--first", type=int, default=0, metavar="N", help="first submit to replay (0-based)")
    p.add_argument("--last", type=int, default=None, metavar="M", help="last submit to replay (inclusive)")
    p.add_argument("--png", metavar="DIR", default=None, help="write colour attachments as PNG into DIR")
    p.set_defaults(func=_replay)


def _replay(args) -> int:
    from .replay import Replayer, submits_of
    capture = _read(args.file)
    if capture is None:
        return 1
    for problem in capture.problems:
        print(f"shimgl replay: {problem}", file=sys.stderr)
    if not submits_of(capture):
        print("shimgl replay: no submissions in the file", file=sys.stderr)
        return 1
    replayer = Replayer(capture, log=lambda line: print(f"shimgl replay: {line}", file=sys.stderr))
    failed = False
    try:
        for r in replayer.run(args.first, args.last, args.png):
            faults = [f for f in r.feedback if f["flags"] & 1]
            print(f"submit {r.position} (seq {r.seq}): {r.status}"
                  + (f", {len(faults)} faulted command(s)" if faults else "")
                  + "".join(f"\n  {path}" for path in r.pngs))
            failed |= r.status != "ok"
    finally:
        replayer.close()
    return 2 if failed else 0
