"""`shimgl env` and `shimgl run`: point EGL and OSMesa programs at shimgl.

    eval "$(shimgl env)"            # this shell's EGL/OSMesa programs use shimgl
    shimgl run PROGRAM [ARGS...]    # one program (a Python script or a binary)

The variables: __EGL_VENDOR_LIBRARY_FILENAMES (glvnd's libEGL/libGL load only
shimgl's vendor library), LD_LIBRARY_PATH (libOSMesa.so.8 for OSMesa programs
and PyOpenGL's osmesa platform, libGLX_shimgl.so.0 for glvnd's libGLX),
PIGLIT_PLATFORM=surfaceless_egl, PYOPENGL_PLATFORM=egl when there is no
DISPLAY and it is not already set (with a DISPLAY PyOpenGL's own guess, GLX,
is left to it, as with Mesa), and when DISPLAY is set
__GLX_VENDOR_LIBRARY_NAME=shimgl (GLX programs render with shimgl instead of
the vendor the X server names).

Import-light on purpose: registering the commands does not import the driver."""

from __future__ import annotations

import os
import shlex
import sys

from driver.abi.paths import environment, missing_reason

__all__ = ["register_env", "register_run"]


def register_env(subparsers) -> None:
    p = subparsers.add_parser(
        "env", help="print the export lines that make EGL/OSMesa programs use shimgl",
        description='Print shell export lines; use as: eval "$(shimgl env)".')
    p.set_defaults(func=_env)


def register_run(subparsers) -> None:
    p = subparsers.add_parser(
        "run", help="run a program (Python script or binary) on shimgl's EGL/OSMesa",
        description="Run PROGRAM with the environment of `shimgl env`. A .py file runs "
                    "with this Python interpreter.")
    p.add_argument("program", help="a binary on PATH, a path, or a Python script")
    p.add_argument("args", nargs="...", help="arguments for the program")
    p.set_defaults(func=_run)


def _unavailable() -> int:
    print(f"shimgl: the C ABI is not available: {missing_reason()}", file=sys.stderr)
    return 1


def _env(args) -> int:
    env = environment(os.environ)
    if env is None:
        return _unavailable()
    for k, v in env.items():
        print(f"export {k}={shlex.quote(v)}")
    return 0


def _run(args) -> int:
    env = environment(os.environ)
    if env is None:
        return _unavailable()
    argv = [args.program, *args.args]
    if args.program.endswith(".py"):
        argv = [sys.executable, *argv]
    full = dict(os.environ)
    full.update(env)
    sys.stdout.flush()
    try:
        os.execvpe(argv[0], argv, full)
    except OSError as e:
        print(f"shimgl run: {argv[0]}: {e.strerror}", file=sys.stderr)
        return 127
    return 0  # pragma: no cover - exec does not return
