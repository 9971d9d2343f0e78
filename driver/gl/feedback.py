"""Transform feedback layout (GL 4.6 section 11.1.2.1, GLES 3.2 section 11.1.2.1):
which vertex outputs a program captures, into which buffer, at which offset.

Sole responsibility: turn ``glTransformFeedbackVaryings`` names (whole outputs,
array elements ``a[2]``, members of structs and arrays of structs ``v[1].b[0]``,
built-ins, and on GL 4.0+ ``gl_NextBuffer`` and
``gl_SkipComponents1..4``) into a ``FeedbackLayout`` at link time, raising
``LinkError`` for what the specification makes a link error, and give the pipe's
stream-output state of a layout (``stream_output_info``). Everything else
(queries, buffer-space checks) reads the layout.

Vertex streams (ARB_transform_feedback3, ARB_gpu_shader5): each captured output
belongs to the geometry stage's vertex stream it was declared for; a buffer takes the
varyings of one stream only (a link error otherwise) and is written by that stream's
primitives (``FeedbackLayout.buffer_streams``, ``stream_output_info(layout, stream)``).
Members of an output block with an instance name are captured as ``Block.member``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from driver.gallium import StreamOutputInfo
from driver.gl import enums as E
from driver.gl.glsl import gl_type_enum

__all__ = ["FeedbackLayout", "FeedbackVarying", "feedback_layout", "qualifier_layout", "stage_outputs",
           "stream_output_info"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*")
_STEP = re.compile(r"\[(\d+)\]|\.([A-Za-z_][A-Za-z0-9_]*)")
_SKIP = {f"gl_SkipComponents{n}": n for n in range(1, 5)}
_WIDE = ("double", "int64", "uint64")      # captured as two 32-bit words a component


@dataclass(frozen=True)
class FeedbackVarying:
    """One name passed to glTransformFeedbackVaryings, as captured.

    ``output`` is the vertex output's name (None for gl_NextBuffer/gl_SkipComponents);
    ``slots`` the (location within the output, components) pairs written one after the
    other from dword ``offset_dw`` of the record in buffer ``buffer``."""
    name: str
    type: int               # GL type enum (GL_NONE for gl_NextBuffer / gl_SkipComponents)
    size: int               # array elements captured (components skipped for gl_SkipComponents)
    buffer: int
    offset_dw: int
    output: str | None
    slots: tuple[tuple[int, int], ...]
    stream: int = 0         # the vertex stream of the output

    @property
    def components(self) -> int:
        return sum(n for _s, n in self.slots)


@dataclass(frozen=True)
class FeedbackLayout:
    varyings: tuple[FeedbackVarying, ...]
    stride_dw: tuple[int, ...]              # record size per buffer used
    buffer_streams: tuple[int, ...] = ()    # the vertex stream writing each buffer (default 0)

    @property
    def buffers(self) -> int:
        return len(self.stride_dw)

    def stream_of(self, buffer: int) -> int:
        return self.buffer_streams[buffer] if buffer < len(self.buffer_streams) else 0

    @property
    def streams(self) -> frozenset:
        """The vertex streams some buffer captures."""
        return frozenset(self.stream_of(b) for b in range(self.buffers))

    def reported(self) -> list[FeedbackVarying]:
        """The entries glGetTransformFeedbackVarying enumerates (every name given)."""
        return list(self.varyings)


class FeedbackError(Exception):
    """A link error of the feedback varyings (the linker turns it into LinkError)."""


def stage_outputs(variables) -> tuple[dict, dict]:
    """(name -> GLSL type, name -> vertex stream) of a stage's output variables, with the
    members of block instances as ``Block.member``."""
    types, streams = {}, {}
    for v in variables:
        stream = (v.layout or {}).get("stream", 0)
        t = v.type.element if v.type.is_array and v.type.element.is_block else v.type
        if t.is_block:
            for f in t.fields:
                name = f"{t.name}.{f.name}"
                types[name] = f.type
                streams[name] = ((f.qualifiers or {}).get("layout") or {}).get("stream", stream)
            if not v.type.is_array:
                continue
        types[v.name], streams[v.name] = v.type, stream
    return types, streams


def feedback_layout(names, interleaved: bool, outputs: dict, *, advanced: bool,
                    max_buffers: int, max_separate: int, max_interleaved: int,
                    streams: dict | None = None) -> FeedbackLayout:
    """``outputs``: vertex output name -> GLSL type (built-ins included when written);
    ``streams``: output name -> vertex stream (default 0).
    ``advanced``: GL 4.0+ (ARB_transform_feedback3): gl_NextBuffer and gl_SkipComponents."""
    streams = streams or {}
    buffer_streams: dict[int, int] = {}
    out: list[FeedbackVarying] = []
    buffer, offset, seen = 0, 0, {}
    strides = [0]
    for name in names:
        if advanced and name == "gl_NextBuffer":
            if not interleaved:
                raise FeedbackError("gl_NextBuffer in SEPARATE_ATTRIBS mode")
            strides[buffer] = offset
            buffer, offset = buffer + 1, 0
            if buffer >= max_buffers:
                raise FeedbackError("gl_NextBuffer beyond MAX_TRANSFORM_FEEDBACK_BUFFERS")
            strides.append(0)
            out.append(FeedbackVarying(name, E.GL_NONE, 0, buffer, 0, None, ()))
            continue
        if advanced and name in _SKIP:
            if not interleaved:
                raise FeedbackError(f"{name} in SEPARATE_ATTRIBS mode")
            n = _SKIP[name]
            out.append(FeedbackVarying(name, E.GL_NONE, n, buffer, offset, None, ()))
            offset += n
            strides[buffer] = offset
            continue
        base, t, first = _resolve(name, outputs)
        el = t.element if t.is_array else t
        per_el = el.columns                       # columns per element (one output value each)
        # captured words per column: a double (int64) is two, and counts as two components
        # against the limits (GL 4.6 section 11.1.2.1)
        rows = el.vector_size * (2 if el.base in _WIDE else 1)
        size = (t.length or 1) if t.is_array else 1
        slots = tuple((first + k * per_el + c, rows) for k in range(size) for c in range(per_el))
        for slot, _rows in slots:
            if (base, slot) in seen:
                raise FeedbackError(f"`{name}' captured twice")
            seen[(base, slot)] = True
        comps = rows * len(slots)
        if not interleaved:
            if comps > max_separate:
                raise FeedbackError(f"`{name}' has {comps} components: more than "
                                    f"MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS ({max_separate})")
            buffer, offset = len(out), 0
            strides = strides + [0] * (buffer + 1 - len(strides))
        stream = streams.get(base, 0)
        if buffer_streams.setdefault(buffer, stream) != stream:
            raise FeedbackError(f"transform feedback buffer {buffer} would capture varyings of vertex streams "
                                f"{buffer_streams[buffer]} and {stream} (`{name}')")
        out.append(FeedbackVarying(name, gl_type_enum(el), size, buffer, offset, base, slots, stream))
        offset += comps
        strides[buffer] = offset
    if interleaved and sum(strides) > max_interleaved:
        raise FeedbackError(f"{sum(strides)} captured components: more than "
                            f"MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS ({max_interleaved})")
    if not interleaved and len(out) > max_buffers:
        raise FeedbackError("more separate varyings than MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS")
    return FeedbackLayout(tuple(out), tuple(strides),
                          tuple(buffer_streams.get(b, 0) for b in range(len(strides))))


def _entries(t) -> int:
    """The output values a type is captured from: one per vector, matrix column and
    array element, struct members in declaration order (``output_locations`` of the
    lowering walks a vertex output the same way)."""
    if t.is_array:
        return (t.length or 1) * _entries(t.element)
    if t.is_struct or t.is_block:
        return sum(_entries(f.type) for f in t.fields)
    return t.columns


def _resolve(name: str, outputs: dict) -> tuple:
    """(output name, type of the named part, its first entry within the output) of a
    glTransformFeedbackVaryings name: an output (``Block.member`` for a block instance's
    member) followed by array subscripts and struct member selections, e.g.
    ``v[2].b[1]`` (GL 4.6 section 11.1.2.1). The named part must be of a basic type or
    an array of one: a struct, an array of structs or of arrays is a link error (its
    members are captured by name)."""
    m = _NAME.match(name)
    base = m.group(0) if m else None
    rest = name[m.end():] if m else ""
    member = _NAME.match(rest[1:]) if rest.startswith(".") else None
    if member is not None and f"{base}.{member.group(0)}" in outputs:
        base, rest = f"{base}.{member.group(0)}", rest[1 + member.end():]
    if base not in outputs:
        raise FeedbackError(f"transform feedback varying `{name}' is not a vertex output")
    t, first, pos = outputs[base], 0, 0
    while pos < len(rest):
        step = _STEP.match(rest, pos)
        if step is None:
            raise FeedbackError(f"transform feedback varying `{name}' is not a vertex output")
        pos = step.end()
        if step.group(1) is not None:
            if not t.is_array:
                raise FeedbackError(f"`{name}': not an array where it is subscripted")
            k = int(step.group(1))
            if k >= (t.length or 1):
                raise FeedbackError(f"`{name}': index out of bounds")
            first += k * _entries(t.element)
            t = t.element
        else:
            fields = [f for f in t.fields] if t.is_struct else []
            names = [f.name for f in fields]
            if step.group(2) not in names:
                raise FeedbackError(f"transform feedback varying `{name}' is not a vertex output")
            k = names.index(step.group(2))
            first += sum(_entries(f.type) for f in fields[:k])
            t = fields[k].type
    el = t.element if t.is_array else t
    if el.is_struct or el.is_block or el.is_array:
        raise FeedbackError(f"transform feedback varying `{name}' is a struct or an array of structs or "
                            "arrays: its members are captured by name")
    return base, t, first


def stream_output_info(layout, stream: int | None = None) -> tuple:
    """(names of the captured outputs, ``StreamOutputInfo``) of a program's
    ``FeedbackLayout``: one entry per captured location of an output, register index =
    index into the names (``info["stream_outputs"]``). The last vertex-processing stage
    captures with it (the vertex stage, or the geometry passes' pass-through program).
    ``stream``: only the buffers that vertex stream writes (the others get stride 0: the
    pipe leaves them alone)."""
    names, outputs = [], []
    for v in layout.varyings:
        if v.output is None or (stream is not None and layout.stream_of(v.buffer) != stream):
            continue
        if v.output not in names:
            names.append(v.output)
        dst = v.offset_dw
        for slot, comps in v.slots:
            # at most 4 words an entry: a dvec3/dvec4 column (6/8 words) takes two
            for first in range(0, comps, 4):
                n = min(4, comps - first)
                outputs.append((names.index(v.output), first, n, v.buffer, dst, slot))
                dst += n
    strides = tuple(layout.stride_dw[b] if stream is None or layout.stream_of(b) == stream else 0
                    for b in range(layout.buffers)) + (0,) * (4 - layout.buffers)
    return tuple(names), StreamOutputInfo(tuple(outputs), strides)


def qualifier_layout(captures, strides_B: dict, *, max_buffers: int, max_interleaved: int) -> FeedbackLayout:
    """The ``FeedbackLayout`` of a program whose last vertex-processing stage names its
    own captures (``xfb_offset``/``xfb_buffer``/``xfb_stride``, ARB_enhanced_layouts;
    ``captures`` and ``strides_B`` from ``compiler.link.xfb_captures``). Buffers no
    output names have stride 0 (nothing is written there)."""
    out: list[FeedbackVarying] = []
    buffer_streams: dict[int, int] = {}
    for c in captures:
        t = c.type
        el = t.element if t.is_array else t
        length = (t.length or 1) if t.is_array else 1
        per_el = el.columns
        rows = el.vector_size * (2 if el.base in _WIDE else 1)
        slots = tuple((c.slot + k * per_el + col, rows) for k in range(length) for col in range(per_el))
        if buffer_streams.setdefault(c.buffer, c.stream) != c.stream:
            raise FeedbackError(f"transform feedback buffer {c.buffer} would capture varyings of vertex streams "
                                f"{buffer_streams[c.buffer]} and {c.stream} (`{c.name}')")
        out.append(FeedbackVarying(c.name, gl_type_enum(el), length if t.is_array else 1, c.buffer,
                                   c.offset_B // 4, c.output, slots, c.stream))
    used = max(strides_B) + 1 if strides_B else 0
    if used > max_buffers:
        raise FeedbackError(f"xfb_buffer {used - 1} beyond MAX_TRANSFORM_FEEDBACK_BUFFERS ({max_buffers})")
    stride_dw = tuple(strides_B.get(b, 0) // 4 if b in buffer_streams else 0 for b in range(used))
    for b, s in enumerate(stride_dw):
        if s > max_interleaved:
            raise FeedbackError(f"buffer {b} records {s} components: more than "
                                f"MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS ({max_interleaved})")
    return FeedbackLayout(tuple(out), stride_dw, tuple(buffer_streams.get(b, 0) for b in range(used)))
