"""The GL APIs a context can be created for, with their version strings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

__all__ = ["API_NAMES", "Api", "ContextRequestError", "MAX_ES_VERSION", "MAX_GL_VERSION",
           "api_for_request", "get_api", "make_api"]


@dataclass(frozen=True)
class Api:
    """One context flavour. `version` is (major, minor); `glsl` the shading
    language versions accepted by #version, newest first (100 = GLSL ES 1.00)."""
    name: str
    es: bool
    version: tuple[int, int]
    core: bool
    glsl: tuple[str, ...]
    flags: int = 0           # GL_CONTEXT_FLAGS: forward-compatible, debug, robust, no-error

    def at_least(self, major: int, minor: int = 0) -> bool:
        return self.version >= (major, minor)

    @property
    def glsl_extensions(self) -> frozenset[str]:
        """The extensions this context's shaders may enable (#extension) and
        see as macros: the advertised ones with a shading-language part."""
        from driver.gl.extensions import glsl_extensions
        return glsl_extensions(self.es, self.core, self.version)

    def has_extension(self, name: str) -> bool:
        """Whether the context has the extension's functionality: listed, or
        working as part of its core version (driver.gl.extensions)."""
        from driver.gl.extensions import available
        return name in available(self.es, self.core, self.version)

    @property
    def profile_mask(self) -> int:
        """GL_CONTEXT_PROFILE_MASK: core 0x1, compatibility 0x2 (GL 3.2+; 0 otherwise)."""
        if self.es or self.version < (3, 2):
            return 0
        return 0x1 if self.core else 0x2

    @cached_property                # (the fields are frozen: asked on every draw, worked out once)
    def compat(self) -> bool:
        """The fixed-function pipeline and legacy state: the desktop
        compatibility profile, and OpenGL ES 1.x (whose commands are a subset
        of GL 1.5's; driver.gl.features.gles1 limits them to that subset)."""
        return not self.core and (not self.es or self.es1)

    @cached_property
    def es1(self) -> bool:
        """OpenGL ES 1.x (the common profile): fixed function, no shaders."""
        return self.es and self.version < (2, 0)

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
        if self.es1:
            return f"OpenGL ES-CM {ma}.{mi} shimgl"     # ES 1.1 section 6.1.5: "OpenGL ES-CM 1.1"
        if self.es:
            return f"OpenGL ES {ma}.{mi} shimgl"
        profile = " (Core Profile)" if self.core else (" (Compatibility Profile)" if self.version >= (3, 2) else "")
        return f"{ma}.{mi}{profile} shimgl"

    @property
    def glsl_version_string(self) -> str:
        """"" for OpenGL ES 1.x, which has no shading language."""
        if not self.glsl:
            return ""
        top = self.glsl[0]
        if self.es:
            return f"OpenGL ES GLSL ES {top[0]}.{top[1:3]}"
        return f"{top[0]}.{top[1:3]}"


_ES_GLSL = ("320 es", "310 es", "300 es", "100")
_ES_GLSL_OF = {(2, 0): "100", (3, 0): "300 es", (3, 1): "310 es", (3, 2): "320 es"}
_GL_GLSL = ("460", "450", "440", "430", "420", "410", "400", "330", "150", "140", "130", "120", "110")


def _glsl_number(version: tuple[int, int]) -> str:
    """The GLSL version of a desktop GL version (GL 3.0 -> 130 ... 3.3 -> 330)."""
    ma, mi = version
    return {(3, 0): "130", (3, 1): "140", (3, 2): "150"}.get(version, f"{ma}{mi}0")


def _glsl_for(es: bool, version: tuple[int, int]) -> tuple[str, ...]:
    """The #version tokens a context of `version` accepts, newest first."""
    if es and version < (2, 0):
        return ()                   # OpenGL ES 1.x has no shading language
    if es:
        top = _ES_GLSL_OF[version]
        return _ES_GLSL[_ES_GLSL.index(top):]
    return _GL_GLSL[_GL_GLSL.index(_glsl_number(version)):]


def _compiler_glsl_versions() -> frozenset[str]:
    """Every #version token the GLSL compiler accepts."""
    from compiler.glsl.versions import DESKTOP_VERSIONS, ES_VERSIONS as GLSL_ES
    return frozenset([str(v) for v in DESKTOP_VERSIONS]
                     + [("100" if v == 100 else f"{v} es") for v in GLSL_ES])


def _max_versions() -> tuple[tuple[int, int], tuple[int, int]]:
    """(desktop GL, GLES) highest versions, from the extension table."""
    from driver.gl.extensions import max_version
    glsl = _compiler_glsl_versions()
    return max_version(False, glsl), max_version(True, glsl)


MAX_GL_VERSION, MAX_ES_VERSION = _max_versions()


def make_api(es: bool, version: tuple[int, int], core: bool, flags: int = 0,
             name: str | None = None) -> Api:
    """The Api of one context flavour: desktop GL `version` (core or
    compatibility profile) or GLES `version`, with GL_CONTEXT_FLAGS `flags`."""
    if name is None:
        ma, mi = version
        name = f"gles{ma}{mi if mi else ''}" if es else (f"gl{ma}{mi}" if core else "compat")
    return Api(name, es, version, core and not es, _glsl_for(es, version), flags)


# The named flavours of the Python API (driver.Context(api=...)). Core profiles
# from 3.2 to the highest version the driver supports; one compatibility
# profile at that version (as Mesa's llvmpipe and asahi: every feature of the
# core profile is also in the compatibility one); GLES 1.1 ("gles1", the common
# profile: fixed function), GLES 2.0, 3.0, 3.1 (and 3.2 when the table allows it).
API_NAMES: dict[str, Api] = {"gles1": make_api(True, (1, 1), False, name="gles1")}
for _v in ((2, 0), (3, 0), (3, 1), (3, 2)):
    if _v <= MAX_ES_VERSION:
        API_NAMES[make_api(True, _v, False).name] = make_api(True, _v, False)
for _v in ((3, 2), (3, 3), (4, 0), (4, 1), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6)):
    if _v <= MAX_GL_VERSION:
        API_NAMES[make_api(False, _v, True).name] = make_api(False, _v, True)
API_NAMES["compat"] = make_api(False, MAX_GL_VERSION, False)
del _v


class ContextRequestError(ValueError):
    """A context request no flavour satisfies (EGL_BAD_MATCH,
    GLX BadMatch, OSMesa NULL)."""


def api_for_request(es: bool, major: int, minor: int = 0, core: bool = False, *,
                    forward_compatible: bool = False, debug: bool = False,
                    robust: bool = False, no_error: bool = False) -> Api:
    """The context a window-system request gets (EGL_KHR_create_context,
    GLX_ARB_create_context, OSMesaCreateContextAttribs): the newest
    backward-compatible version of the requested API and profile.

    Desktop GL: a request below 3.2, or for the compatibility profile, gets
    the compatibility context; a core request (3.2 and later) the newest core
    profile. GLES 1.0 and 1.1 get the GLES 1.1 context (the common profile),
    GLES 2.0-3.x the newest GLES context. Raises
    ContextRequestError when the requested version is above what the driver
    supports, or is not a version of the API."""
    from driver.gl import enums as E
    valid_gl = {(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 0), (2, 1), (3, 0), (3, 1),
                (3, 2), (3, 3), (4, 0), (4, 1), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6)}
    version = (major, minor)
    flags = ((E.GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT if forward_compatible and not es else 0)
             | (E.GL_CONTEXT_FLAG_DEBUG_BIT if debug else 0)
             | (E.GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT if robust else 0)
             | (E.GL_CONTEXT_FLAG_NO_ERROR_BIT if no_error else 0))
    if debug and no_error:
        raise ContextRequestError("a context cannot be both debug and no-error")
    if es and version in ((1, 0), (1, 1)):
        return make_api(True, (1, 1), False, flags, name="gles1")
    if es:
        if version not in _ES_GLSL_OF:
            known = ", ".join(f"{a}.{b}" for a, b in [(1, 0), (1, 1), *sorted(_ES_GLSL_OF)])
            raise ContextRequestError(f"OpenGL ES {major}.{minor} is not a version of OpenGL ES "
                                      f"(they are {known})")
        if version > MAX_ES_VERSION:
            raise ContextRequestError(f"OpenGL ES {major}.{minor} is not supported "
                                      f"(newest: {MAX_ES_VERSION[0]}.{MAX_ES_VERSION[1]})")
        return make_api(True, MAX_ES_VERSION, False, flags,
                        name=make_api(True, MAX_ES_VERSION, False).name)
    if version not in valid_gl or version > MAX_GL_VERSION:
        raise ContextRequestError(f"OpenGL {major}.{minor} is not supported "
                                  f"(newest: {MAX_GL_VERSION[0]}.{MAX_GL_VERSION[1]})")
    if forward_compatible and version < (3, 0):
        raise ContextRequestError("forward-compatible contexts exist for OpenGL 3.0 and later")
    if core and version >= (3, 2):
        return make_api(False, MAX_GL_VERSION, True, flags)
    if forward_compatible and version in ((3, 0), (3, 1)):
        # GL 3.0/3.1 forward-compatible: no deprecated features, as a core context.
        return make_api(False, MAX_GL_VERSION, True, flags)
    return make_api(False, MAX_GL_VERSION, False, flags)


def get_api(name: str) -> Api:
    try:
        return API_NAMES[name]
    except KeyError:
        raise ValueError(f"unknown GL API {name!r}; one of {sorted(API_NAMES)}") from None
