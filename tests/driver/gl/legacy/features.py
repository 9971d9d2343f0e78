"""Small legacy-GL programs, one per fixed-function feature, written once
against a `gl` namespace (driver.Context or PyOpenGL's OpenGL.GL) like
scenes.py, and compared with Mesa's llvmpipe. Every program sets up the
whole state it needs and draws at w x h."""

import math

import numpy as np


def _setup(gl, w, h, ortho=True, clear=(0.0, 0.0, 0.0, 1.0)):
    gl.glViewport(0, 0, w, h)
    gl.glClearColor(*clear)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
    gl.glMatrixMode(gl.GL_PROJECTION)
    gl.glLoadIdentity()
    if ortho:
        gl.glOrtho(-1.0, 1.0, -1.0, 1.0, -10.0, 10.0)
    else:
        gl.glFrustum(-1.0, 1.0, -1.0, 1.0, 1.0, 10.0)
    gl.glMatrixMode(gl.GL_MODELVIEW)
    gl.glLoadIdentity()


def _texture(gl, image, internal, fmt, filt=None):
    t = gl.glGenTextures(1)
    t = int(t[0]) if hasattr(t, "__len__") else int(t)
    gl.glBindTexture(gl.GL_TEXTURE_2D, t)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    image = np.ascontiguousarray(image, np.uint8)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, internal, image.shape[1], image.shape[0], 0, fmt,
                    gl.GL_UNSIGNED_BYTE, image)
    f = filt or gl.GL_NEAREST
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, f)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, f)
    return t


def _quad(gl, x0, y0, x1, y1, z=0.0, tex=True):
    gl.glBegin(gl.GL_QUADS)
    for s, t in ((0, 0), (1, 0), (1, 1), (0, 1)):
        if tex:
            gl.glTexCoord2f(s, t)
        gl.glVertex3f(x0 + (x1 - x0) * s, y0 + (y1 - y0) * t, z)
    gl.glEnd()


def _disk(gl, cx, cy, r, n=24, z=0.0, normal=(0.0, 0.0, 1.0)):
    gl.glBegin(gl.GL_TRIANGLE_FAN)
    gl.glNormal3f(*normal)
    gl.glVertex3f(cx, cy, z)
    for i in range(n + 1):
        a = 2 * math.pi * i / n
        gl.glVertex3f(cx + r * math.cos(a), cy + r * math.sin(a), z)
    gl.glEnd()


def spot_two_sided(gl, w, h):
    """A positional spot light with attenuation, local viewer, separate
    specular, two-sided lighting with a different back material; a finely
    tessellated front-facing plane and a back-facing one."""
    _setup(gl, w, h, ortho=False)
    gl.glLightfv(gl.GL_LIGHT1, gl.GL_POSITION, (0.0, 0.0, -1.0, 1.0))
    gl.glLightfv(gl.GL_LIGHT1, gl.GL_DIFFUSE, (1.0, 0.9, 0.7, 1.0))
    gl.glLightfv(gl.GL_LIGHT1, gl.GL_SPECULAR, (1.0, 1.0, 1.0, 1.0))
    gl.glLightfv(gl.GL_LIGHT1, gl.GL_AMBIENT, (0.1, 0.1, 0.2, 1.0))
    gl.glLightfv(gl.GL_LIGHT1, gl.GL_SPOT_DIRECTION, (0.2, 0.0, -1.0))
    gl.glLightf(gl.GL_LIGHT1, gl.GL_SPOT_CUTOFF, 40.0)
    gl.glLightf(gl.GL_LIGHT1, gl.GL_SPOT_EXPONENT, 4.0)
    gl.glLightf(gl.GL_LIGHT1, gl.GL_LINEAR_ATTENUATION, 0.3)
    gl.glLightf(gl.GL_LIGHT1, gl.GL_QUADRATIC_ATTENUATION, 0.1)
    gl.glLightModeli(gl.GL_LIGHT_MODEL_TWO_SIDE, 1)
    gl.glLightModeli(gl.GL_LIGHT_MODEL_LOCAL_VIEWER, 1)
    gl.glLightModeli(gl.GL_LIGHT_MODEL_COLOR_CONTROL, gl.GL_SEPARATE_SPECULAR_COLOR)
    gl.glLightModelfv(gl.GL_LIGHT_MODEL_AMBIENT, (0.05, 0.05, 0.05, 1.0))
    gl.glMaterialfv(gl.GL_FRONT, gl.GL_DIFFUSE, (0.2, 0.6, 1.0, 1.0))
    gl.glMaterialfv(gl.GL_BACK, gl.GL_DIFFUSE, (1.0, 0.5, 0.2, 1.0))
    gl.glMaterialfv(gl.GL_FRONT_AND_BACK, gl.GL_SPECULAR, (0.6, 0.6, 0.6, 1.0))
    gl.glMaterialf(gl.GL_FRONT_AND_BACK, gl.GL_SHININESS, 20.0)
    gl.glMaterialfv(gl.GL_FRONT, gl.GL_EMISSION, (0.05, 0.0, 0.0, 1.0))
    gl.glEnable(gl.GL_LIGHTING)
    gl.glEnable(gl.GL_LIGHT1)
    n = 12
    for (x0, x1), nz, flip in (((-3.0, 0.0), 1.0, False), ((0.0, 3.0), -1.0, True)):
        gl.glNormal3f(0.0, 0.0, nz)
        for j in range(n):
            gl.glBegin(gl.GL_TRIANGLE_STRIP)
            for i in range(n + 1):
                x = x0 + (x1 - x0) * i / n
                for yy in ((j, j + 1) if not flip else (j + 1, j)):
                    gl.glVertex3f(x, -3.0 + 6.0 * yy / n, -3.0)
            gl.glEnd()
    gl.glFinish()


def texgen(gl, w, h):
    """Object-linear S/T generation on one disk, sphere mapping on a lit
    sphere-ish fan with varying normals, the texture matrix scaling S."""
    _setup(gl, w, h)
    img = np.zeros((8, 8, 4), np.uint8)
    img[..., 0] = np.arange(8)[None, :] * 32
    img[..., 1] = np.arange(8)[:, None] * 32
    img[..., 2] = 128
    img[..., 3] = 255
    _texture(gl, img, gl.GL_RGBA, gl.GL_RGBA)
    gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, gl.GL_REPLACE)
    gl.glTexGeni(gl.GL_S, gl.GL_TEXTURE_GEN_MODE, gl.GL_OBJECT_LINEAR)
    gl.glTexGeni(gl.GL_T, gl.GL_TEXTURE_GEN_MODE, gl.GL_OBJECT_LINEAR)
    gl.glTexGenfv(gl.GL_S, gl.GL_OBJECT_PLANE, (1.0, 0.0, 0.0, 0.5))
    gl.glTexGenfv(gl.GL_T, gl.GL_OBJECT_PLANE, (0.0, 1.0, 0.0, 0.5))
    gl.glEnable(gl.GL_TEXTURE_GEN_S)
    gl.glEnable(gl.GL_TEXTURE_GEN_T)
    gl.glMatrixMode(gl.GL_TEXTURE)
    gl.glLoadIdentity()
    gl.glScalef(1.5, 1.0, 1.0)
    gl.glMatrixMode(gl.GL_MODELVIEW)
    _disk(gl, -0.5, 0.5, 0.45)
    gl.glMatrixMode(gl.GL_TEXTURE)
    gl.glLoadIdentity()
    gl.glMatrixMode(gl.GL_MODELVIEW)
    gl.glTexGeni(gl.GL_S, gl.GL_TEXTURE_GEN_MODE, gl.GL_EYE_LINEAR)
    gl.glTexGeni(gl.GL_T, gl.GL_TEXTURE_GEN_MODE, gl.GL_EYE_LINEAR)
    gl.glPushMatrix()
    gl.glTranslatef(0.3, 0.0, 0.0)
    gl.glTexGenfv(gl.GL_S, gl.GL_EYE_PLANE, (1.0, 0.0, 0.0, 0.0))
    gl.glTexGenfv(gl.GL_T, gl.GL_EYE_PLANE, (0.0, 1.0, 0.0, 0.5))
    gl.glPopMatrix()
    _disk(gl, 0.5, 0.5, 0.45)
    gl.glTexGeni(gl.GL_S, gl.GL_TEXTURE_GEN_MODE, gl.GL_SPHERE_MAP)
    gl.glTexGeni(gl.GL_T, gl.GL_TEXTURE_GEN_MODE, gl.GL_SPHERE_MAP)
    gl.glBegin(gl.GL_TRIANGLES)
    for i in range(16):
        for a in (i, i + 1):
            ang = 2 * math.pi * a / 16
            gl.glNormal3f(0.8 * math.cos(ang), 0.8 * math.sin(ang), 0.6)
            gl.glVertex3f(0.45 * math.cos(ang), -0.5 + 0.45 * math.sin(ang), 0.0)
        gl.glNormal3f(0.0, 0.0, 1.0)
        gl.glVertex3f(0.0, -0.5, 0.0)
    gl.glEnd()
    gl.glDisable(gl.GL_TEXTURE_GEN_S)
    gl.glDisable(gl.GL_TEXTURE_GEN_T)
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFinish()


def texenv_modes(gl, w, h):
    """Every classic environment mode (rows) on every base format (columns)."""
    _setup(gl, w, h)
    rgba = np.array([[[200, 100, 50, 128], [50, 200, 100, 255]], [[100, 50, 200, 64], [255, 255, 255, 0]]],
                    np.uint8)
    formats = [(gl.GL_RGBA, gl.GL_RGBA, rgba), (gl.GL_RGB, gl.GL_RGB, rgba[..., :3]),
               (gl.GL_LUMINANCE, gl.GL_LUMINANCE, rgba[..., 0]), (gl.GL_ALPHA, gl.GL_ALPHA, rgba[..., 3]),
               (gl.GL_LUMINANCE_ALPHA, gl.GL_LUMINANCE_ALPHA, rgba[..., [0, 3]]),
               (gl.GL_INTENSITY, gl.GL_LUMINANCE, rgba[..., 1])]
    modes = [gl.GL_REPLACE, gl.GL_MODULATE, gl.GL_DECAL, gl.GL_BLEND, gl.GL_ADD]
    texs = [_texture(gl, img, internal, fmt) for internal, fmt, img in formats]
    gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glTexEnvfv(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_COLOR, (0.1, 0.9, 0.4, 0.7))
    gl.glColor4f(0.6, 0.4, 0.9, 0.5)
    for r, mode in enumerate(modes):
        gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, mode)
        for c, t in enumerate(texs):
            gl.glBindTexture(gl.GL_TEXTURE_2D, t)
            x0, y0 = -1 + 2 * c / len(texs), -1 + 2 * r / len(modes)
            _quad(gl, x0, y0, x0 + 2 / len(texs), y0 + 2 / len(modes))
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFinish()


def combine_modes(gl, w, h):
    """GL_COMBINE functions, sources and operands, RGB and alpha scales."""
    _setup(gl, w, h)
    img = np.array([[[200, 100, 50, 128], [50, 200, 180, 255]], [[100, 50, 200, 64], [160, 160, 40, 200]]],
                   np.uint8)
    _texture(gl, img, gl.GL_RGBA, gl.GL_RGBA)
    gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, gl.GL_COMBINE)
    gl.glTexEnvfv(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_COLOR, (0.3, 0.6, 0.9, 0.25))
    gl.glColor4f(0.7, 0.2, 0.5, 0.8)
    cases = [
        (gl.GL_INTERPOLATE, gl.GL_INTERPOLATE, (gl.GL_TEXTURE, gl.GL_PRIMARY_COLOR, gl.GL_CONSTANT),
         (gl.GL_SRC_COLOR, gl.GL_SRC_COLOR, gl.GL_SRC_ALPHA), 1.0, 1.0),
        (gl.GL_DOT3_RGB, gl.GL_MODULATE, (gl.GL_TEXTURE, gl.GL_PRIMARY_COLOR, gl.GL_CONSTANT),
         (gl.GL_SRC_COLOR, gl.GL_SRC_COLOR, gl.GL_SRC_COLOR), 1.0, 2.0),
        (gl.GL_SUBTRACT, gl.GL_ADD, (gl.GL_TEXTURE, gl.GL_CONSTANT, gl.GL_PRIMARY_COLOR),
         (gl.GL_SRC_COLOR, gl.GL_ONE_MINUS_SRC_COLOR, gl.GL_SRC_COLOR), 2.0, 1.0),
        (gl.GL_ADD_SIGNED, gl.GL_SUBTRACT, (gl.GL_PRIMARY_COLOR, gl.GL_TEXTURE, gl.GL_CONSTANT),
         (gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_SRC_COLOR, gl.GL_SRC_COLOR), 4.0, 1.0),
        (gl.GL_MODULATE, gl.GL_REPLACE, (gl.GL_TEXTURE, gl.GL_TEXTURE, gl.GL_CONSTANT),
         (gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_COLOR, gl.GL_SRC_COLOR), 1.0, 1.0),
        (gl.GL_DOT3_RGBA, gl.GL_REPLACE, (gl.GL_TEXTURE, gl.GL_CONSTANT, gl.GL_CONSTANT),
         (gl.GL_SRC_COLOR, gl.GL_SRC_COLOR, gl.GL_SRC_COLOR), 1.0, 1.0),
    ]
    srcs_rgb = (gl.GL_SRC0_RGB, gl.GL_SRC1_RGB, gl.GL_SRC2_RGB)
    ops_rgb = (gl.GL_OPERAND0_RGB, gl.GL_OPERAND1_RGB, gl.GL_OPERAND2_RGB)
    srcs_a = (gl.GL_SRC0_ALPHA, gl.GL_SRC1_ALPHA, gl.GL_SRC2_ALPHA)
    for k, (frgb, fa, srcs, ops, rgb_scale, a_scale) in enumerate(cases):
        gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_COMBINE_RGB, frgb)
        gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_COMBINE_ALPHA, fa)
        for p, s in zip(srcs_rgb, srcs):
            gl.glTexEnvi(gl.GL_TEXTURE_ENV, p, s)
        for p, o in zip(ops_rgb, ops):
            gl.glTexEnvi(gl.GL_TEXTURE_ENV, p, o)
        for p, s in zip(srcs_a, srcs):
            gl.glTexEnvi(gl.GL_TEXTURE_ENV, p, s)
        gl.glTexEnvf(gl.GL_TEXTURE_ENV, gl.GL_RGB_SCALE, rgb_scale)
        gl.glTexEnvf(gl.GL_TEXTURE_ENV, gl.GL_ALPHA_SCALE, a_scale)
        y0 = -1 + 2 * k / len(cases)
        _quad(gl, -1.0, y0, 1.0, y0 + 2 / len(cases))
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFinish()


def fog_modes(gl, w, h):
    """EXP and EXP2 by eye distance, and LINEAR from glFogCoord per vertex."""
    _setup(gl, w, h, ortho=False)
    gl.glEnable(gl.GL_FOG)
    gl.glFogfv(gl.GL_FOG_COLOR, (0.9, 0.8, 0.2, 1.0))
    gl.glColor3f(0.1, 0.3, 0.9)
    for k, (mode, density) in enumerate(((gl.GL_EXP, 0.25), (gl.GL_EXP2, 0.2))):
        gl.glFogi(gl.GL_FOG_MODE, mode)
        gl.glFogf(gl.GL_FOG_DENSITY, density)
        y0 = -3.0 + 2.0 * k
        gl.glBegin(gl.GL_QUADS)
        for x, y, z in ((-3, y0, -1.5), (3, y0, -8), (3, y0 + 2, -8), (-3, y0 + 2, -1.5)):
            gl.glVertex3f(x, y, z)
        gl.glEnd()
    gl.glFogi(gl.GL_FOG_MODE, gl.GL_LINEAR)
    gl.glFogf(gl.GL_FOG_START, 0.0)
    gl.glFogf(gl.GL_FOG_END, 10.0)
    gl.glFogi(gl.GL_FOG_COORD_SRC, gl.GL_FOG_COORD)
    gl.glBegin(gl.GL_QUADS)
    for (x, y), fc in zip(((-1.5, 0.5), (1.5, 0.5), (1.5, 1.5), (-1.5, 1.5)), (0.0, 10.0, 5.0, 2.0)):
        gl.glFogCoordf(fc)
        gl.glVertex3f(x, y, -1.5)
    gl.glEnd()
    gl.glFogi(gl.GL_FOG_COORD_SRC, gl.GL_FRAGMENT_DEPTH)
    gl.glDisable(gl.GL_FOG)
    gl.glFinish()


def stipple_and_flat(gl, w, h):
    """Polygon stipple; flat shading of quads, quad strips and polygons."""
    _setup(gl, w, h)
    pattern = np.zeros(128, np.uint8)
    for row in range(32):
        pattern[row * 4:(row + 1) * 4] = [0xF0, 0x0F, 0xAA, 0x55] if row % 4 < 2 else [0x0F, 0xF0, 0x55, 0xAA]
    gl.glPolygonStipple(pattern)
    gl.glEnable(gl.GL_POLYGON_STIPPLE)
    gl.glColor3f(1.0, 1.0, 1.0)
    gl.glRectf(-1.0, 0.0, 0.0, 1.0)
    gl.glDisable(gl.GL_POLYGON_STIPPLE)
    gl.glShadeModel(gl.GL_FLAT)
    colors = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (0, 1, 1), (1, 0, 1)]
    gl.glBegin(gl.GL_QUAD_STRIP)
    for i, c in enumerate(colors):
        gl.glColor3f(*c)
        gl.glVertex2f(0.0 + 0.33 * (i // 2), 0.0 + (i % 2))
    gl.glEnd()
    gl.glBegin(gl.GL_POLYGON)
    for i, (x, y) in enumerate(((-1, -1), (0, -1), (0, -0.2), (-0.5, 0), (-1, -0.2))):
        gl.glColor3f(*colors[i])
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glBegin(gl.GL_QUADS)
    for i, (x, y) in enumerate(((0.1, -1), (1, -1), (1, -0.1), (0.1, -0.1))):
        gl.glColor3f(*colors[i + 2])
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glShadeModel(gl.GL_SMOOTH)
    gl.glFinish()


def pixels(gl, w, h):
    """glRasterPos, glDrawPixels (with zoom and scale/bias), glBitmap, glCopyPixels, glWindowPos."""
    _setup(gl, w, h, clear=(0.1, 0.1, 0.1, 1.0))
    img = np.zeros((6, 8, 4), np.uint8)
    img[..., 0] = np.arange(8)[None, :] * 30
    img[..., 1] = np.arange(6)[:, None] * 40
    img[..., 2] = 200
    img[..., 3] = 255
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glRasterPos2f(-0.9, -0.9)
    gl.glDrawPixels(8, 6, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, img)
    gl.glPixelZoom(2.0, 1.5)
    gl.glPixelTransferf(gl.GL_RED_SCALE, 0.5)
    gl.glPixelTransferf(gl.GL_BLUE_BIAS, -0.3)
    gl.glRasterPos2f(0.0, -0.9)
    gl.glDrawPixels(8, 6, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, img)
    gl.glPixelTransferf(gl.GL_RED_SCALE, 1.0)
    gl.glPixelTransferf(gl.GL_BLUE_BIAS, 0.0)
    gl.glPixelZoom(1.0, 1.0)
    bits = np.array([0x18, 0x3C, 0x7E, 0xFF, 0xFF, 0x7E, 0x3C, 0x18], np.uint8)
    gl.glColor3f(1.0, 0.8, 0.0)
    gl.glRasterPos2f(-0.9, 0.2)
    for _ in range(3):
        gl.glBitmap(8, 8, 0.0, 0.0, 10.0, 2.0, bits)
    gl.glWindowPos2i(w // 2, h // 2)
    gl.glCopyPixels(0, 0, w // 4, h // 4, gl.GL_COLOR)
    gl.glFinish()


def arrays_and_attribs(gl, w, h):
    """glInterleavedArrays + glDrawArrays, glArrayElement inside Begin/End,
    and state restored by glPopAttrib / glPopClientAttrib."""
    _setup(gl, w, h)
    data = np.array([[1, 0, 0, -1.0, -1.0, 0.0], [0, 1, 0, 0.0, -1.0, 0.0], [0, 0, 1, -1.0, 0.0, 0.0],
                     [1, 1, 0, 0.0, 0.0, 0.0]], np.float32)
    gl.glPushClientAttrib(gl.GL_CLIENT_VERTEX_ARRAY_BIT)
    gl.glInterleavedArrays(gl.GL_C3F_V3F, 0, data)
    gl.glDrawArrays(gl.GL_TRIANGLE_STRIP, 0, 4)
    gl.glPushMatrix()
    gl.glTranslatef(1.0, 1.0, 0.0)
    gl.glBegin(gl.GL_TRIANGLES)
    for i in (0, 1, 2):
        gl.glArrayElement(i)
    gl.glEnd()
    gl.glPopMatrix()
    gl.glPopClientAttrib()
    gl.glPushAttrib(gl.GL_CURRENT_BIT | gl.GL_ENABLE_BIT | gl.GL_LIGHTING_BIT)
    gl.glEnable(gl.GL_LIGHTING)
    gl.glEnable(gl.GL_LIGHT0)
    gl.glMaterialfv(gl.GL_FRONT, gl.GL_DIFFUSE, (0.0, 1.0, 0.0, 1.0))
    gl.glColor3f(1.0, 0.0, 1.0)
    gl.glNormal3f(0.0, 0.0, 1.0)
    gl.glRectf(0.1, -0.9, 0.9, -0.5)
    gl.glPopAttrib()
    gl.glRectf(0.1, -0.4, 0.9, -0.1)          # unlit, the colour before the push
    gl.glFinish()


def clip_and_normals(gl, w, h):
    """A user clip plane; GL_RESCALE_NORMAL and GL_NORMALIZE under a scaled modelview."""
    _setup(gl, w, h)
    gl.glEnable(gl.GL_LIGHTING)
    gl.glEnable(gl.GL_LIGHT0)
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_POSITION, (0.3, 0.4, 1.0, 0.0))
    gl.glClipPlane(gl.GL_CLIP_PLANE0, (1.0, 1.0, 0.0, 0.3))
    gl.glEnable(gl.GL_CLIP_PLANE0)
    _disk(gl, -0.5, 0.5, 0.45)
    gl.glDisable(gl.GL_CLIP_PLANE0)
    for k, cap in enumerate((gl.GL_RESCALE_NORMAL, gl.GL_NORMALIZE, None)):
        gl.glPushMatrix()
        gl.glTranslatef(-0.6 + 0.6 * k, -0.5, 0.0)
        gl.glScalef(0.5, 0.5, 0.5)
        if cap is not None:
            gl.glEnable(cap)
        _disk(gl, 0.0, 0.0, 0.5, normal=(0.0, 0.3, 1.0))
        if cap is not None:
            gl.glDisable(cap)
        gl.glPopMatrix()
    gl.glFinish()


def evaluators(gl, w, h):
    """A lit bicubic Bezier patch with automatic normals (glMap2, glMapGrid2,
    glEvalMesh2) and a coloured Bezier curve (glMap1, glEvalCoord1)."""
    _setup(gl, w, h)
    ctrl = np.array([[[x - 1.5, y - 1.5, 0.8 * math.sin(x + y)] for x in range(4)] for y in range(4)],
                    np.float32) * 0.4
    gl.glMap2f(gl.GL_MAP2_VERTEX_3, 0.0, 1.0, 3, 4, 0.0, 1.0, 12, 4, ctrl)
    gl.glEnable(gl.GL_MAP2_VERTEX_3)
    gl.glEnable(gl.GL_AUTO_NORMAL)
    gl.glEnable(gl.GL_LIGHTING)
    gl.glEnable(gl.GL_LIGHT0)
    gl.glMapGrid2f(8, 0.0, 1.0, 8, 0.0, 1.0)
    gl.glEvalMesh2(gl.GL_FILL, 0, 8, 0, 8)
    gl.glDisable(gl.GL_LIGHTING)
    pts = np.array([[-0.9, 0.9, 0.0], [-0.3, 0.2, 0.0], [0.3, 0.95, 0.0], [0.9, 0.52, 0.0]], np.float32)
    cols = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 0, 1]], np.float32)
    gl.glMap1f(gl.GL_MAP1_VERTEX_3, 0.0, 1.0, 3, 4, pts)
    gl.glMap1f(gl.GL_MAP1_COLOR_4, 0.0, 1.0, 4, 4, cols)
    gl.glEnable(gl.GL_MAP1_VERTEX_3)
    gl.glEnable(gl.GL_MAP1_COLOR_4)
    gl.glBegin(gl.GL_POINTS)
    for i in range(9):
        gl.glEvalCoord1f(i / 8.0)
    gl.glEnd()
    gl.glFinish()


def line_stipple(gl, w, h):
    """Stippled independent lines, a strip (the pattern continues across its
    segments) and a loop, with colour interpolated along the dashes."""
    _setup(gl, w, h)
    gl.glEnable(gl.GL_LINE_STIPPLE)
    gl.glLineStipple(1, 0x0F0F)
    gl.glBegin(gl.GL_LINES)
    gl.glColor3f(1, 0, 0)
    gl.glVertex2f(-0.93, -0.81)
    gl.glColor3f(0, 1, 0)
    gl.glVertex2f(0.91, -0.79)
    gl.glEnd()
    gl.glLineStipple(2, 0x33FF)
    gl.glColor3f(1, 1, 1)
    gl.glBegin(gl.GL_LINE_STRIP)
    for x, y in ((-0.9, -0.41), (-0.2, 0.03), (0.4, -0.37), (0.93, 0.21)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glLineStipple(3, 0xAAAA)
    gl.glColor3f(0, 0.5, 1)
    gl.glBegin(gl.GL_LINE_LOOP)
    for x, y in ((-0.61, 0.39), (0.59, 0.41), (0.03, 0.87)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glDisable(gl.GL_LINE_STIPPLE)
    gl.glFinish()


def polygon_modes(gl, w, h):
    """glPolygonMode LINE for a quad and a polygon (no inner diagonals), an
    edge flag hiding one edge, and POINT for a triangle."""
    _setup(gl, w, h)
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_LINE)
    gl.glColor3f(1.0, 1.0, 0.0)
    gl.glBegin(gl.GL_QUADS)
    for x, y in ((-0.83, -0.83), (-0.13, -0.81), (-0.11, -0.13), (-0.81, -0.11)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glBegin(gl.GL_POLYGON)
    for k in range(6):
        a = 2 * math.pi * k / 6 + 0.1
        gl.glVertex2f(0.47 + 0.37 * math.cos(a), -0.47 + 0.37 * math.sin(a))
    gl.glEnd()
    gl.glBegin(gl.GL_TRIANGLES)
    gl.glVertex2f(-0.83, 0.17)
    gl.glEdgeFlag(False)
    gl.glVertex2f(-0.13, 0.19)
    gl.glEdgeFlag(True)
    gl.glVertex2f(-0.47, 0.87)
    gl.glEnd()
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_POINT)
    gl.glBegin(gl.GL_TRIANGLES)
    for x, y in ((0.17, 0.17), (0.83, 0.19), (0.51, 0.87)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_FILL)
    gl.glFinish()


def texture_targets(gl, w, h):
    """Fixed-function texturing from 1D, 3D, rectangle and cube-map textures
    (the highest-priority enabled target of the unit wins)."""
    _setup(gl, w, h)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    ramp = np.stack([np.arange(8) * 32, 255 - np.arange(8) * 32, np.full(8, 128), np.full(8, 255)], -1)

    def tex(target):
        t = gl.glGenTextures(1)
        t = int(t[0]) if hasattr(t, "__len__") else int(t)
        gl.glBindTexture(target, t)
        gl.glTexParameteri(target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
        gl.glTexParameteri(target, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
        return t

    tex(gl.GL_TEXTURE_1D)
    gl.glTexImage1D(gl.GL_TEXTURE_1D, 0, gl.GL_RGBA, 8, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, ramp.astype(np.uint8))
    gl.glEnable(gl.GL_TEXTURE_1D)
    _quad(gl, -1.0, 0.0, 0.0, 1.0)
    tex(gl.GL_TEXTURE_3D)
    vol = np.zeros((4, 4, 4, 4), np.uint8)
    vol[..., 0] = np.arange(4)[:, None, None] * 80
    vol[..., 1] = np.arange(4)[None, :, None] * 80
    vol[..., 2] = np.arange(4)[None, None, :] * 80
    vol[..., 3] = 255
    gl.glTexImage3D(gl.GL_TEXTURE_3D, 0, gl.GL_RGBA, 4, 4, 4, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, vol)
    gl.glEnable(gl.GL_TEXTURE_3D)
    gl.glBegin(gl.GL_QUADS)
    for s_, t_ in ((0, 0), (1, 0), (1, 1), (0, 1)):
        gl.glTexCoord3f(s_, t_, 0.6)
        gl.glVertex2f(s_, t_)
    gl.glEnd()
    gl.glDisable(gl.GL_TEXTURE_3D)
    gl.glDisable(gl.GL_TEXTURE_1D)
    tex(gl.GL_TEXTURE_RECTANGLE)
    img = np.zeros((5, 6, 4), np.uint8)
    img[..., 0] = np.arange(6)[None, :] * 50
    img[..., 1] = np.arange(5)[:, None] * 60
    img[..., 3] = 255
    gl.glTexImage2D(gl.GL_TEXTURE_RECTANGLE, 0, gl.GL_RGBA, 6, 5, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, img)
    gl.glEnable(gl.GL_TEXTURE_RECTANGLE)
    gl.glBegin(gl.GL_QUADS)
    for s_, t_ in ((0, 0), (1, 0), (1, 1), (0, 1)):
        gl.glTexCoord2f(6 * s_, 5 * t_)
        gl.glVertex2f(s_ - 1, t_ - 1)
    gl.glEnd()
    gl.glDisable(gl.GL_TEXTURE_RECTANGLE)
    tex(gl.GL_TEXTURE_CUBE_MAP)
    for face in range(6):
        c = np.zeros((2, 2, 4), np.uint8)
        c[..., face % 3] = 255
        c[..., (face + 1) % 3] = 60 * (face // 3)
        c[..., 3] = 255
        gl.glTexImage2D(gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, gl.GL_RGBA, 2, 2, 0, gl.GL_RGBA,
                        gl.GL_UNSIGNED_BYTE, c)
    gl.glEnable(gl.GL_TEXTURE_CUBE_MAP)
    gl.glEnable(gl.GL_TEXTURE_2D)                     # lower priority than the cube map
    gl.glTexGeni(gl.GL_S, gl.GL_TEXTURE_GEN_MODE, gl.GL_NORMAL_MAP)
    gl.glTexGeni(gl.GL_T, gl.GL_TEXTURE_GEN_MODE, gl.GL_NORMAL_MAP)
    gl.glTexGeni(gl.GL_R, gl.GL_TEXTURE_GEN_MODE, gl.GL_NORMAL_MAP)
    for cap in (gl.GL_TEXTURE_GEN_S, gl.GL_TEXTURE_GEN_T, gl.GL_TEXTURE_GEN_R):
        gl.glEnable(cap)
    gl.glBegin(gl.GL_TRIANGLES)
    for i in range(12):
        for a in (i, i + 1):
            ang = 2 * math.pi * a / 12
            gl.glNormal3f(math.cos(ang), math.sin(ang), 0.3)
            gl.glVertex2f(0.5 + 0.45 * math.cos(ang), -0.5 + 0.45 * math.sin(ang))
        gl.glNormal3f(0.0, 0.0, -1.0)
        gl.glVertex2f(0.5, -0.5)
    gl.glEnd()
    for cap in (gl.GL_TEXTURE_GEN_S, gl.GL_TEXTURE_GEN_T, gl.GL_TEXTURE_GEN_R, gl.GL_TEXTURE_CUBE_MAP,
                gl.GL_TEXTURE_2D):
        gl.glDisable(cap)
    gl.glFinish()



def array_primitives(gl, w, h, edge_flags=False):
    """The primitive rules for glDrawArrays / glDrawElements and display
    lists: flat-shaded quads, a quad strip and a polygon from colour arrays
    (provoking vertex 4i+4, 2i+4, 1), polygon mode LINE of culled quads
    (optionally with an edge-flag array), and a stippled line strip from indices
    compiled into a display list."""
    _setup(gl, w, h)
    gl.glShadeModel(gl.GL_FLAT)
    gl.glEnableClientState(gl.GL_VERTEX_ARRAY)
    gl.glEnableClientState(gl.GL_COLOR_ARRAY)
    quads = np.array([[-0.95, -0.95], [-0.55, -0.95], [-0.55, -0.55], [-0.95, -0.55],
                      [-0.45, -0.95], [-0.05, -0.95], [-0.05, -0.55], [-0.45, -0.55]], np.float32)
    colours = np.array(ARRAY_COLOURS, np.float32)
    gl.glVertexPointer(2, gl.GL_FLOAT, 0, quads)
    gl.glColorPointer(3, gl.GL_FLOAT, 0, colours)
    gl.glDrawArrays(gl.GL_QUADS, 0, 8)
    strip = np.array([[0.05, -0.95], [0.05, -0.55], [0.45, -0.95], [0.45, -0.55], [0.95, -0.95],
                      [0.95, -0.55]], np.float32)
    gl.glVertexPointer(2, gl.GL_FLOAT, 0, strip)
    gl.glDrawElements(gl.GL_QUAD_STRIP, 6, gl.GL_UNSIGNED_SHORT, np.arange(6, dtype=np.uint16))
    polygon = np.array([[-0.7 + 0.25 * math.cos(a), -0.2 + 0.25 * math.sin(a)]
                        for a in np.linspace(0.3, 0.3 + 2 * math.pi, 5, endpoint=False)], np.float32)
    gl.glVertexPointer(2, gl.GL_FLOAT, 0, polygon)
    gl.glDrawArrays(gl.GL_POLYGON, 0, 5)
    gl.glShadeModel(gl.GL_SMOOTH)
    gl.glDisableClientState(gl.GL_COLOR_ARRAY)
    gl.glColor3f(1.0, 1.0, 1.0)
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_LINE)
    gl.glEnable(gl.GL_CULL_FACE)
    outlined = np.array([[0.13, -0.41], [0.83, -0.39], [0.81, 0.03], [0.11, 0.01],      # front
                         [0.11, 0.13], [0.13, 0.83], [0.83, 0.81], [0.81, 0.11]], np.float32)  # back
    flags = np.array([1, 0, 1, 1, 1, 1, 1, 1], np.uint8)
    gl.glVertexPointer(2, gl.GL_FLOAT, 0, outlined)
    if edge_flags:
        gl.glEnableClientState(gl.GL_EDGE_FLAG_ARRAY)
        gl.glEdgeFlagPointer(0, flags)
    gl.glDrawArrays(gl.GL_QUADS, 0, 8)
    gl.glDisableClientState(gl.GL_EDGE_FLAG_ARRAY)
    gl.glDisable(gl.GL_CULL_FACE)
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_FILL)
    line = np.array([[-0.93, 0.21], [-0.13, 0.29], [-0.17, 0.91], [-0.89, 0.73]], np.float32)
    gl.glVertexPointer(2, gl.GL_FLOAT, 0, line)
    gl.glColor3f(0.0, 1.0, 1.0)
    gl.glLineStipple(2, 0x0F3F)
    gl.glEnable(gl.GL_LINE_STIPPLE)
    lst = gl.glGenLists(1)
    gl.glNewList(lst, gl.GL_COMPILE)
    gl.glDrawElements(gl.GL_LINE_STRIP, 4, gl.GL_UNSIGNED_INT, np.arange(4, dtype=np.uint32))
    gl.glEndList()
    gl.glCallList(lst)
    gl.glDisable(gl.GL_LINE_STIPPLE)
    gl.glDisableClientState(gl.GL_VERTEX_ARRAY)
    gl.glFinish()


def back_material_fan(gl):
    """A clockwise (back-facing) fan lit two-sided, its back diffuse and
    ambient changed between vertices."""
    gl.glLightModeli(gl.GL_LIGHT_MODEL_TWO_SIDE, 1)
    gl.glBegin(gl.GL_TRIANGLE_FAN)
    gl.glMaterialfv(gl.GL_BACK, gl.GL_DIFFUSE, (1.0, 0.5, 0.0, 1.0))
    gl.glVertex2f(-0.5, 0.35)
    gl.glVertex2f(-0.9, 0.0)
    gl.glMaterialfv(gl.GL_BACK, gl.GL_AMBIENT, (0.0, 0.0, 1.0, 1.0))
    gl.glVertex2f(-0.9, 0.7)
    gl.glMaterialfv(gl.GL_BACK, gl.GL_DIFFUSE, (0.2, 0.2, 1.0, 1.0))
    gl.glVertex2f(-0.1, 0.7)
    gl.glVertex2f(-0.1, 0.0)
    gl.glEnd()
    gl.glLightModeli(gl.GL_LIGHT_MODEL_TWO_SIDE, 0)


ARRAY_COLOURS = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1], [0.5, 0.5, 1], [1, 0.5, 0]]


def material_in_begin_end(gl, w, h, two_sided=False):
    """glMaterial between glBegin and glEnd applies from the next vertex on
    (diffuse, FRONT_AND_BACK emission and shininess in a lit strip; with
    `two_sided` the back material of a two-sided fan), and glColor per vertex with
    GL_COLOR_MATERIAL; the material after glEnd is the last one set."""
    _setup(gl, w, h)
    gl.glEnable(gl.GL_LIGHTING)
    gl.glEnable(gl.GL_LIGHT0)
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_POSITION, (0.3, 0.2, 1.0, 0.0))
    gl.glLightfv(gl.GL_LIGHT0, gl.GL_SPECULAR, (0.6, 0.6, 0.6, 1.0))
    gl.glLightModelfv(gl.GL_LIGHT_MODEL_AMBIENT, (0.1, 0.1, 0.1, 1.0))
    gl.glMaterialfv(gl.GL_FRONT_AND_BACK, gl.GL_SPECULAR, (0.5, 0.5, 0.5, 1.0))
    gl.glNormal3f(0.0, 0.0, 1.0)
    gl.glBegin(gl.GL_TRIANGLE_STRIP)
    for k in range(6):
        x = -0.95 + 0.38 * k
        if k == 2:
            gl.glMaterialfv(gl.GL_FRONT, gl.GL_DIFFUSE, (0.1, 0.9, 0.2, 1.0))
        if k == 4:
            gl.glMaterialfv(gl.GL_FRONT_AND_BACK, gl.GL_EMISSION, (0.3, 0.0, 0.3, 1.0))
            gl.glMaterialf(gl.GL_FRONT_AND_BACK, gl.GL_SHININESS, 5.0)
        gl.glVertex2f(x, -0.95)
        gl.glVertex2f(x, -0.35)
    gl.glEnd()
    gl.glRectf(-0.95, -0.3, 0.95, -0.1)            # the material set last, for the whole rectangle
    if two_sided:
        back_material_fan(gl)
    gl.glColorMaterial(gl.GL_FRONT, gl.GL_AMBIENT_AND_DIFFUSE)
    gl.glEnable(gl.GL_COLOR_MATERIAL)
    gl.glBegin(gl.GL_QUADS)
    for (x, y), c in zip(((0.1, 0.05), (0.9, 0.05), (0.9, 0.9), (0.1, 0.9)),
                         ((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1))):
        gl.glColor3f(*c)
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glDisable(gl.GL_COLOR_MATERIAL)
    gl.glFinish()


def pixel_fragments(gl, w, h, fog=False):
    """DrawPixels fragments textured (MODULATE, the raster texture
    coordinates) and fogged (the raster distance); a bitmap textured; a
    DEPTH_COMPONENT rectangle then a quad depth-tested against it; a
    STENCIL_INDEX rectangle then a quad stencil-tested against it; CopyPixels
    of DEPTH and STENCIL; a negative y zoom. (llvmpipe does not fog pixel
    rectangles, so the fogged one is drawn only with `fog`.)"""
    _setup(gl, w, h, clear=(0.1, 0.1, 0.1, 1.0))
    gl.glClearStencil(0)
    gl.glClear(gl.GL_STENCIL_BUFFER_BIT)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    img = np.zeros((8, 10, 4), np.uint8)
    img[..., 0] = np.arange(10)[None, :] * 25
    img[..., 1] = np.arange(8)[:, None] * 30
    img[..., 2] = 220
    img[..., 3] = 255
    texels = np.array([[[255, 255, 255, 255], [255, 128, 0, 255]], [[0, 255, 128, 255], [128, 128, 255, 255]]],
                      np.uint8)
    _texture(gl, texels, gl.GL_RGBA, gl.GL_RGBA)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, gl.GL_MODULATE)
    gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glTexCoord2f(0.75, 0.25)                  # texel (1, 0): (1, 0.5, 0)
    gl.glRasterPos2f(-0.95, -0.95)
    gl.glDrawPixels(10, 8, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, img)
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFogi(gl.GL_FOG_MODE, gl.GL_LINEAR)
    gl.glFogf(gl.GL_FOG_START, 0.0)
    gl.glFogf(gl.GL_FOG_END, 4.0)
    gl.glFogfv(gl.GL_FOG_COLOR, (0.0, 0.0, 1.0, 1.0))
    if fog:
        gl.glEnable(gl.GL_FOG)
    gl.glRasterPos3f(0.05, -0.95, -1.0)          # eye distance 1: fog factor 0.75
    gl.glDrawPixels(10, 8, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, img)
    gl.glDisable(gl.GL_FOG)
    gl.glPixelZoom(1.0, -1.0)
    gl.glRasterPos2f(0.55, -0.6)
    gl.glDrawPixels(10, 8, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, img)
    gl.glPixelZoom(1.0, 1.0)
    # depth: a left-to-right ramp, then a quad at depth 0.5 behind its right half
    gl.glEnable(gl.GL_DEPTH_TEST)
    depth = np.tile(np.linspace(0.0, 1.0, 16, dtype=np.float32), (12, 1))
    gl.glColor3f(1.0, 0.0, 0.0)
    gl.glRasterPos2f(-0.95, -0.3)
    gl.glDrawPixels(16, 12, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, depth)
    gl.glColor3f(0.0, 1.0, 0.0)
    gl.glRectf(-0.95, -0.3, -0.25, 0.2)          # z = 0 -> window depth 0.5
    gl.glWindowPos2i(w // 2 + 4, int(0.35 * h))
    gl.glColor3f(1.0, 1.0, 0.0)
    gl.glCopyPixels(int(0.025 * w) + 1, int(0.35 * h), 16, 12, gl.GL_DEPTH)
    gl.glColor3f(0.0, 1.0, 1.0)                  # at window depth 0.3: in front of ramp values > 0.3
    gl.glBegin(gl.GL_QUADS)
    for x, y in ((0.15, -0.3), (0.95, -0.3), (0.95, 0.2), (0.15, 0.2)):
        gl.glVertex3f(x, y, 4.0)
    gl.glEnd()
    gl.glDisable(gl.GL_DEPTH_TEST)
    # stencil: a checker of 1s and 2s, then a quad drawn where stencil == 2
    st = (np.indices((10, 14)).sum(0) // 3 % 2 + 1).astype(np.uint8)
    gl.glRasterPos2f(-0.95, 0.35)
    gl.glDrawPixels(14, 10, gl.GL_STENCIL_INDEX, gl.GL_UNSIGNED_BYTE, st)
    gl.glWindowPos2i(w // 2 + 4, int(0.675 * h))
    gl.glCopyPixels(int(0.025 * w) + 1, int(0.675 * h), 14, 10, gl.GL_STENCIL)
    gl.glEnable(gl.GL_STENCIL_TEST)
    gl.glStencilFunc(gl.GL_EQUAL, 2, 0xFF)
    gl.glColor3f(1.0, 0.5, 1.0)
    gl.glRectf(-1.0, 0.3, 1.0, 1.0)
    gl.glDisable(gl.GL_STENCIL_TEST)
    # last: llvmpipe (Mesa 22.3) crashes in a DrawPixels after a textured Bitmap
    gl.glEnable(gl.GL_TEXTURE_2D)
    bits = np.array([0xF0, 0xF0, 0x0F, 0x0F, 0xF0, 0xF0, 0x0F, 0x0F], np.uint8)
    gl.glColor3f(1.0, 1.0, 1.0)
    gl.glTexCoord2f(0.25, 0.75)                  # texel (0, 1): (0, 1, 0.5)
    gl.glRasterPos2f(-0.45, -0.95)
    gl.glBitmap(8, 8, 0.0, 0.0, 0.0, 0.0, bits)
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFinish()


SPRITE_TEXELS = np.array([[[255 * (i % 2), 85 * j, 255 - 60 * i, 255] for i in range(4)] for j in range(4)],
                         np.uint8)


def point_sprites(gl, w, h):
    """GL_POINT_SPRITE with GL_COORD_REPLACE on unit 0 (not on unit 1, which
    keeps its coordinate) for points drawn with glBegin and glDrawArrays, both
    coordinate origins, and a point-mode polygon's vertices as sprites."""
    _setup(gl, w, h)
    gl.glActiveTexture(gl.GL_TEXTURE0)
    _texture(gl, SPRITE_TEXELS, gl.GL_RGBA, gl.GL_RGBA)
    gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glTexEnvi(gl.GL_POINT_SPRITE, gl.GL_COORD_REPLACE, gl.GL_TRUE)
    gl.glActiveTexture(gl.GL_TEXTURE1)
    _texture(gl, np.array([[[255, 255, 255, 255], [128, 128, 128, 255]]], np.uint8), gl.GL_RGBA, gl.GL_RGBA)
    gl.glEnable(gl.GL_TEXTURE_2D)
    gl.glTexEnvi(gl.GL_TEXTURE_ENV, gl.GL_TEXTURE_ENV_MODE, gl.GL_MODULATE)
    gl.glActiveTexture(gl.GL_TEXTURE0)
    gl.glEnable(gl.GL_POINT_SPRITE)
    gl.glPointSize(12.0)
    gl.glMultiTexCoord2f(gl.GL_TEXTURE1, 0.25, 0.5)       # white
    gl.glBegin(gl.GL_POINTS)
    gl.glVertex2f(-0.5, 0.5)
    gl.glMultiTexCoord2f(gl.GL_TEXTURE1, 0.75, 0.5)       # grey
    gl.glVertex2f(0.0, 0.5)
    gl.glEnd()
    gl.glPointParameteri(gl.GL_POINT_SPRITE_COORD_ORIGIN, gl.GL_LOWER_LEFT)
    gl.glMultiTexCoord2f(gl.GL_TEXTURE1, 0.25, 0.5)
    pts = np.array([[0.5, 0.5], [-0.5, -0.5]], np.float32)
    gl.glEnableClientState(gl.GL_VERTEX_ARRAY)
    gl.glVertexPointer(2, gl.GL_FLOAT, 0, pts)
    gl.glDrawArrays(gl.GL_POINTS, 0, 2)
    gl.glDisableClientState(gl.GL_VERTEX_ARRAY)
    gl.glPointParameteri(gl.GL_POINT_SPRITE_COORD_ORIGIN, gl.GL_UPPER_LEFT)
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_POINT)
    gl.glBegin(gl.GL_TRIANGLES)
    for x, y in ((0.0, -0.75), (0.6, -0.75), (0.3, -0.2)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_FILL)
    gl.glDisable(gl.GL_POINT_SPRITE)
    gl.glActiveTexture(gl.GL_TEXTURE1)
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glActiveTexture(gl.GL_TEXTURE0)
    gl.glDisable(gl.GL_TEXTURE_2D)
    gl.glFinish()


def polygon_modes_split(gl, w, h):
    """Different front and back polygon modes: a front quad filled and a
    back quad outlined (FRONT FILL / BACK LINE), then flat-shaded quads
    facing both ways with front POINT and back FILL, from arrays;
    the modes restored by glPopAttrib."""
    _setup(gl, w, h)
    gl.glPushAttrib(gl.GL_POLYGON_BIT)
    gl.glPolygonMode(gl.GL_BACK, gl.GL_LINE)
    gl.glColor3f(1.0, 0.3, 0.0)
    gl.glBegin(gl.GL_QUADS)
    for x, y in ((-0.93, 0.07), (-0.07, 0.09), (-0.09, 0.93), (-0.91, 0.91)):
        gl.glVertex2f(x, y)
    for x, y in ((0.07, 0.07), (0.09, 0.91), (0.91, 0.93), (0.93, 0.09)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glPolygonMode(gl.GL_FRONT, gl.GL_POINT)
    gl.glPolygonMode(gl.GL_BACK, gl.GL_FILL)
    gl.glShadeModel(gl.GL_FLAT)
    quads = np.array([[-0.9, -0.9], [-0.9, -0.1], [-0.3, -0.1], [-0.3, -0.9],     # clockwise: back, filled
                      [0.1, -0.9], [0.9, -0.9], [0.9, -0.1], [0.1, -0.1]], np.float32)  # front: corners
    gl.glEnableClientState(gl.GL_VERTEX_ARRAY)
    gl.glEnableClientState(gl.GL_COLOR_ARRAY)
    gl.glVertexPointer(2, gl.GL_FLOAT, 0, quads)
    gl.glColorPointer(3, gl.GL_FLOAT, 0, np.array(ARRAY_COLOURS, np.float32))
    gl.glDrawArrays(gl.GL_QUADS, 0, 8)
    gl.glDisableClientState(gl.GL_COLOR_ARRAY)
    gl.glDisableClientState(gl.GL_VERTEX_ARRAY)
    gl.glShadeModel(gl.GL_SMOOTH)
    gl.glPopAttrib()
    gl.glColor3f(0.2, 0.2, 1.0)
    gl.glRectf(-0.05, -0.05, 0.05, 0.05)            # filled again after the pop
    gl.glFinish()


FEATURES = {f.__name__: f for f in (spot_two_sided, texgen, texenv_modes, combine_modes, fog_modes,
                                    stipple_and_flat, pixels, arrays_and_attribs, clip_and_normals,
                                    evaluators, line_stipple, polygon_modes, texture_targets, array_primitives,
                                    material_in_begin_end, pixel_fragments, point_sprites,
                                    polygon_modes_split)}


# -- programs that return values instead of pixels (selection, feedback) -----------------------
def select_hits(gl, w, h):
    """glRenderMode(GL_SELECT) with a name stack: a triangle inside, a quad
    half outside the view volume (its depth range from the clipped part), a
    triangle outside (no hit), points from glDrawArrays under a pushed name, a
    culled back-facing triangle (no hit), a line strip and a raster position.
    Returns [hits, buffer...]."""
    _setup(gl, w, h)
    buf = np.zeros(128, np.uint32)
    gl.glSelectBuffer(128, buf)
    gl.glRenderMode(gl.GL_SELECT)
    gl.glInitNames()
    gl.glPushName(1)
    gl.glBegin(gl.GL_TRIANGLES)
    for x, y, z in ((-0.5, -0.5, 1.0), (0.5, -0.5, 2.0), (0.0, 0.5, 3.0)):
        gl.glVertex3f(x, y, z)
    gl.glEnd()
    gl.glLoadName(2)
    gl.glBegin(gl.GL_QUADS)
    for x, y, z in ((0.5, -0.5, -4.0), (1.5, -0.5, -4.0), (1.5, 0.5, 6.0), (0.5, 0.5, 6.0)):
        gl.glVertex3f(x, y, z)
    gl.glEnd()
    gl.glLoadName(3)
    gl.glBegin(gl.GL_TRIANGLES)
    for x, y in ((1.5, 1.5), (2.5, 1.5), (2.0, 2.5)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glPushName(4)
    pts = np.array([[0.0, 0.0, 5.0], [0.2, 0.1, -5.0], [3.0, 0.0, 0.0]], np.float32)
    gl.glEnableClientState(gl.GL_VERTEX_ARRAY)
    gl.glVertexPointer(3, gl.GL_FLOAT, 0, pts)
    gl.glDrawArrays(gl.GL_POINTS, 0, 3)
    gl.glDisableClientState(gl.GL_VERTEX_ARRAY)
    gl.glPopName()
    gl.glLoadName(5)
    gl.glEnable(gl.GL_CULL_FACE)
    gl.glBegin(gl.GL_TRIANGLES)
    for x, y in ((0.0, 0.5), (0.5, -0.5), (-0.5, -0.5)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glDisable(gl.GL_CULL_FACE)
    gl.glLoadName(6)
    gl.glBegin(gl.GL_LINE_STRIP)
    for x, y, z in ((-2.0, 0.0, 0.0), (0.0, 0.0, 4.0), (0.0, 0.9, 8.0)):
        gl.glVertex3f(x, y, z)
    gl.glEnd()
    gl.glLoadName(7)
    gl.glRasterPos3f(0.1, 0.1, -2.0)
    hits = gl.glRenderMode(gl.GL_RENDER)
    return [int(hits)] + [int(v) for v in buf]


def feedback_tokens(gl, w, h, kind=None):
    """glRenderMode(GL_FEEDBACK) of a point, a line strip, a smooth-coloured
    triangle, a quad half outside (clipped), a pass-through token and a
    DrawPixels, with colours and texture coordinates. Returns [count, values...]."""
    kind = gl.GL_3D_COLOR_TEXTURE if kind is None else kind
    _setup(gl, w, h)
    buf = np.zeros(512, np.float32)
    gl.glFeedbackBuffer(512, kind, buf)
    gl.glRenderMode(gl.GL_FEEDBACK)
    gl.glColor4f(1.0, 0.5, 0.25, 1.0)
    gl.glTexCoord4f(0.1, 0.2, 0.3, 1.0)
    gl.glBegin(gl.GL_POINTS)
    gl.glVertex3f(0.25, -0.5, 1.0)
    gl.glEnd()
    gl.glBegin(gl.GL_LINE_STRIP)
    for x, y in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5)):
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glPassThrough(42.0)
    gl.glBegin(gl.GL_TRIANGLES)
    for (x, y), c in zip(((-0.5, 0.0), (0.5, 0.0), (0.0, 0.5)), ((1, 0, 0), (0, 1, 0), (0, 0, 1))):
        gl.glColor3f(*c)
        gl.glTexCoord2f(x, y)
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glColor3f(1.0, 1.0, 1.0)
    gl.glBegin(gl.GL_QUADS)
    for x, y in ((0.5, -0.25), (1.5, -0.25), (1.5, 0.25), (0.5, 0.25)):
        gl.glTexCoord2f(x, y)
        gl.glVertex2f(x, y)
    gl.glEnd()
    gl.glRasterPos2f(-0.75, 0.75)
    gl.glDrawPixels(1, 1, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, np.zeros(4, np.uint8))
    n = gl.glRenderMode(gl.GL_RENDER)
    return [int(n)] + [float(v) for v in buf[:max(int(n), 0)]]


def feedback_2d(gl, w, h):
    return feedback_tokens(gl, w, h, gl.GL_2D)


def feedback_4d(gl, w, h):
    """GL_4D_COLOR_TEXTURE under a perspective projection."""
    _setup(gl, w, h, ortho=False)
    return feedback_tokens_perspective(gl, gl.GL_4D_COLOR_TEXTURE)


def feedback_tokens_perspective(gl, kind):
    buf = np.zeros(256, np.float32)
    gl.glFeedbackBuffer(256, kind, buf)
    gl.glRenderMode(gl.GL_FEEDBACK)
    gl.glBegin(gl.GL_TRIANGLES)
    for x, y, z in ((-0.5, -0.5, -2.0), (0.5, -0.5, -3.0), (0.0, 0.5, -4.0)):
        gl.glVertex3f(x, y, z)
    gl.glEnd()
    n = gl.glRenderMode(gl.GL_RENDER)
    return [int(n)] + [float(v) for v in buf[:max(int(n), 0)]]


RECORD_PROGRAMS = {f.__name__: f for f in (select_hits, feedback_tokens, feedback_2d, feedback_4d)}
