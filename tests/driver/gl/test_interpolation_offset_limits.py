"""GL 4.0's interpolation-offset limits (GL 4.6 table 23.68): MIN/MAX_FRAGMENT_
INTERPOLATION_OFFSET and FRAGMENT_INTERPOLATION_OFFSET_BITS answer (they were
INVALID_ENUM), meet the table's minimums, and interpolateAtOffset at both ends
moves a varying by offset * its per-pixel gradient."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

W = 4
VS = ("#version 400\nout float v;\nvoid main() {\n  vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0;\n"
      "  v = p.x * 0.5 + 0.5;\n  gl_Position = vec4(p, 0.0, 1.0);\n}\n")


def test_limits_and_the_offsets_at_both_ends():
    ctx = glhelp.context(W, W, api="gl43")
    lo = ctx.glGetFloatv(E.GL_MIN_FRAGMENT_INTERPOLATION_OFFSET)[0]
    hi = ctx.glGetFloatv(E.GL_MAX_FRAGMENT_INTERPOLATION_OFFSET)[0]
    bits = ctx.glGetIntegerv(E.GL_FRAGMENT_INTERPOLATION_OFFSET_BITS)[0]
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert lo <= -0.5 and bits >= 4 and hi >= 0.5 - 2.0 ** -bits
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    # v = 0.5 * x_ndc + 0.5 grows by 1/W per pixel along x (2 NDC units are W pixels)
    for offset in (lo, hi):
        glhelp.program(ctx, VS, "#version 400\nin float v;\nout vec4 o;\nvoid main() {\n"
                                f"  float d = (interpolateAtOffset(v, vec2({offset!r}, 0.0)) - v) * {W}.0;\n"
                                "  o = vec4(d + 0.5, 0.0, 0.0, 1.0);\n}\n")
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        red = np.frombuffer(ctx.glReadPixels(0, 0, W, W, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)[:, 0]
        assert (np.abs(red.astype(int) - round((offset + 0.5) * 255)) <= 1).all(), (offset, red)
