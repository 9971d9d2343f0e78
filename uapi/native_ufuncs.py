"""numpy's own binary32 loops of the transcendental instructions, for native code.

The interpreter computes ``log2``, ``exp2``, ``sin`` and ``cos`` with numpy's ufuncs
(``uapi.isa.semantics``): numpy's SIMD routines (or the libm it calls), which
differ from a C compiler's libm in the last bit. Native code reaches the same
results by calling the very loop numpy calls: a ufunc keeps its inner loops in a
table of C function pointers (``PyUFuncObject.functions``, numpy's public C API,
``numpy/ufuncobject.h``), one per type signature, each
``void loop(char **args, npy_intp const *dimensions, npy_intp const *steps, void *data)``.
The loop for ``f->f`` is the one numpy's CPU dispatch chose at import, the same
code that ``np.sin`` on float32 runs; it touches no Python object, so it runs
without the GIL.

The pointers are read from the ufunc objects through their layout (checked: the
ufunc's name, argument counts and signature types must read back as numpy says)
and then checked by results: each loop over a set of special and random binary32
values must give the bits of the instruction's implementation in the ISA table. Anything unexpected (another numpy layout,
a loop that differs) leaves that instruction to the interpreter's numpy step.
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np

from uapi.isa.table import NUMPY_REFERENCE_OPS

__all__ = ["UFUNC_OPS", "loops"]

#: ISA instructions computed by a numpy ufunc of the same name (the ISA table's), in
#: the order of the native code's ``uf`` table (``codegen.ARGS_CDEF``).
UFUNC_OPS = NUMPY_REFERENCE_OPS

_NPY_FLOAT = np.dtype(np.float32).num


class _UFuncObject(ctypes.Structure):
    """The leading fields of ``PyUFuncObject`` (numpy/ufuncobject.h; non-debug CPython)."""

    _fields_ = [("ob_refcnt", ctypes.c_ssize_t), ("ob_type", ctypes.c_void_p),
                ("nin", ctypes.c_int), ("nout", ctypes.c_int), ("nargs", ctypes.c_int),
                ("identity", ctypes.c_int),
                ("functions", ctypes.POINTER(ctypes.c_void_p)), ("data", ctypes.POINTER(ctypes.c_void_p)),
                ("ntypes", ctypes.c_int), ("reserved1", ctypes.c_int),
                ("name", ctypes.c_char_p), ("types", ctypes.POINTER(ctypes.c_char))]


_LOOP = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_ssize_t),
                         ctypes.POINTER(ctypes.c_ssize_t), ctypes.c_void_p)


def _loop_of(ufunc) -> tuple[int, int] | None:
    """(function, data) pointers of ``ufunc``'s float32 -> float32 loop, or None."""
    sig = "f->f"
    if sig not in ufunc.types or ufunc.nin != 1 or ufunc.nout != 1:
        return None
    k = ufunc.types.index(sig)
    s = _UFuncObject.from_address(id(ufunc))
    if (s.nin, s.nout, s.nargs, s.ntypes) != (1, 1, 2, len(ufunc.types)) or s.name != ufunc.__name__.encode():
        return None
    if [s.types[2 * k][0], s.types[2 * k + 1][0]] != [_NPY_FLOAT, _NPY_FLOAT]:
        return None
    fn = s.functions[k]
    if not fn:
        return None
    return fn, s.data[k] or 0


def _probe_values() -> np.ndarray:
    """Special values (zeros, denormals, infinities, NaN payloads, the range limits
    of numpy's range reductions) and random bit patterns and magnitudes."""
    rng = np.random.default_rng(20)
    special = np.array([0, 0x80000000, 1, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
                        0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x7FA00000, 0x3F800000,
                        0xBF800000, 0x40490FDB, 0x3FC90FDB, 0x478BA000, 0x47E55E00, 0x49742400],
                       np.uint32).view(np.float32)
    bits = rng.integers(0, 1 << 32, 1 << 14, dtype=np.uint64).astype(np.uint32).view(np.float32)
    mags = np.concatenate([rng.uniform(-4, 4, 4096), rng.uniform(-200, 200, 4096),
                           rng.uniform(-2e5, 2e5, 4096), rng.uniform(-130, 130, 4096)]).astype(np.float32)
    return np.concatenate([special, bits, mags])


def _check(impl, fn: int, data: int) -> bool:
    """The loop gives the bits of ``impl`` (the ISA table's numpy implementation)."""
    x = _probe_values()
    with np.errstate(all="ignore"):
        want = np.asarray(impl(x), np.float32)
    got = np.full_like(x, np.nan)
    args = (ctypes.c_void_p * 2)(x.ctypes.data, got.ctypes.data)
    steps = (ctypes.c_ssize_t * 2)(4, 4)
    # in pieces of odd lengths too: a loop's result must not depend on where it starts
    for lo, hi in ((0, 7), (7, 300), (300, x.size)):
        args[0], args[1] = x.ctypes.data + 4 * lo, got.ctypes.data + 4 * lo
        _LOOP(fn)(args, (ctypes.c_ssize_t * 1)(hi - lo), steps, data or None)
    return bool(np.array_equal(want.view(np.uint32), got.view(np.uint32)))


_lock = threading.Lock()
_loops: list | None = None


def loops() -> list:
    """Per ``UFUNC_OPS`` entry: (function, data) pointers of numpy's float32 loop, or
    None where it cannot be used (looked up and checked once per process)."""
    global _loops
    with _lock:
        if _loops is None:
            found = []
            from uapi.isa import BY_NAME
            for name in UFUNC_OPS:
                try:
                    lp = _loop_of(getattr(np, name))
                except (ValueError, TypeError, OSError):
                    lp = None
                found.append(lp if lp is not None and _check(BY_NAME[name].impl, *lp) else None)
            _loops = found
        return _loops
