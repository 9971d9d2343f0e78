"""GLSL shader variants through the compiler (filled in when the backend lands)."""

from __future__ import annotations

__all__ = ["compile_variant"]

compile_variant = None
