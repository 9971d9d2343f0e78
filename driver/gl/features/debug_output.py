"""KHR_debug / GL 4.3 debug output (GL 4.6 chapter 20): messages from the GL
(its errors, the shader compiler, the driver) and the application, filtered
by message control, delivered to a callback or kept in a bounded log; debug
groups scope the control; object labels.

State lives in ``ctx._debug`` (``DebugState``). ``ctx._debug_message(...)``
is how any part of the front end sends a message.
"""

from __future__ import annotations

import sys
import weakref
from dataclasses import dataclass, field

from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import context_method, entry_point

__all__ = ["DebugState", "MAX_LOGGED_MESSAGES", "MAX_MESSAGE_LENGTH", "MAX_GROUP_DEPTH"]

MAX_LOGGED_MESSAGES = 64        # GL_MAX_DEBUG_LOGGED_MESSAGES
MAX_MESSAGE_LENGTH = 4096       # GL_MAX_DEBUG_MESSAGE_LENGTH
MAX_GROUP_DEPTH = 64            # GL_MAX_DEBUG_GROUP_STACK_DEPTH
MAX_LABEL_LENGTH = 256          # GL_MAX_LABEL_LENGTH

SOURCES = (E.GL_DEBUG_SOURCE_API, E.GL_DEBUG_SOURCE_WINDOW_SYSTEM, E.GL_DEBUG_SOURCE_SHADER_COMPILER,
           E.GL_DEBUG_SOURCE_THIRD_PARTY, E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_SOURCE_OTHER)
TYPES = (E.GL_DEBUG_TYPE_ERROR, E.GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR, E.GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR,
         E.GL_DEBUG_TYPE_PORTABILITY, E.GL_DEBUG_TYPE_PERFORMANCE, E.GL_DEBUG_TYPE_OTHER,
         E.GL_DEBUG_TYPE_MARKER, E.GL_DEBUG_TYPE_PUSH_GROUP, E.GL_DEBUG_TYPE_POP_GROUP)
SEVERITIES = (E.GL_DEBUG_SEVERITY_HIGH, E.GL_DEBUG_SEVERITY_MEDIUM, E.GL_DEBUG_SEVERITY_LOW,
              E.GL_DEBUG_SEVERITY_NOTIFICATION)


@dataclass(frozen=True)
class _Rule:
    """One glDebugMessageControl call: None matches anything."""
    source: int | None
    type: int | None
    severity: int | None
    ids: frozenset[int] | None
    enabled: bool

    def matches(self, source, type, id, severity) -> bool:
        return ((self.source is None or self.source == source) and (self.type is None or self.type == type)
                and (self.severity is None or self.severity == severity)
                and (self.ids is None or id in self.ids))


@dataclass
class _Group:
    source: int
    id: int
    message: str
    rules: list = field(default_factory=list)


@dataclass
class DebugState:
    callback: object = None
    user: object = None
    log: list = field(default_factory=list)       # (source, type, id, severity, message)
    groups: list = field(default_factory=lambda: [_Group(0, 0, "")])
    labels: dict = field(default_factory=dict)
    callback_failed: bool = False       # reported once on stderr

    # the keys earlier code reads with ``d["..."]``
    def __getitem__(self, key):
        return getattr(self, key)

    def enabled(self, source, type, id, severity) -> bool:
        """GL 4.6 section 20.4: all messages but LOW severity ones are enabled
        at first; the control rules of the current group apply in order."""
        on = severity != E.GL_DEBUG_SEVERITY_LOW
        for rule in self.groups[-1].rules:
            if rule.matches(source, type, id, severity):
                on = rule.enabled
        return on


def _has_debug(ctx) -> None:
    check(ctx.api.has_extension("GL_KHR_debug") or ctx.api.gl(4, 3), E.GL_INVALID_OPERATION,
          "debug output needs GL 4.3, GLES 3.2 or KHR_debug")


@context_method
def _debug_state(ctx) -> DebugState:
    if getattr(ctx, "_debug", None) is None:
        ctx._debug = DebugState()
    return ctx._debug


@context_method
def _debug_message(ctx, source, kind, id, severity, msg) -> None:
    """Send one message (GL 4.6 section 20.1): dropped when debug output is
    disabled or message control disables it; else to the callback, or to the
    log while it has room (a full log drops new messages)."""
    if E.GL_DEBUG_OUTPUT not in ctx.state.enabled:
        return
    d = _debug_state(ctx)
    if not d.enabled(source, kind, id, severity):
        return
    msg = str(msg)[:MAX_MESSAGE_LENGTH - 1]
    cb = d.callback
    if cb is None:
        if len(d.log) < MAX_LOGGED_MESSAGES:
            d.log.append((source, kind, id, severity, msg))
        return
    try:
        cb(source, kind, id, severity, len(msg), msg, d.user)
    except Exception as exc:       # the application's callback failed: the GL call goes on
        if not d.callback_failed:
            d.callback_failed = True
            print(f"shimgl: the KHR_debug callback failed ({type(exc).__name__}: {exc}); "
                  "its messages are dropped", file=sys.stderr)


def _text(buf, length) -> str:
    text = buf.decode() if isinstance(buf, (bytes, bytearray)) else str(buf)
    return text if length is None or length < 0 else text[:length]


@entry_point
def glDebugMessageCallback(ctx, callback, userParam):
    _has_debug(ctx)
    d = _debug_state(ctx)
    d.callback, d.user, d.callback_failed = callback, userParam, False


@entry_point
def glDebugMessageControl(ctx, source, type, severity, count, ids, enabled):
    _has_debug(ctx)
    check(source in SOURCES or source == E.GL_DONT_CARE, E.GL_INVALID_ENUM, f"bad source {source:#x}")
    check(type in TYPES or type == E.GL_DONT_CARE, E.GL_INVALID_ENUM, f"bad type {type:#x}")
    check(severity in SEVERITIES or severity == E.GL_DONT_CARE, E.GL_INVALID_ENUM, f"bad severity {severity:#x}")
    check(count >= 0, E.GL_INVALID_VALUE, "negative count")
    if count > 0:
        check(source != E.GL_DONT_CARE and type != E.GL_DONT_CARE and severity == E.GL_DONT_CARE,
              E.GL_INVALID_OPERATION, "ids need a source and a type, and any severity")
    id_set = frozenset(int(i) for i in list(ids)[:count]) if count > 0 else None
    dc = lambda v: None if v == E.GL_DONT_CARE else int(v)      # noqa: E731
    _debug_state(ctx).groups[-1].rules.append(_Rule(dc(source), dc(type), dc(severity), id_set, bool(enabled)))


@entry_point
def glDebugMessageInsert(ctx, source, type, id, severity, length, buf):
    _has_debug(ctx)
    check(source in (E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_SOURCE_THIRD_PARTY), E.GL_INVALID_ENUM,
          "only APPLICATION or THIRD_PARTY messages may be inserted")
    check(type in TYPES, E.GL_INVALID_ENUM, f"bad type {type:#x}")
    check(severity in SEVERITIES, E.GL_INVALID_ENUM, f"bad severity {severity:#x}")
    msg = _text(buf, length)
    check(len(msg) < MAX_MESSAGE_LENGTH, E.GL_INVALID_VALUE, "message longer than MAX_DEBUG_MESSAGE_LENGTH")
    _debug_message(ctx, source, type, id, severity, msg)


# ARB_debug_output: KHR_debug's message control and insertion under ARB names, with
# the ARB's narrower tables 5.4 and 5.5 (no MARKER/PUSH_GROUP/POP_GROUP types, no
# NOTIFICATION severity); its callback and log commands are the registry's aliases
ARB_TYPES = TYPES[:6]
ARB_SEVERITIES = SEVERITIES[:3]


def _has_arb_debug(ctx, type, severity, dont_care: bool) -> None:
    check(ctx.api.has_extension("GL_ARB_debug_output"), E.GL_INVALID_OPERATION, "no GL_ARB_debug_output")
    extra = (E.GL_DONT_CARE,) if dont_care else ()
    check(type in ARB_TYPES + extra, E.GL_INVALID_ENUM, f"bad ARB_debug_output type {type:#x}")
    check(severity in ARB_SEVERITIES + extra, E.GL_INVALID_ENUM, f"bad ARB_debug_output severity {severity:#x}")


@entry_point
def glDebugMessageControlARB(ctx, source, type, severity, count, ids, enabled):
    _has_arb_debug(ctx, type, severity, True)
    glDebugMessageControl(ctx, source, type, severity, count, ids, enabled)


@entry_point
def glDebugMessageInsertARB(ctx, source, type, id, severity, length, buf):
    _has_arb_debug(ctx, type, severity, False)
    glDebugMessageInsert(ctx, source, type, id, severity, length, buf)


class DebugMessages(tuple):
    """What glGetDebugMessageLog returns: the columns (sources, types, ids,
    severities, lengths incl. the NUL, the messages NUL-separated) of the
    messages taken from the log; ``count`` is their number."""

    count: int = 0


@entry_point
def glGetDebugMessageLog(ctx, count, bufSize=None):
    """Take up to `count` messages from the front of the log; with `bufSize`
    (the C messageLog size) only those whose text fits (GL 4.6 section 20.7)."""
    _has_debug(ctx)
    check(count >= 0, E.GL_INVALID_VALUE, "negative count")
    check(bufSize is None or bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
    log = _debug_state(ctx).log
    taken, used = [], 0
    for entry in log[:count]:
        need = len(entry[4].encode()) + 1
        if bufSize is not None and used + need > bufSize:
            break
        taken.append(entry)
        used += need
    del log[:len(taken)]
    out = DebugMessages(([e[0] for e in taken], [e[1] for e in taken], [e[2] for e in taken],
                         [e[3] for e in taken], [len(e[4].encode()) + 1 for e in taken],
                         b"".join(e[4].encode() + b"\0" for e in taken)))
    out.count = len(taken)
    return out


@entry_point
def glPushDebugGroup(ctx, source, id, length, message):
    _has_debug(ctx)
    check(source in (E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_SOURCE_THIRD_PARTY), E.GL_INVALID_ENUM,
          "bad source")
    d = _debug_state(ctx)
    check(len(d.groups) < MAX_GROUP_DEPTH, E.GL_STACK_OVERFLOW, "debug group stack full")
    msg = _text(message, length)
    check(len(msg) < MAX_MESSAGE_LENGTH, E.GL_INVALID_VALUE, "message too long")
    # the new group starts with a copy of the current control state
    d.groups.append(_Group(int(source), int(id), msg, list(d.groups[-1].rules)))
    _debug_message(ctx, source, E.GL_DEBUG_TYPE_PUSH_GROUP, id, E.GL_DEBUG_SEVERITY_NOTIFICATION, msg)


@entry_point
def glPopDebugGroup(ctx):
    _has_debug(ctx)
    d = _debug_state(ctx)
    check(len(d.groups) > 1, E.GL_STACK_UNDERFLOW, "no debug group to pop")
    group = d.groups.pop()
    _debug_message(ctx, group.source, E.GL_DEBUG_TYPE_POP_GROUP, group.id,
                   E.GL_DEBUG_SEVERITY_NOTIFICATION, group.message)


class _DisplayListNames:
    """The display lists' names as a label space (KHR_debug's DISPLAY_LIST, a
    compatibility-profile identifier): a list exists while glIsList says so."""

    def __init__(self, ctx):
        self.ctx = ctx

    def get(self, name):
        return True if self.ctx.glIsList(name) else None


# EXT_debug_label's object types: the KHR_debug identifiers of the same name spaces (as in
# Mesa, either spelling is taken by both extensions' commands)
_EXT_IDENTIFIERS = {E.GL_BUFFER_OBJECT_EXT: E.GL_BUFFER, E.GL_SHADER_OBJECT_EXT: E.GL_SHADER,
                    E.GL_PROGRAM_OBJECT_EXT: E.GL_PROGRAM, E.GL_VERTEX_ARRAY_OBJECT_EXT: E.GL_VERTEX_ARRAY,
                    E.GL_QUERY_OBJECT_EXT: E.GL_QUERY, E.GL_PROGRAM_PIPELINE_OBJECT_EXT: E.GL_PROGRAM_PIPELINE}


def _labelled(ctx, identifier, name, missing: int):
    """(label key, object) of `name` in `identifier`'s name space; `missing`: the
    error when no such object exists (KHR_debug: INVALID_VALUE, EXT_debug_label:
    INVALID_OPERATION)."""
    identifier = _EXT_IDENTIFIERS.get(identifier, identifier)
    obj = _label_space(ctx, identifier).get(name)
    check(obj is not None, missing, "no such object")
    return (identifier, name), obj


def _ref(obj):
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def _set_label(ctx, key, obj, text) -> None:
    """A label is the object's: kept with a reference to the object, so a name
    deleted and generated again has none."""
    _debug_state(ctx).labels[key] = (_ref(obj), text)


def _label(ctx, key, obj) -> str:
    ref, text = _debug_state(ctx).labels.get(key, (None, None))
    return (text or "") if ref is not None and ref() is obj else ""


def _label_space(ctx, identifier):
    spaces = {E.GL_BUFFER: ctx.buffers, E.GL_TEXTURE: ctx.textures,
              E.GL_VERTEX_ARRAY: ctx.vertex_arrays, E.GL_FRAMEBUFFER: ctx.framebuffers,
              E.GL_RENDERBUFFER: ctx.renderbuffers, E.GL_SAMPLER: ctx.samplers,
              E.GL_QUERY: ctx.queries, E.GL_TRANSFORM_FEEDBACK: ctx.transform_feedbacks,
              E.GL_SHADER: ctx.shader_objects, E.GL_PROGRAM: ctx.shader_objects}
    if hasattr(ctx, "pipelines"):
        spaces[E.GL_PROGRAM_PIPELINE] = ctx.pipelines
    if ctx.api.compat:
        spaces[E.GL_DISPLAY_LIST] = _DisplayListNames(ctx)
    if identifier not in spaces:
        raise GLError(E.GL_INVALID_ENUM, f"bad identifier {identifier:#x}")
    return spaces[identifier]


@entry_point
def glObjectLabel(ctx, identifier, name, length, label):
    _has_debug(ctx)
    key, obj = _labelled(ctx, identifier, name, E.GL_INVALID_VALUE)
    text = None if label is None else _text(label, length)
    check(text is None or len(text) < MAX_LABEL_LENGTH, E.GL_INVALID_VALUE, "label too long")
    _set_label(ctx, key, obj, text)


@entry_point
def glGetObjectLabel(ctx, identifier, name, bufSize):
    _has_debug(ctx)
    key, obj = _labelled(ctx, identifier, name, E.GL_INVALID_VALUE)
    check(bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
    return _label(ctx, key, obj)[:max(0, bufSize - 1)]


# -- EXT_debug_label: the same labels, with the extension's types, errors and lengths ------------
def _has_debug_label(ctx, name: str) -> None:
    check(ctx.api.has_extension("GL_EXT_debug_label"), E.GL_INVALID_OPERATION, f"{name} needs GL_EXT_debug_label")


@entry_point
def glLabelObjectEXT(ctx, type, object, length, label):
    """A positive length counts the label's characters; 0 means it is null-terminated;
    a negative one is INVALID_VALUE (a NULL label removes the label whatever the length)."""
    _has_debug_label(ctx, "glLabelObjectEXT")
    key, obj = _labelled(ctx, type, object, E.GL_INVALID_OPERATION)
    text = None
    if label is not None:
        check(length >= 0, E.GL_INVALID_VALUE, "negative length")
        text = _text(label, length if length > 0 else None)
        check(len(text) < MAX_LABEL_LENGTH, E.GL_INVALID_VALUE, "label too long")
    _set_label(ctx, key, obj, text)


@entry_point
def glGetObjectLabelEXT(ctx, type, object, bufSize):
    _has_debug_label(ctx, "glGetObjectLabelEXT")
    check(bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
    key, obj = _labelled(ctx, type, object, E.GL_INVALID_OPERATION)
    return _label(ctx, key, obj)[:max(0, bufSize - 1)]


@entry_point
def glObjectPtrLabel(ctx, ptr, length, label):
    _has_debug(ctx)
    check(ptr in ctx.syncs, E.GL_INVALID_VALUE, "not a sync object")
    text = None if label is None else _text(label, length)
    check(text is None or len(text) < MAX_LABEL_LENGTH, E.GL_INVALID_VALUE, "label too long")
    _set_label(ctx, ("sync", ptr), ctx.syncs[ptr], text)


@entry_point
def glGetObjectPtrLabel(ctx, ptr, bufSize):
    _has_debug(ctx)
    check(ptr in ctx.syncs, E.GL_INVALID_VALUE, "not a sync object")
    check(bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
    return _label(ctx, ("sync", ptr), ctx.syncs[ptr])[:max(0, bufSize - 1)]
