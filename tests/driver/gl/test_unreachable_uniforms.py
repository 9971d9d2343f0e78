"""Uniforms read only by functions that main never calls are not active (GL 4.6
section 7.3.1), as in Mesa, which drops such functions before it counts: they
have no location, are not listed, and their samplers do not take part in the
draw-time check of sampler types per texture unit (Blender's EEVEE declares many
samplers that its world shader never reads, all on unit 0)."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = """#version 330
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""

FS = """#version 330
uniform sampler2D used_tex;
uniform samplerCube cube_never_read;
uniform sampler2DArray array_never_read;
uniform vec4 tint;
uniform vec4 colour_never_read;
out vec4 c;
vec4 never_called(vec3 d) {
    return texture(cube_never_read, d) + texture(array_never_read, d) + colour_never_read;
}
vec4 called() { return texture(used_tex, vec2(0.5)) * tint; }
void main() { c = called(); }"""


def test_uniforms_of_uncalled_functions_are_inactive_and_the_draw_runs():
    ctx = glhelp.context(8, 8, api="gl43")
    p = glhelp.program(ctx, VS, FS)
    for name in ("cube_never_read", "array_never_read", "colour_never_read"):
        assert ctx.glGetUniformLocation(p, name) == -1, name
    for name in ("used_tex", "tint"):
        assert ctx.glGetUniformLocation(p, name) >= 0, name
    assert ctx.glGetProgramiv(p, E.GL_ACTIVE_UNIFORMS)[0] == 2
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     bytes([200, 100, 50, 255]))
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "tint"), 1.0, 0.5, 1.0, 1.0)
    glhelp.vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)          # every sampler uniform on unit 0
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = np.frombuffer(ctx.glReadPixels(4, 4, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert px.tolist() == [200, 50, 50, 255]


def test_a_called_function_keeps_its_samplers_active_and_checked():
    ctx = glhelp.context(8, 8, api="gl43")
    p = glhelp.program(ctx, VS, FS.replace("c = called();", "c = called() + never_called(vec3(1.0));"))
    assert ctx.glGetUniformLocation(p, "cube_never_read") >= 0
    glhelp.vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)          # 2D, cube and array samplers all on unit 0
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
