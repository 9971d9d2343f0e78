"""A Python program whose interpreter gave PyCapsule_Type a type version tag before
its first GL call (any attribute lookup on a capsule does it; pybind11 modules such
as Taichi's do it at import) used to abort in cffi's embedding start-up, which
borrows that word as a lock and asserted it held 0 or its own mark. The library's
build accepts a tag there (driver/abi/build.py _patch_embedding_lock)."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_first_call_after_a_capsule_got_a_version_tag(shimgl_env):
    res = run([sys.executable, PY_DIR / "capsule_tagged_host.py"], dict(shimgl_env, PYOPENGL_PLATFORM="egl"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK"), res.stdout
