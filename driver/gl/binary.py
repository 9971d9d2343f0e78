"""Program binaries (GL 4.6 section 7.5, GLES 3.2 section 7.5): shimgl's one binary
format.

Sole responsibility: serialise what a successful link used (each stage's GLSL text
as compiled, or its SPIR-V module with the entry point and specialization constants
glSpecializeShader gave, attribute and fragment-output bindings, transform feedback
varyings, separability) and read it back, rejecting anything that is not intact or was made
by another driver build or context flavour. Shader variants depend on draw-time
state, so the binary carries sources and ``glProgramBinary`` compiles and links
them again; the driver hash makes a binary from another build a link failure, as
the specification allows, never a crash.

Layout: ``MAGIC`` (8 bytes), format version (u32 LE), driver hash (32 bytes,
SHA-256), payload length (u32 LE), payload SHA-256 (32 bytes), payload (UTF-8 JSON).
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["PROGRAM_BINARY_FORMAT", "BinaryError", "ProgramImage", "available", "driver_hash", "pack",
           "unpack"]

PROGRAM_BINARY_FORMAT = 0x875F      # GL_PROGRAM_BINARY_FORMAT_MESA: the registry's driver-defined format
MAGIC = b"SHIMGLPB"
VERSION = 1
_HEADER = struct.Struct("<8sI32sI32s")


def available(api) -> bool:
    """Program binaries exist in a context: GL 4.1, GLES 3.0, or a context listing
    GL_ARB_get_program_binary (core GL 3.2+ and compatibility contexts)."""
    return api.gl_or_es((4, 1), (3, 0)) or api.has_extension("GL_ARB_get_program_binary")


class BinaryError(Exception):
    """The binary is not one this driver build and context flavour can load."""


@dataclass(frozen=True)
class ProgramImage:
    """What glProgramBinary relinks from."""
    shaders: tuple[tuple[int, str], ...]          # (shader type enum, GLSL text as compiled)
    attrib_bindings: dict
    frag_data_bindings: dict
    tf_varyings: tuple[str, ...]
    tf_buffer_mode: int
    separable: bool
    #: SPIR-V shader objects: (index in ``shaders``, module, entry point, ((SpecId, value), ...))
    spirv: tuple[tuple[int, bytes, str, tuple[tuple[int, int], ...]], ...] = ()


@lru_cache(maxsize=None)
def driver_hash(api_name: str) -> bytes:
    """Identifies the driver build (the GL front end's and compiler's code as this
    process loaded it) and the context flavour; binaries load only where it matches."""
    import compiler
    from pathlib import Path
    front_end = Path(__file__).parent            # driver/gl, this module's package
    h = hashlib.sha256(f"shimgl program binary {VERSION} {api_name}".encode())
    for init in (front_end / "__init__.py", compiler.__file__):
        h.update(str(init).encode())
    for path in sorted(front_end.glob("*.py")) + \
            sorted(Path(compiler.__file__).parent.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.digest()


def pack(image: ProgramImage, api_name: str) -> bytes:
    payload = json.dumps({
        "shaders": [[t, src] for t, src in image.shaders],
        "attrib_bindings": image.attrib_bindings, "frag_data_bindings": image.frag_data_bindings,
        "tf_varyings": list(image.tf_varyings), "tf_buffer_mode": image.tf_buffer_mode,
        "separable": image.separable,
        "spirv": [[i, base64.b64encode(module).decode(), entry, [list(c) for c in spec]]
                  for i, module, entry, spec in image.spirv]}, sort_keys=True).encode()
    return _HEADER.pack(MAGIC, VERSION, driver_hash(api_name), len(payload),
                        hashlib.sha256(payload).digest()) + payload


def unpack(data: bytes, api_name: str) -> ProgramImage:
    data = bytes(data)
    if len(data) < _HEADER.size:
        raise BinaryError("program binary is truncated")
    magic, version, dhash, n, digest = _HEADER.unpack_from(data)
    if magic != MAGIC or version != VERSION:
        raise BinaryError("not a shimgl program binary")
    if dhash != driver_hash(api_name):
        raise BinaryError("program binary made by another driver build or context type")
    payload = data[_HEADER.size:]
    if len(payload) != n or hashlib.sha256(payload).digest() != digest:
        raise BinaryError("program binary is corrupt")
    try:
        d = json.loads(payload.decode())
        return ProgramImage(tuple((int(t), str(s)) for t, s in d["shaders"]),
                            {str(k): int(v) for k, v in d["attrib_bindings"].items()},
                            {str(k): tuple(v) if isinstance(v, list) else v
                             for k, v in d["frag_data_bindings"].items()},
                            tuple(str(v) for v in d["tf_varyings"]), int(d["tf_buffer_mode"]),
                            bool(d["separable"]),
                            tuple((int(i), base64.b64decode(module, validate=True), str(entry),
                                   tuple((int(k), int(v)) for k, v in spec))
                                  for i, module, entry, spec in d.get("spirv", ())))
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise BinaryError(f"program binary is corrupt ({e})") from None
