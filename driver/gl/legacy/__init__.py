"""driver.gl.legacy: the legacy (compatibility-profile) OpenGL of GL 2.1 on
top of driver.gl -- immediate mode, the fixed-function pipeline generated
as GLSL from the state (cached by a key of it), display lists, attribute
stacks, raster-position and pixel commands, and glGet of that state.

`LegacyMixin` is composed into driver.gl.Context; every entry point is a
method named like the C function (driver/gl/README.md)."""

from driver.gl.legacy.fixedfunc import FixedFunctionMixin

__all__ = ["LegacyMixin"]


class LegacyMixin(FixedFunctionMixin):
    """Every legacy family, in one base for driver.gl.Context."""
