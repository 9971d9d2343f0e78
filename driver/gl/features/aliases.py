"""Extension entry points that are aliases of core ones (glDrawArraysInstancedARB,
glBeginConditionalRenderNV, glVertexAttribDivisorARB, ...).

The Khronos registry marks a command as an alias when its semantics are the
core command's (driver/gl/registry_aliases.py, generated from it). Each alias
runs the core command's implementation, in contexts that have one of the
extensions adding the alias (the extension table decides: an alias of an
extension the context lacks is GL_INVALID_OPERATION, as an unknown entry point
would be from the application's view). Commands whose extension semantics
differ from the core command are not aliases in the registry and are
implemented on their own.
"""

from __future__ import annotations

import inspect

from driver.gl import enums as E
from driver.gl.compose import LazySignature
from driver.gl.errors import GLError
from driver.gl.extensions import by_name
from driver.gl.features import call
from driver.gl.registry_aliases import ALIAS_EXTENSIONS, ALIASES

__all__ = ["install_aliases"]


def _alias(name: str, target: str, extensions: tuple[str, ...], signature):
    def entry(ctx, *args, **kwargs):
        if not any(ctx.api.has_extension(e) for e in extensions):
            raise GLError(E.GL_INVALID_OPERATION, f"{name}: none of {', '.join(extensions)} is supported")
        return call(ctx, target, *args, **kwargs)       # the C ABI's dest= too (glGetCompressedTexImageARB)
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"{name}: the alias of {target} ({', '.join(extensions)})."
    # the core command's parameters, so callers that pass optional sizes (the C ABI's
    # bufSize) by looking at the signature see the same arity as the core command's
    entry.__signature__ = signature
    return entry


def install_aliases(cls):
    """Class decorator: give `cls` every alias whose core command it implements
    and whose extension is a line of the extension table."""
    known = by_name()
    for name, target in ALIASES.items():
        exts = tuple(e for e in ALIAS_EXTENSIONS.get(name, ()) if e in known)
        if exts and hasattr(cls, target) and not hasattr(cls, name):
            signature = LazySignature(inspect.unwrap(getattr(cls, target)))
            setattr(cls, name, _alias(name, target, exts, signature))
    return cls
