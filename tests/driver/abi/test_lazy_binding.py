"""The C ABI binds each command on its first call (driver/abi/runtime.py), not
all of them at start; a library built before that (no ``shimgl_lazy_binding``)
still gets every command bound at install."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, clean_env, run


def test_commands_are_bound_on_their_first_call(abi_dir):
    res = run([sys.executable, PY_DIR / "lazy_binding.py", abi_dir], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert "internal error" not in res.stderr and "no code was attached" not in res.stderr, res.stderr


class _FakeFFI:
    NULL = None

    def __init__(self):
        self.attached: dict[str, object] = {}

    def def_extern(self, name, onerror=None, error=None):
        def attach(fn):
            self.attached[name] = fn
            return fn
        return attach


class _EagerLibrary:
    """A library of before lazy binding: no shimgl_lazy_binding; any non-zero state is 'bound'."""

    def __init__(self, count):
        self.count, self.states, self.ready = count, {}, False

    def shimgl_command_count(self):
        return self.count

    def shimgl_set_impl(self, index, on):
        self.states[index] = on

    def shimgl_set_ready(self):
        self.ready = True


def test_a_library_without_lazy_binding_gets_every_command_at_install(monkeypatch):
    from driver.abi import _commands, egl, glx, marshal, osmesa, runtime
    from driver.gl import Context
    monkeypatch.setattr(runtime, "_bound", {})
    for module in (runtime, egl, glx, marshal, osmesa):   # _install binds them to the fake FFI
        monkeypatch.setattr(module, "ffi", getattr(module, "ffi", None))
        if hasattr(module, "NULL"):
            monkeypatch.setattr(module, "NULL", module.NULL)
    monkeypatch.setattr(runtime, "_lib", None)
    ffi, lib = _FakeFFI(), _EagerLibrary(len(_commands.NAMES))
    runtime._install(ffi, lib)
    assert lib.ready and "shimgl_py_bind" not in ffi.attached
    index = {n: i for i, n in enumerate(_commands.NAMES)}
    for name in ("glClear", "glDrawArrays", "eglInitialize", "OSMesaMakeCurrent", "glXChooseFBConfig"):
        assert "shimgl_py_" + name in ffi.attached and lib.states[index[name]] == 1, name
    missing = next(n for n in _commands.NAMES if n.startswith("gl") and not n.startswith("glX")
                   and getattr(Context, n, None) is None)
    # an older library reads any non-zero state as bound: a missing command stays 0
    assert "shimgl_py_" + missing not in ffi.attached and index[missing] not in lib.states
    assert set(lib.states.values()) == {1}
    assert len(lib.states) == sum(runtime._bound.values()) > 1000
