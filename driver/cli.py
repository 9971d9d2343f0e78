"""The ``shimgl`` command line.

Each package contributes the subcommands it owns through the ``shimgl.commands``
entry-point group (``name = module:register``); ``register(subparsers)`` adds one
argparse subparser whose ``func(args) -> int`` runs the command. Discovering them
by entry point keeps the layering: this module never imports drmshim, yet
``shimgl fwtrace`` (a drmshim command) is one ``shimgl`` subcommand like any other.
Command modules import their heavy machinery inside ``func``, so ``--help`` is fast.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import entry_points

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shimgl",
        description="shimgl: a userspace OpenGL driver stack in Python with a mock "
        "Asahi kernel and a software AGX-like GPU.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for ep in sorted(entry_points(group="shimgl.commands"), key=lambda ep: ep.name):
        ep.load()(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 0 if args.command is None else 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
