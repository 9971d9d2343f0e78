"""The scope every entry point of the compiler runs in: the nesting limit and the
recursion budget it implies, the garbage collector eased, and a bug reported as
the entry point's own error (``bugs_as``). Below every part of the compiler (the
GLSL front end, the lowering, the variant passes and the backend all enter it),
so that a part that never parses GLSL does not import the front end for it.

The parser, the checker, the lowering and the IR passes recurse over nested
constructs (parentheses, unary operators, calls, ``?:``, assignments, blocks,
``if``s, loops). Rather than run out of Python stack on a deeply nested shader,
the parser counts nesting and reports ``MAX_NESTING_DEPTH`` as a compile error
(as Mesa's bison parser does when its stack is exhausted, and as ANGLE limits
expression complexity). Chains of binary operators (``a + b + ... + z``) do not
nest: the parser reads them in a loop and every later pass walks their left
spine iteratively, so a sum of thousands of terms compiles. Loops have their
own, smaller limit, ``MAX_LOOP_DEPTH``.

Below the limit the recursion depth of every pass is bounded by
``MAX_NESTING_DEPTH`` times a small number of frames per level; the public
entry points run inside ``recursion_headroom()``, which makes sure the
interpreter's recursion limit leaves ``RECURSION_HEADROOM`` frames above the
caller (Python 3.11+ does not use the C stack for Python-to-Python calls, so
the raised limit is safe). The previous limit is restored when the last
compile on any thread leaves.

The same scope eases Python's cyclic garbage collector (``COMPILE_GC_THRESHOLDS``)
while a compile runs: a large shader is millions of linked objects (soft-fp64 code
of 40,000 instructions), and at the default thresholds the older generations are
walked again and again as they grow, a quarter of such a compile's CPU time; the
objects a compile leaves are still collected, later, and the caller's thresholds
come back when the last compile leaves.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from contextlib import contextmanager

__all__ = ["MAX_LOOP_DEPTH", "MAX_NESTING_DEPTH", "RECURSION_HEADROOM", "bugs_as", "internal_error_text",
           "recursion_headroom"]

# Nested expressions and statements the parser accepts (each '(' group, unary
# operator, call, index, '?:' operand, assignment, block or control statement
# is one level).
MAX_NESTING_DEPTH = 256

# Loops nested in each other (for, while, do). Several passes (loop analysis,
# liveness in the register allocator) take time growing faster than linearly
# with loop depth; 64 levels compile in seconds, far beyond what shaders use.
MAX_LOOP_DEPTH = 64

# Python frames a compile may use above its caller: the worst construct costs
# about 20 parser frames per nesting level (a parenthesised operand under every
# precedence level), the later passes fewer.
RECURSION_HEADROOM = 24 * MAX_NESTING_DEPTH + 2000

# gc.set_threshold while a compile runs: the youngest generation collected every
# 100,000 allocations instead of 700 (piglit's fs-op-mult-dmat4-dmat4 compiles in
# 9.5 s of CPU instead of 13.2; its peak memory 327 MB instead of 316)
COMPILE_GC_THRESHOLDS = (100_000, 50, 100)

_lock = threading.Lock()
_users = 0
_saved_limit = 0
_saved_gc = (700, 10, 10)


def _depth() -> int:
    f, n = sys._getframe(1), 0
    while f is not None:
        f, n = f.f_back, n + 1
    return n


@contextmanager
def recursion_headroom(frames: int = RECURSION_HEADROOM):
    """Run the body with at least ``frames`` Python frames of recursion available
    (and the garbage collector eased, see the module notes)."""
    global _users, _saved_limit, _saved_gc
    need = _depth() + frames
    with _lock:
        if _users == 0:
            _saved_limit = sys.getrecursionlimit()
            _saved_gc = gc.get_threshold()
            gc.set_threshold(*COMPILE_GC_THRESHOLDS)
        _users += 1
        if sys.getrecursionlimit() < need:
            sys.setrecursionlimit(need)
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                sys.setrecursionlimit(_saved_limit)
                gc.set_threshold(*_saved_gc)


def internal_error_text(e: BaseException) -> str:
    """The message for a bug in the compiler itself (an exception that is not one of
    the documented errors): the caller still gets an error, never a traceback."""
    return f"internal compiler error: {type(e).__name__}: {e}"


@contextlib.contextmanager
def bugs_as(error_type: type[Exception], *documented: type[Exception]):
    """Inside: an exception other than ``error_type`` and the ``documented`` errors (a
    bug in the compiler itself) is raised again as ``error_type`` with
    ``internal_error_text``, chained to it: a compiler bug is still a compile failure."""
    try:
        yield
    except (error_type, *documented):
        raise
    except Exception as e:  # noqa: BLE001 - a compiler bug is still a compile failure
        raise error_type(internal_error_text(e)) from e
