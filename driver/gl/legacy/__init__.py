"""driver.gl.legacy: the legacy (compatibility-profile) OpenGL of GL 2.1 on
top of driver.gl -- immediate mode, the fixed-function pipeline generated
as GLSL from the state (cached by a key of it), display lists, attribute
stacks, raster-position and pixel commands, and glGet of that state.

`LEGACY_FAMILIES` are composed into driver.gl.Context and `install_dispatch`
decorates the final class (display-list recording and the Begin/End
rule); every entry point is a method named like the C function
(driver/gl/README.md)."""

from driver.gl.legacy.apple_vao import AppleVertexArrayMixin
from driver.gl.legacy.atifs import AtiFragmentShaderMixin
from driver.gl.legacy.attrib import AttribMixin
from driver.gl.legacy.dlist import DisplayListMixin, install_dispatch
from driver.gl.legacy.evaluators import EvaluatorMixin
from driver.gl.legacy.ext_dsa import ExtDirectStateAccessMixin
from driver.gl.legacy.ext_vertex_array import ExtVertexArrayMixin
from driver.gl.legacy.fixedfunc import FixedFunctionMixin
from driver.gl.legacy.get import GetLegacyMixin
from driver.gl.legacy.immediate import ImmediateMixin
from driver.gl.legacy.primitives import PrimitiveMixin
from driver.gl.legacy.raster import RasterMixin
from driver.gl.legacy.select import SelectFeedbackMixin

__all__ = ["LEGACY_FAMILIES", "install_dispatch"]

# The legacy families in hook order (the first is the outermost; driver.gl.compose).
# GL_ATI_fragment_shader's draw hook runs inside the ARB programs' (they take precedence).
LEGACY_FAMILIES = (AtiFragmentShaderMixin, AppleVertexArrayMixin, ExtVertexArrayMixin,
                   ExtDirectStateAccessMixin, GetLegacyMixin, SelectFeedbackMixin, PrimitiveMixin, ImmediateMixin, EvaluatorMixin, RasterMixin,
                   DisplayListMixin, AttribMixin, FixedFunctionMixin)
