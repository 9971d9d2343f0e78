"""The GL APIs a context can be created for, with their version strings."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["API_NAMES", "Api", "get_api"]


@dataclass(frozen=True)
class Api:
    """One context flavour. `version` is (major, minor); `glsl` the shading
    language versions accepted by #version, newest first (100 = GLSL ES 1.00)."""
    name: str
    es: bool
    version: tuple[int, int]
    core: bool
    glsl: tuple[str, ...]

    def at_least(self, major: int, minor: int = 0) -> bool:
        return self.version >= (major, minor)

    @property
    def compat(self) -> bool:
        return not self.es and not self.core

    def gl(self, major: int, minor: int = 0) -> bool:
        """Desktop GL at least major.minor."""
        return not self.es and self.version >= (major, minor)

    def es_(self, major: int, minor: int = 0) -> bool:
        return self.es and self.version >= (major, minor)

    def gl_or_es(self, gl: tuple[int, int], es: tuple[int, int]) -> bool:
        return self.version >= (es if self.es else gl)

    @property
    def version_string(self) -> str:
        ma, mi = self.version
        if self.es:
            return f"OpenGL ES {ma}.{mi} shimgl"
        profile = " (Core Profile)" if self.core else (" (Compatibility Profile)" if self.version >= (3, 2) else "")
        return f"{ma}.{mi}{profile} shimgl"

    @property
    def glsl_version_string(self) -> str:
        top = self.glsl[0]
        if self.es:
            return f"OpenGL ES GLSL ES {top[0]}.{top[1:3]}"
        return f"{top[0]}.{top[1:3]}"


_ES = ("320 es", "310 es", "300 es", "100")
_GL = ("430", "420", "410", "400", "330", "150", "140", "130", "120", "110")

API_NAMES = {
    "gles2": Api("gles2", True, (2, 0), False, ("100",)),
    "gles3": Api("gles3", True, (3, 0), False, ("300 es", "100")),
    "gles31": Api("gles31", True, (3, 1), False, ("310 es", "300 es", "100")),
    "gl33": Api("gl33", False, (3, 3), True, _GL[4:]),
    "gl43": Api("gl43", False, (4, 3), True, _GL),
    # Compatibility profile: GL 3.3 with the legacy features piglit's GLSL
    # 1.10-1.50 tests use.
    "compat": Api("compat", False, (3, 3), False, _GL[4:]),
}


def get_api(name: str) -> Api:
    try:
        return API_NAMES[name]
    except KeyError:
        raise ValueError(f"unknown GL API {name!r}; one of {sorted(API_NAMES)}") from None
