"""Compatibility-profile state: matrix stacks, current vertex values
(glColor*, glTexCoord*, glNormal*), legacy client arrays (glVertexPointer,
...), glShadeModel, user clip planes, and the built-in uniform state block
that feeds gl_ModelViewMatrix & co. (GL 4.6 compatibility profile chapters
10, 12, 13)."""

from __future__ import annotations

import math

import numpy as np

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.errors import check, check_enum
from driver.gl.pointers import ClientMemory
from driver.gl.vertexarrays import PACKED, attrib_size_B

__all__ = ["CompatMixin", "STATE_CONSTANT_BUFFER", "LEGACY_ATTRIBS",
           "fixed_function_source", "state_uniform_layout"]

# Constant buffer slot holding the built-in state uniforms (the last one of a
# stage: uniform block bindings use 1..14).
STATE_CONSTANT_BUFFER = 15

def state_uniform_layout() -> dict[str, tuple[int, int, int]]:
    """leaf name -> (offset_B, element stride_B, elements) in the state
    constant buffer (the full GLSL 1.20 state: driver.gl.legacy.stateblock)."""
    from driver.gl.legacy.stateblock import state_layout
    return state_layout()


# Built-in vertex inputs and the client array that feeds each.
LEGACY_ATTRIBS = {"gl_Vertex": E.GL_VERTEX_ARRAY, "gl_Normal": E.GL_NORMAL_ARRAY,
                  "gl_Color": E.GL_COLOR_ARRAY, "gl_SecondaryColor": E.GL_SECONDARY_COLOR_ARRAY,
                  "gl_FogCoord": E.GL_FOG_COORD_ARRAY,
                  **{f"gl_MultiTexCoord{i}": E.GL_TEXTURE_COORD_ARRAY for i in range(8)}}
# GL_MATRIXi_ARB: the program matrices of ARB_vertex_program (state.matrix.program[i])
_MODES = {E.GL_MODELVIEW: 0, E.GL_PROJECTION: 1, E.GL_TEXTURE: 2,
          **{getattr(E, f"GL_MATRIX{i}_ARB"): 3 + i for i in range(8)}}
_DEPTHS = (32, 32, 10) + (8,) * 8


def fixed_function_source(stage: str, texcoords: int) -> str:
    """GLSL 1.10 for a stage a compatibility program omits: transform and
    colour/texture-coordinate pass-through (lighting, texenv and fog are not
    done here)."""
    if stage == "vertex":
        lines = ["gl_Position = ftransform();",
                 "gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;",
                 "gl_FrontColor = gl_Color;", "gl_BackColor = gl_Color;",
                 "gl_FrontSecondaryColor = gl_SecondaryColor;",
                 "gl_BackSecondaryColor = gl_SecondaryColor;"]
        lines += [f"gl_TexCoord[{i}] = gl_TextureMatrix[{i}] * gl_MultiTexCoord{i};"
                  for i in range(texcoords)]
    else:
        lines = ["gl_FragColor = gl_Color;"]
    return "#version 110\nvoid main() {\n    " + "\n    ".join(lines) + "\n}\n"


def _identity():
    return np.identity(4)



def coord_unit(ctx) -> int:
    """The active texture unit for a query of texture coordinate state (current and raster
    coordinates, the texture matrix and its stack): GL 4.6 compatibility section 22.1
    (GL 2.1 section 6.1.2) makes a unit at or past MAX_TEXTURE_COORDS INVALID_OPERATION
    (the active unit may go up to MAX_COMBINED_TEXTURE_IMAGE_UNITS)."""
    check(ctx.active_texture < ctx.limits["GL_MAX_TEXTURE_COORDS"], E.GL_INVALID_OPERATION,
          "texture coordinate state of a unit past MAX_TEXTURE_COORDS")
    return ctx.active_texture

class CompatMixin:
    def _init_family(self) -> None:
        # matrix stacks, current values, client active texture, shade model: ctx.legacy
        self.clip_planes = [(0.0, 0.0, 0.0, 0.0) for _ in range(self.caps.max_clip_planes)]
        self.state.flat_shading = False

    # -- matrix stacks (GL 4.6 compat section 12.1.1) ------------------------------------
    def _stack(self) -> list:
        i = _MODES[self.legacy.matrix_mode]
        return self.legacy.stacks[2][self.active_texture % 8] if i == 2 else self.legacy.stacks[i]

    def _set_top(self, m) -> None:
        # GL's matrices are single precision (section 2.2.1; Mesa keeps GLfloat): the top is
        # rounded to float32 after each operation, so what glGetFloatv returns is exactly the
        # matrix draws use. Programs read matrices back and build others from them (MuJoCo's
        # shadow texgen from glFrustum's product): a float64 top made those differ by the
        # product's rounding, enough to shadow every fragment of a reverse-Z shadow map
        self._stack()[-1] = np.asarray(m, np.float64).astype(np.float32).astype(np.float64)

    def glMatrixMode(self, mode: int) -> None:
        check_enum(mode, _MODES)
        self.legacy.matrix_mode = mode

    def glLoadIdentity(self) -> None:
        self._set_top(_identity())

    def glLoadMatrixf(self, m) -> None:
        """`m`: 16 values in column-major order, as in C."""
        self._set_top(np.asarray(m, np.float64).reshape(4, 4).T)

    glLoadMatrixd = glLoadMatrixf

    def glLoadTransposeMatrixf(self, m) -> None:
        self._set_top(np.asarray(m, np.float64).reshape(4, 4))

    def glMultMatrixf(self, m) -> None:
        self._set_top(self._stack()[-1] @ np.asarray(m, np.float64).reshape(4, 4).T)

    glMultMatrixd = glMultMatrixf

    def glMultTransposeMatrixf(self, m) -> None:
        self._set_top(self._stack()[-1] @ np.asarray(m, np.float64).reshape(4, 4))

    def _mult(self, m) -> None:
        self._set_top(self._stack()[-1] @ m)

    def glOrtho(self, left, right, bottom, top, near, far) -> None:
        """GL 4.6 compat equation 12.4."""
        check(left != right and bottom != top and near != far, E.GL_INVALID_VALUE)
        m = _identity()
        m[0, 0], m[1, 1], m[2, 2] = 2 / (right - left), 2 / (top - bottom), -2 / (far - near)
        m[0, 3] = -(right + left) / (right - left)
        m[1, 3] = -(top + bottom) / (top - bottom)
        m[2, 3] = -(far + near) / (far - near)
        self._mult(m)

    def glFrustum(self, left, right, bottom, top, near, far) -> None:
        """GL 4.6 compat equation 12.3."""
        check(near > 0 and far > 0 and left != right and bottom != top and near != far,
              E.GL_INVALID_VALUE)
        m = np.zeros((4, 4))
        m[0, 0] = 2 * near / (right - left)
        m[1, 1] = 2 * near / (top - bottom)
        m[0, 2] = (right + left) / (right - left)
        m[1, 2] = (top + bottom) / (top - bottom)
        m[2, 2] = -(far + near) / (far - near)
        m[2, 3] = -2 * far * near / (far - near)
        m[3, 2] = -1
        self._mult(m)

    def glTranslatef(self, x, y, z) -> None:
        m = _identity()
        m[:3, 3] = (x, y, z)
        self._mult(m)

    glTranslated = glTranslatef

    def glScalef(self, x, y, z) -> None:
        self._mult(np.diag([x, y, z, 1.0]))

    glScaled = glScalef

    def glRotatef(self, angle, x, y, z) -> None:
        """GL 4.6 compat equation 12.5 (angle in degrees)."""
        n = math.sqrt(x * x + y * y + z * z)
        m = _identity()
        if n:
            x, y, z = x / n, y / n, z / n
            with np.errstate(invalid="ignore"):     # an infinite angle gives NaN, as GL computes
                rad = np.radians(np.float64(angle))
                c, s = float(np.cos(rad)), float(np.sin(rad))
            u = np.array([x, y, z])
            r = np.outer(u, u) * (1 - c) + c * np.identity(3) + s * np.array(
                [[0, -z, y], [z, 0, -x], [-y, x, 0]])
            m[:3, :3] = r
        self._mult(m)

    glRotated = glRotatef

    def glPushMatrix(self) -> None:
        st = self._stack()
        depth = _DEPTHS[_MODES[self.legacy.matrix_mode]]
        check(len(st) < depth, E.GL_STACK_OVERFLOW, "matrix stack overflow")
        st.append(st[-1].copy())

    def glPopMatrix(self) -> None:
        st = self._stack()
        check(len(st) > 1, E.GL_STACK_UNDERFLOW, "matrix stack underflow")
        st.pop()

    # -- current values (GL 4.6 compat section 10.2) -------------------------------------
    def glColor4f(self, r, g, b, a) -> None:
        self.legacy.current_color = (float(r), float(g), float(b), float(a))

    def glColor3f(self, r, g, b) -> None:
        self.glColor4f(r, g, b, 1.0)

    def glColor4ub(self, r, g, b, a) -> None:
        self.glColor4f(r / 255, g / 255, b / 255, a / 255)

    def glColor3ub(self, r, g, b) -> None:
        self.glColor4f(r / 255, g / 255, b / 255, 1.0)

    def glColor4fv(self, v) -> None:
        self.glColor4f(*list(v)[:4])

    def glColor3fv(self, v) -> None:
        self.glColor3f(*list(v)[:3])

    def glSecondaryColor3f(self, r, g, b) -> None:
        self.legacy.current_secondary_color = (float(r), float(g), float(b), 1.0)

    def glNormal3f(self, x, y, z) -> None:
        self.legacy.current_normal = (float(x), float(y), float(z))

    def glNormal3fv(self, v) -> None:
        self.glNormal3f(*list(v)[:3])

    def glMultiTexCoord4f(self, target, s, t, r, q) -> None:
        unit = target - E.GL_TEXTURE0
        check(0 <= unit < 8, E.GL_INVALID_ENUM, "bad texture unit")
        self.legacy.current_texcoords[unit] = (float(s), float(t), float(r), float(q))

    def glMultiTexCoord2f(self, target, s, t) -> None:
        self.glMultiTexCoord4f(target, s, t, 0.0, 1.0)

    def glTexCoord4f(self, s, t, r, q) -> None:
        self.legacy.current_texcoords[0] = (float(s), float(t), float(r), float(q))

    def glTexCoord2f(self, s, t) -> None:
        self.glTexCoord4f(s, t, 0.0, 1.0)

    def glTexCoord2fv(self, v) -> None:
        self.glTexCoord2f(*list(v)[:2])

    def glShadeModel(self, mode: int) -> None:
        check_enum(mode, (E.GL_FLAT, E.GL_SMOOTH))
        self.legacy.shade_model = mode
        self.state.flat_shading = mode == E.GL_FLAT

    glLoadTransposeMatrixd = glLoadTransposeMatrixf
    glMultTransposeMatrixd = glMultTransposeMatrixf

    def glAlphaFunc(self, func: int, ref: float) -> None:
        """GL 4.6 compat section 17.3.5: ref is kept as given (ARB_color_buffer_float), clamped
        to [0, 1] where it is used (the alpha test) and by its query when fragment colours clamp."""
        check_enum(func, range(E.GL_NEVER, E.GL_ALWAYS + 1))
        self.state.alpha_func = func
        self.state.alpha_ref = float(ref)

    def glGetPointerv(self, pname: int):
        """Client array pointers (compat) and the debug callback."""
        arrays = {E.GL_VERTEX_ARRAY_POINTER: E.GL_VERTEX_ARRAY,
                  E.GL_NORMAL_ARRAY_POINTER: E.GL_NORMAL_ARRAY,
                  E.GL_COLOR_ARRAY_POINTER: E.GL_COLOR_ARRAY,
                  E.GL_TEXTURE_COORD_ARRAY_POINTER: E.GL_TEXTURE_COORD_ARRAY,
                  E.GL_SECONDARY_COLOR_ARRAY_POINTER: E.GL_SECONDARY_COLOR_ARRAY}
        if pname in (E.GL_DEBUG_CALLBACK_FUNCTION, E.GL_DEBUG_CALLBACK_USER_PARAM) and \
                (self.api.gl(4, 3) or self.api.es_(3, 2)):
            d = self._debug_state()
            cb = d["callback"]          # the C ABI wraps a C callback and keeps it as c_function
            if pname == E.GL_DEBUG_CALLBACK_FUNCTION:
                return getattr(cb, "c_function", cb)
            return getattr(cb, "c_user", d["user"])
        check(self.api.compat and pname in arrays, E.GL_INVALID_ENUM, "bad pname")
        entry = self.vao.legacy.get(self.legacy.array_key(arrays[pname]))
        return entry[0].pointer if entry else 0

    # -- clip planes (GL 4.6 compat section 13.7) ----------------------------------------------
    def glClipPlane(self, plane: int, equation) -> None:
        """The plane is transformed by the inverse of the current modelview
        matrix when specified (eye coordinates)."""
        i = plane - E.GL_CLIP_PLANE0
        check(0 <= i < self.caps.max_clip_planes, E.GL_INVALID_ENUM, "bad clip plane")
        p = np.asarray(list(equation)[:4], np.float64)
        mv = self.legacy.stacks[0][-1]
        self.clip_planes[i] = tuple(float(v) for v in p @ np.linalg.inv(mv))

    def glGetClipPlane(self, plane: int) -> list[float]:
        i = plane - E.GL_CLIP_PLANE0
        check(0 <= i < self.caps.max_clip_planes, E.GL_INVALID_ENUM, "bad clip plane")
        return list(self.clip_planes[i])

    # -- legacy client arrays (GL 4.6 compat section 10.3.3) ---------------------------------------
    @extends
    def _client_state_caps(self, core) -> set[int]:
        if not self.api.compat:
            return core()
        from driver.gl.features import nv_primitive_restart as nv
        return {E.GL_VERTEX_ARRAY, E.GL_NORMAL_ARRAY, E.GL_COLOR_ARRAY,
                E.GL_SECONDARY_COLOR_ARRAY, E.GL_TEXTURE_COORD_ARRAY, E.GL_FOG_COORD_ARRAY} | (
            {nv.GL_PRIMITIVE_RESTART_NV} if nv.available(self) else set())

    @extends
    def _set_enable(self, core, cap: int, on: bool) -> None:
        """glEnable/glDisable of a client array in the compatibility profile switch
        the array, as glEnableClientState does: the GL specification names only
        glEnableClientState, Mesa (and with it piglit's gl-1.1-color-material-array)
        accepts both."""
        if cap in self._client_state_caps() and cap != _PRIMITIVE_RESTART_NV:
            return (self.glEnableClientState if on else self.glDisableClientState)(cap)
        core(cap, on)

    def glEnableClientState(self, array: int) -> None:
        check_enum(array, self._client_state_caps())
        if array == _PRIMITIVE_RESTART_NV:        # NV_primitive_restart: GL 3.1's switch
            return self._set_enable(E.GL_PRIMITIVE_RESTART, True)
        self.vao.legacy_array(self.legacy.array_key(array))[0].enabled = True

    def glDisableClientState(self, array: int) -> None:
        check_enum(array, self._client_state_caps())
        if array == _PRIMITIVE_RESTART_NV:
            return self._set_enable(E.GL_PRIMITIVE_RESTART, False)
        self.vao.legacy_array(self.legacy.array_key(array))[0].enabled = False

    def glClientActiveTexture(self, texture: int) -> None:
        unit = texture - E.GL_TEXTURE0
        check(0 <= unit < 8, E.GL_INVALID_ENUM)
        self.legacy.client_active_texture = unit

    def _legacy_pointer(self, array, size, type, stride, pointer, sizes, types, normalized, bgra=False):
        if self.api.es1:        # OpenGL ES 1.1 table 2.4: its own sizes and types (GL_FIXED)
            from driver.gl.features.gles1 import ES1_ARRAYS
            sizes, types = ES1_ARRAYS[array]
        else:                   # GL 3.3 compatibility table 2.5: the packed types, BGRA colours
            types = (*types, *PACKED)
            sizes = (*sizes, E.GL_BGRA) if bgra else sizes
        check(size in sizes, E.GL_INVALID_VALUE, "bad size")
        check_enum(type, types)
        check(type not in PACKED or size in (4, E.GL_BGRA), E.GL_INVALID_OPERATION, "a packed type needs size 4")
        check(size != E.GL_BGRA or type in (E.GL_UNSIGNED_BYTE, *PACKED), E.GL_INVALID_OPERATION,
              "BGRA needs UNSIGNED_BYTE or a packed type")
        check(stride >= 0, E.GL_INVALID_VALUE, "negative stride")
        a, b = self.vao.legacy_array(self.legacy.array_key(array))
        buf = self.buffer_bindings.get(E.GL_ARRAY_BUFFER)
        if buf is None and pointer is not None and not isinstance(pointer, int):
            pointer = ClientMemory.wrap(pointer)
        a.size, a.type, a.normalized, a.stride, a.pointer = size, type, normalized, stride, pointer
        b.buffer, b.offset = buf, pointer if isinstance(pointer, int) else 0
        b.stride = stride or attrib_size_B(size, type)

    def glVertexPointer(self, size, type, stride, pointer) -> None:
        self._legacy_pointer(E.GL_VERTEX_ARRAY, size, type, stride, pointer, (2, 3, 4),
                             (E.GL_SHORT, E.GL_INT, E.GL_FLOAT, E.GL_DOUBLE, E.GL_HALF_FLOAT), False)

    def glNormalPointer(self, type, stride, pointer) -> None:
        # a packed normal is the x, y, z of a four-component word
        self._legacy_pointer(E.GL_NORMAL_ARRAY, 4 if type in PACKED else 3, type, stride, pointer, (3, 4),
                             (E.GL_BYTE, E.GL_SHORT, E.GL_INT, E.GL_FLOAT, E.GL_DOUBLE), True)

    def glColorPointer(self, size, type, stride, pointer) -> None:
        self._legacy_pointer(E.GL_COLOR_ARRAY, size, type, stride, pointer, (3, 4),
                             (E.GL_BYTE, E.GL_UNSIGNED_BYTE, E.GL_SHORT, E.GL_UNSIGNED_SHORT,
                              E.GL_INT, E.GL_UNSIGNED_INT, E.GL_FLOAT, E.GL_DOUBLE,
                              E.GL_HALF_FLOAT), True, bgra=True)

    def glSecondaryColorPointer(self, size, type, stride, pointer) -> None:
        self._legacy_pointer(E.GL_SECONDARY_COLOR_ARRAY, size, type, stride, pointer, (3,),
                             (E.GL_BYTE, E.GL_UNSIGNED_BYTE, E.GL_SHORT, E.GL_UNSIGNED_SHORT,
                              E.GL_INT, E.GL_UNSIGNED_INT, E.GL_FLOAT, E.GL_DOUBLE), True, bgra=True)

    def glTexCoordPointer(self, size, type, stride, pointer) -> None:
        self._legacy_pointer(E.GL_TEXTURE_COORD_ARRAY, size, type, stride, pointer, (1, 2, 3, 4),
                             (E.GL_SHORT, E.GL_INT, E.GL_FLOAT, E.GL_DOUBLE, E.GL_HALF_FLOAT), False)

    def _legacy_source(self, name: str):
        """(VertexAttrib, VertexBinding) of the array feeding a built-in
        input if enabled, else None (then the current value is used)."""
        array = LEGACY_ATTRIBS[name]
        unit = int(name[len("gl_MultiTexCoord"):]) if name.startswith("gl_MultiTexCoord") else 0
        entry = self.vao.legacy.get((array, unit))
        if entry is not None and entry[0].enabled:
            return entry
        if name == "gl_Vertex" and self.vao.attribs[0].enabled:
            return self.vao.attribs[0], self.vao.bindings[self.vao.attribs[0].binding]
        return None

    @extends
    def _generic_source(self, core, slot: int) -> tuple:
        """Generic attribute 0 aliases the conventional vertex position (GL 4.6
        compatibility section 10.2): a program input bound to location 0 reads
        glVertexPointer's array when the generic array 0 is disabled (the
        reverse of _legacy_source's gl_Vertex reading generic array 0)."""
        a, b = core(slot)
        if b is None and slot == 0 and self.api.compat:
            entry = self.vao.legacy.get((E.GL_VERTEX_ARRAY, 0))
            if entry is not None and entry[0].enabled:
                return entry
        return a, b

    def _legacy_current(self, name: str) -> tuple:
        if name == "gl_Color":
            return self.legacy.current_color
        if name == "gl_SecondaryColor":
            return self.legacy.current_secondary_color
        if name == "gl_Normal":
            return (*self.legacy.current_normal, 1.0)
        if name.startswith("gl_MultiTexCoord"):
            return self.legacy.current_texcoords[int(name[len("gl_MultiTexCoord"):])]
        return self.current_attribs[0][0]

    @extends
    def _legacy_get_entries(self, core) -> dict:     # (texture coordinate state: see coord_unit)
        if not self.api.compat:
            return core()

        def mat(i, transpose=False):      # GL returns column-major; TRANSPOSE_*: row-major (GL 1.3)
            return lambda c: tuple((c.legacy.stacks[i][-1] if transpose else c.legacy.stacks[i][-1].T).ravel())

        def texture_matrix(transpose=False):
            return lambda c: tuple((lambda m: m if transpose else m.T)(
                c.legacy.stacks[2][coord_unit(c)][-1]).ravel())
        return {
            E.GL_MATRIX_MODE: lambda c: c.legacy.matrix_mode,
            E.GL_MODELVIEW_MATRIX: mat(0), E.GL_PROJECTION_MATRIX: mat(1),
            E.GL_TEXTURE_MATRIX: texture_matrix(),
            E.GL_TRANSPOSE_MODELVIEW_MATRIX: mat(0, True), E.GL_TRANSPOSE_PROJECTION_MATRIX: mat(1, True),
            E.GL_TRANSPOSE_TEXTURE_MATRIX: texture_matrix(True),
            E.GL_MODELVIEW_STACK_DEPTH: lambda c: len(c.legacy.stacks[0]),
            E.GL_PROJECTION_STACK_DEPTH: lambda c: len(c.legacy.stacks[1]),
            E.GL_TEXTURE_STACK_DEPTH: lambda c: len(c.legacy.stacks[2][coord_unit(c)]),
            E.GL_CURRENT_COLOR: lambda c: c.legacy.current_color,
            E.GL_CURRENT_NORMAL: lambda c: c.legacy.current_normal,
            E.GL_CURRENT_TEXTURE_COORDS: lambda c: c.legacy.current_texcoords[coord_unit(c)],
            E.GL_SHADE_MODEL: lambda c: c.legacy.shade_model,
            E.GL_ALPHA_TEST_FUNC: lambda c: c.state.alpha_func,
            E.GL_ALPHA_TEST_REF: lambda c: c.state.alpha_ref,
            E.GL_CURRENT_SECONDARY_COLOR: lambda c: c.legacy.current_secondary_color,
            E.GL_CLIENT_ACTIVE_TEXTURE: lambda c: E.GL_TEXTURE0 + c.legacy.client_active_texture,
            E.GL_VERTEX_ARRAY: lambda c: client_state_enabled(c, E.GL_VERTEX_ARRAY),
            E.GL_COLOR_ARRAY: lambda c: client_state_enabled(c, E.GL_COLOR_ARRAY),
            E.GL_NORMAL_ARRAY: lambda c: client_state_enabled(c, E.GL_NORMAL_ARRAY),
            E.GL_TEXTURE_COORD_ARRAY: lambda c: client_state_enabled(c, E.GL_TEXTURE_COORD_ARRAY),
        }


_PRIMITIVE_RESTART_NV = 0x8558      # driver.gl.features.nv_primitive_restart


def client_state_enabled(ctx, array: int) -> bool:
    """glIsEnabled of a client array (glEnableClientState's ``array``) in ``ctx``:
    the bound vertex array object's legacy array (of the client-active unit for
    texture coordinates); NV_primitive_restart's client state is GL 3.1's enable."""
    if array == _PRIMITIVE_RESTART_NV:
        return E.GL_PRIMITIVE_RESTART in ctx.state.enabled
    entry = ctx.vao.legacy.get(ctx.legacy.array_key(array))
    return entry is not None and entry[0].enabled


def _normalize(v, letter: str) -> float:
    """GL 4.6 section 2.3.5.1 / table 10.2: integer components of colours and
    normals are normalised (signed: max(c / (2^(b-1) - 1), -1))."""
    bits = {"b": 8, "s": 16, "i": 32, "ub": 8, "us": 16, "ui": 32}.get(letter)
    if bits is None:
        return float(v)
    if letter.startswith("u"):
        return int(v) / ((1 << bits) - 1)
    return max(int(v) / ((1 << (bits - 1)) - 1), -1.0)


def _define_current_value_variants():
    """glColor{3,4}*, glSecondaryColor3*, glNormal3*, glTexCoord{1..4}*,
    glMultiTexCoord{1..4}* in every component type, plain and v forms
    (GL 4.6 compat section 10.2.2)."""
    color_types = ("b", "d", "f", "i", "s", "ub", "ui", "us")
    coord_types = ("d", "f", "i", "s")

    def make(kind, n, letter, vector):
        def fn(self, *args):
            if kind == "multitex":
                target, rest = args[0], args[1:]
            else:
                target, rest = None, args
            vals = list(rest[0])[:n] if vector else list(rest)
            if kind in ("color", "secondary", "normal"):
                vals = [_normalize(v, letter) for v in vals]
            else:
                vals = [float(v) for v in vals]
            if kind == "color":
                self.legacy.current_color = tuple(vals + [1.0][: 4 - n])
            elif kind == "secondary":
                self.legacy.current_secondary_color = (*vals, 1.0)
            elif kind == "normal":
                self.legacy.current_normal = tuple(vals)
            else:
                unit = 0 if target is None else target - E.GL_TEXTURE0
                check(0 <= unit < 8, E.GL_INVALID_ENUM, "bad texture unit")
                self.legacy.current_texcoords[unit] = tuple(vals + [0.0, 0.0, 1.0][n - 1:])
        return fn

    specs = [("color", "glColor", (3, 4), color_types), ("secondary", "glSecondaryColor", (3,), color_types),
             ("normal", "glNormal", (3,), ("b", "d", "f", "i", "s")),
             ("texcoord", "glTexCoord", (1, 2, 3, 4), coord_types),
             ("multitex", "glMultiTexCoord", (1, 2, 3, 4), coord_types)]
    for kind, prefix, sizes, types in specs:
        for n in sizes:
            for letter in types:
                for vector in (False, True):
                    name = f"{prefix}{n}{letter}{'v' if vector else ''}"
                    if name not in CompatMixin.__dict__:
                        setattr(CompatMixin, name, make(kind, n, letter, vector))


def _define_packed_value_variants():
    """glColorP*, glNormalP3ui, glTexCoordP*, glMultiTexCoordP*,
    glSecondaryColorP3ui and glVertexP* (GL 3.3 compatibility profile,
    ARB_vertex_type_2_10_10_10_rev)."""
    def decode(type, v, normalized):
        comps = [(v >> s) & m for s, m in ((0, 1023), (10, 1023), (20, 1023), (30, 3))]
        bits = (10, 10, 10, 2)
        if type == E.GL_INT_2_10_10_10_REV:
            comps = [c - (1 << b) if c >> (b - 1) else c for c, b in zip(comps, bits)]
            if normalized:
                comps = [max(-1.0, c / ((1 << (b - 1)) - 1)) for c, b in zip(comps, bits)]
        elif normalized:
            comps = [c / ((1 << b) - 1) for c, b in zip(comps, bits)]
        return [float(c) for c in comps]

    def make(kind, n, vector):
        def fn(self, *args):
            if kind == "multitex":
                target, type, value = args
            else:
                target, (type, value) = None, args
            check_enum(type, (E.GL_INT_2_10_10_10_REV, E.GL_UNSIGNED_INT_2_10_10_10_REV))
            v = int(list(value)[0] if vector else value)
            comps = decode(type, v, kind in ("color", "secondary", "normal"))[:n]
            if kind == "vertex":        # a vertex of glBegin/glEnd: missing z 0, w 1
                return self.glVertex4f(*comps, *[0.0, 1.0][n - 2:])
            if kind == "color":
                self.legacy.current_color = tuple(comps + [1.0][: 4 - n])
            elif kind == "secondary":
                self.legacy.current_secondary_color = (*comps, 1.0)
            elif kind == "normal":
                self.legacy.current_normal = tuple(comps)
            else:
                unit = 0 if target is None else target - E.GL_TEXTURE0
                check(0 <= unit < 8, E.GL_INVALID_ENUM)
                self.legacy.current_texcoords[unit] = tuple(comps + [0.0, 0.0, 1.0][n - 1:])
        return fn

    for kind, prefix, sizes in (("color", "glColorP", (3, 4)), ("secondary", "glSecondaryColorP", (3,)),
                                ("normal", "glNormalP", (3,)), ("texcoord", "glTexCoordP", (1, 2, 3, 4)),
                                ("multitex", "glMultiTexCoordP", (1, 2, 3, 4)), ("vertex", "glVertexP", (2, 3, 4))):
        for n in sizes:
            setattr(CompatMixin, f"{prefix}{n}ui", make(kind, n, False))
            setattr(CompatMixin, f"{prefix}{n}uiv", make(kind, n, True))


_define_current_value_variants()
_define_packed_value_variants()
