"""A GL API fuzzer: random call sequences with invalid and extreme arguments
through driver.Context, as a C program would make them.

Each call goes through the C ABI's generated marshalling function for the
command (driver/abi/_commands.py, MARSHAL) with the pointer helpers replaced by
`FakeMarshal`: the front end receives exactly the Python values a C caller's
arguments would become (arrays as long as the count says, NULL as None, byte
offsets as ints), without cffi or raw memory. Scalars are drawn by parameter
name from pools of valid enums, object names, small numbers and extremes
(negative, 2^31, 2^32 - 1, infinities, NaN).

Any Python exception that leaves an entry point is a bug: the spec names a GL
error for every bad argument. The front end's last-resort guard turns such an
exception into a GL error and counts it in `ctx.internal_errors`; the fuzzer
counts both (an exception that escapes, one the guard caught).

Run long: `python -m tests.fuzz.gl_fuzzer --calls 100000` (all APIs)."""

from __future__ import annotations

import argparse
import textwrap
import collections
import math
import os
import random
import sys
import time
import traceback
import types
from dataclasses import dataclass, field

from driver.gl import enums as E
from driver.gl.errors import GLError

APIS = ("gles1", "gles2", "gles3", "gles31", "gl33", "gl43", "compat")


class Skip(BaseException):
    """The harness cannot make this call as C would (it would need more client
    memory than the fuzzer provides): skip it. BaseException so that no
    `except Exception` in the driver swallows it."""


# -- value pools -------------------------------------------------------------------
_ALL_ENUMS = sorted({v for k, v in vars(E).items() if k.startswith("GL_") and isinstance(v, int)
                     and 0 <= v <= 0xFFFFFFFF})
_COMMON_ENUMS = [getattr(E, n) for n in (
    "GL_TEXTURE_2D", "GL_RGBA", "GL_FLOAT", "GL_ARRAY_BUFFER", "GL_ELEMENT_ARRAY_BUFFER",
    "GL_TRIANGLES", "GL_UNSIGNED_BYTE", "GL_UNSIGNED_SHORT", "GL_UNSIGNED_INT", "GL_RGBA8",
    "GL_FRAMEBUFFER", "GL_COLOR_ATTACHMENT0", "GL_DEPTH_ATTACHMENT", "GL_TEXTURE0",
    "GL_UNIFORM_BUFFER", "GL_TEXTURE_CUBE_MAP", "GL_RENDERBUFFER", "GL_TEXTURE_2D_ARRAY",
    "GL_DEPTH_COMPONENT24", "GL_TEXTURE_3D", "GL_R32UI", "GL_TEXTURE_MIN_FILTER", "GL_LINEAR",
    "GL_MAP_READ_BIT", "GL_STATIC_DRAW", "GL_READ_FRAMEBUFFER", "GL_DRAW_FRAMEBUFFER",
    "GL_COLOR_BUFFER_BIT", "GL_BLEND", "GL_POINTS", "GL_LINES", "GL_TRIANGLE_STRIP",
    "GL_TRANSFORM_FEEDBACK_BUFFER", "GL_SHADER_STORAGE_BUFFER", "GL_VERTEX_SHADER",
    "GL_FRAGMENT_SHADER", "GL_COMPUTE_SHADER", "GL_DEPTH_TEST", "GL_CULL_FACE", "GL_BACK",
    "GL_FRONT", "GL_FRONT_AND_BACK", "GL_DEPTH_COMPONENT", "GL_DEPTH_STENCIL", "GL_RED",
    "GL_RG", "GL_RGB", "GL_RGBA_INTEGER", "GL_DEPTH24_STENCIL8", "GL_R8", "GL_RGBA32F",
    "GL_CLIP_DISTANCE0", "GL_CLIP_DISTANCE1", "GL_SCISSOR_TEST", "GL_STENCIL_TEST",
    "GL_DRAW_INDIRECT_BUFFER", "GL_DISPATCH_INDIRECT_BUFFER", "GL_PIXEL_UNPACK_BUFFER",
    "GL_PIXEL_PACK_BUFFER", "GL_COPY_READ_BUFFER", "GL_COPY_WRITE_BUFFER", "GL_QUADS",
    "GL_POLYGON", "GL_BACK_LEFT", "GL_DEPTH", "GL_STENCIL", "GL_COLOR", "GL_NONE",
    "GL_TEXTURE_MAG_FILTER", "GL_TEXTURE_WRAP_S", "GL_REPEAT", "GL_NEAREST", "GL_SAMPLES_PASSED",
    "GL_ANY_SAMPLES_PASSED", "GL_TIME_ELAPSED", "GL_TIMESTAMP", "GL_SYNC_GPU_COMMANDS_COMPLETE",
    "GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES", "GL_MAX_SERVER_WAIT_TIMEOUT", "GL_RED_BITS",
    "GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE", "GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE",
    "GL_COMPILE_STATUS", "GL_LINK_STATUS", "GL_ACTIVE_UNIFORMS", "GL_INFO_LOG_LENGTH",
    "GL_UNIFORM", "GL_PROGRAM_INPUT", "GL_BUFFER_SIZE", "GL_TEXTURE_WIDTH", "GL_MODELVIEW",
    "GL_PROJECTION", "GL_TEXTURE", "GL_COMPILE", "GL_COMPILE_AND_EXECUTE", "GL_LIGHT0",
    "GL_LIGHTING", "GL_POSITION", "GL_AMBIENT", "GL_TEXTURE_ENV", "GL_FOG", "GL_MAP1_VERTEX_3",
    "GL_MAP2_VERTEX_3", "GL_SELECT", "GL_FEEDBACK", "GL_RENDER", "GL_INTERLEAVED_ATTRIBS",
    "GL_DEBUG_OUTPUT", "GL_DEBUG_SOURCE_APPLICATION", "GL_DEBUG_TYPE_MARKER",
) if hasattr(E, n)]
_INT_EXTREMES = [-1, -2, -(1 << 31), (1 << 31) - 1, (1 << 31) - 2, 1 << 30, 65535, 65536, 16384,
                 16385, 0x7FFF, 0xFFFF_FFFF - 0x7FFF_FFFF]
_U32_EXTREMES = [0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF, 1 << 24]
_I64_EXTREMES = [(1 << 63) - 1, -(1 << 63), 1 << 32, (1 << 31), 1 << 40, -1]
_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-45, 1e38, -1e38, 3.4e38, 1e300, -1e300,
           math.inf, -math.inf, math.nan, 255.0, 1 << 31, -(1 << 31), 7.5]

# parameter names (C) and what they hold
_FLOAT_PARAMS = {
    "near", "far", "factor", "units", "clamp", "angle", "xfactor", "yfactor", "xorig", "yorig",
    "xmove", "ymove", "token", "zNear", "zFar", "minX", "minY", "minZ", "minW", "maxX", "maxY",
    "maxZ", "maxW", "zmin", "zmax",
}
_FLOAT_COMMANDS = {"glClearColor", "glBlendColor", "glLineWidth", "glPointSize", "glPolygonOffset",
                   "glSampleCoverage", "glMinSampleShading", "glClearDepth", "glDepthRange",
                   "glOrtho", "glFrustum", "glPolygonOffsetClamp", "glAccum", "glClearAccum",
                   "glClearIndex", "glPassThrough", "glPixelZoom", "glBitmap", "glAlphaFunc",
                   "glPrimitiveBoundingBox", "glDepthRangeIndexed", "glViewportIndexedf",
                   "glClearDepthf", "glDepthRangef"}
_NAME_PARAMS = {"buffer", "texture", "program", "shader", "framebuffer", "renderbuffer", "sampler",
                "id", "list", "pipeline", "query", "array", "vaobj", "xfb", "origtexture",
                "srcName", "dstName", "readBuffer", "writeBuffer", "obj", "name_u", "unit",
                "readFramebuffer", "drawFramebuffer"}
# GLint / GLsizei parameters (C cannot pass 2^31 or more there)
_SIGNED_PARAMS = {"first", "count", "width", "height", "depth", "x", "y", "z", "level", "xoffset",
                  "yoffset", "zoffset", "stride", "basevertex", "drawcount", "samples", "border",
                  "location", "n", "bufSize", "imageSize", "primcount", "instancecount", "levels",
                  "range", "srcX0", "srcY0", "srcX1", "srcY1", "dstX0", "dstY0", "dstX1", "dstY1",
                  "srcX", "srcY", "srcZ", "dstX", "dstY", "dstZ", "srcWidth", "srcHeight",
                  "srcDepth", "left", "bottom", "param", "ref", "maxcount", "propCount", "num",
                  "numAttachments", "v0", "v1", "v2", "v3", "i", "j", "i1", "i2", "j1", "j2"}
_WIDE_PARAMS = {"size", "offset", "readOffset", "writeOffset", "timeout", "length_ptr",
                "indirect_ofs", "stride_ptr", "read_offset", "write_offset", "data_i64"}
_INT_COMMAND_PARAMS = {("glLineStipple", "factor")}
_WIDE_COMMANDS_PARAMS = {("glMapBufferRange", "length"), ("glFlushMappedBufferRange", "length"),
                         ("glBindBufferRange", "size"), ("glBindBufferRange", "offset")}


def _is_float_command(name: str) -> bool:
    """Does the command take floating-point scalars (its name's type suffix)?"""
    if name in _FLOAT_COMMANDS:
        return True
    stem = name[:-1] if name.endswith("v") else name
    if stem.endswith(("EXT", "ARB", "OES")):
        stem = stem[:-3]
    # "ed" (glIsEnabled, glEnableIndexedEXT) and "Fd" (a file descriptor:
    # glImportMemoryFdEXT, glImportSemaphoreFdEXT) are not type suffixes
    return stem.endswith(("f", "d")) and not stem.endswith(("ed", "Fd"))


# -- the marshalling helpers, over fuzzed pointers ---------------------------------------
@dataclass
class Ptr:
    """A fuzzed C pointer: NULL when `null`, else an address (`address`) whose
    memory holds values the fuzzer draws when the marshalling reads them."""
    null: bool
    address: int = 0


@dataclass
class Fuzzer:
    api: str
    seed: int
    rng: random.Random = field(init=False)
    names: dict = field(default_factory=lambda: collections.defaultdict(list))

    # limits of what the harness hands over as client memory (C would need it allocated)
    MAX_ARRAY = 1 << 14
    MAX_BYTES = 1 << 22
    # set when the call passed NULL for an array the command reads (count > 0): undefined
    # behaviour in C (Mesa would crash), so the guard's GL error is an answer, not a bug
    null_read: bool = False
    # set for a draw or dispatch of a cheap run: arrays with values above CHEAP_LIMIT
    # (multi-draw counts of 2^31) skip the call as its scalars would
    cheap_work: bool = False

    def __post_init__(self):
        self.rng = random.Random(f"{self.api}:{self.seed}")

    # scalars
    def int32(self) -> int:
        r = self.rng.random()
        if r < 0.35:
            return self.rng.choice((0, 1, 2, 3, 4, 5, 7, 8, 16, 64, 256))
        if r < 0.55:
            return self.rng.choice(_COMMON_ENUMS)
        if r < 0.65:
            return self.rng.choice(_ALL_ENUMS)
        if r < 0.8:
            return self.object_name()
        return self.rng.choice(_INT_EXTREMES + _U32_EXTREMES)

    def object_name(self) -> int:
        pool = [n for v in self.names.values() for n in v]
        if pool and self.rng.random() < 0.8:
            return self.rng.choice(pool)
        return self.rng.choice((0, 1, 2, 3, 100, 0xFFFF_FFFF, 0x8000_0000))

    def wide(self) -> int:
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice((0, 1, 4, 16, 64, 256, 1024, 3))
        return self.rng.choice(_I64_EXTREMES + _INT_EXTREMES)

    def float(self):
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice(_FLOATS)
        if r < 0.8:
            return self.rng.uniform(-2, 2)
        return self.int32()

    def scalar(self, command: str, param: str):
        if (command, param) in _INT_COMMAND_PARAMS:
            return self.int32()
        if param in _FLOAT_PARAMS or (_is_float_command(command) and param not in (
                "target", "pname", "index", "location", "count", "mode", "type", "program",
                "face", "light", "coord", "map", "plane", "func", "cap", "stride", "order",
                "uorder", "vorder", "ustride", "vstride", "un", "vn", "i1", "i2", "j1", "j2",
                "unit", "transpose", "texture", "first", "width", "height", "format", "level",
                "sampler", "attribindex", "bufferIndex", "drawbuffer", "buffer", "texunit", "vaobj",
                "framebuffer", "renderbuffer", "array")):
            return self.float()
        if param in _WIDE_PARAMS or (command, param) in _WIDE_COMMANDS_PARAMS:
            return self.wide()
        if param in _NAME_PARAMS:
            return self.object_name() if self.rng.random() < 0.9 else self.int32()
        v = self.int32()
        if param in _SIGNED_PARAMS:           # GLint/GLsizei: what a C caller can pass
            v = (v + (1 << 31)) % (1 << 32) - (1 << 31)
        return v

    def pointer(self) -> Ptr:
        if self.rng.random() < 0.15:
            return Ptr(True)
        return Ptr(False, self.rng.choice((0, 4, 3, 16, 64, 1024, 1 << 20, 1 << 31, (1 << 63) - 1,
                                           0xFFFF_FFFF)))

    # the values behind a pointer
    def element(self, c_type: str):
        if c_type in ("GLfloat", "GLdouble", "GLclampf", "GLclampd"):
            return self.float()
        if c_type in ("GLfixed", "GLclampx"):        # 16.16 fixed point: a C int32
            return (self.int32() + (1 << 31)) % (1 << 32) - (1 << 31)
        if c_type in ("GLint64", "GLuint64", "GLintptr", "GLsizeiptr"):
            return self.wide()
        if c_type == "GLboolean":
            return self.rng.choice((0, 1, 1, 255))
        if c_type in ("GLubyte", "GLbyte", "GLchar"):
            return self.rng.randrange(0, 256) if c_type != "GLbyte" else self.rng.randrange(-128, 128)
        if c_type in ("GLshort", "GLushort"):
            return self.rng.choice((0, 1, -1, 32767, -32768)) if c_type == "GLshort" else \
                self.rng.choice((0, 1, 65535))
        if c_type in ("GLuint", "GLenum", "GLbitfield"):
            return self.int32() & 0xFFFF_FFFF
        if c_type in ("GLint", "GLsizei"):
            return (self.int32() + (1 << 31)) % (1 << 32) - (1 << 31)
        return self.int32()

    def string(self) -> str:
        return self.rng.choice(SOURCES[self.api] + ["", "a", "pos", "u_color", "gl_Position",
                                                    "block[0]", "s.x", "\u00e9", "x" * 300,
                                                    "#version 999\nvoid main(){}", "void main(",
                                                    "u[", "u[-1]", "u[99999999999]"])


def make_fake_marshal(fz: Fuzzer, real):
    """A stand-in for driver.abi.marshal whose helpers read fuzzed pointers."""
    from driver.gl import ClientMemory
    from driver.gl.pixels import image_size_B

    def cap(n, limit):
        n = max(int(n), 0)
        if n > limit:
            raise Skip
        return n

    def arr_in(p, c_type, n):
        if int(n) <= 0:
            return []
        if p.null:
            raise real.null_array(n)
        values = [fz.element(c_type) for _ in range(cap(n, fz.MAX_ARRAY))]
        if fz.cheap_work and any(isinstance(v, (int, float)) and abs(v) > CHEAP_LIMIT for v in values):
            raise Skip
        return values

    def arr_in_or_null(p, c_type, n):
        return None if p.null and int(n) > 0 else arr_in(p, c_type, n)

    def strided_in(p, c_type, n, stride_B):     # fuzzed values: the stride picks none of them
        if not isinstance(p, Ptr):              # an integer address (the command's GLenum* as an int)
            p = Ptr(null=int(p) == 0, address=int(p))
        return arr_in(p, c_type, n)

    def ptrs_in(p, n):
        if int(n) <= 0:
            return []
        if p.null:
            raise real.null_array(n)
        return [fz.pointer() for _ in range(cap(n, fz.MAX_ARRAY))]

    def bytes_in(p, size):
        if p.null:
            return None
        return fz.rng.randbytes(cap(size, fz.MAX_BYTES))

    def client(ctx, p, bound):
        if bound or p.null:
            return p.address if not p.null else 0

        def read(at, n):
            if n > fz.MAX_BYTES:
                raise Skip
            return bytes(n)
        return ClientMemory(read, p.address)

    def pixels_in(ctx, p, fmt, type_, width, height, depth=1):
        if ctx.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER) is not None:
            return 0 if p.null else p.address
        if p.null:
            return None
        try:
            n = image_size_B(ctx.state.unpack, fmt, type_, width, height, depth)
        except Exception:
            n = 0
        return bytes(cap(n, fz.MAX_BYTES))

    def str_in(p, length=None):
        if p.null:
            fz.null_read = True
            return None
        s = fz.string()
        return s if length is None or length < 0 else s[:length].ljust(length, "x")

    def strs_in(p, count, lengths):
        if p is None or getattr(p, "null", True) or count <= 0:
            return []
        return [fz.string() for _ in range(cap(count, 64))]

    ns = types.SimpleNamespace(
        ffi=_NoFFI, NULL=None, addr=lambda p: None if p.null else p.address, arr_in=arr_in, ptrs_in=ptrs_in, arr_in_or_null=arr_in_or_null, strided_in=strided_in,
        bytes_in=bytes_in, str_in=str_in, strs_in=strs_in, pixels_in=pixels_in,
        client_array=lambda ctx, p: client(ctx, p, ctx.buffer_bindings.get(E.GL_ARRAY_BUFFER)
                                           is not None),
        client_indices=lambda ctx, p: client(ctx, p, ctx.vao.element_buffer is not None),
        handle=lambda p: 0 if p.null else p.address if isinstance(p, Ptr) else int(p),
        to_handle=lambda v, t: v, to_pointer=lambda v: v, boolean=real.boolean,
        number=real.number, cstr=lambda v: v, put=lambda *a, **k: 0,
        put_many=lambda *a, **k: None, pname_count=real.pname_count,
        guess_count=real.guess_count, call=real.call)
    return ns


class _NoFFI:
    """cffi's calls the hand-written overrides make (map, read-back copies), for a
    process without the C host: the buffers stay Python objects and nothing is
    written to raw memory."""

    @staticmethod
    def from_buffer(b, require_writable=False):
        return b

    @staticmethod
    def cast(_ctype, _value):
        return 0

    @staticmethod
    def memmove(_dst, _src, _n):
        return None


# -- shaders for the start state ------------------------------------------------------------
def _sources(api: str) -> list[str]:
    from driver.gl.api import get_api
    a = get_api(api)
    if a.es and a.version < (2, 0):
        return []                           # OpenGL ES 1.1: fixed function, no shaders
    if a.es and a.version < (3, 0):
        head, vin, vout, fin, frag = "#version 100\n", "attribute", "varying", "varying", "gl_FragColor"
        fdecl = "precision mediump float;\n"
    else:
        head = "#version 300 es\n" if a.es else "#version 330 core\n"
        if a.es and a.version >= (3, 1):
            head = "#version 310 es\n"
        vin, vout, fin, frag = "in", "out", "in", "o"
        fdecl = ("precision mediump float;\n" if a.es else "") + "out vec4 o;\n"
    vs = (f"{head}{vin} vec4 pos;\n{vin} vec2 uv;\n{vout} vec2 t;\nuniform mat4 m;\n"
          "void main() { t = uv; gl_Position = m * pos; }\n")
    fs = (f"{head}{fdecl}{fin} vec2 t;\nuniform sampler2D s;\nuniform vec4 u_color;\n"
          f"void main() {{ {frag} = u_color * texture{'2D' if vin == 'attribute' else ''}(s, t); }}\n")
    return [vs, fs]


SOURCES = {api: _sources(api) for api in APIS}


# -- the run ---------------------------------------------------------------------------------
@dataclass
class Report:
    api: str
    calls: int = 0
    skipped: int = 0
    harness: collections.Counter = field(default_factory=collections.Counter)
    null_reads: int = 0      # guard hits on calls with a NULL array of positive count (C UB)
    null_by_command: collections.Counter = field(default_factory=collections.Counter)
    escaped: collections.Counter = field(default_factory=collections.Counter)   # (cmd, exc type)
    guarded: collections.Counter = field(default_factory=collections.Counter)   # (cmd, exc text)
    gl_errors: collections.Counter = field(default_factory=collections.Counter)
    examples: dict = field(default_factory=dict)
    slow: list = field(default_factory=list)
    seconds: float = 0.0
    rss_start_B: int = 0     # the process's resident set before the context was made
    rss_end_B: int = 0       # ... and after it was destroyed
    growth: list = field(default_factory=list)     # (resident-set growth in bytes, command, args)

    @property
    def bugs(self) -> int:
        return sum(n for (cmd, kind), n in self.escaped.items() if "NULL" not in kind) + \
            sum(self.guarded.values())


def _setup(c, fz: Fuzzer) -> None:
    """A state with objects of every kind, so calls reach past the name checks."""
    g = c.gl
    if SOURCES[fz.api]:
        vs_src, fs_src = SOURCES[fz.api]
        prog = g.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, vs_src), (E.GL_FRAGMENT_SHADER, fs_src)):
            sh = g.glCreateShader(kind)
            g.glShaderSource(sh, 1, [src])
            g.glCompileShader(sh)
            g.glAttachShader(prog, sh)
            fz.names["shader"].append(sh)
        g.glLinkProgram(prog)
        g.glUseProgram(prog)
        fz.names["program"].append(prog)
    bufs = g.glGenBuffers(3)
    fz.names["buffer"] += bufs
    if hasattr(g, "glGenVertexArrays") and not g.api.es or g.api.version >= (3, 0):
        vao = g.glGenVertexArrays(1)
        if vao:
            g.glBindVertexArray(vao[0])
            fz.names["vao"] += vao
    g.glBindBuffer(E.GL_ARRAY_BUFFER, bufs[0])
    g.glBufferData(E.GL_ARRAY_BUFFER, 256, bytes(256), E.GL_STATIC_DRAW)
    g.glVertexAttribPointer(0, 4, E.GL_FLOAT, 0, 0, 0)
    g.glEnableVertexAttribArray(0)
    g.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, bufs[1])
    g.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 64, bytes(64), E.GL_STATIC_DRAW)
    tex = g.glGenTextures(2)
    fz.names["texture"] += tex
    g.glBindTexture(E.GL_TEXTURE_2D, tex[0])
    g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(64))
    fbo = g.glGenFramebuffers(1)
    fz.names["framebuffer"] += fbo or []         # (OpenGL ES 1.1 has no framebuffer objects)
    rbo = g.glGenRenderbuffers(1)
    fz.names["renderbuffer"] += rbo or []
    g.glGetError()
    c.gl.error_log.clear()


def run(api: str, seed: int, calls: int, *, commands: list[str] | None = None,
        verbose: bool = False, trace: bool = False, cheap: bool = False) -> Report:
    """`calls` random calls on one fresh driver.Context of `api`. `cheap`: skip
    draws and dispatches with a scalar above CHEAP_LIMIT (legal GL work that keeps
    the GPU model busy for seconds; the long runs make them)."""
    import driver
    from driver.abi import _commands
    from driver.abi import marshal as real_marshal

    fz = Fuzzer(api, seed)
    fake = make_fake_marshal(fz, real_marshal)
    report = Report(api)
    report.rss_start_B = rss_B()
    c = driver.Context(api, 32, 32)
    g = c.gl
    # as the C ABI dispatches: the API's commands only (others record INVALID_OPERATION there)
    other = _commands.DESKTOP_ONLY if g.api.es else _commands.ES_ONLY
    names = commands or sorted(n for n in _commands.MARSHAL if hasattr(g, n) and n not in other
                               and not n.startswith("glDebugMessageCallback"))
    # the marshalling of each command with the pointer helpers replaced (the hand-written
    # overrides call the helpers by their bare names)
    override_globals = {**vars(real_marshal), **vars(fake)}
    # the module's own helpers that overrides call (_element_in ...) reach the pointer
    # helpers through the same replaced names
    for k, v in list(override_globals.items()):
        if isinstance(v, types.FunctionType) and v.__module__ == real_marshal.__name__ and k not in vars(fake):
            override_globals[k] = types.FunctionType(v.__code__, override_globals, v.__name__, v.__defaults__,
                                                     v.__closure__)
    def faked(n):
        fn = real_marshal.OVERRIDES.get(n) or _commands.MARSHAL[n]
        aliased = _alias_of(fn)
        if aliased is not None:         # an alias of an override: the override, for the alias
            impl, core, alias = aliased
            impl = types.FunctionType(impl.__code__, override_globals, impl.__name__, impl.__defaults__,
                                      impl.__closure__)
            run = (lambda impl, core, alias: lambda ctx, *args: impl(
                real_marshal._AliasContext(ctx, core, alias), *args))(impl, core, alias)
            run.__name__ = n
            return run
        selected = _ext_dsa_of(fn)
        if selected is not None:        # an EXT DSA command: its core command's marshalling
            ext, core, leading = selected
            core_fn = faked(core)
            run = (lambda core_fn, core, ext, leading: lambda ctx, *args: core_fn(
                real_marshal._SelectorContext(ctx, core, ext, args[:leading]), *args[leading:]))(
                core_fn, core, ext, leading)
            run.__name__ = n
            return run
        glb = override_globals if n in real_marshal.OVERRIDES else {**fn.__globals__, "M": fake}
        return types.FunctionType(fn.__code__, glb, n, fn.__defaults__, fn.__closure__)
    marshal = {n: faked(n) for n in names}
    t0 = time.perf_counter()
    try:
        _setup(c, fz)
        for _ in range(calls):
            name = fz.rng.choice(names)
            fn = marshal[name]
            c_fn = _commands.MARSHAL[name]         # the C parameters (overrides take the same)
            params = c_fn.__code__.co_varnames[1:c_fn.__code__.co_argcount]
            args = [fz.pointer() if _is_pointer(fn, p) else fz.scalar(name, p) for p in params]
            if cheap and name.startswith(_WORK_COMMANDS) and any(
                    isinstance(a, (int, float)) and abs(a) > CHEAP_LIMIT for a in args):
                report.skipped += 1
                continue
            n_internal = len(getattr(g, "internal_errors", ()))
            if trace:
                print(f"{name}{tuple(args)}", file=sys.stderr, flush=True)
            t_call = time.perf_counter()
            rss_before_B = rss_B()
            fz.null_read = False
            fz.cheap_work = cheap and name.startswith(_WORK_COMMANDS)
            try:
                r = fn(g, *args)
            except Skip:
                report.skipped += 1
                continue
            except GLError as err:      # the marshalling's own error: recorded as the C entry does
                g.record_error(err)
                r = None
            except Exception as err:
                if not _through_entry_point(err):       # the harness's own failure
                    report.harness[(name, type(err).__name__)] += 1
                    continue
                key = (name, type(err).__name__ + (" (NULL array)" if fz.null_read else ""))
                report.escaped[key] += 1
                report.examples.setdefault(key, (args, "".join(
                    traceback.format_exception(err)[-3:])))
                if verbose:
                    traceback.print_exc()
            else:
                _remember(fz, name, r)
            report.calls += 1
            dt = time.perf_counter() - t_call
            if dt > 0.5:
                report.slow.append((round(dt, 2), name, args))
            grew_B = rss_B() - rss_before_B
            if grew_B >= GROWTH_REPORTED_B:
                report.growth.append((grew_B, name, args))
            for text in getattr(g, "internal_errors", ())[n_internal:]:
                if fz.null_read:
                    report.null_reads += 1
                    report.null_by_command[name] += 1
                    continue
                key = (name, text.split(":")[0])
                report.guarded[key] += 1
                report.examples.setdefault(key, (args, text))
            e = g.glGetError()
            report.gl_errors[e] += 1
            if len(g.error_log) > 1000:
                del g.error_log[:]
    finally:
        report.seconds = time.perf_counter() - t0
        c.destroy()
        report.rss_end_B = rss_B()
    return report


GROWTH_REPORTED_B = 16 << 20      # a call that grows the resident set by this much is listed


def rss_B() -> int:
    """The process's resident set size in bytes (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE_B
    except OSError:
        return 0


_PAGE_B = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


_WORK_COMMANDS = ("glDraw", "glMultiDraw", "glDispatch", "glRect", "glEvalMesh", "glCallList",
                  "glDrawPixels", "glCopyPixels", "glBlitFramebuffer", "glClear")
CHEAP_LIMIT = 4096


def _through_entry_point(err: BaseException) -> bool:
    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(("driver/gl/errors.py", "legacy/dlist.py")):
            return True
        tb = tb.tb_next
    return False


def _is_pointer(fn, param: str) -> bool:
    """Does the marshalling read `param` as a pointer (passes it to an M helper)?"""
    return param in _pointer_params(fn)


_pointer_cache: dict = {}


_HELPERS = ("addr", "arr_in", "arr_in_or_null", "ptrs_in", "bytes_in", "_element_in", "str_in", "strs_in", "pixels_in",
            "client_array",
            "client_indices", "handle", "put", "put_many")


def _alias_of(fn):
    """(override, core, alias) when `fn` runs an override for one of the registry's aliases
    (driver.abi.marshal's alias runners), else None."""
    cells = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    if {"impl", "core", "alias"} <= cells.keys():
        return cells["impl"], cells["core"], cells["alias"]
    return None


def _ext_dsa_of(fn):
    """(EXT command, core command, leading selector arguments) when `fn` runs a core
    command's marshalling for a GL_EXT_direct_state_access command (driver.abi.marshal's
    _ext_dsa runners), else None."""
    cells = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    if {"ext", "core", "leading"} <= cells.keys():
        return cells["ext"], cells["core"], cells["leading"]
    return None


def _c_params(name: str) -> tuple[str, ...]:
    from driver.abi import _commands
    code = _commands.MARSHAL[name].__code__
    return code.co_varnames[1:code.co_argcount]


def _pointer_params(fn) -> set[str]:
    """The C parameters the marshalling hands to a pointer helper."""
    got = _pointer_cache.get(fn.__name__)
    if got is None:
        import ast
        import inspect
        from driver.abi import _commands
        from driver.abi import marshal as real_marshal
        source_fn = real_marshal.OVERRIDES.get(fn.__name__) or _commands.MARSHAL[fn.__name__]
        selected = _ext_dsa_of(source_fn)
        if selected is not None:        # the core's pointers, at the EXT's positions
            ext, core, leading = selected
            core_params, ext_params = _c_params(core), _c_params(ext)
            core_pointers = _pointer_params(types.SimpleNamespace(__name__=core))
            got = {ext_params[i + leading] for i, p in enumerate(core_params) if p in core_pointers}
            _pointer_cache[fn.__name__] = got
            return got
        aliased = _alias_of(source_fn)
        generated = _commands.MARSHAL
        if aliased is None and fn.__name__ not in real_marshal.OVERRIDES and hasattr(generated, "source"):
            src = generated.source(fn.__name__)          # compiled on first use from source text
        else:
            src = inspect.getsource(aliased[0] if aliased is not None else source_fn)
        got = set()
        for node in ast.walk(ast.parse(textwrap.dedent(src))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            helper = f.attr if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == "M" else f.id if isinstance(f, ast.Name) else None
            if helper not in _HELPERS:
                continue
            if helper in ("client_array", "client_indices", "pixels_in"):
                args = node.args[1:2]
            elif helper == "strs_in":
                args = [node.args[0], node.args[2]]
            else:
                args = node.args[:1]
            for a in args:
                if isinstance(a, ast.Name):
                    got.add(a.id)
                elif isinstance(a, (ast.Tuple, ast.List)):       # put_many's output pointers
                    got.update(e.id for e in a.elts if isinstance(e, ast.Name))
        _pointer_cache[fn.__name__] = got
    return got


def _remember(fz: Fuzzer, name: str, r) -> None:
    if r is None:
        return
    if name.startswith(("glGen", "glCreate")) and isinstance(r, (list, tuple)):
        fz.names[name].extend(int(x) for x in r[:8] if isinstance(x, int))
    elif name.startswith(("glCreate", "glFenceSync", "glGenLists")) and isinstance(r, int) and r:
        fz.names[name].append(r)


def summary(reports) -> str:
    lines = []
    tot_calls = sum(r.calls for r in reports)
    kinds = collections.Counter()
    for r in reports:
        for (cmd, kind), n in list(r.escaped.items()) + list(r.guarded.items()):
            kinds[(cmd, kind)] += n
    harness = sum(sum(r.harness.values()) for r in reports)
    lines.append(f"{tot_calls} calls, {sum(r.skipped for r in reports)} skipped, {harness} harness "
                 f"failures, "
                 f"{sum(sum(r.escaped.values()) for r in reports)} exceptions escaped, "
                 f"{sum(sum(r.guarded.values()) for r in reports)} caught by the guard, "
                 f"{sum(r.null_reads for r in reports)} NULL-array reads answered by the guard, "
                 f"{len(kinds)} distinct (command, kind); "
                 f"{sum(r.gl_errors[0] for r in reports) * 100 // max(tot_calls, 1)}% of calls "
                 f"without a GL error; "
                 f"{sum(r.seconds for r in reports):.1f} s")
    for (cmd, kind), n in kinds.most_common():
        lines.append(f"  {n:6d} {cmd}: {kind}")
    slow = sorted((s for r in reports for s in r.slow), key=lambda s: -s[0])
    for dt, cmd, args in slow[:15]:
        lines.append(f"  slow {dt:6.2f} s {cmd}{tuple(args)}")
    growth = sorted((g for r in reports for g in r.growth), key=lambda g: -g[0])
    for grew_B, cmd, args in growth[:15]:
        lines.append(f"  grew {grew_B / 2**20:7.1f} MiB {cmd}{tuple(args)}")
    if reports:
        lines.append(f"resident set: {reports[0].rss_start_B / 2**20:.0f} MiB before the first "
                     f"context, {reports[-1].rss_end_B / 2**20:.0f} MiB after the last, "
                     f"at most {max(r.rss_end_B for r in reports) / 2**20:.0f} MiB between contexts")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=20000, help="calls per API")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--api", action="append", choices=APIS)
    ap.add_argument("--chunk", type=int, default=2000, help="calls per context")
    ap.add_argument("--expensive", action="store_true",
                    help="also make draws/dispatches with huge counts (GPU-model work of minutes)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--examples", action="store_true", help="print one example per bug kind")
    ap.add_argument("--progress", action="store_true",
                    help="a line per context: time and resident set before and after")
    opts = ap.parse_args(argv)
    reports = []
    for api in opts.api or APIS:
        for start in range(0, opts.calls, opts.chunk):
            rep = run(api, opts.seed * 1_000_003 + start, min(opts.chunk, opts.calls - start),
                      verbose=opts.verbose, cheap=not opts.expensive)
            reports.append(rep)
            if opts.verbose or opts.progress:
                print(f"{api} calls {start}..{start + rep.calls + rep.skipped}: {rep.seconds:.0f} s, "
                      f"{rep.calls} made, {sum(rep.escaped.values())} escaped, "
                      f"{sum(rep.guarded.values())} guarded, {rep.null_reads} NULL reads, "
                      f"{sum(rep.harness.values())} harness failures, "
                      f"resident {rep.rss_start_B / 2**20:.0f} -> {rep.rss_end_B / 2**20:.0f} MiB, "
                      f"largest growth of a call "
                      f"{max((g[0] for g in rep.growth), default=0) / 2**20:.0f} MiB",
                      file=sys.stderr, flush=True)
            if opts.examples:
                for key, (args, text) in rep.examples.items():
                    print(f"--- {api} {key}: {args}\n{text}", file=sys.stderr)
    print(summary(reports))
    return 1 if any(r.bugs for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
