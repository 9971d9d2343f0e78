"""`shimgl shader-test FILE.shader_test [--png OUT] [--api API]`: run one piglit
shader_test in-process on shimgl and print piglit's result line.

Exit status as piglit's: 0 for pass, skip and warn, 1 for fail."""

from __future__ import annotations

import sys

__all__ = ["register"]

APIS = ("gles2", "gles3", "gles31", "gl33", "gl43", "compat")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "shader-test", help="run a piglit .shader_test file in-process on shimgl",
        description="Run a piglit shader_test (the [require], shader, [vertex data] and [test] "
                    "sections) on shimgl and print PIGLIT: {\"result\": ...}. Unsupported commands "
                    "or requirements give skip with the reason.")
    p.add_argument("file", help="a .shader_test file")
    p.add_argument("--png", metavar="OUT", help="save the window image after the test")
    p.add_argument("--api", choices=APIS, help="context API (default: chosen from [require])")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the result line")
    p.set_defaults(func=_run)


def _run(args) -> int:
    from driver.shader_test import run_file
    result = run_file(args.file, api=args.api, png=args.png)
    if not args.quiet:
        for m in result.messages:
            print(m)
    print(result.piglit_line)
    sys.stdout.flush()
    return result.exit_code
