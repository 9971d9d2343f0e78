"""ARB programs drawn through driver.Context(api="compat") (the compiler
backend and the software GPU), against hand-computed pixels."""

import numpy as np
import pytest

from driver.gl import enums as E

VP, FP = E.GL_VERTEX_PROGRAM_ARB, E.GL_FRAGMENT_PROGRAM_ARB
W = H = 16


@pytest.fixture
def ctx():
    import driver
    c = driver.Context(api="compat", width=W, height=H)
    c.glClearColor(0.0, 0.0, 0.0, 1.0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    return c


def load(c, target, name, text: bytes):
    c.glBindProgramARB(target, name)
    c.glProgramStringARB(target, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(text), text)
    assert c.glGetError() == E.GL_NO_ERROR, c.glGetString(E.GL_PROGRAM_ERROR_STRING_ARB)
    c.glEnable(target)


def quad(c, x0=-1.0, y0=-1.0, x1=1.0, y1=1.0, texcoords=True):
    c.glBegin(E.GL_QUADS)
    for (x, y), (s, t) in zip(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), ((0, 0), (1, 0), (1, 1), (0, 1))):
        if texcoords:
            c.glTexCoord2f(s, t)
        c.glVertex2f(x, y)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]


def pixels(c):
    return np.asarray(c.read_pixels()).astype(int)


def unorm(v):
    return np.round(np.clip(np.asarray(v, float), 0, 1) * 255).astype(int)


MVP_VP = b"""!!ARBvp1.0
PARAM mvp[4] = { state.matrix.mvp };
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
MUL result.color, vertex.color, program.env[0];
MOV result.texcoord[0], vertex.texcoord[0];
END
"""


def test_vertex_and_fragment_programs(ctx):
    c = ctx
    load(c, VP, 1, MVP_VP)
    load(c, FP, 2, b"!!ARBfp1.0\nPARAM k = program.local[1];\n"
                   b"MAD result.color, fragment.color, k, {0, 0.5, 0, 0};\nEND\n")
    c.glProgramEnvParameter4fARB(VP, 0, 0.5, 1.0, 1.0, 1.0)
    c.glProgramLocalParameter4fARB(FP, 1, 1.0, 0.0, 2.0, 1.0)
    c.glMatrixMode(E.GL_MODELVIEW)
    c.glLoadIdentity()
    c.glScalef(0.5, 0.5, 1.0)                  # the quad covers the middle half of the window
    c.glColor4f(0.8, 0.25, 0.25, 1.0)
    quad(c)
    px = pixels(c)
    # (0.8, 0.25, 0.25, 1) * (0.5, 1, 1, 1) = (0.4, 0.25, 0.25, 1); * (1, 0, 2, 1) + (0, 0.5, 0, 0)
    inside = unorm([0.4, 0.5, 0.5, 1.0])
    assert (px[4:12, 4:12] == inside).all(), px[8, 8]
    assert (px[:4] == [0, 0, 0, 255]).all() and (px[:, 12:] == [0, 0, 0, 255]).all()


def test_env_parameter_change_reaches_the_next_draw(ctx):
    c = ctx
    load(c, VP, 1, MVP_VP)
    c.glColor4f(1, 1, 1, 1)
    for colour in ((1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)):
        c.glProgramEnvParameter4fvARB(VP, 0, colour)
        quad(c)
        assert (pixels(c) == unorm(colour)).all()


def texture_2x2(c, unit):
    texels = np.array([[[255, 0, 0, 255], [0, 255, 0, 255]],
                       [[0, 0, 255, 255], [255, 255, 255, 255]]], np.uint8)   # rows bottom-up
    c.glActiveTexture(E.GL_TEXTURE0 + unit)
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels.tobytes())
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    c.glActiveTexture(E.GL_TEXTURE0)
    return texels


def test_fragment_program_tex_with_the_fixed_function_vertex_stage(ctx):
    c = ctx
    texels = texture_2x2(c, 2)
    load(c, FP, 5, b"""!!ARBfp1.0
TEMP t;
TEX t, fragment.texcoord[0], texture[2], 2D;
MUL t.rgb, t, fragment.color;
SUB result.color.rgb, t, 0.25;
MOV result.color.a, 1;
END
""")
    c.glColor4f(1.0, 0.5, 1.0, 1.0)
    quad(c)
    px = pixels(c)
    want = np.clip(texels[..., :3] / 255 * [1.0, 0.5, 1.0] - 0.25, 0, 1)
    for ty in range(2):
        for tx in range(2):
            block = px[ty * 8:(ty + 1) * 8, tx * 8:(tx + 1) * 8]
            assert (block[..., :3] == unorm(want[ty, tx])).all(), (ty, tx, block[0, 0])


def test_kil_discards_fragments(ctx):
    c = ctx
    load(c, FP, 3, b"""!!ARBfp1.0
TEMP d;
SUB d, fragment.texcoord[0].x, 0.5;
KIL d;
MOV result.color, {0, 1, 0, 1};
END
""")
    quad(c)
    px = pixels(c)
    assert (px[:, :8] == [0, 0, 0, 255]).all()
    assert (px[:, 8:] == [0, 255, 0, 255]).all()


def test_vertex_program_relative_addressing_generic_attributes_and_lighting_state(ctx):
    c = ctx
    load(c, VP, 4, b"""!!ARBvp1.0
ADDRESS A0;
PARAM colours[3] = { {1, 0, 0, 1}, state.material.diffuse, program.env[7] };
ARL A0.x, vertex.attrib[6].x;
MOV result.position, vertex.position;
MOV result.color, colours[A0.x + 1];
END
""")
    c.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, (0.0, 0.6, 0.2, 1.0))
    c.glProgramEnvParameter4fARB(VP, 7, 0.0, 0.0, 1.0, 1.0)
    for index, colour in ((-1.0, (1, 0, 0, 1)), (0.0, (0.0, 0.6, 0.2, 1.0)), (1.5, (0, 0, 1, 1))):
        c.glVertexAttrib4fARB(6, index, 0.0, 0.0, 1.0)
        quad(c, texcoords=False)
        assert (pixels(c) == unorm(colour)).all(), (index, pixels(c)[0, 0])


def test_position_invariant_and_fog_option(ctx):
    c = ctx
    load(c, VP, 8, b"""!!ARBvp1.0
OPTION ARB_position_invariant;
MOV result.color, vertex.color;
MOV result.fogcoord.x, vertex.texcoord[0].x;
END
""")
    load(c, FP, 9, b"!!ARBfp1.0\nOPTION ARB_fog_linear;\nMOV result.color, fragment.color;\nEND\n")
    c.glFogi(E.GL_FOG_MODE, E.GL_LINEAR)
    c.glFogf(E.GL_FOG_START, 0.0)
    c.glFogf(E.GL_FOG_END, 1.0)
    c.glFogfv(E.GL_FOG_COLOR, (0.0, 0.0, 1.0, 1.0))
    c.glMatrixMode(E.GL_MODELVIEW)
    c.glLoadIdentity()
    c.glScalef(0.5, 1.0, 1.0)
    c.glColor4f(1.0, 0.0, 0.0, 1.0)
    quad(c)
    px = pixels(c)
    assert (px[:, :4] == [0, 0, 0, 255]).all() and (px[:, 12:] == [0, 0, 0, 255]).all()
    # fog factor f = (end - s) / (end - start) = 1 - s, s across the quad's 8 columns
    s = (np.arange(8) + 0.5) / 8
    f = 1 - s
    want = np.stack([f, np.zeros(8), 1 - f], -1)
    assert np.abs(px[8, 4:12, :3] - want * 255).max() <= 2, px[8, 4:12]


def test_program_matrix_rows_and_inverse(ctx):
    c = ctx
    load(c, VP, 10, b"""!!ARBvp1.0
PARAM m[4] = { state.matrix.program[3].row[0..3] };
PARAM inv = state.matrix.program[3].inverse.row[0];
DP4 result.position.x, m[0], vertex.position;
DP4 result.position.y, m[1], vertex.position;
DP4 result.position.z, m[2], vertex.position;
DP4 result.position.w, m[3], vertex.position;
MOV result.color, inv;
END
""")
    c.glMatrixMode(E.GL_MATRIX3_ARB)
    c.glLoadIdentity()
    c.glScalef(0.5, 0.5, 1.0)           # the quad shrinks to the middle; inverse row 0 = (2, 0, 0, 0)
    c.glMatrixMode(E.GL_MODELVIEW)
    quad(c, texcoords=False)
    px = pixels(c)
    assert (px[4:12, 4:12] == [255, 0, 0, 0]).all(), px[8, 8]
    assert (px[:4] == [0, 0, 0, 255]).all()


@pytest.mark.parametrize("two_side, want", [(False, [255, 0, 0, 255]), (True, [0, 255, 0, 255])])
def test_back_colour_with_vertex_program_two_side(ctx, two_side, want):
    c = ctx
    load(c, VP, 11, b"""!!ARBvp1.0
MOV result.position, vertex.position;
MOV result.color.front, {1, 0, 0, 1};
MOV result.color.back, {0, 1, 0, 1};
END
""")
    if two_side:
        c.glEnable(E.GL_VERTEX_PROGRAM_TWO_SIDE)
    c.glBegin(E.GL_QUADS)                     # clockwise: a back face
    for x, y in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
        c.glVertex2f(x, y)
    c.glEnd()
    assert (pixels(c) == want).all(), pixels(c)[0, 0]


def test_light_product_alpha_is_the_materials(ctx):
    c = ctx
    load(c, VP, 12, b"""!!ARBvp1.0
MOV result.position, vertex.position;
MOV result.color, state.lightprod[2].back.diffuse;
END
""")
    c.glLightfv(E.GL_LIGHT2, E.GL_DIFFUSE, (0.5, 1.0, 0.25, 0.5))
    c.glMaterialfv(E.GL_BACK, E.GL_DIFFUSE, (0.5, 0.5, 1.0, 0.75))
    quad(c, texcoords=False)
    assert (pixels(c) == unorm([0.25, 0.5, 0.25, 0.75])).all(), pixels(c)[0, 0]


def test_position_invariant_programs_clip_in_eye_space(ctx):
    c = ctx
    load(c, VP, 13, b"!!ARBvp1.0\nOPTION ARB_position_invariant;\nMOV result.color, {1, 1, 1, 1};\nEND\n")
    c.glMatrixMode(E.GL_PROJECTION)
    c.glLoadIdentity()
    c.glScalef(0.5, 1.0, 1.0)                  # eye x = 0.5 lands at clip x = 0.25 (column 10)
    c.glMatrixMode(E.GL_MODELVIEW)
    c.glLoadIdentity()
    c.glClipPlane(E.GL_CLIP_PLANE0, (1.0, 0.0, 0.0, -0.5))     # keep eye x >= 0.5
    c.glEnable(E.GL_CLIP_PLANE0)
    quad(c, texcoords=False)
    px = pixels(c)
    assert (px[:, 10:12] == 255).all() and (px[:, :10] == [0, 0, 0, 255]).all() \
        and (px[:, 12:] == [0, 0, 0, 255]).all(), px[8]


GLSL_VS = """#version 110
uniform vec4 tint;
void main() { gl_Position = gl_Vertex; gl_FrontColor = tint; }
"""


def glsl_vertex_program(c):
    sh = c.glCreateShader(E.GL_VERTEX_SHADER)
    c.glShaderSource(sh, 1, [GLSL_VS], None)
    c.glCompileShader(sh)
    p = c.glCreateProgram()
    c.glAttachShader(p, sh)
    c.glLinkProgram(p)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    return p


def test_glsl_vertex_shader_with_an_arb_fragment_program(ctx):
    """GL 2.0 section 2.15: a program without a fragment shader leaves that stage
    to the enabled fragment program."""
    c = ctx
    p = glsl_vertex_program(c)
    c.glUseProgram(p)
    c.glUniform4f(c.glGetUniformLocation(p, "tint"), 0.25, 0.5, 1.0, 1.0)
    load(c, FP, 14, b"!!ARBfp1.0\nMUL result.color, fragment.color, {2, 1, 0.5, 1};\nEND\n")
    quad(c, texcoords=False)
    assert (pixels(c) == unorm([0.5, 0.5, 0.5, 1.0])).all(), pixels(c)[0, 0]
    c.glUniform4f(c.glGetUniformLocation(p, "tint"), 0.0, 0.25, 0.0, 1.0)     # later values reach it
    quad(c, texcoords=False)
    assert (pixels(c) == unorm([0.0, 0.25, 0.0, 1.0])).all(), pixels(c)[0, 0]


def test_invalid_fragment_program_with_a_glsl_vertex_shader_fails_the_draw(ctx):
    c = ctx
    c.glUseProgram(glsl_vertex_program(c))
    c.glBindProgramARB(FP, 15)
    c.glProgramStringARB(FP, E.GL_PROGRAM_FORMAT_ASCII_ARB, 18, b"this won't compile")
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glEnable(FP)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glDisable(FP)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.glGetError() == E.GL_NO_ERROR


def test_shadow_texture_comparison(ctx):
    c = ctx
    depth = np.array([0.25, 0.75], np.float32)
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT, 2, 1, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT,
                   depth.tobytes())
    for pname, value in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                         (E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE),
                         (E.GL_TEXTURE_COMPARE_FUNC, E.GL_LEQUAL)):
        c.glTexParameteri(E.GL_TEXTURE_2D, pname, value)
    load(c, FP, 16, b"!!ARBfp1.0\nOPTION ARB_fragment_program_shadow;\n"
                    b"TEX result.color, fragment.texcoord[0], texture[0], SHADOW2D;\nEND\n")
    c.glBegin(E.GL_QUADS)
    for (x, y), (s, t) in zip(((-1, -1), (1, -1), (1, 1), (-1, 1)), ((0, 0), (1, 0), (1, 1), (0, 1))):
        c.glTexCoord3f(s, t, 0.5)                 # r = 0.5: passes LEQUAL against 0.75 only
        c.glVertex2f(x, y)
    c.glEnd()
    px = pixels(c)
    assert (px[:, :8] == [0, 0, 0, 255]).all() and (px[:, 8:] == 255).all(), px[0]
