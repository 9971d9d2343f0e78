"""Display lists (GL 2.1 section 5.4) and the dispatch that every entry
point of a compatibility context goes through:

- while a list is being compiled, a command that may be compiled is
  recorded with a private copy of its arguments (and executed as well in
  GL_COMPILE_AND_EXECUTE mode); the commands of section 5.4's list (Get*,
  Is*, Gen*, Delete*, client state, pixel store, buffer and shader object
  commands, Flush, Finish, ...) are executed immediately;
- between glBegin and glEnd every command but those of section 2.6.3 is
  GL_INVALID_OPERATION;
- an OpenGL ES 1.1 context has only ES 1.1's commands (and those of its
  extensions), and the ES 1.1-only commands (glColor4x, glOrthof...) exist
  only there: any other call is GL_INVALID_OPERATION, as with Mesa's per-API
  dispatch tables (driver.gl.features.gles1);
- every other context (core profile, compatibility profile, OpenGL ES 2.0+)
  has only the commands of its API, version and profile and of the
  extensions it has (driver.gl.entrypoints, from the registry): a command of
  a later version, of the other API or profile or of an extension it lacks
  is GL_INVALID_OPERATION and runs nothing.

Errors of a compiled command are reported when the list is executed, as
the spec asks. Commands run by glCallList (and commands that entry points
call internally) bypass the dispatch."""

from __future__ import annotations

import functools
import sys

import numpy as np

from driver.gl import enums as E
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features.ibm import multimode_draws
from driver.gl.legacy.immediate import allowed_in_begin_end
from driver.gl.pointers import ClientMemory
from driver.gl.profiles import COMPATIBILITY_ONLY, COMPATIBILITY_ONLY_ALIASES

__all__ = ["DisplayListMixin", "install_dispatch", "dispatch_table", "compiled_into_lists", "MAX_LIST_NESTING"]

MAX_LIST_NESTING = 64

_EXECUTED_IMMEDIATELY = {
    "glNewList", "glEndList", "glFeedbackBuffer", "glSelectBuffer", "glRenderMode",
    "glClientActiveTexture", "glInterleavedArrays", "glEnableClientState", "glDisableClientState",
    "glEnableVertexAttribArray", "glDisableVertexAttribArray", "glPushClientAttrib",
    "glPopClientAttrib", "glReadPixels", "glPixelStoref", "glPixelStorei", "glAreTexturesResident",
    "glBindBuffer", "glBufferData", "glBufferSubData", "glShaderSource", "glCompileShader",
    "glLinkProgram", "glAttachShader", "glDetachShader", "glBindAttribLocation",
    "glValidateProgram", "glFlush", "glFinish", "glFenceSync", "glClientWaitSync", "glWaitSync",
    "glReadnPixels", "glBindVertexArray", "glBindFramebuffer", "glBindRenderbuffer",
    "glRenderbufferStorage", "glFramebufferTexture2D", "glFramebufferRenderbuffer",
    "glCheckFramebufferStatus", "glRenderbufferStorageMultisample", "glFramebufferTexture",
    "glFramebufferTexture1D", "glFramebufferTexture3D", "glFramebufferTextureLayer", "glBindBufferBase", "glBindBufferRange", "glCopyBufferSubData",
    # ARB_separate_shader_objects, ARB_texture_buffer_object/_range: executed, not compiled
    "glBindProgramPipeline", "glTexBuffer", "glTexBufferRange",
    # NV_primitive_restart: the index is client state, as the enable is
    "glPrimitiveRestartIndexNV",
    # ATI_fragment_shader: a shader's definition (section 5.4 as the extension amends it)
    "glBeginFragmentShaderATI", "glEndFragmentShaderATI", "glPassTexCoordATI", "glSampleMapATI",
    *(f"gl{kind}FragmentOp{n}ATI" for kind in ("Color", "Alpha") for n in (1, 2, 3)),
}
_EXECUTED_PREFIXES = ("glGet", "glIs", "glGen", "glDelete", "glCreate", "glMap", "glUnmap", "glFlushMapped",
                      "glDebug", "glObjectLabel", "glPushDebugGroup", "glPopDebugGroup")


# ARB_draw_instanced / EXT_draw_instanced, "Additions to Chapter 5" (and the instanced draws
# of ARB_draw_elements_base_vertex and ARB_base_instance), ARB_draw_indirect's and
# ARB_multi_draw_indirect's draws and ARB_compute_shader's DispatchComputeIndirect (GL 4.6
# compatibility section D.1): these are INVALID_OPERATION while a list is being compiled (and
# are neither compiled nor executed), as in Mesa
_REFUSED_IN_LISTS = {"glDrawArraysInstanced", "glDrawElementsInstanced", "glDrawElementsInstancedBaseVertex",
                     "glDrawArraysInstancedBaseInstance", "glDrawElementsInstancedBaseInstance",
                     "glDrawElementsInstancedBaseVertexBaseInstance", "glDrawArraysIndirect",
                     "glDrawElementsIndirect", "glMultiDrawArraysIndirect", "glMultiDrawElementsIndirect",
                     "glDispatchComputeIndirect"}


def _core_name(name: str) -> str:
    return name[:-3] if name.endswith(("ARB", "EXT")) else name


def compiled_into_lists(name: str) -> bool:
    """Whether a command is recorded into a display list being compiled (an
    ARB/EXT-suffixed alias as its core command)."""
    name = _core_name(name)
    if name in _EXECUTED_IMMEDIATELY or name.startswith(_EXECUTED_PREFIXES):
        return False
    return not name.endswith("Pointer")


def _copy_arg(a):
    """A private copy of an argument (client memory may change after compilation)."""
    if isinstance(a, np.ndarray):
        return a.copy()
    if isinstance(a, (list, tuple)):
        return type(a)(_copy_arg(x) for x in a)
    if isinstance(a, (bytes, str, int, float, bool)) or a is None:
        return a
    if isinstance(a, (bytearray, memoryview)):
        return bytes(a)
    return a


def _internal_caller() -> bool:
    """Whether the entry's caller (two frames up) is the GL front end itself."""
    return sys._getframe(2).f_globals.get("__name__", "").startswith("driver.gl.")


def _not_in_api(name: str, fn):
    """The entry of a command the context's API does not have (the other
    side of the ES 1.1 rule): GL_INVALID_OPERATION, nothing runs; an entry
    point of the API may still use it internally (``_dispatch_depth``, or a
    call from a module of the front end)."""
    @functools.wraps(fn)                 # features.call still reaches the implementation
    def entry(self, *args, **kwargs):
        if self._dispatch_depth or _internal_caller():
            return fn(self, *args, **kwargs)
        self.record_error(GLError(E.GL_INVALID_OPERATION, f"{name} is not part of {self.api.name}"))
    entry.__gl_entry__ = True
    entry.__gl_not_in_api__ = True
    return entry


def _counted(fn):
    """The entry of a command of a restricted API's table: what it calls
    internally is not refused (``_not_in_api``)."""
    @functools.wraps(fn)
    def entry(self, *args, **kwargs):
        self._dispatch_depth += 1
        try:
            return fn(self, *args, **kwargs)
        finally:
            self._dispatch_depth -= 1
    entry.__gl_entry__ = True
    return entry


def _checked(name: str, fn, listed: bool, in_begin_end: bool):
    """The entry of the recording / Begin-End table: records the command into
    the list being compiled (and runs it in GL_COMPILE_AND_EXECUTE), refuses
    what section 2.6.3 does not allow between glBegin and glEnd. Calls an
    entry point makes from inside another (and glCallList's commands) run
    the implementation directly."""
    @functools.wraps(fn)
    def entry(self, *args, **kwargs):
        if self._dispatch_depth:
            return fn(self, *args, **kwargs)
        dl = self._list_compiling
        if dl is not None and _core_name(name) in _REFUSED_IN_LISTS:
            self.record_error(GLError(E.GL_INVALID_OPERATION, f"{name} during display list compilation"))
            return None
        if dl is not None and listed:
            copied = tuple(_copy_arg(a) for a in args)
            # IBM_multimode_draw_arrays' commands are compiled as the draws they stand
            # for (Mesa's run DrawArrays/DrawElements through the current dispatch)
            pieces = multimode_draws(name, copied) if name in _MULTIMODE else [(name, copied)]
            for piece, piece_args in pieces:
                if piece in _ARRAY_COMMANDS:
                    piece_args = _client_indices(piece, piece_args)
                    # section 5.4: vertex array data is dereferenced when the list is compiled,
                    # with the primitive restart state of that moment (NV_primitive_restart's is
                    # client state; Mesa decomposes the draw at compilation, restarts included)
                    dl[2].append(("_call_with_arrays", (self._snapshot_arrays(piece, piece_args), piece,
                                                        piece_args), {"restart": self._restart_state()}))
                else:
                    dl[2].append((piece, piece_args, kwargs))
            if dl[1] == E.GL_COMPILE:
                return None
        if self._im is not None and not in_begin_end:
            self.record_error(GLError(E.GL_INVALID_OPERATION, f"{name} between glBegin and glEnd"))
            return None
        self._dispatch_depth += 1
        try:
            return fn(self, *args, **kwargs)
        finally:
            self._dispatch_depth -= 1
    entry.__gl_entry__ = True
    return entry


def install_dispatch(cls):
    """Class decorator for the final Context (after the GL error wrapping):
    Mesa's per-API dispatch tables and its exec/save table swap, as classes.
    ``cls`` itself has every command and is no context's table; a context's
    class is one of these subclasses (``_select_dispatch``):

    - ``dispatch_table(cls, "api", api)``: the table of a context of ``api``
      but ES 1.1 (core profile, compatibility profile, ES 2.0+): the
      registry's commands outside ``driver.gl.entrypoints.context_commands(api)``
      are GL_INVALID_OPERATION and run nothing (in a core or ES context the
      compatibility-only commands, glBegin, glLight, ..., and their extension
      aliases among them; in every context a later version's, the other API's,
      ES 1.1's fixed-point commands, an extension's the context lacks). The
      registry's aliases of core commands (driver.gl.features.aliases) check
      their extensions themselves. Internal calls (an entry point's, from a
      module of the front end) still reach the implementation;
    - ``dispatch_table(cls, "checked", api)``: a compatibility context's table
      while a list is compiled or between glBegin and glEnd: its "api" table,
      with each command it has recorded into the list or refused by section
      2.6.3's rule;
    - ``dispatch_table(cls, "es1")``: an OpenGL ES 1.1 context's table, only
      ES 1.1's commands (and its extensions'), the rest GL_INVALID_OPERATION
      unless an ES 1.1 entry point uses them internally.

    glBegin, glEnd, glNewList and glEndList switch between a compatibility
    context's two tables, so the commands of every other moment pay nothing
    for display lists and Begin/End. Each table is built the first time a
    context needs it."""
    cls._dispatch_base = cls
    cls._dispatch_tables = {}
    return cls


def dispatch_table(base, kind: str, api=None):
    """The subclass of ``base`` (an install_dispatch class) that is the table
    ``kind``: "api" or "checked" (of ``api``; "checked" defaults to the
    compatibility profile's) or "es1" (see install_dispatch)."""
    if kind == "checked" and api is None:
        from driver.gl.api import get_api
        api = get_api("compat")
    key = kind if kind == "es1" else (kind, api.name)
    table = base._dispatch_tables.get(key)
    if table is not None:
        return table
    from driver.gl.features.gles1 import ES1_COMMANDS
    parent, entries = base, {}
    if kind == "api":
        entries = _api_entries(base, api)
    elif kind == "checked":
        assert api.compat, "display lists and glBegin/glEnd are the compatibility profile's"
        parent = dispatch_table(base, "api", api)
    for name in dir(base) if kind != "api" else ():
        if not name.startswith("gl") or name == "glGetError":
            continue
        fn = getattr(base, name)
        if not callable(fn):
            continue
        if kind == "es1":
            entries[name] = _counted(fn) if name in ES1_COMMANDS else _not_in_api(name, fn)
        elif not getattr(getattr(parent, name), "__gl_not_in_api__", False):
            entries[name] = _checked(name, fn, compiled_into_lists(name), allowed_in_begin_end(name))
    what = {"es1": "an OpenGL ES 1.1 context's commands",
            "checked": f"a {api.name if api else ''} context's display-list compilation and glBegin/glEnd",
            "api": f"a {api.name if api else ''} context's commands"}[kind]
    table = type(base.__name__, (parent,), {
        "__module__": base.__module__,
        "__doc__": f"{base.__doc__}\n\nThis class: the dispatch of {what} (legacy.dlist.install_dispatch).",
        **entries})
    table.__qualname__ = f"{base.__qualname__}[{kind}{':' + api.name if api else ''}]"
    return base._dispatch_tables.setdefault(key, table)      # the first one built, if two threads race


def _api_entries(base, api) -> dict:
    """The refusing entries of ``api``'s table (not ES 1.1's): every registry
    command ``base`` implements that ``api``'s context does not have, but the
    registry's aliases of core commands (which check their extensions)."""
    from driver.gl.entrypoints import context_commands, registry_command_names
    from driver.gl.registry_aliases import ALIASES
    has = context_commands(api)
    entries = {}
    for name in sorted(registry_command_names() - has):
        fn = getattr(base, name, None)
        if not callable(fn) or (name in ALIASES and name not in COMPATIBILITY_ONLY_ALIASES):
            continue
        entries[name] = entry = _not_in_api(name, fn)
        if name in COMPATIBILITY_ONLY or name in COMPATIBILITY_ONLY_ALIASES:
            # features.call, which unwraps to the implementation, refuses these too: the
            # implementations do not check the profile again
            entry.__gl_compatibility_only__ = True
    return entries


_ARRAY_COMMANDS = {"glDrawArrays", "glDrawElements", "glDrawRangeElements", "glArrayElement"}
_MULTIMODE = {"glMultiModeDrawArraysIBM", "glMultiModeDrawElementsIBM"}
_INDEX_TYPES = {E.GL_UNSIGNED_BYTE: np.uint8, E.GL_UNSIGNED_SHORT: np.uint16, E.GL_UNSIGNED_INT: np.uint32}


def _last_vertex(name: str, args: tuple, restart_index=None) -> int:
    """The highest vertex an array command reads (client index arrays only; the
    primitive restart index, when restart is on, names no vertex)."""
    if name == "glArrayElement":
        return int(args[0])
    if name == "glDrawArrays":
        return int(args[1]) + int(args[2]) - 1
    count, type, indices = (args[1], args[2], args[3]) if name == "glDrawElements" else args[3:6]
    if isinstance(indices, int) or type not in _INDEX_TYPES:
        return -1                       # an element buffer: its contents are not known here
    raw = indices.tobytes() if isinstance(indices, np.ndarray) else bytes(indices)
    idx = np.frombuffer(raw, _INDEX_TYPES[type])[:count]
    if restart_index is not None:
        idx = idx[idx != restart_index]
    return int(idx.max()) if idx.size else -1


def _client_indices(name: str, args: tuple) -> tuple:
    """The arguments with client-memory indices (the C ABI's pointer) read into
    bytes: a list keeps the indices as they were when it was compiled."""
    if name not in ("glDrawElements", "glDrawRangeElements"):
        return args
    i = 3 if name == "glDrawElements" else 5
    count, type, indices = args[i - 2], args[i - 1], args[i]
    if isinstance(indices, ClientMemory) and type in _INDEX_TYPES:
        size_B = np.dtype(_INDEX_TYPES[type]).itemsize
        args = args[:i] + (indices.read(0, max(int(count), 0) * size_B),) + args[i + 1:]
    return args


_CALL_LISTS_TYPES = {E.GL_BYTE: np.int8, E.GL_UNSIGNED_BYTE: np.uint8, E.GL_SHORT: np.int16,
                     E.GL_UNSIGNED_SHORT: np.uint16, E.GL_INT: np.int32, E.GL_UNSIGNED_INT: np.uint32,
                     E.GL_FLOAT: np.float32, E.GL_2_BYTES: 2, E.GL_3_BYTES: 3, E.GL_4_BYTES: 4}


MAX_LIST_NAME = 0xFFFF_FFFF


class ListNames:
    """The display-list name space: names reserved by glGenLists as sorted,
    disjoint half-open intervals, plus the compiled lists by name. Range
    operations cost O(intervals + lists), never O(range): glGenLists(2^31 - 1)
    reserves one interval. A name is a list (glIsList) when it is reserved or
    compiled; a reserved name without commands is an empty list."""

    def __init__(self):
        self.compiled: dict[int, list] = {}
        self.reserved: list[tuple[int, int]] = []        # [(first, end)), sorted, disjoint

    def get(self, name: int):
        got = self.compiled.get(name)
        if got is None and self._reserved_index(name) is not None:
            return []
        return got

    def __setitem__(self, name: int, commands: list) -> None:
        self.compiled[name] = commands

    def __contains__(self, name: int) -> bool:
        return name in self.compiled or self._reserved_index(name) is not None

    def _reserved_index(self, name: int):
        import bisect
        i = bisect.bisect_right(self.reserved, (name, MAX_LIST_NAME + 2)) - 1
        if i >= 0 and self.reserved[i][0] <= name < self.reserved[i][1]:
            return i
        return None

    def reserve(self, count: int) -> int:
        """The first of `count` consecutive unused names, now reserved; 0 when
        the name space has no such run."""
        used = sorted(self.reserved + [(n, n + 1) for n in self.compiled])
        first = 1
        for start, end in used:
            if start - first >= count:
                break
            first = max(first, end)
        if first + count - 1 > MAX_LIST_NAME:
            return 0
        self.reserved = self._merged(self.reserved + [(first, first + count)])
        return first

    def delete(self, first: int, count: int) -> None:
        end = first + count
        kept = []
        for a, b in self.reserved:
            if b <= first or a >= end:
                kept.append((a, b))
                continue
            if a < first:
                kept.append((a, first))
            if b > end:
                kept.append((end, b))
        self.reserved = kept
        if count < len(self.compiled):
            for name in range(first, end):
                self.compiled.pop(name, None)
        else:
            for name in [n for n in self.compiled if first <= n < end]:
                del self.compiled[name]

    @staticmethod
    def _merged(intervals):
        out: list[tuple[int, int]] = []
        for a, b in sorted(intervals):
            if out and a <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return out


class DisplayListMixin:
    def _init_family(self) -> None:
        self._lists = ListNames()
        self._list_compiling = None          # (name, mode, commands)
        self._dispatch_depth = 0
        self._list_nesting = 0
        self._select_dispatch()

    def _select_dispatch(self) -> None:
        """Make the context's class the dispatch table of its API and moment
        (install_dispatch): ES 1.1's; a compatibility context's checked one
        while a list is compiled or between glBegin and glEnd; else the API's."""
        checked = self._list_compiling is not None or getattr(self, "_im", None) is not None
        self.note_checked_dispatch(checked)
        base = getattr(type(self), "_dispatch_base", None)
        if base is None:                     # a class without install_dispatch
            return
        if self.api.es1:
            want = dispatch_table(base, "es1")
        elif not self.api.compat:
            want = dispatch_table(base, "api", self.api)       # no lists, no glBegin: never the checked one
        elif self._list_compiling is not None or getattr(self, "_im", None) is not None:
            want = dispatch_table(base, "checked", self.api)
        else:
            want = dispatch_table(base, "api", self.api)
        if type(self) is not want:
            self.__class__ = want

    def glNewList(self, list: int, mode: int) -> None:
        check(list != 0, E.GL_INVALID_VALUE, "list 0")
        check_enum(mode, (E.GL_COMPILE, E.GL_COMPILE_AND_EXECUTE))
        check(self._list_compiling is None, E.GL_INVALID_OPERATION, "glNewList inside glNewList")
        self._list_compiling = (int(list), mode, [])
        self._select_dispatch()

    def glEndList(self) -> None:
        check(self._list_compiling is not None, E.GL_INVALID_OPERATION, "glEndList without glNewList")
        name, _, commands = self._list_compiling
        self._list_compiling = None
        self._lists[name] = commands
        self._select_dispatch()

    def _execute_list(self, name: int) -> None:
        commands = self._lists.get(name)
        if commands is None or self._list_nesting >= MAX_LIST_NESTING:
            return
        self._list_nesting += 1
        self._dispatch_depth += 1
        try:
            for cmd, args, kwargs in commands:
                # section 2.6.3 holds for a list's commands too: called between glBegin
                # and glEnd, one not allowed there is INVALID_OPERATION and runs nothing
                gl_name = args[1] if cmd == "_call_with_arrays" else cmd
                if self._im is not None and not allowed_in_begin_end(gl_name):
                    self.record_error(GLError(E.GL_INVALID_OPERATION,
                                              f"{gl_name} (in list {name}) between glBegin and glEnd"))
                    continue
                getattr(self, cmd)(*args, **kwargs)
        finally:
            self._dispatch_depth -= 1
            self._list_nesting -= 1

    def _snapshot_arrays(self, name: str, args: tuple) -> dict:
        """Copies of the legacy client arrays with the bytes the command reads."""
        import copy
        size = np.dtype(_INDEX_TYPES[args[-2]]).itemsize if name in ("glDrawElements", "glDrawRangeElements") \
            and args[-2] in _INDEX_TYPES else 4
        last = _last_vertex(name, args, self._restart_index(size))
        snap = {}
        for key, (a, b) in self.vao.legacy.items():
            a2, b2 = copy.copy(a), copy.copy(b)
            if a.enabled and b.buffer is None and isinstance(a.pointer, ClientMemory) and last >= 0:
                a2.pointer = ClientMemory.wrap(a.pointer.read(0, (last + 1) * b.stride))
            snap[key] = (a2, b2)
        return snap

    _RESTART_CAPS = (E.GL_PRIMITIVE_RESTART, E.GL_PRIMITIVE_RESTART_FIXED_INDEX)

    def _restart_state(self) -> tuple:
        """(enabled restart capabilities, restart index): what an array command
        compiled into a list restarts on."""
        s = self.state
        return frozenset(c for c in self._RESTART_CAPS if c in s.enabled), s.primitive_restart_index

    def _set_restart_state(self, restart: tuple) -> None:
        caps, index = restart
        s = self.state
        for cap in self._RESTART_CAPS:
            (s.enabled.add if cap in caps else s.enabled.discard)(cap)
        if s.primitive_restart_index != index:
            s.primitive_restart_index = index

    def _call_with_arrays(self, snapshot: dict, name: str, args: tuple, restart: tuple | None = None) -> None:
        legacy = self.vao.legacy
        saved = dict(legacy)
        saved_restart = self._restart_state()
        legacy.clear()
        legacy.update(snapshot)
        if restart is not None:
            self._set_restart_state(restart)
        try:
            getattr(self, name)(*args)
        finally:
            legacy.clear()
            legacy.update(saved)
            self._set_restart_state(saved_restart)

    def glCallList(self, list: int) -> None:
        self._execute_list(int(list))

    def glCallLists(self, n: int, type: int, lists) -> None:
        """Section 5.4: names are the list base plus each offset."""
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        check_enum(type, _CALL_LISTS_TYPES)
        dt = _CALL_LISTS_TYPES[type]
        check(not isinstance(lists, (int, float)) and lists is not None, E.GL_INVALID_VALUE,
              "array expected")
        if isinstance(lists, (list, tuple)) and not isinstance(dt, int):
            offsets = [int(x) for x in lists[:n]]
        else:
            raw = lists.encode("latin-1") if isinstance(lists, str) else \
                (np.asarray(lists).tobytes() if isinstance(lists, np.ndarray) else bytes(lists))
            if isinstance(dt, int):
                b = np.frombuffer(raw[:n * dt], np.uint8).reshape(n, dt).astype(np.int64)
                offsets = [int(sum(int(row[k]) << (8 * (dt - 1 - k)) for k in range(dt))) for row in b]
            else:
                offsets = [int(x) for x in np.frombuffer(raw[:n * np.dtype(dt).itemsize], dt)]
        for off in offsets:
            self._execute_list(self.legacy.list_base + off)

    def glListBase(self, base: int) -> None:
        self.legacy.list_base = int(base)

    def glGenLists(self, range: int) -> int:
        check(range >= 0, E.GL_INVALID_VALUE, "negative range")
        if range == 0:
            return 0
        return self._lists.reserve(int(range))

    def glDeleteLists(self, list: int, range: int) -> None:
        check(range >= 0, E.GL_INVALID_VALUE, "negative range")
        self._lists.delete(int(list), int(range))

    def glIsList(self, list: int) -> bool:
        return int(list) in self._lists

