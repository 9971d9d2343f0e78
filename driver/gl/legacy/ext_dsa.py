"""GL_EXT_direct_state_access (compatibility contexts): the commands that name
the object or selector they act on instead of using the current binding.

Each command is the core command it names run with the named object or
selector made current for the duration of the call and the previous binding
restored afterwards, even when the core command fails (GL 4.6's own DSA,
driver/gl/features/dsa.py, has other rules: its objects must exist). The
EXT's own semantics follow from that:

- an unused texture, buffer, framebuffer, renderbuffer or ARB program name
  becomes an object on first use, as binding it does in a compatibility
  context; a texture name bound to another target is INVALID_OPERATION;
- ``texunit`` selectors (GL_TEXTUREi) act on unit i's texture environment,
  coordinate generation, parameters and images of the texture bound there;
  a matrix ``mode`` may be GL_TEXTUREi (unit i's texture matrix);
- indexed client state and queries (``glEnableClientStateIndexedEXT(
  GL_TEXTURE_COORD_ARRAY, i)``, ``glGetFloatIndexedvEXT(pname, i)``) act on
  unit i's;
- the vertex array object commands need an existing object (the EXT says
  so), and bind the named buffer only for the array they specify.

The commands are built from one table, ``_COMMANDS``: name -> (selector,
core command). glProgramUniform*EXT and the indexed enables/queries shared
with later extensions are the registry's aliases of core commands.
"""

from __future__ import annotations

import contextlib

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.errors import GLError, check
from driver.gl.features import call

__all__ = ["ExtDirectStateAccessMixin", "EXT_DSA_COMMANDS", "EXT_DSA_MARSHAL", "selector_error"]

_CUBE_FACES = range(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X, E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + 6)
_TEXTURE_BINDINGS = {
    E.GL_TEXTURE_1D: E.GL_TEXTURE_BINDING_1D, E.GL_TEXTURE_2D: E.GL_TEXTURE_BINDING_2D,
    E.GL_TEXTURE_3D: E.GL_TEXTURE_BINDING_3D, E.GL_TEXTURE_CUBE_MAP: E.GL_TEXTURE_BINDING_CUBE_MAP,
    E.GL_TEXTURE_RECTANGLE: E.GL_TEXTURE_BINDING_RECTANGLE, E.GL_TEXTURE_1D_ARRAY: E.GL_TEXTURE_BINDING_1D_ARRAY,
    E.GL_TEXTURE_2D_ARRAY: E.GL_TEXTURE_BINDING_2D_ARRAY, E.GL_TEXTURE_BUFFER: E.GL_TEXTURE_BINDING_BUFFER,
    E.GL_TEXTURE_CUBE_MAP_ARRAY: E.GL_TEXTURE_BINDING_CUBE_MAP_ARRAY,
    E.GL_TEXTURE_2D_MULTISAMPLE: E.GL_TEXTURE_BINDING_2D_MULTISAMPLE,
    E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY: E.GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY,
    E.GL_PROXY_TEXTURE_1D: None, E.GL_PROXY_TEXTURE_2D: None, E.GL_PROXY_TEXTURE_3D: None,
    E.GL_PROXY_TEXTURE_CUBE_MAP: None, E.GL_PROXY_TEXTURE_RECTANGLE: None, E.GL_PROXY_TEXTURE_1D_ARRAY: None,
    E.GL_PROXY_TEXTURE_2D_ARRAY: None, E.GL_PROXY_TEXTURE_CUBE_MAP_ARRAY: None,
}
_SCRATCH_BUFFER = E.GL_COPY_WRITE_BUFFER      # the binding a named buffer is made current on


def _get(ctx, pname: int) -> int:
    return call(ctx, "glGetIntegerv", pname)[0]


def _units(ctx) -> int:
    """How many texture units a selector may name (GL_TEXTUREi): glActiveTexture's."""
    return ctx.limits["GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS"]


@contextlib.contextmanager
def _unit(ctx, texunit: int):
    check(E.GL_TEXTURE0 <= texunit < E.GL_TEXTURE0 + _units(ctx), E.GL_INVALID_ENUM, f"bad texunit {texunit:#x}")
    saved = _get(ctx, E.GL_ACTIVE_TEXTURE)
    call(ctx, "glActiveTexture", texunit)
    try:
        yield
    finally:
        call(ctx, "glActiveTexture", saved)


@contextlib.contextmanager
def _client_unit(ctx, texunit: int):
    check(E.GL_TEXTURE0 <= texunit < E.GL_TEXTURE0 + ctx.limits["GL_MAX_TEXTURE_COORDS"], E.GL_INVALID_ENUM,
          f"bad client texunit {texunit:#x}")
    saved = _get(ctx, E.GL_CLIENT_ACTIVE_TEXTURE)
    call(ctx, "glClientActiveTexture", texunit)
    try:
        yield
    finally:
        call(ctx, "glClientActiveTexture", saved)


@contextlib.contextmanager
def _matrix(ctx, mode: int):
    saved = _get(ctx, E.GL_MATRIX_MODE)
    with contextlib.ExitStack() as stack:
        if E.GL_TEXTURE0 <= mode < E.GL_TEXTURE0 + _units(ctx):      # GL_TEXTUREi: unit i's texture matrix
            stack.enter_context(_unit(ctx, mode))
            mode = E.GL_TEXTURE
        call(ctx, "glMatrixMode", mode)
        try:
            yield
        finally:
            call(ctx, "glMatrixMode", saved)


@contextlib.contextmanager
def _texture(ctx, texture: int, target: int):
    bind_target = E.GL_TEXTURE_CUBE_MAP if target in _CUBE_FACES else target
    check(bind_target in _TEXTURE_BINDINGS, E.GL_INVALID_ENUM, f"bad texture target {target:#x}")
    binding = _TEXTURE_BINDINGS[bind_target]
    if binding is None:           # a proxy target names no object: texture 0 only (as Mesa)
        check(texture == 0, E.GL_INVALID_OPERATION, "a proxy target takes texture 0")
        yield
        return
    saved = _get(ctx, binding)
    call(ctx, "glBindTexture", bind_target, texture)
    try:
        yield
    finally:
        call(ctx, "glBindTexture", bind_target, saved)


@contextlib.contextmanager
def _binding(ctx, bind: str, target: int, query: int, name: int):
    saved = _get(ctx, query)
    call(ctx, bind, target, name)
    try:
        yield
    finally:
        call(ctx, bind, target, saved)


def _buffer(ctx, buffer: int):
    check(buffer != 0, E.GL_INVALID_OPERATION, "buffer 0 names no buffer object")
    return _binding(ctx, "glBindBuffer", _SCRATCH_BUFFER, E.GL_COPY_WRITE_BUFFER_BINDING, buffer)


def _framebuffer(ctx, framebuffer: int, target: int = E.GL_DRAW_FRAMEBUFFER):
    query = E.GL_DRAW_FRAMEBUFFER_BINDING if target == E.GL_DRAW_FRAMEBUFFER else E.GL_READ_FRAMEBUFFER_BINDING
    return _binding(ctx, "glBindFramebuffer", target, query, framebuffer)


def _renderbuffer(ctx, renderbuffer: int):
    return _binding(ctx, "glBindRenderbuffer", E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_BINDING, renderbuffer)


@contextlib.contextmanager
def _program(ctx, program: int, target: int):
    check(target in (E.GL_VERTEX_PROGRAM_ARB, E.GL_FRAGMENT_PROGRAM_ARB), E.GL_INVALID_ENUM,
          f"bad program target {target:#x}")
    saved = ctx._arb_bound[target].name        # PROGRAM_BINDING_ARB (its query builds every answer)
    call(ctx, "glBindProgramARB", target, program)
    try:
        yield
    finally:
        call(ctx, "glBindProgramARB", target, saved)


@contextlib.contextmanager
def _vao(ctx, vaobj: int):
    check(vaobj == 0 or ctx.vertex_arrays.is_generated(vaobj), E.GL_INVALID_OPERATION,
          f"{vaobj} is not a vertex array object name")
    saved = _get(ctx, E.GL_VERTEX_ARRAY_BINDING)
    call(ctx, "glBindVertexArray", vaobj)
    try:
        yield
    finally:
        call(ctx, "glBindVertexArray", saved)


# -- the selectors of the table: (EXT arguments) -> (context manager, core arguments) ----
def _by_unit(ctx, texunit, *rest):
    return _unit(ctx, texunit), rest


def _by_client_unit(ctx, texunit, *rest):
    return _client_unit(ctx, texunit), rest


def _by_matrix(ctx, mode, *rest):
    return _matrix(ctx, mode), rest


def _by_texture(ctx, texture, target, *rest):
    return _texture(ctx, texture, target), (target, *rest)


def _by_buffer(ctx, buffer, *rest):
    return _buffer(ctx, buffer), (_SCRATCH_BUFFER, *rest)


def _by_framebuffer(ctx, framebuffer, *rest):
    return _framebuffer(ctx, framebuffer), (E.GL_DRAW_FRAMEBUFFER, *rest)


def _by_framebuffer_no_target(ctx, framebuffer, *rest):
    return _framebuffer(ctx, framebuffer), rest


@contextlib.contextmanager
def _framebuffer_bound(ctx, framebuffer: int):
    with _framebuffer(ctx, framebuffer, E.GL_READ_FRAMEBUFFER), _framebuffer(ctx, framebuffer):
        yield


def _by_framebuffer_bound(ctx, framebuffer, *rest):
    return _framebuffer_bound(ctx, framebuffer), rest


def _by_read_framebuffer(ctx, framebuffer, *rest):
    return _framebuffer(ctx, framebuffer, E.GL_READ_FRAMEBUFFER), rest


def _by_renderbuffer(ctx, renderbuffer, *rest):
    return _renderbuffer(ctx, renderbuffer), (E.GL_RENDERBUFFER, *rest)


def _by_program(ctx, program, target, *rest):
    return _program(ctx, program, target), (target, *rest)


def _by_program_query(ctx, program, target, pname):
    # PROGRAM_BINDING_ARB is the context's binding, not a property of the named program
    scope = contextlib.nullcontext() if pname == E.GL_PROGRAM_BINDING_ARB else _program(ctx, program, target)
    return scope, (target, pname)


def _by_vao(ctx, vaobj, *rest):
    return _vao(ctx, vaobj), rest


def _core_names(prefix_ext: str, prefix_core: str, names: str) -> dict:
    return {f"gl{prefix_ext}{n}EXT": f"gl{prefix_core}{n}" for n in names.split()}


_TEX_SUFFIXES = ("Parameteri Parameteriv Parameterf Parameterfv ParameterIiv ParameterIuiv Image1D Image2D Image3D "
                 "SubImage1D SubImage2D SubImage3D")
_GET_TEX_SUFFIXES = "Parameteriv Parameterfv ParameterIiv ParameterIuiv LevelParameteriv LevelParameterfv Image"

# name -> (selector, core command)
_COMMANDS: dict[str, tuple] = {}
for _ext, _core in {**_core_names("Texture", "Tex", _TEX_SUFFIXES),
                    **_core_names("Texture", "Tex", "Storage1D Storage2D Storage3D Storage2DMultisample "
                                                    "Storage3DMultisample Buffer BufferRange"),
                    **_core_names("CompressedTexture", "CompressedTex",
                                  "Image1D Image2D Image3D SubImage1D SubImage2D SubImage3D"),
                    **_core_names("CopyTexture", "CopyTex", "Image1D Image2D SubImage1D SubImage2D SubImage3D"),
                    **_core_names("GetTexture", "GetTex", _GET_TEX_SUFFIXES),
                    "glGetCompressedTextureImageEXT": "glGetCompressedTexImage",
                    "glGenerateTextureMipmapEXT": "glGenerateMipmap"}.items():
    _COMMANDS[_ext] = (_by_texture, _core)
for _ext, _core in {**_core_names("MultiTex", "Tex", _TEX_SUFFIXES),
                    **_core_names("MultiTex", "Tex", "Envf Envfv Envi Enviv Gend Gendv Genf Genfv Geni Geniv "
                                                     "Buffer"),
                    **_core_names("CompressedMultiTex", "CompressedTex",
                                  "Image1D Image2D Image3D SubImage1D SubImage2D SubImage3D"),
                    **_core_names("CopyMultiTex", "CopyTex", "Image1D Image2D SubImage1D SubImage2D SubImage3D"),
                    **_core_names("GetMultiTex", "GetTex", _GET_TEX_SUFFIXES + " Envfv Enviv Gendv Genfv Geniv"),
                    "glGetCompressedMultiTexImageEXT": "glGetCompressedTexImage",
                    "glGenerateMultiTexMipmapEXT": "glGenerateMipmap",
                    "glBindMultiTextureEXT": "glBindTexture"}.items():
    _COMMANDS[_ext] = (_by_unit, _core)
_COMMANDS["glMultiTexCoordPointerEXT"] = (_by_client_unit, "glTexCoordPointer")
for _n, _core in {"Loadf": "glLoadMatrixf", "Loadd": "glLoadMatrixd", "Multf": "glMultMatrixf",
                  "Multd": "glMultMatrixd", "LoadTransposef": "glLoadTransposeMatrixf",
                  "LoadTransposed": "glLoadTransposeMatrixd", "MultTransposef": "glMultTransposeMatrixf",
                  "MultTransposed": "glMultTransposeMatrixd", "LoadIdentity": "glLoadIdentity",
                  "Rotatef": "glRotatef", "Rotated": "glRotated", "Scalef": "glScalef", "Scaled": "glScaled",
                  "Translatef": "glTranslatef", "Translated": "glTranslated", "Frustum": "glFrustum",
                  "Ortho": "glOrtho", "Push": "glPushMatrix", "Pop": "glPopMatrix"}.items():
    _COMMANDS[f"glMatrix{_n}EXT"] = (_by_matrix, _core)
for _ext, _core in {"glNamedBufferDataEXT": "glBufferData", "glNamedBufferSubDataEXT": "glBufferSubData",
                    "glGetNamedBufferSubDataEXT": "glGetBufferSubData", "glMapNamedBufferEXT": "glMapBuffer",
                    "glMapNamedBufferRangeEXT": "glMapBufferRange", "glUnmapNamedBufferEXT": "glUnmapBuffer",
                    "glFlushMappedNamedBufferRangeEXT": "glFlushMappedBufferRange",
                    "glGetNamedBufferParameterivEXT": "glGetBufferParameteriv",
                    "glGetNamedBufferPointervEXT": "glGetBufferPointerv",
                    "glClearNamedBufferDataEXT": "glClearBufferData",
                    "glClearNamedBufferSubDataEXT": "glClearBufferSubData"}.items():
    _COMMANDS[_ext] = (_by_buffer, _core)
for _ext, _core in {"glNamedFramebufferTexture1DEXT": "glFramebufferTexture1D",
                    "glNamedFramebufferTexture2DEXT": "glFramebufferTexture2D",
                    "glNamedFramebufferTexture3DEXT": "glFramebufferTexture3D",
                    "glNamedFramebufferTextureEXT": "glFramebufferTexture",
                    "glNamedFramebufferTextureLayerEXT": "glFramebufferTextureLayer",
                    "glNamedFramebufferRenderbufferEXT": "glFramebufferRenderbuffer",
                    "glGetNamedFramebufferAttachmentParameterivEXT": "glGetFramebufferAttachmentParameteriv",
                    "glNamedFramebufferParameteriEXT": "glFramebufferParameteri",
                    "glGetNamedFramebufferParameterivEXT": "glGetFramebufferParameteriv"}.items():
    _COMMANDS[_ext] = (_by_framebuffer, _core)
# "the same value GetIntegerv would return [...] as if the framebuffer had been bound with
# BindFramebuffer": draw and read
_COMMANDS["glGetFramebufferParameterivEXT"] = (_by_framebuffer_bound, "glGetIntegerv")
_COMMANDS["glFramebufferDrawBufferEXT"] = (_by_framebuffer_no_target, "glDrawBuffer")
_COMMANDS["glFramebufferDrawBuffersEXT"] = (_by_framebuffer_no_target, "glDrawBuffers")
_COMMANDS["glFramebufferReadBufferEXT"] = (_by_read_framebuffer, "glReadBuffer")
for _ext, _core in {"glNamedRenderbufferStorageEXT": "glRenderbufferStorage",
                    "glNamedRenderbufferStorageMultisampleEXT": "glRenderbufferStorageMultisample",
                    "glGetNamedRenderbufferParameterivEXT": "glGetRenderbufferParameteriv"}.items():
    _COMMANDS[_ext] = (_by_renderbuffer, _core)
for _ext, _core in {"glNamedProgramStringEXT": "glProgramStringARB",
                    "glNamedProgramLocalParameter4fEXT": "glProgramLocalParameter4fARB",
                    "glNamedProgramLocalParameter4fvEXT": "glProgramLocalParameter4fvARB",
                    "glNamedProgramLocalParameters4fvEXT": "glProgramLocalParameters4fvEXT",
                    "glNamedProgramLocalParameter4dEXT": "glProgramLocalParameter4dARB",
                    "glNamedProgramLocalParameter4dvEXT": "glProgramLocalParameter4dvARB",
                    "glGetNamedProgramLocalParameterfvEXT": "glGetProgramLocalParameterfvARB",
                    "glGetNamedProgramLocalParameterdvEXT": "glGetProgramLocalParameterdvARB",
                    "glGetNamedProgramStringEXT": "glGetProgramStringARB"}.items():
    _COMMANDS[_ext] = (_by_program, _core)
_COMMANDS["glGetNamedProgramivEXT"] = (_by_program_query, "glGetProgramivARB")
for _ext, _core in {"glEnableVertexArrayAttribEXT": "glEnableVertexAttribArray",
                    "glDisableVertexArrayAttribEXT": "glDisableVertexAttribArray",
                    "glVertexArrayVertexAttribFormatEXT": "glVertexAttribFormat",
                    "glVertexArrayVertexAttribIFormatEXT": "glVertexAttribIFormat",
                    "glVertexArrayVertexAttribLFormatEXT": "glVertexAttribLFormat",
                    "glVertexArrayVertexAttribBindingEXT": "glVertexAttribBinding",
                    "glVertexArrayVertexBindingDivisorEXT": "glVertexBindingDivisor",
                    "glVertexArrayVertexAttribDivisorEXT": "glVertexAttribDivisor",
                    "glVertexArrayBindVertexBufferEXT": "glBindVertexBuffer"}.items():
    _COMMANDS[_ext] = (_by_vao, _core)
EXT_DSA_COMMANDS = tuple(sorted(_COMMANDS))
# the C ABI's marshalling of a table command is its core command's, with this many
# leading selector arguments in front (0: the object name takes the core's target's place)
_LEADING = {_by_texture: 1, _by_unit: 1, _by_client_unit: 1, _by_matrix: 1, _by_buffer: 0, _by_framebuffer: 0,
            _by_framebuffer_no_target: 1, _by_framebuffer_bound: 1, _by_read_framebuffer: 1, _by_renderbuffer: 0,
            _by_program: 1, _by_program_query: 1, _by_vao: 1}
EXT_DSA_MARSHAL = {name: (core, _LEADING[selector]) for name, (selector, core) in _COMMANDS.items()}


def selector_error(ctx, name: str, args) -> GLError | None:
    """The error EXT command ``name`` of the table gives on its selector arguments
    (``args``: the command's own) before its core command runs: a target or texture
    unit out of range, a texture of another target, buffer 0. Found without binding
    anything, so that the C ABI need not read a failing call's client memory (a C
    driver validates first; piglit's textures test hands a freed image to a
    glTextureImage2DEXT that fails on its target). None: the selector is fine, or the
    command is compiled into a display list (which checks nothing now)."""
    if ctx._list_compiling is not None and ctx._list_compiling[1] == E.GL_COMPILE:
        return None
    selector = _COMMANDS[name][0]
    try:
        if selector is _by_texture:
            texture, target = args[0], args[1]
            bind_target = E.GL_TEXTURE_CUBE_MAP if target in _CUBE_FACES else target
            check(bind_target in _TEXTURE_BINDINGS, E.GL_INVALID_ENUM, f"bad texture target {target:#x}")
            check(texture == 0 or _TEXTURE_BINDINGS[bind_target] is not None, E.GL_INVALID_OPERATION,
                  "a proxy target takes texture 0")
            tex = ctx.textures.get(texture) if texture else None
            check(tex is None or tex.target in (0, bind_target), E.GL_INVALID_OPERATION,
                  "texture target mismatch")
        elif selector in (_by_unit, _by_client_unit):
            n = _units(ctx) if selector is _by_unit else ctx.limits["GL_MAX_TEXTURE_COORDS"]
            check(E.GL_TEXTURE0 <= args[0] < E.GL_TEXTURE0 + n, E.GL_INVALID_ENUM, f"bad texunit {args[0]:#x}")
        elif selector is _by_buffer:
            check(args[0] != 0, E.GL_INVALID_OPERATION, "buffer 0 names no buffer object")
    except GLError as err:
        return err
    return None


def _make(name: str, selector, core: str):
    def command(self, *args, **kwargs):         # kwargs: the C ABI's (dest=, as the core's)
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        scope, core_args = selector(self, *args)
        with scope:
            return call(self, core, *core_args, **kwargs)
    command.__name__ = command.__qualname__ = name
    command.__doc__ = f"GL_EXT_direct_state_access: {core} on the named object or selector."
    return command


class ExtDirectStateAccessMixin:
    """The table's commands and those with their own shape."""

    # -- arrays of a vertex array object: the named buffer only for the array specified --
    def _vao_array(self, vaobj, buffer, core: str, *args, unit: int | None = None):
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        with _vao(self, vaobj), _binding(self, "glBindBuffer", E.GL_ARRAY_BUFFER, E.GL_ARRAY_BUFFER_BINDING,
                                         buffer), \
                (_client_unit(self, unit) if unit is not None else contextlib.nullcontext()):
            call(self, core, *args)

    def glVertexArrayVertexOffsetEXT(self, vaobj, buffer, size, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glVertexPointer", size, type, stride, offset)

    def glVertexArrayColorOffsetEXT(self, vaobj, buffer, size, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glColorPointer", size, type, stride, offset)

    def glVertexArraySecondaryColorOffsetEXT(self, vaobj, buffer, size, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glSecondaryColorPointer", size, type, stride, offset)

    def glVertexArrayTexCoordOffsetEXT(self, vaobj, buffer, size, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glTexCoordPointer", size, type, stride, offset)

    def glVertexArrayMultiTexCoordOffsetEXT(self, vaobj, buffer, texunit, size, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glTexCoordPointer", size, type, stride, offset, unit=texunit)

    def glVertexArrayNormalOffsetEXT(self, vaobj, buffer, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glNormalPointer", type, stride, offset)

    def glVertexArrayIndexOffsetEXT(self, vaobj, buffer, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glIndexPointer", type, stride, offset)

    def glVertexArrayFogCoordOffsetEXT(self, vaobj, buffer, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glFogCoordPointer", type, stride, offset)

    def glVertexArrayEdgeFlagOffsetEXT(self, vaobj, buffer, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glEdgeFlagPointer", stride, offset)

    def glVertexArrayVertexAttribOffsetEXT(self, vaobj, buffer, index, size, type, normalized, stride,
                                           offset) -> None:
        self._vao_array(vaobj, buffer, "glVertexAttribPointer", index, size, type, normalized, stride, offset)

    def glVertexArrayVertexAttribIOffsetEXT(self, vaobj, buffer, index, size, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glVertexAttribIPointer", index, size, type, stride, offset)

    def glVertexArrayVertexAttribLOffsetEXT(self, vaobj, buffer, index, size, type, stride, offset) -> None:
        self._vao_array(vaobj, buffer, "glVertexAttribLPointer", index, size, type, stride, offset)

    def _vao_client_state(self, vaobj, array, enable: bool) -> None:
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        with _vao(self, vaobj):
            if E.GL_TEXTURE0 <= array < E.GL_TEXTURE0 + self.limits["GL_MAX_TEXTURE_COORDS"]:  # unit i's coordinates
                with _client_unit(self, array):
                    call(self, "glEnableClientState" if enable else "glDisableClientState", E.GL_TEXTURE_COORD_ARRAY)
            else:
                call(self, "glEnableClientState" if enable else "glDisableClientState", array)

    def glEnableVertexArrayEXT(self, vaobj, array) -> None:
        self._vao_client_state(vaobj, array, True)

    def glDisableVertexArrayEXT(self, vaobj, array) -> None:
        self._vao_client_state(vaobj, array, False)

    def glGetVertexArrayIntegervEXT(self, vaobj, pname):
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        with _vao(self, vaobj):
            if pname in _ARRAY_POINTERS:    # a pointer as an integer (the address's low 32 bits, as Mesa's)
                r = call(self, "glGetPointerv", pname)
                address = r if isinstance(r, int) else int(getattr(r, "base", 0) or 0)
                return [(address + (1 << 31)) % (1 << 32) - (1 << 31)]
            return call(self, "glGetIntegerv", pname)

    def glGetVertexArrayPointervEXT(self, vaobj, pname):
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        with _vao(self, vaobj):
            return call(self, "glGetPointerv", pname)

    def glGetVertexArrayIntegeri_vEXT(self, vaobj, index, pname):
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        with _vao(self, vaobj):
            if pname == E.GL_TEXTURE_COORD_ARRAY_COUNT_EXT or pname in _CLIENT_UNIT_QUERIES:
                with _client_unit(self, E.GL_TEXTURE0 + index):
                    return call(self, "glGetIntegerv", pname)
            return call(self, "glGetVertexAttribiv", index, pname)

    def glGetVertexArrayPointeri_vEXT(self, vaobj, index, pname):
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        with _vao(self, vaobj):
            if pname == E.GL_TEXTURE_COORD_ARRAY_POINTER:
                with _client_unit(self, E.GL_TEXTURE0 + index):
                    return call(self, "glGetPointerv", pname)
            return call(self, "glGetVertexAttribPointerv", index, pname)

    # -- indexed client state and queries -------------------------------------------------
    def glEnableClientStateIndexedEXT(self, array, index) -> None:
        self._client_state_indexed(array, index, True)

    def glDisableClientStateIndexedEXT(self, array, index) -> None:
        self._client_state_indexed(array, index, False)

    glEnableClientStateiEXT = glEnableClientStateIndexedEXT
    glDisableClientStateiEXT = glDisableClientStateIndexedEXT

    def _client_state_indexed(self, array, index, enable: bool) -> None:
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        check(array == E.GL_TEXTURE_COORD_ARRAY, E.GL_INVALID_ENUM, "only TEXTURE_COORD_ARRAY is indexed")
        with _client_unit(self, E.GL_TEXTURE0 + index):
            call(self, "glEnableClientState" if enable else "glDisableClientState", array)

    def glGetPointerIndexedvEXT(self, target, index):
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        check(target == E.GL_TEXTURE_COORD_ARRAY_POINTER, E.GL_INVALID_ENUM, f"bad pname {target:#x}")
        with _client_unit(self, E.GL_TEXTURE0 + index):
            return call(self, "glGetPointerv", target)

    glGetPointeri_vEXT = glGetPointerIndexedvEXT

    # -- client attributes ----------------------------------------------------------------
    def glClientAttribDefaultEXT(self, mask) -> None:
        """Reset the client attribute groups of ``mask`` to their initial values."""
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        self._client_attrib_default(mask)

    def _client_attrib_default(self, mask) -> None:
        if mask & E.GL_CLIENT_PIXEL_STORE_BIT:
            for pname, value in _PIXEL_STORE_DEFAULTS:
                call(self, "glPixelStorei", pname, value)
        if mask & E.GL_CLIENT_VERTEX_ARRAY_BIT:
            call(self, "glBindVertexArray", 0)
            for array in _CLIENT_ARRAYS:
                call(self, "glDisableClientState", array)
            for unit in range(self.limits["GL_MAX_TEXTURE_COORDS"]):
                with _client_unit(self, E.GL_TEXTURE0 + unit):
                    call(self, "glDisableClientState", E.GL_TEXTURE_COORD_ARRAY)
            for index in range(self.limits["GL_MAX_VERTEX_ATTRIBS"]):
                call(self, "glDisableVertexAttribArray", index)
            call(self, "glClientActiveTexture", E.GL_TEXTURE0)
            call(self, "glBindBuffer", E.GL_ARRAY_BUFFER, 0)

    def glPushClientAttribDefaultEXT(self, mask) -> None:
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        call(self, "glPushClientAttrib", mask)
        self._client_attrib_default(mask)

    def glCheckNamedFramebufferStatusEXT(self, framebuffer, target):
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        check(target in (E.GL_FRAMEBUFFER, E.GL_DRAW_FRAMEBUFFER, E.GL_READ_FRAMEBUFFER), E.GL_INVALID_ENUM,
              f"bad framebuffer target {target:#x}")
        t = E.GL_READ_FRAMEBUFFER if target == E.GL_READ_FRAMEBUFFER else E.GL_DRAW_FRAMEBUFFER
        with _framebuffer(self, framebuffer, t):
            return call(self, "glCheckFramebufferStatus", t)

    def glNamedCopyBufferSubDataEXT(self, readBuffer, writeBuffer, readOffset, writeOffset, size) -> None:
        check(self.api.has_extension("GL_EXT_direct_state_access"), E.GL_INVALID_OPERATION,
              "no GL_EXT_direct_state_access")
        check(readBuffer != 0 and writeBuffer != 0, E.GL_INVALID_OPERATION, "buffer 0 names no buffer object")
        with _binding(self, "glBindBuffer", E.GL_COPY_READ_BUFFER, E.GL_COPY_READ_BUFFER_BINDING, readBuffer), \
                _binding(self, "glBindBuffer", E.GL_COPY_WRITE_BUFFER, E.GL_COPY_WRITE_BUFFER_BINDING, writeBuffer):
            call(self, "glCopyBufferSubData", E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER, readOffset,
                 writeOffset, size)

    # -- texture unit state through the indexed commands (EXT_dsa section "indexed texture state")
    def _unit_state(self, pname: int) -> str | None:
        """'unit' for state of the active texture unit, 'client' for the client
        active unit's arrays, None for other state (the core's indexed state)."""
        if not (self.api.compat and self.api.has_extension("GL_EXT_direct_state_access")):
            return None
        if pname in _CLIENT_UNIT_STATE:
            return "client"
        return "unit" if pname in _UNIT_STATE else None

    def _indexed(self, core, getter: str, pname: int, index: int):
        kind = self._unit_state(pname)
        if kind is None:
            return core(pname, index)
        check(0 <= index < self.limits["GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS"], E.GL_INVALID_VALUE,
              f"texture unit {index} out of range")
        with (_client_unit if kind == "client" else _unit)(self, E.GL_TEXTURE0 + index):
            return call(self, getter, pname)

    @extends
    def glGetFloati_v(self, core, target, index):
        return self._indexed(core, "glGetFloatv", target, index)

    @extends
    def glGetDoublei_v(self, core, target, index):
        return self._indexed(core, "glGetDoublev", target, index)

    @extends
    def glGetIntegeri_v(self, core, target, index):
        return self._indexed(core, "glGetIntegerv", target, index)

    @extends
    def glGetBooleani_v(self, core, target, index):
        return self._indexed(core, "glGetBooleanv", target, index)

    @extends
    def glEnablei(self, core, target, index) -> None:
        if self._unit_state(target) is None:
            return core(target, index)
        with _unit(self, E.GL_TEXTURE0 + index):
            call(self, "glEnable", target)

    @extends
    def glDisablei(self, core, target, index) -> None:
        if self._unit_state(target) is None:
            return core(target, index)
        with _unit(self, E.GL_TEXTURE0 + index):
            call(self, "glDisable", target)

    @extends
    def glIsEnabledi(self, core, target, index):
        if self._unit_state(target) is None:
            return core(target, index)
        with _unit(self, E.GL_TEXTURE0 + index):
            return call(self, "glIsEnabled", target)

    def glTextureRenderbufferEXT(self, texture, target, renderbuffer) -> None:
        raise GLError(E.GL_INVALID_OPERATION, "NV_texture_renderbuffer: not supported")

    def glMultiTexRenderbufferEXT(self, texunit, target, renderbuffer) -> None:
        raise GLError(E.GL_INVALID_OPERATION, "NV_texture_renderbuffer: not supported")

    def glNamedFramebufferTextureFaceEXT(self, framebuffer, attachment, texture, level, face) -> None:
        raise GLError(E.GL_INVALID_OPERATION, "NV_geometry_program4: not supported")


# the state of a texture unit (GL 2.1 tables 6.19-6.22) and of a client texture unit
_UNIT_STATE = frozenset((
    E.GL_TEXTURE_1D, E.GL_TEXTURE_2D, E.GL_TEXTURE_3D, E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_RECTANGLE,
    E.GL_TEXTURE_BINDING_1D, E.GL_TEXTURE_BINDING_2D, E.GL_TEXTURE_BINDING_3D, E.GL_TEXTURE_BINDING_CUBE_MAP,
    E.GL_TEXTURE_BINDING_RECTANGLE, E.GL_TEXTURE_BINDING_1D_ARRAY, E.GL_TEXTURE_BINDING_2D_ARRAY,
    E.GL_TEXTURE_BINDING_CUBE_MAP_ARRAY, E.GL_TEXTURE_BINDING_BUFFER, E.GL_TEXTURE_GEN_S, E.GL_TEXTURE_GEN_T,
    E.GL_TEXTURE_GEN_R, E.GL_TEXTURE_GEN_Q, E.GL_TEXTURE_MATRIX, E.GL_TRANSPOSE_TEXTURE_MATRIX,
    E.GL_TEXTURE_STACK_DEPTH, E.GL_CURRENT_TEXTURE_COORDS, E.GL_CURRENT_RASTER_TEXTURE_COORDS,
    E.GL_SAMPLER_BINDING))
_CLIENT_UNIT_STATE = frozenset((E.GL_TEXTURE_COORD_ARRAY, E.GL_TEXTURE_COORD_ARRAY_SIZE,
                                E.GL_TEXTURE_COORD_ARRAY_TYPE, E.GL_TEXTURE_COORD_ARRAY_STRIDE,
                                E.GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, E.GL_TEXTURE_COORD_ARRAY_COUNT_EXT))
_CLIENT_UNIT_QUERIES = (E.GL_TEXTURE_COORD_ARRAY, E.GL_TEXTURE_COORD_ARRAY_SIZE, E.GL_TEXTURE_COORD_ARRAY_TYPE,
                        E.GL_TEXTURE_COORD_ARRAY_STRIDE, E.GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING)
_ARRAY_POINTERS = frozenset((E.GL_VERTEX_ARRAY_POINTER, E.GL_NORMAL_ARRAY_POINTER, E.GL_COLOR_ARRAY_POINTER,
                             E.GL_INDEX_ARRAY_POINTER, E.GL_TEXTURE_COORD_ARRAY_POINTER, E.GL_EDGE_FLAG_ARRAY_POINTER,
                             E.GL_FOG_COORD_ARRAY_POINTER, E.GL_SECONDARY_COLOR_ARRAY_POINTER))
_CLIENT_ARRAYS = (E.GL_VERTEX_ARRAY, E.GL_NORMAL_ARRAY, E.GL_COLOR_ARRAY, E.GL_INDEX_ARRAY, E.GL_EDGE_FLAG_ARRAY,
                  E.GL_FOG_COORD_ARRAY, E.GL_SECONDARY_COLOR_ARRAY)
_PIXEL_STORE_DEFAULTS = tuple((getattr(E, f"GL_{d}_{p}"), v) for d in ("PACK", "UNPACK")
                              for p, v in (("SWAP_BYTES", 0), ("LSB_FIRST", 0), ("ROW_LENGTH", 0),
                                           ("SKIP_ROWS", 0), ("SKIP_PIXELS", 0), ("ALIGNMENT", 4),
                                           ("IMAGE_HEIGHT", 0), ("SKIP_IMAGES", 0)))

for _name, (_selector, _core) in _COMMANDS.items():
    assert not hasattr(ExtDirectStateAccessMixin, _name), _name
    setattr(ExtDirectStateAccessMixin, _name, _make(_name, _selector, _core))


# The ARB_gpu_shader_fp64 interaction: glProgramUniform*dEXT, the double glProgramUniform*
# (not the registry's aliases of them, unlike the float ones); their C marshalling is
# the registry's own (sized by count)
def _fp64_uniform(name: str, core: str):
    def command(self, *args):
        check(self.api.has_extension("GL_EXT_direct_state_access") and
              self.api.has_extension("GL_ARB_gpu_shader_fp64"), E.GL_INVALID_OPERATION,
              "needs GL_EXT_direct_state_access and GL_ARB_gpu_shader_fp64")
        return call(self, core, *args)
    command.__name__ = command.__qualname__ = name
    command.__doc__ = f"GL_EXT_direct_state_access with GL_ARB_gpu_shader_fp64: {core}."
    return command


for _suffix in ("1d 2d 3d 4d 1dv 2dv 3dv 4dv Matrix2dv Matrix3dv Matrix4dv Matrix2x3dv Matrix2x4dv Matrix3x2dv "
                "Matrix3x4dv Matrix4x2dv Matrix4x3dv").split():
    setattr(ExtDirectStateAccessMixin, f"glProgramUniform{_suffix}EXT",
            _fp64_uniform(f"glProgramUniform{_suffix}EXT", f"glProgramUniform{_suffix}"))


# Interactions with extensions no context lists: the registry lists these commands with
# GL_EXT_direct_state_access itself, so the context has them, and each refuses with
# INVALID_OPERATION (what Mesa's dispatch answers for a command of an extension it lacks)
def _without(name: str, extension: str):
    def command(self, *args):
        check(False, E.GL_INVALID_OPERATION, f"{name} needs {extension}, which this context does not have")
    command.__name__ = command.__qualname__ = name
    command.__doc__ = f"GL_EXT_direct_state_access with {extension} (not listed): INVALID_OPERATION."
    return command


for _extension, _names in (
        ("GL_NV_gpu_program4", "glGetNamedProgramLocalParameterIivEXT glGetNamedProgramLocalParameterIuivEXT "
                               "glNamedProgramLocalParameterI4iEXT glNamedProgramLocalParameterI4ivEXT "
                               "glNamedProgramLocalParameterI4uiEXT glNamedProgramLocalParameterI4uivEXT "
                               "glNamedProgramLocalParametersI4ivEXT glNamedProgramLocalParametersI4uivEXT"),
        ("GL_NV_framebuffer_multisample_coverage", "glNamedRenderbufferStorageMultisampleCoverageEXT"),
        ("GL_ARB_sparse_texture", "glTexturePageCommitmentEXT")):
    for _name in _names.split():
        assert not hasattr(ExtDirectStateAccessMixin, _name), _name
        setattr(ExtDirectStateAccessMixin, _name, _without(_name, _extension))
