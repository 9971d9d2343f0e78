"""The Gallium blitter's programs (``driver.gallium.blitter``), from the GL front end.

The pipe never parses GLSL: the blitter draws with programs a layer above builds
(Mesa's util_blitter makes its shaders with nir_builder inside Gallium; here the
GL front end, which owns GLSL, has the compiler parse, link and lower them) and
hands it as ``PipeContext.blit_programs``. ``programs(kind, ms)`` is the
``BlitPrograms`` of one kind of blit: its vertex and fragment stages as
``compiler.variant.StageIR`` and their default uniform block. The inputs, the
uniforms and the outputs these programs use are the blitter's contract (its
module docstring lists them).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["BlitPrograms", "programs"]


@dataclass(frozen=True)
class BlitPrograms:
    vertex: Any         # compiler.variant.StageIR
    fragment: Any       # compiler.variant.StageIR
    block: Any          # compiler.link.DefaultBlock: both stages' default uniforms


_VS = """#version 330
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""

# source position of a destination pixel centre: box.xy + (centre - box.zw) * size.xy / size.zw
# (signed sizes flip); written so that positions on texel edges come out exact
_HEAD = """uniform vec4 box;
uniform vec4 size;
uniform int bit;
vec2 src_pos() { return box.xy + (gl_FragCoord.xy - box.zw) * size.xy / size.zw; }
ivec2 src_texel() { return ivec2(floor(src_pos())); }
"""

def _fs(kind: str, ms: bool) -> str:
    """The fragment program of one blit kind; ``ms``: the source is multisampled. It
    reads sample ``gl_SampleID``, whose use runs the program once per sample: into a
    multisampled destination (same sample count, as GL requires) each sample gets its
    own (GL 4.6 section 18.3.2); a single-sampled destination gets sample 0 (GL leaves
    the choice of sample to the implementation for depth, stencil and integer resolves)."""
    dim = "2DMS" if ms else "2D"
    head = "#version 330\n" + ("#extension GL_ARB_sample_shading : require\n" if ms else "") + _HEAD
    sample = "gl_SampleID" if ms else "0"
    if kind == "depth":
        return head + f"uniform sampler{dim} src;\n" \
            f"void main() {{ gl_FragDepth = texelFetch(src, src_texel(), {sample}).r; }}\n"
    if kind == "stencil":
        return head + f"uniform usampler{dim} src;\n" \
            "void main() {\n" \
            f"    if (bit >= 0 && ((texelFetch(src, src_texel(), {sample}).r >> uint(bit)) & 1u) == 0u) discard;\n" \
            "}\n"
    if kind in ("int", "uint"):
        p = kind[0]
        return head + f"uniform {p}sampler{dim} src;\nlayout(location = 0) out {p}vec4 o;\n" \
            f"void main() {{ o = texelFetch(src, src_texel(), {sample}); }}\n"
    assert kind == "float" and not ms, "float resolves are the hardware driver's"
    return head + "uniform sampler2D src;\nuniform vec2 inv_size;\nlayout(location = 0) out vec4 o;\n" \
        "void main() { o = texture(src, src_pos() * inv_size); }\n"


_MADE: dict[tuple[str, bool], BlitPrograms] = {}
_LOCK = threading.Lock()


def programs(kind: str, ms: bool) -> BlitPrograms:
    """The programs of one blit kind ("depth", "stencil", "int", "uint", "float";
    ``ms``: the source is multisampled), made once per process (they depend on
    nothing else: the same IR serves every pipe)."""
    with _LOCK:
        got = _MADE.get((kind, ms))
        if got is None:
            from compiler.link import program_default_block, shader_from_source
            vs, fs = shader_from_source(_VS, "vertex"), shader_from_source(_fs(kind, ms), "fragment")
            block = program_default_block([vs, fs])
            options = block.lowering_options()
            got = _MADE[(kind, ms)] = BlitPrograms(vs.stage_ir(options), fs.stage_ir(options), block)
        return got
