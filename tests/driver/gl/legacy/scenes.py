"""Classic legacy-GL programs, written once against a `gl` namespace with
the C names (glBegin, GL_QUADS, ...): driver.Context(api="compat") is one,
PyOpenGL's OpenGL.GL module (Mesa's llvmpipe, mesa_legacy_ref.py) another.
Only GL 2.1 commands; every scene sets all the state it uses.

Each scene also has the numbers the analytic checks need (SCENE_PARAMS)."""

import math

import numpy as np

CUBE_FACES = [  # normal, colour, four corners counter-clockwise seen from outside
    ((0, 0, 1), (1.0, 0.2, 0.2), [(-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]),
    ((0, 0, -1), (0.2, 1.0, 0.2), [(1, -1, -1), (-1, -1, -1), (-1, 1, -1), (1, 1, -1)]),
    ((1, 0, 0), (0.2, 0.2, 1.0), [(1, -1, 1), (1, -1, -1), (1, 1, -1), (1, 1, 1)]),
    ((-1, 0, 0), (1.0, 1.0, 0.2), [(-1, -1, -1), (-1, -1, 1), (-1, 1, 1), (-1, 1, -1)]),
    ((0, 1, 0), (0.2, 1.0, 1.0), [(-1, 1, 1), (1, 1, 1), (1, 1, -1), (-1, 1, -1)]),
    ((0, -1, 0), (1.0, 0.2, 1.0), [(-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1)]),
]
CUBE = dict(light_dir=(1.0, 2.0, 3.0), shininess=16.0, mat_specular=(0.5, 0.5, 0.5, 1.0),
            light_ambient=(0.1, 0.1, 0.1, 1.0), translate=-6.0, near=2.0, far=10.0)


def _gen_texture(gl):
    t = gl.glGenTextures(1)
    return int(t[0]) if hasattr(t, "__len__") else int(t)


def lit_cube(gl, w, h, angle=30.0):
    """A rotating cube lit by a directional light with specular, colour
    material tracking ambient and diffuse, back faces culled."""
    c = CUBE
    gl.glViewport(0, 0, w, h)
    gl.glClearColor(0.1, 0.1, 0.1, 1.0)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
    gl.glEnable(gl.GL_DEPTH_TEST)
    gl.glEnable(gl.GL_CULL_FACE)
    gl.glShadeModel(gl.GL_SMOOTH)
    gl.glMatrixMode(gl.GL_PROJECTION)
    gl.glLoadIdentity()
    gl.glFrustum(-1.0, 1.0, -h / w, h / w, c["near"], c["far"])
    gl.glMatrixMode(gl.GL_MODELVIEW)
    gl.glLoadIdentity()
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_POSITION, (*c["light_dir"], 0.0))
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_AMBIENT, c["light_ambient"])
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_DIFFUSE, (1.0, 1.0, 1.0, 1.0))
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_SPECULAR, (1.0, 1.0, 1.0, 1.0))
    gl.glMaterialfv(gl.GL_FRONT, gl.GL_SPECULAR, c["mat_specular"])
    gl.glMaterialf(gl.GL_FRONT, gl.GL_SHININESS, c["shininess"])
    gl.glEnable(gl.GL_LIGHTING)
    gl.glEnable(gl.GL_LIGHT0)
    gl.glColorMaterial(gl.GL_FRONT, gl.GL_AMBIENT_AND_DIFFUSE)
    gl.glEnable(gl.GL_COLOR_MATERIAL)
    gl.glTranslatef(0.0, 0.0, c["translate"])
    gl.glRotatef(angle, 1.0, 1.0, 0.0)
    gl.glRotatef(angle / 2, 0.0, 0.0, 1.0)
    gl.glBegin(gl.GL_QUADS)
    for normal, color, corners in CUBE_FACES:
        gl.glColor3f(*color)
        gl.glNormal3f(*normal)
        for v in corners:
            gl.glVertex3f(*v)
    gl.glEnd()
    gl.glFinish()


def checker_texture(n=4):
    """n x n RGBA8 texels: distinct colours, alpha 1."""
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")       # row i, column j
    tex = np.stack([(j * 255) // (n - 1), (i * 255) // (n - 1), ((i + j) % 2) * 255,
                    np.full_like(i, 255)], -1)
    return tex.astype(np.uint8)


TEXTURED = dict(color=(0.5, 1.0, 0.25, 1.0))


def textured_quad(gl, w, h):
    """A full-viewport quad, a 4x4 nearest-filtered texture, GL_MODULATE with the colour."""
    gl.glViewport(0, 0, w, h)
    gl.glClearColor(0.0, 0.0, 0.0, 1.0)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT)
    gl.glMatrixMode(gl.GL_PROJECTION)
    gl.glLoadIdentity()
    gl.glOrtho(0.0, 1.0, 0.0, 1.0, -1.0, 1.0)
    gl.glMatrixMode(gl.GL_MODELVIEW)
    gl.glLoadIdentity()
    tex = _gen_texture(gl)
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA, 4, 4, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, checker_texture())
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, gl.GL_MODULATE)
    gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glColor4f(*TEXTURED["color"])
    gl.glBegin(gl.GL_QUADS)
    for s, t in ((0, 0), (1, 0), (1, 1), (0, 1)):
        gl.glTexCoord2f(s, t)
        gl.glVertex2f(s, t)
    gl.glEnd()
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFinish()


FOGGED = dict(color=(0.8, 0.6, 1.0, 1.0), fog_color=(0.5, 0.5, 0.5, 1.0), fog_start=1.0, fog_end=8.0,
              z_left=-2.0, z_right=-6.0, tex0=np.array([[[255, 128, 64, 255], [64, 255, 128, 255],
                                                         [128, 64, 255, 255], [255, 255, 255, 255]]], np.uint8),
              tex1=np.array([[[0, 0, 64, 255]], [[64, 0, 0, 255]], [[0, 64, 0, 255]], [[32, 32, 32, 255]]],
                            np.uint8))


def multitexture_fog(gl, w, h):
    """A quad receding to the right under an orthographic projection: unit 0
    modulates the colour with a 4x1 texture, unit 1 adds a 1x4 texture
    (GL_COMBINE, GL_ADD), then linear fog by eye distance."""
    f = FOGGED
    gl.glViewport(0, 0, w, h)
    gl.glClearColor(0.0, 0.0, 0.0, 1.0)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
    gl.glMatrixMode(gl.GL_PROJECTION)
    gl.glLoadIdentity()
    gl.glOrtho(-1.0, 1.0, -1.0, 1.0, 0.5, 10.0)
    gl.glMatrixMode(gl.GL_MODELVIEW)
    gl.glLoadIdentity()
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    for unit, image in ((0, f["tex0"]), (1, f["tex1"])):
        gl.glActiveTexture(gl.GL_TEXTURE0 + unit)
        gl.glBindTexture(gl.GL_TEXTURE_2D, _gen_texture(gl))
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA, image.shape[1], image.shape[0], 0, gl.GL_RGBA,
                        gl.GL_UNSIGNED_BYTE, image)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
        gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glActiveTexture(gl.GL_TEXTURE0)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, gl.GL_MODULATE)
    gl.glActiveTexture(gl.GL_TEXTURE1)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, gl.GL_COMBINE)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_COMBINE_RGB, gl.GL_ADD)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_SRC0_RGB, gl.GL_PREVIOUS)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_SRC1_RGB, gl.GL_TEXTURE)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_COMBINE_ALPHA, gl.GL_REPLACE)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_SRC0_ALPHA, gl.GL_PREVIOUS)
    gl.glActiveTexture(gl.GL_TEXTURE0)
    gl.glEnable(gl.GL_FOG)
    gl.glFogi(gl.GL_FOG_MODE, gl.GL_LINEAR)
    gl.glFogf(gl.GL_FOG_START, f["fog_start"])
    gl.glFogf(gl.GL_FOG_END, f["fog_end"])
    gl.glFogfv(gl.GL_FOG_COLOR, f["fog_color"])
    gl.glColor4f(*f["color"])
    gl.glBegin(gl.GL_QUADS)
    for s, t in ((0, 0), (1, 0), (1, 1), (0, 1)):
        gl.glMultiTexCoord2f(gl.GL_TEXTURE0, s, t)
        gl.glMultiTexCoord2f(gl.GL_TEXTURE1, s, t)
        gl.glVertex3f(2 * s - 1, 2 * t - 1, f["z_left"] if s == 0 else f["z_right"])
    gl.glEnd()
    gl.glDisable(gl.GL_FOG)
    for unit in (1, 0):
        gl.glActiveTexture(gl.GL_TEXTURE0 + unit)
        gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFinish()


# -- gears, in the style of glxgears ----------------------------------------------------------
GEARS = dict(view_rotx=20.0, view_roty=30.0, light=(5.0, 5.0, 10.0, 0.0),
             gears=[  # inner radius, outer radius, width, teeth, tooth depth, colour, position, rotation sign
                 (1.0, 4.0, 1.0, 20, 0.7, (0.8, 0.1, 0.0, 1.0), (-3.0, -2.0, 0.0), (1.0, 0.0)),
                 (0.5, 2.0, 2.0, 10, 0.7, (0.0, 0.8, 0.2, 1.0), (3.1, -2.0, 0.0), (-2.0, -9.0)),
                 (1.3, 2.0, 0.5, 10, 0.7, (0.2, 0.2, 1.0, 1.0), (-3.1, 4.2, 0.0), (-2.0, -25.0))])


def gear(gl, inner, outer, width, teeth, tooth_depth):
    """One gear: front and back faces, teeth outward faces, inner cylinder
    (flat-shaded quad strips and quads, per-face normals)."""
    r0, r1, r2 = inner, outer - tooth_depth / 2.0, outer + tooth_depth / 2.0
    da = 2.0 * math.pi / teeth / 4.0
    gl.glShadeModel(gl.GL_FLAT)
    for z, sign in ((width * 0.5, 1.0), (-width * 0.5, -1.0)):
        gl.glNormal3f(0.0, 0.0, sign)
        gl.glBegin(gl.GL_QUAD_STRIP)           # the face
        for i in range(teeth + 1):
            a = i * 2.0 * math.pi / teeth
            pts = [(r0, a), (r1, a)] if sign > 0 else [(r1, a), (r0, a)]
            pts += [(r0, a), (r1, a + 3 * da)] if sign > 0 else [(r1, a + 3 * da), (r0, a)]
            if i < teeth:
                for r, ang in pts:
                    gl.glVertex3f(r * math.cos(ang), r * math.sin(ang), z)
            else:
                for r, ang in pts[:2]:
                    gl.glVertex3f(r * math.cos(ang), r * math.sin(ang), z)
        gl.glEnd()
        gl.glBegin(gl.GL_QUADS)                # the teeth of the face
        for i in range(teeth):
            a = i * 2.0 * math.pi / teeth
            ring = [(r1, a), (r2, a + da), (r2, a + 2 * da), (r1, a + 3 * da)]
            if sign < 0:
                ring = ring[::-1]
            for r, ang in ring:
                gl.glVertex3f(r * math.cos(ang), r * math.sin(ang), z)
        gl.glEnd()
    gl.glBegin(gl.GL_QUAD_STRIP)               # outward faces of the teeth
    for i in range(teeth):
        a = i * 2.0 * math.pi / teeth
        prof = [(r1, a), (r2, a + da), (r2, a + 2 * da), (r1, a + 3 * da), (r1, a + 4 * da)]
        for (ra, aa), (rb, ab) in zip(prof, prof[1:]):
            xa, ya = ra * math.cos(aa), ra * math.sin(aa)
            xb, yb = rb * math.cos(ab), rb * math.sin(ab)
            u, v = xb - xa, yb - ya
            n = math.hypot(u, v)
            gl.glNormal3f(v / n, -u / n, 0.0)
            if (ra, aa) == prof[0]:
                gl.glVertex3f(xa, ya, width * 0.5)
                gl.glVertex3f(xa, ya, -width * 0.5)
            gl.glVertex3f(xb, yb, width * 0.5)
            gl.glVertex3f(xb, yb, -width * 0.5)
    gl.glEnd()
    gl.glShadeModel(gl.GL_SMOOTH)
    gl.glBegin(gl.GL_QUAD_STRIP)               # the inner cylinder
    for i in range(teeth + 1):
        a = i * 2.0 * math.pi / teeth
        gl.glNormal3f(-math.cos(a), -math.sin(a), 0.0)
        gl.glVertex3f(r0 * math.cos(a), r0 * math.sin(a), -width * 0.5)
        gl.glVertex3f(r0 * math.cos(a), r0 * math.sin(a), width * 0.5)
    gl.glEnd()


def gears(gl, w, h, angle=10.0, lists=None):
    """Three display-listed gears (glxgears' scene). Returns the list names."""
    g = GEARS
    gl.glViewport(0, 0, w, h)
    gl.glMatrixMode(gl.GL_PROJECTION)
    gl.glLoadIdentity()
    gl.glFrustum(-1.0, 1.0, -h / w, h / w, 5.0, 60.0)
    gl.glMatrixMode(gl.GL_MODELVIEW)
    gl.glLoadIdentity()
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_POSITION, g["light"])
    gl.glEnable(gl.GL_CULL_FACE)
    gl.glEnable(gl.GL_LIGHTING)
    gl.glEnable(gl.GL_LIGHT0)
    gl.glEnable(gl.GL_DEPTH_TEST)
    gl.glEnable(gl.GL_NORMALIZE)
    if lists is None:
        first = int(gl.glGenLists(len(g["gears"])))
        lists = []
        for k, (inner, outer, width, teeth, depth, color, _, _) in enumerate(g["gears"]):
            gl.glNewList(first + k, gl.GL_COMPILE)
            gl.glMaterialfv(gl.GL_FRONT, gl.GL_AMBIENT_AND_DIFFUSE, color)
            gear(gl, inner, outer, width, teeth, depth)
            gl.glEndList()
            lists.append(first + k)
    gl.glClearColor(0.0, 0.0, 0.0, 1.0)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
    gl.glPushMatrix()
    gl.glTranslatef(0.0, 0.0, -40.0)
    gl.glRotatef(g["view_rotx"], 1.0, 0.0, 0.0)
    gl.glRotatef(g["view_roty"], 0.0, 1.0, 0.0)
    for name, (*_, pos, (scale, offset)) in zip(lists, g["gears"]):
        gl.glPushMatrix()
        gl.glTranslatef(*pos)
        gl.glRotatef(scale * angle + offset, 0.0, 0.0, 1.0)
        gl.glCallList(name)
        gl.glPopMatrix()
    gl.glPopMatrix()
    gl.glFinish()
    return lists


SCENES = {"lit_cube": lit_cube, "textured_quad": textured_quad, "multitexture_fog": multitexture_fog,
          "gears": gears}
