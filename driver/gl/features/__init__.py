"""GL features as modules of functions, one module per feature (as Mesa's
``src/mesa/main``: ``texstorage.c``, ``fbobject.c``, ...), instead of more
mixins of the Context class.

A feature module defines its entry points as plain functions of the context,
named like the C functions and registered with ``@entry_point``::

    @entry_point
    def glClipControl(ctx, origin, depth): ...

The module is imported by driver.gl.families, which builds the Context class.
``install(cls)`` makes them methods of the final Context class before its GL
error wrapping, so they behave as every other entry point: a ``GLError``
raised inside is recorded and the call returns None. The registry's aliases of
core commands are installed after them (``aliases.install_aliases``, applied by
the Context class itself).

``call(ctx, name, *args)`` runs another entry point's implementation from
inside a feature *without* its wrapping: its GLError propagates to the caller
(so the outer entry point records it once), and display-list compilation or
the begin/end dispatch do not see the inner call; a compatibility-profile
command in a context without that profile is GL_INVALID_OPERATION, as its
dispatch entry is.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from driver.gl import enums as E
from driver.gl.compose import LazySignature
from driver.gl.errors import GLError

__all__ = ["call", "context_method", "entry_point", "forward", "install"]

_ENTRY_POINTS: dict[str, Callable] = {}
_METHODS: dict[str, Callable] = {}
_FORWARDS: dict[str, str] = {}          # entry point made by forward() -> the command it runs


def entry_point(fn: Callable) -> Callable:
    """Register `fn` as the GL entry point of its name."""
    assert fn.__name__.startswith("gl"), fn.__name__
    assert fn.__name__ not in _ENTRY_POINTS, f"{fn.__name__} is defined twice"
    _ENTRY_POINTS[fn.__name__] = fn
    return fn


def forward(name: str, target: str, *, guard: Callable | None = None, convert: Callable | None = None,
            doc: str | None = None) -> Callable:
    """Register entry point `name` as command `target` run with the caller's
    arguments: the shape of a command's other names and variants (an OES or EXT
    name, a GLfixed variant of a float command). ``guard(ctx, name)`` raises the
    GLError that refuses the call (a missing extension); ``convert(*args)`` gives
    the target's arguments (GLfixed to float). The Context class gives the entry
    point the target's parameters (``install``), so callers that look at its
    signature (the C ABI's optional sizes) see the target's arity."""
    def entry(ctx, *args):
        if guard is not None:
            guard(ctx, name)
        return call(ctx, target, *(convert(*args) if convert is not None else args))
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = doc or f"{name}: {target}."
    _FORWARDS[name] = target
    return entry_point(entry)


def context_method(fn: Callable) -> Callable:
    """Register a helper other parts of the front end call as a context
    method (e.g. ``ctx._debug_message``); not an entry point, not wrapped."""
    assert not fn.__name__.startswith("gl"), fn.__name__
    assert fn.__name__ not in _METHODS, f"{fn.__name__} is defined twice"
    _METHODS[fn.__name__] = fn
    return fn


def install(cls):
    """Class decorator: add every registered feature entry point to `cls` (an
    entry point the class already has is an error: one implementation per entry
    point). The feature modules register theirs when they are imported: the
    module that builds the Context class (driver.gl.families) imports them all
    first, so this registry imports none of them (they import it)."""
    for name, fn in {**_METHODS, **_ENTRY_POINTS}.items():
        assert not hasattr(cls, name), f"{name} is implemented twice (class and feature module)"
        setattr(cls, name, fn)
    for name, target in _FORWARDS.items():
        impl = getattr(cls, target, None)
        if impl is not None:
            _ENTRY_POINTS[name].__signature__ = LazySignature(inspect.unwrap(impl))
    return cls


def call(ctx, name: str, *args, **kwargs):
    """Run the implementation of entry point `name` unwrapped (see module doc). A
    command the context's dispatch leaves out (the compatibility profile's, in a
    core-profile or ES 2.0+ context: driver/gl/legacy/dlist.py) is
    GL_INVALID_OPERATION as when called directly: nothing runs. Keyword arguments
    are the C ABI's (``dest``: client memory to write into) and pass through."""
    entry = getattr(type(ctx), name)
    if getattr(entry, "__gl_compatibility_only__", False):
        raise GLError(E.GL_INVALID_OPERATION, f"{name} is not part of {ctx.api.name}")
    return inspect.unwrap(entry)(ctx, *args, **kwargs)
