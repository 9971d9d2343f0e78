"""C pointers <-> the GL front end's Python calling convention.

The generated driver/abi/_commands.py calls these helpers (as `M.*`) for each
argument, following the registry's parameter types and `len` attributes;
OVERRIDES holds the commands whose convention no rule captures (several outputs
in another order, pointers handed out, pixel packing).

Every helper accepts cffi cdata for pointers; NULL reads as None."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from driver.gl import enums as E
from driver.gl.errors import GLError
from driver.gl.pixels import image_size_B
from driver.gl.pointers import ClientBytes

__all__ = ["OVERRIDES", "CompiledOnFirstUse", "bind"]

ffi = None
NULL = None
_cstr_cache: dict[str, object] = {}
_mapped: dict[tuple[int, int], object] = {}   # (context id, buffer target) -> cdata keeping a map alive


def bind(the_ffi) -> None:
    global ffi, NULL
    ffi = the_ffi
    NULL = ffi.NULL


class CompiledOnFirstUse:
    """name -> the function ``sources[name]`` defines (``def name(ctx, *c_args)``),
    compiled when first asked for: the generated marshalling of every command
    (driver/abi/_commands.py) is kept as source text, of which a program uses a
    few dozen. The functions see this module as ``M``. A read-only mapping."""

    def __init__(self, sources: dict[str, str], filename: str):
        self._sources = sources
        self._filename = filename
        self._functions: dict[str, object] = {}

    def get(self, name: str, default=None):
        fn = self._functions.get(name)
        if fn is None:
            source = self._sources.get(name)
            if source is None:
                return default
            namespace = {"M": _this_module()}
            # a file name of its own, whose text linecache holds: tracebacks and
            # inspect.getsource show the generated function
            import linecache
            filename = f"{self._filename}:{name}"
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            exec(compile(source, filename, "exec"), namespace)
            fn = self._functions[name] = namespace[name]
        return fn

    def __getitem__(self, name: str):
        fn = self.get(name)
        if fn is None:
            raise KeyError(name)
        return fn

    def __contains__(self, name) -> bool:
        return name in self._sources

    def source(self, name: str) -> str:
        """The generated source text of ``name``'s marshalling (``inspect.getsource``
        cannot find it: the functions are compiled from these strings)."""
        return self._sources[name]

    def __iter__(self):
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)

    def keys(self):
        return self._sources.keys()


def _this_module():
    import sys
    return sys.modules[__name__]


# -- scalars and handles ----------------------------------------------------------
def handle(p) -> int:
    return int(ffi.cast("uintptr_t", p))


def to_handle(value, c_type: str):
    return ffi.cast(c_type, int(value or 0))


def to_pointer(value):
    if value is None:
        return NULL
    if isinstance(value, int):
        return ffi.cast("void *", value)
    return value


def boolean(value) -> int:
    return 1 if value else 0


def number(value):
    return 0 if value is None else value


def cstr(value):
    """A C string that stays valid for the life of the process (glGetString)."""
    if value is None:
        return NULL
    c = _cstr_cache.get(value)
    if c is None:
        c = _cstr_cache[value] = ffi.new("char[]", value.encode())
    return c


# -- inputs -----------------------------------------------------------------------
def addr(p) -> int | None:
    return None if p == NULL else int(ffi.cast("uintptr_t", p))


def str_in(p, length=None) -> str | None:
    if p == NULL:
        return None
    p = ffi.cast("char *", p)
    raw = ffi.string(p) if length is None or length < 0 else ffi.buffer(p, length)[:]
    return raw.decode("utf-8", "replace")


class ClientStrings(Sequence):
    """The ``count`` strings of a ``const GLchar *const *`` array, read from client memory
    when the command first looks at them: a command checks its other arguments first
    (glShaderSource of a name that is no shader is INVALID_VALUE, of a program
    INVALID_OPERATION), and then the array may be anything (piglit's shadersource-errors
    passes a string's address; Mesa reads nothing). Valid during the call only: a
    command keeps what it read, never this object."""

    def __init__(self, p, count: int, lengths) -> None:
        self._p, self._count, self._lengths = p, count, lengths
        self._strings: list[str] | None = None

    def _read(self) -> list[str]:
        if self._strings is None:
            arr = ffi.cast("char **", self._p)
            lens = None if self._lengths == NULL else ffi.cast("GLint *", self._lengths)
            self._strings = [str_in(arr[i], -1 if lens is None else lens[i]) or ""
                             for i in range(self._count)]
        return self._strings

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i):
        return self._read()[i]


def strs_in(p, count, lengths) -> Sequence[str]:
    if p == NULL or count <= 0:
        return []
    return ClientStrings(p, count, lengths)


def bytes_in(p, size) -> bytes | None:
    """The ``size`` bytes at ``p``, copied, knowing their address (``ClientBytes``)."""
    if p == NULL:
        return None
    out = ClientBytes(ffi.buffer(ffi.cast("char *", p), max(int(size), 0))[:])
    out.address = int(ffi.cast("uintptr_t", p))
    return out


def null_array(n) -> GLError:
    """A NULL pointer where the command reads n > 0 values: undefined in C (a crash in
    Mesa); here GL_INVALID_VALUE before the command runs, so nothing changes. The C
    entry (driver.abi.runtime) records it as the command's error."""
    return GLError(E.GL_INVALID_VALUE, f"NULL pointer for an array of {int(n)} values")


def ptrs_in(p, n) -> list:
    """n pointers (void *) at p, as arr_in reads values: [] when n <= 0."""
    if int(n) <= 0:
        return []
    if p == NULL:
        raise null_array(n)
    ptrs = ffi.cast("void **", p)
    return [ptrs[i] for i in range(int(n))]


def arr_in_or_null(p, c_type: str, n) -> list | None:
    """arr_in for the arrays GL gives a meaning to NULL (ARB_multi_bind: unbind the
    range): None for NULL."""
    return None if p == NULL and int(n) > 0 else arr_in(p, c_type, n)


def arr_in(p, c_type: str, n) -> list:
    """n values of c_type at p; an empty list when n <= 0 (NULL is then legal:
    glDeleteBuffers(0, NULL)); NULL with values expected is GL_INVALID_VALUE."""
    if int(n) <= 0:
        return []
    if p == NULL:
        raise null_array(n)
    return ffi.unpack(ffi.cast(c_type + " *", p), int(n))


# Values read by the pname-dependent *v setters (glTexParameterfv, glLightfv, ...).
_FOUR = {getattr(E, n) for n in (
    "GL_TEXTURE_BORDER_COLOR", "GL_AMBIENT", "GL_DIFFUSE", "GL_SPECULAR", "GL_EMISSION",
    "GL_POSITION", "GL_FOG_COLOR", "GL_TEXTURE_ENV_COLOR", "GL_LIGHT_MODEL_AMBIENT",
    "GL_AMBIENT_AND_DIFFUSE", "GL_TEXTURE_SWIZZLE_RGBA", "GL_OBJECT_PLANE", "GL_EYE_PLANE",
    "GL_COLOR",        # glClearBuffer{f,i,ui}v(GL_COLOR, ...)
    "GL_TEXTURE_CROP_RECT_OES",     # glTexParameteriv (OpenGL ES 1.1 OES_draw_texture)
) if hasattr(E, n)}
_THREE = {getattr(E, n) for n in ("GL_SPOT_DIRECTION", "GL_POINT_DISTANCE_ATTENUATION",
                                  "GL_COLOR_INDEXES") if hasattr(E, n)}
_FOUR |= {getattr(E, n) for n in ("GL_COLOR_TABLE_SCALE", "GL_COLOR_TABLE_BIAS",
                                   "GL_CONVOLUTION_BORDER_COLOR", "GL_CONVOLUTION_FILTER_SCALE",
                                   "GL_CONVOLUTION_FILTER_BIAS", "GL_PATCH_DEFAULT_OUTER_LEVEL")
          if hasattr(E, n)}
_TWO = {E.GL_PATCH_DEFAULT_INNER_LEVEL} if hasattr(E, "GL_PATCH_DEFAULT_INNER_LEVEL") else set()


def pname_count(pname) -> int:
    return 4 if pname in _FOUR else 3 if pname in _THREE else 2 if pname in _TWO else 1


def guess_count() -> int:
    return 1


def client_array(ctx, p):
    """glVertexAttribPointer & co.: a byte offset with an ARRAY_BUFFER bound,
    else client memory read through the raw address."""
    if ctx.buffer_bindings.get(E.GL_ARRAY_BUFFER) is not None or p == NULL:
        return handle(p)
    return _client_memory(p)


def client_indices(ctx, p):
    if ctx.vao.element_buffer is not None or p == NULL:
        return handle(p)
    return _client_memory(p)


def _client_memory(p):
    from driver.gl import ClientMemory
    base = handle(p)
    return ClientMemory(lambda at, n: ffi.buffer(ffi.cast("char *", at), n)[:], base)


#: GLES 2.0's HALF_FLOAT_OES (OES_texture_half_float) spans as many bytes as GL's HALF_FLOAT
_SIZED_AS = {0x8D61: E.GL_HALF_FLOAT}


def pixels_in(ctx, p, fmt, type_, width, height, depth=1):
    if ctx.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER) is not None:
        return handle(p)
    if p == NULL:
        return None
    try:
        n = image_size_B(ctx.state.unpack, fmt, _SIZED_AS.get(type_, type_), width, height, depth)
    except Exception:       # bad format/type: the front end reports the GL error
        n = 0
    return ffi.buffer(ffi.cast("char *", p), max(n, 0))[:]


# -- outputs ----------------------------------------------------------------------
def put(p, c_type: str, value, limit=None) -> int:
    """Write value (scalar, sequence, bytes or str) to the C array p; at most
    `limit` elements (for strings: limit - 1 chars + NUL). Returns the count
    written (chars without the NUL for strings)."""
    if p == NULL or value is None:
        return 0
    if isinstance(value, str):
        if limit is not None and limit <= 0:
            return 0
        raw = value.encode()
        if limit is not None:
            raw = raw[:limit - 1]
        ffi.memmove(ffi.cast("char *", p), raw + b"\0", len(raw) + 1)
        return len(raw)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        if limit is not None:
            raw = raw[:max(limit, 0)]
        ffi.memmove(ffi.cast("char *", p), raw, len(raw))
        return len(raw)
    if c_type in ("void", "GLvoid"):
        c_type = "GLint"
    if hasattr(value, "tolist"):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        value = [value]
    if limit is not None:
        value = value[:max(limit, 0)]
    arr = ffi.cast(c_type + " *", p)
    bounds = INT_RANGES.get(c_type)
    for i, v in enumerate(value):
        if c_type in HANDLE_C_TYPES:
            v = ffi.cast(c_type, int(v or 0))
        elif isinstance(v, bool):
            v = int(v)
        if bounds is not None and isinstance(v, int) and not bounds[0] <= v <= bounds[1]:
            # GL 4.6 section 2.2.2: an integer state value a query's type cannot
            # represent is clamped to the nearest representable value
            v = min(max(v, bounds[0]), bounds[1])
        arr[i] = v
    return len(value)


HANDLE_C_TYPES = {"GLsync", "void *"}
INT_RANGES = {}
for _names, _bits, _signed in ((("GLint", "GLsizei", "EGLint", "int", "GLfixed", "GLclampx"), 32, True),
                               (("GLuint", "GLenum", "GLbitfield"), 32, False),
                               (("GLint64", "GLint64EXT", "EGLAttrib"), 64, True),
                               (("GLuint64", "GLuint64EXT"), 64, False),
                               (("GLshort",), 16, True), (("GLushort",), 16, False),
                               (("GLbyte",), 8, True), (("GLubyte", "GLboolean"), 8, False)):
    for _n in _names:
        INT_RANGES[_n] = ((-(1 << (_bits - 1)), (1 << (_bits - 1)) - 1) if _signed
                          else (0, (1 << _bits) - 1))


def put_many(ptrs, c_types, values) -> None:
    if not isinstance(values, (tuple, list)) or len(values) != len(ptrs):
        values = (values,) + (None,) * (len(ptrs) - 1)
    for p, t, v in zip(ptrs, c_types, values):
        put(p, t, v)


# -- commands no rule captures ------------------------------------------------------
def _active(kind):
    def active(ctx, program, index, bufSize, length, size, type_, name):
        r = call(getattr(ctx, kind), (program, index), (bufSize,))
        if r is None:
            return
        n = put(name, "GLchar", r[0], bufSize)
        put(length, "GLsizei", n)
        put(size, "GLint", r[1])
        put(type_, "GLenum", r[2])
    return active


def glGetShaderPrecisionFormat(ctx, shadertype, precisiontype, range_, precision):
    r = ctx.glGetShaderPrecisionFormat(shadertype, precisiontype)
    if r is not None:
        put(range_, "GLint", r[0])
        put(precision, "GLint", r[1])


def glReadPixels(ctx, x, y, width, height, format_, type_, pixels):
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None:
        ctx.glReadPixels(x, y, width, height, format_, type_, handle(pixels))
        return
    dest = None
    if pixels != NULL:
        def dest(n):      # the client's memory, written in place (tight pack state, no conversion)
            return ffi.buffer(ffi.cast("char *", pixels), n)
    r = ctx.glReadPixels(x, y, width, height, format_, type_, dest=dest)
    if r is not None and pixels != NULL:
        ffi.memmove(ffi.cast("char *", pixels), r, len(r))


def glGetTexImage(ctx, target, level, format_, type_, pixels):
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None:
        ctx.glGetTexImage(target, level, format_, type_, handle(pixels))     # an offset into it
        return
    r = ctx.glGetTexImage(target, level, format_, type_)
    if r is not None and pixels != NULL:
        ffi.memmove(ffi.cast("char *", pixels), r, len(r))


def glGetTextureImage(ctx, texture, level, format_, type_, bufSize, pixels):
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None:
        ctx.glGetTextureImage(texture, level, format_, type_, bufSize, handle(pixels))
        return
    r = ctx.glGetTextureImage(texture, level, format_, type_, bufSize)
    if r is not None and pixels != NULL:
        ffi.memmove(ffi.cast("char *", pixels), r, len(r))


def glGetTextureSubImage(ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth, format_,
                         type_, bufSize, pixels):
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None:
        ctx.glGetTextureSubImage(texture, level, xoffset, yoffset, zoffset, width, height, depth, format_, type_,
                                 bufSize, handle(pixels))          # an offset into it
        return
    # the box is written into the client's memory in place: the bytes the pack state
    # skips (row length, image height, skips) keep what the program put there
    dest = None
    if pixels != NULL:
        def dest(n):
            return ffi.buffer(ffi.cast("char *", pixels), n)
    ctx.glGetTextureSubImage(texture, level, xoffset, yoffset, zoffset, width, height, depth, format_, type_,
                             bufSize, dest=dest)


def glReadnPixels(ctx, x, y, width, height, format_, type_, bufSize, data):
    # the front end's glReadnPixels (robustness) refuses a bufSize the image does not fit
    # (INVALID_OPERATION, nothing written); contexts without it read as glReadPixels
    read_n = getattr(ctx, "glReadnPixels", None)
    r = read_n(x, y, width, height, format_, type_, bufSize) if read_n is not None else \
        ctx.glReadPixels(x, y, width, height, format_, type_)
    if r is not None and data != NULL:
        raw = bytes(r)[:max(bufSize, 0)]
        ffi.memmove(ffi.cast("char *", data), raw, len(raw))


def _map(name):
    def map_buffer(ctx, target, *args):
        r = getattr(ctx, name)(target, *args)
        if r is None:
            return NULL
        c = ffi.from_buffer(r, require_writable=False)
        _mapped[_mapping_key(ctx, target)] = (c, r)
        return ffi.cast("void *", c)
    return map_buffer


def _unmap(name):
    def unmap_buffer(ctx, target):
        r = getattr(ctx, name)(target)
        _mapped.pop(_mapping_key(ctx, target), None)
        return boolean(r)
    return unmap_buffer


def glGetPointerv(ctx, pname, params):
    r = ctx.glGetPointerv(pname)
    put(params, "void *", _pointer_value(r))


def glGetVertexAttribPointerv(ctx, index, pname, pointer):
    r = ctx.glGetVertexAttribPointerv(index, pname)
    put(pointer, "void *", _pointer_value(r))


# GL_EXT_direct_state_access's pointer queries (not commands of its table: each has its
# own shape), answered as glGetPointerv is
def glGetPointerIndexedvEXT(ctx, target, index, data):
    put(data, "void *", _pointer_value(ctx.glGetPointerIndexedvEXT(target, index)))


def glGetPointeri_vEXT(ctx, pname, index, params):
    put(params, "void *", _pointer_value(ctx.glGetPointeri_vEXT(pname, index)))


def glGetVertexArrayPointervEXT(ctx, vaobj, pname, param):
    put(param, "void *", _pointer_value(ctx.glGetVertexArrayPointervEXT(vaobj, pname)))


def glGetVertexArrayPointeri_vEXT(ctx, vaobj, index, pname, param):
    put(param, "void *", _pointer_value(ctx.glGetVertexArrayPointeri_vEXT(vaobj, index, pname)))


def _pointer_value(r) -> int:
    if r is None:
        return 0
    if isinstance(r, int):
        return r
    return int(getattr(r, "base", 0) or 0)


def _buffer_pointer(name):
    def get_buffer_pointer(ctx, target, pname, params):
        """The address of the mapping the front end reports for the buffer bound
        to `target` (the memory the map command handed out), or NULL."""
        r = getattr(ctx, name)(target, pname)
        address = handle(ffi.from_buffer(r, require_writable=False)) if r is not None else 0
        put(params, "void *", address)
    return get_buffer_pointer


def glDebugMessageCallback(ctx, callback, userParam):
    """The front end calls a Python callable with the message as str; the C
    function gets it as a char * with its length and the C user pointer.
    `c_function`/`c_user` are what glGetPointerv hands back to C."""
    if callback == NULL:
        ctx.glDebugMessageCallback(None, None)
        return

    def deliver(source, type_, id_, severity, _length, message, _user):
        raw = message.encode() if isinstance(message, str) else bytes(message)
        callback(source, type_, id_, severity, len(raw), raw, userParam)
    deliver.c_function, deliver.c_user = callback, userParam
    ctx.glDebugMessageCallback(deliver, handle(userParam))


def glGetDebugMessageLog(ctx, count, bufSize, sources, types, ids, severities, lengths, messageLog):
    """The message text goes to messageLog only when it is given; then bufSize bounds it."""
    r = ctx.glGetDebugMessageLog(count, bufSize if messageLog != NULL else None)
    if r is None:
        return 0
    for ptr, c_type, column in zip((sources, types, ids, severities, lengths, messageLog),
                                   ("GLenum", "GLenum", "GLuint", "GLenum", "GLsizei", "GLchar"), r):
        put(ptr, c_type, column)
    return r.count


def glGetUniformIndices(ctx, program, count, names, indices):
    r = ctx.glGetUniformIndices(program, count, strs_in(names, count, NULL))
    put(indices, "GLuint", r, count)


def glMultiDrawArrays(ctx, mode, first, count, drawcount):
    ctx.glMultiDrawArrays(mode, arr_in(first, "GLint", drawcount),
                          arr_in(count, "GLsizei", drawcount), drawcount)


def glGetSynciv(ctx, sync, pname, count, length, values):
    r = ctx.glGetSynciv(handle(sync), pname)
    n = put(values, "GLint", r, count)
    put(length, "GLsizei", n)


def _element_in(p, format, type_):
    """The one element a clear command reads from client memory (GL 4.6 sections
    6.2.1 and 8.21: ``data`` holds a single texel or buffer element of ``format`` and
    ``type``; the unpack state and buffer do not apply). NULL stays None (zeros)."""
    if p == NULL:
        return None
    from driver.gl.state import PixelStore
    try:
        n = image_size_B(PixelStore(alignment=1), format, _SIZED_AS.get(type_, type_), 1, 1, 1)
    except Exception:       # bad format/type: the front end reports the GL error
        n = 0
    return bytes_in(p, n)


def glClearTexImage(ctx, texture, level, format, type_, data):
    ctx.glClearTexImage(texture, level, format, type_, _element_in(data, format, type_))


def glClearTexSubImage(ctx, texture, level, x, y, z, width, height, depth, format, type_, data):
    ctx.glClearTexSubImage(texture, level, x, y, z, width, height, depth, format, type_,
                           _element_in(data, format, type_))


def glClearBufferData(ctx, target, internalformat, format, type_, data):
    ctx.glClearBufferData(target, internalformat, format, type_, _element_in(data, format, type_))


def glClearBufferSubData(ctx, target, internalformat, offset, size, format, type_, data):
    ctx.glClearBufferSubData(target, internalformat, offset, size, format, type_, _element_in(data, format, type_))


def glClearNamedBufferData(ctx, buffer, internalformat, format, type_, data):
    ctx.glClearNamedBufferData(buffer, internalformat, format, type_, _element_in(data, format, type_))


def glClearNamedBufferSubData(ctx, buffer, internalformat, offset, size, format, type_, data):
    ctx.glClearNamedBufferSubData(buffer, internalformat, offset, size, format, type_,
                                  _element_in(data, format, type_))


OVERRIDES = {
    "glClearTexImage": glClearTexImage,
    "glClearTexSubImage": glClearTexSubImage,
    "glClearBufferData": glClearBufferData,
    "glClearBufferSubData": glClearBufferSubData,
    "glClearNamedBufferData": glClearNamedBufferData,
    "glClearNamedBufferSubData": glClearNamedBufferSubData,
    "glGetActiveUniform": _active("glGetActiveUniform"),
    "glGetActiveAttrib": _active("glGetActiveAttrib"),
    "glGetShaderPrecisionFormat": glGetShaderPrecisionFormat,
    "glReadPixels": glReadPixels,
    "glGetTexImage": glGetTexImage,
    "glGetTextureImage": glGetTextureImage,
    "glReadnPixels": glReadnPixels,
    "glGetTextureSubImage": glGetTextureSubImage,
    "glGetPointerv": glGetPointerv,
    "glGetVertexAttribPointerv": glGetVertexAttribPointerv,
    "glGetPointerIndexedvEXT": glGetPointerIndexedvEXT,
    "glGetPointeri_vEXT": glGetPointeri_vEXT,
    "glGetVertexArrayPointervEXT": glGetVertexArrayPointervEXT,
    "glGetVertexArrayPointeri_vEXT": glGetVertexArrayPointeri_vEXT,
    "glDebugMessageCallback": glDebugMessageCallback,
    "glGetDebugMessageLog": glGetDebugMessageLog,
    "glGetUniformIndices": glGetUniformIndices,
    "glMultiDrawArrays": glMultiDrawArrays,
    "glGetSynciv": glGetSynciv,
}


def _tf_varying(ctx, program, index, bufSize, length, size, type_, name):
    r = call(ctx.glGetTransformFeedbackVarying, (program, index), (bufSize,))
    if r is None:
        return
    n = put(name, "GLchar", r[0], bufSize)
    put(length, "GLsizei", n)
    put(size, "GLsizei", r[1])
    put(type_, "GLenum", r[2])


OVERRIDES["glGetTransformFeedbackVarying"] = _tf_varying

#: a bufSize no label reaches (labels are shorter than MAX_LABEL_LENGTH)
_WHOLE_LABEL = 1 << 30


def _put_label(method, ids: tuple, bufSize, length, label) -> None:
    """glGetObjectLabel / glGetObjectPtrLabel (and the KHR and EXT_debug_label
    aliases): KHR_debug gives the whole label's length in `length` when `label`
    is NULL (the generic output rule would give the 0 characters written)."""
    r = call(method, ids, (bufSize,))
    if r is None:
        return
    if label == NULL:
        put(length, "GLsizei", len(call(method, ids, (_WHOLE_LABEL,))))
    else:
        put(length, "GLsizei", put(label, "GLchar", r, bufSize))


def _get_object_label(name: str):
    def get(ctx, identifier, object_name, bufSize, length, label):
        _put_label(getattr(ctx, name), (identifier, object_name), bufSize, length, label)
    return get


def _get_object_ptr_label(name: str):
    def get(ctx, ptr, bufSize, length, label):
        _put_label(getattr(ctx, name), (addr(ptr),), bufSize, length, label)
    return get


OVERRIDES.update({n: _get_object_label(n) for n in ("glGetObjectLabel", "glGetObjectLabelKHR", "glGetObjectLabelEXT")})
OVERRIDES.update({n: _get_object_ptr_label(n) for n in ("glGetObjectPtrLabel", "glGetObjectPtrLabelKHR")})

# Mapping hands out addresses: glMapBuffer, glMapBufferRange, glUnmapBuffer,
# glGetBufferPointerv and their extension aliases (glMapBufferOES of
# OES_mapbuffer, glMapBufferARB, glMapBufferRangeEXT, ...), each calling the
# front end by its own name so that the alias's extension check applies.
_MAPPING = {"glMapBuffer": _map, "glMapBufferRange": _map, "glUnmapBuffer": _unmap,
            "glGetBufferPointerv": _buffer_pointer}


def _mapping_overrides() -> dict:
    from driver.gl.registry_aliases import ALIASES
    names = {core: [core] for core in _MAPPING}
    for alias, core in ALIASES.items():
        if core in names:
            names[core].append(alias)
    return {name: _MAPPING[core](name) for core, group in names.items() for name in group}


OVERRIDES.update(_mapping_overrides())


# -- legacy (compatibility profile) commands whose array sizes depend on state -------
_CALL_LISTS_B = {E.GL_BYTE: 1, E.GL_UNSIGNED_BYTE: 1, E.GL_SHORT: 2, E.GL_UNSIGNED_SHORT: 2,
                 E.GL_INT: 4, E.GL_UNSIGNED_INT: 4, E.GL_FLOAT: 4, E.GL_2_BYTES: 2,
                 E.GL_3_BYTES: 3, E.GL_4_BYTES: 4}
_MAP_COMPONENTS = {}
for _dim in (1, 2):
    for _suffix, _k in (("VERTEX_3", 3), ("VERTEX_4", 4), ("INDEX", 1), ("COLOR_4", 4),
                        ("NORMAL", 3), ("TEXTURE_COORD_1", 1), ("TEXTURE_COORD_2", 2),
                        ("TEXTURE_COORD_3", 3), ("TEXTURE_COORD_4", 4)):
        _MAP_COMPONENTS[getattr(E, f"GL_MAP{_dim}_{_suffix}")] = _k


def glCallLists(ctx, n, type_, lists):
    ctx.glCallLists(n, type_, bytes_in(lists, max(n, 0) * _CALL_LISTS_B.get(type_, 0)))


def _unpack_buffer_bound(ctx) -> bool:
    return ctx.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER) is not None


def _pack_buffer_bound(ctx) -> bool:
    return ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None


def glBitmap(ctx, width, height, xorig, yorig, xmove, ymove, bitmap):
    if _unpack_buffer_bound(ctx):        # an offset into the PIXEL_UNPACK buffer
        ctx.glBitmap(width, height, xorig, yorig, xmove, ymove, handle(bitmap))
        return
    size_B = image_size_B(ctx.state.unpack, E.GL_COLOR_INDEX, E.GL_BITMAP, width, height, 1) \
        if width > 0 and height > 0 else 0
    data = bytes_in(bitmap, size_B) if size_B else None
    ctx.glBitmap(width, height, xorig, yorig, xmove, ymove, data)


def glPolygonStipple(ctx, mask):
    ctx.glPolygonStipple(handle(mask) if _unpack_buffer_bound(ctx) else bytes_in(mask, 128))


def glGetPolygonStipple(ctx, mask):
    if _pack_buffer_bound(ctx):
        ctx.glGetPolygonStipple(handle(mask))
        return
    put(mask, "GLubyte", ctx.glGetPolygonStipple())


def _map1(name, c_type):
    def map1(ctx, target, u1, u2, stride, order, points):
        k = _MAP_COMPONENTS.get(target, 0)
        n = (order - 1) * stride + k if order > 0 and stride > 0 and k else 0
        getattr(ctx, name)(target, u1, u2, stride, order, arr_in(points, c_type, n))
    return map1


def _map2(name, c_type):
    def map2(ctx, target, u1, u2, ustride, uorder, v1, v2, vstride, vorder, points):
        k = _MAP_COMPONENTS.get(target, 0)
        ok = uorder > 0 and vorder > 0 and ustride > 0 and vstride > 0 and k
        n = (uorder - 1) * ustride + (vorder - 1) * vstride + k if ok else 0
        getattr(ctx, name)(target, u1, u2, ustride, uorder, v1, v2, vstride, vorder,
                           arr_in(points, c_type, n))
    return map2


def _multi_draw_elements(name):
    """glMultiDrawElements and its EXT alias: `indices` is an array of drawcount index
    pointers (offsets into the element buffer, or client arrays), each read as a draw's."""
    def multi_draw_elements(ctx, mode, count, type_, indices, drawcount):
        ptrs = ptrs_in(indices, drawcount)
        getattr(ctx, name)(mode, arr_in(count, "GLsizei", drawcount), type_,
                           [client_indices(ctx, p) for p in ptrs], drawcount)
    return multi_draw_elements


def strided_in(p, c_type: str, n, stride_B) -> list:
    """n values of c_type, value i at ``stride_B * i`` bytes past p
    (IBM_multimode_draw_arrays' modes); as arr_in for n <= 0 and NULL."""
    if int(n) <= 0:
        return []
    if p == NULL:
        raise null_array(n)
    base = ffi.cast("char *", p)
    return [ffi.cast(c_type + " *", base + i * int(stride_B))[0] for i in range(int(n))]


def glMultiModeDrawArraysIBM(ctx, mode, first, count, primcount, modestride):
    ctx.glMultiModeDrawArraysIBM(strided_in(mode, "GLenum", primcount, modestride), arr_in(first, "GLint", primcount),
                                 arr_in(count, "GLsizei", primcount), primcount, 4)


def glMultiModeDrawElementsIBM(ctx, mode, count, type_, indices, primcount, modestride):
    ptrs = ptrs_in(indices, primcount)
    ctx.glMultiModeDrawElementsIBM(strided_in(mode, "GLenum", primcount, modestride), arr_in(count, "GLsizei", primcount),
                                   type_, [client_indices(ctx, p) for p in ptrs], primcount, 4)


def _multi_draw_elements_base_vertex(name):
    def multi_draw_elements_base_vertex(ctx, mode, count, type_, indices, drawcount, basevertex):
        ptrs = ptrs_in(indices, drawcount)
        getattr(ctx, name)(mode, arr_in(count, "GLsizei", drawcount), type_,
                           [client_indices(ctx, p) for p in ptrs], drawcount,
                           arr_in(basevertex, "GLint", drawcount))
    return multi_draw_elements_base_vertex


def _pixel_map(name, c_type):
    """glPixelMap{f,ui,us}v: values are read only for a mapsize the context's
    GL_MAX_PIXEL_MAP_TABLE allows (a larger one is GL_INVALID_VALUE; the caller's array
    need not hold it)."""
    def pixel_map(ctx, map_, mapsize, values):
        if _unpack_buffer_bound(ctx):        # an offset into the PIXEL_UNPACK buffer
            getattr(ctx, name)(map_, mapsize, handle(values))
            return
        table = ctx._get_table.get(E.GL_MAX_PIXEL_MAP_TABLE)
        n = mapsize if table is not None and 0 < mapsize <= table(ctx) else 0
        getattr(ctx, name)(map_, mapsize, arr_in(values, c_type, n))
    return pixel_map


def _get_pixel_map(name, c_type):
    """glGetPixelMap{f,ui,us}v: the table into client memory, or at offset ``values`` of
    the PIXEL_PACK buffer when one is bound."""
    def get_pixel_map(ctx, map_, values):
        if _pack_buffer_bound(ctx):
            getattr(ctx, name)(map_, handle(values))
            return
        put(values, c_type, getattr(ctx, name)(map_))
    return get_pixel_map


def _writer(p, c_type: str, n):
    """A writer over the client array p of n elements, for buffers the
    context fills later (selection and feedback: at glRenderMode)."""
    if p == NULL:
        return None
    dtype = {"GLuint": "<u4", "GLfloat": "<f4"}[c_type]
    return lambda values: put(p, c_type, np.asarray(values, dtype)[:max(int(n), 0)].tobytes())


def glSelectBuffer(ctx, size, buffer):
    ctx.glSelectBuffer(size, _writer(buffer, "GLuint", size))


def glFeedbackBuffer(ctx, size, type_, buffer):
    ctx.glFeedbackBuffer(size, type_, _writer(buffer, "GLfloat", size))


# GL 4.6 sections 6.1.1, 8.1, 8.2, 8.26, 10.3.1 (ARB_multi_bind): a NULL array unbinds the
# range (for glBindBuffersRange and glBind/VertexArrayVertexBuffers the other arrays are
# then ignored)
def glBindBuffersBase(ctx, target, first, count, buffers):
    ctx.glBindBuffersBase(target, first, count, arr_in_or_null(buffers, "GLuint", count))


def glBindBuffersRange(ctx, target, first, count, buffers, offsets, sizes):
    names = arr_in_or_null(buffers, "GLuint", count)
    ctx.glBindBuffersRange(target, first, count, names,
                           None if names is None else arr_in(offsets, "GLintptr", count),
                           None if names is None else arr_in(sizes, "GLsizeiptr", count))


def glBindTextures(ctx, first, count, textures):
    ctx.glBindTextures(first, count, arr_in_or_null(textures, "GLuint", count))


def glBindSamplers(ctx, first, count, samplers):
    ctx.glBindSamplers(first, count, arr_in_or_null(samplers, "GLuint", count))


def glBindImageTextures(ctx, first, count, textures):
    ctx.glBindImageTextures(first, count, arr_in_or_null(textures, "GLuint", count))


def glBindVertexBuffers(ctx, first, count, buffers, offsets, strides):
    names = arr_in_or_null(buffers, "GLuint", count)
    ctx.glBindVertexBuffers(first, count, names,
                            None if names is None else arr_in(offsets, "GLintptr", count),
                            None if names is None else arr_in(strides, "GLsizei", count))


def glVertexArrayVertexBuffers(ctx, vaobj, first, count, buffers, offsets, strides):
    names = arr_in_or_null(buffers, "GLuint", count)
    ctx.glVertexArrayVertexBuffers(vaobj, first, count, names,
                                   None if names is None else arr_in(offsets, "GLintptr", count),
                                   None if names is None else arr_in(strides, "GLsizei", count))


OVERRIDES.update({
    "glBindBuffersBase": glBindBuffersBase, "glBindBuffersRange": glBindBuffersRange,
    "glBindTextures": glBindTextures, "glBindSamplers": glBindSamplers,
    "glBindImageTextures": glBindImageTextures,
    "glBindVertexBuffers": glBindVertexBuffers, "glVertexArrayVertexBuffers": glVertexArrayVertexBuffers,
})


# overrides that do not need a front-end method of the same name
STANDALONE = {"glReadnPixels"}

OVERRIDES.update({
    "glCallLists": glCallLists, "glBitmap": glBitmap, "glPolygonStipple": glPolygonStipple,
    "glMap1f": _map1("glMap1f", "GLfloat"), "glMap1d": _map1("glMap1d", "GLdouble"),
    "glMap2f": _map2("glMap2f", "GLfloat"), "glMap2d": _map2("glMap2d", "GLdouble"),
    "glMultiDrawElements": _multi_draw_elements("glMultiDrawElements"),
    "glMultiDrawElementsEXT": _multi_draw_elements("glMultiDrawElementsEXT"),
    "glMultiDrawElementsBaseVertex": _multi_draw_elements_base_vertex("glMultiDrawElementsBaseVertex"),
    "glMultiDrawElementsBaseVertexEXT": _multi_draw_elements_base_vertex("glMultiDrawElementsBaseVertexEXT"),
    "glPixelMapfv": _pixel_map("glPixelMapfv", "GLfloat"),
    "glPixelMapuiv": _pixel_map("glPixelMapuiv", "GLuint"),
    "glPixelMapusv": _pixel_map("glPixelMapusv", "GLushort"),
    "glGetPixelMapfv": _get_pixel_map("glGetPixelMapfv", "GLfloat"),
    "glGetPixelMapuiv": _get_pixel_map("glGetPixelMapuiv", "GLuint"),
    "glGetPixelMapusv": _get_pixel_map("glGetPixelMapusv", "GLushort"),
    "glGetPolygonStipple": glGetPolygonStipple,
    "glSelectBuffer": glSelectBuffer, "glFeedbackBuffer": glFeedbackBuffer,
    "glMultiModeDrawArraysIBM": glMultiModeDrawArraysIBM, "glMultiModeDrawElementsIBM": glMultiModeDrawElementsIBM,
})


_arity: dict[object, int] = {}


def call(method, args, extra):
    """Call a front-end method with `args`, plus `extra` (output sizes such as
    bufSize) when the method takes them."""
    probe = getattr(method, "arity_of", method)      # an EXT DSA command: its core method's
    fn = getattr(probe, "__func__", probe)
    n = _arity.get(fn)
    if n is None:
        import inspect
        try:
            params = list(inspect.signature(inspect.unwrap(fn)).parameters.values())
            n = sum(1 for p in params[1:] if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
            if any(p.kind == p.VAR_POSITIONAL for p in params):
                n = 1 << 30
        except (TypeError, ValueError):
            n = 1 << 30
        _arity[fn] = n
    return method(*args, *extra) if n >= len(args) + len(extra) else method(*args)


# -- ARB_query_buffer_object: with a buffer bound to GL_QUERY_BUFFER, the params
# pointer of glGetQueryObject*v is a byte offset into that buffer (the GPU writes
# the result there), not client memory
def _query_object(name, c_type):
    def get_query_object(ctx, id_, pname, params):
        if ctx.buffer_bindings.get(E.GL_QUERY_BUFFER) is not None:
            getattr(ctx, name)(id_, pname, handle(params))
            return
        put(params, c_type, getattr(ctx, name)(id_, pname))
    return get_query_object


OVERRIDES.update({
    "glGetQueryObjectiv": _query_object("glGetQueryObjectiv", "GLint"),
    "glGetQueryObjectuiv": _query_object("glGetQueryObjectuiv", "GLuint"),
    "glGetQueryObjecti64v": _query_object("glGetQueryObjecti64v", "GLint64"),
    "glGetQueryObjectui64v": _query_object("glGetQueryObjectui64v", "GLuint64"),
})


# -- the registry's aliases of overridden commands (glGetDebugMessageLogKHR and
# glDebugMessageCallbackKHR of GLES's KHR_debug, glGetSyncivAPPLE, ...): the same
# convention as their core command, calling the front end by the alias's own name
class _AliasContext:
    """The context an override sees when it runs for an alias: the core
    command's name reaches the alias method (whose extension check then
    applies); every other attribute is the context's own."""

    __slots__ = ("_ctx", "_core", "_alias")

    def __init__(self, ctx, core: str, alias: str):
        self._ctx, self._core, self._alias = ctx, core, alias

    def __getattr__(self, name):
        return getattr(self._ctx, self._alias if name == self._core else name)


def _alias_overrides() -> dict:
    from driver.gl.registry_aliases import ALIASES

    def for_alias(impl, core, alias):
        def run(ctx, *args):
            return impl(_AliasContext(ctx, core, alias), *args)
        run.__name__ = alias
        return run
    return {alias: for_alias(OVERRIDES[core], core, alias) for alias, core in ALIASES.items()
            if core in OVERRIDES and alias not in OVERRIDES}


def glGetCompressedTextureSubImage(ctx, texture, level, xoffset, yoffset, zoffset, width, height, depth,
                                   bufSize, pixels):
    """Into the pixel pack buffer at offset ``pixels``, or the client's memory in place
    (the pack state's compressed block may leave bytes between the rows alone)."""
    args = (texture, level, xoffset, yoffset, zoffset, width, height, depth, bufSize)
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None:
        ctx.glGetCompressedTextureSubImage(*args, handle(pixels))
        return
    if pixels == NULL:
        return
    ctx.glGetCompressedTextureSubImage(*args, dest=lambda n: ffi.buffer(ffi.cast("char *", pixels), n))


def _compressed_upload(name: str):
    """glCompressedTex(Sub)Image1D/2D/3D (data last): with a pixel unpack buffer the
    pointer is an offset into it; with the unpack state's compressed block set
    (ARB_compressed_texture_pixel_storage) the front end reads the client memory itself,
    as far as ROW_LENGTH and the skips lay the image out; else imageSize bytes."""
    def run(ctx, *args):
        # named as the C parameters (imageSize, data): the API fuzzer finds the pointer
        # parameters of an override by the names it hands to the pointer helpers
        *head, imageSize, data = args
        if ctx.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER) is not None:
            pixels = handle(data)
        elif data == NULL:
            pixels = None
        elif ctx.state.unpack.compressed_block_size and not ctx.api.es:
            pixels = _client_memory(data)
        else:
            pixels = bytes_in(data, imageSize)
        getattr(ctx, name)(*head, imageSize, pixels)
    run.__name__ = name
    return run


def glGetCompressedTexImage(ctx, target, level, img):
    """Written into the client's memory in place (the pack state may leave gaps between
    rows), or at offset ``img`` of the pixel pack buffer."""
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None:
        ctx.glGetCompressedTexImage(target, level, handle(img))
        return
    if img == NULL:
        return
    ctx.glGetCompressedTexImage(target, level, dest=lambda n: ffi.buffer(ffi.cast("char *", img), n))


OVERRIDES.update({name: _compressed_upload(name) for name in (
    "glCompressedTexImage1D", "glCompressedTexImage2D", "glCompressedTexImage3D",
    "glCompressedTexSubImage1D", "glCompressedTexSubImage2D", "glCompressedTexSubImage3D")})
OVERRIDES["glGetCompressedTexImage"] = glGetCompressedTexImage


def glGetCompressedTextureImage(ctx, texture, level, bufSize, pixels):
    """As glGetCompressedTextureSubImage: at offset ``pixels`` of the pixel pack buffer,
    or the client's memory in place."""
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is not None:
        ctx.glGetCompressedTextureImage(texture, level, bufSize, handle(pixels))
        return
    if pixels == NULL:
        return
    ctx.glGetCompressedTextureImage(texture, level, bufSize,
                                    dest=lambda n: ffi.buffer(ffi.cast("char *", pixels), n))


OVERRIDES["glGetCompressedTextureImage"] = glGetCompressedTextureImage
OVERRIDES["glGetCompressedTextureSubImage"] = glGetCompressedTextureSubImage
OVERRIDES.update(_alias_overrides())


# -- GL_EXT_direct_state_access: each command of the front end's table
# (driver.gl.legacy.ext_dsa.EXT_DSA_MARSHAL: name -> (core command, leading selector
# arguments)) is marshalled as its core command, whose pointers the registry sizes
# (most of the EXT's have no len). The leading arguments (texture, texunit, matrix mode,
# ARB program, vertex array object, a framebuffer without target) are held aside; with
# none, the object name stands in the core's target's place (buffers, framebuffers,
# renderbuffers). The core's marshalling then runs on a context whose core command is
# the EXT command with the leading arguments in front.
class _Selected:
    """The EXT command as the core command's marshalling calls it. ``arity_of``: the
    core method, whose parameters tell `call` whether it takes the output sizes."""

    __slots__ = ("_ext", "_leading", "arity_of")

    def __init__(self, ext, leading: tuple, core):
        self._ext, self._leading, self.arity_of = ext, leading, core

    def __call__(self, *args, **kwargs):
        return self._ext(*self._leading, *args, **kwargs)


class _SelectorContext:
    """The context a core command's marshalling sees when it runs for an EXT DSA
    command: its core command is the EXT command; every other attribute (the unpack
    state, the bound pixel buffers) is the context's own."""

    __slots__ = ("_ctx", "_core", "_ext", "_leading")

    def __init__(self, ctx, core: str, ext: str, leading: tuple):
        self._ctx, self._core, self._ext, self._leading = ctx, core, ext, leading

    def __getattr__(self, name):
        if name != self._core:
            return getattr(self._ctx, name)
        return _Selected(getattr(self._ctx, self._ext), self._leading, getattr(self._ctx, name))


def _mapping_key(ctx, target) -> tuple:
    """What keeps a mapping's memory alive is filed under: the context and the target
    (glMapBuffer), or the buffer (glMapNamedBufferEXT through its core command's
    marshalling)."""
    if isinstance(ctx, _SelectorContext):
        return id(ctx._ctx), "named", target
    return id(ctx), target


def _ext_dsa(ext: str, core: str, leading: int):
    def run(ctx, *args):
        from driver.gl.legacy.ext_dsa import selector_error
        if ctx.api.has_extension("GL_EXT_direct_state_access"):
            err = selector_error(ctx, ext, args)     # before any client memory is read
            if err is not None:
                raise err
        # the core command's marshalling from the generated table that called this one
        # (it imports this module: looked up, not imported, so the two make no cycle)
        impl = OVERRIDES.get(core) or sys.modules["driver.abi._commands"].MARSHAL[core]
        return impl(_SelectorContext(ctx, core, ext, args[:leading]), *args[leading:])
    run.__name__ = ext
    return run


def _ext_dsa_overrides() -> dict:
    from driver.gl.legacy.ext_dsa import EXT_DSA_MARSHAL
    return {ext: _ext_dsa(ext, core, leading) for ext, (core, leading) in EXT_DSA_MARSHAL.items()}


OVERRIDES.update(_ext_dsa_overrides())
