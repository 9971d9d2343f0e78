"""Kernel error returns: every failing ioctl raises ``OSError`` with the errno.

Sole responsibility: one helper so error paths read like the kernel's ``return -EINVAL``.
"""

from __future__ import annotations

import errno
import os

__all__ = ["fail", "check", "errno", "kernel_bug"]


def fail(code: int, why: str = "") -> OSError:
    """An ``OSError`` carrying ``code``; raise it. ``why`` names the broken rule."""
    message = os.strerror(code) + (f" ({why})" if why else "")
    return OSError(code, message)


def check(condition: bool, code: int, why: str) -> None:
    """Raise ``fail(code, why)`` unless ``condition`` holds."""
    if not condition:
        raise fail(code, why)



def kernel_bug(where: str, error: BaseException) -> OSError:
    """What an unexpected exception inside an ioctl becomes, so that only
    ``OSError`` ever leaves ``uapi.ioctl``: ``ENOMEM`` for a failed host
    allocation, else ``EIO`` (an internal failure; Linux would log an oops and
    fail the call). Anything but ENOMEM is a kernel bug: it is logged to stderr
    with its traceback, and the fuzzers fail on it."""
    if isinstance(error, MemoryError):
        return fail(errno.ENOMEM, f"{where}: out of host memory")
    import sys
    import traceback

    print(f"shimgl kernel: internal error in {where}:", file=sys.stderr)
    traceback.print_exception(error, file=sys.stderr)
    return fail(errno.EIO, f"internal kernel error in {where}: {type(error).__name__}: {error}")
