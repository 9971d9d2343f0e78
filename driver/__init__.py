"""driver: the userspace GL driver stack.

Owns the GL front end (driver.gl: state, validation, GL errors, linking), the
Gallium-like pipe layer (driver.gallium), the AGX-like hardware driver
(driver.agx: batches, encoders, BOs, shader variants, submission), EGL/OSMesa and
the C ABI, and the `shimgl` command line.

May import: uapi, layout, compiler. Must never import drmshim: it reaches the
kernel only through the uapi seam, as a real driver reaches a real kernel only
through syscalls. See README.md."""

__all__: list[str] = ["Context"]

# The code @dataclass compiles for each class comes from a disk cache (about
# half of the CPU a short GL process spent importing shimgl): see dataclass_cache.
from driver import dataclass_cache as _dataclass_cache  # noqa: E402

_dataclass_cache.install()


def __getattr__(name):
    # driver.Context (driver.agx.face) is imported on first use: importing `driver`
    # must not pull in the whole stack
    if name == "Context":
        from driver.agx.face import Context
        return Context
    raise AttributeError(f"module 'driver' has no attribute {name!r}")
