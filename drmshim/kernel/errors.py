"""Kernel error returns: every failing ioctl raises ``OSError`` with the errno.

Sole responsibility: one helper so error paths read like the kernel's ``return -EINVAL``.
"""

from __future__ import annotations

import errno
import os

__all__ = ["fail", "check", "errno"]


def fail(code: int, why: str = "") -> OSError:
    """An ``OSError`` carrying ``code``; raise it. ``why`` names the broken rule."""
    message = os.strerror(code) + (f" ({why})" if why else "")
    return OSError(code, message)


def check(condition: bool, code: int, why: str) -> None:
    """Raise ``fail(code, why)`` unless ``condition`` holds."""
    if not condition:
        raise fail(code, why)
