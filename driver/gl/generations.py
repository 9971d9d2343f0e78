"""Generation numbers of the GL object groups, so a draw skips what did not change
(Mesa's dirty state, as numbers that every change moves).

A group (textures and samplers, buffers, vertex arrays, framebuffers and
renderbuffers, transform feedback objects) has one generation number for all its
objects, of every context. (A program's uniform storage has a generation of its
own: driver.gl.uniform_storage. Query objects have none: a draw derives nothing
from them, a query's begin and end go to the pipe at once.)
A class made with ``tracked(group)`` moves the number on every attribute
assignment, and the lists and dicts it holds are replaced by ones that move it on
every change of their content (at any depth: ``tex.images[face][level] = img``
moves it too). So nothing that changes an object has to remember to say so, and a
state derived from the objects of a group stays right while the group's number
is the one it was derived at.

Invariant: an unchanged generation means no object of the group changed since.
A derivation keyed on it must also key on what it reads outside the group
(bindings, enables); it may be conservative (a change elsewhere in the group
derives again)."""

from __future__ import annotations

__all__ = ["Group", "TEXTURES", "BUFFERS", "VERTEX_ARRAYS", "FRAMEBUFFERS", "TRANSFORM_FEEDBACK", "tracked"]


class Group:
    """One group's generation number (``generation``), moved by ``bump()``."""

    __slots__ = ("name", "generation", "list_type", "dict_type")

    def __init__(self, name: str):
        self.name = name
        self.generation = 0
        self.list_type = _tracked_list(self)
        self.dict_type = _tracked_dict(self)

    def bump(self) -> None:
        self.generation += 1

    def wrap(self, value):
        """``value`` as this group's tracked container when it is a plain list or dict
        (its list and dict items too), else itself."""
        if type(value) is list:
            return self.list_type(value)
        if type(value) is dict:
            return self.dict_type(value)
        return value

    def __repr__(self) -> str:
        return f"<generation {self.generation} of {self.name}>"


def _counting(group: Group, container: type, method: str):
    """``container.method`` that also advances ``group``'s generation."""
    base = getattr(container, method)

    def changed(self, *args, **kw):
        out = base(self, *args, **kw)
        group.generation += 1
        return out
    changed.__name__ = method
    return changed


def _tracked_list(group: Group) -> type:
    def changes(method):
        return _counting(group, list, method)

    class TrackedList(list):
        __slots__ = ()

        def __init__(self, items=()):
            super().__init__(group.wrap(v) for v in items)

        def __setitem__(self, index, value):
            if isinstance(index, slice):
                value = [group.wrap(v) for v in value]
            else:
                value = group.wrap(value)
            list.__setitem__(self, index, value)
            group.generation += 1

        def append(self, value):
            list.append(self, group.wrap(value))
            group.generation += 1

        def insert(self, index, value):
            list.insert(self, index, group.wrap(value))
            group.generation += 1

        def extend(self, values):
            list.extend(self, [group.wrap(v) for v in values])
            group.generation += 1

        def __iadd__(self, values):
            self.extend(values)
            return self

        __delitem__ = changes("__delitem__")
        __imul__ = changes("__imul__")
        pop = changes("pop")
        remove = changes("remove")
        clear = changes("clear")
        sort = changes("sort")
        reverse = changes("reverse")

        def __reduce_ex__(self, protocol):
            return type(self), (list(self),)    # a copy is tracked too

    TrackedList.__qualname__ = TrackedList.__name__ = f"TrackedList[{group.name}]"
    return TrackedList


def _tracked_dict(group: Group) -> type:
    def changes(method):
        return _counting(group, dict, method)

    class TrackedDict(dict):
        __slots__ = ()

        def __init__(self, items=(), **kw):
            super().__init__()
            dict.update(self, {k: group.wrap(v) for k, v in dict(items, **kw).items()})

        def __setitem__(self, key, value):
            dict.__setitem__(self, key, group.wrap(value))
            group.generation += 1

        def update(self, items=(), **kw):
            dict.update(self, {k: group.wrap(v) for k, v in dict(items, **kw).items()})
            group.generation += 1

        def setdefault(self, key, default=None):
            if key not in self:
                self[key] = default
            return dict.__getitem__(self, key)

        def __ior__(self, items):
            self.update(items)
            return self

        __delitem__ = changes("__delitem__")
        pop = changes("pop")
        popitem = changes("popitem")
        clear = changes("clear")

        def __reduce_ex__(self, protocol):
            return type(self), (dict(self),)

    TrackedDict.__qualname__ = TrackedDict.__name__ = f"TrackedDict[{group.name}]"
    return TrackedDict


TEXTURES = Group("textures and samplers")
BUFFERS = Group("buffers")
VERTEX_ARRAYS = Group("vertex arrays")
FRAMEBUFFERS = Group("framebuffers and renderbuffers")
TRANSFORM_FEEDBACK = Group("transform feedback objects")


def tracked(group: Group, untracked: frozenset = frozenset()):
    """Class decorator: assigning an attribute of an instance moves ``group``'s
    generation, and a list or dict assigned is held as the group's tracked
    container. ``untracked``: attribute names that are neither (work queued for the
    next use, such as pending uploads, which the user of a derivation checks itself)."""
    def decorate(cls):
        def __setattr__(self, name, value):
            if name in untracked:
                object.__setattr__(self, name, value)
                return
            object.__setattr__(self, name, group.wrap(value))
            group.generation += 1
        cls.__setattr__ = __setattr__
        cls.generation_group = group
        return cls
    return decorate
