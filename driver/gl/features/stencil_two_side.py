"""GL_EXT_stencil_two_side (compatibility contexts): a second, back-face set of
stencil state selected by glActiveStencilFaceEXT and used for back-facing
polygons while STENCIL_TEST_TWO_SIDE_EXT is enabled.

As in Mesa, the extension's back set is a third StencilFace beside GL 2.0's
front and back ones (driver/gl/state.py, ``StencilBufferState``): with the active
face FRONT, glStencilFunc/Op/Mask set the front and GL 2.0's back face (GL 2.0's
FRONT_AND_BACK); with BACK they set only the extension's back face. The
STENCIL_FUNC/REF/VALUE_MASK/WRITEMASK/FAIL/PASS_DEPTH_* queries answer the active
face (driver/gl/get.py), the STENCIL_BACK_* ones GL 2.0's back face, and a draw
tests back-facing polygons with the extension's set only while the enable is on
(``state.drawn_stencil_faces``); glStencil*Separate keep setting GL 2.0's faces.
Points, lines and front-facing polygons use the front set, as with GL 2.0's
separate stencil. glClear uses the front write mask.
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError, check_enum
from driver.gl.features import entry_point
from driver.gl.state import STENCIL_FRONT, STENCIL_TWO_SIDE_BACK

__all__: list[str] = []


@entry_point
def glActiveStencilFaceEXT(ctx, face):
    if not ctx.api.has_extension("GL_EXT_stencil_two_side"):
        raise GLError(E.GL_INVALID_OPERATION, "glActiveStencilFaceEXT needs GL_EXT_stencil_two_side")
    check_enum(face, (E.GL_FRONT, E.GL_BACK))
    ctx.state.stencil_buffer.active_stencil_face = STENCIL_FRONT if face == E.GL_FRONT else STENCIL_TWO_SIDE_BACK
