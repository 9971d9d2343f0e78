"""Shader variants (ir3's shader / key / variant).

A *shader* is what the application compiled: its key-independent IR, already
through ``passes.preprocess``. A *key* is the state outside the shader that
changes its code (blend state, vertex attribute formats, two-sided colour, clip
planes, sample count, ...). A *variant* is the code compiled for one key, made on
first use and cached. The driver decides what goes in each stage's key; this
module only makes keys hashable and caches variants.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from .core import Shader, clone_shader

__all__ = ["ShaderKey", "ShaderVariants"]

T = TypeVar("T")


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, set):
        return tuple(sorted(_freeze(v) for v in value))
    hash(value)     # raises TypeError for anything else that cannot be a key
    return value


@dataclass(frozen=True)
class ShaderKey:
    """An immutable, hashable set of named fields. Lists and dicts become tuples."""
    items: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, **fields) -> "ShaderKey":
        return cls(tuple(sorted((k, _freeze(v)) for k, v in fields.items())))

    def __getitem__(self, name: str) -> Any:
        for k, v in self.items:
            if k == name:
                return v
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self[name]
        except KeyError:
            return default

    def replace(self, **changes) -> "ShaderKey":
        fields = dict(self.items)
        fields.update(changes)
        return ShaderKey.make(**fields)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.items)

    def __str__(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.items) or "(default)"


class ShaderVariants(Generic[T]):
    """The variants of one shader. ``compile_variant(ir, key)`` receives a private
    copy of the IR (it may lower it freely) and returns the variant."""

    def __init__(self, shader: Shader, compile_variant: Callable[[Shader, ShaderKey], T]):
        self.shader = shader
        self.compile_variant = compile_variant
        self._variants: dict[ShaderKey, T] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: ShaderKey) -> T:
        with self._lock:
            found = self._variants.get(key)
            if found is not None:
                self.hits += 1
                return found
            self.misses += 1
            variant = self.compile_variant(clone_shader(self.shader), key)
            self._variants[key] = variant
            return variant

    def __len__(self) -> int:
        return len(self._variants)

    def keys(self) -> list[ShaderKey]:
        return list(self._variants)
