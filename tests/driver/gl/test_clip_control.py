"""ARB_clip_control through real draws: GL_UPPER_LEFT flips window y and keeps
the application's notion of front faces; GL_ZERO_TO_ONE maps clip z in [0, 1]
to the depth range and clips z < 0 instead of z < -w."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = ("#version 330\nin vec3 p;\nvoid main() { gl_Position = vec4(p, 1.0); }\n")
FS = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n"


def _draw(origin, depth_mode, tri, cull_back=False, size=4):
    ctx = glhelp.context(size, size, api="gl43")
    prog = glhelp.program(ctx, VS, FS)
    glhelp.vertices(ctx, prog, np.array(tri, np.float32), {"p": (3, 0)}, 3)
    ctx.glClipControl(origin, depth_mode)
    assert ctx.glGetIntegerv(E.GL_CLIP_ORIGIN) == [origin]
    assert ctx.glGetIntegerv(E.GL_CLIP_DEPTH_MODE) == [depth_mode]
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    if cull_back:
        ctx.glEnable(E.GL_CULL_FACE)
        ctx.glCullFace(E.GL_BACK)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    red = np.frombuffer(ctx.glReadPixels(0, 0, size, size, E.GL_RGBA, E.GL_UNSIGNED_BYTE),
                        np.uint8).reshape(size, size, 4)[..., 0] == 255
    depth = np.frombuffer(ctx.glReadPixels(0, 0, size, size, E.GL_DEPTH_COMPONENT, E.GL_FLOAT),
                          np.float32).reshape(size, size)
    return red, depth


# a counter-clockwise triangle covering the top half of NDC (y > 0) at z = 0.5
TOP = [[-3, 0, 0.5], [3, 0, 0.5], [0, 3, 0.5]]


def test_upper_left_flips_y_and_keeps_front_faces():
    red, _ = _draw(E.GL_LOWER_LEFT, E.GL_NEGATIVE_ONE_TO_ONE, TOP, cull_back=True)
    assert red[2:].all() and not red[:2].any()          # rows 2-3 (window y up) are the top
    red, _ = _draw(E.GL_UPPER_LEFT, E.GL_NEGATIVE_ONE_TO_ONE, TOP, cull_back=True)
    assert red[:2].all() and not red[2:].any()          # y flipped; still front-facing (not culled)


@pytest.mark.parametrize("mode,expected", [(E.GL_NEGATIVE_ONE_TO_ONE, 0.75), (E.GL_ZERO_TO_ONE, 0.5)])
def test_depth_mode_maps_z(mode, expected):
    """z = 0.5 with depth range [0, 1]: (0.5 + 1) / 2 = 0.75, or 0.5 itself."""
    red, depth = _draw(E.GL_LOWER_LEFT, mode, TOP)
    assert np.allclose(depth[red], expected, atol=2 ** -20)


def test_zero_to_one_clips_negative_z():
    """At z = -0.5 the triangle is inside [-w, w] but outside [0, w]."""
    below = [[x, y, -0.5] for x, y, _ in TOP]
    red, _ = _draw(E.GL_LOWER_LEFT, E.GL_NEGATIVE_ONE_TO_ONE, below)
    assert red.any()
    red, _ = _draw(E.GL_LOWER_LEFT, E.GL_ZERO_TO_ONE, below)
    assert not red.any()


def test_bad_arguments_change_nothing():
    ctx = glhelp.context(2, 2, api="gl43")
    ctx.glClipControl(E.GL_ZERO_TO_ONE, E.GL_ZERO_TO_ONE)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glClipControl(E.GL_UPPER_LEFT, E.GL_LOWER_LEFT)
    expect(ctx, E.GL_INVALID_ENUM)
    assert ctx.glGetIntegerv(E.GL_CLIP_ORIGIN) == [E.GL_LOWER_LEFT]
