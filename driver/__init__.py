"""driver: the userspace GL driver stack.

Owns the GL front end (driver.gl: state, validation, GL errors, linking), the
Gallium-like pipe layer (driver.gallium), the AGX-like hardware driver
(driver.agx: batches, encoders, BOs, shader variants, submission), EGL/OSMesa and
the C ABI, and the `shimgl` command line.

May import: uapi, layout, compiler. Must never import drmshim: it reaches the
kernel only through the uapi seam, as a real driver reaches a real kernel only
through syscalls. See README.md."""

from driver.agx.face import Context  # noqa: E402

__all__: list[str] = ["Context"]
