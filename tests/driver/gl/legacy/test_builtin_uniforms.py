"""GLSL 1.10/1.20 built-in uniform state agrees with the fixed-function
results: a user shader that evaluates the lighting equation from
gl_LightSource / gl_FrontLightProduct / gl_LightModel renders the lit cube
as the generated pipeline does, and other built-ins (fog, texture
environment colour, eye planes, normal scale, depth range, point) read back
the values set through the legacy API."""

from __future__ import annotations

import numpy as np

import driver
from tests.driver.gl.legacy import scenes

W = H = 48

_VS = """#version 120
void main() {
    gl_Position = ftransform();
    vec3 n = normalize(gl_NormalMatrix * gl_Normal);
    vec3 L = normalize(gl_LightSource[0].position.xyz);
    float nl = dot(n, L);
    vec4 c = gl_Color * (gl_LightModel.ambient + gl_LightSource[0].ambient)
           + max(nl, 0.0) * gl_Color * gl_LightSource[0].diffuse;
    if (nl > 0.0)
        c.rgb += pow(max(dot(n, gl_LightSource[0].halfVector.xyz), 0.0), gl_FrontMaterial.shininess)
                 * gl_FrontLightProduct[0].specular.rgb;
    gl_FrontColor = clamp(vec4(c.rgb, gl_Color.a), 0.0, 1.0);
}
"""
_FS = """#version 120
void main() { gl_FragColor = gl_Color; }
"""


def _program(ctx, vs, fs):
    prog = ctx.glCreateProgram()
    for kind, src in ((ctx.GL_VERTEX_SHADER, vs), (ctx.GL_FRAGMENT_SHADER, fs)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, ctx.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, ctx.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    return prog


class _WithProgram:
    """The scene's GL calls, with a user program bound after the state is set."""

    def __init__(self, ctx, prog):
        self.ctx, self.prog = ctx, prog

    def __getattr__(self, name):
        if name == "glBegin":
            def begin(mode):
                self.ctx.glUseProgram(self.prog)
                self.ctx.glBegin(mode)
            return begin
        return getattr(self.ctx, name)


def test_user_lighting_shader_matches_the_fixed_function_cube():
    ff = driver.Context(api="compat", width=W, height=H)
    scenes.lit_cube(ff, W, H)
    user = driver.Context(api="compat", width=W, height=H)
    prog = _program(user, _VS, _FS)
    scenes.lit_cube(_WithProgram(user, prog), W, H)
    a, b = ff.read_pixels().astype(int), user.read_pixels().astype(int)
    assert user.glGetError() == user.GL_NO_ERROR
    assert (a[..., :3].sum(-1) > 60).mean() > 0.3              # the cube covers the view
    assert np.abs(a - b).max() <= 1


def test_builtin_state_values():
    ctx = driver.Context(api="compat", width=4, height=4)
    ctx.glFogf(ctx.GL_FOG_START, 2.0)
    ctx.glFogf(ctx.GL_FOG_END, 6.0)
    ctx.glFogf(ctx.GL_FOG_DENSITY, 0.75)
    ctx.glFogfv(ctx.GL_FOG_COLOR, (0.5, 0.25, 0.125, 1.0))
    ctx.glActiveTexture(ctx.GL_TEXTURE1)
    ctx.glTexEnvfv(ctx.GL_TEXTURE_ENV, ctx.GL_TEXTURE_ENV_COLOR, (0.2, 0.4, 0.6, 0.8))
    ctx.glTexGenfv(ctx.GL_T, ctx.GL_EYE_PLANE, (0.0, 0.5, 0.0, 0.25))
    ctx.glActiveTexture(ctx.GL_TEXTURE0)
    ctx.glScalef(2.0, 2.0, 2.0)                                 # gl_NormalScale = 2 (section 2.11.3)
    ctx.glDepthRange(0.25, 0.75)
    ctx.glPointSize(4.0)
    checks = [("gl_Fog.color", (0.5, 0.25, 0.125, 1.0)),
              ("vec4(gl_Fog.scale, gl_Fog.density, gl_Fog.start / 4.0, gl_Fog.end / 8.0)", (0.25, 0.75, 0.5, 0.75)),
              ("gl_TextureEnvColor[1]", (0.2, 0.4, 0.6, 0.8)),
              ("gl_EyePlaneT[1] + vec4(0.0, 0.0, 0.0, 0.5)", (0.0, 0.5, 0.0, 0.75)),   # set before glScalef
              ("vec4(gl_NormalScale / 4.0, gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff)",
               (0.5, 0.25, 0.75, 0.5)),
              # POINT_SIZE_MAX starts at the largest point size, 511.95 (GL 2.1 table 6.12)
              ("vec4(gl_Point.size / 8.0, gl_Point.sizeMin, gl_Point.sizeMax / 1023.9, 1.0)", (0.5, 0.0, 0.5, 1.0)),
              ("gl_LightSource[0].diffuse * 0.5", (0.5, 0.5, 0.5, 0.5)),
              ("gl_FrontMaterial.diffuse", (0.8, 0.8, 0.8, 1.0))]
    for expr, want in checks:
        prog = _program(ctx, "#version 120\nvoid main() { gl_Position = vec4(gl_Vertex.xy, 0.0, 1.0); }\n",
                        f"#version 120\nvoid main() {{ gl_FragColor = {expr}; }}\n")
        ctx.glUseProgram(prog)
        ctx.glBegin(ctx.GL_QUADS)
        for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            ctx.glVertex2f(x, y)
        ctx.glEnd()
        got = ctx.read_pixels()[1, 1] / 255.0
        assert np.abs(got - want).max() <= 1.5 / 255, (expr, got, want)


def test_fog_scale_is_infinite_when_start_equals_end():
    """gl_Fog.scale is 1 / (end - start): +infinity when they are equal (Mesa's value; it
    was 0). Left of the middle gl_FogFragCoord = x < 0 gives (-inf, +inf) -> green, right
    of it (+inf, -inf) -> red (piglit's glsl-fs-fogscale). The fixed-function and ARB
    linear fog blends take 1 instead of the infinity: f = clamp(end - c) = 0.5 - 0.25."""
    ctx = driver.Context(api="compat", width=8, height=8)
    ctx.glFogf(ctx.GL_FOG_START, 0.0)
    ctx.glFogf(ctx.GL_FOG_END, 0.0)
    prog = _program(ctx, "#version 120\nvoid main() { gl_Position = gl_Vertex; gl_FogFragCoord = gl_Position.x; }\n",
                    "#version 120\nvoid main() {\n"
                    "    gl_FragColor = vec4(gl_FogFragCoord * gl_Fog.scale * vec2(1.0, -1.0), 0.0, 1.0);\n}\n")
    ctx.glUseProgram(prog)
    ctx.glRectf(-1, -1, 1, 1)
    img = ctx.read_pixels()
    assert (img[:, :4] == (0, 255, 0, 255)).all() and (img[:, 4:] == (255, 0, 0, 255)).all()
    ctx.glUseProgram(0)
    ctx.glFogf(ctx.GL_FOG_START, 0.5)
    ctx.glFogf(ctx.GL_FOG_END, 0.5)
    ctx.glFogi(ctx.GL_FOG_MODE, ctx.GL_LINEAR)
    ctx.glFogi(ctx.GL_FOG_COORD_SRC, ctx.GL_FOG_COORD)
    ctx.glFogfv(ctx.GL_FOG_COLOR, (0.0, 0.0, 1.0, 1.0))
    ctx.glEnable(ctx.GL_FOG)
    ctx.glColor4f(1.0, 0.0, 0.0, 1.0)
    ctx.glFogCoordf(0.25)
    ctx.glRectf(-1, -1, 1, 1)
    got = ctx.read_pixels()[4, 4]
    assert np.abs(got.astype(int) - (64, 0, 191, 255)).max() <= 1, got      # 0.25 red + 0.75 blue
    assert ctx.glGetError() == ctx.GL_NO_ERROR
