"""Every concrete overload of every built-in function of the front end's table
(about 1,500: each sampler and image type, each genType size) is called in a
shader of a version and stage where it exists, and lowered (front_half with the
IR validated after every pass). Values are checked per family in the other
test files; this one guarantees no overload is left unlowered or crashes."""

from __future__ import annotations

import pytest

from compiler.compile import front_half as _front_half
from compiler.glsl import parse
from compiler.ir import ShaderKey
from compiler.lower.geometry import standalone_key
from compiler.glsl import types as GT
from compiler.glsl.builtin_functions import all_builtin_functions
from compiler.glsl.versions import EXTENSIONS

_COMPILER_EXTENSIONS = {e.name: e for e in EXTENSIONS}
FUNCS = [f for f in all_builtin_functions() if f.name not in ("packDouble2x32", "unpackDouble2x32")]


def _value(t: GT.GLSLType) -> str:
    if t.is_array:
        return f"{t}({', '.join(_value(t.element) for _ in range(t.length))})"
    if t.base == "bool":
        return f"{t.name}(false)"
    return f"{t.name}(1)"


_IMAGE_FORMAT = {"float": "rgba32f", "int": "r32i", "uint": "r32ui"}


def shader_for(f) -> tuple[str, str]:
    a = f.availability
    if a.desktop:
        # the function's own version when it is newer than 4.30 (the compiler takes 4.40 and 4.50)
        number = max(430, a.desktop)
        head = f"#version {number} compatibility\n" if a.deprecated else f"#version {number}\n"
    elif a.es:
        head = "#version 100\n" if a.es_until else f"#version {max(a.es, 310)} es\nprecision highp float;\n" \
            "precision highp int;\n"
    else:       # an extension-only function: 4.30 for a desktop-only extension, else the
        # lowest GLSL ES version where the extension may be enabled
        es_from = _COMPILER_EXTENSIONS[a.extensions[0]].es
        head = "#version 430\n" if not es_from else "#version 100\n" if es_from == 100 else \
            f"#version {es_from} es\n"
    if head.startswith("#version 300 es") and any(t.is_sampler and t.name == "samplerCubeArrayShadow"
                                                  for _d, t in f.params):
        head = "#version 320 es\n"        # (EXT_texture_shadow_lod: cube-map arrays are GLSL ES 3.20's)
    for ext in (a.extensions[:1] if not (a.desktop or a.es) else ()) + a.requires:
        head += f"#extension {ext} : enable\n"
    if head.startswith("#version 100"):
        head += "precision highp float;\n"
    elif "precision" not in head and " es\n" in head:     # after the #extension lines
        head += "precision highp float;\nprecision highp int;\n"
    stage = sorted(a.stages)[0] if a.stages else ("compute" if f.name in ("barrier",) else "fragment")
    if stage == "tess_control" and f.name == "barrier":    # the same lowering as compute's, with no draw key
        stage = "compute"
    decls, args, body = [], [], []
    if stage == "geometry":        # a geometry shader needs its primitives and vertex count
        decls.append("layout(points) in; layout(points, max_vertices = 1) out;")
    es = "es" in head or "100" in head
    if es and "#version 100" not in head:
        decls.append("precision highp sampler2DArray; precision highp sampler3D; precision highp samplerCube;"
                     " precision highp sampler2DShadow; precision highp sampler2DArrayShadow;"
                     " precision highp samplerCubeShadow;"
                     + (" precision highp samplerCubeArrayShadow;" if head.startswith("#version 320") else "")
                     + ("" if head.startswith("#version 300") else " precision highp image2D;"))  # images: 3.10
    for i, (direction, t) in enumerate(f.params):
        if t.is_sampler:
            decls.append(f"uniform {t.name} u{i};")
            args.append(f"u{i}")
        elif t.is_image:
            decls.append(f"layout({_IMAGE_FORMAT[t.sampled_base]}) uniform {'highp ' if es else ''}{t.name} u{i};")
            args.append(f"u{i}")
        elif t.base == "atomic_uint":
            decls.append(f"layout(binding = 0) uniform atomic_uint u{i};")
            args.append(f"u{i}")
        elif direction in ("out", "inout") and f.name.startswith("atomic"):
            decls.append(f"layout(std430, binding = 0) buffer B {{ {t.name} m; }};")
            args.append("m")
        elif direction in ("out", "inout"):
            body.append(f"{t} v{i} = {_value(t)};")
            args.append(f"v{i}")
        elif f.name.startswith("interpolateAt") and i == 0:      # an l-value of a fragment input
            decls.append(f"in {t.name} u{i};")
            args.append(f"u{i}")
        elif f.name.startswith("textureGather") and i == len(f.params) - 1 and t == GT.INT:
            args.append("1")
        else:
            args.append(_value(t))
    call = f"{f.name}({', '.join(args)})"
    body.append(f"{call};" if f.return_type.is_void else f"{f.return_type} r = {call};")
    if stage == "compute" and "local_size" not in head:
        decls.append("layout(local_size_x = 1) in;")
    src = head + "\n".join(decls) + "\nvoid main() {\n    " + "\n    ".join(body) + "\n}\n"
    return src, stage


def front_half(src: str, stage: str):
    """The front half of a shader; a geometry shader as the kernel of a draw of its
    input primitive (``shimgl compile``'s key)."""
    key = ShaderKey.make(gs=standalone_key(parse(src, "geometry"))) if stage == "geometry" else None
    return _front_half(src, stage, key)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(FUNCS)))
def test_overload_lowers(index):
    f = FUNCS[index]
    src, stage = shader_for(f)
    front_half(src, stage)


def test_a_sample_of_overloads_lowers():
    """A fast subset (every 25th overload) for the default run."""
    for f in FUNCS[::25]:
        src, stage = shader_for(f)
        front_half(src, stage)
