"""The geometry stage's language rules (GLSL 1.50 sections 4.3.4, 4.3.6, 4.3.8.1-2, 7.1, 8.10).

A mixin of ``semantic.Analyzer``:

- ``layout(<input primitive>[, invocations = N]) in;`` names the input primitive
  (points, lines, lines_adjacency, triangles, triangles_adjacency); it sizes every
  geometry input array (``gl_in`` and the user inputs), which must be arrays: an
  unsized one takes the primitive's vertex count, a sized one must match it.
- ``layout(<output primitive>, max_vertices = N) out;`` names the output primitive
  (points, line_strip, triangle_strip) and the static bound on emitted vertices
  (at most ``gl_MaxGeometryOutputVertices``).
- Each may be given several times if the values agree.
- Vertex streams (GLSL 4.00 section 4.4.2.2, GL_ARB_gpu_shader5): ``layout(stream = N)``
  on an output, an output block (its members may repeat the block's stream only) or
  ``layout(stream = N) out;`` (the default stream of the outputs declared after it);
  every geometry output's stream ends up in its layout (``layout["stream"]``, block
  members in their field's layout). ``EmitStreamVertex(n)`` / ``EndStreamPrimitive(n)``
  take a constant ``n``; the streams they name are ``GeometryLayout.emit_streams``, checked
  at link time (``MAX_VERTEX_STREAMS``, points output), as Mesa does.

The result is ``GeometryLayout`` on the translation unit (``TranslationUnit.geometry``).
A missing input or output layout is a *link* error in GL (a stage may be made of
several shader objects); ``GeometryLayout.complete`` tells whether both are known.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import types as T
from .builtin_variables import limits
from .symbols import Variable

__all__ = ["INPUT_PRIMITIVES", "OUTPUT_PRIMITIVES", "MAX_VERTEX_STREAMS", "GeometryLayout", "GeometryRules",
           "with_redeclared_distances"]

# input primitive -> vertices per primitive (GLSL 1.50 section 4.3.8.1 table)
INPUT_PRIMITIVES = {"points": 1, "lines": 2, "lines_adjacency": 4, "triangles": 3, "triangles_adjacency": 6}
OUTPUT_PRIMITIVES = ("points", "line_strip", "triangle_strip")
PRIMITIVE_NAMES = frozenset(INPUT_PRIMITIVES) | frozenset(OUTPUT_PRIMITIVES)
# GL_MAX_VERTEX_STREAMS: the geometry stage's output streams (ARB_gpu_shader5 requires 4)
MAX_VERTEX_STREAMS = 4
STREAM_FUNCTIONS = ("EmitStreamVertex", "EndStreamPrimitive")


@dataclass(frozen=True)
class GeometryLayout:
    """The geometry shader's layout declarations (None: not declared in this unit)."""
    input: str | None = None
    output: str | None = None
    max_vertices: int | None = None
    invocations: int = 1
    emit_streams: frozenset = frozenset()       # constants given to EmitStreamVertex/EndStreamPrimitive

    @property
    def input_vertices(self) -> int | None:
        return INPUT_PRIMITIVES.get(self.input) if self.input else None

    @property
    def complete(self) -> bool:
        return self.input is not None and self.output is not None and self.max_vertices is not None



def with_redeclared_distances(per_vertex_array: T.GLSLType, redeclared: T.GLSLType) -> T.GLSLType:
    """An array of gl_PerVertex (gl_in[], gl_out[]) whose gl_ClipDistance and
    gl_CullDistance have the sizes a redeclaration of the block gave them (GLSL 1.50
    section 7.1: they may be sized explicitly), so that ``gl_in[i].gl_ClipDistance``
    has the declared type (a whole-array copy to a float[5] output, say). The other
    members stay: the records between the stages keep every member."""
    sizes = {f.name: f.type.length for f in redeclared.fields
             if f.name in ("gl_ClipDistance", "gl_CullDistance") and f.type.is_array and f.type.length}
    element = per_vertex_array.element
    if not sizes or not element.fields:
        return per_vertex_array
    fields = [replace(f, type=T.array_of(f.type.element, sizes[f.name])) if f.name in sizes else f
              for f in element.fields]
    return T.array_of(T.struct_type(element.name, fields), per_vertex_array.length)

class GeometryRules:
    """Mixin of ``semantic.Analyzer``: see the module docstring."""

    gs_input: str | None = None
    gs_output: str | None = None
    gs_max_vertices: int | None = None
    gs_invocations: int | None = None
    gs_default_stream: int = 0
    gs_emit_streams: frozenset = frozenset()

    def geometry_layout(self) -> GeometryLayout:
        return GeometryLayout(self.gs_input, self.gs_output, self.gs_max_vertices, self.gs_invocations or 1,
                              frozenset(self.gs_emit_streams))

    # ------------------------------------------------------------ vertex streams
    def streams_available(self) -> bool:
        return not self.version.es and (self.version.at_least(400) or "GL_ARB_gpu_shader5" in self.enabled)

    def check_stream(self, n: int, loc) -> bool:
        """A ``stream = n`` layout value (negative values are refused by the layout parser)."""
        if not self.streams_available():
            self.error(loc, "the stream layout qualifier requires GLSL 4.00 or GL_ARB_gpu_shader5")
            return False
        if n >= MAX_VERTEX_STREAMS:
            self.error(loc, f"stream value ({n}) is larger than MAX_VERTEX_STREAMS - 1 ({MAX_VERTEX_STREAMS - 1})")
            return False
        return True

    def geometry_output_stream(self, var: Variable, loc) -> None:
        """A global output of the geometry stage: its stream, explicit or the default."""
        if "stream" in var.layout and not self.check_stream(var.layout["stream"], loc):
            return
        var.layout = {**var.layout, "stream": var.layout.get("stream", self.gs_default_stream)}

    def block_stream(self, kind: str, block_layout: dict, loc) -> None:
        """An interface block's stream: ``block_layout`` (the block's layout, which its
        members inherit) gets the stream of a geometry output block."""
        if kind != "out" or self.stage != "geometry":
            if "stream" in block_layout:
                self.error(loc, "the stream layout qualifier may only be used on geometry shader outputs")
            return
        if "stream" in block_layout and not self.check_stream(block_layout["stream"], loc):
            del block_layout["stream"]
        block_layout.setdefault("stream", self.gs_default_stream)

    def member_stream(self, block_layout: dict, member_layout: dict, loc) -> None:
        """A block member may name its block's stream only (ARB_gpu_shader5)."""
        if "stream" not in member_layout:
            return
        if "stream" not in block_layout:
            self.error(loc, "the stream layout qualifier may only be used on geometry shader outputs")
        elif member_layout["stream"] != block_layout["stream"]:
            self.error(loc, f"stream layout qualifier on a member ({member_layout['stream']}) must match its "
                       f"block's stream ({block_layout['stream']})")

    def stream_call(self, call) -> None:
        """EmitStreamVertex(n) / EndStreamPrimitive(n): ``n`` is constant (checked with the
        other constant parameters); its range is a link-time check."""
        arg = call.args[0]
        if arg.const is not None:
            self.gs_emit_streams = self.gs_emit_streams | {int(arg.const[0])}

    def geometry_default_layout(self, loc, storage: str, layout: dict) -> bool:
        """``layout(...) in;`` / ``layout(...) out;`` with geometry identifiers; returns whether
        the declaration was one (errors reported)."""
        prims = [k for k in layout if k in PRIMITIVE_NAMES]
        extra = {"invocations"} if storage == "in" else {"max_vertices", "stream"}
        if storage == "in" and "stream" in layout and self.stage == "geometry":
            self.error(loc, "the stream layout qualifier may only be used on geometry shader outputs")
            return True
        if not prims and not (layout.keys() & extra):
            return False
        if self.stage != "geometry":
            self.error(loc, f"geometry shader layout qualifiers ({', '.join(sorted(layout))}) may only be "
                       "used in geometry shaders")
            return True
        allowed = set(INPUT_PRIMITIVES) if storage == "in" else set(OUTPUT_PRIMITIVES)
        for k in layout:
            if k not in allowed | extra:
                self.error(loc, f"layout qualifier `{k}' is not allowed on geometry shader "
                           f"{'inputs' if storage == 'in' else 'outputs'}")
                return True
        if len(prims) > 1:
            self.error(loc, f"more than one {'input' if storage == 'in' else 'output'} primitive type")
            return True
        if storage == "in":
            if prims:
                self._set_gs("gs_input", prims[0], loc, "input primitive type")
                self._size_geometry_inputs(loc)
            if "invocations" in layout:
                n = layout["invocations"]
                limit = limits()["gl_MaxGeometryShaderInvocations"]
                # GLSL ES: part of the geometry stage (GLSL ES 3.20, OES/EXT_geometry_shader)
                if not (self.version.at_least(400, 320) or "GL_ARB_gpu_shader5" in self.enabled
                        or (self.version.es and "GL_OES_geometry_shader" in self.enabled)):
                    self.error(loc, "invocations layout qualifier requires GLSL 4.00, GL_ARB_gpu_shader5, "
                               "GLSL ES 3.20 or GL_OES_geometry_shader")
                elif not 1 <= n <= limit:
                    self.error(loc, f"invocations ({n}) must be between 1 and {limit}")
                else:
                    self._set_gs("gs_invocations", n, loc, "invocations")
        else:
            if prims:
                self._set_gs("gs_output", prims[0], loc, "output primitive type")
            if "max_vertices" in layout:
                n = layout["max_vertices"]
                limit = limits()["gl_MaxGeometryOutputVertices"]
                if n > limit:
                    self.error(loc, f"max_vertices ({n}) exceeds gl_MaxGeometryOutputVertices ({limit})")
                else:
                    self._set_gs("gs_max_vertices", n, loc, "max_vertices")
            if "stream" in layout and self.check_stream(layout["stream"], loc):
                self.gs_default_stream = layout["stream"]
        return True

    def _set_gs(self, attr: str, value, loc, what: str) -> None:
        old = getattr(self, attr)
        if old is not None and old != value:
            self.error(loc, f"geometry shader {what} ({value}) conflicts with an earlier declaration ({old})")
            return
        setattr(self, attr, value)

    def geometry_input(self, var: Variable, loc) -> None:
        """A global ``in`` of the geometry stage: an array sized by the input primitive."""
        if var.builtin:
            return
        t = var.type
        if not t.is_array:
            self.error(loc, f"geometry shader input `{var.name}' must be declared as an array")
            return
        n = INPUT_PRIMITIVES.get(self.gs_input) if self.gs_input else None
        if n is None:
            return
        if t.length is None:
            var.type = T.array_of(t.element, n)
        elif t.length != n:
            self.error(loc, f"size of array `{var.name}' declared as {t.length}, but the input primitive "
                       f"{self.gs_input} has {n} vertices")

    def redeclare_gl_in(self, var: Variable, loc) -> None:
        """``in gl_PerVertex { ... } gl_in[];`` (GLSL 1.50 section 7.1): a redeclaration of
        the built-in input block; its members must be the built-in block's, with their types."""
        builtin = self.symbols.lookup("gl_in")
        if var.block.block_name != "gl_PerVertex" or not isinstance(builtin, Variable):
            self.error(loc, "gl_in can only be redeclared as `in gl_PerVertex { ... } gl_in[]'")
            return
        if builtin.used:
            self.error(loc, "gl_in redeclared after it was used")
        known = {f.name: f.type for f in builtin.type.element.fields}
        inner = var.type.element if var.type.is_array else var.type
        for f in inner.fields:
            want = known.get(f.name)
            if f.name in ("gl_ClipDistance", "gl_CullDistance", "gl_TexCoord") and f.type.is_array and \
                    want is not None and f.type.element == want.element and (f.type.length or 0) <= want.length:
                continue            # may be sized explicitly (GLSL 1.50 section 7.1)
            if want != f.type:
                self.error(loc, f"`{f.name}' is not a member of the built-in block gl_PerVertex")
        if not var.type.is_array:
            self.error(loc, "gl_in must be redeclared as an array")
            return
        builtin.type = with_redeclared_distances(builtin.type, inner)
        if var.type.length is not None and builtin.type.length is not None and \
                var.type.length != builtin.type.length:
            self.error(loc, f"size of gl_in redeclared as {var.type.length}, but the input primitive "
                       f"{self.gs_input} has {builtin.type.length} vertices")

    def _size_geometry_inputs(self, loc) -> None:
        """The input primitive is now known: size the unsized inputs, check the sized ones."""
        n = INPUT_PRIMITIVES[self.gs_input]
        for var in [v for v in self.globals if v.storage == "in"] + [self.symbols.lookup("gl_in")]:
            if not isinstance(var, Variable) or not var.type.is_array:
                continue
            if var.type.length is None:
                used = self.implicit_arrays.get(var)
                if used is not None and used[0] > n:
                    self.error(loc, f"`{var.name}' is indexed with {used[0] - 1}, but the input primitive "
                               f"{self.gs_input} has {n} vertices")
                var.type = T.array_of(var.type.element, n)
                for ref in (used[1] if used is not None else ()):
                    ref.type = var.type
            elif var.type.length != n:
                self.error(loc, f"size of array `{var.name}' declared as {var.type.length}, but the input "
                           f"primitive {self.gs_input} has {n} vertices")
