"""Every gl_Max* constant a shader can read equals the context's GL_MAX_* query
(GLSL 4.60 section 7.4: the built-in constants are the implementation's limits;
GLES 3.2 section 7.3 the same).

Read both sides: a fragment shader writes each constant (one pixel per
component, value + BIAS in the red/green/blue bytes) and the test compares the
pixels with glGetIntegerv/glGetIntegeri_v of the same context, in every context
type and at the newest shading-language version that context accepts."""

from __future__ import annotations

import re

import numpy as np
import pytest

import driver
from compiler.glsl.builtin_variables import LIMITS, _constant_entries
from compiler.glsl.versions import GLSLVersion
from driver.gl import enums as E
from tests.driver.agx.glhelp import program, vertices

BIAS = 1024          # gl_MinProgramTexelOffset is negative; the bytes carry value + BIAS

# constants whose GL query has another name or another unit (GLSL 4.60 section 7.4)
QUERY_OF = {
    "gl_MaxVertexOutputVectors": ("GL_MAX_VERTEX_OUTPUT_COMPONENTS", 4),
    "gl_MaxFragmentInputVectors": ("GL_MAX_FRAGMENT_INPUT_COMPONENTS", 4),
    "gl_MaxAtomicCounterBindings": ("GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", 1),
    "gl_MaxCombinedImageUnitsAndFragmentOutputs": ("GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES", 1),
    "gl_MaxDualSourceDrawBuffersEXT": ("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS", 1),    # EXT_blend_func_extended
}
# no GL query in any context this driver creates: GL_MAX_GEOMETRY_VARYING_COMPONENTS was
# ARB_geometry_shader4's only (not core GL 3.2+), gl_MaxImageSamples's query exists
NO_QUERY = {"gl_MaxGeometryVaryingComponents"}

APIS = ["compat", "gl32", "gl33", "gl43", "gl46", "gles2", "gles3", "gles31", "gles32"]


def _query_name(constant: str) -> tuple[str, int]:
    if constant in QUERY_OF:
        return QUERY_OF[constant]
    return "GL_" + re.sub(r"(?<!^)(?=[A-Z])", "_", constant[3:]).upper(), 1


def _version(ctx) -> tuple[GLSLVersion, str]:
    top = ctx.api.glsl[0]
    number = int(top.split()[0])
    if ctx.api.es:
        return GLSLVersion(number, True, "es"), top
    if ctx.api.compat and number >= 140:
        return GLSLVersion(number, False, "compatibility"), f"{number} compatibility"
    return GLSLVersion(number, False, "core" if number >= 150 else "compatibility"), top


def _readable(ctx, version: GLSLVersion) -> list[str]:
    exts = ctx.api.glsl_extensions
    return [name for avail, name in _constant_entries()
            if avail.available(version, "fragment", frozenset())
            or any(avail.available(version, "fragment", frozenset({e})) for e in exts)]


def _shader_values(ctx, version, directive, names) -> np.ndarray:
    """The constants as the fragment shader reads them, one pixel per component."""
    terms = []
    for name in names:
        width = len(LIMITS[name]) if isinstance(LIMITS[name], tuple) else 1
        for i in range(width):
            ref = f"{name}[{i}]" if width > 1 else name
            terms.append(f"float({ref})")
    enables = "".join(f"#extension {e} : enable\n" for e in sorted(ctx.api.glsl_extensions))
    body = " +\n    ".join(f"(x == {i} ? {t} : 0.0)" for i, t in enumerate(terms))
    legacy_out = version.number in (100, 110, 120)
    head = f"#version {directive}\n{enables}"
    if version.es:
        head += "precision highp float; precision highp int;\n"
    vs = head + ("attribute vec2 pos;\n" if legacy_out else "in vec2 pos;\n") + \
        "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
    fs = head + ("" if legacy_out else "out vec4 o;\n") + f"""
void main() {{
  int x = int(gl_FragCoord.x);
  float v = {body};
  v += {float(BIAS)};
  vec4 c = vec4(mod(v, 256.0), mod(floor(v / 256.0), 256.0), floor(v / 65536.0), 255.0) / 255.0;
  {"gl_FragColor" if legacy_out else "o"} = c;
}}
"""
    p = program(ctx, vs, fs)
    triangle = np.array([-1, -1, 3, -1, -1, 3], np.float32)
    if ctx.api.es and ctx.api.version < (3, 0):         # no vertex array objects in GLES 2.0
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ARRAY_BUFFER, triangle.nbytes, triangle.tobytes(), E.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(p, "pos")
        ctx.glEnableVertexAttribArray(loc)
        ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 8, 0)
    else:
        vertices(ctx, p, triangle, {"pos": (2, 0)}, 2)
    ctx.glUseProgram(p)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = ctx.read_pixels()[0, :len(terms)].astype(np.int64)
    return px[:, 0] + 256 * px[:, 1] + 65536 * px[:, 2] - BIAS


def _query_values(ctx, names) -> list:
    out = []
    for name in names:
        enum_name, divisor = _query_name(name)
        enum = getattr(E, enum_name)
        if isinstance(LIMITS[name], tuple):
            got = [ctx.glGetIntegeri_v(enum, i) for i in range(len(LIMITS[name]))]
        else:
            got = [ctx.glGetIntegerv(enum)]
        if ctx.glGetError() != E.GL_NO_ERROR:
            out += [f"{enum_name}: GL error"] * len(got)      # readable in GLSL, not queryable
        else:
            out += [int(np.ravel(g)[0]) // divisor for g in got]
    return out


@pytest.mark.parametrize("api", APIS)
def test_every_readable_constant_equals_the_query(api):
    ctx = driver.Context(api=api, width=128, height=1)
    version, directive = _version(ctx)
    names = [n for n in _readable(ctx, version) if n not in NO_QUERY]
    assert names, "no gl_Max* constant is readable"
    assert len(names) + sum(len(LIMITS[n]) - 1 for n in names if isinstance(LIMITS[n], tuple)) <= 128
    shader = list(_shader_values(ctx, version, directive, names))
    query = _query_values(ctx, names)
    labels = [f"{n}[{i}]" if isinstance(LIMITS[n], tuple) else n
              for n in names for i in range(len(LIMITS[n]) if isinstance(LIMITS[n], tuple) else 1)]
    # GLES 2.0 too: EXT_draw_buffers gives it GL_MAX_DRAW_BUFFERS, which gl_MaxDrawBuffers equals
    wrong = {label: (s, q) for label, s, q in zip(labels, shader, query) if s != q}
    assert not wrong, f"{api} ({directive}): constant (shader, query) differ: {wrong}"
