"""Run a parsed shader_test over the GL API of a context (driver.Context by default).

The flow mirrors piglit's shader_runner: pick a context for the [require]
versions, check the remaining requirements (unmet -> skip), compile every
shader section (a compile error -> fail), link with piglit_vertex at
location 0 and piglit_texcoord at 1 (a link error is remembered: `link error`
expects it, anything that needs the program then fails), set up [vertex data]
and uniform-block buffers, then run the [test] commands in order. A probe
that fails marks the test failed and the run continues, as in piglit.

Commands piglit has but this runner does not implement, and requirements it
cannot meet, end the run with `skip` and the reason: never `pass`."""

from __future__ import annotations

import re
import struct
import time
import traceback
from dataclasses import dataclass, field

import numpy as np

from . import textures as T
from .parser import SHADER_STAGES, Command, ShaderTest, parse_file, parse_floats, parse_ints, parse_uints
from .probes import DEFAULT_TOLERANCE, ProbeFailure, probe_pixel, probe_rect

__all__ = ["Result", "choose_api", "run", "run_file"]

PIGLIT_ATTRIB_POS, PIGLIT_ATTRIB_TEX = 0, 1

# A stand-in with the same behaviour as piglit's built-in passthrough vertex shader.
PASSTHROUGH_VS = """#if __VERSION__ >= 130
in vec4 piglit_vertex;
#else
attribute vec4 piglit_vertex;
#endif
void main() { gl_Position = piglit_vertex; }
"""

# piglit commands this runner knows but does not implement: report skip, not fail.
UNSUPPORTED_PREFIXES = (
    "xfb ", "probe xfb", "subuniform", "parameter ", "program binary", "newlist", "endlist",
    "calllist", "deletelist", "viewport swizzle", "viewport indexed", "light ", "resident ",
    "compute group size", "multidraw", "blit ", "vertex attrib ", "draw rect patch",
    "draw rect ortho patch", "draw instanced rect ortho patch", "active shader program",
    "verify program_interface_query", "verify query_object", "texture junk", "texture quads",
    "fbfetch barrier", "blend barrier", "block ", "ubo array index", "fb ms", "fb tex slice",
    "fb tex layered", "probe ssbo double", "probe ssbo int64", "probe ssbo uint64",
    "ssbo 0 subdata double", "probe depth",
)


@dataclass
class Result:
    """The outcome of one run: `status` is pass / fail / skip / warn, `messages`
    the lines piglit would print (probe failures name the line and pixel)."""
    status: str = "pass"
    messages: list[str] = field(default_factory=list)
    api: str = ""
    time_s: float = 0.0

    @property
    def piglit_line(self) -> str:
        return 'PIGLIT: {"result": "%s" }' % self.status

    @property
    def exit_code(self) -> int:
        """piglit's exit status: 1 for fail (and crash), 0 otherwise (pass, skip, warn)."""
        return 1 if self.status in ("fail", "crash") else 0


class _Skip(Exception):
    pass


class _Fail(Exception):
    pass


def _api_glsl_version(api) -> tuple[int, bool]:
    top = api.glsl[0]
    return int(top.split()[0]), api.es


def choose_api(test: ShaderTest) -> str:
    """The driver.gl API name for a test's GL/GLSL requirements (as piglit picks a context)."""
    gl, glsl = test.gl_version, test.glsl_version
    es = (gl is not None and gl.es) or (glsl is not None and glsl.es)
    if es:
        num = gl.num if gl is not None and gl.es else 20
        sl = glsl.num if glsl is not None else 100
        if num >= 31 or sl >= 310:
            return "gles31"
        if num >= 30 or sl >= 300:
            return "gles3"
        return "gles2"
    num = gl.num if gl is not None else 10
    if glsl is not None:
        num = max(num, {110: 20, 120: 21, 130: 21, 140: 31, 150: 32, 330: 33, 400: 40, 410: 41,
                        420: 42, 430: 43}.get(glsl.num, 0))
    compat = gl is not None and gl.compat
    if compat or num < 31:
        return "compat"
    return "gl33" if num <= 33 else "gl43"


def _cmp(op: str, a, b) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "=": a == b,
            "!=": a != b}[op]


_MODES = {"GL_POINTS", "GL_LINES", "GL_LINE_LOOP", "GL_LINE_STRIP", "GL_TRIANGLES",
          "GL_TRIANGLE_STRIP", "GL_TRIANGLE_FAN", "GL_QUADS", "GL_QUAD_STRIP", "GL_POLYGON",
          "GL_LINES_ADJACENCY", "GL_LINE_STRIP_ADJACENCY", "GL_TRIANGLES_ADJACENCY",
          "GL_TRIANGLE_STRIP_ADJACENCY", "GL_PATCHES"}


class Runner:
    """Executes one ShaderTest on a context. `ctx` is any object with the GL
    entry points as methods and GL_* enums as attributes (driver.Context)."""

    def __init__(self, test: ShaderTest, ctx, api):
        self.test, self.ctx, self.api = test, ctx, api
        self.E = ctx
        self.width, self.height = test.size
        self.read_w, self.read_h = self.width, self.height
        self.render_w, self.render_h = self.width, self.height
        self.tolerance = list(DEFAULT_TOLERANCE)
        self.prog = 0
        self.link_ok = False
        self.link_log = ""
        self.vbo_rows = 0
        self.vao = 0
        self.clear_bits = 0
        self.ubo_bufs: list[int] = []
        self.ssbos: dict[int, int] = {}
        self.atomic_bufs: dict[int, int] = {}
        self.textures: dict[int, tuple[int, int, int, int]] = {}   # unit -> (name, w, h, layers)
        self.read_fbo = self.draw_fbo = 0
        self.elements = None
        self.messages: list[str] = []
        self.ignore_missing_uniforms = False

    # -- helpers ------------------------------------------------------------------
    def enum(self, name: str) -> int:
        m = re.fullmatch(r"GL_(CLIP_PLANE|CLIP_DISTANCE)(\d+)", name)
        if m:       # piglit accepts any plane index: GL_CLIP_PLANE0 + n
            return getattr(self.ctx, f"GL_{m.group(1)}0") + int(m.group(2))
        v = getattr(self.ctx, name, None)
        if not isinstance(v, int):
            raise _Fail(f"unknown GL enum {name}")
        return v

    def gl_error(self) -> int:
        return self.ctx.glGetError()

    def extensions(self) -> set[str]:
        c = self.ctx
        try:
            n = c.glGetIntegerv(c.GL_NUM_EXTENSIONS)
            if n:
                return {c.glGetStringi(c.GL_EXTENSIONS, i) for i in range(n[0])}
        except Exception:
            pass
        c.glGetError()
        s = c.glGetString(c.GL_EXTENSIONS) or ""
        return set(s.split())

    # -- requirements ---------------------------------------------------------------
    def check_requirements(self) -> None:
        api = self.api
        exts = None
        glsl_num, glsl_es = _api_glsl_version(api)
        for r in self.test.requirements:
            if r.kind == "gl":
                have = api.version[0] * 10 + api.version[1]
                if r.version.es != api.es or not _cmp(r.op, have, r.version.num):
                    raise _Skip(f"Test requires GL{' ES' if r.version.es else ''} {r.op} "
                                f"{r.version.num / 10:.1f}; context is {api.version_string}")
                if r.version.core and not api.core:
                    raise _Skip("test requires a core profile context")
            elif r.kind == "glsl":
                if r.op != ">=":
                    raise _Fail("Unsupported GLSL version comparison")
                if r.version.es != glsl_es or glsl_num < r.version.num:
                    raise _Skip(f"Test requires GLSL{' ES' if r.version.es else ''} >= "
                                f"{r.version.num / 100:.2f}; context has {api.glsl_version_string}")
            elif r.kind == "extension":
                exts = self.extensions() if exts is None else exts
                if (r.name in exts) == r.negate:
                    raise _Skip(f"Test requires {'no ' if r.negate else ''}extension {r.name}")
            elif r.kind == "limit":
                have = self.limit(r.name)
                if have is None or not _cmp(r.op, have, r.value):
                    raise _Skip(f"Test requires {r.name} {r.op} {r.value}; driver has {have}")
            elif r.kind in ("sso", "separable", "spirv"):
                raise _Skip(f"[require] {r.text!r} is not supported by this runner")
            elif r.kind == "ignore_missing_uniforms":
                self.ignore_missing_uniforms = True
        if self.test.glsl_version is None and self.test.shaders:
            raise _Fail("GLSL version requirement missing")

    def limit(self, name: str):
        c = self.ctx
        c.glGetError()
        value = None
        if hasattr(c, name):
            try:
                v = c.glGetIntegerv(getattr(c, name))
                value = v[0] if v else None
            except Exception:
                value = None
        if (value is None or c.glGetError()) and name.endswith("_COMPONENTS"):
            alt = name[:-len("_COMPONENTS")] + "_VECTORS"
            alt = alt.replace("GL_MAX_VARYING_VECTORS", "GL_MAX_VARYING_VECTORS")
            if hasattr(c, alt):
                v = c.glGetIntegerv(getattr(c, alt))
                value = v[0] * 4 if v and not c.glGetError() else None
        return value

    # -- shaders and program -----------------------------------------------------------
    def compile_and_link(self) -> None:
        c = self.ctx
        glsl = self.test.glsl_version
        shaders = []
        for sec in self.test.sections:
            if sec.kind == "vertex shader passthrough":
                kind, src = "GL_VERTEX_SHADER", PASSTHROUGH_VS
            elif sec.kind in SHADER_STAGES:
                kind, src = SHADER_STAGES[sec.kind], sec.body
            elif sec.kind in ("require", "test", "vertex data"):
                continue
            elif sec.kind == "elements":
                self.elements = [int(v) for v in sec.body.split("#")[0].split()]
                continue
            else:
                raise _Skip(f"section [{sec.kind}] is not supported by this runner")
            target = getattr(c, kind, None)
            if target is None:
                raise _Skip(f"{kind} is not known to the GL front end")
            if "#version " not in src:
                ver = f"#version {glsl.num}{' es' if glsl.es and glsl.num != 100 else ''}\n"
                src = ver + src
            s = c.glCreateShader(target)
            if not s:
                err = c.glGetError()
                raise _Skip(f"glCreateShader({kind}) failed (GL error 0x{err:x}): the stage is not "
                            f"supported by this context ({self.api.name})")
            c.glShaderSource(s, 1, [src])
            c.glCompileShader(s)
            if not c.glGetShaderiv(s, c.GL_COMPILE_STATUS)[0]:
                log = c.glGetShaderInfoLog(s)
                if "not supported by shimgl yet" in log:
                    # a stage the context's version includes but the compiler lacks (geometry,
                    # tessellation): the driver's limitation, not a failure of the test
                    raise _Skip(f"{kind}: {log.strip()}")
                raise _Fail(f"Failed to compile {kind[3:].split('_')[0][:4]} ({sec.kind}, line "
                            f"{sec.line}): {c.glGetShaderInfoLog(s)}")
            shaders.append(s)
        if not shaders:
            return
        p = c.glCreateProgram()
        for s in shaders:
            c.glAttachShader(p, s)
        c.glBindAttribLocation(p, PIGLIT_ATTRIB_POS, "piglit_vertex")
        c.glBindAttribLocation(p, PIGLIT_ATTRIB_TEX, "piglit_texcoord")
        c.glLinkProgram(p)
        self.prog = p
        if c.glGetProgramiv(p, c.GL_LINK_STATUS)[0]:
            self.link_ok = True
            c.glUseProgram(p)
            err = c.glGetError()
            if err:
                self.link_ok = False
                self.link_log = f"glUseProgram raised GL error 0x{err:x}"
        else:
            self.link_log = c.glGetProgramInfoLog(p)
        for s in shaders:
            c.glDeleteShader(s)

    def must_be_linked(self) -> None:
        if not self.link_ok:
            raise _Fail(f"Failed to link:\n{self.link_log}")

    def bind_vao_if_needed(self) -> None:
        c = self.ctx
        if self.vao == 0 and self.api.core:
            self.vao = c.glGenVertexArrays(1)[0]
            c.glBindVertexArray(self.vao)

    # -- [vertex data] -------------------------------------------------------------------
    def setup_vertex_data(self) -> None:
        sec = self.test.section("vertex data")
        if sec is None or not self.link_ok:
            return
        c = self.ctx
        self.bind_vao_if_needed()
        rows = [ln.split("#")[0].split() for ln in sec.body.splitlines()]
        rows = [r for r in rows if r]
        if not rows:
            return
        columns = []
        for head in rows[0]:
            parts = head.split("/")
            if len(parts) < 3:
                raise _Fail(f"Column headers must be in the form name/type/count. Got: {head}")
            name, typ, count = parts[0], parts[1], parts[-1]
            if typ not in ("float", "int", "uint"):
                raise _Skip(f"[vertex data] type {typ!r} is not supported by this runner")
            m = re.fullmatch(r"(?:[iu]?vec(\d))|(\d)|(?:mat(\d)(?:x(\d))?)", count)
            if not m:
                raise _Fail(f"bad vertex data count {count!r}")
            if m.group(3):
                cols, rws = int(m.group(3)), int(m.group(4) or m.group(3))
            else:
                cols, rws = 1, int(m.group(1) or m.group(2))
            columns.append((name, typ, cols, rws))
        fmt = {"float": "f", "int": "i", "uint": "I"}
        data = bytearray()
        nrows = 0
        for r in rows[1:]:
            k = 0
            for name, typ, cols, rws in columns:
                vals = r[k:k + cols * rws]
                k += cols * rws
                if typ == "float":
                    nums = parse_floats(" ".join(vals))
                elif typ == "int":
                    nums = parse_ints(" ".join(vals))
                else:
                    nums = parse_uints(" ".join(vals))
                if len(nums) != cols * rws:
                    raise _Fail(f"[vertex data] row {nrows + 1}: expected {cols * rws} values for {name}")
                data += struct.pack(f"={len(nums)}{fmt[typ]}", *nums)
            nrows += 1
        stride = sum(4 * cols * rws for _, _, cols, rws in columns)
        buf = c.glGenBuffers(1)[0]
        c.glBindBuffer(c.GL_ARRAY_BUFFER, buf)
        c.glBufferData(c.GL_ARRAY_BUFFER, len(data), bytes(data), c.GL_STATIC_DRAW)
        offset = 0
        for name, typ, cols, rws in columns:
            gltype = {"float": c.GL_FLOAT, "int": c.GL_INT, "uint": c.GL_UNSIGNED_INT}[typ]
            if name in ("gl_Vertex", "gl_Color", "gl_Normal") or name.startswith("gl_MultiTexCoord"):
                self._fixed_function_array(name, rws, gltype, stride, offset)
                offset += 4 * cols * rws
                continue
            if name.isdigit():
                loc = int(name)
            else:
                loc = c.glGetAttribLocation(self.prog, name)
                if loc < 0:
                    raise _Fail(f"Unexpected vbo column name.  Got: {name}")
            for col in range(cols):
                if typ == "float":
                    c.glVertexAttribPointer(loc + col, rws, gltype, False, stride, offset)
                else:
                    c.glVertexAttribIPointer(loc + col, rws, gltype, stride, offset)
                c.glEnableVertexAttribArray(loc + col)
                offset += 4 * rws
        self.vbo_rows = nrows
        if self.elements:
            ebo = c.glGenBuffers(1)[0]
            c.glBindBuffer(c.GL_ELEMENT_ARRAY_BUFFER, ebo)
            arr = np.array(self.elements, np.uint16)
            c.glBufferData(c.GL_ELEMENT_ARRAY_BUFFER, arr.nbytes, arr.tobytes(), c.GL_STATIC_DRAW)

    def _fixed_function_array(self, name, size, gltype, stride, offset) -> None:
        c = self.ctx
        if not self.api.compat:
            raise _Skip(f"{name} in [vertex data] needs a compatibility context")
        if name == "gl_Vertex":
            c.glVertexPointer(size, gltype, stride, offset)
            c.glEnableClientState(c.GL_VERTEX_ARRAY)
        elif name == "gl_Color":
            c.glColorPointer(size, gltype, stride, offset)
            c.glEnableClientState(c.GL_COLOR_ARRAY)
        elif name == "gl_Normal":
            c.glNormalPointer(gltype, stride, offset)
            c.glEnableClientState(c.GL_NORMAL_ARRAY)
        else:
            unit = int(name[len("gl_MultiTexCoord"):])
            c.glClientActiveTexture(c.GL_TEXTURE0 + unit)
            c.glTexCoordPointer(size, gltype, stride, offset)
            c.glEnableClientState(c.GL_TEXTURE_COORD_ARRAY)
            c.glClientActiveTexture(c.GL_TEXTURE0)

    def setup_ubos(self) -> None:
        c = self.ctx
        if not self.link_ok or not self.api.gl_or_es((3, 1), (3, 0)):
            return
        n = c.glGetProgramiv(self.prog, c.GL_ACTIVE_UNIFORM_BLOCKS)[0]
        for i in range(n):
            size = c.glGetActiveUniformBlockiv(self.prog, i, c.GL_UNIFORM_BLOCK_DATA_SIZE)[0]
            buf = c.glGenBuffers(1)[0]
            c.glBindBuffer(c.GL_UNIFORM_BUFFER, buf)
            c.glBufferData(c.GL_UNIFORM_BUFFER, size, bytes(size), c.GL_STATIC_DRAW)
            c.glUniformBlockBinding(self.prog, i, i)
            c.glBindBufferBase(c.GL_UNIFORM_BUFFER, i, buf)
            self.ubo_bufs.append(buf)

    # -- drawing -------------------------------------------------------------------------
    def draw_rect(self, x, y, w, h, tex=None, instances: int = 1) -> None:
        self.must_be_linked()
        c = self.ctx
        verts = np.array([[x, y, 0, 1], [x + w, y, 0, 1], [x, y + h, 0, 1], [x + w, y + h, 0, 1]],
                         np.float32)
        tc = None
        if tex is not None:
            tx, ty, tw, th = tex
            tc = np.array([[tx, ty], [tx + tw, ty], [tx, ty + th], [tx + tw, ty + th]], np.float32)
        fixed = (self.api.compat and c.glGetAttribLocation(self.prog, "piglit_vertex") == -1)
        old_buf = c.glGetIntegerv(c.GL_ARRAY_BUFFER_BINDING)[0]
        if fixed:
            c.glBindBuffer(c.GL_ARRAY_BUFFER, 0)
            c.glVertexPointer(4, c.GL_FLOAT, 0, verts.tobytes())
            c.glEnableClientState(c.GL_VERTEX_ARRAY)
            if tc is not None:
                c.glTexCoordPointer(2, c.GL_FLOAT, 0, tc.tobytes())
                c.glEnableClientState(c.GL_TEXTURE_COORD_ARRAY)
            self._draw_strip(instances)
            c.glDisableClientState(c.GL_VERTEX_ARRAY)
            if tc is not None:
                c.glDisableClientState(c.GL_TEXTURE_COORD_ARRAY)
            c.glBindBuffer(c.GL_ARRAY_BUFFER, old_buf)
            return
        vao = old_vao = 0
        if self.api.version >= (3, 0):
            old_vao = c.glGetIntegerv(c.GL_VERTEX_ARRAY_BINDING)[0]
            vao = c.glGenVertexArrays(1)[0]
            c.glBindVertexArray(vao)
        buf = c.glGenBuffers(1)[0]
        c.glBindBuffer(c.GL_ARRAY_BUFFER, buf)
        data = verts.tobytes() + (tc.tobytes() if tc is not None else bytes(32))
        c.glBufferData(c.GL_ARRAY_BUFFER, len(data), data, c.GL_STATIC_DRAW)
        c.glVertexAttribPointer(PIGLIT_ATTRIB_POS, 4, c.GL_FLOAT, False, 0, 0)
        c.glEnableVertexAttribArray(PIGLIT_ATTRIB_POS)
        if tc is not None:
            c.glVertexAttribPointer(PIGLIT_ATTRIB_TEX, 2, c.GL_FLOAT, False, 0, 64)
            c.glEnableVertexAttribArray(PIGLIT_ATTRIB_TEX)
        self._draw_strip(instances)
        c.glDisableVertexAttribArray(PIGLIT_ATTRIB_POS)
        if tc is not None:
            c.glDisableVertexAttribArray(PIGLIT_ATTRIB_TEX)
        c.glBindBuffer(c.GL_ARRAY_BUFFER, old_buf)
        c.glDeleteBuffers(1, [buf])
        if vao:
            c.glBindVertexArray(old_vao)
            c.glDeleteVertexArrays(1, [vao])

    def _draw_strip(self, instances: int) -> None:
        c = self.ctx
        if instances > 1:
            c.glDrawArraysInstanced(c.GL_TRIANGLE_STRIP, 0, 4, instances)
        else:
            c.glDrawArrays(c.GL_TRIANGLE_STRIP, 0, 4)

    def mode(self, name: str) -> int:
        if name not in _MODES:
            raise _Fail(f'unknown drawing mode "{name}"')
        return self.enum(name)

    def draw_arrays_check(self, first: int, count: int) -> None:
        self.must_be_linked()
        if first < 0 or count <= 0:
            raise _Fail("draw arrays 'first' must be >= 0 and 'count' > 0")
        if self.vbo_rows and first + count > self.vbo_rows:
            raise _Fail(f"draw arrays cannot draw beyond {self.vbo_rows}")
        self.bind_vao_if_needed()

    # -- reading pixels ------------------------------------------------------------------
    def _ubyte_readable(self) -> bool:
        c = self.ctx
        if self.read_fbo == 0:
            return True
        try:
            r = c.glGetFramebufferAttachmentParameteriv(
                c.GL_READ_FRAMEBUFFER, c.GL_COLOR_ATTACHMENT0, c.GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE)
            c.glGetError()
            return bool(r) and 0 < r[0] <= 8
        except Exception:
            return True

    def read_rgba(self, x, y, w, h, as_ubyte: bool) -> np.ndarray:
        c = self.ctx
        c.glFinish()
        if as_ubyte or self.api.es:
            raw = c.glReadPixels(x, y, w, h, c.GL_RGBA, c.GL_UNSIGNED_BYTE)
            if raw is None:
                raise _Fail(f"glReadPixels failed (GL error 0x{c.glGetError():x})")
            px = np.frombuffer(bytes(raw), np.uint8).reshape(h, w, 4)
            return px if as_ubyte else px.astype(np.float32) / np.float32(255)
        raw = c.glReadPixels(x, y, w, h, c.GL_RGBA, c.GL_FLOAT)
        if raw is None:
            raise _Fail(f"glReadPixels failed (GL error 0x{c.glGetError():x})")
        return np.frombuffer(bytes(raw), np.float32).reshape(h, w, 4)

    def probe_pixel(self, x, y, expected) -> None:
        px = self.read_rgba(int(x), int(y), 1, 1, as_ubyte=False)[0, 0]
        probe_pixel(px, expected, self.tolerance, int(x), int(y))

    def probe_rect(self, x, y, w, h, expected) -> None:
        x, y, w, h = int(x), int(y), int(w), int(h)
        if w <= 0 or h <= 0:
            return
        ub = self._ubyte_readable()
        px = self.read_rgba(x, y, w, h, as_ubyte=ub)
        if not ub and self.api.es:
            ub = False
        probe_rect(px, expected, self.tolerance, x, y, ub)

    # -- uniforms --------------------------------------------------------------------------
    def set_uniform(self, rest: str) -> None:
        self.must_be_linked()
        c = self.ctx
        parts = rest.split(None, 2)
        if len(parts) < 2:
            raise _Fail(f"Invalid set uniform command at: {rest}")
        typ, name = parts[0], parts[1]
        vals = parts[2] if len(parts) > 2 else ""
        if typ.startswith(("double", "dvec", "dmat", "int64", "uint64", "i64vec", "u64vec", "handle")):
            raise _Skip(f"uniform type {typ} (fp64/int64/bindless) is not supported")
        if name[0].isdigit():
            loc = int(name, 0)
        else:
            if self.ubo_bufs and self.set_ubo_uniform(typ, name, vals):
                return
            loc = c.glGetUniformLocation(self.prog, name)
            if loc < 0:
                if self.ignore_missing_uniforms:
                    return
                raise _Fail(f'cannot get location of uniform "{name}"')
        m = re.fullmatch(r"mat(\d)(?:x(\d))?", typ)
        if typ == "float":
            c.glUniform1fv(loc, 1, parse_floats(vals, 1))
        elif typ in ("int", "bool"):
            c.glUniform1iv(loc, 1, parse_ints(vals, 1))
        elif typ == "uint":
            c.glUniform1uiv(loc, 1, parse_uints(vals, 1))
        elif re.fullmatch(r"[bi]?vec[234]", typ):
            n = int(typ[-1])
            if typ.startswith("vec"):
                getattr(c, f"glUniform{n}fv")(loc, 1, parse_floats(vals, n))
            else:
                getattr(c, f"glUniform{n}iv")(loc, 1, parse_ints(vals, n))
        elif re.fullmatch(r"uvec[234]", typ):
            n = int(typ[-1])
            getattr(c, f"glUniform{n}uiv")(loc, 1, parse_uints(vals, n))
        elif m:
            cols, rows = int(m.group(1)), int(m.group(2) or m.group(1))
            suffix = f"{cols}" if cols == rows else f"{cols}x{rows}"
            getattr(c, f"glUniformMatrix{suffix}fv")(loc, 1, False, parse_floats(vals, cols * rows))
        else:
            raise _Fail(f'unknown uniform type "{typ}"')
        err = c.glGetError()
        if err:
            raise _Fail(f"uniform {typ} {name}: GL error 0x{err:x}")

    def set_ubo_uniform(self, typ: str, name: str, vals: str) -> bool:
        c = self.ctx
        base, index = name, 0
        mm = re.fullmatch(r"(.*)\[(\d+)\]", name)
        if mm:
            base, index = mm.group(1), int(mm.group(2))
        ui = c.glGetUniformIndices(self.prog, 1, [base])[0]
        if ui == c.GL_INVALID_INDEX:
            ui = c.glGetUniformIndices(self.prog, 1, [name])[0]
            index = 0
            if ui == c.GL_INVALID_INDEX:
                raise _Fail(f'cannot get index of uniform "{name}"')
        block = c.glGetActiveUniformsiv(self.prog, 1, [ui], c.GL_UNIFORM_BLOCK_INDEX)[0]
        if block == -1:
            return False
        offset = c.glGetActiveUniformsiv(self.prog, 1, [ui], c.GL_UNIFORM_OFFSET)[0]
        if mm:
            offset += index * c.glGetActiveUniformsiv(self.prog, 1, [ui], c.GL_UNIFORM_ARRAY_STRIDE)[0]
        m = re.fullmatch(r"mat(\d)(?:x(\d))?", typ)
        if m:
            cols, rows = int(m.group(1)), int(m.group(2) or m.group(1))
            f = parse_floats(vals, cols * rows)
            stride = c.glGetActiveUniformsiv(self.prog, 1, [ui], c.GL_UNIFORM_MATRIX_STRIDE)[0] // 4
            row_major = c.glGetActiveUniformsiv(self.prog, 1, [ui], c.GL_UNIFORM_IS_ROW_MAJOR)[0]
            n = stride * (rows if row_major else cols)
            out = np.zeros(n, np.float32)
            for col in range(cols):
                for r in range(rows):
                    out[stride * r + col if row_major else stride * col + r] = f[col * rows + r]
            data = out.tobytes()
        elif typ == "float" or typ.startswith("vec"):
            data = struct.pack(f"={len(v := parse_floats(vals, 1 if typ == 'float' else int(typ[-1])))}f", *v)
        elif typ in ("int", "bool") or re.fullmatch(r"[bi]vec\d", typ):
            v = parse_ints(vals, 1 if typ in ("int", "bool") else int(typ[-1]))
            data = struct.pack(f"={len(v)}i", *v)
        elif typ == "uint" or typ.startswith("uvec"):
            v = parse_uints(vals, 1 if typ == "uint" else int(typ[-1]))
            data = struct.pack(f"={len(v)}I", *v)
        else:
            raise _Fail(f'unknown uniform type "{typ}" for "{name}"')
        c.glBindBuffer(c.GL_UNIFORM_BUFFER, self.ubo_bufs[block])
        c.glBufferSubData(c.GL_UNIFORM_BUFFER, offset, len(data), data)
        return True

    # -- textures --------------------------------------------------------------------------
    def _new_texture(self, unit: int, target: int) -> int:
        c = self.ctx
        c.glActiveTexture(c.GL_TEXTURE0 + unit)
        tex = c.glGenTextures(1)[0]
        c.glBindTexture(target, tex)
        return tex

    def _params(self, target, wrap, filt) -> None:
        c = self.ctx
        c.glTexParameteri(target, c.GL_TEXTURE_WRAP_S, wrap)
        c.glTexParameteri(target, c.GL_TEXTURE_WRAP_T, wrap)
        c.glTexParameteri(target, c.GL_TEXTURE_MIN_FILTER, filt)
        c.glTexParameteri(target, c.GL_TEXTURE_MAG_FILTER, filt)

    def _image_2d(self, target, level, internal, img: np.ndarray) -> None:
        c = self.ctx
        h, w = img.shape[:2]
        if self.api.es:
            data = (np.clip(img, 0, 1) * 255).astype(np.uint8)
            c.glTexImage2D(target, level, internal, w, h, 0, c.GL_RGBA, c.GL_UNSIGNED_BYTE, data.tobytes())
        else:
            c.glTexImage2D(target, level, internal, w, h, 0, c.GL_RGBA, c.GL_FLOAT,
                           np.ascontiguousarray(img, np.float32).tobytes())

    def _enable_tex2d(self) -> None:
        c = self.ctx
        if self.api.compat:
            c.glEnable(c.GL_TEXTURE_2D)
            c.glGetError()

    def texture_command(self, line: str) -> None:
        c = self.ctx
        m = re.fullmatch(r"texture rgbw (\d+) \(\s*(\d+)\s*,\s*(\d+)\s*\)\s*(\S+)?", line)
        if m:
            unit, w, h = int(m.group(1)), int(m.group(2)), int(m.group(3))
            internal = self.enum(m.group(4)) if m.group(4) else c.GL_RGBA
            tex = self._new_texture(unit, c.GL_TEXTURE_2D)
            self._params(c.GL_TEXTURE_2D, c.GL_CLAMP_TO_EDGE, c.GL_NEAREST)
            self._image_2d(c.GL_TEXTURE_2D, 0, internal, T.rgbw(w, h))
            self.textures[unit] = (tex, w, h, 1)
            self._enable_tex2d()
            return
        m = re.fullmatch(r"texture checkerboard (\d+) (\d+) \(\s*(\d+)\s*,\s*(\d+)\s*\)\s*(.*)", line)
        if m:
            unit, level, w, h = (int(m.group(i)) for i in range(1, 5))
            cols = parse_floats(m.group(5))
            if len(cols) != 8:
                raise _Fail("invalid texture checkerboard command")
            tex = self._new_texture(unit, c.GL_TEXTURE_2D)
            if self.api.es:
                self._params(c.GL_TEXTURE_2D, c.GL_CLAMP_TO_EDGE, c.GL_NEAREST)
            else:
                self._params(c.GL_TEXTURE_2D, c.GL_CLAMP_TO_BORDER, c.GL_NEAREST)
                c.glTexParameterfv(c.GL_TEXTURE_2D, c.GL_TEXTURE_BORDER_COLOR, [1.0, 0.0, 0.0, 1.0])
            self._image_2d(c.GL_TEXTURE_2D, level, c.GL_RGBA, T.checkerboard(w, h, cols[:4], cols[4:]))
            self.textures[unit] = (tex, w, h, 1)
            self._enable_tex2d()
            return
        m = re.fullmatch(r"texture miptree (\d+)", line)
        if m:
            unit = int(m.group(1))
            tex = self._new_texture(unit, c.GL_TEXTURE_2D)
            c.glTexParameteri(c.GL_TEXTURE_2D, c.GL_TEXTURE_WRAP_S, c.GL_CLAMP_TO_EDGE)
            c.glTexParameteri(c.GL_TEXTURE_2D, c.GL_TEXTURE_WRAP_T, c.GL_CLAMP_TO_EDGE)
            c.glTexParameteri(c.GL_TEXTURE_2D, c.GL_TEXTURE_MAG_FILTER, c.GL_NEAREST)
            c.glTexParameteri(c.GL_TEXTURE_2D, c.GL_TEXTURE_MIN_FILTER, c.GL_NEAREST_MIPMAP_NEAREST)
            for lv, img in enumerate(T.miptree_levels()):
                self._image_2d(c.GL_TEXTURE_2D, lv, c.GL_RGBA, img)
            self.textures[unit] = (tex, 8, 8, 1)
            self._enable_tex2d()
            return
        m = re.fullmatch(r"texture shadow(2D|Rect|1D|1DArray|2DArray) (\d+) \(([^)]*)\)", line)
        if m:
            kind, unit = m.group(1), int(m.group(2))
            dims = [int(v) for v in m.group(3).replace(",", " ").split()]
            target = {"2D": c.GL_TEXTURE_2D, "Rect": getattr(c, "GL_TEXTURE_RECTANGLE", 0),
                      "1D": getattr(c, "GL_TEXTURE_1D", 0), "1DArray": getattr(c, "GL_TEXTURE_1D_ARRAY", 0),
                      "2DArray": c.GL_TEXTURE_2D_ARRAY}[kind]
            w = dims[0]
            h = dims[1] if kind in ("2D", "Rect", "2DArray") else 1
            layers = dims[2] if kind == "2DArray" else (dims[1] if kind == "1DArray" else 1)
            tex = self._new_texture(unit, target)
            self._params(target, c.GL_CLAMP_TO_EDGE, c.GL_NEAREST)
            if kind == "1DArray":
                img = T.depth_gradient(w, layers)
            else:
                img = T.depth_gradient(w, h)
            data = img.tobytes()
            if kind == "1D":
                c.glTexImage1D(target, 0, c.GL_DEPTH_COMPONENT, w, 0, c.GL_DEPTH_COMPONENT, c.GL_FLOAT, data)
            elif kind == "2DArray":
                c.glTexImage3D(target, 0, c.GL_DEPTH_COMPONENT, w, h, layers, 0, c.GL_DEPTH_COMPONENT,
                               c.GL_FLOAT, data * layers)
            else:
                c.glTexImage2D(target, 0, c.GL_DEPTH_COMPONENT, w, img.shape[0], 0, c.GL_DEPTH_COMPONENT,
                               c.GL_FLOAT, data)
            c.glTexParameteri(target, c.GL_TEXTURE_COMPARE_MODE, c.GL_COMPARE_REF_TO_TEXTURE)
            c.glTexParameteri(target, c.GL_TEXTURE_COMPARE_FUNC, c.GL_GREATER)
            err = c.glGetError()
            if err:
                raise _Fail(f"texture shadow{kind}: GL error 0x{err:x}")
            self.textures[unit] = (tex, w, h, layers)
            if kind == "2D":
                self._enable_tex2d()
            return
        m = re.fullmatch(r"texture rgbw (2DArray|1DArray) (\d+) \(([^)]*)\)", line)
        if m:
            kind, unit = m.group(1), int(m.group(2))
            dims = [int(v) for v in m.group(3).replace(",", " ").split()]
            w, h, layers = (dims[0], dims[1], dims[2]) if kind == "2DArray" else (dims[0], 1, dims[1])
            target = c.GL_TEXTURE_2D_ARRAY if kind == "2DArray" else c.GL_TEXTURE_1D_ARRAY
            tex = self._new_texture(unit, target)
            self._params(target, c.GL_CLAMP_TO_EDGE, c.GL_NEAREST)
            img = T.array_layers(w, h, layers)
            if kind == "2DArray":
                c.glTexImage3D(target, 0, c.GL_RGBA, w, h, layers, 0, c.GL_RGBA, c.GL_FLOAT, img.tobytes())
            else:
                c.glTexImage2D(target, 0, c.GL_RGBA, w, layers, 0, c.GL_RGBA, c.GL_FLOAT, img.tobytes())
            self.textures[unit] = (tex, w, h, layers)
            return
        m = re.fullmatch(r"texture rgbw (1D|3D) (\d+)", line)
        if m:
            kind, unit = m.group(1), int(m.group(2))
            target = c.GL_TEXTURE_1D if kind == "1D" else c.GL_TEXTURE_3D
            tex = self._new_texture(unit, target)
            self._params(target, c.GL_CLAMP_TO_EDGE, c.GL_NEAREST)
            if kind == "1D":
                c.glTexImage1D(target, 0, c.GL_RGBA, 4, 0, c.GL_RGBA, c.GL_FLOAT, T.rgbw_1d().tobytes())
                self.textures[unit] = (tex, 4, 1, 1)
            else:
                c.glTexParameteri(target, c.GL_TEXTURE_WRAP_R, c.GL_CLAMP_TO_EDGE)
                c.glTexImage3D(target, 0, c.GL_RGBA, 2, 2, 2, 0, c.GL_RGBA, c.GL_FLOAT, T.rgbw_3d().tobytes())
                self.textures[unit] = (tex, 2, 2, 2)
            return
        m = re.fullmatch(r"texture integer (\d+) \(\s*(\d+)\s*,\s*(\d+)\s*\) \(\s*(-?\d+)\s*,\s*(-?\d+)\s*\) (\S+)",
                         line)
        if m:
            unit, w, h, b, a = (int(m.group(i)) for i in range(1, 6))
            tex = self._new_texture(unit, c.GL_TEXTURE_2D)
            self._params(c.GL_TEXTURE_2D, c.GL_CLAMP_TO_EDGE, c.GL_NEAREST)
            c.glTexImage2D(c.GL_TEXTURE_2D, 0, self.enum(m.group(6)), w, h, 0, c.GL_RGBA_INTEGER, c.GL_INT,
                           T.integer_image(w, h, b, a).tobytes())
            self.textures[unit] = (tex, w, h, 1)
            return
        m = re.fullmatch(r"texture storage (\d+) (\S+) (\S+) \(([^)]*)\)", line)
        if m:
            unit = int(m.group(1))
            target, fmt = self.enum(m.group(2)), self.enum(m.group(3))
            nums = [int(v) for v in m.group(4).replace(",", " ").split()]
            tex = self._new_texture(unit, target)
            levels, dims = nums[0], nums[1:]
            if len(dims) == 1:
                c.glTexStorage1D(target, levels, fmt, *dims)
            elif len(dims) == 2:
                c.glTexStorage2D(target, levels, fmt, *dims)
            else:
                c.glTexStorage3D(target, levels, fmt, *dims)
            if c.glGetError():
                raise _Fail("glTexStorage error")
            w, h, d = (dims + [1, 1])[:3]
            self.textures[unit] = (tex, w, h, d)
            return
        raise _Skip(f"texture command not supported by this runner: {line}")

    def texparameter(self, rest: str) -> None:
        c = self.ctx
        words = rest.split()
        if len(words) < 3:
            raise _Fail(f"unknown texture parameter in `{rest}'")
        target_names = {"1D": "GL_TEXTURE_1D", "2D": "GL_TEXTURE_2D", "3D": "GL_TEXTURE_3D",
                        "Rect": "GL_TEXTURE_RECTANGLE", "Cube": "GL_TEXTURE_CUBE_MAP",
                        "1DArray": "GL_TEXTURE_1D_ARRAY", "2DArray": "GL_TEXTURE_2D_ARRAY",
                        "CubeArray": "GL_TEXTURE_CUBE_MAP_ARRAY", "2DMS": "GL_TEXTURE_2D_MULTISAMPLE",
                        "Buffer": "GL_TEXTURE_BUFFER"}
        target = self.enum(target_names.get(words[0], words[0]))
        param, value = words[1], words[2]
        tables = {
            "compare_func": ("GL_TEXTURE_COMPARE_FUNC", {"greater": "GL_GREATER", "gequal": "GL_GEQUAL",
                             "less": "GL_LESS", "lequal": "GL_LEQUAL", "equal": "GL_EQUAL",
                             "notequal": "GL_NOTEQUAL", "never": "GL_NEVER", "always": "GL_ALWAYS"}),
            "depth_mode": ("GL_DEPTH_TEXTURE_MODE", {"intensity": "GL_INTENSITY", "luminance": "GL_LUMINANCE",
                           "alpha": "GL_ALPHA", "red": "GL_RED"}),
            "min": ("GL_TEXTURE_MIN_FILTER", {k: "GL_" + k.upper() for k in (
                "nearest_mipmap_nearest", "linear_mipmap_nearest", "nearest_mipmap_linear",
                "linear_mipmap_linear", "nearest", "linear")}),
            "mag": ("GL_TEXTURE_MAG_FILTER", {"nearest": "GL_NEAREST", "linear": "GL_LINEAR"}),
            "wrap_s": ("GL_TEXTURE_WRAP_S", None), "wrap_t": ("GL_TEXTURE_WRAP_T", None),
            "wrap_r": ("GL_TEXTURE_WRAP_R", None),
            "swizzle_r": ("GL_TEXTURE_SWIZZLE_R", {"red": "GL_RED", "green": "GL_GREEN",
                          "blue": "GL_BLUE", "alpha": "GL_ALPHA"}),
        }
        if param in ("wrap_s", "wrap_t", "wrap_r"):
            tables[param] = (tables[param][0], {"repeat": "GL_REPEAT", "clamp_to_edge": "GL_CLAMP_TO_EDGE",
                                                "clamp_to_border": "GL_CLAMP_TO_BORDER"})
        if param == "lod_bias":
            if self.api.es:
                raise _Skip("lod_bias feature is only available in desktop GL")
            c.glTexParameterf(target, c.GL_TEXTURE_LOD_BIAS, float(value))
        elif param in ("max_level", "base_level"):
            c.glTexParameteri(target, self.enum(f"GL_TEXTURE_{param.upper()}"), int(value))
        elif param == "border_color":
            c.glTexParameterfv(target, c.GL_TEXTURE_BORDER_COLOR, parse_floats(" ".join(words[2:]), 4))
        elif param in tables:
            pname, table = tables[param]
            if value not in table:
                raise _Fail(f"Bad {param} at: {value}")
            c.glTexParameteri(target, self.enum(pname), self.enum(table[value]))
        else:
            raise _Fail(f"unknown texture parameter in `{rest}'")
        err = c.glGetError()
        if err:     # piglit does not check this error either: the probes decide
            self.messages.append(f"note: texparameter {rest}: GL error 0x{err:x}")

    # -- buffers: ssbo / atomic counters -----------------------------------------------
    def _buffer_read(self, target, buf, offset, size) -> bytes:
        c = self.ctx
        c.glBindBufferBase(target, 0, buf) if target == c.GL_SHADER_STORAGE_BUFFER else c.glBindBuffer(target, buf)
        c.glBindBuffer(target, buf)
        view = c.glMapBufferRange(target, offset, size, c.GL_MAP_READ_BIT)
        if view is None:
            raise _Fail("Couldn't map buffer to verify expected value.")
        data = bytes(view)[:size]
        c.glUnmapBuffer(target)
        return data

    # -- the [test] commands -------------------------------------------------------------
    def run_command(self, cmd: Command) -> None:  # noqa: C901 - one dispatch, like piglit's
        c = self.ctx
        line = cmd.text
        for p in UNSUPPORTED_PREFIXES:
            if line.startswith(p):
                raise _Skip(f"command not supported by this runner: {line!r}")
        words = line.split()
        if line.startswith("clear color"):
            c.glClearColor(*parse_floats(line[len("clear color"):], 4))
            self.clear_bits |= c.GL_COLOR_BUFFER_BIT
        elif line.startswith("clear depth"):
            d = parse_floats(line[len("clear depth"):], 1)[0]
            (c.glClearDepthf if self.api.es else c.glClearDepth)(d)
            self.clear_bits |= c.GL_DEPTH_BUFFER_BIT
        elif line == "clear" or line.startswith("clear "):
            c.glClear(self.clear_bits)
        elif line.startswith("draw rect tex "):
            v = parse_floats(line[len("draw rect tex "):], 8)
            self.draw_rect(*v[:4], tex=v[4:8])
        elif line.startswith("draw rect ortho "):
            x, y, w, h = parse_floats(line[len("draw rect ortho "):], 4)
            self.draw_rect(-1 + 2 * x / self.render_w, -1 + 2 * y / self.render_h,
                           2 * w / self.render_w, 2 * h / self.render_h)
        elif line.startswith("draw rect "):
            self.draw_rect(*parse_floats(line[len("draw rect "):], 4))
        elif line.startswith("draw instanced rect ortho "):
            v = parse_floats(line[len("draw instanced rect ortho "):], 5)
            n, (x, y, w, h) = int(v[0]), v[1:5]
            self.draw_rect(-1 + 2 * x / self.render_w, -1 + 2 * y / self.render_h,
                           2 * w / self.render_w, 2 * h / self.render_h, instances=n)
        elif line.startswith("draw instanced rect "):
            v = parse_floats(line[len("draw instanced rect "):], 5)
            self.draw_rect(*v[1:5], instances=int(v[0]))
        elif line.startswith("draw arrays instanced "):
            mode, first, count, n = words[3], int(words[4]), int(words[5]), int(words[6])
            self.draw_arrays_check(first, count)
            c.glDrawArraysInstanced(self.mode(mode), first, count, n)
        elif line.startswith("draw arrays "):
            mode, first, count = words[2], int(words[3]), int(words[4])
            m = self.mode(mode)
            self.draw_arrays_check(first, count)
            c.glDrawArrays(m, first, count)
        elif line.startswith("draw elements "):
            mode, count, base = words[2], int(words[3]), int(words[4])
            self.must_be_linked()
            if not self.elements or count > len(self.elements):
                raise _Fail("draw elements cannot draw beyond the [elements] section")
            self.bind_vao_if_needed()
            if base > 0:
                c.glDrawElementsBaseVertex(self.mode(mode), count, c.GL_UNSIGNED_SHORT, 0, base)
            else:
                c.glDrawElements(self.mode(mode), count, c.GL_UNSIGNED_SHORT, 0)
        elif line.startswith(("enable ", "disable ")):
            cap = self.enum(words[1])
            (c.glEnable if words[0] == "enable" else c.glDisable)(cap)
            err = c.glGetError()
            if err:
                raise _Skip(f"{words[0]} {words[1]}: GL error 0x{err:x} (not supported by this context)")
        elif line.startswith("depthfunc "):
            c.glDepthFunc(self.enum(words[1]))
        elif line.startswith("blend func "):
            vals = [self.enum(w) for w in words[2:]]
            (c.glBlendFunc if len(vals) == 2 else c.glBlendFuncSeparate)(*vals)
        elif line.startswith("polygon mode "):
            if self.api.es:
                raise _Skip("polygon mode is desktop-only")
            c.glPolygonMode(self.enum(words[2]), self.enum(words[3]))
            if c.glGetError():
                raise _Fail("glPolygonMode error")
        elif line.startswith("clip plane "):
            if not self.api.compat:
                raise _Skip("clip plane needs a compatibility context")
            i = int(words[2])
            c.glClipPlane(c.GL_CLIP_PLANE0 + i, parse_floats(" ".join(words[3:]), 4))
        elif line.startswith("shade model "):
            if not self.api.compat:
                raise _Skip("shade model needs a compatibility context")
            c.glShadeModel(c.GL_FLAT if words[2] == "flat" else c.GL_SMOOTH)
        elif words[0] == "ortho":
            if not self.api.compat:
                raise _Skip("ortho needs fixed-function matrices (compatibility context)")
            v = parse_floats(line[5:], 4)
            l_, r_, b_, t_ = v if len(v) == 4 else (0, self.render_w, 0, self.render_h)
            c.glMatrixMode(c.GL_PROJECTION)
            c.glLoadIdentity()
            c.glOrtho(l_, r_, b_, t_, -1, 1)
            c.glMatrixMode(c.GL_MODELVIEW)
            c.glLoadIdentity()
        elif words[0] == "frustum":
            if not self.api.compat:
                raise _Skip("frustum needs fixed-function matrices (compatibility context)")
            v = parse_floats(line[7:], 6)
            c.glMatrixMode(c.GL_PROJECTION)
            c.glLoadIdentity()
            c.glFrustum(*v)
            c.glMatrixMode(c.GL_MODELVIEW)
            c.glLoadIdentity()
        elif words[0] == "color":
            c.glColor4f(*parse_floats(line[6:], 4))
        elif words[0] == "texcoord":
            v = parse_floats(line[9:])
            c.glMultiTexCoord4f(c.GL_TEXTURE0 + int(v[0]), *v[1:5])
        elif words[0] == "tolerance":
            self.tolerance = parse_floats(line[9:], 4)
        elif line.startswith("probe rgba "):
            v = parse_floats(line[11:], 6)
            self.probe_pixel(v[0], v[1], v[2:6])
        elif line.startswith("probe rgb "):
            v = parse_floats(line[10:], 5)
            self.probe_pixel(v[0], v[1], v[2:5])
        elif line.startswith(("probe all rgba", "probe warn all rgba")):
            v = parse_floats(line.split("rgba", 1)[1], 4)
            try:
                self.probe_rect(0, 0, self.read_w, self.read_h, v)
            except ProbeFailure:
                if line.startswith("probe warn"):
                    raise _Warn(f"probe warn all rgba failed") from None
                raise
        elif line.startswith("probe all rgb"):
            self.probe_rect(0, 0, self.read_w, self.read_h, parse_floats(line[13:], 3))
        elif line.startswith("probe rect rgba int"):
            raise _Skip("probe rect rgba int is not supported by this runner")
        elif line.startswith("probe rect rgba "):
            v = parse_floats(line[16:], 8)
            self.probe_rect(*v[:4], v[4:8])
        elif line.startswith("probe rect rgb "):
            v = parse_floats(line[15:], 7)
            self.probe_rect(*v[:4], v[4:7])
        elif line.startswith("relative probe rect rgb"):
            rgba = line.startswith("relative probe rect rgba")
            v = parse_floats(line[24 if rgba else 23:], 8 if rgba else 7)
            self.probe_rect(v[0] * self.read_w, v[1] * self.read_h, v[2] * self.read_w,
                            v[3] * self.read_h, v[4:])
        elif line.startswith("relative probe rgb"):
            rgba = line.startswith("relative probe rgba")
            v = parse_floats(line[19 if rgba else 18:], 6 if rgba else 5)
            x = min(int(v[0] * self.read_w), self.read_w - 1)
            y = min(int(v[1] * self.read_h), self.read_h - 1)
            self.probe_pixel(x, y, v[2:])
        elif words[0] == "uniform":
            self.set_uniform(line[8:])
        elif line.startswith("active uniform "):
            self.active_uniform(words[2:])
        elif line.startswith("verify program_query"):
            pname, expected = self.enum(words[2]), words[3]
            exp = getattr(c, expected) if expected.startswith("GL_") else int(expected, 0)
            got = c.glGetProgramiv(self.prog, pname)[0]
            if got != exp:
                raise _Fail(f"glGetProgram({words[2]}): expected {exp}, got {got}")
        elif line.startswith("texture "):
            self.texture_command(re.sub(r"\s+", " ", line))
        elif line.startswith("texparameter "):
            self.texparameter(line[13:])
        elif words[0] == "compute":
            self.must_be_linked()
            x, y, z = (int(w) for w in words[1:4])
            c.glMemoryBarrier(c.GL_ALL_BARRIER_BITS)
            c.glDispatchCompute(x, y, z)
            c.glMemoryBarrier(c.GL_ALL_BARRIER_BITS)
            err = c.glGetError()
            if err:
                raise _Fail(f"glDispatchCompute: GL error 0x{err:x}")
        elif re.fullmatch(r"ssbo \d+ \d+", line):
            i, size = int(words[1]), int(words[2])
            buf = c.glGenBuffers(1)[0]
            c.glBindBufferBase(c.GL_SHADER_STORAGE_BUFFER, i, buf)
            c.glBufferData(c.GL_SHADER_STORAGE_BUFFER, size, bytes(size), c.GL_DYNAMIC_DRAW)
            self.ssbos[i] = buf
        elif re.match(r"ssbo \d+ subdata ", line):
            i, typ, off = int(words[1]), words[3], int(words[4])
            fmt = {"float": ("f", parse_floats), "int": ("i", parse_ints), "uint": ("I", parse_uints)}
            if typ not in fmt:
                raise _Skip(f"ssbo subdata {typ} is not supported by this runner")
            data = struct.pack("=" + fmt[typ][0], fmt[typ][1](" ".join(words[5:]), 1)[0])
            c.glBindBuffer(c.GL_SHADER_STORAGE_BUFFER, self.ssbos[i])
            c.glBufferSubData(c.GL_SHADER_STORAGE_BUFFER, off, len(data), data)
        elif line.startswith("probe ssbo "):
            typ, i, off, op, val = words[2], int(words[3]), int(words[4]), words[5], words[6]
            fmt = {"uint": ("I", lambda s: parse_uints(s, 1)[0]), "int": ("i", lambda s: parse_ints(s, 1)[0]),
                   "float": ("f", lambda s: parse_floats(s, 1)[0])}[typ]
            raw = self._buffer_read(c.GL_SHADER_STORAGE_BUFFER, self.ssbos[i], off, 4)
            got = struct.unpack("=" + fmt[0], raw)[0]
            want = fmt[1](val)
            ok = (abs(got - want) < 2.220446049250313e-16 if op == "==" else
                  abs(got - want) >= 2.220446049250313e-16 if op == "!=" else _cmp(op, got, want)) \
                if typ == "float" else _cmp(op, got, want)
            if not ok:
                raise ProbeFailure(f"SSBO {off} test failed: Reference {op} Observed\n"
                                   f"  Reference: {want}\n  Observed:  {got}")
        elif line.startswith("atomic counters "):
            n = int(words[2])
            buf = c.glGenBuffers(1)[0]
            c.glBindBufferBase(c.GL_ATOMIC_COUNTER_BUFFER, 0, buf)
            c.glBufferData(c.GL_ATOMIC_COUNTER_BUFFER, 4 * n, bytes(4 * n), c.GL_STATIC_DRAW)
            self.atomic_bufs[0] = buf
        elif line.startswith("atomic counter buffer "):
            i, n = int(words[3]), int(words[4])
            buf = c.glGenBuffers(1)[0]
            c.glBindBufferBase(c.GL_ATOMIC_COUNTER_BUFFER, i, buf)
            c.glBufferData(c.GL_ATOMIC_COUNTER_BUFFER, 4 * n, bytes(4 * n), c.GL_STATIC_DRAW)
            self.atomic_bufs[i] = buf
        elif line.startswith("atomic counter "):
            i, idx, val = int(words[2]), int(words[3]), int(words[4])
            c.glBindBufferBase(c.GL_ATOMIC_COUNTER_BUFFER, i, self.atomic_bufs[i])
            c.glBufferSubData(c.GL_ATOMIC_COUNTER_BUFFER, 4 * idx, 4, struct.pack("=I", val))
        elif line.startswith("probe atomic counter"):
            if words[3] == "buffer":
                i, off, op, val = int(words[4]), int(words[5]), words[6], int(words[7], 0)
            else:
                i, off, op, val = 0, 4 * int(words[3]), words[4], int(words[5], 0)
            raw = self._buffer_read(c.GL_ATOMIC_COUNTER_BUFFER, self.atomic_bufs[i], off, 4)
            got = struct.unpack("=I", raw)[0]
            if not _cmp(op, got, val):
                raise ProbeFailure(f"Atomic counter {off // 4} test failed: Reference {op} Observed\n"
                                   f"  Reference: {val}\n  Observed:  {got}")
        elif line.startswith("image texture "):
            unit, fmt = int(words[2]), self.enum(words[3])
            if unit not in self.textures:
                raise _Fail(f"No texture bound at {unit}")
            c.glBindImageTexture(unit, self.textures[unit][0], 0, False, 0, c.GL_READ_WRITE, fmt)
        elif line.startswith("memory barrier "):
            c.glMemoryBarrier(self.enum(words[2]) if words[2].startswith("GL_") else c.GL_ALL_BARRIER_BITS)
        elif line.startswith("fb "):
            self.fb_command(words[1:])
        elif line.startswith("link error"):
            if self.link_ok:
                raise _Fail("shader link error expected, but it was successful!")
            self.link_error_expected = True
        elif line.startswith("link success"):
            self.must_be_linked()
        elif line.startswith("provoking vertex "):
            c.glProvokingVertex(c.GL_FIRST_VERTEX_CONVENTION if words[2] == "first"
                                else c.GL_LAST_VERTEX_CONVENTION)
        elif line.startswith("patch parameter vertices "):
            c.glPatchParameteri(c.GL_PATCH_VERTICES, int(words[3]))
        elif line.startswith("patch parameter default level "):
            outer = words[4] == "outer"
            c.glPatchParameterfv(c.GL_PATCH_DEFAULT_OUTER_LEVEL if outer else c.GL_PATCH_DEFAULT_INNER_LEVEL,
                                 [float(w) for w in words[5:5 + (4 if outer else 2)]])
        elif words[0] == "hint":
            c.glHint(self.enum(words[1]), self.enum(words[2]))
        else:
            raise _Fail(f'unknown command "{line}"')

    def fb_command(self, words: list[str]) -> None:
        c = self.ctx
        target = c.GL_FRAMEBUFFER
        if words and words[0] in ("draw", "read"):
            target = c.GL_DRAW_FRAMEBUFFER if words[0] == "draw" else c.GL_READ_FRAMEBUFFER
            words = words[1:]
        if words[:2] == ["tex", "2d"]:
            fbo = c.glGenFramebuffers(1)[0]
            c.glBindFramebuffer(target, fbo)
            atts = []
            w = h = 0
            for n, t in enumerate(words[2:]):
                unit = int(t)
                att = c.GL_COLOR_ATTACHMENT0 + n
                name = 0 if unit == -1 else self.textures[unit][0]
                c.glFramebufferTexture2D(target, att, c.GL_TEXTURE_2D, name, 0)
                atts.append(att)
                if unit != -1:
                    w, h = self.textures[unit][1:3]
            if target != c.GL_READ_FRAMEBUFFER:
                c.glDrawBuffers(len(atts), atts)
        elif words[:1] == ["winsys"]:
            fbo = 0
            c.glBindFramebuffer(target, 0)
            w, h = self.width, self.height
        else:
            raise _Skip(f"fb subcommand not supported by this runner: {' '.join(words)}")
        status = c.glCheckFramebufferStatus(target)
        if status != c.GL_FRAMEBUFFER_COMPLETE:
            raise _Fail(f"incomplete fbo (status 0x{status:x})")
        if target != c.GL_READ_FRAMEBUFFER:
            self.render_w, self.render_h, self.draw_fbo = w, h, fbo
        if target != c.GL_DRAW_FRAMEBUFFER:
            self.read_w, self.read_h, self.read_fbo = w, h, fbo

    def active_uniform(self, words: list[str]) -> None:
        c = self.ctx
        name, pname_s, expected_s = words[0], words[1], words[2]
        pname = self.enum(pname_s)
        expected = getattr(c, expected_s) if expected_s.startswith("GL_") else int(expected_s, 0)
        n = c.glGetProgramiv(self.prog, c.GL_ACTIVE_UNIFORMS)[0]
        for i in range(n):
            uname, size, utype = c.glGetActiveUniform(self.prog, i)
            if uname != name:
                continue
            got = {c.GL_UNIFORM_TYPE: utype, c.GL_UNIFORM_SIZE: size,
                   c.GL_UNIFORM_NAME_LENGTH: len(uname)}.get(pname, expected)
            if got != expected:
                raise _Fail(f"glGetActiveUniform({name}, {pname_s}): expected {expected} (0x{expected:04x}), "
                            f"got {got} (0x{got:04x})")
            got = c.glGetActiveUniformsiv(self.prog, 1, [i], pname)
            if c.glGetError() or not got or got[0] != expected:
                raise _Fail(f"glGetActiveUniformsiv({name}, {pname_s}): expected {expected}, got {got}")
            return
        raise _Fail(f'No active uniform named "{name}"')

    # -- the whole run -------------------------------------------------------------------
    def run(self) -> str:
        status = "pass"
        self.link_error_expected = False
        for cmd in self.test.commands:
            try:
                self.run_command(cmd)
            except ProbeFailure as e:
                self.messages.append(str(e))
                self.messages.append(f"Test failure on line {cmd.line}: {cmd.text}")
                status = "fail"
            except _Warn as e:
                self.messages.append(str(e))
                if status == "pass":
                    status = "warn"
            except _Fail as e:
                self.messages.append(str(e))
                self.messages.append(f"Test failure on line {cmd.line}: {cmd.text}")
                status = "fail"
            except _Skip:
                raise
            except Exception as e:
                self.messages.append(f"line {cmd.line}: {cmd.text}: {type(e).__name__}: {e}")
                self.messages.append(traceback.format_exc(limit=-3).rstrip())
                self.messages.append(f"Test failure on line {cmd.line}: {cmd.text}")
                status = "fail"
        if not self.link_ok and not self.link_error_expected and self.prog:
            self.messages.append(f"Failed to link:\n{self.link_log}")
            status = "fail"
        return status


class _Warn(Exception):
    pass


def run(test: ShaderTest, api: str | None = None, png: str | None = None,
        context_factory=None) -> Result:
    """Run `test` on a fresh context (driver.Context unless `context_factory(api, w, h)` is given)."""
    from driver.gl.api import get_api
    t0 = time.perf_counter()
    api_name = api or choose_api(test)
    result = Result(api=api_name)
    ctx = None
    try:
        apiobj = get_api(api_name)
        w, h = test.size
        if context_factory is None:
            from driver import Context
            context_factory = lambda a, w, h: Context(api=a, width=w, height=h)  # noqa: E731
        ctx = context_factory(api_name, w, h)
        runner = Runner(test, ctx, apiobj)
        try:
            runner.check_requirements()
            runner.compile_and_link()
            runner.setup_vertex_data()
            runner.setup_ubos()
            result.status = runner.run()
        finally:
            result.messages.extend(runner.messages)
        if png:
            runner.ctx.glBindFramebuffer(runner.ctx.GL_READ_FRAMEBUFFER, 0)
            ctx.save_png(png)
    except _Skip as e:
        result.status = "skip"
        result.messages.append(str(e))
    except _Fail as e:
        result.status = "fail"
        result.messages.append(str(e))
    except Exception as e:
        result.status = "fail"
        result.messages.append(f"{type(e).__name__}: {e}")
        result.messages.append(traceback.format_exc(limit=-4).rstrip())
    finally:
        if ctx is not None and hasattr(ctx, "destroy"):
            try:
                ctx.destroy()
            except Exception:
                pass
    result.time_s = time.perf_counter() - t0
    return result


def run_file(path, api: str | None = None, png: str | None = None) -> Result:
    try:
        test = parse_file(path)
    except (OSError, ValueError) as e:
        return Result("fail", [str(e)])
    return run(test, api=api, png=png)
