"""GL errors: entry points validate first and raise GLError before changing any
state; the context records the first error until glGetError reads it
(GL 4.6 section 2.3.1)."""

from __future__ import annotations

import functools

from driver.gl import enums as E

__all__ = ["GLError", "check", "check_enum", "finish_context_class", "wrap_entry_points"]


class GLError(Exception):
    """Raised inside an entry point; `code` is the GL error enum."""

    def __init__(self, code: int, message: str = ""):
        super().__init__(message or hex(code))
        self.code = code
        self.message = message


def check(cond: bool, code: int, message: str = "") -> None:
    if not cond:
        raise GLError(code, message)


def check_enum(value: int, allowed, message: str = "") -> None:
    if value not in allowed:
        shown = f"{value:#x}" if isinstance(value, int) else repr(value)
        raise GLError(E.GL_INVALID_ENUM, message or f"bad enum {shown}")


def _wrap(fn):
    @functools.wraps(fn)
    def entry(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except GLError as err:
            self._record_error(err)
            return None
    entry.__gl_entry__ = True
    return entry


def wrap_entry_points(cls):
    """Class decorator: every method named gl* (except glGetError) catches
    GLError, records it and returns None."""
    for name in dir(cls):
        if not name.startswith("gl") or name == "glGetError":
            continue
        fn = getattr(cls, name)
        if callable(fn) and not getattr(fn, "__gl_entry__", False):
            setattr(cls, name, _wrap(fn))
    return cls


def finish_context_class(cls):
    """Wrap the gl* methods of the final Context class."""
    return wrap_entry_points(cls)
