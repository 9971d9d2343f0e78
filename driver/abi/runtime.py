"""The Python side of libshimgl.so: binds the C entry points to Python.

`install(ffi, lib)` runs once per process, from the library's embedding init
code (in a C host's freshly started interpreter, or in the Python process that
loaded the library). Each exported command (index order of the C library,
driver/abi/_commands.py NAMES) is bound on its first call: the C function asks
``shimgl_py_bind(index)`` once, which attaches the implementation (a program
calls a few dozen of the ~3,450 commands; binding them all at start cost ~11 ms
of CPU, and loading all their marshalling functions ~3-5 ms more). A library built before
commands were bound lazily (no ``shimgl_lazy_binding``) gets every command bound
at install, as before. The implementation of a command:

* gl*: the generated marshalling function (or marshal.OVERRIDES) around the
  method of the calling thread's current driver.gl.Context, when the front end
  has that method. Commands it does not have stay unattached in C: calling one
  records GL_INVALID_OPERATION (what a missing extension's command would do).
  So does a command the current context's API lacks (glBegin in an OpenGL ES
  context, glDiscardFramebufferEXT in a desktop one: the registry's
  DESKTOP_ONLY and ES_ONLY), as Mesa's per-API dispatch tables do.
* egl*: driver.abi.egl.COMMANDS; OSMesa*: driver.abi.osmesa.COMMANDS;
  glX*: driver.abi.glx.COMMANDS (the glvnd GLX vendor).

The current context is per thread (driver.abi.state). Calls from several threads
are serialised by one lock (LOCK), as a big driver lock: the driver stack below
(one screen per process, its BO cache and heaps) is not written for concurrent
callers; the GIL alone does not make its compound updates atomic. Exceptions never cross the
C boundary: an internal error is reported once per command on stderr and
recorded as GL_INVALID_OPERATION."""

from __future__ import annotations

import sys
import threading

from driver.abi import state
from driver.abi.state import LOCK, _debug, _report, _trace, current, set_current

__all__ = ["current", "install", "set_current"]

_lib = None
ffi = None


def _host_exiting() -> bool:
    """Whether the host's interpreter (which runs the driver too) is shutting down:
    finalizing, or already past clearing its import system (a C++ destructor of
    the host, VTK's render window, may call in then, when sys.is_finalizing() is
    not yet or no longer true). Nothing can be imported; the process's end frees all."""
    return sys.is_finalizing() or sys.meta_path is None


def _gl_entry(name, fn, zero, after, es_ok=True, desktop_ok=True):
    from driver.gl.errors import GLError
    from driver.gl import enums as E
    finalizing = _host_exiting

    def failed(ctx, err):
        _report(name, err)
        ctx.record_error(GLError(E.GL_INVALID_OPERATION, f"internal error in {name}"))
        return zero

    def entry(*args):
        ctx = current.gl
        if ctx is None or finalizing():
            # no context; or the host's interpreter, which runs the driver too, is
            # shutting down (its modules are going): a call from a destructor then
            # (wgpu drops its GL objects so) is ignored, the process's end frees all
            return zero
        with LOCK:
            # (an OpenGL ES 1.1 context's commands are a subset of desktop GL's: the
            # front end's dispatch checks them, driver.gl.features.gles1)
            if not (desktop_ok if not ctx.api.es else es_ok or ctx.api.es1):
                ctx.record_error(GLError(E.GL_INVALID_OPERATION,
                                          f"{name} is not part of {ctx.api.name}"))
                return zero
            try:
                r = fn(ctx, *args)
                if after is not None:
                    after()
                return r
            except GLError as err:      # the marshalling's own (a NULL array: driver.abi.marshal)
                ctx.record_error(err)
                return zero
            except Exception as err:    # never let an exception reach C
                return failed(ctx, err)

    def traced(*args):
        ctx = current.gl
        n_errors = len(ctx.error_log) if ctx is not None else 0
        r = entry(*args)
        errors = ctx.error_log[n_errors:] if ctx is not None else "no current context"
        print(f"shimgl: {name}{args!r} -> {r!r} {errors}", file=sys.stderr)
        return r
    return traced if _trace else entry


def _after_flush():
    owner = current.owner
    hook = getattr(owner, "after_flush", None)
    if hook is not None:
        hook()


def _after_finish():
    """glFinish: the drawable's after_flush; when that had nothing to do, the
    library answers the next glFinish and glFlush itself while the context's pipe
    records nothing (driver.gl.context ANSWER_WORDS' IDLE)."""
    owner = current.owner
    hook = getattr(owner, "after_flush", None)
    if hook is None or not hook():
        current.gl.note_finished()


def _after_viewport():
    """glViewport re-reads the size of the current window (egl.follow_window)."""
    from driver.abi import egl
    owner = current.owner
    if isinstance(owner, egl.Context):
        egl.follow_window(owner.draw)


def _implementation(name, names_module, GLContext):
    """The Python callable behind command ``name``, or None (see the module's docstring)."""
    from driver.abi import egl, glx, marshal, osmesa
    if name.startswith("glX"):
        fn = glx.COMMANDS.get(name)
    elif name.startswith("gl"):
        impl = None
        if getattr(GLContext, name, None) is not None or name in marshal.STANDALONE:
            impl = marshal.OVERRIDES.get(name) or names_module.MARSHAL.get(name)
        if impl is None:
            return None
        zero = {"p": ffi.NULL, "v": None}.get(names_module.RETURNS[name], 0)
        after = {"glFinish": _after_finish, "glFlush": _after_flush,
                 "glViewport": _after_viewport}.get(name)
        return _gl_entry(name, impl, zero, after, es_ok=name not in names_module.DESKTOP_ONLY,
                         desktop_ok=name not in names_module.ES_ONLY)
    elif name.startswith("egl"):
        fn = egl.COMMANDS.get(name)
    else:
        fn = osmesa.COMMANDS.get(name)
    if fn is None:
        return None
    # at the host's exit, commands that release or unbind succeed and the others
    # fail (EGL_FALSE, NULL, nothing), all of them quietly: nothing runs
    releases = any(w in name for w in ("Destroy", "Terminate", "MakeCurrent", "Release"))
    at_exit = {"v": None, "p": ffi.NULL}.get(names_module.RETURNS.get(name, "n"), int(releases))
    return _locked(fn, at_exit)


#: command index -> whether it was bound (written under _BIND_LOCK)
_bound: dict[int, bool] = {}
_BIND_LOCK = threading.Lock()


def _bind(index: int, lazy: bool) -> bool:
    """Attach command ``index``'s implementation to its extern "Python"
    function, once; tell the library (state 1 bound, 2 missing, the latter only
    for a library that binds lazily: an older one reads any non-zero as bound)."""
    with _BIND_LOCK:
        done = _bound.get(index)
        if done is not None:
            return done
        from driver.abi import _commands
        from driver.gl import Context as GLContext
        name = _commands.NAMES[index]
        fn = _implementation(name, _commands, GLContext)
        if fn is not None:
            ffi.def_extern(name="shimgl_py_" + name, onerror=_onerror(name))(fn)
            _lib.shimgl_set_impl(index, 1)
        elif lazy:
            _lib.shimgl_set_impl(index, 2)
        _bound[index] = fn is not None
        return fn is not None


def install(the_ffi, lib) -> None:
    """Attach the implementations (see the module's docstring); the start's
    pause of the garbage collector ends here (driver.abi.resume_gc)."""
    from driver.abi import resume_gc
    try:
        _install(the_ffi, lib)
    finally:
        resume_gc()


def _install(the_ffi, lib) -> None:
    global _lib, ffi
    _lib, ffi = lib, the_ffi
    from driver.abi import egl, glx, marshal, osmesa
    from driver.abi import _commands
    from driver.gl.errors import GLError
    from driver.gl import enums as E

    marshal.bind(the_ffi)
    egl.bind(the_ffi)
    osmesa.bind(the_ffi)
    glx.bind(the_ffi)
    names = _commands.NAMES
    assert len(names) == lib.shimgl_command_count(), "generated tables out of step with the library"
    lazy = hasattr(lib, "shimgl_lazy_binding")
    if hasattr(lib, "shimgl_set_answers") and not _trace:     # (a library built before has none)
        def tell_answers(gl):
            lib.shimgl_set_answers(the_ffi.from_buffer(gl.answers) if gl is not None else the_ffi.NULL)
        state.answers_hook = tell_answers

    @the_ffi.def_extern(name="shimgl_py_init")
    def _init():
        pass

    @the_ffi.def_extern(name="shimgl_py_missing", error=0)
    def _missing(index):
        name = names[index]
        if _debug:
            print(f"shimgl: {name} is not implemented", file=sys.stderr)
        if name.startswith("gl") and not name.startswith("glX"):
            ctx = current.gl
            if ctx is not None:
                ctx.record_error(GLError(E.GL_INVALID_OPERATION, f"{name} is not implemented"))
        elif name.startswith("egl"):
            current.egl_error = egl.EGL_BAD_PARAMETER
        return 0

    if lazy:
        @the_ffi.def_extern(name="shimgl_py_bind")
        def _bind_on_first_call(index):
            if _host_exiting():         # a first call from a destructor at the host's exit:
                lib.shimgl_set_impl(index, 2)   # nothing can be imported now; quietly missing
                return
            try:
                _bind(index, True)
            except Exception as err:    # never let an exception reach C: the command is missing
                _report(names[index], err)
                lib.shimgl_set_impl(index, 2)
    else:
        for index in range(len(names)):
            _bind(index, False)
    lib.shimgl_set_ready()


def warm_up() -> None:
    """Import now what would otherwise be imported at the first context (the
    driver stack, the kernel backends behind uapi: they create cffi FFIs). Run
    at start-up when the host process had its own cffi, which shimgl sets
    aside only while it starts (driver/abi/build.py, host_bootstrap_code)."""
    import importlib
    import pkgutil
    from importlib.metadata import entry_points
    from driver.abi import x11
    import driver.agx.face  # noqa: F401  (the driver stack)
    for ep in entry_points(group="shimgl.uapi_backends"):
        ep.load()            # the kernel backends uapi loads at the first open, whole
        top = sys.modules[ep.module.split(".")[0]]
        for m in pkgutil.walk_packages(getattr(top, "__path__", []), top.__name__ + "."):
            importlib.import_module(m.name)
    x11._load()              # its cffi declarations (available() only dlopens)


def _locked(fn, at_exit):
    def entry(*args):
        if _host_exiting():
            return at_exit
        with LOCK:
            return fn(*args)
    return entry


def _onerror(name):
    def onerror(exc_type, exc_value, tb):
        _report(name, exc_value)
        return None
    return onerror
