"""glMaterial between glBegin and glEnd (GL 2.1 section 2.14.2: the change
applies from the next vertex on) and glColor with GL_COLOR_MATERIAL, against
the lighting equation worked out here; the `material_in_begin_end` program
is also compared with llvmpipe in test_render."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

N = 32


def lit_context(back=False):
    ctx = driver.Context(api="compat", width=N, height=N)
    ctx.glEnable(E.GL_LIGHTING)
    ctx.glEnable(E.GL_LIGHT0)
    ctx.glLightModelfv(E.GL_LIGHT_MODEL_AMBIENT, (0.0, 0.0, 0.0, 1.0))
    if back:
        ctx.glLightModeli(E.GL_LIGHT_MODEL_TWO_SIDE, 1)
        ctx.glLightfv(E.GL_LIGHT0, E.GL_POSITION, (0.0, 0.0, -1.0, 0.0))
    return ctx


def red_to_blue_quad(ctx, face=E.GL_FRONT, clockwise=False):
    """Diffuse red for the two bottom vertices, blue from the third on."""
    ctx.glNormal3f(0.0, 0.0, 1.0)
    ctx.glBegin(E.GL_QUADS)
    ctx.glMaterialfv(face, E.GL_DIFFUSE, (1.0, 0.0, 0.0, 1.0))
    xs = (1.0, -1.0) if clockwise else (-1.0, 1.0)
    ctx.glVertex2f(xs[0], -1.0)
    ctx.glVertex2f(xs[1], -1.0)
    ctx.glMaterialfv(face, E.GL_DIFFUSE, (0.0, 0.0, 1.0, 1.0))
    ctx.glVertex2f(xs[1], 1.0)
    ctx.glVertex2f(xs[0], 1.0)
    ctx.glEnd()


def gradient():
    """Light 0 (diffuse 1, along +z) on a +z normal: colour = material
    diffuse, interpolated from red (bottom edge) to blue (top edge)."""
    t = (np.arange(N) + 0.5) / N
    return np.stack([(1 - t) * 255, np.zeros(N), t * 255], 1)


def test_material_changes_apply_per_vertex():
    ctx = lit_context()
    red_to_blue_quad(ctx)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = ctx.read_pixels().astype(int)
    assert np.abs(img[:, N // 2, :3] - gradient()).max() <= 2
    assert (img[:, 3, :3] == img[:, N - 4, :3]).all()
    # the current material after glEnd is the last one set
    assert ctx.glGetMaterialfv(E.GL_FRONT, E.GL_DIFFUSE) == [0.0, 0.0, 1.0, 1.0]


def test_back_material_changes_apply_per_vertex_with_two_sided_lighting():
    ctx = lit_context(back=True)
    ctx.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, (0.0, 1.0, 0.0, 1.0))
    red_to_blue_quad(ctx, face=E.GL_BACK, clockwise=True)
    img = ctx.read_pixels().astype(int)
    assert np.abs(img[:, N // 2, :3] - gradient()).max() <= 2
    assert ctx.glGetMaterialfv(E.GL_FRONT, E.GL_DIFFUSE) == [0.0, 1.0, 0.0, 1.0]


def test_material_changes_in_a_display_list_replay_per_vertex():
    ctx = lit_context()
    lst = ctx.glGenLists(1)
    ctx.glNewList(lst, E.GL_COMPILE)
    red_to_blue_quad(ctx)
    ctx.glEndList()
    ctx.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, (0.0, 1.0, 0.0, 1.0))
    assert ctx.glGetMaterialfv(E.GL_FRONT, E.GL_DIFFUSE) == [0.0, 1.0, 0.0, 1.0]
    ctx.glCallList(lst)
    img = ctx.read_pixels().astype(int)
    assert np.abs(img[:, N // 2, :3] - gradient()).max() <= 2


def test_shininess_and_emission_change_per_vertex():
    """Emission only (no lights): the colour is the emission, per vertex."""
    ctx = driver.Context(api="compat", width=N, height=N)
    ctx.glEnable(E.GL_LIGHTING)
    ctx.glLightModelfv(E.GL_LIGHT_MODEL_AMBIENT, (0.0, 0.0, 0.0, 1.0))
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    ctx.glMaterialfv(E.GL_FRONT_AND_BACK, E.GL_EMISSION, (0.0, 1.0, 0.0, 1.0))
    ctx.glVertex2f(-1.0, -1.0)
    ctx.glVertex2f(-1.0, 1.0)
    ctx.glMaterialf(E.GL_FRONT_AND_BACK, E.GL_SHININESS, 10.0)
    ctx.glMaterialfv(E.GL_FRONT_AND_BACK, E.GL_EMISSION, (1.0, 0.0, 0.0, 1.0))
    ctx.glVertex2f(1.0, -1.0)
    ctx.glVertex2f(1.0, 1.0)
    ctx.glEnd()
    img = ctx.read_pixels().astype(int)
    t = (np.arange(N) + 0.5) / N
    row = img[N // 2, :, :3]
    assert np.abs(row - np.stack([t * 255, (1 - t) * 255, 0 * t], 1)).max() <= 2
    assert ctx.glGetMaterialfv(E.GL_BACK, E.GL_SHININESS) == [10.0]


def test_color_material_follows_glcolor_per_vertex():
    ctx = lit_context()
    ctx.glEnable(E.GL_COLOR_MATERIAL)           # FRONT_AND_BACK, AMBIENT_AND_DIFFUSE
    ctx.glNormal3f(0.0, 0.0, 1.0)
    ctx.glBegin(E.GL_QUADS)
    ctx.glColor3f(1.0, 0.0, 0.0)
    ctx.glVertex2f(-1.0, -1.0)
    ctx.glVertex2f(1.0, -1.0)
    ctx.glColor3f(0.0, 0.0, 1.0)
    ctx.glVertex2f(1.0, 1.0)
    ctx.glVertex2f(-1.0, 1.0)
    ctx.glEnd()
    img = ctx.read_pixels().astype(int)
    assert np.abs(img[:, N // 2, :3] - gradient()).max() <= 2
    assert ctx.glGetMaterialfv(E.GL_FRONT, E.GL_DIFFUSE) == [0.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("call", [
    lambda c: c.glColorMaterial(E.GL_FRONT, E.GL_DIFFUSE),
    lambda c: c.glLightfv(E.GL_LIGHT0, E.GL_DIFFUSE, (0.0, 1.0, 0.0, 1.0)),
    lambda c: c.glShadeModel(E.GL_FLAT),
])
def test_state_commands_inside_begin_end_are_invalid_and_change_nothing(call):
    ctx = lit_context()
    before = (ctx.glGetIntegerv(E.GL_COLOR_MATERIAL_PARAMETER), ctx.glGetLightfv(E.GL_LIGHT0, E.GL_DIFFUSE),
              ctx.glGetIntegerv(E.GL_SHADE_MODEL))
    ctx.glBegin(E.GL_TRIANGLES)
    call(ctx)
    ctx.glEnd()                     # (glGetError between Begin and End would itself be an error)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glGetError() == E.GL_NO_ERROR
    after = (ctx.glGetIntegerv(E.GL_COLOR_MATERIAL_PARAMETER), ctx.glGetLightfv(E.GL_LIGHT0, E.GL_DIFFUSE),
             ctx.glGetIntegerv(E.GL_SHADE_MODEL))
    assert before == after


@pytest.mark.parametrize("in_list", [False, True])
def test_a_user_program_reads_the_material_of_glbegin(in_list):
    """With a user program, gl_FrontMaterial is the material state when the batch
    began: glMaterial inside glBegin/glEnd reaches the state once the batch is drawn
    (Mesa's order; piglit's gl-2.0-shader-materials). Diffuse green before glBegin,
    red inside: the quad is green, and the material is red afterwards."""
    ctx = driver.Context(api="compat", width=N, height=N)
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, "void main() { gl_FrontColor = gl_FrontMaterial.diffuse;"
                                            " gl_Position = gl_Vertex; }"),
                      (E.GL_FRAGMENT_SHADER, "void main() { gl_FragColor = gl_Color; }")):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    if in_list:
        ctx.glNewList(1, E.GL_COMPILE)
    ctx.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, (0.0, 1.0, 0.0, 1.0))
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, (1.0, 0.0, 0.0, 1.0))
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    if in_list:
        ctx.glEndList()
        ctx.glCallList(1)
    img = ctx.read_pixels()
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (img == (0, 255, 0, 255)).all()
    assert ctx.glGetMaterialfv(E.GL_FRONT, E.GL_DIFFUSE) == [1.0, 0.0, 0.0, 1.0]
