"""How driver.gl.Context is put together from its families (the structure,
not the features).

A *family* is a class used as a namespace of the methods of one area of GL
(textures, framebuffers, the legacy layer's fixed function, ...). The
families are not bases of the Context class: ``compose`` installs their
methods into it, so the class's MRO stays short and, above all, every
method has exactly one definition. Two families defining the same name is
an error when the class is built, not an override decided by base order.

Where one layer changes what the core does (the compatibility profile's
fixed function choosing the program of a draw, display lists, selection
mode discarding a clear, ...), it says so explicitly: a method marked
``@extends`` receives the implementation it extends as its second argument
``core`` and calls it (or not) where it wants to. The marked methods are
the list of the hooks a layer has on the core; each must find a method of
its name to extend (a renamed core method cannot silently leave a hook
behind). Hooks chain in family order: the family listed first is the
outermost.

A family's ``_init_family(ctx)`` sets up its state; the composed class
runs them in family order (``init_families``)."""

from __future__ import annotations

import inspect

__all__ = ["LazySignature", "compose", "extends", "init_families"]

_SKIPPED = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__",
            "__firstlineno__", "__static_attributes__", "__init_subclass__"}


class LazySignature(inspect.Signature):
    """The signature of callable ``of``, worked out when first read. An entry
    point that takes another's parameters (a hook chain, an alias, a forward)
    carries one as ``__signature__``: the C ABI reads a few of them on first
    call, and working out ~450 of them when the Context class was built was
    ~5% of a C host's start. ``inspect.signature`` returns it as is (it is a
    Signature); its parameters are ``inspect.signature(of)``'s."""

    __slots__ = ("_of",)

    def __init__(self, of):             # (Signature's own fields stay unset until read)
        self._of = of

    def __getattr__(self, name):
        if name not in ("_parameters", "_return_annotation"):
            raise AttributeError(name)
        real = inspect.signature(self._of)
        self._parameters, self._return_annotation = real._parameters, real._return_annotation
        return getattr(real, name)


def extends(fn):
    """Mark ``fn(self, core, *args)`` as a hook on the method of the same name
    that the families after it (or the context base) define."""
    fn.__gl_extends__ = True
    return fn


def _chain(hook, core):
    """The method running ``hook`` with ``core`` bound to the same context."""
    def method(self, *args, **kwargs):
        return hook(self, core.__get__(self), *args, **kwargs)
    # the core's name and signature (the C ABI reads entry points' signatures); no
    # __wrapped__: features.call unwraps to the outermost hook, not to the core
    method.__name__, method.__qualname__ = core.__name__, core.__qualname__
    method.__module__ = hook.__module__
    method.__doc__ = hook.__doc__ or core.__doc__
    method.__signature__ = LazySignature(core)
    method.__gl_hook_of__ = (hook, core)
    return method


def _uses_super(value) -> bool:
    """Whether a function (or a property's accessor) uses super() / __class__,
    which cannot work in a method installed outside its class."""
    fns = (value.fget, value.fset, value.fdel) if isinstance(value, property) else (value,)
    return any("__class__" in getattr(getattr(fn, "__code__", None), "co_freevars", ()) for fn in fns)


def compose(cls, families):
    """Install every method of ``families`` (outermost first) into ``cls``.

    Raises TypeError when two families (or a family and ``cls``'s bases)
    define the same name without ``@extends``, when a hook has nothing to
    extend, when a family has bases of its own, or when a method uses
    super() (a family is not a base class: say what is extended with
    ``@extends``)."""
    owner: dict[str, type] = {}
    hooks: list[tuple[type, str, object]] = []
    inits = []
    for family in families:
        if family.__bases__ != (object,):
            raise TypeError(f"family {family.__name__} has bases; families are flat namespaces")
        for name, value in family.__dict__.items():
            if name in _SKIPPED:
                continue
            if _uses_super(value):
                raise TypeError(f"{family.__name__}.{name} uses super(); a family is not a base class "
                                f"(mark a hook with @extends and call its 'core')")
            if name == "_init_family":
                inits.append(value)
                continue
            if getattr(value, "__gl_extends__", False):
                hooks.append((family, name, value))
                continue
            if name in owner or hasattr(cls, name):
                other = owner[name].__name__ if name in owner else "the context base"
                raise TypeError(f"{name} is defined by {family.__name__} and {other}; "
                                f"one definition per name (mark a hook with @extends)")
            owner[name] = family
            setattr(cls, name, value)
    for family, name, hook in reversed(hooks):          # innermost first
        core = getattr(cls, name, None)
        if core is None:
            raise TypeError(f"{family.__name__}.{name} extends nothing: no method {name}")
        setattr(cls, name, _chain(hook, core))
    cls._family_inits = tuple(inits)
    cls._family_owner = owner
    return cls


def init_families(ctx) -> None:
    """Run each family's ``_init_family`` in family order."""
    for init in type(ctx)._family_inits:
        init(ctx)
