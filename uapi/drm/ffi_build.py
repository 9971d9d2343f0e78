"""Build step: the DRM header's cffi declarations compiled ahead of time.

cffi's out-of-line ABI mode (``set_source(name, None)``) turns the parsed
declarations of ``shimgl_drm.h`` into a plain Python module (``_header_ffi.py``)
that ``_cffi_backend`` loads without pycparser: no C is parsed when a process
starts. The module also records the exact header text it was made from, so
``uapi.drm.header`` uses it only while it matches the header on disk and
otherwise parses the header at run time (an edited header in an editable
checkout keeps working before the next install).

Run by the install (``driver/abi/setuptools_hook.py``) or by hand:
``python uapi/drm/ffi_build.py [OUTDIR]`` (default: beside this file). Loaded
by file path during the build, so it imports nothing of ours."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

__all__ = ["MODULE", "build"]

HERE = Path(__file__).resolve().parent
#: the generated module, importable as ``uapi.drm._header_ffi``
MODULE = "_header_ffi"


def build(outdir: Path | str = HERE, header: Path | str | None = None) -> Path:
    """Write ``OUTDIR/_header_ffi.py`` from the header (default: the one beside
    this file); returns its path."""
    import cffi

    text = Path(header or HERE / "shimgl_drm.h").read_text()
    ffi = cffi.FFI()
    ffi.cdef(text)
    return write_module(ffi, text, outdir)


def write_module(ffi, text: str, outdir: Path | str = HERE) -> Path:
    """Write the module of ``ffi`` (a ``cffi.FFI`` on which exactly ``text`` was
    cdef'd) to ``OUTDIR/_header_ffi.py``. The write is atomic (a temporary file
    renamed over the old one), so a process starting meanwhile reads either
    version, never a partial one."""
    import contextlib
    import io

    outdir = Path(outdir)
    ffi.set_source(f"uapi.drm.{MODULE}", None)
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shimgl-ffi-") as tmp:
        generated = Path(tmp) / f"{MODULE}.py"
        with contextlib.redirect_stdout(io.StringIO()):      # cffi reports "generating ..."
            ffi.emit_python_code(str(generated))
        code = generated.read_text()
    code += f"\n# the header this module was generated from (checked before use)\nHEADER_SOURCE = {text!r}\n"
    dst = outdir / f"{MODULE}.py"
    fd, tmp_name = tempfile.mkstemp(prefix=f".{MODULE}.", suffix=".py", dir=outdir)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(code)
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, dst)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    return dst


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else HERE))
